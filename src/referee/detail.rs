//! The per-game detail that the match report reads from the JSON summary: each game's opening
//! pair, the name of its record, and its moves with the time each took and what the engine
//! reported (`pair`, `record`, `moves` of format 2).
//!
//! Kept apart from [`summary`](super::summary) so that the full format-2 writer can replace it
//! whole: [`add`] only adds fields to the games that [`summary::json`](super::summary::json)
//! already wrote.

use super::info::Score;
use super::record::{GameRecord, PlayedMove};
use crate::rules::Side;
use serde_json::{Value, json};

/// Where the games' records were written, as the report links them.
#[derive(Clone, Copy, Debug)]
pub enum Records<S> {
    /// Nowhere: the report shows the moves itself.
    None,
    /// All games in one file (`--ogn FILE`).
    OneFile(S),
    /// One file per game in a directory (`--ogn-dir DIR`): `DIR/round-0007.ogn`.
    Directory(S),
}

impl<S: AsRef<str>> Records<S> {
    /// The same, borrowed.
    pub fn as_ref(&self) -> Records<&str> {
        match self {
            Records::None => Records::None,
            Records::OneFile(file) => Records::OneFile(file.as_ref()),
            Records::Directory(dir) => Records::Directory(dir.as_ref()),
        }
    }
}

impl Records<&str> {
    /// The record of game `round`, if written.
    pub fn of(self, round: usize) -> Option<String> {
        match self {
            Records::None => None,
            Records::OneFile(file) => Some(file.to_string()),
            Records::Directory(dir) => Some(format!("{dir}/round-{round:04}.ogn")),
        }
    }
}

/// Adds `pair`, `record` and `moves` to every entry of `summary["games"]`, matching entries to
/// `games` by position. `pair_of[round - 1]` is the opening pair of each scheduled round.
pub fn add(summary: &mut Value, games: &[GameRecord], pair_of: &[usize], records: Records<&str>) {
    let Some(entries) = summary.get_mut("games").and_then(Value::as_array_mut) else {
        return;
    };
    for (entry, game) in entries.iter_mut().zip(games) {
        let Some(fields) = entry.as_object_mut() else {
            continue;
        };
        let pair = game.round.checked_sub(1).and_then(|i| pair_of.get(i));
        fields.insert("pair".into(), json!(pair));
        fields.insert("record".into(), json!(records.of(game.round)));
        fields.insert("moves".into(), moves(game));
    }
}

/// The moves of a game, opening moves marked.
fn moves(game: &GameRecord) -> Value {
    let opening = game.opening.moves.len();
    let first = game.opening.start.side_to_move();
    let moves: Vec<Value> = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let side = if i % 2 == 0 { first } else { first.opponent() };
            one_move(i + 1, side, m, i < opening)
        })
        .collect();
    Value::Array(moves)
}

fn one_move(ply: usize, side: Side, m: &PlayedMove, opening: bool) -> Value {
    let score = match m.thinking.score {
        Some(Score::Cp(cp)) => json!({ "cp": cp }),
        Some(Score::Mate(n)) => json!({ "mate": n }),
        None => Value::Null,
    };
    json!({
        "ply": ply,
        "side": side.to_string().to_lowercase(),
        "move": m.mv.to_string(),
        "opening": opening,
        "ms": m.used.map(|d| d.as_millis() as u64),
        "score": score,
        "depth": m.thinking.depth,
    })
}
