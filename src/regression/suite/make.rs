//! `krou suite make proven`: positions whose answers the endgame tables prove by the game's
//! result, kept only where a fixed shallow search plays a wrong move.
//!
//! For each seed count, random boards (each seed dropped into one of the 12 pits, side to move
//! at random) are judged for every store split the board allows (`own − opponent` from `−n` to
//! `n` in steps of 2): a split is a candidate when every move's result is proven and some move
//! gives the position's result up. A lost position is never one (every move loses), so the
//! candidates are won positions (`bm` keeps the win, `am` draws or loses) and drawn ones (`am`
//! loses). A candidate is kept when Krou's own search at a fixed depth, without tables, on one
//! thread (deterministic), plays a move outside `bm`. Everything follows from `--seed`.

use super::entry::{Entry, Source};
use super::judge::{self, Judgement, RULE, Result};
use crate::egdb::Tables;
use crate::referee::rng::Rng;
use crate::rules::{Game, Move, Position, Side, TOTAL_SEEDS};
use crate::search::{Control, Limits, Searcher, Settings};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The generator's seed.
    pub seed: u64,
    /// How many positions for each seed count (half won, half drawn; a won one more when odd).
    pub counts: Vec<(u8, usize)>,
    /// The depth of the shallow search a kept position must fool.
    pub depth: u32,
    /// The most random boards tried for one seed count.
    pub max_tries: usize,
}

/// Counters of a generation, for the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Boards tried.
    pub boards: usize,
    /// Candidates (every move proven, one gives the result up) searched.
    pub candidates: usize,
    /// Candidates the shallow search got right (dropped).
    pub too_easy: usize,
    /// Candidates dropped because a quiet move could bring the position back.
    pub unproven: usize,
    /// Positions kept.
    pub kept: usize,
    /// Kept positions drawn again (skipped).
    pub repeated: usize,
}

/// Generates the entries of `plan` from `tables`, calling `log` with a line per seed count.
pub fn make(tables: &Tables, plan: &Plan, log: &mut dyn FnMut(&str)) -> Vec<Entry> {
    let mut searcher = Searcher::new(Settings {
        hash_mib: 1,
        threads: 1,
    });
    let mut entries = Vec::new();
    for &(seeds, count) in &plan.counts {
        let mut rng = Rng::derived(plan.seed, u64::from(seeds));
        let mut wanted = [count.div_ceil(2), count / 2];
        let mut tally = Tally::default();
        let mut kept: Vec<Entry> = Vec::new();
        while wanted != [0, 0] && tally.boards < plan.max_tries {
            tally.boards += 1;
            if tally.boards % 100_000 == 0 {
                log(&format!("{seeds} seeds: {tally:?}"));
            }
            let found = one_board(
                tables,
                &mut searcher,
                plan,
                seeds,
                &mut rng,
                &mut wanted,
                &mut tally,
            );
            if let Some(entry) = found {
                if kept.iter().any(|k| k.position == entry.position) {
                    // Drawn again: the board comes back with its slot given back.
                    let slot = usize::from(
                        entry
                            .category
                            .as_deref()
                            .is_some_and(|c| c.starts_with("draw")),
                    );
                    wanted[slot] += 1;
                    tally.kept -= 1;
                    tally.repeated += 1;
                } else {
                    kept.push(entry);
                }
            }
        }
        kept.sort_by_key(|e: &Entry| e.category.clone());
        for (k, entry) in kept.iter_mut().enumerate() {
            let category = entry.category.clone().unwrap_or_default();
            entry.id = Some(format!("proven {category} {:03}", k + 1));
        }
        log(&format!(
            "{seeds} seeds: {} kept ({} won, {} drawn short), {} boards, {} candidates, {} too easy at depth {}, {} unproven (a quiet move may repeat), {} drawn again",
            tally.kept,
            wanted[0],
            wanted[1],
            tally.boards,
            tally.candidates,
            tally.too_easy,
            plan.depth,
            tally.unproven,
            tally.repeated
        ));
        entries.extend(kept);
    }
    entries
}

