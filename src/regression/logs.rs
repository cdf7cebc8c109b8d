//! Protocol logs read back as dialogues: the logs `krou match --log-dir` keeps per engine and
//! game, and the Aualé GUI's `--debug` output.
//!
//! ```text
//! [    0.0012] > uci                   krou match: seconds since the engine started,
//! [    0.0051] < id name Krou 0.1.0    '>' sent to the engine, '<' printed by it
//! DEBUG:uci:> go depth 6 movetime 1200 the Aualé GUI (Python's logging): no times
//! DEBUG:uci:< bestmove F               (its other lines are skipped)
//! ```

use super::dialogue::{Direction, Event};
use std::fmt;
use std::time::Duration;

/// A log line that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    /// Its line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for LogError {}

/// Which program wrote a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    /// `krou match --log-dir`.
    Match,
    /// The Aualé GUI's `--debug` output.
    Auale,
}

impl fmt::Display for LogKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LogKind::Match => "a krou match --log-dir log",
            LogKind::Auale => "the Aualé GUI's --debug output",
        })
    }
}

/// A dialogue read from a log: what kind of log it was, its events, and what the log said it
/// left out (a note for the transcript's header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dialogue {
    /// The kind of log.
    pub kind: LogKind,
    /// The lines in order.
    pub events: Vec<Event>,
    /// What the log left out, if anything (then the dialogue ends early).
    pub truncated: Option<String>,
}

/// The Aualé GUI's logger prefix of a line sent to the engine.
const AUALE_SENT: &str = "DEBUG:uci:> ";
/// The Aualé GUI's logger prefix of a line the engine printed.
const AUALE_RECEIVED: &str = "DEBUG:uci:< ";
/// How `krou match` marks a line it cut (see `referee::engines::process`).
const CUT_MARK: &str = " more bytes cut)";

/// Reads a log of either kind (told apart by its first protocol line).
pub fn read(text: &str) -> Result<Dialogue, LogError> {
    let kind = text
        .lines()
        .find_map(|line| {
            if line.starts_with(AUALE_SENT) || line.starts_with(AUALE_RECEIVED) {
                Some(LogKind::Auale)
            } else if line.starts_with('[') {
                Some(LogKind::Match)
            } else {
                None
            }
        })
        .ok_or_else(|| LogError {
            line: 1,
            message: "no protocol line found: expected a krou match log ('[    0.0012] > uci') \
                      or the Aualé GUI's --debug output ('DEBUG:uci:> uci')"
                .to_string(),
        })?;
    match kind {
        LogKind::Match => read_match_log(text),
        LogKind::Auale => Ok(read_auale_log(text)),
    }
}

fn read_match_log(text: &str) -> Result<Dialogue, LogError> {
    let mut events = Vec::new();
    let mut truncated = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with('(') && line.contains("not kept") {
            truncated = Some(line.trim_matches(['(', ')']).to_string());
            break;
        }
        let error = |message: String| LogError {
            line: line_no,
            message,
        };
        let (at, direction, text) = match_line(line).ok_or_else(|| {
            error(format!(
                "'{}' is not a log line ('[seconds] > text' or '[seconds] < text')",
                line.escape_debug()
            ))
        })?;
        if let Some(kept) = cut_info(direction, text) {
            // A search's info lines are generalised anyway: what was kept of one is enough.
            events.push(Event::Line {
                at,
                direction,
                text: kept.to_string(),
            });
            continue;
        }
        if text.ends_with(CUT_MARK) {
            if direction == Direction::Sent {
                return Err(error(
                    "this line sent to the engine was cut in the log, so it cannot be sent again"
                        .to_string(),
                ));
            }
            truncated = Some(format!(
                "line {line_no} of the log was cut; the transcript stops before it"
            ));
            break;
        }
        events.push(Event::Line {
            at,
            direction,
            text: text.to_string(),
        });
    }
    Ok(Dialogue {
        kind: LogKind::Match,
        events,
        truncated,
    })
}

