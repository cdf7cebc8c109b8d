//! `krou suite make hard`: positions beyond the engine's default tables whose answers larger
//! tables prove by the game's result, kept only where Krou *as it plays* gets them wrong.
//!
//! Boards are drawn as for `krou suite make proven` ([`super::make`]) and judged by the full
//! tables (say 0–26 seeds), but a candidate is kept only when Krou's own search with the tables
//! a fresh install has (0–20 seeds), one thread, a cleared hash and a fixed node count (well
//! under what 10 ms buys), plays a move outside `bm`, and so does a longer search with the
//! engine's default hash size, when asked (`confirm_nodes`). Positions are
//! of six kinds, won and drawn ones with one, two, or three or more right moves, and no kind
//! takes more than half of a seed count, so that the suite is not all of one kind (Krou's
//! mistakes are mostly in drawn positions with one right move).
//!
//! Each board is tried with every store split (the side to move's lead), and a position
//! reached again from another board is kept once.
//!
//! Board `k` of seed count `n` has a random stream of its own (drawn boards), or is what game
//! `k` of Krou against itself, a stream of its own shared by every seed count, passes through
//! with `n` seeds; so boards are judged in batches on several threads, the seed counts side by
//! side, and a stopped run resumes at the first board of the batch it was in: [`make`] reports
//! each batch's kept entries and the boards done so far, in board order, and the result is the
//! same for any number of threads.

use super::entry::Entry;
use super::judge::{self, Result};
use super::make::{entry, feasible_leads, quick_result, random_board, with_lead};
use crate::egdb::{MoveBounds, Tables};
use crate::referee::rng::Rng;
use crate::rules::{Game, Move, Position};
use crate::search::{Control, Limits, Searcher, Settings};
use std::collections::HashSet;
use std::sync::Arc;

/// The engine's default hash size (MiB): the confirming search runs as a fresh engine does.
const ENGINE_HASH_MIB: usize = 16;

/// The first filter's hash size (MiB) for searches of at most [`QUICK_HASH_NODES`] nodes.
/// Clearing the default 16 MiB before each of millions of short searches took half of the
/// generator's time; a search of a few thousand nodes leaves 1 MiB (65,536 slots in buckets of
/// four) nearly empty, so it finds the entries the default size would.
const QUICK_HASH_MIB: usize = 1;

/// The most nodes a first search may have and still get the small hash; a longer one gets the
/// default size.
const QUICK_HASH_NODES: u64 = 5_000;

/// The kinds a seed count's positions are spread over: the result kept, and how many moves
/// keep it (1, 2, or 3 or more).
pub const KINDS: [(Result, usize); 6] = [
    (Result::Win, 1),
    (Result::Win, 2),
    (Result::Win, 3),
    (Result::Draw, 1),
    (Result::Draw, 2),
    (Result::Draw, 3),
];

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The generator's seed.
    pub seed: u64,
    /// The seed counts, each with how many positions it gets.
    pub counts: Vec<(u8, usize)>,
    /// The largest table the engine's search probes (the default set's, 20).
    pub engine_seeds: u8,
    /// Nodes the engine's search may spend on a position.
    pub nodes: u64,
    /// Nodes of a second, longer search that must also play a wrong move (made only for the
    /// positions the first one fails, so it costs little): `None` for none.
    pub confirm_nodes: Option<u64>,
    /// The most boards tried for one seed count.
    pub max_boards: usize,
    /// Boards judged at once (the unit a stopped run resumes at).
    pub batch: usize,
    /// Threads that judge a batch.
    pub threads: usize,
    /// Where the boards come from.
    pub boards: Boards,
}

/// Where a seed count's boards come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boards {
    /// Board `k`: the seeds dropped at random into the 12 pits, as `krou suite make proven`
    /// draws them.
    Random,
    /// Board `k`: the pits of the positions of that many seeds in game `k` of Krou against
    /// itself at this many nodes a move (2–8 random moves first, then one in 8 at random), one
    /// game for all the seed counts.
    Games(u64),
}

/// Where one seed count stands: positions kept of each kind, and boards tried.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Kept positions per kind, in the order of [`KINDS`].
    pub kept: [usize; 6],
    /// Boards tried: boards `0..boards` are done, and a resumed run starts at `boards`.
    pub boards: usize,
    /// The positions kept, so that one reached again from another board is not kept twice.
    pub positions: HashSet<Position>,
}

/// Counters of a generation, for the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Candidates (every move proven, one gives the result up, its kind still wanted) searched.
    pub candidates: usize,
    /// Candidates the engine got right (dropped).
    pub too_easy: usize,
    /// Candidates dropped because a quiet move could bring the position back.
    pub unproven: usize,
    /// Positions kept.
    pub kept: usize,
}

