//! Table files: written atomically, read back, refused with a clear error when bad, and a build
//! that resumes where it stopped.

use krou::egdb::file::{self, FileError};
use krou::egdb::{Layer, Tables};
use krou::rules::GrandSlam;
use std::path::{Path, PathBuf};

const RULE: GrandSlam = GrandSlam::NoCapture;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-egdb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn built(dir: &Path, seeds: u8) -> Tables {
    Tables::build_into(dir, RULE, seeds, 2, &|_| {}).expect("build")
}

fn bytes_of(dir: &Path, seeds: u8) -> Vec<u8> {
    std::fs::read(dir.join(file::file_name(RULE, seeds))).expect("file")
}

#[test]
fn written_tables_load_back_identical() {
    let dir = scratch("roundtrip");
    let tables = built(&dir, 6);
    let (loaded, refused) = Tables::load(&dir, RULE, 24);
    assert!(refused.is_none());
    assert_eq!(loaded, tables);
    assert_eq!(loaded.max_seeds(), Some(6));
    let names: Vec<_> = std::fs::read_dir(&dir).expect("dir").flatten().collect();
    assert_eq!(names.len(), 7, "one file per seed count, no temporary left");
    // Loaded again once settled, each file is checked whole once more and recorded as such.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    assert_eq!(Tables::load(&dir, RULE, 24).0, tables);
    let records = std::fs::read_dir(&dir).expect("dir").flatten();
    let records = records.filter(|e| e.file_name().to_string_lossy().ends_with(".checked"));
    assert_eq!(records.count(), 7, "one record of the check per file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_holds_a_header_and_one_byte_per_board() {
    let dir = scratch("size");
    built(&dir, 5);
    assert_eq!(bytes_of(&dir, 5).len(), 32 + 4368);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_changed_after_its_check_was_recorded_is_checked_again() {
    let dir = scratch("recorded");
    built(&dir, 5);
    std::thread::sleep(std::time::Duration::from_millis(2100));
    assert!(
        Tables::load(&dir, RULE, 5).1.is_none(),
        "checked whole and recorded"
    );
    let path = dir.join(file::file_name(RULE, 5));
    assert!(dir.join(".no-capture-05.egdb.checked").exists());
    // One byte changed in place, the length kept: the record no longer names the file.
    let mut bytes = bytes_of(&dir, 5);
    bytes[100] = bytes[100].wrapping_add(2) % 49;
    std::fs::write(&path, &bytes).expect("rewritten");
    let (tables, refused) = Tables::load(&dir, RULE, 5);
    assert!(
        matches!(refused.map(|e| e.error), Some(FileError::Checksum)),
        "refused"
    );
    assert_eq!(tables.max_seeds(), Some(4));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    let dir = scratch("bad");
    built(&dir, 4);
    let good = bytes_of(&dir, 4);
    let parse = |bytes: &[u8], rule, seeds| file::parse_layer(bytes, rule, seeds);
    assert!(parse(&good, RULE, 4).is_ok());
    assert!(matches!(
        parse(&good[..good.len() - 1], RULE, 4),
        Err(FileError::Truncated { .. })
    ));
    assert!(matches!(
        parse(&good[..10], RULE, 4),
        Err(FileError::Truncated { .. })
    ));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(parse(&magic, RULE, 4), Err(FileError::BadMagic)));
    let mut version = good.clone();
    version[8] = 9;
    assert!(matches!(
        parse(&version, RULE, 4),
        Err(FileError::Version(9))
    ));
    assert!(matches!(
        parse(&good, GrandSlam::Forbidden, 4),
        Err(FileError::Rule { found: 0, .. })
    ));
    assert!(matches!(
        parse(&good, RULE, 5),
        Err(FileError::Seeds { found: 4, .. })
    ));
    let mut count = good.clone();
    count[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        parse(&count, RULE, 4),
        Err(FileError::Layer(
            krou::egdb::layer::LayerError::WrongLength { .. }
        ))
    ));
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(matches!(parse(&flipped, RULE, 4), Err(FileError::Checksum)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_codes_are_refused_even_with_a_good_checksum() {
    let codes = vec![250u8; 12];
    assert!(Layer::new(1, codes).is_err());
    assert!(Layer::new(1, vec![24; 11]).is_err(), "too few codes");
    assert!(
        Layer::new(1, vec![24 + 2; 12]).is_err(),
        "value above the seeds"
    );
}

#[test]
fn loading_stops_at_a_bad_file_and_keeps_the_layers_below() {
    let dir = scratch("stop");
    built(&dir, 5);
    let path = dir.join(file::file_name(RULE, 3));
    let bytes = bytes_of(&dir, 3);
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("truncate");
    let (tables, refused) = Tables::load(&dir, RULE, 24);
    assert_eq!(tables.max_seeds(), Some(2));
    let refused = refused.expect("the truncated file is refused");
    assert_eq!(refused.path, path);
    assert!(refused.to_string().contains("truncated"), "{refused}");
    let (other_rule, refused) = Tables::load(&dir, GrandSlam::CaptureAll, 24);
    assert_eq!(other_rule.max_seeds(), None);
    assert!(refused.is_none(), "missing files are no error");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_build_resumes_at_the_first_missing_or_bad_file() {
    let dir = scratch("resume");
    built(&dir, 3);
    let kept = std::fs::metadata(dir.join(file::file_name(RULE, 2)))
        .and_then(|m| m.modified())
        .expect("mtime");
    // An interrupted write leaves only a temporary file; a corrupt file is rebuilt.
    std::fs::write(dir.join(".no-capture-04.egdb.tmp1"), b"partial").expect("temp");
    std::fs::write(dir.join(file::file_name(RULE, 3)), b"junk").expect("junk");
    let tables = built(&dir, 5);
    assert_eq!(tables, Tables::build(RULE, 5, 1));
    let again = std::fs::metadata(dir.join(file::file_name(RULE, 2)))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(kept, again, "finished files are not rewritten");
    assert!(file::read_layer(&dir, RULE, 3).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_killed_writer_s_temporary_file_is_removed_and_a_running_one_s_kept() {
    let dir = scratch("stale");
    // A process that has ended: its pid names a writer that was killed.
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("spawn true");
    let ended = child.id();
    child.wait().expect("wait");
    let stale = dir.join(format!(".no-capture-03.egdb.tmp{ended}"));
    // Pid 1 is always running: its temporary file may still be being written.
    let running = dir.join(".no-capture-03.egdb.tmp1");
    let other_layer = dir.join(format!(".no-capture-09.egdb.tmp{ended}"));
    // Like `stale`, but written a moment ago (its writer may be out of this process's sight).
    let recent = dir.join(format!(".no-capture-02.egdb.tmp{ended}"));
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for path in [&stale, &running, &other_layer, &recent] {
        std::fs::write(path, b"partial").expect("temp");
        if path != &recent {
            let file = std::fs::File::options()
                .write(true)
                .open(path)
                .expect("open");
            file.set_modified(an_hour_ago).expect("set mtime");
        }
    }
    built(&dir, 3);
    if Path::new("/proc/self").exists() {
        assert!(
            !stale.exists(),
            "the ended writer's old temporary file is gone"
        );
    }
    assert!(running.exists(), "a running writer's file is kept");
    assert!(
        other_layer.exists(),
        "only the layer being written is cleaned"
    );
    assert!(
        recent.exists(),
        "a file changed in the last minutes is kept"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// FNV-1a, 64 bits, byte by byte: the checksum of format version 1.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn files_of_format_1_are_read_and_a_build_rewrites_them_in_the_current_format() {
    let dir = scratch("format1");
    built(&dir, 6);
    let current = bytes_of(&dir, 5);
    assert_eq!(current[8], 2, "files are written in format 2");
    // The same layer as format 1 wrote it: version 1, byte-by-byte FNV-1a.
    let mut old = current.clone();
    old[8] = 1;
    let sum = fnv1a(&old[32..]);
    old[24..32].copy_from_slice(&sum.to_le_bytes());
    assert!(file::parse_layer(&old, RULE, 5).is_ok());
    let mut corrupt = old.clone();
    corrupt[40] ^= 1;
    assert!(matches!(
        file::parse_layer(&corrupt, RULE, 5),
        Err(FileError::Checksum)
    ));
    std::fs::write(dir.join(file::file_name(RULE, 5)), &old).expect("write format 1");
    let (loaded, refused) = Tables::load(&dir, RULE, 24);
    assert!(refused.is_none());
    assert_eq!(loaded.max_seeds(), Some(6));
    let rebuilt = built(&dir, 6);
    assert_eq!(rebuilt, loaded);
    assert_eq!(
        bytes_of(&dir, 5),
        current,
        "rewritten in format 2, codes unchanged"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
