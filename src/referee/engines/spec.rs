//! `--engine` values: `[name=<name>] [tc=<tc>] [margin=<ms>] [option.<Name>=<value>]… <command
//! line>`, where the command line is a program and its arguments (quoted with `'` or `"` as in a
//! shell, no other shell syntax), or one of the built-in players `random` and `greedy`. `tc=` and
//! `margin=` take what `--tc` and `--margin` take, for this engine only (time odds).

use crate::referee::play::tc::TimeControl;
use std::fmt;
use std::str::FromStr;

/// What plays: a built-in player or an external program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Plays a random legal move.
    Random,
    /// Plays the move that captures the most seeds now (ties broken at random).
    Greedy,
    /// A program speaking the protocol: program and arguments.
    Command(Vec<String>),
}

/// One player of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in records and summaries.
    pub name: String,
    /// What plays.
    pub kind: Kind,
    /// `setoption` values sent after `uci`, as (name, value).
    pub options: Vec<(String, String)>,
    /// Its own time control (`tc=`), instead of the match's `--tc`.
    pub tc: Option<TimeControl>,
    /// Its own margin in milliseconds (`margin=`), instead of the match's `--margin`.
    pub margin: Option<u64>,
}

/// An `--engine` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadEngine(pub String);

impl fmt::Display for BadEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad engine: {}", self.0)
    }
}

impl std::error::Error for BadEngine {}

/// Splits a command line into words: whitespace separates, `'…'` and `"…"` quote, `\` escapes
/// the next character outside single quotes.
pub fn split_words(text: &str) -> Result<Vec<String>, BadEngine> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.get_or_insert_default().push(c),
            (_, '\\') => match chars.next() {
                Some(next) => word.get_or_insert_default().push(next),
                None => return Err(BadEngine(format!("'{text}' ends with a lone backslash"))),
            },
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    if let Some(q) = quote {
        return Err(BadEngine(format!("'{text}' has an unclosed {q}")));
    }
    words.extend(word);
    Ok(words)
}

impl FromStr for EngineSpec {
    type Err = BadEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = split_words(s)?.into_iter().peekable();
        let mut spec = EngineSpec {
            name: String::new(),
            kind: Kind::Random,
            options: Vec::new(),
            tc: None,
            margin: None,
        };
        let mut name = None;
        while let Some(word) = words.next_if(|w| is_setting(w)) {
            if let Some(value) = word.strip_prefix("name=") {
                name = Some(value.to_string());
            } else if let Some(value) = word.strip_prefix("tc=") {
                let tc = value
                    .parse()
                    .map_err(|e| BadEngine(format!("'{word}': {e}")))?;
                spec.tc = Some(tc);
            } else if let Some(value) = word.strip_prefix("margin=") {
                let margin = value.parse().map_err(|_| {
                    BadEngine(format!(
                        "'{word}': the margin is a whole number of milliseconds"
                    ))
                })?;
                spec.margin = Some(margin);
            } else {
                spec.options.push(option(&word)?);
            }
        }
        let argv: Vec<String> = words.collect();
        let kind = match argv.as_slice() {
            [] => return Err(BadEngine(format!("'{s}' has no command"))),
            [one] if one == "random" => Kind::Random,
            [one] if one == "greedy" => Kind::Greedy,
            _ => Kind::Command(argv),
        };
        spec.name = name.unwrap_or_else(|| default_name(&kind));
        spec.kind = kind;
        if spec.name.is_empty() {
            return Err(BadEngine(format!("'{s}' has an empty name")));
        }
        Ok(spec)
    }
}

/// Whether a word is one of the settings before the command line.
fn is_setting(word: &str) -> bool {
    ["name=", "tc=", "margin=", "option."]
        .iter()
        .any(|prefix| word.starts_with(prefix))
}

/// Reads `option.<Name>=<value>`.
fn option(word: &str) -> Result<(String, String), BadEngine> {
    let Some((option, value)) = word["option.".len()..].split_once('=') else {
        return Err(BadEngine(format!(
            "'{word}' should be option.<Name>=<value>"
        )));
    };
    if option.is_empty() {
        return Err(BadEngine(format!("'{word}' has no option name")));
    }
    if option.trim().eq_ignore_ascii_case("GrandSlam") {
        return Err(BadEngine(format!(
            "'{word}': the grand-slam rule is the match's, set it with --grand-slam"
        )));
    }
    Ok((option.to_string(), value.to_string()))
}

