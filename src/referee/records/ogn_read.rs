//! Reads OGN game records back, checking every move and capture against the rules.

use super::ogn::{OgnGame, OgnMove};
use crate::rules::{Game, GrandSlam, Move, Position};
use std::fmt;

/// A record that cannot be read: the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OgnError {
    /// 1-based line in the text.
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for OgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OGN line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for OgnError {}

/// Reads every game of an OGN text. Each game is its tags, then its move text ending with the
/// result (`25-19` or `*`). Moves are replayed by the rules (from the `FEN` tag if present, under
/// the `GrandSlam` tag's rule): an illegal move or a wrong `+k` capture count is an error.
pub fn read_games(text: &str) -> Result<Vec<OgnGame>, OgnError> {
    let mut games = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while lines.peek().is_some() {
        let mut tags = Vec::new();
        let mut start_line = 0;
        while let Some((n, line)) =
            lines.next_if(|(_, l)| l.trim().is_empty() || l.trim_start().starts_with('['))
        {
            if !line.trim().is_empty() {
                start_line = n + 1;
                tags.push(read_tag(line.trim()).map_err(|what| OgnError { line: n + 1, what })?);
            }
        }
        let mut movetext = Vec::new();
        while let Some((n, line)) = lines.next_if(|(_, l)| !l.trim_start().starts_with('[')) {
            movetext.push((n + 1, line));
        }
        if tags.is_empty() && movetext.iter().all(|(_, l)| l.trim().is_empty()) {
            continue;
        }
        let (moves, result) = read_moves(&movetext, start_line)?;
        let game = OgnGame {
            tags,
            moves,
            result,
        };
        check(&game).map_err(|what| OgnError {
            line: start_line,
            what,
        })?;
        games.push(game);
    }
    Ok(games)
}

/// `[Name "value"]` with `\"` and `\\` escapes.
fn read_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("'{line}' is not a tag [Name \"value\"]"))?;
    let (name, quoted) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("tag '{line}' has no value"))?;
    let body = quoted
        .trim()
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| format!("tag '{name}' value is not quoted"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(
                chars
                    .next()
                    .ok_or_else(|| format!("tag '{name}' ends in '\\'"))?,
            ),
            '"' => return Err(format!("tag '{name}' has an unescaped quote")),
            c => value.push(c),
        }
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("'{name}' is not a tag name"));
    }
    Ok((name.to_string(), value))
}

/// The move text: numbers (`3.`, `3...`), moves (`E`, `a+2`), `{comments}`, and the result.
fn read_moves(lines: &[(usize, &str)], first: usize) -> Result<(Vec<OgnMove>, String), OgnError> {
    let mut moves: Vec<OgnMove> = Vec::new();
    let mut comment: Option<(usize, String)> = None;
    for &(n, line) in lines {
        let mut rest = line;
        loop {
            if let Some((_, text)) = comment.as_mut() {
                match rest.split_once('}') {
                    Some((inside, after)) => {
                        text.push_str(inside);
                        let text = comment.take().map(|(_, t)| t).unwrap_or_default();
                        let last = moves.last_mut().ok_or_else(|| OgnError {
                            line: n,
                            what: "a comment before any move".into(),
                        })?;
                        last.comment = Some(text);
                        rest = after;
                    }
                    None => {
                        text.push_str(rest);
                        text.push(' ');
                        break;
                    }
                }
            }
            rest = rest.trim_start();
            let Some(token) = rest
                .split(|c: char| c.is_whitespace() || c == '{')
                .next()
                .filter(|t| !t.is_empty())
            else {
                match rest.strip_prefix('{') {
                    Some(after) => {
                        comment = Some((n, String::new()));
                        rest = after;
                        continue;
                    }
                    None => break,
                }
            };
            rest = &rest[token.len()..];
            if token == "*" || is_score(token) {
                if !rest.trim().is_empty() {
                    return Err(OgnError {
                        line: n,
                        what: format!("text after the result '{token}'"),
                    });
                }
                return Ok((moves, token.to_string()));
            }
            if let Some(mv) = read_move(token).map_err(|what| OgnError { line: n, what })? {
                moves.push(mv);
            }
        }
    }
    let line = comment.map_or(lines.last().map_or(first, |l| l.0), |(n, _)| n);
    Err(OgnError {
        line,
        what: "the move text has no result (`25-19` or `*`) at its end".into(),
    })
}

fn is_score(token: &str) -> bool {
    token
        .split_once('-')
        .is_some_and(|(s, n)| s.parse::<u8>().is_ok() && n.parse::<u8>().is_ok())
}

/// A move (`a`, `E+3`), or `None` for a move number (`12.`, `12...`).
fn read_move(token: &str) -> Result<Option<OgnMove>, String> {
    if let Some(number) = token
        .strip_suffix("...")
        .or_else(|| token.strip_suffix('.'))
    {
        return match number.parse::<u32>() {
            Ok(_) => Ok(None),
            Err(_) => Err(format!("'{token}' is not a move number")),
        };
    }
    let (letter, captured) = match token.split_once('+') {
        Some((letter, k)) => (
            letter,
            k.parse()
                .map_err(|_| format!("'{token}': bad capture count"))?,
        ),
        None => (token, 0),
    };
    let mv: Move = letter
        .parse()
        .map_err(|_| format!("'{token}' is not a move"))?;
    Ok(Some(OgnMove {
        mv,
        captured,
        comment: None,
    }))
}

/// Replays the moves from the record's start under its rule; checks captures and the result.
fn check(game: &OgnGame) -> Result<(), String> {
    let start = match game.tag("FEN") {
        Some(fen) => fen.parse().map_err(|e| format!("FEN '{fen}': {e}"))?,
        None => Position::start(),
    };
    let rule: GrandSlam = match game.tag("GrandSlam") {
        Some(rule) => rule.parse().map_err(|e| format!("{e}"))?,
        None => GrandSlam::default(),
    };
    let mut replay = Game::new(start, rule);
    for (i, m) in game.moves.iter().enumerate() {
        replay
            .play(m.mv)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, m.mv))?;
        let captured = replay.captures().last().copied().unwrap_or(0);
        if captured != m.captured {
            return Err(format!(
                "move {} ({}) captures {captured}, the record says {}",
                i + 1,
                m.mv,
                m.captured
            ));
        }
    }
    if let (Some(outcome), true) = (replay.outcome(), is_score(&game.result)) {
        let expected = format!("{}-{}", outcome.south, outcome.north);
        if expected != game.result {
            return Err(format!(
                "the result {} does not match the final position ({outcome})",
                game.result
            ));
        }
    }
    Ok(())
}
