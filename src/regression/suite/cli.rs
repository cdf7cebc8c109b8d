//! `krou suite run | make | check`: the command line.

use super::engine::Setup;
use super::parse::{SuiteFile, read_file};
use super::report::{self, Threshold};
use super::run::{self, Limit, Verdict};
use super::{check, make, make_search};
use crate::egdb::{MAX_SEEDS, Tables, default_dir};
use crate::regression::junit;
use std::io::Write as _;
use std::path::{Path, PathBuf};
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
    /// An earlier run's result file: say which positions are newly solved or newly failed.
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

/// `krou suite make …`.
#[derive(clap::Subcommand, Debug)]
pub enum MakeCommand {
    /// Positions whose answers the endgame tables prove, kept where a shallow search fails.
    Proven(ProvenArgs),
    /// Middle-game positions from self-play games, answered by a long search.
    Search(SearchArgs),
}

/// `krou suite make proven`.
#[derive(clap::Args, Debug)]
pub struct ProvenArgs {
    /// The suite file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The endgame table directory (`krou egdb build --out DIR`); default: the data directory.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The smallest seed count.
    #[arg(long, default_value_t = 13)]
    from: u8,
    /// The largest seed count (at most the largest table in DIR).
    #[arg(long, default_value_t = 20)]
    to: u8,
    /// Positions per seed count.
    #[arg(long, default_value_t = 120)]
    per_count: usize,
    /// Another number of positions for one seed count, `SEEDS:N` (repeatable).
    #[arg(long = "count", value_name = "SEEDS:N", value_parser = seeds_count)]
    counts: Vec<(u8, usize)>,
    /// The depth of the shallow search a kept position must fool.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// The most random boards tried per seed count.
    #[arg(long, default_value_t = 3_000_000)]
    max_tries: usize,
}

/// `krou suite make search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// The suite file to write; an unfinished one is resumed after its last finished game.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The endgame table directory the searches use (up to `--max-seeds`).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The largest table loaded (fixed, so that the searches are the same everywhere).
    #[arg(long, default_value_t = 12)]
    max_seeds: u8,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions wanted.
    #[arg(long, default_value_t = 220)]
    count: usize,
    /// The most games played.
    #[arg(long, default_value_t = 1_000)]
    max_games: usize,
    /// Nodes a move in the games.
    #[arg(long, default_value_t = 20_000)]
    game_nodes: u64,
    /// The depth every move of a position is analysed to.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// The margin in seeds the best move must keep over every other.
    #[arg(long, default_value_t = 3)]
    gap: i32,
    /// Fewest seeds on the board of a position analysed.
    #[arg(long, default_value_t = 20)]
    min_seeds: u8,
    /// Analyse every how many plies of a game.
    #[arg(long, default_value_t = 4)]
    stride: usize,
}

/// `krou suite check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Suite files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The endgame table directory; default: the data directory.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

fn seeds_count(text: &str) -> Result<(u8, usize), String> {
    let bad = || format!("'{text}' is not SEEDS:N (e.g. 13:200)");
    let (seeds, n) = text.split_once(':').ok_or_else(bad)?;
    Ok((
        seeds.parse().map_err(|_| bad())?,
        n.parse().map_err(|_| bad())?,
    ))
}

/// Runs a `krou suite` command.
pub fn run(command: SuiteCommand) -> ExitCode {
    let result = match command {
        SuiteCommand::Run(args) => run_suites(&args),
        SuiteCommand::Make {
            kind: MakeCommand::Proven(args),
        } => make_proven(&args),
        SuiteCommand::Make {
            kind: MakeCommand::Search(args),
        } => make_searched(&args),
        SuiteCommand::Check(args) => check_suites(&args),
    };
    result.unwrap_or_else(|e| {
        eprintln!("krou suite: {e}");
        ExitCode::from(2)
    })
}

fn read_all(paths: &[PathBuf]) -> Result<Vec<SuiteFile>, String> {
    paths
        .iter()
        .map(|p| read_file(p).map_err(|e| e.to_string()))
        .collect()
}

/// Checks that `path` can be written, without emptying it (it may be the `--previous` file).
fn writable(path: &Path, what: &str) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(|_| ())
        .map_err(|e| format!("cannot write {what} {}: {e}", path.display()))
}

