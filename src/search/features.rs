//! Search features that can be switched off, so that a match can measure what each one gains
//! (see `examples/ab_match.rs`). Everything is on by default; play never needs to switch
//! anything off.

/// Which optional search features are in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Narrow windows around the last iteration's score.
    pub aspiration: bool,
    /// Late quiet moves searched one or more plies shallower first.
    pub late_move_reductions: bool,
    /// Killer moves and the history table in move ordering.
    pub killers_and_history: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            aspiration: true,
            late_move_reductions: true,
            killers_and_history: true,
        }
    }
}

impl Features {
    /// Every feature, by name, for command lines: `(name, features with it switched off)`.
    pub fn without_each() -> Vec<(&'static str, Features)> {
        let all = Features::default();
        vec![
            (
                "aspiration",
                Features {
                    aspiration: false,
                    ..all
                },
            ),
            (
                "lmr",
                Features {
                    late_move_reductions: false,
                    ..all
                },
            ),
            (
                "killers-history",
                Features {
                    killers_and_history: false,
                    ..all
                },
            ),
        ]
    }
}
