//! What a search is asked to respect: depth, nodes, time, and the control flags shared with the
//! protocol thread.

use super::Strength;
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The clock of the side to move, as sent with `go wtime … winc … movestogo …`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// The limits of one search; the first one reached ends it. No limit at all means search until
/// stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped, whatever the other limits say.
    pub infinite: bool,
    /// Consider only these moves (all legal moves when empty).
    pub searchmoves: Vec<Move>,
    /// Time kept back for communication latency (the `MoveOverhead` option).
    pub overhead: Duration,
    /// Best lines to find and report (the `MultiPV` option); 0 and 1 both mean one.
    pub multi_pv: usize,
    /// Play at this level instead of full strength (`UCI_LimitStrength`, `UCI_Elo`): its depth
    /// caps `depth`, it searches every root move on one thread, and it may prefer a worse one.
    pub strength: Option<Strength>,
}

impl Limits {
    /// Whether the search must run until stopped.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.clock.is_none())
    }
}

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl Control {
    /// Fresh flags: not stopped; pondering as given.
    pub fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
        }
    }

    /// Asks the search to stop as soon as it can and report its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: from now on the time limits apply (measured
    /// from this moment).
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is pondering (no time limit applies while it is).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }
}
