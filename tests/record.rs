//! `krou record`: a live session through the proxy, a `krou match` through it, and a
//! `--log-dir` log each become transcripts that replay green against the same build; a build
//! with a changed `bestmove` or a missing reply fails them at the right line; the proxy passes
//! exit codes and signals through and refuses an unwritable file before the engine starts.
// Helpers here are test code too: a setup step that fails should fail the test where it is.
#![allow(clippy::unwrap_used)]

mod common;

use common::process::Piped;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

fn krou() -> &'static str {
    env!("CARGO_BIN_EXE_krou")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-record-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn replay(transcript: &Path, engine: &[&str]) -> Output {
    let mut command = Command::new(krou());
    command
        .arg("replay")
        .arg(transcript)
        .arg("--timeout-ms")
        .arg("8000");
    if !engine.is_empty() {
        command.arg("--").args(engine);
    }
    command.env_remove("RUST_LOG").output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A client talking to `krou record --out FILE -- krou` as a GUI would.
struct Client {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    fn start(out: &Path) -> Client {
        let Piped {
            child,
            input,
            lines,
        } = Piped::spawn(
            Command::new(krou())
                .arg("record")
                .arg("--out")
                .arg(out)
                .arg("--")
                .arg(krou()),
        );
        Client {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`, which it returns.
    fn wait_for(&self, prefix: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("no '{prefix}' within 10 s"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

/// A session as the Aualé GUI and cutechess drive an engine: handshake, options, a fixed-depth
/// search, pondering ended by `ponderhit`, a `ponder` ended by `stop`, an error, a clocked search.
fn scripted_session(out: &Path) {
    let mut client = Client::start(out);
    client.send("uci");
    client.wait_for("uciok");
    client.send("setoption name Hash value 8");
    client.send("ucinewgame");
    client.send("isready");
    client.wait_for("readyok");
    client.send("position startpos moves FbAf");
    client.send("go depth 6");
    client.wait_for("bestmove");
    client.send("position startpos moves FbAfDc");
    client.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(120));
    client.send("ponderhit");
    client.wait_for("bestmove");
    client.send("position startpos moves FbAfDcEa");
    client.send("go ponder");
    std::thread::sleep(Duration::from_millis(150));
    client.send("isready");
    client.wait_for("readyok");
    client.send("stop");
    client.wait_for("bestmove");
    client.send("position startpos moves Z");
    client.wait_for("info string error");
    client.send("go movetime 50");
    client.wait_for("bestmove");
    client.send("quit");
    let status = client.child.wait().unwrap();
    assert!(
        status.success(),
        "the proxy exits as the engine did: {status}"
    );
}

#[test]
fn a_scripted_session_with_pondering_and_stop_replays_green() {
    let dir = scratch("scripted");
    let transcript = dir.join("session.txt");
    scripted_session(&transcript);
    let text = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        text.contains("> go depth 6\n<? info **\n< bestmove "),
        "{text}"
    );
    assert!(!text.contains("< bestmove **\n> position startpos moves FbAfDc\n"));
    assert!(
        text.contains("= sleep "),
        "the wait before ponderhit and stop is kept: {text}"
    );
    assert!(text.contains("< id name Krou **"), "{text}");
    let output = replay(&transcript, &[]);
    assert!(output.status.success(), "{}", stdout(&output));
}

/// An engine that is Krou with its output passed through `sed` (line-buffered).
fn filtered_krou(dir: &Path, sed: &str) -> PathBuf {
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\n\"{}\" | sed -u '{sed}'\n", krou()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    script
}

/// The 1-based number of the first line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).unwrap() + 1
}

#[test]
fn a_changed_bestmove_or_a_missing_reply_fails_at_its_line() {
    let dir = scratch("changed");
    let transcript = dir.join("session.txt");
    scripted_session(&transcript);
    let text = std::fs::read_to_string(&transcript).unwrap();
    let exact = line_of(&text, "< bestmove ");
    let played = text.lines().nth(exact - 1).unwrap();
    let mv = played.split_whitespace().nth(2).unwrap();
    let other = if mv == "A" { "B" } else { "A" };
    let changed = filtered_krou(&dir, &format!("s/^bestmove {mv}\\b/bestmove {other}/"));
    let output = replay(&transcript, &[changed.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(
        stdout(&output).contains(&format!("line {exact}: expected '{}'", &played[2..])),
        "fails at line {exact}: {}",
        stdout(&output)
    );
    let silent = filtered_krou(&dir, "/^readyok/d");
    let output = replay(&transcript, &[silent.to_str().unwrap()]);
    assert!(!output.status.success());
    let first_readyok = line_of(&text, "< readyok");
    assert!(
        stdout(&output).contains(&format!("line {first_readyok}:")),
        "fails at line {first_readyok}: {}",
        stdout(&output)
    );
}

#[test]
fn a_match_through_the_proxy_and_its_logs_replay_green() {
    let dir = scratch("match");
    let engine = format!(
        "name=krou {} record --out {}/game-%n.txt -- {}",
        krou(),
        dir.display(),
        krou()
    );
    let output = Command::new(krou())
        .args(["match", "--engine", &engine, "--engine", "greedy"])
        .args(["--tc", "depth=4", "--games", "4", "--random-openings", "4"])
        .args(["--seed", "5", "--concurrency", "2", "--log-dir"])
        .arg(&dir)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stdout(&output));
    let mut recorded = Vec::new();
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("game-") {
            recorded.push(path);
        } else if name.ends_with("-krou.log") {
            logs.push(path);
        }
    }
    assert!(
        recorded.len() >= 4,
        "one transcript per engine started: {recorded:?}"
    );
    assert_eq!(logs.len(), 4, "one log per game: {logs:?}");
    for transcript in &recorded {
        let text = std::fs::read_to_string(transcript).unwrap();
        if text.contains("> go depth 4") {
            assert!(
                !text.contains("< bestmove **"),
                "fixed depth is exact: {text}"
            );
        }
        let output = replay(transcript, &[]);
        assert!(output.status.success(), "{}", stdout(&output));
    }
    for log in &logs {
        let transcript = log.with_extension("txt");
        let status = Command::new(krou())
            .args(["record", "--from-log"])
            .arg(log)
            .arg("--out")
            .arg(&transcript)
            .status()
            .unwrap();
        assert!(status.success());
        let output = replay(&transcript, &[]);
        assert!(output.status.success(), "{}", stdout(&output));
    }
}

/// One engine of the Aualé GUI's, for a made-up `--debug` log in the GUI's real format.
struct GuiEngine {
    number: u32,
    name: String,
    child: std::process::Child,
    input: ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl GuiEngine {
    fn start(number: u32) -> GuiEngine {
        let mut child = Command::new(krou())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        GuiEngine {
            number,
            name: "Unknown engine".to_string(),
            input: child.stdin.take().unwrap(),
            output: BufReader::new(child.stdout.take().unwrap()),
            child,
        }
    }

    /// `<Engine(N, NAME)> ` as the GUI writes it: the name is the engine's once it said it.
    fn prefix(&self) -> String {
        format!("DEBUG:uci:<Engine({}, {})> ", self.number, self.name)
    }

    /// Sends lines and logs what comes back up to a line starting with `until` (or, with an
    /// empty `until`, up to the end of the output, logged as the GUI does: an empty line).
    fn exchange(&mut self, log: &mut String, sent: &[&str], until: &str) {
        for line in sent {
            writeln!(self.input, "{line}").unwrap();
            log.push_str(&format!("{}> {line}\n", self.prefix()));
        }
        self.input.flush().unwrap();
        loop {
            let mut line = String::new();
            let ended = self.output.read_line(&mut line).unwrap() == 0;
            let line = line.trim_end().to_string();
            log.push_str(&format!("{}< {line}\n", self.prefix()));
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.to_string();
            }
            if ended || (!until.is_empty() && line.starts_with(until)) {
                break;
            }
        }
    }
}

/// The Aualé GUI's `--debug` output of a session with two real engines, in the format the GUI
/// test (`tests/auale_gui/`) saw the unmodified GUI write: `DEBUG:uci:<Engine(N, NAME)> > …`
/// sent, `… < …` received, the two engines interleaved, other loggers between, and each
/// engine's end of output an empty received line.
fn auale_debug_log() -> String {
    let mut log = String::from("DEBUG:uci:Engine command: krou\n");
    let mut north = GuiEngine::start(1);
    let mut south = GuiEngine::start(2);
    north.exchange(&mut log, &["uci"], "uciok");
    south.exchange(&mut log, &["uci"], "uciok");
    for engine in [&mut north, &mut south] {
        let line = "setoption name OwnBook value true";
        writeln!(engine.input, "{line}").unwrap();
        log.push_str(&format!("{}> {line}\n", engine.prefix()));
    }
    log.push_str("DEBUG:game-loop:Received a move request\n");
    north.exchange(&mut log, &["ucinewgame", "isready"], "readyok");
    north.exchange(
        &mut log,
        &["position startpos moves FbAf", "go depth 6 movetime 1200"],
        "bestmove",
    );
    log.push_str("DEBUG:game-loop:Move received from engine\n");
    log.push_str("WARNING:uci:Unknown UCI response\n");
    north.exchange(&mut log, &["quit"], "");
    south.exchange(&mut log, &["quit"], "");
    let _ = north.child.wait();
    let _ = south.child.wait();
    log
}

#[test]
fn an_auale_debug_log_becomes_one_transcript_per_engine_that_replays() {
    let dir = scratch("auale");
    let log = dir.join("auale-debug.txt");
    std::fs::write(&log, auale_debug_log()).unwrap();
    let output = Command::new(krou())
        .args(["record", "--from-log"])
        .arg(&log)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "two engines need %n in --out"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("%n"));
    let output = Command::new(krou())
        .args(["record", "--from-log"])
        .arg(&log)
        .arg("--out")
        .arg(dir.join("engine-%n.txt"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let north = std::fs::read_to_string(dir.join("engine-1.txt")).unwrap();
    assert!(
        north.contains("> go depth 6 movetime 1200\n<? info **\n< bestmove **\n"),
        "{north}"
    );
    assert!(
        north.ends_with("> quit\n"),
        "the end of output is no line: {north}"
    );
    assert!(
        !north.contains("Unknown UCI"),
        "only the engine dialogue is kept: {north}"
    );
    let south = std::fs::read_to_string(dir.join("engine-2.txt")).unwrap();
    assert!(!south.contains("> go"), "engine 2 was never asked: {south}");
    for transcript in ["engine-1.txt", "engine-2.txt"] {
        let output = replay(&dir.join(transcript), &[]);
        assert!(output.status.success(), "{transcript}: {}", stdout(&output));
    }
}

#[test]
fn malformed_logs_are_refused_with_file_and_line() {
    let dir = scratch("malformed");
    for (name, text, line) in [
        ("empty.log", "", 1),
        ("words.log", "hello\nworld\n", 1),
        (
            "broken.log",
            "[    0.0010] > uci\n[    0.0020] ? uciok\n",
            2,
        ),
        ("time.log", "[    0.0010] > uci\n[   -1.0000] < uciok\n", 2),
    ] {
        let log = dir.join(name);
        std::fs::write(&log, text).unwrap();
        let output = Command::new(krou())
            .args(["record", "--from-log"])
            .arg(&log)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{name}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains(&format!("{}: line {line}:", log.display())),
            "{name}: {error}"
        );
    }
}

#[test]
fn an_unwritable_file_is_refused_before_the_engine_starts() {
    let dir = scratch("unwritable");
    let marker = dir.join("started");
    let output = Command::new(krou())
        .args(["record", "--out"])
        .arg(dir.join("missing/dir/session.txt"))
        .args(["--", "sh", "-c"])
        .arg(format!("touch {}", marker.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write"));
    assert!(!marker.exists(), "the engine was not started");
}

#[test]
fn exit_codes_and_signals_pass_through() {
    let dir = scratch("exit");
    let run = |script: &str| {
        Command::new(krou())
            .args(["record", "--out"])
            .arg(dir.join("s.txt"))
            .args(["--", "sh", "-c", script])
            .stdin(Stdio::null())
            .status()
            .unwrap()
    };
    assert_eq!(run("exit 7").code(), Some(7));
    assert_eq!(run("kill -TERM $$").signal(), Some(15));
    let mut proxy = Command::new(krou())
        .args(["record", "--out"])
        .arg(dir.join("t.txt"))
        .arg("--")
        .arg(krou())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = proxy.stdin.take().unwrap();
    writeln!(input, "isready").unwrap();
    input.flush().unwrap();
    let mut reader = BufReader::new(proxy.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "readyok");
    Command::new("kill")
        .args(["-TERM", &proxy.id().to_string()])
        .status()
        .unwrap();
    let status = proxy.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(15),
        "the engine got SIGTERM and died by it"
    );
    let text = std::fs::read_to_string(dir.join("t.txt")).unwrap();
    assert!(text.contains("> isready\n< readyok\n"), "{text}");
}

#[test]
fn a_client_that_closes_its_input_ends_the_engine() {
    let dir = scratch("eof");
    let out = dir.join("s.txt");
    let output = Command::new(krou())
        .args(["record", "--out"])
        .arg(&out)
        .arg("--")
        .arg(krou())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(std::fs::read_to_string(&out).unwrap().ends_with("= eof\n"));
}
