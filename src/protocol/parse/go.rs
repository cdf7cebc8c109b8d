//! The parameters of `go`, read liberally: a `go` always becomes a search.
//!
//! A client waiting for a `bestmove` must get one, so nothing in a `go` line is an error. A
//! number out of range is clamped to the nearest allowed value; an unknown word, a parameter
//! without its number and `searchmoves` without moves are skipped; a parameter given twice
//! keeps its later value. Each of these adds one warning (message and column) to [`Go`].
//! (The session adds the rule for a `go` that has nothing left to end its search.)

use super::super::command::{At, Command, Go, MAX_GO_WARNINGS};
use super::words::{Res, integer, word};
use super::{MAX_DEPTH, MAX_MOVES_TO_GO, MAX_NODES, MAX_TIME_MS, Reader};
use crate::rules::Move;

/// The parameters `go` knows, as listed in warnings.
const KNOWN: &str = "depth, nodes, movetime, wtime/p1time, btime/p2time, winc/p1inc, binc/p2inc, movestogo, infinite, ponder or searchmoves";

/// Which `go` field a keyword sets.
#[derive(Clone, Copy)]
enum GoKey {
    Depth,
    Nodes,
    MoveTime,
    Time(usize),
    Increment(usize),
    MovesToGo,
    Infinite,
    Ponder,
    SearchMoves,
}

impl GoKey {
    fn from_word(word: &str) -> Option<GoKey> {
        Some(match word {
            "depth" => GoKey::Depth,
            "nodes" => GoKey::Nodes,
            "movetime" => GoKey::MoveTime,
            "wtime" | "p1time" => GoKey::Time(0),
            "btime" | "p2time" => GoKey::Time(1),
            "winc" | "p1inc" => GoKey::Increment(0),
            "binc" | "p2inc" => GoKey::Increment(1),
            "movestogo" => GoKey::MovesToGo,
            "infinite" => GoKey::Infinite,
            "ponder" => GoKey::Ponder,
            "searchmoves" => GoKey::SearchMoves,
            _ => return None,
        })
    }
}

/// The allowed range of a numeric parameter, and its unit in messages.
struct Range {
    min: i128,
    max: i128,
    unit: &'static str,
    /// Whether a value below `min` means the same as `min` (times: no time left), so that
    /// clamping it needs no warning.
    any_below: bool,
}

const DEPTH: Range = Range {
    min: 1,
    max: MAX_DEPTH as i128,
    unit: "",
    any_below: false,
};
const NODES: Range = Range {
    min: 1,
    max: MAX_NODES as i128,
    unit: "",
    any_below: false,
};
const MOVES_TO_GO: Range = Range {
    min: 1,
    max: MAX_MOVES_TO_GO as i128,
    unit: "",
    any_below: false,
};
/// Times have no lower bound: zero or negative means no time left.
const TIME: Range = Range {
    min: i64::MIN as i128,
    max: MAX_TIME_MS as i128,
    unit: " ms",
    any_below: true,
};

