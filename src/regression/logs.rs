//! Protocol logs read back as dialogues: the logs `krou match --log-dir` keeps per engine and
//! game, and the Aualé GUI's `--debug` output.
//!
//! ```text
//! [    0.0012] > uci                   krou match: seconds since the engine started,
//! [    0.0051] < id name Krou 0.1.0    '>' sent to the engine, '<' printed by it
//!
//! DEBUG:uci:<Engine(1, Unknown engine)> > uci            the Aualé GUI 2.2 (Python's
//! DEBUG:uci:<Engine(1, Unknown engine)> < id name Krou   logging): no times; its two
//! DEBUG:uci:<Engine(2, Krou 0.2.0)> > go depth 6 …       engines interleaved, told apart
//! DEBUG:uci:<Engine(1, Krou 0.2.0)> <                    by N; an empty received line
//! DEBUG:game-loop:Move received from engine              is an engine's end of output;
//! ```                                                    other lines are skipped

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
    /// The engine's number in a log that holds several (the Aualé GUI's `Engine(N, …)`).
    pub engine: Option<u32>,
    /// The engine command the log names, if it names one.
    pub command: Option<String>,
    /// The lines in order.
    pub events: Vec<Event>,
    /// What the log left out, if anything (then the dialogue ends early).
    pub truncated: Option<String>,
}

/// The Aualé GUI's logger prefix of a dialogue line: `<Engine(N, NAME)> > LINE` follows.
const AUALE_DIALOGUE: &str = "DEBUG:uci:<Engine(";
/// The Aualé GUI's logger prefix of the line naming the engine command.
const AUALE_COMMAND: &str = "DEBUG:uci:Engine command: ";
/// How `krou match` marks a line it cut (see `referee::engines::process`).
const CUT_MARK: &str = " more bytes cut)";

