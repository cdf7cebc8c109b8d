//! The live progress of a match on stderr, drawn by `indicatif`: a bar and the standings of the
//! pairing that last finished a game, rewritten in place on a terminal; nothing when stderr is
//! not a terminal (logs and pipes get the summary only).

use crate::referee::stats::elo::Estimate;
use crate::referee::stats::sprt::Sprt;
use crate::referee::stats::standings::Standings;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar's layout: games done of planned, time elapsed, then the standings.
const TEMPLATE: &str = "[{pos}/{len} {elapsed}] {bar:20} {wide_msg}";

/// Shows a match's progress.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// Progress of a match of `total` games (hidden when stderr is not a terminal).
    pub fn new(total: usize) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar }
    }

    /// Shows the games done and the standings of pairing `pairing` (drawn at most a few
    /// times a second).
    pub fn show(
        &mut self,
        standings: &Standings,
        pairing: usize,
        names: &[String],
        sprt: Option<&Sprt>,
    ) {
        self.bar
            .set_position((standings.finished + standings.unfinished) as u64);
        self.bar.set_message(line(standings, pairing, names, sprt));
    }

    /// Leaves the last state on the terminal.
    pub fn finish(&self) {
        self.bar.abandon();
    }
}

/// `krou vs random: +5 =2 -5  Elo +10.2 ±40.1  LOS 62.3%  LLR 0.53 [-2.94, 2.94]`
pub fn line(
    standings: &Standings,
    pairing: usize,
    names: &[String],
    sprt: Option<&Sprt>,
) -> String {
    let (a, b) = standings.pairings[pairing];
    let tally = &standings.tallies[pairing];
    let mut line = format!(
        "{} vs {}: +{} ={} -{}",
        names[a], names[b], tally.wins, tally.draws, tally.losses
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::stats::elo::Tally;

    #[test]
    fn the_line_shows_the_pairing_its_results_and_the_sprt() {
        let mut standings = Standings::new(vec![(0, 1)]);
        standings.tallies[0] = Tally {
            wins: 3,
            draws: 1,
            losses: 2,
            pentanomial: [0, 1, 1, 1, 0],
        };
        let names = ["new".to_string(), "base".to_string()];
        let sprt: Sprt = "elo0=0 elo1=5".parse().expect("valid");
        let text = line(&standings, 0, &names, Some(&sprt));
        assert!(
            text.starts_with("new vs base: +3 =1 -2  Elo +0.0 ±"),
            "{text}"
        );
        assert!(text.ends_with("[-2.94, 2.94]"), "{text}");
    }
}