impl<'a> Reader<'a> {
    pub(super) fn go(&self, input: &'a str) -> Res<'a, Command> {
        let mut go = Go::default();
        let mut rest = input;
        // Where the last `wtime` and `btime` start; their columns are worked out once.
        let mut clocks: [Option<&str>; 2] = [None, None];
        while let (next, Some((key, at))) = word(rest)? {
            rest = match GoKey::from_word(key) {
                Some(field) => {
                    if let GoKey::Time(side) = field {
                        clocks[side] = Some(at);
                    }
                    self.go_field(&mut go, field, key, at, next)?.0
                }
                None => self.skip_unknown(&mut go, at, next)?.0,
            };
        }
        go.clock_columns = clocks.map(|at| at.map(|at| self.column(at)));
        Ok(("", Command::Go(go)))
    }

    /// Skips an unknown word and the numbers right after it (`mate 5`), with one warning.
    fn skip_unknown(&self, go: &mut Go, at: &'a str, input: &'a str) -> Res<'a, &'a str> {
        let mut rest = input;
        while let (next, Some(_)) = integer(rest)? {
            rest = next;
        }
        let skipped = skipped_text(at, rest);
        go.skipped = true;
        self.warn(
            go,
            at,
            format!(
                "skipped '{}': unknown go parameter (expected {KNOWN})",
                skipped.escape_debug()
            ),
        );
        Ok((rest, rest))
    }

    /// Reads the value of one `go` field into `go`; returns the input after it.
    fn go_field(
        &self,
        go: &mut Go,
        field: GoKey,
        key: &str,
        at: &'a str,
        input: &'a str,
    ) -> Res<'a, &'a str> {
        let given = match field {
            GoKey::Depth => go.depth.is_some(),
            GoKey::Nodes => go.nodes.is_some(),
            GoKey::MoveTime => go.movetime.is_some(),
            GoKey::Time(0) => go.south_time.is_some(),
            GoKey::Time(_) => go.north_time.is_some(),
            GoKey::Increment(0) => go.south_increment.is_some(),
            GoKey::Increment(_) => go.north_increment.is_some(),
            GoKey::MovesToGo => go.moves_to_go.is_some(),
            GoKey::Infinite => go.infinite,
            GoKey::Ponder => go.ponder,
            GoKey::SearchMoves => !go.searchmoves.is_empty(),
        };
        let (rest, read) = match field {
            GoKey::Depth => self.number(go, key, at, input, &DEPTH, |go, n| go.depth = Some(n))?,
            GoKey::Nodes => self.number(go, key, at, input, &NODES, |go, n| go.nodes = Some(n))?,
            GoKey::MoveTime => {
                self.number(go, key, at, input, &TIME, |go, n| go.movetime = Some(n))?
            }
            GoKey::Time(0) => {
                self.number(go, key, at, input, &TIME, |go, n| go.south_time = Some(n))?
            }
            GoKey::Time(_) => {
                self.number(go, key, at, input, &TIME, |go, n| go.north_time = Some(n))?
            }
            GoKey::Increment(0) => self.number(go, key, at, input, &TIME, |go, n| {
                go.south_increment = Some(n)
            })?,
            GoKey::Increment(_) => self.number(go, key, at, input, &TIME, |go, n| {
                go.north_increment = Some(n)
            })?,
            GoKey::MovesToGo => self.number(go, key, at, input, &MOVES_TO_GO, |go, n| {
                go.moves_to_go = Some(n)
            })?,
            GoKey::Infinite => (input, {
                go.infinite = true;
                true
            }),
            GoKey::Ponder => (input, {
                go.ponder = true;
                true
            }),
            GoKey::SearchMoves => self.searchmoves(go, at, input)?,
        };
        if given && read {
            self.warn(
                go,
                at,
                format!("'{key}' is given twice: the later one is used"),
            );
        }
        Ok((rest, rest))
    }

    /// Reads the number after `key` into `go` with `store`, clamped to `range`; a missing or
    /// malformed number skips the parameter. Returns whether a value was stored.
    fn number<T>(
        &self,
        go: &mut Go,
        key: &str,
        at: &'a str,
        input: &'a str,
        range: &Range,
        store: impl FnOnce(&mut Go, T),
    ) -> Res<'a, bool>
    where
        T: TryFrom<i128>,
    {
        let (rest, found) = integer(input)?;
        let Some((text, number_at)) = found else {
            return self.missing_number(go, key, at, input);
        };
        // A number too long for i128 is beyond every range: its sign says which end.
        let value = text.parse::<i128>().unwrap_or(if text.starts_with('-') {
            i128::MIN
        } else {
            i128::MAX
        });
        let clamped = value.clamp(range.min, range.max);
        let silent = value < range.min && range.any_below;
        if clamped != value && !silent {
            let bound = if value < range.min {
                "below the minimum"
            } else {
                "above the maximum"
            };
            self.warn(
                go,
                number_at,
                format!(
                    "'{key}' {text} is {bound} {clamped}{}: using {clamped}",
                    range.unit
                ),
            );
        }
        match T::try_from(clamped) {
            Ok(n) => {
                store(go, n);
                Ok((rest, true))
            }
            // Unreachable for the ranges above; skipping is still the safe answer.
            Err(_) => Ok((rest, false)),
        }
    }

    /// Skips `key` without its number: alone when the next word is another parameter (or
    /// there is none), with the word when it is not.
    fn missing_number(&self, go: &mut Go, key: &str, at: &'a str, input: &'a str) -> Res<'a, bool> {
        let (after, next) = word(input)?;
        let rest = match next {
            Some((w, _)) if GoKey::from_word(w).is_none() => after,
            _ => input,
        };
        let message = match next {
            Some((w, _)) => format!(
                "skipped '{}': expected a number after '{key}', found '{}'",
                skipped_text(at, rest).escape_debug(),
                w.escape_debug()
            ),
            None => format!("skipped '{key}': expected a number after it"),
        };
        go.skipped = true;
        self.warn(go, at, message);
        Ok((rest, false))
    }

    /// `searchmoves` and the move words after it; none skips the parameter.
    fn searchmoves(&self, go: &mut Go, at: &'a str, input: &'a str) -> Res<'a, bool> {
        let mut moves = Vec::new();
        let mut rest = input;
        // The last word's text and column: each column counts on from the one before, so a
        // long list stays linear.
        let mut mark = (input, self.column(input));
        while let (next, Some((w, w_at))) = word(rest)? {
            if !w.chars().all(|c| Move::from_letter(c).is_some()) {
                break;
            }
            let skipped = mark.0.len().saturating_sub(w_at.len());
            let column = mark.1 + mark.0.get(..skipped).map_or(0, |s| s.chars().count());
            mark = (w_at, column);
            moves.extend(w.chars().enumerate().filter_map(|(i, c)| {
                Move::from_letter(c).map(|value| At {
                    value,
                    column: column + i,
                })
            }));
            rest = next;
        }
        if moves.is_empty() {
            go.skipped = true;
            self.warn(
                go,
                at,
                "skipped 'searchmoves': expected moves after it".to_string(),
            );
            return Ok((rest, false));
        }
        go.searchmoves = moves;
        Ok((rest, true))
    }

    /// Adds a warning about the word at `at`; past the cap it is only counted (its column, a
    /// walk of the line, is not worked out).
    fn warn(&self, go: &mut Go, at: &str, message: String) {
        if go.warnings.len() < MAX_GO_WARNINGS {
            go.warnings.push(At {
                value: message,
                column: self.column(at),
            });
        } else {
            go.warnings_left_out += 1;
        }
    }
}

/// The text from `at` up to `rest`, trimmed: the words a warning says were skipped.
fn skipped_text<'a>(at: &'a str, rest: &'a str) -> &'a str {
    at.get(..at.len().saturating_sub(rest.len()))
        .unwrap_or(at)
        .trim_end()
}
