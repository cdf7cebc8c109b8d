//! Position keys for the transposition table and repetition checks.
//!
//! The key is *additive*: `Σ seeds(pit) × PIT[pit] + Σ store(side) × STORE[side] + SIDE × [North
//! to move]`, in wrapping 64-bit arithmetic over fixed random keys. Like Zobrist hashing it is
//! updated incrementally, but a sowing of `n` seeds costs a few additions instead of one XOR per
//! touched pit: dropping one seed in a pit adds that pit's key. The keys are fixed at compile time,
//! so keys (and searches) are reproducible from run to run.

/// One step of SplitMix64: a good, fixed stream of random 64-bit numbers.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, value) = splitmix(state);
        state = next;
        out[i] = value;
        i += 1;
    }
    out
}

/// The key of one seed in each pit.
pub const PIT: [u64; 12] = keys(0x4b52_4f55_5049_5453);
/// The key of one seed in each store.
pub const STORE: [u64; 2] = keys(0x4b52_4f55_5354_4f52);
/// Added when North is to move.
pub const SIDE: u64 = keys::<1>(0x4b52_4f55_5349_4445)[0];

/// `RUN[p][r]`: the sum of the keys of the `r` pits that follow pit `p` in sowing order.
pub const RUN: [[u64; 12]; 12] = {
    let mut table = [[0u64; 12]; 12];
    let mut p = 0;
    while p < 12 {
        let mut r = 1;
        while r < 12 {
            table[p][r] = table[p][r - 1].wrapping_add(PIT[(p + r) % 12]);
            r += 1;
        }
        p += 1;
    }
    table
};

/// The sum of all twelve pit keys.
pub const ALL_PITS: u64 = RUN[0][11].wrapping_add(PIT[0]);
