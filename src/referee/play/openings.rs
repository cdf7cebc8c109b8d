//! Openings: read from a file (one diagram or move list a line) or made of random legal moves.

use crate::referee::rng::Rng;
use crate::rules::{Game, GrandSlam, Position, parse_moves};
use std::fmt;

/// Where a game starts: a position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// Moves played from `start` before the engines move (part of the game record).
    pub moves: Vec<crate::rules::Move>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::start(),
            moves: Vec::new(),
        }
    }

    /// The game after the opening moves, or why they cannot be played.
    pub fn game(&self, rule: GrandSlam) -> Result<Game, String> {
        let mut game = Game::new(self.start, rule);
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("opening move {} ({mv}): {e}", i + 1))?;
        }
        if let Some(outcome) = game.outcome() {
            return Err(format!("the opening ends the game ({outcome})"));
        }
        Ok(game)
    }
}

impl fmt::Display for Opening {
    /// The diagram when not the start position, then the moves as letters (`startpos` if none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = crate::rules::format_moves(&self.moves);
        match (self.start == Position::start(), moves.is_empty()) {
            (true, true) => f.write_str("startpos"),
            (true, false) => f.write_str(&moves),
            (false, true) => write!(f, "{}", self.start),
            (false, false) => write!(f, "{} {moves}", self.start),
        }
    }
}

/// An openings file that could not be used: which line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOpening {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for BadOpening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "openings line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for BadOpening {}

/// Reads one opening line: a diagram, a move list from the start, or a diagram then moves.
pub fn parse_opening(text: &str, rule: GrandSlam) -> Result<Opening, String> {
    let text = text.trim();
    let (start, moves) = match text.split_once(char::is_whitespace) {
        Some((first, rest)) if first.contains('-') => (first, rest),
        _ if text.contains('-') => (text, ""),
        _ => ("", text),
    };
    let start = if start.is_empty() {
        Position::start()
    } else {
        start.parse().map_err(|e| format!("{e}"))?
    };
    let moves = parse_moves(moves).map_err(|e| e.to_string())?;
    let opening = Opening { start, moves };
    opening.game(rule)?;
    Ok(opening)
}

/// Reads an openings file: blank lines and lines starting with `#` are skipped.
pub fn parse_openings(text: &str, rule: GrandSlam) -> Result<Vec<Opening>, BadOpening> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_opening(line, rule).map_err(|reason| BadOpening {
            line: i + 1,
            reason,
        })?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(BadOpening {
            line: 0,
            reason: "the file holds no opening".into(),
        });
    }
    Ok(openings)
}

/// Attempts at a random opening before giving up (a long opening usually ends the game).
const RANDOM_OPENING_ATTEMPTS: usize = 10_000;

/// `count` openings of `plies` random legal moves from the start, none of which ends the game;
/// an error if such openings are too rare to find.
pub fn random_openings(
    count: usize,
    plies: usize,
    rule: GrandSlam,
    rng: &mut Rng,
) -> Result<Vec<Opening>, String> {
    (0..count)
        .map(|_| {
            (0..RANDOM_OPENING_ATTEMPTS)
                .find_map(|_| random_opening(plies, rule, rng))
                .ok_or_else(|| {
                    format!("no random opening of {plies} plies found that does not end the game")
                })
        })
        .collect()
}

fn random_opening(plies: usize, rule: GrandSlam, rng: &mut Rng) -> Option<Opening> {
    let mut game = Game::new(Position::start(), rule);
    for _ in 0..plies {
        let legal: Vec<_> = game.legal_moves().collect();
        let mv = *legal.get(rng.below(legal.len().max(1)))?;
        game.play(mv).ok()?;
    }
    game.outcome().is_none().then(|| Opening {
        start: Position::start(),
        moves: game.moves().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_file_reads_diagrams_and_move_lists_and_names_bad_lines() {
        let text = "# comment\nFb\n\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-N\nA b\n";
        let openings = parse_openings(text, GrandSlam::NoCapture).expect("valid");
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].to_string(), "Fb");
        assert_eq!(openings[1].moves, vec![]);
        let bad = parse_openings("Fb\nFF\n", GrandSlam::NoCapture).expect_err("illegal");
        assert_eq!(bad.line, 2);
        let bad = parse_openings("Fx\n", GrandSlam::NoCapture).expect_err("syntax");
        assert_eq!(bad.line, 1);
    }

    #[test]
    fn random_openings_are_reproducible_and_of_the_asked_length() {
        let a = random_openings(5, 6, GrandSlam::NoCapture, &mut Rng::new(3)).expect("found");
        let b = random_openings(5, 6, GrandSlam::NoCapture, &mut Rng::new(3)).expect("found");
        assert_eq!(a, b);
        assert!(random_openings(1, 400, GrandSlam::NoCapture, &mut Rng::new(3)).is_err());
        assert!(a.iter().all(|o| o.moves.len() == 6));
        assert!(a.iter().all(|o| o.game(GrandSlam::NoCapture).is_ok()));
    }
}
