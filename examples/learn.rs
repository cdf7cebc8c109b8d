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
        /// Threads playing batches (1 to 64).
        #[arg(long, default_value_t = 2,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
        threads: usize,
        /// Seeds the endgame tables cover, for the search and the exact labels [default: 12
        /// when built; with --tables, every layer the directory holds].
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=30))]
        table_seeds: Option<u8>,
        /// Play with the linear evaluation instead of the shipped network.
        #[arg(long)]
        linear: bool,
        /// Search with internal iterative reduction, as today's search does (the shipped
        /// weights' games were played without it).
        #[arg(long)]
        internal_reduction: bool,
        /// Read the endgame tables from this directory (as `krou egdb build` writes them),
        /// layers 0 to `--table-seeds` (which may then be up to 30), instead of building them.
        #[arg(long, value_name = "DIR")]
        tables: Option<PathBuf>,
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
        /// Hold out whole batch files (one in 20) instead of one position in 20: an honest
        /// test, as positions of one game are alike (the shipped weights hold out positions).
        #[arg(long)]
        hold_out_batches: bool,
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
            internal_reduction,
            tables,
        } => {
            // Games "of the network" with no network loaded would be games of the linear one.
            if let Some(error) = krou::search::net::shipped_error().filter(|_| !linear) {
                return Err(format!(
                    "the compiled-in weights do not load ({error}): build with the width they \
                     were trained at (`--features narrow-net` for 32 units), or play --linear"
                ));
            }
            let start = Instant::now();
            let tables = match (tables, table_seeds) {
                (Some(tables_dir), wanted) => {
                    let (tables, error) = Tables::load(
                        &tables_dir,
                        GrandSlam::NoCapture,
                        wanted.unwrap_or(krou::egdb::MAX_SEEDS),
                    );
                    if let Some(error) = error {
                        return Err(error.to_string());
                    }
                    match (tables.max_seeds(), wanted) {
                        (None, _) => {
                            return Err(format!("{}: holds no tables", tables_dir.display()));
                        }
                        (Some(held), Some(wanted)) if held != wanted => {
                            return Err(format!(
                                "{}: holds tables to {held} seeds, not {wanted}",
                                tables_dir.display()
                            ));
                        }
                        _ => tables,
                    }
                }
                (None, Some(wanted)) if wanted > 16 => {
                    return Err("building tables of more than 16 seeds here would take too \
                                long: build them with `krou egdb build` and pass --tables"
                        .to_string());
                }
                (None, wanted) => {
                    Tables::build(GrandSlam::NoCapture, wanted.unwrap_or(12), threads)
                }
            };
            let tables = Arc::new(tables);
            eprintln!(
                "tables to {} seeds ready in {:.1?}",
                tables.max_seeds().unwrap_or(0),
                start.elapsed()
            );
            let plan = selfplay::Plan {
                games_per_batch: games,
                nodes,
                learned_evaluation: !linear,
                internal_reduction,
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
            hold_out_batches,
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
            // Examples with their file's number; the linear evaluation's error on the positions
            // held out, for comparison.
            let mut examples = Vec::new();
            let mut linear = Vec::new();
            for (number, file) in files.iter().enumerate() {
                for s in sample::read_file(file)? {
                    let Some(example) = train::example(&s, plan.result_weight) else {
                        continue;
                    };
                    let gain = s.position().map_or(0.0, |p| {
                        f64::from(evaluate_linear(&p)) / 100.0 - f64::from(s.store_margin())
                    });
                    linear.push((gain - f64::from(example.target)).powi(2));
                    examples.push((number, example));
                }
            }
            eprintln!("{} positions from {} batches", examples.len(), files.len());
            let every = plan.validation_every;
            let (training, held_out, linear_held): (Vec<_>, Vec<_>, Vec<f64>) = if hold_out_batches
            {
                let held = |n: usize| n % every == 0;
                (
                    examples
                        .iter()
                        .filter(|e| !held(e.0))
                        .map(|e| e.1)
                        .collect(),
                    examples.iter().filter(|e| held(e.0)).map(|e| e.1).collect(),
                    examples
                        .iter()
                        .zip(&linear)
                        .filter(|(e, _)| held(e.0))
                        .map(|(_, &l)| l)
                        .collect(),
                )
            } else {
                let all: Vec<_> = examples.iter().map(|e| e.1).collect();
                let (training, held_out) = train::split(&all, every);
                (
                    training,
                    held_out,
                    linear.iter().step_by(every.max(2)).copied().collect(),
                )
            };
            eprintln!(
                "held out ({} positions), the linear evaluation: rms error {:.3} seeds",
                held_out.len(),
                (linear_held.iter().sum::<f64>() / linear_held.len().max(1) as f64).sqrt()
            );
            let start = Instant::now();
            let model = train::train(&plan, training, &held_out, &mut |epoch, t, h| {
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
