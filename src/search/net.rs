//! The learned evaluation: a small network from one-hot counts to the seeds the side to move
//! will still gain.
//!
//! Inputs (all from the side to move's point of view, so a position and its mirror are alike):
//! each of the 12 pits as a one-hot of its seeds (0–22, and 23 or more), each store as a one-hot
//! of its seeds (0–24), and the most seeds each side could capture with one sowing now (0–18).
//! Exactly [`ACTIVE`] of the [`INPUTS`] are 1, so the hidden layer is a sum of that many weight
//! rows and no multiplication. [`HIDDEN`] units with an activation clipped to 0–1 feed one linear
//! output. The evaluation is 100 × (the store margin plus that output): 100 × the expected final
//! seed margin, as the search's scores are.
//!
//! Weights are integers: the hidden layer's at [`SCALE`] per unit of activation, the output's
//! in hundredths of a seed. The trainer (`crate::learn::train`) writes them to a file of
//! [`MAGIC`], the dimensions, the weights as little-endian `i16` and an FNV-1a checksum; the
//! shipped file `net.bin` is compiled in.

use crate::rules::Position;
use std::sync::LazyLock;

/// One-hot values per pit: 0 to 22 seeds, then 23 or more.
pub const PIT_BUCKETS: usize = 24;
/// One-hot values per store: 0 to 24 seeds (a store of 25 has ended the game).
pub const STORE_BUCKETS: usize = 25;
/// One-hot values per side's best ready capture: 0 to 18 seeds.
pub const CAPTURE_BUCKETS: usize = 19;
/// Inputs of the network.
pub const INPUTS: usize = 12 * PIT_BUCKETS + 2 * STORE_BUCKETS + 2 * CAPTURE_BUCKETS;
/// Inputs that are 1 in every position (the rest are 0).
pub const ACTIVE: usize = 16;
/// Hidden units: 64 in the shipped network (the third generation, trained on games played
/// with the second's weights); 32 with the `narrow-net` feature, as the first two generations
/// had. Weights of another width do not load (see [`shipped`]).
#[cfg(not(feature = "narrow-net"))]
pub const HIDDEN: usize = 64;
/// Hidden units of the first two generations (see the default's comment).
#[cfg(feature = "narrow-net")]
pub const HIDDEN: usize = 32;
/// A hidden unit's full activation (1.0) in the integer weights.
pub const SCALE: i32 = 1024;
/// The first bytes of a weights file (and its format's version).
pub const MAGIC: &[u8; 8] = b"KROUNET1";

/// The indices of the inputs that are 1 for `position`.
#[inline]
pub fn active_inputs(position: &Position) -> [u16; ACTIVE] {
    let us = position.side_to_move();
    let them = us.opponent();
    let pits = position.pits();
    let mut active = [0u16; ACTIVE];
    for (slot, pit) in us.pits().chain(them.pits()).enumerate() {
        let bucket = usize::from(pits[pit]).min(PIT_BUCKETS - 1);
        active[slot] = (slot * PIT_BUCKETS + bucket) as u16;
    }
    let stores = 12 * PIT_BUCKETS;
    let store = |side| usize::from(position.store(side)).min(STORE_BUCKETS - 1);
    active[12] = (stores + store(us)) as u16;
    active[13] = (stores + STORE_BUCKETS + store(them)) as u16;
    let captures = stores + 2 * STORE_BUCKETS;
    let (own, other) = (position.side_word(us), position.side_word(them));
    let capture = |a, b| (super::threats::ready_capture(a, b) as usize).min(CAPTURE_BUCKETS - 1);
    active[14] = (captures + capture(own, other)) as u16;
    active[15] = (captures + CAPTURE_BUCKETS + capture(other, own)) as u16;
    active
}

/// A network's integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The hidden layer's weights: a row of [`HIDDEN`] per input.
    pub rows: Vec<[i32; HIDDEN]>,
    /// The hidden layer's biases.
    pub bias: [i32; HIDDEN],
    /// The output's weight per hidden unit, in hundredths of a seed at full activation.
    pub output: [i32; HIDDEN],
    /// The output's bias in hundredths of a seed.
    pub output_bias: i32,
}

