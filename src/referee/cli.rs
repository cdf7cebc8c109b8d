//! The `krou match` command line: a match's options ([`MatchArgs`]), or a subcommand
//! ([`MatchCommand`]) that works on the results of matches.

use crate::referee::engines::spec::EngineSpec;
use crate::referee::play::shard::Shard;
use crate::referee::play::tc::TimeControl;
use crate::referee::stats::sprt::Sprt;
use crate::rules::GrandSlam;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `krou match`: plays a match (`krou match --engine … --engine …`), or runs a subcommand.
#[derive(Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchCli {
    /// A subcommand instead of a match.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// The match to play when there is no subcommand.
    #[command(flatten)]
    pub args: MatchArgs,
}

/// Subcommands of `krou match`.
#[derive(Subcommand, Clone, Debug)]
pub enum MatchCommand {
    /// Merge the JSON summaries of a sharded match's shards (`--shard K/N`) into the summary
    /// one process would have printed for their games.
    Merge(crate::referee::records::merge::MergeArgs),
    /// Render an HTML report from JSON summaries: one match's, or its shards' (combined as
    /// `krou match merge` does).
    Report(super::report::ReportArgs),
    /// Fit a rating list to the JSON summaries of matches (three or more players, one anchored:
    /// `--anchor greedy=1000` by default) by maximum likelihood, with a 95% interval for each.
    Ratings(crate::referee::records::ratings::RatingsArgs),
}

/// Options of `krou match`. A later value of an option replaces an earlier one, so wrapper
/// scripts can set defaults that their users override.
#[derive(Args, Clone, Debug)]
#[command(args_override_self = true)]
pub struct MatchArgs {
    /// A player: `[name=<name>] [tc=<TC>] [margin=<MS>] [option.<Name>=<value>]… <command
    /// line>`, or the built-in players `random` and `greedy`. `tc=` and `margin=` replace --tc and
    /// --margin for this engine (time odds). Give two or more.
    #[arg(long = "engine", value_name = "SPEC", required = true, num_args = 1)]
    pub engines: Vec<EngineSpec>,
    /// Games per pairing (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: `40/60+0.5`, `60+0.5`, `st=0.1`, `nodes=N` or `depth=N` (for engines
    /// without their own `tc=`).
    #[arg(long, value_name = "TC", default_value = "st=0.1")]
    pub tc: TimeControl,
    /// Milliseconds a move may exceed its clock before it loses on time (for engines without
    /// their own `margin=`).
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub margin: u64,
    /// Seconds to wait for `uciok` and `readyok` (and `bestmove` under nodes= and depth=).
    #[arg(long, value_name = "SECONDS", default_value_t = 8.0)]
    pub timeout: f64,
    /// Openings file: one diagram or move list a line (`#` starts a comment line).
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Start each pair of games after this many random legal plies.
    #[arg(long, value_name = "PLIES")]
    pub random_openings: Option<usize>,
    /// Seed of the schedule, the random openings and the built-in players (default: the clock;
    /// required with --shard).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at once.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub concurrency: usize,
    /// Play only the K-th of N disjoint parts of the match (whole game pairs, same rounds,
    /// openings, colours and seeds as unsharded; needs --seed; never stops early on --sprt).
    /// Merge the shards' --json files with `krou match merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Grand-slam rule (sent to every engine): no-capture, forbidden or capture-all.
    #[arg(long, value_name = "RULE", default_value = "no-capture")]
    pub grand_slam: GrandSlam,
    /// Adjudicate a game after this many plies: each player adds the seeds on their side.
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<usize>,
    /// Stop once decided: `"elo0=0 elo1=5 alpha=0.05 beta=0.05"` (two engines only).
    #[arg(long, value_name = "PARAMS")]
    pub sprt: Option<Sprt>,
    /// With three or more engines, the first plays each other one (default: round robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Write every game to this OGN file (for `krou::referee::ogn_read` and scripts; the Aualé
    /// GUI opens only one-game files: use --ogn-dir for it).
    #[arg(long, value_name = "FILE")]
    pub ogn: Option<PathBuf>,
    /// Write each game to its own OGN file in this directory, `round-0007.ogn` for game 7: the
    /// files the Aualé GUI opens (it plays only the no-capture grand-slam rule).
    #[arg(long, value_name = "DIR")]
    pub ogn_dir: Option<PathBuf>,
    /// Write a JSON summary to this file (format 2: settings, match id, totals, every game with
    /// its moves, times and scores; the README's "The JSON summary" describes it).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an HTML report (plots of Elo, LLR, times, evaluations) to this file.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// Keep timestamped protocol logs of every engine in this directory.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// With --log-dir, keep only the logs of games that ended by a fault.
    #[arg(long, requires = "log_dir")]
    pub log_faults_only: bool,
    /// Let the engines' stderr through (discarded by default).
    #[arg(long)]
    pub engine_stderr: bool,
    /// `Event` tag of the game records.
    #[arg(long, default_value = "krou match")]
    pub event: String,
    /// `Site` tag of the game records.
    #[arg(long, default_value = "?")]
    pub site: String,
}

/// A match that cannot start: what is wrong.
#[derive(Debug)]
pub struct BadMatch(pub String);

impl std::fmt::Display for BadMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadMatch {}

impl MatchArgs {
    /// Checks what clap cannot: counts and ranges.
    pub fn validate(&self) -> Result<(), BadMatch> {
        let bad = |what: &str| Err(BadMatch(what.into()));
        if self.engines.len() < 2 {
            return bad("a match needs at least two --engine");
        }
        if self.games == 0 {
            return bad("--games must be at least 1");
        }
        if self.concurrency == 0 || self.concurrency > 256 {
            return bad("--concurrency must be 1 to 256");
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout < 1.0e6) {
            return bad("--timeout must be a positive number of seconds");
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return bad("--sprt needs exactly two engines");
        }
        if self.max_plies == Some(0) {
            return bad("--max-plies must be at least 1");
        }
        if let (Some(shard), None) = (self.shard, self.seed) {
            return Err(BadMatch(format!(
                "--shard {shard} needs --seed: every shard must draw the same openings and \
                 seeds, and a seed from the clock differs between processes"
            )));
        }
        Ok(())
    }
}
