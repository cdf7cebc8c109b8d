//! The learned network of [`super::net`] in the layout the search evaluates it in: the same
//! values, computed with 16-bit lanes.
//!
//! The weights file holds 16-bit weights, but [`Network`] widens them to `i32` for the trainer.
//! Here every input's row of [`HIDDEN`] weights is 64 `i16` (two 64-byte cache lines, so the
//! 376 rows take 48 KB instead of 96 KB), and the hidden sums are added in `i16` lanes: twice as
//! many lanes per vector instruction as `i32`. The rows are grouped by what they count (a pit
//! seen from the side to move, a store, a ready capture), so that an input's row is found from
//! its seeds without building the list of active inputs first.
//!
//! # Why the values are exactly [`Network::future_gain`]'s
//! - The hidden sums are added with wrapping `i16` additions, which give the true sum modulo
//!   2¹⁶ whatever the order. [`PackedNetwork::new`] accepts a network only if every hidden
//!   sum any position can reach (its bias plus, in every input group, the least or the most
//!   weight of that group) lies in the `i16` range, so the sum modulo 2¹⁶ is the sum itself.
//! - The clipped activations (0 to [`SCALE`]) times the 16-bit output weights, summed in `i32`,
//!   are the products the plain network sums: [`HIDDEN`] of them, each from −2¹⁵ × 1024 to
//!   (2¹⁵ − 1) × 1024, so at 64 units the sum lies in −2³¹ to 2³¹ − 2¹⁶ and cannot overflow (a
//!   compile-time check keeps it so for any width).
//!
//! A test checks the values against [`Network::future_gain`] and a plain dense computation.

use super::net::{CAPTURE_BUCKETS, HIDDEN, Network, PIT_BUCKETS, SCALE, STORE_BUCKETS};
use crate::rules::Position;
use std::sync::LazyLock;

/// Hidden units in one 128-bit vector of `i16`.
const LANES: usize = 8;

// The output sum (see the module's comment) fits in `i32` at this width.
const _: () = assert!(HIDDEN as i64 * SCALE as i64 * (1 << 15) <= 1 << 31);

/// One input's weights to the hidden units (or the hidden biases), aligned to a cache line and
/// cut into 128-bit vectors, which the compiler adds a vector at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
struct Row([[i16; LANES]; HIDDEN / LANES]);

impl Row {
    /// The row of `weights`, unit by unit.
    fn new(weights: [i16; HIDDEN]) -> Row {
        Row(std::array::from_fn(|vector| {
            std::array::from_fn(|lane| weights[vector * LANES + lane])
        }))
    }

    /// The sums of this row and `other`, lane by lane, wrapping (see the module's
    /// documentation for why that is exact). By value, so that a chain of them keeps the sums
    /// in vector registers.
    #[inline(always)]
    fn plus(mut self, other: &Row) -> Row {
        for (sums, weights) in self.0.iter_mut().zip(&other.0) {
            for (sum, &weight) in sums.iter_mut().zip(weights) {
                *sum = sum.wrapping_add(weight);
            }
        }
        self
    }

    /// The weight of hidden unit `unit`.
    fn unit(&self, unit: usize) -> i16 {
        self.0[unit / LANES][unit % LANES]
    }
}

/// A network's first layer as 16-bit rows grouped by input, and its output layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedNetwork {
    /// `pits[k][bucket]`: the row of the `k`-th pit counted from the side to move's first pit
    /// (0–5 its own, 6–11 the opponent's) holding `bucket` seeds (the last bucket: that many or
    /// more).
    pits: [[Row; PIT_BUCKETS]; 12],
    /// `stores[0]`: the side to move's store by its seeds; `stores[1]`: the opponent's.
    stores: [[Row; STORE_BUCKETS]; 2],
    /// `captures[0]`: the best capture the side to move has ready, by its seeds; `captures[1]`:
    /// the opponent's.
    captures: [[Row; CAPTURE_BUCKETS]; 2],
    /// The hidden layer's biases.
    bias: Row,
    /// The output's weight per hidden unit, in hundredths of a seed at full activation.
    output: Row,
    /// The output's bias in hundredths of a seed.
    output_bias: i32,
}

