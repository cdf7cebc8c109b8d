//! Checks on the files a command will write, made before it does any work: each must be
//! writable where it is, and no two of them (nor an output and an input) may be the same file,
//! so that hours of play are never lost to a typo, nor one file written over another.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// Refuses the `(option, path)` outputs when two name the same file, when one is an input, or
/// when one cannot be created where it is. Files are checked by opening them to append (an
/// existing file is left as it is; a new one is removed again).
pub fn check(outputs: &[(&str, &Path)], inputs: &[&Path]) -> Result<(), String> {
    for (i, (option, path)) in outputs.iter().enumerate() {
        let this = same_file_key(path);
        if let Some((other, _)) = outputs[..i].iter().find(|(_, p)| same_file_key(p) == this) {
            return Err(format!(
                "{option} and {other} name the same file {}: one would overwrite the other",
                path.display()
            ));
        }
        if inputs.iter().any(|input| same_file_key(input) == this) {
            return Err(format!(
                "{option} {} is also an input: it would be overwritten",
                path.display()
            ));
        }
        writable(path).map_err(|e| format!("{option}: cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The path made absolute, with the directory resolved when it exists, so that `a.json`,
/// `./a.json` and a symbolic link to the directory compare equal.
fn same_file_key(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if let Ok(resolved) = absolute.canonicalize() {
        return resolved;
    }
    match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => dir
            .canonicalize()
            .map_or_else(|_| absolute.clone(), |d| d.join(name)),
        _ => absolute,
    }
}

/// Whether `path` can be written: opened to append, created if needed (and then removed).
fn writable(path: &Path) -> std::io::Result<()> {
    let existed = path.exists();
    OpenOptions::new().append(true).create(true).open(path)?;
    if !existed {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_file_twice_an_input_as_output_and_a_missing_directory_are_refused() {
        let dir = std::env::temp_dir().join(format!("krou-outputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let json = dir.join("a.json");
        let dotted = dir.join(".").join("a.json");
        let twice = check(&[("--json", &json), ("--report", &dotted)], &[]);
        assert!(
            twice.is_err_and(|e| e.contains("--report and --json name the same file")),
            "the same file by two spellings"
        );
        let input = check(&[("-o", &json)], &[&dotted]);
        assert!(input.is_err_and(|e| e.contains("is also an input")));
        let missing = dir.join("no-such-dir").join("a.json");
        let unwritable = check(&[("--json", &missing)], &[]);
        assert!(unwritable.is_err_and(|e| e.starts_with("--json: cannot write")));
        assert!(check(&[("--json", &json), ("--ogn", &dir.join("a.ogn"))], &[]).is_ok());
        assert!(!json.exists(), "a check leaves no new file behind");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
