//! Playing at a chosen strength and starting options from the command line: `krou --option`,
//! `UCI_LimitStrength`, `UCI_Elo` and `StrengthSeed`, through the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

/// Runs `krou ARGS` with `input` on stdin and returns what it did.
fn krou(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("krou starts");
    if let Some(mut stdin) = child.stdin.take() {
        // An engine that refuses its arguments exits without reading its input, so the pipe
        // may already be closed: that is the outcome under test, not a failure to write.
        match stdin.write_all(input.as_bytes()) {
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
            written => written.expect("input written"),
        }
    }
    child.wait_with_output().expect("krou ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The `option name NAME …` line of a `uci` answer.
fn option_line(text: &str, name: &str) -> String {
    let prefix = format!("option name {name} type");
    text.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_default()
        .to_string()
}

/// The moves `krou ARGS` plays after each of `positions` (`position …` lines), `setup` sent
/// first; each `go` is sent once the last one's `bestmove` came. Checks that the last `info`
/// line's principal variation starts with the move played.
fn moves(args: &[&str], setup: &str, positions: &[String], go: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("krou starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    stdin.write_all(setup.as_bytes()).expect("setup written");
    let mut played = Vec::new();
    for position in positions {
        writeln!(stdin, "{position}\n{go}").expect("go written");
        let mut last_pv = None;
        let best = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                if let Some((_, pv)) = l.split_once(" pv ") {
                    last_pv = pv.chars().next().map(String::from);
                }
                l.strip_prefix("bestmove ").map(String::from)
            })
            .expect("a bestmove");
        let best = best.split(' ').next().unwrap_or_default().to_string();
        assert_eq!(
            last_pv.as_ref(),
            Some(&best),
            "the last info shows the move played"
        );
        played.push(best);
    }
    writeln!(stdin, "quit").expect("quit written");
    drop(stdin);
    child.wait().expect("krou ends");
    played
}

/// The positions after each prefix of a fixed game (start, then its first moves).
fn positions() -> Vec<String> {
    let game = ["F", "b", "A", "f", "C", "e", "D", "a", "E", "c", "B", "d"];
    (0..game.len())
        .map(|n| {
            if n == 0 {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", game[..n].concat())
            }
        })
        .collect()
}

#[test]
fn uci_lists_the_strength_options() {
    let text = stdout(&krou(&[], "uci\nquit\n"));
    assert_eq!(
        option_line(&text, "UCI_LimitStrength"),
        "option name UCI_LimitStrength type check default false"
    );
    assert!(
        option_line(&text, "UCI_Elo")
            .starts_with("option name UCI_Elo type spin default 1500 min 545 max ")
    );
    assert_eq!(
        option_line(&text, "StrengthSeed"),
        "option name StrengthSeed type spin default 0 min 0 max 2147483647"
    );
}

#[test]
fn an_option_from_the_command_line_is_the_default_shown() {
    let output = krou(
        &[
            "--option",
            "UCI_Elo=1234",
            "--option",
            "UCI_LimitStrength=true",
            "--option",
            "Hash=8",
        ],
        "uci\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        option_line(&text, "UCI_Elo").starts_with("option name UCI_Elo type spin default 1234 min")
    );
    assert!(option_line(&text, "UCI_LimitStrength").ends_with("default true"));
    assert!(option_line(&text, "Hash").starts_with("option name Hash type spin default 8 min 1"));
}

#[test]
fn setoption_still_overrides_a_command_line_value() {
    // Set on the command line, then overridden: the session plays the level set last, and
    // an override out of range is refused while the start value stays the default shown.
    let output = krou(
        &["--option", "UCI_Elo=1234"],
        "setoption name UCI_Elo value 99999\nsetoption name UCI_Elo value 2000\nuci\nquit\n",
    );
    let text = stdout(&output);
    assert!(text.contains("info string error: option UCI_Elo must be a whole number from 545 to"));
    assert!(option_line(&text, "UCI_Elo").contains("default 1234"));
    // The override takes effect: a level's moves with the value set by setoption equal those
    // of the same value given on the command line.
    let seed = "setoption name StrengthSeed value 3\nsetoption name UCI_LimitStrength value true\n";
    let overridden = moves(
        &["--option", "UCI_Elo=3000"],
        &format!("{seed}setoption name UCI_Elo value 900\n"),
        &positions(),
        "go depth 30",
    );
    let direct = moves(
        &["--option", "UCI_Elo=900"],
        seed,
        &positions(),
        "go depth 30",
    );
    assert_eq!(overridden.len(), positions().len());
    assert_eq!(overridden, direct);
}

#[test]
fn a_wrong_value_is_refused_at_start_with_the_range() {
    let output = krou(&["--option", "UCI_Elo=5"], "uci\nquit\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output).is_empty(),
        "nothing on the protocol's stdout"
    );
    let error = stderr(&output);
    assert!(
        error.contains("invalid value 'UCI_Elo=5' for '--option <NAME=VALUE>': option UCI_Elo must be a whole number from 545 to"),
        "{error}"
    );
}

#[test]
fn a_wrong_name_or_form_is_refused_at_start() {
    let unknown = krou(&["--option", "Colour=red"], "");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("unknown option 'Colour' (options: Hash,"));
    let bare = krou(&["--option", "UCI_LimitStrength"], "");
    assert_eq!(bare.status.code(), Some(2));
    assert!(stderr(&bare).contains("expected NAME=VALUE"));
    let check = krou(&["--option", "UCI_LimitStrength=yes"], "");
    assert_eq!(check.status.code(), Some(2));
    assert!(stderr(&check).contains("option UCI_LimitStrength must be true or false, not 'yes'"));
}

