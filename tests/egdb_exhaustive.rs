//! The endgame tables against an independent exhaustive search that applies the real rules:
//! the first repetition of a position ends the game and each side takes the seeds on its side;
//! the history starts at the probed position.

mod common;

use common::boards;
use krou::egdb::Tables;
use krou::rules::{GrandSlam, Position, Side};
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

/// Minimax over every line, with the game's real history.
struct Exhaustive {
    rule: GrandSlam,
    /// Values with a history that starts at the position (every line after a capture).
    fresh: HashMap<([u8; 12], Side), i8>,
}

impl Exhaustive {
    fn new(rule: GrandSlam) -> Exhaustive {
        Exhaustive {
            rule,
            fresh: HashMap::new(),
        }
    }

    /// The margin the side to move of `p` still gains, the game starting at `p`.
    fn value(&mut self, p: &Position) -> i8 {
        let key = (p.pits(), p.side_to_move());
        if let Some(&v) = self.fresh.get(&key) {
            return v;
        }
        let n = p.seeds_on_board() as i8;
        let v = self.search(p, &mut vec![key], -n - 1, n + 1);
        self.fresh.insert(key, v);
        v
    }

    /// What the side to move gains by playing `mv` first, the history being `history`.
    fn after(
        &mut self,
        p: &Position,
        mv: krou::rules::Move,
        history: &mut Vec<([u8; 12], Side)>,
        alpha: i8,
        beta: i8,
    ) -> i8 {
        let played = p.play_unchecked(mv, self.rule);
        let child = position(played.position.pits(), played.position.side_to_move());
        if played.captured > 0 {
            return played.captured as i8 - self.value(&child);
        }
        let key = (child.pits(), child.side_to_move());
        if history.contains(&key) {
            return own_split(&child, p.side_to_move());
        }
        history.push(key);
        let v = -self.search(&child, history, -beta, -alpha);
        history.pop();
        v
    }

    /// Negamax with alpha-beta over the lines from `p`, the last entry of `history`.
    fn search(
        &mut self,
        p: &Position,
        history: &mut Vec<([u8; 12], Side)>,
        mut alpha: i8,
        beta: i8,
    ) -> i8 {
        let moves = p.legal_moves(self.rule);
        if moves.is_empty() {
            return own_split(p, p.side_to_move());
        }
        let mut best = i8::MIN;
        for mv in moves {
            let v = self.after(p, mv, history, alpha, beta);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
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

/// Whether the true value of `p`, the game starting at `p`, is at least `bound` (a null-window
/// search: far cheaper than the value itself).
fn at_least(solver: &mut Exhaustive, p: &Position, bound: i8) -> bool {
    let key = (p.pits(), p.side_to_move());
    if let Some(&v) = solver.fresh.get(&key) {
        return v >= bound;
    }
    solver.search(p, &mut vec![key], bound - 1, bound) >= bound
}

/// Whether the true value of `p`, the game starting at `p`, is at most `bound`.
fn at_most(solver: &mut Exhaustive, p: &Position, bound: i8) -> bool {
    !at_least(solver, p, bound + 1)
}

fn compare(tables: &Tables, solver: &mut Exhaustive, seeds: u8) -> Comparison {
    let mut c = Comparison::default();
    for pits in boards(seeds) {
        for side in Side::BOTH {
            let p = position(pits, side);
            let bounds = tables.probe(&p).expect("covered");
            c.positions += 1;
            if !at_least(solver, &p, bounds.lo) || !at_most(solver, &p, bounds.hi) {
                c.wrong += 1;
                eprintln!("{p}: table {bounds}, true value {}", solver.value(&p));
            } else if let Some(v) = bounds.value() {
                c.exact_agree += 1;
                let moves = tables.moves(&p).expect("covered");
                let key = (p.pits(), p.side_to_move());
                let best = moves.iter().filter(|m| m.bounds.lo == v);
                for (k, m) in best.enumerate() {
                    if solver.after(&p, m.mv, &mut vec![key], v - 1, v) < v {
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
    let mut solver = Exhaustive::new(rule);
    for seeds in 0..=max_seeds {
        let c = compare(&tables, &mut solver, seeds);
        eprintln!("{rule} {seeds} seeds: {c:?}");
        assert_eq!(c.wrong, 0, "{rule} {seeds} seeds: {c:?}");
        assert_eq!(c.positions, 2 * boards(seeds).len());
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

/// The same comparison to `KROU_EGDB_VERIFY_SEEDS` seeds (default 4): minutes, not CI.
#[test]
#[ignore]
fn tables_bound_the_true_value_further() {
    let seeds = std::env::var("KROU_EGDB_VERIFY_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    check_rule(GrandSlam::NoCapture, seeds);
}
