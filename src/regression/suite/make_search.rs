//! `krou suite make search`: middle-game positions from real games whose best move a long
//! search finds clearly better than every other move. These answers are searched, not proven
//! (`src "search"`).
//!
//! Games: Krou against itself from the start, a few pseudo-random moves first, then a fixed
//! number of nodes a move (one thread, deterministic). Every `stride`-th position with at least
//! `min_seeds` seeds on the board is analysed: every move searched to a fixed depth with as
//! many lines as moves (MultiPV). Kept when the best move is a proven win and no other move is,
//! or when its score beats every other move's by at least `gap` seeds (`bm` that move).

use super::entry::{Entry, Source};
use super::judge::RULE;
use crate::egdb::Tables;
use crate::referee::rng::Rng;
use crate::rules::{Game, Move, Position};
use crate::search::{Control, Limits, Score, Searcher, Settings};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The generator's seed (the random opening moves).
    pub seed: u64,
    /// Positions wanted.
    pub count: usize,
    /// The most games played.
    pub max_games: usize,
    /// Nodes a move in the games.
    pub game_nodes: u64,
    /// The depth every move is analysed to.
    pub depth: u32,
    /// The clear margin, in seeds, the best move must keep over every other.
    pub gap: i32,
    /// Fewest seeds on the board of an analysed position.
    pub min_seeds: u8,
    /// Every how many plies a position is analysed.
    pub stride: usize,
}

/// A score as a number for comparisons: centi-seeds, proven results beyond any margin.
fn value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// Plays games `first_game..plan.max_games` and analyses their positions (each position once,
/// those of `earlier` included) until, with the `earlier` entries (kept before `first_game`,
/// when resuming), `plan.count` are kept; `sink` hears of each game's number and its kept
/// entries, in order.
pub fn make(
    plan: &Plan,
    tables: Option<Arc<Tables>>,
    first_game: usize,
    earlier: &[Entry],
    sink: &mut dyn FnMut(usize, &[Entry]),
) {
    let mut kept = earlier.len();
    // Games that open alike reach the same positions: each is analysed once.
    let mut seen: HashSet<Position> = earlier.iter().map(|e| e.position).collect();
    let settings = Settings {
        hash_mib: 64,
        threads: 1,
    };
    let mut player = Searcher::new(settings);
    let mut analyst = Searcher::new(settings);
    player.set_tables(tables.clone());
    analyst.set_tables(tables);
    for game_no in first_game..plan.max_games {
        if kept >= plan.count {
            break;
        }
        let mut entries = Vec::new();
        for (ply, position) in play(&mut player, plan, game_no) {
            if kept + entries.len() >= plan.count || !seen.insert(position) {
                continue;
            }
            if let Some(mut entry) = analyse(&mut analyst, plan, &position) {
                entry.id = Some(format!("search g{game_no:03} p{ply:03}"));
                entries.push(entry);
            }
        }
        kept += entries.len();
        sink(game_no, &entries);
    }
}

/// One game; the positions to analyse with their ply numbers.
fn play(player: &mut Searcher, plan: &Plan, game_no: usize) -> Vec<(usize, Position)> {
    let mut rng = Rng::derived(plan.seed, game_no as u64);
    let opening = 2 + rng.below(7);
    let mut game = Game::new(Position::start(), RULE);
    let mut kept = Vec::new();
    player.clear();
    while game.outcome().is_none() && game.moves().len() < 400 {
        let ply = game.moves().len();
        let position = *game.position();
        if ply >= opening
            && ply % plan.stride.max(1) == 0
            && position.seeds_on_board() >= plan.min_seeds
        {
            kept.push((ply, position));
        }
        let moves: Vec<Move> = game.legal_moves().collect();
        let mv = if ply < opening {
            moves.get(rng.below(moves.len())).copied()
        } else {
            let limits = Limits {
                nodes: Some(plan.game_nodes),
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
    kept
}

/// Every move's score at `plan.depth`; the entry when the best one stands out.
fn analyse(analyst: &mut Searcher, plan: &Plan, position: &Position) -> Option<Entry> {
    let game = Game::new(*position, RULE);
    let legal = game.legal_moves().len();
    if legal < 2 {
        return None;
    }
    analyst.clear();
    let limits = Limits {
        depth: Some(plan.depth),
        multi_pv: legal,
        ..Limits::default()
    };
    let mut lines: BTreeMap<(u32, u32), (Move, Score)> = BTreeMap::new();
    analyst.search(&game, &limits, &Control::new(false), &mut |info| {
        if let Some(&mv) = info.pv.first() {
            lines.insert((info.depth, info.multipv), (mv, info.score));
        }
    });
    let depth = lines.keys().map(|k| k.0).max()?;
    let mut scored: Vec<(Move, Score)> = lines
        .range((depth, 0)..=(depth, u32::MAX))
        .map(|(_, line)| *line)
        .collect();
    if scored.len() != legal {
        return None;
    }
    scored.sort_by_key(|(_, s)| -value(*s));
    let (best, top) = scored[0];
    let (_, second) = scored[1];
    let proven_win = matches!(top, Score::Mate(n) if n > 0);
    let kind = if proven_win && !matches!(second, Score::Mate(n) if n > 0) {
        "search win"
    } else if !proven_win && value(top) - value(second) >= plan.gap * 100 {
        "search margin"
    } else {
        return None;
    };
    let mut entry = Entry::new(*position);
    entry.best = vec![best];
    entry.category = Some(kind.to_string());
    entry.source = Some(Source::Search);
    let scores: Vec<String> = scored.iter().map(|(m, s)| format!("{m} {s}")).collect();
    entry.comments = vec![(0, format!("depth {depth}: {}", scores.join(", ")))];
    Some(entry)
}
