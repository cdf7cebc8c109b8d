//! `krou` started on a terminal greets the person in one line, answers `help`, and shows a
//! rejected line once; through a pipe nothing of this changes the protocol. The terminal is a
//! pseudo-terminal from `script` (util-linux; the test says it is skipped where it is absent).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a person at a terminal sees (stdout and stderr both), after typing `input`, once
/// `until` has appeared (or 10 s have passed).
fn on_a_terminal(input: &str, until: &str) -> Option<String> {
    let krou = env!("CARGO_BIN_EXE_krou");
    let mut child = Command::new("script")
        .args(["-qec", krou, "/dev/null"])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = child.stdout.take()?;
    let (chunks, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buffer) {
            if n == 0 || chunks.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    stdin.write_all(input.as_bytes()).ok()?;
    stdin.flush().ok()?;
    // `script` ends when its input does: keep it open until the engine has answered.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut text = Vec::new();
    while !String::from_utf8_lossy(&text).contains(until) && Instant::now() < deadline {
        if let Ok(chunk) = seen.recv_timeout(Duration::from_millis(100)) {
            text.extend(chunk);
        }
    }
    drop(stdin);
    let _ = child.wait();
    while let Ok(chunk) = seen.recv_timeout(Duration::from_millis(200)) {
        text.extend(chunk);
    }
    Some(String::from_utf8_lossy(&text).replace('\r', ""))
}

#[test]
fn a_person_is_greeted_helped_and_told_each_error_once() {
    let Some(seen) = on_a_terminal("bogus\nhelp\n", "lists the other tools") else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    let greeting = seen
        .lines()
        .find(|l| l.starts_with("Krou "))
        .expect("a greeting");
    assert!(greeting.contains("'help'"), "{greeting}");
    assert_eq!(
        seen.matches("unknown command 'bogus'").count(),
        1,
        "the error is shown once, not also as a log line: {seen}"
    );
    assert!(
        seen.contains("position fen <diagram>"),
        "help answers: {seen}"
    );
}

#[test]
fn through_a_pipe_there_is_no_greeting_and_errors_are_also_logged() {
    let output = Command::new(env!("CARGO_BIN_EXE_krou"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(b"bogus\nisready\n")?;
            }
            child.wait_with_output()
        })
        .expect("krou runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("info string error: unknown command 'bogus'"),
        "{stdout}"
    );
    assert!(stdout.ends_with("readyok\n"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("rejected 'bogus'"),
        "the log keeps it for GUIs' logs: {stderr}"
    );
}
