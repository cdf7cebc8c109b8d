//! The text summary printed at the end of a match (and of a merge), and what it reports besides
//! the standings; [`super::json`] writes the same as JSON.

use crate::referee::play::shard::Shard;
use crate::referee::stats::elo::Estimate;
use crate::referee::stats::sprt::{Decision, Sprt};
use crate::referee::stats::standings::Standings;

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every scheduled game was played.
    Completed,
    /// The SPRT reached a decision.
    Sprt(Decision),
    /// Stopped by a signal: Ctrl-C (SIGINT), SIGTERM or SIGHUP.
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
#[derive(Clone, Debug)]
pub struct Report {
    /// Engine names.
    pub names: Vec<String>,
    /// The match's time control (`--tc`), as given.
    pub tc: String,
    /// Each engine's time control (its `tc=`, or `--tc`).
    pub engine_tc: Vec<String>,
    /// Each engine's margin in milliseconds (its `margin=`, or `--margin`).
    pub engine_margin_ms: Vec<u64>,
    /// The seed used.
    pub seed: u64,
    /// Games scheduled in this run (a shard's part of the match, or all of it).
    pub planned: usize,
    /// Games of the whole match, all shards together.
    pub scheduled: usize,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Why the match ended.
    pub ending: Ending,
    /// The match identifier (see [`crate::referee::play::identity`]).
    pub match_id: String,
    /// The shard this run played, if sharded.
    pub shard: Option<Shard>,
    /// The shards a merge found, if this is a merge.
    pub merged: Option<Merged>,
}

/// The shards behind a merged summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Shards the match was split into.
    pub count: usize,
    /// Shard indices merged, ascending.
    pub present: Vec<usize>,
    /// Shard indices not found, ascending.
    pub missing: Vec<usize>,
    /// With `--sprt`: where the test is first decided when the merged games are counted in
    /// round order (about where one process would have stopped), if it is.
    pub first_decision: Option<FirstDecision>,
}

/// Where an SPRT is first decided, counting games in round order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstDecision {
    /// The round of the game that decided it.
    pub round: usize,
    /// Finished games counted by then.
    pub games: usize,
    /// The verdict then.
    pub decision: Decision,
}

/// The end-of-match text: one block per pairing and the count of each way games ended.
pub fn text(standings: &Standings, report: &Report) -> String {
    let odds = report.engine_tc.windows(2).any(|w| w[0] != w[1]);
    let tc = match report.engine_tc.first() {
        Some(tc) if !odds => format!("tc {tc}"),
        Some(_) => "time odds".into(),
        None => format!("tc {}", report.tc),
    };
    let mut out = format!(
        "Match {}: {} of {} games played, {tc}, seed {}\n",
        report.ending.describe(),
        standings.finished,
        report.planned,
        report.seed
    );
    out.push_str(&settings_text(report, odds));
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
    out.push_str(&super::rating_list::match_text(&report.names, standings));
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
    out.push_str(&faults_text(standings, report));
    out
}

/// Which engine lost how many games by which fault, and a warning when every game was.
fn faults_text(standings: &Standings, report: &Report) -> String {
    if standings.faults.is_empty() {
        return String::new();
    }
    let faults: Vec<String> = standings
        .faults
        .iter()
        .map(|((engine, fault), n)| {
            let name = report.names.get(*engine).map_or("?", String::as_str);
            format!("{name} {fault} {n}")
        })
        .collect();
    let mut out = format!(
        "Faults: {}
",
        faults.join(", ")
    );
    if standings.every_game_faulted() {
        out.push_str(
            "Every game ended by a fault: this match has no result
",
        );
    }
    out
}

