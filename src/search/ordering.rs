//! Move ordering: the hash move first, then captures by size, then killer moves, then the rest
//! by history. Children are played while ordering (positions are copied, never undone), so the
//! search gets each child and its capture for free.

use super::value::MAX_PLY;
use crate::rules::{GrandSlam, Move, MoveSet, Played, Position};

/// Largest seed count that has its own history entry; larger counts share the last.
const HISTORY_SEEDS: usize = 24;
/// History scores stay within ± this bound (the "gravity" of the update keeps them there).
const HISTORY_MAX: i32 = 1 << 14;
/// Order keys: the hash move, then captures (plus seeds taken), then the two killers.
const HASH_MOVE: i32 = i32::MAX;
const CAPTURE: i32 = 1 << 24;
const CAPTURED_SEED: i32 = 1 << 16;
const KILLER: [i32; 2] = [1 << 20, (1 << 20) - 1];

/// Fills unused entries of a child list (a compile-time constant, so it cannot fail at run time).
pub const FILLER: Move = match Move::new(0) {
    Some(mv) => mv,
    None => panic!("pit 0 is a move"),
};

/// One child of a node, in search order.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    /// The move leading to it.
    pub mv: Move,
    /// The position and capture it leads to.
    pub played: Played,
    key: i32,
}

/// What the search has learned about quiet moves: killers per ply and a history table.
#[derive(Clone, Debug)]
pub struct Ordering {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: [[i32; HISTORY_SEEDS]; 12],
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: [[None; 2]; MAX_PLY],
            history: [[0; HISTORY_SEEDS]; 12],
        }
    }
}

#[inline]
fn history_slot(position: &Position, mv: Move) -> (usize, usize) {
    let seeds = usize::from(position.seeds(mv.pit())).min(HISTORY_SEEDS - 1);
    (mv.pit(), seeds)
}

impl Ordering {
    /// Plays every move of `moves` from `position` and returns the children best first, with
    /// their count. Killers and history order the quiet moves only when `learned`.
    #[inline]
    pub fn children(
        &self,
        position: &Position,
        moves: MoveSet,
        rule: GrandSlam,
        hash_move: Option<Move>,
        ply: usize,
        learned: bool,
    ) -> ([Child; 6], usize) {
        let mut list = [Child {
            mv: FILLER,
            played: Played {
                position: *position,
                captured: 0,
                last_pit: 0,
            },
            key: 0,
        }; 6];
        let mut len = 0;
        for mv in moves {
            let played = position.play_unchecked(mv, rule);
            let key = if Some(mv) == hash_move {
                HASH_MOVE
            } else if played.captured > 0 {
                CAPTURE + CAPTURED_SEED * i32::from(played.captured)
            } else if !learned {
                0
            } else if Some(mv) == self.killers[ply][0] {
                KILLER[0]
            } else if Some(mv) == self.killers[ply][1] {
                KILLER[1]
            } else {
                let (pit, seeds) = history_slot(position, mv);
                self.history[pit][seeds]
            };
            // Insertion sort: at most six children.
            let mut at = len;
            while at > 0 && list[at - 1].key < key {
                list[at] = list[at - 1];
                at -= 1;
            }
            list[at] = Child { mv, played, key };
            len += 1;
        }
        (list, len)
    }

    /// Records that quiet move `best` refuted a node at `ply` searched to `depth`, after the
    /// quiet moves `tried` failed there.
    pub fn reward(
        &mut self,
        position: &Position,
        best: Move,
        tried: &[Move],
        ply: usize,
        depth: i32,
    ) {
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        self.update(position, best, bonus);
        for &mv in tried {
            self.update(position, mv, -bonus);
        }
    }

    fn update(&mut self, position: &Position, mv: Move, bonus: i32) {
        let (pit, seeds) = history_slot(position, mv);
        let entry = &mut self.history[pit][seeds];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}
