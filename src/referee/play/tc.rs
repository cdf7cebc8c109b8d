//! Time controls (`40/60+0.5`, `60+0.5`, `st=0.1`, `nodes=N`, `depth=N`) and the clocks that
//! enforce them.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long a player may think, as given to `--tc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock: `base` for the first `moves` moves (or the whole game when `None`), refilled with
    /// `base` after every period, plus `increment` after each move.
    Clock {
        /// Moves per period (`40` in `40/60+0.5`), or `None` for sudden death.
        moves: Option<u32>,
        /// Time for each period.
        base: Duration,
        /// Time added after each move.
        increment: Duration,
    },
    /// A fixed time for every move (`st=0.1`), sent as `go movetime`.
    MoveTime(Duration),
    /// A node budget for every move, sent as `go nodes`.
    Nodes(u64),
    /// A depth for every move, sent as `go depth`.
    Depth(u32),
}

/// A `--tc` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTimeControl(pub String);

impl fmt::Display for BadTimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad time control '{}' (expected 40/60+0.5, 60+0.5, st=0.1, nodes=N or depth=N)",
            self.0
        )
    }
}

impl std::error::Error for BadTimeControl {}

/// Reads a non-negative number of seconds (`0.5`, `60`) into a duration.
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && (0.0..1.0e7).contains(&value)).then(|| Duration::from_secs_f64(value))
}

impl FromStr for TimeControl {
    type Err = BadTimeControl;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadTimeControl(s.to_string());
        let text = s.trim();
        if let Some(value) = text.strip_prefix("st=") {
            let time = seconds(value).filter(|t| !t.is_zero()).ok_or_else(bad)?;
            return Ok(TimeControl::MoveTime(time));
        }
        if let Some(value) = text.strip_prefix("nodes=") {
            let nodes = value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?;
            return Ok(TimeControl::Nodes(nodes));
        }
        if let Some(value) = text.strip_prefix("depth=") {
            let depth = value.parse().ok().filter(|&d| d > 0).ok_or_else(bad)?;
            return Ok(TimeControl::Depth(depth));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (
                Some(moves.parse().ok().filter(|&m| m > 0).ok_or_else(bad)?),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, inc)) => (seconds(base), seconds(inc)),
            None => (seconds(rest), Some(Duration::ZERO)),
        };
        match (base, increment) {
            (Some(base), Some(increment)) if !(base + increment).is_zero() => {
                Ok(TimeControl::Clock {
                    moves,
                    base,
                    increment,
                })
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(moves) = moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", base.as_secs_f64())?;
                if !increment.is_zero() {
                    write!(f, "+{}", increment.as_secs_f64())?;
                }
                Ok(())
            }
            TimeControl::MoveTime(time) => write!(f, "st={}", time.as_secs_f64()),
            TimeControl::Nodes(nodes) => write!(f, "nodes={nodes}"),
            TimeControl::Depth(depth) => write!(f, "depth={depth}"),
        }
    }
}

/// One player's clock during a game under a [`TimeControl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining: Duration,
    moves_made: u32,
}

/// A move that took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Time the move took.
    pub used: Duration,
    /// Time the clock allowed (margin excluded).
    pub allowed: Duration,
}

impl Overrun {
    /// By how much the move exceeded the allowed time.
    pub fn excess(&self) -> Duration {
        self.used.saturating_sub(self.allowed)
    }
}

impl Clock {
    /// A fresh clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let remaining = match control {
            TimeControl::Clock { base, .. } => base,
            TimeControl::MoveTime(time) => time,
            TimeControl::Nodes(_) | TimeControl::Depth(_) => Duration::ZERO,
        };
        Clock {
            control,
            remaining,
            moves_made: 0,
        }
    }

    /// The time left on the clock (the fixed move time for `st=`; zero for nodes and depth).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The time added after each move (zero unless the control is a clock with an increment).
    pub fn increment(&self) -> Duration {
        match self.control {
            TimeControl::Clock { increment, .. } => increment,
            _ => Duration::ZERO,
        }
    }

    /// Moves left until the clock is refilled, for `movestogo` (`None` in sudden death).
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_made % m),
            _ => None,
        }
    }

    /// The longest a move may take before it loses on time, margin excluded; `None` when the
    /// control has no clock (nodes, depth).
    pub fn allowed(&self) -> Option<Duration> {
        match self.control {
            TimeControl::Clock { .. } | TimeControl::MoveTime(_) => Some(self.remaining),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// Charges a move that took `used`: a time loss if it took longer than allowed plus
    /// `margin`; otherwise the clock is updated (increment added, period refilled).
    pub fn charge(&mut self, used: Duration, margin: Duration) -> Result<(), Overrun> {
        if let Some(allowed) = self.allowed() {
            if used > allowed + margin {
                return Err(Overrun { used, allowed });
            }
        }
        self.moves_made += 1;
        if let TimeControl::Clock {
            moves,
            base,
            increment,
        } = self.control
        {
            self.remaining = self.remaining.saturating_sub(used) + increment;
            if moves.is_some_and(|m| self.moves_made % m == 0) {
                self.remaining += base;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn every_form_of_time_control_reads_and_prints_back() {
        for text in [
            "40/60+0.5",
            "60+0.5",
            "10",
            "st=0.1",
            "nodes=5000",
            "depth=8",
        ] {
            let tc: TimeControl = text.parse().expect("valid");
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!(
            "40/60+0.5".parse(),
            Ok(TimeControl::Clock {
                moves: Some(40),
                base: ms(60_000),
                increment: ms(500)
            })
        );
    }

    #[test]
    fn malformed_time_controls_are_rejected() {
        for text in [
            "", "abc", "st=", "st=-1", "0/60", "60+x", "nodes=0", "depth=-3", "0+0", "x/60",
        ] {
            assert!(text.parse::<TimeControl>().is_err(), "{text}");
        }
    }

    #[test]
    fn clock_adds_increment_and_refills_each_period() {
        let mut clock = Clock::new("2/1+0.1".parse().expect("valid"));
        assert_eq!(clock.moves_to_go(), Some(2));
        clock.charge(ms(300), ms(0)).expect("in time");
        assert_eq!(clock.remaining(), ms(800));
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.charge(ms(800), ms(0)).expect("in time");
        assert_eq!(clock.remaining(), ms(1100));
        assert_eq!(clock.moves_to_go(), Some(2));
    }

    #[test]
    fn overrun_beyond_the_margin_loses_with_its_exact_excess() {
        let mut clock = Clock::new("st=0.1".parse().expect("valid"));
        assert!(clock.charge(ms(120), ms(20)).is_ok());
        let overrun = clock.charge(ms(137), ms(20)).expect_err("too slow");
        assert_eq!(overrun.excess(), ms(37));
    }
}
