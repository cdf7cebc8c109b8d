//! `krou suite run` against real processes: the fake engine (first legal move, or crashing,
//! or hanging) and Krou itself.

mod referee_support;

use referee_support::{fake, krou, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const START: &str = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
/// South to move with A and B empty: the fake engine plays C.
const NO_A_B: &str = "0-0-5-4-4-4-4-4-4-4-4-4-4-3-S";

/// Four positions for an engine that plays the first legal move: "any" and "c" solved, "not A"
/// and "only B" failed.
fn suite(dir: &Path) -> PathBuf {
    let path = dir.join("small.suite");
    let text = format!(
        "# a small suite\n\
         {START} bm A B C D E F; id \"any\"; cat \"easy\";\n\
         {START} am A; id \"not A\"; cat \"easy\";\n\
         \n\
         {START} bm B; id \"only B\"; cat \"hard\";\n\
         {NO_A_B} bm C; id \"c\"; cat \"hard\"; c0 \"first legal move\";\n"
    );
    std::fs::write(&path, text).expect("suite written");
    path
}

fn run(args: &[&str], engine: &[&str]) -> Output {
    let mut command = Command::new(krou());
    command.arg("suite").arg("run").args(args);
    if !engine.is_empty() {
        command.arg("--").arg(fake()).args(engine);
    }
    command.output().expect("krou runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("file written")
}

#[test]
fn moves_are_scored_and_written_to_the_table_results_and_junit() {
    let dir = scratch("suite-scored");
    let file = suite(&dir);
    let (results, junit) = (dir.join("r.txt"), dir.join("j.xml"));
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--depth",
            "1",
            "--results",
            results.to_str().expect("utf-8"),
            "--junit",
            junit.to_str().expect("utf-8"),
        ],
        &["good"],
    );
    let printed = stdout(&out);
    assert!(out.status.success(), "{printed}");
    let rows: Vec<Vec<&str>> = printed
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(
        rows.contains(&vec!["easy", "2", "1", "50.0%", "9.5–90.5%", "0"]),
        "{printed}"
    );
    assert!(
        rows.contains(&vec!["hard", "2", "1", "50.0%", "9.5–90.5%", "0"]),
        "{printed}"
    );
    assert!(
        rows.contains(&vec!["total", "4", "2", "50.0%", "15.0–85.0%", "0"]),
        "{printed}"
    );
    assert!(printed.contains("FAIL only B"), "{printed}");
    assert!(printed.contains("played A, expected bm B"), "{printed}");
    assert_eq!(
        text(&results).lines().skip(1).collect::<Vec<_>>(),
        vec![
            "any\tA\tsolved",
            "not A\tA\tfailed",
            "only B\tA\tfailed",
            "c\tC\tsolved"
        ]
    );
    let xml = text(&junit);
    assert!(xml.contains("<testsuites name=\"krou suite run\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"0\""), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 4);
    assert_eq!(xml.matches("<failure ").count(), 2);
    assert_eq!(
        xml.matches("<testsuite ").count(),
        xml.matches("</testsuite>").count()
    );
    assert!(
        xml.contains("<failure message=\"expected bm B, played A\" type=\"failure\">"),
        "{xml}"
    );
    assert!(xml.contains("classname=\"hard\" name=\"only B\""), "{xml}");
}

#[test]
fn an_earlier_result_file_gives_the_changes_even_when_it_is_overwritten() {
    let dir = scratch("suite-previous");
    let file = suite(&dir);
    let results = dir.join("r.txt");
    std::fs::write(
        &results,
        "# earlier\nany\tB\tfailed\nnot A\tA\tfailed\nonly B\tB\tsolved\n",
    )
    .expect("written");
    let r = results.to_str().expect("utf-8");
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--depth",
            "1",
            "--previous",
            r,
            "--results",
            r,
        ],
        &["good"],
    );
    let printed = stdout(&out);
    assert!(out.status.success(), "{printed}");
    assert!(
        printed.contains("1 newly solved, 1 newly failed, 1 new positions"),
        "{printed}"
    );
    assert!(
        printed.contains(
            "the change is within noise (sign test on the 2 positions that changed: p = 1.000)"
        ),
        "{printed}"
    );
    assert!(printed.contains("newly solved: any\n"), "{printed}");
    assert!(printed.contains("newly failed: only B\n"), "{printed}");
    assert!(text(&results).contains("only B\tA\tfailed"));
}

