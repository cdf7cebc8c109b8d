//! The evaluations the searches have made, by position key: a search evaluates many positions
//! more than once (each iteration goes over the last one's tree again, a reduced or null-window
//! search is searched again in full, a node's reverse-futility estimate comes back as a leaf
//! of a later iteration), the next move's search meets many of them again, and one lookup
//! costs less than the learned evaluation.
//!
//! Each search thread has its own cache, so nothing is shared between threads. The searcher
//! keeps them from one search to the next (allocating 128 KiB for every search cost more than
//! a short search's work; see docs/search.md), and empties them on `ucinewgame` and whenever
//! the evaluation is switched, so an entry always holds the evaluation in force. An entry
//! holds the key's upper 48 bits and the evaluation as 16 bits; the slot is chosen by the
//! [`SLOT_BITS`] bits just below those, so 48 + [`SLOT_BITS`] bits of the key must match (the
//! lowest two are not looked at): about the transposition table's odds of a false match. An
//! empty slot is 0; an entry that happens to be 0 reads as empty and is computed again. A test
//! checks that the cached evaluations equal the plain ones, and `krou bench`'s node count (the
//! search's signature) did not change when the cache came in.

/// Slots: 2¹⁴ of 8 bytes, 128 KiB, which stay in the second-level cache (more were no faster,
/// fewer slower: see docs/search.md).
const SLOT_BITS: u32 = 14;

/// The key's bits kept in an entry (the upper 48); the lower 16 hold the evaluation.
const CHECK: u64 = !0xffff;

// Every evaluation fits in an entry's 16 bits.
const _: () = assert!(super::value::MAX_EVAL <= i16::MAX as i32);
const _: () = assert!(SLOT_BITS <= 16);

/// A direct-mapped cache of evaluations by position key.
pub struct EvalCache {
    slots: Box<[u64]>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            slots: vec![0; 1 << SLOT_BITS].into_boxed_slice(),
        }
    }
}

impl EvalCache {
    /// Forgets every evaluation.
    pub fn clear(&mut self) {
        self.slots.fill(0);
    }

    /// Whether it holds no evaluation.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|&slot| slot == 0)
    }

    /// The evaluation of the position of `key`: from the cache if it holds it, else
    /// `evaluate()`, which is then kept. Evaluations are within ±`MAX_EVAL`, which fits in an
    /// `i16`.
    #[inline]
    pub fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        let slot = ((key & 0xffff) >> (16 - SLOT_BITS)) as usize;
        let Some(entry) = self.slots.get_mut(slot) else {
            return evaluate();
        };
        if *entry & CHECK == key & CHECK && *entry != 0 {
            return i32::from(*entry as u16 as i16);
        }
        let value = evaluate();
        *entry = key & CHECK | u64::from(value as i16 as u16);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::evaluate_with;
    use crate::search::test_support::random_positions;
    use crate::search::value::MAX_EVAL;

    #[test]
    fn a_cached_evaluation_is_the_evaluation() {
        // Fewer positions than slots, twice over, so the second pass reads most of what the
        // first kept; both evaluations.
        let positions = random_positions(10_000);
        for learned in [true, false] {
            let mut cache = EvalCache::default();
            for position in positions.iter().chain(&positions) {
                let plain = evaluate_with(position, learned);
                let cached = cache.get_or(position.key(), || evaluate_with(position, learned));
                assert_eq!(cached, plain, "{position}");
            }
        }
    }

    #[test]
    fn the_extreme_evaluations_read_back_as_kept() {
        let mut cache = EvalCache::default();
        let values = [MAX_EVAL, -MAX_EVAL, -1, 0, 1];
        for (k, &value) in values.iter().enumerate() {
            let key = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(k as u64 + 1);
            assert_eq!(cache.get_or(key, || value), value);
            assert_eq!(cache.get_or(key, || value + 1), value, "{value} kept");
        }
    }

    #[test]
    fn a_cleared_cache_computes_again() {
        let mut cache = EvalCache::default();
        let key = 0x0123_4567_89ab_cdef;
        assert_eq!(cache.get_or(key, || 5), 5);
        cache.clear();
        assert_eq!(cache.get_or(key, || 6), 6);
    }

    #[test]
    fn a_slot_holds_the_last_key_it_was_given() {
        let mut cache = EvalCache::default();
        // Two keys of the same slot (the same lower 16 bits).
        let (a, b) = (0x0123_4567_89ab_0042, 0x0123_9999_89ab_0042);
        assert_eq!(cache.get_or(a, || -7), -7);
        assert_eq!(cache.get_or(b, || 9), 9);
        assert_eq!(cache.get_or(a, || 11), 11);
        assert_eq!(cache.get_or(a, || 13), 11);
    }
}
