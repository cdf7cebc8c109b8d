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
        warnings: Vec::new(),
        warnings_left_out: 0,
        skipped: false,
        clock_columns: [Some(38), Some(50)],
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
        ("debug", Command::Debug(true)),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
        ("register later", Command::Register),
        ("register name Krou code 1234", Command::Register),
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
            "debug verbose",
            7,
            "expected 'on' or 'off' after 'debug', found 'verbose'",
        ),
        ("debug on off", 10, "unexpected 'off' after 'debug on'"),
        ("position startpos moves FbAx", 28, "'x' is not a move"),
        ("position fen 4-4", 14, "bad diagram"),
        ("isready now", 9, "unexpected 'now' after 'isready'"),
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
    let Ok(Command::Go(go)) = parse_command("go movetime 99999999999999999999999") else {
        panic!("a go: an overlong time is clamped, not refused");
    };
    assert_eq!(go.movetime, Some(1_000_000_000));
    assert_eq!(go.warnings.len(), 1);
}

/// The parsed `go` of a line, and its warnings as `info string warning:` would print them.
fn go_of(line: &str) -> (Go, Vec<String>) {
    let Ok(Command::Go(go)) = parse_command(line) else {
        panic!("{line:?} is a go");
    };
    let warnings = go
        .warnings
        .iter()
        .map(|w| format!("{} (column {})", w.value, w.column))
        .collect();
    (go, warnings)
}

#[test]
fn go_clamps_numbers_out_of_range_with_a_warning_each() {
    let (go, warnings) = go_of("go movetime 100 depth 127");
    assert_eq!((go.movetime, go.depth), (Some(100), Some(100)));
    assert_eq!(
        warnings,
        ["'depth' 127 is above the maximum 100: using 100 (column 23)"]
    );
    let (go, warnings) = go_of("go depth 0 nodes -5 movestogo 0 movetime 1000000001");
    assert_eq!(go.depth, Some(1));
    assert_eq!(go.nodes, Some(1));
    assert_eq!(go.moves_to_go, Some(1));
    assert_eq!(go.movetime, Some(1_000_000_000));
    assert_eq!(
        warnings,
        [
            "'depth' 0 is below the minimum 1: using 1 (column 10)",
            "'nodes' -5 is below the minimum 1: using 1 (column 18)",
            "'movestogo' 0 is below the minimum 1: using 1 (column 31)",
            "'movetime' 1000000001 is above the maximum 1000000000 ms: using 1000000000 (column 42)",
        ]
    );
}

#[test]
fn go_times_below_zero_mean_no_time_left_without_a_warning() {
    let (go, warnings) = go_of("go wtime -50 btime -99999999999999999999999999999999999999999");
    assert_eq!(go.south_time, Some(-50));
    assert!(go.north_time.is_some_and(|t| t < 0));
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn go_skips_unknown_words_with_their_numbers() {
    let (go, warnings) = go_of("go mate 5 depth 3 perft ponderx");
    assert_eq!(go.depth, Some(3));
    assert!(!go.ponder);
    assert_eq!(warnings.len(), 3);
    assert!(
        warnings[0].starts_with("skipped 'mate 5': unknown go parameter (expected depth, ")
            && warnings[0].ends_with("(column 4)"),
        "{warnings:?}"
    );
    assert!(warnings[1].starts_with("skipped 'perft': "), "{warnings:?}");
    assert!(
        warnings[2].starts_with("skipped 'ponderx': "),
        "{warnings:?}"
    );
    assert!(warnings[2].ends_with("(column 25)"), "{warnings:?}");
}

#[test]
fn go_skips_a_parameter_without_its_number() {
    let (go, warnings) = go_of("go depth movetime 50 wtime 12x nodes");
    assert_eq!((go.depth, go.movetime), (None, Some(50)));
    assert_eq!((go.south_time, go.nodes), (None, None));
    assert_eq!(
        warnings,
        [
            "skipped 'depth': expected a number after 'depth', found 'movetime' (column 4)",
            "skipped 'wtime 12x': expected a number after 'wtime', found '12x' (column 22)",
            "skipped 'nodes': expected a number after it (column 32)",
        ]
    );
}

#[test]
fn a_huge_go_line_keeps_twenty_warnings_and_counts_the_rest() {
    // Columns cost a walk of the line each: only the kept warnings get one, so a line of
    // 200,000 junk words parses in linear time.
    let line = format!("go{} depth 3", " junk".repeat(200_000));
    let (go, warnings) = go_of(&line);
    assert_eq!(go.depth, Some(3));
    assert!(go.skipped);
    assert_eq!(warnings.len(), 20);
    assert!(
        warnings[19].ends_with(&format!("(column {})", 4 + 5 * 19)),
        "{}",
        warnings[19]
    );
    assert_eq!(go.warnings_left_out, 200_000 - 20);
}

#[test]
fn go_keeps_the_later_of_a_repeated_parameter() {
    let (go, warnings) = go_of("go depth 5 depth 7 searchmoves A searchmoves Bc");
    assert_eq!(go.depth, Some(7));
    let moves: Vec<char> = go.searchmoves.iter().map(|m| m.value.letter()).collect();
    assert_eq!(moves, ['B', 'c']);
    assert_eq!(
        warnings,
        [
            "'depth' is given twice: the later one is used (column 12)",
            "'searchmoves' is given twice: the later one is used (column 34)",
        ]
    );
    let (go, warnings) = go_of("go searchmoves depth 4");
    assert!(go.searchmoves.is_empty());
    assert_eq!(go.depth, Some(4));
    assert_eq!(
        warnings,
        ["skipped 'searchmoves': expected moves after it (column 4)"]
    );
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
            Event::NotText(0, "\u{fffd}go".to_string()),
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
