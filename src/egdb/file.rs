//! Table files: one per seed count, a header then one code per board.
//!
//! ```text
//! offset size  field
//!      0    8  magic "KROUEGDB"
//!      8    4  format version, little-endian (2; version 1 files are read too)
//!     12    1  grand-slam rule: 0 no-capture, 1 forbidden, 2 capture-all
//!     13    1  seeds on every board
//!     14    2  zero
//!     16    8  number of boards, little-endian: C(seeds + 11, 11)
//!     24    8  checksum of the codes, little-endian (see `checksum`)
//!     32    …  one code per board, in index order (see `bounds`)
//! ```
//! Files are written to a temporary name in the same directory, synced, then renamed, so a file
//! with the final name is always complete.

use super::index::{MAX_SEEDS, board_count};
use super::layer::{Layer, LayerError};
use super::mapped::MappedFile;
use crate::rules::GrandSlam;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"KROUEGDB";
/// The format this code writes. It reads this one and version 1, which differs only in its
/// checksum (slower to compute); `krou egdb build` rewrites version 1 files it finds.
pub const FORMAT_VERSION: u32 = 2;
const HEADER_LEN: usize = 32;

/// The file name of the layer of `seeds` seeds under `rule`, e.g. `no-capture-12.egdb`.
pub fn file_name(rule: GrandSlam, seeds: u8) -> String {
    format!("{}-{seeds:02}.egdb", rule.name())
}

/// Why a table file was refused.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// Shorter than a header.
    Truncated {
        /// Bytes needed.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// Not a Krou table file.
    BadMagic,
    /// A format this version cannot read.
    Version(u32),
    /// A table for another grand-slam rule (or an unknown rule byte).
    Rule {
        /// The rule asked for.
        expected: GrandSlam,
        /// The rule byte found.
        found: u8,
    },
    /// A table for another seed count.
    Seeds {
        /// Seeds asked for.
        expected: u8,
        /// Seeds found.
        found: u8,
    },
    /// The codes do not match the checksum in the header.
    Checksum,
    /// The codes do not make a valid layer.
    Layer(LayerError),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "{e}"),
            FileError::Truncated { expected, found } => {
                write!(f, "truncated: {found} bytes where {expected} are needed")
            }
            FileError::BadMagic => write!(f, "not a Krou endgame table (bad magic)"),
            FileError::Version(v) => {
                write!(
                    f,
                    "format version {v}, but this Krou reads versions 1 to {FORMAT_VERSION}"
                )
            }
            FileError::Rule { expected, found } => match rule_of(*found) {
                Some(rule) => write!(f, "built for grand-slam rule {rule}, not {expected}"),
                None => write!(f, "unknown grand-slam rule byte {found}"),
            },
            FileError::Seeds { expected, found } => {
                write!(f, "holds {found} seeds, not {expected}")
            }
            FileError::Checksum => write!(f, "checksum mismatch: the file is corrupt"),
            FileError::Layer(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FileError {}

/// A refused file and why.
#[derive(Debug)]
pub struct TableFileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub error: FileError,
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "endgame table {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for TableFileError {}

fn rule_byte(rule: GrandSlam) -> u8 {
    match rule {
        GrandSlam::NoCapture => 0,
        GrandSlam::Forbidden => 1,
        GrandSlam::CaptureAll => 2,
    }
}

fn rule_of(byte: u8) -> Option<GrandSlam> {
    GrandSlam::ALL.into_iter().find(|&r| rule_byte(r) == byte)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The checksum of `codes` in format `version`:
/// - 1: FNV-1a, 64 bits, byte by byte;
/// - 2: four FNV-1a lanes over the little-endian 64-bit words of each 32-byte block (the last
///   block padded with zeros), then the four lanes folded by FNV-1a: eight times fewer
///   multiplications than version 1, in four independent chains, so a 2.7 GB set of tables is
///   checked in a fraction of a second instead of seconds.
fn checksum(version: u32, codes: &[u8]) -> u64 {
    let mut sum = Checksum::new(version);
    sum.add(codes);
    sum.finish()
}

/// A checksum taken over pieces of the codes in turn (every piece but the last a multiple of
/// 32 bytes long), as [`checksum`] takes it over all of them.
struct Checksum {
    version: u32,
    lanes: [u64; 4],
}

impl Checksum {
    fn new(version: u32) -> Checksum {
        Checksum {
            version,
            lanes: [FNV_OFFSET; 4],
        }
    }

    fn add(&mut self, codes: &[u8]) {
        if self.version == 1 {
            self.lanes[0] = codes.iter().fold(self.lanes[0], |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
            });
            return;
        }
        let fold = |lanes: &mut [u64; 4], block: &[u8]| {
            for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                let word = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
                *lane = (*lane ^ word).wrapping_mul(FNV_PRIME);
            }
        };
        let mut blocks = codes.chunks_exact(32);
        for block in &mut blocks {
            fold(&mut self.lanes, block);
        }
        let rest = blocks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 32];
            last[..rest.len()].copy_from_slice(rest);
            fold(&mut self.lanes, &last);
        }
    }

    fn finish(&self) -> u64 {
        if self.version == 1 {
            return self.lanes[0];
        }
        self.lanes
            .iter()
            .fold(FNV_OFFSET, |h, &lane| (h ^ lane).wrapping_mul(FNV_PRIME))
    }
}