#[test]
fn a_missing_earlier_result_file_makes_a_first_run() {
    let dir = scratch("suite-first");
    let file = suite(&dir);
    let results = dir.join("results.txt");
    let r = results.to_str().expect("utf-8");
    let args = [
        file.to_str().expect("utf-8"),
        "--depth",
        "1",
        "--results",
        r,
        "--previous",
        r,
    ];
    let first = run(&args, &["good"]);
    let printed = stdout(&first);
    assert!(first.status.success(), "{printed}");
    assert!(
        printed.contains(&format!(
            "no earlier results at {r}: a first run, nothing to compare"
        )),
        "{printed}"
    );
    assert!(results.exists(), "the first run's results are written");
    let second = run(&args, &["good"]);
    let printed = stdout(&second);
    assert!(second.status.success(), "{printed}");
    assert!(
        printed.contains("0 newly solved, 0 newly failed, 0 new positions"),
        "{printed}"
    );
    // A --previous that exists but cannot be read is still an error.
    let out = run(
        &[file.to_str().expect("utf-8"), "--depth", "1", "--previous"]
            .into_iter()
            .chain([dir.to_str().expect("utf-8")])
            .collect::<Vec<_>>(),
        &["good"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn min_solved_sets_the_exit_status_as_a_count_or_a_percentage() {
    let dir = scratch("suite-min");
    let file = suite(&dir);
    let f = file.to_str().expect("utf-8");
    let status = |min: &str| run(&[f, "--depth", "1", "--min-solved", min], &["good"]).status;
    assert_eq!(status("2").code(), Some(0));
    assert_eq!(status("3").code(), Some(1));
    assert_eq!(status("50%").code(), Some(0));
    assert_eq!(status("50.1%").code(), Some(1));
    assert_eq!(status("lots").code(), Some(2));
}

#[test]
fn an_engine_that_dies_fails_its_position_and_is_started_again() {
    let dir = scratch("suite-crash");
    let file = suite(&dir);
    let junit = dir.join("j.xml");
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--depth",
            "1",
            "--junit",
            junit.to_str().expect("utf-8"),
        ],
        &["crash-after", "1"],
    );
    let printed = stdout(&out);
    assert!(out.status.success(), "{printed}");
    // Positions 2 and 4 meet the second `go` of an engine: it exits; 3 runs on a new one.
    assert!(printed.contains("ERROR not A"), "{printed}");
    assert!(printed.contains("ERROR c"), "{printed}");
    let total: Vec<&str> = printed
        .lines()
        .find(|l| l.starts_with("total"))
        .expect("total")
        .split_whitespace()
        .collect();
    assert_eq!(total, vec!["total", "4", "1", "25.0%", "4.6–69.9%", "2"]);
    assert!(text(&junit).contains("tests=\"4\" failures=\"1\" errors=\"2\""));
}

#[test]
fn an_engine_that_never_answers_times_out_on_every_position() {
    let dir = scratch("suite-hang");
    let file = suite(&dir);
    let started = std::time::Instant::now();
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--movetime",
            "10",
            "--timeout-ms",
            "300",
        ],
        &["no-bestmove"],
    );
    let printed = stdout(&out);
    assert!(printed.contains("no 'bestmove' within 320 ms"), "{printed}");
    assert!(
        printed
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["total", "4", "0", "0.0%", "0.0–49.0%", "4"]),
        "{printed}"
    );
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn bad_files_and_unwritable_outputs_stop_the_run_before_it_starts() {
    let dir = scratch("suite-bad");
    let file = suite(&dir);
    let bad = dir.join("bad.suite");
    std::fs::write(&bad, format!("{START} bm A;\n\n{START} bm a;\n")).expect("written");
    let out = run(&[bad.to_str().expect("utf-8"), "--depth", "1"], &["good"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.suite:3:34: move a in 'bm' is not legal here"),
        "{err}"
    );
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--depth",
            "1",
            "--junit",
            "/no/such/dir/j.xml",
        ],
        &["good"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot write --junit /no/such/dir/j.xml")
    );
    assert!(stdout(&out).is_empty(), "nothing ran");
    let out = run(&[file.to_str().expect("utf-8")], &["good"]);
    assert_eq!(out.status.code(), Some(2), "no limit given");
}

