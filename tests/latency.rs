//! Latency benchmarks of the protocol (ignored by default; they print figures, they assert
//! nothing about speed). Run them with `scripts/latency` or
//! `cargo test --test latency -- --ignored --nocapture`.
//!
//! - `readyok` while a search runs: time from sending `isready` to reading `readyok`.
//! - `bestmove` after `stop`: from sending `stop` during `go infinite` to reading `bestmove`.
//! - exit after `quit` and after the end of input, both during `go infinite`.
//! - `recorder`: the `isready`/`readyok` round trip through `krou record` against the same
//!   engine without it, alternately (idle and during a search): what the recorder adds.
//! - `movetime_use`: how much of a short `go movetime` (2, 5, 10 ms) is searched, and how many
//!   answers come after it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a search runs before it is interrupted.
const SEARCHING: Duration = Duration::from_millis(100);

struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// Krou with these arguments (`record --out … -- krou` puts the recorder in between).
    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_krou"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("krou starts");
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Engine {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().expect("input open");
        writeln!(input, "{line}").expect("engine reads");
        input.flush().expect("engine reads");
    }

    /// Reads lines until one starts with `prefix`.
    fn wait_for(&mut self, prefix: &str) {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.output.read_line(&mut line).expect("engine writes");
            assert!(n > 0, "the engine closed its output before '{prefix}'");
            if line.starts_with(prefix) {
                return;
            }
        }
    }

    /// Starts `go infinite` and lets it run a moment.
    fn search(&mut self) {
        self.send("go infinite");
        std::thread::sleep(SEARCHING);
    }

    fn wait_exit(&mut self) {
        let status = self.child.wait().expect("engine exits");
        assert!(status.success(), "exit status {status}");
    }
}

fn report(what: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what:<34} n={:<3} min {:.3} ms  median {:.3} ms  max {:.3} ms",
        samples.len(),
        ms(samples[0]),
        ms(samples[samples.len() / 2]),
        ms(samples[samples.len() - 1])
    );
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture"]
fn latency() {
    let mut engine = Engine::start();
    engine.search();
    let readyok = (0..100)
        .map(|_| {
            let sent = Instant::now();
            engine.send("isready");
            engine.wait_for("readyok");
            let took = sent.elapsed();
            std::thread::sleep(Duration::from_millis(5));
            took
        })
        .collect();
    report("readyok during a search", readyok);
    engine.send("stop");
    engine.wait_for("bestmove");

    let bestmove = (0..30)
        .map(|_| {
            engine.search();
            let sent = Instant::now();
            engine.send("stop");
            engine.wait_for("bestmove");
            sent.elapsed()
        })
        .collect();
    report("bestmove after stop", bestmove);
    engine.send("quit");
    engine.wait_exit();

    for (what, by_quit) in [
        ("exit after quit", true),
        ("exit after end of input", false),
    ] {
        let exits = (0..15)
            .map(|_| {
                let mut engine = Engine::start();
                engine.search();
                let sent = Instant::now();
                if by_quit {
                    engine.send("quit");
                } else {
                    engine.input = None;
                }
                engine.wait_exit();
                sent.elapsed()
            })
            .collect();
        report(what, exits);
    }
}

/// One `isready` round trip.
fn round_trip(engine: &mut Engine) -> Duration {
    let sent = Instant::now();
    engine.send("isready");
    engine.wait_for("readyok");
    sent.elapsed()
}

