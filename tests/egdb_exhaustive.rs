//! The endgame tables against an independent exhaustive search that applies the real rules:
//! the first repetition of a position ends the game and each side takes the seeds on its side;
//! the history starts at the probed position.
//!
//! The search never reads a value from the tables: it uses them only to order moves and as the
//! thresholds of its null-window checks. It solves the seed counts in increasing order (a capture
//! leads to a smaller count, already solved) and, within a count, searches every line with its
//! real history. Two exact facts keep it fast:
//! - moves that do not capture form a graph; a position reachable from a position of the history
//!   that is also reachable back to it lies in the same strongly connected component, so the value
//!   of a line depends on its history only through the history's positions in the component of
//!   the current position. On entering a component (none of its positions in the history) the
//!   value is the one of a game starting there, and is remembered by position;
//! - the history is a path of node numbers with a flag per node, so a repetition test is one read.
//!
//! `KROU_EGDB_VERIFY_SEEDS=5 cargo test --release --test egdb_exhaustive -- --ignored` runs the
//! comparison further, for the three grand-slam rules (see the README's endgame tables section).

mod common;

use common::boards;
use krou::egdb::Tables;
use krou::rules::{GrandSlam, Move, Position, Side};
use std::collections::HashMap;

/// The seed counts the comparison covers in `cargo test`.
const CI_SEEDS: u8 = 3;

/// A position by its pits and side to move, with stores that cannot end the game.
fn position(pits: [u8; 12], side: Side) -> Position {
    let off = 48 - pits.iter().sum::<u8>();
    Position::new(pits, [off / 2, off - off / 2], side).expect("48 seeds")
}

/// The mover's seeds minus the opponent's: the margin when the game ends here.
fn own_split(p: &Position, mover: Side) -> i8 {
    p.seeds_on_side(mover) as i8 - p.seeds_on_side(mover.opponent()) as i8
}

/// The pits and side to move packed in one number (five bits a pit: up to 31 seeds).
fn key(p: &Position) -> u64 {
    let side = u64::from(p.side_to_move() == Side::North);
    p.pits().iter().fold(side, |k, &s| k << 5 | u64::from(s))
}

/// A move of a node: to another node of the same seed count, or a capture whose gain for the
/// mover (seeds captured minus the value of the smaller position reached) is already known.
#[derive(Clone, Copy)]
struct Edge {
    mv: Move,
    /// The node reached, or `None` after a capture.
    to: Option<u32>,
    gain: i8,
}

/// One seed count solved: every position (both sides to move) and its value for a game that
/// starts there.
struct Solved {
    index: HashMap<u64, u32>,
    values: Vec<i8>,
}

/// The positions of one seed count, the moves between them, and the search's state.
struct Layer {
    seeds: u8,
    index: HashMap<u64, u32>,
    positions: Vec<Position>,
    /// The own split of each node's side to move: the margin if the game ended there.
    split: Vec<i8>,
    /// The moves of node `i` are `edges[first[i]..first[i + 1]]`, in search order.
    first: Vec<usize>,
    edges: Vec<Edge>,
    /// The strongly connected component of each node in the graph of non-capturing moves.
    component: Vec<u32>,
    /// The nodes of the current line's history, and how many of each component it holds.
    on_path: Vec<bool>,
    component_on_path: Vec<u32>,
    /// Proven bounds on each node's value for a game starting there.
    known: Vec<(i8, i8)>,
    /// Nodes expanded, for the report.
    expanded: u64,
}

