//! Captures ready on the board: the most seeds a side could capture with one sowing now. Both
//! evaluations read it ([`super::eval`]'s linear terms and [`super::net`]'s inputs), so it lives
//! apart from either.

use crate::rules::Side;

/// Bytes of a 48-bit side word, each `0x80`.
const HIGH_BITS: u64 = 0x8080_8080_8080;
/// Bytes of a 48-bit side word, each `0x01`.
pub(crate) const LANES: u64 = 0x0101_0101_0101;

/// The high bit of each byte of `word` holding at least `seeds` seeds (1–48); no bit when
/// `seeds` is 0, so that `!at_least(word, 0)` counts every pit. Pits hold at most 48 seeds, so
/// adding `0x80 - seeds` to a byte never carries into the next.
#[inline]
pub(crate) fn at_least(word: u64, seeds: u64) -> u64 {
    if seeds == 0 {
        return 0;
    }
    (word + (0x80 - seeds) * LANES) & HIGH_BITS
}

/// Adding it to a side word puts each pit's index (0–5) onto its seeds: byte `p` becomes the
/// distance from the side's first pit to where the last seed of pit `p` falls.
const PIT_INDICES: u64 = 0x0504_0302_0100;

/// [`best_capture`] from side words: the most seeds the owner of `own` could capture with one
/// sowing of fewer than 12 seeds, `other` being the opponent's pits (both in sowing order).
/// Branch-free: the evaluation runs at almost every node, and the walks it replaces were
/// mispredicted often.
#[inline]
pub(crate) fn ready_capture(own: u64, other: u64) -> i32 {
    // The opponent's pits of 1–2 seeds (one gained makes 2–3), as 0xff bytes …
    let takable = ((at_least(other, 1) & !at_least(other, 3)) >> 7) * 0xff;
    // … and the run a sowing that ends in each pit would capture there: a segmented prefix sum
    // over takable pits of their seeds plus the one sown, doubling its reach each round
    // (1, 2, 4 pits: enough for a side of 6). `whole` marks the pits whose window so far is
    // takable throughout; runs stop at the side's first pit (zeros shift in).
    let mut run = (other + LANES) & takable;
    let mut whole = takable;
    for shift in [8, 16, 32] {
        run += (run << shift) & whole;
        whole &= whole << shift;
    }
    // Each own pit whose last seed falls on the opponent's side without a lap
    // (6 ≤ pit + seeds ≤ 11) offers the run ending where it lands.
    let reach = own + PIT_INDICES;
    let mut best = 0;
    for pit in 0..6 {
        let target = (reach >> (8 * pit) & 0xff).wrapping_sub(6);
        // All ones when the pit lands there, else zero (a mask, not a branch).
        let lands = u64::from(target < 6).wrapping_neg();
        best = best.max(run >> (8 * (target & 7)) & 0xff & lands);
    }
    best as i32
}

/// The most seeds `side` could capture with one sowing of fewer than 12 seeds (no lap), ignoring
/// the grand-slam and feeding rules: a cheap measure of the threats on the board.
#[inline]
pub(crate) fn best_capture(pits: &[u8; 12], side: Side) -> i32 {
    let mut best = 0;
    for pit in side.pits() {
        let seeds = usize::from(pits[pit]);
        if seeds == 0 || seeds >= 12 {
            continue;
        }
        let last = (pit + seeds) % 12;
        if side.owns(last) {
            continue;
        }
        // Every pit from the one after `pit` to `last` got one seed; walk back while the
        // opponent's pits, now holding 2 or 3, were sown.
        let (mut at, mut taken, mut sown) = (last, 0, seeds);
        while sown > 0 && !side.owns(at) && matches!(pits[at], 1 | 2) {
            taken += i32::from(pits[at]) + 1;
            sown -= 1;
            at = (at + 11) % 12;
        }
        best = best.max(taken);
    }
    best
}
