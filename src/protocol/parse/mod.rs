//! Reading one command line into a [`Command`] with nom (complete input: a line is whole).
//!
//! Words are separated by whitespace. A bad line gives a [`ParseError`] saying what is wrong
//! and at which column (1-based, in characters). `words` holds the word-level parsers,
//! `go` the parameters of `go` (read liberally: warnings instead of errors).

mod go;
mod words;

use super::command::{At, Command, PositionCommand, Query, SetOption, Start};
use crate::rules::{Move, Position};
use std::fmt;
use words::{Fail, Res, end, fail, failure, number, space, word};

/// The deepest `go depth` searched (deeper ones are clamped to it, with a warning).
pub const MAX_DEPTH: u32 = 100;
/// The deepest `perft` accepted (deeper counts take seconds; use `krou perft`).
pub const MAX_PERFT_DEPTH: u32 = 10;
/// The deepest `bench` accepted (the default is the search's own bench depth).
pub const MAX_BENCH_DEPTH: u32 = 20;
/// The largest time `go` uses (about 11.5 days, in milliseconds; larger ones are clamped).
pub const MAX_TIME_MS: i64 = 1_000_000_000;
/// The largest `go nodes` used (larger ones are clamped).
pub const MAX_NODES: u64 = 1_000_000_000_000_000;
/// The largest `go movestogo` used (larger ones are clamped).
pub const MAX_MOVES_TO_GO: u32 = 10_000;

/// Why a line is not a command, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Column (1-based, in characters) where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (column {})", self.message, self.column)
    }
}

impl std::error::Error for ParseError {}

/// Reads one line (without its line end) into a command. A byte-order mark at its start (some
/// Windows programs begin their output with one) is not part of it: columns count after it.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let reader = Reader { line };
    match reader.command(line) {
        Ok((_, command)) => Ok(command),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(ParseError {
            column: reader.column(e.at),
            message: e.message.unwrap_or_else(|| "cannot read this".to_string()),
        }),
        Err(nom::Err::Incomplete(_)) => Err(ParseError {
            column: line.chars().count() + 1,
            message: "the line ends too early".to_string(),
        }),
    }
}

/// Parsers that know the whole line, to turn positions into columns.
struct Reader<'a> {
    line: &'a str,
}

impl<'a> Reader<'a> {
    fn column(&self, at: &str) -> usize {
        let offset = self.line.len().saturating_sub(at.len());
        self.line.get(..offset).map_or(0, |s| s.chars().count()) + 1
    }

