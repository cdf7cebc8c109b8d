//! Fuzzing the protocol in a bounded form: random and mutated lines against the parser and the
//! session (in process, with an engine that answers at once), and a shorter stream against the
//! real binary. Every line gets at most one error; a rejected line changes nothing; every
//! accepted `go` gets exactly one `bestmove`; the session still answers `isready` afterwards.
//!
//! Size: 2,000 cases of 500 lines for the session (1,000,000 lines) plus 200,000 lines for
//! the parser alone and 5,000 lines for the binary.

mod common;

use common::inline::{InlineEngine, InlineSession, Sink};
use krou::protocol::{Command, Event, Flow, Session, parse_command};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use std::io::Write;
use std::process::{Command as Process, Stdio};
use std::sync::mpsc::Receiver;

/// Valid lines to start from.
const CORPUS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption name Hash value 32",
    "setoption name Threads value 2",
    "setoption name MoveOverhead value 30",
    "setoption name Ponder value true",
    "setoption name OwnBook value true",
    "setoption name GrandSlam value forbidden",
    "setoption name grandslam value capture-all",
    "setoption name GrandSlam value no-capture",
    "position startpos",
    "position startpos moves FbAf",
    "position startpos moves F b A f C",
    "position fen 0-6-6-6-0-2-0-2-8-8-7-1-0-2-S moves DcCdBe",
    "position fen 0-0-0-0-1-1-1-0-0-0-0-0-23-22-S moves F",
    "position fen 0-0-0-0-0-1-0-0-0-0-0-1-23-23-S moves FfAaBbCcDdE",
    "position fen 0-0-0-0-0-4-4-0-0-0-0-0-25-15-S",
    "go depth 16 movetime 2400",
    "go movetime 3600",
    "go ponder",
    "go infinite",
    "go depth 3",
    "go nodes 1000",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
    "go p1time 300 p2time 300",
    "go searchmoves A B",
    "go movetime 100 depth 127",
    "go mate 5",
    "debug on",
    "debug off",
    "register later",
    "setoption name ProvenScore value mate",
    "setoption name EngineTurn value south",
    "stop",
    "ponderhit",
    "d",
    "perft 3",
    "query gameover",
    "query p1turn",
    "query result",
    "quit",
];

/// Words to build token soups from.
const WORDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "debug",
    "register",
    "on",
    "off",
    "ProvenScore",
    "EngineTurn",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "perft",
    "query",
    "gameover",
    "p1turn",
    "result",
    "Hash",
    "Threads",
    "MoveOverhead",
    "Ponder",
    "OwnBook",
    "GrandSlam",
    "true",
    "false",
    "forbidden",
    "no-capture",
    "0",
    "1",
    "-1",
    "7",
    "100",
    "4096",
    "99999999999999999999",
    "A",
    "f",
    "FbAf",
    "g",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
    "4-4-4",
    "é",
    "\u{0}",
    "\t",
];

/// Characters mutations insert.
const CHARS: &[char] = &[
    'A', 'F', 'a', 'f', 'g', 'x', '0', '1', '5', '9', '-', ' ', '\t', 'é', '\u{0}', '\u{feff}',
];

