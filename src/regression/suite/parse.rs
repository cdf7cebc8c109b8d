//! Reading suite lines with nom: strict, with errors that name the file, line and column.
//!
//! A line is a diagram and then operations `opcode operand…;` (see the module docs of
//! [`suite`](super)). Blank lines and lines starting with `#` are skipped; a `#` after the last
//! operation starts a comment to the end of the line.

use super::entry::{Entry, Source};
use crate::rules::{GrandSlam, Move, Position};
use nom::bytes::complete::{take_till1, take_while, take_while1};
use nom::error::ErrorKind;
use nom::{IResult, Parser};
use std::fmt;
use std::path::Path;

/// Why a line is not a suite entry: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The file (as given).
    pub file: String,
    /// The line number, from 1.
    pub line: usize,
    /// The column (from 1, in characters) where the problem starts.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for LineError {}

/// A suite file read into entries, each with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteFile {
    /// The file (as given).
    pub file: String,
    /// The entries and their line numbers, in file order.
    pub entries: Vec<(usize, Entry)>,
}

/// Reads a suite file from disk.
pub fn read_file(path: &Path) -> Result<SuiteFile, LineError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| LineError {
        file: file.clone(),
        line: 0,
        column: 0,
        message: format!("cannot read it: {e}"),
    })?;
    parse_text(&file, &text)
}

/// Reads the text of a suite file named `file` (for error messages); stops at the first bad
/// line.
pub fn parse_text(file: &str, text: &str) -> Result<SuiteFile, LineError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let located = |(column, message)| LineError {
            file: file.to_string(),
            line: index + 1,
            column,
            message,
        };
        if let Some(entry) = parse_line(line).map_err(located)? {
            entries.push((index + 1, entry));
        }
    }
    Ok(SuiteFile {
        file: file.to_string(),
        entries,
    })
}

/// Reads one line: `None` for a blank or comment line, else the entry; an error is the column
/// and the message.
pub fn parse_line(line: &str) -> Result<Option<Entry>, (usize, String)> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let column = |at: &str| {
        let offset = line.len().saturating_sub(at.len());
        line.get(..offset).map_or(0, |s| s.chars().count()) + 1
    };
    match entry(trimmed) {
        Ok((_, entry)) => Ok(Some(entry)),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err((
            column(e.at),
            e.message.unwrap_or_else(|| "cannot read this".to_string()),
        )),
        Err(nom::Err::Incomplete(_)) => {
            Err((line.chars().count() + 1, "the line ends too early".into()))
        }
    }
}

/// A nom error: the input where it happened and a message.
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

fn fail<'a, T>(at: &'a str, message: impl Into<String>) -> Res<'a, T> {
    Err(nom::Err::Failure(Fail {
        at,
        message: Some(message.into()),
    }))
}

fn space(input: &str) -> Res<'_, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// The whole line after leading whitespace: the diagram, then the operations.
fn entry(input: &str) -> Res<'_, Entry> {
    let (rest, text) = take_till1(char::is_whitespace).parse(input)?;
    let position: Position = match text.parse() {
        Ok(position) => position,
        Err(e) => return fail(input, format!("bad diagram '{}': {e}", text.escape_debug())),
    };
    if position.legal_moves(GrandSlam::NoCapture).is_empty() {
        return fail(input, "the game is over in this position: no move to find");
    }
    let mut entry = Entry::new(position);
    let mut rest = rest;
    let mut seen: Vec<String> = Vec::new();
    loop {
        let (after, gap) = space(rest)?;
        if after.is_empty() || after.starts_with('#') {
            break;
        }
        if gap.is_empty() {
            return fail(after, "expected whitespace before the next operation");
        }
        let (next, (opcode, operands)) = operation(after)?;
        if seen.contains(&opcode.to_string()) {
            return fail(after, format!("operation '{opcode}' is given twice"));
        }
        seen.push(opcode.to_string());
        apply(&mut entry, after, opcode, &operands)?;
        rest = next;
    }
    if entry.best.is_empty() && entry.avoid.is_empty() {
        return fail(
            input,
            "nothing to solve: the line has neither 'bm' nor 'am'",
        );
    }
    Ok(("", entry))
}

/// One operand and the input at its start.
type Operand<'a> = (&'a str, String);

