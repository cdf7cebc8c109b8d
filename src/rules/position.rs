//! The position: seeds in the twelve pits, the two stores and the side to move; legal moves,
//! sowing and capture.
//!
//! ```text
//!   pit index:   11 10  9  8  7  6        North's row, sown right to left
//!   letter:       f  e  d  c  b  a
//!                 A  B  C  D  E  F
//!   pit index:    0  1  2  3  4  5        South's row, sown left to right
//! ```
//! Sowing runs through the indices in increasing order, wrapping from 11 back to 0.

use super::{GrandSlam, Move, MoveSet, Side, hash};

/// Every seed in the game.
pub const TOTAL_SEEDS: u8 = 48;
/// A store holding more than this wins the game.
pub const HALF_SEEDS: u8 = 24;

/// A position: a small `Copy` value. Build one with [`Position::start`], [`Position::new`] or by
/// parsing a diagram; it keeps a hash key up to date as moves are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pits: [u8; 12],
    stores: [u8; 2],
    side: Side,
    key: u64,
}

/// The seeds a move sowed and captured, beside the position it led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The position after the move.
    pub position: Position,
    /// Seeds captured by the move (0 when it captured nothing).
    pub captured: u8,
    /// The pit the last seed fell into.
    pub last_pit: usize,
}

