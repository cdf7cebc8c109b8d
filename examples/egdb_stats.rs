//! Prints, per seed count, how many boards have an exact table value and how wide the other
//! intervals are: `cargo run --release --example egdb_stats -- 12`.
use krou::egdb::Tables;
use krou::rules::GrandSlam;

fn main() {
    let max: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let tables = Tables::build(GrandSlam::NoCapture, max, 2);
    for n in 0..=max {
        let Some(layer) = tables.layer(n) else { return };
        let total = layer.codes().len() as u64;
        let mut widths = vec![0u64; 2 * usize::from(n) + 1];
        for i in 0..total as u32 {
            let b = layer.bounds_at(i);
            widths[(b.hi - b.lo) as usize] += 1;
        }
        let pct = |k: u64| 100.0 * k as f64 / total as f64;
        let within2: u64 = widths.iter().take(3).sum();
        println!(
            "{n:2} {total:>11} boards: exact {:6.2}%, width <= 2 {:6.2}%, widths {widths:?}",
            pct(layer.exact_count()),
            pct(within2)
        );
    }
}
