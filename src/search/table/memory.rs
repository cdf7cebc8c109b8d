//! The memory the transposition table's buckets live in: an anonymous mapping of its own, which
//! on Linux is marked for transparent huge pages.
//!
//! A search reads buckets all over the table, and with 4 KiB pages nearly every probe of a
//! table larger than the processor's address cache also misses there and walks the page
//! tables (a profile of `krou bench 16` put about 15% of the search on the table's first read
//! and its prefetch). One 2 MiB page covers 512 times as much, so the walks all but go:
//! 1.03–1.06× the nodes a second in `krou bench 16` (docs/search.md). The kernel takes the hint
//! only where the system allows it (`/sys/kernel/mm/transparent_hugepage/enabled` set to
//! `madvise` or `always`); elsewhere the table works as before on small pages.
//!
//! The mapping comes from the `memmap2` crate and is viewed as buckets through `zerocopy`'s
//! checked cast, so the search has no `unsafe`. Where no mapping can be had, the buckets
//! are an ordinary allocation.

use super::Bucket;
use memmap2::{MmapMut, MmapOptions};
use zerocopy::FromBytes;

/// A huge page's size on x86-64 (2 MiB): the buckets start on a multiple of it, so that every
/// whole huge page of the mapping is theirs.
const HUGE_PAGE: usize = 2 << 20;

/// Zeroed memory for a number of buckets.
#[derive(Debug)]
pub(super) enum Memory {
    /// An anonymous mapping; the buckets are the `len` bytes from `start`.
    Mapped {
        map: MmapMut,
        start: usize,
        len: usize,
    },
    /// An ordinary allocation, where no mapping could be had.
    Heap(Vec<Bucket>),
}

impl Memory {
    /// `count` empty buckets (at least one) in a mapping marked for huge pages, or `None` if
    /// the system will not map that much.
    pub(super) fn mapped(count: usize) -> Option<Memory> {
        let len = count.max(1).checked_mul(size_of::<Bucket>())?;
        // Room to move the start to a huge page's boundary, for tables that span one.
        let slack = if len >= HUGE_PAGE { HUGE_PAGE } else { 0 };
        let map = MmapOptions::new()
            .len(len.checked_add(slack)?)
            .map_anon()
            .ok()?;
        let start = map.as_ptr().align_offset(HUGE_PAGE).min(slack);
        #[cfg(target_os = "linux")]
        if let Err(e) = map.advise_range(memmap2::Advice::HugePage, start, len) {
            log::debug!("the hash table stays on small pages: {e}");
        }
        let mut memory = Memory::Mapped { map, start, len };
        // A mapping starts on a page, so the cast cannot fail; checked once here all the same,
        // so that `buckets` never sees it fail.
        (memory.buckets().len() == count.max(1)).then_some(memory)
    }

    /// `count` empty buckets (at least one) in an ordinary allocation, or `None` if there is
    /// not that much memory.
    pub(super) fn heap(count: usize) -> Option<Memory> {
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count.max(1)).ok()?;
        buckets.resize_with(count.max(1), Bucket::default);
        Some(Memory::Heap(buckets))
    }

    /// The buckets. Through `&mut`, as the cast from the mapping's bytes needs it; the search
    /// threads share them through the `&` this gives.
    #[inline]
    pub(super) fn buckets(&mut self) -> &mut [Bucket] {
        match self {
            Memory::Mapped { map, start, len } => {
                let bytes = &mut map[*start..*start + *len];
                <[Bucket]>::mut_from_bytes(bytes).unwrap_or_default()
            }
            Memory::Heap(buckets) => buckets,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    /// Every bucket reads as empty, and a write to each one reads back from it alone (a
    /// different slot in neighbouring buckets, the others still empty).
    fn holds_its_buckets(memory: &mut Memory, count: usize) {
        let buckets = memory.buckets();
        assert_eq!(buckets.len(), count);
        for (i, bucket) in buckets.iter().enumerate() {
            assert!(
                bucket
                    .slots
                    .iter()
                    .all(|s| s.data.load(Ordering::Relaxed) == 0)
            );
            bucket.slots[i % 4]
                .data
                .store(i as u64 + 1, Ordering::Relaxed);
        }
        let buckets = memory.buckets();
        for (i, bucket) in buckets.iter().enumerate() {
            for (k, slot) in bucket.slots.iter().enumerate() {
                let written = if k == i % 4 { i as u64 + 1 } else { 0 };
                assert_eq!(slot.data.load(Ordering::Relaxed), written, "bucket {i}");
                assert_eq!(slot.check.load(Ordering::Relaxed), 0, "bucket {i}");
            }
        }
    }

    #[test]
    fn a_mapping_holds_its_buckets_from_a_huge_page_boundary() {
        // 10 MiB, five huge pages: the start is moved to a boundary.
        let count = 5 * HUGE_PAGE / size_of::<Bucket>();
        let mut memory = Memory::mapped(count).expect("10 MiB can be mapped");
        assert!(matches!(memory, Memory::Mapped { .. }));
        assert_eq!(memory.buckets().as_ptr() as usize % HUGE_PAGE, 0);
        holds_its_buckets(&mut memory, count);
        // A small table needs no boundary, only its buckets' own alignment.
        let mut small = Memory::mapped(3).expect("three buckets can be mapped");
        holds_its_buckets(&mut small, 3);
    }

    #[test]
    fn an_allocation_holds_its_buckets_too() {
        let mut memory = Memory::heap(1000).expect("64 KB can be had");
        holds_its_buckets(&mut memory, 1000);
        // Zero buckets asked for still make one.
        let mut one = Memory::heap(0).expect("a bucket can be had");
        holds_its_buckets(&mut one, 1);
    }

    #[test]
    fn more_than_memory_holds_is_refused_not_a_panic() {
        for count in [usize::MAX, usize::MAX / 64, (usize::MAX - HUGE_PAGE) / 64] {
            assert!(Memory::mapped(count).is_none(), "{count}");
            assert!(Memory::heap(count).is_none(), "{count}");
        }
    }
}
