//! The schedule: which engines meet, with which opening, in which colours.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// 1-based game number.
    pub round: usize,
    /// Index of the pairing (see [`pairings`]).
    pub pairing: usize,
    /// Index of the opening pair within the pairing; also the index of its opening.
    pub pair: usize,
    /// 0-based index of the game pair (both colours of one opening in one pairing) in the whole
    /// schedule: the unit that shards split (see [`super::shard`]).
    pub game_pair: usize,
    /// Engine indices of South and North.
    pub engines: [usize; 2],
}

/// The pairings: with `gauntlet`, the first engine against each other one; otherwise every
/// engine against every other (round robin). Each is (first, second) as counted in statistics.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()
    }
}

/// `games` games per pairing: opening pair by opening pair, each pairing in turn, the first
/// engine South in the first game of a pair and North in the second.
pub fn schedule(pairings: &[(usize, usize)], games: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    for pair in 0..games.div_ceil(2) {
        for (index, &(a, b)) in pairings.iter().enumerate() {
            for (k, engines) in [[a, b], [b, a]].into_iter().enumerate() {
                if pair * 2 + k < games {
                    jobs.push(Job {
                        round: jobs.len() + 1,
                        pairing: index,
                        pair,
                        game_pair: pair * pairings.len() + index,
                        engines,
                    });
                }
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_opening_is_played_twice_with_colours_swapped() {
        let jobs = schedule(&pairings(2, false), 5);
        let colours: Vec<_> = jobs.iter().map(|j| (j.pair, j.engines)).collect();
        assert_eq!(
            colours,
            [
                (0, [0, 1]),
                (0, [1, 0]),
                (1, [0, 1]),
                (1, [1, 0]),
                (2, [0, 1])
            ]
        );
        assert_eq!(jobs.last().map(|j| j.round), Some(5));
    }

    #[test]
    fn gauntlet_and_round_robin_pair_the_right_engines() {
        assert_eq!(pairings(4, true), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(3, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(schedule(&pairings(3, true), 2).len(), 4);
    }

    #[test]
    fn game_pairs_are_numbered_in_schedule_order_and_hold_both_colours() {
        let jobs = schedule(&pairings(3, false), 4);
        let game_pairs: Vec<usize> = jobs.iter().map(|j| j.game_pair).collect();
        assert_eq!(game_pairs, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        for two in jobs.chunks(2) {
            assert_eq!((two[0].pairing, two[0].pair), (two[1].pairing, two[1].pair));
            assert_eq!(two[0].engines, [two[1].engines[1], two[1].engines[0]]);
        }
    }
}
