//! `scripts/bench-turns`, which docs/search.md measures the search's speed with: it runs each
//! build's `krou bench` in turn and prints the medians; wrong arguments get a usage error.

use std::path::Path;
use std::process::Command;

fn script() -> Command {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-turns"))
}

#[test]
fn each_build_gets_its_median_and_its_ratio_to_the_first() {
    let krou = env!("CARGO_BIN_EXE_krou");
    let out = script()
        .args(["3", "3", krou, krou])
        .output()
        .expect("the script runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("krou bench 3, 3 rounds in turn"),
        "{text}"
    );
    // The first build is the reference: its ratio is 1 in every round.
    assert!(
        lines[1].starts_with(krou) && lines[1].ends_with(" M, 1.000x"),
        "{text}"
    );
    assert!(
        lines[2].starts_with(krou) && lines[2].ends_with('x'),
        "{text}"
    );
}

#[test]
fn wrong_arguments_get_a_usage_error() {
    let krou = env!("CARGO_BIN_EXE_krou");
    for args in [
        vec!["3", "3"],
        vec!["three", "3", krou],
        vec!["3", "0", krou],
    ] {
        let out = script().args(&args).output().expect("the script runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(
            error.contains("usage: scripts/bench-turns"),
            "{args:?}: {error}"
        );
    }
    let out = script()
        .args(["3", "3", "/no/such/krou"])
        .output()
        .expect("the script runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not an executable file"));
}
