//! A game: a start position, the moves played and the history the repetition rule needs.

use super::{EndReason, GrandSlam, IllegalMove, Move, Outcome, Position};

/// A game in progress or finished. Keeps every position since the start so that the first
/// repetition of a position ends the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rule: GrandSlam,
    positions: Vec<Position>,
    moves: Vec<Move>,
    captures: Vec<u8>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start` under the grand-slam rule `rule`.
    pub fn new(start: Position, rule: GrandSlam) -> Game {
        Game {
            rule,
            positions: vec![start],
            moves: Vec::new(),
            captures: Vec::new(),
            outcome: start.outcome(rule),
        }
    }

    /// The grand-slam rule in force.
    pub fn rule(&self) -> GrandSlam {
        self.rule
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Seeds captured by each move played so far.
    pub fn captures(&self) -> &[u8] {
        &self.captures
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The positions since the last capture, oldest first, the current one included: the only
    /// ones a later position can repeat, since captures cannot be undone.
    pub fn since_last_capture(&self) -> &[Position] {
        let stores = |p: &Position| (p.store(super::Side::South), p.store(super::Side::North));
        let now = stores(self.position());
        let first = self
            .positions
            .iter()
            .rposition(|p| stores(p) != now)
            .map_or(0, |i| i + 1);
        &self.positions[first..]
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves now (none once the game is over, repetition included).
    pub fn legal_moves(&self) -> super::MoveSet {
        if self.outcome.is_some() {
            return super::MoveSet::EMPTY;
        }
        self.position().legal_moves(self.rule)
    }

    /// Plays `mv` if it is legal; otherwise says why and changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let played = self.position().try_play(mv, self.rule)?;
        let next = played.position;
        let repeated = played.captured == 0 && self.since_last_capture().contains(&next);
        self.positions.push(next);
        self.moves.push(mv);
        self.captures.push(played.captured);
        self.outcome = if repeated {
            Some(Outcome::new(&next, EndReason::Repetition))
        } else {
            next.outcome(self.rule)
        };
        Ok(())
    }
}
