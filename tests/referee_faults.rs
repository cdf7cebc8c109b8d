//! Every way an engine can misbehave loses the game with a named reason, and never hangs or
//! crashes the referee. The misbehaving engines are `examples/fake_engine.rs`.

mod referee_support;

use referee_support::{fake, run_match};

/// Plays two games (colours swapped) of a fake engine in `mode` against `random`, and checks
/// that the fake lost both by `reason`.
fn loses_both_games_by(mode: &str, tc: &str, reason: &str) -> serde_json::Value {
    let engine = format!("name=bad {} {mode}", fake().display());
    let summary = run_match(&[
        "--engine",
        &engine,
        "--engine",
        "random",
        "--games",
        "2",
        "--tc",
        tc,
        "--timeout",
        "0.5",
        "--margin",
        "20",
        "--seed",
        "1",
    ]);
    let pairing = &summary["pairings"][0];
    assert_eq!(pairing["losses"], 2, "{summary:#}");
    for game in summary["games"].as_array().expect("games") {
        assert_eq!(game["reason"], reason, "{game:#}");
        let bad_side = if game["south"] == "bad" {
            "south"
        } else {
            "north"
        };
        assert_eq!(game["fault_by"], bad_side, "{game:#}");
        assert_ne!(game["winner"], bad_side, "{game:#}");
        assert_eq!(game["result"], "*");
    }
    summary
}

#[test]
fn an_engine_that_crashes_mid_game_loses_by_crash() {
    let summary = loses_both_games_by("crash-after 3", "st=0.2", "crash");
    let plies = summary["games"][0]["plies"].as_u64().expect("plies");
    assert!(plies >= 6, "the crash came after three moves: {plies}");
}

#[test]
fn an_engine_that_exits_at_once_loses_by_crash() {
    loses_both_games_by("exit-at-once", "st=0.2", "crash");
}

#[test]
fn an_engine_that_never_says_uciok_loses() {
    loses_both_games_by("no-uciok", "st=0.2", "no uciok");
}

#[test]
fn an_engine_that_never_says_readyok_loses() {
    loses_both_games_by("no-readyok", "st=0.2", "no readyok");
}

#[test]
fn an_engine_that_never_moves_loses_on_time_under_a_clock() {
    loses_both_games_by("no-bestmove", "st=0.1", "time forfeit");
}

#[test]
fn an_engine_that_never_moves_loses_by_no_bestmove_at_fixed_depth() {
    loses_both_games_by("no-bestmove", "depth=3", "no bestmove");
}

#[test]
fn an_illegal_move_loses() {
    let summary = loses_both_games_by("illegal", "st=0.2", "illegal move");
    let detail = summary["games"][0]["detail"].as_str().expect("detail");
    assert!(detail.contains("is a pit of"), "{detail}");
}

#[test]
fn garbage_and_an_overlong_line_then_a_malformed_move_loses() {
    loses_both_games_by("garbage", "st=0.2", "malformed move");
}

#[test]
fn an_output_flood_loses_on_time_and_does_not_hang_the_referee() {
    loses_both_games_by("flood", "st=0.1", "time forfeit");
}

#[test]
fn a_move_slower_than_the_clock_loses_with_its_exact_overrun() {
    let summary = loses_both_games_by("slow 300", "st=0.1", "time forfeit");
    let detail = summary["games"][0]["detail"].as_str().expect("detail");
    // "South time forfeit: used 301.2 ms of 100.0 ms, over by 201.2 ms"
    let over: f64 = detail
        .split("over by ")
        .nth(1)
        .and_then(|t| t.trim_end_matches(" ms").parse().ok())
        .expect("an exact overrun");
    assert!((195.0..400.0).contains(&over), "{detail}");
}

#[test]
fn a_missing_program_loses_by_start_failure() {
    let summary = run_match(&[
        "--engine",
        "name=ghost /nonexistent/engine",
        "--engine",
        "random",
        "--games",
        "2",
    ]);
    assert_eq!(summary["pairings"][0]["losses"], 2);
    assert_eq!(summary["games"][0]["reason"], "start failed");
}

#[test]
fn an_engine_that_stops_reading_its_input_cannot_block_the_referee() {
    // A 100 kB option value overfills the pipe to an engine that never reads it.
    let junk = "x".repeat(100_000);
    let engine = format!("name=bad option.Junk={junk} {} deaf", fake().display());
    let started = std::time::Instant::now();
    let summary = run_match(&[
        "--engine", &engine, "--engine", "random", "--games", "1", "--tc", "st=0.1",
    ]);
    assert_eq!(summary["games"][0]["reason"], "time forfeit", "{summary:#}");
    assert_eq!(summary["games"][0]["fault_by"], "south");
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

#[test]
fn a_wrapper_script_engine_leaves_no_process_behind() {
    let dir = referee_support::scratch("orphans");
    let pid_file = dir.join("pid");
    // The wrapper starts a long sleep, never answers, and so loses by `no uciok`.
    let engine = format!(
        "name=wrap sh -c 'sleep 30 & echo $! > {}; wait'",
        pid_file.display()
    );
    let summary = run_match(&[
        "--engine",
        &engine,
        "--engine",
        "random",
        "--games",
        "1",
        "--timeout",
        "0.5",
    ]);
    assert_eq!(summary["games"][0]["reason"], "no uciok", "{summary:#}");
    let pid = std::fs::read_to_string(&pid_file).expect("the wrapper wrote its child's pid");
    let pid = pid.trim().to_string();
    let alive = || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // A zombie (state Z) is dead, only not yet reaped by init.
        !stat.is_empty() && !stat.contains(") Z ")
    };
    let asked = std::time::Instant::now();
    while alive() && asked.elapsed() < std::time::Duration::from_secs(3) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive(), "the wrapper's child {pid} outlived the match");
    let _ = std::fs::remove_dir_all(&dir);
}