/// Reads a log of either kind (told apart by its first protocol line): one dialogue for a
/// `krou match` log, one per engine (in the order of their numbers) for the Aualé GUI's.
pub fn read(text: &str) -> Result<Vec<Dialogue>, LogError> {
    let kind = text
        .lines()
        .find_map(|line| {
            if line.starts_with(AUALE_DIALOGUE) {
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
                      or the Aualé GUI's --debug output \
                      ('DEBUG:uci:<Engine(1, Unknown engine)> > uci')"
                .to_string(),
        })?;
    match kind {
        LogKind::Match => read_match_log(text).map(|dialogue| vec![dialogue]),
        LogKind::Auale => read_auale_log(text),
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
        engine: None,
        command: None,
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

/// `<Engine(N, NAME)> > LINE` (after the logger's prefix) as N, the direction and the line.
/// The name is the GUI's (`Unknown engine` until `id name` arrives), so it may hold anything:
/// the line starts after the first `)> > ` or `)> < ` (or ends in `)> <`, the end of output).
fn auale_line(rest: &str) -> Option<(u32, Direction, &str)> {
    let (number, rest) = rest.split_once(", ")?;
    let number: u32 = number.parse().ok()?;
    let mut from = 0;
    while let Some(at) = rest[from..].find(")> ") {
        let after = &rest[from + at + 3..];
        if let Some(text) = after.strip_prefix("> ") {
            return Some((number, Direction::Sent, text));
        }
        if let Some(text) = after.strip_prefix("< ") {
            return Some((number, Direction::Received, text));
        }
        if after == "<" || after == ">" {
            let direction = if after == ">" {
                Direction::Sent
            } else {
                Direction::Received
            };
            return Some((number, direction, ""));
        }
        from += at + 3;
    }
    None
}

fn read_auale_log(text: &str) -> Result<Vec<Dialogue>, LogError> {
    let mut command = None;
    let mut engines: std::collections::BTreeMap<u32, Vec<Event>> = Default::default();
    for (i, line) in text.lines().enumerate() {
        if let Some(named) = line.strip_prefix(AUALE_COMMAND) {
            command = Some(named.trim_end().to_string());
            continue;
        }
        let Some(rest) = line.strip_prefix(AUALE_DIALOGUE) else {
            continue;
        };
        let (number, direction, text) = auale_line(rest).ok_or_else(|| LogError {
            line: i + 1,
            message: format!(
                "'{}' is not a dialogue line ('DEBUG:uci:<Engine(N, NAME)> > text' or '… < text')",
                line.escape_debug()
            ),
        })?;
        engines.entry(number).or_default().push(Event::Line {
            at: Duration::ZERO,
            direction,
            text: text.trim_end().to_string(),
        });
    }
    Ok(engines
        .into_iter()
        .map(|(number, mut events)| {
            // The GUI logs the end of an engine's output as an empty received line: the end of
            // the dialogue, not a line to expect (one followed by more is kept as it was).
            if matches!(
                events.last(),
                Some(Event::Line { direction: Direction::Received, text, .. }) if text.is_empty()
            ) {
                events.pop();
            }
            Dialogue {
                kind: LogKind::Auale,
                engine: Some(number),
                command: command.clone(),
                events,
                truncated: None,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_log_is_read_with_its_times() {
        let log = "[    0.0012] > uci\n[    0.0051] < id name Krou 0.1.0\n[    1.5000] > quit\n";
        let dialogue = &read(log).unwrap()[0];
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
        let dialogue = &read(log).unwrap()[0];
        assert_eq!(dialogue.events.len(), 2);
        assert!(dialogue.truncated.is_none());
    }

    #[test]
    fn a_match_log_that_dropped_lines_ends_there() {
        let log = "[    0.0012] > uci\n(12 more lines, 900 bytes, not kept: the log is limited)\n";
        let dialogue = &read(log).unwrap()[0];
        assert_eq!(dialogue.events.len(), 1);
        assert!(dialogue.truncated.is_some());
    }

    /// The start and end of a real `--debug` log of Aualé 2.2.0 with two engines (trimmed).
    const AUALE_LOG: &str = "\
DEBUG:uci:Engine command: /usr/bin/krou
DEBUG:uci:<Engine(1, Unknown engine)> > uci
DEBUG:uci:<Engine(1, Unknown engine)> < id name Krou 0.2.0
DEBUG:uci:<Engine(1, Krou 0.2.0)> < uciok
DEBUG:uci:<Engine(2, Unknown engine)> > uci
DEBUG:uci:<Engine(2, Unknown engine)> < id name Krou 0.2.0
DEBUG:uci:<Engine(2, Krou 0.2.0)> < uciok
DEBUG:game-loop:Received a move request
DEBUG:uci:<Engine(1, Krou 0.2.0)> > go depth 6 movetime 1200
DEBUG:uci:<Engine(1, Krou 0.2.0)> < bestmove e ponder A
WARNING:uci:Response timeout
DEBUG:uci:<Engine(1, Krou 0.2.0)> > quit
DEBUG:uci:<Engine(1, Krou 0.2.0)> < 
DEBUG:uci:<Engine(2, Krou 0.2.0)> > quit
DEBUG:uci:<Engine(2, Krou 0.2.0)> < 
";

    fn texts(dialogue: &Dialogue) -> Vec<&str> {
        dialogue
            .events
            .iter()
            .map(|event| match event {
                Event::Line { text, .. } => text.as_str(),
                Event::InputClosed { .. } => "(closed)",
            })
            .collect()
    }

    #[test]
    fn an_auale_log_gives_one_dialogue_per_engine() {
        let dialogues = read(AUALE_LOG).unwrap();
        assert_eq!(dialogues.len(), 2);
        assert_eq!(dialogues[0].kind, LogKind::Auale);
        assert_eq!(dialogues[0].engine, Some(1));
        assert_eq!(dialogues[1].engine, Some(2));
        assert_eq!(dialogues[0].command.as_deref(), Some("/usr/bin/krou"));
        assert_eq!(
            texts(&dialogues[0]),
            [
                "uci",
                "id name Krou 0.2.0",
                "uciok",
                "go depth 6 movetime 1200",
                "bestmove e ponder A",
                "quit"
            ]
        );
        assert_eq!(
            texts(&dialogues[1]),
            ["uci", "id name Krou 0.2.0", "uciok", "quit"]
        );
    }

    #[test]
    fn an_empty_received_line_followed_by_more_is_kept() {
        let log = "DEBUG:uci:<Engine(1, X)> > uci\nDEBUG:uci:<Engine(1, X)> <\n\
                   DEBUG:uci:<Engine(1, X)> < uciok\n";
        let dialogues = read(log).unwrap();
        assert_eq!(texts(&dialogues[0]), ["uci", "", "uciok"]);
    }

    #[test]
    fn an_engine_name_may_hold_the_separators() {
        let log = "DEBUG:uci:<Engine(3, Odd )> name)> < x)> > go depth 1\n";
        let dialogues = read(log).unwrap();
        assert_eq!(dialogues[0].engine, Some(3));
        assert_eq!(dialogues[0].events.len(), 1);
        assert_eq!(texts(&dialogues[0]), ["x)> > go depth 1"]);
    }

    #[test]
    fn a_broken_auale_dialogue_line_is_named() {
        let log = "DEBUG:uci:<Engine(1, X)> > uci\nDEBUG:uci:<Engine(x, X)> > go\n";
        assert_eq!(read(log).unwrap_err().line, 2);
        let log = "DEBUG:uci:<Engine(1, X)> > uci\nDEBUG:uci:<Engine(1, X) > go\n";
        assert_eq!(read(log).unwrap_err().line, 2);
    }

    #[test]
    fn the_old_guessed_auale_format_is_not_a_log() {
        assert_eq!(
            read("DEBUG:uci:> uci\nDEBUG:uci:< uciok\n")
                .unwrap_err()
                .line,
            1
        );
    }

    #[test]
    fn text_without_protocol_lines_is_refused() {
        assert_eq!(read("hello\nworld\n").unwrap_err().line, 1);
    }
}