fn header(rule: GrandSlam, layer: &Layer) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = rule_byte(rule);
    h[13] = layer.seeds();
    h[16..24].copy_from_slice(&(layer.codes().len() as u64).to_le_bytes());
    h[24..32].copy_from_slice(&checksum(FORMAT_VERSION, layer.codes()).to_le_bytes());
    h
}

/// Writes `layer` into `dir` under its [`file_name`], atomically; returns the path. The
/// temporary files that earlier writers of the same file left when they were killed are
/// removed first (those whose process is gone).
pub fn write_layer(dir: &Path, rule: GrandSlam, layer: &Layer) -> Result<PathBuf, TableFileError> {
    let name = file_name(rule, layer.seeds());
    remove_stale_temporaries(dir, &name);
    let path = dir.join(&name);
    let temp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let fail = |error| TableFileError {
        path: path.clone(),
        error: FileError::Io(error),
    };
    let write = || -> std::io::Result<()> {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(&header(rule, layer))?;
        file.write_all(layer.codes())?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        fail(e)
    })?;
    Ok(path)
}

/// A temporary file untouched for this long, whose writer is gone, is stale: a layer is
/// written in seconds, and the wait also covers writers this process cannot see (another
/// container or machine sharing the directory).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(5 * 60);

/// Removes `dir`'s temporary files for `name` (`.NAME.tmpPID`) whose writer is no longer
/// running and that have not changed for [`STALE_AFTER`]: a build killed while it wrote a
/// 26-seed layer would otherwise leave over a gigabyte behind. A writer counts as running while
/// `/proc/PID` exists; where there is no `/proc`, nothing is removed.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let untouched = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if untouched && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// Checks a file's header for `seeds` seeds under `rule`, given the file's length; returns the
/// number of codes that follow it.
fn check_header(header: &[u8], length: u64, rule: GrandSlam, seeds: u8) -> Result<u64, FileError> {
    let version = version_of(header);
    if header.len() < HEADER_LEN {
        return Err(FileError::Truncated {
            expected: HEADER_LEN as u64,
            found: length,
        });
    }
    if &header[..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    if !(1..=FORMAT_VERSION).contains(&version) {
        return Err(FileError::Version(version));
    }
    if header[12] != rule_byte(rule) {
        return Err(FileError::Rule {
            expected: rule,
            found: header[12],
        });
    }
    if header[13] != seeds {
        return Err(FileError::Seeds {
            expected: seeds,
            found: header[13],
        });
    }
    if seeds > MAX_SEEDS {
        return Err(FileError::Layer(LayerError::TooManySeeds(seeds)));
    }
    let count = u64_at(header, 16);
    if count != board_count(seeds) {
        return Err(FileError::Layer(LayerError::WrongLength {
            expected: board_count(seeds),
            found: count,
        }));
    }
    if length - HEADER_LEN as u64 != count {
        return Err(FileError::Truncated {
            expected: HEADER_LEN as u64 + count,
            found: length,
        });
    }
    Ok(count)
}

/// The format version a header names (0 for a header too short to name one).
fn version_of(header: &[u8]) -> u32 {
    match header.get(8..12) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

/// The layer of these codes, checked against the header's checksum.
fn checked_layer(header: &[u8], codes: Vec<u8>, seeds: u8) -> Result<Layer, FileError> {
    if checksum(version_of(header), &codes) != u64_at(header, 24) {
        return Err(FileError::Checksum);
    }
    Layer::new(seeds, codes).map_err(FileError::Layer)
}

/// Parses the bytes of a table file that should hold `seeds` seeds under `rule`.
pub fn parse_layer(bytes: &[u8], rule: GrandSlam, seeds: u8) -> Result<Layer, FileError> {
    let header = &bytes[..bytes.len().min(HEADER_LEN)];
    check_header(header, bytes.len() as u64, rule, seeds)?;
    checked_layer(header, bytes[HEADER_LEN..].to_vec(), seeds)
}

/// Reads the layer of `seeds` seeds under `rule` from `dir`, the codes straight into the
/// layer's memory.
pub fn read_layer(dir: &Path, rule: GrandSlam, seeds: u8) -> Result<Layer, TableFileError> {
    read_layer_and_version(dir, rule, seeds).map(|(layer, _)| layer)
}

/// [`read_layer`], with the format version of the file.
pub fn read_layer_and_version(
    dir: &Path,
    rule: GrandSlam,
    seeds: u8,
) -> Result<(Layer, u32), TableFileError> {
    let path = dir.join(file_name(rule, seeds));
    let read = || -> Result<(Layer, u32), FileError> {
        let mut file = std::fs::File::open(&path).map_err(FileError::Io)?;
        let length = file.metadata().map_err(FileError::Io)?.len();
        let mut header = vec![0u8; HEADER_LEN.min(length as usize)];
        file.read_exact(&mut header).map_err(FileError::Io)?;
        let count = check_header(&header, length, rule, seeds)?;
        let mut codes = vec![0u8; count as usize];
        file.read_exact(&mut codes).map_err(FileError::Io)?;
        Ok((checked_layer(&header, codes, seeds)?, version_of(&header)))
    };
    read().map_err(|error| TableFileError { path, error })
}

/// Maps the layer of `seeds` seeds under `rule` in `dir` and checks its length and header;
/// returns it with its format version. The codes are not read: [`verify_layer`] checks them
/// before the layer may be used. Where a file cannot be mapped, it is read (and checked).
pub fn open_layer(dir: &Path, rule: GrandSlam, seeds: u8) -> Result<(Layer, u32), TableFileError> {
    let path = dir.join(file_name(rule, seeds));
    let mapped = match MappedFile::open(&path) {
        Ok(mapped) => mapped,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TableFileError {
                path,
                error: FileError::Io(e),
            });
        }
        Err(e) => {
            log::debug!("{}: not mapped ({e}); reading it", path.display());
            return read_layer_and_version(dir, rule, seeds);
        }
    };
    let open = || -> Result<(Layer, u32), FileError> {
        let bytes = mapped.bytes();
        let header = &bytes[..bytes.len().min(HEADER_LEN)];
        check_header(header, bytes.len() as u64, rule, seeds)?;
        let version = version_of(header);
        let layer = Layer::mapped(seeds, Arc::new(mapped), HEADER_LEN).map_err(FileError::Layer)?;
        Ok((layer, version))
    };
    open().map_err(|error| TableFileError { path, error })
}

