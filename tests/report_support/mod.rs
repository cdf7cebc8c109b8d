//! A hand-made match JSON (format 2) with everything the report draws: mixed results, an SPRT,
//! moves with times and scores, one game with a record file and the others without.

#![allow(dead_code)]

use serde_json::{Value, json};

/// Winners of the fixture's eight games, in round order.
pub const WINNERS: [&str; 8] = [
    "south", "south", "draw", "north", "south", "draw", "north", "south",
];

/// The fixture: `alpha` against `beta`, eight games of 20 plies.
pub fn fixture() -> Value {
    let games: Vec<Value> = WINNERS
        .iter()
        .enumerate()
        .map(|(i, &winner)| game(i as u64 + 1, winner))
        .collect();
    json!({
        "format": 2,
        "match_id": "00c0ffee",
        "shard": null,
        "engines": ["alpha", "beta"],
        "engine_tc": ["st=0.05", "st=0.1"],
        "engine_margin_ms": [50, 50],
        "tc": "st=0.05",
        "seed": 7,
        "sprt": "elo0=0 elo1=20 alpha=0.05 beta=0.05",
        "games_planned": 8,
        "games_scheduled": 8,
        "ending": "completed",
        "pairings": [{
            "first": "alpha", "second": "beta", "games": 8,
            "sprt": { "elo0": 0.0, "elo1": 20.0, "alpha": 0.05, "beta": 0.05 },
        }],
        "games": games,
    })
}

fn game(round: u64, winner: &str) -> Value {
    let (south, north) = if round % 2 == 1 {
        ("alpha", "beta")
    } else {
        ("beta", "alpha")
    };
    let moves: Vec<Value> = (1..=20u64)
        .map(|ply| {
            let side = if ply % 2 == 1 { "south" } else { "north" };
            let opening = ply <= 2;
            let cp = ((ply * 37 + round * 11) % 300) as i64 - 150;
            json!({
                "ply": ply,
                "side": side,
                "move": if ply % 2 == 1 { "A" } else { "a" },
                "opening": opening,
                "ms": if opening { Value::Null } else { json!(10 + ply * 3 + round) },
                "score": if opening { Value::Null } else { json!({ "cp": cp }) },
                "depth": if opening { Value::Null } else { json!(6) },
            })
        })
        .collect();
    json!({
        "round": round,
        "pairing": 0,
        "pair": (round - 1) / 2,
        "south": south,
        "north": north,
        "opening": "AaB",
        "result": match winner {
            "draw" => "24-24",
            "south" => "25-10",
            _ => "10-25",
        },
        "winner": winner,
        "reason": "store above 24",
        "detail": "store above 24",
        "fault_by": null,
        "plies": 20,
        "tc": if south == "alpha" {
            json!({ "south": "st=0.05", "north": "st=0.1" })
        } else {
            json!({ "south": "st=0.1", "north": "st=0.05" })
        },
        "record": if round == 1 { json!("round-0001.ogn") } else { Value::Null },
        "moves": moves,
    })
}
