//! Playing at a chosen strength (`UCI_LimitStrength` and `UCI_Elo`): a weaker level searches
//! fewer plies and sometimes prefers a worse move, the more rarely the more seeds the move gives
//! away, so that its mistakes are a weaker player's (a capture missed, a short plan), not a
//! random move in a won position.
//!
//! A level is a strength, not a clock: it is set by depth and by how readily it errs, never by
//! time, so that `go movetime 3600` and `go movetime 50` play alike (unless the time is too short
//! for the level's depth). The levels' names are ratings on Krou's scale, where the built-in
//! `greedy` player is 1000 (docs/strength-levels.md has the measurements).
//!
//! Every choice is a pure function of the seed, the position and the ply number, so a game or a
//! suite replays move for move with the same seed.

use crate::rules::Position;

/// One measured point of the scale: its rating, depth and temperature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Point {
    /// The rating this point plays at on the scale (`greedy` = 1000).
    elo: u32,
    /// The depth of its search in plies.
    depth: i32,
    /// How readily it errs: a move `loss` hundredths of a seed worse than the best is played
    /// `exp(-loss / temperature)` times as often as the best (0: always the best).
    temperature: u32,
}

/// The points of the scale, lowest first, each named by its rating as measured (see
/// docs/strength-levels.md). A level between two points plays each move at one of them, the
/// upper one with a probability growing linearly from 0 to 1 across the interval.
const POINTS: [Point; 18] = [
    point(545, 1, 30_000),
    point(765, 1, 3000),
    point(890, 1, 1500),
    point(1055, 1, 800),
    point(1310, 1, 400),
    point(1715, 1, 200),
    point(1935, 1, 100),
    point(2135, 1, 0),
    point(2215, 2, 0),
    point(2405, 3, 10),
    point(2550, 4, 10),
    point(2680, 5, 10),
    point(2800, 6, 0),
    point(2925, 8, 0),
    point(3080, 10, 0),
    point(3135, 12, 0),
    point(3255, 14, 0),
    point(3310, 16, 0),
];

const fn point(elo: u32, depth: i32, temperature: u32) -> Point {
    Point {
        elo,
        depth,
        temperature,
    }
}

/// Values beyond this many hundredths of a seed count as this (a proven result included): a
/// game is won or lost by at most 48 seeds, so no loss is worth more.
const LOSS_CAP: i32 = 5000;

/// A limited level: its rating and the seed of its choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The rating (`UCI_Elo`), clamped to [`Strength::MIN_ELO`]..=[`Strength::MAX_ELO`].
    pub elo: u32,
    /// Seeds the choices (with the position and the ply).
    pub seed: u64,
}

/// What a limited level does in one position: how deep it searches, how readily it errs, and
/// the random number that picks its move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Plies to search.
    pub depth: i32,
    /// See [`Point::temperature`].
    pub temperature: u32,
    /// A number in [0, 1) that picks the move.
    draw: f64,
}

impl Strength {
    /// The lowest rating a level has.
    pub const MIN_ELO: u32 = POINTS[0].elo;
    /// The highest rating a level has.
    pub const MAX_ELO: u32 = POINTS[POINTS.len() - 1].elo;
    /// The largest endgame table a level probes: the ones an install has within seconds of its
    /// first start (0–12 seeds). With 0–20 (the default set) `UCI_Elo` 1000 scored 60.5%
    /// against `greedy` instead of the 53.5% it was named by, so a level would depend on what
    /// an install happens to hold; capped, it plays the same moves with any tables.
    pub const TABLE_SEEDS: u8 = 12;

    /// The level's play in `position` at ply `ply` of the game.
    pub fn level(self, position: &Position, ply: usize) -> Level {
        let mut random = SplitMix(self.seed ^ position.key() ^ (ply as u64).rotate_left(32));
        let elo = self.elo.clamp(Self::MIN_ELO, Self::MAX_ELO);
        let upper = POINTS.iter().position(|p| p.elo >= elo).unwrap_or(0);
        let high = POINTS[upper];
        let chosen = match upper.checked_sub(1).map(|i| POINTS[i]) {
            Some(low) => {
                let share = f64::from(elo - low.elo) / f64::from(high.elo - low.elo);
                if random.unit() < share { high } else { low }
            }
            None => high,
        };
        Level {
            depth: chosen.depth,
            temperature: chosen.temperature,
            draw: random.unit(),
        }
    }
}

