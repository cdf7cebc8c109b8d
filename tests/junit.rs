//! JUnit XML results (`--junit FILE` of `krou replay` and `krou suite run`) are well-formed,
//! their counts agree with their cases, failures carry the file, line, expected and actual
//! lines, and the files validate against `tests/data/junit.xsd` with `xmllint` (Debian's
//! `libxml2-utils`; skipped, saying so, where it is absent; `.ci/run` installs it).
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn krou() -> &'static str {
    env!("CARGO_BIN_EXE_krou")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-junit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Checks a JUnit file: well-formed, counts that agree with the cases, and valid against the
/// schema when `xmllint` is installed. Returns the document's text.
fn check_junit(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&text).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let count = |node: roxmltree::Node, name: &str| -> usize {
        node.attribute(name).unwrap().parse().unwrap()
    };
    let mut totals = [0; 4];
    for suite in root.children().filter(|n| n.has_tag_name("testsuite")) {
        let cases: Vec<_> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let with = |tag: &str| {
            cases
                .iter()
                .filter(|c| c.children().any(|n| n.has_tag_name(tag)))
                .count()
        };
        let found = [cases.len(), with("failure"), with("error"), with("skipped")];
        for (i, name) in ["tests", "failures", "errors", "skipped"]
            .iter()
            .enumerate()
        {
            assert_eq!(count(suite, name), found[i], "{name} of a testsuite");
            totals[i] += found[i];
        }
    }
    for (i, name) in ["tests", "failures", "errors", "skipped"]
        .iter()
        .enumerate()
    {
        assert_eq!(count(root, name), totals[i], "{name} of testsuites");
    }
    validate_with_schema(path);
    text
}

fn validate_with_schema(path: &Path) {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/junit.xsd");
    match Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&schema)
        .arg(path)
        .output()
    {
        Ok(output) => assert!(
            output.status.success(),
            "{} does not validate: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        ),
        Err(_) => eprintln!("skipped: xmllint is not installed (apt-get install libxml2-utils)"),
    }
}

#[test]
fn replay_writes_one_case_per_transcript_with_failures_that_say_where() {
    let dir = scratch("replay");
    let good = dir.join("good.txt");
    std::fs::write(&good, "> isready\n< readyok\n").unwrap();
    let bad = dir.join("bad & <odd>.txt");
    std::fs::write(&bad, "> isready\n< readyok\n> uci\n< uciok\n").unwrap();
    let broken = dir.join("broken.txt");
    std::fs::write(&broken, "> isready\nhello\n").unwrap();
    let junit = dir.join("results.xml");
    let output = Command::new(krou())
        .arg("replay")
        .args([&good, &bad, &broken])
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = check_junit(&junit);
    assert!(
        text.contains("tests=\"3\" failures=\"1\" errors=\"1\""),
        "{text}"
    );
    assert!(
        text.contains(
            "bad &amp; &lt;odd&gt;.txt:4: expected &apos;uciok&apos;, got &apos;id name Krou"
        ),
        "the failure names the file, the line, the expected and the actual line: {text}"
    );
    assert!(
        text.contains("<error message=\"line 2: &apos;hello&apos; is not a step"),
        "{text}"
    );
}

#[test]
fn an_unwritable_junit_file_is_refused_before_anything_runs() {
    let dir = scratch("unwritable");
    let transcript = dir.join("t.txt");
    std::fs::write(&transcript, "> isready\n< readyok\n").unwrap();
    let output = Command::new(krou())
        .arg("replay")
        .arg(&transcript)
        .arg("--junit")
        .arg(dir.join("no/such/dir/results.xml"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "nothing was replayed");
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write --junit"));
}

#[test]
fn the_schema_refuses_a_file_whose_shape_is_wrong() {
    if Command::new("xmllint").arg("--version").output().is_err() {
        eprintln!("skipped: xmllint is not installed (apt-get install libxml2-utils)");
        return;
    }
    let dir = scratch("schema");
    let wrong = dir.join("wrong.xml");
    std::fs::write(
        &wrong,
        "<testsuites><testsuite name=\"s\" tests=\"x\"><case/></testsuite></testsuites>",
    )
    .unwrap();
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/junit.xsd");
    let status = Command::new("xmllint")
        .args(["--noout", "--schema"])
        .arg(schema)
        .arg(&wrong)
        .output()
        .unwrap()
        .status;
    assert!(!status.success(), "the schema is not a rubber stamp");
}

#[test]
fn suite_run_writes_one_case_per_position_that_validates() {
    let dir = scratch("suite");
    let suite = dir.join("tiny.suite");
    // One position any move solves, one that every move fails.
    std::fs::write(
        &suite,
        "4-4-4-4-4-1-2-4-4-4-4-4-1-4-S bm A B C D E F; id \"any move\"; cat \"easy\";\n\
         4-4-4-4-4-4-4-4-4-4-4-4-0-0-S am A B C D E F; id \"every move avoided\";\n",
    )
    .unwrap();
    let junit = dir.join("suite.xml");
    let output = Command::new(krou())
        .args(["suite", "run"])
        .arg(&suite)
        .args(["--depth", "4", "--junit"])
        .arg(&junit)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = check_junit(&junit);
    assert!(
        text.contains("tests=\"2\" failures=\"1\" errors=\"0\""),
        "{text}"
    );
    assert!(text.contains("name=\"every move avoided\""), "{text}");
}
