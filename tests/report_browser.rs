//! The report in a real browser: headless Chromium (Debian's `chromium`, or the program named by
//! `KROU_CHROMIUM`) loads the page, and the test reads what it saw.
//!
//! How: `chromium --headless --dump-dom` prints the DOM after the page has loaded, so the SVG has
//! been parsed by the browser's own HTML parser; each `<figure data-plot>` must hold an `<svg>`
//! whose data elements carry data (a line of several points, a band, bars). With
//! `--enable-logging=stderr --v=0` every console message (a script error, a blocked load) is
//! logged as a `CONSOLE` line: the page has no script, so there must be none. The test is
//! skipped, saying so, where there is no Chromium.

mod referee_support;
mod report_support;

use referee_support::scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a page load may take before the test gives up on the browser.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);

fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("KROU_CHROMIUM").map(PathBuf::from);
    let found = named.unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    found.exists().then_some(found)
}

/// The DOM after loading `page`, and the browser's log.
fn load(browser: &Path, page: &Path, profile: &Path) -> (String, String) {
    let (out, err) = (profile.with_extension("dom"), profile.with_extension("log"));
    let file = |p: &Path| std::fs::File::create(p).expect("output file");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(file(&out))
        .stderr(file(&err))
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                assert!(status.success(), "chromium failed: {status}");
                break;
            }
            Ok(None) if started.elapsed() < BROWSER_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(100));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not finish within {BROWSER_TIMEOUT:?}");
            }
        }
    }
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    (read(&out), read(&err))
}

/// The figures of the DOM: `(kind, inner text)`.
fn figures(dom: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = dom;
    while let Some(start) = rest.find("<figure data-plot=\"") {
        rest = &rest[start + 19..];
        let kind = rest.split('"').next().unwrap_or_default().to_string();
        let end = rest.find("</figure>").unwrap_or(rest.len());
        found.push((kind, rest[..end].to_string()));
        rest = &rest[end..];
    }
    found
}

/// The number of points of each `<polyline>` of an SVG.
fn polylines(svg: &str) -> Vec<usize> {
    svg.split("<polyline")
        .skip(1)
        .filter_map(|element| {
            let points = element.split("points=\"").nth(1)?.split('"').next()?;
            Some(points.split_whitespace().count())
        })
        .collect()
}

/// Whether a plot of `kind` drew its data: a line of 3 points or more (the mesh, the dashes and
/// the legend's swatches are 2-point lines), or for the pentanomial the white background and
/// five bars (a zero count is a bar of no height).
fn has_data(kind: &str, svg: &str) -> bool {
    match kind {
        "pentanomial" => svg.matches("<rect").count() >= 6,
        _ => polylines(svg).iter().any(|&n| n >= 3),
    }
}

fn check_in_browser(name: &str, page: &Path, expected: &[&str]) {
    let Some(browser) = chromium() else {
        println!(
            "skipped: no Chromium at /usr/bin/chromium (install Debian's chromium, or set KROU_CHROMIUM)"
        );
        return;
    };
    let profile = page.with_file_name(format!("{name}-profile"));
    let (dom, log) = load(&browser, page, &profile);
    assert!(
        dom.contains("<h1>krou match report"),
        "{name}: the page loaded: {dom:.300}"
    );
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{name}: console messages: {console:?}");
    for external in ["src=\"http", "href=\"http", "url(", "<script", "<link"] {
        assert!(
            !dom.contains(external),
            "{name}: not self-contained: {external}"
        );
    }
    let figures = figures(&dom);
    for kind in expected {
        assert!(
            figures.iter().any(|(k, _)| k == kind),
            "{name}: no {kind} plot"
        );
    }
    for (kind, inner) in &figures {
        assert!(inner.contains("<svg"), "{name}: {kind} has no SVG");
        assert!(
            has_data(kind, inner),
            "{name}: the {kind} plot is empty: {inner:.400}"
        );
    }
}

#[test]
fn the_fixture_report_loads_cleanly_and_every_plot_has_data() {
    let dir = scratch("browser-fixture");
    let page = dir.join("report.html");
    let html = krou::referee::report::html(&report_support::fixture(), "fixture")
        .expect("the fixture renders");
    std::fs::write(&page, html).expect("write the page");
    check_in_browser(
        "fixture",
        &page,
        &["elo", "llr", "pentanomial", "time", "eval"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_real_match_report_loads_cleanly_and_every_plot_has_data() {
    let dir = scratch("browser-match");
    let page = dir.join("report.html");
    // Krou against itself at depth 1 (one side through its own `tc=`; both timed, with
    // evaluations). Two equal engines split the colours of each opening, so the Elo estimate is
    // finite from the first pair on and its plot has data whatever the games are (Krou alone
    // against greedy can win all ten, an infinite Elo with nothing to draw).
    let krou_engine = format!("name=krou tc=depth=1 {}", referee_support::krou().display());
    let twin = format!("name=twin {}", referee_support::krou().display());
    let output = Command::new(referee_support::krou())
        .args(["match", "--engine"])
        .arg(&krou_engine)
        .arg("--engine")
        .arg(&twin)
        .args([
            "--tc",
            "depth=1",
            "--games",
            "10",
            "--random-openings",
            "6",
            "--seed",
            "4",
            "--sprt",
            "elo0=0 elo1=50",
        ])
        .arg("--report")
        .arg(&page)
        .output()
        .expect("krou runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    check_in_browser(
        "match",
        &page,
        &["elo", "llr", "pentanomial", "time", "eval"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_checks_see_an_empty_plot_and_a_console_error() {
    assert!(!has_data(
        "elo",
        "<svg><polyline points=\"1,2 3,4\"/></svg>"
    ));
    assert!(has_data(
        "elo",
        "<svg><polyline points=\"1,2 3,4 5,6\"/></svg>"
    ));
    assert!(!has_data("pentanomial", "<svg><rect/></svg>"));
    let Some(browser) = chromium() else {
        println!("skipped: no Chromium at /usr/bin/chromium");
        return;
    };
    let dir = scratch("browser-broken");
    let page = dir.join("broken.html");
    std::fs::write(
        &page,
        "<html><body><script>nosuch();</script></body></html>",
    )
    .expect("write");
    let (_, log) = load(&browser, &page, &dir.join("profile"));
    assert!(
        log.lines()
            .any(|l| l.contains(":CONSOLE") && l.contains("nosuch")),
        "a script error shows in the log: {log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
