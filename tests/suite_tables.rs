//! Proven suites against the endgame tables: `make` on a small seed count, the shipped suite's
//! smallest entries, and a wrong entry reported as wrong (library and `krou suite check`).

use krou::egdb::Tables;
use krou::regression::suite::check::check;
use krou::regression::suite::judge::{RULE, judge};
use krou::regression::suite::make::{Plan, make};
use krou::regression::suite::{Source, parse_text, read_file};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The largest seed count built for these tests.
const SEEDS: u8 = 13;

/// Tables 0–13, built once into a scratch directory (the CLI test reads the files).
fn tables() -> &'static (Tables, PathBuf) {
    static TABLES: OnceLock<(Tables, PathBuf)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("krou-suite-tables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let tables = Tables::build_into(&dir, RULE, SEEDS, 2, &|_| {}).expect("tables built");
        (tables, dir)
    })
}

fn shipped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suites/proven.suite")
}

#[test]
fn make_keeps_positions_whose_answers_are_the_tables_and_that_a_shallow_search_misses() {
    let (tables, _) = tables();
    let plan = Plan {
        seed: 7,
        counts: vec![(SEEDS, 6)],
        depth: 4,
        max_tries: 200_000,
    };
    let entries = make(tables, &plan, &mut |_| {});
    assert_eq!(entries.len(), 6);
    for entry in &entries {
        assert_eq!(entry.position.seeds_on_board(), SEEDS);
        assert_eq!(entry.source, Some(Source::Proven));
        let j = judge(tables, &entry.position).expect("covered");
        assert!(j.result.is_some(), "every move proven");
        assert_eq!(j.best(), entry.best);
        assert_eq!(j.avoid(), entry.avoid);
        assert!(!entry.best.is_empty() && !entry.avoid.is_empty());
        let mut searcher = krou::search::Searcher::default();
        let shallow =
            krou::regression::suite::make::shallow_move(&mut searcher, &entry.position, 4)
                .expect("a move");
        assert!(
            !entry.best.contains(&shallow),
            "the depth-4 search misses it"
        );
    }
    let again = make(tables, &plan, &mut |_| {});
    assert_eq!(again, entries, "the same seed gives the same suite");
}

#[test]
fn the_shipped_proven_suite_is_right_where_the_test_tables_reach() {
    let (tables, _) = tables();
    let suite = read_file(&shipped()).expect("the shipped suite reads");
    assert!(
        suite.entries.len() >= 1_000,
        "{} entries",
        suite.entries.len()
    );
    let report = check(std::slice::from_ref(&suite), tables);
    assert!(report.wrong.is_empty(), "{:#?}", report.wrong);
    assert!(
        report.right >= 100,
        "{} entries of {SEEDS} seeds checked",
        report.right
    );
}

/// The shipped suite's first 13-seed entry with its `bm` and `am` swapped, as line 2 of a file.
fn wrong_suite() -> String {
    let suite = read_file(&shipped()).expect("the shipped suite reads");
    let (_, entry) = suite
        .entries
        .iter()
        .find(|(_, e)| e.position.seeds_on_board() == SEEDS)
        .expect("a 13-seed entry");
    let mut wrong = entry.clone();
    std::mem::swap(&mut wrong.best, &mut wrong.avoid);
    format!("# deliberately wrong\n{wrong}\n{entry}\n")
}

#[test]
fn a_wrong_entry_is_reported_with_its_file_and_line() {
    let (tables, _) = tables();
    let suite = parse_text("wrong.suite", &wrong_suite()).expect("reads");
    let report = check(&[suite], tables);
    assert_eq!(report.right, 1);
    assert_eq!(report.wrong.len(), 1, "{:?}", report.wrong);
    assert!(
        report.wrong[0].starts_with("wrong.suite:2: "),
        "{}",
        report.wrong[0]
    );
    assert!(
        report.wrong[0].contains("the tables say bm"),
        "{}",
        report.wrong[0]
    );
}

