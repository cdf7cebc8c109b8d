//! The engine builds its default endgame tables by itself: into an empty default directory,
//! layer by layer, each used once written; a second engine never builds a layer the first is
//! building; a killed build resumes; a directory that cannot take files gives one warning.
//! (`KROU_EGDB_BUILD` sets how far the build goes: the tests stop at 12 or 13 seeds, seconds,
//! instead of the default 20, minutes.)

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// 13 seeds on the board, South to move (North's 10 seeds and South's 3).
const THIRTEEN: &str = "0-0-0-1-1-1-2-2-2-2-1-1-18-17-S";

/// A fresh, empty directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn layer(dir: &Path, seeds: u8) -> PathBuf {
    dir.join(format!("no-capture-{seeds:02}.egdb"))
}

/// A running engine: its input, its stdout lines and its stderr (the log) lines.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    log: Receiver<String>,
    /// Every stdout line received so far.
    seen: Vec<String>,
}

fn start(dir: &Path, build: &str) -> Engine {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krou"))
        .env("KROU_EGDB_DIR", dir)
        .env("KROU_EGDB_BUILD", build)
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("krou starts");
    let input = child.stdin.take().expect("stdin");
    let forward = |stream: Box<dyn std::io::Read + Send>| {
        let (sender, received) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        received
    };
    let lines = forward(Box::new(child.stdout.take().expect("stdout")));
    let log = forward(Box::new(child.stderr.take().expect("stderr")));
    Engine {
        child,
        input,
        lines,
        log,
        seen: Vec::new(),
    }
}

