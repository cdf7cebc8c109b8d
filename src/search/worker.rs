//! One search thread: iterative deepening over a negamax alpha-beta with principal-variation
//! search, aspiration windows, late move reductions, reverse futility pruning, internal
//! iterative reduction, singular extensions (razoring exists behind a switch, off) and a shared
//! transposition table (used from depth 3 up). Each iteration finds one line, or several best
//! lines for `MultiPV`, each over the root moves the lines before it did not take. The main
//! thread also keeps time; helper threads (Lazy SMP) search the same tree, one line, share what
//! they learn through the table, and a deeper iteration of theirs is played.

use super::eval::evaluate_with;
use super::eval_cache::EvalCache;
use super::ordering::{self, Children, FILLER, Node, Ordering as MoveOrder, Picker};
use super::table::{Bound, Hit, TableView};
use super::threats;
use super::time::TimeManager;
use super::value::{self, INFINITY, MAX_PLY};
use super::{Control, Features};
use crate::egdb::Tables;
use crate::rules::{GrandSlam, Move, MoveSet, Position, Side};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

/// The transposition table is probed and written only at nodes this deep or deeper: near the
/// horizon a probe (a likely cache and TLB miss) costs more than the few nodes it saves. Measured
/// with `krou bench 16` (fastest of 7 runs) and time to depth from the start: 3 beat 1, 2, 4, 5.
const TT_DEPTH: i32 = 3;
/// Reverse futility pruning applies at nodes this near the horizon or nearer (5 beat 3 by
/// +23 ± 15 Elo in 1,202 games at 50,000 nodes a move) …
const FUTILITY_DEPTH: i32 = 5;
/// … when the evaluation beats beta by this much a ply of depth (100 = one seed; it beat 150 by
/// +36 ± 20 Elo in 758 games at 50,000 nodes a move).
const FUTILITY_MARGIN: i32 = 100;
/// Internal iterative reduction applies at nodes this many plies from the horizon or more that
/// find no move in the transposition table (more than [`TT_DEPTH`], so that the reduced node
/// still probes and stores; 5 lost to 4 by −8.6 ± 13.3 Elo in 1,009 games at 50,000 nodes a
/// move, SPRT H0) …
const IIR_DEPTH: i32 = 4;
/// … and from this many plies on, the reduction is two plies (it beat one by +40.1 ± 21.6 Elo
/// in 348 games at 50,000 nodes a move, SPRT H1).
const IIR_DEEP: i32 = 8;
const _: () = assert!(IIR_DEPTH > TT_DEPTH);
/// Razoring applies at nodes this near the horizon or nearer …
const RAZOR_DEPTH: i32 = 2;
/// … when the evaluation is below alpha by this much (100 = one seed) plus
/// [`FUTILITY_MARGIN`] a ply of depth.
const RAZOR_MARGIN: i32 = 200;
/// A singular extension is looked for at nodes this many plies from the horizon or more …
const SINGULAR_DEPTH: i32 = 8;
/// … whose table entry was searched at most this many plies shallower …
const SINGULAR_TABLE_SLACK: i32 = 3;
/// … and the hash move is extended a ply when every other move, searched half as deep, stays
/// below the table's score by this much a ply of depth (100 = one seed).
const SINGULAR_MARGIN: i32 = 4;
/// Outside the principal variation, a singular hash move is extended two plies when every other
/// move stays below the test's bound by this much more (100 = one seed) …
const DOUBLE_MARGIN: i32 = 50;
/// … and fewer than this many moves on the path to the node were extended twice.
const MOST_DOUBLE_EXTENSIONS: u8 = 3;
/// Nodes between two looks at the clock and the stop flags (well under a millisecond).
const POLL_INTERVAL: u64 = 1024;
/// How many captures in a row the quiescence search follows past the horizon.
const QUIESCENCE_PLIES: u32 = 8;
/// Half-width of the first aspiration window around the last iteration's score.
const ASPIRATION_WINDOW: i32 = 60;
/// Aspiration windows are used from this depth on.
const ASPIRATION_DEPTH: i32 = 4;
/// Late move reductions apply from this depth on …
const LMR_DEPTH: i32 = 3;
/// … to quiet moves after this many moves have been searched.
const LMR_MOVES: usize = 2;
/// From this depth on, the latest moves are reduced one ply more …
const LMR_DEEP: i32 = 6;
/// … when at least this many moves came before them.
const LMR_DEEP_MOVES: usize = 4;

