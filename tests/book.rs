//! The opening book: the shipped file is whole and true to the rules, and `OwnBook` plays from
//! it only where it should, at random among the near-best moves, reproducibly for a seed.

mod common;

use common::inline::InlineSession;
use krou::book::file::{Book, NO_SCORE};
use krou::book::{Chooser, shipped};
use krou::rules::{GrandSlam, Position, Side};

fn book_line(lines: &[String]) -> Option<&String> {
    lines.iter().find(|l| l.starts_with("info string book: "))
}

fn bestmove(lines: &[String]) -> String {
    lines
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .map(|l| l.split_whitespace().nth(1).unwrap_or_default().to_string())
        .unwrap_or_default()
}

#[test]
fn the_shipped_book_scores_exactly_the_legal_moves_of_each_of_its_positions() {
    let book = shipped();
    assert!(book.len() >= 1000, "{} positions", book.len());
    assert_eq!(book.moves(&Position::start()).len(), 6);
    for entry in book.entries() {
        let mut pits = [0u8; 12];
        pits.copy_from_slice(&entry.key[..12]);
        let position = Position::new(pits, [entry.key[12], entry.key[13]], Side::South)
            .expect("a book position holds 48 seeds");
        let legal = position.legal_moves(GrandSlam::NoCapture);
        for pit in 0..6 {
            let mv = krou::rules::Move::new(pit).expect("a pit");
            assert_eq!(
                legal.contains(mv),
                entry.scores[pit] != NO_SCORE,
                "{position}: move {mv}"
            );
        }
    }
    // Its file reads back as written, and a damaged one is refused.
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).as_ref(), Ok(book));
    let mut damaged = bytes.clone();
    damaged[20] ^= 4;
    assert_eq!(
        Book::from_bytes(&damaged),
        Err("checksum mismatch".to_string())
    );
}

#[test]
fn the_book_is_seen_from_the_side_to_move() {
    // After South's first book move, North's position is in the book too (mirrored keys).
    let start = Position::start();
    let (first, _) = shipped().moves(&start)[0];
    let next = start.play_unchecked(first, GrandSlam::NoCapture).position;
    assert_eq!(next.side_to_move(), Side::North);
    let replies = shipped().moves(&next);
    assert!(!replies.is_empty());
    assert!(replies.iter().all(|(mv, _)| mv.side() == Side::North));
}

#[test]
fn a_seed_repeats_its_choices_and_the_choices_vary() {
    let book = shipped();
    let start = Position::start();
    let picks = |seed| {
        let mut chooser = Chooser::new(seed);
        (0..50)
            .map(|_| chooser.choose(book, &start, 1000).expect("in the book").0)
            .collect::<Vec<_>>()
    };
    assert_eq!(picks(7), picks(7));
    let distinct: std::collections::HashSet<_> = picks(7).into_iter().collect();
    assert!(
        distinct.len() > 1,
        "a wide variety picks more than one move"
    );
    // No variety: always the best.
    let mut chooser = Chooser::new(3);
    let best = book.moves(&start)[0].0;
    assert!((0..20).all(|_| chooser.choose(book, &start, 0).map(|c| c.0) == Some(best)));
}

#[test]
fn own_book_answers_a_timed_go_at_once_and_nothing_else() {
    let mut s = InlineSession::new();
    // Off by default: a search.
    let lines = s.send("go movetime 1000");
    assert_eq!(book_line(&lines), None, "{lines:?}");
    assert!(s.engine.take_started().is_some());
    s.send("setoption name OwnBook value true");
    s.send("setoption name BookVariety value 0");
    let lines = s.send("go movetime 1000");
    assert!(book_line(&lines).is_some(), "{lines:?}");
    assert_eq!(s.engine.take_started(), None, "no search was started");
    let best = shipped().moves(&Position::start())[0].0;
    assert_eq!(bestmove(&lines), best.to_string());
    // With a clock, and with depth beside a time limit (the Aualé GUI's strong levels).
    for go in ["go wtime 60000 btime 60000", "go depth 16 movetime 2400"] {
        let lines = s.send(go);
        assert!(book_line(&lines).is_some(), "{go}: {lines:?}");
    }
    // Never for depth or nodes alone, pondering, infinite, searchmoves.
    for go in [
        "go depth 3",
        "go nodes 1000",
        "go ponder movetime 100",
        "go infinite",
        "go movetime 100 searchmoves A",
    ] {
        let lines = s.send(go);
        assert_eq!(book_line(&lines), None, "{go}: {lines:?}");
        assert!(s.engine.take_started().is_some(), "{go} searches");
        s.send("stop");
    }
    // Out of the book: a search.
    s.send("position fen 0-6-6-6-0-2-0-2-8-8-7-1-0-2-S");
    let lines = s.send("go movetime 100");
    assert_eq!(book_line(&lines), None, "{lines:?}");
    assert!(s.engine.take_started().is_some());
}

