//! The referee: engine-against-engine matches (`krou match`) that trust no engine.
//!
//! Engines are processes speaking the protocol ([`engine`], over [`process`], which reads their
//! output on a thread with bounded lines and kills them on exit), or the built-in players
//! `random` and `greedy` ([`builtin`]). Each game ([`play`]) is adjudicated by Krou's own rules:
//! an illegal or malformed move, a crash, a missing `uciok`/`readyok`/`bestmove` and a time
//! forfeit each lose with a named reason ([`fault`]). Clocks follow [`tc`]; openings and colours
//! follow [`openings`] and [`schedule`]; games are recorded in OGN ([`ogn`], read back by
//! [`ogn_read`]); results feed [`stats`] (Elo, LOS) and [`sprt`]; [`runner`] plays the games
//! concurrently, [`summary`] reports them and [`report`] draws them on an HTML page.

pub mod builtin;
pub mod cli;
pub mod detail;
pub mod engine;
pub mod fault;
pub mod info;
pub mod ogn;
pub mod ogn_read;
pub mod openings;
pub mod play;
pub mod player;
pub mod process;
pub mod progress;
pub mod record;
pub mod report;
pub mod rng;
pub mod runner;
pub mod schedule;
pub mod spec;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod summary;
pub mod tc;

pub use cli::{MatchArgs, MatchCommand};

use std::process::ExitCode;

/// Runs `krou match`: exit status 0 when the match ended normally (all games, or an SPRT
/// decision), 130 after Ctrl-C, 2 when it could not start. `krou match report`: 0 when the
/// page was written, 2 otherwise.
pub fn main(args: MatchArgs) -> ExitCode {
    if let Some(MatchCommand::Report(report)) = &args.command {
        return match report::run(report) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("krou match report: {e}");
                ExitCode::from(2)
            }
        };
    }
    match runner::run(args) {
        Ok(summary::Ending::Interrupted) => ExitCode::from(130),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("krou match: {e}");
            ExitCode::from(2)
        }
    }
}
