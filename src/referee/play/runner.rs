//! Runs a match: worker threads play scheduled games (`--concurrency`), the main thread counts
//! results, writes records and logs, shows progress, and stops on an SPRT decision or a signal
//! ([`super::signals`]).

use super::game::{Fixture, play_game};
use super::identity::Definition;
use super::openings::{Opening, parse_openings, random_openings};
use super::progress::Progress;
use super::schedule::{Job, pairings, schedule};
use super::tc::TimeControl;
use crate::referee::cli::{BadMatch, MatchArgs};
use crate::referee::engines::engine::{Engine, StartError};
use crate::referee::engines::fault::Stop;
use crate::referee::engines::player::Setup;
use crate::referee::engines::spec::{EngineSpec, Kind, unique_names};
use crate::referee::records::json::{self, game_entry};
use crate::referee::records::ogn::{Header, from_record, record_file_name, today, write_game};
use crate::referee::records::record::{GameRecord, Reason};
use crate::referee::records::summary::{Ending, Report, text};
use crate::referee::rng::Rng;
use crate::referee::stats::standings::Standings;
use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

/// Everything the workers share.
struct Context {
    args: MatchArgs,
    specs: Vec<EngineSpec>,
    tc: Vec<TimeControl>,
    margin_ms: Vec<u64>,
    openings: Vec<Opening>,
    seed: u64,
    abort: AtomicBool,
    queue: Mutex<VecDeque<Job>>,
}

/// What a finished match returns.
pub struct Outcome {
    /// Final standings.
    pub standings: Standings,
    /// Every game with its job, in the order it finished.
    pub games: Vec<(Job, GameRecord)>,
    /// Why the match ended.
    pub ending: Ending,
}

/// How a match that was played ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Why it ended.
    pub ending: Ending,
    /// Whether games were played and every one ended by a fault.
    pub every_game_faulted: bool,
}

/// Plays the match described by `args`: the summary goes to stdout, progress to stderr.
pub fn run(args: MatchArgs) -> Result<Played, BadMatch> {
    args.validate()?;
    let outputs: Vec<(&str, &Path)> = [
        ("--json", args.json.as_deref()),
        ("--report", args.report.as_deref()),
        ("--ogn", args.ogn.as_deref()),
    ]
    .into_iter()
    .filter_map(|(option, path)| path.map(|p| (option, p)))
    .collect();
    let inputs: Vec<&Path> = args.openings.as_deref().into_iter().collect();
    crate::referee::records::outputs::check(&outputs, &inputs).map_err(BadMatch)?;
    super::signals::install();
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut specs = args.engines.clone();
    unique_names(&mut specs);
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let tc: Vec<TimeControl> = specs.iter().map(|s| s.tc.unwrap_or(args.tc)).collect();
    let margin_ms: Vec<u64> = specs
        .iter()
        .map(|s| s.margin.unwrap_or(args.margin))
        .collect();
    let pairs = pairings(specs.len(), args.gauntlet);
    let all_jobs = schedule(&pairs, args.games);
    let scheduled = all_jobs.len();
    let jobs = match args.shard {
        Some(shard) => shard.select(all_jobs),
        None => all_jobs,
    };
    let openings = load_openings(&args, seed)?;
    let match_id = Definition {
        specs: &specs,
        tc: &tc,
        margin_ms: &margin_ms,
        games: args.games,
        openings: &openings,
        seed,
        rule: args.grand_slam,
        max_plies: args.max_plies,
        gauntlet: args.gauntlet,
        sprt: args.sprt,
    }
    .id();
    let mut ogn = match &args.ogn {
        Some(path) => Some(create(path)?),
        None => None,
    };
    for dir in [&args.log_dir, &args.ogn_dir].into_iter().flatten() {
        std::fs::create_dir_all(dir)
            .map_err(|e| BadMatch(format!("cannot create {}: {e}", dir.display())))?;
    }
    let header = Header {
        event: args.event.clone(),
        site: args.site.clone(),
        date: today(),
        rule: args.grand_slam,
    };
    let planned = jobs.len();
    let context = Context {
        args,
        specs,
        tc,
        margin_ms,
        openings,
        seed,
        abort: AtomicBool::new(false),
        queue: Mutex::new(jobs.into()),
    };
    check_engines(&context)?;
    let outcome = play_all(&context, pairs, &names, planned, |record| {
        let wanted = ogn.is_some() || context.args.ogn_dir.is_some();
        let text = wanted.then(|| write_game(&from_record(record, &names, &header)));
        if let (Some(file), Some(text)) = (ogn.as_mut(), &text) {
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                log::error!("writing the game records: {e}");
            }
        }
        if let (Some(dir), Some(text)) = (&context.args.ogn_dir, &text) {
            let path = dir.join(record_file_name(record.round));
            if let Err(e) = std::fs::write(&path, text) {
                log::error!("cannot write {}: {e}", path.display());
            }
        }
        if let Some(dir) = &context.args.log_dir {
            keep_logs(dir, record, &names, context.args.log_faults_only);
        }
    });
    let report = Report {
        names: names.clone(),
        tc: context.args.tc.to_string(),
        engine_tc: context.tc.iter().map(ToString::to_string).collect(),
        engine_margin_ms: context.margin_ms.clone(),
        seed,
        planned,
        scheduled,
        sprt: context.args.sprt,
        ending: outcome.ending,
        match_id,
        shard: context.args.shard,
        merged: None,
    };
    // The summary first: a file that cannot be written after all must not take it along.
    // Written, not printed: after SIGHUP stdout may be a closed terminal, and the files below
    // must still be written.
    let _ = write!(std::io::stdout(), "{}", text(&outcome.standings, &report));
    let _ = std::io::stdout().flush();
    if context.args.json.is_some() || context.args.report.is_some() {
        let mut games = outcome.games;
        games.sort_by_key(|(job, _)| job.round);
        let head = json::head(&outcome.standings, &report);
        if let Some(path) = &context.args.json {
            let with_files = context.args.ogn_dir.is_some();
            let entries = games.iter().map(|(job, g)| {
                let file = with_files.then(|| record_file_name(g.round));
                game_entry(job, g, &names, file).to_string()
            });
            json::write(path, &head, entries)
                .map_err(|e| BadMatch(format!("cannot write {}: {e}", path.display())))?;
        }
        if let Some(path) = &context.args.report {
            let entries = games
                .iter()
                .map(|(job, g)| game_entry(job, g, &names, record_link(&context.args, g.round)));
            crate::referee::report::write(&head, entries, path)
                .map_err(|e| BadMatch(format!("report: {e}")))?;
        }
    }
    Ok(Played {
        ending: outcome.ending,
        every_game_faulted: outcome.standings.every_game_faulted(),
    })
}

