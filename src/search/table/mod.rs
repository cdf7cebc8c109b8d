//! The transposition table: a fixed-size, lock-free hash table shared by every search thread.
//!
//! Each bucket is one 64-byte cache line of four slots. A slot is two atomic words, the packed
//! data and `key ^ data`: a slot torn by two threads writing at once fails the key check and reads
//! as a miss (the "xor trick"), so no lock is needed and a wrong hit needs a 64-bit key clash.
//!
//! Packed data (`u64`): bits 0–15 the score (`i16`), 16–23 the depth, 24–25 the bound, 26–29 the
//! move (pit + 1; 0 for none), 30–37 the search generation. An empty slot is all zeros; stored
//! slots never are, since their bound is never 0.
//!
//! A node prefetches the buckets of the children it will search ([`TableView::prefetch`])
//! through the small `mem_prefetch` crate, which puts the x86 prefetch instruction behind a safe
//! call (elsewhere it reads one byte): the search has no `unsafe`.
//!
//! The buckets live in a mapping of their own, on huge pages where the system allows them
//! ([`memory`]). The searcher owns the [`Table`]; a search's threads share a [`TableView`] of
//! it, which probes and stores through atomics.

mod memory;

use crate::rules::Move;
use memory::Memory;
use std::sync::atomic::{AtomicU64, Ordering};
use zerocopy::{FromBytes, IntoBytes, KnownLayout};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A hit in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The score, node-relative for proven results (see `value::from_table`).
    pub value: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
    /// The best or refuting move found, if any.
    pub best: Option<Move>,
}

#[derive(Debug, Default, FromBytes, IntoBytes, KnownLayout)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const SLOTS: usize = 4;

#[derive(Debug, Default, FromBytes, IntoBytes, KnownLayout)]
#[repr(C, align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

/// How much the age of an entry (in searches) weighs against its depth when replacing.
const AGE_WEIGHT: i32 = 4;
/// Bytes in one MiB.
const MIB: usize = 1 << 20;

/// The table: its buckets and the current search's generation. Searches use it through a
/// [`TableView`].
#[derive(Debug)]
pub struct Table {
    memory: Memory,
    generation: u8,
}

impl Table {
    /// A cleared table of about `mib` MiB (at least one bucket). When the memory cannot be had,
    /// the size is halved until it can, and the shortfall is logged.
    pub fn new(mib: usize) -> Table {
        let mut count = (mib.saturating_mul(MIB) / size_of::<Bucket>()).max(1);
        let mut memory = loop {
            match Memory::mapped(count).or_else(|| Memory::heap(count)) {
                Some(memory) => break memory,
                None if count > 1 => {
                    count /= 2;
                    log::error!("no memory for a {mib} MiB hash table; trying {count} buckets");
                }
                None => break Memory::Heap(vec![Bucket::default()]),
            }
        };
        // Written once now, so that the pages are had here rather than in the first search.
        memory.buckets().fill_with(Bucket::default);
        Table {
            memory,
            generation: 0,
        }
    }

    /// Empties every slot and resets the generation. Through `&mut`, so that the buckets are
    /// written as plain memory (one fill) rather than slot by slot as atomics (`krou bench 1`,
    /// mostly 30 clears of 16 MiB, took 0.67× the CPU time with the fill).
    pub fn clear(&mut self) {
        self.memory.buckets().fill_with(Bucket::default);
        self.generation = 0;
    }

    /// Marks the start of a new search, so entries of earlier searches age.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// The table as a search's threads share it, in the current generation.
    pub fn view(&mut self) -> TableView<'_> {
        TableView {
            buckets: self.memory.buckets(),
            generation: self.generation,
        }
    }
}

/// The table as the threads of one search share it: lock-free probes and stores.
#[derive(Clone, Copy, Debug)]
pub struct TableView<'t> {
    buckets: &'t [Bucket],
    generation: u8,
}

