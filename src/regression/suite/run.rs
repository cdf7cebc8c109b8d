//! Running suites through an engine: each position searched with one limit, the move played
//! scored as solved or failed; an engine that dies or hangs fails that position with an error
//! and is started again for the next one.

use super::engine::{Engine, Setup};
use super::entry::Entry;
use super::parse::SuiteFile;
use crate::rules::{Move, Position};
use std::time::{Duration, Instant};

/// The search limit of every position (one or more of them; the first reached ends it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// `go movetime`, in milliseconds.
    pub movetime: Option<u64>,
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
}

impl Limit {
    /// The `go` line.
    pub fn go_line(&self) -> String {
        let mut line = "go".to_string();
        if let Some(depth) = self.depth {
            line += &format!(" depth {depth}");
        }
        if let Some(nodes) = self.nodes {
            line += &format!(" nodes {nodes}");
        }
        if let Some(ms) = self.movetime {
            line += &format!(" movetime {ms}");
        }
        line
    }

    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

/// How a position ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The engine played a `bm` move (and no `am` move).
    Solved,
    /// The engine played another move.
    Failed,
    /// The engine gave no usable answer (it died, hung, or named no legal move).
    Error,
}

impl Verdict {
    /// `solved`, `failed` or `error`, as the result file writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Solved => "solved",
            Verdict::Failed => "failed",
            Verdict::Error => "error",
        }
    }

    /// The verdict a result file names.
    pub fn from_name(name: &str) -> Option<Verdict> {
        match name {
            "solved" => Some(Verdict::Solved),
            "failed" => Some(Verdict::Failed),
            "error" => Some(Verdict::Error),
            _ => None,
        }
    }
}

/// One position's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The suite file.
    pub file: String,
    /// Its line.
    pub line: usize,
    /// The entry's id, or `file:line` when it has none.
    pub id: String,
    /// The entry's category, `-` when it has none.
    pub category: String,
    /// The position.
    pub position: Position,
    /// What the entry expects (`bm A C, am D`).
    pub expected: String,
    /// The move the engine played, when it named one.
    pub played: Option<String>,
    /// Solved, failed or error.
    pub verdict: Verdict,
    /// Why, for an error.
    pub error: Option<String>,
    /// How long the position took.
    pub time: Duration,
}

/// The id of an entry: its `id`, else `file:line`.
pub fn id_of(file: &str, line: usize, entry: &Entry) -> String {
    entry.id.clone().unwrap_or_else(|| format!("{file}:{line}"))
}

/// The first id given to two positions of `files`, as an error naming both places.
pub fn duplicate_id(files: &[SuiteFile]) -> Option<String> {
    let mut seen = std::collections::HashMap::new();
    for file in files {
        for (line, entry) in &file.entries {
            let id = id_of(&file.file, *line, entry);
            if let Some(first) = seen.insert(id.clone(), format!("{}:{line}", file.file)) {
                return Some(format!(
                    "{}:{line}: id \"{id}\" is already used at {first}",
                    file.file
                ));
            }
        }
    }
    None
}

/// Runs every position of `files` through the engine of `setup`, calling `report` after each.
/// `timeout` is the longest wait for one position's `bestmove`.
pub fn run(
    files: &[SuiteFile],
    setup: &Setup,
    limit: &Limit,
    timeout: Duration,
    report: &mut dyn FnMut(&Outcome),
) -> Vec<Outcome> {
    let mut engine: Option<Engine> = None;
    let mut outcomes = Vec::new();
    let go = limit.go_line();
    for file in files {
        for (line, entry) in &file.entries {
            let started = Instant::now();
            let answer = search(&mut engine, setup, &entry.position, &go, timeout);
            if answer.is_err() {
                engine = None;
            }
            let outcome = score(file, *line, entry, answer, started.elapsed());
            report(&outcome);
            outcomes.push(outcome);
        }
    }
    if let Some(engine) = engine {
        engine.quit();
    }
    outcomes
}

/// One search, starting the engine first when it is not running.
fn search(
    engine: &mut Option<Engine>,
    setup: &Setup,
    position: &Position,
    go: &str,
    timeout: Duration,
) -> Result<String, String> {
    if engine.is_none() {
        *engine = Some(Engine::start(setup)?);
    }
    match engine.as_mut() {
        Some(running) => running.search(&position.to_string(), go, timeout),
        None => Err("the engine is not running".to_string()),
    }
}

/// Scores the engine's answer for one entry.
fn score(
    file: &SuiteFile,
    line: usize,
    entry: &Entry,
    answer: Result<String, String>,
    time: Duration,
) -> Outcome {
    let legal = entry.position.legal_moves(super::judge::RULE);
    let (played, verdict, error) = match answer {
        Err(e) => (None, Verdict::Error, Some(e)),
        Ok(word) => {
            let mv = word.parse::<Move>().ok().filter(|m| legal.contains(*m));
            match mv {
                Some(mv) if entry.solved_by(mv) => (Some(word), Verdict::Solved, None),
                Some(_) => (Some(word), Verdict::Failed, None),
                None => {
                    let why = format!("'bestmove {word}' is not a legal move (legal: {legal})");
                    (Some(word), Verdict::Error, Some(why))
                }
            }
        }
    };
    Outcome {
        file: file.file.clone(),
        line,
        id: id_of(&file.file, line, entry),
        category: entry.category.clone().unwrap_or_else(|| "-".to_string()),
        position: entry.position,
        expected: entry.expected(),
        played,
        verdict,
        error,
        time,
    }
}