/// Where the record of game `round` went, as the report links it: `--ogn-dir`'s
/// `DIR/round-0007.ogn`, or the `--ogn` file, as the path was given.
fn record_link(args: &MatchArgs, round: usize) -> Option<String> {
    match (&args.ogn_dir, &args.ogn) {
        (Some(dir), _) => Some(dir.join(record_file_name(round)).display().to_string()),
        (None, Some(file)) => Some(file.display().to_string()),
        (None, None) => None,
    }
}

/// Starts every engine of the match once (handshake included) before the first game, all at
/// once, so that a command that cannot start stops the match before any game, naming the
/// engine, its command and the reason. A signal meanwhile skips the check.
fn check_engines(context: &Context) -> Result<(), BadMatch> {
    let setup = setup(context);
    let setup = &setup;
    let checked = AtomicBool::new(false);
    let failures: Vec<String> = std::thread::scope(|scope| {
        // A signal during the check stops the handshakes (they watch `abort`).
        scope.spawn(|| {
            while !checked.load(Ordering::Relaxed) {
                if super::signals::received().is_some() {
                    stop(context);
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let started: Vec<_> = context
            .specs
            .iter()
            .filter_map(|spec| match &spec.kind {
                Kind::Command(argv) => Some((spec, argv)),
                Kind::Random | Kind::Greedy => None,
            })
            .map(|(spec, argv)| {
                let engine = scope.spawn(move || Engine::start(argv, &spec.options, setup));
                (spec, argv, engine)
            })
            .collect();
        let failures = started
            .into_iter()
            .filter_map(|(spec, argv, engine)| {
                let why = match engine.join() {
                    Ok(Ok(engine)) => {
                        drop(engine);
                        return None;
                    }
                    Ok(Err(StartError {
                        stop: Stop::Aborted,
                        ..
                    })) => return None,
                    Ok(Err(StartError {
                        stop: Stop::Fault(fault),
                        ..
                    })) => fault.to_string(),
                    Err(_) => "the check failed".into(),
                };
                Some(format!(
                    "engine '{}' does not start (command: {}): {why}",
                    spec.name,
                    argv.join(" ")
                ))
            })
            .collect();
        checked.store(true, Ordering::Relaxed);
        failures
    });
    if failures.is_empty() {
        Ok(())
    } else {
        Err(BadMatch(format!("{}; no game played", failures.join("; "))))
    }
}

/// What a game needs to start its players, from the match's options.
fn setup(context: &Context) -> Setup<'_> {
    Setup {
        rule: context.args.grand_slam,
        timeout: Duration::from_secs_f64(context.args.timeout),
        log: context.args.log_dir.is_some(),
        stderr: context.args.engine_stderr,
        abort: &context.abort,
    }
}

/// Starts the workers and handles their results as they come, until all are done.
fn play_all(
    context: &Context,
    pairs: Vec<(usize, usize)>,
    names: &[String],
    planned: usize,
    mut on_game: impl FnMut(&GameRecord),
) -> Outcome {
    let mut standings = Standings::new(pairs);
    let mut games = Vec::new();
    let mut ending = Ending::Completed;
    let mut progress = Progress::new(planned);
    let sprt = context.args.sprt;
    // A shard never stops early: only the merged shards can decide (see `super::shard`).
    let stops = context.args.shard.is_none();
    std::thread::scope(|scope| {
        // Bounded, so that workers cannot run far ahead of the SPRT check.
        let (sender, results) = sync_channel(context.args.concurrency);
        for _ in 0..context.args.concurrency.min(planned) {
            let sender = sender.clone();
            scope.spawn(move || worker(context, &sender));
        }
        drop(sender);
        loop {
            if super::signals::received().is_some() && ending == Ending::Completed {
                ending = Ending::Interrupted;
                stop(context);
            }
            let (job, record) = match results.recv_timeout(Duration::from_millis(50)) {
                Ok(result) => result,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            standings.add(&job, &record);
            on_game(&record);
            let pairing = job.pairing;
            games.push((job, record));
            let decided = sprt
                .filter(|_| stops)
                .and_then(|s| s.decision(&standings.tallies[pairing]));
            progress.show(&standings, pairing, names, sprt.as_ref());
            if let (Some(decision), Ending::Completed) = (decided, ending) {
                ending = Ending::Sprt(decision);
                stop(context);
            }
        }
    });
    progress.finish();
    Outcome {
        standings,
        games,
        ending,
    }
}

/// Stops the match: no new games, and games in progress are abandoned.
fn stop(context: &Context) {
    context.abort.store(true, Ordering::Relaxed);
    if let Ok(mut queue) = context.queue.lock() {
        queue.clear();
    }
}

/// A worker: takes the next job, plays it, sends the record; until the queue is empty.
fn worker(context: &Context, results: &SyncSender<(Job, GameRecord)>) {
    let setup = setup(context);
    loop {
        let job = match context.queue.lock() {
            Ok(mut queue) => queue.pop_front(),
            Err(_) => None,
        };
        let Some(job) = job else { return };
        let fixture = Fixture {
            round: job.round,
            engines: job.engines,
            specs: [
                &context.specs[job.engines[0]],
                &context.specs[job.engines[1]],
            ],
            opening: &context.openings[job.pair % context.openings.len()],
            tc: job.engines.map(|e| context.tc[e]),
            margin: job
                .engines
                .map(|e| Duration::from_millis(context.margin_ms[e])),
            max_plies: context.args.max_plies,
            seed: Rng::derived(context.seed, job.round as u64).next_u64(),
        };
        let record = play_game(&fixture, &setup);
        if results.send((job, record)).is_err() {
            return;
        }
    }
}

fn load_openings(args: &MatchArgs, seed: u64) -> Result<Vec<Opening>, BadMatch> {
    if let Some(path) = &args.openings {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BadMatch(format!("cannot read {}: {e}", path.display())))?;
        return parse_openings(&text, args.grand_slam)
            .map_err(|e| BadMatch(format!("{}: {e}", path.display())));
    }
    if let Some(plies) = args.random_openings {
        let count = args.games.div_ceil(2);
        let mut rng = Rng::derived(seed, u64::MAX);
        return random_openings(count, plies, args.grand_slam, &mut rng).map_err(BadMatch);
    }
    Ok(vec![Opening::startpos()])
}

fn create(path: &Path) -> Result<std::fs::File, BadMatch> {
    std::fs::File::create(path)
        .map_err(|e| BadMatch(format!("cannot create {}: {e}", path.display())))
}

/// Writes `round-0007-South-<name>.log` for each engine of the game, unless only fault games
/// are wanted and this one did not end by a fault.
fn keep_logs(dir: &Path, record: &GameRecord, names: &[String], faults_only: bool) {
    if faults_only && !matches!(record.reason, Reason::Fault { .. }) {
        return;
    }
    for (i, side) in crate::rules::Side::BOTH.into_iter().enumerate() {
        if record.logs[i].is_empty() {
            continue;
        }
        let name: String = names[record.engine(side)]
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!("round-{:04}-{side}-{name}.log", record.round));
        if let Err(e) = std::fs::write(&path, &record.logs[i]) {
            log::error!("cannot write {}: {e}", path.display());
        }
    }
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
