//! The two players and the pits they own.

use std::fmt;

/// A player: South moves first and owns pits `A`–`F`; North owns `a`–`f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player, owner of pits `A`–`F` (indices 0–5).
    South = 0,
    /// The second player, owner of pits `a`–`f` (indices 6–11).
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// 0 for South, 1 for North: the index of this side's store.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// Index of this side's first pit (`A` = 0 or `a` = 6).
    #[inline]
    pub const fn first_pit(self) -> usize {
        self as usize * 6
    }

    /// The pit indices this side owns, in sowing order.
    #[inline]
    pub fn pits(self) -> std::ops::Range<usize> {
        self.first_pit()..self.first_pit() + 6
    }

    /// Whether pit `pit` (0–11) belongs to this side.
    #[inline]
    pub const fn owns(self, pit: usize) -> bool {
        pit / 6 == self as usize
    }

    /// The diagram letter: `S` or `N`.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}
