//! perft: the fast move generator against RULES.md's table and against the independent simple
//! implementation, on the start position and on positions chosen to exercise every rule.

mod common;

use common::Rng;
use common::simple::{Board, Events, Slam};
use krou::rules::{GrandSlam, Position, perft, perft_divide};

fn slam(rule: GrandSlam) -> Slam {
    match rule {
        GrandSlam::NoCapture => Slam::NoCapture,
        GrandSlam::Forbidden => Slam::Forbidden,
        GrandSlam::CaptureAll => Slam::CaptureAll,
    }
}

fn simple_perft(diagram: &str, depth: u32, rule: GrandSlam) -> (u64, Events) {
    let mut events = Events::default();
    let nodes = Board::parse(diagram).perft(depth, slam(rule), &mut events);
    (nodes, events)
}

fn fast_perft(diagram: &str, depth: u32, rule: GrandSlam) -> u64 {
    let position: Position = diagram.parse().expect("test diagram");
    perft(&position, depth, rule)
}

#[test]
fn perft_matches_the_recorded_counts() {
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let rule: GrandSlam = fields[1].parse().expect("rule");
        let depth: u32 = fields[2].parse().expect("depth");
        let expected: u64 = fields[3].parse().expect("count");
        assert_eq!(fast_perft(fields[0], depth, rule), expected, "{line}");
        checked += 1;
    }
    assert!(checked >= 8);
}

#[test]
fn perft_from_the_start_agrees_with_the_simple_implementation_to_depth_9() {
    let start = Position::start().to_string();
    for depth in 1..=9 {
        let (simple, _) = simple_perft(&start, depth, GrandSlam::NoCapture);
        assert_eq!(
            fast_perft(&start, depth, GrandSlam::NoCapture),
            simple,
            "depth {depth}"
        );
    }
}

#[test]
fn perft_divide_sums_to_perft() {
    let position = Position::start();
    let divided = perft_divide(&position, 6, GrandSlam::NoCapture);
    assert_eq!(divided.len(), 6);
    let total: u64 = divided.iter().map(|(_, n)| n).sum();
    assert_eq!(total, perft(&position, 6, GrandSlam::NoCapture));
}

/// Hand-made positions: grand slams, feeding, laps of 12+ seeds, and games about to end.
const CRAFTED: &[&str] = &[
    // Grand slams threatened: North's side holds only 1s and 2s behind South's reach.
    "0-0-0-1-0-2-1-1-0-0-0-0-22-21-S",
    "0-0-0-0-2-3-1-1-0-0-0-0-20-21-S",
    "0-0-0-1-1-2-2-1-0-0-0-0-20-21-S",
    "1-2-1-1-0-0-0-0-0-1-2-3-19-18-N",
    "0-0-0-0-0-4-1-2-1-0-0-0-19-21-S",
    "2-1-0-0-0-0-0-0-0-0-3-2-20-20-N",
    // Feeding: the opponent is empty.
    "0-0-0-1-3-5-0-0-0-0-0-0-20-19-S",
    "1-0-0-0-0-3-0-0-0-0-0-0-22-22-N",
    "6-0-0-0-0-0-0-0-0-0-0-0-21-21-N",
    "0-0-5-0-0-0-0-0-0-0-0-0-21-22-N",
    "0-0-0-0-0-0-3-3-3-3-3-3-15-15-S",
    "5-4-3-2-1-0-0-0-0-0-0-0-15-18-S",
    // Feeding moves that lap and leave 2s behind: grand slams while feeding.
    "22-0-0-0-0-0-0-0-0-0-0-0-13-13-S",
    "5-0-0-0-0-17-0-0-0-0-0-0-13-13-S",
    "0-0-0-0-0-0-0-0-19-0-0-1-14-14-N",
    // Laps: pits of 12 or more seeds.
    "12-0-0-0-0-1-1-1-1-1-1-2-14-14-S",
    "0-16-1-5-3-3-3-3-3-2-4-0-5-0-S",
    "0-0-0-0-0-20-2-2-2-2-2-2-8-8-S",
    "1-1-1-1-1-1-23-1-1-1-1-1-8-6-N",
    "11-1-0-2-0-0-0-1-2-1-0-1-15-14-S",
    "2-2-2-2-2-2-2-2-2-2-2-25-1-0-N",
    // Games about to end: stores near 24, 24-24, few seeds.
    "0-0-0-0-1-1-1-1-0-0-0-0-23-21-S",
    "0-0-0-0-0-1-0-0-0-0-0-0-23-24-S",
    "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S",
    "1-0-0-0-0-0-0-0-0-0-0-1-25-21-S",
    "0-1-0-0-0-1-0-0-0-0-0-0-23-23-S",
    "1-0-0-0-0-1-1-0-0-0-0-0-23-22-S",
    "2-2-1-0-0-0-0-0-0-1-2-2-18-20-S",
];

