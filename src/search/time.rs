//! The time manager: turns the limits of a `go` into a soft limit (do not start another
//! iteration after 60% of it) and a hard limit (abort the search), measured from the start of the search,
//! or from `ponderhit` when pondering.
//!
//! A clock without `movestogo` is shared out by a [`Plan`]: evenly over a fixed horizon, or by
//! the game's phase, which gives the middle game more and the opening and the long endgame less.

use super::{Clock, Control, Limits};
use std::time::{Duration, Instant};

/// Moves the clock is planned to last when the protocol does not say (`movestogo` absent). 15,
/// not 35: over 35, Krou ended its `10+0.1` games with a median 8.7 s of its 10 s unspent,
/// because from the middle game on many searches end early on proven results and hand back
/// their increments; over 15 the opening and the middle game spend them (SPRT at `10+0.1`
/// against 35, see docs/search.md).
const DEFAULT_HORIZON: u32 = 15;
/// Below this much time left the clock is short: a move spends its plan scaled down by the
/// square of the share of this that is left (a quarter of it at 500 ms), and the hard limit is
/// at most [`HARD_OVER_SOFT_SHORT`] soft limits. With an increment the clock then settles well
/// above zero (at 5 s + 0.05 s near 0.7–0.8 s, and above 0.5 s even if every move ran twice
/// its soft limit, by plan and phase) instead of living on the last 100-200 ms, where one stall of
/// a loaded match host loses on time; with none, moves get quicker as the clock runs out,
/// never a fixed floor.
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
/// `go movetime`: at most this fraction (one over it) of the movetime is kept back for the
/// overhead (SPRTs at `st=0.002` against a quarter and at `st=0.01` against a half, see
/// docs/search.md).
const MOVETIME_KEPT_DIVISOR: u32 = 8;
/// With `movestogo 1` the clock is renewed after this move: spend this fraction of it.
const LAST_MOVE_SHARE: f64 = 0.9;
/// A new iteration takes several times the last: none starts after this fraction of the soft
/// limit has gone.
const NEW_ITERATION_SHARE: f64 = 0.6;
/// [`Plan::ByPhase`]: the moves a side still plays, each weighted by [`phase_weight`], add up
/// to about the seeds on the board (measured in games, see docs/search.md); the plan counts at
/// least this many, because long endgames are common and a middle game can stall without
/// captures.
const LEAST_WEIGHTED_MOVES_LEFT: u8 = 20;

/// How a clock without `movestogo` is shared out between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The same share of the clock at every move, as if [`DEFAULT_HORIZON`] moves were left.
    Even,
    /// A share by the game's phase, given by the seeds on the board (see [`phase_weight`]), of
    /// the clock and the increments still to come (see [`moves_to_play`]).
    ByPhase {
        /// Seeds on the board at the root.
        seeds_on_board: u8,
    },
}

/// What a move at `seeds_on_board` is worth spending on, against a middle-game move's 1, after
/// how much a side's score fell, on average, from one of its moves to its next (measured in
/// games, see docs/search.md): four fifths of the middle game's drop in the opening (36 seeds
/// or more), the most from 35 seeds down to 16, less at 8–15 seeds, where the endgame tables
/// answer most of the tree, and less again below.
pub fn phase_weight(seeds_on_board: u8) -> f64 {
    match seeds_on_board {
        36.. => 0.8,
        16..=35 => 1.0,
        8..=15 => 0.4,
        _ => 0.2,
    }
}

/// About how many moves a side still plays from a position with `seeds_on_board` (the mean in
/// games, see docs/search.md: 73 from 40–48 seeds, 59 from 30–35, 50 from 24–29, 42 from 8–23,
/// 15 from 4–7): the increments [`Plan::ByPhase`] can count on.
pub fn moves_to_play(seeds_on_board: u8) -> u8 {
    if seeds_on_board >= 8 {
        seeds_on_board.saturating_add(24).max(40)
    } else {
        2 * seeds_on_board + 2
    }
}

