//! Moves on bare boards: the rules core played from a board seen by the side to move, and the
//! reverse (the boards a non-capturing move could have come from).

use super::index::{Board, rotated};
use crate::rules::{GrandSlam, Move, Position, Side, TOTAL_SEEDS};

/// The position of `board` with South (the mover) to move and stores that neither end the game
/// nor come near it: the stores never enter a table value.
#[inline]
pub fn position_of(board: &Board) -> Option<Position> {
    let on_board: u8 = board.iter().sum();
    let off = TOTAL_SEEDS.checked_sub(on_board)?;
    Position::new(*board, [off / 2, off - off / 2], Side::South)
}

/// What one legal move from a board leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// The move played.
    pub mv: Move,
    /// Seeds it captured.
    pub captured: u8,
    /// The board after it, seen by the new side to move.
    pub board: Board,
}

/// Calls `f` with every legal move from `board` (mover to move) under `rule`; returns how many
/// there were. Zero means the game ends here and each side takes the seeds on its own side.
#[inline]
pub fn for_each_child(board: &Board, rule: GrandSlam, mut f: impl FnMut(Child)) -> usize {
    let Some(position) = position_of(board) else {
        return 0;
    };
    let moves = position.legal_moves(rule);
    for mv in moves {
        let played = position.play_unchecked(mv, rule);
        f(Child {
            mv,
            captured: played.captured,
            board: rotated(&played.position.pits()),
        });
    }
    moves.len()
}

/// The margin when the game ends on `board`: the mover's seeds minus the opponent's.
#[inline]
pub fn own_split(board: &Board) -> i8 {
    let own: u8 = board[..6].iter().sum();
    let theirs: u8 = board[6..].iter().sum();
    own as i8 - theirs as i8
}

/// Calls `f` with every board (mover to move) from which a legal move under `rule` that
/// captures nothing leads to `board` (seen by its own mover).
pub fn for_each_parent(board: &Board, rule: GrandSlam, mut f: impl FnMut(Board)) {
    // After the move, the player who moved owns pits 0–5 of `after`.
    let after = rotated(board);
    let seeds: u8 = after.iter().sum();
    for start in 0..6 {
        if after[start] != 0 {
            continue;
        }
        for sown in 1..=seeds {
            let Some(parent) = unsown(&after, start, sown) else {
                break;
            };
            if leads_quietly(&parent, start, rule, &after) {
                f(parent);
            }
        }
    }
}

/// The board before `sown` seeds were sown from `start` to give `after`, if no pit goes
/// negative. Once one does, it does for every larger `sown` too.
#[inline]
fn unsown(after: &Board, start: usize, sown: u8) -> Option<Board> {
    let laps = sown / 11;
    let rest = usize::from(sown % 11);
    let mut parent = *after;
    for (pit, slot) in parent.iter_mut().enumerate() {
        if pit == start {
            continue;
        }
        let reached = (pit + 12 - start) % 12 <= rest;
        *slot = slot.checked_sub(laps + u8::from(reached))?;
    }
    parent[start] = sown;
    Some(parent)
}

/// Whether playing `start` from `parent` is legal, captures nothing and gives `after`.
#[inline]
fn leads_quietly(parent: &Board, start: usize, rule: GrandSlam, after: &Board) -> bool {
    let Some(position) = position_of(parent) else {
        return false;
    };
    let Some(mv) = Move::new(start) else {
        return false;
    };
    if !position.legal_moves(rule).contains(mv) {
        return false;
    }
    let played = position.play_unchecked(mv, rule);
    played.captured == 0 && played.position.pits() == *after
}

#[cfg(test)]
mod tests {
    use super::super::index::{board_at, board_count, index};
    use super::*;

    #[test]
    fn parents_are_exactly_the_boards_with_a_quiet_move_here() {
        for rule in GrandSlam::ALL {
            // 12 seeds give laps past the starting pit; one rule is enough for those.
            let lapping = if rule == GrandSlam::NoCapture { 12 } else { 11 };
            for seeds in [3u8, 5, lapping] {
                let step = (board_count(seeds) / 5_000).max(1) as usize;
                let mut from_children = vec![Vec::new(); board_count(seeds) as usize];
                for i in 0..board_count(seeds) as u32 {
                    let parent = board_at(i, seeds);
                    for_each_child(&parent, rule, |c| {
                        if c.captured == 0 {
                            from_children[index(&c.board) as usize].push(i);
                        }
                    });
                }
                for i in (0..board_count(seeds) as u32).step_by(step) {
                    let mut parents = Vec::new();
                    for_each_parent(&board_at(i, seeds), rule, |p| parents.push(index(&p)));
                    parents.sort_unstable();
                    let mut expected = from_children[i as usize].clone();
                    expected.sort_unstable();
                    assert_eq!(parents, expected, "{rule} board {:?}", board_at(i, seeds));
                }
            }
        }
    }
}