/// The most positions of one kind a seed count with `count` positions gets: half.
pub fn cap(count: usize) -> usize {
    count.div_ceil(2)
}

/// The kind of a position whose result is `result` with `right` moves keeping it.
pub fn kind(result: Result, right: usize) -> Option<usize> {
    KINDS
        .iter()
        .position(|&(r, n)| r == result && n == right.min(3))
}

/// Hears after each batch: the seed count, the batch's kept entries with their kinds, and the
/// progress so far.
pub type Sink<'a> = dyn FnMut(u8, &[(Entry, usize)], &Progress) + 'a;

/// The engine under test on one thread: the first search's (a small hash when it is short),
/// and the confirming search's (the default hash).
struct Engine {
    quick: Searcher,
    full: Searcher,
}

/// One thread's searchers: the engine under test, and the player of the games boards come from.
struct Searchers {
    engine: Engine,
    player: Searcher,
}

impl Searchers {
    fn new(engine_tables: &Arc<Tables>, first_nodes: u64) -> Searchers {
        let with_tables = |hash_mib| {
            let mut searcher = Searcher::new(Settings {
                hash_mib,
                threads: 1,
            });
            searcher.set_tables(Some(engine_tables.clone()));
            searcher
        };
        Searchers {
            engine: Engine {
                quick: with_tables(if first_nodes <= QUICK_HASH_NODES {
                    QUICK_HASH_MIB
                } else {
                    ENGINE_HASH_MIB
                }),
                full: with_tables(ENGINE_HASH_MIB),
            },
            player: with_tables(1),
        }
    }
}

/// A store split's verdict: the entry it gives and its kind, or why not.
enum Verdict {
    Nothing,
    TooEasy,
    Unproven,
    Kept(Box<Entry>, usize),
}

/// Fills the seed counts of `plan` from `tables` (the full ones; the engine's search gets them
/// cut to `plan.engine_seeds`), starting from `progress` (one per seed count of the plan, as a
/// stopped run left them). The seed counts advance together, batch by batch, so that one game
/// gives boards to all of them (playing it took more time than judging its boards); a count
/// behind the others catches up alone first. `sink` hears after every batch, for each seed count
/// that took part, the seed count, the batch's kept entries (ids not yet set) with their kinds,
/// and the progress so far; `log`, a line now and then.
pub fn make(
    tables: &Arc<Tables>,
    plan: &Plan,
    progress: &mut [Progress],
    sink: &mut Sink<'_>,
    log: &mut dyn FnMut(&str),
) {
    let engine_tables = Arc::new(tables.truncated(usize::from(plan.engine_seeds) + 1));
    let threads = plan.threads.max(1);
    let mut searchers: Vec<Searchers> = (0..threads)
        .map(|_| Searchers::new(&engine_tables, plan.nodes))
        .collect();
    let batch = plan.batch.max(1);
    let counts = &plan.counts[..plan.counts.len().min(progress.len())];
    let mut tallies = vec![Tally::default(); counts.len()];
    let is_open = |count: usize, done: &Progress| {
        done.kept.iter().sum::<usize>() < count && done.boards < plan.max_boards
    };
    loop {
        let open: Vec<usize> = (0..counts.len())
            .filter(|&i| is_open(counts[i].1, &progress[i]))
            .collect();
        let Some(first) = open.iter().map(|&i| progress[i].boards).min() else {
            break;
        };
        // A batch ends where a count further on stands, so that the two then go together.
        let last = open
            .iter()
            .map(|&i| progress[i].boards)
            .filter(|&b| b > first)
            .fold((first + batch).min(plan.max_boards), usize::min);
        let joining: Vec<Joining> = open
            .iter()
            .filter(|&&i| progress[i].boards == first)
            .map(|&i| Joining {
                index: i,
                seeds: counts[i].0,
                open: std::array::from_fn(|k| progress[i].kept[k] < cap(counts[i].1)),
            })
            .collect();
        let verdicts = judge_batch(tables, &mut searchers, plan, first..last, &joining);
        for (joined, verdicts) in joining.iter().zip(verdicts) {
            let i = joined.index;
            let (count, done, tally) = (counts[i].1, &mut progress[i], &mut tallies[i]);
            let kept = settle(verdicts, count, done, tally);
            done.boards = last;
            sink(joined.seeds, &kept, done);
            if done.boards % (64 * batch) == 0 {
                log(&format!(
                    "{} seeds: {} boards, {:?} kept by kind, {tally:?}",
                    joined.seeds, done.boards, done.kept
                ));
            }
            if !is_open(count, done) {
                log(&summary(joined.seeds, count, done, tally, plan.nodes));
            }
        }
    }
}

/// A seed count taking part in a batch: its place in the plan, its seeds and the kinds it still
/// wants.
struct Joining {
    index: usize,
    seeds: u8,
    open: [bool; 6],
}

