//! The protocol parser on chosen lines: what each command reads into, and where errors point.

use krou::protocol::command::{At, Command, Go, PositionCommand, Query, SetOption, Start};
use krou::protocol::parse_command;
use krou::rules::{Move, Position};

fn mv(letter: char) -> Move {
    Move::from_letter(letter).expect("a move letter")
}

fn moves_of(line: &str) -> Vec<char> {
    match parse_command(line) {
        Ok(Command::Position(PositionCommand { moves, .. })) => {
            moves.iter().map(|m| m.value.letter()).collect()
        }
        other => panic!("{line:?} is not a position: {other:?}"),
    }
}

#[test]
fn a_number_at_the_end_of_the_line_is_read_whole() {
    // nom's streaming parsers would ask for more input after the last digit.
    let Ok(Command::Go(go)) = parse_command("go depth 12") else {
        panic!("go depth 12 is a go");
    };
    assert_eq!(go.depth, Some(12));
}

#[test]
fn concatenated_and_spaced_moves_read_the_same() {
    assert_eq!(
        moves_of("position startpos moves FbAf"),
        ['F', 'b', 'A', 'f']
    );
    assert_eq!(
        moves_of("position startpos moves F b A f"),
        ['F', 'b', 'A', 'f']
    );
    assert_eq!(
        moves_of("position startpos moves Fb  Af"),
        ['F', 'b', 'A', 'f']
    );
    assert_eq!(moves_of("position startpos moves"), Vec::<char>::new());
    assert_eq!(moves_of("position startpos"), Vec::<char>::new());
}

#[test]
fn moves_keep_their_columns() {
    let Ok(Command::Position(position)) = parse_command("position startpos moves F b") else {
        panic!("a position");
    };
    assert_eq!(
        position.moves,
        [
            At {
                value: mv('F'),
                column: 25
            },
            At {
                value: mv('b'),
                column: 27
            }
        ]
    );
}

#[test]
fn a_diagram_is_read_as_the_start() {
    let line = "position fen 0-6-6-6-0-2-0-2-8-8-7-1-0-2-S moves DcCdBe";
    let Ok(Command::Position(position)) = parse_command(line) else {
        panic!("a position");
    };
    let expected: Position = "0-6-6-6-0-2-0-2-8-8-7-1-0-2-S".parse().expect("a diagram");
    assert_eq!(position.start, Start::Diagram(expected));
    assert_eq!(position.moves.len(), 6);
}

#[test]
fn go_reads_every_parameter_and_the_aliases() {
    let line = "go depth 16 nodes 5000 movetime 2400 wtime 60000 btime -5 winc 100 binc 0 movestogo 30 infinite ponder searchmoves A Cf";
    let expected = Go {
        depth: Some(16),
        nodes: Some(5000),
        movetime: Some(2400),
        south_time: Some(60000),
        north_time: Some(-5),
        south_increment: Some(100),
        north_increment: Some(0),
        moves_to_go: Some(30),
        infinite: true,
        ponder: true,
        searchmoves: vec![
            At {
                value: mv('A'),
                column: 116,
            },
            At {
                value: mv('C'),
                column: 118,
            },
            At {
                value: mv('f'),
                column: 119,
            },
        ],
    };
    assert_eq!(parse_command(line), Ok(Command::Go(expected)));
    let Ok(Command::Go(aliases)) = parse_command("go p1time 1 p2time 2 p1inc 3 p2inc 4") else {
        panic!("a go");
    };
    assert_eq!(
        (
            aliases.south_time,
            aliases.north_time,
            aliases.south_increment,
            aliases.north_increment
        ),
        (Some(1), Some(2), Some(3), Some(4))
    );
    assert_eq!(parse_command("go"), Ok(Command::Go(Go::default())));
}

#[test]
fn setoption_names_may_hold_spaces_and_values_run_to_the_end() {
    let expected = SetOption {
        name: At {
            value: "Some Name".to_string(),
            column: 16,
        },
        value: Some(At {
            value: "a b".to_string(),
            column: 32,
        }),
    };
    assert_eq!(
        parse_command("setoption name Some Name value a b"),
        Ok(Command::SetOption(expected))
    );
    let Ok(Command::SetOption(bare)) = parse_command("setoption name Ponder") else {
        panic!("a setoption");
    };
    assert_eq!(bare.value, None);
}

#[test]
fn commands_without_arguments_and_the_extensions() {
    let cases = [
        ("uci", Command::Uci),
        ("  isready\t", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("d", Command::Display),
        ("perft 5", Command::Perft(5)),
        ("query gameover", Command::Query(Query::GameOver)),
        ("query p1turn", Command::Query(Query::P1Turn)),
        ("query result", Command::Query(Query::Result)),
    ];
    for (line, expected) in cases {
        assert_eq!(parse_command(line), Ok(expected), "{line:?}");
    }
}

#[test]
fn errors_say_what_and_at_which_column() {
    let cases = [
        ("hello", 1, "unknown command 'hello'"),
        (
            "go depth 12x",
            10,
            "expected a number after 'depth', found '12x'",
        ),
        ("go depth", 9, "expected a number after 'depth'"),
        ("position startpos moves FbAx", 28, "'x' is not a move"),
        ("position fen 4-4", 14, "bad diagram"),
        ("isready now", 9, "unexpected 'now' after 'isready'"),
        ("go éé", 4, "unknown go parameter 'éé'"),
        ("é go", 1, "unknown command 'é'"),
    ];
    for (line, column, start) in cases {
        let error = parse_command(line).expect_err(line);
        assert_eq!(error.column, column, "{line:?}: {error}");
        assert!(error.message.starts_with(start), "{line:?}: {error}");
    }
}

#[test]
fn huge_and_negative_times_are_bounded() {
    let Ok(Command::Go(go)) = parse_command("go wtime -99999999999999999999999 movetime 0") else {
        panic!("a go");
    };
    assert!(go.south_time.is_some_and(|t| t < 0));
    assert_eq!(go.movetime, Some(0));
    assert!(parse_command("go movetime 99999999999999999999999").is_err());
}

#[test]
fn input_lines_lose_their_line_ends_and_bad_text_is_reported() {
    use krou::protocol::{Event, read_lines};
    let input: &[u8] = b"uci\r\nisready\n\xffgo\nd";
    let (events, inbox) = std::sync::mpsc::channel();
    read_lines(input, &events);
    let received: Vec<Event> = inbox.try_iter().collect();
    assert_eq!(
        received,
        [
            Event::Line("uci".to_string()),
            Event::Line("isready".to_string()),
            Event::NotText(0),
            Event::Line("d".to_string()),
            Event::End,
        ]
    );
}

#[test]
fn a_megabyte_of_moves_parses_with_every_column_right() {
    // Columns are counted as the parser walks; a quadratic count took half a minute here.
    let line = format!("position startpos moves {}", "A ".repeat(500_000));
    let Ok(Command::Position(PositionCommand { moves, .. })) = parse_command(&line) else {
        panic!("a long move list parses");
    };
    assert_eq!(moves.len(), 500_000);
    assert_eq!(moves[0].column, 25);
    assert_eq!(moves[499_999].column, 25 + 2 * 499_999);
    let searchmoves = format!("go searchmoves {}", "AB ".repeat(200_000));
    let Ok(Command::Go(go)) = parse_command(&searchmoves) else {
        panic!("a long searchmoves list parses");
    };
    assert_eq!(go.searchmoves.len(), 400_000);
    assert_eq!(go.searchmoves[399_999].column, 16 + 3 * 199_999 + 1);
}
