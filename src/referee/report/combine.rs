//! Combining the shards of one match into one for the report: the same `match_id`, engines and
//! pairings in every file; the games of all of them, in round order, each round once.
//!
//! This is the report's own small merge, kept here alone so that `krou match merge`'s can take
//! its place.

use super::json::BadReport;
use super::model::Match;
use std::collections::BTreeMap;

/// One match from several `(file name, match)` shards, or why they are not one match.
pub fn combine(mut shards: Vec<(String, Match)>) -> Result<Match, BadReport> {
    let refuse = |file: &str, what: String| BadReport {
        file: file.to_string(),
        at: String::new(),
        what,
    };
    if shards.len() <= 1 {
        return shards
            .pop()
            .map(|(_, m)| m)
            .ok_or_else(|| refuse("the report", "no match file given".into()));
    }
    let (first_file, first) = &shards[0];
    let Some(id) = first.match_id.clone() else {
        return Err(refuse(
            first_file,
            "no \"match_id\": files older than format 2 can only be reported one at a time".into(),
        ));
    };
    for (file, shard) in &shards[1..] {
        if shard.match_id.as_deref() != Some(id.as_str()) {
            let theirs = shard.match_id.as_deref().unwrap_or("none");
            return Err(refuse(
                file,
                format!("match_id {theirs} is not {id} of {first_file}: not the same match"),
            ));
        }
        if shard.engines != first.engines || shard.pairings != first.pairings {
            return Err(refuse(
                file,
                format!("its engines or pairings differ from those of {first_file}"),
            ));
        }
    }
    let mut rounds = BTreeMap::new();
    let mut combined = first.clone();
    combined.shard = None;
    for (file, shard) in shards.drain(..) {
        for game in shard.games {
            let round = game.round;
            if let Some((earlier, _)) = rounds.insert(round, (file.clone(), game)) {
                return Err(refuse(&file, format!("round {round} is also in {earlier}")));
            }
        }
    }
    combined.games = rounds.into_values().map(|(_, game)| game).collect();
    Ok(combined)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::report::model::{Game, Pairing};

    fn shard(id: Option<&str>, rounds: &[u64]) -> Match {
        let game = |round| Game {
            round,
            pair: Some((round - 1) / 2),
            south: "a".into(),
            north: "b".into(),
            opening: String::new(),
            result: "*".into(),
            winner: None,
            detail: String::new(),
            record: None,
            moves: None,
        };
        Match {
            match_id: id.map(str::to_string),
            shard: None,
            engines: vec!["a".into(), "b".into()],
            engine_tc: Vec::new(),
            tc: None,
            seed: None,
            pairings: vec![Pairing {
                first: "a".into(),
                second: "b".into(),
                sprt: None,
            }],
            games: rounds.iter().map(|&r| game(r)).collect(),
        }
    }

    #[test]
    fn shards_of_one_match_combine_in_round_order() {
        let m = combine(vec![
            ("1.json".into(), shard(Some("ab"), &[2, 4])),
            ("0.json".into(), shard(Some("ab"), &[3, 1])),
        ])
        .expect("one match");
        let rounds: Vec<u64> = m.games.iter().map(|g| g.round).collect();
        assert_eq!(rounds, [1, 2, 3, 4]);
    }

    #[test]
    fn different_matches_and_repeated_rounds_are_refused() {
        let error = combine(vec![
            ("0.json".into(), shard(Some("ab"), &[1])),
            ("1.json".into(), shard(Some("cd"), &[2])),
        ])
        .expect_err("two matches");
        assert!(
            error
                .to_string()
                .starts_with("1.json: match_id cd is not ab"),
            "{error}"
        );
        let error = combine(vec![
            ("0.json".into(), shard(Some("ab"), &[1])),
            ("1.json".into(), shard(Some("ab"), &[1])),
        ])
        .expect_err("round 1 twice");
        assert_eq!(error.to_string(), "1.json: round 1 is also in 0.json");
        let error = combine(vec![
            ("0.json".into(), shard(None, &[1])),
            ("1.json".into(), shard(None, &[2])),
        ])
        .expect_err("no ids");
        assert!(error.to_string().contains("no \"match_id\""), "{error}");
    }
}
