//! Prints, per seed count, how many boards have an exact table value.
use krou::egdb::Tables;
use krou::rules::GrandSlam;
fn main() {
    let max: u8 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let tables = Tables::build(GrandSlam::NoCapture, max, 2);
    for n in 0..=max {
        let layer = tables.layer(n).expect("built");
        let total = layer.codes().len() as u64;
        println!(
            "{n:2} {total:>12} exact {:>12} ({:.2}%)",
            layer.exact_count(),
            100.0 * layer.exact_count() as f64 / total as f64
        );
    }
}
