//! Krou's opening book: positions from the start with a searched score for every legal move,
//! and the choice of a book move at random among those close to the best.
//!
//! - [`file`]: the book's file format (the shipped book is compiled in: [`shipped`]).
//! - [`build`]: makes a book by drop-out expansion from the start position.
//! - [`cli`]: `krou book build` and `krou book probe`.

pub mod build;
pub mod cli;
pub mod file;

pub use file::{Book, Entry};

use crate::rules::{Move, Position};
use std::sync::LazyLock;

/// The book Krou ships, made by `scripts/build-book`.
static SHIPPED_BYTES: &[u8] = include_bytes!("krou.book");

/// The shipped book, read once; empty if its file were damaged (a test checks it is not).
pub fn shipped() -> &'static Book {
    static SHIPPED: LazyLock<Book> =
        LazyLock::new(|| Book::from_bytes(SHIPPED_BYTES).unwrap_or_default());
    &SHIPPED
}

/// A small pseudo-random sequence (SplitMix64) for choosing among book moves, seeded so that a
/// run can be repeated.
#[derive(Clone, Debug)]
pub struct Chooser(u64);

impl Chooser {
    /// A sequence from `seed`.
    pub fn new(seed: u64) -> Chooser {
        Chooser(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// One of the book's moves for `position` whose score is within `variety` (100 = a seed)
    /// of the best, each as likely; with it the best score. `None` when the position is not in
    /// the book.
    pub fn choose(
        &mut self,
        book: &Book,
        position: &Position,
        variety: i32,
    ) -> Option<(Move, i32)> {
        let candidates = book.candidates(position, variety);
        if candidates.is_empty() {
            return None;
        }
        let pick = (self.next() % candidates.len() as u64) as usize;
        Some(candidates[pick])
    }
}