impl Engine {
    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("the engine reads");
    }

    /// The lines up to the first that starts with `prefix` (within `limit`).
    fn until(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
        let mut seen = Vec::new();
        let started = Instant::now();
        while let Some(left) = limit.checked_sub(started.elapsed()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    self.seen.push(line.clone());
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("no line starting with '{prefix}': {seen:?}");
    }

    /// The `d` line of the endgame tables for the current position, if there is one.
    fn table_line(&mut self) -> Option<String> {
        self.send("d");
        self.send("isready");
        let shown = self.until("readyok", MINUTE);
        shown.into_iter().find(|l| l.starts_with("endgame table"))
    }

    /// Waits (at most a minute) until the tables prove the current position's value.
    fn wait_for_proven(&mut self) {
        let started = Instant::now();
        loop {
            let line = self.table_line();
            if line.as_ref().is_some_and(|l| l.ends_with(", proven)")) {
                return;
            }
            assert!(started.elapsed() < MINUTE, "not covered: {line:?}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Quits and returns the log.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        let _ = self.child.wait();
        self.log.try_iter().collect()
    }
}

/// Waits (at most `limit`) until `path` exists.
fn wait_for(path: &Path, limit: Duration) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < limit, "{} not written", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn a_first_start_builds_the_tables_into_the_empty_directory_and_uses_them() {
    let dir = scratch("first");
    let mut engine = start(&dir, "13");
    engine.send("isready");
    engine.until("readyok", MINUTE);
    // The 13-seed layer is built in the background, above the built-in 12.
    wait_for(&layer(&dir, 13), 3 * MINUTE);
    engine.send(&format!("position fen {THIRTEEN}"));
    engine.wait_for_proven();
    engine.send("debug on");
    engine.send("go depth 2");
    let searched = engine.until("bestmove", MINUTE);
    assert!(
        searched
            .iter()
            .any(|l| l.ends_with("endgame tables to 13 seeds")),
        "{searched:?}"
    );
    let log = engine.quit();
    assert!(log.iter().any(|l| l.contains("13 seeds built")), "{log:?}");
    for seeds in 0..=13 {
        assert!(layer(&dir, seeds).exists(), "{seeds} seeds saved");
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("the directory")
        .flatten()
        .map(|e| e.file_name())
        .filter(|name| name.to_string_lossy().starts_with('.'))
        .collect();
    assert!(left.is_empty(), "no lock or temporary file left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_engines_starting_together_build_each_layer_once() {
    let dir = scratch("two");
    let mut first = start(&dir, "12");
    let mut second = start(&dir, "12");
    for engine in [&mut first, &mut second] {
        engine.send("isready");
        engine.until("readyok", MINUTE);
    }
    wait_for(&layer(&dir, 12), 3 * MINUTE);
    // The one that did not build the last layer reads it within its next polling step.
    std::thread::sleep(Duration::from_secs(1));
    let logs = [first.quit(), second.quit()];
    let count = |needle: &str| logs.iter().flatten().filter(|l| l.contains(needle)).count();
    for seeds in 0..=12 {
        let built = count(&format!(" {seeds} seeds built"));
        assert_eq!(built, 1, "{seeds} seeds built once: {logs:?}");
    }
    assert!(
        count(" seeds read") > 0,
        "one waited for the other: {logs:?}"
    );
    for log in &logs {
        let ready = log
            .iter()
            .any(|l| l.contains("0-12 seeds (no-capture) ready"));
        assert!(ready, "both hold 0-12 seeds: {log:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_build_resumes_at_its_first_missing_layer() {
    let dir = scratch("killed");
    let mut engine = start(&dir, "12");
    engine.send("isready");
    engine.until("readyok", MINUTE);
    wait_for(&layer(&dir, 9), MINUTE);
    let _ = engine.child.kill();
    let _ = engine.child.wait();
    let kept: Vec<u8> = (0..=12).filter(|&n| layer(&dir, n).exists()).collect();
    let mut engine = start(&dir, "12");
    engine.send("isready");
    engine.until("readyok", MINUTE);
    wait_for(&layer(&dir, 12), 3 * MINUTE);
    std::thread::sleep(Duration::from_millis(200));
    let log = engine.quit();
    for seeds in 0..=12 {
        let built = log
            .iter()
            .any(|l| l.contains(&format!(" {seeds} seeds built")));
        assert_eq!(built, !kept.contains(&seeds), "{seeds} seeds: {log:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_that_cannot_take_files_gives_one_warning_and_the_engine_plays() {
    let dir = scratch("plain-file");
    let not_a_dir = dir.join("tables");
    std::fs::write(&not_a_dir, b"not a directory").expect("a file");
    let mut engine = start(&not_a_dir, "20");
    engine.send("isready");
    engine.until("readyok", MINUTE);
    engine.send("position fen 0-0-0-2-0-1-1-0-1-0-0-0-20-23-N");
    // The built-in tables, in memory: wait until they cover the position.
    engine.wait_for_proven();
    engine.send("go depth 4");
    let searched = engine.until("bestmove", MINUTE);
    assert!(searched.last().is_some_and(|l| l != "bestmove 0000"));
    // Until the 12-seed layer is there, then once more.
    engine.send("position fen 0-0-0-1-1-1-2-2-2-2-1-0-19-17-S");
    engine.wait_for_proven();
    engine.table_line();
    let warnings: Vec<&String> = engine
        .seen
        .iter()
        .filter(|l| l.starts_with("info string warning: endgame tables: cannot write"))
        .collect();
    assert_eq!(warnings.len(), 1, "{:?}", engine.seen);
    let _ = engine.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_build_beyond_the_built_in_tables_can_be_turned_off() {
    for (variable, option) in [("off", None), ("20", Some("false"))] {
        let dir = scratch(&format!("off-{variable}"));
        let mut engine = start(&dir, variable);
        if let Some(value) = option {
            engine.send(&format!("setoption name EndgameBuild value {value}"));
        }
        engine.send("isready");
        engine.until("readyok", MINUTE);
        wait_for(&layer(&dir, 12), 3 * MINUTE);
        std::thread::sleep(Duration::from_secs(2));
        let log = engine.quit();
        assert!(!layer(&dir, 13).exists(), "{variable}: {log:?}");
        let locks = std::fs::read_dir(&dir)
            .expect("the directory")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".lock"))
            .count();
        assert_eq!(locks, 0, "{variable}: nothing building");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn table_files_truncated_during_a_search_do_not_crash_the_engine() {
    let dir = scratch("truncated");
    let mut engine = start(&dir, "12");
    engine.send("position fen 0-0-0-1-1-1-2-2-2-2-1-0-19-17-S");
    engine.wait_for_proven();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // Every file cut to its header while the search probes them.
    for seeds in 0..=12 {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(layer(&dir, seeds));
        file.and_then(|f| f.set_len(32)).expect("truncated");
    }
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let searched = engine.until("bestmove", MINUTE);
    assert!(searched.last().is_some_and(|l| l != "bestmove 0000"));
    // The next search goes without the changed files.
    engine.send("go depth 6");
    let again = engine.until("bestmove", MINUTE);
    assert!(again.last().is_some_and(|l| l.starts_with("bestmove ")));
    assert_eq!(
        engine.table_line().as_deref(),
        Some("endgame table not ready")
    );
    engine.send("quit");
    let status = engine.child.wait().expect("the engine exits");
    assert!(status.success(), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
