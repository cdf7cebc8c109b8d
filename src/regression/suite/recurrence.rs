//! Proving that a quiet move's result holds although the position it leaves could recur.
//!
//! After a quiet move from the root (the position judged, where the game starts), the root is
//! still in the history, and its recurrence would end the game with each side taking the seeds
//! on its side: the result `recurred`. The tables' bounds of the child assume a game that
//! starts there, so when the move's result `r` differs from `recurred`, it holds in the real
//! game only if the side that `recurred` would hurt can keep `r` without the root ever coming
//! back: the root's side to move when `r` is better for it, the opponent when worse.
//!
//! [`holds`] searches for such a strategy: a depth-first search, deepened a ply at a time,
//! over quiet moves only (a capture takes seeds off the board, so nothing before it can recur,
//! and its bounds are proven). The prover plays only moves whose bounds already force its side
//! of `r` (a strategy that avoids the root is a strategy of the game the tables solved, so no
//! other move can do it), and every reply must keep them so; a line that meets the root or any
//! earlier position of the line fails. A position proven within `d` plies is remembered with
//! its smallest `d`, so the prover's strategy (a move proven within fewer plies than its
//! position) never repeats a position: its lines are the tables' game, and end in a capture or
//! the game's end whose bounds settle the result. That and the root check carry the proof; the
//! check against the rest of the line only prunes.

use super::result::{RULE, Result};
use crate::egdb::{Bounds, MoveBounds, Tables};
use crate::rules::{Move, Position, Side};
use std::collections::HashMap;

/// The most positions [`holds`] visits, over all its depths, before giving up.
pub const PROOF_LIMIT: usize = 20_000;

/// The deepest line [`holds`] tries, in plies.
pub const PROOF_DEPTH: u32 = 64;

/// Whether the result `result` of the quiet move `mv` from `root` (for the side to move there)
/// holds although `root` could recur with the result `recurred`: `Some(true)` when a strategy
/// that keeps it without the root recurring was found, `Some(false)` when none was found within
/// [`PROOF_DEPTH`] plies (the search is not complete: a failure it met on one line is
/// remembered for others), `None` after [`PROOF_LIMIT`] positions or when `mv` is not legal.
pub fn holds(
    tables: &Tables,
    root: &Position,
    mv: Move,
    result: Result,
    recurred: Result,
) -> Option<bool> {
    if result == recurred {
        return Some(true);
    }
    let child = root.try_play(mv, RULE).ok()?.position;
    let side = root.side_to_move();
    let mut proof = Proof {
        tables,
        root: *root,
        side,
        lead: i32::from(root.store(side)) - i32::from(root.store(side.opponent())),
        prover: if result > recurred {
            side
        } else {
            side.opponent()
        },
        target: result,
        visited: 0,
        proven: HashMap::new(),
        failed: HashMap::new(),
        line: Vec::new(),
    };
    for depth in 0..=PROOF_DEPTH {
        if proof.forces(child, depth)? {
            return Some(true);
        }
    }
    Some(false)
}

/// One proof's state.
struct Proof<'a> {
    tables: &'a Tables,
    root: Position,
    /// The root's side to move, whose result `target` is.
    side: Side,
    /// Its store minus the opponent's (quiet moves leave the stores alone).
    lead: i32,
    /// The side that must keep the result.
    prover: Side,
    target: Result,
    visited: usize,
    /// Positions proven, with the fewest plies they were proven within.
    proven: HashMap<Position, u32>,
    /// Positions that failed, with the most plies they failed within (a failure may come from
    /// the line it was met on: remembering it loses proofs, never makes a wrong one).
    failed: HashMap<Position, u32>,
    /// The positions of the line searched, the root excepted.
    line: Vec<Position>,
}

impl Proof<'_> {
    /// Whether bounds on the margin `mover` still gains settle the prover's side of the target:
    /// the prover's forcing bound is enough.
    fn settles(&self, mover: Side, bounds: Bounds) -> bool {
        // The root side's margin from here on, as an interval.
        let (lo, hi) = if mover == self.side {
            (i32::from(bounds.lo), i32::from(bounds.hi))
        } else {
            (-i32::from(bounds.hi), -i32::from(bounds.lo))
        };
        if self.prover == self.side {
            Result::of_margin(self.lead + lo) >= self.target
        } else {
            Result::of_margin(self.lead + hi) <= self.target
        }
    }

    /// Whether the prover keeps its side of the target from `here` (reached from the root by
    /// quiet moves) within `depth` plies; `None` past the limit.
    fn forces(&mut self, here: Position, depth: u32) -> Option<bool> {
        if self.proven.get(&here).is_some_and(|&d| d <= depth) {
            return Some(true);
        }
        if self.failed.get(&here).is_some_and(|&d| d >= depth) {
            return Some(false);
        }
        self.visited += 1;
        if self.visited > PROOF_LIMIT {
            return None;
        }
        let Some(moves) = self.tables.moves(&here) else {
            return Some(false);
        };
        let mover = here.side_to_move();
        let kept = if moves.is_empty() {
            // The game ends; each side takes its own seeds.
            let split = Tables::own_split(&here);
            self.settles(
                mover,
                Bounds {
                    lo: split,
                    hi: split,
                },
            )
        } else {
            self.line.push(here);
            let by_moves = self.by_moves(&here, &moves, depth);
            self.line.pop();
            by_moves?
        };
        if kept {
            let d = self.proven.entry(here).or_insert(depth);
            *d = (*d).min(depth);
        } else {
            let d = self.failed.entry(here).or_insert(depth);
            *d = (*d).max(depth);
        }
        Some(kept)
    }

    /// Whether, among `here`'s moves (the tables' bounds of each), the prover has one that
    /// keeps its side of the target (its move) or every move does (the opponent's).
    fn by_moves(&mut self, here: &Position, moves: &[MoveBounds], depth: u32) -> Option<bool> {
        let mover = here.side_to_move();
        let proving = mover == self.prover;
        for found in moves {
            let keeps = self.settles(mover, found.bounds) && {
                if found.captured > 0 {
                    true
                } else {
                    let next = here.play_unchecked(found.mv, RULE).position;
                    let repeats = next == self.root || self.line.contains(&next);
                    !repeats && depth > 0 && self.forces(next, depth - 1)?
                }
            };
            if keeps == proving {
                return Some(proving);
            }
        }
        Some(!proving)
    }
}
