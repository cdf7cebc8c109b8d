//! One layer of a table: the code of every board with a given number of seeds.
//!
//! The codes are held in memory (a layer just built, or a file read) or in a mapped file
//! (see [`super::mapped`]), probed in place.

use super::bounds::{Bounds, CODE_LIMIT, decode};
use super::index::{Board, MAX_SEEDS, board_count, index};
use super::mapped::MappedFile;
use std::sync::Arc;

/// The codes of every board with `seeds` seeds, in index order (see [`super::bounds`]).
#[derive(Clone, Debug)]
pub struct Layer {
    seeds: u8,
    codes: Codes,
    /// The bounds of every byte value. A byte no writer gives (a corrupt or damaged file)
    /// decodes as the widest bounds the seeds allow: always true, deciding nothing.
    decoded: [Bounds; 256],
}

/// Where a layer's codes are.
#[derive(Clone, Debug)]
enum Codes {
    /// In this process's memory.
    Owned(Vec<u8>),
    /// In a mapped table file, from `offset` on (the header before it).
    Mapped {
        file: Arc<MappedFile>,
        offset: usize,
    },
}

impl PartialEq for Layer {
    fn eq(&self, other: &Layer) -> bool {
        self.seeds == other.seeds && self.codes() == other.codes()
    }
}

impl Eq for Layer {}

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
        if let Some(i) = first_invalid(seeds, &codes) {
            return Err(LayerError::BadCode {
                index: i as u64,
                code: codes[i],
            });
        }
        Ok(Layer {
            seeds,
            codes: Codes::Owned(codes),
            decoded: decoded(seeds),
        })
    }

    /// The layer of `seeds` seeds whose codes are the bytes of `file` from `offset` on, probed
    /// in place. Only the length is checked here: the codes are checked, with the file's
    /// checksum, by reading the file ([`super::file::verify_layer`]) before the layer is used.
    pub fn mapped(seeds: u8, file: Arc<MappedFile>, offset: usize) -> Result<Layer, LayerError> {
        if seeds > MAX_SEEDS {
            return Err(LayerError::TooManySeeds(seeds));
        }
        let expected = board_count(seeds);
        let found = file.bytes().len().saturating_sub(offset) as u64;
        if found != expected {
            return Err(LayerError::WrongLength { expected, found });
        }
        Ok(Layer {
            seeds,
            codes: Codes::Mapped { file, offset },
            decoded: decoded(seeds),
        })
    }

    /// The mapped file the codes are in, if they are in one.
    pub fn mapped_file(&self) -> Option<&MappedFile> {
        match &self.codes {
            Codes::Owned(_) => None,
            Codes::Mapped { file, .. } => Some(file),
        }
    }

    /// The number of seeds on every board of this layer.
    pub fn seeds(&self) -> u8 {
        self.seeds
    }

    /// The codes, in index order.
    #[inline]
    pub fn codes(&self) -> &[u8] {
        match &self.codes {
            Codes::Owned(codes) => codes,
            Codes::Mapped { file, offset } => file.bytes().get(*offset..).unwrap_or_default(),
        }
    }

    /// The bounds of the board at `index` (below [`board_count`] of the seeds).
    #[inline]
    pub fn bounds_at(&self, index: u32) -> Bounds {
        let code = self.codes().get(index as usize).copied();
        self.decoded[usize::from(code.unwrap_or(super::mapped::UNKNOWN_CODE))]
    }

    /// The bounds of `board` (seen by its mover; it must hold this layer's seed count).
    #[inline]
    pub fn bounds(&self, board: &Board) -> Bounds {
        self.bounds_at(index(board))
    }

    /// How many boards have an exact value.
    pub fn exact_count(&self) -> u64 {
        let exact = self.decoded.map(|b| b.value().is_some());
        self.codes()
            .iter()
            .filter(|&&c| exact[usize::from(c)])
            .count() as u64
    }
}

/// The bounds of every byte value on a board of `seeds` seeds; bytes that are not codes get
/// the widest bounds, `-seeds..=seeds`.
fn decoded(seeds: u8) -> [Bounds; 256] {
    let widest = Bounds {
        lo: -(seeds as i8),
        hi: seeds as i8,
    };
    let mut decoded = [widest; 256];
    for code in 0..CODE_LIMIT {
        if let Some(bounds) = decode(code, seeds) {
            decoded[usize::from(code)] = bounds;
        }
    }
    decoded
}

/// Which byte values are codes on a board of `seeds` seeds.
pub(super) fn valid_codes(seeds: u8) -> [bool; 256] {
    let mut valid = [false; 256];
    for code in 0..CODE_LIMIT {
        valid[usize::from(code)] = decode(code, seeds).is_some();
    }
    valid
}

/// The position of the first byte of `codes` that is not a code.
fn first_invalid(seeds: u8, codes: &[u8]) -> Option<usize> {
    let valid = valid_codes(seeds);
    codes.iter().position(|&c| !valid[usize::from(c)])
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

    #[test]
    fn a_byte_that_is_no_code_decodes_as_the_widest_bounds() {
        let bounds = decoded(12);
        assert_eq!(
            bounds[usize::from(super::super::mapped::UNKNOWN_CODE)],
            Bounds { lo: -12, hi: 12 }
        );
        assert_eq!(bounds[24], Bounds::exact(0));
        assert_eq!(
            decoded(0)[255],
            Bounds::exact(0),
            "no seeds: nothing left to gain"
        );
    }
}
