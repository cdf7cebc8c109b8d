//! The `krou egdb` command line: build tables into a directory, probe a position.

use super::default_set;
use super::progress::BuildProgress;
use super::{Progress, Tables};
use crate::rules::{GrandSlam, Position};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Seeds up to which `probe` builds missing tables in memory instead of failing.
const PROBE_BUILD_SEEDS: u8 = 12;

/// `krou egdb …` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build the tables for 0 to N seeds, one file per seed count (resumes where it stopped).
    Build {
        /// The largest seed count to build, at most 30. Without it, 0–20; and without --out
        /// too, the set the engine builds by itself in its default directory: 0–20, or as
        /// $KROU_EGDB_BUILD says (off: the built-in 0–12; a count from 12 to 30). 20 gained as
        /// much in games as 16 or 24 (about 2 minutes on two cores, 216 MB of files); 0–26
        /// seeds take about half an hour and 7 GB of memory.
        #[arg(long, value_name = "N",
              value_parser = clap::value_parser!(u8).range(0..=i64::from(super::MAX_SEEDS)))]
        seeds: Option<u8>,
        /// Directory for the files (default: see `krou egdb probe --help`).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Threads to use (default: every core).
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
        /// Grand-slam rule: no-capture, forbidden or capture-all.
        #[arg(long, value_name = "RULE", default_value = "no-capture")]
        grand_slam: GrandSlam,
    },
    /// Print the table value of a position and every move's value, best first.
    Probe {
        /// The position, e.g. `0-1-0-0-0-1-0-0-0-0-0-0-23-23-S`.
        diagram: Position,
        /// Directory of the files (default: $KROU_EGDB_DIR, else ~/.local/share/krou/egdb).
        /// Missing tables up to 12 seeds are built in memory.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// Grand-slam rule: no-capture, forbidden or capture-all.
        #[arg(long, value_name = "RULE", default_value = "no-capture")]
        grand_slam: GrandSlam,
    },
}

/// The default table directory: `$KROU_EGDB_DIR`, else `$XDG_DATA_HOME/krou/egdb`, else
/// `$HOME/.local/share/krou/egdb`, else `egdb` in the working directory.
pub fn default_dir() -> PathBuf {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("KROU_EGDB_DIR") {
        return dir.into();
    }
    if let Some(data) = var("XDG_DATA_HOME") {
        return PathBuf::from(data).join("krou").join("egdb");
    }
    match var("HOME") {
        Some(home) => PathBuf::from(home).join(".local/share/krou/egdb"),
        None => PathBuf::from("egdb"),
    }
}

/// Runs one `krou egdb` subcommand.
pub fn run(command: EgdbCommand) -> ExitCode {
    let result = match command {
        EgdbCommand::Build {
            seeds,
            out,
            threads,
            grand_slam,
        } => {
            let seeds = seeds.unwrap_or_else(|| {
                if out.is_some() {
                    default_set::DEFAULT_SEEDS
                } else {
                    default_set::from_env(true)
                }
            });
            build(seeds, out.unwrap_or_else(default_dir), threads, grand_slam)
        }
        EgdbCommand::Probe {
            diagram,
            dir,
            grand_slam,
        } => probe(&diagram, dir.unwrap_or_else(default_dir), grand_slam),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            log::error!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn build(seeds: u8, out: PathBuf, threads: Option<usize>, rule: GrandSlam) -> Result<(), String> {
    let threads = threads
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .max(1);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let plural = if threads == 1 { "" } else { "s" };
    eprintln!(
        "building {rule} tables up to {seeds} seeds in {} on {threads} thread{plural}",
        out.display()
    );
    let started = Instant::now();
    let progress = BuildProgress::default();
    let report = |p: Progress| progress.report(p);
    Tables::build_into(&out, rule, seeds, threads, &report).map_err(|e| e.to_string())?;
    eprintln!(
        "done: 0 to {seeds} seeds in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(position: &Position, dir: PathBuf, rule: GrandSlam) -> Result<(), String> {
    let seeds = position.seeds_on_board();
    let (mut tables, refused) = Tables::load(&dir, rule, seeds);
    if let Some(e) = refused {
        log::warn!("{e}");
    }
    if tables.max_seeds().is_none_or(|m| m < seeds) && seeds <= PROBE_BUILD_SEEDS {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        while tables.max_seeds().is_none_or(|m| m < seeds) {
            tables.build_next(threads, &|_| {});
        }
    }
    if seeds > super::MAX_SEEDS {
        return Err(format!(
            "{seeds} seeds on the board; tables cover at most {} seeds",
            super::MAX_SEEDS
        ));
    }
    let bounds = tables.probe(position).ok_or_else(|| {
        format!(
            "no {rule} table for {seeds} seeds in {} (build it with `krou egdb build --seeds {seeds}`)",
            dir.display()
        )
    })?;
    let mut out = std::io::stdout().lock();
    let line = |out: &mut std::io::StdoutLock, text: String| -> Result<(), String> {
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(|e| e.to_string())
    };
    let kind = if bounds.value().is_some() {
        "exact"
    } else {
        "bounds; best play loops"
    };
    line(&mut out, format!("value {bounds} ({kind})"))?;
    let moves = tables.moves(position).unwrap_or_default();
    let best: Vec<String> = moves
        .iter()
        .filter(|m| m.bounds.lo == bounds.lo)
        .map(|m| m.mv.to_string())
        .collect();
    if best.is_empty() {
        line(&mut out, "best none: the game is over".to_string())?;
    } else {
        line(&mut out, format!("best {}", best.join(" ")))?;
    }
    for m in &moves {
        let kind = if m.captured > 0 { "capture" } else { "quiet" };
        line(&mut out, format!("move {} {} {kind}", m.mv, m.bounds))?;
    }
    Ok(())
}
