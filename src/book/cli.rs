//! The `krou book` command line: build a book, probe a position.

use super::build::{Plan, build};
use super::file::Book;
use crate::egdb::Tables;
use crate::rules::{GrandSlam, Position};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// `krou book …` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book by drop-out expansion from the start position (see protocol.md, OwnBook).
    Build {
        /// The book file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Positions to search (1 to 1,000,000).
        #[arg(long, value_name = "N", default_value_t = Plan::default().positions,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
        positions: usize,
        /// Nodes searched per position (at least 1,000, so that every move gets a score).
        #[arg(long, value_name = "K", default_value_t = Plan::default().nodes,
              value_parser = clap::value_parser!(u64).range(1_000..))]
        nodes: u64,
        /// Positions searched at once, one thread each (1 to 64).
        #[arg(long, value_name = "T", default_value_t = Plan::default().threads,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
        threads: usize,
        /// Endgame tables to this many seeds for the searches (built in memory first).
        #[arg(long, value_name = "S", default_value_t = 12,
              value_parser = clap::value_parser!(u8).range(0..=16))]
        table_seeds: u8,
    },
    /// Print the book's moves for a position with their scores, best first.
    Probe {
        /// The position, e.g. `4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`.
        diagram: Position,
        /// A book file (default: the book built into Krou).
        #[arg(long, value_name = "FILE")]
        book: Option<PathBuf>,
    },
}

/// Runs a `krou book` subcommand.
pub fn run(command: BookCommand) -> ExitCode {
    match command {
        BookCommand::Build {
            out,
            positions,
            nodes,
            threads,
            table_seeds,
        } => {
            // The book goes to a file beside the output, renamed at the end: an unwritable path
            // fails now, not after the build, and a stopped build leaves no half book.
            let partial = out.with_extension("partial");
            if let Err(e) = std::fs::write(&partial, b"") {
                eprintln!("krou book build: {}: {e}", partial.display());
                return ExitCode::FAILURE;
            }
            let start = Instant::now();
            let tables = Arc::new(Tables::build(GrandSlam::NoCapture, table_seeds, threads));
            let plan = Plan {
                positions,
                nodes,
                threads,
                ..Plan::default()
            };
            let book = build(&plan, Some(tables), &|done| {
                if done % 100 < plan.threads.max(1) {
                    eprintln!("{done} positions ({:.0?})", start.elapsed());
                }
            });
            if book.is_empty() {
                let _ = std::fs::remove_file(&partial);
                eprintln!("krou book build: no position could be scored; nothing written");
                return ExitCode::FAILURE;
            }
            let written = std::fs::write(&partial, book.to_bytes())
                .and_then(|()| std::fs::rename(&partial, &out));
            match written {
                Ok(()) => {
                    eprintln!("wrote {} positions to {}", book.len(), out.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("krou book build: {}: {e}", out.display());
                    ExitCode::FAILURE
                }
            }
        }
        BookCommand::Probe { diagram, book } => {
            let loaded;
            let book = match book {
                None => super::shipped(),
                Some(path) => match Book::read(&path) {
                    Ok(b) => {
                        loaded = b;
                        &loaded
                    }
                    Err(e) => {
                        eprintln!("krou book probe: {}: {e}", path.display());
                        return ExitCode::FAILURE;
                    }
                },
            };
            let moves = book.moves(&diagram);
            if moves.is_empty() {
                println!("{diagram}: not in the book");
            }
            for (mv, score) in moves {
                println!("{mv} {score:+}");
            }
            ExitCode::SUCCESS
        }
    }
}
