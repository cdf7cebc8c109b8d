//! Nodes and time to reach a depth on the bench games, with the default features and with each
//! one toggled (off where the default has it on, on where it is off): how much each feature shrinks the tree (not what it gains in play; see
//! `ab_match` for that).
//!
//! `cargo run --release --example feature_nodes -- <depth>`

use krou::search::{Control, Features, Limits, Searcher, Settings, bench_games};
use std::time::Instant;

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(14);
    let mut variants = vec![("all features", Features::default())];
    // The time plan changes nothing in a search to a depth.
    let switched = Features::without_each().into_iter();
    variants.extend(switched.filter(|(name, _)| *name != "time-by-phase"));
    for (name, features) in variants {
        let mut searcher = Searcher::new(Settings {
            hash_mib: 16,
            threads: 1,
        });
        searcher.set_features(features);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (mut nodes, started) = (0, Instant::now());
        for game in bench_games() {
            searcher.clear();
            let mut last = 0;
            searcher.search(&game, &limits, &Control::new(false), &mut |info| {
                last = info.nodes
            });
            nodes += last;
        }
        println!(
            "{name:>20}: {nodes} nodes to depth {depth} in {} ms",
            started.elapsed().as_millis()
        );
    }
}
