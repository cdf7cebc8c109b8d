//! Reading one command line into a [`Command`] with nom (complete input: a line is whole).
//!
//! Words are separated by whitespace. A bad line gives a [`ParseError`] saying what is wrong
//! and at which column (1-based, in characters).

use super::command::{At, Command, Go, PositionCommand, Query, SetOption, Start};
use crate::rules::{Move, Position};
use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, digit1};
use nom::combinator::{opt, recognize};
use nom::error::ErrorKind;
use nom::{IResult, Parser};
use std::fmt;

/// The deepest `go depth` accepted.
pub const MAX_DEPTH: u32 = 100;
/// The deepest `perft` accepted (deeper counts take seconds; use `krou perft`).
pub const MAX_PERFT_DEPTH: u32 = 10;
/// The largest time accepted in `go` (about 11.5 days, in milliseconds).
pub const MAX_TIME_MS: i64 = 1_000_000_000;
/// The largest `go nodes` accepted.
pub const MAX_NODES: u64 = 1_000_000_000_000_000;
/// The largest `go movestogo` accepted.
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

/// A nom error: the remaining input where it happened and, once known, a message.
#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    message: Option<String>,
}

impl<'a> nom::error::ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Fail { at, message: None }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

fn failure<'a>(at: &'a str, message: impl Into<String>) -> nom::Err<Fail<'a>> {
    nom::Err::Failure(Fail {
        at,
        message: Some(message.into()),
    })
}

fn fail<'a, T>(at: &'a str, message: impl Into<String>) -> Res<'a, T> {
    Err(failure(at, message))
}

/// Reads one line (without its line end) into a command.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
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

/// Skips whitespace.
fn space(input: &str) -> Res<'_, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// The next word (after whitespace), or `None` at the end of the line. Returns the input at the
/// word's start too, for error columns.
fn word(input: &str) -> Res<'_, Option<(&str, &str)>> {
    let (at, _) = space(input)?;
    let (rest, found) = opt(take_till1(char::is_whitespace)).parse(at)?;
    Ok((rest, found.map(|w| (w, at))))
}

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
            "d" => end(rest, Command::Display, name),
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "perft" => perft(rest),
            "query" => query(rest),
            _ => fail(
                at,
                format!(
                    "unknown command '{}' (expected uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, quit, d, perft or query)",
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
        for (offset, c) in input.char_indices() {
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
            moves.push(At {
                value: mv,
                column: self.column(at),
            });
        }
        Ok(moves)
    }

    fn go(&self, input: &'a str) -> Res<'a, Command> {
        let mut go = Go::default();
        let mut rest = input;
        while let (next, Some((key, at))) = word(rest)? {
            let Some(field) = GoKey::from_word(key) else {
                return fail(
                    at,
                    format!(
                        "unknown go parameter '{}' (expected depth, nodes, movetime, wtime, btime, winc, binc, movestogo, infinite, ponder or searchmoves)",
                        key.escape_debug()
                    ),
                );
            };
            rest = self.go_field(&mut go, field, key, at, next)?.0;
        }
        Ok(("", Command::Go(go)))
    }

    /// Reads the value of one `go` field into `go`.
    fn go_field(
        &self,
        go: &mut Go,
        field: GoKey,
        key: &str,
        at: &'a str,
        input: &'a str,
    ) -> Res<'a, ()> {
        let twice = || format!("'{key}' is given twice");
        match field {
            GoKey::Depth => set(&mut go.depth, number(input, key, 1, MAX_DEPTH)?, at, twice),
            GoKey::Nodes => set(&mut go.nodes, number(input, key, 1, MAX_NODES)?, at, twice),
            GoKey::MoveTime => set(&mut go.movetime, time(input, key)?, at, twice),
            GoKey::Time(0) => set(&mut go.south_time, time(input, key)?, at, twice),
            GoKey::Time(_) => set(&mut go.north_time, time(input, key)?, at, twice),
            GoKey::Increment(0) => set(&mut go.south_increment, time(input, key)?, at, twice),
            GoKey::Increment(_) => set(&mut go.north_increment, time(input, key)?, at, twice),
            GoKey::MovesToGo => set(
                &mut go.moves_to_go,
                number(input, key, 1, MAX_MOVES_TO_GO)?,
                at,
                twice,
            ),
            GoKey::Infinite => flag(&mut go.infinite, input, at, twice),
            GoKey::Ponder => flag(&mut go.ponder, input, at, twice),
            GoKey::SearchMoves => {
                if !go.searchmoves.is_empty() {
                    return fail(at, twice());
                }
                let mut rest = input;
                while let (next, Some((w, w_at))) = word(rest)? {
                    if !w.chars().all(|c| Move::from_letter(c).is_some()) {
                        break;
                    }
                    let column = self.column(w_at);
                    go.searchmoves
                        .extend(w.chars().enumerate().filter_map(|(i, c)| {
                            Move::from_letter(c).map(|value| At {
                                value,
                                column: column + i,
                            })
                        }));
                    rest = next;
                }
                if go.searchmoves.is_empty() {
                    return fail(rest, "expected moves after 'searchmoves'");
                }
                Ok((rest, ()))
            }
        }
    }
}