#[test]
fn an_option_with_a_subcommand_is_refused() {
    let output = krou(&["--option", "Hash=8", "perft", "1"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--option sets the engine's options"));
}

#[test]
fn a_level_replays_with_its_seed_and_plays_otherwise_with_another() {
    let setup = |seed: u32| {
        format!(
            "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 700\nsetoption name StrengthSeed value {seed}\n"
        )
    };
    let first = moves(&[], &setup(5), &positions(), "go depth 30");
    let again = moves(&[], &setup(5), &positions(), "go depth 30");
    assert_eq!(first.len(), positions().len());
    assert_eq!(first, again, "the same seed plays the same moves");
    let differs =
        (6..30).any(|seed| moves(&[], &setup(seed), &positions(), "go depth 30") != first);
    assert!(differs, "other seeds choose other moves at a low level");
}

#[test]
fn a_level_plays_alike_at_any_time_control() {
    // A level is a strength, not a clock: 50 ms or 2 s a move, the same moves.
    let setup = "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 2800\nsetoption name StrengthSeed value 9\n";
    let short = moves(&[], setup, &positions(), "go movetime 50");
    let long = moves(&[], setup, &positions(), "go movetime 2000");
    assert_eq!(short.len(), positions().len());
    assert_eq!(short, long);
}

#[test]
fn a_low_level_errs_where_full_strength_does_not() {
    let full = moves(&[], "", &positions(), "go depth 8");
    let setup = "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 545\nsetoption name StrengthSeed value 1\n";
    let weak = moves(&[], setup, &positions(), "go depth 8");
    assert_eq!(weak.len(), full.len());
    let differ = weak.iter().zip(&full).filter(|(a, b)| a != b).count();
    assert!(
        differ >= 3,
        "{differ} of {} moves differ: {weak:?} {full:?}",
        full.len()
    );
}

#[test]
fn a_limited_level_ignores_the_book() {
    // With the book on, full strength answers the start position from the book at once; a
    // limited level searches instead (its `info` lines, no `info string book`).
    let output = krou(
        &[
            "--option",
            "OwnBook=true",
            "--option",
            "UCI_LimitStrength=true",
        ],
        "position startpos\ngo movetime 100\nisready\nquit\n",
    );
    let text = stdout(&output);
    assert!(!text.contains("info string book"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("info depth")), "{text}");
    let book = stdout(&krou(
        &["--option", "OwnBook=true"],
        "position startpos\ngo movetime 100\nisready\nquit\n",
    ));
    assert!(book.contains("info string book"), "{book}");
}

#[test]
fn level_errors_reports_fewer_and_smaller_mistakes_at_higher_levels() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/level-errors");
    let output = Command::new(script)
        .args(["--krou", env!("CARGO_BIN_EXE_krou"), "545", "2000"])
        .output()
        .expect("the script runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.trim_end_matches('%').parse().ok())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    let (low, high) = (&rows[0], &rows[1]);
    assert_eq!((low[0], low[1], high[1]), (545.0, 198.0, 198.0), "{text}");
    assert!(low[2] > high[2], "a lower level differs more often: {text}");
    assert!(
        low[3] > high[3],
        "a lower level loses more seeds a move: {text}"
    );
}

/// What a search of each of a few 15–17-seed positions reports: the move, the tables hits
/// and the last score, with `tables` (0 to that many seeds) and at `strength` or full strength.
fn endgame_searches(
    tables: &std::sync::Arc<krou::egdb::Tables>,
    strength: Option<krou::search::Strength>,
) -> Vec<(String, u64, String)> {
    use krou::rules::{Game, GrandSlam, Position};
    use krou::search::{Control, Limits, Searcher};
    let diagrams = [
        "2-1-0-3-1-2-1-2-0-1-1-1-17-16-S",
        "1-0-2-2-1-3-0-1-2-1-2-1-15-17-N",
        "3-2-1-0-2-1-2-1-1-0-2-1-19-13-S",
        "0-2-1-1-3-1-1-2-0-2-1-3-14-17-N",
    ];
    let mut searcher = Searcher::default();
    searcher.set_tables(Some(tables.clone()));
    diagrams
        .iter()
        .map(|d| {
            let position: Position = d.parse().expect("a diagram");
            let game = Game::new(position, GrandSlam::NoCapture);
            let limits = Limits {
                depth: Some(8),
                strength,
                ..Limits::default()
            };
            searcher.clear();
            let mut last = (0, String::new());
            let found = searcher.search(&game, &limits, &Control::new(false), &mut |info| {
                last = (info.tbhits, info.score.to_string());
            });
            let played = found.best.map(|m| m.to_string()).unwrap_or_default();
            (played, last.0, last.1)
        })
        .collect()
}

#[test]
fn a_level_plays_alike_whatever_tables_the_install_holds() {
    // A level probes 0-12 only (what every install has at once): with 0-14 it plays and
    // scores exactly as with 0-12, where full strength sees the larger tables.
    use krou::egdb::Tables;
    use krou::rules::GrandSlam;
    use std::sync::Arc;
    let large = Arc::new(Tables::build(GrandSlam::NoCapture, 14, 2));
    let small = Arc::new(large.truncated(13));
    let level = Some(krou::search::Strength { elo: 2925, seed: 4 });
    assert_eq!(
        endgame_searches(&small, level),
        endgame_searches(&large, level)
    );
    assert_ne!(
        endgame_searches(&small, None),
        endgame_searches(&large, None),
        "full strength uses the 13- and 14-seed tables"
    );
}