fn write(path: &Path, what: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {what} {}: {e}", path.display()))
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
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --previous {}: {e}", path.display()))?;
            Some(report::read_results(&path.display().to_string(), &text)?)
        }
        None => None,
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
    let timeout = Duration::from_millis(args.timeout_ms + 2 * args.movetime.unwrap_or(0));
    let verbose = args.verbose;
    let outcomes = run::run(&files, &setup, &limit, timeout, &mut |o| {
        print_outcome(o, verbose)
    });
    print!("{}", report::table(&outcomes));
    if let Some(previous) = &previous {
        print!("{}", report::changes(&outcomes, previous));
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

fn load_tables(dir: Option<&Path>, max_seeds: u8) -> Result<Tables, String> {
    let dir = dir.map_or_else(default_dir, Path::to_path_buf);
    let (tables, error) = Tables::load(&dir, super::judge::RULE, max_seeds);
    if let Some(e) = error {
        return Err(format!("{}: {e}", dir.display()));
    }
    match tables.max_seeds() {
        Some(max) => {
            eprintln!("tables 0-{max} seeds from {}", dir.display());
            Ok(tables)
        }
        None => Err(format!("no endgame tables in {}", dir.display())),
    }
}

fn header(command: &str, notes: &[&str]) -> String {
    let mut text = format!("# Generated by: {command}\n");
    for note in notes {
        text += &format!("# {note}\n");
    }
    text
}

fn make_proven(args: &ProvenArgs) -> Result<ExitCode, String> {
    writable(&args.out, "--out")?;
    let tables = load_tables(args.dir.as_deref(), args.to)?;
    let max = tables.max_seeds().unwrap_or(0);
    if args.to > max || args.from > args.to {
        return Err(format!(
            "--from {} --to {}: the tables hold 0-{max} seeds",
            args.from, args.to
        ));
    }
    let counts = (args.from..=args.to)
        .map(|n| {
            let custom = args.counts.iter().rev().find(|(s, _)| *s == n);
            (n, custom.map_or(args.per_count, |c| c.1))
        })
        .collect();
    let plan = make::Plan {
        seed: args.seed,
        counts,
        depth: args.depth,
        max_tries: args.max_tries,
    };
    let entries = make::make(&tables, &plan, &mut |line| eprintln!("{line}"));
    let mut text = header(
        &format!("krou suite make proven {}", command_line()),
        &[
            "Proven by the endgame tables (the game's result); kept where Krou's search at the",
            "given depth, without tables, plays a move outside bm. Check: krou suite check FILE",
        ],
    );
    for entry in &entries {
        text += &format!("{entry}\n");
    }
    write(&args.out, "--out", &text)?;
    eprintln!(
        "{} positions written to {}",
        entries.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The arguments after `krou suite make <kind>`, for the file's header.
fn command_line() -> String {
    std::env::args().skip(4).collect::<Vec<_>>().join(" ")
}

fn make_searched(args: &SearchArgs) -> Result<ExitCode, String> {
    let (first_game, earlier) = resume_point(&args.out)?;
    let tables = load_tables(args.dir.as_deref(), args.max_seeds.min(MAX_SEEDS))?;
    let plan = make_search::Plan {
        seed: args.seed,
        count: args.count,
        max_games: args.max_games,
        game_nodes: args.game_nodes,
        depth: args.depth,
        gap: args.gap,
        min_seeds: args.min_seeds,
        stride: args.stride,
    };
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&args.out)
        .map_err(|e| format!("cannot write --out {}: {e}", args.out.display()))?;
    if first_game == 0 {
        let text = header(
            &format!("krou suite make search {}", command_line()),
            &[
                "Searched, not proven: every move searched to the given depth (MultiPV); kept",
                "where the best move is the only proven win or beats every other by --gap seeds.",
                "'# game N: …' lines mark finished games (a stopped run resumes after the last).",
            ],
        );
        file.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    }
    let mut failed = None;
    let mut total = earlier.len();
    make_search::make(
        &plan,
        Some(std::sync::Arc::new(tables)),
        first_game,
        &earlier,
        &mut |game, entries| {
            total += entries.len();
            let mut text: String = entries.iter().map(|e| format!("{e}\n")).collect();
            text += &format!("# game {game}: {} kept, {total} in all\n", entries.len());
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                failed.get_or_insert(e.to_string());
            }
            eprintln!("game {game}: {} kept, {total} in all", entries.len());
        },
    );
    match failed {
        Some(e) => Err(format!("cannot write --out {}: {e}", args.out.display())),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Where a search suite file left off: the next game and the entries already kept.
fn resume_point(path: &Path) -> Result<(usize, Vec<super::Entry>), String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok((0, Vec::new()));
    };
    let suite =
        super::parse::parse_text(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    let last_game = text
        .lines()
        .filter_map(|l| l.strip_prefix("# game "))
        .filter_map(|l| l.split(':').next()?.parse::<usize>().ok())
        .max();
    let entries = suite.entries.into_iter().map(|(_, e)| e).collect();
    Ok((last_game.map_or(0, |g| g + 1), entries))
}

fn check_suites(args: &CheckArgs) -> Result<ExitCode, String> {
    let files = read_all(&args.files)?;
    let tables = load_tables(args.dir.as_deref(), MAX_SEEDS)?;
    let report = check::check(&files, &tables);
    for wrong in &report.wrong {
        println!("WRONG {wrong}");
    }
    println!(
        "{} right, {} wrong, {} not checked (not src \"proven\", or more seeds than the tables hold)",
        report.right,
        report.wrong.len(),
        report.skipped
    );
    Ok(if report.wrong.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