#[test]
fn krou_itself_is_the_default_engine() {
    let dir = scratch("suite-krou");
    let file = dir.join("krou.suite");
    std::fs::write(
        &file,
        format!("{START} bm A B C D E F;\n{NO_A_B} bm C D E F;\n"),
    )
    .expect("written");
    let out = Command::new(krou())
        .args([
            "suite",
            "run",
            file.to_str().expect("utf-8"),
            "--depth",
            "2",
            "--option",
            "Hash=8",
        ])
        .output()
        .expect("krou runs");
    let printed = stdout(&out);
    assert!(out.status.success(), "{printed}");
    assert!(
        printed
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["total", "2", "2", "100.0%", "34.2–100.0%", "0"]),
        "{printed}"
    );
}

#[test]
fn an_engine_that_does_not_start_stops_the_run_before_the_first_position() {
    let dir = scratch("suite-no-engine");
    let path = suite(&dir);
    let file = path.to_str().expect("utf-8");
    let output = run(
        &[file, "--depth", "2", "--timeout-ms", "500"],
        &["no-uciok"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).is_empty(), "no position was scored");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("does not start: no 'uciok'"), "{stderr}");
}

/// Runs `scripts/suite-keep-solved` with `args` from `dir`.
fn keep_solved<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: impl IntoIterator<Item = S>) -> Output {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/suite-keep-solved"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the script runs")
}

