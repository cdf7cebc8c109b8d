//! A recorded dialogue turned into a transcript that replays: what was sent kept as sent, what
//! came back kept where it does not change from run to run and generalised where it does.
//!
//! The rules (also in docs/regression-testing.md):
//! - Every line sent is kept as sent (`> `).
//! - While a search runs (from a `go` to its `bestmove`), its `info` lines become one allowance,
//!   `<? info **`, renewed after every line expected during the search; other lines printed
//!   during the search (`readyok`) are kept.
//! - `bestmove` is kept exactly only when the search was deterministic: its `go` had a `depth`
//!   or `nodes` limit (a number) and no clock, `movetime`, `infinite` or `ponder`; no `OwnBook true` or
//!   `Threads` above 1 was set before it; and nothing (`stop`, `quit`, the end of input) cut it
//!   short. Otherwise it becomes `< bestmove **`.
//! - A line sent while a search runs is preceded by `= sleep N`, N the milliseconds since the
//!   step before it, so that a `stop` or `ponderhit` comes as late in the replay.
//! - `id name` keeps the engine's name and generalises the rest (a version): `id name Krou **`.
//! - `info` lines outside a search other than `info string` (which answer the client, such as
//!   errors) become allowances; in other lines outside a search, the figures of a time (the
//!   number after `time` or `nps`, before `nps` or `ms`: `perft`'s and `bench`'s last lines)
//!   become `*`.
//! - A `go` sent while another search runs makes both searches' `bestmove`s general (whether
//!   the engine takes it depends on timing).
//! - The client closing its input is kept as `= eof`.
//!
//! With `exact`, every line is kept as it was (sleeps included): a verbatim record that replays
//! only against an engine that repeats itself exactly.

use std::collections::VecDeque;
use std::time::Duration;

/// Who wrote a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The client sent it to the engine.
    Sent,
    /// The engine printed it.
    Received,
}

/// One thing that happened in a session, at a time since its start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line, without its line end.
    Line {
        /// When, since the start of the session.
        at: Duration,
        /// Who wrote it.
        direction: Direction,
        /// The text.
        text: String,
    },
    /// The client closed the engine's input.
    InputClosed {
        /// When, since the start of the session.
        at: Duration,
    },
}

/// The search in progress: whether its `bestmove` can be kept exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Search {
    deterministic: bool,
}

/// Turns events into transcript lines as they come (see the module documentation).
#[derive(Clone, Debug)]
pub struct Generaliser {
    exact: bool,
    own_book: bool,
    threads: u32,
    /// The searches started and not yet answered by a `bestmove`, oldest first.
    searches: VecDeque<Search>,
    /// The time of the last step the replay waits for or sends.
    last_step: Duration,
    /// The last line given out, so that an allowance is not repeated.
    last_line: String,
}

impl Generaliser {
    /// A generaliser; with `exact` every line is kept as it was.
    pub fn new(exact: bool) -> Generaliser {
        Generaliser {
            exact,
            own_book: false,
            threads: 1,
            searches: VecDeque::new(),
            last_step: Duration::ZERO,
            last_line: String::new(),
        }
    }

    /// The transcript lines for one more event (none, one or a few).
    pub fn push(&mut self, event: &Event) -> Vec<String> {
        let mut lines = self.lines(event);
        lines.retain(|line| {
            let repeated = line.starts_with("<?") && *line == self.last_line;
            self.last_line.clone_from(line);
            !repeated
        });
        lines
    }

    fn lines(&mut self, event: &Event) -> Vec<String> {
        match event {
            Event::Line {
                at,
                direction: Direction::Sent,
                text,
            } => self.sent(*at, text),
            Event::Line {
                at,
                direction: Direction::Received,
                text,
            } => self.received(*at, text),
            Event::InputClosed { .. } => {
                self.cut_short();
                vec!["= eof".to_string()]
            }
        }
    }

    fn sent(&mut self, at: Duration, text: &str) -> Vec<String> {
        let mut lines = Vec::new();
        let first = text.split_whitespace().next().unwrap_or("");
        if !self.searches.is_empty() {
            let ms = at.saturating_sub(self.last_step).as_millis();
            if ms > 0 {
                lines.push(format!("= sleep {ms}"));
            }
            if matches!(first, "stop" | "quit" | "ponderhit" | "go") {
                // Cut short, or a race: whether the engine takes a second `go` depends on
                // when the first search ends.
                self.cut_short();
            }
        }
        lines.push(format!("> {text}"));
        self.last_step = at;
        match first {
            "setoption" => self.option(text),
            "go" => {
                let deterministic = self.searches.is_empty() && self.deterministic(text);
                self.searches.push_back(Search { deterministic });
                if !self.exact {
                    lines.push("<? info **".to_string());
                }
            }
            _ => {}
        }
        lines
    }

