//! Searches one position for a fixed time and prints each iteration: how deep the search gets.
//!
//! `cargo run --release --example think -- <movetime ms> [threads] [diagram]`

use krou::rules::{Game, GrandSlam, Position};
use krou::search::{Control, Limits, Searcher, Settings};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let ms = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let threads = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let position = args
        .get(3)
        .and_then(|a| a.parse::<Position>().ok())
        .unwrap_or_else(Position::start);
    let mut searcher = Searcher::new(Settings {
        hash_mib: 64,
        threads,
    });
    let game = Game::new(position, GrandSlam::NoCapture);
    let limits = Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let started = Instant::now();
    let found = searcher.search(&game, &limits, &Control::new(false), &mut |info| {
        let nps = info.nodes as u128 * 1000 / info.time.as_millis().max(1);
        let pv: String = info.pv.iter().map(|m| m.letter()).collect();
        println!(
            "depth {} seldepth {} score {} nodes {} nps {nps} time {} pv {pv}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.time.as_millis()
        );
    });
    let best = found.best.map_or('-', |m| m.letter());
    println!("bestmove {best} after {} ms", started.elapsed().as_millis());
}
