//! Sharded matches (`--shard K/N`): the schedule's game pairs are dealt out in turn to N shards,
//! pair `p` (0-based, in schedule order) to shard `p mod N + 1`, so that each shard plays both
//! colours of its openings and a share of every pairing. A shard keeps the rounds, openings,
//! colours and seeds the whole match would give its games, so merging the shards' results
//! (`krou match merge`) gives what one process would have found.

use super::schedule::Job;
use std::fmt;
use std::str::FromStr;

/// The K-th of N parts of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1 to `count`.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

/// The most shards a match may be split into.
pub const MAX_SHARDS: usize = 100_000;

/// A `--shard` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadShard(pub String);

impl fmt::Display for BadShard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad shard '{}' (expected K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}, e.g. 2/4)",
            self.0
        )
    }
}

impl std::error::Error for BadShard {}

impl FromStr for Shard {
    type Err = BadShard;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShard(s.to_string());
        let (index, count) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Shard `index` of `count`, if `1 ≤ index ≤ count ≤ MAX_SHARDS`.
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        (index >= 1 && index <= count && count <= MAX_SHARDS).then_some(Shard { index, count })
    }

    /// Whether the game pair `game_pair` (see [`Job::game_pair`]) belongs to this shard.
    pub fn holds(&self, game_pair: usize) -> bool {
        game_pair % self.count == self.index - 1
    }

    /// The jobs of this shard, in schedule order.
    pub fn select(&self, jobs: Vec<Job>) -> Vec<Job> {
        jobs.into_iter()
            .filter(|job| self.holds(job.game_pair))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::play::schedule::{pairings, schedule};

    #[test]
    fn shards_split_the_schedule_into_disjoint_parts_without_splitting_pairs() {
        for (engines, games, count) in [(2, 40, 3), (3, 7, 4), (4, 2, 5), (2, 1, 2)] {
            let jobs = schedule(&pairings(engines, false), games);
            let mut rounds: Vec<usize> = Vec::new();
            for index in 1..=count {
                let part = Shard { index, count }.select(jobs.clone());
                for job in &part {
                    let partner = jobs
                        .iter()
                        .filter(|j| j.game_pair == job.game_pair)
                        .all(|j| part.contains(j));
                    assert!(partner, "pair of round {} split", job.round);
                }
                rounds.extend(part.iter().map(|j| j.round));
            }
            rounds.sort_unstable();
            let all: Vec<usize> = jobs.iter().map(|j| j.round).collect();
            assert_eq!(
                rounds, all,
                "{engines} engines, {games} games, {count} shards"
            );
        }
    }

    #[test]
    fn shards_share_out_the_pairs_evenly() {
        let jobs = schedule(&pairings(2, false), 40);
        let sizes: Vec<usize> = (1..=3)
            .map(|index| Shard { index, count: 3 }.select(jobs.clone()).len())
            .collect();
        assert_eq!(sizes, [14, 14, 12]);
    }

    #[test]
    fn shard_values_read_back_and_bad_ones_are_refused() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard { index: 1, count: 1 }.to_string(), "1/1");
        for text in [
            "",
            "2",
            "0/3",
            "4/3",
            "1/0",
            "a/b",
            "-1/3",
            "1/3/5",
            "1/1000000",
        ] {
            let error = text.parse::<Shard>().expect_err(text).to_string();
            assert!(error.contains("expected K/N"), "{text}: {error}");
        }
    }
}