/// Bytes read at a time by [`verify_layer`] (a multiple of the checksum's 32-byte blocks).
const VERIFY_CHUNK: usize = 1 << 20;

/// The file beside a table file that records the version of it last checked whole:
/// `.NAME.checked`.
fn checked_record(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{}.checked", name.unwrap_or_default()))
}

/// The first line of a checked record.
const CHECKED: &str = "krou table file checked whole:";

/// A file changed less than this long ago is not recorded as checked: file times move in
/// steps of a few milliseconds, so a change made right after could leave them as they were.
/// Once this is past, any change gives a later change time.
const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

/// Records that the mapped file of `layer` was checked whole (or written by this process),
/// so that later opens of the same version of the file skip reading it through. Where the
/// directory takes no file, or the file changed within [`SETTLED`], nothing is recorded (and
/// the next open checks the file again).
pub fn record_checked(layer: &Layer) {
    let settled = |m: &MappedFile| m.changed_ago().is_some_and(|ago| ago >= SETTLED);
    if let Some(mapped) = layer.mapped_file().filter(|m| settled(m)) {
        let record = checked_record(mapped.path());
        let text = format!("{CHECKED}\n{}\n", mapped.identity());
        if let Err(e) = std::fs::write(&record, text) {
            log::debug!("{}: not recorded ({e})", record.display());
        }
    }
}

