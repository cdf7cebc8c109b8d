//! A rating list: Elo ratings fitted to the results of any number of players by maximum
//! likelihood over all games, as Ordo and BayesElo do, with one player anchored at a given
//! rating and a 95% interval for each of the others.
//!
//! The model is the logistic one of [`elo`](super::elo): a player rated `d` above another
//! scores `E(d) = 1 / (1 + 10^(−d/400))` against it, a draw counting half a win and half a
//! loss. With `sᵢⱼ` the points player `i` scored in its `nᵢⱼ` games against `j`, the fit
//! maximises `Σ sᵢⱼ ln E(rᵢ − rⱼ) + (nᵢⱼ − sᵢⱼ) ln E(rⱼ − rᵢ)` over the ratings `r` with the
//! anchor's fixed (Newton's method: the log-likelihood is concave). Each interval is
//! `rᵢ ± z·σᵢ`, `σᵢ²` the diagonal of the inverse of the negated Hessian (the other ratings'
//! uncertainty included, the anchor's none).
//!
//! A player that won or lost every game has no finite maximum: `prior_draws` virtual draws
//! added to every pairing that played (BayesElo's prior; 0 for the pure fit, which then refuses
//! such a player) keep it finite.

use super::elo::Z_95;
use std::fmt;

/// The results of one pairing, from its first player's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Results {
    /// The first player's index.
    pub first: usize,
    /// The second player's index.
    pub second: usize,
    /// The first player's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The first player's losses.
    pub losses: u64,
}

/// One player's fitted rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub elo: f64,
    /// The lower end of its 95% interval (the rating itself for the anchor).
    pub low: f64,
    /// The upper end of its 95% interval.
    pub high: f64,
    /// Games played.
    pub games: u64,
    /// Points scored (a draw is half a point).
    pub points: f64,
}

/// Why ratings cannot be fitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadFit(pub String);

impl fmt::Display for BadFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadFit {}

