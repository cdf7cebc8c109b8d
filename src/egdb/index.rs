//! A dense, bijective index of the boards with `n` seeds in the 12 pits.
//!
//! A board is indexed from the point of view of the side to move: pits 0–5 are the mover's,
//! 6–11 the opponent's (see [`normalised`]). Boards with `n` seeds are ranked in lexicographic
//! order of their pit counts, pit 0 most significant, so the index runs over
//! `0..C(n + 11, 11)` with no gaps.

use crate::rules::{Position, Side};

/// The most seeds a table may hold (the codes hold exact values up to ±30): 30 seeds is
/// 3,159,461,968 boards (C(41, 11)), whose index fits a `u32`; 26 seeds is 854,992,152 boards
/// and the tables for 0 to 26 seeds hold 2,707,475,148 in all.
pub const MAX_SEEDS: u8 = 30;

/// A board seen from the side to move: pits 0–5 belong to the mover.
pub type Board = [u8; 12];

const SEED_SLOTS: usize = MAX_SEEDS as usize + 1;

/// `BELOW[i][r][x]`: how many boards rank before one whose pit `i` holds `x` seeds, when `r`
/// seeds are left for pits `i..12` and the pits before `i` are equal.
static BELOW: [[[u32; SEED_SLOTS + 1]; SEED_SLOTS]; 11] = below_table();

/// Ways to put `seeds` seeds into `pits` pits: C(seeds + pits - 1, pits - 1).
const fn placements(pits: usize, seeds: usize) -> u64 {
    if pits == 0 {
        return if seeds == 0 { 1 } else { 0 };
    }
    // C(seeds + pits - 1, pits - 1), computed exactly step by step.
    let mut result = 1u64;
    let mut k = 1;
    while k < pits {
        result = result * (seeds + k) as u64 / k as u64;
        k += 1;
    }
    result
}

const fn below_table() -> [[[u32; SEED_SLOTS + 1]; SEED_SLOTS]; 11] {
    let mut table = [[[0u32; SEED_SLOTS + 1]; SEED_SLOTS]; 11];
    let mut pit = 0;
    while pit < 11 {
        let mut left = 0;
        while left < SEED_SLOTS {
            let mut x = 0;
            let mut sum = 0u64;
            while x <= left {
                table[pit][left][x] = sum as u32;
                sum += placements(11 - pit, left - x);
                x += 1;
            }
            table[pit][left][left + 1] = sum as u32;
            left += 1;
        }
        pit += 1;
    }
    table
}

/// How many boards hold `seeds` seeds: C(seeds + 11, 11).
pub const fn board_count(seeds: u8) -> u64 {
    placements(12, seeds as usize)
}

/// The index of `board` among the boards with the same number of seeds (at most
/// [`MAX_SEEDS`]; more is a caller bug and gives a wrong index).
#[inline]
pub fn index(board: &Board) -> u32 {
    let mut left: usize = board.iter().map(|&s| usize::from(s)).sum();
    let mut rank = 0u32;
    for (pit, &seeds) in board.iter().take(11).enumerate() {
        let seeds = usize::from(seeds);
        rank += BELOW[pit][left][seeds];
        left -= seeds;
    }
    rank
}

/// The board with `seeds` seeds at `index` (which must be below [`board_count`]).
pub fn board_at(index: u32, seeds: u8) -> Board {
    let mut board = [0u8; 12];
    let mut left = usize::from(seeds);
    let mut rest = index;
    for (pit, slot) in board.iter_mut().take(11).enumerate() {
        let row = &BELOW[pit][left];
        let mut x = 0;
        while x < left && row[x + 1] <= rest {
            x += 1;
        }
        rest -= row[x];
        *slot = x as u8;
        left -= x;
    }
    board[11] = left as u8;
    board
}

/// The board with the rows swapped: what the other side sees.
#[inline]
pub fn rotated(board: &Board) -> Board {
    let mut out = [0u8; 12];
    out[..6].copy_from_slice(&board[6..]);
    out[6..].copy_from_slice(&board[..6]);
    out
}

/// The position's board seen from the side to move.
pub fn normalised(position: &Position) -> Board {
    match position.side_to_move() {
        Side::South => position.pits(),
        Side::North => rotated(&position.pits()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_counts_are_binomials() {
        assert_eq!(board_count(0), 1);
        assert_eq!(board_count(1), 12);
        assert_eq!(board_count(2), 78);
        assert_eq!(board_count(12), 1_352_078);
        assert_eq!(board_count(24), 417_225_900);
        let up_to_24: u64 = (0..=24).map(board_count).sum();
        assert_eq!(up_to_24, 1_251_677_700);
        let up_to_20: u64 = (0..=20).map(board_count).sum();
        assert_eq!(up_to_20, 225_792_840);
        let up_to_26: u64 = (0..=26).map(board_count).sum();
        assert_eq!(up_to_26, 2_707_475_148);
        assert_eq!(board_count(MAX_SEEDS), 3_159_461_968);
    }

    /// Every board of n seeds, enumerated independently of the index.
    fn all_boards(seeds: u8) -> Vec<Board> {
        fn fill(pit: usize, left: u8, board: &mut Board, out: &mut Vec<Board>) {
            if pit == 11 {
                board[11] = left;
                out.push(*board);
                return;
            }
            for x in 0..=left {
                board[pit] = x;
                fill(pit + 1, left - x, board, out);
            }
        }
        let mut out = Vec::new();
        fill(0, seeds, &mut [0; 12], &mut out);
        out
    }

    #[test]
    fn index_is_a_bijection_for_small_seed_counts() {
        for seeds in 0..=7 {
            let boards = all_boards(seeds);
            assert_eq!(boards.len() as u64, board_count(seeds));
            let mut seen = vec![false; boards.len()];
            for board in &boards {
                let i = index(board) as usize;
                assert!(i < boards.len(), "index {i} out of range for {board:?}");
                assert!(!seen[i], "index {i} given twice");
                seen[i] = true;
                assert_eq!(board_at(i as u32, seeds), *board);
            }
        }
    }

    #[test]
    fn index_round_trips_at_the_largest_seed_count() {
        let count = board_count(MAX_SEEDS);
        for i in (0..count).step_by(9_999_991).chain([count - 1]) {
            let board = board_at(i as u32, MAX_SEEDS);
            assert_eq!(
                board.iter().map(|&s| u32::from(s)).sum::<u32>(),
                u32::from(MAX_SEEDS)
            );
            assert_eq!(u64::from(index(&board)), i);
        }
    }

    #[test]
    fn rotation_swaps_the_rows_and_undoes_itself() {
        let board = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        assert_eq!(rotated(&board)[0], 7);
        assert_eq!(rotated(&rotated(&board)), board);
    }
}