/// Positions from random games, so ordinary middlegames and endgames are covered too.
fn from_random_games(count: usize) -> Vec<String> {
    let mut rng = Rng::new(0x5eed_0a5e);
    let mut out = Vec::new();
    while out.len() < count {
        let mut position = Position::start();
        let plies = 10 + rng.below(60);
        for _ in 0..plies {
            let moves: Vec<_> = position.legal_moves(GrandSlam::NoCapture).collect();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            position = position.play_unchecked(mv, GrandSlam::NoCapture).position;
        }
        out.push(position.to_string());
    }
    out
}

#[test]
fn perft_agrees_with_the_simple_implementation_on_crafted_and_random_positions() {
    let mut positions: Vec<String> = CRAFTED.iter().map(|s| s.to_string()).collect();
    positions.extend(from_random_games(16));
    assert!(positions.len() >= 40);
    let mut events = Events::default();
    for rule in GrandSlam::ALL {
        for diagram in &positions {
            for depth in 1..=6 {
                let (simple, seen) = simple_perft(diagram, depth, rule);
                assert_eq!(
                    fast_perft(diagram, depth, rule),
                    simple,
                    "{diagram} {rule} d{depth}"
                );
                events.grand_slams += seen.grand_slams;
                events.feeding_positions += seen.feeding_positions;
                events.laps += seen.laps;
                events.game_ends += seen.game_ends;
                events.captures += seen.captures;
            }
        }
    }
    // The positions really exercise the rules they are meant to.
    assert!(events.grand_slams > 100, "{events:?}");
    assert!(events.feeding_positions > 100, "{events:?}");
    assert!(events.laps > 1000, "{events:?}");
    assert!(events.game_ends > 1000, "{events:?}");
    assert!(events.captures > 1000, "{events:?}");
}

#[test]
fn each_crafted_group_exercises_its_rule_under_every_grand_slam_rule() {
    for rule in GrandSlam::ALL {
        let (_, slams) = simple_perft("0-0-0-1-0-2-1-1-0-0-0-0-22-21-S", 3, rule);
        assert!(slams.grand_slams > 0, "{rule}");
        let (_, feeding) = simple_perft("0-0-0-1-3-5-0-0-0-0-0-0-20-19-S", 3, rule);
        assert!(feeding.feeding_positions > 0, "{rule}");
        let (_, laps) = simple_perft("12-0-0-0-0-1-1-1-1-1-1-2-14-14-S", 3, rule);
        assert!(laps.laps > 0, "{rule}");
    }
}

#[test]
fn grand_slam_rules_change_the_counts() {
    let diagram = CRAFTED[0];
    let counts: Vec<u64> = GrandSlam::ALL
        .iter()
        .map(|&r| fast_perft(diagram, 5, r))
        .collect();
    assert_ne!(counts[0], counts[1]);
    assert_ne!(counts[0], counts[2]);
}
