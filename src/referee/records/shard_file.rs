//! One shard's JSON summary as `krou match merge` reads it: the settings and totals as a tree,
//! and the games one at a time, each kept as its compact text and the few fields the merge
//! counts. A match of many games with every move does not fit in memory as one tree (10,000
//! games of random players, 95 MB of JSON, took 2 GB that way).

use super::json::FORMAT;
use crate::referee::play::shard::Shard;
use crate::referee::report::model::read_game;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// A shard's summary.
#[derive(Clone, Debug)]
pub struct ShardFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Every field but `games`.
    pub head: Value,
    /// The games, in the file's order.
    pub games: Vec<GameLine>,
    /// Its match identifier.
    pub match_id: String,
    /// Its shard (`1/1` for an unsharded match).
    pub shard: Shard,
    /// Whether it was a shard (`--shard`) rather than a whole match.
    pub sharded: bool,
}

/// One game entry: what the merge counts, and the entry itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// `round`.
    pub round: usize,
    /// `pairing`.
    pub pairing: usize,
    /// `pair`.
    pub pair: usize,
    /// `south`.
    pub south: String,
    /// `north`.
    pub north: String,
    /// `winner`: `south`, `north`, `draw`, or `None` when unfinished.
    pub winner: Option<String>,
    /// `reason`.
    pub reason: String,
    /// `fault_by`: `south` or `north` when a side lost by a fault, else `None`.
    pub fault_by: Option<String>,
    /// The whole entry as compact JSON.
    pub text: String,
}

impl GameLine {
    /// The fields of a game entry, or the first that is missing.
    pub fn of(entry: &Value) -> Result<GameLine, String> {
        let round = entry["round"].as_u64().unwrap_or_default();
        let count = |key: &str| {
            entry[key]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("a game (round {round}) has no \"{key}\" count"))
        };
        let text = |key: &str| {
            entry[key]
                .as_str()
                .map(String::from)
                .ok_or_else(|| format!("a game (round {round}) has no \"{key}\" text"))
        };
        Ok(GameLine {
            round: count("round")?,
            pairing: count("pairing")?,
            pair: count("pair")?,
            south: text("south")?,
            north: text("north")?,
            winner: entry["winner"].as_str().map(String::from),
            reason: text("reason")?,
            fault_by: entry["fault_by"].as_str().map(String::from),
            text: entry.to_string(),
        })
    }
}

/// Why a summary cannot be read: the file and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadFile(pub String);

impl fmt::Display for BadFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadFile {}

impl ShardFile {
    /// Reads and checks the summary at `path`.
    pub fn read(path: &Path) -> Result<ShardFile, BadFile> {
        let name = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| BadFile(format!("cannot read {name}: {e}")))?;
        ShardFile::parse(path, &text)
    }

    /// Reads and checks a summary's text, read from `path`.
    pub fn parse(path: &Path, text: &str) -> Result<ShardFile, BadFile> {
        let name = path.display();
        let mut reader = serde_json::Deserializer::from_str(text);
        let (head, games) = reader
            .deserialize_map(Summary)
            .and_then(|summary| reader.end().map(|()| summary))
            .map_err(|e| BadFile(format!("{name} is not a match summary: {e}")))?;
        if head.get("format").and_then(Value::as_u64) != Some(FORMAT) {
            return Err(BadFile(format!(
                "{name} is not a krou match summary of format {FORMAT} (--json of a match with \
                 --shard K/N)"
            )));
        }
        let games = games.ok_or_else(|| BadFile(format!("{name}: no \"games\" list")))?;
        let head = Value::Object(head);
        let match_id = head["match_id"]
            .as_str()
            .ok_or_else(|| BadFile(format!("{name}: no \"match_id\" text")))?
            .to_string();
        let sharded = !head["shard"].is_null();
        let shard = match &head["shard"] {
            Value::Null => Shard { index: 1, count: 1 },
            shard => {
                let number = |key: &str| shard[key].as_u64().and_then(|n| usize::try_from(n).ok());
                number("index")
                    .zip(number("count"))
                    .and_then(|(index, count)| Shard::new(index, count))
                    .ok_or_else(|| {
                        BadFile(format!(
                            "{name}: \"shard\" is not {{\"index\": K, \"count\": N}} with 1 ≤ K ≤ N"
                        ))
                    })?
            }
        };
        let file = ShardFile {
            path: path.to_path_buf(),
            head,
            games,
            match_id,
            shard,
            sharded,
        };
        file.check_games()?;
        Ok(file)
    }

    /// Checks every game as `krou match report` reads it (each field, players among the
    /// engines, a result that agrees with the winner), and that its round is one of the match
    /// and its game pair one of this shard.
    fn check_games(&self) -> Result<(), BadFile> {
        let name = self.path.display().to_string();
        let engines: Vec<String> = self.head["engines"]
            .as_array()
            .and_then(|list| list.iter().map(|v| v.as_str().map(String::from)).collect())
            .ok_or_else(|| BadFile(format!("{name}: no \"engines\" list of text")))?;
        let rounds = self.head["games_scheduled"]
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| BadFile(format!("{name}: no \"games_scheduled\" count")))?;
        for (i, line) in self.games.iter().enumerate() {
            let value: Value = serde_json::from_str(&line.text)
                .map_err(|e| BadFile(format!("{name}: games[{i}]: {e}")))?;
            read_game(&value, &name, i, &engines).map_err(|e| BadFile(e.to_string()))?;
            if line.round > rounds {
                return Err(BadFile(format!(
                    "{name}: games[{i}].round: round {} of a match of {rounds} games",
                    line.round
                )));
            }
            if !self.shard.holds(line.pair) {
                return Err(BadFile(format!(
                    "{name}: games[{i}].pair: game pair {} is not one of {}",
                    line.pair,
                    self.describe()
                )));
            }
        }
        Ok(())
    }

    /// `shard 2/3`, or `a whole match`.
    pub fn describe(&self) -> String {
        if self.sharded {
            format!("shard {}", self.shard)
        } else {
            "a whole match (no --shard)".into()
        }
    }
}

