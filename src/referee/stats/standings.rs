//! The running totals of a match: a tally per pairing, pair bookkeeping for the pentanomial
//! counts, and how games ended.

use super::elo::Tally;
use crate::referee::play::schedule::Job;
use crate::referee::records::record::{GameRecord, Reason};
use std::collections::{BTreeMap, HashMap};

/// Totals so far.
#[derive(Clone, Debug, Default)]
pub struct Standings {
    /// (first, second) engine indices of each pairing.
    pub pairings: Vec<(usize, usize)>,
    /// One tally per pairing, from its first engine's point of view.
    pub tallies: Vec<Tally>,
    /// Games finished (aborted games excluded).
    pub finished: usize,
    /// Games left unfinished when the match stopped.
    pub unfinished: usize,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, usize>,
    /// Games lost by a fault, by (engine index, fault name), counted by [`Standings::add`].
    pub faults: BTreeMap<(usize, String), usize>,
    /// Scores of game pairs of which one game is counted, by game pair.
    waiting: HashMap<usize, f64>,
}

impl Standings {
    /// Empty standings for these pairings.
    pub fn new(pairings: Vec<(usize, usize)>) -> Standings {
        Standings {
            tallies: vec![Tally::default(); pairings.len()],
            pairings,
            ..Standings::default()
        }
    }

    /// Counts a game played for `job`.
    pub fn add(&mut self, job: &Job, record: &GameRecord) {
        let first = self.pairings[job.pairing].0;
        let score = record.score_of(first);
        if let (Reason::Fault { side, fault }, Some(_)) = (&record.reason, score) {
            let key = (record.engine(*side), fault.name().to_string());
            *self.faults.entry(key).or_default() += 1;
        }
        self.add_result(job.pairing, job.game_pair, score, record.reason.name());
    }

    /// Whether games were played and every one ended by a fault (no result to speak of).
    pub fn every_game_faulted(&self) -> bool {
        self.finished > 0 && self.faults.values().sum::<usize>() == self.finished
    }

    /// Counts a game of pairing `pairing` and game pair `game_pair` (see [`Job::game_pair`])
    /// that scored `score` for the pairing's first engine (`None`: unfinished) and ended by
    /// `reason`. The order games are counted in changes nothing.
    pub fn add_result(
        &mut self,
        pairing: usize,
        game_pair: usize,
        score: Option<f64>,
        reason: &str,
    ) {
        let Some(score) = score else {
            self.unfinished += 1;
            return;
        };
        self.finished += 1;
        *self.reasons.entry(reason.to_string()).or_default() += 1;
        let tally = &mut self.tallies[pairing];
        tally.add_game(score);
        match self.waiting.remove(&game_pair) {
            Some(other) => tally.add_pair(other, score),
            None => {
                self.waiting.insert(game_pair, score);
            }
        }
    }
}
