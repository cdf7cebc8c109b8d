//! The command line: help, version, perft output, the book commands and their errors.

use std::process::{Command, Output};

fn krou(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(args)
        .output()
        .expect("krou runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn help_lists_the_subcommands() {
    let output = krou(&["--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("perft"));
}

#[test]
fn version_prints_the_crate_version() {
    let output = krou(&["--version"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn perft_prints_one_line_per_move_then_the_totals() {
    let output = krou(&["perft", "4"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7);
    let per_move: u64 = lines[..6]
        .iter()
        .map(|l| {
            l.split(": ")
                .nth(1)
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(per_move, 1014);
    let last: Vec<&str> = lines[6].split(' ').collect();
    assert_eq!(&last[..2], ["nodes", "1014"]);
    assert_eq!((last[2], last[4]), ("time", "nps"));
    assert!(last[3].parse::<u64>().is_ok() && last[5].parse::<u64>().is_ok());
}

#[test]
fn perft_takes_a_position_and_a_grand_slam_rule() {
    let args = [
        "perft",
        "1",
        "--position",
        "0-0-0-1-0-2-1-1-0-0-0-0-22-21-S",
    ];
    let default = stdout(&krou(&args));
    assert!(default.starts_with("D: 1\nF: 1\nnodes 2 "), "{default}");
    let forbidden = stdout(&krou(&[&args[..], &["--grand-slam", "forbidden"]].concat()));
    assert!(forbidden.starts_with("D: 1\nnodes 1 "), "{forbidden}");
}

#[test]
fn perft_of_a_finished_game_has_no_moves() {
    let output = krou(&[
        "perft",
        "3",
        "--position",
        "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
    ]);
    assert!(output.status.success());
    assert!(stdout(&output).starts_with("nodes 0 "));
}

#[test]
fn a_bad_diagram_is_refused_with_a_clear_error() {
    let output = krou(&["perft", "2", "--position", "4-4-4-4-4-4-4-4-4-4-4-3-0-0-S"]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("add up to 47 seeds, not 48"), "{err}");
    assert!(stdout(&output).is_empty());
}

#[test]
fn a_bad_grand_slam_rule_is_refused() {
    let output = krou(&["perft", "2", "--grand-slam", "sometimes"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown grand-slam rule"));
}

#[test]
fn completions_for_each_shell_mention_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = krou(&["completions", shell]);
        assert!(output.status.success(), "{shell}");
        let script = stdout(&output);
        for word in [
            "perft",
            "match",
            "egdb",
            "merge",
            "report",
            "completions",
            "engine",
        ] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    let output = krou(&["completions", "tcsh"]);
    assert!(!output.status.success(), "an unknown shell is refused");
}

#[test]
fn the_man_page_lists_the_subcommands() {
    let output = krou(&["man"]);
    assert!(output.status.success());
    let page = stdout(&output);
    assert!(page.contains(".TH krou 1"), "{page}");
    for page_name in ["krou\\-match(1)", "krou\\-egdb(1)", "krou\\-completions(1)"] {
        assert!(page.contains(page_name), "no {page_name} in {page}");
    }
}

#[test]
fn man_out_writes_a_page_per_command() {
    let dir = std::env::temp_dir().join(format!("krou-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = krou(&["man", "--out", dir.to_str().expect("utf-8 path")]);
    assert!(output.status.success());
    for name in [
        "krou.1",
        "krou-match.1",
        "krou-match-merge.1",
        "krou-match-report.1",
        "krou-egdb-build.1",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).expect(name);
        assert!(text.contains(".SH SYNOPSIS"), "{name}: {text}");
    }
    let report = std::fs::read_to_string(dir.join("krou-match-report.1")).expect("page");
    assert!(report.contains("\\-\\-out"), "{report}");
    let merge = std::fs::read_to_string(dir.join("krou-match-merge.1")).expect("page");
    assert!(merge.contains("\\-\\-json"), "{merge}");
    let play = std::fs::read_to_string(dir.join("krou-match.1")).expect("page");
    for word in ["merge", "report", "\\-\\-shard", "\\-\\-report"] {
        assert!(play.contains(word), "krou-match.1 lacks {word}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_probe_lists_the_start_moves_best_first() {
    let output = krou(&["book", "probe", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"]);
    assert!(output.status.success());
    let lines: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    let scores: Vec<i32> = lines
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok())
                .expect("a score")
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let output = krou(&["book", "probe", "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"]);
    assert!(stdout(&output).contains("not in the book"));
}

#[test]
fn book_build_refuses_bad_arguments_before_it_works() {
    for args in [
        &["book", "build", "--out", "/tmp/x.book", "--threads", "0"][..],
        &["book", "build", "--out", "/tmp/x.book", "--nodes", "10"],
        &["book", "build", "--out", "/tmp/x.book", "--positions", "0"],
        &["book", "probe", "4-4-4"],
    ] {
        let output = krou(args);
        assert!(!output.status.success(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}: an error is printed");
    }
    // An unwritable output fails at once, before the tables and searches.
    let output = krou(&["book", "build", "--out", "/nonexistent-dir/x.book"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent-dir/x.partial"));
}

#[test]
fn book_probe_refuses_a_file_that_is_not_a_book() {
    let dir = std::env::temp_dir().join(format!("krou-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.book");
    std::fs::write(&file, b"KROUBOK1 this is not really a book").expect("write");
    let path = file.to_string_lossy().to_string();
    let output = krou(&[
        "book",
        "probe",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "--book",
        &path,
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("checksum mismatch"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `krou egdb build` without `--seeds` builds the set the engine builds by itself, so a match
/// script can build it first: here `KROU_EGDB_BUILD=12` (a 20-seed default would take minutes).
#[test]
fn egdb_build_without_seeds_builds_the_engines_own_set() {
    let help = krou(&["egdb", "build", "--help"]);
    assert!(help.status.success());
    let default = format!("0–{}", krou::egdb::default_set::DEFAULT_SEEDS);
    assert!(stdout(&help).contains(&default), "{}", stdout(&help));
    assert!(
        stdout(&help).contains("KROU_EGDB_BUILD"),
        "{}",
        stdout(&help)
    );

    let dir = std::env::temp_dir().join(format!("krou-cli-default-set-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let built = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(["egdb", "build", "--threads", "1"])
        .env("KROU_EGDB_DIR", &dir)
        .env("KROU_EGDB_BUILD", "12")
        .output()
        .expect("krou runs");
    assert!(built.status.success(), "{built:?}");
    assert!(String::from_utf8_lossy(&built.stderr).contains("up to 12 seeds"));
    assert!(dir.join("no-capture-12.egdb").is_file());
    assert!(!dir.join("no-capture-13.egdb").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
