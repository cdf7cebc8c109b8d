//! Helpers for the referee's integration tests: the fake engine and running `krou match`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The path of the krou binary under test.
pub fn krou() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_krou"))
}

/// The fake engine (`examples/fake_engine.rs`). A full `cargo test` builds it; when a single
/// test target runs, it is built here if missing or older than its source.
pub fn fake() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let path = krou()
                .parent()
                .expect("target directory")
                .join("examples")
                .join("fake_engine");
            let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/fake_engine.rs");
            let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            if modified(&path) < modified(&source) {
                let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
                let status = Command::new(cargo)
                    .args(["build", "--example", "fake_engine"])
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "building the fake engine");
            }
            path
        })
        .clone()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-referee-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs `krou match` with `args` plus `--json` and returns the parsed JSON summary.
pub fn run_match(args: &[&str]) -> serde_json::Value {
    let dir = scratch(&format!("{:x}", fxhash(args)));
    let json = dir.join("summary.json");
    let output = Command::new(krou())
        .arg("match")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("krou runs");
    assert!(
        output.status.success(),
        "krou match failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(&json).expect("the JSON summary");
    let _ = std::fs::remove_dir_all(&dir);
    serde_json::from_str(&text).expect("valid JSON")
}

fn fxhash(args: &[&str]) -> u64 {
    args.iter()
        .flat_map(|a| a.bytes())
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
}
