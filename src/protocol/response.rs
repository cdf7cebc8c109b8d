//! What the engine writes on stdout, one line per [`Response`], and the shared, flushed writer.

use crate::rules::{Move, Outcome, format_moves};
use crate::search::{Info, Score};
use std::fmt;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// One line of output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `id name Krou <version>`.
    IdName,
    /// `id author …`.
    IdAuthor,
    /// `option name …` (the text after `option `).
    Option(String),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info depth … pv …`: a search progress report, its proven scores shown in this form.
    Info(Info, ProvenScore),
    /// `info string game over: <reason> <south>-<north>`.
    GameOver(Outcome),
    /// `info string error: …`: a rejected line.
    Error(String),
    /// `info string warning: …`: what was changed or skipped so that a command could run.
    Warning(String),
    /// `info string debug: …`: a diagnostic while `debug on`.
    Debug(String),
    /// `info string book: …`: the move comes from the opening book, not a search.
    Book(String),
    /// `bestmove <move> [ponder <move>]`, or `bestmove 0000` when there is no move.
    BestMove {
        /// The move to play.
        best: Option<Move>,
        /// The expected reply.
        ponder: Option<Move>,
    },
    /// `response …`: the answer to `query`.
    Answer(&'static str),
    /// A line of free text (`d`, `perft`).
    Text(String),
}

/// The author named by `id author`.
pub const AUTHOR: &str = "the Krou developers";

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName => write!(f, "id name Krou {}", env!("CARGO_PKG_VERSION")),
            Response::IdAuthor => write!(f, "id author {AUTHOR}"),
            Response::Option(text) => write!(f, "option {text}"),
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(info, proven) => write_info(f, info, *proven),
            Response::GameOver(outcome) => write!(f, "info string game over: {outcome}"),
            Response::Error(message) => write!(f, "info string error: {message}"),
            Response::Warning(message) => write!(f, "info string warning: {message}"),
            Response::Debug(message) => write!(f, "info string debug: {message}"),
            Response::Book(message) => write!(f, "info string book: {message}"),
            Response::BestMove { best: None, .. } => f.write_str("bestmove 0000"),
            Response::BestMove {
                best: Some(best),
                ponder,
            } => match ponder {
                Some(ponder) => write!(f, "bestmove {best} ponder {ponder}"),
                None => write!(f, "bestmove {best}"),
            },
            Response::Answer(answer) => write!(f, "response {answer}"),
            Response::Text(text) => f.write_str(text),
        }
    }
}

/// How an `info` line shows a proven result (`score mate n`, the game ends in `n` moves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProvenScore {
    /// `score cp ±(10000 − n) mate ±n`: GUIs that read only `cp` (the Aualé GUI) show a
    /// margin above the 48 seeds a game has, unmistakably a proven win or loss; UCI readers
    /// of `mate` get the number of moves.
    #[default]
    CpAndMate,
    /// `score mate ±n` alone, as UCI writes it.
    Mate,
}

/// The `cp` shown beside `mate n`: beyond every real margin (at most 4800), and the closer the
/// end, the larger.
pub const PROVEN_CP: i32 = 10_000;

impl ProvenScore {
    /// Every form, as the `ProvenScore` option lists them.
    pub const ALL: [ProvenScore; 2] = [ProvenScore::CpAndMate, ProvenScore::Mate];

    /// The score as an `info` line ends it after `score `.
    pub fn show(self, score: Score) -> String {
        match (self, score) {
            (_, Score::Cp(cp)) => format!("cp {cp}"),
            (ProvenScore::Mate, Score::Mate(n)) => format!("mate {n}"),
            (ProvenScore::CpAndMate, Score::Mate(n)) => {
                let cp = if n >= 0 {
                    PROVEN_CP - n
                } else {
                    -PROVEN_CP - n
                };
                format!("cp {cp} mate {n}")
            }
        }
    }
}

impl fmt::Display for ProvenScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProvenScore::CpAndMate => "cp-and-mate",
            ProvenScore::Mate => "mate",
        })
    }
}

impl std::str::FromStr for ProvenScore {
    type Err = ();

    /// `cp-and-mate` or `mate`, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProvenScore::ALL
            .into_iter()
            .find(|p| p.to_string().eq_ignore_ascii_case(s))
            .ok_or(())
    }
}

/// `info depth N seldepth N time N nodes N nps N hashfull N tbhits N score cp N pv CbAaEb`.
fn write_info(f: &mut fmt::Formatter<'_>, info: &Info, proven: ProvenScore) -> fmt::Result {
    let micros = info.time.as_micros().max(1);
    let nps = u128::from(info.nodes) * 1_000_000 / micros;
    write!(
        f,
        "info depth {} seldepth {} time {} nodes {} nps {nps} hashfull {} tbhits {} score {}",
        info.depth,
        info.seldepth,
        info.time.as_millis(),
        info.nodes,
        info.hashfull,
        info.tbhits,
        proven.show(info.score)
    )?;
    if info.multipv > 0 {
        write!(f, " multipv {}", info.multipv)?;
    }
    if !info.pv.is_empty() {
        write!(f, " pv {}", format_moves(&info.pv))?;
    }
    Ok(())
}

/// Where responses go: shared by the session and the search thread, each line written whole and
/// flushed at once.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Output to any writer (tests collect it in memory).
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(writer))),
        }
    }

    /// Writes one line and flushes it. A closed output is logged, not fatal: the end of input
    /// follows and ends the session.
    pub fn send(&self, response: &Response) {
        let line = response.to_string();
        log::debug!("< {line}");
        let mut sink = self
            .sink
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = writeln!(sink, "{line}").and_then(|()| sink.flush()) {
            log::warn!("cannot write to the output: {e}");
        }
    }
}

impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Output")
    }
}
