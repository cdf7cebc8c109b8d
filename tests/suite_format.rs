//! The suite format: good lines, every kind of bad line (with file, line and column), and
//! random or mutated lines that never panic.

use krou::regression::suite::{Entry, Source, parse_line, parse_text};
use krou::rules::Move;
use proptest::prelude::*;

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";

fn mv(letter: char) -> Move {
    Move::from_letter(letter).expect("a pit letter")
}

fn entry(line: &str) -> Entry {
    match parse_line(line) {
        Ok(Some(entry)) => entry,
        other => panic!("'{line}' should be an entry, got {other:?}"),
    }
}

/// The column and message of a bad line.
fn error(line: &str) -> (usize, String) {
    match parse_line(line) {
        Err(e) => e,
        Ok(found) => panic!("'{line}' should be refused, got {found:?}"),
    }
}

#[test]
fn a_full_line_is_read_with_every_operation() {
    let e = entry(&format!(
        "{START} bm C D; am F; id \"wac 1\"; cat \"win 13\"; src \"proven\"; \
         c0 \"say \\\"hi\\\" \\\\ #\"; # trailing"
    ));
    assert_eq!(e.position.to_string(), START);
    assert_eq!(e.best, vec![mv('C'), mv('D')]);
    assert_eq!(e.avoid, vec![mv('F')]);
    assert_eq!(e.id.as_deref(), Some("wac 1"));
    assert_eq!(e.category.as_deref(), Some("win 13"));
    assert_eq!(e.source, Some(Source::Proven));
    assert_eq!(e.comments, vec![(0, "say \"hi\" \\ #".to_string())]);
    assert!(e.solved_by(mv('C')) && e.solved_by(mv('D')));
    assert!(!e.solved_by(mv('F')) && !e.solved_by(mv('A')));
}

#[test]
fn an_entry_written_out_reads_back_the_same() {
    let e = entry(&format!(
        "  {START}\tam B A; c1 \"x\";  id \"\";  src \"search\";  "
    ));
    assert_eq!(e.avoid, vec![mv('B'), mv('A')]);
    assert!(e.solved_by(mv('C')) && !e.solved_by(mv('A')));
    assert_eq!(entry(&e.to_string()), e);
}

#[test]
fn blank_and_comment_lines_are_skipped_and_lines_keep_their_numbers() {
    let text =
        format!("\u{feff}# a suite\n\n   \n{START} bm A;\r\n  # indented comment\n{START} am B;\n");
    let suite = parse_text("x.suite", &text).expect("a good file");
    let lines: Vec<usize> = suite.entries.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, vec![4, 6]);
    assert_eq!(suite.file, "x.suite");
}

#[test]
fn a_bad_line_is_named_by_file_line_and_column() {
    let text = format!("# header\n{START} bm A;\n{START} bm Z;\n");
    let e = parse_text("tests/x.suite", &text).expect_err("line 3 is bad");
    assert_eq!(
        (e.file.as_str(), e.line, e.column),
        ("tests/x.suite", 3, 34)
    );
    assert!(
        e.to_string()
            .starts_with("tests/x.suite:3:34: 'Z' in 'bm' is not a move"),
        "{e}"
    );
}

