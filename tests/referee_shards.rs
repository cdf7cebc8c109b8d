//! Matches at scale: time odds, shards (`--shard K/N`), `krou match merge`, and the scripts that
//! run shards on many machines.

mod referee_support;

use krou::referee::ogn_read::read_games;
use referee_support::{krou, run_match, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a JSON summary");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Runs `krou match` with `args` and `--json path`; returns its output.
fn krou_match(args: &[&str], json: &Path) -> Output {
    let output = Command::new(krou())
        .arg("match")
        .args(args)
        .arg("--json")
        .arg(json)
        .output()
        .expect("krou runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs `krou match merge` on `files`, writing `json`.
fn merge(files: &[PathBuf], json: &Path) -> Output {
    Command::new(krou())
        .args(["match", "merge"])
        .args(files)
        .arg("--json")
        .arg(json)
        .output()
        .expect("krou runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Plays `args` as `count` shards in `dir`; returns the shards' JSON files.
fn play_shards(dir: &Path, args: &[&str], count: usize) -> Vec<PathBuf> {
    (1..=count)
        .map(|k| {
            let json = dir.join(format!("shard-{k}.json"));
            let shard = format!("{k}/{count}");
            let mut with_shard = args.to_vec();
            with_shard.extend(["--shard", &shard]);
            krou_match(&with_shard, &json);
            json
        })
        .collect()
}

/// The merged summary equals the one process's, but for the lines that name the shards.
fn assert_same_match(one: &Value, merged: &Value) {
    for key in [
        "match_id",
        "engines",
        "engine_tc",
        "engine_margin_ms",
        "seed",
        "games_planned",
        "games_finished",
        "games_unfinished",
        "ending",
        "reasons",
        "pairings",
        "games",
    ] {
        assert_eq!(one[key], merged[key], "{key}");
    }
    assert!(one["shard"].is_null() && merged["shard"].is_null());
}

#[test]
fn merged_shards_equal_one_process_on_the_same_seed() {
    let dir = scratch("shards-equal");
    let matches: [&[&str]; 2] = [
        &[
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--games",
            "30",
            "--random-openings",
            "4",
            "--seed",
            "11",
        ],
        // A gauntlet of three, an odd number of games (a lone last game), a length limit.
        &[
            "--engine",
            "greedy",
            "--engine",
            "random",
            "--engine",
            "random",
            "--gauntlet",
            "--games",
            "7",
            "--random-openings",
            "2",
            "--max-plies",
            "40",
            "--seed",
            "4",
        ],
    ];
    for args in matches {
        let one_json = dir.join("one.json");
        let mut concurrent = args.to_vec();
        concurrent.extend(["--concurrency", "2"]);
        let one = krou_match(&concurrent, &one_json);
        let files = play_shards(&dir, args, 3);
        let shards: Vec<Value> = files.iter().map(|f| read_json(f)).collect();
        let merged_json = dir.join("merged.json");
        let merged = merge(&files, &merged_json);
        assert!(
            merged.status.success(),
            "{}",
            String::from_utf8_lossy(&merged.stderr)
        );
        let (one, merged_text) = (stdout(&one), stdout(&merged));
        let without_shard_lines: String = merged_text
            .lines()
            .filter(|l| !l.starts_with("Merged shards 1, 2, 3 of 3 of match "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(without_shard_lines, one, "{merged_text}");
        let (one, merged) = (read_json(&one_json), read_json(&merged_json));
        assert_same_match(&one, &merged);
        assert_eq!(merged["shards_merged"], serde_json::json!([1, 2, 3]));
        // The shards are disjoint, keep game pairs whole, and are all of one match.
        let mut rounds: Vec<u64> = Vec::new();
        for shard in &shards {
            assert_eq!(shard["match_id"], one["match_id"]);
            let games = shard["games"].as_array().expect("games");
            for game in games {
                let pair = &game["pair"];
                let partners = one["games"].as_array().expect("games").iter();
                let mut partners = partners.filter(|g| &g["pair"] == pair);
                assert!(partners.all(|p| games.contains(p)), "pair {pair} split");
            }
            rounds.extend(games.iter().filter_map(|g| g["round"].as_u64()));
        }
        let all: Vec<u64> = one["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["round"].as_u64())
            .collect();
        rounds.sort_unstable();
        assert_eq!(rounds, all);
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted by round");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_other_matches_and_overlapping_shards_naming_the_files() {
    let dir = scratch("shards-refused");
    let args = [
        "--engine", "random", "--engine", "greedy", "--games", "8", "--seed", "3",
    ];
    let files = play_shards(&dir, &args, 2);
    let other_seed: Vec<&str> = args
        .iter()
        .map(|&a| if a == "3" { "4" } else { a })
        .collect();
    let other = dir.join("other");
    std::fs::create_dir_all(&other).expect("directory");
    let other = play_shards(&other, &other_seed, 2);
    // Shard 1 of 2 again, but calling itself shard 2: its game pairs are not shard 2's.
    let mut relabelled = read_json(&files[0]);
    relabelled["shard"]["index"] = 2.into();
    let forged = dir.join("forged.json");
    std::fs::write(&forged, relabelled.to_string()).expect("written");
    // Shard 2 with a game renumbered to a round of shard 1: that round is in both files.
    let mut renumbered = read_json(&files[1]);
    renumbered["games"][0]["round"] = read_json(&files[0])["games"][0]["round"].clone();
    let overlapping = dir.join("overlapping.json");
    std::fs::write(&overlapping, renumbered.to_string()).expect("written");
    let three = dir.join("three");
    std::fs::create_dir_all(&three).expect("directory");
    let three = play_shards(&three, &args, 3);
    let name = |p: &PathBuf| p.display().to_string();
    for (inputs, says) in [
        (
            vec![files[0].clone(), other[1].clone()],
            "different matches",
        ),
        (
            vec![files[0].clone(), files[0].clone()],
            "are both shard 1/2",
        ),
        (
            vec![forged.clone()],
            "games[0].pair: game pair 0 is not one of shard 2/2",
        ),
        (
            vec![files[0].clone(), overlapping.clone()],
            "the shards overlap",
        ),
        (
            vec![files[0].clone(), three[1].clone()],
            "split differently",
        ),
        (vec![dir.join("missing.json")], "cannot read"),
    ] {
        let output = merge(&inputs, &dir.join("out.json"));
        assert_eq!(output.status.code(), Some(2), "{inputs:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(says), "{inputs:?}: {error}");
        assert!(inputs.iter().all(|p| error.contains(&name(p))), "{error}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merge_with_missing_shards_counts_what_is_there_and_names_the_rest() {
    let dir = scratch("shards-missing");
    let args = [
        "--engine", "random", "--engine", "greedy", "--games", "12", "--seed", "8",
    ];
    let files = play_shards(&dir, &args, 3);
    let present = [files[0].clone(), files[2].clone()];
    let merged_json = dir.join("merged.json");
    let output = merge(&present, &merged_json);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("Missing shards: 2 "), "{text}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("shards 2 of 3 missing"));
    let merged = read_json(&merged_json);
    assert_eq!(merged["shards_missing"], serde_json::json!([2]));
    let counted: u64 = present
        .iter()
        .map(|f| read_json(f)["games_finished"].as_u64().expect("count"))
        .sum();
    assert_eq!(merged["games_finished"].as_u64(), Some(counted));
    assert_eq!(merged["games_planned"], 12);
    assert!(counted < 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shard_never_stops_early_and_the_merge_gives_the_sprt_verdict() {
    let dir = scratch("shards-sprt");
    let args = [
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--games",
        "120",
        "--seed",
        "3",
        "--sprt",
        "elo0=0 elo1=20 alpha=0.05 beta=0.05",
    ];
    let one = run_match(&args);
    assert_eq!(one["ending"], "sprt: H1 accepted");
    assert!(
        one["games_finished"].as_u64() < Some(120),
        "one process stops early"
    );
    let files = play_shards(&dir, &args, 2);
    for file in &files {
        let shard = read_json(file);
        assert_eq!(shard["ending"], "completed");
        assert_eq!(shard["games_finished"], 60);
    }
    let merged_json = dir.join("merged.json");
    assert!(merge(&files, &merged_json).status.success());
    let merged = read_json(&merged_json);
    assert_eq!(merged["ending"], "sprt: H1 accepted");
    assert_eq!(merged["games_finished"], 120);
    let sprt = &merged["pairings"][0]["sprt"];
    assert!(sprt["llr"].as_f64() >= sprt["upper"].as_f64(), "{sprt}");
    // Counted in round order, the merged games decide the test where one process (one game at
    // a time, so in round order too) decided it. That process may count a game or two more:
    // those its worker had finished before the stop.
    let first = &merged["sprt_first_decided"];
    assert_eq!(first["decision"], "H1 accepted", "{first}");
    let round = first["round"].as_u64().expect("a round");
    let up_to: Vec<u64> = one["games"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|g| g["round"].as_u64())
        .filter(|&r| r <= round)
        .collect();
    assert_eq!(
        up_to,
        (1..=round).collect::<Vec<_>>(),
        "one process played them all"
    );
    assert_eq!(first["games"].as_u64(), Some(round), "{first}");
    let text = stdout(&merge(&files, &dir.join("again.json")));
    assert!(
        text.contains("SPRT first decided (H1 accepted) at round "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shards_are_refused_with_the_reason() {
    for (shard, seed, says) in [
        ("0/3", true, "bad shard '0/3' (expected K/N"),
        ("4/3", true, "bad shard '4/3'"),
        ("two", true, "bad shard 'two'"),
        ("1/3", false, "--shard 1/3 needs --seed"),
    ] {
        let mut args = vec!["match", "--engine", "random", "--engine", "greedy"];
        args.extend(["--shard", shard]);
        if seed {
            args.extend(["--seed", "1"]);
        }
        let output = Command::new(krou())
            .args(&args)
            .output()
            .expect("krou runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(says), "{args:?}: {error}");
    }
}

#[test]
fn time_odds_appear_in_the_summary_the_json_and_the_records() {
    let dir = scratch("time-odds");
    let (json, records) = (dir.join("odds.json"), dir.join("games"));
    let output = krou_match(
        &[
            "--engine",
            "name=fast tc=st=0.01 margin=7 greedy",
            "--engine",
            "name=slow random",
            "--tc",
            "40/60+0.5",
            "--games",
            "2",
            "--seed",
            "2",
            "--ogn-dir",
            records.to_str().expect("utf-8 path"),
        ],
        &json,
    );
    let text = stdout(&output);
    assert!(text.contains(", time odds, seed 2\n"), "{text}");
    assert!(
        text.contains("Time controls: fast st=0.01, slow 40/60+0.5\n"),
        "{text}"
    );
    assert!(text.contains("Margins: fast 7 ms, slow 50 ms\n"), "{text}");
    let summary = read_json(&json);
    assert_eq!(
        summary["engine_tc"],
        serde_json::json!(["st=0.01", "40/60+0.5"])
    );
    assert_eq!(summary["engine_margin_ms"], serde_json::json!([7, 50]));
    for game in summary["games"].as_array().expect("games") {
        let south_fast = game["south"] == "fast";
        let (south, north) = if south_fast {
            ("st=0.01", "40/60+0.5")
        } else {
            ("40/60+0.5", "st=0.01")
        };
        assert_eq!(
            game["tc"],
            serde_json::json!({"south": south, "north": north})
        );
        let file = game["record"].as_str().expect("a record file");
        let ogn = std::fs::read_to_string(records.join(file)).expect("the record");
        let record = &read_games(&ogn).expect("readable")[0];
        assert_eq!(record.tag("SouthTimeControl"), Some(south));
        assert_eq!(record.tag("NorthTimeControl"), Some(north));
        assert_eq!(record.tag("TimeControl"), None);
        // Built-in players: every move listed, none timed or scored.
        let moves = game["moves"].as_array().expect("moves");
        assert_eq!(moves.len() as u64, game["plies"].as_u64().expect("plies"));
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(m["ply"], i + 1);
            assert!(m["ms"].is_null() && m["score"].is_null(), "{m}");
            assert_eq!(m["move"].as_str().map(str::len), Some(1));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_moves_carry_the_referees_time_and_the_engines_last_score() {
    let good = format!("name=fake {} good", referee_support::fake().display());
    let summary = run_match(&[
        "--engine",
        &good,
        "--engine",
        "random",
        "--games",
        "2",
        "--random-openings",
        "2",
        "--max-plies",
        "30",
        "--seed",
        "6",
    ]);
    for game in summary["games"].as_array().expect("games") {
        let engine_side = if game["south"] == "fake" {
            "south"
        } else {
            "north"
        };
        for m in game["moves"].as_array().expect("moves") {
            let opening = m["ply"].as_u64() <= Some(2);
            assert_eq!(m["opening"], opening, "{m}");
            if !opening && m["side"] == engine_side {
                // The fake engine answers at once with `info depth 1 score cp 12`.
                assert!(m["ms"].as_u64().is_some_and(|ms| ms < 1000), "{m}");
                assert_eq!(m["score"], serde_json::json!({"cp": 12}), "{m}");
                assert_eq!(m["depth"], 1, "{m}");
            } else {
                assert!(m["ms"].is_null() && m["score"].is_null(), "{m}");
                assert!(m["depth"].is_null(), "{m}");
            }
        }
    }
}

#[test]
fn match_help_names_merge_shards_and_time_odds_and_merge_stands_alone() {
    let help = |args: &[&str]| {
        let output = Command::new(krou()).args(args).output().expect("krou runs");
        assert!(output.status.success(), "{args:?}");
        stdout(&output)
    };
    let text = help(&["match", "--help"]);
    for word in [
        "merge",
        "--shard <K/N>",
        "needs --seed",
        "tc=<TC>",
        "margin=<MS>",
    ] {
        assert!(text.contains(word), "{word}: {text}");
    }
    assert!(help(&["match", "merge", "--help"]).contains("<FILE.json>..."));
    let mixed = Command::new(krou())
        .args(["match", "--engine", "random", "merge", "a.json"])
        .output()
        .expect("krou runs");
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("cannot be used with"));
}