/// The lines about shards and time odds, each only when it applies.
fn settings_text(report: &Report, odds: bool) -> String {
    let mut out = String::new();
    let list = |values: Vec<String>| -> String {
        report
            .names
            .iter()
            .zip(values)
            .map(|(name, value)| format!("{name} {value}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(shard) = report.shard {
        out.push_str(&format!(
            "Shard {shard} of match {}: {} of the match's {} games{}\n",
            report.match_id,
            report.planned,
            report.scheduled,
            if report.sprt.is_some() {
                " (a shard never stops early: the SPRT decides on the merged shards)"
            } else {
                ""
            }
        ));
    }
    if let Some(merged) = &report.merged {
        let numbers = |v: &[usize]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "Merged shards {} of {} of match {}\n",
            numbers(&merged.present),
            merged.count,
            report.match_id
        ));
        if !merged.missing.is_empty() {
            out.push_str(&format!(
                "Missing shards: {} (their games are not counted)\n",
                numbers(&merged.missing)
            ));
        }
        if let Some(first) = merged.first_decision {
            let there = if merged.missing.is_empty() {
                "one process would have stopped about there"
            } else {
                "counting the merged shards only"
            };
            out.push_str(&format!(
                "SPRT first decided ({}) at round {}, after {} games in round order: {there}\n",
                first.decision, first.round, first.games
            ));
        }
    }
    if odds {
        out.push_str(&format!(
            "Time controls: {}\n",
            list(report.engine_tc.clone())
        ));
    }
    if report.engine_margin_ms.windows(2).any(|w| w[0] != w[1]) {
        let margins = report.engine_margin_ms.iter().map(|m| format!("{m} ms"));
        out.push_str(&format!("Margins: {}\n", list(margins.collect())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::stats::elo::Tally;

    fn report() -> Report {
        Report {
            names: vec!["a".into(), "b".into()],
            tc: "st=0.1".into(),
            engine_tc: vec!["st=0.1".into(); 2],
            engine_margin_ms: vec![50; 2],
            seed: 1,
            planned: 10,
            scheduled: 10,
            sprt: None,
            ending: Ending::Completed,
            match_id: "00ff".into(),
            shard: None,
            merged: None,
        }
    }

    #[test]
    fn time_odds_shards_and_merges_are_named_in_the_text() {
        let standings = Standings::new(vec![(0, 1)]);
        let plain = text(&standings, &report());
        assert!(plain.starts_with("Match completed: 0 of 10 games played, tc st=0.1, seed 1\n"));
        assert!(
            !plain.contains("Time controls") && !plain.contains("Shard"),
            "{plain}"
        );
        let mut odds = report();
        odds.engine_tc = vec!["st=0.01".into(), "40/60+0.5".into()];
        odds.engine_margin_ms = vec![50, 200];
        odds.shard = Some(Shard { index: 2, count: 3 });
        odds.planned = 4;
        let shown = text(&standings, &odds);
        assert!(shown.contains(", time odds, seed 1\n"), "{shown}");
        assert!(
            shown.contains("Time controls: a st=0.01, b 40/60+0.5\n"),
            "{shown}"
        );
        assert!(shown.contains("Margins: a 50 ms, b 200 ms\n"), "{shown}");
        assert!(
            shown.contains("Shard 2/3 of match 00ff: 4 of the match's 10 games\n"),
            "{shown}"
        );
        let mut merged = report();
        merged.merged = Some(Merged {
            count: 3,
            present: vec![1, 3],
            missing: vec![2],
            first_decision: Some(FirstDecision {
                round: 7,
                games: 6,
                decision: Decision::H1,
            }),
        });
        let shown = text(&standings, &merged);
        assert!(
            shown.contains("Merged shards 1, 3 of 3 of match 00ff\n"),
            "{shown}"
        );
        assert!(shown.contains("Missing shards: 2 "), "{shown}");
        assert!(
            shown.contains(
                "SPRT first decided (H1 accepted) at round 7, after 6 games in round order: \
                 counting the merged shards only\n"
            ),
            "{shown}"
        );
        let value = crate::referee::records::json::head(&standings, &merged);
        assert_eq!(value["shards_missing"], serde_json::json!([2]));
        assert_eq!(
            value["sprt_first_decided"],
            serde_json::json!({"round": 7, "games": 6, "decision": "H1 accepted"})
        );
        assert_eq!(value["format"], 2);
        assert!(value["shard"].is_null());
    }

    #[test]
    fn a_sample_without_spread_reports_an_unknown_interval_not_zero() {
        let mut standings = Standings::new(vec![(0, 1)]);
        standings.tallies[0] = Tally {
            draws: 10,
            pentanomial: [0, 0, 5, 0, 0],
            ..Tally::default()
        };
        let report = report();
        let text = text(&standings, &report);
        assert!(
            text.contains(
                "Elo +0.0 (interval unknown: no spread yet), LOS 50.0% (from 5 complete game pairs)"
            ),
            "{text}"
        );
        assert!(!text.contains('±'), "{text}");
        let value = crate::referee::records::json::head(&standings, &report);
        let pairing = &value["pairings"][0];
        assert_eq!(pairing["elo"], 0.0);
        assert!(
            pairing["elo_low"].is_null() && pairing["elo_high"].is_null(),
            "{pairing}"
        );
    }
}
