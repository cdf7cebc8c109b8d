//! The bench signature: the node count of `bench` at its default depth. Any change to what the
//! search does changes it; update the constant and say `Bench: <nodes>` in the commit message.

use krou::search::{BENCH_DEPTH, bench};

/// The recorded node count of `krou bench`.
const BENCH_NODES: u64 = 203_330;

#[test]
fn bench_node_count_is_the_recorded_signature() {
    let report = bench(BENCH_DEPTH);
    assert_eq!(report.lines.len(), 30, "every bench game is playable");
    assert_eq!(
        report.nodes, BENCH_NODES,
        "bench signature changed: update BENCH_NODES"
    );
    let last = report.text().pop().unwrap_or_default();
    assert!(last.starts_with(&format!("{} nodes ", report.nodes)) && last.ends_with(" nps"));
}
