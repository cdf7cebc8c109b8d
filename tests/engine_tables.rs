//! The engine process and its endgame table files: `isready` and a search without a clock wait
//! for the files being read, so the same commands give the same answers from the first line.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// An ending of 5 seeds on the board, North to move.
const ENDING: &str = "0-0-0-2-0-1-1-0-1-0-0-0-20-23-N";

/// A fresh directory holding the table files for 0 to 6 seeds, as `krou egdb build` writes them.
fn table_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().expect("a UTF-8 temporary path");
    let built = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args([
            "egdb",
            "build",
            "--seeds",
            "6",
            "--threads",
            "1",
            "--out",
            out,
        ])
        .output()
        .expect("krou runs");
    assert!(built.status.success(), "{built:?}");
    dir
}

/// Runs the engine with `dir` as its table cache: sends `lines`, reads its output until a line
/// starts with `until` (failing after a minute without one), then quits. Returns the lines.
fn session(dir: &Path, lines: &[&str], until: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krou"))
        .env("KROU_EGDB_DIR", dir)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("krou starts");
    let mut input = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(input, "{line}").expect("the engine reads");
    }
    input.flush().expect("the engine reads");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let (sender, received) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    loop {
        match received.recv_timeout(Duration::from_secs(60)) {
            Ok(line) => {
                let done = line.starts_with(until);
                seen.push(line);
                if done {
                    break;
                }
            }
            Err(_) => {
                let _ = child.kill();
                panic!("no line starting with '{until}' within a minute: {seen:?}");
            }
        }
    }
    let _ = writeln!(input, "quit");
    drop(input);
    let _ = child.wait();
    let _ = reader.join();
    seen
}

#[test]
fn after_readyok_the_table_files_are_in_use() {
    let dir = table_dir("ready");
    let lines = ["uci", "isready", &format!("position fen {ENDING}"), "d"];
    let seen = session(&dir, &lines, "endgame table");
    let table = seen.last().expect("a `d` line on the tables");
    assert!(
        table.starts_with("endgame table ") && table.ends_with("(exact, proven)"),
        "{seen:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_depth_search_right_after_start_repeats_itself_with_the_tables() {
    let dir = table_dir("repeat");
    let position = format!("position fen {ENDING}");
    let lines = ["uci", position.as_str(), "go depth 9"];
    // The moves and scores of the search, without its time, speed and table fill.
    let run = || -> Vec<String> {
        session(&dir, &lines, "bestmove")
            .into_iter()
            .filter(|l| l.starts_with("info depth") || l.starts_with("bestmove"))
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                let keep = |i: usize| {
                    !matches!(
                        words.get(i.wrapping_sub(1)),
                        Some(&("time" | "nps" | "hashfull"))
                    )
                };
                (0..words.len())
                    .filter(|&i| keep(i))
                    .map(|i| words[i])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let first = run();
    assert!(
        first
            .iter()
            .any(|l| l.contains(" tbhits ") && !l.contains(" tbhits 0 ")),
        "the first search probes the tables: {first:?}"
    );
    assert_eq!(first, run(), "the same commands, the same search");
    let _ = std::fs::remove_dir_all(&dir);
}
