//! The referee: engine-against-engine matches (`krou match`) that trust no engine.
//!
//! Engines are processes speaking the protocol ([`engine`](engines::engine), over
//! [`process`](engines::process), which reads their output on a thread with bounded lines and kills
//! them on exit), or the built-in players `random` and `greedy` ([`builtin`](engines::builtin)).
//! Each game ([`game`](play::game)) is adjudicated by Krou's own rules: an illegal or malformed
//! move, a crash, a missing `uciok`/`readyok`/`bestmove` and a time forfeit each lose with a named
//! reason ([`fault`](engines::fault)). Clocks follow [`tc`](play::tc); openings and colours follow
//! [`openings`] and [`schedule`](play::schedule); games are recorded in OGN ([`ogn`], read back by
//! [`ogn_read`]); results feed [`elo`](stats::elo) (Elo, LOS) and [`sprt`](stats::sprt);
//! [`runner`](play::runner) plays the games concurrently, [`summary`](records::summary) reports
//! them and [`report`] draws them on an HTML page. A match can be split into shards
//! ([`shard`](play::shard)) that run anywhere, known by their match identifier
//! ([`identity`](play::identity)), and merged ([`merge`](records::merge)).
//!
//! One folder per part, each saying what it owns: [`engines`] (engine processes, built-in
//! players, faults), [`play`] (schedule, openings, clocks, the match loop), [`records`] (OGN,
//! JSON and text summaries, shard files, the merge), [`stats`] (Elo, SPRT, standings) and
//! [`report`] (the HTML page); the command line ([`cli`]) and the seeded random numbers that
//! several parts draw from ([`rng`]) sit here.

pub mod cli;
pub mod engines;
pub mod play;
pub mod records;
pub mod report;
pub mod rng;
pub mod stats;

pub use cli::{MatchArgs, MatchCli, MatchCommand};

// Paths of the flat layout of before, which tests use, kept valid.
pub use engines::{info, player};
pub use play::openings;
pub use records::{ogn, ogn_read, record};

use std::process::ExitCode;

/// Runs `krou match` or its subcommand: a match exits 0 when it ended normally (all games, or
/// an SPRT decision), 128 + the signal's number after SIGINT (130), SIGTERM (143) or SIGHUP
/// (129), 2 when it could not start (an engine that does not start included), 3 when every game
/// ended by a fault; `merge` exits 0 when done, 3 when every game merged ended by a fault, 2
/// otherwise; `report` and `ratings` 0 when done, 2 otherwise.
pub fn main(cli: MatchCli) -> ExitCode {
    let (done, name) = match cli.command {
        None => return play(cli.args),
        Some(MatchCommand::Merge(args)) => match records::merge::run(&args) {
            Ok(true) => {
                eprintln!(
                    "krou match merge: every game ended by a fault (see 'Faults' in the summary)"
                );
                return ExitCode::from(3);
            }
            Ok(false) => (Ok(()), "merge"),
            Err(e) => (Err(e.to_string()), "merge"),
        },
        Some(MatchCommand::Report(args)) => {
            (report::run(&args).map_err(|e| e.to_string()), "report")
        }
        Some(MatchCommand::Ratings(args)) => (records::ratings::run(&args), "ratings"),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("krou match {name}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Plays a match.
fn play(args: MatchArgs) -> ExitCode {
    match play::runner::run(args) {
        Ok(play::runner::Played {
            ending: records::summary::Ending::Interrupted,
            ..
        }) => ExitCode::from(play::signals::received().map_or(130, play::signals::exit_status)),
        Ok(play::runner::Played {
            every_game_faulted: true,
            ..
        }) => {
            eprintln!("krou match: every game ended by a fault (see 'Faults' in the summary)");
            ExitCode::from(3)
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("krou match: {e}");
            ExitCode::from(2)
        }
    }
}
