//! An engine process: spawned in its own process group, its input written by a writer thread,
//! its output read line by line on a reader thread (lines bounded in length, the queue bounded in
//! size), every line timestamped, and the child killed when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// Lines waiting to be read before the reader thread (and so the engine) blocks.
const QUEUE_LINES: usize = 1024;
/// How often a wait checks the abort flag.
const ABORT_POLL: Duration = Duration::from_millis(20);
/// How long an engine gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// Protocol log lines kept per engine and game; later lines are counted, not kept.
const MAX_LOG_LINES: usize = 50_000;

/// A line an engine printed, stamped when the reader thread read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text, lossily decoded, without its line end; cut at [`MAX_LINE_BYTES`].
    pub text: String,
    /// When it was read.
    pub at: Instant,
    /// Whether the line was longer than [`MAX_LINE_BYTES`] and was cut.
    pub cut: bool,
}

enum Event {
    Line(Line),
    Closed,
}

/// The result of waiting for a line.
#[derive(Debug)]
pub enum Received {
    /// A line arrived.
    Line(Line),
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// The deadline passed first.
    TimedOut,
    /// The match is being stopped.
    Aborted,
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<Sender<String>>,
    events: Receiver<Event>,
    closed: bool,
    started: Instant,
    log: Option<Vec<String>>,
    dropped_log_lines: usize,
}

impl Process {
    /// Starts `argv[0]` with the arguments `argv[1..]`; its stderr is discarded unless
    /// `stderr`. With `log`, every line sent and received is kept with a timestamp (see
    /// [`Process::log`]).
    pub fn spawn(argv: &[String], log: bool, stderr: bool) -> std::io::Result<Process> {
        use std::os::unix::process::CommandExt;
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| std::io::Error::other("empty engine command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .process_group(0)
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        let (sender, events) = sync_channel(QUEUE_LINES);
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_lines(stdout, &sender))?;
        Ok(Process {
            stdin: child.stdin.take().map(spawn_writer).transpose()?,
            child,
            events,
            closed: false,
            started: Instant::now(),
            log: log.then(Vec::new),
            dropped_log_lines: 0,
        })
    }

    /// Queues one line (a newline is added) for the engine; `false` once its input is known to
    /// be closed.
    pub fn send(&mut self, line: &str) -> bool {
        self.note('>', line);
        let Some(stdin) = self.stdin.as_ref() else {
            return false;
        };
        let sent = stdin.send(format!("{line}\n")).is_ok();
        if !sent {
            self.stdin = None;
        }
        sent
    }

    /// Reads and logs every line already waiting (output nobody asked for, such as a second
    /// `bestmove`), so that it cannot be taken for the answer to the next command. Returns how
    /// many lines were dropped.
    pub fn drain(&mut self) -> usize {
        let mut dropped = 0;
        while let Ok(event) = self.events.try_recv() {
            match event {
                Event::Line(line) => {
                    self.note('<', &line.text);
                    log::debug!("unasked engine output dropped: {}", line.text);
                    dropped += 1;
                }
                Event::Closed => {
                    self.closed = true;
                    self.note('<', "(end of output)");
                    break;
                }
            }
        }
        dropped
    }

