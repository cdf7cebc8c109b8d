//! How a player loses a game by misbehaving, each with a named reason.

use std::fmt;
use std::time::Duration;

/// A fault that loses the game for the player who commits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The engine could not be started at all.
    StartFailed(String),
    /// No `uciok` within the timeout.
    NoUciOk(Duration),
    /// No `readyok` within the timeout.
    NoReadyOk(Duration),
    /// No `bestmove` within the timeout (controls without a clock: `nodes=`, `depth=`).
    NoBestMove(Duration),
    /// The move took longer than the clock allowed plus the margin.
    TimeForfeit {
        /// Time the move took (at least this long when the engine never answered).
        used: Duration,
        /// Time the clock allowed.
        allowed: Duration,
        /// Whether a `bestmove` came at all (late) before the referee gave up waiting.
        answered: bool,
    },
    /// The engine exited or closed its output.
    Crashed(String),
    /// A well-formed move the rules do not allow here.
    IllegalMove {
        /// The move as sent.
        text: String,
        /// Why the rules refuse it.
        why: String,
    },
    /// A `bestmove` line that does not hold a move.
    MalformedMove(String),
}

impl Fault {
    /// The short reason name used in summaries, JSON and game records.
    pub const fn name(&self) -> &'static str {
        match self {
            Fault::StartFailed(_) => "start failed",
            Fault::NoUciOk(_) => "no uciok",
            Fault::NoReadyOk(_) => "no readyok",
            Fault::NoBestMove(_) => "no bestmove",
            Fault::TimeForfeit { .. } => "time forfeit",
            Fault::Crashed(_) => "crash",
            Fault::IllegalMove { .. } => "illegal move",
            Fault::MalformedMove(_) => "malformed move",
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name();
        match self {
            Fault::StartFailed(why) => write!(f, "{name}: {why}"),
            Fault::NoUciOk(t) | Fault::NoReadyOk(t) | Fault::NoBestMove(t) => {
                write!(f, "{name} within {}", ms(*t))
            }
            Fault::TimeForfeit {
                used,
                allowed,
                answered: true,
            } => write!(
                f,
                "{name}: used {} of {}, over by {}",
                ms(*used),
                ms(*allowed),
                ms(used.saturating_sub(*allowed))
            ),
            Fault::TimeForfeit {
                used,
                allowed,
                answered: false,
            } => write!(
                f,
                "{name}: no bestmove after {} with {} allowed, over by more than {}",
                ms(*used),
                ms(*allowed),
                ms(used.saturating_sub(*allowed))
            ),
            Fault::Crashed(why) => write!(f, "{name}: {why}"),
            Fault::IllegalMove { text, why } => write!(f, "{name} '{text}': {why}"),
            Fault::MalformedMove(line) => write!(f, "{name}: '{line}'"),
        }
    }
}

/// Why a player did not produce a move: a fault, or the match being stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The player misbehaved and loses.
    Fault(Fault),
    /// The match is stopping (a signal, or the SPRT decided); the game is left unfinished.
    Aborted,
}

impl From<Fault> for Stop {
    fn from(fault: Fault) -> Stop {
        Stop::Fault(fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_forfeit_names_its_exact_overrun() {
        let fault = Fault::TimeForfeit {
            used: Duration::from_micros(112_400),
            allowed: Duration::from_millis(100),
            answered: true,
        };
        assert_eq!(
            fault.to_string(),
            "time forfeit: used 112.4 ms of 100.0 ms, over by 12.4 ms"
        );
    }
}
