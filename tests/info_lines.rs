//! What `info` lines show a GUI. A ponder on the opponent's move (the Aualé GUI and the
//! tournament runner send the position with the opponent to move when they have no predicted
//! move) reports its scores from the engine's own side, the side of its last search for a move;
//! a ponder with the engine to move, or one before any search for a move, from the side to
//! move. A `pv` shows at most `PvLength` moves (20 by default), so that the Aualé GUI, which
//! shows the score after the line, has room for it.
// Helpers here are test code too: a setup step that fails should fail the test where it is.
#![allow(clippy::unwrap_used)]

mod common;

use common::process::Piped;
use std::process::Command;
use std::time::Duration;

/// South is 16 seeds ahead: a search for either side sees it at any depth.
const AHEAD: &str = "4-4-4-4-4-4-4-4-0-0-0-0-16-0-S";

struct Engine(Piped);

impl Engine {
    fn start() -> Engine {
        Engine(Piped::spawn(&mut Command::new(env!("CARGO_BIN_EXE_krou"))))
    }

    fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    /// The `info` lines' words up to the `bestmove`.
    fn infos_to_bestmove(&mut self) -> Vec<Vec<String>> {
        let mut infos = Vec::new();
        loop {
            let line = self.0.lines.recv_timeout(Duration::from_secs(30)).unwrap();
            if line.starts_with("bestmove") {
                return infos;
            }
            if line.starts_with("info depth") {
                infos.push(line.split_whitespace().map(str::to_string).collect());
            }
        }
    }

    /// The `cp` of every `info` line up to the `bestmove`.
    fn scores_to_bestmove(&mut self) -> Vec<i32> {
        self.infos_to_bestmove()
            .iter()
            .map(|words| word_after(words, "cp").parse().unwrap())
            .collect()
    }

    /// A ponder on `position`, stopped once it has reported depth 4.
    fn ponder(&mut self, position: &str) -> Vec<i32> {
        self.send(&format!("position {position}"));
        self.send("go ponder");
        loop {
            let line = self.0.lines.recv_timeout(Duration::from_secs(30)).unwrap();
            if line.starts_with("info depth 4 ") {
                break;
            }
        }
        self.send("stop");
        self.scores_to_bestmove()
    }
}

fn word_after<'a>(words: &'a [String], name: &str) -> &'a str {
    let at = words.iter().position(|w| w == name).unwrap();
    &words[at + 1]
}

/// The longest `pv` (in moves) of a search to `depth` after `setup` lines.
fn longest_pv(setup: &[&str], depth: u32) -> usize {
    let mut engine = Engine::start();
    for line in setup {
        engine.send(line);
    }
    engine.send(&format!("go depth {depth}"));
    let longest = engine
        .infos_to_bestmove()
        .iter()
        .map(|words| word_after(words, "pv").chars().count())
        .max()
        .unwrap();
    engine.send("quit");
    assert!(engine.0.child.wait().unwrap().success());
    longest
}

#[test]
fn a_pv_shows_at_most_pv_length_moves() {
    let start = "position startpos";
    assert_eq!(longest_pv(&[start], 24), 20, "20 by default");
    assert_eq!(
        longest_pv(&["setoption name PvLength value 5", start], 12),
        5
    );
    assert!(longest_pv(&["setoption name PvLength value 128", start], 24) > 20);
}

#[test]
fn a_ponder_on_the_opponents_move_reports_from_the_engines_side() {
    let mut engine = Engine::start();
    // Before any search for a move, the side to move's view: North is behind.
    let before = engine.ponder(&format!("fen {AHEAD} moves A"));
    assert!(
        !before.is_empty() && before.iter().all(|&cp| cp < -1000),
        "{before:?}"
    );
    // South searches for its move, so South is the engine's side...
    engine.send(&format!("position fen {AHEAD}"));
    engine.send("go depth 4");
    let own = engine.scores_to_bestmove();
    assert!(own.iter().all(|&cp| cp > 1000), "{own:?}");
    // ... and a ponder on North's reply (no predicted move) is South's view: ahead.
    let theirs = engine.ponder(&format!("fen {AHEAD} moves A"));
    assert!(
        !theirs.is_empty() && theirs.iter().all(|&cp| cp > 1000),
        "{theirs:?}"
    );
    // A ponder with South to move (a predicted reply played) stays the side to move's.
    let predicted = engine.ponder(&format!("fen {AHEAD} moves Ab"));
    assert!(predicted.iter().all(|&cp| cp > 1000), "{predicted:?}");
    // A new game forgets whose side the engine was.
    engine.send("ucinewgame");
    let after = engine.ponder(&format!("fen {AHEAD} moves A"));
    assert!(after.iter().all(|&cp| cp < -1000), "{after:?}");
    engine.send("quit");
    assert!(engine.0.child.wait().unwrap().success());
}
