//! Diagrams (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`) and move letters, read and written.
//!
//! A diagram is the 12 pit counts `A`…`F` `a`…`f`, South's store, North's store and the side to
//! move (`S` or `N`), joined by `-`; the 14 numbers add up to 48.

use super::{Move, Position, Side, TOTAL_SEEDS};
use std::fmt;
use std::str::FromStr;

/// What is wrong with a diagram. Field numbers count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramError {
    /// The diagram does not have the 15 fields (12 pits, 2 stores, side).
    FieldCount {
        /// How many `-`-separated fields were found.
        found: usize,
    },
    /// A pit or store field is not a number from 0 to 48.
    NotACount {
        /// Which field (1–14).
        field: usize,
        /// Its text.
        text: String,
    },
    /// The 14 numbers do not add up to 48.
    SeedTotal {
        /// What they add up to.
        found: u32,
    },
    /// The last field is not `S` or `N`.
    UnknownSide {
        /// Its text.
        text: String,
    },
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::FieldCount { found } => write!(
                f,
                "a diagram has 15 fields separated by '-' (12 pits, 2 stores, side to move), found {found}"
            ),
            DiagramError::NotACount { field, text } => {
                let what = match field {
                    1..=12 => format!("pit {}", pit_letter(field - 1)),
                    13 => "South's store".to_string(),
                    _ => "North's store".to_string(),
                };
                write!(
                    f,
                    "field {field} ({what}) is '{}', not a seed count from 0 to 48",
                    text.escape_debug()
                )
            }
            DiagramError::SeedTotal { found } => {
                write!(f, "the pits and stores add up to {found} seeds, not 48")
            }
            DiagramError::UnknownSide { text } => {
                write!(
                    f,
                    "field 15 (side to move) is '{}', expected S or N",
                    text.escape_debug()
                )
            }
        }
    }
}

impl std::error::Error for DiagramError {}

fn pit_letter(pit: usize) -> char {
    Move::new(pit).map_or('?', Move::letter)
}

fn parse_count(field: usize, text: &str) -> Result<u8, DiagramError> {
    let bad = || DiagramError::NotACount {
        field,
        text: text.to_string(),
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match text.parse::<u8>() {
        Ok(n) if n <= TOTAL_SEEDS => Ok(n),
        _ => Err(bad()),
    }
}

impl FromStr for Position {
    type Err = DiagramError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.trim().split('-').collect();
        if fields.len() != 15 {
            return Err(DiagramError::FieldCount {
                found: fields.len(),
            });
        }
        let mut counts = [0u8; 14];
        for (i, text) in fields[..14].iter().enumerate() {
            counts[i] = parse_count(i + 1, text)?;
        }
        let side = match fields[14] {
            "S" => Side::South,
            "N" => Side::North,
            other => {
                return Err(DiagramError::UnknownSide {
                    text: other.to_string(),
                });
            }
        };
        let mut pits = [0u8; 12];
        pits.copy_from_slice(&counts[..12]);
        let found = counts.iter().map(|&c| u32::from(c)).sum();
        Position::new(pits, [counts[12], counts[13]], side).ok_or(DiagramError::SeedTotal { found })
    }
}

impl fmt::Display for Position {
    /// The diagram, e.g. `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for seeds in self.pits() {
            write!(f, "{seeds}-")?;
        }
        write!(
            f,
            "{}-{}-{}",
            self.store(Side::South),
            self.store(Side::North),
            self.side_to_move().letter()
        )
    }
}

/// The board drawn as in the rules texts: North's row on top (`f` to `a`), the stores beside it.
pub fn board(position: &Position) -> String {
    let pits = position.pits();
    let cell = |pit: usize| format!("({:>2})", pits[pit]);
    let north: String = (6..12).rev().map(cell).collect();
    let south: String = (0..6).map(cell).collect();
    format!(
        "     f   e   d   c   b   a\n   {north}\n({:>2})                        ({:>2})\n   {south}\n     A   B   C   D   E   F\n",
        position.store(Side::North),
        position.store(Side::South),
    )
}

/// A move letter that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    /// Character offset of the bad letter in the text (0-based).
    pub offset: usize,
    /// The character found.
    pub found: char,
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' at character {} is not a move (expected a pit letter A-F or a-f)",
            self.found.escape_debug(),
            self.offset + 1
        )
    }
}

impl std::error::Error for MoveSyntaxError {}

impl FromStr for Move {
    type Err = MoveSyntaxError;

    /// Reads one move letter, `A`–`F` or `a`–`f`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Move::from_letter(c).ok_or(MoveSyntaxError {
                offset: 0,
                found: c,
            }),
            (Some(_), Some(c)) => Err(MoveSyntaxError {
                offset: 1,
                found: c,
            }),
            (None, _) => Err(MoveSyntaxError {
                offset: 0,
                found: ' ',
            }),
        }
    }
}

/// Reads a list of move letters, concatenated (`FbAf`) or separated by spaces (`F b A f`).
pub fn parse_moves(text: &str) -> Result<Vec<Move>, MoveSyntaxError> {
    text.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(offset, c)| Move::from_letter(c).ok_or(MoveSyntaxError { offset, found: c }))
        .collect()
}

/// Writes moves as concatenated letters (`FbAf`), as the Aualé GUI does.
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}
