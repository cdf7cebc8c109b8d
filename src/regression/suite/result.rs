//! The rule suites are written for, and a game's result for the side to move: what a suite's
//! answers are judged by ([`super::judge`], [`super::recurrence`]).

use crate::rules::GrandSlam;
use std::cmp::Ordering;

/// The rule suites are written for (the default one).
pub const RULE: GrandSlam = GrandSlam::NoCapture;

/// A game's result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Result {
    /// The side to move loses.
    Loss,
    /// A draw (24–24).
    Draw,
    /// The side to move wins.
    Win,
}

impl Result {
    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Result::Win => "win",
            Result::Draw => "draw",
            Result::Loss => "loss",
        }
    }

    /// The result of a final margin (own store minus the opponent's) for the side it is of.
    pub fn of_margin(margin: i32) -> Result {
        match margin.cmp(&0) {
            Ordering::Greater => Result::Win,
            Ordering::Equal => Result::Draw,
            Ordering::Less => Result::Loss,
        }
    }
}
