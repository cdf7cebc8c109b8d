//! Search features that can be switched, so that a match can measure what each one gains (a
//! build with one switched is matched against the default with `krou match --sprt`; figures in
//! the README). The defaults are what the matches kept: aspiration windows showed no gain
//! (979 games at 50,000 nodes a move: −2.8 ± 18.3 Elo), so they are off; the quiescence search
//! gained +19.3 ± 13.6 Elo (1,789 games at 20,000 nodes a move, SPRT H1), so it is on (at
//! equal time, 50 ms a move: +10.0 ± 11.8 in 1,952 games, stopped undecided); the learned
//! evaluation beat the linear one by +397.5 ± 275.3 Elo (38 games at 50 ms a move, +34 =1 −3,
//! SPRT H1), so it is on; the interval estimate showed no gain (+3.3 ± 9.9 in 1,665 games at
//! 50,000 nodes a move with the 0–20 tables, stopped undecided), so it is off; the time plan by
//! phase is off until an SPRT at `10+0.1` keeps it (it changes nothing without a clock, so not
//! at a fixed node count or depth); internal iterative reduction gained +69.7 ± 29.8 Elo (192
//! games at 50,000 nodes a move with the 0–20 tables, SPRT H1), so it is on; razoring on top of
//! it showed no gain (+5.3 ± 20.6 in 327 games, stopped undecided), so it is off; singular
//! extensions gained +16.2 ± 11.9 Elo (1,178 games at 50,000 nodes a move with the 0–20 tables,
//! SPRT H1), their multi-cut +31.8 ± 18.5 on top (416 games), and their double extension
//! +15.7 ± 11.8 on top of that (1,088 games), so they are on.

/// Which optional search features are in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Narrow windows around the last iteration's score (off: no gain measured).
    pub aspiration: bool,
    /// Late quiet moves searched one or more plies shallower first.
    pub late_move_reductions: bool,
    /// Killer moves and the history table in move ordering.
    pub killers_and_history: bool,
    /// Reverse futility pruning: near the horizon, a node whose evaluation is far above beta
    /// is taken to hold without a search.
    pub reverse_futility: bool,
    /// Quiescence search: at the horizon, captures are searched on (up to
    /// `QUIESCENCE_PLIES`) before the evaluation is trusted.
    pub quiescence: bool,
    /// The learned evaluation (`super::net`); off: the linear one it replaced.
    pub learned_evaluation: bool,
    /// Where the endgame tables bound a node's value by an interval, its estimate at the
    /// horizon is halfway between the evaluation (kept inside the interval) and the interval's
    /// middle; off: the evaluation kept inside the interval.
    pub interval_estimate: bool,
    /// A clock without `movestogo` is shared out by the game's phase (more for the middle
    /// game, less for the opening and the long endgame; `time::Plan::ByPhase`); off: evenly.
    pub time_by_phase: bool,
    /// Internal iterative reduction: a node 4 or more plies from the horizon, not the root, that
    /// finds no move in the transposition table is searched a ply shallower, two from 8 plies
    /// (its move ordering has nothing to start from).
    pub internal_reduction: bool,
    /// Razoring: near the horizon, outside the principal variation, a node whose evaluation is
    /// far below alpha is given the quiescence search's value when that fails low too.
    pub razoring: bool,
    /// Singular extension: at nodes 8 or more plies from the horizon, the table's move is
    /// searched a ply deeper when every other move, searched half as deep, falls short of the
    /// table's score by a margin (two plies deeper, outside the principal variation, when by
    /// half a seed more, at most 3 times on a path); when another move reaches it and the
    /// margin's bound is at least beta, the node fails high (multi-cut).
    pub singular_extension: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            aspiration: false,
            late_move_reductions: true,
            killers_and_history: true,
            reverse_futility: true,
            quiescence: true,
            learned_evaluation: true,
            interval_estimate: false,
            time_by_phase: false,
            internal_reduction: true,
            razoring: false,
            singular_extension: true,
        }
    }
}

impl Features {
    /// Every feature, by name, for command lines: `(name, the defaults with it toggled)`.
    /// (`time-by-phase` changes nothing in a search without a clock.)
    pub fn without_each() -> Vec<(&'static str, Features)> {
        let all = Features::default();
        vec![
            (
                "aspiration",
                Features {
                    aspiration: !all.aspiration,
                    ..all
                },
            ),
            (
                "lmr",
                Features {
                    late_move_reductions: !all.late_move_reductions,
                    ..all
                },
            ),
            (
                "killers-history",
                Features {
                    killers_and_history: !all.killers_and_history,
                    ..all
                },
            ),
            (
                "reverse-futility",
                Features {
                    reverse_futility: !all.reverse_futility,
                    ..all
                },
            ),
            (
                "quiescence",
                Features {
                    quiescence: !all.quiescence,
                    ..all
                },
            ),
            (
                "learned-evaluation",
                Features {
                    learned_evaluation: !all.learned_evaluation,
                    ..all
                },
            ),
            (
                "interval-estimate",
                Features {
                    interval_estimate: !all.interval_estimate,
                    ..all
                },
            ),
            (
                "time-by-phase",
                Features {
                    time_by_phase: !all.time_by_phase,
                    ..all
                },
            ),
            (
                "internal-reduction",
                Features {
                    internal_reduction: !all.internal_reduction,
                    ..all
                },
            ),
            (
                "razoring",
                Features {
                    razoring: !all.razoring,
                    ..all
                },
            ),
            (
                "singular-extension",
                Features {
                    singular_extension: !all.singular_extension,
                    ..all
                },
            ),
        ]
    }
}