/// FNV-1a, 64 bits: the checksum of the weights file (and of the opening book's).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Network {
    /// The weights as a file's bytes (see the module's documentation); `None` if a weight does
    /// not fit in 16 bits.
    pub fn to_bytes(&self) -> Option<Vec<u8>> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let weights = self
            .rows
            .iter()
            .flatten()
            .chain(&self.bias)
            .chain(&self.output)
            .chain(std::iter::once(&self.output_bias));
        for &w in weights {
            bytes.extend_from_slice(&i16::try_from(w).ok()?.to_le_bytes());
        }
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        Some(bytes)
    }

    /// Reads a weights file, or says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let weights = INPUTS * HIDDEN + 2 * HIDDEN + 1;
        let expected = MAGIC.len() + 8 + 2 * weights + 8;
        if bytes.len() != expected {
            return Err(format!("{} bytes, expected {expected}", bytes.len()));
        }
        let (body, sum) = bytes.split_at(expected - 8);
        if !body.starts_with(MAGIC) {
            return Err("not a Krou network file".to_string());
        }
        let word =
            |at: usize| u32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        if (word(8), word(12)) != (INPUTS as u32, HIDDEN as u32) {
            return Err(format!(
                "a network of {} inputs and {} hidden units, not {INPUTS} and {HIDDEN}",
                word(8),
                word(12)
            ));
        }
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if u64::from_le_bytes(stored) != fnv1a(body) {
            return Err("checksum mismatch".to_string());
        }
        let mut values = body[16..]
            .chunks_exact(2)
            .map(|c| i32::from(i16::from_le_bytes([c[0], c[1]])));
        let mut take = || values.next().unwrap_or(0);
        let rows = (0..INPUTS)
            .map(|_| std::array::from_fn(|_| take()))
            .collect();
        let bias = std::array::from_fn(|_| take());
        let output = std::array::from_fn(|_| take());
        let output_bias = take();
        Ok(Network {
            rows,
            bias,
            output,
            output_bias,
        })
    }

    /// The output for `position` in hundredths of a seed: what the side to move is expected to
    /// gain from here on, beyond its store margin.
    #[inline]
    pub fn future_gain(&self, position: &Position) -> i32 {
        self.future_gain_of(&active_inputs(position))
    }

    /// [`Network::future_gain`] from the active inputs.
    #[inline]
    pub fn future_gain_of(&self, active: &[u16; ACTIVE]) -> i32 {
        let mut hidden = self.bias;
        for &input in active {
            let row = &self.rows[usize::from(input)];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += w;
            }
        }
        let sum: i32 = hidden
            .iter()
            .zip(&self.output)
            .map(|(&h, &w)| h.clamp(0, SCALE) * w)
            .sum();
        self.output_bias + sum / SCALE
    }
}

/// The weights Krou ships, made by `scripts/train-eval`.
static SHIPPED_BYTES: &[u8] = include_bytes!("net.bin");

/// The shipped network, read once; `None` if its file were damaged or of another width than
/// [`HIDDEN`] (a test checks it is neither), and the evaluation is then the linear one.
pub fn shipped() -> Option<&'static Network> {
    static SHIPPED: LazyLock<Option<Network>> =
        LazyLock::new(|| Network::from_bytes(SHIPPED_BYTES).ok());
    SHIPPED.as_ref()
}

/// Why the shipped weights do not load, if they do not.
pub fn shipped_error() -> Option<String> {
    Network::from_bytes(SHIPPED_BYTES).err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_support::{random_positions, reference};

    #[test]
    fn the_fast_network_equals_the_plain_one() {
        let network = shipped().expect("loads");
        for position in random_positions(5_000) {
            assert_eq!(
                network.future_gain(&position),
                reference(network, &position),
                "{position}"
            );
        }
    }

    #[test]
    fn the_shipped_weights_load() {
        assert_eq!(shipped_error(), None);
        assert!(shipped().is_some());
    }

    #[test]
    fn every_position_has_its_inputs_in_their_own_ranges() {
        let active = active_inputs(&Position::start());
        // Pit k holds 4: input k * 24 + 4.
        for (k, &input) in active[..12].iter().enumerate() {
            assert_eq!(usize::from(input), k * PIT_BUCKETS + 4);
        }
        assert_eq!(usize::from(active[12]), 12 * PIT_BUCKETS);
        assert_eq!(usize::from(active[13]), 12 * PIT_BUCKETS + STORE_BUCKETS);
        // Every input group holds one input of its own range, in every position.
        let stores = 12 * PIT_BUCKETS;
        let captures = stores + 2 * STORE_BUCKETS;
        for position in random_positions(2_000) {
            let active = active_inputs(&position);
            for (k, &input) in active[..12].iter().enumerate() {
                assert!((k * PIT_BUCKETS..(k + 1) * PIT_BUCKETS).contains(&usize::from(input)));
            }
            assert!((stores..stores + STORE_BUCKETS).contains(&usize::from(active[12])));
            assert!((stores + STORE_BUCKETS..captures).contains(&usize::from(active[13])));
            assert!((captures..captures + CAPTURE_BUCKETS).contains(&usize::from(active[14])));
            assert!((captures + CAPTURE_BUCKETS..INPUTS).contains(&usize::from(active[15])));
        }
    }

    #[test]
    fn a_damaged_file_is_refused_with_its_reason() {
        let mut bytes = SHIPPED_BYTES.to_vec();
        bytes[100] ^= 1;
        assert_eq!(
            Network::from_bytes(&bytes),
            Err("checksum mismatch".to_string())
        );
        assert!(Network::from_bytes(&bytes[..50]).is_err());
    }

    #[test]
    fn the_file_format_reads_back_as_written() {
        let network = shipped().expect("loads").clone();
        let bytes = network.to_bytes().expect("weights fit");
        assert_eq!(bytes, SHIPPED_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(network));
    }
}