/// Counts a batch's verdicts for one seed count and keeps what still fits (in board order):
/// the entries kept, with their kinds.
fn settle(
    verdicts: Vec<Verdict>,
    count: usize,
    done: &mut Progress,
    tally: &mut Tally,
) -> Vec<(Entry, usize)> {
    let cap = cap(count);
    let mut kept = Vec::new();
    for verdict in verdicts {
        match verdict {
            Verdict::Nothing => {}
            Verdict::TooEasy => {
                tally.candidates += 1;
                tally.too_easy += 1;
            }
            Verdict::Unproven => {
                tally.candidates += 1;
                tally.unproven += 1;
            }
            Verdict::Kept(entry, kind) => {
                tally.candidates += 1;
                if done.kept[kind] < cap
                    && done.kept.iter().sum::<usize>() < count
                    && done.positions.insert(entry.position)
                {
                    done.kept[kind] += 1;
                    tally.kept += 1;
                    kept.push((*entry, kind));
                }
            }
        }
    }
    kept
}

/// The log line of a seed count that is full or out of boards.
fn summary(seeds: u8, count: usize, done: &Progress, tally: &Tally, nodes: u64) -> String {
    format!(
        "{seeds} seeds: {} of {count} kept (by kind {:?}, at most {} each), {} boards, {} candidates, {} too easy at {nodes} nodes, {} unproven (a quiet move may repeat)",
        done.kept.iter().sum::<usize>(),
        done.kept,
        cap(count),
        done.boards,
        tally.candidates,
        tally.too_easy,
        tally.unproven,
    )
}