/// `scripts/suite-keep-solved` keeps the positions every run solved, with the note as `c1`
/// before a trailing comment, and the comment lines; a suite it wrote reads back.
#[test]
fn keep_solved_keeps_what_every_run_solved() {
    let dir = scratch("suite-keep-solved");
    let file = suite(&dir);
    let mut text_with_comment = text(&file);
    text_with_comment.push_str(&format!("{START} bm A B C D E F; # no id; \"quoted; #\"\n"));
    std::fs::write(&file, text_with_comment).expect("suite written");
    let first = dir.join("first.txt");
    let out = run(
        &[
            file.to_str().expect("utf-8"),
            "--depth",
            "1",
            "--results",
            first.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let second = dir.join("second.txt");
    std::fs::write(
        &second,
        format!(
            "# a run in which only \"any\" and the unnamed line were solved\n\
             any\tA\tsolved\nnot A\tA\tfailed\nonly B\tA\tfailed\nc\tD\tfailed\n{}:7\tA\tsolved\n",
            file.display()
        ),
    )
    .expect("results written");
    let note = ["--note", "held at two runs"].map(std::ffi::OsStr::new);
    let out = keep_solved(
        &dir,
        [&note[..], &[&file, &first, &second].map(|p| p.as_os_str())].concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kept = stdout(&out);
    let lines: Vec<&str> = kept.lines().collect();
    assert!(
        lines[0].starts_with("# Kept by scripts/suite-keep-solved"),
        "{kept}"
    );
    assert_eq!(lines[1], "# a small suite");
    let positions: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    assert_eq!(
        positions,
        [
            format!("{START} bm A B C D E F; id \"any\"; cat \"easy\"; c1 \"held at two runs\";"),
            format!("{START} bm A B C D E F; c1 \"held at two runs\"; # no id; \"quoted; #\""),
        ],
        "{kept}"
    );
    let written = dir.join("kept.suite");
    std::fs::write(&written, &kept).expect("kept suite written");
    let out = run(&[written.to_str().expect("utf-8"), "--depth", "1"], &[]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("total"), "{}", stdout(&out));

    let out = keep_solved(&dir, [&file, &dir.join("missing.txt")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.txt"));
}

#[test]
fn keep_solved_reads_ids_outside_strings_and_prints_nothing_on_an_error() {
    let dir = scratch("suite-keep-solved-strings");
    let file = dir.join("strings.suite");
    std::fs::write(
        &file,
        format!(
            "{START} bm A; c0 \"say id \"; id \"real\";\n\
             {START} bm B; c0 \"x c1 \";\n\
             {START} bm C; # id \"x\"\n\
             {START} bm D; c1 \"already\";\n\
             {START} bm E; id \"twice\";\n"
        ),
    )
    .expect("suite written");
    // A name with '=' that awk would otherwise take for an assignment; "twice" is listed twice
    // and still counts as one run's.
    let results = dir.join("run=1.txt");
    std::fs::write(
        &results,
        format!(
            "real\tA\tsolved\n{f}:2\tB\tsolved\nx\tC\tsolved\n{f}:4\tD\tsolved\n\
             twice\tE\tsolved\ntwice\tE\tsolved\n",
            f = file.display()
        ),
    )
    .expect("results written");
    let out = keep_solved(&dir, [&file, &results]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("kept 4, dropped 1"), "{stderr}");
    let kept: Vec<String> = stdout(&out).lines().skip(1).map(String::from).collect();
    let moves: Vec<&str> = kept
        .iter()
        .filter_map(|l| l.split("bm ").nth(1)?.get(..1))
        .collect();
    // The 'id' inside the first line's c0 and the one after the third line's '#' are not ids.
    assert_eq!(moves, ["A", "B", "D", "E"], "{kept:?}");

    // Lines without an id are named by the path as given, so from the directory only "real"
    // and "twice" match.
    let out = keep_solved(&dir, ["strings.suite", "run=1.txt"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("kept 2, dropped 3"), "{stderr}");

    let with_note = |suite: &Path| {
        let note = ["--note", "held"].map(std::ffi::OsStr::new);
        keep_solved(
            &dir,
            [&note[..], &[suite.as_os_str(), results.as_os_str()]].concat(),
        )
    };
    // With a note, the line that has a c1 stops the script before it prints anything.
    let out = with_note(&file);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains(":4 already has a c1"));

    // A 'c1' inside a string is no c1: the note is added after the last operation.
    let noted = dir.join("noted.suite");
    std::fs::write(&noted, format!("{START} bm B; c0 \"x c1 \"; id \"b\";\n")).expect("written");
    let out = with_note(&noted);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout(&out).lines().count(),
        1,
        "only the first line: b was not solved"
    );
    std::fs::write(&results, "b\tB\tsolved\n").expect("results written");
    let out = with_note(&noted);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout(&out).lines().nth(1),
        Some(format!("{START} bm B; c0 \"x c1 \"; id \"b\"; c1 \"held\";").as_str())
    );

    for missing in [&["--note"][..], &["--note", ""][..]] {
        let out = keep_solved(&dir, missing);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--note needs a value"));
    }
}

/// With `--failed`, the positions every run marks `failed` are kept; an `error` is not a failure.
#[test]
fn keep_solved_with_failed_keeps_what_every_run_failed() {
    let dir = scratch("suite-keep-failed");
    let file = suite(&dir);
    let first = dir.join("first.txt");
    std::fs::write(
        &first,
        "any\tA\tsolved\nnot A\tA\tfailed\nonly B\tA\tfailed\nc\t-\terror\n",
    )
    .expect("results written");
    let second = dir.join("second.txt");
    std::fs::write(
        &second,
        "any\tB\tfailed\nnot A\tA\tfailed\nonly B\tB\tsolved\nc\tD\tfailed\n",
    )
    .expect("results written");
    let out = keep_solved(&dir, [&file, &first, &second]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("kept 0, dropped 4"),
        "solved in both: none; {stderr}"
    );

    let args = ["--failed", "small.suite", "first.txt", "second.txt"];
    let out = keep_solved(&dir, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("kept 1, dropped 3"), "{stderr}");
    let kept = stdout(&out);
    assert!(
        kept.starts_with(
            "# Kept by scripts/suite-keep-solved: the positions of small.suite failed"
        ),
        "{kept}"
    );
    let positions: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        positions,
        [&format!("{START} am A; id \"not A\"; cat \"easy\";"), ""]
    );

    let out = keep_solved(&dir, ["--fail", "small.suite", "first.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option --fail"));
}
