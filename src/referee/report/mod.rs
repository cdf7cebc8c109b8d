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
//! [`combine`] joins the shards of one match, [`plot`] draws and [`page`] lays out.

pub mod combine;
pub mod json;
pub mod model;
pub mod page;
pub mod plot;
pub mod series;

pub use json::BadReport;

use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// `krou match report FILE.json… -o FILE.html`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReportArgs {
    /// JSON summaries written by `krou match --json` (several: the shards of one match).
    #[arg(value_name = "FILE.json", required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// The HTML page to write.
    #[arg(short = 'o', long = "out", value_name = "FILE.html")]
    pub out: PathBuf,
}

/// Why no report was written.
#[derive(Debug)]
pub enum ReportError {
    /// A file that cannot be read, or is not JSON.
    Read {
        /// The file.
        file: String,
        /// What went wrong.
        why: String,
    },
    /// A JSON file that is not a match summary, or shards of different matches.
    Bad(BadReport),
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
            ReportError::Read { file, why } => write!(f, "{file}: {why}"),
            ReportError::Bad(bad) => write!(f, "{bad}"),
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

/// Writes the page for the match in `value` to `out` (`krou match --report`).
pub fn write(value: &Value, out: &Path) -> Result<(), ReportError> {
    let text = html(value, "the match")?;
    save(out, &text)
}

/// Reads the files, combines them into one match and writes its page (`krou match report`).
pub fn run(args: &ReportArgs) -> Result<(), ReportError> {
    let mut shards = Vec::new();
    for path in &args.files {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ReportError::Read {
            file: file.clone(),
            why: e.to_string(),
        })?;
        let value: Value = serde_json::from_str(&text).map_err(|e| ReportError::Read {
            file: file.clone(),
            why: format!("not JSON: {e}"),
        })?;
        let m = model::read(&value, &file)?;
        shards.push((file, m));
    }
    let m = combine::combine(shards)?;
    save(&args.out, &page::render(&m)?)
}

fn save(out: &Path, text: &str) -> Result<(), ReportError> {
    std::fs::write(out, text).map_err(|why| ReportError::Write {
        file: out.display().to_string(),
        why,
    })
}
