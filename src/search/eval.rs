//! The static evaluation: an estimate of 100 × the final seed margin for the side to move, as a
//! linear function of a few Oware features.
//!
//! # How the weights were fitted, and how to refit them
//! The weights are least-squares fits of the final margin of self-play games: the example
//! `examples/fit_eval.rs` plays games of Krou against itself at a small fixed depth from openings
//! with a few pseudo-random moves, records [`features`] of every position with the game's final
//! margin seen from the side to move there, and solves the normal equations. Refit with
//! `cargo run --release --example fit_eval -- <games> <depth>`, paste the printed `WEIGHTS`
//! here, and repeat once (the games depend on the weights). The numbers it printed for the
//! weights below are in the README's search section.

use crate::rules::{Position, Side};

/// How many features the evaluation weighs.
pub const FEATURES: usize = 8;

/// Names of the features, in the order of [`features`] and [`WEIGHTS`].
pub const NAMES: [&str; FEATURES] = [
    "store margin",
    "seeds on own side minus opponent's",
    "empty pits, own minus opponent's",
    "pits of 1-2 seeds, own minus opponent's",
    "pits of 12+ seeds, own minus opponent's",
    "tempo (side to move)",
    "seeds the side to move can capture now",
    "seeds the opponent could capture if it were to move",
];

/// Centipawn-like weights (100 = one seed of final margin) per unit of each feature.
pub const WEIGHTS: [i32; FEATURES] = [100, -1, -96, -10, 237, -26, 58, -16];

/// The features of `position` from the side to move's point of view.
#[inline]
pub fn features(position: &Position) -> [i32; FEATURES] {
    let us = position.side_to_move();
    let them = us.opponent();
    let pits = position.pits();
    let (own, other) = (&pits[us.pits()], &pits[them.pits()]);
    let count = |row: &[u8], f: fn(u8) -> bool| row.iter().filter(|&&s| f(s)).count() as i32;
    let diff = |f: fn(u8) -> bool| count(own, f) - count(other, f);
    [
        i32::from(position.store(us)) - i32::from(position.store(them)),
        i32::from(position.seeds_on_side(us)) - i32::from(position.seeds_on_side(them)),
        diff(|s| s == 0),
        diff(|s| s == 1 || s == 2),
        diff(|s| s >= 12),
        1,
        best_capture(&pits, us),
        best_capture(&pits, them),
    ]
}

/// 100 × the expected final seed margin for the side to move.
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    let f = features(position);
    let mut sum = 0;
    for i in 0..FEATURES {
        sum += WEIGHTS[i] * f[i];
    }
    sum.clamp(-super::value::MAX_EVAL, super::value::MAX_EVAL)
}

/// The most seeds `side` could capture with one sowing of fewer than 12 seeds (no lap), ignoring
/// the grand-slam and feeding rules: a cheap measure of the threats on the board.
#[inline]
fn best_capture(pits: &[u8; 12], side: Side) -> i32 {
    let mut best = 0;
    for pit in side.pits() {
        let seeds = usize::from(pits[pit]);
        if seeds == 0 || seeds >= 12 {
            continue;
        }
        let last = (pit + seeds) % 12;
        if side.owns(last) {
            continue;
        }
        // Every pit from the one after `pit` to `last` got one seed; walk back while the
        // opponent's pits, now holding 2 or 3, were sown.
        let (mut at, mut taken, mut sown) = (last, 0, seeds);
        while sown > 0 && !side.owns(at) && matches!(pits[at], 1 | 2) {
            taken += i32::from(pits[at]) + 1;
            sown -= 1;
            at = (at + 11) % 12;
        }
        best = best.max(taken);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_level_but_for_the_tempo() {
        let f = features(&Position::start());
        assert_eq!(f, [0, 0, 0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn a_ready_capture_is_seen() {
        // South's F (1 seed) lands in North's a, which holds 2: a capture of 3.
        let position: Position = "4-4-4-4-4-1-2-4-4-4-4-4-1-4-S"
            .parse()
            .expect("valid diagram");
        assert_eq!(features(&position)[6], 3);
    }

    #[test]
    fn a_position_and_its_mirror_evaluate_alike() {
        let south: Position = "1-0-3-5-12-2-4-0-0-6-3-2-6-4-S"
            .parse()
            .expect("valid diagram");
        let north: Position = "4-0-0-6-3-2-1-0-3-5-12-2-4-6-N"
            .parse()
            .expect("valid diagram");
        assert_eq!(evaluate(&south), evaluate(&north));
    }
}
