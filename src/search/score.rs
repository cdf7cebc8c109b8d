//! Search scores as the protocol reports them.

use std::fmt;

/// A score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 100 × the expected final seed margin.
    Cp(i32),
    /// A proven result: the game ends in this many moves (negative when losing).
    Mate(i32),
}

impl fmt::Display for Score {
    /// `cp N` or `mate N`, as in an `info` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl std::ops::Neg for Score {
    type Output = Score;

    /// The same score for the other side.
    fn neg(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}