/// What every thread of one search shares.
pub struct Shared<'a> {
    /// The transposition table.
    pub table: TableView<'a>,
    /// The protocol's flags.
    pub control: &'a Control,
    /// Set when the search must end now (limit reached or stop asked).
    pub abort: AtomicBool,
    /// Nodes searched by each thread (updated at every poll, exact at the end).
    pub nodes: Vec<AtomicU64>,
    /// Table slots each thread filled in this search (updated like `nodes`).
    pub filled: Vec<AtomicU64>,
    /// Endgame table hits of all threads (each adds its own at the end of an iteration).
    pub tbhits: AtomicU64,
    /// Endgame tables for the rule in force, if any.
    pub tables: Option<&'a Tables>,
    /// The grand-slam rule in force.
    pub rule: GrandSlam,
    /// Optional features in force.
    pub features: Features,
    /// The depth each thread is searching now (0 before its first iteration).
    pub searching: Vec<AtomicI32>,
    /// The deepest iteration a helper thread completed (Lazy SMP): the main thread plays it
    /// when it is deeper than its own.
    pub helper_best: Mutex<Option<Iteration>>,
}

impl Shared<'_> {
    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Permille of the transposition table in use (`hashfull`).
    pub fn hashfull(&self) -> u32 {
        let filled = self.filled.iter().map(|n| n.load(Ordering::Relaxed)).sum();
        self.table.permille(filled)
    }

    /// Keeps `it`, a helper's completed iteration, when it is the deepest so far.
    pub fn offer(&self, it: &Iteration) {
        // A poisoned lock only means a helper panicked mid-update; the value is still whole.
        let mut best = self.helper_best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|b| it.depth > b.depth) {
            *best = Some(it.clone());
        }
    }

    /// The deepest iteration any helper completed.
    pub fn helpers_best(&self) -> Option<Iteration> {
        let best = self.helper_best.lock().unwrap_or_else(|e| e.into_inner());
        best.clone()
    }

    /// The depth a helper thread searches after `done`: one deeper, or two when another thread
    /// is already searching that depth, so that the threads spread over two depths instead of
    /// repeating each other's work.
    fn helper_depth(&self, id: usize, done: i32) -> i32 {
        let next = done + 1;
        let busy = self
            .searching
            .iter()
            .enumerate()
            .any(|(other, d)| other != id && d.load(Ordering::Relaxed) == next);
        if busy { next + 1 } else { next }
    }
}

/// The result of one completed iteration.
#[derive(Clone, Debug, Default)]
pub struct Iteration {
    /// Depth searched.
    pub depth: i32,
    /// Score for the side to move at the root.
    pub value: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Deepest ply reached so far.
    pub seldepth: usize,
    /// The best lines found, best first, as (score, principal variation): the first is `value`
    /// and `pv`; more with `MultiPV`.
    pub lines: Vec<(i32, Vec<Move>)>,
}

/// The limits only the main thread enforces.
pub struct MainDuties {
    /// The clock.
    pub time: TimeManager,
    /// Node limit of this thread.
    pub node_limit: Option<u64>,
}

