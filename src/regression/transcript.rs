//! Transcripts: a session written down as lines sent and lines expected, to replay against an
//! engine (see [`super::replay`]).
//!
//! ```text
//! # a comment; blank lines are ignored
//! > isready          a line sent to the engine ("> " then the text)
//! < readyok          the next line the engine must print (a pattern)
//! <? info **         lines the engine may print before the next expected line (a pattern)
//! = sleep 50         wait 50 ms before going on
//! = eof              close the engine's input (the end of the transcript closes it too)
//! ```
//! A pattern without wildcards must equal the line exactly. A pattern with the words `*` (any
//! one word) or `**` (any number of words, none included) is compared word by word.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A line pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern(String);

impl Pattern {
    /// A pattern from its text.
    pub fn new(text: &str) -> Pattern {
        Pattern(text.to_string())
    }

    /// Whether `line` matches.
    pub fn matches(&self, line: &str) -> bool {
        let words: Vec<&str> = self.0.split_whitespace().collect();
        if !words.iter().any(|w| *w == "*" || *w == "**") {
            return self.0 == line;
        }
        let found: Vec<&str> = line.split_whitespace().collect();
        match_words(&words, &found)
    }
}

fn match_words(pattern: &[&str], words: &[&str]) -> bool {
    match pattern.split_first() {
        None => words.is_empty(),
        Some((&"**", rest)) => (0..=words.len()).any(|skip| match_words(rest, &words[skip..])),
        Some((&first, rest)) => match words.split_first() {
            Some((&word, others)) => (first == "*" || first == word) && match_words(rest, others),
            None => false,
        },
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One step of a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Send this line.
    Send(String),
    /// The next line printed must match.
    Expect(Pattern),
    /// Lines matching may appear before the next expected line.
    Allow(Pattern),
    /// Wait before the next step.
    Sleep(Duration),
    /// Close the engine's input.
    CloseInput,
}

/// A transcript: its steps, each with its line number (1-based) in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// The steps in order.
    pub steps: Vec<(usize, Step)>,
}

/// A transcript line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptError {
    /// Its line number (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TranscriptError {}

impl FromStr for Transcript {
    type Err = TranscriptError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut steps = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if let Some(step) = read_step(line).map_err(|message| TranscriptError {
                line: line_no,
                message,
            })? {
                steps.push((line_no, step));
            }
        }
        Ok(Transcript { steps })
    }
}

fn read_step(line: &str) -> Result<Option<Step>, String> {
    let after = |prefix: &str| {
        line.strip_prefix(prefix)
            .map(|t| t.strip_prefix(' ').unwrap_or(t))
    };
    if line.trim().is_empty() || line.starts_with('#') {
        Ok(None)
    } else if let Some(text) = after(">") {
        Ok(Some(Step::Send(text.to_string())))
    } else if let Some(text) = after("<?") {
        Ok(Some(Step::Allow(Pattern::new(text))))
    } else if let Some(text) = after("<") {
        Ok(Some(Step::Expect(Pattern::new(text))))
    } else if let Some(text) = after("=") {
        directive(text.trim()).map(Some)
    } else {
        Err(format!(
            "'{}' is not a step (lines start with '> ', '< ', '<? ', '= ' or '#')",
            line.escape_debug()
        ))
    }
}

fn directive(text: &str) -> Result<Step, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["eof"] => Ok(Step::CloseInput),
        ["sleep", ms] => ms
            .parse::<u64>()
            .map(|ms| Step::Sleep(Duration::from_millis(ms)))
            .map_err(|_| format!("'= sleep' needs milliseconds, not '{ms}'")),
        _ => Err(format!(
            "unknown directive '= {text}' (expected '= eof' or '= sleep <ms>')"
        )),
    }
}
