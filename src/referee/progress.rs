//! The live progress line on stderr: rewritten in place on a terminal, otherwise printed at
//! most once a second.

use super::sprt::Sprt;
use super::standings::Standings;
use super::stats::Estimate;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Shortest interval between two progress lines.
const TERMINAL_INTERVAL: Duration = Duration::from_millis(100);
/// Shortest interval between two progress lines when stderr is not a terminal.
const LOG_INTERVAL: Duration = Duration::from_secs(1);

/// Prints progress lines.
pub struct Progress {
    terminal: bool,
    last: Option<Instant>,
    started: Instant,
    total: usize,
}

impl Progress {
    /// Progress of a match of `total` games.
    pub fn new(total: usize) -> Progress {
        Progress {
            terminal: std::io::stderr().is_terminal(),
            last: None,
            started: Instant::now(),
            total,
        }
    }

    /// Shows the standings of pairing `pairing` (unless shown very recently; `force` always).
    pub fn show(
        &mut self,
        standings: &Standings,
        pairing: usize,
        names: &[String],
        sprt: Option<&Sprt>,
        force: bool,
    ) {
        let interval = if self.terminal {
            TERMINAL_INTERVAL
        } else {
            LOG_INTERVAL
        };
        if !force && self.last.is_some_and(|t| t.elapsed() < interval) {
            return;
        }
        self.last = Some(Instant::now());
        let line = line(
            standings,
            pairing,
            names,
            sprt,
            self.total,
            self.started.elapsed(),
        );
        let mut err = std::io::stderr().lock();
        let written = if self.terminal {
            write!(err, "\r\x1b[2K{line}")
        } else {
            writeln!(err, "{line}")
        };
        if written.and_then(|()| err.flush()).is_err() {
            self.terminal = false;
        }
    }

    /// Ends the in-place line on a terminal.
    pub fn finish(&self) {
        if self.terminal {
            eprintln!();
        }
    }
}

/// `[12/100 3.2s] krou vs random: +5 =2 -5  Elo +10.2 ±40.1  LOS 62.3%  LLR 0.53 [-2.94, 2.94]`
pub fn line(
    standings: &Standings,
    pairing: usize,
    names: &[String],
    sprt: Option<&Sprt>,
    total: usize,
    elapsed: Duration,
) -> String {
    let (a, b) = standings.pairings[pairing];
    let tally = &standings.tallies[pairing];
    let mut line = format!(
        "[{}/{total} {:.1}s] {} vs {}: +{} ={} -{}",
        standings.finished + standings.unfinished,
        elapsed.as_secs_f64(),
        names[a],
        names[b],
        tally.wins,
        tally.draws,
        tally.losses
    );
    if let Some(e) = Estimate::of(tally) {
        line.push_str(&format!(
            "  Elo {:+.1} {}  LOS {:.1}%",
            e.elo,
            e.error_text(),
            e.los * 100.0
        ));
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        line.push_str(&format!(
            "  LLR {:.2} [{lower:.2}, {upper:.2}]",
            sprt.llr(tally)
        ));
    }
    line
}
