//! Proven bounds on a table value, and the one-byte code a table stores per board.
//!
//! A value is the final seed margin the side to move will still gain from this position on
//! (its future captures plus the seeds on its side when the game ends, minus the opponent's).
//!
//! The code of a board is:
//! - `0..=48`: the value is exactly `code - 24` (bounds `lo = hi`);
//! - `49..=219`: the value is not settled by forced play (best play may loop). The code names a
//!   pair `BREAKS[i] < BREAKS[j]` with `BREAKS[i] <= lo` and `hi <= BREAKS[j]`: the proven bounds,
//!   widened outward to the nearest break so that a pair fits in the byte, then narrowed to the
//!   parity of the seed count (every seed on the board ends up with one side, so a value has the
//!   parity of the seeds). Widening only loses precision; the interval still contains every
//!   value the real rules can give.
//! - `220..=255`: never written; a file holding one is corrupt.

/// Proven bounds `lo <= value <= hi` on the margin the side to move will still gain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The margin the side to move can force.
    pub lo: i8,
    /// The margin the opponent can hold the side to move to.
    pub hi: i8,
}

impl Bounds {
    /// Bounds that settle the value: `lo = hi = value`.
    pub const fn exact(value: i8) -> Bounds {
        Bounds {
            lo: value,
            hi: value,
        }
    }

    /// The value, when the bounds settle it.
    pub const fn value(self) -> Option<i8> {
        if self.lo == self.hi {
            Some(self.lo)
        } else {
            None
        }
    }

    /// The bounds seen from the opponent, after `captured` seeds went to the side to move:
    /// what a move that captures `captured` and leads to a position with bounds `self` is
    /// worth to the side that played it.
    #[must_use]
    pub const fn after_move(self, captured: u8) -> Bounds {
        Bounds {
            lo: captured as i8 - self.hi,
            hi: captured as i8 - self.lo,
        }
    }
}

impl std::fmt::Display for Bounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value() {
            Some(v) => write!(f, "{v:+}"),
            None => write!(f, "[{:+}, {:+}]", self.lo, self.hi),
        }
    }
}

/// The margins an interval code may end on.
const BREAKS: [i8; 19] = [
    -24, -16, -12, -9, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 9, 12, 16, 24,
];
const EXACT_CODES: u8 = 49;
/// One past the largest code ever written.
pub const CODE_LIMIT: u8 = EXACT_CODES + (BREAKS.len() * (BREAKS.len() - 1) / 2) as u8;

/// The code of an interval between breaks `i < j`.
const fn pair_code(i: usize, j: usize) -> u8 {
    // Pairs are numbered row by row: (0,1), (0,2), …, (0,18), (1,2), …
    let n = BREAKS.len();
    let before = i * (2 * n - i - 1) / 2;
    EXACT_CODES + (before + (j - i - 1)) as u8
}

/// The byte stored for `bounds` (which lie in −24..=24).
pub fn encode(bounds: Bounds) -> u8 {
    if let Some(v) = bounds.value() {
        return (v + 24) as u8;
    }
    let i = BREAKS.iter().rposition(|&b| b <= bounds.lo).unwrap_or(0);
    let j = BREAKS
        .iter()
        .position(|&b| b >= bounds.hi)
        .unwrap_or(BREAKS.len() - 1);
    pair_code(i, j)
}

/// The bounds a code stands for on a board of `seeds` seeds (values lie in `-seeds..=seeds`),
/// or `None` for a code that is never written.
pub fn decode(code: u8, seeds: u8) -> Option<Bounds> {
    let limit = seeds as i8;
    if code < EXACT_CODES {
        let v = code as i8 - 24;
        return (v.abs() <= limit).then_some(Bounds::exact(v));
    }
    let mut rest = usize::from(code.checked_sub(EXACT_CODES)?);
    for i in 0..BREAKS.len() - 1 {
        let row = BREAKS.len() - 1 - i;
        if rest < row {
            // Every value has the parity of the seeds (all of them end up with someone).
            let (mut lo, mut hi) = (BREAKS[i].max(-limit), BREAKS[i + 1 + rest].min(limit));
            lo += (lo - limit).rem_euclid(2);
            hi -= (hi - limit).rem_euclid(2);
            return (lo < hi).then_some(Bounds { lo, hi });
        }
        rest -= row;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values_round_trip() {
        for v in -24..=24 {
            assert_eq!(decode(encode(Bounds::exact(v)), 24), Some(Bounds::exact(v)));
        }
    }

    #[test]
    fn intervals_decode_to_an_enclosing_interval() {
        for seeds in 1..=24i8 {
            for lo in (-seeds..seeds).step_by(2) {
                for hi in (lo + 2..=seeds).step_by(2) {
                    let code = encode(Bounds { lo, hi });
                    assert!((EXACT_CODES..CODE_LIMIT).contains(&code));
                    let back = decode(code, seeds as u8).expect("a written code decodes");
                    assert!(back.lo <= lo && hi <= back.hi, "{lo}..{hi} -> {back}");
                    assert!(back.lo < back.hi);
                }
            }
        }
    }

    #[test]
    fn intervals_on_even_breaks_are_kept_exactly() {
        for (i, &lo) in BREAKS.iter().enumerate() {
            for &hi in BREAKS[i + 1..]
                .iter()
                .filter(|&&hi| lo % 2 == 0 && hi % 2 == 0)
            {
                assert_eq!(
                    decode(encode(Bounds { lo, hi }), 24),
                    Some(Bounds { lo, hi })
                );
            }
        }
    }

    #[test]
    fn unwritten_codes_are_refused() {
        assert_eq!(decode(CODE_LIMIT, 24), None);
        assert_eq!(decode(255, 24), None);
        assert_eq!(decode(24 + 5, 4), None);
    }
}
