//! Replays every `tests/transcripts/*.txt` and every client dialogue `tests/clients/*.txt`
//! against the real `krou` binary (see protocol.md for the transcript format). The transcripts
//! run in parallel; each one is its own engine process.

use krou::regression::replay::replay;
use krou::regression::transcript::{Step, Transcript};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Longest wait for one expected line or the exit; the Aualé GUI itself waits 8 seconds.
const TIMEOUT: Duration = Duration::from_secs(8);

fn transcripts() -> Vec<PathBuf> {
    transcripts_in("tests/transcripts")
}

/// The `.txt` files of a directory of the repository, sorted.
fn transcripts_in(dir: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the transcripts directory is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
}

fn engine() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_krou"));
    command.stderr(Stdio::null()).env_remove("RUST_LOG");
    command
}

/// Replays every file (in parallel) and lists the failures.
fn replay_all(files: Vec<PathBuf>) -> Vec<String> {
    let runs: Vec<_> = files
        .into_iter()
        .map(|path| {
            std::thread::spawn(move || {
                let text = std::fs::read_to_string(&path).expect("a transcript is readable");
                let result = text
                    .parse::<Transcript>()
                    .map_err(|e| e.to_string())
                    .and_then(|t| replay(&t, engine(), TIMEOUT).map_err(|e| e.to_string()));
                (path, result)
            })
        })
        .collect();
    runs.into_iter()
        .map(|run| run.join().expect("a replay thread finishes"))
        .filter_map(|(path, result)| result.err().map(|e| format!("{}: {e}", path.display())))
        .collect()
}

#[test]
fn every_transcript_replays_against_the_binary() {
    let files = transcripts();
    assert!(
        files.len() >= 8,
        "expected the transcripts, found {files:?}"
    );
    let failures = replay_all(files);
    assert!(
        failures.is_empty(),
        "failed transcripts:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_client_dialogue_replays_against_the_binary() {
    let files = transcripts_in("tests/clients");
    let names: Vec<String> = files
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    for client in [
        "tournament-runner-thinking",
        "tournament-runner-pondering",
        "auale-2.2-north",
        "auale-2.2-south",
        "cutechess-clock",
    ] {
        assert!(
            names.iter().any(|n| n == client),
            "no {client} in {names:?}"
        );
    }
    let failures = replay_all(files);
    assert!(
        failures.is_empty(),
        "failed client dialogues:\n{}",
        failures.join("\n")
    );
}

/// The lines a transcript sends, in order.
fn sent_lines(relative: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    let transcript: Transcript = std::fs::read_to_string(path)
        .expect("the transcript is readable")
        .parse()
        .expect("the transcript is well formed");
    transcript
        .steps
        .iter()
        .filter_map(|(_, step)| match step {
            Step::Send(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_tournament_runner_opening_is_sent_verbatim() {
    // The lines the runner sent when Krou hung (issue 12), in its order.
    let verbatim = [
        "uci",
        "debug on",
        "ucinewgame",
        "isready",
        "setoption name EngineTurn value south",
        "position startpos",
        "go movetime 100 depth 127",
    ];
    let sent = sent_lines("tests/clients/tournament-runner-thinking.txt");
    assert_eq!(sent[..verbatim.len()], verbatim);
    let pondering = sent_lines("tests/clients/tournament-runner-pondering.txt");
    for line in ["go ponder", "stop", "go movetime 100 depth 127"] {
        assert!(
            pondering.iter().any(|l| l == line),
            "{line} in {pondering:?}"
        );
    }
    assert!(sent.iter().any(|l| l == "position startpos moves FfCc"));
}

#[test]
fn the_real_auale_session_holds_every_level_and_a_ponder() {
    // Made from the GUI's own log (tests/auale_gui/), so these are the GUI's lines.
    let north = sent_lines("tests/clients/auale-2.2-north.txt");
    for go in [
        "go depth 2 movetime 600",
        "go depth 6 movetime 1200",
        "go depth 16 movetime 2400",
        "go movetime 3600",
        "go ponder",
        "stop",
        "setoption name OwnBook value false",
        "setoption name OwnBook value true",
    ] {
        assert!(north.iter().any(|l| l == go), "{go} in {north:?}");
    }
    assert!(
        !north.iter().any(|l| l == "ponderhit"),
        "the GUI never sends ponderhit"
    );
    let south = sent_lines("tests/clients/auale-2.2-south.txt");
    assert!(
        south
            .iter()
            .all(|l| !l.starts_with("go") || l == "go depth 2 movetime 600")
    );
    assert_eq!(south.last().map(String::as_str), Some("quit"));
}

#[test]
fn the_auale_dialogue_is_sent_verbatim() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts/auale-dialogue.txt");
    let transcript: Transcript = std::fs::read_to_string(path)
        .expect("the Aualé transcript is readable")
        .parse()
        .expect("the Aualé transcript is well formed");
    let sent: Vec<&str> = transcript
        .steps
        .iter()
        .filter_map(|(_, step)| match step {
            Step::Send(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        sent,
        [
            "uci",
            "setoption name OwnBook value true",
            "ucinewgame",
            "isready",
            "position startpos moves FbAf",
            "go depth 16 movetime 2400",
            "position fen 0-6-6-6-0-2-0-2-8-8-7-1-0-2-S moves DcCdBe",
            "go depth 16 movetime 2400",
            "go movetime 3600",
            "go ponder",
            "stop",
            "quit",
        ]
    );
}

#[test]
fn a_wrong_expectation_fails_the_replay() {
    let transcript: Transcript = "> isready\n< readyokay\n".parse().expect("well formed");
    let failure = replay(&transcript, engine(), TIMEOUT).expect_err("readyok is not readyokay");
    assert_eq!(failure.line, 2);
    assert!(failure.message.contains("got 'readyok'"), "{failure}");
}

#[test]
fn unexpected_output_at_the_end_fails_the_replay() {
    let transcript: Transcript = "> isready\n".parse().expect("well formed");
    let failure = replay(&transcript, engine(), TIMEOUT).expect_err("readyok was not expected");
    assert!(failure.message.contains("readyok"), "{failure}");
}
