//! A match between two Krou processes runs to the end, with statistics that agree with its games.

mod referee_support;

use krou::referee::ogn_read::read_games;
use referee_support::{krou, run_match, scratch};

#[test]
fn a_match_between_two_krou_processes_runs_to_the_end() {
    let dir = scratch("krou-vs-krou");
    let ogn = dir.join("games.ogn");
    let first = format!("name=first {}", krou().display());
    let second = format!("name=second option.Hash=1 {}", krou().display());
    let summary = run_match(&[
        "--engine",
        &first,
        "--engine",
        &second,
        "--games",
        "6",
        "--random-openings",
        "4",
        "--tc",
        "depth=3",
        "--seed",
        "11",
        "--ogn",
        ogn.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(summary["ending"], "completed");
    assert_eq!(summary["games_finished"], 6);
    let games = summary["games"].as_array().expect("games");
    for game in games {
        assert!(game["fault_by"].is_null(), "{game}");
        let reason = game["reason"].as_str().expect("reason");
        assert!(
            ["store above 24", "24-24", "no legal move", "repetition"].contains(&reason),
            "{game}"
        );
    }
    // The totals and the Elo agree with the games, counted here independently.
    let pairing = &summary["pairings"][0];
    let score_of_first = |g: &serde_json::Value| match (g["winner"].as_str(), g["south"] == "first")
    {
        (Some("draw"), _) => 0.5,
        (Some("south"), true) | (Some("north"), false) => 1.0,
        _ => 0.0,
    };
    let scores: Vec<f64> = games.iter().map(score_of_first).collect();
    let wins = scores.iter().filter(|&&s| s == 1.0).count() as u64;
    let draws = scores.iter().filter(|&&s| s == 0.5).count() as u64;
    assert_eq!(pairing["wins"].as_u64(), Some(wins));
    assert_eq!(pairing["draws"].as_u64(), Some(draws));
    assert_eq!(pairing["losses"].as_u64(), Some(6 - wins - draws));
    let mut penta = [0u64; 5];
    let mut by_round: Vec<(u64, f64)> = games
        .iter()
        .zip(&scores)
        .map(|(g, &s)| (g["round"].as_u64().expect("round"), s))
        .collect();
    by_round.sort_by_key(|&(round, _)| round);
    for pair in by_round.chunks(2) {
        penta[((pair[0].1 + pair[1].1) * 2.0) as usize] += 1;
    }
    let reported: Vec<u64> = pairing["pentanomial"]
        .as_array()
        .expect("pentanomial")
        .iter()
        .filter_map(|c| c.as_u64())
        .collect();
    assert_eq!(reported, penta);
    let mean = scores.iter().sum::<f64>() / 6.0;
    if mean > 0.0 && mean < 1.0 {
        let elo = -400.0 * (1.0 / mean - 1.0).log10();
        assert!((pairing["elo"].as_f64().expect("elo") - elo).abs() < 1e-9);
    }
    let records = read_games(&std::fs::read_to_string(&ogn).expect("OGN")).expect("readable");
    assert_eq!(records.len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn krou_keeps_to_a_real_clock() {
    let engine = format!("{}", krou().display());
    let summary = run_match(&[
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--games",
        "2",
        "--tc",
        "1+0.05",
        "--max-plies",
        "16",
        "--concurrency",
        "2",
        // Slack for a loaded 2-core CI machine; a real overrun still loses.
        "--margin",
        "250",
    ]);
    assert_eq!(summary["games_finished"], 2);
    for game in summary["games"].as_array().expect("games") {
        assert!(game["fault_by"].is_null(), "{game}");
    }
}
