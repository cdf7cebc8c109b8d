//! Building one layer by value-threshold retrograde analysis.
//!
//! For a layer of `n` seeds, every board gets two numbers:
//! - `lo`: the largest `t` such that the mover can force a final margin of at least `t`;
//! - `hi`: the smallest `s` such that the opponent can hold the mover to at most `s`,
//!
//! where "force" means: reach, in finitely many moves and whatever the other side does, either a
//! capture (whose result is read in the lower, finished layers) or the end of the game, with the
//! margin promised. Endless play counts as a failure for the side that tries to force.
//!
//! Thresholds run from `t = n` down to `-n`; for each, the set of boards with `lo >= t` and the
//! set with `hi <= -t` grow together as an attractor: a board joins the first set when one of
//! its quiet (non-capturing) moves leads into the second, and joins the second when all its
//! quiet moves lead into the first (and its captures allow it). Both sets only grow as `t`
//! falls, so each board enters each set once and the whole layer costs two predecessor scans.
//!
//! Why the bounds hold under the real rules (first repetition ends the game, history starting
//! at the probed position): every fact is derived from facts derived strictly earlier, so along
//! any line the forcing side follows, the time of derivation strictly decreases and no position
//! can occur twice. The forced line therefore ends in a capture or a game end before any
//! repetition, and the margin is as promised. The trivial bounds `-n` and `n` hold for every
//! line, repetitions included.

use super::board::{for_each_child, for_each_parent, own_split};
use super::bounds::{Bounds, encode};
use super::index::{board_at, board_count, index};
use super::layer::Layer;
use crate::rules::GrandSlam;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI8, AtomicU8, Ordering::Relaxed};

/// Not derived yet.
const UNSET: i8 = i8::MIN;
/// Boards handed to a thread at a time.
const CHUNK: usize = 1 << 16;

/// What a build reports as it goes: the layer, the stage and how far it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Seeds on the boards of the layer being built.
    pub seeds: u8,
    /// Steps done in this layer.
    pub done: u64,
    /// Steps in this layer.
    pub total: u64,
}

/// Per-board facts from the moves: captures and game ends, read once.
struct Moves {
    /// Best `lo` a capture (or the game's end) gives; `UNSET` when there is none.
    lo_static: Vec<i8>,
    /// Best `hi` bound over captures (or the game's end); `UNSET` when there is none.
    hi_static: Vec<i8>,
    /// Quiet moves whose child has not yet joined the `lo` set.
    quiet_left: Vec<AtomicU8>,
}

/// The work state of a layer build.
struct Work<'a> {
    seeds: u8,
    rule: GrandSlam,
    threads: usize,
    moves: Moves,
    lo: Vec<AtomicI8>,
    hi: Vec<AtomicI8>,
    report: &'a (dyn Fn(Progress) + Sync),
}

/// Builds the layer of `seeds` seeds under `rule`, given every lower layer (`lower[k]` holds
/// `k` seeds), on `threads` threads, calling `report` now and then.
pub fn build_layer(
    seeds: u8,
    rule: GrandSlam,
    lower: &[Layer],
    threads: usize,
    report: &(dyn Fn(Progress) + Sync),
) -> Vec<u8> {
    let count = board_count(seeds) as usize;
    let total = 2 * u64::from(seeds) + 2;
    report(Progress {
        seeds,
        done: 0,
        total,
    });
    let moves = read_moves(seeds, rule, lower, threads.max(1));
    let mut work = Work {
        seeds,
        rule,
        threads: threads.max(1),
        moves,
        lo: (0..count).map(|_| AtomicI8::new(UNSET)).collect(),
        hi: (0..count).map(|_| AtomicI8::new(UNSET)).collect(),
        report,
    };
    let n = seeds as i8;
    for (step, t) in (-n..=n).rev().enumerate() {
        work.report(step as u64 + 1, total);
        work.threshold(t);
    }
    let codes = work.codes();
    report(Progress {
        seeds,
        done: total,
        total,
    });
    codes
}

/// Splits `0..count` into chunks and runs `job` on each, on `threads` threads.
fn in_chunks(count: usize, threads: usize, job: impl Fn(std::ops::Range<usize>) + Sync) {
    let next = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let start = {
                        let Ok(mut next) = next.lock() else { return };
                        let start = *next;
                        *next += CHUNK;
                        start
                    };
                    if start >= count {
                        return;
                    }
                    job(start..(start + CHUNK).min(count));
                }
            });
        }
    });
}

