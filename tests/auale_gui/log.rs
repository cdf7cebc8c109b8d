//! The GUI's `--debug` output as it comes: kept whole in a file (for `krou record --from-log`)
//! and in memory, where the test waits for the events it needs.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A dialogue line of the log: `DEBUG:uci:<Engine(N, NAME)> > LINE` (sent) or `… < LINE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// The engine's number in the GUI.
    pub engine: u32,
    /// Whether the GUI sent it (rather than the engine printed it).
    pub sent: bool,
    /// The line.
    pub text: String,
}

/// Reads a dialogue line of the log, written here from what the GUI was seen to print.
pub fn engine_line(line: &str) -> Option<EngineLine> {
    let rest = line.strip_prefix("DEBUG:uci:<Engine(")?;
    let (number, rest) = rest.split_once(", ")?;
    let engine = number.parse().ok()?;
    let (_, rest) = rest.split_once(")> ")?;
    let (sent, text) = match rest.strip_prefix("> ") {
        Some(text) => (true, text),
        None => (false, rest.strip_prefix("< ").or(rest.strip_prefix("<"))?),
    };
    Some(EngineLine {
        engine,
        sent,
        text: text.trim_end().to_string(),
    })
}

#[derive(Default)]
struct Lines {
    lines: Vec<String>,
    closed: bool,
}

/// The log so far, filled by a thread reading the GUI's output.
#[derive(Clone, Default)]
pub struct Log {
    shared: Arc<(Mutex<Lines>, Condvar)>,
}

impl Log {
    /// Reads `output` to its end in a thread, each line written to `file` as it comes.
    pub fn follow(output: impl Read + Send + 'static, file: &Path) -> Log {
        let log = Log::default();
        let mut copy = File::create(file).expect("the log file can be written");
        let filling = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(copy, "{line}");
                let (lines, changed) = &*filling.shared;
                lines.lock().expect("log lock").lines.push(line);
                changed.notify_all();
            }
            let (lines, changed) = &*filling.shared;
            lines.lock().expect("log lock").closed = true;
            changed.notify_all();
        });
        log
    }

    /// Every line so far.
    pub fn lines(&self) -> Vec<String> {
        self.shared.0.lock().expect("log lock").lines.clone()
    }

    /// How many lines there are so far.
    pub fn len(&self) -> usize {
        self.shared.0.lock().expect("log lock").lines.len()
    }

    /// Waits for the first line from line `from` on that `wanted` accepts, and gives its index;
    /// `None` if the log ends or `timeout` passes first.
    pub fn wait_for(
        &self,
        from: usize,
        timeout: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        let deadline = Instant::now() + timeout;
        let (lines, changed) = &*self.shared;
        let mut state = lines.lock().expect("log lock");
        let mut next = from;
        loop {
            while next < state.lines.len() {
                if wanted(&state.lines[next]) {
                    return Some(next);
                }
                next += 1;
            }
            let now = Instant::now();
            if state.closed || now >= deadline {
                return None;
            }
            state = changed
                .wait_timeout(state, deadline - now)
                .expect("log lock")
                .0;
        }
    }

    /// Waits for the GUI's output to end (the GUI has exited or closed it).
    pub fn wait_closed(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let (lines, changed) = &*self.shared;
        let mut state = lines.lock().expect("log lock");
        while !state.closed {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            state = changed
                .wait_timeout(state, deadline - now)
                .expect("log lock")
                .0;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gui_s_dialogue_lines_are_read() {
        assert_eq!(
            engine_line("DEBUG:uci:<Engine(2, Unknown engine)> > uci"),
            Some(EngineLine {
                engine: 2,
                sent: true,
                text: "uci".into()
            })
        );
        let end = engine_line("DEBUG:uci:<Engine(1, Krou 0.2.0)> < ").unwrap();
        assert!(!end.sent && end.text.is_empty());
        assert_eq!(
            engine_line("DEBUG:game-loop:Move received from engine"),
            None
        );
    }
}
