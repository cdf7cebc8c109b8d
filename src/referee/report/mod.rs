//! The match report: one self-contained HTML page (inline SVG drawn by `plotters`, no script,
//! nothing fetched) from one or more `krou match --json` files.
//!
//! The page shows per pairing the Elo estimate with its 95% interval against games played, the
//! LLR between its bounds under `--sprt`, and the pentanomial counts; the time each engine used
//! per move by ply with its time control; and per game each engine's evaluation by ply, linked
//! to the game's record (or its moves, shown in the page). Every figure is computed again from
//! the games in round order ([`series`]), with the crate's own statistics.
//!
//! [`model`] reads the JSON (refusing malformed files with where and what, see [`json`]),
//! [`plot`] draws and [`page`] lays out. Several files, the shards of one match, are combined by
//! [`merge`](crate::referee::records::merge), the code of `krou match merge`, so the page shows the
//! figures that `krou match merge` prints for them.

pub mod json;
pub mod model;
pub mod page;
pub mod plot;
pub mod series;

pub use json::BadReport;

use crate::referee::records::merge;
use crate::referee::records::shard_file::ShardFile;
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// `krou match report FILE.json… -o FILE.html`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// JSON summaries written by `krou match --json` or `krou match merge --json` (several: the
    /// shards of one match, combined as `krou match merge` does).
    #[arg(value_name = "FILE.json", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// The HTML page to write.
    #[arg(short = 'o', long = "out", value_name = "FILE.html")]
    pub out: PathBuf,
}

/// Why no report was written.
#[derive(Debug)]
pub enum ReportError {
    /// A JSON file that is not a match summary.
    Bad(BadReport),
    /// Files that `krou match merge` would refuse: not summaries of format 2, of different
    /// matches, overlapping shards; its message, naming the files.
    Merge(String),
    /// A plot that could not be drawn.
    Draw(plot::DrawFailed),
    /// The page could not be written.
    Write {
        /// The page's path.
        file: String,
        /// What went wrong.
        why: std::io::Error,
    },
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Bad(bad) => write!(f, "{bad}"),
            ReportError::Merge(why) => f.write_str(why),
            ReportError::Draw(failed) => write!(f, "{failed}"),
            ReportError::Write { file, why } => write!(f, "cannot write {file}: {why}"),
        }
    }
}

impl std::error::Error for ReportError {}

impl From<BadReport> for ReportError {
    fn from(bad: BadReport) -> Self {
        ReportError::Bad(bad)
    }
}

impl From<plot::DrawFailed> for ReportError {
    fn from(failed: plot::DrawFailed) -> Self {
        ReportError::Draw(failed)
    }
}

/// The page for the match in `value` (a JSON summary; `file` names it in errors).
pub fn html(value: &Value, file: &str) -> Result<String, ReportError> {
    let m = model::read(value, file)?;
    Ok(page::render(&m)?)
}

/// Writes the page of a match just played to `out` (`krou match --report`): `head` is its
/// summary but the games ([`json::head`](crate::referee::records::json::head)), `games` its game entries
/// in round order.
pub fn write(
    head: &Value,
    games: impl IntoIterator<Item = Value>,
    out: &Path,
) -> Result<(), ReportError> {
    let m = model::read_parts(head, games.into_iter().map(Ok), "the match")?;
    save(out, &page::render(&m)?)
}

/// Reads the files and writes their page (`krou match report`). Summaries of format 2 are
/// combined by `krou match merge`'s code (one file too: a whole match, or one shard); a single
/// older file, without `format`, is drawn as it is.
pub fn run(args: &ReportArgs) -> Result<(), ReportError> {
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    crate::referee::records::outputs::check(&[("-o", &args.out)], &inputs)
        .map_err(ReportError::Merge)?;
    let mut files = Vec::new();
    for path in &args.files {
        match ShardFile::read(path) {
            Ok(file) => files.push(file),
            Err(bad) => {
                let m = match (args.files.len(), older(path)) {
                    (1, Some(value)) => model::read(&value, &path.display().to_string())?,
                    _ => return Err(ReportError::Merge(bad.0)),
                };
                return save(&args.out, &page::render(&m)?);
            }
        }
    }
    save(&args.out, &page::render(&merged(&files)?)?)
}

/// The files as one match, as `krou match merge` combines them.
fn merged(files: &[ShardFile]) -> Result<model::Match, ReportError> {
    let (standings, report, games) = merge::merge(files).map_err(|e| ReportError::Merge(e.0))?;
    let names: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
    let label = names.join(" + ");
    let games = games.into_iter().map(|text| {
        serde_json::from_str(&text).map_err(|e| BadReport {
            file: label.clone(),
            at: "games".into(),
            what: format!("a game is not JSON: {e}"),
        })
    });
    let mut head = crate::referee::records::json::head(&standings, &report);
    if let ([file], Some(fields)) = (files, head.as_object_mut()) {
        // One file is shown as it is (a whole match, a merged one, or one shard), not as a
        // merge of one.
        for key in ["shard", "shards_merged", "shards_missing"] {
            match file.head.get(key) {
                Some(value) => fields.insert(key.into(), value.clone()),
                None => fields.remove(key),
            };
        }
    }
    Ok(model::read_parts(&head, games, &label)?)
}

/// The file's JSON if it is an older summary (an object without `format`).
fn older(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str::<Value>(&text)
        .ok()
        .filter(|v| v.is_object() && v.get("format").is_none())
}

fn save(out: &Path, text: &str) -> Result<(), ReportError> {
    std::fs::write(out, text).map_err(|why| ReportError::Write {
        file: out.display().to_string(),
        why,
    })
}
