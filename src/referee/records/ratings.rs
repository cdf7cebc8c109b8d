//! `krou match ratings`: a rating list from the JSON summaries of any matches (a round robin, a
//! gauntlet, two-engine matches, merged shards): every pairing's results, players known by
//! their names, fitted by maximum likelihood ([`ratings`](crate::referee::stats::ratings)) with
//! one player anchored, printed as a table and written as JSON.
//!
//! It refuses a file that is not a summary, the same match twice (a file given twice, or a
//! match's merged summary with one of its shards), and what the fit refuses.
//!
//! The list itself (the fit, the table, the JSON, a match's own list) is
//! [`rating_list`](super::rating_list)'s.

use super::rating_list::index;
pub use super::rating_list::{Anchor, Gathered, List, rate, table, to_json};
use super::shard_file::ShardFile;
use crate::referee::stats::ratings::Results;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Options of `krou match ratings`.
#[derive(clap::Args, Clone, Debug)]
pub struct RatingsArgs {
    /// JSON summaries of matches (`krou match --json`, or `krou match merge --json`).
    #[arg(value_name = "FILE.json", required = true)]
    pub files: Vec<PathBuf>,
    /// The player whose rating is fixed, and its rating: the scale's anchor.
    #[arg(long, value_name = "NAME=ELO", default_value = "greedy=1000")]
    pub anchor: Anchor,
    /// Virtual draws added to every pairing that played (a prior, as BayesElo's), so that a
    /// perfect score still has a finite rating; 0 for the pure maximum-likelihood fit.
    #[arg(long, value_name = "DRAWS", default_value_t = 1.0)]
    pub prior_draws: f64,
    /// Write the list as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Runs `krou match ratings`: the table to stdout, the JSON to `--json`.
pub fn run(args: &RatingsArgs) -> Result<(), String> {
    let outputs: Vec<(&str, &Path)> = args.json.iter().map(|p| ("--json", p.as_path())).collect();
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    super::outputs::check(&outputs, &inputs)?;
    let files = args
        .files
        .iter()
        .map(|p| ShardFile::read(p).map_err(|e| e.0))
        .collect::<Result<Vec<_>, _>>()?;
    let gathered = gather(&files)?;
    let list = rate(&gathered, &args.anchor, args.prior_draws)?;
    let from = format!(" from {} summaries", files.len());
    print!("{}", table(&list, &args.anchor, args.prior_draws, &from));
    if let Some(path) = &args.json {
        let value = to_json(&list, &args.anchor, args.prior_draws, &args.files);
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n";
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Every pairing of every summary, players matched by name; refuses a match counted twice.
pub fn gather(files: &[ShardFile]) -> Result<Gathered, String> {
    let mut seen: BTreeMap<&str, (&Path, bool)> = BTreeMap::new();
    let mut shards: BTreeMap<(&str, usize), &Path> = BTreeMap::new();
    let mut gathered = Gathered::default();
    for file in files {
        let path = file.path.as_path();
        let whole = !file.sharded || !file.head["shards_merged"].is_null();
        if let Some(&(other, other_whole)) = seen.get(file.match_id.as_str()) {
            if whole || other_whole {
                return Err(format!(
                    "{} and {} hold games of the same match ({}): each game may count once",
                    other.display(),
                    path.display(),
                    file.match_id
                ));
            }
        }
        seen.insert(&file.match_id, (path, whole));
        if let Some(other) = shards.insert((&file.match_id, file.shard.index), path) {
            return Err(format!(
                "{} and {} are the same shard of one match",
                other.display(),
                path.display()
            ));
        }
        add_pairings(&mut gathered, &file.head, path)?;
    }
    Ok(gathered)
}

fn add_pairings(gathered: &mut Gathered, head: &Value, path: &Path) -> Result<(), String> {
    let bad = |what: &str| format!("{}: {what}", path.display());
    let pairings = head["pairings"]
        .as_array()
        .ok_or_else(|| bad("no \"pairings\" list"))?;
    for pairing in pairings {
        let name = |key: &str| {
            pairing[key]
                .as_str()
                .ok_or_else(|| bad(&format!("a pairing has no \"{key}\" name")))
        };
        let count = |key: &str| {
            pairing[key]
                .as_u64()
                .ok_or_else(|| bad(&format!("a pairing has no \"{key}\" count")))
        };
        let first = index(&mut gathered.names, name("first")?);
        let second = index(&mut gathered.names, name("second")?);
        if first == second {
            return Err(bad("a pairing of a player with itself"));
        }
        gathered.results.push(Results {
            first,
            second,
            wins: count("wins")?,
            draws: count("draws")?,
            losses: count("losses")?,
        });
    }
    Ok(())
}
