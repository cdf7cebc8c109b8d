//! What a run leaves behind: the table by category, the result file, the changes against an
//! earlier run, the `--min-solved` threshold and the JUnit cases.

use super::noise::{beyond_noise, sign_test, solved_interval};
use super::run::{Outcome, Verdict};
use crate::regression::junit;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The first line of a result file.
pub const RESULTS_HEADER: &str =
    "# krou suite results: id<TAB>move played (- for none)<TAB>solved|failed|error";

/// The table by category (in order of first appearance) and a total line.
pub fn table(outcomes: &[Outcome]) -> String {
    let mut order: Vec<&str> = Vec::new();
    let mut counts: HashMap<&str, (usize, usize, usize)> = HashMap::new();
    for o in outcomes {
        let entry = counts.entry(o.category.as_str()).or_insert_with(|| {
            order.push(o.category.as_str());
            (0, 0, 0)
        });
        entry.0 += 1;
        entry.1 += usize::from(o.verdict == Verdict::Solved);
        entry.2 += usize::from(o.verdict == Verdict::Error);
    }
    let width = order.iter().map(|c| c.len()).max().unwrap_or(0).max(8);
    let mut text = format!(
        "{:<width$}  {:>9}  {:>6}  {:>7}  {:>13}  {:>6}\n",
        "category", "positions", "solved", "percent", "95% interval", "errors"
    );
    let mut total = (0, 0, 0);
    for category in order {
        let (n, solved, errors) = counts.get(category).copied().unwrap_or_default();
        row(&mut text, category, (n, solved, errors), width);
        total = (total.0 + n, total.1 + solved, total.2 + errors);
    }
    row(&mut text, "total", total, width);
    text
}

fn row(text: &mut String, name: &str, (n, solved, errors): (usize, usize, usize), width: usize) {
    let (low, high) = solved_interval(solved, n);
    let interval = format!("{:.1}–{:.1}%", 100.0 * low, 100.0 * high);
    let _ = writeln!(
        text,
        "{name:<width$}  {n:>9}  {solved:>6}  {:>6.1}%  {interval:>13}  {errors:>6}",
        percent(solved, n)
    );
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The result file: a header line, then `id<TAB>move<TAB>verdict` per position.
pub fn results_file(outcomes: &[Outcome]) -> String {
    let mut text = format!("{RESULTS_HEADER}\n");
    for o in outcomes {
        let played = o.played.as_deref().unwrap_or("-");
        let _ = writeln!(text, "{}\t{played}\t{}", o.id, o.verdict.name());
    }
    text
}

/// Reads a result file into each id's verdict; an error names the file and line.
pub fn read_results(file: &str, text: &str) -> Result<HashMap<String, Verdict>, String> {
    let mut verdicts = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let verdict = match fields.as_slice() {
            [id, played, verdict] if !id.is_empty() && !played.is_empty() => {
                Verdict::from_name(verdict).map(|v| (id.to_string(), v))
            }
            _ => None,
        };
        let Some((id, verdict)) = verdict else {
            return Err(format!(
                "{file}:{}: expected 'id<TAB>move<TAB>solved|failed|error'",
                index + 1
            ));
        };
        verdicts.insert(id, verdict);
    }
    Ok(verdicts)
}

/// The positions whose verdict changed against an earlier run: newly solved, newly failed
/// (failed or error now, solved before), and how many were not in the earlier run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Ids solved now and not before.
    pub newly_solved: Vec<String>,
    /// Ids solved before and not now.
    pub newly_failed: Vec<String>,
    /// Positions the earlier run did not have.
    pub new_positions: usize,
}

/// Compares this run with an earlier run's verdicts.
pub fn changes(outcomes: &[Outcome], previous: &HashMap<String, Verdict>) -> Changes {
    let mut changes = Changes::default();
    for o in outcomes {
        let now = o.verdict == Verdict::Solved;
        match previous.get(&o.id) {
            None => changes.new_positions += 1,
            Some(&before) if (before == Verdict::Solved) == now => {}
            Some(_) if now => changes.newly_solved.push(o.id.clone()),
            Some(_) => changes.newly_failed.push(o.id.clone()),
        }
    }
    changes
}

impl std::fmt::Display for Changes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (gained, lost) = (self.newly_solved.len(), self.newly_failed.len());
        writeln!(
            f,
            "against the previous run: {gained} newly solved, {lost} newly failed, {} new positions",
            self.new_positions
        )?;
        if gained + lost > 0 {
            let p = sign_test(gained, lost);
            let verdict = if beyond_noise(gained, lost) {
                "beyond noise"
            } else {
                "within noise"
            };
            writeln!(
                f,
                "the change is {verdict} (sign test on the {} positions that changed: p = {p:.3})",
                gained + lost
            )?;
        }
        for id in &self.newly_solved {
            writeln!(f, "newly solved: {id}")?;
        }
        for id in &self.newly_failed {
            writeln!(f, "newly failed: {id}")?;
        }
        Ok(())
    }
}

/// A `--min-solved` threshold: a count of positions, or a percentage of those run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// At least this many positions solved.
    Count(usize),
    /// At least this share of the positions run, in percent.
    Percent(f64),
}

impl std::str::FromStr for Threshold {
    type Err = String;

    fn from_str(text: &str) -> Result<Threshold, String> {
        let bad = || format!("'{text}' is not a count (e.g. 250) or a percentage (e.g. 80%)");
        match text.strip_suffix('%') {
            Some(number) => match number.parse::<f64>() {
                Ok(p) if (0.0..=100.0).contains(&p) => Ok(Threshold::Percent(p)),
                _ => Err(bad()),
            },
            None => text.parse().map(Threshold::Count).map_err(|_| bad()),
        }
    }
}

impl Threshold {
    /// Whether `solved` of `total` positions reach the threshold.
    pub fn reached(self, solved: usize, total: usize) -> bool {
        match self {
            Threshold::Count(n) => solved >= n,
            Threshold::Percent(p) => percent(solved, total) + 1e-9 >= p,
        }
    }
}

/// One JUnit suite per suite file, one case per position (classname: its category).
pub fn junit_suites(outcomes: &[Outcome]) -> Vec<junit::Suite> {
    let mut suites: Vec<junit::Suite> = Vec::new();
    for o in outcomes {
        if suites.last().is_none_or(|s| s.name != o.file) {
            suites.push(junit::Suite {
                name: o.file.clone(),
                cases: Vec::new(),
            });
        }
        if let Some(suite) = suites.last_mut() {
            suite.cases.push(junit_case(o));
        }
    }
    suites
}

fn junit_case(o: &Outcome) -> junit::Case {
    let played = o.played.as_deref().unwrap_or("-");
    let details = format!(
        "{}:{}: position {}\nexpected: {}\nplayed: {played}",
        o.file, o.line, o.position, o.expected
    );
    let outcome = match o.verdict {
        Verdict::Solved => junit::Outcome::Passed,
        Verdict::Failed => junit::Outcome::Failed {
            message: format!("expected {}, played {played}", o.expected),
            details,
        },
        Verdict::Error => junit::Outcome::Error {
            message: o.error.clone().unwrap_or_else(|| "no answer".to_string()),
            details,
        },
    };
    junit::Case {
        classname: o.category.clone(),
        name: o.id.clone(),
        time: o.time,
        outcome,
    }
}
