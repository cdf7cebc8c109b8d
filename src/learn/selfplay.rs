//! Self-play games that make training data: Krou against itself at a fixed number of nodes a
//! move, each game from the start after a few pseudo-random moves, every position kept with the
//! game's result, the search's score and (where the endgame tables settle it) its exact value.
//!
//! A batch of games depends only on its number and the settings, so data can be made in pieces,
//! on several threads or machines, and a stopped run resumed (see [`generate`]).

use super::sample::{self, Sample};
use crate::egdb::Tables;
use crate::rules::{Game, GrandSlam, Position};
use crate::search::{Control, Features, Limits, Score, Searcher, Settings};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The search the self-play games are played with, but for the evaluation and the interval
/// estimate, which [`Plan`] sets: the search the shipped weights' data were made with (before
/// internal iterative reduction), pinned here rather than taken from the search's defaults, so
/// that the same plan makes the same data whatever those become.
pub const SELF_PLAY_SEARCH: Features = Features {
    aspiration: false,
    late_move_reductions: true,
    killers_and_history: true,
    reverse_futility: true,
    quiescence: true,
    learned_evaluation: true,
    interval_estimate: false,
    time_by_phase: false,
    internal_reduction: false,
    razoring: false,
    singular_extension: false,
};

/// How the games of a run are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Games in each batch (one file each).
    pub games_per_batch: usize,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// The most pseudo-random moves at the start of a game (each game plays 2 to this many).
    pub random_plies: usize,
    /// Games still going after this many plies are dropped.
    pub max_plies: usize,
    /// Whether the players evaluate with the learned network (else the linear evaluation).
    pub learned_evaluation: bool,
    /// Whether the players' search uses [`Features::interval_estimate`] (pinned here rather
    /// than taken from the search's defaults, so that the same plan makes the same data).
    pub interval_estimate: bool,
    /// Whether the players' search uses [`Features::internal_reduction`] (off in
    /// [`SELF_PLAY_SEARCH`], which the shipped weights' data were made with; on in today's
    /// search).
    pub internal_reduction: bool,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            games_per_batch: 100,
            nodes: 3_000,
            random_plies: 10,
            max_plies: 600,
            learned_evaluation: true,
            interval_estimate: false,
            internal_reduction: false,
        }
    }
}

/// The file that holds batch `batch` in `dir`.
pub fn batch_path(dir: &Path, batch: usize) -> PathBuf {
    dir.join(format!("games-{batch:05}.bin"))
}

/// A pseudo-random sequence (a 64-bit linear congruential generator, high bits used).
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

/// Plays the games of batch `batch` and returns their samples, a game after another.
pub fn play_batch(plan: &Plan, batch: usize, tables: Option<&Arc<Tables>>) -> Vec<Sample> {
    let mut searcher = Searcher::new(Settings {
        hash_mib: 16,
        threads: 1,
    });
    searcher.set_tables(tables.cloned());
    searcher.set_features(Features {
        learned_evaluation: plan.learned_evaluation,
        interval_estimate: plan.interval_estimate,
        internal_reduction: plan.internal_reduction,
        ..SELF_PLAY_SEARCH
    });
    let mut random = Random(0x6b72_6f75_0000_0000 ^ batch as u64);
    let mut samples = Vec::new();
    for _ in 0..plan.games_per_batch {
        searcher.clear();
        let opening = 2 + random.below(plan.random_plies.saturating_sub(1));
        samples.extend(play_game(plan, &mut searcher, tables, opening, &mut random));
    }
    samples
}

/// One game: `opening` pseudo-random moves, then searched ones. Empty if it did not end.
fn play_game(
    plan: &Plan,
    searcher: &mut Searcher,
    tables: Option<&Arc<Tables>>,
    opening: usize,
    random: &mut Random,
) -> Vec<Sample> {
    let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
    let mut seen: Vec<(Position, Sample)> = Vec::new();
    while game.outcome().is_none() && game.moves().len() < plan.max_plies {
        let position = *game.position();
        let mut sample = Sample::of(&position);
        if let Some(bounds) = tables.and_then(|t| t.probe(&position)) {
            sample.exact = bounds.value();
        }
        let moves: Vec<_> = game.legal_moves().collect();
        let mv = if game.moves().len() < opening {
            moves[random.below(moves.len())]
        } else {
            let limits = Limits {
                nodes: Some(plan.nodes),
                ..Limits::default()
            };
            let mut score = None;
            let found = searcher.search(&game, &limits, &Control::new(false), &mut |info| {
                score = Some(info.score);
            });
            if let Some(Score::Cp(cp)) = score {
                sample.searched = i16::try_from(cp).ok();
            }
            found.best.unwrap_or(moves[0])
        };
        seen.push((position, sample));
        if game.play(mv).is_err() {
            return Vec::new();
        }
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(position, mut sample)| {
            sample.result = outcome.margin(position.side_to_move()) as i8;
            sample
        })
        .collect()
}

/// Plays batches `0..batches` into `dir` on `threads` threads, skipping batches whose file is
/// already there (so a stopped run resumes). `report` hears of each batch written.
pub fn generate(
    plan: &Plan,
    dir: &Path,
    batches: usize,
    threads: usize,
    tables: Option<Arc<Tables>>,
    report: &(dyn Fn(usize, usize) + Sync),
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| -> std::io::Result<()> {
                    loop {
                        let batch = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if batch >= batches {
                            return Ok(());
                        }
                        let path = batch_path(dir, batch);
                        if path.exists() {
                            continue;
                        }
                        let samples = play_batch(plan, batch, tables.as_ref());
                        sample::write_file(&path, &samples)?;
                        report(batch, samples.len());
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(std::io::Error::other("worker panicked")))
            })
            .collect::<std::io::Result<Vec<()>>>()
            .map(|_| ())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_the_same_each_time_and_its_labels_agree() {
        let plan = Plan {
            games_per_batch: 2,
            nodes: 200,
            ..Plan::default()
        };
        let tables = Arc::new(Tables::build(GrandSlam::NoCapture, 6, 1));
        let first = play_batch(&plan, 3, Some(&tables));
        assert_eq!(first, play_batch(&plan, 3, Some(&tables)));
        assert!(first.len() > 20, "{} samples", first.len());
        for sample in &first {
            let position = sample.position().expect("a valid position");
            let on_board = position.seeds_on_board();
            if let Some(exact) = sample.exact {
                assert!(on_board <= 6, "{position}");
                assert!(i32::from(exact).abs() <= i32::from(on_board), "{position}");
            }
            assert!(i32::from(sample.result).abs() <= 48);
        }
    }
}
