//! Test support shared by the evaluation's unit tests: random positions and the learned network
//! computed the plain way, as a reference for the fast paths.

use super::net::{CAPTURE_BUCKETS, HIDDEN, INPUTS, Network, PIT_BUCKETS, SCALE, STORE_BUCKETS};
use crate::rules::{Position, Side};

/// `count` random positions: up to 48 seeds on the board, crowded into few pits now and
/// then, either side to move.
pub(crate) fn random_positions(count: usize) -> Vec<Position> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut pits = [0u8; 12];
        let on_board = next(49) as u8;
        let spread = 1 + next(12) as usize;
        for _ in 0..on_board {
            pits[next(spread as u64) as usize * 12 / spread] += 1;
        }
        let south = next(u64::from(48 - on_board) + 1) as u8;
        let side = if next(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        positions.extend(Position::new(pits, [south, 48 - on_board - south], side));
    }
    positions
}

/// The shipped network computed the plain way: a dense vector of the inputs (the ready
/// captures from the feature loop of the linear evaluation) through both layers.
pub(crate) fn reference(network: &Network, position: &Position) -> i32 {
    let us = position.side_to_move();
    let pits = position.pits();
    let features = super::eval::features(position);
    let mut x = vec![0i32; INPUTS];
    for k in 0..12 {
        let seeds = usize::from(pits[(us.first_pit() + k) % 12]);
        x[k * PIT_BUCKETS + seeds.min(PIT_BUCKETS - 1)] = 1;
    }
    let stores = 12 * PIT_BUCKETS;
    x[stores + usize::from(position.store(us)).min(STORE_BUCKETS - 1)] = 1;
    let them = stores + STORE_BUCKETS;
    x[them + usize::from(position.store(us.opponent())).min(STORE_BUCKETS - 1)] = 1;
    let captures = stores + 2 * STORE_BUCKETS;
    x[captures + (features[6] as usize).min(CAPTURE_BUCKETS - 1)] = 1;
    x[captures + CAPTURE_BUCKETS + (features[7] as usize).min(CAPTURE_BUCKETS - 1)] = 1;
    let mut out = 0;
    for j in 0..HIDDEN {
        let mut hidden = network.bias[j];
        for (i, &xi) in x.iter().enumerate() {
            hidden += xi * network.rows[i][j];
        }
        out += hidden.clamp(0, SCALE) * network.output[j];
    }
    network.output_bias + out / SCALE
}