/// Plays every move of every board once: captures and game ends give the static bounds.
fn read_moves(seeds: u8, rule: GrandSlam, lower: &[Layer], threads: usize) -> Moves {
    let count = board_count(seeds) as usize;
    let lo_static: Vec<AtomicI8> = (0..count).map(|_| AtomicI8::new(UNSET)).collect();
    let hi_static: Vec<AtomicI8> = (0..count).map(|_| AtomicI8::new(UNSET)).collect();
    let quiet_left: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(0)).collect();
    in_chunks(count, threads, |range| {
        for i in range {
            let board = board_at(i as u32, seeds);
            let (mut lo, mut hi, mut quiet) = (UNSET, UNSET, 0u8);
            let moves = for_each_child(&board, rule, |child| {
                if child.captured == 0 {
                    quiet += 1;
                } else {
                    let below = &lower[usize::from(seeds - child.captured)];
                    let b = below.bounds(&child.board).after_move(child.captured);
                    lo = lo.max(b.lo);
                    hi = hi.max(b.hi);
                }
            });
            if moves == 0 {
                lo = own_split(&board);
                hi = lo;
            }
            lo_static[i].store(lo, Relaxed);
            hi_static[i].store(hi, Relaxed);
            quiet_left[i].store(quiet, Relaxed);
        }
    });
    Moves {
        lo_static: lo_static.into_iter().map(AtomicI8::into_inner).collect(),
        hi_static: hi_static.into_iter().map(AtomicI8::into_inner).collect(),
        quiet_left,
    }
}

impl Work<'_> {
    fn report(&self, done: u64, total: u64) {
        (self.report)(Progress {
            seeds: self.seeds,
            done,
            total,
        });
    }

    /// Grows both sets for threshold `t`: `lo >= t` and `hi <= -t`.
    fn threshold(&mut self, t: i8) {
        let last = t == -(self.seeds as i8);
        let (mut joined_lo, mut joined_hi) = self.seed_sets(t, last);
        while !(joined_lo.is_empty() && joined_hi.is_empty()) {
            let from_hi = self.spread(&joined_hi, |work, parent, found| {
                let i = index(&parent);
                let slot = &work.lo[i as usize];
                if slot.compare_exchange(UNSET, t, Relaxed, Relaxed).is_ok() {
                    found.push(i);
                }
            });
            let from_lo = self.spread(&joined_lo, |work, parent, found| {
                let i = index(&parent) as usize;
                let left = work.moves.quiet_left[i].fetch_sub(1, Relaxed) - 1;
                if left == 0
                    && work.moves.hi_static[i] <= -t
                    && work.hi[i]
                        .compare_exchange(UNSET, -t, Relaxed, Relaxed)
                        .is_ok()
                {
                    found.push(i as u32);
                }
            });
            joined_lo = from_hi;
            joined_hi = from_lo;
        }
    }

    /// The boards that join the sets at `t` by their own moves (captures, game ends, or all
    /// quiet moves already settled), or by the trivial bounds at the last threshold.
    fn seed_sets(&self, t: i8, last: bool) -> (Vec<u32>, Vec<u32>) {
        let found = Mutex::new((Vec::new(), Vec::new()));
        in_chunks(self.lo.len(), self.threads, |range| {
            let (mut lo_set, mut hi_set) = (Vec::new(), Vec::new());
            for i in range {
                if self.lo[i].load(Relaxed) == UNSET && (last || self.moves.lo_static[i] >= t) {
                    self.lo[i].store(t, Relaxed);
                    lo_set.push(i as u32);
                }
                if self.hi[i].load(Relaxed) == UNSET
                    && (last
                        || (self.moves.quiet_left[i].load(Relaxed) == 0
                            && self.moves.hi_static[i] <= -t))
                {
                    self.hi[i].store(-t, Relaxed);
                    hi_set.push(i as u32);
                }
            }
            if let Ok(mut found) = found.lock() {
                found.0.append(&mut lo_set);
                found.1.append(&mut hi_set);
            }
        });
        found.into_inner().unwrap_or_default()
    }

    /// Visits the quiet parents of every board in `joined`, in parallel; `visit` pushes the
    /// boards that join a set in turn.
    fn spread(
        &self,
        joined: &[u32],
        visit: impl Fn(&Self, super::index::Board, &mut Vec<u32>) + Sync,
    ) -> Vec<u32> {
        let found = Mutex::new(Vec::new());
        let part = joined.len().div_ceil(self.threads).max(1);
        std::thread::scope(|scope| {
            for chunk in joined.chunks(part) {
                let (found, visit) = (&found, &visit);
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    for &i in chunk {
                        let board = board_at(i, self.seeds);
                        for_each_parent(&board, self.rule, |p| visit(self, p, &mut mine));
                    }
                    if let Ok(mut found) = found.lock() {
                        found.append(&mut mine);
                    }
                });
            }
        });
        found.into_inner().unwrap_or_default()
    }

    /// The code of every board.
    fn codes(&self) -> Vec<u8> {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(lo, hi)| {
                encode(Bounds {
                    lo: lo.load(Relaxed),
                    hi: hi.load(Relaxed),
                })
            })
            .collect()
    }
}