/// Reads a summary object: every field as a tree but `games`, read by [`Games`].
struct Summary;

impl<'de> Visitor<'de> for Summary {
    /// The fields but `games`, and the games (`None` without a `games` list).
    type Value = (Map<String, Value>, Option<Vec<GameLine>>);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut head = Map::new();
        let mut games = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "games" {
                if games.is_some() {
                    return Err(de::Error::duplicate_field("games"));
                }
                map.next_value_seed(Games(games.insert(Vec::new())))?;
            } else {
                let value: Value = map.next_value()?;
                head.insert(key, value);
            }
        }
        Ok((head, games))
    }
}

/// Reads the `games` list one entry at a time.
struct Games<'a>(&'a mut Vec<GameLine>);

impl<'de> DeserializeSeed<'de> for Games<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Games<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of games")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(entry) = seq.next_element::<Value>()? {
            self.0
                .push(GameLine::of(&entry).map_err(de::Error::custom)?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHARD: &str = r#"{"format": 2, "match_id": "ab", "shard": {"index": 2, "count": 3},
        "games": [{"round": 4, "pairing": 0, "pair": 1, "south": "a", "north": "b",
                   "winner": null, "reason": "aborted",
                   "moves": [{"ply": 1, "side": "south", "move": "A"}]}],
        "engines": ["a", "b"], "games_scheduled": 12}"#;

    #[test]
    fn a_summary_reads_its_head_as_a_tree_and_its_games_one_by_one() {
        let file = ShardFile::parse(Path::new("s.json"), SHARD).expect("valid");
        assert_eq!(file.shard, Shard { index: 2, count: 3 });
        assert_eq!(file.head["engines"][1], "b");
        assert!(file.head.get("games").is_none());
        let game = &file.games[0];
        assert_eq!(
            (game.round, game.pair, game.winner.as_deref()),
            (4, 1, None)
        );
        let entry: Value = serde_json::from_str(&game.text).expect("compact JSON");
        assert_eq!(entry["moves"][0]["ply"], 1);
    }

    #[test]
    fn unreadable_summaries_are_refused_with_the_file_and_the_reason() {
        for (text, says) in [
            ("[1, 2]", "s.json is not a match summary"),
            ("{\"format\": 2", "s.json is not a match summary"),
            ("{\"format\": 1}", "not a krou match summary of format 2"),
            (
                "{\"format\": 2, \"games\": [{\"round\": 1}]}",
                "no \"pairing\" count",
            ),
            (
                "{\"format\": 2, \"match_id\": \"x\", \"shard\": {\"index\": 0}, \"games\": []}",
                "\"shard\" is not",
            ),
            (
                "{\"format\": 2, \"match_id\": \"x\"}",
                "s.json: no \"games\" list",
            ),
            ("{\"format\": 2} trailing", "trailing"),
        ] {
            let error = ShardFile::parse(Path::new("s.json"), text).expect_err(text);
            assert!(error.0.contains(says), "{text}: {error}");
        }
    }

    #[test]
    fn every_game_is_checked_as_the_report_reads_it_and_must_belong_to_the_shard() {
        for (from, to, says) in [
            (
                r#"[{"ply": 1, "side": "south", "move": "A"}]"#,
                r#"[{"ply": 1, "side": "south", "move": "A", "ms": "fast"}]"#,
                "s.json: games[0].moves[0].ms: expected a whole number ≥ 0, found \"fast\"",
            ),
            (
                r#""south": "a""#,
                r#""south": "c""#,
                "games[0].south: \"c\" is not one of",
            ),
            (
                r#""winner": null"#,
                r#""winner": "north", "result": "30-18""#,
                "games[0].winner: the result 30-18 makes the winner \"south\", not \"north\"",
            ),
            (
                r#""winner": null"#,
                r#""winner": "draw", "result": "24-25""#,
                "games[0].result: expected \"*\" or the seeds of South and North, at most 48",
            ),
            (
                r#""winner": null"#,
                r#""winner": "north", "result": "+3-30""#,
                "games[0].result: expected \"*\" or the seeds of South and North, at most 48",
            ),
            (
                r#""round": 4"#,
                r#""round": 13"#,
                "games[0].round: round 13 of a match of 12 games",
            ),
            (
                r#""pair": 1"#,
                r#""pair": 2"#,
                "games[0].pair: game pair 2 is not one of shard 2/3",
            ),
            (
                r#""round": 4"#,
                r#""round": 0"#,
                "games[0].round: rounds count from 1",
            ),
        ] {
            assert!(SHARD.contains(from), "{from}");
            let text = SHARD.replacen(from, to, 1);
            let error = ShardFile::parse(Path::new("s.json"), &text).expect_err(to);
            assert!(error.0.contains(says), "{to}: {error}");
        }
        let forfeit = SHARD.replacen(r#""winner": null"#, r#""winner": "south""#, 1);
        assert!(
            ShardFile::parse(Path::new("s.json"), &forfeit).is_ok(),
            "a `*` result"
        );
        let early = SHARD.replacen(
            r#""winner": null"#,
            r#""winner": "north", "result": "3-30""#,
            1,
        );
        assert!(
            ShardFile::parse(Path::new("s.json"), &early).is_ok(),
            "won by a store above 24, seeds left on the board"
        );
    }
}