/// One thread's search state.
pub struct Worker<'s, 'a> {
    id: usize,
    shared: &'s Shared<'a>,
    main: Option<MainDuties>,
    root_moves: MoveSet,
    keys: Vec<u64>,
    order: MoveOrder,
    /// The children of the node at each ply of the current path.
    children: Vec<Children>,
    pv: Vec<[Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    /// Table slots this worker filled (see [`TableView::store`]).
    filled: u64,
    /// Endgame table hits not yet added to the shared count.
    tbhits: u64,
    /// This thread's evaluations (kept by the searcher from one search to the next).
    evaluations: &'s mut EvalCache,
    /// The largest seed count on the board the tables cover (0 without tables).
    table_seeds: u8,
    seldepth: usize,
    /// The depth of the iteration being searched.
    root_depth: i32,
    /// The move left out at each ply while a singular extension is tested there.
    excluded: [Option<Move>; MAX_PLY],
    /// How many moves on the path to the node at each ply were extended two plies.
    doubled: [u8; MAX_PLY],
    /// Aborts are ignored until the first iteration is complete: there is always a move.
    may_abort: bool,
    stopped: bool,
}

impl<'s, 'a> Worker<'s, 'a> {
    /// A worker for thread `id` (0 is the main thread, which alone gets `main` duties).
    /// `history` holds the game's positions since the last capture, the root last;
    /// `evaluations` is this thread's cache of the evaluation in force.
    pub fn new(
        id: usize,
        shared: &'s Shared<'a>,
        main: Option<MainDuties>,
        history: &[Position],
        root_moves: MoveSet,
        evaluations: &'s mut EvalCache,
    ) -> Self {
        let mut keys: Vec<u64> = history.iter().map(Position::key).collect();
        keys.pop();
        keys.reserve(MAX_PLY);
        Worker {
            id,
            shared,
            main,
            root_moves,
            keys,
            order: MoveOrder::default(),
            children: vec![ordering::children(); MAX_PLY],
            pv: vec![[FILLER; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            nodes: 0,
            filled: 0,
            tbhits: 0,
            evaluations,
            table_seeds: shared.tables.and_then(Tables::max_seeds).unwrap_or(0),
            seldepth: 0,
            root_depth: 0,
            excluded: [None; MAX_PLY],
            doubled: [0; MAX_PLY],
            may_abort: false,
            stopped: false,
        }
    }

    /// Nodes this worker searched.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Shows the other threads this worker's node and filled-slot counts.
    pub fn publish(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.filled[self.id].store(self.filled, Ordering::Relaxed);
    }

    /// Adds this worker's endgame table hits to the shared count.
    pub fn flush_tbhits(&mut self) {
        self.shared.tbhits.fetch_add(self.tbhits, Ordering::Relaxed);
        self.tbhits = 0;
    }

    /// The main thread's time manager, if this is the main thread.
    pub fn duties(&mut self) -> Option<&mut MainDuties> {
        self.main.as_mut()
    }

    /// Searches `root` one depth after another up to `max_depth`, finding the best `lines`
    /// lines (at least one), calling `done` after each completed iteration; `done` returns
    /// whether to go on. Returns the last completed iteration.
    pub fn iterate(
        &mut self,
        root: &Position,
        max_depth: i32,
        lines: usize,
        done: &mut dyn FnMut(&mut Self, &Iteration) -> bool,
    ) -> Iteration {
        let all_moves = self.root_moves;
        let wanted = lines.clamp(1, all_moves.len().max(1));
        let mut last = Iteration::default();
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            self.shared.searching[self.id].store(depth, Ordering::Relaxed);
            self.root_depth = depth;
            let found = self.lines(root, depth, wanted, &last.lines);
            self.root_moves = all_moves;
            if found.is_empty() {
                break;
            }
            last = Iteration {
                depth,
                value: found[0].0,
                pv: found[0].1.clone(),
                seldepth: self.seldepth,
                lines: found,
            };
            if self.stopped {
                // Cut short after some lines of several: the finished lines are deeper than the
                // last iteration's, line 1 first.
                break;
            }
            self.may_abort = true;
            if !done(self, &last) {
                break;
            }
            depth = if self.main.is_some() {
                depth + 1
            } else {
                self.shared.helper_depth(self.id, depth)
            };
        }
        last
    }

    /// One iteration for `wanted` lines: each line searches the root moves the lines before it
    /// did not start with, around that line's score of the last iteration (`previous`). Returns
    /// the lines finished, best first (fewer when stopped, none if stopped in the first).
    fn lines(
        &mut self,
        root: &Position,
        depth: i32,
        wanted: usize,
        previous: &[(i32, Vec<Move>)],
    ) -> Vec<(i32, Vec<Move>)> {
        let mut remaining = self.root_moves;
        let mut found = Vec::with_capacity(wanted);
        for line in 0..wanted {
            self.root_moves = remaining;
            let last = previous.get(line).map_or(0, |l| l.0);
            let value = self.aspiration(root, depth, last);
            if self.stopped {
                break;
            }
            let pv = self.pv[0][..self.pv_len[0]].to_vec();
            let Some(&first) = pv.first() else {
                break;
            };
            remaining = remaining.without(first);
            found.push((value, pv));
            if remaining.is_empty() {
                break;
            }
        }
        // Stable: lines of equal score keep the order they were found in.
        found.sort_by_key(|line| std::cmp::Reverse(line.0));
        found
    }

    /// One line of an iteration: a narrow window around the last score, widened until the
    /// score falls inside it.
    fn aspiration(&mut self, root: &Position, depth: i32, last: i32) -> i32 {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if self.shared.features.aspiration
            && depth >= ASPIRATION_DEPTH
            && !value::is_proven(last)
        {
            (last - delta, last + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let value = self.search(root, alpha, beta, depth, 0, 0);
            if self.stopped {
                return value;
            }
            if value <= alpha {
                alpha = (value - delta).max(-INFINITY);
            } else if value >= beta {
                beta = (value + delta).min(INFINITY);
            } else {
                return value;
            }
            delta *= 2;
            if delta > 8 * ASPIRATION_WINDOW {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// Looks at the clock, the node limit and the stop flags; sets `stopped` when the search
    /// must end.
    fn poll(&mut self) {
        self.publish();
        if let Some(duties) = &mut self.main {
            duties.time.follow_ponder(self.shared.control);
            if self.shared.control.is_stopped()
                || (self.may_abort && duties.time.hard_limit_passed(self.shared.control))
            {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.may_abort && self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// The value of `position` for its side to move, searched `depth` plies deep within
    /// (`alpha`, `beta`), `ply` plies from the root; `boundary` is where the positions this one
    /// could repeat start in `keys`. Returns 0 once `stopped` is set (the caller discards it).
    /// Nodes at the horizon take the short way through [`Worker::leaf`].
    #[inline]
    fn search(
        &mut self,
        position: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        boundary: usize,
    ) -> i32 {
        if depth <= 0 {
            self.leaf(position, alpha, beta, ply, boundary)
        } else {
            self.negamax(position, alpha, beta, depth, ply, boundary)
        }
    }

    /// A node at the horizon: its exact end if it has one, else the evaluation (see
    /// [`Worker::search`]). Kept apart from `negamax` so that the most common node needs
    /// neither its stack frame nor its table and move-ordering steps.
    fn leaf(
        &mut self,
        position: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        boundary: usize,
    ) -> i32 {
        match self.enter(position, alpha, beta, ply, boundary) {
            Entry::Settled(value) => value,
            Entry::Open(open) if self.shared.features.quiescence => {
                self.quiesce(position, &open, alpha, beta, ply, QUIESCENCE_PLIES)
            }
            Entry::Open(open) => self.horizon(position, &open),
        }
    }

    /// Quiescence: the evaluation stands unless a capture beats it; captures (largest first)
    /// are searched on, `plies` more at most. A capture makes every earlier position
    /// unrepeatable, so each child starts a new repetition boundary.
    fn quiesce(
        &mut self,
        position: &Position,
        open: &Open,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        plies: u32,
    ) -> i32 {
        let stand = self.horizon(position, open);
        if stand >= beta || plies == 0 || ply >= MAX_PLY - 1 {
            return stand;
        }
        if !threats::may_capture(position) {
            return stand;
        }
        let rule = self.shared.rule;
        let mut captures = [(0u8, *position); 6];
        let mut count = 0;
        for mv in open.moves {
            let played = position.play_unchecked(mv, rule);
            if played.captured > 0 {
                captures[count] = (played.captured, played.position);
                count += 1;
            }
        }
        if count == 0 {
            return stand;
        }
        captures[..count].sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        alpha = alpha.max(stand);
        let mut best = stand;
        let boundary = self.keys.len();
        for (_, next) in &captures[..count] {
            let v = match self.enter(next, -beta, -alpha, ply + 1, boundary) {
                Entry::Settled(value) => -value,
                Entry::Open(child) => {
                    -self.quiesce(next, &child, -beta, -alpha, ply + 1, plies - 1)
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Steps 1–3 of every node: count it, look at the limits, and settle it when the game
    /// ends there or the endgame tables decide it.
    #[inline(always)]
    fn enter(
        &mut self,
        position: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        boundary: usize,
    ) -> Entry {
        // 1. Count the node; look at the limits now and then.
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
        if let Some(limit) = self.main.as_ref().and_then(|m| m.node_limit) {
            if self.may_abort && self.nodes >= limit {
                self.shared.abort.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
        if self.stopped {
            return Entry::Settled(0);
        }
        self.seldepth = self.seldepth.max(ply);

        // 2. Exact game ends: stores, repetition, no legal move.
        let us = position.side_to_move();
        if position.decided_by_stores() {
            return Entry::Settled(value::game_end(store_margin(position, us), ply));
        }
        let key = position.key();
        if ply > 0 && self.keys[boundary..].contains(&key) {
            let margin = store_margin(&position.with_own_seeds_stored(), us);
            return Entry::Settled(value::game_end(margin, ply));
        }
        let mut moves = position.legal_moves(self.shared.rule);
        if moves.is_empty() {
            let margin = store_margin(&position.with_own_seeds_stored(), us);
            return Entry::Settled(value::game_end(margin, ply));
        }
        // The root may be narrowed (`searchmoves`, later MultiPV lines): its value is then not
        // the position's, and must not go into the table.
        let mut narrowed_root = false;
        if ply == 0 {
            let all = moves;
            moves = MoveSet::from_bits(moves.bits() & self.root_moves.bits());
            narrowed_root = moves != all;
        }

        // 3. The endgame tables, where their bounds are proven: the node follows a capture, so
        //    no earlier position since the last capture can end the game first by repetition.
        //    (The root is always searched, for its move.)
        let mut proven_range = None;
        if ply > 0 && boundary == self.keys.len() && position.seeds_on_board() <= self.table_seeds {
            if let Some(bounds) = self.shared.tables.and_then(|t| t.probe(position)) {
                let stores = store_margin(position, us);
                let (lo, hi) = (stores + i32::from(bounds.lo), stores + i32::from(bounds.hi));
                let settled = if lo > 0 || hi < 0 || lo == hi {
                    Some(value::game_end(lo.max(hi.min(0)), ply))
                } else if (lo == 0 && beta <= 0) || (hi == 0 && alpha >= 0) {
                    // At least (at most) a draw, and the window asks no more (less).
                    Some(0)
                } else {
                    None
                };
                self.tbhits += 1;
                if let Some(v) = settled {
                    return Entry::Settled(v);
                }
                proven_range = Some((lo, hi));
            }
        }
        Entry::Open(Open {
            key,
            moves,
            narrowed_root,
            proven_range,
        })
    }

    /// A node with `depth` plies left to search (see [`Worker::search`]).
    fn negamax(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        boundary: usize,
    ) -> i32 {
        let Open {
            key,
            moves,
            narrowed_root,
            proven_range,
        } = match self.enter(position, alpha, beta, ply, boundary) {
            Entry::Settled(value) => return value,
            Entry::Open(open) => open,
        };
        let rule = self.shared.rule;
        // Testing a singular extension here: the other moves only, with no table and no pruning
        // on the node's own evaluation (its result is not the node's value).
        let excluded = self.excluded[ply];
        let moves = excluded.map_or(moves, |mv| moves.without(mv));

        // 4. The horizon (an estimate kept within the tables' proven range).
        if depth <= 0 || ply >= MAX_PLY - 1 {
            let estimate = self.evaluate(position, key);
            return within_proven_range(estimate, proven_range, self.shared.features);
        }

        // 5. The transposition table.
        let pv_node = beta - alpha > 1;
        let hit = if depth >= TT_DEPTH && excluded.is_none() {
            self.shared.table.probe(key)
        } else {
            None
        };
        let hash_move = hit.and_then(|h| h.best).filter(|&m| moves.contains(m));
        if let Some(hit) = hit {
            let stored = value::from_table(hit.value, ply);
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => stored >= beta,
                Bound::Upper => stored <= alpha,
            };
            if !pv_node && ply > 0 && hit.depth >= depth && usable {
                return stored;
            }
        }

        // 5b. The hash move's child is searched first and probes the table at once; start
        //     loading its bucket now, so that the steps before it hide part of the wait.
        if depth > TT_DEPTH {
            if let Some(mv) = hash_move {
                let child = position.play_unchecked(mv, rule);
                self.shared.table.prefetch(child.position.key());
            }
        }

        // 6. Reverse futility: near the horizon, a node whose evaluation beats beta by more
        //    than a margin a ply is taken to hold; and razoring: a node whose evaluation is far
        //    below alpha, and whose captures do not lift it above alpha either, is taken to
        //    fail low (neither at the root, in a PV node, within the tables' proven range or
        //    against a proven score).
        let features = self.shared.features;
        let prunable = !pv_node && ply > 0 && proven_range.is_none() && excluded.is_none();
        let futile =
            features.reverse_futility && depth <= FUTILITY_DEPTH && !value::is_proven(beta);
        let razor = features.razoring && depth <= RAZOR_DEPTH && !value::is_proven(alpha);
        if prunable && (futile || razor) {
            let estimate = self.evaluate(position, key);
            if futile && estimate - FUTILITY_MARGIN * depth >= beta {
                return estimate;
            }
            if razor && estimate + RAZOR_MARGIN + FUTILITY_MARGIN * depth <= alpha {
                let open = Open {
                    key,
                    moves,
                    narrowed_root,
                    proven_range,
                };
                let v = self.quiesce(position, &open, alpha, alpha + 1, ply, QUIESCENCE_PLIES);
                if self.stopped || v <= alpha {
                    return v;
                }
            }
        }

        // 6b. Internal iterative reduction: with no move from the table to start from, a ply
        //     shallower, two from `IIR_DEEP` plies (not at the root, whose moves are ordered
        //     by the iteration before and whose later MultiPV lines, or `searchmoves`, never
        //     have a table move).
        let depth = if features.internal_reduction
            && excluded.is_none()
            && ply > 0
            && depth >= IIR_DEPTH
            && hash_move.is_none()
        {
            depth - 1 - i32::from(depth >= IIR_DEEP)
        } else {
            depth
        };

        // 6c. Singular extension: when the table's move beats every other move, searched half
        //     as deep against a bound a margin below the table's score, it is the only move
        //     that holds, and is searched a ply deeper; and multi-cut: when another move holds
        //     at that bound and the bound is at least beta, the node fails high.
        //     Not at the root, nor beyond twice the iteration's depth, nor where the endgame
        //     tables bound the node; the cheap conditions first, as most nodes fail them.
        let testable = features.singular_extension
            && depth >= SINGULAR_DEPTH
            && excluded.is_none()
            && ply > 0
            && ply < 2 * self.root_depth.max(0) as usize
            && proven_range.is_none()
            && moves.len() >= 2;
        let singular = match (hit, hash_move) {
            (Some(hit), Some(mv)) if testable => {
                self.singular(position, &hit, mv, depth, ply, boundary)
            }
            _ => Singular::Untested,
        };
        if self.stopped {
            return 0;
        }
        let hash_move_extension = match singular {
            Singular::Alone { by_far }
                if by_far && !pv_node && self.doubled[ply] < MOST_DOUBLE_EXTENSIONS =>
            {
                2
            }
            Singular::Alone { .. } => 1,
            Singular::Alternative(bound) if bound >= beta => return bound,
            _ => 0,
        };
        self.doubled[ply + 1] = self.doubled[ply] + u8::from(hash_move_extension == 2);

        // 7. The children, best first, with principal-variation search.
        let node = Node {
            position,
            moves,
            hash_move,
            rule,
            ply,
            learned: self.shared.features.killers_and_history,
            // The children probe the table when they are searched that deep.
            prefetch: (depth > TT_DEPTH).then_some(&self.shared.table),
        };
        let mut picker = Picker::new();
        self.keys.push(key);
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        let mut quiet_tried = [FILLER; 6];
        let mut quiet_count = 0;
        let mut i = 0;
        while let Some(index) = picker.next(&node, &mut self.children[ply], &self.order) {
            let mv = picker.mv(index);
            let played = self.children[ply][index];
            let next = &played.position;
            let child_boundary = if played.captured > 0 {
                self.keys.len()
            } else {
                boundary
            };
            let new_depth = depth - 1
                + if Some(mv) == hash_move {
                    hash_move_extension
                } else {
                    0
                };
            let mut v;
            if i == 0 {
                v = -self.search(next, -beta, -alpha, new_depth, ply + 1, child_boundary);
            } else {
                let reduction = self.reduction(depth, i, played.captured);
                v = -self.search(
                    next,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    child_boundary,
                );
                if v > alpha && reduction > 0 && !self.stopped {
                    v = -self.search(next, -alpha - 1, -alpha, new_depth, ply + 1, child_boundary);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(next, -beta, -alpha, new_depth, ply + 1, child_boundary);
                }
            }
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if v > best_value {
                best_value = v;
                if v > alpha {
                    best_move = Some(mv);
                    alpha = v;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if played.captured == 0 {
                            self.order.reward(
                                position,
                                mv,
                                &quiet_tried[..quiet_count],
                                ply,
                                depth,
                            );
                        }
                        break;
                    }
                }
            }
            if played.captured == 0 {
                quiet_tried[quiet_count] = mv;
                quiet_count += 1;
            }
            i += 1;
        }
        self.keys.pop();

        // 8. Remember the result.
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if depth >= TT_DEPTH && !narrowed_root && excluded.is_none() {
            let stored = value::to_table(best_value, ply);
            let filled =
                self.shared
                    .table
                    .store(key, stored, depth, bound, best_move.or(hash_move));
            self.filled += u64::from(filled);
        }
        best_value
    }

    /// Whether `hash_move`, the table's move at a node `depth` plies from the horizon, is
    /// singular: every other move, searched half as deep, stays below the table's score `hit`
    /// by [`SINGULAR_MARGIN`] a ply. Tested only where the entry is deep enough, not an upper
    /// bound and not a proven result (the node's own conditions are the caller's).
    fn singular(
        &mut self,
        position: &Position,
        hit: &Hit,
        hash_move: Move,
        depth: i32,
        ply: usize,
        boundary: usize,
    ) -> Singular {
        let expected = value::from_table(hit.value, ply);
        if hit.depth < depth - SINGULAR_TABLE_SLACK
            || hit.bound == Bound::Upper
            || value::is_proven(expected)
        {
            return Singular::Untested;
        }
        // Kept an estimate: a bound below it would read as a proven loss.
        let bound = (expected - SINGULAR_MARGIN * depth).max(-value::MAX_EVAL);
        self.excluded[ply] = Some(hash_move);
        let v = self.negamax(position, bound - 1, bound, (depth - 1) / 2, ply, boundary);
        self.excluded[ply] = None;
        // The test's line is not the node's: the node's own search sets its line afresh.
        self.pv_len[ply] = ply;
        if v < bound {
            Singular::Alone {
                by_far: v < bound - DOUBLE_MARGIN,
            }
        } else {
            Singular::Alternative(bound)
        }
    }

    /// Plies by which the `index`-th move of a node `depth` plies deep is searched shallower
    /// first: late quiet moves rarely matter.
    #[inline]
    fn reduction(&self, depth: i32, index: usize, captured: u8) -> i32 {
        if !self.shared.features.late_move_reductions
            || depth < LMR_DEPTH
            || index < LMR_MOVES
            || captured > 0
        {
            return 0;
        }
        1 + i32::from(depth >= LMR_DEEP && index >= LMR_DEEP_MOVES)
    }

    /// The static evaluation of `position`, whose key is `key` (from this thread's cache when
    /// this or an earlier search evaluated it).
    #[inline]
    fn evaluate(&mut self, position: &Position, key: u64) -> i32 {
        let learned = self.shared.features.learned_evaluation;
        self.evaluations
            .get_or(key, || evaluate_with(position, learned))
    }

    /// The static estimate of an open node at the horizon: its evaluation within the tables'
    /// proven range.
    #[inline]
    fn horizon(&mut self, position: &Position, open: &Open) -> i32 {
        let estimate = self.evaluate(position, open.key);
        within_proven_range(estimate, open.proven_range, self.shared.features)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

/// How a node begins: settled at once, or open to search.
enum Entry {
    /// The node's value is known without a search (or the search was stopped: 0).
    Settled(i32),
    /// The node must be searched or evaluated.
    Open(Open),
}

/// What the singular-extension test of a node found (see [`Worker::singular`]).
enum Singular {
    /// Not tested there.
    Untested,
    /// The hash move alone reaches the test's bound: it is searched a ply deeper (two, by far).
    Alone {
        /// The others stay below the bound by [`DOUBLE_MARGIN`] or more.
        by_far: bool,
    },
    /// Another move reaches this bound too.
    Alternative(i32),
}

/// What [`Worker::enter`] learned about a node that must be searched.
struct Open {
    key: u64,
    /// The moves to search (the root's may be narrowed).
    moves: MoveSet,
    /// Whether the root's moves were narrowed (its value is then not the position's).
    narrowed_root: bool,
    /// The margins the endgame tables proved, if they bound the node.
    proven_range: Option<(i32, i32)>,
}

/// A node's static `estimate` kept within the tables' proven range (see
/// [`Features::interval_estimate`] for where in it).
#[inline]
fn within_proven_range(estimate: i32, proven_range: Option<(i32, i32)>, features: Features) -> i32 {
    match proven_range {
        Some((lo, hi)) if features.interval_estimate => {
            (estimate.clamp(100 * lo, 100 * hi) + 50 * (lo + hi)) / 2
        }
        Some((lo, hi)) => estimate.clamp(100 * lo, 100 * hi),
        None => estimate,
    }
}

/// Store of the side to move minus the opponent's.
#[inline]
fn store_margin(position: &Position, us: Side) -> i32 {
    i32::from(position.store(us)) - i32::from(position.store(us.opponent()))
}