/// The strongly connected components of a graph given by its edge lists (Tarjan, without
/// recursion).
fn components(first: &[usize], edges: &[Edge]) -> Vec<u32> {
    const NONE: u32 = u32::MAX;
    let n = first.len() - 1;
    let (mut order, mut low) = (vec![NONE; n], vec![NONE; n]);
    let (mut on_stack, mut stack, mut component) = (vec![false; n], Vec::new(), vec![NONE; n]);
    let (mut next, mut count, mut calls) = (0, 0, Vec::new());
    for root in 0..n {
        if order[root] != NONE {
            continue;
        }
        (order[root], low[root], on_stack[root]) = (next, next, true);
        next += 1;
        stack.push(root);
        calls.push((root, first[root]));
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if *e < first[v + 1] {
                let to = edges[*e].to;
                *e += 1;
                let Some(w) = to.map(|w| w as usize) else {
                    continue;
                };
                if order[w] == NONE {
                    (order[w], low[w], on_stack[w]) = (next, next, true);
                    next += 1;
                    stack.push(w);
                    calls.push((w, first[w]));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
            } else {
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == order[v] {
                    while let Some(w) = stack.pop() {
                        (on_stack[w], component[w]) = (false, count);
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
    }
    component
}

impl Layer {
    /// The positions with `seeds` seeds and their moves, the smaller counts being `solved`;
    /// moves are searched in the order `tables` lists them (the only use of the tables).
    fn new(rule: GrandSlam, seeds: u8, solved: &[Solved], tables: &Tables) -> Layer {
        assert!(seeds < 32 && solved.len() == usize::from(seeds));
        let positions: Vec<Position> = boards(seeds)
            .into_iter()
            .flat_map(|pits| Side::BOTH.map(|side| position(pits, side)))
            .collect();
        let index: HashMap<u64, u32> = (0..).zip(&positions).map(|(i, p)| (key(p), i)).collect();
        let (mut first, mut edges) = (vec![0], Vec::new());
        for p in &positions {
            let listed = tables.moves(p).expect("covered");
            for m in &listed {
                let played = p.play_unchecked(m.mv, rule);
                let child = position(played.position.pits(), played.position.side_to_move());
                let edge = if played.captured == 0 {
                    Edge {
                        mv: m.mv,
                        to: Some(index[&key(&child)]),
                        gain: 0,
                    }
                } else {
                    let below = &solved[usize::from(seeds - played.captured)];
                    let value = below.values[below.index[&key(&child)] as usize];
                    Edge {
                        mv: m.mv,
                        to: None,
                        gain: played.captured as i8 - value,
                    }
                };
                edges.push(edge);
            }
            assert_eq!(listed.len(), p.legal_moves(rule).len());
            first.push(edges.len());
        }
        let n = positions.len();
        let component = components(&first, &edges);
        let bound = seeds as i8 + 1;
        Layer {
            seeds,
            index,
            split: positions
                .iter()
                .map(|p| own_split(p, p.side_to_move()))
                .collect(),
            positions,
            first,
            edges,
            component_on_path: vec![0; component.iter().max().map_or(0, |&c| c as usize + 1)],
            component,
            on_path: vec![false; n],
            known: vec![(-bound, bound); n],
            expanded: 0,
        }
    }

    fn push(&mut self, node: u32) {
        self.on_path[node as usize] = true;
        self.component_on_path[self.component[node as usize] as usize] += 1;
    }

    fn pop(&mut self, node: u32) {
        self.on_path[node as usize] = false;
        self.component_on_path[self.component[node as usize] as usize] -= 1;
    }

    /// The value of `node` for its side to move, the history being the current path (alpha-beta,
    /// fail-soft: a result ≤ alpha is an upper bound, ≥ beta a lower bound).
    fn search(&mut self, node: u32, alpha: i8, beta: i8) -> i8 {
        let n = node as usize;
        let fresh = self.component_on_path[self.component[n] as usize] == 0;
        if fresh {
            let (lo, hi) = self.known[n];
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
        }
        self.push(node);
        let v = self.expand(node, alpha, beta);
        self.pop(node);
        if fresh {
            let (lo, hi) = &mut self.known[n];
            if v > alpha {
                *lo = (*lo).max(v);
            }
            if v < beta {
                *hi = (*hi).min(v);
            }
        }
        v
    }

    /// The best of `node`'s moves, `node` being the last position of the path.
    fn expand(&mut self, node: u32, mut alpha: i8, beta: i8) -> i8 {
        self.expanded += 1;
        let n = node as usize;
        if self.first[n] == self.first[n + 1] {
            return self.split[n];
        }
        let mut best = i8::MIN;
        for e in self.first[n]..self.first[n + 1] {
            let v = self.after(self.edges[e], alpha, beta);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// What the mover gains by the move `edge` from the last position of the path.
    fn after(&mut self, edge: Edge, alpha: i8, beta: i8) -> i8 {
        match edge.to {
            None => edge.gain,
            Some(to) if self.on_path[to as usize] => -self.split[to as usize],
            Some(to) => -self.search(to, -beta, -alpha),
        }
    }

    /// The value of a game starting at `node`.
    fn value(&mut self, node: u32) -> i8 {
        let bound = self.seeds as i8 + 1;
        self.search(node, -bound, bound)
    }

    /// Whether the value of a game starting at `node` reaches `bound` (a null-window search).
    fn reaches(&mut self, node: u32, bound: i8) -> bool {
        self.search(node, bound - 1, bound) >= bound
    }

    /// Every node's value for a game starting there.
    fn solve(mut self) -> Solved {
        let values = (0..self.positions.len() as u32)
            .map(|node| self.value(node))
            .collect();
        Solved {
            index: self.index,
            values,
        }
    }

    /// The value of a game starting at `node` after its move `edge`, checked against `bound`:
    /// whether it reaches it.
    fn move_reaches(&mut self, node: u32, edge: Edge, bound: i8) -> bool {
        self.push(node);
        let v = self.after(edge, bound - 1, bound);
        self.pop(node);
        v >= bound
    }
}

/// How the tables compare with the exhaustive search on one seed count.
#[derive(Debug, Default, PartialEq, Eq)]
struct Comparison {
    positions: usize,
    /// Exact table value equal to the true value.
    exact_agree: usize,
    /// Table bounds with lo < hi that contain the true value.
    bounded: usize,
    /// True value outside the table bounds (must never happen).
    wrong: usize,
    /// Exact positions where a move the tables list as best (its lower bound reaches the
    /// value) is worse under the real rules.
    wrong_best_move: usize,
    /// Of those, positions where it is the first move listed (the one `probe` shows first).
    wrong_first_best_move: usize,
}

fn compare(tables: &Tables, layer: &mut Layer) -> Comparison {
    let mut c = Comparison::default();
    for pits in boards(layer.seeds) {
        for side in Side::BOTH {
            let p = position(pits, side);
            let node = layer.index[&key(&p)];
            let bounds = tables.probe(&p).expect("covered");
            c.positions += 1;
            if !layer.reaches(node, bounds.lo) || layer.reaches(node, bounds.hi + 1) {
                c.wrong += 1;
                let value = layer.value(node);
                eprintln!("{p}: table {bounds}, true value {value}");
            } else if let Some(v) = bounds.value() {
                c.exact_agree += 1;
                let moves = tables.moves(&p).expect("covered");
                let best = moves.iter().filter(|m| m.bounds.lo == v);
                let edges = layer.first[node as usize]..layer.first[node as usize + 1];
                for (k, m) in best.enumerate() {
                    let edge = edges.clone().map(|e| layer.edges[e]).find(|e| e.mv == m.mv);
                    if !layer.move_reaches(node, edge.expect("a legal move"), v) {
                        c.wrong_best_move += 1;
                        c.wrong_first_best_move += usize::from(k == 0);
                        break;
                    }
                }
            } else {
                c.bounded += 1;
            }
        }
    }
    c
}

fn check_rule(rule: GrandSlam, max_seeds: u8) {
    let tables = Tables::build(rule, max_seeds, 2);
    let mut solved = Vec::new();
    for seeds in 0..=max_seeds {
        let start = std::time::Instant::now();
        let mut layer = Layer::new(rule, seeds, &solved, &tables);
        let c = compare(&tables, &mut layer);
        let largest = (0..layer.component_on_path.len() as u32)
            .map(|k| layer.component.iter().filter(|&&x| x == k).count())
            .max();
        eprintln!(
            "{rule} {seeds} seeds: {c:?} ({} nodes expanded, largest cycle component {largest:?}, {:.1?})",
            layer.expanded,
            start.elapsed()
        );
        assert_eq!(c.wrong, 0, "{rule} {seeds} seeds: {c:?}");
        assert_eq!(c.positions, 2 * boards(seeds).len());
        if seeds < max_seeds {
            solved.push(layer.solve());
        }
    }
}

#[test]
fn tables_bound_the_true_value_under_the_default_rule() {
    check_rule(GrandSlam::NoCapture, CI_SEEDS);
}

#[test]
fn tables_bound_the_true_value_under_the_other_rules() {
    check_rule(GrandSlam::Forbidden, CI_SEEDS);
    check_rule(GrandSlam::CaptureAll, CI_SEEDS);
}

/// The same comparison to `KROU_EGDB_VERIFY_SEEDS` seeds (default 5) for the three grand-slam
/// rules: minutes, not CI.
#[test]
#[ignore]
fn tables_bound_the_true_value_further() {
    let seeds = std::env::var("KROU_EGDB_VERIFY_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    for rule in [
        GrandSlam::NoCapture,
        GrandSlam::Forbidden,
        GrandSlam::CaptureAll,
    ] {
        check_rule(rule, seeds);
    }
}
