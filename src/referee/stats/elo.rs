//! Match statistics: wins, draws, losses, pentanomial pair counts, Elo with a 95% interval and
//! the likelihood of superiority, all from the first engine's point of view.
//!
//! Each observation is a score in [0, 1]: a game (loss 0, draw ½, win 1; the *trinomial* model)
//! or, when openings are played twice with colours swapped, a pair's mean score (0, ¼, ½, ¾, 1;
//! the *pentanomial* model, which removes the opening's bias from the variance). With `n`
//! observations of mean `μ` and variance `σ² = Σ pᵢ (xᵢ − μ)²`:
//!
//! - Elo difference: `E(μ) = −400 · log10(1/μ − 1)` (the logistic model).
//! - 95% interval: `E(μ ± z · σ/√n)` with `z = 1.959964` (normal approximation of the mean).
//! - Likelihood of superiority: `LOS = Φ((μ − ½) / (σ/√n))`, `Φ` the standard normal CDF.

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Counts of results for the first engine of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Complete pairs by their total score in half points: `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: [u64; 5],
}

impl Tally {
    /// Counts one game scored `score` (0, 0.5 or 1).
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Counts a complete pair whose two games scored `first` and `second`.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pentanomial[half_points] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction over all games (`None` before any game).
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / games as f64)
    }

    /// Observations for the estimates: the pentanomial pairs when there are any, otherwise
    /// the single games.
    pub fn sample(&self) -> Sample {
        if self.pentanomial.iter().sum::<u64>() > 0 {
            Sample::new(&self.pentanomial, &[0.0, 0.25, 0.5, 0.75, 1.0])
        } else {
            Sample::new(&[self.losses, self.draws, self.wins], &[0.0, 0.5, 1.0])
        }
    }
}

/// A sample of scores: count, mean and (population) variance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Number of observations.
    pub n: u64,
    /// Mean score per game.
    pub mean: f64,
    /// Variance of one observation.
    pub variance: f64,
}

impl Sample {
    /// The sample of `counts[i]` observations of value `values[i]`.
    pub fn new(counts: &[u64], values: &[f64]) -> Sample {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return Sample {
                n,
                mean: 0.5,
                variance: 0.0,
            };
        }
        let total = n as f64;
        let pairs = || {
            counts
                .iter()
                .zip(values)
                .map(|(&c, &x)| (c as f64 / total, x))
        };
        let mean = pairs().map(|(p, x)| p * x).sum::<f64>();
        let variance = pairs()
            .map(|(p, x)| p * (x - mean) * (x - mean))
            .sum::<f64>();
        Sample { n, mean, variance }
    }

    /// Standard error of the mean.
    pub fn std_error(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        (self.variance / self.n as f64).sqrt()
    }
}

/// The Elo difference for a score fraction (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score fraction expected at an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo estimate with its 95% interval and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Elo difference (first engine minus second).
    pub elo: f64,
    /// Lower end of the 95% interval (NaN, like `high`, when the sample has no spread: see
    /// [`Estimate::interval_known`]).
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

/// Shown instead of the interval while every sample scored the same.
pub const UNKNOWN_INTERVAL: &str = "(interval unknown: no spread yet)";

impl Estimate {
    /// The estimate from a tally (`None` before any game).
    pub fn of(tally: &Tally) -> Option<Estimate> {
        let sample = tally.sample();
        if sample.n == 0 {
            return None;
        }
        let se = sample.std_error();
        let clamp = |s: f64| s.clamp(0.0, 1.0);
        let los = if se > 0.0 {
            normal_cdf((sample.mean - 0.5) / se)
        } else if sample.mean > 0.5 {
            1.0
        } else if sample.mean < 0.5 {
            0.0
        } else {
            0.5
        };
        // Without any spread in the sample there is no interval to give: NaN, not ±0.
        let bound = |s: f64| {
            if se > 0.0 {
                elo(clamp(s)) + 0.0
            } else {
                f64::NAN
            }
        };
        // Adding 0.0 turns -0.0 (from log10(1) negated) into 0.0 for display.
        Some(Estimate {
            elo: elo(sample.mean) + 0.0,
            low: bound(sample.mean - Z_95 * se),
            high: bound(sample.mean + Z_95 * se),
            los,
        })
    }

    /// Whether the sample had any spread, and so the interval means something.
    pub fn interval_known(&self) -> bool {
        !(self.low.is_nan() || self.high.is_nan())
    }

    /// `±40.1` style, or what stands in for it when the interval is unknown.
    pub fn error_text(&self) -> String {
        if self.interval_known() {
            format!("±{:.1}", self.error())
        } else {
            UNKNOWN_INTERVAL.into()
        }
    }

    /// Half the width of the interval, shown as `±`.
    pub fn error(&self) -> f64 {
        if self.low.is_finite() && self.high.is_finite() {
            (self.high - self.low) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// The standard normal cumulative distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The error function, within 1.2e-7 (the Chebyshev fit of Numerical Recipes' `erfcc`).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Worked examples computed independently with Python's statistics.NormalDist over the
    // expanded list of observations:
    //   obs = [0]*5 + [.25]*20 + [.5]*50 + [.75]*30 + [1]*15; mu = mean(obs)
    //   var = pvariance(obs); se = sqrt(var/n); elo(s) = -400*log10(1/s-1)
    // gives mu 0.5625, var 0.063802083, Elo 43.6578 [12.0307, 76.0236], LOS 0.996641.
    #[test]
    fn pentanomial_elo_interval_and_los_match_a_worked_example() {
        let tally = Tally {
            pentanomial: [5, 20, 50, 30, 15],
            ..Tally::default()
        };
        let sample = tally.sample();
        assert_eq!(sample.n, 120);
        assert!((sample.mean - 0.5625).abs() < 1e-12);
        assert!((sample.variance - 0.063_802_083_333).abs() < 1e-9);
        let e = Estimate::of(&tally).expect("games");
        assert!((e.elo - 43.657_788).abs() < 1e-4, "{e:?}");
        assert!((e.low - 12.030_672).abs() < 1e-4, "{e:?}");
        assert!((e.high - 76.023_553).abs() < 1e-4, "{e:?}");
        assert!((e.los - 0.996_641_1).abs() < 1e-6, "{e:?}");
    }

    #[test]
    fn a_sample_without_spread_has_no_interval_rather_than_a_zero_one() {
        let tally = Tally {
            pentanomial: [0, 0, 5, 0, 0],
            ..Tally::default()
        };
        let e = Estimate::of(&tally).expect("games");
        assert_eq!(e.elo, 0.0);
        assert!(!e.interval_known(), "{e:?}");
        assert!(e.low.is_nan() && e.high.is_nan(), "{e:?}");
        assert_eq!(e.error_text(), "(interval unknown: no spread yet)");
        let mut tally = Tally::default();
        tally.add_game(1.0);
        tally.add_game(0.0);
        let e = Estimate::of(&tally).expect("games");
        assert!(e.interval_known(), "{e:?}");
        assert!(e.error_text().starts_with('±'), "{e:?}");
    }

    // Same method, trinomial: 60 wins, 20 draws, 20 losses: mu 0.7, Elo 147.1907
    // [86.2250, 218.2518], LOS 0.99999971.
    #[test]
    fn trinomial_elo_interval_and_los_match_a_worked_example() {
        let mut tally = Tally::default();
        for (score, count) in [(1.0, 60), (0.5, 20), (0.0, 20)] {
            (0..count).for_each(|_| tally.add_game(score));
        }
        assert_eq!((tally.wins, tally.draws, tally.losses), (60, 20, 20));
        let e = Estimate::of(&tally).expect("games");
        assert!((e.elo - 147.190_714).abs() < 1e-4, "{e:?}");
        assert!((e.low - 86.225_015).abs() < 1e-4, "{e:?}");
        assert!((e.high - 218.251_778).abs() < 1e-4, "{e:?}");
        assert!((e.los - 0.999_999_713).abs() < 1e-6, "{e:?}");
    }

    #[test]
    fn pairs_are_binned_by_their_total_score() {
        let mut tally = Tally::default();
        tally.add_pair(1.0, 0.0);
        tally.add_pair(0.5, 0.5);
        tally.add_pair(1.0, 0.5);
        tally.add_pair(0.0, 0.0);
        assert_eq!(tally.pentanomial, [1, 0, 2, 1, 0]);
    }

    #[test]
    fn erf_and_elo_agree_with_known_values() {
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 2e-7);
        assert!((normal_cdf(Z_95) - 0.975).abs() < 2e-7);
        assert!((elo(0.75) - 190.848_501_9).abs() < 1e-6);
        assert!((expected_score(elo(0.6)) - 0.6).abs() < 1e-12);
        assert_eq!(elo(0.5), 0.0);
    }
}
