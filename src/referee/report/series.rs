//! What the plots show, computed from the games alone: per pairing the Elo estimate with its 95%
//! interval (and the LLR under an SPRT) after each finished game in round order; per engine the
//! time it used by ply; per game each side's evaluation by ply.
//!
//! The figures come from the crate's own [`stats`](crate::referee::stats) and
//! [`sprt`](crate::referee::sprt), counting games and pairs exactly as
//! [`Standings`](crate::referee::standings::Standings) does, so the last point of each series is
//! the summary's figure.

use super::model::{Game, Match, Score, Winner};
use crate::referee::stats::{Estimate, Tally};
use crate::rules::Side;
use std::collections::HashMap;

/// Seeds at which a mate score is drawn (more than any real margin: 48 seeds in all).
pub const MATE_SEEDS: f64 = 30.0;

/// The figures after one more finished game of a pairing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Finished games so far.
    pub games: u64,
    /// The Elo estimate (infinite after a sweep).
    pub elo: f64,
    /// Its 95% interval (NaN while the sample has no spread).
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// The LLR, under an SPRT.
    pub llr: Option<f64>,
}

/// A pairing's course through the match.
#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    /// One point per finished game, in round order.
    pub points: Vec<Point>,
    /// The final counts.
    pub tally: Tally,
    /// Whether opening pairs were inferred from round order (files without `pair`).
    pub pairs_inferred: bool,
}

/// Whether `game` is one of pairing `(first, second)`'s.
pub fn belongs(game: &Game, first: &str, second: &str) -> bool {
    (game.south == first && game.north == second) || (game.south == second && game.north == first)
}

/// The course of pairing `index` of `m`.
pub fn course(m: &Match, index: usize) -> Course {
    let Some(pairing) = m.pairings.get(index) else {
        return Course {
            points: Vec::new(),
            tally: Tally::default(),
            pairs_inferred: false,
        };
    };
    let mut games: Vec<&Game> = m
        .games
        .iter()
        .filter(|g| belongs(g, &pairing.first, &pairing.second))
        .collect();
    games.sort_by_key(|g| g.round);
    let pairs_inferred = games.iter().any(|g| g.pair.is_none());
    let mut tally = Tally::default();
    let mut waiting: HashMap<u64, f64> = HashMap::new();
    let mut points = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let Some(score) = game.score_of(&pairing.first) else {
            continue;
        };
        // The schedule plays each opening pair's two games one after the other.
        let pair = game.pair.unwrap_or(i as u64 / 2);
        tally.add_game(score);
        match waiting.remove(&pair) {
            Some(other) => tally.add_pair(other, score),
            None => {
                waiting.insert(pair, score);
            }
        }
        if let Some(e) = Estimate::of(&tally) {
            points.push(Point {
                games: tally.games(),
                elo: e.elo,
                low: e.low,
                high: e.high,
                llr: pairing.sprt.map(|s| s.llr(&tally)),
            });
        }
    }
    Course {
        points,
        tally,
        pairs_inferred,
    }
}

/// An engine's move times: `(ply, ms)` of every move it played out of book, and the mean by ply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Times {
    /// Moves with a measured time.
    pub moves: u64,
    /// Their total in milliseconds.
    pub total_ms: u64,
    /// The longest.
    pub max_ms: u64,
    /// `(ply, mean ms)` for each ply at which the engine moved, in ply order.
    pub mean_by_ply: Vec<(u64, f64)>,
}

/// The move times of `engine` over all games.
pub fn times(m: &Match, engine: &str) -> Times {
    let mut by_ply: std::collections::BTreeMap<u64, (u64, u64)> = Default::default();
    let mut times = Times::default();
    for game in &m.games {
        for mv in game.moves.iter().flatten() {
            let mover = match mv.side {
                Side::South => &game.south,
                Side::North => &game.north,
            };
            let (Some(ms), false, true) = (mv.ms, mv.opening, mover == engine) else {
                continue;
            };
            times.moves += 1;
            times.total_ms += ms;
            times.max_ms = times.max_ms.max(ms);
            let slot = by_ply.entry(mv.ply).or_default();
            slot.0 += 1;
            slot.1 += ms;
        }
    }
    times.mean_by_ply = by_ply
        .into_iter()
        .map(|(ply, (n, sum))| (ply, sum as f64 / n as f64))
        .collect();
    times
}

/// A score in seeds from South's point of view (the engines report for the side to move).
pub fn south_seeds(score: Score, mover: Side) -> f64 {
    let seeds = match score {
        Score::Cp(cp) => (cp as f64 / 100.0).clamp(-MATE_SEEDS, MATE_SEEDS),
        Score::Mate(n) if n >= 0 => MATE_SEEDS,
        Score::Mate(_) => -MATE_SEEDS,
    };
    match mover {
        Side::South => seeds,
        Side::North => -seeds,
    }
}

/// Each side's evaluations of a game by ply, in seeds from South's point of view: `[South's,
/// North's]` (empty when the engines reported none).
pub fn evaluations(game: &Game) -> [Vec<(f64, f64)>; 2] {
    let mut curves = [Vec::new(), Vec::new()];
    for mv in game.moves.iter().flatten() {
        if let Some(score) = mv.score {
            curves[mv.side.index()].push((mv.ply as f64, south_seeds(score, mv.side)));
        }
    }
    curves
}

/// `won by South`, `drawn`, `unfinished`: the winner in words.
pub fn winner_text(game: &Game) -> &'static str {
    match game.winner {
        Some(Winner::Side(Side::South)) => "South won",
        Some(Winner::Side(Side::North)) => "North won",
        Some(Winner::Draw) => "drawn",
        None => "unfinished",
    }
}
