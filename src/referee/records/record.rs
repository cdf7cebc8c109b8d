//! What happened in one game: players, opening, moves with captures and comments, result and
//! reason.

use crate::referee::engines::fault::Fault;
use crate::referee::engines::info::Thinking;
use crate::referee::play::openings::Opening;
use crate::referee::play::tc::TimeControl;
use crate::rules::{EndReason, Move, Side};
use std::fmt;
use std::time::Duration;

/// One move of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Seeds it captured.
    pub captured: u8,
    /// What the engine reported before playing it (empty for opening moves and built-ins).
    pub thinking: Thinking,
    /// The time the referee measured from `go` to `bestmove` (`None` for opening moves and
    /// built-in players).
    pub used: Option<Duration>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// By the rules (store above 24, 24-24, no legal move, repetition).
    Rules(EndReason),
    /// The maximum game length was reached; each side's seeds were added to its store.
    MaxLength,
    /// `side` lost by a fault.
    Fault {
        /// Who committed it.
        side: Side,
        /// What it was.
        fault: Fault,
    },
    /// The match stopped before the game ended.
    Aborted,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Rules(reason) => write!(f, "{reason}"),
            Reason::MaxLength => f.write_str("maximum length"),
            Reason::Fault { side, fault } => write!(f, "{side} {fault}"),
            Reason::Aborted => f.write_str("aborted"),
        }
    }
}

impl Reason {
    /// A short name for counting reasons: `repetition`, `time forfeit`, `crash`, …
    pub fn name(&self) -> &'static str {
        match self {
            Reason::Rules(reason) => reason.name(),
            Reason::MaxLength => "maximum length",
            Reason::Fault { fault, .. } => fault.name(),
            Reason::Aborted => "aborted",
        }
    }
}

/// The outcome of a game, as far as there is one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Ended with these final stores (rules or maximum length).
    Score {
        /// South's store.
        south: u8,
        /// North's store.
        north: u8,
    },
    /// `loser` lost by a fault.
    Forfeit {
        /// Who lost.
        loser: Side,
    },
    /// Not finished.
    Unfinished,
}

impl Verdict {
    /// `Some(Some(side))` for a win, `Some(None)` for a draw, `None` when unfinished.
    pub fn winner(self) -> Option<Option<Side>> {
        match self {
            Verdict::Score { south, north } => Some(match south.cmp(&north) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            }),
            Verdict::Forfeit { loser } => Some(Some(loser.opponent())),
            Verdict::Unfinished => None,
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number in the match.
    pub round: usize,
    /// Index of the engine playing South (in the match's engine list).
    pub south: usize,
    /// Index of the engine playing North.
    pub north: usize,
    /// The opening it started from.
    pub opening: Opening,
    /// The time controls of South and North.
    pub tc: [TimeControl; 2],
    /// Every move, the opening's included.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub verdict: Verdict,
    /// Why it ended.
    pub reason: Reason,
    /// Protocol logs of South and North (empty unless asked for).
    pub logs: [String; 2],
}

impl GameRecord {
    /// The engine index playing `side`.
    pub fn engine(&self, side: Side) -> usize {
        match side {
            Side::South => self.south,
            Side::North => self.north,
        }
    }

    /// The score of engine `engine` in this game: 1, 0.5 or 0 (`None` if unfinished or not
    /// its game).
    pub fn score_of(&self, engine: usize) -> Option<f64> {
        let winner = self.verdict.winner()?;
        let side = if self.south == engine {
            Side::South
        } else if self.north == engine {
            Side::North
        } else {
            return None;
        };
        Some(match winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        })
    }

    /// The `Result` of the game record: `25-19` style, or `*` when unfinished or forfeited.
    pub fn result_text(&self) -> String {
        match self.verdict {
            Verdict::Score { south, north } => format!("{south}-{north}"),
            Verdict::Forfeit { .. } | Verdict::Unfinished => "*".into(),
        }
    }
}
