//! The work the session hands off: searches, run on their own thread so that the session keeps
//! answering `isready`, `stop`, `ponderhit` and `quit`, and perft.

use super::response::{Output, ProvenScore, Response};
use crate::egdb::Tables;
use crate::rules::{Game, GrandSlam, Position, Side, perft_report};
use crate::search::{Control, Found, Limits, Searcher, Settings};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

/// What the session's loop receives: input lines and the searches' ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// One input line, without its line end.
    Line(String),
    /// An input line that is not UTF-8 text: the byte offset of the first bad byte, and the
    /// line with each bad sequence replaced by U+FFFD (a `go` is still read from it).
    NotText(usize, String),
    /// End of input (means `quit`).
    End,
    /// The search of this generation has ended; its `bestmove` follows at once.
    SearchDone(u64),
}

/// One search to run.
#[derive(Debug)]
pub struct Job {
    /// Numbers the searches of a session; only this search's end reports it.
    pub generation: u64,
    /// The game, current position last.
    pub game: Game,
    /// The limits.
    pub limits: Limits,
    /// The flags the session sets (`stop`, `ponderhit`); fresh for every search.
    pub control: Arc<Control>,
    /// How the `info` lines show proven results (the `ProvenScore` option).
    pub proven_score: ProvenScore,
    /// The side whose view the `info` lines' scores take: the side to move, except in a
    /// ponder on the opponent's move (see `Session`'s `own_side`).
    pub score_side: Side,
    /// The most moves an `info` line's `pv` shows (the `PvLength` option).
    pub pv_length: usize,
}

/// What runs searches and perft for a session.
///
/// The contract of [`Engine::start`]: the search runs until a limit or `control` ends it;
/// then the engine sends [`Event::SearchDone`] with the job's generation and right after
/// prints exactly one `bestmove`. An `infinite` or pondering search prints it only once
/// stopped (or, when pondering, after `ponderhit`).
pub trait Engine {
    /// Changes the hash size and threads (only called when no search runs).
    fn configure(&mut self, settings: Settings);
    /// Forgets everything learned (only called when no search runs).
    fn clear(&mut self);
    /// Hands the searcher endgame tables (only called when no search runs); by default the
    /// engine has no use for them.
    fn set_tables(&mut self, _tables: Option<Arc<Tables>>) {}
    /// Starts a search (only called when no search runs).
    fn start(&mut self, job: Job, output: &Output, events: &Sender<Event>);
    /// Waits until the running search, if any, has printed its `bestmove`.
    fn join(&mut self);
    /// The lines of a perft report.
    fn perft(&mut self, position: &Position, depth: u32, rule: GrandSlam) -> Vec<String>;
    /// The lines of the search benchmark at `depth` (its own searcher: the session's hash table
    /// and settings are untouched).
    fn bench(&mut self, depth: u32) -> Vec<String> {
        crate::search::bench(depth).text()
    }
}

/// The real engine: a [`Searcher`] lent to one thread per search.
#[derive(Debug, Default)]
pub struct ThreadEngine {
    idle: Option<Searcher>,
    running: Option<JoinHandle<Searcher>>,
    settings: Settings,
}

/// How often a finished `infinite` or pondering search checks whether it may print `bestmove`.
const HOLD_POLL: Duration = Duration::from_millis(1);

impl ThreadEngine {
    /// An engine whose searcher has these settings.
    pub fn new(settings: Settings) -> ThreadEngine {
        ThreadEngine {
            idle: Some(Searcher::new(settings)),
            running: None,
            settings,
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        self.join();
        let settings = self.settings;
        self.idle.get_or_insert_with(|| Searcher::new(settings))
    }
}

impl Engine for ThreadEngine {
    fn configure(&mut self, settings: Settings) {
        self.settings = settings;
        self.searcher().configure(settings);
    }

    fn clear(&mut self) {
        self.searcher().clear();
    }

    fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.searcher().set_tables(tables);
    }

    fn start(&mut self, job: Job, output: &Output, events: &Sender<Event>) {
        let settings = self.settings;
        self.join();
        let searcher = self.idle.take().unwrap_or_else(|| Searcher::new(settings));
        let (generation, fallback) = (job.generation, job.game.legal_moves().next());
        let (thread_output, thread_events) = (output.clone(), events.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("search {generation}"))
            .spawn(move || run(searcher, job, &thread_output, &thread_events, settings));
        match spawned {
            Ok(handle) => self.running = Some(handle),
            Err(e) => {
                log::error!("cannot start a search thread ({e}); playing the first legal move");
                let _ = events.send(Event::SearchDone(generation));
                output.send(&Response::BestMove {
                    best: fallback,
                    ponder: None,
                });
            }
        }
    }

    fn join(&mut self) {
        if let Some(handle) = self.running.take() {
            match handle.join() {
                Ok(searcher) => self.idle = Some(searcher),
                Err(_) => log::error!("the search thread died"),
            }
        }
    }

    fn perft(&mut self, position: &Position, depth: u32, rule: GrandSlam) -> Vec<String> {
        perft_report(position, depth, rule)
    }
}

/// The body of a search thread: search, hold the result while an `infinite` or pondering
/// search has not been stopped, report the end, print the one `bestmove`.
fn run(
    mut searcher: Searcher,
    job: Job,
    output: &Output,
    events: &Sender<Event>,
    settings: Settings,
) -> Searcher {
    let Job {
        generation,
        game,
        limits,
        control,
        proven_score,
        score_side,
        pv_length,
    } = job;
    let for_other_side = score_side != game.position().side_to_move();
    let searched = catch_unwind(AssertUnwindSafe(|| {
        searcher.search(&game, &limits, &control, &mut |info| {
            let mut info = info.clone();
            info.pv.truncate(pv_length);
            if for_other_side {
                info.score = -info.score;
            }
            output.send(&Response::Info(info, proven_score));
        })
    }));
    let found = match searched {
        Ok(found) => found,
        Err(_) => {
            log::error!("the search failed; playing the first legal move");
            let tables = searcher.tables().cloned();
            searcher = Searcher::new(settings);
            searcher.set_tables(tables);
            Found {
                best: game.legal_moves().next(),
                ponder: None,
            }
        }
    };
    while !control.is_stopped() && (limits.is_unbounded() || control.is_pondering()) {
        std::thread::sleep(HOLD_POLL);
    }
    if events.send(Event::SearchDone(generation)).is_err() {
        log::debug!("search {generation} ended after the session");
    }
    let found = checked(found, &game);
    output.send(&Response::BestMove {
        best: found.best,
        ponder: found.ponder,
    });
    searcher
}

/// The search's answer made safe to print: a legal best move whenever there is one (the first
/// legal move replaces a missing or illegal one), and a ponder move only if legal after it.
fn checked(found: Found, game: &Game) -> Found {
    let legal = game.legal_moves();
    let best = match found.best {
        Some(best) if legal.contains(best) => Some(best),
        other => {
            if other.is_some() || !legal.is_empty() {
                log::error!(
                    "the search answered {other:?}, not a legal move; playing the first legal move"
                );
            }
            legal.clone().next()
        }
    };
    let rule = game.rule();
    let ponder = match (best, found.ponder) {
        (Some(best), Some(ponder)) => game
            .position()
            .try_play(best, rule)
            .ok()
            .filter(|played| played.position.legal_moves(rule).contains(ponder))
            .map(|_| ponder),
        _ => None,
    };
    Found { best, ponder }
}
