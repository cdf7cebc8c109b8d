//! An engine process spoken to through the protocol: start, handshake, one search, and a
//! kill when it misbehaves.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How to start the engine and set it up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` pairs sent after `uciok`.
    pub options: Vec<(String, String)>,
    /// Whether the engine's stderr is shown (else it is discarded).
    pub stderr: bool,
    /// The longest wait for `uciok` and `readyok`.
    pub handshake_timeout: Duration,
}

/// A running engine; killed when dropped.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    output: Receiver<String>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Engine {
    /// Starts the engine and does the handshake (`uci`/`uciok`, options, `isready`/`readyok`).
    pub fn start(setup: &Setup) -> Result<Engine, String> {
        let Some((program, args)) = setup.command.split_first() else {
            return Err("no engine command".to_string());
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if setup.stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start the engine '{program}': {e}"))?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("the engine's stdin or stdout is missing".to_string());
        };
        let (lines, output) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            input,
            output,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", setup.handshake_timeout)?;
        for (name, value) in &setup.options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready(setup.handshake_timeout)?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("cannot send '{line}' to the engine: {e}"))
    }

    /// `isready`, then waits for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready")?;
        self.wait_for("readyok", timeout).map(|_| ())
    }

    /// Reads lines until one whose first word is `word`; returns that line.
    pub fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(line) if line.split_whitespace().next() == Some(word) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no '{word}' within {} ms", timeout.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine closed its output before '{word}'"));
                }
            }
        }
    }

    /// One search: `ucinewgame`, `isready`, `position fen`, `go`; the `bestmove` word.
    pub fn search(&mut self, diagram: &str, go: &str, timeout: Duration) -> Result<String, String> {
        self.send("ucinewgame")?;
        self.ready(timeout)?;
        self.send(&format!("position fen {diagram}"))?;
        self.send(go)?;
        let line = self.wait_for("bestmove", timeout)?;
        match line.split_whitespace().nth(1) {
            Some(mv) => Ok(mv.to_string()),
            None => Err(format!("'{line}' names no move")),
        }
    }

    /// Ends the engine politely (`quit`); it is killed on drop if it does not exit.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
