//! A rating list as a match and `krou match ratings` show it: the anchor, the players'
//! results gathered by name, the fit with one player anchored, the table and the JSON. It knows
//! nothing of files: [`ratings`](super::ratings) reads the summaries, and a match of three or
//! more engines prints and writes its own list ([`match_text`], [`of_match`]), anchored by
//! [`match_anchor`].

use crate::referee::stats::ratings::{Rating, Results, fit};
use crate::referee::stats::standings::Standings;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;

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

/// The index of `name` in `names`, added at the end when new.
pub(super) fn index(names: &mut Vec<String>, name: &str) -> usize {
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
