//! What the plots show, computed from the games alone: per pairing the Elo estimate with its 95%
//! interval (and the LLR under an SPRT) after each finished game in round order; per engine the
//! time it used by ply; per game each side's evaluation by ply.
//!
//! The figures come from the crate's own [`stats`](crate::referee::stats::elo) and
//! [`sprt`](crate::referee::stats::sprt), counting games and pairs exactly as
//! [`Standings`](crate::referee::stats::standings::Standings) does, so the last point of each series is
//! the summary's figure.

use super::model::{Game, Match, Score, Winner, belongs};
use crate::referee::stats::elo::{Estimate, Tally};
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::report::model::{Move, Pairing};
    use crate::referee::stats::sprt::Sprt;

    fn game(round: u64, pair: Option<u64>, south: &str, winner: Option<Winner>) -> Game {
        let north = if south == "a" { "b" } else { "a" };
        Game {
            round,
            pair,
            south: south.into(),
            north: north.into(),
            opening: String::new(),
            result: "*".into(),
            winner,
            detail: String::new(),
            record: None,
            moves: None,
        }
    }

    fn a_match(pairs: bool) -> Match {
        let w = |side| Some(Winner::Side(side));
        let results = [
            ("a", w(Side::South)),
            ("b", Some(Winner::Draw)),
            ("a", w(Side::North)),
            ("b", w(Side::North)),
            ("a", None),
            ("b", w(Side::South)),
            ("a", w(Side::South)),
            ("b", w(Side::South)),
        ];
        let games = results
            .iter()
            .enumerate()
            .map(|(i, &(south, winner))| {
                let pair = pairs.then_some(i as u64 / 2);
                game(i as u64 + 1, pair, south, winner)
            })
            .rev()
            .collect();
        Match {
            match_id: None,
            shard: None,
            shards_merged: Vec::new(),
            shards_missing: Vec::new(),
            engines: vec!["a".into(), "b".into()],
            engine_tc: Vec::new(),
            tc: None,
            seed: None,
            pairings: vec![Pairing {
                first: "a".into(),
                second: "b".into(),
                sprt: "elo0=0 elo1=20".parse::<Sprt>().ok(),
            }],
            games,
        }
    }

    // Round order, from a's side: 1, ½, 0, 1, (unfinished), 0, 1, 0. Pairs: (1, ½) is 3 half
    // points, WD; (0, 1) and (1, 0) are 2, DD+WL; pair 2 has one finished game, no pair.
    #[test]
    fn the_course_counts_games_and_pairs_in_round_order() {
        let course = course(&a_match(true), 0);
        assert_eq!(course.points.len(), 7, "one point per finished game");
        assert_eq!(
            (course.tally.wins, course.tally.draws, course.tally.losses),
            (3, 1, 3)
        );
        assert_eq!(course.tally.pentanomial, [0, 0, 2, 1, 0]);
        let sprt: Sprt = "elo0=0 elo1=20".parse().expect("valid");
        let last = course.points.last().expect("points");
        let e = Estimate::of(&course.tally).expect("games");
        assert_eq!(
            (last.games, last.elo, last.low, last.high),
            (7, e.elo, e.low, e.high)
        );
        assert_eq!(last.llr, Some(sprt.llr(&course.tally)));
        let first = course.points[0];
        assert_eq!((first.games, first.elo), (1, f64::INFINITY), "a win alone");
    }

    #[test]
    fn pairs_inferred_from_round_order_match_the_written_ones() {
        let written = course(&a_match(true), 0);
        let inferred = course(&a_match(false), 0);
        assert!(inferred.pairs_inferred && !written.pairs_inferred);
        // Compared as text: the points' intervals are NaN while there is no spread.
        let text = |c: &Course| format!("{:?}", c.points);
        assert_eq!(text(&inferred), text(&written));
        assert_eq!(inferred.tally, written.tally);
    }

    #[test]
    fn scores_turn_to_south_seeds_and_times_skip_the_opening() {
        assert_eq!(south_seeds(Score::Cp(150), Side::South), 1.5);
        assert_eq!(south_seeds(Score::Cp(150), Side::North), -1.5);
        assert_eq!(south_seeds(Score::Mate(-3), Side::North), MATE_SEEDS);
        let mv = |ply, side, opening, ms| Move {
            ply,
            side,
            text: "A".into(),
            opening,
            ms,
            score: Some(Score::Cp(100)),
            depth: None,
        };
        let mut m = a_match(true);
        m.games[0].moves = Some(vec![
            mv(1, Side::South, true, None),
            mv(2, Side::North, false, Some(30)),
            mv(3, Side::South, false, Some(10)),
        ]);
        let south = m.games[0].south.clone();
        let t = times(&m, &south);
        assert_eq!((t.moves, t.total_ms, t.max_ms), (1, 10, 10));
        assert_eq!(t.mean_by_ply, [(3, 10.0)]);
        let [s, n] = evaluations(&m.games[0]);
        assert_eq!(s, [(1.0, 1.0), (3.0, 1.0)]);
        assert_eq!(n, [(2.0, -1.0)]);
    }
}
