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
//! Thresholds run from `t = n` down to `-n` in steps of two (every margin has the parity of the
//! seeds); for each, the set of boards with `lo >= t` and the set with `hi <= -t` grow together
//! as an attractor: a board joins the first set when one of its quiet (non-capturing) moves
//! leads into the second, and joins the second when all its quiet moves lead into the first
//! (and its captures allow it). Both sets only grow as `t` falls, so each board enters each set
//! once and the whole layer costs two predecessor scans.
//!
//! Each round of the attractor first lists the parents of the boards that just joined, sorted
//! into buckets of adjacent indices, then applies the bucket of each stretch of the layer on one
//! thread: the writes stay within a stretch that fits the cache, and no atomic is needed.
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
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Not derived yet.
const UNSET: i8 = i8::MIN;
/// Boards in one stretch of a layer: a bucket of parents, and the unit of work of a scan.
const STRETCH_BITS: u32 = 18;
const STRETCH: usize = 1 << STRETCH_BITS;

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

/// The work state of a layer build, one entry per board.
struct Work<'a> {
    seeds: u8,
    rule: GrandSlam,
    threads: usize,
    /// Best `lo` a capture (or the game's end) gives; `UNSET` when there is none.
    lo_static: Vec<i8>,
    /// Best `hi` bound over captures (or the game's end); `UNSET` when there is none.
    hi_static: Vec<i8>,
    /// Quiet moves whose child has not yet joined the `lo` set.
    quiet_left: Vec<u8>,
    lo: Vec<i8>,
    hi: Vec<i8>,
    report: &'a (dyn Fn(Progress) + Sync),
}

/// Which set a round of the attractor grows.
#[derive(Clone, Copy)]
enum Grow {
    /// Parents of boards that joined `hi <= -t` join `lo >= t`.
    Lo,
    /// Parents of boards that joined `lo >= t` lose a quiet move, and join `hi <= -t` when
    /// none is left and their captures allow it.
    Hi,
}

/// Builds the layer of `seeds` seeds under `rule`, given every lower layer a capture can reach
/// (`lower[k]` holds `k` seeds, for `k` up to `seeds - 2`), on `threads` threads, calling
/// `report` now and then.
pub fn build_layer(
    seeds: u8,
    rule: GrandSlam,
    lower: &[Arc<Layer>],
    threads: usize,
    report: &(dyn Fn(Progress) + Sync),
) -> Vec<u8> {
    let count = board_count(seeds) as usize;
    let total = u64::from(seeds) + 2;
    report(Progress {
        seeds,
        done: 0,
        total,
    });
    let started = Instant::now();
    let threads = threads.max(1);
    let (lo_static, hi_static, quiet_left) = read_moves(seeds, rule, lower, threads);
    log::debug!(
        "{seeds} seeds: moves read in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let mut work = Work {
        seeds,
        rule,
        threads,
        lo_static,
        hi_static,
        quiet_left,
        lo: vec![UNSET; count],
        hi: vec![UNSET; count],
        report,
    };
    let n = seeds as i8;
    for (step, t) in (-n..=n).rev().step_by(2).enumerate() {
        work.report(step as u64 + 1, total);
        work.threshold(t);
    }
    let codes = work.into_codes();
    report(Progress {
        seeds,
        done: total,
        total,
    });
    codes
}

/// Runs `job` on every item of `items`, on `threads` threads taking items in turn, and returns
/// what the jobs pushed.
fn each_item<T: Send>(
    items: impl Iterator<Item = T> + Send,
    threads: usize,
    job: impl Fn(T, &mut Vec<u32>) + Sync,
) -> Vec<u32> {
    let items = Mutex::new(items);
    let found = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut mine = Vec::new();
                loop {
                    let item = match items.lock() {
                        Ok(mut items) => items.next(),
                        Err(_) => None,
                    };
                    let Some(item) = item else { break };
                    job(item, &mut mine);
                }
                if let Ok(mut found) = found.lock() {
                    found.append(&mut mine);
                }
            });
        }
    });
    found.into_inner().unwrap_or_default()
}

