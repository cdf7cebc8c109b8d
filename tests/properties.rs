//! Property tests over random games and random text: invariants of the rules core, and that no
//! input makes the notation panic.

mod common;

use common::simple::{Board, Events, Slam};
use krou::rules::{Game, GrandSlam, Move, Position, TOTAL_SEEDS, parse_moves};
use proptest::prelude::*;

fn any_rule() -> impl Strategy<Value = GrandSlam> {
    prop_oneof![
        Just(GrandSlam::NoCapture),
        Just(GrandSlam::Forbidden),
        Just(GrandSlam::CaptureAll)
    ]
}

/// Plays a game from the start, choosing each move by the next number of `choices`.
fn random_game(choices: &[usize], rule: GrandSlam) -> Game {
    let mut game = Game::new(Position::start(), rule);
    for &choice in choices {
        let moves: Vec<Move> = game.legal_moves().collect();
        if moves.is_empty() {
            break;
        }
        game.play(moves[choice % moves.len()])
            .expect("a legal move plays");
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn seeds_are_conserved(choices in prop::collection::vec(0usize..6, 0..200), rule in any_rule()) {
        let game = random_game(&choices, rule);
        for p in game.positions() {
            let on_board: u32 = p.pits().iter().map(|&s| u32::from(s)).sum();
            let total = on_board + u32::from(p.store(krou::rules::Side::South))
                + u32::from(p.store(krou::rules::Side::North));
            prop_assert_eq!(total, u32::from(TOTAL_SEEDS));
        }
        if let Some(outcome) = game.outcome() {
            prop_assert!(u32::from(outcome.south) + u32::from(outcome.north) <= 48);
        }
    }

    #[test]
    fn incremental_hash_equals_recomputed_hash(choices in prop::collection::vec(0usize..6, 0..200), rule in any_rule()) {
        let game = random_game(&choices, rule);
        for p in game.positions() {
            prop_assert_eq!(p.key(), p.computed_key());
        }
    }

    #[test]
    fn diagrams_round_trip(choices in prop::collection::vec(0usize..6, 0..200), rule in any_rule()) {
        let game = random_game(&choices, rule);
        for p in game.positions() {
            let back: Position = p.to_string().parse().expect("own diagram parses");
            prop_assert_eq!(&back, p);
        }
    }

    #[test]
    fn move_lists_round_trip(choices in prop::collection::vec(0usize..6, 0..100)) {
        let game = random_game(&choices, GrandSlam::NoCapture);
        let text = krou::rules::format_moves(game.moves());
        prop_assert_eq!(parse_moves(&text).expect("own moves parse"), game.moves().to_vec());
    }

    #[test]
    fn legal_moves_agree_with_the_simple_implementation_and_only_they_play(choices in prop::collection::vec(0usize..6, 0..150), rule in any_rule()) {
        let game = random_game(&choices, rule);
        let position = game.position();
        let legal = position.legal_moves(rule);
        let slam = match rule {
            GrandSlam::NoCapture => Slam::NoCapture,
            GrandSlam::Forbidden => Slam::Forbidden,
            GrandSlam::CaptureAll => Slam::CaptureAll,
        };
        let simple: Vec<usize> = Board::parse(&position.to_string())
            .children(slam, &mut Events::default())
            .into_iter()
            .map(|(pit, _)| pit)
            .collect();
        prop_assert_eq!(legal.map(|m| m.pit()).collect::<Vec<_>>(), simple);
        for pit in 0..12 {
            let mv = Move::new(pit).expect("pit");
            prop_assert_eq!(position.try_play(mv, rule).is_ok(), legal.contains(mv));
        }
    }

    #[test]
    fn any_text_parses_to_a_diagram_or_an_error(text in ".{0,60}") {
        let _ = text.parse::<Position>();
        let _ = parse_moves(&text);
        let _ = text.parse::<Move>();
    }

    #[test]
    fn mutated_diagrams_parse_or_give_an_error(fields in prop::collection::vec("[0-9]{0,3}|[A-Za-z+-]{1,2}", 0..18), side in "[SNsnX]?") {
        let text = format!("{}-{}", fields.join("-"), side);
        if let Ok(p) = text.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
        }
    }
}