    /// Waits for the next line until `deadline`, checking `abort` every few milliseconds.
    pub fn receive(&mut self, deadline: Instant, abort: &AtomicBool) -> Received {
        if self.closed {
            return Received::Closed;
        }
        loop {
            if abort.load(Ordering::Relaxed) {
                return Received::Aborted;
            }
            let now = Instant::now();
            if now >= deadline {
                return Received::TimedOut;
            }
            match self.events.recv_timeout((deadline - now).min(ABORT_POLL)) {
                Ok(Event::Line(line)) => {
                    self.note('<', &line.text);
                    return Received::Line(line);
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    self.note('<', "(end of output)");
                    return Received::Closed;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// How the process ended, if it has (waits a moment for it after its output closed).
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// The protocol log so far (empty unless logging was asked for).
    pub fn log(&self) -> String {
        let mut text = self.log.as_ref().map(|l| l.join("\n")).unwrap_or_default();
        if self.dropped_log_lines > 0 {
            text.push_str(&format!(
                "\n({} more lines not kept)",
                self.dropped_log_lines
            ));
        }
        text
    }

    fn note(&mut self, direction: char, line: &str) {
        let elapsed = self.started.elapsed().as_secs_f64();
        if let Some(log) = self.log.as_mut() {
            if log.len() < MAX_LOG_LINES {
                log.push(format!("[{elapsed:10.4}] {direction} {line}"));
            } else {
                self.dropped_log_lines += 1;
            }
        }
    }
}

impl Drop for Process {
    /// Sends `quit`, gives the engine a moment to exit, then kills it.
    fn drop(&mut self) {
        if !self.closed {
            self.send("quit");
        }
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => break,
            }
        }
        if let Err(e) = self.child.kill() {
            log::debug!("killing an engine: {e}");
        }
        if let Err(e) = self.child.wait() {
            log::debug!("waiting for a killed engine: {e}");
        }
    }
}

/// The writer thread: writes queued lines to the engine's input, so that an engine that stops
/// reading can block only this thread, never the referee. Ends when the engine's input closes
/// or the [`Process`] is dropped.
fn spawn_writer(mut stdin: ChildStdin) -> std::io::Result<Sender<String>> {
    let (sender, lines) = channel::<String>();
    std::thread::Builder::new()
        .name("engine-writer".into())
        .spawn(move || {
            for line in lines {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        })?;
    Ok(sender)
}

/// The reader thread: splits `source` into lines of at most [`MAX_LINE_BYTES`], stamps them and
/// queues them, until end of output or until nobody listens any more.
fn read_lines(source: impl Read, sender: &SyncSender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, source);
    let mut line = Vec::with_capacity(256);
    let mut cut = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        let (used, end_of_line) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, Some(i)),
            None => (chunk.len(), None),
        };
        let part = &chunk[..end_of_line.unwrap_or(used)];
        let room = MAX_LINE_BYTES - line.len();
        cut |= part.len() > room;
        line.extend_from_slice(&part[..part.len().min(room)]);
        reader.consume(used);
        if end_of_line.is_some() && !send_line(sender, &mut line, &mut cut) {
            return;
        }
    }
    if !line.is_empty() {
        send_line(sender, &mut line, &mut cut);
    }
    let _ = sender.send(Event::Closed);
}

fn send_line(sender: &SyncSender<Event>, line: &mut Vec<u8>, cut: &mut bool) -> bool {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    let event = Event::Line(Line {
        text: String::from_utf8_lossy(line).into_owned(),
        at: Instant::now(),
        cut: *cut,
    });
    line.clear();
    *cut = false;
    sender.send(event).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<Line> {
        let (sender, receiver) = sync_channel(QUEUE_LINES);
        read_lines(bytes, &sender);
        receiver
            .try_iter()
            .filter_map(|e| match e {
                Event::Line(line) => Some(line),
                Event::Closed => None,
            })
            .collect()
    }

    #[test]
    fn reader_splits_lines_strips_line_ends_and_keeps_a_last_unfinished_line() {
        let lines = lines_of(b"uciok\r\nreadyok\n\nbestmove F");
        let texts: Vec<_> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["uciok", "readyok", "", "bestmove F"]);
    }

    #[test]
    fn reader_cuts_overlong_lines_and_decodes_garbage_lossily() {
        let mut bytes = vec![b'x'; MAX_LINE_BYTES * 3];
        bytes.extend_from_slice(b"\n\xff\xfe ok\n");
        let lines = lines_of(&bytes);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].cut);
        assert_eq!(lines[0].text.len(), MAX_LINE_BYTES);
        assert!(!lines[1].cut);
        assert!(lines[1].text.ends_with(" ok"));
    }
}
