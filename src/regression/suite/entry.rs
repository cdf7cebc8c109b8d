//! One position of a suite and its operations, and how it is written as a line.

use crate::rules::{Move, Position};
use std::fmt;

/// Where a suite's answers come from (the `src` operation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Proven by the game's result from the endgame tables (`src "proven"`).
    Proven,
    /// Found by a long search, not proven (`src "search"`).
    Search,
}

impl Source {
    /// The operand of the `src` operation.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Proven => "proven",
            Source::Search => "search",
        }
    }

    /// The source named by a `src` operand.
    pub fn from_name(name: &str) -> Option<Source> {
        match name {
            "proven" => Some(Source::Proven),
            "search" => Some(Source::Search),
            _ => None,
        }
    }
}

/// One position and what an engine should (`bm`) and should not (`am`) play there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position; the game starts here (no earlier positions for the repetition rule).
    pub position: Position,
    /// `bm`: the best moves; the position is solved when the engine plays one of them.
    pub best: Vec<Move>,
    /// `am`: the moves to avoid; playing one of them fails the position.
    pub avoid: Vec<Move>,
    /// `id`: the position's name, unique in a run.
    pub id: Option<String>,
    /// `cat`: the category the run's table counts it under.
    pub category: Option<String>,
    /// `src`: where the answers come from.
    pub source: Option<Source>,
    /// `c0` … `c9`: comments, by number.
    pub comments: Vec<(u8, String)>,
}

impl Entry {
    /// An entry with a position and nothing else.
    pub fn new(position: Position) -> Entry {
        Entry {
            position,
            best: Vec::new(),
            avoid: Vec::new(),
            id: None,
            category: None,
            source: None,
            comments: Vec::new(),
        }
    }

    /// Whether playing `mv` solves the position: one of `bm` (when there is a `bm`) and none
    /// of `am`.
    pub fn solved_by(&self, mv: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }

    /// What the entry expects, in words: `bm A C`, `am D`, or both.
    pub fn expected(&self) -> String {
        let mut parts = Vec::new();
        if !self.best.is_empty() {
            parts.push(format!("bm {}", letters(&self.best)));
        }
        if !self.avoid.is_empty() {
            parts.push(format!("am {}", letters(&self.avoid)));
        }
        parts.join(", ")
    }
}

/// Move letters separated by spaces.
pub fn letters(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.letter().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A string operand: quoted, with `"` and `\` escaped by a backslash.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

impl fmt::Display for Entry {
    /// The entry as a suite line: the diagram, then `bm`, `am`, `id`, `cat`, `src` and the
    /// comments, each ended by `;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.position)?;
        if !self.best.is_empty() {
            write!(f, " bm {};", letters(&self.best))?;
        }
        if !self.avoid.is_empty() {
            write!(f, " am {};", letters(&self.avoid))?;
        }
        if let Some(id) = &self.id {
            write!(f, " id {};", quoted(id))?;
        }
        if let Some(category) = &self.category {
            write!(f, " cat {};", quoted(category))?;
        }
        if let Some(source) = self.source {
            write!(f, " src \"{}\";", source.name())?;
        }
        for (n, text) in &self.comments {
            write!(f, " c{n} {};", quoted(text))?;
        }
        Ok(())
    }
}
