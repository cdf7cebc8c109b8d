//! Scores inside the search: one `i32` scale for evaluations (100 × expected final seed margin
//! for the side to move) and proven results (a win or loss a known number of plies away).

use super::Score;

/// The deepest ply the search may reach (iterations, PV and killer tables are sized by it).
pub const MAX_PLY: usize = 128;
/// A proven win on the current move; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores at or above this (or at or below its negation) are proven results.
pub const PROVEN: i32 = WIN - MAX_PLY as i32;
/// Larger than any score: the initial window.
pub const INFINITY: i32 = WIN + 1;
/// The largest evaluation: estimates stay strictly inside the proven range.
pub const MAX_EVAL: i32 = PROVEN - 1;

/// The exact value of a finished game for the side to move (`ply` plies from the root): a win
/// or loss as a proven score, a draw as 0.
#[inline]
pub fn game_end(outcome_margin: i32, ply: usize) -> i32 {
    match outcome_margin.signum() {
        1 => WIN - ply as i32,
        -1 => -WIN + ply as i32,
        _ => 0,
    }
}

/// Whether `value` is a proven win or loss.
#[inline]
pub fn is_proven(value: i32) -> bool {
    value.abs() >= PROVEN
}

/// Converts a root-relative proven score into a node-relative one for the hash table.
#[inline]
pub fn to_table(value: i32, ply: usize) -> i32 {
    if value >= PROVEN {
        value + ply as i32
    } else if value <= -PROVEN {
        value - ply as i32
    } else {
        value
    }
}

/// Converts a node-relative proven score from the hash table back to a root-relative one.
#[inline]
pub fn from_table(value: i32, ply: usize) -> i32 {
    if value >= PROVEN {
        value - ply as i32
    } else if value <= -PROVEN {
        value + ply as i32
    } else {
        value
    }
}

/// The protocol's score: `Mate(n)` for proven results, `n` plies (moves in Oware notation) to
/// the end, negative when losing; `Cp` otherwise. A proven draw is `Cp(0)`.
pub fn to_score(value: i32) -> Score {
    if value >= PROVEN {
        Score::Mate(WIN - value)
    } else if value <= -PROVEN {
        Score::Mate(-(WIN + value))
    } else {
        Score::Cp(value)
    }
}
