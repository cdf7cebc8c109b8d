//! OGN game records: what the referee writes reads back to the same record, and the reader
//! refuses records the rules contradict.

use krou::referee::info::{Score, Thinking};
use krou::referee::ogn::{Header, OgnGame, from_record, write_game};
use krou::referee::ogn_read::read_games;
use krou::referee::openings::{Opening, parse_opening};
use krou::referee::play::{Fixture, play_game};
use krou::referee::player::Setup;
use krou::referee::record::GameRecord;
use krou::rules::GrandSlam;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn header(rule: GrandSlam) -> Header {
    Header {
        event: "Test \"quoted\" \\ event".into(),
        site: "here".into(),
        date: "2026.11.29".into(),
        rule,
    }
}

/// Plays a game between the built-in players, fills in engine reports on every third move.
fn game(seed: u64, opening: &Opening, rule: GrandSlam) -> GameRecord {
    let specs = [
        "random".parse().expect("spec"),
        "greedy".parse().expect("spec"),
    ];
    let abort = AtomicBool::new(false);
    let setup = Setup {
        rule,
        timeout: Duration::from_secs(1),
        log: false,
        stderr: false,
        abort: &abort,
    };
    let fixture = Fixture {
        round: seed as usize,
        engines: [0, 1],
        specs: [&specs[0], &specs[1]],
        opening,
        tc: ["st=1".parse().expect("tc"), "depth=3".parse().expect("tc")],
        margin: [Duration::ZERO; 2],
        max_plies: (seed % 3 == 0).then_some(30),
        seed,
    };
    let mut record = play_game(&fixture, &setup);
    for (i, m) in record
        .moves
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0)
    {
        m.thinking = Thinking {
            score: Some(if i % 2 == 0 {
                Score::Cp(i as i32 * 7 - 100)
            } else {
                Score::Mate(-3)
            }),
            depth: Some(i as u32),
            time: Some(Duration::from_millis(i as u64 * 11)),
        };
    }
    record
}

#[test]
fn records_of_many_games_read_back_unchanged() {
    let names = ["random".to_string(), "greedy".to_string()];
    let openings = [
        Opening::startpos(),
        parse_opening("FbAf", GrandSlam::NoCapture).expect("opening"),
        parse_opening("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", GrandSlam::NoCapture).expect("opening"),
        parse_opening("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N a", GrandSlam::NoCapture).expect("opening"),
    ];
    for rule in GrandSlam::ALL {
        let written: Vec<OgnGame> = (1..=24)
            .map(|seed| game(seed, &openings[seed as usize % 4], rule))
            .map(|record| from_record(&record, &names, &header(rule)))
            .collect();
        let text: String = written.iter().map(write_game).collect();
        let read = read_games(&text).expect("readable");
        assert_eq!(read, written);
    }
}

#[test]
fn records_start_with_the_required_tags_and_carry_a_fen_only_when_needed() {
    let names = ["random".to_string(), "greedy".to_string()];
    let from_start = from_record(
        &game(1, &Opening::startpos(), GrandSlam::NoCapture),
        &names,
        &header(GrandSlam::NoCapture),
    );
    let tags: Vec<&str> = from_start.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        tags[..8],
        [
            "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result"
        ]
    );
    assert_eq!(from_start.tag("FEN"), None);
    // The two players of `game` play under different time controls: one tag per side.
    assert_eq!(from_start.tag("SouthTimeControl"), Some("st=1"));
    assert_eq!(from_start.tag("NorthTimeControl"), Some("depth=3"));
    assert_eq!(from_start.tag("TimeControl"), None);
    let opening =
        parse_opening("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N", GrandSlam::NoCapture).expect("opening");
    let from_fen = from_record(
        &game(2, &opening, GrandSlam::NoCapture),
        &names,
        &header(GrandSlam::NoCapture),
    );
    assert_eq!(from_fen.tag("FEN"), Some("4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"));
    assert!(write_game(&from_fen).contains("\n1... "));
}

#[test]
fn the_reader_refuses_what_the_rules_contradict() {
    let tags = "[Variant \"Oware Abapa\"]\n[Result \"*\"]\n\n";
    let good = format!("{tags}1. F b 2. A f *\n");
    assert_eq!(read_games(&good).map(|g| g[0].moves.len()), Ok(4));
    for (moves, what) in [
        ("1. F b+2 *", "captures 0, the record says 2"),
        ("1. F F *", "is a pit of South"),
        ("1. F x *", "'x' is not a move"),
        ("1. F b", "no result"),
        ("1. F b 24-24 A", "text after the result"),
        ("1. F {unclosed b *", "no result"),
    ] {
        let error = read_games(&format!("{tags}{moves}\n")).expect_err(moves);
        assert!(error.to_string().contains(what), "{moves}: {error}");
    }
    let bad_tag = read_games("[Variant Oware]\n\n*\n").expect_err("unquoted");
    assert_eq!(bad_tag.line, 1);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Any text, and any record with one character changed, is read or refused: never a panic.
    #[test]
    fn the_reader_never_panics(text in "\\PC{0,200}", at in 0usize..400, c in proptest::char::any()) {
        let _ = read_games(&text);
        let names = ["random".to_string(), "greedy".to_string()];
        let record = from_record(&game(at as u64 % 7 + 1, &Opening::startpos(), GrandSlam::NoCapture), &names, &header(GrandSlam::NoCapture));
        let mut written: Vec<char> = write_game(&record).chars().collect();
        let i = at % written.len();
        written[i] = c;
        let _ = read_games(&written.into_iter().collect::<String>());
    }
}
