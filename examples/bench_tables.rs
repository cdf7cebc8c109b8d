//! What probing the endgame tables costs the search: `krou bench` at its depth without tables
//! and with the built-in tables (0-12 seeds), alternately for a few rounds, with each round's
//! nodes, time and nodes a second.
//!
//! `cargo run --release --example bench_tables -- [rounds] [depth]`

use krou::egdb::Tables;
use krou::rules::GrandSlam;
use krou::search::{BENCH_DEPTH, bench_with_tables};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let depth: u32 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(BENCH_DEPTH);
    let started = Instant::now();
    let tables = Arc::new(Tables::build(GrandSlam::NoCapture, 12, 1));
    println!(
        "tables 0-12 seeds built in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let (mut plain, mut with) = ((0, 0.0), (0, 0.0));
    for round in 1..=rounds {
        for (name, t, sum) in [
            ("without", None, &mut plain),
            ("with   ", Some(Arc::clone(&tables)), &mut with),
        ] {
            let report = bench_with_tables(depth, t);
            let secs = report.elapsed.as_secs_f64();
            println!(
                "round {round} {name} tables: {} nodes {:.3} s {} nps",
                report.nodes,
                secs,
                report.nps()
            );
            sum.0 += report.nodes;
            sum.1 += secs;
        }
    }
    let nps = |(nodes, secs): (u64, f64)| nodes as f64 / secs.max(1e-9);
    println!(
        "total without: {} nodes {:.0} nps; with: {} nodes {:.0} nps ({:+.1}% nps)",
        plain.0,
        nps(plain),
        with.0,
        nps(with),
        100.0 * (nps(with) / nps(plain) - 1.0)
    );
}
