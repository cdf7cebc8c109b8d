//! The static evaluation: an estimate of 100 × the final seed margin for the side to move.
//! [`evaluate`] is the learned network of [`super::net`]; [`evaluate_linear`], a linear function
//! of a few Oware features, was the evaluation before it.
//!
//! # How the linear weights were fitted, and how to refit them
//! The weights are least-squares fits of the final margin of self-play games: the example
//! `examples/fit_eval.rs` plays games of Krou against itself at a small fixed depth from openings
//! with a few pseudo-random moves, records [`features`] of every position with the game's final
//! margin seen from the side to move there, and solves the normal equations. Refit with
//! `cargo run --release --example fit_eval -- <games> <depth>`, paste the printed `WEIGHTS`
//! here, and repeat once (the games depend on the weights). The numbers it printed for the
//! weights below are in the README's search section.

use super::threats::{LANES, at_least, best_capture, ready_capture};
use crate::rules::Position;

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

/// 100 × the expected final seed margin for the side to move: the store margin plus the
/// learned network's estimate of what is still to gain ([`super::net`], computed in 16-bit
/// lanes by [`super::packed`], else as plain `i32` sums if it did not pack); the linear
/// [`evaluate_linear`] if the shipped weights do not load (damaged, or of another width).
#[inline]
pub fn evaluate(position: &Position) -> i32 {
    let future_gain = if let Some(packed) = super::packed::shipped() {
        packed.future_gain(position)
    } else if let Some(network) = super::net::shipped() {
        network.future_gain(position)
    } else {
        return evaluate_linear(position);
    };
    let us = position.side_to_move();
    let stores = i32::from(position.store(us)) - i32::from(position.store(us.opponent()));
    (100 * stores + future_gain).clamp(-super::value::MAX_EVAL, super::value::MAX_EVAL)
}

/// [`evaluate`] when `learned`, else [`evaluate_linear`] (the search's switch
/// [`super::Features::learned_evaluation`]).
#[inline]
pub fn evaluate_with(position: &Position, learned: bool) -> i32 {
    if learned {
        evaluate(position)
    } else {
        evaluate_linear(position)
    }
}

/// The evaluation before the learned one: the weighted sum of [`features`], computed a side at
/// a time with bit-parallel counts over each side's six pits (a test checks it against
/// `features`).
#[inline]
pub fn evaluate_linear(position: &Position) -> i32 {
    let us = position.side_to_move();
    let them = us.opponent();
    let (own, other) = (position.side_word(us), position.side_word(them));
    let stores = i32::from(position.store(us)) - i32::from(position.store(them));
    let seeds = i32::from(position.seeds_on_side(us)) - i32::from(position.seeds_on_side(them));
    // Marked bytes hold 0x80; shifted to 1 and summed by one multiplication (cheaper than a
    // population count where the CPU baseline has no such instruction).
    let count = |word: u64, low: u64, high: u64| {
        let marked = (at_least(word, low) & !at_least(word, high)) >> 7;
        (marked.wrapping_mul(LANES) >> 40 & 0xff) as i32
    };
    let sum = WEIGHTS[0] * stores
        + WEIGHTS[1] * seeds
        + WEIGHTS[2] * (count(other, 1, 0) - count(own, 1, 0))
        + WEIGHTS[3] * (count(own, 1, 3) - count(other, 1, 3))
        + WEIGHTS[4] * (count(own, 12, 0) - count(other, 12, 0))
        + WEIGHTS[5]
        + WEIGHTS[6] * ready_capture(own, other)
        + WEIGHTS[7] * ready_capture(other, own);
    sum.clamp(-super::value::MAX_EVAL, super::value::MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::random_positions;

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
    fn the_fast_evaluation_is_the_weighted_sum_of_the_features() {
        for position in random_positions(20_000) {
            let f = features(&position);
            let sum: i32 = (0..FEATURES).map(|i| WEIGHTS[i] * f[i]).sum();
            let expected = sum.clamp(
                -super::super::value::MAX_EVAL,
                super::super::value::MAX_EVAL,
            );
            assert_eq!(evaluate_linear(&position), expected, "{position}");
        }
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
        assert_eq!(evaluate_linear(&south), evaluate_linear(&north));
    }
}
