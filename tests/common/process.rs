//! A program talked to over pipes, as a GUI or referee talks to an engine: lines sent to its
//! standard input, its output read line by line by a thread into a channel.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// A running program with its input and a channel of its output lines.
pub struct Piped {
    /// The process.
    pub child: Child,
    /// Its standard input.
    pub input: ChildStdin,
    /// Its standard output, a line at a time (without the line end).
    pub lines: Receiver<String>,
}

impl Piped {
    /// Starts `command` with piped input and output (stderr dropped, no `RUST_LOG`).
    pub fn spawn(command: &mut Command) -> Piped {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("the program starts");
        let input = child.stdin.take().expect("its input");
        let output = child.stdout.take().expect("its output");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Piped {
            child,
            input,
            lines,
        }
    }

    /// Sends one line and flushes it.
    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the line is sent");
        self.input.flush().expect("the line is flushed");
    }
}
