//! `krou match merge`: reads the JSON summaries of a sharded match's shards and reports what one
//! process would have for their games: the same totals, pentanomial counts, Elo, LOS and SPRT
//! verdict, and one JSON summary with every game, sorted by round.
//!
//! It refuses files of different matches (different match identifiers), of different splits
//! (`--shard K/N` with different N), the same shard twice and a round found twice, naming the
//! files, and (like `krou match report`) a game with a malformed field, a result that does not
//! agree with its winner, or a round or game pair that is not the shard's. Missing shards are
//! named and their games left out. A shard never stops early on `--sprt`; the merge gives the
//! verdict of the test on all the merged games (and says so in `ending`), and where it is first
//! decided counting the games in round order, about where one process would have stopped.

use super::json;
use super::shard_file::{GameLine, ShardFile};
use super::summary::{Ending, FirstDecision, Merged, Report, text};
use crate::referee::stats::sprt::Sprt;
use crate::referee::stats::standings::Standings;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `krou match merge`.
#[derive(clap::Args, Clone, Debug)]
pub struct MergeArgs {
    /// The shards' JSON summaries (`--json` of each `--shard K/N` run).
    #[arg(value_name = "FILE.json", required = true)]
    pub files: Vec<PathBuf>,
    /// Write the merged JSON summary to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Why shards cannot be merged: what is wrong and in which files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMerge(pub String);

impl fmt::Display for BadMerge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadMerge {}

fn text_field<'a>(value: &'a Value, key: &str, path: &Path) -> Result<&'a str, BadMerge> {
    value[key]
        .as_str()
        .ok_or_else(|| BadMerge(format!("{}: no \"{key}\" text", path.display())))
}

fn count_field(value: &Value, key: &str, path: &Path) -> Result<usize, BadMerge> {
    value[key]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| BadMerge(format!("{}: no \"{key}\" count", path.display())))
}

/// Runs `krou match merge`: the merged summary to stdout, the JSON to `--json`. Returns
/// whether every game merged ended by a fault (the match then has no result).
pub fn run(args: &MergeArgs) -> Result<bool, BadMerge> {
    let outputs: Vec<(&str, &Path)> = args
        .json
        .as_deref()
        .map(|p| ("--json", p))
        .into_iter()
        .collect();
    let inputs: Vec<&Path> = args.files.iter().map(std::path::PathBuf::as_path).collect();
    super::outputs::check(&outputs, &inputs).map_err(BadMerge)?;
    let files = args
        .files
        .iter()
        .map(|p| ShardFile::read(p).map_err(|e| BadMerge(e.0)))
        .collect::<Result<Vec<_>, _>>()?;
    let (standings, report, games) = merge(&files)?;
    if let Some(path) = &args.json {
        json::write(path, &json::head(&standings, &report), games.into_iter())
            .map_err(|e| BadMerge(format!("cannot write {}: {e}", path.display())))?;
    }
    print!("{}", text(&standings, &report));
    let _ = std::io::stdout().flush();
    if let Some(merged) = report.merged.as_ref().filter(|m| !m.missing.is_empty()) {
        let missing: Vec<String> = merged.missing.iter().map(ToString::to_string).collect();
        eprintln!(
            "krou match merge: shards {} of {} missing: merged what is there",
            missing.join(", "),
            merged.count
        );
    }
    Ok(standings.every_game_faulted())
}