#[test]
fn krou_suite_check_exits_non_zero_on_a_wrong_entry() {
    let (_, dir) = tables();
    let file = dir.join("wrong.suite");
    std::fs::write(&file, wrong_suite()).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(["suite", "check"])
        .arg(&file)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("krou runs");
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains(&format!("WRONG {}:2: ", file.display())),
        "{printed}"
    );
    assert!(
        printed.contains("1 right, 1 wrong, 0 not checked"),
        "{printed}"
    );
}

/// Runs `krou suite make hard` on the test tables, 13 seeds against an engine with 0–8.
fn make_hard(out: &Path, extra: &[&str]) -> String {
    make_hard_from(out, "13", extra)
}

/// Runs `krou suite make hard --from FROM --to 13` on the test tables, against an engine with
/// 0–8: the file without its header's command line.
fn make_hard_from(out: &Path, from: &str, extra: &[&str]) -> String {
    let (_, dir) = tables();
    let run = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(["suite", "make", "hard", "--from", from, "--to", "13"])
        .args(["--engine-seeds", "8", "--per-count", "3", "--nodes", "300"])
        .args(["--game-nodes", "100", "--batch", "16", "--out"])
        .arg(out)
        .arg("--dir")
        .arg(dir)
        .args(extra)
        .output()
        .expect("krou runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(out).expect("the suite is written");
    // The header names the command line, which differs from run to run.
    text.lines()
        .filter(|l| !l.starts_with("# Generated by"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn make_hard_keeps_proven_positions_the_engine_as_it_plays_gets_wrong_and_resumes() {
    let (tables, dir) = tables();
    // --max-boards: a generator that stopped finding positions fails rather than runs on.
    let bound = ["--max-boards", "20000"];
    let whole = make_hard(
        &dir.join("hard-2.suite"),
        &[&["--threads", "2"][..], &bound].concat(),
    );
    let suite = parse_text("hard-2.suite", &whole).expect("reads");
    assert_eq!(suite.entries.len(), 3, "{whole}");
    let engine_tables = std::sync::Arc::new(tables.truncated(9));
    for (_, entry) in &suite.entries {
        let j = judge(tables, &entry.position).expect("covered");
        assert_eq!(
            (j.best(), j.avoid()),
            (entry.best.clone(), entry.avoid.clone())
        );
        // The generator's first search: a 1 MiB hash at this node count.
        let mut engine = krou::search::Searcher::new(krou::search::Settings {
            hash_mib: 1,
            threads: 1,
        });
        engine.set_tables(Some(engine_tables.clone()));
        let played =
            krou::regression::suite::make_hard::engine_move(&mut engine, &entry.position, 300)
                .expect("a move");
        assert!(entry.avoid.contains(&played), "{entry}: played {played}");
    }
    // Stopped after one batch, then resumed, and on one thread: the same file.
    let resumed = dir.join("hard-resumed.suite");
    let partial = make_hard(&resumed, &["--threads", "1", "--max-boards", "16"]);
    assert!(partial.contains("# hard 13 seeds: 16 boards"), "{partial}");
    assert_eq!(
        make_hard(&resumed, &[&["--threads", "1"][..], &bound].concat()),
        whole
    );
    let checked = Command::new(env!("CARGO_BIN_EXE_krou"))
        .args(["suite", "check"])
        .arg(&resumed)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("krou runs");
    assert!(
        String::from_utf8_lossy(&checked.stdout).contains("3 right, 0 wrong"),
        "{}",
        String::from_utf8_lossy(&checked.stdout)
    );
}

#[test]
fn make_hard_with_confirm_nodes_keeps_what_the_longer_search_fails_too() {
    let (tables, dir) = tables();
    let text = make_hard(
        &dir.join("hard-confirmed.suite"),
        // A bound, so that a generator that stopped finding positions fails rather than runs
        // on through its default 20 million boards.
        &[
            "--threads",
            "2",
            "--confirm-nodes",
            "1000",
            "--max-boards",
            "20000",
        ],
    );
    let suite = parse_text("hard-confirmed.suite", &text).expect("reads");
    assert_eq!(suite.entries.len(), 3, "{text}");
    let engine_tables = std::sync::Arc::new(tables.truncated(9));
    let engine = |hash_mib| {
        let mut searcher = krou::search::Searcher::new(krou::search::Settings {
            hash_mib,
            threads: 1,
        });
        searcher.set_tables(Some(engine_tables.clone()));
        searcher
    };
    for (_, entry) in &suite.entries {
        // Both searches, as the generator made them: 300 nodes with its small hash, then
        // 1000 with the engine's default one; each plays a move to avoid.
        let said = format!("{entry}");
        let searches = [
            (1, 300, "Krou at 300 nodes with tables 0-8 played "),
            (16, 1000, ", at 1000 nodes "),
        ];
        for (hash_mib, nodes, says) in searches {
            let played = krou::regression::suite::make_hard::engine_move(
                &mut engine(hash_mib),
                &entry.position,
                nodes,
            )
            .expect("a move");
            assert!(
                entry.avoid.contains(&played),
                "{entry}: played {played} at {nodes}"
            );
            assert!(said.contains(&format!("{says}{played}")), "{said}");
        }
    }
}

#[test]
fn make_hard_plays_one_game_for_every_seed_count_and_resumes_them_together() {
    let (tables, dir) = tables();
    let bound = ["--max-boards", "20000"];
    let entries = |text: &str, seeds: u8| -> Vec<String> {
        parse_text("hard.suite", text)
            .expect("reads")
            .entries
            .into_iter()
            .filter(|(_, e)| e.position.seeds_on_board() == seeds)
            .map(|(_, e)| format!("{}", e.position))
            .collect()
    };
    let both = make_hard_from(
        &dir.join("hard-12-13.suite"),
        "12",
        &[&["--threads", "2"][..], &bound].concat(),
    );
    let alone = make_hard(
        &dir.join("hard-13-alone.suite"),
        &[&["--threads", "2"][..], &bound].concat(),
    );
    // Game k gives count 13 the same boards whether count 12 takes part or not.
    assert_eq!(entries(&both, 13), entries(&alone, 13));
    assert_eq!(entries(&both, 12).len(), 3, "{both}");
    for (_, entry) in &parse_text("hard.suite", &both).expect("reads").entries {
        let j = judge(tables, &entry.position).expect("covered");
        assert_eq!(
            (j.best(), j.avoid()),
            (entry.best.clone(), entry.avoid.clone())
        );
    }
    // Stopped after one batch and resumed on one thread, the counts go on side by side.
    let resumed = dir.join("hard-12-13-resumed.suite");
    let partial = make_hard_from(&resumed, "12", &["--threads", "1", "--max-boards", "32"]);
    assert!(partial.contains("# hard 12 seeds: 32 boards"), "{partial}");
    assert!(partial.contains("# hard 13 seeds: 32 boards"), "{partial}");
    // A run that ends at --max-boards leaves its positions named, in order of seed count.
    let stopped = parse_text("partial.suite", &partial).expect("reads");
    let seeds: Vec<u8> = stopped
        .entries
        .iter()
        .map(|(_, e)| e.position.seeds_on_board())
        .collect();
    assert_eq!(seeds, [12, 12, 13], "{partial}");
    assert!(
        stopped
            .entries
            .iter()
            .all(|(_, e)| e.id.as_deref().is_some_and(|id| id.starts_with("hard "))),
        "{partial}"
    );
    // A run of 13 seeds alone on that file is not full with its one position of 13 seeds,
    // though the file holds three: both counts keep where they stopped.
    let alone = make_hard(&resumed, &["--threads", "1", "--max-boards", "32"]);
    assert!(alone.contains("# hard 12 seeds: 32 boards"), "{alone}");
    assert!(alone.contains("# hard 13 seeds: 32 boards"), "{alone}");
    let whole = make_hard_from(&resumed, "12", &[&["--threads", "1"][..], &bound].concat());
    assert_eq!(whole, both);
}