impl TableView<'_> {
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after finds it
    /// there; the search goes on meanwhile.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        mem_prefetch::prefetch_read_data::<_, 3>(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        for slot in &self.bucket(key).slots {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a search result for `key`, replacing the least useful slot of its bucket.
    /// Returns whether it filled a slot that held no entry of this search: the sum over a
    /// search is the number of slots in use, for [`TableView::permille`].
    #[inline]
    pub fn store(
        &self,
        key: u64,
        value: i32,
        depth: i32,
        bound: Bound,
        best: Option<Move>,
    ) -> bool {
        let generation = self.generation;
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_data = 0;
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                let current = old_generation(data) == generation;
                if bound != Bound::Exact && depth + 2 < old.depth && current {
                    return false;
                }
                let best = best.or(old.best);
                write(slot, key, pack(value, depth, bound, best, generation));
                return !current;
            }
            if data == 0 {
                (victim, victim_data) = (slot, 0);
                break;
            }
            let age = i32::from(generation.wrapping_sub(old_generation(data)));
            let worth = unpack(data).depth - AGE_WEIGHT * age;
            if worth < victim_worth {
                (victim, victim_data, victim_worth) = (slot, data, worth);
            }
        }
        write(victim, key, pack(value, depth, bound, best, generation));
        victim_data == 0 || old_generation(victim_data) != generation
    }

    /// Permille of the slots in use when `filled` slots were filled in this search (the sum
    /// of what [`TableView::store`] returned): free, and exact but for two threads filling one slot
    /// at once (both count it) and entries 256 searches old, which look current again (the
    /// generation is one byte). Sampling the table for every `info` line cost a few percent of
    /// a short search.
    pub fn permille(&self, filled: u64) -> u32 {
        let slots = (self.buckets.len() * SLOTS) as u64;
        (filled.saturating_mul(1000) / slots).min(1000) as u32
    }
}

#[inline]
fn write(slot: &Slot, key: u64, data: u64) {
    slot.check.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

#[inline]
fn pack(value: i32, depth: i32, bound: Bound, best: Option<Move>, generation: u8) -> u64 {
    let value = u64::from(value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16 as u16);
    let depth = depth.clamp(0, 255) as u64;
    let best = best.map_or(0, |m| m.pit() as u64 + 1);
    value | depth << 16 | (bound as u64) << 24 | best << 26 | u64::from(generation) << 30
}

#[inline]
fn old_generation(data: u64) -> u8 {
    (data >> 30) as u8
}

#[inline]
fn unpack(data: u64) -> Hit {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    let best = match (data >> 26) & 15 {
        0 => None,
        pit => Move::new(pit as usize - 1),
    };
    Hit {
        value: i32::from(data as u16 as i16),
        depth: ((data >> 16) & 255) as i32,
        bound,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_entry_is_found_with_its_fields() {
        let mut table = Table::new(1);
        let key = 0x1234_5678_9abc_def0;
        let view = table.view();
        view.store(key, -1234, 7, Bound::Lower, Move::new(9));
        let hit = view.probe(key);
        assert_eq!(
            hit,
            Some(Hit {
                value: -1234,
                depth: 7,
                bound: Bound::Lower,
                best: Move::new(9)
            })
        );
        assert_eq!(view.probe(key ^ 1), None);
        table.clear();
        assert_eq!(table.view().probe(key), None);
    }

    #[test]
    fn a_zero_mib_table_still_holds_a_bucket() {
        let mut table = Table::new(0);
        let table = table.view();
        assert!(table.store(42, 7, 3, Bound::Exact, None));
        assert_eq!(table.probe(42).map(|hit| hit.value), Some(7));
        assert_eq!(table.permille(1), 1000 / 4);
    }

    /// Slots holding an entry of the current search, counted the slow way.
    fn in_use(table: &TableView) -> u64 {
        let generation = table.generation;
        let slots = table.buckets.iter().flat_map(|b| &b.slots);
        let current = |s: &Slot| {
            let data = s.data.load(Ordering::Relaxed);
            data != 0 && old_generation(data) == generation
        };
        slots.filter(|s| current(s)).count() as u64
    }

    #[test]
    fn the_filled_slots_stores_report_are_the_slots_in_use() {
        let mut table = Table::new(1);
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for search in 0..3 {
            table.new_search();
            let view = table.view();
            let mut filled = 0;
            // More stores than slots, with repeated keys, so that every way of replacing occurs.
            for _ in 0..200_000 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Keys spread over the table, many stored again.
                let key = (state % 150_000 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93);
                let bound = [Bound::Upper, Bound::Lower, Bound::Exact][(state >> 40) as usize % 3];
                let depth = (state >> 50) as i32 % 30;
                filled += u64::from(view.store(key, 0, depth, bound, None));
            }
            assert_eq!(filled, in_use(&view), "search {search}");
        }
        // Threads filling one slot at once both count it: the permille still stops at 1000.
        assert_eq!(table.view().permille(u64::MAX), 1000);
    }
}
