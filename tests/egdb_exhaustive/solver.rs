//! The exhaustive search of the endgame comparison: every line with its real history, over the
//! graph of one seed count's positions (see the parent's documentation).

use crate::common::boards;
use krou::egdb::Tables;
use krou::rules::{GrandSlam, Move, Position, Side};
use std::collections::HashMap;

/// A position by its pits and side to move, with stores that cannot end the game.
pub fn position(pits: [u8; 12], side: Side) -> Position {
    let off = 48 - pits.iter().sum::<u8>();
    Position::new(pits, [off / 2, off - off / 2], side).expect("48 seeds")
}

/// The mover's seeds minus the opponent's: the margin when the game ends here.
pub fn own_split(p: &Position, mover: Side) -> i8 {
    p.seeds_on_side(mover) as i8 - p.seeds_on_side(mover.opponent()) as i8
}

/// The pits and side to move packed in one number (five bits a pit: up to 31 seeds).
pub fn key(p: &Position) -> u64 {
    let side = u64::from(p.side_to_move() == Side::North);
    p.pits().iter().fold(side, |k, &s| k << 5 | u64::from(s))
}

/// A move of a node: to another node of the same seed count, or a capture whose gain for the
/// mover (seeds captured minus the value of the smaller position reached) is already known.
#[derive(Clone, Copy)]
pub struct Edge {
    pub mv: Move,
    /// The node reached, or `None` after a capture.
    to: Option<u32>,
    gain: i8,
}

/// A search result with the repetition tests it depends on (see `Layer::frames`).
pub struct Recall {
    alpha: i8,
    beta: i8,
    value: i8,
    tests: Box<[u64]>,
}

/// One seed count solved: every position (both sides to move) and its value for a game that
/// starts there (empty for a count no capture of the comparison reaches).
#[derive(Default)]
pub struct Solved {
    pub index: HashMap<u64, u32>,
    pub values: Vec<i8>,
}

