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
//!   seeds on the board (the outer breaks stand for "as far as the seeds allow") and to their
//!   parity (every seed on the board ends up with one side, so a value has the parity of the
//!   seeds). Widening only loses precision; the interval still contains every value the real
//!   rules can give.
//! - `220..=231`: the value is exactly −25, +25, −26, +26, … , −30, +30 (boards of more than 24
//!   seeds; codes below 220 mean the same for every seed count);
//! - `232..=255`: never written; a file holding one is corrupt.

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

/// The margins an interval code may end on; the outer two stand for the most the seeds allow.
const BREAKS: [i8; 19] = [
    -48, -16, -12, -9, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 9, 12, 16, 48,
];
const EXACT_CODES: u8 = 49;
/// The first code of the exact values beyond ±24.
const WIDE_EXACT: u8 = EXACT_CODES + (BREAKS.len() * (BREAKS.len() - 1) / 2) as u8;
/// The largest magnitude of an exact value a code can hold.
const WIDEST: i8 = 30;
/// One past the largest code ever written.
pub const CODE_LIMIT: u8 = WIDE_EXACT + 2 * (WIDEST - 24) as u8;

/// The code of an interval between breaks `i < j`.
const fn pair_code(i: usize, j: usize) -> u8 {
    // Pairs are numbered row by row: (0,1), (0,2), …, (0,18), (1,2), …
    let n = BREAKS.len();
    let before = i * (2 * n - i - 1) / 2;
    EXACT_CODES + (before + (j - i - 1)) as u8
}

/// The byte stored for `bounds` (which lie in −30..=30).
pub fn encode(bounds: Bounds) -> u8 {
    if let Some(v) = bounds.value() {
        if v.abs() > 24 {
            return WIDE_EXACT + 2 * (v.unsigned_abs() - 25) + u8::from(v > 0);
        }
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
    if code >= WIDE_EXACT {
        let step = code - WIDE_EXACT;
        let magnitude = 25 + (step / 2) as i8;
        let v = if step % 2 == 1 { magnitude } else { -magnitude };
        return (code < CODE_LIMIT && magnitude <= limit).then_some(Bounds::exact(v));
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
        for v in -WIDEST..=WIDEST {
            let code = encode(Bounds::exact(v));
            assert!(code < CODE_LIMIT);
            assert_eq!(decode(code, WIDEST as u8), Some(Bounds::exact(v)));
            assert_eq!(decode(code, v.unsigned_abs()), Some(Bounds::exact(v)));
            if v.abs() > 0 {
                assert_eq!(
                    decode(code, v.unsigned_abs() - 1),
                    None,
                    "{v} beyond the seeds"
                );
            }
        }
    }

    /// The decoding of format 1 before boards of more than 24 seeds: outer breaks ±24.
    fn decode_up_to_24(code: u8, seeds: u8) -> Option<Bounds> {
        const OLD: [i8; 19] = [
            -24, -16, -12, -9, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 9, 12, 16, 24,
        ];
        let limit = seeds as i8;
        if code < EXACT_CODES {
            let v = code as i8 - 24;
            return (v.abs() <= limit).then_some(Bounds::exact(v));
        }
        let mut pairs = Vec::new();
        for (i, &lo) in OLD.iter().enumerate() {
            for &hi in &OLD[i + 1..] {
                pairs.push((lo, hi));
            }
        }
        let &(lo, hi) = pairs.get(usize::from(code - EXACT_CODES))?;
        let (mut lo, mut hi) = (lo.max(-limit), hi.min(limit));
        lo += (lo - limit).rem_euclid(2);
        hi -= (hi - limit).rem_euclid(2);
        (lo < hi).then_some(Bounds { lo, hi })
    }

    #[test]
    fn files_of_up_to_24_seeds_decode_as_they_always_did() {
        for seeds in 0..=24u8 {
            for code in 0..=255u8 {
                assert_eq!(
                    decode(code, seeds),
                    decode_up_to_24(code, seeds),
                    "{code} {seeds}"
                );
            }
        }
    }

    #[test]
    fn intervals_decode_to_an_enclosing_interval() {
        for seeds in 1..=WIDEST {
            for lo in (-seeds..seeds).step_by(2) {
                for hi in (lo + 2..=seeds).step_by(2) {
                    let code = encode(Bounds { lo, hi });
                    assert!((EXACT_CODES..WIDE_EXACT).contains(&code));
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
                    Some(Bounds {
                        lo: lo.max(-24),
                        hi: hi.min(24)
                    })
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
