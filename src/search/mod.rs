//! The search: given a game and limits, find the best move, reporting progress through a
//! callback (the search never prints).
//!
//! The protocol drives a [`Searcher`] from its own thread: it calls [`Searcher::search`] with a
//! shared [`Control`] whose flags (`stop`, `ponderhit`) it may set at any time.

mod bench;
pub mod eval;
mod eval_cache;
mod features;
mod limits;
pub mod net;
mod ordering;
mod packed;
mod score;
mod strength;
mod table;
#[cfg(test)]
mod test_support;
mod threats;
mod time;
mod value;
mod worker;

pub use bench::{BENCH_DEPTH, BenchReport, bench, bench_games, bench_with_tables};
pub use features::Features;
pub use limits::{Clock, Control, Limits};
pub use score::Score;
pub use strength::{Level, Strength};

use crate::egdb::Tables;
use crate::rules::{Game, Move, MoveSet, Position};
use eval_cache::EvalCache;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use table::{Table, TableView};
use time::{Plan, TimeManager};
use worker::{Iteration, MainDuties, Shared, Worker};

/// The deepest iteration a search starts.
const MAX_DEPTH: i32 = value::MAX_PLY as i32 - 8;
/// How often a finished ponder or infinite search looks for `stop` or `ponderhit`.
const WAIT_POLL: Duration = Duration::from_millis(1);
/// A proven result ends a timed search once the iteration is this many plies deeper than it.
const PROVEN_MARGIN: i32 = 2;

/// One progress report, printed by the protocol as an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Completed depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation, best move first.
    pub pv: Vec<Move>,
    /// Hash table use in permille.
    pub hashfull: u32,
    /// Endgame table probes that settled or bounded a node.
    pub tbhits: u64,
    /// Which of the best lines this is (1 = the best), when the search looks for more than
    /// one (`MultiPV`); 0 when it looks for one only.
    pub multipv: u32,
}

/// The time limits a search with `features` would set for `limits` in `root`, measured from
/// its start: the soft one (no new iteration after 60% of it) and the hard one (the search
/// ends). `None`: no such limit. For diagnostics (`debug on`).
pub fn time_plan(
    limits: &Limits,
    root: &Position,
    features: Features,
) -> (Option<Duration>, Option<Duration>) {
    TimeManager::new(limits, clock_plan(root, features)).limits()
}

/// How a search with `features` shares out a clock in `root`.
fn clock_plan(root: &Position, features: Features) -> Plan {
    if features.time_by_phase {
        Plan::ByPhase {
            seeds_on_board: root.seeds_on_board(),
        }
    } else {
        Plan::Even
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play; `None` only when the game is over.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
}

/// Settings that outlive a search (set through protocol options).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Hash table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mib: 16,
            threads: 1,
        }
    }
}

