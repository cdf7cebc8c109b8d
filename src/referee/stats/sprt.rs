//! The sequential probability ratio test that stops a match once it is decided.
//!
//! Hypotheses: H0 "the Elo difference is `elo0`", H1 "it is `elo1`", with expected scores
//! `s0 = S(elo0)` and `s1 = S(elo1)`, `S(e) = 1 / (1 + 10^(−e/400))`. Each observation (a
//! pentanomial pair's mean score, or a game's score when there are no pairs) is modelled as
//! normal with the sample's variance `σ²` and mean `s0` or `s1`; the log-likelihood ratio of
//! `n` observations of mean `μ` is then (a generalised SPRT, the variance estimated from the
//! data)
//!
//! `LLR = Σ [(xᵢ − s0)² − (xᵢ − s1)²] / (2σ²) = n · (s1 − s0) · (2μ − s0 − s1) / (2σ²)`.
//!
//! The test accepts H1 once `LLR ≥ ln((1 − β)/α)` and H0 once `LLR ≤ ln(β/(1 − α))`. While
//! every observation is the same (`σ² = 0`: a sweep, or nothing but drawn pairs) the sample has
//! no spread to estimate, so two virtual observations a quarter point either side of even
//! (0.25 and 0.75) are added to it: a few won pairs decide nothing, a sweep of about 15 accepts
//! H1 (for `elo0=0 elo1=10`), and about 60 drawn pairs accept H0, instead of a lopsided match
//! never stopping.

use super::elo::{Sample, Tally, expected_score};
use std::fmt;
use std::str::FromStr;

/// SPRT parameters, as given to `--sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: the difference is at most `elo0`.
    H0,
    /// H1 accepted: the difference is at least `elo1`.
    H1,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        })
    }
}

/// An `--sprt` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSprt(pub String);

impl fmt::Display for BadSprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad SPRT '{}' (expected elo0=0 elo1=5 alpha=0.05 beta=0.05, elo0 < elo1, 0 < alpha, beta < 0.5)",
            self.0
        )
    }
}

impl std::error::Error for BadSprt {}

impl FromStr for Sprt {
    type Err = BadSprt;

    /// Reads `elo0=… elo1=… [alpha=…] [beta=…]` (alpha and beta default to 0.05), separated by
    /// spaces or commas.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadSprt(s.to_string());
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for word in s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
        {
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            let value: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(bad)?;
            match key {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                _ => return Err(bad()),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(bad());
        };
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if elo0 >= elo1 || !probability(alpha) || !probability(beta) {
            return Err(bad());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Sprt {
    /// The lower (accept H0) and upper (accept H1) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the tally (0 without games; with the virtual spread of the
    /// module documentation while every observation is alike).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let mut sample = tally.sample();
        if sample.n == 0 {
            return 0.0;
        }
        if sample.variance <= 0.0 {
            sample = with_virtual_spread(sample);
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        sample.n as f64 * (s1 - s0) * (2.0 * sample.mean - s0 - s1) / (2.0 * sample.variance)
    }

    /// The decision for the tally, if reached.
    pub fn decision(&self, tally: &Tally) -> Option<Decision> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Decision::H1)
        } else if llr <= lower {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

/// `sample` (every observation alike) with two more observations, at 0.25 and 0.75.
fn with_virtual_spread(sample: Sample) -> Sample {
    const VIRTUAL: [f64; 2] = [0.25, 0.75];
    let n = sample.n as f64;
    let total = n + VIRTUAL.len() as f64;
    let sum = n * sample.mean + VIRTUAL.iter().sum::<f64>();
    let squares = n * (sample.variance + sample.mean * sample.mean)
        + VIRTUAL.iter().map(|x| x * x).sum::<f64>();
    let mean = sum / total;
    Sample {
        n: sample.n + VIRTUAL.len() as u64,
        mean,
        variance: (squares / total - mean * mean).max(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Computed independently in Python by summing ((x - s0)**2 - (x - s1)**2) / (2*var) over
    // the 120 expanded pair scores of pentanomial [5, 20, 50, 30, 15] (var = pvariance):
    // LLR(0, 5) = 0.797105, LLR(0, 20) = 2.602322; bounds ±ln(19) = ±2.944439.
    #[test]
    fn llr_and_bounds_match_a_worked_example() {
        let tally = Tally {
            pentanomial: [5, 20, 50, 30, 15],
            ..Tally::default()
        };
        let sprt: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().expect("valid");
        assert!((sprt.llr(&tally) - 0.797_105_0).abs() < 1e-6);
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_438_98).abs() < 1e-6 && (upper - 2.944_438_98).abs() < 1e-6);
        assert_eq!(sprt.decision(&tally), None);
        let wide: Sprt = "elo0=0,elo1=20".parse().expect("valid");
        assert!((wide.llr(&tally) - 2.602_321_5).abs() < 1e-6);
    }

    #[test]
    fn a_clear_result_decides_the_test_either_way() {
        let sprt: Sprt = "elo0=0 elo1=10".parse().expect("valid");
        let strong = Tally {
            pentanomial: [10, 40, 100, 120, 80],
            ..Tally::default()
        };
        assert_eq!(sprt.decision(&strong), Some(Decision::H1));
        let weak = Tally {
            pentanomial: [80, 120, 100, 40, 10],
            ..Tally::default()
        };
        assert_eq!(sprt.decision(&weak), Some(Decision::H0));
    }

    // With the virtual observations 0.25 and 0.75, n won pairs have mean (n + 1)/(n + 2) and
    // variance (n + 0.625)/(n + 2) − mean²; n drawn pairs have mean 0.5 and variance
    // 0.125/(n + 2). For elo0=0 elo1=10 (s1 − s0 = 0.014391) that makes LLR 1.57 after 10 won
    // pairs, 5.38 after 20; −(n + 2)² · 0.000828: −0.12 after 10 drawn pairs, −3.09 after 59.
    #[test]
    fn a_sweep_or_a_run_of_draws_decides_only_when_long() {
        let sprt: Sprt = "elo0=0 elo1=10".parse().expect("valid");
        let pairs = |pentanomial| Tally {
            pentanomial,
            ..Tally::default()
        };
        let llr = sprt.llr(&pairs([0, 0, 0, 0, 10]));
        assert!((llr - 1.568).abs() < 0.01, "{llr}");
        assert_eq!(sprt.decision(&pairs([0, 0, 0, 0, 10])), None);
        assert_eq!(sprt.decision(&pairs([0, 0, 0, 0, 20])), Some(Decision::H1));
        assert_eq!(sprt.decision(&pairs([20, 0, 0, 0, 0])), Some(Decision::H0));
        assert_eq!(sprt.decision(&pairs([0, 0, 10, 0, 0])), None);
        assert_eq!(sprt.decision(&pairs([0, 0, 59, 0, 0])), Some(Decision::H0));
        // Games without pairs: a sweep of single wins decides too.
        let mut games = Tally::default();
        for _ in 0..30 {
            games.add_game(1.0);
        }
        assert_eq!(sprt.decision(&games), Some(Decision::H1));
    }

    #[test]
    fn malformed_sprt_values_are_rejected() {
        for text in [
            "",
            "elo0=0",
            "elo0=5 elo1=0",
            "elo0=0 elo1=5 alpha=0.7",
            "elo0=x elo1=5",
            "foo=1 elo0=0 elo1=5",
        ] {
            assert!(text.parse::<Sprt>().is_err(), "{text}");
        }
    }
}
