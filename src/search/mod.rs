//! The search: given a game and limits, find the best move, reporting progress through a
//! callback (the search never prints).
//!
//! The protocol drives a [`Searcher`] from its own thread: it calls [`Searcher::search`] with a
//! shared [`Control`] whose flags (`stop`, `ponderhit`) it may set at any time.

mod limits;
mod score;

pub use limits::{Clock, Control, Limits};
pub use score::Score;

use crate::rules::{Game, Move, MoveSet};
use std::time::{Duration, Instant};

/// One progress report, printed by the protocol as an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Completed depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation, best move first.
    pub pv: Vec<Move>,
    /// Hash table use in permille.
    pub hashfull: u32,
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
}

/// Settings that outlive a search (set through protocol options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Hash table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 16,
            threads: 1,
        }
    }
}

/// The search engine and everything it learns between searches (cleared by [`Searcher::clear`]).
#[derive(Debug, Default)]
pub struct Searcher {
    settings: Settings,
}

impl Searcher {
    /// A searcher with the given settings.
    pub fn new(settings: Settings) -> Searcher {
        Searcher { settings }
    }

    /// The settings in force.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes the settings (resizes the hash table; may take a moment, never call mid-search).
    pub fn configure(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// Forgets everything learned: hash table, history (`ucinewgame`).
    pub fn clear(&mut self) {}

    /// Searches the current position of `game` within `limits`, calling `report` after each
    /// completed iteration. Returns when a limit is reached or `control` says stop (unless
    /// pondering or infinite, which only `stop` ends). `best` is `None` only when the game is
    /// over.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Found {
        let started = Instant::now();
        let rule = game.rule();
        let mut moves = game.legal_moves();
        if !limits.searchmoves.is_empty() {
            let chosen = limits
                .searchmoves
                .iter()
                .fold(MoveSet::EMPTY, |s, &m| s.with(m));
            if !MoveSet::from_bits(moves.bits() & chosen.bits()).is_empty() {
                moves = MoveSet::from_bits(moves.bits() & chosen.bits());
            }
        }
        let Some(first) = moves.clone().next() else {
            return Found {
                best: None,
                ponder: None,
            };
        };
        // Placeholder until the real search lands: the move that captures most, reported at
        // depth 1, then wait for the limits like a search would.
        let position = *game.position();
        let best = moves
            .max_by_key(|&m| {
                (
                    position.play_unchecked(m, rule).captured,
                    std::cmp::Reverse(m),
                )
            })
            .unwrap_or(first);
        report(&Info {
            depth: 1,
            seldepth: 1,
            nodes: moves.len() as u64,
            time: started.elapsed(),
            score: Score::Cp(0),
            pv: vec![best],
            hashfull: 0,
        });
        wait_for_limits(limits, control, started);
        Found {
            best: Some(best),
            ponder: None,
        }
    }
}

fn wait_for_limits(limits: &Limits, control: &Control, started: Instant) {
    let mut hit_at = started;
    loop {
        if control.is_stopped() {
            return;
        }
        if control.is_pondering() || limits.infinite {
            hit_at = Instant::now();
        } else if let Some(t) = limits.movetime {
            if hit_at.elapsed() + limits.overhead >= t {
                return;
            }
        } else {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