#[test]
fn a_book_seed_makes_a_session_repeat_its_book_moves() {
    let play = |seed: u64| {
        let mut s = InlineSession::new();
        s.send("setoption name OwnBook value true");
        s.send(&format!("setoption name BookSeed value {seed}"));
        s.send("setoption name BookVariety value 1000");
        (0..30)
            .map(|_| bestmove(&s.send("go movetime 100")))
            .collect::<Vec<_>>()
    };
    assert_eq!(play(11), play(11));
    assert_ne!(play(11), play(12));
}

/// A one-position book whose only good move at the start is `A` (the shipped book's best is
/// another), written to a file of the test's own.
fn a_book_file_preferring_a(name: &str) -> std::path::PathBuf {
    use krou::book::file::{Entry, key};
    let dir = std::env::temp_dir().join(format!("krou-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let start = Position::start();
    let entry = Entry {
        key: key(&start),
        scores: [300, -500, -500, -500, -500, -500],
    };
    let path = dir.join("my.book");
    std::fs::write(&path, Book::new(vec![entry]).to_bytes()).expect("written");
    path
}

#[test]
fn book_file_plays_from_the_named_book_and_a_bad_one_keeps_the_old() {
    assert_ne!(shipped().moves(&Position::start())[0].0.to_string(), "A");
    let path = a_book_file_preferring_a("play");
    let mut s = InlineSession::new();
    s.send("setoption name OwnBook value true");
    s.send("setoption name BookVariety value 0");
    s.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = s.send("go movetime 1000");
    assert!(book_line(&lines).is_some(), "{lines:?}");
    assert_eq!(bestmove(&lines), "A", "{lines:?}");
    // A file that is not a book is refused, saying so, and the book in use stays.
    let bad = path.with_file_name("not.book");
    std::fs::write(&bad, "hello").expect("written");
    let lines = s.send(&format!("setoption name BookFile value {}", bad.display()));
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string error: cannot use the book file")
                && l.contains("not a Krou book file")
        ),
        "{lines:?}"
    );
    let lines = s.send(&format!(
        "setoption name BookFile value {}",
        path.with_file_name("missing.book").display()
    ));
    assert!(
        lines.iter().any(|l| l.starts_with("info string error:")),
        "{lines:?}"
    );
    assert_eq!(
        bestmove(&s.send("go movetime 1000")),
        "A",
        "the old book stays"
    );
    // <empty> goes back to the book built into Krou.
    s.send("setoption name BookFile value <empty>");
    let best = shipped().moves(&Position::start())[0].0;
    assert_eq!(bestmove(&s.send("go movetime 1000")), best.to_string());
}

#[test]
fn a_book_built_by_krou_book_build_is_played_through_book_file() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let krou = env!("CARGO_BIN_EXE_krou");
    let dir = std::env::temp_dir().join(format!("krou-book-{}-built", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let book = dir.join("my.book");
    let built = Command::new(krou)
        .args([
            "book",
            "build",
            "--positions",
            "3",
            "--nodes",
            "2000",
            "--table-seeds",
            "0",
        ])
        .arg("--out")
        .arg(&book)
        .output()
        .expect("krou book build runs");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut engine = Command::new(krou)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("krou starts");
    let mut input = engine.stdin.take().expect("stdin");
    writeln!(
        input,
        "setoption name BookFile value {}\nsetoption name OwnBook value true\n\
         go movetime 5000\nquit",
        book.display()
    )
    .expect("sent");
    drop(input);
    let output = engine.wait_with_output().expect("krou ends");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("info string book: "),
        "played from the built book: {text}"
    );
    assert!(!text.contains("error"), "{text}");
}