    fn received(&mut self, at: Duration, text: &str) -> Vec<String> {
        let first = text.split_whitespace().next().unwrap_or("");
        if self.exact {
            if first == "bestmove" {
                self.searches.pop_front();
            }
            self.last_step = at;
            return vec![format!("< {text}")];
        }
        let searching = !self.searches.is_empty();
        match (searching, first) {
            (true, "bestmove") => {
                let deterministic = self.searches.pop_front().is_some_and(|s| s.deterministic);
                self.last_step = at;
                let mut lines = vec![if deterministic {
                    format!("< {text}")
                } else {
                    "< bestmove **".to_string()
                }];
                if !self.searches.is_empty() {
                    lines.push("<? info **".to_string());
                }
                lines
            }
            (true, "info") => Vec::new(),
            (true, _) => {
                self.last_step = at;
                vec![format!("< {}", id_pattern(text)), "<? info **".to_string()]
            }
            (false, "info") if !text.starts_with("info string") => {
                vec!["<? info **".to_string()]
            }
            (false, _) => {
                self.last_step = at;
                vec![format!("< {}", timing_pattern(&id_pattern(text)))]
            }
        }
    }

    /// The searches running can no longer be repeated exactly.
    fn cut_short(&mut self) {
        for search in &mut self.searches {
            search.deterministic = false;
        }
    }

    /// Notes `OwnBook` and `Threads`, the options that make a search repeat itself or not.
    fn option(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let name_at = words.iter().position(|w| w.eq_ignore_ascii_case("name"));
        let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let (Some(n), Some(v)) = (name_at, value_at) else {
            return;
        };
        if v <= n + 1 {
            return;
        }
        let name = words[n + 1..v].join(" ");
        let value = words[v + 1..].join(" ");
        if name.eq_ignore_ascii_case("OwnBook") {
            self.own_book = value.eq_ignore_ascii_case("true");
        } else if name.eq_ignore_ascii_case("Threads") {
            self.threads = value.parse().unwrap_or(1);
        }
    }

    /// Whether a search started by this `go` line repeats itself: a depth or node limit, no
    /// clock or time, and no book or second thread.
    fn deterministic(&self, go: &str) -> bool {
        let words: Vec<&str> = go.split_whitespace().collect();
        let limited = words.windows(2).any(|pair| {
            matches!(pair[0], "depth" | "nodes") && pair[1].parse::<u64>().is_ok_and(|n| n > 0)
        });
        let timed = words.iter().any(|w| {
            matches!(
                *w,
                "movetime"
                    | "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "infinite"
                    | "ponder"
            )
        });
        limited && !timed && !self.own_book && self.threads <= 1
    }
}

/// `id name <name> <version…>` as `id name <name> **`; other `id` lines as they are.
fn id_pattern(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["id", "name", name, _, ..] => format!("id name {name} **"),
        _ => text.to_string(),
    }
}

/// A line with the figures that change from run to run as `*`: the number after `time` or
/// `nps`, and the number before `nps` or `ms` (`perft`'s and `bench`'s last lines).
fn timing_pattern(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let timing = |i: usize| {
        let before = i.checked_sub(1).and_then(|j| words.get(j)).copied();
        let after = words.get(i + 1).copied();
        words[i].parse::<f64>().is_ok()
            && (matches!(before, Some("time" | "nps")) || matches!(after, Some("nps" | "ms")))
    };
    if !(0..words.len()).any(timing) {
        return text.to_string();
    }
    let generalised: Vec<&str> = (0..words.len())
        .map(|i| if timing(i) { "*" } else { words[i] })
        .collect();
    generalised.join(" ")
}