/// The positions of one seed count, the moves between them, and the search's state.
pub struct Layer {
    pub seeds: u8,
    pub index: HashMap<u64, u32>,
    positions: Vec<Position>,
    /// The own split of each node's side to move: the margin if the game ended there.
    split: Vec<i8>,
    /// The moves of node `i` are `edges[first[i]..first[i + 1]]`, in search order.
    pub first: Vec<usize>,
    pub edges: Vec<Edge>,
    /// The strongly connected component of each node in the graph of non-capturing moves.
    pub component: Vec<u32>,
    /// The nodes of the current line's history, and how many of each component it holds.
    on_path: Vec<bool>,
    component_on_path: Vec<u32>,
    /// Proven bounds on each node's value for a game starting there.
    known: Vec<(i8, i8)>,
    /// Each node's number inside its component, each component's width in 64-bit words and
    /// the start of its words in `path_bits`.
    local: Vec<usize>,
    width: Vec<usize>,
    base: Vec<usize>,
    /// The path's nodes, a bit each, component by component.
    path_bits: Vec<u64>,
    /// For each search on the path, the repetition tests its result depends on: the positions
    /// above it found in the history, then the positions found outside it (entered).
    frames: Vec<u64>,
    /// Two searches of each node inside a component (the one with the fewest repetition tests,
    /// and the last other one), each valid under any path that answers its tests the same way.
    recalled: Vec<[Option<Recall>; 2]>,
    /// Nodes expanded, for the report.
    pub expanded: u64,
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
    pub fn new(rule: GrandSlam, seeds: u8, solved: &[Solved], tables: &Tables) -> Layer {
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
        let count = component.iter().max().map_or(0, |&c| c as usize + 1);
        let mut sizes = vec![0usize; count];
        let local = component
            .iter()
            .map(|&c| {
                sizes[c as usize] += 1;
                sizes[c as usize] - 1
            })
            .collect();
        let width: Vec<usize> = sizes.iter().map(|s| s.div_ceil(64)).collect();
        let base = width
            .iter()
            .scan(0, |b, w| Some(std::mem::replace(b, *b + w)))
            .collect();
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
            component_on_path: vec![0; count],
            path_bits: vec![0; width.iter().sum()],
            local,
            width,
            base,
            frames: Vec::new(),
            recalled: (0..n).map(|_| [None, None]).collect(),
            component,
            on_path: vec![false; n],
            known: vec![(-bound, bound); n],
            expanded: 0,
        }
    }

    /// The word and bit of `node` in its component's bit sets, and the sets' width.
    fn bit(&self, node: u32) -> (usize, u64, usize) {
        let n = node as usize;
        let c = self.component[n] as usize;
        (self.local[n] / 64, 1 << (self.local[n] % 64), self.width[c])
    }

    fn push(&mut self, node: u32) {
        let c = self.component[node as usize] as usize;
        let (word, bit, _) = self.bit(node);
        self.on_path[node as usize] = true;
        self.component_on_path[c] += 1;
        self.path_bits[self.base[c] + word] |= bit;
    }

    fn pop(&mut self, node: u32) {
        let c = self.component[node as usize] as usize;
        let (word, bit, _) = self.bit(node);
        self.on_path[node as usize] = false;
        self.component_on_path[c] -= 1;
        self.path_bits[self.base[c] + word] &= !bit;
    }

    /// Adds repetition tests to those of the search at the top of the path (of width `width`).
    fn depend(&mut self, tests: &[u64]) {
        let top = self.frames.len() - tests.len();
        for (f, t) in self.frames[top..].iter_mut().zip(tests) {
            *f |= t;
        }
    }

    /// The last search of `node` inside its component, if its window settles this one and the
    /// current path answers its repetition tests the same way.
    fn recall(&mut self, node: u32, alpha: i8, beta: i8) -> Option<i8> {
        for slot in 0..2 {
            if let Some(v) = self.recall_slot(node, slot, alpha, beta) {
                return Some(v);
            }
        }
        None
    }

    /// The same from one of the node's two slots.
    fn recall_slot(&mut self, node: u32, slot: usize, alpha: i8, beta: i8) -> Option<i8> {
        let n = node as usize;
        let r = self.recalled[n][slot].as_ref()?;
        let exact = r.alpha < r.value && r.value < r.beta;
        let settles = exact
            || (r.value >= r.beta && r.value >= beta)
            || (r.value <= r.alpha && r.value <= alpha);
        let c = self.component[n] as usize;
        let w = self.width[c];
        let path = &self.path_bits[self.base[c]..self.base[c] + w];
        let (found, entered) = r.tests.split_at(w);
        let same = path
            .iter()
            .zip(found.iter().zip(entered))
            .all(|(p, (f, e))| f & !p == 0 && e & p == 0);
        if !(settles && same) {
            return None;
        }
        let (value, tests) = (r.value, r.tests.clone());
        self.depend(&tests);
        Some(value)
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
        } else if let Some(v) = self.recall(node, alpha, beta) {
            return v;
        }
        let (word, bit, w) = self.bit(node);
        let frame = self.frames.len();
        self.frames.resize(frame + 2 * w, 0);
        self.push(node);
        let v = self.expand(node, alpha, beta);
        self.pop(node);
        self.frames[frame + word] &= !bit;
        self.frames[frame + w + word] |= bit;
        let tests: Box<[u64]> = self.frames.split_off(frame).into();
        if !fresh {
            self.depend(&tests);
            let size = |t: &[u64]| t.iter().map(|x| x.count_ones()).sum::<u32>();
            let slot = match &self.recalled[n][0] {
                Some(r) if size(&r.tests) < size(&tests) => 1,
                _ => 0,
            };
            if slot == 0 {
                self.recalled[n][1] = self.recalled[n][0].take();
            }
            self.recalled[n][slot] = Some(Recall {
                alpha,
                beta,
                value: v,
                tests,
            });
        } else {
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
            Some(to) if self.on_path[to as usize] => {
                let (word, bit, w) = self.bit(to);
                let top = self.frames.len() - 2 * w;
                self.frames[top + word] |= bit;
                -self.split[to as usize]
            }
            Some(to) => -self.search(to, -beta, -alpha),
        }
    }

    /// The value of a game starting at `node`: a bisection by null-window searches (cheaper than
    /// one full-window search), starting from the bounds earlier searches proved.
    pub fn value(&mut self, node: u32) -> i8 {
        let seeds = self.seeds as i8;
        let (known_lo, known_hi) = self.known[node as usize];
        let (mut lo, mut hi) = (known_lo.max(-seeds), known_hi.min(seeds));
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if self.reaches(node, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// Whether the value of a game starting at `node` reaches `bound` (a null-window search).
    pub fn reaches(&mut self, node: u32, bound: i8) -> bool {
        self.search(node, bound - 1, bound) >= bound
    }

    /// Every node's value for a game starting there.
    pub fn solve(mut self) -> Solved {
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
    pub fn move_reaches(&mut self, node: u32, edge: Edge, bound: i8) -> bool {
        let w = self.bit(node).2;
        self.frames.resize(2 * w, 0);
        self.push(node);
        let v = self.after(edge, bound - 1, bound);
        self.pop(node);
        self.frames.clear();
        v >= bound
    }

    /// The number of positions in the largest strongly connected component.
    pub fn largest_component(&self) -> usize {
        let mut sizes = vec![0; self.width.len()];
        for &c in &self.component {
            sizes[c as usize] += 1;
        }
        sizes.into_iter().max().unwrap_or(0)
    }
}