    fn command(&self, input: &'a str) -> Res<'a, Command> {
        let (rest, Some((name, at))) = word(input)? else {
            return fail(input, "empty line");
        };
        match name {
            "uci" => end(rest, Command::Uci, name),
            "isready" => end(rest, Command::IsReady, name),
            "ucinewgame" => end(rest, Command::UciNewGame, name),
            "stop" => end(rest, Command::Stop, name),
            "ponderhit" => end(rest, Command::PonderHit, name),
            "quit" => end(rest, Command::Quit, name),
            "debug" => debug(rest),
            // UCI's registration: whatever follows is accepted; there is nothing to register.
            "register" => Ok(("", Command::Register)),
            "d" => end(rest, Command::Display, name),
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "perft" => perft(rest),
            "bench" => bench(rest),
            "query" => query(rest),
            "help" => end(rest, Command::Help, name),
            _ => fail(
                at,
                format!(
                    "unknown command '{}' (expected uci, debug, isready, register, ucinewgame, setoption, position, go, stop, ponderhit, quit, d, perft, bench, query or help)",
                    name.escape_debug()
                ),
            ),
        }
    }

    /// `name <name words> [value <rest of line>]`.
    fn setoption(&self, input: &'a str) -> Res<'a, Command> {
        let (mut rest, keyword) = word(input)?;
        match keyword {
            Some(("name", _)) => {}
            Some((other, at)) => {
                return fail(
                    at,
                    format!("expected 'name', found '{}'", other.escape_debug()),
                );
            }
            None => return fail(rest, "expected 'name' after 'setoption'"),
        }
        let mut name: Option<(&str, &str)> = None;
        let value = loop {
            let (next, found) = word(rest)?;
            match found {
                None => break None,
                Some(("value", _)) => {
                    let (value_rest, _) = space(next)?;
                    if value_rest.is_empty() {
                        return fail(value_rest, "expected a value after 'value'");
                    }
                    break Some(At {
                        value: value_rest.trim_end().to_string(),
                        column: self.column(value_rest),
                    });
                }
                Some((w, at)) => {
                    let start = name.map_or(at, |(_, start)| start);
                    let len = start.len() - next.len();
                    name = Some((start.get(..len).unwrap_or(w), start));
                }
            }
            rest = next;
        };
        let Some((name, at)) = name else {
            return fail(rest, "expected an option name after 'name'");
        };
        let name = At {
            value: name.to_string(),
            column: self.column(at),
        };
        Ok(("", Command::SetOption(SetOption { name, value })))
    }

    /// `(startpos | fen <diagram>) [moves <moves>]`.
    fn position(&self, input: &'a str) -> Res<'a, Command> {
        let (rest, found) = word(input)?;
        let (rest, start) = match found {
            Some(("startpos", _)) => (rest, Start::StartPos),
            Some(("fen", _)) => {
                let (rest, Some((diagram, at))) = word(rest)? else {
                    return fail(
                        rest,
                        "expected a diagram after 'fen' (like 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S)",
                    );
                };
                match diagram.parse::<Position>() {
                    Ok(position) => (rest, Start::Diagram(position)),
                    Err(e) => return fail(at, format!("bad diagram: {e}")),
                }
            }
            Some((other, at)) => {
                return fail(
                    at,
                    format!(
                        "expected 'startpos' or 'fen', found '{}'",
                        other.escape_debug()
                    ),
                );
            }
            None => return fail(rest, "expected 'startpos' or 'fen' after 'position'"),
        };
        let (after, found) = word(rest)?;
        let moves = match found {
            None => Vec::new(),
            Some(("moves", _)) => self.moves(after)?,
            Some((other, at)) => {
                return fail(
                    at,
                    format!(
                        "expected 'moves' or the end of the line, found '{}'",
                        other.escape_debug()
                    ),
                );
            }
        };
        Ok(("", Command::Position(PositionCommand { start, moves })))
    }

    /// Move letters to the end of the line, concatenated or separated by spaces.
    fn moves(&self, input: &'a str) -> Result<Vec<At<Move>>, nom::Err<Fail<'a>>> {
        let mut moves = Vec::new();
        // Columns are counted as the loop walks (one per character), so long lines stay linear.
        for (column, (offset, c)) in (self.column(input)..).zip(input.char_indices()) {
            if c.is_whitespace() {
                continue;
            }
            let at = input.get(offset..).unwrap_or("");
            let Some(mv) = Move::from_letter(c) else {
                return Err(failure(
                    at,
                    format!(
                        "'{}' is not a move (expected a pit letter A-F or a-f)",
                        c.escape_debug()
                    ),
                ));
            };
            moves.push(At { value: mv, column });
        }
        Ok(moves)
    }
}

fn bench(input: &str) -> Res<'_, Command> {
    if input.trim().is_empty() {
        return Ok(("", Command::Bench(crate::search::BENCH_DEPTH)));
    }
    let (rest, depth) = number(input, "bench", 1, MAX_BENCH_DEPTH)?;
    end(rest, Command::Bench(depth), "bench [depth]")
}

/// `debug [on|off]`: bare `debug` switches diagnostics on.
fn debug(input: &str) -> Res<'_, Command> {
    let (rest, found) = word(input)?;
    let on = match found {
        None | Some(("on", _)) => true,
        Some(("off", _)) => false,
        Some((other, at)) => {
            return fail(
                at,
                format!(
                    "expected 'on' or 'off' after 'debug', found '{}'",
                    other.escape_debug()
                ),
            );
        }
    };
    end(
        rest,
        Command::Debug(on),
        if on { "debug on" } else { "debug off" },
    )
}

fn perft(input: &str) -> Res<'_, Command> {
    let (rest, depth) = number(input, "perft", 0, MAX_PERFT_DEPTH)?;
    end(rest, Command::Perft(depth), "perft <depth>")
}

fn query(input: &str) -> Res<'_, Command> {
    let (rest, found) = word(input)?;
    let query = match found {
        Some(("gameover", _)) => Query::GameOver,
        Some(("p1turn", _)) => Query::P1Turn,
        Some(("result", _)) => Query::Result,
        Some((other, at)) => {
            return fail(
                at,
                format!(
                    "unknown query '{}' (expected gameover, p1turn or result)",
                    other.escape_debug()
                ),
            );
        }
        None => return fail(rest, "expected gameover, p1turn or result after 'query'"),
    };
    end(rest, Command::Query(query), "query")
}