/// Tries one random board: the entry kept from it, if any.
fn one_board(
    tables: &Tables,
    searcher: &mut Searcher,
    plan: &Plan,
    seeds: u8,
    rng: &mut Rng,
    wanted: &mut [usize; 2],
    tally: &mut Tally,
) -> Option<Entry> {
    let board = random_board(seeds, rng)?;
    let moves = tables.moves(&board)?;
    let leads = feasible_leads(seeds);
    let start = rng.below(leads.len());
    for k in 0..leads.len() {
        let lead = leads[(start + k) % leads.len()];
        let results: Vec<Option<Result>> = moves
            .iter()
            .map(|m| quick_result(lead, m.bounds.lo, m.bounds.hi))
            .collect();
        let Some(all) = results.iter().copied().collect::<Option<Vec<_>>>() else {
            continue;
        };
        let best = all.iter().copied().max()?;
        let slot = match best {
            Result::Win => 0,
            Result::Draw => 1,
            Result::Loss => continue,
        };
        if wanted[slot] == 0 || all.iter().all(|&r| r == best) {
            continue;
        }
        let position = with_lead(&board, lead)?;
        tally.candidates += 1;
        let played = shallow_move(searcher, &position, plan.depth)?;
        let index = moves.iter().position(|m| m.mv == played)?;
        if all[index] == best {
            tally.too_easy += 1;
            return None;
        }
        // Only now the slower check that quiet moves cannot bring the position back.
        let judgement = judge::judge(tables, &position)?;
        if judgement.result != Some(best) || judgement.avoid().is_empty() {
            tally.unproven += 1;
            return None;
        }
        wanted[slot] -= 1;
        tally.kept += 1;
        return Some(entry(position, &judgement, seeds));
    }
    None
}

/// The result of a move from its bounds, when they settle it (recurrence not yet checked).
pub(super) fn quick_result(lead: i32, lo: i8, hi: i8) -> Option<Result> {
    let sign = |v: i8| (lead + i32::from(v)).signum();
    (sign(lo) == sign(hi)).then(|| match sign(lo) {
        1 => Result::Win,
        0 => Result::Draw,
        _ => Result::Loss,
    })
}

/// The entry of a kept position.
pub(super) fn entry(position: Position, judgement: &Judgement, seeds: u8) -> Entry {
    let result = judgement.result.map_or("?", Result::name);
    let mut entry = Entry::new(position);
    entry.best = judgement.best();
    entry.avoid = judgement.avoid();
    entry.category = Some(format!("{result} {seeds}"));
    entry.source = Some(Source::Proven);
    entry.comments = vec![(0, format!("tables: {}", judgement.describe()))];
    entry
}

/// A random board of `seeds` seeds (stores split evenly for now), side to move at random.
pub(super) fn random_board(seeds: u8, rng: &mut Rng) -> Option<Position> {
    let mut pits = [0u8; 12];
    for _ in 0..seeds {
        pits[rng.below(12)] += 1;
    }
    let side = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    let stores = TOTAL_SEEDS - seeds;
    let position = Position::new(pits, [stores - stores / 2, stores / 2], side)?;
    (!position.legal_moves(RULE).is_empty()).then_some(position)
}

/// The store differences (side to move's minus the opponent's) a board of `seeds` allows with
/// no store above 24.
pub(super) fn feasible_leads(seeds: u8) -> Vec<i32> {
    let n = i32::from(seeds);
    (-n..=n).step_by(2).collect()
}

/// `board` with its stores set so that the side to move leads by `lead`.
pub(super) fn with_lead(board: &Position, lead: i32) -> Option<Position> {
    let stores = i32::from(TOTAL_SEEDS - board.seeds_on_board());
    let own = u8::try_from((stores + lead) / 2).ok()?;
    let other = u8::try_from((stores - lead) / 2).ok()?;
    let side = board.side_to_move();
    let pair = match side {
        Side::South => [own, other],
        Side::North => [other, own],
    };
    let position = Position::new(board.pits(), pair, side)?;
    (!position.decided_by_stores() && !position.legal_moves(RULE).is_empty()).then_some(position)
}

/// The move Krou's search plays at `depth` plies, without tables, on one thread.
pub fn shallow_move(searcher: &mut Searcher, position: &Position, depth: u32) -> Option<Move> {
    searcher.clear();
    let game = Game::new(*position, RULE);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(&game, &limits, &Control::new(false), &mut |_| {})
        .best
}
