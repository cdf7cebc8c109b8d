//! perft: counting the leaf nodes of the move tree, to check and time the move generator.

use super::{GrandSlam, Move, Position};

/// The number of move sequences of exactly `depth` moves from `position` (leaf nodes at that
/// depth). Positions where the game is over have no moves; repetition is not applied.
pub fn perft(position: &Position, depth: u32, rule: GrandSlam) -> u64 {
    match depth {
        0 => 1,
        // Bulk counting: the leaves below a node one ply from the end are its legal moves.
        1 => position.legal_moves(rule).len() as u64,
        _ => position
            .legal_moves(rule)
            .map(|mv| perft(&position.play_unchecked(mv, rule).position, depth - 1, rule))
            .sum(),
    }
}

/// perft split by first move: each legal move with the leaf count below it.
pub fn perft_divide(position: &Position, depth: u32, rule: GrandSlam) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves(rule)
        .map(|mv| {
            (
                mv,
                perft(&position.play_unchecked(mv, rule).position, depth - 1, rule),
            )
        })
        .collect()
}

/// The report `krou perft` and the protocol's `perft` print: one `<move>: <count>` line per legal
/// move, then `nodes <total> time <ms> nps <rate>`.
pub fn perft_report(position: &Position, depth: u32, rule: GrandSlam) -> Vec<String> {
    let started = std::time::Instant::now();
    let divided = perft_divide(position, depth, rule);
    let elapsed = started.elapsed();
    let total: u64 = if depth == 0 {
        1
    } else {
        divided.iter().map(|(_, n)| n).sum()
    };
    let micros = elapsed.as_micros().max(1);
    let nps = u128::from(total) * 1_000_000 / micros;
    let mut lines: Vec<String> = divided.iter().map(|(mv, n)| format!("{mv}: {n}")).collect();
    lines.push(format!(
        "nodes {total} time {} nps {nps}",
        elapsed.as_millis()
    ));
    lines
}
