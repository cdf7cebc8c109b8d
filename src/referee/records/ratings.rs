//! `krou match ratings`: a rating list from the JSON summaries of any matches (a round robin, a
//! gauntlet, two-engine matches, merged shards): every pairing's results, players known by
//! their names, fitted by maximum likelihood ([`ratings`](crate::referee::stats::ratings)) with
//! one player anchored, printed as a table and written as JSON.
//!
//! It refuses a file that is not a summary, the same match twice (a file given twice, or a
//! match's merged summary with one of its shards), and what the fit refuses.
//!
//! A match of three or more engines prints and writes its own list ([`match_text`],
//! [`of_match`]), anchored by [`match_anchor`].

use super::shard_file::ShardFile;
use crate::referee::stats::ratings::{Rating, Results, fit};
use crate::referee::stats::standings::Standings;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;
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

/// `--anchor NAME=ELO`.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The player's name as the summaries give it.
    pub name: String,
    /// Its rating.
    pub elo: f64,
}

impl std::str::FromStr for Anchor {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected NAME=ELO, such as greedy=1000, not '{text}'");
        let (name, elo) = text.rsplit_once('=').ok_or_else(bad)?;
        let elo: f64 = elo.trim().parse().map_err(|_| bad())?;
        if name.is_empty() || !elo.is_finite() {
            return Err(bad());
        }
        Ok(Anchor {
            name: name.to_string(),
            elo,
        })
    }
}

/// The players and their pairings' results, gathered from the summaries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gathered {
    /// Player names, in the order first seen.
    pub names: Vec<String>,
    /// Results by pairing (player indices).
    pub results: Vec<Results>,
}

/// A fitted list: each player's name and rating, best first.
pub type List = Vec<(String, Rating)>;

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

fn index(names: &mut Vec<String>, name: &str) -> usize {
    names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_string());
        names.len() - 1
    })
}

/// Fits the gathered results, `anchor` fixed; the list best first.
pub fn rate(gathered: &Gathered, anchor: &Anchor, prior_draws: f64) -> Result<List, String> {
    let names = &gathered.names;
    let fixed = names
        .iter()
        .position(|n| *n == anchor.name)
        .ok_or_else(|| {
            format!(
                "the anchor '{}' plays in none of the summaries (players: {})",
                anchor.name,
                names.join(", ")
            )
        })?;
    let ratings = fit(
        names.len(),
        &gathered.results,
        fixed,
        anchor.elo,
        prior_draws,
    )
    .map_err(|e| name_players(&e.0, names))?;
    let mut list: List = names.iter().cloned().zip(ratings).collect();
    list.sort_by(|a, b| b.1.elo.total_cmp(&a.1.elo));
    Ok(list)
}

/// The fit's message with `player N` replaced by the player's name.
fn name_players(message: &str, names: &[String]) -> String {
    let mut text = message.to_string();
    for (i, name) in names.iter().enumerate().rev() {
        text = text.replace(&format!("player {i}"), &format!("'{name}'"));
    }
    text
}

/// The virtual draws per pairing of the list a match of three or more engines prints.
pub const MATCH_PRIOR_DRAWS: f64 = 1.0;

/// The anchor of a match's own list: `greedy` at 1000 when it plays (the scale of
/// docs/strength-levels.md), otherwise the first engine at 0.
pub fn match_anchor(names: &[String]) -> Anchor {
    match names.iter().find(|n| *n == "greedy") {
        Some(name) => Anchor {
            name: name.clone(),
            elo: 1000.0,
        },
        None => Anchor {
            name: names.first().cloned().unwrap_or_default(),
            elo: 0.0,
        },
    }
}

/// The rating list of a match of three or more engines (`None` for fewer), fitted to its
/// standings: the list, or why it cannot be fitted yet (a player without games, say).
pub fn of_match(names: &[String], standings: &Standings) -> Option<Result<List, String>> {
    if names.len() < 3 {
        return None;
    }
    let results = standings
        .pairings
        .iter()
        .zip(&standings.tallies)
        .map(|(&(first, second), t)| Results {
            first,
            second,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
        })
        .collect();
    let gathered = Gathered {
        names: names.to_vec(),
        results,
    };
    Some(rate(&gathered, &match_anchor(names), MATCH_PRIOR_DRAWS))
}

/// The lines a match of three or more engines prints after its pairings: the list as
/// [`table`] draws it, or why there is none.
pub fn match_text(names: &[String], standings: &Standings) -> String {
    let anchor = match_anchor(names);
    match of_match(names, standings) {
        None => String::new(),
        Some(Ok(list)) => table(&list, &anchor, MATCH_PRIOR_DRAWS, ""),
        Some(Err(why)) => format!("Ratings: none yet ({why})\n"),
    }
}

/// The list as a table; `from` follows the player count in its first line (` from 3
/// summaries`, or nothing).
pub fn table(list: &List, anchor: &Anchor, prior_draws: f64, from: &str) -> String {
    let games: u64 = list.iter().map(|(_, r)| r.games).sum::<u64>() / 2;
    let width = list.iter().map(|(n, _)| n.len()).max().unwrap_or(4).max(6);
    let mut text = format!(
        "Ratings of {} players{from} ({games} games): maximum likelihood, \
         {} anchored at {}, 95% intervals, {prior_draws} virtual draws per pairing\n",
        list.len(),
        anchor.name,
        anchor.elo
    );
    let _ = writeln!(
        text,
        "{:>4}  {:<width$}  {:>6}  {:>15}  {:>6}  {:>6}",
        "rank", "player", "rating", "95% interval", "games", "score"
    );
    for (rank, (name, r)) in list.iter().enumerate() {
        let interval = if name == &anchor.name {
            "anchor".to_string()
        } else {
            format!("[{:.0}, {:.0}]", r.low, r.high)
        };
        let score = 100.0 * r.points / r.games.max(1) as f64;
        let _ = writeln!(
            text,
            "{:>4}  {name:<width$}  {:>6.0}  {interval:>15}  {:>6}  {score:>5.1}%",
            rank + 1,
            r.elo,
            r.games
        );
    }
    text
}

/// The list as JSON: the fit's settings and each player, best first.
pub fn to_json(list: &List, anchor: &Anchor, prior_draws: f64, files: &[PathBuf]) -> Value {
    let players: Vec<Value> = list
        .iter()
        .map(|(name, r)| {
            json!({
                "name": name, "elo": r.elo, "low": r.low, "high": r.high,
                "games": r.games, "points": r.points,
            })
        })
        .collect();
    json!({
        "anchor": {"name": anchor.name, "elo": anchor.elo},
        "prior_draws": prior_draws,
        "interval": "95%",
        "summaries": files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "players": players,
    })
}
