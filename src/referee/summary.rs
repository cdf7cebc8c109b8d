//! The text summary printed at the end of a match, and the JSON summary (`--json`).

use super::record::{GameRecord, Reason};
use super::sprt::{Decision, Sprt};
use super::standings::Standings;
use super::stats::Estimate;
use serde_json::{Value, json};

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every scheduled game was played.
    Completed,
    /// The SPRT reached a decision.
    Sprt(Decision),
    /// Ctrl-C.
    Interrupted,
}

impl Ending {
    /// `completed`, `sprt: H1 accepted`, `interrupted`.
    pub fn describe(self) -> String {
        match self {
            Ending::Completed => "completed".into(),
            Ending::Sprt(decision) => format!("sprt: {decision}"),
            Ending::Interrupted => "interrupted".into(),
        }
    }
}

/// What the summaries describe besides the standings.
pub struct Report<'a> {
    /// Engine names.
    pub names: &'a [String],
    /// Time control as given.
    pub tc: String,
    /// The seed used.
    pub seed: u64,
    /// Games scheduled.
    pub planned: usize,
    /// The SPRT, if any.
    pub sprt: Option<&'a Sprt>,
    /// Why the match ended.
    pub ending: Ending,
}

/// The end-of-match text: one block per pairing and the count of each way games ended.
pub fn text(standings: &Standings, report: &Report) -> String {
    let mut out = format!(
        "Match {}: {} of {} games played, tc {}, seed {}\n",
        report.ending.describe(),
        standings.finished,
        report.planned,
        report.tc,
        report.seed
    );
    for (i, &(a, b)) in standings.pairings.iter().enumerate() {
        let t = &standings.tallies[i];
        out.push_str(&format!("{} vs {}\n", report.names[a], report.names[b]));
        let score = t
            .score()
            .map_or_else(|| "-".into(), |s| format!("{:.1}%", s * 100.0));
        out.push_str(&format!(
            "  Games {}: {} wins, {} draws, {} losses, score {score}\n",
            t.games(),
            t.wins,
            t.draws,
            t.losses
        ));
        let [ll, ld, dd, wd, ww] = t.pentanomial;
        out.push_str(&format!(
            "  Pentanomial [LL LD DD+WL WD WW]: [{ll} {ld} {dd} {wd} {ww}]\n"
        ));
        let pairs: u64 = t.pentanomial.iter().sum();
        let basis = if pairs > 0 {
            let s = if pairs == 1 { "" } else { "s" };
            format!("from {pairs} complete game pair{s}")
        } else {
            format!("from {} single games", t.games())
        };
        match Estimate::of(t) {
            Some(e) if e.interval_known() => out.push_str(&format!(
                "  Elo {:+.1} ±{:.1} (95%: {:+.1} to {:+.1}), LOS {:.1}% ({basis})\n",
                e.elo,
                e.error(),
                e.low,
                e.high,
                e.los * 100.0
            )),
            Some(e) => out.push_str(&format!(
                "  Elo {:+.1} {}, LOS {:.1}% ({basis})\n",
                e.elo,
                e.error_text(),
                e.los * 100.0
            )),
            None => {}
        }
        if let Some(sprt) = report.sprt {
            let (lower, upper) = sprt.bounds();
            let verdict = sprt
                .decision(t)
                .map_or_else(|| "undecided".into(), |d| d.to_string());
            out.push_str(&format!(
                "  SPRT ({sprt}): LLR {:.2} [{lower:.2}, {upper:.2}], {verdict}\n",
                sprt.llr(t)
            ));
        }
    }
    let reasons: Vec<String> = standings
        .reasons
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    out.push_str(&format!(
        "Games ended by: {}\n",
        if reasons.is_empty() {
            "-".into()
        } else {
            reasons.join(", ")
        }
    ));
    out
}

/// A finite number as JSON, `null` otherwise.
fn number(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The JSON summary: match settings, totals and Elo figures per pairing, and one entry per game.
pub fn json(standings: &Standings, report: &Report, games: &[GameRecord]) -> Value {
    let pairings: Vec<Value> = standings
        .pairings
        .iter()
        .zip(&standings.tallies)
        .map(|(&(a, b), t)| {
            let e = Estimate::of(t);
            let sprt = report.sprt.map(|s| {
                let (lower, upper) = s.bounds();
                json!({
                    "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                    "llr": number(s.llr(t)), "lower": lower, "upper": upper,
                    "decision": s.decision(t).map(|d| d.to_string()),
                })
            });
            json!({
                "first": report.names[a], "second": report.names[b],
                "games": t.games(), "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "score": t.score().map(number),
                "pentanomial": t.pentanomial,
                "elo": e.map(|e| number(e.elo)),
                "elo_low": e.map(|e| number(e.low)),
                "elo_high": e.map(|e| number(e.high)),
                "los": e.map(|e| number(e.los)),
                "sprt": sprt,
            })
        })
        .collect();
    let games: Vec<Value> = games.iter().map(|g| game_json(g, report.names)).collect();
    json!({
        "engines": report.names,
        "tc": report.tc,
        "seed": report.seed,
        "games_planned": report.planned,
        "games_finished": standings.finished,
        "games_unfinished": standings.unfinished,
        "ending": report.ending.describe(),
        "reasons": standings.reasons,
        "pairings": pairings,
        "games": games,
    })
}

fn game_json(g: &GameRecord, names: &[String]) -> Value {
    let winner = match g.verdict.winner() {
        Some(Some(side)) => json!(side.to_string().to_lowercase()),
        Some(None) => json!("draw"),
        None => Value::Null,
    };
    let faulty = match &g.reason {
        Reason::Fault { side, .. } => Some(side.to_string().to_lowercase()),
        _ => None,
    };
    json!({
        "round": g.round,
        "south": names.get(g.south),
        "north": names.get(g.north),
        "opening": g.opening.to_string(),
        "result": g.result_text(),
        "winner": winner,
        "reason": g.reason.name(),
        "detail": g.reason.to_string(),
        "fault_by": faulty,
        "plies": g.moves.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::stats::Tally;

    #[test]
    fn a_sample_without_spread_reports_an_unknown_interval_not_zero() {
        let mut standings = Standings::new(vec![(0, 1)]);
        standings.tallies[0] = Tally {
            draws: 10,
            pentanomial: [0, 0, 5, 0, 0],
            ..Tally::default()
        };
        let names = ["a".to_string(), "b".to_string()];
        let report = Report {
            names: &names,
            tc: "st=0.1".into(),
            seed: 1,
            planned: 10,
            sprt: None,
            ending: Ending::Completed,
        };
        let text = text(&standings, &report);
        assert!(
            text.contains(
                "Elo +0.0 (interval unknown: no spread yet), LOS 50.0% (from 5 complete game pairs)"
            ),
            "{text}"
        );
        assert!(!text.contains('±'), "{text}");
        let value = json(&standings, &report, &[]);
        let pairing = &value["pairings"][0];
        assert_eq!(pairing["elo"], 0.0);
        assert!(
            pairing["elo_low"].is_null() && pairing["elo_high"].is_null(),
            "{pairing}"
        );
    }
}
