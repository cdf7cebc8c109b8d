//! Replaying a [`Transcript`] against an engine process (`krou replay`, `scripts/replay`).

use super::junit;
use super::transcript::{Pattern, Step, Transcript};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why a replay failed: the transcript line (0 when not tied to one) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The transcript line number (1-based), or 0.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ReplayError {}

/// What a successful replay did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Lines sent to the engine.
    pub sent: usize,
    /// Lines the engine printed.
    pub received: usize,
}

/// Kills the engine if the replay ends early.
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    output: Receiver<Option<String>>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn error(line: usize, message: impl Into<String>) -> ReplayError {
    ReplayError {
        line,
        message: message.into(),
    }
}

impl Engine {
    fn spawn(mut command: Command) -> Result<Engine, ReplayError> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| error(0, format!("cannot start the engine: {e}")))?;
        let input = child.stdin.take();
        let stdout = child.stdout.take();
        let (lines, output) = channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if lines.send(Some(line)).is_err() {
                        break;
                    }
                }
                let _ = lines.send(None);
            });
        }
        Ok(Engine {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, line_no: usize, text: &str) -> Result<(), ReplayError> {
        let Some(input) = self.input.as_mut() else {
            return Err(error(line_no, "cannot send after '= eof'"));
        };
        writeln!(input, "{text}")
            .and_then(|()| input.flush())
            .map_err(|e| error(line_no, format!("cannot send '{text}': {e}")))
    }

    /// The next line, `None` once the engine closed its output.
    fn next(
        &self,
        line_no: usize,
        timeout: Duration,
        waiting_for: &str,
    ) -> Result<Option<String>, ReplayError> {
        match self.output.recv_timeout(timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) => Err(error(
                line_no,
                format!(
                    "nothing printed within {} ms; waiting for '{waiting_for}'",
                    timeout.as_millis()
                ),
            )),
        }
    }

    fn wait_exit(&mut self, line_no: usize, timeout: Duration) -> Result<(), ReplayError> {
        let started = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => {
                    return Err(error(line_no, format!("the engine exited with {status}")));
                }
                Ok(None) if started.elapsed() < timeout => {
                    std::thread::sleep(Duration::from_millis(1))
                }
                Ok(None) => {
                    return Err(error(
                        line_no,
                        format!(
                            "the engine did not exit within {} ms of the end of its input",
                            timeout.as_millis()
                        ),
                    ));
                }
                Err(e) => return Err(error(line_no, format!("cannot wait for the engine: {e}"))),
            }
        }
    }
}

/// Replays `transcript` against the engine `command` (stdin and stdout are taken over), waiting
/// at most `timeout` for each expected line and for the exit after the end of input.
pub fn replay(
    transcript: &Transcript,
    command: Command,
    timeout: Duration,
) -> Result<Summary, ReplayError> {
    let mut engine = Engine::spawn(command)?;
    let mut allowed: Vec<Pattern> = Vec::new();
    let mut summary = Summary {
        sent: 0,
        received: 0,
    };
    let mut last = 0;
    for (line_no, step) in &transcript.steps {
        last = *line_no;
        match step {
            Step::Send(text) => {
                engine.send(*line_no, text)?;
                summary.sent += 1;
            }
            Step::Expect(pattern) => loop {
                let line = engine.next(*line_no, timeout, &pattern.to_string())?;
                let Some(line) = line else {
                    return Err(error(
                        *line_no,
                        format!("the engine closed its output; expected '{pattern}'"),
                    ));
                };
                summary.received += 1;
                if pattern.matches(&line) {
                    allowed.clear();
                    break;
                }
                if !allowed.iter().any(|p| p.matches(&line)) {
                    return Err(error(
                        *line_no,
                        format!("expected '{pattern}', got '{line}'"),
                    ));
                }
            },
            Step::Allow(pattern) => allowed.push(pattern.clone()),
            Step::Sleep(pause) => std::thread::sleep(*pause),
            Step::CloseInput => engine.input = None,
        }
    }
    engine.input = None;
    while let Some(line) = engine.next(last, timeout, "the end of output")? {
        summary.received += 1;
        if !allowed.iter().any(|p| p.matches(&line)) {
            return Err(error(
                last,
                format!("unexpected output after the last expected line: '{line}'"),
            ));
        }
    }
    engine.wait_exit(last, timeout)?;
    Ok(summary)
}

