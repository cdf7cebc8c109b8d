//! How and with what score a game ends.

use super::{GrandSlam, HALF_SEEDS, Position, Side};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A store holds more than 24 seeds.
    StoreAbove24,
    /// Both stores hold 24 seeds.
    Draw24,
    /// The player to move has no legal move (typically: cannot feed the opponent).
    NoLegalMove,
    /// A position occurred for the second time.
    Repetition,
}

impl EndReason {
    /// A short name used in protocol messages and game records.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::StoreAbove24 => "store above 24",
            EndReason::Draw24 => "24-24",
            EndReason::NoLegalMove => "no legal move",
            EndReason::Repetition => "repetition",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: its reason and the final store counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// South's final store.
    pub south: u8,
    /// North's final store.
    pub north: u8,
}

impl Outcome {
    /// The outcome of a game that ends in `position` by `reason`: after no legal move or a
    /// repetition each player adds the seeds on their side to their store.
    pub fn new(position: &Position, reason: EndReason) -> Outcome {
        let finished = match reason {
            EndReason::StoreAbove24 | EndReason::Draw24 => *position,
            EndReason::NoLegalMove | EndReason::Repetition => position.with_own_seeds_stored(),
        };
        Outcome {
            reason,
            south: finished.store(Side::South),
            north: finished.store(Side::North),
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.south.cmp(&self.north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Final seeds of `side` minus the opponent's.
    pub fn margin(&self, side: Side) -> i32 {
        let south = i32::from(self.south) - i32::from(self.north);
        match side {
            Side::South => south,
            Side::North => -south,
        }
    }
}

impl fmt::Display for Outcome {
    /// `<reason> <south>-<north>`, as in `no legal move 25-23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}-{}", self.reason, self.south, self.north)
    }
}

impl Position {
    /// The outcome if the game is over in this position, ignoring repetition (which needs the
    /// history; see [`Game`](super::Game)).
    pub fn outcome(&self, rule: GrandSlam) -> Option<Outcome> {
        let south = self.store(Side::South);
        let north = self.store(Side::North);
        let reason = if south > HALF_SEEDS || north > HALF_SEEDS {
            EndReason::StoreAbove24
        } else if south == HALF_SEEDS && north == HALF_SEEDS {
            EndReason::Draw24
        } else if self.legal_moves(rule).is_empty() {
            EndReason::NoLegalMove
        } else {
            return None;
        };
        Some(Outcome::new(self, reason))
    }
}