/// Judges boards `range` for each of the `joining` seed counts on the searchers' threads: per
/// seed count, the verdicts in board order.
fn judge_batch(
    tables: &Tables,
    searchers: &mut [Searchers],
    plan: &Plan,
    range: std::ops::Range<usize>,
    joining: &[Joining],
) -> Vec<Vec<Verdict>> {
    let threads = searchers.len();
    let mut parts: Vec<Vec<(usize, Vec<Vec<Verdict>>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = searchers
            .iter_mut()
            .enumerate()
            .map(|(t, searcher)| {
                let range = range.clone();
                scope.spawn(move || {
                    range
                        .filter(|k| k % threads == t)
                        .map(|k| (k, one_board(tables, searcher, plan, k, joining)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut all: Vec<(usize, Vec<Vec<Verdict>>)> = parts.drain(..).flatten().collect();
    all.sort_by_key(|(k, _)| *k);
    let mut per_count: Vec<Vec<Verdict>> = joining.iter().map(|_| Vec::new()).collect();
    for (_, verdicts) in all {
        for (into, from) in per_count.iter_mut().zip(verdicts) {
            into.extend(from);
        }
    }
    per_count
}

/// The stream of game `k`'s random moves, apart from every seed count's own stream (those
/// use the seed count in bits 40 and up, and boards below 2^40).
const GAME_STREAM: u64 = 1 << 63;

/// Board index `index` for each of the `joining` seed counts (several boards of a count may
/// come from one game): every candidate store split of each, judged; one list per count.
fn one_board(
    tables: &Tables,
    searchers: &mut Searchers,
    plan: &Plan,
    index: usize,
    joining: &[Joining],
) -> Vec<Vec<Verdict>> {
    let stream = |seeds: u8| (u64::from(seeds) << 40) | index as u64;
    let played = match plan.boards {
        Boards::Random => Vec::new(),
        Boards::Games(nodes) => {
            let lowest = joining.iter().map(|j| j.seeds).min().unwrap_or(0);
            let highest = joining.iter().map(|j| j.seeds).max().unwrap_or(0);
            let mut rng = Rng::derived(plan.seed, GAME_STREAM | index as u64);
            game_boards(&mut searchers.player, lowest..=highest, nodes, &mut rng)
        }
    };
    joining
        .iter()
        .map(|joined| {
            let seeds = joined.seeds;
            let mut rng = Rng::derived(plan.seed, stream(seeds));
            let boards: Vec<Position> = match plan.boards {
                Boards::Random => random_board(seeds, &mut rng).into_iter().collect(),
                Boards::Games(_) => played
                    .iter()
                    .filter(|b| b.seeds_on_board() == seeds)
                    .copied()
                    .collect(),
            };
            boards
                .iter()
                .flat_map(|board| {
                    judge_board(
                        tables,
                        &mut searchers.engine,
                        plan,
                        seeds,
                        board,
                        &mut rng,
                        &joined.open,
                    )
                })
                .collect()
        })
        .collect()
}

/// The distinct boards (by their pits) with a number of seeds in `seeds` in one game of
/// Krou against itself at `nodes` nodes a move, with random moves mixed in as `rng` says; the
/// game stops below the fewest.
fn game_boards(
    player: &mut Searcher,
    seeds: std::ops::RangeInclusive<u8>,
    nodes: u64,
    rng: &mut Rng,
) -> Vec<Position> {
    let mut game = Game::new(Position::start(), judge::RULE);
    let opening = 2 + rng.below(7);
    let mut found: Vec<Position> = Vec::new();
    player.clear();
    while game.outcome().is_none() && game.moves().len() < 300 {
        let position = *game.position();
        let on_board = position.seeds_on_board();
        if on_board < *seeds.start() {
            break;
        }
        if seeds.contains(&on_board) && !found.iter().any(|p| p.pits() == position.pits()) {
            found.push(position);
        }
        let moves: Vec<Move> = game.legal_moves().collect();
        let random = game.moves().len() < opening || rng.below(8) == 0;
        let mv = if random {
            moves.get(rng.below(moves.len())).copied()
        } else {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            player
                .search(&game, &limits, &Control::new(false), &mut |_| {})
                .best
        };
        if mv.is_none_or(|mv| game.play(mv).is_err()) {
            break;
        }
    }
    found
}

/// Every candidate store split of a board (from a random one on), judged.
fn judge_board(
    tables: &Tables,
    engine: &mut Engine,
    plan: &Plan,
    seeds: u8,
    board: &Position,
    rng: &mut Rng,
    open: &[bool; 6],
) -> Vec<Verdict> {
    let Some(moves) = tables.moves(board) else {
        return Vec::new();
    };
    let leads = feasible_leads(seeds);
    let start = rng.below(leads.len());
    (0..leads.len())
        .filter_map(|k| with_lead(board, leads[(start + k) % leads.len()]))
        .map(|position| judge_split(tables, engine, plan, &position, &moves, open))
        .filter(|v| !matches!(v, Verdict::Nothing))
        .collect()
}

/// One store split of a board (`moves`, the tables' bounds of its moves), judged: by the short
/// search, then, if it fails, by the confirming one.
fn judge_split(
    tables: &Tables,
    engine: &mut Engine,
    plan: &Plan,
    position: &Position,
    moves: &[MoveBounds],
    open: &[bool; 6],
) -> Verdict {
    let side = position.side_to_move();
    let lead = i32::from(position.store(side)) - i32::from(position.store(side.opponent()));
    let Some(all) = moves
        .iter()
        .map(|m| quick_result(lead, m.bounds.lo, m.bounds.hi))
        .collect::<Option<Vec<_>>>()
    else {
        return Verdict::Nothing;
    };
    let Some(best) = all.iter().copied().max() else {
        return Verdict::Nothing;
    };
    let right = all.iter().filter(|&&r| r == best).count();
    let Some(kind) = kind(best, right) else {
        return Verdict::Nothing;
    };
    if !open[kind] || right == all.len() {
        return Verdict::Nothing;
    }
    let Some(played) = engine_move(&mut engine.quick, position, plan.nodes) else {
        return Verdict::Nothing;
    };
    let Some(index) = moves.iter().position(|m| m.mv == played) else {
        return Verdict::Nothing;
    };
    if all[index] == best {
        return Verdict::TooEasy;
    }
    // The slower check that quiet moves cannot bring the position back.
    let Some(judgement) = judge::judge(tables, position) else {
        return Verdict::Unproven;
    };
    if judgement.result != Some(best) || judgement.best().len() != right {
        return Verdict::Unproven;
    }
    let mut said = format!(
        "Krou at {} nodes with tables 0-{} played {played}",
        plan.nodes, plan.engine_seeds
    );
    if let Some(nodes) = plan.confirm_nodes {
        let Some(again) = engine_move(&mut engine.full, position, nodes) else {
            return Verdict::Nothing;
        };
        if judgement.best().contains(&again) {
            return Verdict::TooEasy;
        }
        said += &format!(", at {nodes} nodes {again}");
    }
    let mut kept = entry(*position, &judgement, position.seeds_on_board());
    kept.comments.push((1, said));
    Verdict::Kept(Box::new(kept), kind)
}

/// The move Krou plays as a fresh engine would, with `searcher`'s hash: cleared, one thread,
/// `nodes` nodes.
pub fn engine_move(searcher: &mut Searcher, position: &Position, nodes: u64) -> Option<Move> {
    searcher.clear();
    let game = Game::new(*position, judge::RULE);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    searcher
        .search(&game, &limits, &Control::new(false), &mut |_| {})
        .best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_kind_takes_more_than_half_a_seed_count() {
        assert_eq!(cap(180), 90);
        assert_eq!(cap(7), 4);
    }

    #[test]
    fn kinds_count_three_or_more_right_moves_together() {
        assert_eq!(kind(Result::Win, 1), Some(0));
        assert_eq!(kind(Result::Draw, 5), Some(5));
        assert_eq!(kind(Result::Loss, 1), None);
    }
}