/// `krou replay`: replays transcripts against an engine command.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Transcript files (`> ` lines sent, `< ` lines expected; see protocol.md).
    #[arg(required = true)]
    transcripts: Vec<PathBuf>,
    /// Longest wait for an expected line or for the exit, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Show the engine's stderr (its logs), hidden by default.
    #[arg(long)]
    engine_stderr: bool,
    /// Also write the results as JUnit XML (one test case per transcript) to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// The engine command and its arguments (after `--`); this `krou` by default.
    #[arg(last = true)]
    engine: Vec<String>,
}

/// Why a transcript could not be replayed or did not pass.
enum Failure {
    /// The transcript cannot be read or the engine cannot be started.
    Error(String),
    /// The engine did not do what the transcript says.
    Failed(ReplayError),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Error(message) => f.write_str(message),
            Failure::Failed(error) => error.fmt(f),
        }
    }
}

impl Args {
    /// Replays every transcript; success when all pass. Exit status 2 when the JUnit file
    /// cannot be written (checked before anything runs).
    pub fn run(&self) -> ExitCode {
        if let Some(path) = &self.junit {
            if let Err(e) = std::fs::write(path, "") {
                eprintln!("krou replay: cannot write --junit {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
        let mut suite = junit::Suite {
            name: "krou replay".to_string(),
            cases: Vec::new(),
        };
        for path in &self.transcripts {
            let started = Instant::now();
            let result = self.replay_one(path);
            let outcome = match &result {
                Ok(summary) => {
                    println!(
                        "ok {} ({} sent, {} received)",
                        path.display(),
                        summary.sent,
                        summary.received
                    );
                    junit::Outcome::Passed
                }
                Err(failure) => {
                    println!("FAIL {}: {failure}", path.display());
                    failure_outcome(path, failure)
                }
            };
            suite.cases.push(junit::Case {
                classname: "transcript".to_string(),
                name: path.display().to_string(),
                time: started.elapsed(),
                outcome,
            });
        }
        let failed = suite
            .cases
            .iter()
            .filter(|c| c.outcome != junit::Outcome::Passed)
            .count();
        if let Some(path) = &self.junit {
            let xml = junit::document("krou replay", &[suite], &junit::now_timestamp());
            if let Err(e) = std::fs::write(path, xml) {
                eprintln!("krou replay: cannot write --junit {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
        if failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }

    fn replay_one(&self, path: &PathBuf) -> Result<Summary, Failure> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Error(format!("cannot read it: {e}")))?;
        let transcript: Transcript = text
            .parse()
            .map_err(|e: super::transcript::TranscriptError| Failure::Error(e.to_string()))?;
        let mut command = match self.engine.split_first() {
            Some((program, args)) => {
                let mut command = Command::new(program);
                command.args(args);
                command
            }
            None => Command::new(
                std::env::current_exe()
                    .map_err(|e| Failure::Error(format!("cannot find krou itself: {e}")))?,
            ),
        };
        command.stderr(if self.engine_stderr {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
        replay(&transcript, command, Duration::from_millis(self.timeout_ms)).map_err(|e| {
            if e.line == 0 {
                Failure::Error(e.to_string())
            } else {
                Failure::Failed(e)
            }
        })
    }
}

/// The JUnit outcome of a failed transcript: the failing line of the file in the message, the
/// whole explanation in the details.
fn failure_outcome(path: &std::path::Path, failure: &Failure) -> junit::Outcome {
    match failure {
        Failure::Error(message) => junit::Outcome::Error {
            message: message.clone(),
            details: format!("{}: {message}", path.display()),
        },
        Failure::Failed(error) => junit::Outcome::Failed {
            message: format!("{}:{}: {}", path.display(), error.line, error.message),
            details: format!("{}, line {}: {}", path.display(), error.line, error.message),
        },
    }
}
