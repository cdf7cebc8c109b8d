//! Test helpers shared by the integration tests.
#![allow(dead_code)]

pub mod inline;
pub mod process;
pub mod simple;

/// A small deterministic random number generator (xorshift64*), so tests need no seed files.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// The next number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Every placement of `seeds` seeds in the 12 pits, enumerated by plain recursion (independently
/// of the endgame tables' index).
pub fn boards(seeds: u8) -> Vec<[u8; 12]> {
    fn fill(pit: usize, left: u8, board: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
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
