//! The grand-slam rule: what happens when a move would capture every seed the opponent has.

use std::fmt;
use std::str::FromStr;

/// How a grand slam (a move that would capture every seed on the opponent's side) is treated.
/// Chosen once per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// The move may be played but captures nothing (Abapa, the default).
    #[default]
    NoCapture,
    /// The move is illegal. If every move a player has is a grand slam, that player has no
    /// legal move and the game ends.
    Forbidden,
    /// The move captures as usual, taking every seed on the opponent's side.
    CaptureAll,
}

impl GrandSlam {
    /// Every rule, default first.
    pub const ALL: [GrandSlam; 3] = [
        GrandSlam::NoCapture,
        GrandSlam::Forbidden,
        GrandSlam::CaptureAll,
    ];

    /// The rule's name as used on the command line and in the `GrandSlam` option.
    pub const fn name(self) -> &'static str {
        match self {
            GrandSlam::NoCapture => "no-capture",
            GrandSlam::Forbidden => "forbidden",
            GrandSlam::CaptureAll => "capture-all",
        }
    }
}

impl fmt::Display for GrandSlam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text named no grand-slam rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGrandSlam(pub String);

impl fmt::Display for UnknownGrandSlam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown grand-slam rule '{}' (expected no-capture, forbidden or capture-all)",
            self.0.escape_debug()
        )
    }
}

impl std::error::Error for UnknownGrandSlam {}

impl FromStr for GrandSlam {
    type Err = UnknownGrandSlam;

    /// Parses a rule name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GrandSlam::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownGrandSlam(s.to_string()))
    }
}
