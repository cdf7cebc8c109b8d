//! The running totals of a match: a tally per pairing, pair bookkeeping for the pentanomial
//! counts, and how games ended.

use super::record::GameRecord;
use super::schedule::Job;
use super::stats::Tally;
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
    waiting: HashMap<(usize, usize), f64>,
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
        let Some(score) = record.score_of(first) else {
            self.unfinished += 1;
            return;
        };
        self.finished += 1;
        *self
            .reasons
            .entry(record.reason.name().to_string())
            .or_default() += 1;
        let tally = &mut self.tallies[job.pairing];
        tally.add_game(score);
        match self.waiting.remove(&(job.pairing, job.pair)) {
            Some(other) => tally.add_pair(other, score),
            None => {
                self.waiting.insert((job.pairing, job.pair), score);
            }
        }
    }
}
