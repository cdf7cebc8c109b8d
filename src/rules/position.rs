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
///
/// The pits and stores live in one `u128`, a byte each: byte `p` (0–11) is pit `p`, byte 12 South's
/// store, byte 13 North's. Sowing is then one wrapping addition of a precomputed lane
/// pattern (see [`SOW`]), and a side's six pits are one 48-bit word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    cells: u128,
    key: u64,
    side: Side,
}

/// Bytes of a 48-bit side word, each `0x01`.
const LANES: u64 = 0x0101_0101_0101;
/// Bytes of a 48-bit side word, each `0x80`.
const HIGH_BITS: u64 = 0x8080_8080_8080;
/// Gathers the low bit of each byte of a side word (bits 0, 8, …, 40) into bits 35–40.
const GATHER: u64 = 1 | 1 << 7 | 1 << 14 | 1 << 21 | 1 << 28 | 1 << 35;
/// Byte `i` is `0x80 - (6 - i)`: adding it sets a byte's high bit when pit `i` holds enough
/// seeds (at least `6 - i`) to reach the opponent.
const FEEDS: u64 = 0x7f7e_7d7c_7b7a;

/// `SOW[pit][n]`: how the cells change when `n` seeds are sown from `pit` (one byte a pit, as a
/// wrapping sum): `pit` loses its `n` seeds, and every full lap drops one seed in each of the 11
/// other pits, then `n % 11` more follow.
static SOW: [[u128; 49]; 12] = {
    let mut table = [[0u128; 49]; 12];
    let mut pit = 0;
    while pit < 12 {
        let mut n = 0;
        while n < 49 {
            let (laps, rest) = (n / 11, n % 11);
            let mut gains = 0u128;
            let mut k = 1;
            while k < 12 {
                let gain = laps + if k <= rest { 1 } else { 0 };
                gains |= (gain as u128) << (8 * ((pit + k) % 12));
                k += 1;
            }
            table[pit][n] = gains.wrapping_sub((n as u128) << (8 * pit));
            n += 1;
        }
        pit += 1;
    }
    table
};

/// `SOW_KEY[pit][n]`: how the hash key changes when `n` seeds are sown from `pit`.
static SOW_KEY: [[u64; 49]; 12] = {
    let mut table = [[0u64; 49]; 12];
    let mut pit = 0;
    while pit < 12 {
        let mut n = 0;
        while n < 49 {
            let (laps, rest) = ((n / 11) as u64, n % 11);
            let lapped = laps.wrapping_mul(hash::ALL_PITS.wrapping_sub(hash::PIT[pit]));
            table[pit][n] = lapped
                .wrapping_add(hash::RUN[pit][rest])
                .wrapping_sub((n as u64).wrapping_mul(hash::PIT[pit]));
            n += 1;
        }
        pit += 1;
    }
    table
};

/// `LAST[pit][n]`: the pit the last of `n` seeds sown from `pit` falls into.
static LAST: [[u8; 49]; 12] = {
    let mut table = [[0u8; 49]; 12];
    let mut pit = 0;
    while pit < 12 {
        let mut n = 0;
        while n < 49 {
            let rest = n % 11;
            table[pit][n] = ((pit + if rest > 0 { rest } else { 11 }) % 12) as u8;
            n += 1;
        }
        pit += 1;
    }
    table
};

/// One bit per non-zero byte of a side word, in bits 0–5.
#[inline]
const fn nonzero_bytes(word: u64) -> u16 {
    gather((word + 0x7f7f_7f7f_7f7f) & HIGH_BITS)
}

/// Packs the high bits of a side word's bytes into bits 0–5.
#[inline]
const fn gather(high_bits: u64) -> u16 {
    (((high_bits >> 7).wrapping_mul(GATHER) >> 35) & 0x3f) as u16
}

