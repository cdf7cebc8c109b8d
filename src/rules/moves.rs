//! Moves (the pit a sowing starts from) and sets of them.

use super::Side;
use std::fmt;

/// A move: the pit whose seeds are sown, 0–11 for `A`–`F` then `a`–`f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move starting from pit `pit`, or `None` when `pit` is not 0–11.
    pub const fn new(pit: usize) -> Option<Move> {
        if pit < 12 {
            Some(Move(pit as u8))
        } else {
            None
        }
    }

    /// The pit index, 0–11.
    #[inline]
    pub const fn pit(self) -> usize {
        self.0 as usize
    }

    /// The side whose pit this is, and so the only side that may play it.
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 < 6 { Side::South } else { Side::North }
    }

    /// The move's letter: `A`–`F` for South, `a`–`f` for North.
    pub const fn letter(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }

    /// The move named by a letter `A`–`F` or `a`–`f`.
    pub const fn from_letter(letter: char) -> Option<Move> {
        match letter {
            'A'..='F' => Some(Move(letter as u8 - b'A')),
            'a'..='f' => Some(Move(letter as u8 - b'a' + 6)),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of moves, one bit per pit; iterates in pit order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveSet(u16);

impl MoveSet {
    /// The empty set.
    pub const EMPTY: MoveSet = MoveSet(0);

    /// The set with one bit per pit in `bits` (bit i = pit i; bits above 11 are dropped).
    #[inline]
    pub const fn from_bits(bits: u16) -> MoveSet {
        MoveSet(bits & 0x0fff)
    }

    /// One bit per pit.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// How many moves the set holds.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no move.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `mv` is in the set.
    #[inline]
    pub const fn contains(self, mv: Move) -> bool {
        self.0 & (1 << mv.0) != 0
    }

    /// The set with `mv` added.
    #[inline]
    #[must_use]
    pub const fn with(self, mv: Move) -> MoveSet {
        MoveSet(self.0 | (1 << mv.0))
    }

    /// The set with `mv` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, mv: Move) -> MoveSet {
        MoveSet(self.0 & !(1 << mv.0))
    }
}

impl Iterator for MoveSet {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let pit = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Move(pit))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.count_ones() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for MoveSet {}

impl fmt::Display for MoveSet {
    /// The moves' letters, concatenated in pit order (`ABCF`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in *self {
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}
