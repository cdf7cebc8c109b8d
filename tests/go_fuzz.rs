//! Fuzzing `go`: every `go` line sent while idle, whatever it holds, ends in exactly one
//! `bestmove`, with limits inside the documented ranges, a warning (with a column inside the
//! line) for whatever was changed or skipped, and never an error.
//!
//! Size: 1,000 cases of 100 random `go` lines through the session (100,000 lines, in process,
//! with an engine that answers as soon as the limits let it), and 300 lines against the real
//! binary, each bounded by a short `movetime` so that its `bestmove` has a deadline, plus lines
//! whose limits are all skipped (the fallback deadline).

mod common;

use common::inline::InlineSession;
use krou::protocol::Event;
use krou::protocol::parse::{MAX_DEPTH, MAX_MOVES_TO_GO, MAX_NODES, MAX_TIME_MS};
use krou::rules::{Game, Move};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command as Process, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Words random `go` lines are made of: every parameter and alias, numbers in, at and beyond
/// the ranges, moves legal and not, and junk.
const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "mate",
    "perft",
    "Depth",
    "A",
    "b",
    "FbAf",
    "x",
    "0",
    "1",
    "-1",
    "5",
    "100",
    "101",
    "127",
    "10000",
    "10001",
    "1000000001",
    "-99999999999999999999999",
    "99999999999999999999999",
    "12x",
    "1.5",
    "+3",
    "é",
    "\u{0}",
    "\u{feff}",
    "go",
];

/// Positions the lines are tried in: the start, a middle game, North to move, a finished game.
const POSITIONS: &[&str] = &[
    "position startpos",
    "position fen 0-6-6-6-0-2-0-2-8-8-7-1-0-2-S moves DcCdBe",
    "position startpos moves F",
    "position fen 0-0-0-0-0-4-4-0-0-0-0-0-25-15-S",
];

fn go_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        6 => prop::sample::select(GO_WORDS).prop_map(str::to_string),
        2 => any::<i64>().prop_map(|n| n.to_string()),
        1 => "[0-9]{1,30}",
        1 => "[^\\s]{1,6}",
    ];
    let separator = prop::sample::select(&[" ", "  ", "\t", " \t "][..]);
    prop::collection::vec((separator, word), 0..12).prop_map(|words| {
        let mut line = "go".to_string();
        for (separator, word) in words {
            line.push_str(separator);
            line.push_str(&word);
        }
        line
    })
}

type Harness = InlineSession;

/// Checks the limits a search got against the documented ranges, and its `searchmoves`
/// against the legal moves.
fn check_limits(
    limits: &krou::search::Limits,
    legal: &[Move],
    line: &str,
) -> Result<(), TestCaseError> {
    let max_time = Duration::from_millis(MAX_TIME_MS as u64);
    prop_assert!(
        limits.depth.is_none_or(|d| (1..=MAX_DEPTH).contains(&d)),
        "{line:?}: depth {:?}",
        limits.depth
    );
    prop_assert!(
        limits.nodes.is_none_or(|n| (1..=MAX_NODES).contains(&n)),
        "{line:?}: nodes {:?}",
        limits.nodes
    );
    prop_assert!(limits.movetime.is_none_or(|t| t <= max_time), "{line:?}");
    if let Some(clock) = limits.clock {
        prop_assert!(clock.remaining <= max_time && clock.increment <= max_time);
        prop_assert!(
            clock
                .moves_to_go
                .is_none_or(|m| (1..=MAX_MOVES_TO_GO).contains(&m)),
            "{line:?}"
        );
    }
    prop_assert!(
        limits.searchmoves.iter().all(|m| legal.contains(m)),
        "{line:?}: searchmoves {:?} not all legal",
        limits.searchmoves
    );
    Ok(())
}