/// Why a requested move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The pit belongs to the player who is not to move.
    WrongSide {
        /// The move asked for.
        mv: Move,
        /// The side to move.
        to_move: Side,
    },
    /// The pit is empty.
    EmptyPit(Move),
    /// The opponent has no seeds and this move gives them none.
    DoesNotFeed(Move),
    /// The move would capture every seed of the opponent, and the grand slam is forbidden.
    ForbiddenGrandSlam(Move),
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over"),
            IllegalMove::WrongSide { mv, to_move } => {
                write!(
                    f,
                    "move {mv} is a pit of {}, but {to_move} is to move",
                    mv.side()
                )
            }
            IllegalMove::EmptyPit(mv) => write!(f, "move {mv} starts from an empty pit"),
            IllegalMove::DoesNotFeed(mv) => {
                write!(
                    f,
                    "move {mv} leaves the opponent without seeds, who must be fed"
                )
            }
            IllegalMove::ForbiddenGrandSlam(mv) => {
                write!(
                    f,
                    "move {mv} is a grand slam, which is forbidden by the rule in force"
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The start: four seeds in every pit, empty stores, South to move.
    pub const fn start() -> Position {
        Position::from_parts_unchecked([4; 12], [0, 0], Side::South)
    }

    /// A position from its parts, or `None` unless the pits and stores hold 48 seeds in all.
    pub fn new(pits: [u8; 12], stores: [u8; 2], side: Side) -> Option<Position> {
        let total: u32 = pits.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        (total == u32::from(TOTAL_SEEDS))
            .then(|| Position::from_parts_unchecked(pits, stores, side))
    }

    const fn from_parts_unchecked(pits: [u8; 12], stores: [u8; 2], side: Side) -> Position {
        let mut position = Position {
            pits,
            stores,
            side,
            key: 0,
        };
        position.key = position.computed_key();
        position
    }

    /// The seeds in each pit, `A`–`F` then `a`–`f`.
    #[inline]
    pub const fn pits(&self) -> [u8; 12] {
        self.pits
    }

    /// The seeds in pit `pit` (0–11).
    #[inline]
    pub const fn seeds(&self, pit: usize) -> u8 {
        self.pits[pit]
    }

    /// The seeds in `side`'s store.
    #[inline]
    pub const fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// The seeds on `side`'s six pits.
    #[inline]
    pub fn seeds_on_side(&self, side: Side) -> u8 {
        self.pits[side.pits()].iter().sum()
    }

    /// The seeds still on the board.
    #[inline]
    pub fn seeds_on_board(&self) -> u8 {
        TOTAL_SEEDS - self.stores[0] - self.stores[1]
    }

    /// The incrementally kept hash key (see [`hash`](super::hash)).
    #[inline]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch; always equal to [`Position::key`].
    pub const fn computed_key(&self) -> u64 {
        let mut key = 0u64;
        let mut pit = 0;
        while pit < 12 {
            key = key.wrapping_add((self.pits[pit] as u64).wrapping_mul(hash::PIT[pit]));
            pit += 1;
        }
        key = key.wrapping_add((self.stores[0] as u64).wrapping_mul(hash::STORE[0]));
        key = key.wrapping_add((self.stores[1] as u64).wrapping_mul(hash::STORE[1]));
        if let Side::North = self.side {
            key = key.wrapping_add(hash::SIDE);
        }
        key
    }

    /// Whether the stores alone end the game: one holds more than 24, or both hold 24.
    #[inline]
    pub const fn decided_by_stores(&self) -> bool {
        self.stores[0] > HALF_SEEDS
            || self.stores[1] > HALF_SEEDS
            || (self.stores[0] == HALF_SEEDS && self.stores[1] == HALF_SEEDS)
    }

    /// The side to move's non-empty pits, ignoring feeding, grand slams and the end of the game.
    #[inline]
    fn nonempty_own_pits(&self) -> u16 {
        let first = self.side.first_pit();
        let mut bits = 0u16;
        for i in 0..6 {
            bits |= u16::from(self.pits[first + i] != 0) << (first + i);
        }
        bits
    }

    /// The legal moves under `rule`. Empty when the game is over (a store above 24, 24–24, or
    /// no move possible); the repetition rule needs the history, see [`Game`](super::Game).
    #[inline]
    pub fn legal_moves(&self, rule: GrandSlam) -> MoveSet {
        if self.decided_by_stores() {
            return MoveSet::EMPTY;
        }
        let mut bits = self.nonempty_own_pits();
        let first = self.side.first_pit();
        if self.seeds_on_side(self.side.opponent()) == 0 {
            // Feeding: only moves whose seeds reach the opponent (pit i needs more than 5 - i).
            for i in 0..6 {
                if usize::from(self.pits[first + i]) + i < 6 {
                    bits &= !(1 << (first + i));
                }
            }
        } else if rule == GrandSlam::Forbidden {
            for mv in MoveSet::from_bits(bits) {
                if self.is_grand_slam(mv) {
                    bits &= !(1 << mv.pit());
                }
            }
        }
        MoveSet::from_bits(bits)
    }

    /// Whether `mv` (a non-empty pit of the side to move) would capture every seed on the
    /// opponent's side.
    pub fn is_grand_slam(&self, mv: Move) -> bool {
        let (sown, last) = self.sow(mv.pit());
        sown.capture_run(last).1
    }

    /// Checks `mv` and plays it.
    pub fn try_play(&self, mv: Move, rule: GrandSlam) -> Result<Played, IllegalMove> {
        if self.legal_moves(rule).contains(mv) {
            return Ok(self.play_unchecked(mv, rule));
        }
        Err(self.why_illegal(mv, rule))
    }

    /// Why `mv` is not among the legal moves.
    fn why_illegal(&self, mv: Move, rule: GrandSlam) -> IllegalMove {
        if self.legal_moves(rule).is_empty() {
            IllegalMove::GameOver
        } else if mv.side() != self.side {
            IllegalMove::WrongSide {
                mv,
                to_move: self.side,
            }
        } else if self.pits[mv.pit()] == 0 {
            IllegalMove::EmptyPit(mv)
        } else if self.seeds_on_side(self.side.opponent()) == 0 {
            IllegalMove::DoesNotFeed(mv)
        } else {
            IllegalMove::ForbiddenGrandSlam(mv)
        }
    }

    /// Plays `mv`, which must be legal under `rule` (the fast path for search and perft).
    #[inline]
    pub fn play_unchecked(&self, mv: Move, rule: GrandSlam) -> Played {
        let (mut next, last) = self.sow(mv.pit());
        let (first_captured, whole_side) = next.capture_run(last);
        let mut captured = 0;
        if first_captured <= last && !(whole_side && rule == GrandSlam::NoCapture) {
            captured = next.capture(first_captured, last);
        }
        next.side = self.side.opponent();
        next.key = match next.side {
            Side::North => next.key.wrapping_add(hash::SIDE),
            Side::South => next.key.wrapping_sub(hash::SIDE),
        };
        Played {
            position: next,
            captured,
            last_pit: last,
        }
    }

    /// Sows the seeds of `pit`, skipping the pit itself on laps; the side to move is unchanged.
    /// Returns the new position and the pit the last seed fell into.
    #[inline]
    fn sow(&self, pit: usize) -> (Position, usize) {
        let mut next = *self;
        let seeds = next.pits[pit];
        next.pits[pit] = 0;
        // Every full lap drops one seed in each of the 11 other pits, then `rest` more follow.
        let laps = seeds / 11;
        let rest = usize::from(seeds % 11);
        if laps > 0 {
            for s in &mut next.pits {
                *s += laps;
            }
            next.pits[pit] -= laps;
        }
        for k in 1..=rest {
            next.pits[(pit + k) % 12] += 1;
        }
        let lapped = u64::from(laps).wrapping_mul(hash::ALL_PITS.wrapping_sub(hash::PIT[pit]));
        next.key = next
            .key
            .wrapping_sub(u64::from(seeds).wrapping_mul(hash::PIT[pit]))
            .wrapping_add(lapped)
            .wrapping_add(hash::RUN[pit][rest]);
        let last = if rest > 0 {
            (pit + rest) % 12
        } else {
            (pit + 11) % 12
        };
        (next, last)
    }

    /// The capturing run that ends at `last` after a sowing by the side to move: returns the
    /// first pit of the run (greater than `last` when nothing is captured) and whether the run
    /// would take every seed on the opponent's side.
    #[inline]
    fn capture_run(&self, last: usize) -> (usize, bool) {
        let opponent = self.side.opponent();
        if !opponent.owns(last) {
            return (last + 1, false);
        }
        let side_start = opponent.first_pit();
        let mut first = last + 1;
        while first > side_start && matches!(self.pits[first - 1], 2 | 3) {
            first -= 1;
        }
        if first > last {
            return (first, false);
        }
        let untouched = self.pits[side_start..first]
            .iter()
            .chain(&self.pits[last + 1..side_start + 6])
            .all(|&s| s == 0);
        (first, untouched)
    }

    /// Moves the seeds of pits `first..=last` to the store of the side to move.
    #[inline]
    fn capture(&mut self, first: usize, last: usize) -> u8 {
        let store = self.side.index();
        let mut captured = 0;
        for pit in first..=last {
            let seeds = self.pits[pit];
            captured += seeds;
            self.pits[pit] = 0;
            self.key = self.key.wrapping_add(
                u64::from(seeds).wrapping_mul(hash::STORE[store].wrapping_sub(hash::PIT[pit])),
            );
        }
        self.stores[store] += captured;
        captured
    }

    /// The position with every seed on the board moved to the store of the side it lies on: how
    /// the game ends when a player cannot move or a position repeats.
    #[must_use]
    pub fn with_own_seeds_stored(&self) -> Position {
        let south = self.stores[0] + self.seeds_on_side(Side::South);
        let north = self.stores[1] + self.seeds_on_side(Side::North);
        Position::from_parts_unchecked([0; 12], [south, north], self.side)
    }
}
