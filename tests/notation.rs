//! Diagrams and moves: printing, parsing, and a clear error for every kind of bad input.

use krou::rules::{DiagramError, Move, MoveSyntaxError, Position, format_moves, parse_moves};

#[test]
fn a_diagram_round_trips() {
    let text = "0-6-6-6-0-2-0-2-8-8-7-1-0-2-S";
    let position: Position = text.parse().expect("valid");
    assert_eq!(position.to_string(), text);
}

#[test]
fn surrounding_whitespace_is_ignored() {
    let position: Position = "  4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n".parse().expect("valid");
    assert_eq!(position, Position::start());
}

#[test]
fn too_few_numbers_are_counted_in_the_error() {
    let err = "4-4-4-4-4-4-4-4-4-4-4-0-0-S"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(err, DiagramError::FieldCount { found: 14 });
    assert!(err.to_string().contains("found 14"));
}

#[test]
fn seeds_adding_up_to_47_are_refused_with_the_total() {
    let err = "4-4-4-4-4-4-4-4-4-4-4-3-0-0-S"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(err, DiagramError::SeedTotal { found: 47 });
    assert!(err.to_string().contains("47"));
    assert!(err.to_string().contains("48"));
}

#[test]
fn an_unknown_side_letter_is_named() {
    let err = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-X"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(err, DiagramError::UnknownSide { text: "X".into() });
    assert!(err.to_string().contains("'X'"));
}

#[test]
fn a_bad_count_names_its_field_and_pit() {
    let err = "4-4-x-4-4-4-4-4-4-4-4-4-0-0-S"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(
        err,
        DiagramError::NotACount {
            field: 3,
            text: "x".into()
        }
    );
    assert!(err.to_string().contains("pit C"));
    let err = "4-4-4-4-4-4-4-4-4-4-4-4-0-300-S"
        .parse::<Position>()
        .unwrap_err();
    assert!(err.to_string().contains("North's store"), "{err}");
    let err = "4-4-4-4-4-4-4-4-4-4-4-4--0-S"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(
        err,
        DiagramError::NotACount {
            field: 13,
            text: String::new()
        }
    );
    let err = "4-4-4-4-4-4-4-4-4-4-4-+4-0-0-S"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(
        err,
        DiagramError::NotACount {
            field: 12,
            text: "+4".into()
        }
    );
}

#[test]
fn an_empty_diagram_is_refused() {
    assert_eq!(
        "".parse::<Position>(),
        Err(DiagramError::FieldCount { found: 1 })
    );
}

#[test]
fn move_letters_round_trip() {
    for pit in 0..12 {
        let mv = Move::new(pit).expect("pit");
        assert_eq!(mv.letter().to_string().parse::<Move>(), Ok(mv));
    }
    assert_eq!(Move::from_letter('A').map(|m| m.pit()), Some(0));
    assert_eq!(Move::from_letter('f').map(|m| m.pit()), Some(11));
}

#[test]
fn a_bad_move_letter_is_refused_with_its_place() {
    assert_eq!(
        "G".parse::<Move>(),
        Err(MoveSyntaxError {
            offset: 0,
            found: 'G'
        })
    );
    assert_eq!(
        parse_moves("FbXf"),
        Err(MoveSyntaxError {
            offset: 2,
            found: 'X'
        })
    );
    let err = parse_moves("F b 1").unwrap_err();
    assert!(err.to_string().contains("character 5"), "{err}");
}

#[test]
fn move_lists_may_be_concatenated_or_spaced() {
    let joined = parse_moves("FbAf").expect("valid");
    let spaced = parse_moves("F b A f").expect("valid");
    assert_eq!(joined, spaced);
    assert_eq!(format_moves(&joined), "FbAf");
}

#[test]
fn control_characters_in_errors_are_escaped() {
    // A raw carriage return in an error line could forge a protocol line for a reader.
    let err = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\rbestmove F"
        .parse::<Position>()
        .unwrap_err();
    assert!(!err.to_string().contains('\r'), "{err}");
    assert!(err.to_string().contains("\\r"), "{err}");
    let err = "x\rbestmove F"
        .parse::<krou::rules::GrandSlam>()
        .unwrap_err();
    assert!(!err.to_string().contains('\r'), "{err}");
}