/// The sum of a side word's six bytes.
#[inline]
const fn byte_sum(word: u64) -> u8 {
    (word.wrapping_mul(LANES) >> 40) as u8
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
        let mut bytes = [0u8; 16];
        let mut pit = 0;
        while pit < 12 {
            bytes[pit] = pits[pit];
            pit += 1;
        }
        bytes[12] = stores[0];
        bytes[13] = stores[1];
        let mut position = Position {
            cells: u128::from_le_bytes(bytes),
            key: 0,
            side,
        };
        position.key = position.computed_key();
        position
    }

    /// The seeds in each pit, `A`–`F` then `a`–`f`.
    #[inline]
    pub const fn pits(&self) -> [u8; 12] {
        let bytes = self.cells.to_le_bytes();
        let mut pits = [0u8; 12];
        let mut pit = 0;
        while pit < 12 {
            pits[pit] = bytes[pit];
            pit += 1;
        }
        pits
    }

    /// The seeds in pit `pit` (0–11).
    #[inline]
    pub const fn seeds(&self, pit: usize) -> u8 {
        self.cells.to_le_bytes()[pit]
    }

    /// The seeds in `side`'s store.
    #[inline]
    pub const fn store(&self, side: Side) -> u8 {
        (self.cells >> (96 + 8 * side.index())) as u8
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// `side`'s six pits as a 48-bit word, a byte a pit in sowing order (for bit-parallel
    /// counting, as the evaluation does).
    #[inline]
    pub const fn side_word(&self, side: Side) -> u64 {
        (self.cells >> (48 * side.index())) as u64 & 0xffff_ffff_ffff
    }

    /// The seeds on `side`'s six pits.
    #[inline]
    pub const fn seeds_on_side(&self, side: Side) -> u8 {
        byte_sum(self.side_word(side))
    }

    /// The seeds still on the board.
    #[inline]
    pub const fn seeds_on_board(&self) -> u8 {
        TOTAL_SEEDS - self.store(Side::South) - self.store(Side::North)
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
            key = key.wrapping_add((self.seeds(pit) as u64).wrapping_mul(hash::PIT[pit]));
            pit += 1;
        }
        key = key.wrapping_add((self.store(Side::South) as u64).wrapping_mul(hash::STORE[0]));
        key = key.wrapping_add((self.store(Side::North) as u64).wrapping_mul(hash::STORE[1]));
        if let Side::North = self.side {
            key = key.wrapping_add(hash::SIDE);
        }
        key
    }

    /// Whether the stores alone end the game: one holds more than 24, or both hold 24.
    #[inline]
    pub const fn decided_by_stores(&self) -> bool {
        let (south, north) = (self.store(Side::South), self.store(Side::North));
        south > HALF_SEEDS || north > HALF_SEEDS || (south == HALF_SEEDS && north == HALF_SEEDS)
    }

    /// The legal moves under `rule`. Empty when the game is over (a store above 24, 24–24, or
    /// no move possible); the repetition rule needs the history, see [`Game`](super::Game).
    #[inline]
    pub fn legal_moves(&self, rule: GrandSlam) -> MoveSet {
        if self.decided_by_stores() {
            return MoveSet::EMPTY;
        }
        let own = self.side_word(self.side);
        let shift = self.side.first_pit();
        let mut moves = if self.side_word(self.side.opponent()) == 0 {
            // Feeding: only moves whose seeds reach the opponent.
            MoveSet::from_bits(gather((own + FEEDS) & HIGH_BITS) << shift)
        } else {
            MoveSet::from_bits(nonzero_bytes(own) << shift)
        };
        // A feeding move can be a grand slam too: 17 to 22 seeds lap and leave 2s behind.
        if rule == GrandSlam::Forbidden {
            for mv in moves {
                if self.is_grand_slam(mv) {
                    moves = moves.without(mv);
                }
            }
        }
        moves
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
        } else if self.seeds(mv.pit()) == 0 {
            IllegalMove::EmptyPit(mv)
        } else if rule == GrandSlam::Forbidden && self.is_grand_slam(mv) {
            IllegalMove::ForbiddenGrandSlam(mv)
        } else {
            IllegalMove::DoesNotFeed(mv)
        }
    }

    /// Plays `mv`, which must be legal under `rule` (the fast path for search and perft).
    #[inline(always)]
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
        let seeds = usize::from(self.seeds(pit));
        let cells = self.cells.wrapping_add(SOW[pit][seeds]);
        let key = self.key.wrapping_add(SOW_KEY[pit][seeds]);
        (
            Position {
                cells,
                key,
                side: self.side,
            },
            usize::from(LAST[pit][seeds]),
        )
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
        let word = self.side_word(opponent);
        // High bits of the opponent's pits holding 2 or 3 seeds (pits hold at most 48, so no
        // byte carries into the next).
        let takable = (word + 0x7e7e_7e7e_7e7e) & !(word + 0x7c7c_7c7c_7c7c) & HIGH_BITS;
        // High bits of the pits up to `last` that stop the run; the run starts after the last.
        let end = last - side_start;
        let stops = !takable & HIGH_BITS & ((1u64 << (8 * end + 8)) - 1);
        let first_in_side = if stops == 0 {
            0
        } else {
            (63 - stops.leading_zeros() as usize) / 8 + 1
        };
        let first = side_start + first_in_side;
        if first > last {
            return (first, false);
        }
        // Bytes of the opponent's side word that the run covers.
        let run = ((1u64 << (8 * (last + 1 - first))) - 1) << (8 * first_in_side);
        (first, word & !run == 0)
    }

    /// Moves the seeds of pits `first..=last` to the store of the side to move.
    #[inline]
    fn capture(&mut self, first: usize, last: usize) -> u8 {
        let store = self.side.index();
        let mut captured = 0;
        for pit in first..=last {
            let seeds = self.seeds(pit);
            captured += seeds;
            self.key = self.key.wrapping_add(
                u64::from(seeds).wrapping_mul(hash::STORE[store].wrapping_sub(hash::PIT[pit])),
            );
        }
        let run = ((1u128 << (8 * (last + 1 - first))) - 1) << (8 * first);
        self.cells = (self.cells & !run) + (u128::from(captured) << (96 + 8 * store));
        captured
    }

    /// The position with every seed on the board moved to the store of the side it lies on: how
    /// the game ends when a player cannot move or a position repeats.
    #[must_use]
    pub fn with_own_seeds_stored(&self) -> Position {
        let south = self.store(Side::South) + self.seeds_on_side(Side::South);
        let north = self.store(Side::North) + self.seeds_on_side(Side::North);
        Position::from_parts_unchecked([0; 12], [south, north], self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side word from six byte values.
    fn word(bytes: [u8; 6]) -> u64 {
        bytes.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b))
    }

    #[test]
    fn side_word_bit_tricks_agree_with_plain_loops() {
        let mut state = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bytes: [u8; 6] = std::array::from_fn(|i| ((state >> (8 * i)) % 49) as u8);
            let w = word(bytes);
            let nonzero = (0..6)
                .filter(|&i| bytes[i] != 0)
                .fold(0u16, |m, i| m | 1 << i);
            let feeds = (0..6)
                .filter(|&i| usize::from(bytes[i]) + i >= 6)
                .fold(0u16, |m, i| m | 1 << i);
            assert_eq!(nonzero_bytes(w), nonzero, "{bytes:?}");
            assert_eq!(gather((w + FEEDS) & HIGH_BITS), feeds, "{bytes:?}");
            let sum: u32 = bytes.iter().map(|&b| u32::from(b)).sum();
            if sum <= 48 {
                assert_eq!(u32::from(byte_sum(w)), sum, "{bytes:?}");
            }
        }
    }

    #[test]
    fn the_sowing_tables_conserve_seeds() {
        for (pit, row) in SOW.iter().enumerate() {
            for (n, change) in row.iter().enumerate() {
                let before = (n as u128) << (8 * pit);
                let bytes = before.wrapping_add(*change).to_le_bytes();
                let sown: usize = bytes.iter().map(|&b| usize::from(b)).sum();
                assert_eq!(sown, n);
                assert_eq!(bytes[pit], 0, "the starting pit is emptied and skipped");
                assert!(bytes[12..].iter().all(|&b| b == 0), "only pits are sown");
            }
        }
    }
}