/// Whether the record beside the mapped file names its very version.
fn recorded_checked(mapped: &MappedFile) -> bool {
    std::fs::read_to_string(checked_record(mapped.path()))
        .is_ok_and(|text| text == format!("{CHECKED}\n{}\n", mapped.identity()))
}

/// Checks a mapped layer's codes against the checksum in its header and the codes a layer may
/// hold, by reading the file in chunks beside the map (so the check leaves no page of the map
/// resident in this process), unless this very version of the file (length, inode,
/// modification and change times) was checked before ([`record_checked`]). A layer held in
/// memory was checked when it was read or built.
pub fn verify_layer(layer: &Layer, path: &Path) -> Result<(), TableFileError> {
    use std::os::unix::fs::FileExt;
    let Some(mapped) = layer.mapped_file() else {
        return Ok(());
    };
    if recorded_checked(mapped) {
        return Ok(());
    }
    let fail = |error| TableFileError {
        path: path.to_path_buf(),
        error,
    };
    let file = mapped.file();
    let mut header = [0u8; HEADER_LEN];
    file.read_exact_at(&mut header, 0)
        .map_err(|e| fail(FileError::Io(e)))?;
    let valid = super::layer::valid_codes(layer.seeds());
    let mut sum = Checksum::new(version_of(&header));
    let mut chunk = vec![0u8; VERIFY_CHUNK];
    let total = layer.codes().len();
    let mut at = 0;
    while at < total {
        let piece = &mut chunk[..VERIFY_CHUNK.min(total - at)];
        file.read_exact_at(piece, (HEADER_LEN + at) as u64)
            .map_err(|e| fail(FileError::Io(e)))?;
        if let Some(i) = piece.iter().position(|&c| !valid[usize::from(c)]) {
            let (index, code) = ((at + i) as u64, piece[i]);
            return Err(fail(FileError::Layer(LayerError::BadCode { index, code })));
        }
        sum.add(piece);
        at += piece.len();
    }
    if sum.finish() != u64_at(&header, 24) {
        return Err(fail(FileError::Checksum));
    }
    record_checked(layer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_2_checksum_sees_every_byte_and_its_place() {
        let codes: Vec<u8> = (0..100u32).map(|i| (i * 7 % 220) as u8).collect();
        let base = checksum(2, &codes);
        for at in [0, 7, 8, 31, 32, 63, 64, 95, 96, 99] {
            let mut changed = codes.clone();
            changed[at] ^= 1;
            assert_ne!(checksum(2, &changed), base, "byte {at}");
        }
        let mut swapped = codes.clone();
        swapped.swap(0, 8);
        assert_ne!(checksum(2, &swapped), base, "words of one block swapped");
        assert_ne!(checksum(2, &codes[..99]), base, "one byte fewer");
        assert_ne!(checksum(1, &codes), base);
    }

    #[test]
    fn the_checksum_taken_in_pieces_is_the_checksum_of_the_whole() {
        let codes: Vec<u8> = (0..1000u32).map(|i| (i * 13 % 220) as u8).collect();
        for version in [1, 2] {
            let mut sum = Checksum::new(version);
            sum.add(&codes[..64]);
            sum.add(&codes[64..960]);
            sum.add(&codes[960..]);
            assert_eq!(sum.finish(), checksum(version, &codes), "version {version}");
        }
    }
}
