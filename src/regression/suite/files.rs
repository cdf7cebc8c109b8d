//! Reading suite files and writing result files, for the `krou suite` commands.

use super::parse::{SuiteFile, read_file};
use std::path::{Path, PathBuf};

/// Reads every suite file, stopping at the first that cannot be read or parsed.
pub(super) fn read_all(paths: &[PathBuf]) -> Result<Vec<SuiteFile>, String> {
    paths
        .iter()
        .map(|p| read_file(p).map_err(|e| e.to_string()))
        .collect()
}

/// Checks that `path` can be written, without emptying it (it may be the `--previous` file).
pub(super) fn writable(path: &Path, what: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(|_| ())
        .map_err(|e| format!("cannot write {what} {}: {e}", path.display()))
}

/// Writes `text` to `path` (`what` names the file in the error).
pub(super) fn write(path: &Path, what: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {what} {}: {e}", path.display()))
}
