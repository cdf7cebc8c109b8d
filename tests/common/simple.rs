//! An independent, deliberately simple implementation of the rules, used only to check the fast
//! one. It shares no code with `krou::rules`: the board is a plain vector, seeds are sown one at a
//! time, and every rule is checked the obvious way, by trying the move and looking at the result.

/// A board: pits 0–5 are South's (A–F), 6–11 North's (a–f); sowing goes up, wrapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub pits: Vec<i32>,
    pub stores: [i32; 2],
    /// 0 = South, 1 = North.
    pub mover: usize,
}

/// The grand-slam rule, by its command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slam {
    NoCapture,
    Forbidden,
    CaptureAll,
}

/// Counts of rule events met while walking a tree, to show a test position exercises them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    pub grand_slams: u64,
    pub feeding_positions: u64,
    pub laps: u64,
    pub captures: u64,
    pub game_ends: u64,
}

impl Board {
    /// Reads a diagram `p1-…-p12-s1-s2-S|N` (test inputs only, so panics on bad text).
    pub fn parse(diagram: &str) -> Board {
        let fields: Vec<&str> = diagram.split('-').collect();
        assert_eq!(fields.len(), 15, "test diagram {diagram}");
        let numbers: Vec<i32> = fields[..14]
            .iter()
            .map(|f| f.parse().expect("test diagram number"))
            .collect();
        Board {
            pits: numbers[..12].to_vec(),
            stores: [numbers[12], numbers[13]],
            mover: if fields[14] == "S" { 0 } else { 1 },
        }
    }

    fn owner(pit: usize) -> usize {
        if pit < 6 { 0 } else { 1 }
    }

    fn side_total(&self, side: usize) -> i32 {
        (0..12)
            .filter(|&p| Board::owner(p) == side)
            .map(|p| self.pits[p])
            .sum()
    }

    /// Sows pit `start` seed by seed and applies captures; `None` when the result is illegal.
    fn apply(&self, start: usize, slam: Slam, events: &mut Events) -> Option<Board> {
        let mut b = self.clone();
        let opponent = 1 - self.mover;
        let opponent_was_empty = self.side_total(opponent) == 0;
        let mut hand = b.pits[start];
        if hand >= 12 {
            events.laps += 1;
        }
        b.pits[start] = 0;
        let mut pit = start;
        while hand > 0 {
            pit = (pit + 1) % 12;
            if pit == start {
                continue;
            }
            b.pits[pit] += 1;
            hand -= 1;
        }
        // Feeding: when the opponent had nothing, the move must give them something.
        if opponent_was_empty && b.side_total(opponent) == 0 {
            return None;
        }
        let mut taken = Vec::new();
        let mut p = pit;
        while Board::owner(p) == opponent && (b.pits[p] == 2 || b.pits[p] == 3) {
            taken.push(p);
            if p % 6 == 0 {
                break;
            }
            p -= 1;
        }
        let captured: i32 = taken.iter().map(|&p| b.pits[p]).sum();
        let whole_side = captured > 0 && captured == b.side_total(opponent);
        if whole_side {
            events.grand_slams += 1;
        }
        let capture = match (whole_side, slam) {
            (true, Slam::Forbidden) => return None,
            (true, Slam::NoCapture) => false,
            _ => true,
        };
        if capture && captured > 0 {
            events.captures += 1;
            for p in taken {
                b.pits[p] = 0;
            }
            b.stores[self.mover] += captured;
        }
        b.mover = opponent;
        Some(b)
    }

    /// Every legal move (pit index) with the board after it. Empty when the game is over.
    pub fn children(&self, slam: Slam, events: &mut Events) -> Vec<(usize, Board)> {
        if self.stores[0] > 24 || self.stores[1] > 24 || (self.stores == [24, 24]) {
            events.game_ends += 1;
            return Vec::new();
        }
        if self.side_total(1 - self.mover) == 0 {
            events.feeding_positions += 1;
        }
        let children: Vec<(usize, Board)> = (0..12)
            .filter(|&p| Board::owner(p) == self.mover && self.pits[p] > 0)
            .filter_map(|p| self.apply(p, slam, events).map(|b| (p, b)))
            .collect();
        if children.is_empty() {
            events.game_ends += 1;
        }
        children
    }

    /// The leaf count at `depth`, without bulk counting.
    pub fn perft(&self, depth: u32, slam: Slam, events: &mut Events) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children(slam, events)
            .iter()
            .map(|(_, b)| b.perft(depth - 1, slam, events))
            .sum()
    }
}
