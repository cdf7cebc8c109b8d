//! Move ordering: the hash move first (played alone: when it refutes the node the other moves
//! are never played), then captures by size, then killer moves, then the rest by history.
//! Children are played while ordering (positions are copied, never undone) into a buffer the
//! search keeps for each ply; the [`Picker`] hands out their indices, so the search gets each
//! child and its capture for free.

use super::table::TableView;
use super::value::MAX_PLY;
use crate::rules::{GrandSlam, Move, MoveSet, Played, Position};

/// Largest seed count that has its own history entry; larger counts share the last.
const HISTORY_SEEDS: usize = 24;
/// History scores stay within ± this bound (the "gravity" of the update keeps them there).
const HISTORY_MAX: i32 = 1 << 14;
/// Order keys: captures (plus seeds taken), then the two killers.
const CAPTURE: i32 = 1 << 24;
const CAPTURED_SEED: i32 = 1 << 16;
const KILLER: [i32; 2] = [1 << 20, (1 << 20) - 1];

/// Fills unused entries of a child list (a compile-time constant, so it cannot fail at run time).
pub const FILLER: Move = match Move::new(0) {
    Some(mv) => mv,
    None => panic!("pit 0 is a move"),
};

/// The children of one node, handed out best first: the hash move alone (often it refutes the
/// node, and the other moves are never played), then the other moves, all played at once and
/// ordered by capture, killers and history. Children are written into a buffer the caller
/// keeps for each ply (see [`Children`]), so nothing is initialised per node; the picker
/// hands out indices into it.
pub struct Picker {
    moves: [Move; 6],
    /// Indices into the children, in the order they are handed out.
    order: [u8; 6],
    len: usize,
    next: usize,
    generated: bool,
}

/// What a [`Picker`] needs to know about its node.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    /// The position.
    pub position: &'a Position,
    /// Its moves to search.
    pub moves: MoveSet,
    /// The hash move, already checked to be one of `moves`.
    pub hash_move: Option<Move>,
    /// The grand-slam rule in force.
    pub rule: GrandSlam,
    /// Plies from the root.
    pub ply: usize,
    /// Whether killers and history order the quiet moves.
    pub learned: bool,
    /// The table whose bucket to [`prefetch`](TableView::prefetch) for each child generated after
    /// the hash move's, when the children are deep enough to probe it.
    pub prefetch: Option<&'a TableView<'a>>,
}

/// Room for the children of one node: [`Picker`] plays them into it.
pub type Children = [Played; 6];

/// An empty [`Children`] buffer.
pub fn children() -> Children {
    let none = Played {
        position: Position::start(),
        captured: 0,
        last_pit: 0,
    };
    [none; 6]
}

impl Picker {
    /// A picker for the children of a node.
    #[inline]
    pub fn new() -> Picker {
        Picker {
            moves: [FILLER; 6],
            order: [0; 6],
            len: 0,
            next: 0,
            generated: false,
        }
    }

    /// The index of the next child of `node` in `children`, best first, or `None` when every
    /// move was handed out. `node` and `children` must be the same at every call.
    #[inline]
    pub fn next(
        &mut self,
        node: &Node,
        children: &mut Children,
        ordering: &Ordering,
    ) -> Option<usize> {
        if self.next == self.len && !self.generated {
            if self.next == 0 {
                if let Some(mv) = node.hash_move {
                    self.moves[0] = mv;
                    children[0] = node.position.play_unchecked(mv, node.rule);
                    self.order[0] = 0;
                    self.len = 1;
                    self.next = 1;
                    return Some(0);
                }
            }
            self.generated = true;
            self.generate(node, children, ordering);
        }
        if self.next == self.len {
            return None;
        }
        let at = usize::from(self.order[self.next]);
        self.next += 1;
        Some(at)
    }

    /// The move behind an index [`Picker::next`] gave.
    #[inline]
    pub fn mv(&self, index: usize) -> Move {
        self.moves[index]
    }

    /// Plays every move but the hash move and orders them after what was handed out.
    #[inline]
    fn generate(&mut self, node: &Node, children: &mut Children, ordering: &Ordering) {
        let Node {
            position,
            moves,
            hash_move,
            rule,
            ply,
            learned,
            prefetch,
        } = *node;
        let mut keys = [0i32; 6];
        let first = self.len;
        for mv in moves {
            if Some(mv) == hash_move {
                continue;
            }
            let index = self.len;
            children[index] = position.play_unchecked(mv, rule);
            if let Some(table) = prefetch {
                table.prefetch(children[index].position.key());
            }
            let captured = children[index].captured;
            let key = if captured > 0 {
                CAPTURE + CAPTURED_SEED * i32::from(captured)
            } else if !learned {
                0
            } else if Some(mv) == ordering.killers[ply][0] {
                KILLER[0]
            } else if Some(mv) == ordering.killers[ply][1] {
                KILLER[1]
            } else {
                let (pit, seeds) = history_slot(position, mv);
                ordering.history[pit][seeds]
            };
            // Insertion sort of indices (stable: equal keys keep pit order).
            let mut at = index;
            while at > first && keys[at - 1] < key {
                keys[at] = keys[at - 1];
                self.order[at] = self.order[at - 1];
                at -= 1;
            }
            keys[at] = key;
            self.order[at] = index as u8;
            self.moves[index] = mv;
            self.len += 1;
        }
    }
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