#[test]
fn every_kind_of_malformed_line_is_refused_with_its_reason() {
    let cases: Vec<(String, usize, &str)> = vec![
        ("4-4-4 bm A;".into(), 1, "bad diagram '4-4-4'"),
        (
            "4-4-4-4-4-4-4-4-4-4-4-4-0-1-S bm A;".into(),
            1,
            "add up to 49",
        ),
        (
            "0-0-0-0-0-0-4-4-4-4-4-3-25-0-N bm a;".into(),
            1,
            "the game is over",
        ),
        (START.to_string(), 1, "nothing to solve"),
        (format!("{START} id \"x\";"), 1, "nothing to solve"),
        (format!("{START} bm A"), 35, "'bm' is not ended by ';'"),
        (format!("{START} bm;"), 31, "'bm' needs at least one move"),
        (format!("{START} bm AB;"), 34, "'AB' in 'bm' is not a move"),
        (format!("{START} bm G;"), 34, "'G' in 'bm' is not a move"),
        (
            format!("{START} bm a;"),
            34,
            "move a in 'bm' is not legal here (legal: ABCDEF)",
        ),
        (
            format!("{START} bm A A;"),
            36,
            "move A is given twice in 'bm'",
        ),
        (
            format!("{START} bm A; am A;"),
            37,
            "move A is both in 'bm' and in 'am'",
        ),
        (
            format!("{START} bm A; bm B;"),
            37,
            "operation 'bm' is given twice",
        ),
        (
            format!("{START} bm A;am B;"),
            36,
            "expected whitespace before the next operation",
        ),
        (format!("{START} bm A; xx 1;"), 37, "unknown operation 'xx'"),
        (format!("{START} bm A; BM A;"), 37, "unknown operation 'BM'"),
        (format!("{START} bm A; ;"), 37, "expected an operation"),
        (
            format!("{START} bm A; id wac;"),
            40,
            "'id' takes a quoted string",
        ),
        (
            format!("{START} bm A; id \"a\" \"b\";"),
            37,
            "exactly one quoted string, found 2",
        ),
        (
            format!("{START} bm A; id \"open;"),
            40,
            "the string is not closed",
        ),
        (
            format!("{START} bm A; id \"a\\n\";"),
            42,
            "only \\\" and \\\\ may follow",
        ),
        (
            format!("{START} bm A; id \"a\u{7}\";"),
            42,
            "control characters",
        ),
        (
            format!("{START} bm A; src \"guess\";"),
            37,
            "'src' is \"proven\" or \"search\"",
        ),
        (
            format!("{START} bm A; c10 \"x\";"),
            37,
            "unknown operation 'c10'",
        ),
        (
            format!("{START} bm A; id\"x\";"),
            39,
            "expected whitespace or ';' in 'id'",
        ),
    ];
    let mut wrong = Vec::new();
    for (line, column, message) in cases {
        let (found_column, found) = error(&line);
        if !found.contains(message) || found_column != column {
            wrong.push(format!(
                "'{line}': column {found_column}, '{found}'; expected column {column}, '{message}'"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A few good lines to mutate.
fn good_lines() -> Vec<String> {
    vec![
        format!("{START} bm C D; am F; id \"x 1\"; cat \"win 13\"; src \"proven\"; c0 \"a;b\";"),
        "0-0-0-2-0-1-1-0-1-0-0-0-20-23-N am a; bm d;".to_string(),
        "3-0-1-0-2-0-0-1-0-2-1-3-17-18-S bm A F; # note".to_string(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_lines_never_panic(line in "\\PC{0,80}") {
        let _ = parse_line(&line);
    }

    #[test]
    fn mutated_lines_never_panic_and_what_is_read_reads_back(
        which in 0usize..3,
        edits in proptest::collection::vec((any::<usize>(), 0u8..3, any::<char>()), 1..6),
    ) {
        let mut chars: Vec<char> = good_lines()[which].chars().collect();
        for (at, kind, c) in edits {
            let at = at % (chars.len() + 1);
            match kind {
                0 if at < chars.len() => { chars.remove(at); }
                1 if at < chars.len() => chars[at] = c,
                _ => chars.insert(at, c),
            }
        }
        let line: String = chars.into_iter().collect();
        if let Ok(Some(e)) = parse_line(&line) {
            prop_assert_eq!(parse_line(&e.to_string()), Ok(Some(e.clone())));
        }
        let _ = parse_text("f", &format!("{line}\n{line}"));
    }
}

/// Every shipped suite reads, names its positions uniquely, and says where its answers come
/// from; the hard suite's positions lie beyond the default tables (21 seeds or more), with the
/// tables' verdict and the engine's wrong moves in its comments.
#[test]
fn the_shipped_suites_read_with_unique_ids_and_sources() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/suites");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/suites")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "suite"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for path in files {
        let suite = krou::regression::suite::read_file(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(!suite.entries.is_empty(), "{}", path.display());
        let mut ids = std::collections::HashSet::new();
        for (line, e) in &suite.entries {
            let id = e.id.clone().unwrap_or_else(|| format!("line {line}"));
            assert!(ids.insert(id.clone()), "{}: {id} twice", path.display());
            assert!(e.source.is_some(), "{}:{line}", path.display());
            if path.ends_with("hard.suite") {
                assert_eq!(e.source, Some(Source::Proven), "{}:{line}", path.display());
                assert!(
                    e.position.seeds_on_board() >= 21,
                    "{}:{line}",
                    path.display()
                );
                let said: String = e.comments.iter().map(|(_, c)| c.as_str()).collect();
                assert!(said.contains("tables: "), "{}:{line}", path.display());
                assert!(said.contains("Krou at "), "{}:{line}", path.display());
            }
        }
    }
}
