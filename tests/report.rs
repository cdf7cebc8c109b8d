//! The match report: its figures agree with the match's own summary, `krou match --report`
//! and `krou match report` write it, shards combine, and bad files are refused clearly.

mod referee_support;
mod report_support;

use krou::referee::report::{model, series};
use referee_support::{krou, scratch};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(krou()).args(args).output().expect("krou runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn close(a: &Value, b: f64) -> bool {
    match a.as_f64() {
        Some(a) => (a - b).abs() < 1e-9,
        None => a.is_null() && !b.is_finite(),
    }
}

#[test]
fn the_series_end_at_the_figures_of_the_summary() {
    let dir = scratch("report-series");
    let (json, html) = (dir.join("s.json"), dir.join("r.html"));
    let output = run(&[
        "match",
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
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0 elo1=30",
        "--json",
        path(&json),
        "--report",
        path(&html),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("valid");
    let m = model::read(&value, "s.json").expect("a match the report reads");
    let course = series::course(&m, 0);
    let last = course.points.last().expect("finished games");
    let summary = &value["pairings"][0];
    assert_eq!(last.games, summary["games"].as_u64().expect("games"));
    assert!(close(&summary["elo"], last.elo), "{summary} {last:?}");
    assert!(close(&summary["elo_low"], last.low), "{summary} {last:?}");
    assert!(close(&summary["elo_high"], last.high), "{summary} {last:?}");
    assert!(
        close(&summary["sprt"]["llr"], last.llr.expect("an SPRT")),
        "{summary}"
    );
    let penta: Vec<u64> = summary["pentanomial"]
        .as_array()
        .expect("counts")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(penta, course.tally.pentanomial);
    assert!(!course.pairs_inferred, "the match wrote each game's pair");
    assert_eq!(
        course.points.len() as u64,
        last.games,
        "one point per finished game"
    );
    let page = std::fs::read_to_string(&html).expect("the report");
    for plot in ["elo", "llr", "pentanomial"] {
        assert!(
            page.contains(&format!("data-plot=\"{plot}\"")),
            "no {plot} plot"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_one_match_make_one_report_and_other_matches_are_refused() {
    let dir = scratch("report-shards");
    let mut first = report_support::fixture();
    let mut second = first.clone();
    let games = first["games"].as_array().expect("games").clone();
    // Shards 1 and 2 of 3, the third missing: shard K holds the game pairs p with p mod 3 =
    // K - 1, so shard 1 the pairs 0 and 3 (rounds 1, 2, 7, 8), shard 2 the pair 1 (rounds 3
    // and 4), and the missing shard 3 the pair 2 (rounds 5 and 6).
    let rounds = |wanted: &[u64]| -> Value {
        let kept = games
            .iter()
            .filter(|g| wanted.iter().any(|&r| g["round"] == r));
        Value::Array(kept.cloned().collect())
    };
    first["games"] = rounds(&[1, 2, 7, 8]);
    first["shard"] = serde_json::json!({ "index": 1, "count": 3 });
    second["games"] = rounds(&[3, 4]);
    second["shard"] = serde_json::json!({ "index": 2, "count": 3 });
    let (a, b, c) = (dir.join("a.json"), dir.join("b.json"), dir.join("c.json"));
    std::fs::write(&a, first.to_string()).expect("write");
    std::fs::write(&b, second.to_string()).expect("write");
    let out = dir.join("r.html");
    let output = run(&["match", "report", path(&a), path(&b), "-o", path(&out)]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(&out).expect("the report");
    assert!(page.contains("6 games"), "both shards' games");
    assert!(
        page.contains("shards 1, 2 of 3 merged, shard 3 missing"),
        "says what it merged and what is missing"
    );
    assert!(
        page.contains("id=\"game-8\""),
        "the last game has its section"
    );
    let output = run(&["match", "report", path(&a), "-o", path(&out)]);
    assert!(output.status.success(), "one shard alone");
    let page = std::fs::read_to_string(&out).expect("the report");
    assert!(page.contains("shard 1 of 3, "), "{page}");
    assert!(page.contains("4 games"), "the shard's games");
    // Shard 2 with another match or split, and shard 1 a second time (its own games: each
    // file is checked alone first, and shard 2's game pairs are not shard 1's).
    for (base, change, says) in [
        (
            &second,
            ("match_id", Value::from("beef")),
            "are of different matches",
        ),
        (
            &second,
            ("shard", serde_json::json!({ "index": 2, "count": 2 })),
            "the match was split differently",
        ),
        (
            &first,
            ("shard", serde_json::json!({ "index": 1, "count": 3 })),
            "are both shard 1/3",
        ),
    ] {
        let mut other = base.clone();
        other[change.0] = change.1;
        std::fs::write(&c, other.to_string()).expect("write");
        let output = run(&["match", "report", path(&a), path(&c), "-o", path(&out)]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("krou match report: "), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        let merge = run(&["match", "merge", path(&a), path(&c)]);
        let merge_says = String::from_utf8_lossy(&merge.stderr);
        assert_eq!(
            stderr.trim_start_matches("krou match report: "),
            merge_says.trim_start_matches("krou match merge: "),
            "refused as krou match merge refuses"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSON summary at `path`.
fn summary(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("json")).expect("valid")
}

#[test]
fn a_sharded_match_with_time_odds_reports_per_shard_and_merged_as_krou_match_merge() {
    let dir = scratch("report-real-shards");
    let fast = format!("name=fast tc=depth=1 {}", krou().display());
    let slow = format!("name=slow tc=depth=3 {}", krou().display());
    let mut shards = Vec::new();
    for k in 1..=2 {
        let (json, html) = (
            dir.join(format!("s{k}.json")),
            dir.join(format!("s{k}.html")),
        );
        let shard = format!("{k}/2");
        let output = run(&[
            "match",
            "--engine",
            &fast,
            "--engine",
            &slow,
            "--games",
            "4",
            "--random-openings",
            "4",
            "--seed",
            "5",
            "--shard",
            &shard,
            "--json",
            path(&json),
            "--report",
            path(&html),
        ]);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let page = std::fs::read_to_string(&html).expect("the shard's report");
        assert!(page.contains(&format!("shard {k} of 2")), "{k}");
        assert!(page.contains("data-plot=\"time\""), "engines are timed");
        for tc in ["depth=1", "depth=3"] {
            assert!(page.contains(tc), "each engine's own control: {tc}");
        }
        assert!(
            page.contains("time odds: fast depth=1, slow depth=3"),
            "the heading names each engine's control, not the unused default"
        );
        shards.push(json);
    }
    let merged = dir.join("merged.json");
    let output = run(&[
        "match",
        "merge",
        path(&shards[0]),
        path(&shards[1]),
        "--json",
        path(&merged),
    ]);
    assert!(output.status.success(), "the shards merge");
    let (from_shards, from_merged) = (dir.join("a.html"), dir.join("b.html"));
    let output = run(&[
        "match",
        "report",
        path(&shards[1]),
        path(&shards[0]),
        "-o",
        path(&from_shards),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let output = run(&["match", "report", path(&merged), "-o", path(&from_merged)]);
    assert!(output.status.success(), "the merged summary reads");
    let page = std::fs::read_to_string(&from_shards).expect("page");
    assert_eq!(
        page,
        std::fs::read_to_string(&from_merged).expect("page"),
        "the shards' page is the merged summary's"
    );
    assert!(page.contains("4 games"), "both shards' games");
    let value = summary(&merged);
    let m = model::read(&value, "merged.json").expect("a match the report reads");
    let tally = series::course(&m, 0).tally;
    let pairing = &value["pairings"][0];
    assert_eq!(tally.games(), pairing["games"].as_u64().expect("games"));
    let penta: Vec<u64> = pairing["pentanomial"]
        .as_array()
        .expect("counts")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(penta, tally.pentanomial, "the page counts as the merge");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_files_are_refused_with_the_file_and_the_place() {
    let dir = scratch("report-bad");
    let out = dir.join("r.html");
    let cases: [(&str, String, &str); 4] = [
        (
            "truncated.json",
            "{\"engines\": [".into(),
            "is not a match summary: EOF while parsing",
        ),
        ("array.json", "[1, 2]".into(), "is not a match summary"),
        (
            "ms.json",
            {
                let mut v = report_support::fixture();
                v["games"][2]["moves"][5]["ms"] = "fast".into();
                v.to_string()
            },
            "games[2].moves[5].ms: expected a whole number ≥ 0, found \"fast\"",
        ),
        (
            "winner.json",
            {
                let mut v = report_support::fixture();
                v["games"][0]["winner"] = 3.into();
                v.to_string()
            },
            "games[0].winner: expected a string, found 3",
        ),
    ];
    for (name, text, message) in cases {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("write");
        let output = run(&["match", "report", path(&file), "-o", path(&out)]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(name) && stderr.contains(message),
            "{name}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let output = run(&[
        "match",
        "report",
        path(&dir.join("none.json")),
        "-o",
        path(&out),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!out.exists(), "no page from bad input");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_older_file_without_moves_still_gets_a_report_that_says_what_is_missing() {
    let dir = scratch("report-old");
    let mut value = report_support::fixture();
    for key in ["format", "match_id", "shard", "engine_tc"] {
        value.as_object_mut().expect("object").remove(key);
    }
    for game in value["games"].as_array_mut().expect("games") {
        let game = game.as_object_mut().expect("object");
        game.remove("moves");
        game.remove("pair");
    }
    let (file, out) = (dir.join("old.json"), dir.join("r.html"));
    std::fs::write(&file, value.to_string()).expect("write");
    let output = run(&["match", "report", path(&file), "-o", path(&out)]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(&out).expect("the report");
    assert!(
        page.contains("written before format 2"),
        "says the moves are missing"
    );
    assert!(
        page.contains("pairs taken as consecutive games"),
        "says pairs are inferred"
    );
    assert!(
        page.contains("data-plot=\"elo\""),
        "the Elo plot needs no moves"
    );
    assert!(
        !page.contains("data-plot=\"eval\""),
        "no evaluations without moves"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_match_command_without_a_subcommand_still_needs_engines() {
    let output = run(&["match", "--games", "2"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--engine"), "{stderr}");
}

#[test]
fn each_game_links_to_its_record_or_to_its_moves_on_the_page() {
    let dir = scratch("report-links");
    let (records, html) = (dir.join("games"), dir.join("r.html"));
    let output = run(&[
        "match",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--games",
        "2",
        "--seed",
        "1",
        "--ogn-dir",
        path(&records),
        "--report",
        path(&html),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(&html).expect("the report");
    for round in [1, 2] {
        let record = records.join(format!("round-000{round}.ogn"));
        assert!(record.exists(), "{}", record.display());
        assert!(
            page.contains(&format!("href=\"{}\"", path(&record))),
            "links {round}"
        );
    }
    let page = krou::referee::report::html(&report_support::fixture(), "fixture").expect("page");
    assert!(
        page.contains("href=\"round-0001.ogn\""),
        "game 1 has a record"
    );
    assert!(
        page.contains("<a href=\"#game-2\">moves</a>"),
        "game 2 links to its moves"
    );
    let section = page
        .split("id=\"game-2\"")
        .nth(1)
        .expect("game 2's section");
    assert!(
        section.contains("<p class=\"moves\">1.A* 2.a* 3.A"),
        "its moves are shown"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