fn default_name(kind: &Kind) -> String {
    match kind {
        Kind::Random => "random".into(),
        Kind::Greedy => "greedy".into(),
        Kind::Command(argv) => argv
            .first()
            .and_then(|p| std::path::Path::new(p).file_name())
            .map_or_else(|| "engine".into(), |n| n.to_string_lossy().into_owned()),
    }
}

/// Makes names unique by appending `-2`, `-3`, … to repeats.
pub fn unique_names(specs: &mut [EngineSpec]) {
    let mut seen: Vec<String> = Vec::new();
    for spec in specs.iter_mut() {
        let base = spec.name.clone();
        let mut n = 1;
        while seen.contains(&spec.name) {
            n += 1;
            spec.name = format!("{base}-{n}");
        }
        seen.push(spec.name.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_values_give_name_options_and_command() {
        let spec: EngineSpec =
            "name=new option.Hash=64 option.Threads=2 ./target/release/krou --x 'a b'"
                .parse()
                .expect("valid");
        assert_eq!(spec.name, "new");
        assert_eq!(
            spec.options,
            [("Hash".into(), "64".into()), ("Threads".into(), "2".into())]
        );
        assert_eq!(
            spec.kind,
            Kind::Command(vec![
                "./target/release/krou".into(),
                "--x".into(),
                "a b".into()
            ])
        );
        let spec: EngineSpec = "/usr/bin/krou".parse().expect("valid");
        assert_eq!(spec.name, "krou");
        assert_eq!(
            "greedy".parse::<EngineSpec>().map(|s| s.kind),
            Ok(Kind::Greedy)
        );
    }

    #[test]
    fn bad_engine_values_are_rejected_with_a_reason() {
        for text in [
            "",
            "name=x",
            "./e 'open",
            "option.=3 ./e",
            "option.Hash ./e",
            "name= ./e",
        ] {
            assert!(text.parse::<EngineSpec>().is_err(), "{text}");
        }
    }

    #[test]
    fn a_grand_slam_option_is_refused_in_favour_of_the_match_rule() {
        for text in [
            "option.GrandSlam=forbidden ./e",
            "option.grandslam=capture-all ./e",
            "name=x option.GRANDSLAM=no-capture ./e",
        ] {
            let error = text.parse::<EngineSpec>().expect_err(text).to_string();
            assert!(error.contains("--grand-slam"), "{text}: {error}");
        }
    }

    #[test]
    fn an_engine_can_have_its_own_time_control_and_margin() {
        let spec: EngineSpec = "name=base tc=40/60+0.5 margin=200 option.Hash=8 ./krou --fast"
            .parse()
            .expect("valid");
        assert_eq!(spec.tc, "40/60+0.5".parse().ok());
        assert_eq!(spec.margin, Some(200));
        assert_eq!(spec.options, [("Hash".into(), "8".into())]);
        assert_eq!(
            spec.kind,
            Kind::Command(vec!["./krou".into(), "--fast".into()])
        );
        let plain: EngineSpec = "greedy".parse().expect("valid");
        assert_eq!((plain.tc, plain.margin), (None, None));
        for (text, says) in [
            ("tc=st=0 ./e", "bad time control 'st=0'"),
            ("tc= ./e", "bad time control"),
            ("margin=-5 ./e", "'margin=-5'"),
            ("margin=1.5 ./e", "whole number of milliseconds"),
            ("tc=depth=3", "has no command"),
        ] {
            let error = text.parse::<EngineSpec>().expect_err(text).to_string();
            assert!(error.contains(says), "{text}: {error}");
        }
    }

    #[test]
    fn repeated_names_become_unique() {
        let mut specs: Vec<EngineSpec> = ["random", "random", "greedy"]
            .iter()
            .map(|s| s.parse().expect("valid"))
            .collect();
        unique_names(&mut specs);
        let names: Vec<_> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["random", "random-2", "greedy"]);
    }
}