/// Checks that nothing follows a command without arguments.
fn end<'a>(input: &'a str, command: Command, name: &str) -> Res<'a, Command> {
    match word(input)? {
        (_, None) => Ok(("", command)),
        (_, Some((extra, at))) => fail(
            at,
            format!("unexpected '{}' after '{name}'", extra.escape_debug()),
        ),
    }
}

fn set<'a, T>(
    slot: &mut Option<T>,
    value: (&'a str, T),
    at: &'a str,
    twice: impl Fn() -> String,
) -> Res<'a, ()> {
    if slot.is_some() {
        return fail(at, twice());
    }
    *slot = Some(value.1);
    Ok((value.0, ()))
}

fn flag<'a>(
    slot: &mut bool,
    input: &'a str,
    at: &'a str,
    twice: impl Fn() -> String,
) -> Res<'a, ()> {
    if *slot {
        return fail(at, twice());
    }
    *slot = true;
    Ok((input, ()))
}

/// An integer word (optionally negative), as text, with the input at its start.
fn integer(input: &str) -> Res<'_, Option<(&str, &str)>> {
    let (at, _) = space(input)?;
    let (rest, text) = opt(recognize((opt(char('-')), digit1))).parse(at)?;
    match (text, rest.chars().next()) {
        (Some(text), None) => Ok((rest, Some((text, at)))),
        (Some(text), Some(c)) if c.is_whitespace() => Ok((rest, Some((text, at)))),
        _ => Ok((at, None)),
    }
}

/// A number from `min` to `max` after the keyword `key`.
fn number<'a, T>(input: &'a str, key: &str, min: T, max: T) -> Res<'a, T>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    let (rest, found) = integer(input)?;
    let Some((text, at)) = found else {
        return not_a_number(input, key);
    };
    match text.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok((rest, n)),
        _ => fail(
            at,
            format!("'{key}' must be from {min} to {max}, not {text}"),
        ),
    }
}

/// A time in milliseconds after `key`: negative values are allowed (no time left).
fn time<'a>(input: &'a str, key: &str) -> Res<'a, i64> {
    let (rest, found) = integer(input)?;
    let Some((text, at)) = found else {
        return not_a_number(input, key);
    };
    match text.parse::<i64>() {
        Ok(ms) if ms <= MAX_TIME_MS => Ok((rest, ms)),
        // Below i64::MIN: still "no time left".
        Err(_) if text.starts_with('-') => Ok((rest, -1)),
        _ => fail(
            at,
            format!("'{key}' must be at most {MAX_TIME_MS} ms, not {text}"),
        ),
    }
}

fn not_a_number<'a, T>(input: &'a str, key: &str) -> Res<'a, T> {
    match word(input)? {
        (_, Some((found, at))) => fail(
            at,
            format!(
                "expected a number after '{key}', found '{}'",
                found.escape_debug()
            ),
        ),
        (rest, None) => fail(rest, format!("expected a number after '{key}'")),
    }
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
