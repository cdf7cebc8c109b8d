//! An engine process: spawned in its own process group, its input written by a writer thread,
//! its output read line by line on a reader thread (lines bounded in length, the queue bounded in
//! size), every line timestamped, and the child killed when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
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
/// Protocol log bytes kept per engine and game; later lines are counted, not kept.
pub const MAX_LOG_BYTES: usize = 1024 * 1024;
/// Longest line from the engine kept in a protocol log; the rest is replaced by a marker.
pub const MAX_LOG_LINE_BYTES: usize = 256;

/// The process ids of the engines running now, for [`kill_all`].
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills the process groups of every engine still running (for exiting at once after a second
/// Ctrl-C, when no [`Process`] gets dropped).
pub fn kill_all() {
    let pids = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for pid in pids {
        kill_group_of(pid);
    }
}

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
    log: Option<String>,
    dropped_log_lines: usize,
    dropped_log_bytes: usize,
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
        if let Ok(mut running) = RUNNING.lock() {
            running.push(child.id());
        }
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
            log: log.then(String::new),
            dropped_log_lines: 0,
            dropped_log_bytes: 0,
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
        let mut text = self.log.clone().unwrap_or_default();
        if text.ends_with('\n') {
            text.pop();
        }
        if self.dropped_log_lines > 0 {
            text.push_str(&format!(
                "\n({} more lines, {} bytes, not kept: the log is limited to {MAX_LOG_BYTES} bytes)",
                self.dropped_log_lines, self.dropped_log_bytes
            ));
        }
        text
    }

    fn note(&mut self, direction: char, line: &str) {
        let Some(log) = self.log.as_mut() else {
            return;
        };
        let entry = log_entry(self.started.elapsed().as_secs_f64(), direction, line);
        if self.dropped_log_lines == 0 && log.len() + entry.len() <= MAX_LOG_BYTES {
            log.push_str(&entry);
        } else {
            self.dropped_log_lines += 1;
            self.dropped_log_bytes += line.len();
        }
    }
}

impl Drop for Process {
    /// Sends `quit`, gives the engine a moment to exit, then kills its process group.
    fn drop(&mut self) {
        self.stop();
        let pid = self.child.id();
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|&p| p != pid);
        }
    }
}

impl Process {
    /// Sends `quit`, waits up to [`QUIT_GRACE`] for the engine to exit, then kills its group.
    fn stop(&mut self) {
        if !self.closed {
            self.send("quit");
        }
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => {
                    // Whatever the engine left behind in its group goes with it.
                    kill_group_of(self.child.id());
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => break,
            }
        }
        kill_group(&mut self.child);
        if let Err(e) = self.child.wait() {
            log::debug!("waiting for a killed engine: {e}");
        }
    }
}

/// Kills the engine's whole process group (the engine is its leader), so that a wrapper
/// script's children die with it; falls back to killing the engine alone.
fn kill_group(child: &mut Child) {
    let killed = kill_group_of(child.id());
    if !killed {
        if let Err(e) = child.kill() {
            log::debug!("killing an engine: {e}");
        }
    }
}

/// Sends SIGKILL to the process group led by `pid`; `true` if `kill` said it did.
pub fn kill_group_of(pid: u32) -> bool {
    Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One protocol log line (with its newline): time, direction, and the text. A line the engine
/// printed is cut after [`MAX_LOG_LINE_BYTES`] with a marker saying how much was left out; a
/// line sent to it is kept whole (the referee's own `position` lines grow with the game, and a
/// log turned into a transcript must send them again).
fn log_entry(elapsed: f64, direction: char, line: &str) -> String {
    let limit = if direction == '>' {
        line.len()
    } else {
        MAX_LOG_LINE_BYTES
    };
    let mut end = line.len().min(limit);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    if end == line.len() {
        format!("[{elapsed:10.4}] {direction} {line}\n")
    } else {
        let rest = line.len() - end;
        format!(
            "[{elapsed:10.4}] {direction} {}… ({rest} more bytes cut)\n",
            &line[..end]
        )
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
    fn the_protocol_log_is_bounded_in_bytes_and_says_what_it_dropped() {
        let argv = ["sh".to_string(), "-c".into(), "cat >/dev/null".into()];
        let mut process = Process::spawn(&argv, true, false).expect("sh runs");
        let long = "x".repeat(MAX_LINE_BYTES);
        for _ in 0..20_000 {
            process.note('<', &long);
        }
        process.note('<', "é".repeat(200).as_str());
        let log = process.log();
        assert!(log.len() <= MAX_LOG_BYTES + 200, "{} bytes", log.len());
        let lines: Vec<&str> = log.lines().collect();
        assert!(
            lines.len() > 1000,
            "cut lines fill the log: {}",
            lines.len()
        );
        assert!(lines[0].ends_with(&format!("… ({} more bytes cut)", MAX_LINE_BYTES - 256)));
        assert!(lines[0].len() < 300, "{}", lines[0]);
        let kept = lines.len() - 1;
        let last = lines[kept];
        assert!(
            last.starts_with(&format!("({} more lines, ", 20_001 - kept)),
            "{last}"
        );
        assert!(last.contains("bytes, not kept"), "{last}");
        let entry = log_entry(1.0, '<', &"é".repeat(200));
        assert!(entry.contains("… (144 more bytes cut)"), "{entry}");
        let sent = format!("position startpos moves {}", "Ff".repeat(300));
        assert!(
            log_entry(1.0, '>', &sent).contains(&sent),
            "sent lines are kept whole"
        );
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
