//! `krou suite check`: a proven suite's answers checked against the endgame tables.

use super::entry::{Source, letters};
use super::judge::judge;
use super::parse::SuiteFile;
use crate::egdb::Tables;

/// What the check of some files found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Entries checked and right.
    pub right: usize,
    /// Entries the tables do not cover (too many seeds) or not marked `src "proven"`.
    pub skipped: usize,
    /// Each wrong entry: `file:line: id: what the file says, what the tables say`.
    pub wrong: Vec<String>,
}

/// Checks every `src "proven"` entry whose seed count `tables` covers: its `bm` must be the
/// moves that keep the proven result and its `am` those that give it up, every move's result
/// being proven.
pub fn check(files: &[SuiteFile], tables: &Tables) -> Report {
    let mut report = Report::default();
    for file in files {
        for (line, entry) in &file.entries {
            let covered = tables
                .max_seeds()
                .is_some_and(|max| entry.position.seeds_on_board() <= max);
            if entry.source != Some(Source::Proven) || !covered {
                report.skipped += 1;
                continue;
            }
            let id = entry.id.as_deref().unwrap_or("-");
            let said = entry.expected();
            let problem = match judge(tables, &entry.position) {
                None => Some("the tables do not cover every move".to_string()),
                Some(j) if j.result.is_none() => Some(format!(
                    "the tables do not prove every move's result: {}",
                    j.describe()
                )),
                Some(j) if j.best() != sorted(&entry.best) || j.avoid() != sorted(&entry.avoid) => {
                    Some(format!(
                        "the tables say bm {}, am {} (position {}: {})",
                        or_none(&letters(&j.best())),
                        or_none(&letters(&j.avoid())),
                        j.result.map_or("?", |r| r.name()),
                        j.describe()
                    ))
                }
                Some(_) => None,
            };
            match problem {
                None => report.right += 1,
                Some(why) => report.wrong.push(format!(
                    "{}:{line}: {id}: the file says {said}; {why}",
                    file.file
                )),
            }
        }
    }
    report
}

fn sorted(moves: &[crate::rules::Move]) -> Vec<crate::rules::Move> {
    let mut moves = moves.to_vec();
    moves.sort();
    moves
}

fn or_none(text: &str) -> &str {
    if text.is_empty() { "none" } else { text }
}
