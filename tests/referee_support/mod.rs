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
    run_match_exiting(args, 0)
}

/// [`run_match`] for a match whose every game ends by a fault: it exits with status 3.
pub fn run_faulty_match(args: &[&str]) -> serde_json::Value {
    run_match_exiting(args, 3)
}

/// A fake engine argument list in `mode` from its second start on: it passes the referee's
/// check before the first game and fails in every game, as a program removed or broken during
/// a match does (`fake_engine after-first FILE MODE`).
pub fn later(mode: &str) -> String {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("later-{call}"));
    format!("after-first {} {mode}", dir.join("started").display())
}

/// Runs `krou match` with `args` plus `--json`, checks its exit status and returns the parsed
/// JSON summary.
fn run_match_exiting(args: &[&str], status: i32) -> serde_json::Value {
    let dir = scratch(&format!("{:x}", fxhash(args)));
    let json = dir.join("summary.json");
    let output = Command::new(krou())
        .arg("match")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("krou runs");
    assert_eq!(
        output.status.code(),
        Some(status),
        "krou match: {}",
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
