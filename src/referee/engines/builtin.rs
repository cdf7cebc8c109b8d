//! The built-in players used for calibration and to measure the referee's own overhead.

use crate::referee::rng::Rng;
use crate::rules::{Game, Move};

/// A random legal move, or `None` when the game is over.
pub fn random_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let legal = game.legal_moves();
    legal.into_iter().nth(rng.below(legal.len().max(1)))
}

/// A move that captures the most seeds now (ties broken at random), or `None` when the game is
/// over.
pub fn greedy_move(game: &Game, rng: &mut Rng) -> Option<Move> {
    let position = game.position();
    let rule = game.rule();
    let captured = |mv: Move| position.play_unchecked(mv, rule).captured;
    let best = game.legal_moves().map(captured).max()?;
    let ties: Vec<Move> = game
        .legal_moves()
        .filter(|&mv| captured(mv) == best)
        .collect();
    ties.get(rng.below(ties.len())).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GrandSlam, Position};

    #[test]
    fn greedy_takes_the_biggest_capture() {
        // South to move; E (5 seeds) sows F a b c d and ends in d holding 1+1=2: a capture run
        // d c b a, each 1+1 = 2 seeds: 8 seeds. A captures nothing.
        let position: Position = "1-0-0-0-5-0-1-1-1-1-0-1-19-18-S".parse().expect("diagram");
        let game = Game::new(position, GrandSlam::NoCapture);
        let mv = greedy_move(&game, &mut Rng::new(1)).expect("a move");
        assert_eq!(mv.letter(), 'E');
        let played = position.play_unchecked(mv, GrandSlam::NoCapture);
        assert_eq!(played.captured, 8);
    }

    #[test]
    fn random_plays_only_legal_moves() {
        let mut rng = Rng::new(9);
        let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
        while let Some(mv) = random_move(&game, &mut rng) {
            assert!(game.legal_moves().contains(mv));
            game.play(mv).expect("legal");
        }
        assert!(game.outcome().is_some());
    }
}
