//! `krou match ratings`: a rating list fitted to the JSON summaries of real matches.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn krou(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(args)
        .output()
        .expect("krou runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-ratings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Plays a quick match and returns its JSON summary's path.
fn summary(dir: &Path, name: &str, engines: &[String], seed: &str) -> PathBuf {
    let path = dir.join(format!("{name}.json"));
    let mut args = vec!["match".to_string()];
    for engine in engines {
        args.extend(["--engine".to_string(), engine.clone()]);
    }
    let json = path.display().to_string();
    args.extend(
        [
            "--games",
            "4",
            "--tc",
            "depth=2",
            "--random-openings",
            "4",
            "--seed",
            seed,
            "--json",
            &json,
        ]
        .map(String::from),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = krou(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    path
}

fn level(elo: u32) -> String {
    format!(
        "name=L{elo} {} --option UCI_LimitStrength=true --option UCI_Elo={elo} --option StrengthSeed=1",
        env!("CARGO_BIN_EXE_krou")
    )
}

#[test]
fn a_list_from_two_matches_anchors_greedy_and_rates_the_others() {
    let dir = scratch("list");
    let a = summary(
        &dir,
        "a",
        &["random".into(), "greedy".into(), level(900)],
        "1",
    );
    let b = summary(&dir, "b", &[level(900), level(1600)], "2");
    let out = dir.join("list.json");
    let args = [
        "match",
        "ratings",
        a.to_str().unwrap_or_default(),
        b.to_str().unwrap_or_default(),
        "--json",
        out.to_str().unwrap_or_default(),
    ];
    let output = krou(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let table = text(&output.stdout);
    assert!(
        table.starts_with("Ratings of 4 players from 2 summaries (16 games): maximum likelihood, greedy anchored at 1000"),
        "{table}"
    );
    let greedy = table
        .lines()
        .find(|l| l.contains(" greedy "))
        .unwrap_or_default();
    assert!(
        greedy.contains("1000") && greedy.contains("anchor"),
        "{table}"
    );
    let list: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("the JSON list")).expect("JSON");
    let players = list["players"].as_array().expect("players");
    assert_eq!(players.len(), 4);
    let games: u64 = players.iter().filter_map(|p| p["games"].as_u64()).sum();
    assert_eq!(games, 2 * 16, "each game counts for both players");
    for p in players {
        let (elo, low, high) = (p["elo"].as_f64(), p["low"].as_f64(), p["high"].as_f64());
        let (elo, low, high) = (
            elo.unwrap_or(f64::NAN),
            low.unwrap_or(f64::NAN),
            high.unwrap_or(f64::NAN),
        );
        assert!(low <= elo && elo <= high, "{p}");
    }
    assert_eq!(list["anchor"]["name"], "greedy");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_summary_given_twice_is_refused() {
    let dir = scratch("twice");
    let a = summary(
        &dir,
        "a",
        &["random".into(), "greedy".into(), level(700)],
        "3",
    );
    let path = a.to_str().unwrap_or_default();
    let output = krou(&["match", "ratings", path, path]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("hold games of the same match"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_anchor_that_does_not_play_is_refused() {
    let dir = scratch("anchor");
    let a = summary(&dir, "a", &["random".into(), level(700)], "4");
    let output = krou(&["match", "ratings", a.to_str().unwrap_or_default()]);
    assert_eq!(output.status.code(), Some(2));
    let error = text(&output.stderr);
    assert!(
        error
            .contains("the anchor 'greedy' plays in none of the summaries (players: random, L700)"),
        "{error}"
    );
    let other = krou(&[
        "match",
        "ratings",
        a.to_str().unwrap_or_default(),
        "--anchor",
        "random=600",
    ]);
    assert!(other.status.success(), "{}", text(&other.stderr));
    assert!(text(&other.stdout).contains("random anchored at 600"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_of_three_engines_prints_and_writes_its_own_list() {
    let dir = scratch("own");
    let engines = ["random".to_string(), "greedy".to_string(), level(1600)];
    let three = summary(&dir, "three", &engines, "5");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&three).expect("summary")).expect("JSON");
    assert_eq!(json["ratings"]["anchor"]["name"], "greedy");
    assert_eq!(json["ratings"]["anchor"]["elo"], 1000.0);
    let players = json["ratings"]["players"].as_array().expect("players");
    assert_eq!(players.len(), 3);
    // The list is the one `krou match ratings` fits to the same summary.
    let output = krou(&["match", "ratings", three.to_str().unwrap_or_default()]);
    let fitted = text(&output.stdout);
    for p in players {
        let name = p["name"].as_str().unwrap_or_default();
        let elo = p["elo"].as_f64().unwrap_or(f64::NAN);
        let row = fitted
            .lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap_or_default();
        assert!(
            row.contains(&format!("{elo:.0}")),
            "{name} {elo} in {fitted}"
        );
    }
    let two = summary(&dir, "two", &engines[..2], "6");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&two).expect("summary")).expect("JSON");
    assert!(json.get("ratings").is_none(), "two engines: no list");
    let _ = std::fs::remove_dir_all(&dir);
}