/// A whole dialogue as transcript text, after a header of comment lines.
pub fn transcript(header: &[String], events: &[Event], exact: bool) -> String {
    let mut generaliser = Generaliser::new(exact);
    let mut text = String::new();
    for line in header {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    for event in events {
        for line in generaliser.push(event) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(ms: u64, text: &str) -> Event {
        Event::Line {
            at: Duration::from_millis(ms),
            direction: Direction::Sent,
            text: text.to_string(),
        }
    }

    fn received(ms: u64, text: &str) -> Event {
        Event::Line {
            at: Duration::from_millis(ms),
            direction: Direction::Received,
            text: text.to_string(),
        }
    }

    fn lines(events: &[Event], exact: bool) -> Vec<String> {
        transcript(&[], events, exact)
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_depth_search_keeps_its_bestmove_and_drops_its_info_lines() {
        let events = [
            sent(0, "uci"),
            received(1, "id name Krou 0.1.0"),
            received(1, "option name Hash type spin default 16 min 1 max 1024"),
            received(1, "uciok"),
            sent(2, "position startpos"),
            sent(2, "go depth 3"),
            received(
                3,
                "info depth 1 seldepth 1 time 0 nodes 11 nps 12387 score cp 192 pv F",
            ),
            received(4, "bestmove F ponder f"),
        ];
        assert_eq!(
            lines(&events, false),
            [
                "> uci",
                "< id name Krou **",
                "< option name Hash type spin default 16 min 1 max 1024",
                "< uciok",
                "> position startpos",
                "> go depth 3",
                "<? info **",
                "< bestmove F ponder f",
            ]
        );
    }

    #[test]
    fn a_timed_search_or_a_book_generalises_its_bestmove() {
        for (option, go) in [
            ("setoption name Hash value 1", "go depth 6 movetime 1200"),
            ("setoption name Hash value 1", "go wtime 100 btime 100"),
            ("setoption name OwnBook value true", "go depth 6"),
            ("setoption name threads value 2", "go nodes 1000"),
        ] {
            let events = [sent(0, option), sent(1, go), received(5, "bestmove A")];
            assert_eq!(
                lines(&events, false).last().map(String::as_str),
                Some("< bestmove **"),
                "{option} / {go}"
            );
        }
    }

    #[test]
    fn a_stop_during_a_search_keeps_its_wait_and_generalises_the_bestmove() {
        let events = [
            sent(10, "go depth 30"),
            received(20, "info depth 1 score cp 3"),
            sent(260, "isready"),
            received(261, "readyok"),
            sent(400, "stop"),
            received(401, "info depth 9 score cp 3"),
            received(402, "bestmove C"),
        ];
        assert_eq!(
            lines(&events, false),
            [
                "> go depth 30",
                "<? info **",
                "= sleep 250",
                "> isready",
                "< readyok",
                "<? info **",
                "= sleep 139",
                "> stop",
                "< bestmove **",
            ]
        );
    }

    #[test]
    fn answers_outside_a_search_are_kept_and_the_end_of_input_too() {
        let events = [
            sent(0, "bogus"),
            received(1, "info string error: unknown command 'bogus' (column 1)"),
            Event::InputClosed {
                at: Duration::from_millis(2),
            },
        ];
        assert_eq!(
            lines(&events, false),
            [
                "> bogus",
                "< info string error: unknown command 'bogus' (column 1)",
                "= eof"
            ]
        );
    }

    #[test]
    fn a_second_go_during_a_search_generalises_both_bestmoves() {
        let events = [
            sent(0, "go depth 20"),
            sent(5, "stop"),
            sent(5, "go movetime 500"),
            received(6, "bestmove A"),
            received(510, "bestmove c"),
            sent(511, "go depth x"),
            received(1511, "bestmove d"),
        ];
        let lines = lines(&events, false);
        assert_eq!(
            lines.iter().filter(|l| *l == "< bestmove **").count(),
            3,
            "{lines:?}"
        );
    }

    #[test]
    fn times_outside_a_search_are_generalised() {
        let events = [
            sent(0, "perft 2"),
            received(1, "A: 6"),
            received(2, "nodes 36 time 0 nps 381024"),
            sent(3, "bench 2"),
            received(9, "depth 2 time 3 ms"),
            received(9, "640 nodes 213333 nps"),
        ];
        assert_eq!(
            lines(&events, false)[2..],
            [
                "< nodes 36 time * nps *",
                "> bench 2",
                "< depth 2 time * ms",
                "< 640 nodes * nps"
            ]
        );
    }

    #[test]
    fn exact_keeps_every_line() {
        let events = [
            sent(0, "go movetime 10"),
            received(5, "info depth 1 time 5"),
            received(9, "bestmove A"),
        ];
        assert_eq!(
            lines(&events, true),
            ["> go movetime 10", "< info depth 1 time 5", "< bestmove A"]
        );
    }
}