impl PackedNetwork {
    /// `network` packed, or `None` if a weight does not fit in 16 bits or a position could
    /// drive a hidden sum out of the 16-bit range (then the plain network must be used).
    pub fn new(network: &Network) -> Option<Box<PackedNetwork>> {
        let row = |input: usize| Some(Row::new(narrow(network.rows.get(input)?)?));
        let rows_from = |first: usize, count: usize| -> Option<Vec<Row>> {
            (first..first + count).map(row).collect()
        };
        let stores_at = 12 * PIT_BUCKETS;
        let captures_at = stores_at + 2 * STORE_BUCKETS;
        let packed = PackedNetwork {
            pits: groups(|k| rows_from(k * PIT_BUCKETS, PIT_BUCKETS))?,
            stores: groups(|k| rows_from(stores_at + k * STORE_BUCKETS, STORE_BUCKETS))?,
            captures: groups(|k| rows_from(captures_at + k * CAPTURE_BUCKETS, CAPTURE_BUCKETS))?,
            bias: Row::new(narrow(&network.bias)?),
            output: Row::new(narrow(&network.output)?),
            output_bias: network.output_bias,
        };
        packed.sums_fit().then(|| Box::new(packed))
    }

    /// Whether every hidden sum a position can reach fits in an `i16`.
    fn sums_fit(&self) -> bool {
        let groups = self.pits.iter().map(|g| &g[..]);
        let groups = groups.chain(self.stores.iter().map(|g| &g[..]));
        let groups: Vec<&[Row]> = groups.chain(self.captures.iter().map(|g| &g[..])).collect();
        (0..HIDDEN).all(|unit| {
            let bias = i32::from(self.bias.unit(unit));
            let (least, most) = groups.iter().fold((bias, bias), |(least, most), group| {
                let weights = group.iter().map(|row| i32::from(row.unit(unit)));
                let low = weights.clone().min().unwrap_or(0);
                let high = weights.max().unwrap_or(0);
                (least + low, most + high)
            });
            i32::from(i16::MIN) <= least && most <= i32::from(i16::MAX)
        })
    }

    /// [`Network::future_gain`] of the network this was packed from, for `position`: what the
    /// side to move is expected to gain from here on beyond its store margin, in hundredths of
    /// a seed.
    ///
    /// The rows of the inputs that are 1 (those of
    /// [`active_inputs`](super::net::active_inputs)) are added as they are found, written out
    /// one by one, so that the hidden sums stay in vector registers and no list of rows is
    /// built first.
    #[inline]
    pub fn future_gain(&self, position: &Position) -> i32 {
        let us = position.side_to_move();
        let them = us.opponent();
        let (own, other) = (position.side_word(us), position.side_word(them));
        let pits = (u128::from(own) | u128::from(other) << 48).to_le_bytes();
        let pit = |k: usize| &self.pits[k][usize::from(pits[k]).min(PIT_BUCKETS - 1)];
        let store = |k: usize, side| {
            &self.stores[k][usize::from(position.store(side)).min(STORE_BUCKETS - 1)]
        };
        let capture = |k: usize, a, b| {
            let seeds = super::threats::ready_capture(a, b) as usize;
            &self.captures[k][seeds.min(CAPTURE_BUCKETS - 1)]
        };
        let hidden = (self.bias)
            .plus(pit(0))
            .plus(pit(1))
            .plus(pit(2))
            .plus(pit(3))
            .plus(pit(4))
            .plus(pit(5))
            .plus(pit(6))
            .plus(pit(7))
            .plus(pit(8))
            .plus(pit(9))
            .plus(pit(10))
            .plus(pit(11))
            .plus(store(0, us))
            .plus(store(1, them))
            .plus(capture(0, own, other))
            .plus(capture(1, other, own));
        self.output_bias + clipped_dot(&hidden.0, &self.output) / SCALE
    }
}

