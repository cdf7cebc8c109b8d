//! Every way an engine can misbehave loses the game with a named reason, and never hangs or
//! crashes the referee. The misbehaving engines are `examples/fake_engine.rs`.

mod referee_support;

use referee_support::{fake, krou, later, run_faulty_match, scratch};
use std::process::Command;

/// Plays two games (colours swapped) of a fake engine in `mode` against `random`, and checks
/// that the fake lost both by `reason`.
fn loses_both_games_by(mode: &str, tc: &str, reason: &str) -> serde_json::Value {
    let engine = format!("name=bad {} {mode}", fake().display());
    let summary = run_faulty_match(&[
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
    loses_both_games_by(&later("exit-at-once"), "st=0.2", "crash");
}

#[test]
fn an_engine_that_never_says_uciok_loses() {
    loses_both_games_by(&later("no-uciok"), "st=0.2", "no uciok");
}

#[test]
fn an_engine_that_never_says_readyok_loses() {
    loses_both_games_by(&later("no-readyok"), "st=0.2", "no readyok");
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

/// Runs `krou match` with `args` and returns its exit status, stdout and stderr.
fn run_failing(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(krou())
        .arg("match")
        .args(args)
        .output()
        .expect("krou runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn an_engine_that_does_not_start_stops_the_match_before_the_first_game() {
    let fake = fake().display().to_string();
    for (engine, why) in [
        (
            "name=ghost /nonexistent/engine".to_string(),
            "cannot run '/nonexistent/engine'",
        ),
        (format!("name=ghost {fake} exit-at-once"), "crash"),
        (format!("name=ghost {fake} no-uciok"), "no uciok within"),
        (format!("name=ghost {fake} no-readyok"), "no readyok within"),
    ] {
        let (status, stdout, stderr) = run_failing(&[
            "--engine",
            &engine,
            "--engine",
            "random",
            "--games",
            "2",
            "--timeout",
            "0.5",
        ]);
        assert_eq!(status, Some(2), "{engine}: {stderr}");
        assert!(stdout.is_empty(), "{engine}: no game, no summary: {stdout}");
        assert!(
            stderr.contains("engine 'ghost' does not start (command: ") && stderr.contains(why),
            "{engine}: {stderr}"
        );
    }
}

#[test]
fn a_start_failure_during_the_match_is_a_forfeit_named_in_the_summary_and_exits_3() {
    let engine = format!("name=bad {} {}", fake().display(), later("exit-at-once"));
    let (status, stdout, stderr) = run_failing(&[
        "--engine", &engine, "--engine", "random", "--games", "2", "--seed", "1",
    ]);
    assert_eq!(status, Some(3), "every game ended by a fault: {stderr}");
    assert!(
        stdout.contains("Games 2: 0 wins, 0 draws, 2 losses"),
        "{stdout}"
    );
    assert!(stdout.contains("\nFaults: bad crash 2\n"), "{stdout}");
    assert!(
        stdout.contains("Every game ended by a fault: this match has no result"),
        "{stdout}"
    );
    assert!(stderr.contains("every game ended by a fault"), "{stderr}");
}

#[test]
fn merged_shards_whose_every_game_ended_by_a_fault_say_so_and_exit_3() {
    let dir = scratch("merge-faults");
    let started = dir.join("started");
    let engine = format!(
        "name=bad {} after-first {} exit-at-once",
        fake().display(),
        started.display()
    );
    let mut shards = Vec::new();
    for k in 1..=2 {
        // The same command in both shards (one match): each shard's start check is its first.
        let _ = std::fs::remove_file(&started);
        let json = dir.join(format!("shard-{k}.json"));
        let shard = format!("{k}/2");
        let (status, _, stderr) = run_failing(&[
            "--engine",
            &engine,
            "--engine",
            "random",
            "--games",
            "4",
            "--seed",
            "1",
            "--shard",
            &shard,
            "--json",
            json.to_str().expect("utf-8"),
        ]);
        assert_eq!(status, Some(3), "shard {k}: {stderr}");
        shards.push(json);
    }
    let output = Command::new(krou())
        .args(["match", "merge"])
        .args(&shards)
        .output()
        .expect("krou runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("\nFaults: bad crash 4\n"), "{stdout}");
    assert!(
        stdout.contains("Every game ended by a fault: this match has no result"),
        "{stdout}"
    );
}

#[test]
fn an_engine_that_stops_reading_its_input_cannot_block_the_referee() {
    // A 100 kB option value overfills the pipe to an engine that never reads it.
    let junk = "x".repeat(100_000);
    let engine = format!("name=bad option.Junk={junk} {} deaf", fake().display());
    let started = std::time::Instant::now();
    let summary = run_faulty_match(&[
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
    // The wrapper starts a long sleep, never answers, and so fails the check before the match.
    let engine = format!(
        "name=wrap sh -c 'sleep 30 & echo $! > {}; wait'",
        pid_file.display()
    );
    let (status, _, stderr) = run_failing(&[
        "--engine",
        &engine,
        "--engine",
        "random",
        "--games",
        "1",
        "--timeout",
        "0.5",
    ]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("no uciok"), "{stderr}");
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
