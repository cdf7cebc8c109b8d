//! One named test per rule of RULES.md and per worked example of the rules texts.

use krou::rules::{
    EndReason, Game, GrandSlam, IllegalMove, Move, Outcome, Position, Side, notation,
};

fn pos(diagram: &str) -> Position {
    diagram.parse().expect("test diagram")
}

fn mv(letter: char) -> Move {
    Move::from_letter(letter).expect("test move")
}

fn play(diagram: &str, letter: char, rule: GrandSlam) -> (Position, u8) {
    let played = pos(diagram)
        .try_play(mv(letter), rule)
        .expect("legal test move");
    (played.position, played.captured)
}

#[test]
fn start_position_has_four_seeds_in_every_pit_and_south_to_move() {
    let start = Position::start();
    assert_eq!(start.pits(), [4; 12]);
    assert_eq!(start.store(Side::South), 0);
    assert_eq!(start.store(Side::North), 0);
    assert_eq!(start.side_to_move(), Side::South);
    assert_eq!(start.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
}

/// regles-de-l-auale.txt, first sowing example, with the corrected board (see RULES.md).
#[test]
fn sowing_example_from_the_auale_rules_with_the_corrected_board() {
    // North's row (0)(5)(4)(4)(3)(6) is f..a; South's (6)(2)(7)(3)(2)(6) is A..F.
    let (after, captured) = play("6-2-7-3-2-6-6-3-4-4-5-0-0-0-S", 'C', GrandSlam::NoCapture);
    // North's row becomes (0)(5)(5)(5)(4)(7), South's (6)(2)(0)(4)(3)(7): 48 seeds.
    assert_eq!(after, pos("6-2-0-4-3-7-7-4-5-5-5-0-0-0-N"));
    assert_eq!(captured, 0);
}

/// regles-de-l-auale.txt, second example: 16 seeds make a lap that skips the starting pit.
#[test]
fn sowing_twelve_or_more_seeds_skips_the_starting_pit() {
    let (after, captured) = play("5-16-1-5-3-3-3-3-3-2-4-0-0-0-S", 'B', GrandSlam::NoCapture);
    // North (1)(5)(3)(4)(4)(5) f..a; South (6)(0)(3)(7)(5)(5).
    assert_eq!(after, pos("6-0-3-7-5-5-5-4-4-3-5-1-0-0-N"));
    assert_eq!(captured, 0);
}

#[test]
fn sowing_eleven_seeds_fills_every_other_pit_once() {
    // The last seed lands in f; every North pit then holds 2, a grand slam that captures nothing.
    let (after, captured) = play(
        "11-1-1-1-1-1-1-1-1-1-1-1-13-13-S",
        'A',
        GrandSlam::NoCapture,
    );
    assert_eq!(after.seeds(0), 0);
    assert!((1..12).all(|p| after.seeds(p) == 2));
    assert_eq!(captured, 0);
}

#[test]
fn sowing_exactly_twelve_seeds_puts_the_last_one_after_the_starting_pit() {
    let (after, _) = play(
        "12-0-0-0-0-0-0-0-0-0-0-1-18-17-S",
        'A',
        GrandSlam::NoCapture,
    );
    assert_eq!(after.seeds(0), 0);
    assert_eq!(after.seeds(1), 2);
    assert!((2..11).all(|p| after.seeds(p) == 1));
    assert_eq!(after.seeds(11), 2);
}

/// regles-de-l-auale.txt, capture example: North sows 5 seeds and takes South's last two pits.
#[test]
fn capture_example_from_the_auale_rules() {
    // North (2)(6)(4)(5)(2)(2) f..a, stores North 3 (left) and South 8 (right);
    // South (2)(1)(4)(3)(0)(6). North plays the pit with five seeds, c.
    let (after, captured) = play("2-1-4-3-0-6-2-2-5-4-6-2-8-3-N", 'c', GrandSlam::NoCapture);
    assert_eq!(captured, 5);
    assert_eq!(after, pos("0-0-4-3-0-6-2-2-0-5-7-3-8-8-S"));
}

#[test]
fn capture_takes_two_or_three_and_continues_backwards() {
    // F sows a, b, c; a and b end with 2, c with 3: all three are captured.
    let (after, captured) = play("0-0-0-0-0-3-1-1-2-5-0-0-18-18-S", 'F', GrandSlam::NoCapture);
    assert_eq!(captured, 7);
    assert_eq!(after.store(Side::South), 25);
}

#[test]
fn capture_stops_at_the_first_pit_without_two_or_three() {
    // F sows a, b, c: c ends with 2, b with 4 (stops), a's 2 is not taken.
    let (after, captured) = play("0-0-0-0-0-3-1-3-1-5-0-0-18-17-S", 'F', GrandSlam::NoCapture);
    assert_eq!(captured, 2);
    assert_eq!(after.seeds(6), 2);
    assert_eq!(after.seeds(7), 4);
}

#[test]
fn capture_never_crosses_into_the_movers_own_pits() {
    // F with 1 seed lands in a (2 seeds); the run stops at a, not at South's F.
    let (after, captured) = play("0-0-0-0-2-1-1-4-0-0-0-0-20-20-S", 'F', GrandSlam::NoCapture);
    assert_eq!(captured, 2);
    assert_eq!(after.seeds(5), 0);
    assert_eq!(after.seeds(4), 2);
}

#[test]
fn a_last_seed_on_the_movers_own_side_captures_nothing() {
    let (after, captured) = play("1-1-0-0-0-0-4-4-4-4-4-4-11-11-S", 'A', GrandSlam::NoCapture);
    assert_eq!(captured, 0);
    assert_eq!(after.seeds(1), 2);
}

#[test]
fn a_last_seed_making_one_or_four_captures_nothing() {
    let (_, captured) = play("0-0-0-0-0-1-3-4-4-4-4-4-12-12-S", 'F', GrandSlam::NoCapture);
    assert_eq!(captured, 0);
}

const GRAND_SLAM: &str = "0-0-0-1-0-2-1-1-0-0-0-0-22-21-S";

#[test]
fn grand_slam_captures_nothing_by_default() {
    let (after, captured) = play(GRAND_SLAM, 'F', GrandSlam::NoCapture);
    assert_eq!(captured, 0);
    assert_eq!(after.seeds(6), 2);
    assert_eq!(after.seeds(7), 2);
    assert_eq!(after.store(Side::South), 22);
}

#[test]
fn grand_slam_is_illegal_when_forbidden() {
    let position = pos(GRAND_SLAM);
    assert!(!position.legal_moves(GrandSlam::Forbidden).contains(mv('F')));
    assert_eq!(
        position.try_play(mv('F'), GrandSlam::Forbidden),
        Err(IllegalMove::ForbiddenGrandSlam(mv('F')))
    );
    assert!(position.legal_moves(GrandSlam::Forbidden).contains(mv('D')));
}

#[test]
fn grand_slam_takes_every_seed_under_capture_all() {
    let (after, captured) = play(GRAND_SLAM, 'F', GrandSlam::CaptureAll);
    assert_eq!(captured, 4);
    assert_eq!(after.seeds_on_side(Side::North), 0);
    assert_eq!(after.store(Side::South), 26);
}

#[test]
fn forbidden_grand_slams_as_the_only_moves_leave_no_legal_move() {
    let position = pos("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S");
    assert!(position.legal_moves(GrandSlam::Forbidden).is_empty());
    let outcome = position.outcome(GrandSlam::Forbidden).expect("game over");
    assert_eq!(outcome.reason, EndReason::NoLegalMove);
    assert_eq!((outcome.south, outcome.north), (24, 24));
    assert!(position.outcome(GrandSlam::NoCapture).is_none());
}

#[test]
fn after_capture_all_the_emptied_player_has_no_move_and_the_capturer_takes_the_rest() {
    let (after, _) = play(GRAND_SLAM, 'F', GrandSlam::CaptureAll);
    let outcome = after.outcome(GrandSlam::CaptureAll).expect("game over");
    assert_eq!(
        outcome,
        Outcome {
            reason: EndReason::StoreAbove24,
            south: 26,
            north: 21
        }
    );
}

#[test]
fn a_feeding_move_that_is_a_grand_slam_is_illegal_when_forbidden() {
    // 17 seeds from F lap the board and leave 2 in every North pit: a grand slam while feeding.
    let position = pos("5-0-0-0-0-17-0-0-0-0-0-0-13-13-S");
    assert!(position.is_grand_slam(mv('F')));
    assert!(position.legal_moves(GrandSlam::NoCapture).contains(mv('F')));
    assert!(position.legal_moves(GrandSlam::Forbidden).is_empty());
    assert_eq!(
        position
            .outcome(GrandSlam::Forbidden)
            .map(|o| (o.reason, o.south, o.north)),
        Some((EndReason::NoLegalMove, 35, 13))
    );
    let mut forbidden = Game::new(
        pos("5-0-0-0-0-17-0-2-0-0-0-0-13-11-S"),
        GrandSlam::Forbidden,
    );
    assert!(
        forbidden.play(mv('F')).is_ok(),
        "with 4 seeds in b after the lap, F captures c to f only"
    );
}

#[test]
fn feeding_is_compulsory_when_the_opponent_has_no_seeds() {
    // North is empty: D (1 seed) cannot reach North, E and F can.
    let position = pos("0-0-0-1-3-5-0-0-0-0-0-0-20-19-S");
    let legal: String = position
        .legal_moves(GrandSlam::NoCapture)
        .map(|m| m.letter())
        .collect();
    assert_eq!(legal, "EF");
    assert_eq!(
        position.try_play(mv('D'), GrandSlam::NoCapture),
        Err(IllegalMove::DoesNotFeed(mv('D')))
    );
}

#[test]
fn the_game_ends_when_no_move_can_feed_and_each_side_takes_its_own_seeds() {
    let position = pos("1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
    let outcome = position.outcome(GrandSlam::NoCapture).expect("game over");
    assert_eq!(
        outcome,
        Outcome {
            reason: EndReason::NoLegalMove,
            south: 25,
            north: 23
        }
    );
    assert_eq!(outcome.winner(), Some(Side::South));
}

#[test]
fn a_store_above_24_wins_and_the_seeds_left_count_for_nobody() {
    let position = pos("1-0-0-0-0-1-0-0-0-0-3-0-25-18-S");
    let outcome = position.outcome(GrandSlam::NoCapture).expect("game over");
    assert_eq!(
        outcome,
        Outcome {
            reason: EndReason::StoreAbove24,
            south: 25,
            north: 18
        }
    );
    assert!(position.legal_moves(GrandSlam::NoCapture).is_empty());
}

#[test]
fn both_stores_at_24_is_a_draw() {
    let position = pos("0-0-0-0-0-0-0-0-0-0-0-0-24-24-N");
    let outcome = position.outcome(GrandSlam::NoCapture).expect("game over");
    assert_eq!(outcome.reason, EndReason::Draw24);
    assert_eq!(outcome.winner(), None);
}

#[test]
fn the_first_repetition_ends_the_game_and_each_side_takes_its_own_seeds() {
    // From the endgame note: South must feed with F; the two seeds then chase each other and the
    // first position to recur is the one just after the feed.
    let mut game = Game::new(pos("0-1-0-0-0-1-0-0-0-0-0-0-23-23-S"), GrandSlam::NoCapture);
    let mut plies = 0;
    while game.outcome().is_none() {
        let only = game
            .legal_moves()
            .next()
            .expect("a move while the game goes on");
        assert_eq!(game.legal_moves().len(), 1, "every move here is forced");
        game.play(only).expect("legal");
        plies += 1;
        assert!(plies < 100, "a repetition must end the game");
    }
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.reason, EndReason::Repetition);
    assert_eq!((outcome.south, outcome.north), (24, 24));
    assert_eq!(game.moves()[0], mv('F'));
    let after_feed = game.positions()[1];
    assert_eq!(game.position(), &after_feed);
}

#[test]
fn no_move_is_accepted_once_the_game_is_over() {
    let mut game = Game::new(pos("1-0-0-0-0-1-0-0-0-0-3-0-25-18-S"), GrandSlam::NoCapture);
    assert_eq!(game.play(mv('A')), Err(IllegalMove::GameOver));
    assert_eq!(game.moves().len(), 0);
}

#[test]
fn a_move_of_the_wrong_side_or_from_an_empty_pit_is_refused() {
    let start = Position::start();
    assert_eq!(
        start.try_play(mv('a'), GrandSlam::NoCapture),
        Err(IllegalMove::WrongSide {
            mv: mv('a'),
            to_move: Side::South
        })
    );
    let position = pos("0-4-4-4-4-4-4-4-4-4-4-4-4-0-S");
    assert_eq!(
        position.try_play(mv('A'), GrandSlam::NoCapture),
        Err(IllegalMove::EmptyPit(mv('A')))
    );
}

#[test]
fn the_side_to_move_alternates() {
    let (after, _) = play("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 'A', GrandSlam::NoCapture);
    assert_eq!(after.side_to_move(), Side::North);
    assert_eq!(
        after
            .try_play(mv('a'), GrandSlam::NoCapture)
            .map(|p| p.position.side_to_move()),
        Ok(Side::South)
    );
}

#[test]
fn a_game_keeps_its_moves_positions_and_captures() {
    let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
    for letter in ['F', 'b', 'A', 'f'] {
        game.play(mv(letter)).expect("legal");
    }
    assert_eq!(notation::format_moves(game.moves()), "FbAf");
    assert_eq!(game.positions().len(), 5);
    assert_eq!(game.captures(), &[0, 0, 0, 0]);
    assert!(game.outcome().is_none());
}

#[test]
fn the_board_is_drawn_as_in_the_rules_texts() {
    let drawing = notation::board(&pos("2-1-4-3-0-6-2-2-5-4-6-2-8-3-N"));
    let lines: Vec<&str> = drawing.lines().collect();
    assert_eq!(lines[1].trim(), "( 2)( 6)( 4)( 5)( 2)( 2)");
    assert_eq!(lines[3].trim(), "( 2)( 1)( 4)( 3)( 0)( 6)");
    assert!(lines[2].starts_with("( 3)") && lines[2].ends_with("( 8)"));
}
