//! Whatever text a transcript file or a protocol log holds, reading it never panics: it gives
//! steps or events, or an error naming a line of the text.

use krou::regression::dialogue::{Event, Generaliser};
use krou::regression::logs;
use krou::regression::transcript::Transcript;
use proptest::prelude::*;

/// Lines that look like the formats, with noise: most random text would be refused at line 1.
fn line() -> impl Strategy<Value = String> {
    let prefix = prop::sample::select(vec![
        "> ",
        "< ",
        "<? ",
        "= sleep ",
        "= eof",
        "= ",
        "# ",
        "[    0.0012] > ",
        "[    1.5] < ",
        "[x] > ",
        "[ -1] < ",
        "[1e20] > ",
        "[inf] < ",
        "[NaN] > ",
        "DEBUG:uci:<Engine(1, Unknown engine)> > ",
        "DEBUG:uci:<Engine(2, Krou 0.2.0)> < ",
        "DEBUG:uci:<Engine(",
        "DEBUG:uci:<Engine(99999999999, )> ",
        "DEBUG:uci:Engine command: ",
        "DEBUG:game-loop:",
        "(3 more lines, 9 bytes, not kept)",
        "",
        "[",
        "]",
    ]);
    let body = prop::sample::select(vec![
        "uci",
        "go depth 3",
        "bestmove A",
        "info depth 1 score cp 3",
        "stop",
        "99999999999999999999",
        "ponderhit",
        "id name X 1",
        "é… (12 more bytes cut)",
        "\u{0}",
        " ",
        "",
    ]);
    (prefix, body, any::<String>()).prop_map(|(p, b, noise)| {
        if noise.len() % 5 == 0 {
            format!("{p}{noise}")
        } else {
            format!("{p}{b}")
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn transcripts_never_panic(lines in prop::collection::vec(line(), 0..30)) {
        let text = lines.join("\n");
        if let Err(e) = text.parse::<Transcript>() {
            prop_assert!(e.line >= 1 && e.line <= lines.len().max(1), "{e}");
        }
    }

    #[test]
    fn logs_never_panic_and_their_dialogues_generalise(lines in prop::collection::vec(line(), 0..30)) {
        let text = lines.join("\n");
        match logs::read(&text) {
            Ok(dialogues) => {
                for dialogue in &dialogues {
                    let mut generaliser = Generaliser::new(false);
                    for event in &dialogue.events {
                        let out = generaliser.push(event);
                        if let Event::Line { text, .. } = event {
                            prop_assert!(!text.contains('\n'));
                        }
                        for line in out {
                            prop_assert!(line.parse::<Transcript>().is_ok(), "{line}");
                        }
                    }
                }
            }
            Err(e) => prop_assert!(e.line >= 1 && e.line <= lines.len().max(1), "{e}"),
        }
    }
}