/// One `go` line while idle in `position`: exactly one `bestmove` (after `stop` for a search
/// that waits for one), limits in range, warnings with columns in the line, no error.
fn one_go(harness: &mut Harness, position: &str, line: &str) -> Result<(), TestCaseError> {
    prop_assert!(harness.send(position).is_empty(), "{position} is accepted");
    let game: Game = harness.session.game().clone();
    let legal: Vec<Move> = game.legal_moves().collect();
    harness.engine.take_started();
    let mut output = harness.send(line);
    let started = harness.engine.take_started();
    if let Some(limits) = &started {
        check_limits(limits, &legal, line)?;
        // Waiting for stop is what `infinite` and a `go` without limits ask for; a line
        // whose limits were skipped gets a deadline instead.
        let skipped = output.iter().any(|l| l.contains("skipped"));
        prop_assert!(
            !limits.is_unbounded() || limits.infinite || !skipped,
            "{:?} waits for stop after its words were skipped: {:?}",
            line,
            output
        );
    } else {
        prop_assert!(
            game.outcome().is_some(),
            "{line:?}: no search in a game that goes on"
        );
    }
    if let Some((limits, pondering)) = harness.engine.pending() {
        prop_assert!(
            limits.is_unbounded() || pondering,
            "{line:?}: a bounded search did not end"
        );
        output.extend(harness.send("stop"));
    } else if harness.session.is_searching() {
        // A finished game's `go infinite` / `go ponder`: its bestmove 0000 waits for stop.
        prop_assert!(game.outcome().is_some(), "{line:?}: a search without a job");
        output.extend(harness.send("stop"));
    }
    prop_assert!(!harness.session.is_searching(), "{line:?}: still searching");
    let bestmoves: Vec<&String> = output
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    prop_assert_eq!(bestmoves.len(), 1, "{:?} gave {:?}", line, output);
    let best = bestmoves[0].split_whitespace().nth(1).unwrap_or("");
    match game.outcome() {
        Some(_) => prop_assert_eq!(best, "0000"),
        None => prop_assert!(
            legal.iter().any(|m| m.to_string() == best),
            "{line:?}: bestmove {best} is not legal"
        ),
    }
    prop_assert!(
        !output.iter().any(|l| l.starts_with("info string error")),
        "{:?} gave an error: {:?}",
        line,
        output
    );
    let width = line.chars().count() + 1;
    for warning in output
        .iter()
        .filter(|l| l.starts_with("info string warning: "))
    {
        let column = warning
            .rsplit_once("(column ")
            .and_then(|(_, c)| c.trim_end_matches(')').parse::<usize>().ok());
        prop_assert!(
            column.is_some_and(|c| (1..=width).contains(&c)),
            "{line:?}: {warning}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 1_000, failure_persistence: None, ..Config::default() })]

    /// 1,000 cases × 100 lines = 100,000 random `go` lines.
    #[test]
    fn every_idle_go_gets_exactly_one_bestmove(
        lines in prop::collection::vec((go_line(), 0..POSITIONS.len()), 100)
    ) {
        let mut harness = Harness::new();
        for (line, position) in &lines {
            one_go(&mut harness, POSITIONS[*position], line)?;
        }
    }
}

#[test]
fn a_go_that_is_not_utf8_text_still_gets_its_bestmove() {
    let mut harness = Harness::new();
    harness.send("position startpos");
    harness
        .session
        .handle(Event::NotText(11, "go depth 3 \u{fffd}".to_string()));
    let lines = harness.settle();
    assert_eq!(
        lines[..2],
        [
            "info string warning: the line is not UTF-8 text (byte 12): read with U+FFFD in place of the bad bytes (column 12)",
            "info string warning: skipped '\u{fffd}': unknown go parameter (expected depth, nodes, movetime, wtime/p1time, btime/p2time, winc/p1inc, binc/p2inc, movestogo, infinite, ponder or searchmoves) (column 12)",
        ]
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
    // Any other line that is not text is still refused.
    harness
        .session
        .handle(Event::NotText(0, "\u{fffd}go".to_string()));
    assert_eq!(
        harness.sink.take_lines(),
        ["info string error: the line is not UTF-8 text (byte 1)"]
    );
}

/// The real binary, its input, and its output lines through a channel (so that a missing
/// answer fails the test instead of hanging it).
struct Binary {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: Receiver<String>,
}

impl Binary {
    fn start() -> Binary {
        let mut child = Process::new(env!("CARGO_BIN_EXE_krou"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("krou starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Binary {
            child,
            stdin,
            lines,
        }
    }

    /// Sends `input`; returns the lines up to and including the next `bestmove`, or fails
    /// after `deadline`.
    fn until_bestmove(&mut self, input: &str, deadline: Duration, what: &str) -> Vec<String> {
        let start = Instant::now();
        self.stdin
            .write_all(input.as_bytes())
            .expect("input written");
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_sub(start.elapsed());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("{what:?}: no bestmove within {deadline:?}: {lines:?}"));
            let done = line.starts_with("bestmove ");
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// The legal moves after each of the first `POSITIONS` (those of games that go on).
fn legal_moves_of_positions() -> Vec<Vec<String>> {
    let mut harness = Harness::new();
    POSITIONS[..POSITIONS.len() - 1]
        .iter()
        .map(|position| {
            harness.send(position);
            let game = harness.session.game();
            game.legal_moves().map(|m| m.to_string()).collect()
        })
        .collect()
}

#[test]
fn a_byte_order_mark_before_a_go_is_ignored() {
    let mut harness = Harness::new();
    let lines = harness.send("\u{feff}go depth 2");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn the_binary_answers_every_random_go_within_its_limits() {
    const MOVETIME_MS: u64 = 10;
    // Generous for a loaded 2-core machine; the protocol promise itself is 10 ms.
    const SLACK: Duration = Duration::from_millis(500);
    let legal = legal_moves_of_positions();
    let mut binary = Binary::start();
    let mut runner = TestRunner::deterministic();
    let strategy = go_line();
    let check = |lines: &[String], position: usize, line: &str| {
        assert!(
            !lines.iter().any(|l| l.starts_with("info string error")),
            "{line:?}: {lines:?}"
        );
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("");
        assert!(
            legal[position].iter().any(|m| m == best),
            "{line:?}: {lines:?}"
        );
    };
    for i in 0..300 {
        let line = strategy.new_tree(&mut runner).expect("a line").current();
        let position = i % legal.len();
        // The last movetime wins: every line has a deadline, whatever else it says; a search
        // that waits for stop (infinite, ponder) gets one right away.
        let waits = line
            .split_whitespace()
            .any(|w| w == "infinite" || w == "ponder");
        let stop = if waits { "\nstop" } else { "" };
        let sent = format!(
            "{}\n{line} movetime {MOVETIME_MS}{stop}\n",
            POSITIONS[position]
        );
        let deadline = Duration::from_millis(MOVETIME_MS) + SLACK;
        let lines = binary.until_bestmove(&sent, deadline, &line);
        check(&lines, position, &line);
    }
    // Lines whose limits are all skipped get the fallback deadline, pondering ones from the
    // ponderhit; nothing is appended to these.
    for line in [
        "go mate 5",
        "go depth",
        "go winc 100 binc 100",
        "go movetime 5s",
        "go ponder movetime x\nponderhit",
    ] {
        let sent = format!("{}\n{line}\n", POSITIONS[0]);
        let deadline = Duration::from_millis(1000) + SLACK;
        let lines = binary.until_bestmove(&sent, deadline, line);
        check(&lines, 0, line);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("nothing left to end the search")),
            "{line:?}: {lines:?}"
        );
    }
    binary
        .stdin
        .write_all(b"isready\nquit\n")
        .expect("input written");
    let rest: Vec<String> = binary.lines.iter().collect();
    assert_eq!(
        rest,
        ["readyok"],
        "exactly one bestmove per go, then readyok"
    );
    assert!(binary.child.wait().expect("krou exits").success());
}

#[test]
fn proven_scores_read_as_a_win_in_the_auale_gui_and_as_mate_in_uci() {
    use regex::Regex;
    // The Aualé GUI's info-line grammar for the score (quoted in issue 12); its info bar shows
    // `cp / 100` as seeds, and nothing without `cp`.
    let gui = Regex::new(
        r"score(?:\s+(?:cp\s+(?P<cp>-?\d+)|mate\s+(?P<mate>-?\d+)|(?P<type>lowerbound|upperbound)))+",
    )
    .expect("the GUI's grammar compiles");
    // North, to move, wins in two moves (the search proves it at depth 2).
    let mut binary = Binary::start();
    let lines = binary.until_bestmove(
        "position fen 0-0-0-0-0-2-0-1-0-0-0-0-22-23-N\ngo depth 6\n",
        Duration::from_secs(8),
        "go depth 6",
    );
    let last_info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 6 "))
        .expect("the depth 6 info line");
    let score = gui.captures(last_info).expect("the GUI reads the score");
    let cp: i32 = score["cp"].parse().expect("a cp number");
    let mate: i32 = score["mate"].parse().expect("a mate number");
    assert!(mate > 0, "{last_info}");
    assert!(
        cp as f64 / 100.0 > 48.0,
        "the GUI shows {} seeds, not beyond the 48 a game has: {last_info}",
        cp as f64 / 100.0
    );
    assert_eq!(cp, 10_000 - mate, "{last_info}");
    // A proven loss: the GUI shows a margin below -48 seeds; with ProvenScore mate, `cp` is
    // left out (strict UCI) and the GUI shows nothing.
    let line = |form| {
        krou::protocol::Response::Info(
            krou::search::Info {
                depth: 5,
                seldepth: 5,
                nodes: 10,
                time: Duration::from_millis(1),
                score: krou::search::Score::Mate(-3),
                pv: vec![],
                hashfull: 0,
                tbhits: 0,
                multipv: 0,
            },
            form,
        )
        .to_string()
    };
    let both = line(krou::protocol::response::ProvenScore::CpAndMate);
    let score = gui.captures(&both).expect("the GUI reads the score");
    assert_eq!((&score["cp"], &score["mate"]), ("-9997", "-3"), "{both}");
    let mate = line(krou::protocol::response::ProvenScore::Mate);
    let score = gui.captures(&mate).expect("the GUI reads the score");
    assert!(score.name("cp").is_none(), "{mate}");
    assert_eq!(&score["mate"], "-3");
}
