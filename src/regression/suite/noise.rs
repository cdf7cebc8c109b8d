//! How much a solved count can move by chance: the 95% interval of a run's solved share (the
//! Wilson score interval), and whether the positions that changed between two runs on the same
//! suite tilt one way beyond chance (the two-sided sign test, McNemar's exact test).

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of `solved` out of `n`, as shares from 0 to 1 (`(0, 1)` for
/// an empty run).
pub fn solved_interval(solved: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = solved as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The two-sided p-value that `gained` newly solved and `lost` newly failed positions came by
/// chance from two equally strong runs: each changed position as likely to go either way.
pub fn sign_test(gained: usize, lost: usize) -> f64 {
    let n = gained + lost;
    if n == 0 {
        return 1.0;
    }
    let k = gained.min(lost);
    // P(X <= k) for X ~ Binomial(n, 1/2), summed in logarithms so that large n stays exact.
    let ln_half_n = n as f64 * 0.5f64.ln();
    let mut ln_choose = 0.0;
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_choose + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Whether a change of `gained` against `lost` is beyond noise at the 5% level.
pub fn beyond_noise(gained: usize, lost: usize) -> bool {
    sign_test(gained, lost) < 0.05
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn the_wilson_interval_matches_known_values() {
        let (lo, hi) = solved_interval(0, 10);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = solved_interval(5, 10);
        assert!(close(lo, 0.2366) && close(hi, 0.7634), "{lo} {hi}");
        let (lo, hi) = solved_interval(1219, 1220);
        assert!(close(lo, 0.9954) && close(hi, 0.9999), "{lo} {hi}");
        assert_eq!(solved_interval(0, 0), (0.0, 1.0));
    }

    #[test]
    fn the_sign_test_matches_the_binomial_distribution() {
        assert!(close(sign_test(8, 0), 2.0 / 256.0));
        assert!(close(sign_test(5, 3), 0.7266));
        assert!(close(sign_test(3, 5), 0.7266), "symmetric");
        assert_eq!(sign_test(0, 0), 1.0);
        assert!(close(sign_test(10, 10), 1.0));
        // 60 against 40: p = 0.0569, not beyond noise; 61 against 39: 0.0352.
        assert!(close(sign_test(60, 40), 0.0569) && !beyond_noise(60, 40));
        assert!(close(sign_test(61, 39), 0.0352) && beyond_noise(61, 39));
        assert!(sign_test(3000, 2000) < 1e-20, "large counts stay finite");
    }
}
