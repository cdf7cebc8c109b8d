//! A misbehaving engine for the referee's tests: `fake_engine <mode> [n]`.
//!
//! Modes: `good` (first legal move, with an `info` line), `crash-after N` (exits at its
//! (N+1)-th `go`), `exit-at-once`, `no-uciok`, `no-readyok`, `no-bestmove`, `illegal` (a pit of
//! the opponent), `garbage` (binary junk, an overlong line, then a malformed `bestmove`), `flood`
//! (endless `info` lines), `slow MS` (waits MS milliseconds before each `bestmove`), `busy`
//! (keeps a core busy for 90% of `go movetime`, like a real search, for speed measurements),
//! `double` (answers every `go` with a legal `bestmove`, then a second one naming a pit of the
//! opponent, all in one write), `deaf` (says `uciok` and `readyok` at once, then never reads its
//! input and never moves).
//!
//! `fake_engine after-first FILE <mode> [n]` plays `good` when it creates FILE (its first start)
//! and `<mode>` at every later start: an engine that passes the referee's check before the first
//! game and fails in the match.

use krou::rules::{Game, GrandSlam, Position, parse_moves};
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("after-first") {
        let first = args
            .get(1)
            .is_some_and(|file| std::fs::File::create_new(file).is_ok());
        args = if first {
            vec!["good".into()]
        } else {
            args.split_off(2.min(args.len()))
        };
    }
    let mode = args.first().cloned().unwrap_or_else(|| "good".into());
    let number: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    if mode == "exit-at-once" {
        std::process::exit(1);
    }
    if mode == "deaf" {
        println!("uciok\nreadyok");
        std::thread::sleep(Duration::from_secs(60));
        return;
    }
    let mut out = std::io::stdout().lock();
    let mut rule = GrandSlam::default();
    let mut game = Game::new(Position::start(), rule);
    let mut moves_made = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["uci"] if mode != "no-uciok" => "id name fake\nuciok".to_string(),
            ["isready"] if mode != "no-readyok" => "readyok".to_string(),
            ["setoption", "name", "GrandSlam", "value", value] => {
                rule = value.parse().unwrap_or_default();
                continue;
            }
            ["position", rest @ ..] => {
                game = read_position(rest, rule).unwrap_or(game);
                continue;
            }
            ["go", "movetime", ms] if mode == "busy" => {
                spin(Duration::from_millis(ms.parse().unwrap_or(0) * 9 / 10));
                match go("good", number, &game, &mut moves_made, &mut out) {
                    Some(reply) => reply,
                    None => continue,
                }
            }
            ["go", ..] => match go(&mode, number, &game, &mut moves_made, &mut out) {
                Some(reply) => reply,
                None => continue,
            },
            ["quit"] => return,
            _ => continue,
        };
        let written = out.write_all(format!("{reply}\n").as_bytes());
        if written.and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

fn read_position(words: &[&str], rule: GrandSlam) -> Option<Game> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (Position::start(), rest),
        ["fen", diagram, rest @ ..] => (diagram.parse().ok()?, rest),
        _ => return None,
    };
    let mut game = Game::new(start, rule);
    if let ["moves", moves @ ..] = rest {
        for mv in parse_moves(&moves.join(" ")).ok()? {
            game.play(mv).ok()?;
        }
    }
    Some(game)
}

fn go(
    mode: &str,
    number: u64,
    game: &Game,
    moves_made: &mut u64,
    out: &mut impl Write,
) -> Option<String> {
    let first = game.legal_moves().next();
    *moves_made += 1;
    match mode {
        "crash-after" if *moves_made > number => std::process::exit(3),
        "no-bestmove" => return None,
        "illegal" => {
            let theirs = game.position().side_to_move().opponent();
            let pit = theirs.first_pit();
            return Some(format!(
                "bestmove {}",
                krou::rules::Move::new(pit)?.letter()
            ));
        }
        "garbage" => {
            out.write_all(b"\xff\xfe\x00garbage\x07\n").ok()?;
            out.write_all(&vec![b'#'; 100_000]).ok()?;
            return Some("\nbestmove ?!".into());
        }
        "flood" => loop {
            if writeln!(out, "info string flood flood flood flood flood flood").is_err() {
                std::process::exit(0);
            }
        },
        "slow" => std::thread::sleep(Duration::from_millis(number)),
        _ => {}
    }
    let letter = first.map_or_else(|| "0000".into(), |m| m.letter().to_string());
    if mode == "double" {
        let theirs = krou::rules::Move::new(game.position().side_to_move().opponent().first_pit())?;
        return Some(format!("bestmove {letter}\nbestmove {}", theirs.letter()));
    }
    Some(format!(
        "info depth 1 score cp 12 time 0 pv {letter}\nbestmove {letter}"
    ))
}

/// Keeps one core busy for `time`.
fn spin(time: Duration) {
    let start = std::time::Instant::now();
    let mut x: u64 = 1;
    while start.elapsed() < time {
        for _ in 0..1000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        }
        std::hint::black_box(x);
    }
}