/// What was kept of an `info` line the engine printed and the log cut, if this is one.
fn cut_info(direction: Direction, text: &str) -> Option<&str> {
    if direction != Direction::Received || !text.ends_with(CUT_MARK) {
        return None;
    }
    let kept = text.rsplit_once("… (")?.0;
    (kept.split_whitespace().next() == Some("info")).then_some(kept)
}

/// `[   12.3456] > text` as its time, direction and text.
fn match_line(line: &str) -> Option<(Duration, Direction, &str)> {
    let rest = line.strip_prefix('[')?;
    let (seconds, rest) = rest.split_once(']')?;
    let seconds: f64 = seconds.trim().parse().ok()?;
    let at = Duration::try_from_secs_f64(seconds).ok()?;
    let rest = rest.strip_prefix(' ')?;
    let (direction, text) = if let Some(text) = rest.strip_prefix("> ") {
        (Direction::Sent, text)
    } else if let Some(text) = rest.strip_prefix("< ") {
        (Direction::Received, text)
    } else if rest == ">" || rest == "<" {
        (
            if rest == ">" {
                Direction::Sent
            } else {
                Direction::Received
            },
            "",
        )
    } else {
        return None;
    };
    Some((at, direction, text))
}

fn read_auale_log(text: &str) -> Dialogue {
    let events = text
        .lines()
        .filter_map(|line| {
            let (direction, text) = if let Some(text) = line.strip_prefix(AUALE_SENT) {
                (Direction::Sent, text)
            } else {
                (Direction::Received, line.strip_prefix(AUALE_RECEIVED)?)
            };
            Some(Event::Line {
                at: Duration::ZERO,
                direction,
                text: text.trim_end().to_string(),
            })
        })
        .collect();
    Dialogue {
        kind: LogKind::Auale,
        events,
        truncated: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_log_is_read_with_its_times() {
        let log = "[    0.0012] > uci\n[    0.0051] < id name Krou 0.1.0\n[    1.5000] > quit\n";
        let dialogue = read(log).unwrap();
        assert_eq!(dialogue.kind, LogKind::Match);
        assert_eq!(dialogue.events.len(), 3);
        assert_eq!(
            dialogue.events[2],
            Event::Line {
                at: Duration::from_millis(1500),
                direction: Direction::Sent,
                text: "quit".to_string()
            }
        );
    }

    #[test]
    fn a_broken_match_log_line_is_named() {
        let error = read("[    0.0012] > uci\n[x] > isready\n").unwrap_err();
        assert_eq!(error.line, 2);
        let error = read("[    0.0012] > uci\n[1e20] > isready\n").unwrap_err();
        assert_eq!(error.line, 2);
        let error =
            read("[    0.0012] > uci\n[    0.1] > position fen 4-4… (900 more bytes cut)\n")
                .unwrap_err();
        assert_eq!(error.line, 2);
    }

    #[test]
    fn a_cut_info_line_keeps_its_start() {
        let log =
            "[    0.0012] > go depth 9\n[    0.0100] < info depth 1 pv AbC… (300 more bytes cut)\n";
        let dialogue = read(log).unwrap();
        assert_eq!(dialogue.events.len(), 2);
        assert!(dialogue.truncated.is_none());
    }

    #[test]
    fn a_match_log_that_dropped_lines_ends_there() {
        let log = "[    0.0012] > uci\n(12 more lines, 900 bytes, not kept: the log is limited)\n";
        let dialogue = read(log).unwrap();
        assert_eq!(dialogue.events.len(), 1);
        assert!(dialogue.truncated.is_some());
    }

    #[test]
    fn an_auale_log_keeps_only_the_engine_dialogue() {
        let log = "INFO:root:starting\nDEBUG:uci:> uci\nDEBUG:uci:< uciok\nWARNING:uci:Response timeout\n";
        let dialogue = read(log).unwrap();
        assert_eq!(dialogue.kind, LogKind::Auale);
        assert_eq!(dialogue.events.len(), 2);
    }

    #[test]
    fn text_without_protocol_lines_is_refused() {
        assert_eq!(read("hello\nworld\n").unwrap_err().line, 1);
    }
}