/// `opcode operand…;`: the opcode and its operands (strings unquoted).
fn operation(input: &str) -> Res<'_, (&str, Vec<Operand<'_>>)> {
    let opcode = take_while1::<_, _, Fail<'_>>(|c: char| c.is_ascii_alphanumeric()).parse(input);
    let (rest, opcode) = match opcode {
        Ok(found) => found,
        Err(_) => return fail(input, "expected an operation (an opcode such as 'bm')"),
    };
    let mut operands = Vec::new();
    let mut rest = rest;
    loop {
        let (after, gap) = space(rest)?;
        match after.chars().next() {
            Some(';') => return Ok((&after[1..], (opcode, operands))),
            None => {
                return fail(after, format!("operation '{opcode}' is not ended by ';'"));
            }
            Some(_) if gap.is_empty() => {
                return fail(after, format!("expected whitespace or ';' in '{opcode}'"));
            }
            Some('"') => {
                let (next, text) = string(after)?;
                operands.push((after, text));
                rest = next;
            }
            Some(_) => {
                let (next, word) =
                    take_till1(|c: char| c.is_whitespace() || c == ';').parse(after)?;
                operands.push((after, word.to_string()));
                rest = next;
            }
        }
    }
}

/// A quoted string: `"` … `"`, with `\"` and `\\` the only escapes, no control characters.
fn string(input: &str) -> Res<'_, String> {
    let mut text = String::new();
    let mut chars = input.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((&input[i + 1..], text)),
            '\\' => match chars.next() {
                Some((_, e @ ('"' | '\\'))) => text.push(e),
                _ => {
                    return fail(
                        &input[i..],
                        "only \\\" and \\\\ may follow '\\' in a string",
                    );
                }
            },
            c if c.is_control() => {
                return fail(&input[i..], "a string may not hold control characters");
            }
            c => text.push(c),
        }
    }
    fail(input, "the string is not closed by '\"'")
}

/// Checks an operation's operands and stores them in `entry`.
fn apply<'a>(
    entry: &mut Entry,
    at: &'a str,
    opcode: &str,
    operands: &[Operand<'a>],
) -> Res<'a, ()> {
    match opcode {
        "bm" | "am" => {
            let moves = moves(&entry.position, opcode, at, operands)?.1;
            if opcode == "bm" {
                entry.best = moves;
            } else {
                entry.avoid = moves;
            }
            if let Some(both) = entry.best.iter().find(|m| entry.avoid.contains(m)) {
                return fail(at, format!("move {both} is both in 'bm' and in 'am'"));
            }
        }
        "id" => entry.id = Some(one_string(at, opcode, operands)?.1),
        "cat" => entry.category = Some(one_string(at, opcode, operands)?.1),
        "src" => {
            let (_, name) = one_string(at, opcode, operands)?;
            let Some(source) = Source::from_name(&name) else {
                return fail(
                    at,
                    format!("'src' is \"proven\" or \"search\", not \"{name}\""),
                );
            };
            entry.source = Some(source);
        }
        c if c.len() == 2 && c.starts_with('c') && c.as_bytes()[1].is_ascii_digit() => {
            let text = one_string(at, opcode, operands)?.1;
            entry.comments.push((c.as_bytes()[1] - b'0', text));
        }
        other => {
            return fail(
                at,
                format!(
                    "unknown operation '{}' (known: bm, am, id, cat, src, c0 to c9)",
                    other.escape_debug()
                ),
            );
        }
    }
    Ok((at, ()))
}

/// The operands of `bm` or `am`: one or more distinct pit letters, each a legal move.
fn moves<'a>(
    position: &Position,
    opcode: &str,
    at: &'a str,
    operands: &[Operand<'a>],
) -> Res<'a, Vec<Move>> {
    if operands.is_empty() {
        return fail(at, format!("'{opcode}' needs at least one move"));
    }
    let legal = position.legal_moves(GrandSlam::NoCapture);
    let mut moves = Vec::new();
    for (word_at, word) in operands {
        let mut letters = word.chars();
        let mv = match (letters.next().and_then(Move::from_letter), letters.next()) {
            (Some(mv), None) => mv,
            _ => {
                return fail(
                    word_at,
                    format!(
                        "'{}' in '{opcode}' is not a move (a pit letter A-F or a-f)",
                        word.escape_debug()
                    ),
                );
            }
        };
        if !legal.contains(mv) {
            return fail(
                word_at,
                format!("move {mv} in '{opcode}' is not legal here (legal: {legal})"),
            );
        }
        if moves.contains(&mv) {
            return fail(word_at, format!("move {mv} is given twice in '{opcode}'"));
        }
        moves.push(mv);
    }
    Ok((at, moves))
}

/// The one quoted string operand of `opcode`.
fn one_string<'a>(at: &'a str, opcode: &str, operands: &[Operand<'a>]) -> Res<'a, String> {
    match operands {
        [(word_at, text)] if word_at.starts_with('"') => Ok((at, text.clone())),
        [(word_at, _)] => fail(word_at, format!("'{opcode}' takes a quoted string")),
        _ => fail(
            at,
            format!(
                "'{opcode}' takes exactly one quoted string, found {} operands",
                operands.len()
            ),
        ),
    }
}
