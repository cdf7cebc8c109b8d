//! What a probe costs with the table files mapped against read into memory: random boards of
//! 13 to 20 seeds looked up in each, alternately for a few rounds (the first round of the
//! mapped tables also pays for bringing their pages in).
//!
//! `cargo run --release --example probe_cost -- DIR [probes] [rounds]`

use krou::egdb::file::read_layer;
use krou::egdb::index::board_count;
use krou::egdb::{Layer, Tables};
use krou::rules::GrandSlam;
use std::time::Instant;

const RULE: GrandSlam = GrandSlam::NoCapture;

/// Sums the lower bounds of `probes` pseudo-random boards of 13 to 20 seeds.
fn probe_all(layers: &[&Layer], probes: u64) -> i64 {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut sum = 0i64;
    for _ in 0..probes {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let layer = layers[(state % layers.len() as u64) as usize];
        let index = (state >> 8) % board_count(layer.seeds());
        sum += i64::from(layer.bounds_at(index as u32).lo);
    }
    sum
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: probe_cost DIR [probes] [rounds]");
        std::process::exit(2);
    };
    let probes: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    let rounds: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let dir = std::path::PathBuf::from(dir);
    let (mapped, refused) = Tables::load(&dir, RULE, 20);
    if let Some(e) = refused {
        eprintln!("{e}");
    }
    let mut read = Tables::empty(RULE);
    for seeds in 0..=mapped.max_seeds().unwrap_or(0) {
        match read_layer(&dir, RULE, seeds) {
            Ok(layer) => {
                read.push(layer);
            }
            Err(e) => eprintln!("{e}"),
        }
    }
    let top =
        |t: &Tables| -> Vec<Layer> { (13..=20).filter_map(|n| t.layer(n).cloned()).collect() };
    let (mapped, read) = (top(&mapped), top(&read));
    if mapped.len() != 8 || read.len() != 8 {
        eprintln!("{} needs the tables of 0-20 seeds", dir.display());
        std::process::exit(1);
    }
    for round in 1..=rounds {
        for (name, layers) in [("mapped", &mapped), ("read  ", &read)] {
            let layers: Vec<&Layer> = layers.iter().collect();
            let started = Instant::now();
            let sum = probe_all(&layers, probes);
            let ns = started.elapsed().as_nanos() as f64 / probes as f64;
            println!("round {round} {name}: {ns:.1} ns a probe (sum {sum})");
        }
    }
}