/// The time limits of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Limits for `limits`, measured from now, a clock shared out by `plan`. No time limit for
    /// `infinite` or without a clock or `movetime`.
    pub fn new(limits: &Limits, plan: Plan) -> TimeManager {
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            // `movetime` asks for exactly that time: no soft limit, the hard one ends it. The
            // overhead is kept back, but never more than an eighth of it: a client that asks
            // for 2 ms cannot mean to wait 10 ms for the pipe, and Krou answers about 0.15 ms
            // after its hard limit (median, idle machine), so `go movetime 2` searches 1.75 ms
            // and `go movetime 10` 8.75 ms; from 8 overheads on (80 ms at the default 10 ms)
            // the whole overhead is kept.
            let kept = limits.overhead.min(movetime / MOVETIME_KEPT_DIVISOR);
            (None, Some(movetime - kept))
        } else if let Some(clock) = &limits.clock {
            let (soft, hard) = clock_limits(clock, limits.overhead, plan);
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

/// Soft and hard limits for a clock: this move's share of the usable time (clock less
/// overhead), plus most of the increment, each capped to a safe fraction of the usable time.
/// The share is one over the moves to go (`movestogo`, else the horizon) or, by phase, this
/// move's weight over the weighted moves left, of the clock and the increments to come.
fn clock_limits(clock: &Clock, overhead: Duration, plan: Plan) -> (Duration, Duration) {
    let usable = clock.remaining.saturating_sub(overhead).as_secs_f64();
    if clock.moves_to_go == Some(1) {
        let all = Duration::from_secs_f64(usable * LAST_MOVE_SHARE);
        return (all, all);
    }
    let increment = clock.increment.as_secs_f64();
    let mut soft = match (clock.moves_to_go, plan) {
        (Some(moves), _) => usable / f64::from(moves.max(1)) + increment * INCREMENT_SHARE,
        (None, Plan::Even) => usable / f64::from(DEFAULT_HORIZON) + increment * INCREMENT_SHARE,
        (None, Plan::ByPhase { seeds_on_board }) => {
            // The clock and the increments still to come, counted as at most the clock again:
            // the endgame's searches mostly end early on proven results, and hand back most of
            // their increments to be spent before.
            let to_come = increment * f64::from(moves_to_play(seeds_on_board));
            let moves_left = seeds_on_board.max(LEAST_WEIGHTED_MOVES_LEFT);
            (usable + to_come.min(usable)) * phase_weight(seeds_on_board) / f64::from(moves_left)
        }
    };
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

    /// Every plan the tests try: even, and by phase at seed counts across the game.
    fn plans() -> Vec<Plan> {
        let by_phase = [0, 1, 4, 7, 8, 12, 15, 16, 20, 24, 35, 36, 47, 48];
        let by_phase = by_phase.map(|seeds_on_board| Plan::ByPhase { seeds_on_board });
        std::iter::once(Plan::Even).chain(by_phase).collect()
    }

    /// The soft and hard limits in milliseconds (0 for none).
    fn limits_ms(limits: &Limits, plan: Plan) -> (f64, f64) {
        let (soft, hard) = TimeManager::new(limits, plan).limits();
        let ms = |d: Option<Duration>| d.unwrap_or_default().as_secs_f64() * 1000.0;
        (ms(soft), ms(hard))
    }

    #[test]
    fn hard_limit_stays_inside_the_clock_less_overhead() {
        for plan in plans() {
            for ms in [0, 1, 5, 10, 50, 100, 999, 1000, 5000, 60_000, 3_600_000] {
                for inc in [0, 50, 1000] {
                    for mtg in [None, Some(1), Some(2), Some(40)] {
                        let (soft, hard) = limits_ms(&clock(ms, inc, mtg), plan);
                        assert!(soft <= hard, "{ms} {inc} {mtg:?} {plan:?}");
                        assert!(
                            hard <= ms.saturating_sub(10) as f64,
                            "{ms} {inc} {mtg:?} {plan:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn movetime_keeps_the_overhead_up_to_an_eighth_and_infinite_has_no_limit() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(1000)),
            overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let short = Limits {
            movetime: Some(Duration::from_millis(10)),
            ..limits.clone()
        };
        let infinite = Limits {
            infinite: true,
            ..limits.clone()
        };
        for plan in plans() {
            assert_eq!(
                TimeManager::new(&limits, plan).limits().1,
                Some(Duration::from_millis(990))
            );
            assert_eq!(
                TimeManager::new(&short, plan).limits().1,
                Some(Duration::from_micros(8750)),
                "at most an eighth of a short movetime is kept back"
            );
            assert_eq!(TimeManager::new(&infinite, plan).limits(), (None, None));
        }
    }

    #[test]
    fn on_an_increment_a_short_clock_builds_back_a_reserve() {
        // 5 s + 0.05 s: every move runs to twice its soft limit (or to the hard limit, when
        // that is less) plus the overhead, a pessimistic engine; the clock must settle far above
        // what a stall of the machine could eat, whatever the phase. (The tightest plan, by
        // phase at 16-20 seeds, settles a few tens of milliseconds above the bound: a plan that
        // spends more of a short clock must answer to this test.)
        for plan in plans() {
            let mut remaining = 5000.0_f64;
            let mut lowest = remaining;
            for _ in 0..400 {
                let (soft, hard) = limits_ms(&clock(remaining as u64, 50, None), plan);
                let spent = (2.0 * soft).min(hard);
                remaining = remaining - spent - 10.0 + 50.0;
                lowest = lowest.min(remaining);
            }
            assert!(
                lowest > 500.0,
                "the clock fell to {lowest:.0} ms ({plan:?})"
            );
            let (soft, hard) = limits_ms(&clock(500, 50, None), plan);
            assert!(soft < 25.0, "{soft} ({plan:?})");
            assert!(hard < 50.0, "{hard} ({plan:?})");
        }
    }

    #[test]
    fn more_time_left_means_a_longer_think() {
        for plan in plans() {
            let short = limits_ms(&clock(10_000, 0, None), plan).0;
            let long = limits_ms(&clock(100_000, 0, None), plan).0;
            assert!(short < long, "{plan:?}");
        }
    }

    #[test]
    fn by_phase_the_middle_game_gets_more_than_the_opening_and_the_endgame() {
        let soft = |seeds_on_board| {
            limits_ms(&clock(10_000, 100, None), Plan::ByPhase { seeds_on_board }).0
        };
        let even = limits_ms(&clock(10_000, 100, None), Plan::Even).0;
        for middle in 16..=35 {
            for other in [48, 40, 15, 8, 7, 4, 0] {
                assert!(soft(middle) > soft(other), "{middle} against {other} seeds");
            }
        }
        // The plan was drawn up against an even share over 35 moves, which the middle game
        // beat; the even plan now shares the clock over 15 moves, more than any phase gets
        // at 10 s + 0.1 s (it spends the increments the endgame hands back sooner).
        assert!(soft(24) < even);
        assert!(soft(48) < even && soft(10) < even);
        assert!(soft(8) > soft(7), "the last endgame gets least");
    }

    #[test]
    fn movestogo_is_shared_evenly_whatever_the_plan() {
        for plan in plans() {
            for mtg in [1, 2, 10, 40] {
                let limits = clock(30_000, 100, Some(mtg));
                assert_eq!(limits_ms(&limits, plan), limits_ms(&limits, Plan::Even));
            }
        }
    }

    #[test]
    fn by_phase_a_long_endgame_without_increment_keeps_as_much_as_the_even_plan() {
        // 10 s, no increment: a middle game losing a seed a move from 48 to 16 seeds, then a
        // long endgame (100 moves at 10 seeds, 30 at 5); every move spends its soft limit
        // (the overhead is kept back from what the plan shares out, so it is not counted).
        let game = (16..=48).rev().chain([10; 100]).chain([5; 30]);
        let left = |by_phase: bool| {
            game.clone()
                .fold(10_000.0_f64, |remaining, seeds_on_board| {
                    let plan = if by_phase {
                        Plan::ByPhase { seeds_on_board }
                    } else {
                        Plan::Even
                    };
                    let (soft, _) = limits_ms(&clock(remaining as u64, 0, None), plan);
                    remaining - soft
                })
        };
        let (by_phase, even) = (left(true), left(false));
        assert!(by_phase >= even, "{by_phase:.0} against {even:.0} ms");
    }
}