/// Plays every move of every board once: captures and game ends give the static bounds
/// (`lo`, `hi`), and the quiet moves are counted.
fn read_moves(
    seeds: u8,
    rule: GrandSlam,
    lower: &[Arc<Layer>],
    threads: usize,
) -> (Vec<i8>, Vec<i8>, Vec<u8>) {
    let count = board_count(seeds) as usize;
    let mut lo_static = vec![UNSET; count];
    let mut hi_static = vec![UNSET; count];
    let mut quiet_left = vec![0u8; count];
    let stretches = lo_static
        .chunks_mut(STRETCH)
        .zip(hi_static.chunks_mut(STRETCH))
        .zip(quiet_left.chunks_mut(STRETCH))
        .enumerate();
    each_item(stretches, threads, |(k, ((los, his), quiets)), _| {
        let first = k * STRETCH;
        for (at, ((lo_out, hi_out), quiet_out)) in los
            .iter_mut()
            .zip(his.iter_mut())
            .zip(quiets.iter_mut())
            .enumerate()
        {
            let board = board_at((first + at) as u32, seeds);
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
            (*lo_out, *hi_out, *quiet_out) = (lo, hi, quiet);
        }
    });
    (lo_static, hi_static, quiet_left)
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
        let started = Instant::now();
        let (mut joined_lo, mut joined_hi) = self.seed_sets(t, last);
        let seeded = started.elapsed().as_secs_f64();
        if last {
            // Every board is in both sets now: no round can add anything.
            return;
        }
        let (mut joins, mut rounds) = (joined_lo.len() + joined_hi.len(), 0);
        while !(joined_lo.is_empty() && joined_hi.is_empty()) {
            let from_hi = self.spread(&joined_hi, Grow::Lo, t);
            let from_lo = self.spread(&joined_lo, Grow::Hi, t);
            joined_lo = from_hi;
            joined_hi = from_lo;
            joins += joined_lo.len() + joined_hi.len();
            rounds += 1;
        }
        log::debug!(
            "{} seeds, t {t}: seeded in {seeded:.2} s, {rounds} rounds, {joins} joins in {:.2} s",
            self.seeds,
            started.elapsed().as_secs_f64() - seeded
        );
    }

    /// The boards that join the sets at `t` by their own moves (captures, game ends, or all
    /// quiet moves already settled), or by the trivial bounds at the last threshold: the boards
    /// that joined `lo >= t`, then those that joined `hi <= -t` (neither listed at the last
    /// threshold, where nothing spreads from them).
    fn seed_sets(&mut self, t: i8, last: bool) -> (Vec<u32>, Vec<u32>) {
        let stretches = self
            .lo
            .chunks_mut(STRETCH)
            .zip(self.hi.chunks_mut(STRETCH))
            .zip(self.lo_static.chunks(STRETCH))
            .zip(self.hi_static.chunks(STRETCH))
            .zip(self.quiet_left.chunks(STRETCH))
            .enumerate();
        let hi_found = Mutex::new(Vec::new());
        let lo_found = each_item(
            stretches,
            self.threads,
            |(k, ((((lo, hi), lo_static), hi_static), quiet_left)), lo_set| {
                let first = k * STRETCH;
                let mut hi_set = Vec::new();
                for at in 0..lo.len() {
                    // At the last threshold nothing spreads from the boards set: they are
                    // not listed (the boards left to the trivial bounds may be many).
                    if lo[at] == UNSET && (last || lo_static[at] >= t) {
                        lo[at] = t;
                        if !last {
                            lo_set.push((first + at) as u32);
                        }
                    }
                    if hi[at] == UNSET && (last || (quiet_left[at] == 0 && hi_static[at] <= -t)) {
                        hi[at] = -t;
                        if !last {
                            hi_set.push((first + at) as u32);
                        }
                    }
                }
                if let Ok(mut found) = hi_found.lock() {
                    found.append(&mut hi_set);
                }
            },
        );
        (lo_found, hi_found.into_inner().unwrap_or_default())
    }

    /// Lists the quiet parents of every board in `joined`, by stretch, then applies them
    /// stretch by stretch to the set `grow`; returns the boards that joined it.
    fn spread(&mut self, joined: &[u32], grow: Grow, t: i8) -> Vec<u32> {
        if joined.is_empty() {
            return Vec::new();
        }
        let stretches = self.lo.len().div_ceil(STRETCH);
        let part = joined.len().div_ceil(self.threads).max(1);
        let (seeds, rule) = (self.seeds, self.rule);
        let listed: Vec<Vec<Vec<u32>>> = std::thread::scope(|scope| {
            let lists: Vec<_> = joined
                .chunks(part)
                .map(|chunk| {
                    scope.spawn(move || {
                        let mut buckets = vec![Vec::new(); stretches];
                        for &i in chunk {
                            for_each_parent(&board_at(i, seeds), rule, |parent| {
                                let p = index(&parent);
                                buckets[(p >> STRETCH_BITS) as usize].push(p);
                            });
                        }
                        buckets
                    })
                })
                .collect();
            lists
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let parents_in = |k: usize| {
            listed
                .iter()
                .flat_map(move |lists| lists[k].iter().copied())
        };
        match grow {
            Grow::Lo => each_item(
                self.lo.chunks_mut(STRETCH).enumerate(),
                self.threads,
                |(k, lo), found| {
                    let first = (k * STRETCH) as u32;
                    for p in parents_in(k) {
                        let slot = &mut lo[(p - first) as usize];
                        if *slot == UNSET {
                            *slot = t;
                            found.push(p);
                        }
                    }
                },
            ),
            Grow::Hi => each_item(
                self.quiet_left
                    .chunks_mut(STRETCH)
                    .zip(self.hi.chunks_mut(STRETCH))
                    .zip(self.hi_static.chunks(STRETCH))
                    .enumerate(),
                self.threads,
                |(k, ((quiet_left, hi), hi_static)), found| {
                    let first = (k * STRETCH) as u32;
                    for p in parents_in(k) {
                        let at = (p - first) as usize;
                        // Each quiet move is listed once from its child, which joins once.
                        debug_assert!(quiet_left[at] > 0, "board {p}: more quiet moves listed");
                        quiet_left[at] = quiet_left[at].saturating_sub(1);
                        if quiet_left[at] == 0 && hi_static[at] <= -t && hi[at] == UNSET {
                            hi[at] = -t;
                            found.push(p);
                        }
                    }
                },
            ),
        }
    }

    /// The code of every board (the work state other than the bounds is freed first).
    fn into_codes(self) -> Vec<u8> {
        let Work {
            lo,
            hi,
            lo_static,
            hi_static,
            quiet_left,
            ..
        } = self;
        drop((lo_static, hi_static, quiet_left));
        lo.iter()
            .zip(&hi)
            .map(|(&lo, &hi)| encode(Bounds { lo, hi }))
            .collect()
    }
}