/// Newton steps before giving up.
const MAX_STEPS: usize = 500;
/// The fit is done when no rating moves by more than this (Elo).
const SETTLED: f64 = 1e-7;
/// The largest move of one rating in one step (Elo), so that a poor start cannot overshoot.
const MAX_MOVE: f64 = 400.0;
/// `d E(d) / d d = E (1 − E) · K`: the slope of the logistic curve's exponent per Elo.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// The expected score of a player rated `d` above its opponent.
pub fn expected(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// Fits the ratings of `players` players to `results`, `anchor` fixed at `anchor_elo`, with
/// `prior_draws` virtual draws per pairing that played (see the module docs). Refuses a player
/// without games, one not linked to the anchor through games, and a player whose score makes
/// the fit unbounded.
pub fn fit(
    players: usize,
    results: &[Results],
    anchor: usize,
    anchor_elo: f64,
    prior_draws: f64,
) -> Result<Vec<Rating>, BadFit> {
    if anchor >= players {
        return Err(BadFit(format!("no player {anchor} to anchor")));
    }
    let table = Table::new(players, results, prior_draws)?;
    table.check_linked(anchor)?;
    let free: Vec<usize> = (0..players).filter(|&i| i != anchor).collect();
    let mut elo = vec![0.0; players];
    for _ in 0..MAX_STEPS {
        let (gradient, hessian) = table.derivatives(&elo, &free);
        let step = solve(&hessian, &gradient).ok_or_else(|| table.unbounded(&elo))?;
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > MAX_MOVE {
            MAX_MOVE / largest
        } else {
            1.0
        };
        for (&i, s) in free.iter().zip(&step) {
            elo[i] += s * scale;
        }
        if largest < SETTLED {
            return Ok(table.ratings(&elo, &free, &hessian, anchor, anchor_elo));
        }
    }
    Err(table.unbounded(&elo))
}

/// Points and games of every pair of players, the prior's draws included.
struct Table {
    /// `points[i][j]`: points `i` scored against `j`.
    points: Vec<Vec<f64>>,
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    games: Vec<Vec<f64>>,
    /// Real games and points of each player (without the prior).
    totals: Vec<(u64, f64)>,
}

impl Table {
    fn new(players: usize, results: &[Results], prior_draws: f64) -> Result<Table, BadFit> {
        if !(prior_draws.is_finite() && prior_draws >= 0.0) {
            return Err(BadFit(format!(
                "the prior must be 0 or more virtual draws, not {prior_draws}"
            )));
        }
        let mut table = Table {
            points: vec![vec![0.0; players]; players],
            games: vec![vec![0.0; players]; players],
            totals: vec![(0, 0.0); players],
        };
        for r in results {
            let (a, b) = (r.first, r.second);
            if a >= players || b >= players || a == b {
                return Err(BadFit(format!(
                    "results of players {a} and {b}: no such pairing"
                )));
            }
            let games = r.wins + r.draws + r.losses;
            if games == 0 {
                continue;
            }
            let points = r.wins as f64 + 0.5 * r.draws as f64;
            table.points[a][b] += points;
            table.points[b][a] += games as f64 - points;
            table.games[a][b] += games as f64;
            table.games[b][a] += games as f64;
            table.totals[a].0 += games;
            table.totals[a].1 += points;
            table.totals[b].0 += games;
            table.totals[b].1 += games as f64 - points;
        }
        for a in 0..players {
            for b in (a + 1)..players {
                if table.games[a][b] > 0.0 {
                    table.points[a][b] += prior_draws / 2.0;
                    table.points[b][a] += prior_draws / 2.0;
                    table.games[a][b] += prior_draws;
                    table.games[b][a] += prior_draws;
                }
            }
        }
        Ok(table)
    }

    /// Refuses players that cannot be rated against the anchor: without games, or in a group
    /// that never played the anchor's.
    fn check_linked(&self, anchor: usize) -> Result<(), BadFit> {
        let players = self.games.len();
        let mut reached = vec![false; players];
        let mut stack = vec![anchor];
        reached[anchor] = true;
        while let Some(i) = stack.pop() {
            for (j, seen) in reached.iter_mut().enumerate() {
                if self.games[i][j] > 0.0 && !*seen {
                    *seen = true;
                    stack.push(j);
                }
            }
        }
        match (0..players).find(|&i| !reached[i]) {
            None => Ok(()),
            Some(i) if self.totals[i].0 == 0 => Err(BadFit(format!("player {i} played no game"))),
            Some(i) => Err(BadFit(format!(
                "player {i} is not linked to the anchor by games (no chain of pairings joins them)"
            ))),
        }
    }

    /// The gradient of the log-likelihood and its negated Hessian, over the free ratings.
    fn derivatives(&self, elo: &[f64], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = free.len();
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![vec![0.0; n]; n];
        for (a, &i) in free.iter().enumerate() {
            for j in 0..elo.len() {
                let games = self.games[i][j];
                if j == i || games == 0.0 {
                    continue;
                }
                let p = expected(elo[i] - elo[j]);
                gradient[a] += K * (self.points[i][j] - games * p);
                let curvature = K * K * games * p * (1.0 - p);
                hessian[a][a] += curvature;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    hessian[a][b] -= curvature;
                }
            }
        }
        (gradient, hessian)
    }

    /// The error when the fit runs away: the player with the most extreme rating, and its score.
    fn unbounded(&self, elo: &[f64]) -> BadFit {
        let centre = elo.iter().sum::<f64>() / elo.len().max(1) as f64;
        let far = (0..elo.len())
            .max_by(|&a, &b| (elo[a] - centre).abs().total_cmp(&(elo[b] - centre).abs()))
            .unwrap_or(0);
        let (games, points) = self.totals[far];
        BadFit(format!(
            "player {far} scored {points} of {games}: its rating has no finite maximum \
             (a perfect score); add virtual draws (a prior) to rate it"
        ))
    }

    fn ratings(
        &self,
        elo: &[f64],
        free: &[usize],
        hessian: &[Vec<f64>],
        anchor: usize,
        anchor_elo: f64,
    ) -> Vec<Rating> {
        let variance = inverse_diagonal(hessian);
        let shift = anchor_elo - elo[anchor];
        (0..elo.len())
            .map(|i| {
                let sigma = free
                    .iter()
                    .position(|&f| f == i)
                    .and_then(|a| variance.get(a))
                    .map_or(0.0, |v| v.max(0.0).sqrt());
                let r = elo[i] + shift;
                Rating {
                    elo: r,
                    low: r - Z_95 * sigma,
                    high: r + Z_95 * sigma,
                    games: self.totals[i].0,
                    points: self.totals[i].1,
                }
            })
            .collect()
    }
}

/// Solves `m · x = v` by Gaussian elimination with partial pivoting; `None` when `m` is
/// singular (or nearly).
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(v)
        .map(|(row, &x)| row.iter().copied().chain([x]).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (row, values) in a.iter_mut().enumerate() {
            if row != col {
                let factor = values[col] / pivot_row[col];
                for (x, p) in values.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= factor * p;
                }
            }
        }
    }
    Some((0..n).map(|i| a[i][n] / a[i][i]).collect())
}

