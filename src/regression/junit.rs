//! Test results as JUnit XML, the format CI servers read (GitLab's `artifacts:reports:junit`,
//! Jenkins' JUnit plugin, GitHub Actions' test-report actions).
//!
//! ```text
//! <testsuites name tests failures errors skipped time>
//!   <testsuite name tests failures errors skipped time timestamp hostname>
//!     <testcase classname name time>             a case that passed
//!       <failure message type>details</failure>  a case that ran and failed
//!       <error message type>details</error>      a case that could not run
//!       <skipped message/>                       a case not run
//! ```
//! The counts on every `<testsuite>` and on `<testsuites>` are those of its cases.
//! `tests/data/junit.xsd` is the schema the tests validate against.

use std::fmt::Write as _;
use std::time::Duration;

/// How one test case ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It ran and passed.
    Passed,
    /// It ran and did not pass: a one-line message and the details (expected and actual).
    Failed {
        /// One line: what failed.
        message: String,
        /// The details, over several lines if need be.
        details: String,
    },
    /// It could not run (an engine that does not start, a file that cannot be read).
    Error {
        /// One line: why.
        message: String,
        /// The details, over several lines if need be.
        details: String,
    },
    /// It was not run, and why.
    Skipped(String),
}

/// One test case: a transcript, a position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The group it belongs to (a file, a category).
    pub classname: String,
    /// Its name within the group.
    pub name: String,
    /// How long it took.
    pub time: Duration,
    /// How it ended.
    pub outcome: Outcome,
}

/// A named group of cases.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suite {
    /// Its name (a file, a command).
    pub name: String,
    /// The cases in order.
    pub cases: Vec<Case>,
}

/// Case counts: all, failed, errors, skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// All cases.
    pub tests: usize,
    /// Cases that failed.
    pub failures: usize,
    /// Cases that could not run.
    pub errors: usize,
    /// Cases not run.
    pub skipped: usize,
}

impl Suite {
    /// The counts of its cases.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts {
            tests: self.cases.len(),
            ..Counts::default()
        };
        for case in &self.cases {
            match case.outcome {
                Outcome::Passed => {}
                Outcome::Failed { .. } => counts.failures += 1,
                Outcome::Error { .. } => counts.errors += 1,
                Outcome::Skipped(_) => counts.skipped += 1,
            }
        }
        counts
    }

    /// The time of all its cases.
    pub fn time(&self) -> Duration {
        self.cases.iter().map(|c| c.time).sum()
    }
}

/// The XML document of `suites` under one `<testsuites name="…">`; `timestamp` is an ISO 8601
/// date and time (`2026-12-02T01:00:00`) written on each suite.
pub fn document(name: &str, suites: &[Suite], timestamp: &str) -> String {
    let mut total = Counts::default();
    for suite in suites {
        let c = suite.counts();
        total.tests += c.tests;
        total.failures += c.failures;
        total.errors += c.errors;
        total.skipped += c.skipped;
    }
    let time: Duration = suites.iter().map(Suite::time).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">",
        escape(name),
        total.tests,
        total.failures,
        total.errors,
        total.skipped,
        seconds(time)
    );
    for (id, suite) in suites.iter().enumerate() {
        write_suite(&mut xml, id, suite, timestamp);
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn write_suite(xml: &mut String, id: usize, suite: &Suite, timestamp: &str) {
    let c = suite.counts();
    let _ = writeln!(
        xml,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" \
         time=\"{}\" timestamp=\"{}\" hostname=\"localhost\" id=\"{id}\">",
        escape(&suite.name),
        c.tests,
        c.failures,
        c.errors,
        c.skipped,
        seconds(suite.time()),
        escape(timestamp),
    );
    for case in &suite.cases {
        write_case(xml, case);
    }
    xml.push_str("  </testsuite>\n");
}

fn write_case(xml: &mut String, case: &Case) {
    let _ = write!(
        xml,
        "    <testcase classname=\"{}\" name=\"{}\" time=\"{}\"",
        escape(&case.classname),
        escape(&case.name),
        seconds(case.time)
    );
    let (tag, message, details) = match &case.outcome {
        Outcome::Passed => {
            xml.push_str("/>\n");
            return;
        }
        Outcome::Skipped(message) => {
            let _ = writeln!(xml, ">\n      <skipped message=\"{}\"/>", escape(message));
            xml.push_str("    </testcase>\n");
            return;
        }
        Outcome::Failed { message, details } => ("failure", message, details),
        Outcome::Error { message, details } => ("error", message, details),
    };
    let _ = writeln!(
        xml,
        ">\n      <{tag} message=\"{}\" type=\"{tag}\">{}</{tag}>",
        escape(message),
        escape(details)
    );
    xml.push_str("    </testcase>\n");
}

/// Seconds with millisecond precision, as JUnit writes them.
fn seconds(time: Duration) -> String {
    format!("{:.3}", time.as_secs_f64())
}

/// Text made safe for XML content and attribute values: the five special characters as
/// entities, line ends kept as character references (so attribute values keep them), and the
/// characters XML 1.0 forbids (most control characters) replaced by U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The present time as an ISO 8601 timestamp in UTC, without a zone (as JUnit writes it).
pub fn now_timestamp() -> String {
    crate::calendar::now().iso()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, outcome: Outcome) -> Case {
        Case {
            classname: "file.txt".to_string(),
            name: name.to_string(),
            time: Duration::from_millis(1500),
            outcome,
        }
    }

    #[test]
    fn counts_follow_the_cases() {
        let suite = Suite {
            name: "s".to_string(),
            cases: vec![
                case("a", Outcome::Passed),
                case(
                    "b",
                    Outcome::Failed {
                        message: "m".into(),
                        details: "d".into(),
                    },
                ),
                case("c", Outcome::Skipped("why".into())),
            ],
        };
        assert_eq!(
            suite.counts(),
            Counts {
                tests: 3,
                failures: 1,
                errors: 0,
                skipped: 1
            }
        );
        let xml = document("krou", &[suite], "2026-12-02T01:02:03");
        assert!(
            xml.contains("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"4.500\"")
        );
        assert!(xml.contains("<failure message=\"m\" type=\"failure\">d</failure>"));
    }

    #[test]
    fn special_and_forbidden_characters_are_escaped() {
        assert_eq!(
            escape("a<b>&\"'\n\u{1}"),
            "a&lt;b&gt;&amp;&quot;&apos;&#10;\u{FFFD}"
        );
    }
}