impl Level {
    /// Which of `values` (the root moves' scores for the side to move, best first, as the
    /// search's lines give them) to play: the best, or a worse one with the chance
    /// `exp(-loss / temperature)` relative to the best.
    pub fn choose(&self, values: &[i32]) -> usize {
        let Some(&best) = values.first() else {
            return 0;
        };
        if self.temperature == 0 {
            return 0;
        }
        let capped = |v: i32| v.clamp(-LOSS_CAP, LOSS_CAP);
        let weights: Vec<f64> = values
            .iter()
            .map(|&v| {
                let loss = f64::from((capped(best) - capped(v)).max(0));
                (-loss / f64::from(self.temperature)).exp()
            })
            .collect();
        let mut left = self.draw * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if left < *w {
                return i;
            }
            left -= w;
        }
        0
    }
}

/// SplitMix64: a small, fast, well-mixed generator for the choices.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(temperature: u32, draw: f64) -> Level {
        Level {
            depth: 1,
            temperature,
            draw,
        }
    }

    #[test]
    fn the_points_rise_in_rating_and_depth_and_err_less_at_one_depth() {
        for pair in POINTS.windows(2) {
            assert!(pair[0].elo < pair[1].elo);
            assert!(pair[0].depth <= pair[1].depth);
            if pair[0].depth == pair[1].depth {
                assert!(pair[0].temperature > pair[1].temperature);
            }
        }
    }

    #[test]
    fn a_level_at_a_point_plays_that_point() {
        let strength = Strength {
            elo: POINTS[4].elo,
            seed: 7,
        };
        for ply in 0..50 {
            let level = strength.level(&Position::start(), ply);
            assert_eq!(level.depth, POINTS[4].depth);
            assert_eq!(level.temperature, POINTS[4].temperature);
        }
    }

    #[test]
    fn a_level_between_points_mixes_them_in_proportion() {
        let (low, high) = (POINTS[5], POINTS[6]);
        let strength = Strength {
            elo: low.elo + (high.elo - low.elo) / 4,
            seed: 11,
        };
        let deep = (0..4000)
            .map(|ply| strength.level(&Position::start(), ply))
            .filter(|l| (l.depth, l.temperature) == (high.depth, high.temperature))
            .count();
        assert!(
            (800..1200).contains(&deep),
            "{deep} of 4000 at the upper point"
        );
    }

    #[test]
    fn the_same_seed_position_and_ply_give_the_same_level() {
        let strength = Strength { elo: 1333, seed: 5 };
        let a = strength.level(&Position::start(), 3);
        assert_eq!(a, strength.level(&Position::start(), 3));
        let other = Strength {
            seed: 6,
            ..strength
        };
        let differs = (0..20).any(|ply| {
            strength.level(&Position::start(), ply) != other.level(&Position::start(), ply)
        });
        assert!(differs, "another seed gives other choices");
    }

    #[test]
    fn zero_temperature_always_plays_the_best() {
        for draw in [0.0, 0.5, 0.999] {
            assert_eq!(level(0, draw).choose(&[300, 299, -100]), 0);
        }
    }

    #[test]
    fn worse_moves_are_chosen_more_rarely_the_more_they_lose() {
        // Losses of 0, 1 and 4 seeds at a temperature of one seed: weights 1, e^-1, e^-4.
        let values = [200, 100, -200];
        let mut counts = [0usize; 3];
        let mut random = SplitMix(3);
        for _ in 0..20_000 {
            counts[level(100, random.unit()).choose(&values)] += 1;
        }
        let total: f64 = 1.0 + (-1.0f64).exp() + (-4.0f64).exp();
        let expected = [
            1.0 / total,
            (-1.0f64).exp() / total,
            (-4.0f64).exp() / total,
        ];
        for (count, share) in counts.iter().zip(expected) {
            let measured = *count as f64 / 20_000.0;
            assert!(
                (measured - share).abs() < 0.015,
                "{counts:?} against {expected:?}"
            );
        }
    }

    #[test]
    fn a_won_game_is_not_thrown_away() {
        // A proven win against a move that keeps only an even game: 50 seeds of loss at a
        // temperature of 8 seeds (a level about 1100) is chosen about once in 500.
        let win = super::super::value::WIN - 5;
        let mut random = SplitMix(9);
        let thrown = (0..10_000)
            .filter(|_| level(800, random.unit()).choose(&[win, 0]) == 1)
            .count();
        assert!(thrown < 40, "{thrown} of 10000");
    }
}