/// The diagonal of `m`'s inverse (empty when `m` is singular).
fn inverse_diagonal(m: &[Vec<f64>]) -> Vec<f64> {
    let n = m.len();
    (0..n)
        .map_while(|i| {
            let unit: Vec<f64> = (0..n).map(|k| if k == i { 1.0 } else { 0.0 }).collect();
            solve(m, &unit).map(|column| column[i])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::rng::Rng;

    /// Results of `games` games between each pair, each game drawn from the true ratings with
    /// a draw rate of `draws` (the rest won by each side as the logistic model says, so that
    /// the expected score is `E`).
    fn simulated(truth: &[f64], games: u64, draws: f64, seed: u64) -> Vec<Results> {
        let mut rng = Rng::new(seed);
        let mut results = Vec::new();
        for a in 0..truth.len() {
            for b in (a + 1)..truth.len() {
                let e = expected(truth[a] - truth[b]);
                let draw = draws.min(2.0 * e.min(1.0 - e));
                let win = e - draw / 2.0;
                let mut r = Results {
                    first: a,
                    second: b,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                };
                for _ in 0..games {
                    let x = rng.below(1_000_000) as f64 / 1_000_000.0;
                    if x < win {
                        r.wins += 1;
                    } else if x < win + draw {
                        r.draws += 1;
                    } else {
                        r.losses += 1;
                    }
                }
                results.push(r);
            }
        }
        results
    }

    #[test]
    fn exact_scores_give_back_the_ratings_they_came_from() {
        // Points set to the expected score (as fractional draws) of known ratings.
        let truth = [1000.0, 1200.0, 650.0, 1500.0];
        let mut results = Vec::new();
        for a in 0..4 {
            for b in (a + 1)..4 {
                let e = expected(truth[a] - truth[b]);
                // 10,000 games scoring e: wins and losses in the right shares, no draws.
                let wins = (e * 10_000.0).round() as u64;
                results.push(Results {
                    first: a,
                    second: b,
                    wins,
                    draws: 0,
                    losses: 10_000 - wins,
                });
            }
        }
        let ratings = fit(4, &results, 0, 1000.0, 0.0).expect("a fit");
        for (rating, true_elo) in ratings.iter().zip(truth) {
            assert!((rating.elo - true_elo).abs() < 1.0, "{ratings:?}");
        }
        assert_eq!(ratings[0].low, 1000.0);
        assert_eq!(ratings[0].high, 1000.0);
        assert!(ratings[1].high - ratings[1].low < 20.0, "{ratings:?}");
    }

    #[test]
    fn simulated_games_land_within_the_intervals() {
        let truth = [1000.0, 1150.0, 800.0, 1400.0, 1250.0];
        let mut covered = 0;
        let mut tried = 0;
        for seed in 1..=20 {
            let results = simulated(&truth, 100, 0.1, seed);
            let ratings = fit(5, &results, 0, 1000.0, 0.0).expect("a fit");
            for (rating, true_elo) in ratings.iter().zip(truth).skip(1) {
                tried += 1;
                covered += usize::from(rating.low <= true_elo && true_elo <= rating.high);
                assert!((rating.elo - true_elo).abs() < 150.0, "{ratings:?}");
            }
        }
        // 95% intervals: about 76 of 80; far fewer would mean they are too narrow.
        assert!(covered >= 68, "{covered} of {tried} covered");
    }

    #[test]
    fn a_gauntlet_rates_players_that_never_met() {
        // Player 0 plays 1 and 2; 1 and 2 never meet; each scored 64% against 0 (+100).
        let pairing = |second| Results {
            first: 0,
            second,
            wins: 36,
            draws: 0,
            losses: 64,
        };
        let ratings = fit(3, &[pairing(1), pairing(2)], 0, 1000.0, 0.0).expect("a fit");
        for r in &ratings[1..] {
            assert!((r.elo - (1000.0 + 100.0)).abs() < 2.0, "{ratings:?}");
            assert!(r.low < r.elo && r.elo < r.high);
        }
    }

    #[test]
    fn a_perfect_score_needs_a_prior() {
        let results = [
            Results {
                first: 0,
                second: 1,
                wins: 10,
                draws: 0,
                losses: 0,
            },
            Results {
                first: 1,
                second: 2,
                wins: 5,
                draws: 2,
                losses: 3,
            },
        ];
        let refused = fit(3, &results, 1, 1000.0, 0.0).expect_err("unbounded");
        assert!(refused.0.contains("player 0 scored 10 of 10"), "{refused}");
        let ratings = fit(3, &results, 1, 1000.0, 1.0).expect("finite with a prior");
        // 10.5 of 11 against the anchor: E⁻¹(0.9545) = +529.
        assert!(
            (ratings[0].elo - 1000.0 - 529.0).abs() < 40.0,
            "{ratings:?}"
        );
        assert_eq!(ratings[0].games, 10);
        assert_eq!(ratings[0].points, 10.0);
    }

    #[test]
    fn players_without_a_link_to_the_anchor_are_refused() {
        let results = [Results {
            first: 0,
            second: 1,
            wins: 3,
            draws: 1,
            losses: 2,
        }];
        let refused = fit(3, &results, 0, 1000.0, 0.0).expect_err("player 2 has no games");
        assert_eq!(refused.0, "player 2 played no game");
        let apart = [
            results[0],
            Results {
                first: 2,
                second: 3,
                ..results[0]
            },
        ];
        let refused = fit(4, &apart, 0, 1000.0, 0.0).expect_err("two groups");
        assert!(refused.0.contains("not linked to the anchor"), "{refused}");
    }
}
