//! A small seeded random number generator (SplitMix64), so a match with `--seed` is
//! reproducible without an extra dependency.

/// SplitMix64: 64 bits of state, passes BigCrush, and is plenty for picking moves and openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for one stream (a game, a player) derived from a match seed.
    pub fn derived(seed: u64, stream: u64) -> Rng {
        let mut base = Rng(seed ^ stream.wrapping_mul(0xa076_1d64_78bd_642f));
        Rng(base.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), without modulo bias worth speaking of for small `n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn same_seed_gives_the_same_stream_and_values_stay_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut seen = [false; 6];
        for _ in 0..200 {
            let x = a.below(6);
            assert_eq!(x, b.below(6));
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_ne!(Rng::derived(7, 1).next_u64(), Rng::derived(7, 2).next_u64());
    }
}
