//! One layer of a table: the code of every board with a given number of seeds.

use super::bounds::{Bounds, CODE_LIMIT, decode};
use super::index::{Board, MAX_SEEDS, board_count, index};

/// The codes of every board with `seeds` seeds, in index order (see [`super::bounds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer {
    seeds: u8,
    codes: Vec<u8>,
    decoded: [Bounds; 256],
}

/// Why a list of codes is not a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerError {
    /// More seeds than a table may hold.
    TooManySeeds(u8),
    /// The number of codes is not the number of boards.
    WrongLength {
        /// Codes needed.
        expected: u64,
        /// Codes found.
        found: u64,
    },
    /// A code that is never written (or a value beyond the seeds on the board).
    BadCode {
        /// Index of the board.
        index: u64,
        /// The code found.
        code: u8,
    },
}

impl std::fmt::Display for LayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LayerError::TooManySeeds(n) => {
                write!(f, "{n} seeds is more than the {MAX_SEEDS} a table may hold")
            }
            LayerError::WrongLength { expected, found } => {
                write!(f, "{found} board codes where {expected} are needed")
            }
            LayerError::BadCode { index, code } => {
                write!(f, "invalid code {code} for board {index}")
            }
        }
    }
}

impl std::error::Error for LayerError {}

impl Layer {
    /// The layer of `seeds` seeds with these codes, checked: one valid code per board.
    pub fn new(seeds: u8, codes: Vec<u8>) -> Result<Layer, LayerError> {
        if seeds > MAX_SEEDS {
            return Err(LayerError::TooManySeeds(seeds));
        }
        let expected = board_count(seeds);
        if codes.len() as u64 != expected {
            return Err(LayerError::WrongLength {
                expected,
                found: codes.len() as u64,
            });
        }
        let mut decoded = [Bounds::exact(0); 256];
        let mut valid = [false; 256];
        for code in 0..CODE_LIMIT {
            if let Some(bounds) = decode(code, seeds) {
                decoded[usize::from(code)] = bounds;
                valid[usize::from(code)] = true;
            }
        }
        if let Some(i) = codes.iter().position(|&c| !valid[usize::from(c)]) {
            return Err(LayerError::BadCode {
                index: i as u64,
                code: codes[i],
            });
        }
        Ok(Layer {
            seeds,
            codes,
            decoded,
        })
    }

    /// The number of seeds on every board of this layer.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// The codes, in index order.
    pub fn codes(&self) -> &[u8] {
        &self.codes
    }

    /// The bounds of the board at `index` (below [`board_count`] of the seeds).
    #[inline]
    pub fn bounds_at(&self, index: u32) -> Bounds {
        let code = self.codes.get(index as usize).copied().unwrap_or(0);
        self.decoded[usize::from(code)]
    }

    /// The bounds of `board` (seen by its mover; it must hold this layer's seed count).
    #[inline]
    pub fn bounds(&self, board: &Board) -> Bounds {
        self.bounds_at(index(board))
    }

    /// How many boards have an exact value.
    pub fn exact_count(&self) -> u64 {
        let exact = self.decoded.map(|b| b.value().is_some());
        self.codes
            .iter()
            .filter(|&&c| exact[usize::from(c)])
            .count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_of_26_seeds_takes_the_wide_exact_values() {
        // Codes 220 and 223 are exact -25 and +26 (224, -27, is beyond 26 seeds: see the
        // decoding's tests).
        let seeds = 26;
        let mut codes = vec![24u8; board_count(seeds) as usize];
        codes[1] = 220;
        codes[2] = 223;
        let layer = Layer::new(seeds, codes).expect("valid codes");
        assert_eq!(layer.bounds_at(1), Bounds::exact(-25));
        assert_eq!(layer.bounds_at(2), Bounds::exact(26));
    }
}
