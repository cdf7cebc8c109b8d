//! The learned evaluation's pipeline: makes self-play data and trains the network on it.
//!
//! - `cargo run --release --example learn -- generate <dir> --batches N`: plays batches of
//!   self-play games into `<dir>` (resumes: batches already there are kept).
//! - `cargo run --release --example learn -- train <dir> --out src/search/net.bin`: trains on
//!   every batch in `<dir>` and writes the weights file.
//!
//! `scripts/train-eval` runs both with the settings that made the shipped weights.

use clap::{Parser, Subcommand};
use krou::egdb::Tables;
use krou::learn::{sample, selfplay, train};
use krou::rules::GrandSlam;
use krou::search::eval::evaluate_linear;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Parser)]
#[command(about = "Makes the learned evaluation's data and trains it")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play batches into a directory.
    Generate {
        /// Where the batch files go.
        dir: PathBuf,
        /// Batches to have in the directory when done (batches 0 to N-1).
        #[arg(long)]
        batches: usize,
        /// Games per batch.
        #[arg(long, default_value_t = selfplay::Plan::default().games_per_batch)]
        games: usize,
        /// Nodes searched per move.
        #[arg(long, default_value_t = selfplay::Plan::default().nodes)]
        nodes: u64,
        /// Threads playing batches.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Seeds the endgame tables cover, for the search and the exact labels.
        #[arg(long, default_value_t = 12)]
        table_seeds: u8,
        /// Play with the linear evaluation instead of the shipped network.
        #[arg(long)]
        linear: bool,
    },
    /// Trains the network on the batches of a directory and writes its weights.
    Train {
        /// The directory of batch files.
        dir: PathBuf,
        /// The weights file to write.
        #[arg(long)]
        out: PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = train::Plan::default().epochs)]
        epochs: usize,
        /// The game result's share of the target (the search score has the rest).
        #[arg(long, default_value_t = train::Plan::default().result_weight)]
        result_weight: f32,
        /// Adam's initial step size.
        #[arg(long, default_value_t = train::Plan::default().learning_rate)]
        learning_rate: f32,
    },
}

fn main() -> std::process::ExitCode {
    match run(Cli::parse().command) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("learn: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Generate {
            dir,
            batches,
            games,
            nodes,
            threads,
            table_seeds,
            linear,
        } => {
            let start = Instant::now();
            let tables = Arc::new(Tables::build(GrandSlam::NoCapture, table_seeds, threads));
            eprintln!(
                "tables to {table_seeds} seeds built in {:.1?}",
                start.elapsed()
            );
            let plan = selfplay::Plan {
                games_per_batch: games,
                nodes,
                learned_evaluation: !linear,
                ..selfplay::Plan::default()
            };
            selfplay::generate(&plan, &dir, batches, threads, Some(tables), &|batch, n| {
                eprintln!("batch {batch}: {n} positions ({:.0?})", start.elapsed());
            })
            .map_err(|e| format!("{}: {e}", dir.display()))
        }
        Command::Train {
            dir,
            out,
            epochs,
            result_weight,
            learning_rate,
        } => {
            let plan = train::Plan {
                epochs,
                result_weight,
                learning_rate,
                ..train::Plan::default()
            };
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "bin"))
                .collect();
            files.sort();
            let mut examples = Vec::new();
            let mut linear = (0f64, 0usize);
            for file in &files {
                for s in sample::read_file(file)? {
                    let Some(example) = train::example(&s, plan.result_weight) else {
                        continue;
                    };
                    if examples.len() % plan.validation_every == 0 {
                        if let Some(position) = s.position() {
                            let gain = f64::from(evaluate_linear(&position)) / 100.0
                                - f64::from(s.store_margin());
                            linear.0 += (gain - f64::from(example.target)).powi(2);
                            linear.1 += 1;
                        }
                    }
                    examples.push(example);
                }
            }
            eprintln!("{} positions from {} batches", examples.len(), files.len());
            eprintln!(
                "held out, the linear evaluation: rms error {:.3} seeds",
                (linear.0 / linear.1.max(1) as f64).sqrt()
            );
            let start = Instant::now();
            let (model, held_out) = train::train(&plan, &examples, &mut |epoch, t, h| {
                eprintln!(
                    "epoch {epoch}: rms error {t:.3} seeds, held out {h:.3} ({:.0?})",
                    start.elapsed()
                );
            });
            let network = model
                .quantised()
                .ok_or("a weight is too large for the file")?;
            let rounded: f64 = held_out
                .iter()
                .map(|e| {
                    (f64::from(network.future_gain_of(&e.active)) / 100.0 - f64::from(e.target))
                        .powi(2)
                })
                .sum::<f64>()
                / held_out.len().max(1) as f64;
            eprintln!(
                "held out, rounded weights: rms error {:.3} seeds",
                rounded.sqrt()
            );
            let bytes = network
                .to_bytes()
                .ok_or("a weight is too large for the file")?;
            std::fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
            eprintln!("wrote {}", out.display());
            Ok(())
        }
    }
}