/// The hidden sums clipped to 0–[`SCALE`] times their output weights, summed (in one flat
/// loop, which the compiler turns into a few multiply-adds of pairs). Not inlined: inside the
/// caller the compiler would cut the hidden sums into half-width vectors.
#[inline(never)]
fn clipped_dot(hidden: &[[i16; LANES]; HIDDEN / LANES], output: &Row) -> i32 {
    let full = SCALE as i16;
    let products = hidden.as_flattened().iter().zip(output.0.as_flattened());
    products
        .map(|(&sum, &weight)| i32::from(sum.clamp(0, full)) * i32::from(weight))
        .sum()
}

/// `weights` as `i16`, or `None` if one does not fit.
fn narrow(weights: &[i32; HIDDEN]) -> Option<[i16; HIDDEN]> {
    let mut narrow = [0; HIDDEN];
    for (narrow, &wide) in narrow.iter_mut().zip(weights) {
        *narrow = i16::try_from(wide).ok()?;
    }
    Some(narrow)
}

/// An array of `N` groups of `B` rows, group `k` made by `group(k)`; `None` if one is `None` or
/// has not `B` rows.
fn groups<const N: usize, const B: usize>(
    group: impl Fn(usize) -> Option<Vec<Row>>,
) -> Option<[[Row; B]; N]> {
    let mut all = [[Row::new([0; HIDDEN]); B]; N];
    for (k, rows) in all.iter_mut().enumerate() {
        *rows = group(k)?.try_into().ok()?;
    }
    Some(all)
}

/// The shipped network packed, read once; `None` if its file were damaged or it did not pack (a
/// test checks that it does).
pub fn shipped() -> Option<&'static PackedNetwork> {
    static SHIPPED: LazyLock<Option<Box<PackedNetwork>>> =
        LazyLock::new(|| super::net::shipped().and_then(PackedNetwork::new));
    SHIPPED.as_deref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GrandSlam;
    use crate::search::test_support::{random_positions, reference};

    /// `count` positions of pseudo-random games from the start (sowings, laps and captures as
    /// play makes them), a new game whenever one ends.
    fn played_positions(count: usize) -> Vec<Position> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut positions = Vec::with_capacity(count);
        let mut position = Position::start();
        while positions.len() < count {
            let moves: Vec<_> = position.legal_moves(GrandSlam::NoCapture).collect();
            if moves.is_empty() {
                position = Position::start();
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mv = moves[(state % moves.len() as u64) as usize];
            position = position.play_unchecked(mv, GrandSlam::NoCapture).position;
            positions.push(position);
        }
        positions
    }

    #[test]
    fn the_packed_network_equals_the_plain_one() {
        let network = crate::search::net::shipped().expect("loads");
        let packed = PackedNetwork::new(network).expect("packs");
        let positions = random_positions(20_000)
            .into_iter()
            .chain(played_positions(20_000));
        for position in positions {
            let expected = reference(network, &position);
            assert_eq!(packed.future_gain(&position), expected, "{position}");
            assert_eq!(network.future_gain(&position), expected, "{position}");
        }
    }

    #[test]
    fn played_games_reach_captures_and_crowded_pits() {
        let positions = played_positions(20_000);
        assert!(positions.iter().any(|p| p.seeds_on_board() < 18));
        assert!(positions.iter().any(|p| p.pits().iter().any(|&s| s >= 12)));
    }

    #[test]
    fn the_shipped_network_packs() {
        assert!(shipped().is_some());
    }

    #[test]
    fn a_network_whose_hidden_sums_could_leave_16_bits_is_not_packed() {
        let mut network = crate::search::net::shipped().expect("loads").clone();
        // Every weight fits in 16 bits, but a sum of the bias and 16 rows does not.
        network.bias[5] = 30_000;
        for row in &mut network.rows {
            row[5] = 3_000;
        }
        assert_eq!(PackedNetwork::new(&network), None);
    }

    #[test]
    fn a_weight_beyond_16_bits_is_not_packed() {
        let mut network = crate::search::net::shipped().expect("loads").clone();
        network.rows[100][7] = 40_000;
        assert_eq!(PackedNetwork::new(&network), None);
    }
}