fn mutate(line: &str, edits: &[(usize, u8, usize)]) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for &(at, kind, pick) in edits {
        let c = CHARS[pick % CHARS.len()];
        let at = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        match kind % 3 {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

fn line() -> impl Strategy<Value = String> {
    let corpus = prop::sample::select(CORPUS).prop_map(str::to_string);
    let mutated = (
        prop::sample::select(CORPUS),
        prop::collection::vec((any::<usize>(), any::<u8>(), any::<usize>()), 1..5),
    )
        .prop_map(|(line, edits)| mutate(line, &edits));
    let soup = prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "));
    let random = "[^\n]{0,40}";
    prop_oneof![3 => corpus, 4 => mutated, 2 => soup, 1 => random]
}

struct Harness {
    session: Session<InlineEngine>,
    engine: InlineEngine,
    sink: Sink,
    inbox: Receiver<Event>,
    accepted_gos: usize,
    bestmoves: usize,
}

impl Harness {
    fn new() -> Harness {
        let InlineSession {
            session,
            engine,
            sink,
            inbox,
        } = InlineSession::new();
        Harness {
            session,
            engine,
            sink,
            inbox,
            accepted_gos: 0,
            bestmoves: 0,
        }
    }

    fn drain(&mut self) -> Vec<String> {
        self.engine.step();
        while let Ok(event) = self.inbox.try_recv() {
            assert_eq!(self.session.handle(event), Flow::Continue);
        }
        let lines = self.sink.take_lines();
        self.bestmoves += lines.iter().filter(|l| l.starts_with("bestmove ")).count();
        lines
    }

    /// Sends one line and checks the invariants; `false` once the session quits.
    fn send(&mut self, line: &str) -> Result<bool, TestCaseError> {
        let before = (
            self.session.game().clone(),
            *self.session.options(),
            self.session.is_searching(),
        );
        let flow = self.session.handle(Event::Line(line.to_string()));
        let after = (
            self.session.game().clone(),
            *self.session.options(),
            self.session.is_searching(),
        );
        let output = self.sink.take_lines();
        self.bestmoves += output.iter().filter(|l| l.starts_with("bestmove ")).count();
        let errors = output
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .count();
        prop_assert!(errors <= 1, "{line:?} gave {errors} errors: {output:?}");
        if errors == 1 {
            prop_assert_eq!(
                output.len(),
                1,
                "{:?} gave more than its error: {:?}",
                line,
                output
            );
            prop_assert!(
                before == after,
                "{:?} was rejected but changed the session",
                line
            );
        } else if matches!(parse_command(line), Ok(Command::Go(_))) {
            self.accepted_gos += 1;
        }
        self.drain();
        Ok(flow == Flow::Continue)
    }

    /// Checks that the session answers `isready`, then ends it like the end of input.
    fn finish(mut self) -> Result<(), TestCaseError> {
        self.session.handle(Event::Line("isready".to_string()));
        let lines = self.drain();
        prop_assert!(
            lines.iter().any(|l| l == "readyok"),
            "no readyok: {:?}",
            lines
        );
        self.end()
    }

    /// Ends the session (as after `quit`): the last search reports, one `bestmove` per `go`.
    fn end(mut self) -> Result<(), TestCaseError> {
        self.session.finish();
        self.drain();
        prop_assert_eq!(
            self.bestmoves,
            self.accepted_gos,
            "one bestmove per accepted go"
        );
        Ok(())
    }
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(2_000))]

    /// 2,000 cases × 500 lines = 1,000,000 lines through parser and session.
    #[test]
    fn sessions_survive_random_and_mutated_lines(lines in prop::collection::vec(line(), 500)) {
        let mut harness = Harness::new();
        for line in &lines {
            if !harness.send(line)? {
                std::mem::replace(&mut harness, Harness::new()).end()?;
            }
        }
        harness.finish()?;
    }
}

proptest! {
    #![proptest_config(config(200_000))]

    /// The parser alone: never panics, and errors point inside the line (or just after it).
    #[test]
    fn parse_errors_point_into_the_line(line in line()) {
        if let Err(e) = parse_command(&line) {
            prop_assert!(e.column >= 1 && e.column <= line.chars().count() + 1, "{e} for {line:?}");
            prop_assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn the_binary_survives_random_lines_and_still_answers() {
    let mut runner = TestRunner::deterministic();
    let strategy = line();
    // Lines that would make the real engine slow on purpose (big hash, many threads, deep
    // perft) are left out here; the in-process fuzzing covers them.
    let slow = ["perft", "hash", "thread"];
    let mut input = String::new();
    let mut sent = 0;
    while sent < 5_000 {
        let line = strategy.new_tree(&mut runner).expect("a line").current();
        let lower = line.to_lowercase();
        if slow.iter().any(|s| lower.contains(s)) || lower.trim() == "quit" {
            continue;
        }
        input.push_str(&line);
        input.push('\n');
        sent += 1;
    }
    input.push_str("stop\nisready\n");
    let mut child = Process::new(env!("CARGO_BIN_EXE_krou"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("krou starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("krou exits");
    writer
        .join()
        .expect("writer thread")
        .expect("input written");
    assert!(output.status.success(), "exit status {}", output.status);
    let text = String::from_utf8(output.stdout).expect("output is text");
    assert!(
        text.lines().any(|l| l == "readyok"),
        "no readyok after the fuzz lines"
    );
}

#[test]
fn a_line_that_is_not_text_gets_one_error_and_changes_nothing() {
    let mut harness = Harness::new();
    harness
        .session
        .handle(Event::Line("position startpos moves FbAf".to_string()));
    let before = harness.session.game().clone();
    harness
        .session
        .handle(Event::NotText(3, "d\u{fffd}".to_string()));
    assert_eq!(
        harness.sink.take_lines(),
        ["info string error: the line is not UTF-8 text (byte 4)"]
    );
    assert_eq!(harness.session.game(), &before);
}