#[test]
#[ignore = "a benchmark: run with --ignored --nocapture"]
fn recorder() {
    let out = std::env::temp_dir().join(format!("krou-latency-{}.txt", std::process::id()));
    let out_text = out.to_string_lossy().into_owned();
    let krou = env!("CARGO_BIN_EXE_krou");
    let mut direct = Engine::start();
    let mut recorded = Engine::start_with(&["record", "--out", &out_text, "--", krou]);
    for searching in [false, true] {
        if searching {
            direct.search();
            recorded.search();
        }
        let (mut plain, mut through) = (Vec::new(), Vec::new());
        for _ in 0..300 {
            plain.push(round_trip(&mut direct));
            through.push(round_trip(&mut recorded));
            std::thread::sleep(Duration::from_millis(2));
        }
        let when = if searching { "during a search" } else { "idle" };
        report(&format!("readyok direct, {when}"), plain);
        report(&format!("readyok recorded, {when}"), through);
    }
    for engine in [&mut direct, &mut recorded] {
        engine.send("stop");
        engine.wait_for("bestmove");
        engine.send("quit");
        engine.wait_exit();
    }
    let _ = std::fs::remove_file(&out);
}

/// Positions from 20 games of random legal moves (a fixed stream), plies 8, 14, 20, … up to
/// 80 of each: `position startpos moves …` lines.
fn random_game_positions() -> Vec<String> {
    use krou::rules::{Game, GrandSlam, Position};
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |below: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % below
    };
    let mut lines = Vec::new();
    for _ in 0..20 {
        let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
        let mut moves: Vec<String> = Vec::new();
        while moves.len() < 80 && game.outcome().is_none() {
            let legal: Vec<_> = game.legal_moves().collect();
            let mv = legal[next(legal.len())];
            game.play(mv).expect("a legal move");
            moves.push(mv.to_string());
            if moves.len() >= 8 && (moves.len() - 8) % 6 == 0 && game.outcome().is_none() {
                lines.push(format!("position startpos moves {}", moves.join(" ")));
            }
        }
    }
    lines
}

/// How much of a short `go movetime` Krou uses: for 2, 5 and 10 ms, the wall time from sending
/// `go` to reading `bestmove` (median, and as a share of the movetime), how many answers came
/// after the movetime, and over 0.5 ms after it, the latest, and the median nodes of the last
/// `info`.
#[test]
#[ignore = "a benchmark: run with --ignored --nocapture"]
fn movetime_use() {
    let positions = random_game_positions();
    let mut engine = Engine::start();
    engine.send("uci");
    engine.wait_for("uciok");
    engine.send("isready");
    engine.wait_for("readyok");
    for movetime in [2u64, 5, 10] {
        let mut walls = Vec::new();
        let mut nodes = Vec::new();
        for position in &positions {
            engine.send(position);
            let sent = Instant::now();
            engine.send(&format!("go movetime {movetime}"));
            let mut line = String::new();
            let mut last_nodes = None;
            loop {
                line.clear();
                let n = engine.output.read_line(&mut line).expect("engine writes");
                assert!(n > 0, "the engine closed its output");
                let words: Vec<&str> = line.split_whitespace().collect();
                if let Some(at) = words.iter().position(|&w| w == "nodes") {
                    last_nodes = words.get(at + 1).and_then(|n| n.parse::<u64>().ok());
                }
                if line.starts_with("bestmove") {
                    break;
                }
            }
            walls.push(sent.elapsed());
            nodes.extend(last_nodes);
        }
        let limit = Duration::from_millis(movetime);
        let late = walls.iter().filter(|&&w| w > limit).count();
        let later = walls
            .iter()
            .filter(|&&w| w > limit + Duration::from_micros(500))
            .count();
        walls.sort();
        nodes.sort_unstable();
        let median = walls[walls.len() / 2];
        println!(
            "go movetime {movetime:<2}  n={} wall median {:.2} ms ({:.0}% of it), {late} after it, {later} over 0.5 ms after (latest {:.2} ms), nodes median {}",
            walls.len(),
            median.as_secs_f64() * 1000.0,
            100.0 * median.as_secs_f64() / limit.as_secs_f64(),
            walls[walls.len() - 1].as_secs_f64() * 1000.0,
            nodes.get(nodes.len() / 2).copied().unwrap_or(0),
        );
    }
    engine.send("quit");
    engine.wait_exit();
}
