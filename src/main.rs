//! The `krou` binary: command line parsing, logging to stderr, and dispatch.

use clap::{CommandFactory, Parser, Subcommand};
use krou::rules::{GrandSlam, Position, perft_report};
use std::process::ExitCode;

/// Krou, an Oware (Abapa) engine. With no subcommand it speaks the protocol on stdin/stdout
/// (see protocol.md).
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Start an option at a value (repeatable), as `setoption` would set it, for clients that
    /// send no options: `--option UCI_LimitStrength=true --option UCI_Elo=1200`. The `uci`
    /// answer shows it as the option's default; a client's `setoption` still overrides it.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<krou::protocol::StartValue>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree to a depth, split by first move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start from this diagram instead of the start position.
        #[arg(
            long,
            value_name = "DIAGRAM",
            default_value = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
        )]
        position: Position,
        /// Grand-slam rule: no-capture, forbidden or capture-all.
        #[arg(long, value_name = "RULE", default_value = "no-capture")]
        grand_slam: GrandSlam,
    },
    /// Endgame tables: build them, probe a position.
    Egdb {
        #[command(subcommand)]
        command: krou::egdb::EgdbCommand,
    },
    /// Opening book: build one, probe a position.
    Book {
        #[command(subcommand)]
        command: krou::book::cli::BookCommand,
    },
    /// Search the bench games to a fixed depth; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = krou::search::BENCH_DEPTH)]
        depth: u32,
    },
    /// Replay protocol transcripts against an engine command (see protocol.md).
    Replay(krou::regression::replay::Args),
    /// Record a session between a client and an engine as a transcript (a transparent proxy),
    /// or turn a `krou match --log-dir` log or the Aualé GUI's `--debug` output into one.
    Record(krou::regression::record::Args),
    /// Position suites: run them through an engine, generate them, check them (docs/suites.md).
    Suite {
        #[command(subcommand)]
        command: krou::regression::suite::cli::SuiteCommand,
    },
    /// Play an engine-against-engine match with clocks, statistics and game records.
    Match(Box<krou::referee::MatchCli>),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page of `krou`, or write one page per command into a directory.
    Man {
        /// Write `krou.1`, `krou-match.1`, … into this directory instead.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if cli.command.is_some() && !cli.options.is_empty() {
        Cli::command()
            .error(
                clap::error::ErrorKind::ArgumentConflict,
                "--option sets the engine's options: give it without a subcommand",
            )
            .exit();
    }
    match cli.command {
        None => krou::protocol::run(krou::protocol::StartOptions::from_values(&cli.options)),
        Some(Command::Replay(args)) => args.run(),
        Some(Command::Record(args)) => args.run(),
        Some(Command::Suite { command }) => krou::regression::suite::cli::run(command),
        Some(Command::Perft {
            depth,
            position,
            grand_slam,
        }) => {
            for line in perft_report(&position, depth, grand_slam) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Some(Command::Egdb { command }) => krou::egdb::run(command),
        Some(Command::Book { command }) => krou::book::cli::run(command),
        Some(Command::Bench { depth }) => {
            krou::search::bench(depth)
                .text()
                .iter()
                .for_each(|l| println!("{l}"));
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => krou::referee::main(*args),
        Some(Command::Completions { shell }) => {
            krou::cli_docs::completions(&mut Cli::command(), shell, &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Some(Command::Man { out }) => man(out),
    }
}

/// `krou man [--out DIR]`.
fn man(out: Option<std::path::PathBuf>) -> ExitCode {
    let written = match &out {
        None => krou::cli_docs::man_page(Cli::command(), &mut std::io::stdout()),
        Some(dir) => krou::cli_docs::man_pages(Cli::command(), dir).map(|pages| {
            pages
                .iter()
                .for_each(|p| eprintln!("wrote {}", p.display()));
        }),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("krou man: {e}");
            ExitCode::FAILURE
        }
    }
}
