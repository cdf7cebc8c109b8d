//! `tests/suites/hard.suite` against tables built here: its 21-seed positions (the smallest it
//! has, 300 of the 1,029) checked as `krou suite check` checks them. The whole file needs
//! the 0–24 tables (1.25 GB, 12 to 30 minutes to build); docs/suites.md gives that check's
//! command and time. The 0–21 tables take about two minutes of both cores and 350 MB.

use krou::egdb::Tables;
use krou::regression::suite::check::check;
use krou::regression::suite::judge::RULE;
use krou::regression::suite::read_file;
use std::path::Path;

/// The seed count of the sample: the hard suite's smallest.
const SEEDS: u8 = 21;

#[test]
fn the_hard_suites_21_seed_positions_are_right_by_the_tables() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suites/hard.suite");
    let suite = read_file(&file).expect("the hard suite reads");
    let sample = suite
        .entries
        .iter()
        .filter(|(_, e)| e.position.seeds_on_board() == SEEDS)
        .count();
    assert!(
        sample >= 50,
        "{sample} positions of {SEEDS} seeds in the hard suite"
    );
    let dir = std::env::temp_dir().join(format!("krou-hard-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let tables = Tables::build_into(&dir, RULE, SEEDS, threads, &|_| {}).expect("tables built");
    let report = check(std::slice::from_ref(&suite), &tables);
    drop(tables);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(report.wrong.is_empty(), "{:#?}", report.wrong);
    assert_eq!(
        report.right, sample,
        "every {SEEDS}-seed position checked, the larger ones skipped"
    );
    assert_eq!(report.skipped, suite.entries.len() - sample);
}