/// The search engine and everything it learns between searches (cleared by [`Searcher::clear`]).
pub struct Searcher {
    settings: Settings,
    features: Features,
    table: Table,
    tables: Option<Arc<Tables>>,
    /// The main search thread's evaluations (kept between searches).
    evaluations: EvalCache,
    /// Each helper thread's evaluations, by thread.
    helper_evaluations: Vec<EvalCache>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(Settings::default())
    }
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// A searcher with the given settings (allocates the hash table).
    pub fn new(settings: Settings) -> Searcher {
        Searcher {
            settings,
            features: Features::default(),
            table: Table::new(settings.hash_mib),
            tables: None,
            evaluations: EvalCache::default(),
            helper_evaluations: Vec::new(),
        }
    }

    /// Hands the searcher endgame tables (or takes them away with `None`); never call
    /// mid-search. Tables for another grand-slam rule than a game's are not used in its search.
    pub fn set_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.tables = tables;
    }

    /// The endgame tables in use, if any.
    pub fn tables(&self) -> Option<&Arc<Tables>> {
        self.tables.as_ref()
    }

    /// Switches optional search features on or off (for matches that measure them).
    pub fn set_features(&mut self, features: Features) {
        if features.learned_evaluation != self.features.learned_evaluation {
            self.clear_evaluations();
        }
        self.features = features;
    }

    /// The settings in force.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Changes the settings (resizes the hash table; may take a moment, never call mid-search).
    pub fn configure(&mut self, settings: Settings) {
        if settings.hash_mib != self.settings.hash_mib {
            // The old table goes first, so that the two are never held at once.
            self.table = Table::new(0);
            self.table = Table::new(settings.hash_mib);
        }
        self.settings = settings;
    }

    /// Forgets everything learned: hash table, history, evaluation caches (`ucinewgame`).
    pub fn clear(&mut self) {
        self.table.clear();
        self.clear_evaluations();
    }

    /// Empties every thread's evaluation cache.
    fn clear_evaluations(&mut self) {
        self.evaluations.clear();
        self.helper_evaluations
            .iter_mut()
            .for_each(EvalCache::clear);
    }

    /// Searches the current position of `game` within `limits`, calling `report` after each
    /// completed iteration. Returns when a limit is reached or `control` says stop (unless
    /// pondering or infinite, which only `stop` ends). `best` is `None` only when the game is
    /// over.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Found {
        let started = Instant::now();
        let moves = root_moves(game, limits);
        if moves.is_empty() {
            return Found {
                best: None,
                ponder: None,
            };
        }
        self.table.new_search();
        let level = limits
            .strength
            .map(|s| s.level(game.position(), game.moves().len()));
        // A level searches on one thread, so that its choices replay.
        let threads = if level.is_some() {
            1
        } else {
            self.settings.threads.max(1)
        };
        // A level probes only the tables every install has, so that it plays alike anywhere.
        let level_tables = level
            .and(self.tables.as_deref())
            .map(|t| t.truncated(usize::from(Strength::TABLE_SEEDS) + 1));
        let tables = level_tables.as_ref().or(self.tables.as_deref());
        let shared = Shared {
            table: self.table.view(),
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            filled: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            tbhits: AtomicU64::new(0),
            tables: tables.filter(|t| t.rule() == game.rule() && t.max_seeds().is_some()),
            rule: game.rule(),
            features: self.features,
            searching: (0..threads).map(|_| AtomicI32::new(0)).collect(),
            helper_best: Mutex::new(None),
        };
        let max_depth = match limits.depth {
            Some(depth) if !limits.infinite => (depth as i32).clamp(1, MAX_DEPTH),
            _ => MAX_DEPTH,
        };
        let max_depth = level.map_or(max_depth, |l| max_depth.min(l.depth.max(1)));
        // A level weighs every root move; it shows only the lines asked for.
        let (lines, shown) = match level {
            Some(_) => (moves.len(), limits.multi_pv.max(1)),
            None => (limits.multi_pv, usize::MAX),
        };
        let node_limit = limits.nodes.filter(|_| !limits.infinite);
        let duties = MainDuties {
            time: TimeManager::new(limits, clock_plan(game.position(), self.features)),
            node_limit,
        };
        log::debug!("time limits (soft, hard): {:?}", duties.time.limits());
        let root = *game.position();
        let history = game.since_last_capture();
        self.helper_evaluations
            .resize_with(threads - 1, EvalCache::default);
        let main_evaluations = &mut self.evaluations;
        let last = std::thread::scope(|scope| {
            for (id, evaluations) in (1..threads).zip(&mut self.helper_evaluations) {
                let shared = &shared;
                scope.spawn(move || {
                    let mut helper = Worker::new(id, shared, None, history, moves, evaluations);
                    helper.iterate(&root, max_depth, 1, &mut |_, it| {
                        shared.offer(it);
                        true
                    });
                    helper.publish();
                    helper.flush_tbhits();
                });
            }
            let mut main = Worker::new(0, &shared, Some(duties), history, moves, main_evaluations);
            let mut reported = 0;
            let multi_pv = limits.multi_pv > 1;
            // One `info` per line; lines are numbered only when more than one was asked for.
            let mut report_lines = |it: &Iteration, nodes: u64| {
                for (k, (value, pv)) in it.lines.iter().take(shown).enumerate() {
                    report(&Info {
                        depth: it.depth as u32,
                        // Lines that all end before the nominal depth (game ends, tables)
                        // reach fewer plies; GUIs expect seldepth >= depth.
                        seldepth: (it.seldepth as u32).max(it.depth as u32),
                        nodes,
                        time: started.elapsed(),
                        score: value::to_score(*value),
                        pv: pv.clone(),
                        hashfull: shared.hashfull(),
                        tbhits: shared.tbhits.load(Ordering::Relaxed),
                        multipv: if multi_pv { k as u32 + 1 } else { 0 },
                    });
                }
            };
            let mut reported_lines = (0, 0);
            let last = main.iterate(&root, max_depth, lines, &mut |worker, it| {
                worker.publish();
                worker.flush_tbhits();
                reported = shared.total_nodes();
                reported_lines = (it.depth, it.lines.len());
                report_lines(it, reported);
                go_on(worker, it, limits, control)
            });
            main.publish();
            main.flush_tbhits();
            // An iteration cut short still counts: report the nodes it searched, and the lines
            // it finished (MultiPV) when they are new.
            let new_lines = (last.depth, last.lines.len()) != reported_lines;
            if (main.nodes() > reported && threads == 1) || new_lines {
                report_lines(&last, main.nodes());
            }
            let last = match level {
                Some(level) => {
                    let chosen = chosen_line(&last, &level);
                    if chosen.pv != last.pv {
                        // The last `info` shows the line played.
                        report_lines(&chosen, main.nodes());
                    }
                    chosen
                }
                None => last,
            };
            while !control.is_stopped() && (limits.is_unbounded() || control.is_pondering()) {
                std::thread::sleep(WAIT_POLL);
            }
            shared.abort.store(true, Ordering::Relaxed);
            // Lazy SMP: a helper's deeper completed iteration is played instead (single line
            // only: helpers search one line). It is reported first, so that the last `info`
            // matches `bestmove`.
            match shared.helpers_best() {
                Some(deeper) if !multi_pv && deeper.depth > last.depth => {
                    report_lines(&deeper, shared.total_nodes());
                    deeper
                }
                _ => last,
            }
        });
        let best = last.pv.first().copied().or_else(|| moves.clone().next());
        let ponder = last.pv.get(1).copied().or_else(|| {
            let mv = best?;
            let child = root.play_unchecked(mv, game.rule()).position;
            expected_reply(self.table.view(), &child, game)
        });
        Found { best, ponder }
    }
}