/// Merges the shards: their standings recounted from every game, the report one process would
/// have written (with the shards found and missing), and the game entries sorted by round.
pub fn merge(files: &[ShardFile]) -> Result<(Standings, Report, Vec<String>), BadMerge> {
    let mut merged = check_shards(files)?;
    let first = files
        .first()
        .ok_or_else(|| BadMerge("no summary to merge".into()))?;
    let path = first.path.as_path();
    let top = &first.head;
    let names: Vec<String> = strings(&top["engines"], "engines", path)?;
    let mut standings = Standings::new(pairings(top, &names, path)?);
    let sprt: Option<Sprt> = match &top["sprt"] {
        Value::Null => None,
        value => Some(
            value
                .as_str()
                .unwrap_or_default()
                .parse()
                .map_err(|e| BadMerge(format!("{}: {e}", path.display())))?,
        ),
    };
    let games = in_rounds(files)?;
    // Counted in round order, so that the first SPRT decision is found on the way.
    for &(path, entry) in &games {
        count(&mut standings, &names, entry, path)?;
        if let (Some(sprt), None) = (sprt, merged.first_decision) {
            merged.first_decision =
                standings
                    .tallies
                    .iter()
                    .find_map(|t| sprt.decision(t))
                    .map(|decision| FirstDecision {
                        round: entry.round,
                        games: standings.finished,
                        decision,
                    });
        }
    }
    let scheduled = count_field(top, "games_scheduled", path)?;
    let games = games.iter().map(|(_, entry)| entry.text.clone()).collect();
    let report = Report {
        engine_tc: strings(&top["engine_tc"], "engine_tc", path)?,
        engine_margin_ms: top["engine_margin_ms"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default(),
        names,
        tc: text_field(top, "tc", path)?.to_string(),
        seed: top["seed"]
            .as_u64()
            .ok_or_else(|| BadMerge(format!("{}: no \"seed\"", path.display())))?,
        planned: scheduled,
        scheduled,
        sprt,
        ending: ending(files, &standings, sprt),
        match_id: first.match_id.clone(),
        shard: None,
        merged: Some(merged),
    };
    Ok((standings, report, games))
}

/// Every game entry of every file with its file, sorted by round, refusing a round found twice.
fn in_rounds(files: &[ShardFile]) -> Result<Vec<(&Path, &GameLine)>, BadMerge> {
    let mut games: BTreeMap<usize, (&Path, &GameLine)> = BTreeMap::new();
    for file in files {
        for entry in &file.games {
            let round = entry.round;
            if let Some((other, _)) = games.insert(round, (&file.path, entry)) {
                return Err(BadMerge(format!(
                    "round {round} is in both {} and {}: the shards overlap",
                    other.display(),
                    file.path.display()
                )));
            }
        }
    }
    Ok(games.into_values().collect())
}

/// How the merged match ended: by the SPRT's verdict on all the games if it has one, otherwise
/// interrupted if any shard was, otherwise completed.
fn ending(files: &[ShardFile], standings: &Standings, sprt: Option<Sprt>) -> Ending {
    let decision = sprt.and_then(|s| standings.tallies.iter().find_map(|t| s.decision(t)));
    let interrupted = files
        .iter()
        .any(|f| f.head["ending"].as_str() == Some("interrupted"));
    match decision {
        Some(decision) => Ending::Sprt(decision),
        None if interrupted => Ending::Interrupted,
        None => Ending::Completed,
    }
}

/// Checks that the files are distinct shards of one match and lists those found and missing.
fn check_shards(files: &[ShardFile]) -> Result<Merged, BadMerge> {
    let mut found: BTreeMap<usize, &ShardFile> = BTreeMap::new();
    let Some(first) = files.first() else {
        return Err(BadMerge("no summary to merge".into()));
    };
    for file in files {
        let (a, b) = (first.path.display(), file.path.display());
        if file.match_id != first.match_id {
            return Err(BadMerge(format!(
                "{a} and {b} are of different matches (match {} and {}): only shards of one \
                 match (same engines, games, openings, seed, rules) merge",
                first.match_id, file.match_id
            )));
        }
        if file.shard.count != first.shard.count {
            return Err(BadMerge(format!(
                "{a} is {} but {b} is {}: the match was split differently",
                first.describe(),
                file.describe()
            )));
        }
        if let Some(other) = found.insert(file.shard.index, file) {
            return Err(BadMerge(format!(
                "{} and {b} are both {}",
                other.path.display(),
                file.describe()
            )));
        }
    }
    let count = first.shard.count;
    Ok(Merged {
        count,
        present: found.keys().copied().collect(),
        missing: (1..=count).filter(|k| !found.contains_key(k)).collect(),
        first_decision: None,
    })
}

fn strings(value: &Value, key: &str, path: &Path) -> Result<Vec<String>, BadMerge> {
    value
        .as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(String::from)).collect())
        .ok_or_else(|| BadMerge(format!("{}: no \"{key}\" list of text", path.display())))
}

/// The (first, second) engine indices of each pairing, by name.
fn pairings(top: &Value, names: &[String], path: &Path) -> Result<Vec<(usize, usize)>, BadMerge> {
    let index = |pairing: &Value, key: &str| {
        let name = pairing[key].as_str().unwrap_or_default();
        names.iter().position(|n| n == name).ok_or_else(|| {
            BadMerge(format!(
                "{}: pairing {key} '{name}' is no engine",
                path.display()
            ))
        })
    };
    top["pairings"]
        .as_array()
        .ok_or_else(|| BadMerge(format!("{}: no \"pairings\" list", path.display())))?
        .iter()
        .map(|p| Ok((index(p, "first")?, index(p, "second")?)))
        .collect()
}

/// Counts one game entry in the standings.
fn count(
    standings: &mut Standings,
    names: &[String],
    entry: &GameLine,
    path: &Path,
) -> Result<(), BadMerge> {
    let bad = |what: &str| BadMerge(format!("{}: round {}: {what}", path.display(), entry.round));
    let Some(&(first, _)) = standings.pairings.get(entry.pairing) else {
        return Err(bad("no such pairing"));
    };
    let first = names.get(first).map(String::as_str);
    let first_side = if Some(entry.south.as_str()) == first {
        "south"
    } else if Some(entry.north.as_str()) == first {
        "north"
    } else {
        return Err(bad("the pairing's first engine does not play"));
    };
    let score = match entry.winner.as_deref() {
        None => None,
        Some("draw") => Some(0.5),
        Some(side) if side == first_side => Some(1.0),
        Some("south" | "north") => Some(0.0),
        Some(other) => return Err(bad(&format!("winner '{other}'"))),
    };
    let faulty = match entry.fault_by.as_deref() {
        Some("south") => Some(&entry.south),
        Some("north") => Some(&entry.north),
        _ => None,
    };
    if let (Some(engine), Some(_)) = (faulty, score) {
        let index = names
            .iter()
            .position(|n| n == engine)
            .ok_or_else(|| bad("the engine at fault does not play"))?;
        *standings
            .faults
            .entry((index, entry.reason.clone()))
            .or_default() += 1;
    }
    standings.add_result(entry.pairing, entry.pair, score, &entry.reason);
    Ok(())
}
