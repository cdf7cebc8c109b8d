//! Judging a position's moves by the game's result from the endgame tables: which moves keep
//! the position's proven result (`bm`) and which give it up (`am`).
//!
//! A move's tables bounds `lo ≤ V ≤ hi` are on the margin the side to move still gains, its
//! capture included; the result is the sign of `own store − opponent's store + V` (the game
//! ending early at a store above 24 never changes who is ahead). A move's result is proven when
//! both bounds give the same sign, and when its bounds hold for the real game: a capture starts
//! the history afresh, but after a quiet move the position left behind is still in the history
//! and could end the game by repetition, which the child's entry does not know about. Its
//! recurrence would end the game with each side taking the seeds on its side: when that
//! result is the move's result too, neither side gains by it (the side that could force the
//! result still does, whether its line meets the position again or not), so the result stands.
//! Otherwise a quiet move's result is taken as proven only when the side that the recurrence
//! would hurt keeps the result without letting the position recur ([`recurrence::holds`]), or
//! when a search of every line of quiet moves from the child shows that the position left
//! behind cannot recur ([`can_recur`]).

use super::recurrence;
use crate::egdb::Tables;
use crate::rules::{Move, Position};
use std::collections::HashSet;

pub use super::result::{RULE, Result};

/// The most positions [`can_recur`] visits before giving up (the move is then unproven).
pub const RECUR_LIMIT: usize = 20_000;

/// What the tables say about one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveJudgement {
    /// The move.
    pub mv: Move,
    /// Its proven result for the side to move, `None` when the tables do not settle it.
    pub result: Option<Result>,
    /// The tables' bounds, written as `+3` or `[-1, +5]`.
    pub bounds: String,
}

/// What the tables say about a position: each move's result and, when all are proven, the
/// position's result with the moves that keep it and those that give it up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// Every legal move, in pit order.
    pub moves: Vec<MoveJudgement>,
    /// The position's proven result, when every move's result is proven.
    pub result: Option<Result>,
}

impl Judgement {
    /// The moves that keep the position's result (`bm`); empty when it is not proven.
    pub fn best(&self) -> Vec<Move> {
        self.with(|r| Some(r) == self.result)
    }

    /// The moves that give the position's result up (`am`); empty when it is not proven.
    pub fn avoid(&self) -> Vec<Move> {
        if self.result.is_none() {
            return Vec::new();
        }
        self.with(|r| Some(r) != self.result)
    }

    fn with(&self, keep: impl Fn(Result) -> bool) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|m| m.result.is_some_and(&keep))
            .map(|m| m.mv)
            .collect()
    }

    /// Each move with its result and bounds: `A win (+3), B loss ([-9, -2])`.
    pub fn describe(&self) -> String {
        self.moves
            .iter()
            .map(|m| {
                let result = m.result.map_or("unproven", Result::name);
                format!("{} {result} ({})", m.mv, m.bounds)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The tables' judgement of `position` (a game starting there), `None` when the tables do not
/// cover it or a move's child.
pub fn judge(tables: &Tables, position: &Position) -> Option<Judgement> {
    let side = position.side_to_move();
    let lead = i32::from(position.store(side)) - i32::from(position.store(side.opponent()));
    // The result if the position recurred: the game ends, each side takes its own seeds.
    let recurred = Result::of_margin(lead + i32::from(Tables::own_split(position)));
    let mut moves = Vec::new();
    for found in tables.moves(position)? {
        let lo = Result::of_margin(lead + i32::from(found.bounds.lo));
        let hi = Result::of_margin(lead + i32::from(found.bounds.hi));
        let real = found.captured > 0
            || lo == recurred
            || (lo == hi
                && recurrence::holds(tables, position, found.mv, lo, recurred) == Some(true))
            || !can_recur(position, found.mv).unwrap_or(true);
        moves.push(MoveJudgement {
            mv: found.mv,
            result: (lo == hi && real).then_some(lo),
            bounds: found.bounds.to_string(),
        });
    }
    moves.sort_by_key(|m| m.mv);
    let result = moves
        .iter()
        .map(|m| m.result)
        .collect::<Option<Vec<_>>>()
        .and_then(|results| results.into_iter().max());
    Some(Judgement { moves, result })
}

/// Whether `position` can come back after the quiet move `mv` through quiet moves only
/// (`None`: more than [`RECUR_LIMIT`] positions were reached without deciding). Captures make
/// it impossible (seeds never come back to the board), so only quiet moves are followed.
pub fn can_recur(position: &Position, mv: Move) -> Option<bool> {
    let first = position.try_play(mv, RULE).ok()?;
    let mut seen = HashSet::from([first.position]);
    let mut stack = vec![first.position];
    while let Some(here) = stack.pop() {
        for next in here.legal_moves(RULE) {
            let played = here.play_unchecked(next, RULE);
            if played.captured > 0 {
                continue;
            }
            if played.position == *position {
                return Some(true);
            }
            if seen.insert(played.position) {
                if seen.len() > RECUR_LIMIT {
                    return None;
                }
                stack.push(played.position);
            }
        }
    }
    Some(false)
}
