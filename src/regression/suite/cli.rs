//! `krou suite run | make | check`: the command line.

use super::cli_hard;
use super::cli_make::{self, CheckArgs};
use super::engine::Setup;
use super::files::{read_all, writable, write};
use super::report::{self, Threshold};
use super::run::{self, Limit, Verdict};
use crate::regression::junit;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `krou suite …`.
#[derive(clap::Subcommand, Debug)]
pub enum SuiteCommand {
    /// Run suites through an engine and score the moves it plays.
    Run(RunArgs),
    /// Generate a suite.
    Make {
        /// Which kind.
        #[command(subcommand)]
        kind: MakeCommand,
    },
    /// Check a proven suite's answers against the endgame tables.
    Check(CheckArgs),
}

/// `krou suite make …`.
#[derive(clap::Subcommand, Debug)]
pub enum MakeCommand {
    /// Positions whose answers the endgame tables prove, kept where a shallow search fails.
    Proven(cli_make::ProvenArgs),
    /// Middle-game positions from self-play games, answered by a long search.
    Search(cli_make::SearchArgs),
    /// Positions beyond the engine's default tables, proven by larger ones, kept where the
    /// engine as it plays (its default tables, a few thousand nodes) fails.
    Hard(cli_hard::HardArgs),
}

/// `krou suite run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Suite files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Search each position this many milliseconds (`go movetime`).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search each position to this depth (`go depth`).
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Search each position this many nodes (`go nodes`).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// An engine option, `Name=Value` (repeatable), sent as `setoption` after `uciok`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Write one line per position (id, move played, solved/failed/error) to this file.
    #[arg(long, value_name = "FILE")]
    results: Option<PathBuf>,
    /// An earlier run's result file (its --results): say which positions are newly solved or
    /// newly failed. A file that does not exist yet makes this a first run: nothing to compare,
    /// so that `--previous results.txt --results results.txt` works from the first run on.
    #[arg(long, value_name = "FILE")]
    previous: Option<PathBuf>,
    /// Exit with status 1 when fewer positions are solved: a count (`250`) or a percentage of
    /// the positions run (`80%`).
    #[arg(long, value_name = "N|P%")]
    min_solved: Option<Threshold>,
    /// Also write the results as JUnit XML (one test case per position) to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Longest wait for a `bestmove` beyond the movetime (and for `uciok`/`readyok`), in ms.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    timeout_ms: u64,
    /// Print a line for every position, solved ones too (else only failures and errors).
    #[arg(long)]
    verbose: bool,
    /// Show the engine's stderr (its logs), hidden by default.
    #[arg(long)]
    engine_stderr: bool,
    /// The engine command and its arguments (after `--`); this `krou` by default.
    #[arg(last = true)]
    engine: Vec<String>,
}

/// Runs a `krou suite` command.
pub fn run(command: SuiteCommand) -> ExitCode {
    let result = match command {
        SuiteCommand::Run(args) => run_suites(&args),
        SuiteCommand::Make {
            kind: MakeCommand::Proven(args),
        } => cli_make::make_proven(&args),
        SuiteCommand::Make {
            kind: MakeCommand::Search(args),
        } => cli_make::make_searched(&args),
        SuiteCommand::Make {
            kind: MakeCommand::Hard(args),
        } => cli_hard::make_hard(&args),
        SuiteCommand::Check(args) => cli_make::check_suites(&args),
    };
    result.unwrap_or_else(|e| {
        eprintln!("krou suite: {e}");
        ExitCode::from(2)
    })
}

fn engine_command(args: &RunArgs) -> Result<Vec<String>, String> {
    if !args.engine.is_empty() {
        return Ok(args.engine.clone());
    }
    let me = std::env::current_exe().map_err(|e| format!("cannot find krou itself: {e}"))?;
    Ok(vec![me.display().to_string()])
}

fn options(args: &RunArgs) -> Result<Vec<(String, String)>, String> {
    args.options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(format!("--option '{o}' is not Name=Value")),
        })
        .collect()
}

fn run_suites(args: &RunArgs) -> Result<ExitCode, String> {
    let files = read_all(&args.files)?;
    if let Some(duplicate) = run::duplicate_id(&files) {
        return Err(duplicate);
    }
    let limit = Limit {
        movetime: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
    };
    if limit.is_empty() {
        return Err("give a limit: --movetime MS, --depth N or --nodes N".to_string());
    }
    let previous = match &args.previous {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => {
                Previous::Results(report::read_results(&path.display().to_string(), &text)?)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Previous::FirstRun(path.clone()),
            Err(e) => return Err(format!("cannot read --previous {}: {e}", path.display())),
        },
        None => Previous::None,
    };
    for (path, what) in [(&args.results, "--results"), (&args.junit, "--junit")] {
        if let Some(path) = path {
            writable(path, what)?;
        }
    }
    let setup = Setup {
        command: engine_command(args)?,
        options: options(args)?,
        stderr: args.engine_stderr,
        handshake_timeout: Duration::from_millis(args.timeout_ms),
    };
    // The engine is tried once before the first position: one that cannot start or answer
    // the handshake stops the run (exit status 2) instead of scoring every position an error.
    super::engine::Engine::start(&setup)
        .map_err(|e| {
            format!(
                "the engine '{}' does not start: {e}",
                setup.command.join(" ")
            )
        })?
        .quit();
    let wait = args.movetime.unwrap_or(0).saturating_mul(2);
    let timeout = Duration::from_millis(args.timeout_ms.saturating_add(wait));
    let verbose = args.verbose;
    let outcomes = run::run(&files, &setup, &limit, timeout, &mut |o| {
        print_outcome(o, verbose)
    });
    print!("{}", report::table(&outcomes));
    match &previous {
        Previous::Results(previous) => print!("{}", report::changes(&outcomes, previous)),
        Previous::FirstRun(path) => println!(
            "no earlier results at {}: a first run, nothing to compare",
            path.display()
        ),
        Previous::None => {}
    }
    if let Some(path) = &args.results {
        write(path, "--results", &report::results_file(&outcomes))?;
    }
    if let Some(path) = &args.junit {
        let xml = junit::document(
            "krou suite run",
            &report::junit_suites(&outcomes),
            &junit::now_timestamp(),
        );
        write(path, "--junit", &xml)?;
    }
    let solved = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Solved)
        .count();
    Ok(match args.min_solved {
        Some(min) if !min.reached(solved, outcomes.len()) => {
            println!("below --min-solved: {solved} of {} solved", outcomes.len());
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    })
}

fn print_outcome(o: &run::Outcome, verbose: bool) {
    let played = o.played.as_deref().unwrap_or("-");
    match o.verdict {
        Verdict::Solved if verbose => println!("ok {}: played {played}", o.id),
        Verdict::Solved => return,
        Verdict::Failed => println!(
            "FAIL {} ({}:{}): played {played}, expected {}",
            o.id, o.file, o.line, o.expected
        ),
        Verdict::Error => println!(
            "ERROR {} ({}:{}): {}",
            o.id,
            o.file,
            o.line,
            o.error.as_deref().unwrap_or("no answer")
        ),
    }
    let _ = std::io::stdout().flush();
}

/// What `--previous` gave.
enum Previous {
    /// No `--previous`.
    None,
    /// `--previous` names a file that does not exist yet: a first run.
    FirstRun(PathBuf),
    /// The earlier run's verdict per position id.
    Results(std::collections::HashMap<String, super::run::Verdict>),
}