/// The legal moves, narrowed to `searchmoves` when any of them is legal.
fn root_moves(game: &Game, limits: &Limits) -> MoveSet {
    let moves = game.legal_moves();
    let chosen = limits
        .searchmoves
        .iter()
        .fold(MoveSet::EMPTY, |s, &m| s.with(m));
    let narrowed = MoveSet::from_bits(moves.bits() & chosen.bits());
    if narrowed.is_empty() { moves } else { narrowed }
}

/// The iteration as a level plays it: the line it chose first (alone, when it is not the best).
fn chosen_line(last: &Iteration, level: &Level) -> Iteration {
    let values: Vec<i32> = last.lines.iter().map(|l| l.0).collect();
    match last.lines.get(level.choose(&values)) {
        Some((value, pv)) if *pv != last.pv => Iteration {
            value: *value,
            pv: pv.clone(),
            lines: vec![(*value, pv.clone())],
            ..last.clone()
        },
        _ => last.clone(),
    }
}

/// Whether the main thread should start another iteration after `it`.
fn go_on(worker: &mut Worker, it: &Iteration, limits: &Limits, control: &Control) -> bool {
    let Some(duties) = worker.duties() else {
        return true;
    };
    if limits.is_unbounded() || control.is_pondering() {
        return true;
    }
    if control.is_stopped() || duties.time.soft_limit_passed(control) {
        return false;
    }
    if duties
        .node_limit
        .is_some_and(|limit| worker.nodes() >= limit)
    {
        return false;
    }
    let timed = limits.movetime.is_some() || limits.clock.is_some();
    let to_end = value::WIN - it.value.abs();
    !(timed && value::is_proven(it.value) && it.depth >= to_end + PROVEN_MARGIN)
}

/// The hash table's move in `child`, if it is legal there.
fn expected_reply(table: TableView, child: &Position, game: &Game) -> Option<Move> {
    let mv = table.probe(child.key())?.best?;
    child.legal_moves(game.rule()).contains(mv).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every thread's cache, the helpers' too, is emptied by `clear` and by a switch of the
    /// evaluation, and kept otherwise.
    #[test]
    fn every_threads_evaluations_are_emptied_on_a_new_game_and_a_switch() {
        let mut searcher = Searcher::new(Settings {
            hash_mib: 1,
            threads: 2,
        });
        let game = Game::new(Position::start(), crate::rules::GrandSlam::NoCapture);
        // Deep enough that the helper thread evaluates positions before the main one ends.
        let limits = Limits {
            depth: Some(12),
            ..Limits::default()
        };
        let search = |searcher: &mut Searcher| {
            searcher.search(&game, &limits, &Control::new(false), &mut |_| {});
        };
        let all_empty = |searcher: &Searcher| {
            searcher.evaluations.is_empty()
                && searcher.helper_evaluations.iter().all(EvalCache::is_empty)
        };
        let none_empty = |searcher: &Searcher| {
            !searcher.evaluations.is_empty()
                && searcher.helper_evaluations.len() == 1
                && !searcher.helper_evaluations.iter().any(EvalCache::is_empty)
        };
        search(&mut searcher);
        assert!(none_empty(&searcher));
        searcher.clear();
        assert!(all_empty(&searcher));
        search(&mut searcher);
        searcher.set_features(Features {
            aspiration: true,
            ..Features::default()
        });
        assert!(none_empty(&searcher), "kept: the evaluation is the same");
        searcher.set_features(Features {
            learned_evaluation: false,
            ..Features::default()
        });
        assert!(all_empty(&searcher));
    }
}
