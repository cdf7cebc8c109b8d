//! Word-level parsers on nom's complete-input primitives, and the error they build.

use nom::bytes::complete::{take_till1, take_while};
use nom::character::complete::{char, digit1};
use nom::combinator::{opt, recognize};
use nom::error::ErrorKind;
use nom::{IResult, Parser};
use std::fmt;

use super::super::command::Command;

/// A nom error: the remaining input where it happened and, once known, a message.
#[derive(Debug)]
pub(super) struct Fail<'a> {
    pub(super) at: &'a str,
    pub(super) message: Option<String>,
}

impl<'a> nom::error::ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Fail { at, message: None }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// What every parser here returns.
pub(super) type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// A failure (no backtracking) at `at` with a message.
pub(super) fn failure<'a>(at: &'a str, message: impl Into<String>) -> nom::Err<Fail<'a>> {
    nom::Err::Failure(Fail {
        at,
        message: Some(message.into()),
    })
}

/// [`failure`] as a parser result.
pub(super) fn fail<'a, T>(at: &'a str, message: impl Into<String>) -> Res<'a, T> {
    Err(failure(at, message))
}

/// Skips whitespace.
pub(super) fn space(input: &str) -> Res<'_, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// The next word (after whitespace), or `None` at the end of the line. Returns the input at the
/// word's start too, for error columns.
pub(super) fn word(input: &str) -> Res<'_, Option<(&str, &str)>> {
    let (at, _) = space(input)?;
    let (rest, found) = opt(take_till1(char::is_whitespace)).parse(at)?;
    Ok((rest, found.map(|w| (w, at))))
}

/// Checks that nothing follows a command without arguments.
pub(super) fn end<'a>(input: &'a str, command: Command, name: &str) -> Res<'a, Command> {
    match word(input)? {
        (_, None) => Ok(("", command)),
        (_, Some((extra, at))) => fail(
            at,
            format!("unexpected '{}' after '{name}'", extra.escape_debug()),
        ),
    }
}

/// An integer word (optionally negative), as text, with the input at its start; `None` (and
/// the input untouched) when the next word is not one.
pub(super) fn integer(input: &str) -> Res<'_, Option<(&str, &str)>> {
    let (at, _) = space(input)?;
    let (rest, text) = opt(recognize((opt(char('-')), digit1))).parse(at)?;
    match (text, rest.chars().next()) {
        (Some(text), None) => Ok((rest, Some((text, at)))),
        (Some(text), Some(c)) if c.is_whitespace() => Ok((rest, Some((text, at)))),
        _ => Ok((at, None)),
    }
}

/// A number from `min` to `max` after the keyword `key`.
pub(super) fn number<'a, T>(input: &'a str, key: &str, min: T, max: T) -> Res<'a, T>
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
