//! The time manager: turns the limits of a `go` into a soft limit (do not start another
//! iteration after 60% of it) and a hard limit (abort the search), measured from the start of the search,
//! or from `ponderhit` when pondering.

use super::{Clock, Control, Limits};
use std::time::{Duration, Instant};

/// Moves the clock is planned to last when the protocol does not say (`movestogo` absent).
const DEFAULT_HORIZON: u32 = 35;
/// Below this much time left the clock is short: a move spends its plan scaled down by the
/// square of the share of this that is left (a quarter of it at 500 ms), and the hard limit is
/// at most [`HARD_OVER_SOFT_SHORT`] soft limits. With an increment the clock then settles well
/// above zero (at 5 s + 0.05 s near 0.8 s, and 0.6 s even if every move ran twice its soft
/// limit) instead of living on the last 100-200 ms, where one stall of a loaded match host
/// loses on time; with none, moves get quicker as the clock runs out, never a fixed floor.
const SHORT_CLOCK: Duration = Duration::from_secs(1);
/// On a short clock the hard limit is at most this many soft limits.
const HARD_OVER_SOFT_SHORT: f64 = 2.0;
/// Fraction of the increment counted as spendable on this move.
const INCREMENT_SHARE: f64 = 0.75;
/// The soft limit never exceeds this fraction of the usable clock.
const SOFT_CAP: f64 = 0.4;
/// The hard limit is at most this many soft limits …
const HARD_OVER_SOFT: f64 = 4.0;
/// … and at most this fraction of the usable clock.
const HARD_CAP: f64 = 0.7;
/// With `movestogo 1` the clock is renewed after this move: spend this fraction of it.
const LAST_MOVE_SHARE: f64 = 0.9;
/// A new iteration takes several times the last: none starts after this fraction of the soft
/// limit has gone.
const NEW_ITERATION_SHARE: f64 = 0.6;

/// The time limits of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Limits for `limits`, measured from now. No time limit for `infinite` or without a clock
    /// or `movetime`.
    pub fn new(limits: &Limits) -> TimeManager {
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            // `movetime` asks for exactly that time: no soft limit, the hard one ends it. The
            // overhead is kept back, but never more than half of it: `go movetime 10` with
            // the default 10 ms overhead still searches 5 ms, not nothing.
            let kept = limits.overhead.min(movetime / 2);
            (None, Some(movetime - kept))
        } else if let Some(clock) = &limits.clock {
            let (soft, hard) = clock_limits(clock, limits.overhead);
            (Some(soft), Some(hard))
        } else {
            (None, None)
        };
        TimeManager {
            start: Instant::now(),
            soft,
            hard,
        }
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// While pondering, the clock has not started: keeps moving the start to now.
    pub fn follow_ponder(&mut self, control: &Control) {
        if control.is_pondering() {
            self.start = Instant::now();
        }
    }

    /// Whether the hard limit has passed: abort the search now.
    pub fn hard_limit_passed(&self, control: &Control) -> bool {
        !control.is_pondering() && self.hard.is_some_and(|hard| self.elapsed() >= hard)
    }

    /// Whether another iteration should not start.
    pub fn soft_limit_passed(&self, control: &Control) -> bool {
        !control.is_pondering()
            && self.soft.is_some_and(|soft| {
                self.elapsed().as_secs_f64() >= soft.as_secs_f64() * NEW_ITERATION_SHARE
            })
    }

    /// The soft and hard limits (for logs and tests).
    pub fn limits(&self) -> (Option<Duration>, Option<Duration>) {
        (self.soft, self.hard)
    }
}

/// Soft and hard limits for a clock: the usable time (clock less overhead) spread over the
/// horizon, plus most of the increment, each capped to a safe fraction of the usable time.
fn clock_limits(clock: &Clock, overhead: Duration) -> (Duration, Duration) {
    let usable = clock.remaining.saturating_sub(overhead).as_secs_f64();
    if clock.moves_to_go == Some(1) {
        let all = Duration::from_secs_f64(usable * LAST_MOVE_SHARE);
        return (all, all);
    }
    let horizon = f64::from(clock.moves_to_go.unwrap_or(DEFAULT_HORIZON).max(1));
    let increment = clock.increment.as_secs_f64() * INCREMENT_SHARE;
    let mut soft = usable / horizon + increment;
    let mut hard_over_soft = HARD_OVER_SOFT;
    if clock.remaining < SHORT_CLOCK {
        soft *= (clock.remaining.as_secs_f64() / SHORT_CLOCK.as_secs_f64()).powi(2);
        hard_over_soft = HARD_OVER_SOFT_SHORT;
    }
    let soft = soft.min(usable * SOFT_CAP);
    let hard = (soft * hard_over_soft).min(usable * HARD_CAP);
    (Duration::from_secs_f64(soft), Duration::from_secs_f64(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            }),
            overhead: Duration::from_millis(10),
            ..Limits::default()
        }
    }

    #[test]
    fn hard_limit_stays_inside_the_clock_less_overhead() {
        for ms in [0, 1, 5, 10, 50, 100, 999, 1000, 5000, 60_000, 3_600_000] {
            for inc in [0, 50, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let tm = TimeManager::new(&clock(ms, inc, mtg));
                    let (soft, hard) = tm.limits();
                    let (soft, hard) = (soft.unwrap_or_default(), hard.unwrap_or_default());
                    assert!(soft <= hard, "{ms} {inc} {mtg:?}");
                    assert!(
                        hard <= Duration::from_millis(ms.saturating_sub(10)),
                        "{ms} {inc} {mtg:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn movetime_keeps_the_overhead_up_to_half_and_infinite_has_no_limit() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&limits).limits().1,
            Some(Duration::from_millis(990))
        );
        let short = Limits {
            movetime: Some(Duration::from_millis(10)),
            ..limits.clone()
        };
        assert_eq!(
            TimeManager::new(&short).limits().1,
            Some(Duration::from_millis(5)),
            "at most half of a short movetime is kept back"
        );
        let infinite = Limits {
            infinite: true,
            ..limits
        };
        assert_eq!(TimeManager::new(&infinite).limits(), (None, None));
    }

    #[test]
    fn on_an_increment_a_short_clock_builds_back_a_reserve() {
        // 5 s + 0.05 s: every move runs to twice its soft limit (or to the hard limit, when
        // that is less) plus the overhead, a pessimistic engine; the clock must settle far above
        // what a stall of the machine could eat.
        let mut remaining = 5000.0_f64;
        let mut lowest = remaining;
        for _ in 0..400 {
            let tm = TimeManager::new(&clock(remaining as u64, 50, None));
            let (soft, hard) = tm.limits();
            let ms = |d: Option<Duration>| d.unwrap_or_default().as_secs_f64() * 1000.0;
            let spent = (2.0 * ms(soft)).min(ms(hard));
            remaining = remaining - spent - 10.0 + 50.0;
            lowest = lowest.min(remaining);
        }
        assert!(lowest > 500.0, "the clock fell to {lowest:.0} ms");
        let (soft, hard) = TimeManager::new(&clock(500, 50, None)).limits();
        assert!(soft < Some(Duration::from_millis(25)), "{soft:?}");
        assert!(hard < Some(Duration::from_millis(50)), "{hard:?}");
    }

    #[test]
    fn more_time_left_means_a_longer_think() {
        let short = TimeManager::new(&clock(10_000, 0, None)).limits().0;
        let long = TimeManager::new(&clock(100_000, 0, None)).limits().0;
        assert!(short < long);
    }
}
