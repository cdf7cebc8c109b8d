//! Builds a book by drop-out expansion: the positions most likely to be reached from the start
//! are searched first. A position's cost is the sum, over the moves that lead to it, of how far
//! each move's score fell below the best move's (in 100 × seeds) plus [`Plan::ply_cost`] a ply;
//! the cheapest position not yet in the book is searched next (every legal move, one line each),
//! and each of its moves gives a child at the cost of getting there.
//!
//! Searches run at a fixed node count with a cleared hash table, a batch of [`Plan::threads`]
//! positions at a time, so the same plan builds the same book.

use super::file::{Book, Entry, Key, NO_SCORE, key};
use crate::egdb::Tables;
use crate::rules::{Game, GrandSlam, Move, Position};
use crate::search::{Control, Limits, Score, Searcher, Settings};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::sync::Arc;

/// What to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Positions to search (the book's size).
    pub positions: usize,
    /// Nodes searched for each position (for all its moves together).
    pub nodes: u64,
    /// Positions searched at once, one thread each.
    pub threads: usize,
    /// The cost of each ply, in 100 × seeds, so that deep positions wait for shallow ones.
    pub ply_cost: i32,
    /// Positions deeper than this many plies are not searched.
    pub max_plies: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            positions: 4000,
            nodes: 1_000_000,
            threads: 2,
            ply_cost: 40,
            max_plies: 40,
        }
    }
}

/// The score of each legal move of `game`'s position (100 × seeds; a proven result as
/// ±(10000 − moves to the end)), from a search of every move at `nodes` nodes.
pub fn score_moves(searcher: &mut Searcher, game: &Game, nodes: u64) -> Vec<(Move, i32)> {
    let legal = game.legal_moves().len();
    let limits = Limits {
        nodes: Some(nodes),
        multi_pv: legal,
        ..Limits::default()
    };
    searcher.clear();
    // The lines of each depth, as reported; the deepest depth with every move is used.
    let mut depths: Vec<(u32, Vec<(Move, i32)>)> = Vec::new();
    searcher.search(game, &limits, &Control::new(false), &mut |info| {
        let Some(&mv) = info.pv.first() else {
            return;
        };
        let score = match info.score {
            Score::Cp(cp) => cp.clamp(-9_000, 9_000),
            Score::Mate(n) if n > 0 => 10_000 - n,
            Score::Mate(n) => -10_000 - n,
        };
        match depths.last_mut() {
            Some((depth, lines)) if *depth == info.depth => {
                lines.retain(|&(m, _)| m != mv);
                lines.push((mv, score));
            }
            _ => depths.push((info.depth, vec![(mv, score)])),
        }
    });
    depths
        .into_iter()
        .rev()
        .find(|(_, lines)| lines.len() == legal)
        .map(|(_, lines)| lines)
        .unwrap_or_default()
}

/// A position waiting to be searched: its cost, the order it was found in, and its moves.
type Waiting = Reverse<(i32, usize, Vec<Move>)>;

/// Builds a book by `plan`; `report` hears how many positions are done after each batch.
pub fn build(plan: &Plan, tables: Option<Arc<Tables>>, report: &dyn Fn(usize)) -> Book {
    let threads = plan.threads.max(1);
    let mut searchers: Vec<Searcher> = (0..threads)
        .map(|_| {
            let mut searcher = Searcher::new(Settings {
                hash_mib: 16,
                threads: 1,
            });
            searcher.set_tables(tables.clone());
            searcher
        })
        .collect();
    let mut waiting: BinaryHeap<Waiting> = BinaryHeap::new();
    waiting.push(Reverse((0, 0, Vec::new())));
    let mut found = 1;
    let mut seen: HashSet<Key> = HashSet::new();
    let mut entries = Vec::new();
    while entries.len() < plan.positions {
        let mut batch: Vec<(i32, Game)> = Vec::new();
        while batch.len() < threads.min(plan.positions - entries.len()) {
            let Some(Reverse((cost, _, moves))) = waiting.pop() else {
                break;
            };
            let Some(game) = replay(&moves) else {
                continue;
            };
            if game.outcome().is_some() || moves.len() > plan.max_plies {
                continue;
            }
            if seen.insert(key(game.position())) {
                batch.push((cost, game));
            }
        }
        if batch.is_empty() {
            break;
        }
        let scored: Vec<Vec<(Move, i32)>> = std::thread::scope(|scope| {
            let jobs: Vec<_> = batch
                .iter()
                .zip(searchers.iter_mut())
                .map(|((_, game), searcher)| {
                    scope.spawn(move || score_moves(searcher, game, plan.nodes))
                })
                .collect();
            jobs.into_iter()
                .map(|job| job.join().unwrap_or_default())
                .collect()
        });
        for ((cost, game), moves) in batch.iter().zip(scored) {
            let Some(best) = moves.iter().map(|&(_, s)| s).max() else {
                continue;
            };
            let first = game.position().side_to_move().first_pit();
            let mut scores = [NO_SCORE; 6];
            for &(mv, score) in &moves {
                scores[mv.pit() - first] = score as i16;
                let mut line = game.moves().to_vec();
                line.push(mv);
                let child = cost + (best - score) + plan.ply_cost;
                waiting.push(Reverse((child, found, line)));
                found += 1;
            }
            entries.push(Entry {
                key: key(game.position()),
                scores,
            });
        }
        report(entries.len());
    }
    Book::new(entries)
}

/// The game from the start along `moves`, if they are legal.
fn replay(moves: &[Move]) -> Option<Game> {
    let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
    for &mv in moves {
        game.play(mv).ok()?;
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_book_starts_at_the_start_and_scores_every_move() {
        let plan = Plan {
            positions: 9,
            nodes: 3_000,
            ..Plan::default()
        };
        let book = build(&plan, None, &|_| {});
        assert_eq!(book.len(), 9);
        let start = Position::start();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 6, "every opening move is scored");
        // The best move's reply is the next position searched: it is in the book too.
        let (best, _) = moves[0];
        let next = start.play_unchecked(best, GrandSlam::NoCapture).position;
        assert_eq!(book.moves(&next).len(), 6);
        assert_eq!(
            build(&plan, None, &|_| {}),
            book,
            "the same plan builds the same book"
        );
    }
}
