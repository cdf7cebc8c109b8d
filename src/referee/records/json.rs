//! The JSON summary (`--json`, and `krou match merge --json`), format 2: the match's settings
//! and identity, totals and Elo figures per pairing, and every game with its moves. The layout is
//! documented in the README ("The JSON summary"); the HTML report and `krou match merge` read it.

use super::record::{GameRecord, PlayedMove, Reason};
use super::summary::Report;
use crate::referee::engines::info::Score;
use crate::referee::play::schedule::Job;
use crate::referee::stats::elo::Estimate;
use crate::referee::stats::standings::Standings;
use crate::rules::Side;
use serde_json::{Value, json};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A finite number as JSON, `null` otherwise.
fn number(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The version of the JSON summary's layout (`"format"`).
pub const FORMAT: u64 = 2;

/// The JSON summary but its games: match settings and identity, totals and Elo figures per
/// pairing. [`write`] adds the games.
pub fn head(standings: &Standings, report: &Report) -> Value {
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
    let mut value = json!({
        "format": FORMAT,
        "match_id": report.match_id,
        "shard": report.shard.map(|s| json!({"index": s.index, "count": s.count})),
        "engines": report.names,
        "engine_tc": report.engine_tc,
        "engine_margin_ms": report.engine_margin_ms,
        "tc": report.tc,
        "seed": report.seed,
        "sprt": report.sprt.map(|s| s.to_string()),
        "games_planned": report.planned,
        "games_scheduled": report.scheduled,
        "games_finished": standings.finished,
        "games_unfinished": standings.unfinished,
        "ending": report.ending.describe(),
        "reasons": standings.reasons,
        "pairings": pairings,
    });
    if let (Some(Ok(list)), Some(object)) = (
        super::rating_list::of_match(&report.names, standings),
        value.as_object_mut(),
    ) {
        let anchor = super::rating_list::match_anchor(&report.names);
        let prior = super::rating_list::MATCH_PRIOR_DRAWS;
        let ratings = super::rating_list::to_json(&list, &anchor, prior, &[]);
        object.insert("ratings".into(), ratings);
    }
    if let (Some(merged), Some(object)) = (&report.merged, value.as_object_mut()) {
        object.insert("shards_merged".into(), json!(merged.present));
        object.insert("shards_missing".into(), json!(merged.missing));
        if let Some(first) = merged.first_decision {
            object.insert(
                "sprt_first_decided".into(),
                json!({
                    "round": first.round,
                    "games": first.games,
                    "decision": first.decision.to_string(),
                }),
            );
        }
    }
    value
}

/// Writes the summary to `path`: `head`'s fields, then `"games"` (in the order given: sorted by
/// round), each game's compact JSON on a line of its own, made only when written, so that a long
/// match needs neither the memory nor the time of one pretty-printed tree. The file appears
/// whole (written as `PATH.partial`, then renamed) or not at all.
pub fn write(
    path: &Path,
    head: &Value,
    games: impl Iterator<Item = String>,
) -> std::io::Result<()> {
    // Written beside it and renamed when complete: a reader (a merge, a resumed run) never
    // sees half a file, and a failed write leaves no file that looks finished.
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let written = write_to(&partial, head, games).and_then(|()| std::fs::rename(&partial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

fn write_to(path: &Path, head: &Value, games: impl Iterator<Item = String>) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    out.write_all(b"{\n")?;
    for (key, value) in head.as_object().into_iter().flatten() {
        let value = serde_json::to_string_pretty(value)?.replace('\n', "\n  ");
        writeln!(out, "  {}: {value},", Value::from(key.as_str()))?;
    }
    out.write_all(b"  \"games\": [")?;
    for (i, game) in games.enumerate() {
        out.write_all(if i == 0 { b"\n    " } else { b",\n    " })?;
        out.write_all(game.as_bytes())?;
    }
    out.write_all(b"\n  ]\n}\n")?;
    out.flush()
}

/// One game of the JSON summary: players, opening, result, how it ended, its time controls,
/// its game pair, its record file (in `--ogn-dir`) and every move.
pub fn game_entry(job: &Job, g: &GameRecord, names: &[String], record: Option<String>) -> Value {
    let side = |side: Side| side.to_string().to_lowercase();
    let winner = match g.verdict.winner() {
        Some(Some(s)) => json!(side(s)),
        Some(None) => json!("draw"),
        None => Value::Null,
    };
    let faulty = match &g.reason {
        Reason::Fault { side: s, .. } => Some(side(*s)),
        _ => None,
    };
    let opening = g.opening.moves.len();
    let moves: Vec<Value> = g
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| move_entry(i, m, i < opening))
        .collect();
    json!({
        "round": g.round,
        "pairing": job.pairing,
        "pair": job.game_pair,
        "south": names.get(g.south),
        "north": names.get(g.north),
        "tc": {"south": g.tc[0].to_string(), "north": g.tc[1].to_string()},
        "opening": g.opening.to_string(),
        "result": g.result_text(),
        "winner": winner,
        "reason": g.reason.name(),
        "detail": g.reason.to_string(),
        "fault_by": faulty,
        "plies": g.moves.len(),
        "record": record,
        "moves": moves,
    })
}

/// The `i`-th move (0-based) of a game.
fn move_entry(i: usize, m: &PlayedMove, opening: bool) -> Value {
    let score = match m.thinking.score {
        Some(Score::Cp(cp)) => json!({ "cp": cp }),
        Some(Score::Mate(n)) => json!({ "mate": n }),
        None => Value::Null,
    };
    let ms = m
        .used
        .map(|used| (used.as_secs_f64() * 1000.0).round() as u64);
    json!({
        "ply": i + 1,
        "side": m.mv.side().to_string().to_lowercase(),
        "move": m.mv.letter().to_string(),
        "opening": opening,
        "ms": ms,
        "score": score,
        "depth": m.thinking.depth,
    })
}
