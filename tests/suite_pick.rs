//! `scripts/suite-pick`: at most N positions a seed count, spread over the generator's kinds.

mod referee_support;

use referee_support::scratch;
use std::path::Path;
use std::process::{Command, Output};

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

/// Runs `scripts/suite-pick` with `args` from `dir`.
fn pick(dir: &Path, args: &[&str]) -> Output {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/suite-pick"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the script runs")
}

/// A position line of seed count `seeds` with result word `result`, right moves `bm`.
fn line(id: &str, result: &str, seeds: u32, bm: &str) -> String {
    format!("{START} bm {bm}; id \"{id}\"; cat \"{result} {seeds}\"; c0 \"bm A B C D\";")
}

/// The ids of the position lines of a script's output.
fn ids(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| Some(l.split("id \"").nth(1)?.split('"').next()?.to_string()))
        .collect()
}

/// Kinds take turns in the order they first appear, none past half of N, and a seed count
/// with fewer positions than N keeps them all; comment lines stay, in file order.
#[test]
fn kinds_take_turns_within_each_seed_count() {
    let dir = scratch("suite-pick");
    let lines = [
        "# generated".to_string(),
        line("a", "win", 21, "A"),
        line("b", "draw", 21, "B"),
        line("c", "win", 21, "C"),
        line("d", "win", 21, "A B"),
        line("e", "draw", 21, "D"),
        line("f", "draw", 21, "A B C"),
        line("g", "win", 21, "E"),
        line("h", "win", 21, "F"),
        line("x", "draw", 22, "A"),
        line("y", "draw", 22, "B"),
        "# hard 22 seeds: 4096 boards".to_string(),
    ];
    std::fs::write(dir.join("pool.suite"), lines.join("\n") + "\n").expect("suite written");

    let out = pick(&dir, &["4", "pool.suite"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // One round: win 1, draw 1, win 2 and draw 3+ give their first.
    assert_eq!(ids(&out), ["a", "b", "d", "f", "x", "y"]);
    assert!(
        stderr.contains(
            "21 seeds: 4 of 8, win 1 1 of 4, draw 1 1 of 2, win 2 1 of 1, draw 3+ 1 of 1"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("22 seeds: 2 of 2, draw 1 2 of 2"),
        "{stderr}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("# Picked by scripts/suite-pick: at most 4 positions"));
    assert_eq!(text.lines().nth(1), Some("# generated"));
    // The generator's progress line is not true of the picked file: it goes.
    assert!(!text.contains("# hard 22 seeds"), "{text}");

    // N = 7: at most 4 of a kind; win 1 takes its 3rd when the others have run out.
    let out = pick(&dir, &["7", "pool.suite"]);
    assert!(out.status.success());
    assert_eq!(ids(&out), ["a", "b", "c", "d", "e", "f", "g", "x", "y"]);
    // N = 2: one of each of the first two kinds, and the cap of 1 for 22 seeds.
    let out = pick(&dir, &["2", "pool.suite"]);
    assert_eq!(ids(&out), ["a", "b", "x"]);
    // N = 3: the cap is half of 3 rounded up, 2, so 22 seeds keeps both of its one kind.
    let out = pick(&dir, &["3", "pool.suite"]);
    assert_eq!(ids(&out), ["a", "b", "d", "x", "y"]);
}

/// A bad N, a missing file, and a position without a seed count or `bm` stop the script with
/// status 2 before it prints anything.
#[test]
fn bad_input_prints_nothing() {
    let dir = scratch("suite-pick-bad");
    let good = line("a", "win", 21, "A");
    for (name, text, message) in [
        (
            "nocat.suite",
            format!("{good}\n{START} bm A; id \"n\";\n"),
            ":2: no cat",
        ),
        (
            "word.suite",
            format!("{START} bm A; cat \"won\";\n"),
            ":1: no cat",
        ),
        (
            "nobm.suite",
            format!("{good}\n{START} am A; cat \"draw 21\";\n"),
            ":2: no bm",
        ),
        (
            "quoted.suite",
            format!("{START} c0 \"bm A\"; cat \"draw 21\";\n"),
            ":1: no bm",
        ),
    ] {
        std::fs::write(dir.join(name), text).expect("suite written");
        let out = pick(&dir, &["5", name]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{name}{message}")),
            "{name}: {stderr}"
        );
    }
    std::fs::write(dir.join("good.suite"), format!("{good}\n")).expect("suite written");
    for (args, message) in [
        (
            &["0", "good.suite"][..],
            "N must be a whole number from 1, not '0'",
        ),
        (&["x", "good.suite"][..], "not 'x'"),
        (&["5", "missing.suite"][..], "cannot read missing.suite"),
        (&["5"][..], "usage"),
    ] {
        let out = pick(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
