//! Growing a table directory one layer at a time, with several processes at work on it.
//!
//! The engine builds its default tables in the background ([`grow`]): the next layer of a
//! [`Tables`] is taken from its file when one is there (written by `krou egdb build`, an earlier
//! start or another engine), else built and written. A lock file per layer
//! (`.NAME.lock`, held with `flock`, which the system releases when its holder dies) makes
//! sure that two processes never build the same layer: the second waits for the first's file,
//! or takes over the build if the first is killed. Files are written to a temporary name and
//! renamed ([`super::file::write_layer`]), so nobody reads a half-written one.

use super::build::{Progress, build_layer};
use super::file::{FileError, TableFileError, file_name, open_layer, record_checked, write_layer};
use super::layer::Layer;
use super::tables::{Tables, open_checked};
use nix::fcntl::{Flock, FlockArg};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How often a process waiting for another's layer looks again.
const WAIT_STEP: Duration = Duration::from_millis(200);

/// The next layer and where it came from.
#[derive(Debug)]
pub enum Grown {
    /// Its file was there (checked, mapped).
    Found(Layer),
    /// Built here and written (mapped from the file written).
    Built(Layer),
}

/// Why the next layer is not in the directory.
#[derive(Debug)]
pub enum GrowError {
    /// The directory cannot take the layer (read-only, full, not a directory): the error, and
    /// the layer if it was built in memory before the write failed.
    Unwritable(TableFileError, Option<Box<Layer>>),
    /// `stop` asked to stop before the layer was built.
    Stopped,
    /// No layer beyond [`super::MAX_SEEDS`].
    Complete,
}

/// Adds the next layer of `tables` from `dir`: loaded if its file is there and valid, else
/// built on `threads` threads and written, or waited for while another process holds its
/// lock. `stop` is asked between steps (never during a build, which takes up to minutes).
/// A refused file is built again (and replaced).
pub fn grow(
    dir: &Path,
    tables: &Tables,
    threads: usize,
    stop: &dyn Fn() -> bool,
    report: &(dyn Fn(Progress) + Sync),
) -> Result<Grown, GrowError> {
    let seeds = tables.max_seeds().map_or(0, |n| n + 1);
    if seeds > super::MAX_SEEDS {
        return Err(GrowError::Complete);
    }
    let rule = tables.rule();
    let lock_path = dir.join(format!(".{}.lock", file_name(rule, seeds)));
    loop {
        if let Some(layer) = existing(dir, tables, seeds) {
            return Ok(Grown::Found(layer));
        }
        if stop() {
            return Err(GrowError::Stopped);
        }
        let lock = match try_lock(&lock_path) {
            Ok(Some(lock)) => lock,
            Ok(None) => {
                std::thread::sleep(WAIT_STEP);
                continue;
            }
            Err(error) => return Err(GrowError::Unwritable(file_error(dir, tables, error), None)),
        };
        // The lock's last holder may have finished the file in the meantime.
        if let Some(layer) = existing(dir, tables, seeds) {
            return Ok(Grown::Found(layer));
        }
        let codes = build_layer(seeds, rule, tables.lower(), threads, report);
        let layer = Layer::new(seeds, codes).map_err(|e| {
            let error = TableFileError {
                path: dir.join(file_name(rule, seeds)),
                error: FileError::Layer(e),
            };
            GrowError::Unwritable(error, None)
        })?;
        if let Err(error) = write_layer(dir, rule, &layer) {
            return Err(GrowError::Unwritable(error, Some(Box::new(layer))));
        }
        // Whoever opens the lock file from now on finds the layer's file first.
        let _ = std::fs::remove_file(&lock_path);
        drop(lock);
        return match open_layer(dir, rule, seeds) {
            Ok((mapped, _)) => {
                record_checked(&mapped);
                Ok(Grown::Built(mapped))
            }
            Err(_) => Ok(Grown::Built(layer)),
        };
    }
}

/// The layer's file, if it is there and valid; a refused one is logged (and built again).
fn existing(dir: &Path, tables: &Tables, seeds: u8) -> Option<Layer> {
    match open_checked(dir, tables.rule(), seeds) {
        Ok((layer, _)) => Some(layer),
        Err(e) => {
            let missing = matches!(&e.error, FileError::Io(io)
                if io.kind() == std::io::ErrorKind::NotFound);
            if !missing {
                log::warn!("{e}; building it again");
            }
            None
        }
    }
}

/// Takes the lock at `path` if no other process holds it (`None` when one does).
fn try_lock(path: &PathBuf) -> std::io::Result<Option<Flock<File>>> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Ok(Some(lock)),
        Err((_, nix::errno::Errno::EWOULDBLOCK)) => Ok(None),
        Err((_, errno)) => Err(std::io::Error::from(errno)),
    }
}

fn file_error(dir: &Path, tables: &Tables, error: std::io::Error) -> TableFileError {
    let seeds = tables.max_seeds().map_or(0, |n| n + 1);
    TableFileError {
        path: dir.join(file_name(tables.rule(), seeds)),
        error: FileError::Io(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GrandSlam;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("krou-grow-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    }

    #[test]
    fn growing_builds_each_layer_once_and_then_finds_its_file() {
        let dir = scratch("once");
        let mut tables = Tables::empty(GrandSlam::NoCapture);
        for seeds in 0..=5 {
            match grow(&dir, &tables, 1, &|| false, &|_| {}) {
                Ok(Grown::Built(layer)) => {
                    assert_eq!(layer.seeds(), seeds);
                    assert!(layer.mapped_file().is_some(), "the file written, mapped");
                    tables.push(layer);
                }
                other => panic!("{seeds} seeds: {other:?}"),
            }
        }
        assert_eq!(tables, Tables::build(GrandSlam::NoCapture, 5, 1));
        let again = grow(
            &dir,
            &Tables::empty(GrandSlam::NoCapture),
            1,
            &|| true,
            &|_| {},
        );
        assert!(matches!(again, Ok(Grown::Found(_))), "{again:?}");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .expect("the directory")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !name.ends_with(".checked"))
            .collect();
        assert_eq!(names.len(), 6, "no lock or temporary file left: {names:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_layer_locked_by_another_builder_is_waited_for_not_built() {
        let dir = scratch("locked");
        let tables = Tables::empty(GrandSlam::NoCapture);
        let lock_path = dir.join(format!(".{}.lock", file_name(GrandSlam::NoCapture, 0)));
        let held = try_lock(&lock_path).expect("a lock file").expect("free");
        assert!(try_lock(&lock_path).expect("a lock file").is_none(), "held");
        // Waiting, it looks again until asked to stop, and builds nothing.
        let asked = std::cell::Cell::new(0);
        let stop = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let waited = grow(&dir, &tables, 1, &stop, &|_| {});
        assert_eq!(asked.get(), 4);
        assert!(matches!(waited, Err(GrowError::Stopped)), "{waited:?}");
        assert!(!dir.join(file_name(GrandSlam::NoCapture, 0)).exists());
        // Its holder gone, the build goes ahead.
        drop(held);
        let built = grow(&dir, &tables, 1, &|| false, &|_| {});
        assert!(matches!(built, Ok(Grown::Built(_))), "{built:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_that_cannot_take_files_gives_the_error() {
        let dir = scratch("file");
        let not_a_dir = dir.join("plain-file");
        std::fs::write(&not_a_dir, b"x").expect("a file");
        let tables = Tables::empty(GrandSlam::NoCapture);
        let grown = grow(&not_a_dir, &tables, 1, &|| false, &|_| {});
        assert!(
            matches!(grown, Err(GrowError::Unwritable(_, None))),
            "{grown:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
