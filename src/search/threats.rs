//! Captures ready on the board: the most seeds a side could capture with one sowing now, and
//! whether the side to move could capture at all. Both evaluations read the first
//! ([`super::eval`]'s linear terms and [`super::net`]'s inputs), the quiescence search the
//! second, so they live apart from either.

use crate::rules::{Position, Side};

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

/// Whether the side to move in `position` might capture with its next sowing: false only when
/// none can, so a search may skip playing its moves to look. Exact for sowings of fewer than 12
/// seeds (their last seed must fall in an opponent's pit of 1–2 seeds), ignoring the grand-slam
/// rule and whether the game is over; any pit of 12 or more makes it true.
#[inline]
pub(crate) fn may_capture(position: &Position) -> bool {
    let us = position.side_to_move();
    let (own, other) = (position.side_word(us), position.side_word(us.opponent()));
    // The opponent's pits of 1–2 seeds, as 0x01 bytes, and where each own sowing ends.
    let takable = (at_least(other, 1) & !at_least(other, 3)) >> 7;
    let reach = own + PIT_INDICES;
    let mut lands = 0;
    for pit in 0..6 {
        let target = (reach >> (8 * pit) & 0xff).wrapping_sub(6);
        lands |= u64::from(target < 6) << (8 * (target & 7));
    }
    lands & takable != 0 || at_least(own, 12) != 0
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GrandSlam;
    use crate::search::test_support::random_positions;

    /// The quiescence search skips a node's moves on `may_capture`'s word, so a false must
    /// mean that no legal move captures, under every grand-slam rule; and it is exact below 12
    /// seeds: true just when a pit holds 12 or more or a sowing has a capture ready.
    #[test]
    fn no_capture_is_missed() {
        let (mut skipped, mut captures) = (0usize, 0usize);
        for position in random_positions(100_000) {
            let us = position.side_to_move();
            let ready = best_capture(&position.pits(), us) > 0;
            let lap = us.pits().any(|pit| position.pits()[pit] >= 12);
            assert_eq!(may_capture(&position), ready || lap, "{position:?}");
            for rule in GrandSlam::ALL {
                let captured = position
                    .legal_moves(rule)
                    .into_iter()
                    .any(|mv| position.play_unchecked(mv, rule).captured > 0);
                assert!(
                    !captured || may_capture(&position),
                    "{position:?} under {rule:?}"
                );
                captures += usize::from(captured);
            }
            skipped += usize::from(!may_capture(&position));
        }
        // Both answers occur, so the test sees each side of the function.
        assert!(
            skipped > 10_000 && captures > 10_000,
            "{skipped} {captures}"
        );
    }

    /// A sowing of fewer than 12 seeds that ends in an opponent's pit of 1 or 2 seeds is seen,
    /// from either side; one that ends in a pit of 0 or 3, or back on the mover's own side, is
    /// not; a pit of 12 or more is always a maybe.
    #[test]
    fn ready_captures_are_seen_and_others_are_not() {
        let at = |pits: [u8; 12], side| {
            let on_board: u8 = pits.iter().sum();
            let south = (48 - on_board) / 2;
            Position::new(pits, [south, 48 - on_board - south], side).expect("a legal position")
        };
        // F (index 5) with 2 seeds ends in b (index 7).
        let mut pits = [0; 12];
        pits[5] = 2;
        pits[7] = 1;
        assert!(may_capture(&at(pits, Side::South)));
        pits[7] = 3;
        assert!(!may_capture(&at(pits, Side::South)));
        pits[7] = 0;
        assert!(!may_capture(&at(pits, Side::South)));
        pits[5] = 12;
        assert!(
            may_capture(&at(pits, Side::South)),
            "a lap is always a maybe"
        );
        // F with 7 seeds ends back in A, South's own pit, whatever North holds.
        let mut pits = [1; 12];
        pits[..6].copy_from_slice(&[0, 0, 0, 0, 0, 7]);
        assert!(!may_capture(&at(pits, Side::South)));
        // A (index 0) with 11 seeds ends in f (index 11), the farthest pit without a lap.
        let mut pits = [0; 12];
        pits[0] = 11;
        pits[11] = 2;
        assert!(may_capture(&at(pits, Side::South)));
        // North's mirror of the first case: f (index 11) with 2 seeds ends in B (index 1).
        let mut pits = [0; 12];
        pits[11] = 2;
        pits[1] = 1;
        assert!(may_capture(&at(pits, Side::North)));
        pits[1] = 3;
        assert!(!may_capture(&at(pits, Side::North)));
    }
}
