//! OGN game records, the format of the Aualé GUI: PGN-like tags (`Variant "Oware Abapa"`,
//! `Event`, `Site`, `Date`, `Round`, `South`, `North`, `Result`, `FEN` when not from the start,
//! `GrandSlam` when not the default, the time control, `Termination`) and moves as `1. F b 2. A f 3. E a+2` (`+k`: seeds captured), with `{score depth time}`
//! comments. [`write_game`] writes one game; [`read_games`](super::ogn_read::read_games) reads
//! them back.

use super::record::GameRecord;
use crate::referee::play::tc::TimeControl;
use crate::rules::{GrandSlam, Move, Position, Side};

/// The value of the `Variant` tag.
pub const VARIANT: &str = "Oware Abapa";

/// One move of a record: the move, the seeds it captured and an optional comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OgnMove {
    /// The move.
    pub mv: Move,
    /// Seeds captured (written `+k` when not zero).
    pub captured: u8,
    /// The comment after the move, without braces.
    pub comment: Option<String>,
}

/// A game record: tags in order, moves, and the result token that ends the move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OgnGame {
    /// Tags as (name, value), in the order written.
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub moves: Vec<OgnMove>,
    /// `25-19` style, or `*`.
    pub result: String,
}

impl OgnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What the match adds to each record: event, site, date, names, rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `Event` tag.
    pub event: String,
    /// `Site` tag.
    pub site: String,
    /// `Date` tag, `YYYY.MM.DD`.
    pub date: String,
    /// The grand-slam rule (a `GrandSlam` tag is written when it is not the default).
    pub rule: GrandSlam,
}

/// The record of a finished (or unfinished) game, with the engines' names.
pub fn from_record(record: &GameRecord, names: &[String], header: &Header) -> OgnGame {
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| "?".into());
    let mut tags = vec![
        ("Variant".to_string(), VARIANT.to_string()),
        ("Event".into(), header.event.clone()),
        ("Site".into(), header.site.clone()),
        ("Date".into(), header.date.clone()),
        ("Round".into(), record.round.to_string()),
        ("South".into(), name(record.south)),
        ("North".into(), name(record.north)),
        ("Result".into(), record.result_text()),
    ];
    if record.opening.start != Position::start() {
        tags.push(("FEN".into(), record.opening.start.to_string()));
    }
    if header.rule != GrandSlam::default() {
        tags.push(("GrandSlam".into(), header.rule.to_string()));
    }
    tags.extend(time_control_tags(record.tc));
    tags.push(("Termination".into(), record.reason.to_string()));
    let moves = record
        .moves
        .iter()
        .map(|m| OgnMove {
            mv: m.mv,
            captured: m.captured,
            comment: (!m.thinking.is_empty()).then(|| m.thinking.to_string()),
        })
        .collect();
    OgnGame {
        tags,
        moves,
        result: record.result_text(),
    }
}

/// The time control tags, in `--tc` notation: `TimeControl` when both sides play under the same
/// one, otherwise `SouthTimeControl` and `NorthTimeControl` (time odds).
pub fn time_control_tags(tc: [TimeControl; 2]) -> Vec<(String, String)> {
    let [south, north] = tc;
    if south == north {
        vec![("TimeControl".into(), south.to_string())]
    } else {
        vec![
            ("SouthTimeControl".into(), south.to_string()),
            ("NorthTimeControl".into(), north.to_string()),
        ]
    }
}

/// The name of a game's own record file in `--ogn-dir`: `round-0007.ogn` for round 7.
pub fn record_file_name(round: usize) -> String {
    format!("round-{round:04}.ogn")
}

/// Writes a record: tags, a blank line, the move text wrapped at 80 columns, a blank line.
pub fn write_game(game: &OgnGame) -> String {
    let mut text = String::new();
    for (name, value) in &game.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        text.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    text.push('\n');
    let mut tokens = Vec::new();
    let mut number = 1;
    for (i, m) in game.moves.iter().enumerate() {
        let south = m.mv.side() == Side::South;
        let prefix = if south {
            format!("{number}. ")
        } else if i == 0 || game.moves[i - 1].comment.is_some() {
            format!("{number}... ")
        } else {
            String::new()
        };
        if !south {
            number += 1;
        }
        let capture = if m.captured > 0 {
            format!("+{}", m.captured)
        } else {
            String::new()
        };
        tokens.push(format!("{prefix}{}{capture}", m.mv.letter()));
        if let Some(comment) = &m.comment {
            tokens.push(format!("{{{}}}", comment.replace('}', ")")));
        }
    }
    tokens.push(game.result.clone());
    text.push_str(&wrap(&tokens, 80));
    text.push_str("\n\n");
    text
}

fn wrap(tokens: &[String], width: usize) -> String {
    let mut text = String::new();
    let mut column = 0;
    for token in tokens {
        if column > 0 && column + 1 + token.len() > width {
            text.push('\n');
            column = 0;
        } else if column > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(token);
        column += token.len();
    }
    text
}

/// Today's date (UTC) as `YYYY.MM.DD`.
pub fn today() -> String {
    let now = crate::calendar::now();
    format!("{:04}.{:02}.{:02}", now.year, now.month, now.day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_time_control_tag_when_equal_one_per_side_under_time_odds() {
        let tc = |t: &str| t.parse::<TimeControl>().expect("valid");
        let tag = |n: &str, v: &str| (n.to_string(), v.to_string());
        assert_eq!(
            time_control_tags([tc("st=0.1"), tc("st=0.1")]),
            [tag("TimeControl", "st=0.1")]
        );
        assert_eq!(
            time_control_tags([tc("st=0.01"), tc("40/60+0.5")]),
            [
                tag("SouthTimeControl", "st=0.01"),
                tag("NorthTimeControl", "40/60+0.5")
            ]
        );
    }

    #[test]
    fn moves_are_numbered_with_captures_and_comments() {
        let mv = |c| Move::from_letter(c).expect("letter");
        let game = OgnGame {
            tags: vec![("Variant".into(), VARIANT.into())],
            moves: vec![
                OgnMove {
                    mv: mv('F'),
                    captured: 0,
                    comment: Some("+0.10 3 0.002s".into()),
                },
                OgnMove {
                    mv: mv('b'),
                    captured: 0,
                    comment: None,
                },
                OgnMove {
                    mv: mv('A'),
                    captured: 0,
                    comment: None,
                },
                OgnMove {
                    mv: mv('f'),
                    captured: 0,
                    comment: None,
                },
                OgnMove {
                    mv: mv('E'),
                    captured: 0,
                    comment: None,
                },
                OgnMove {
                    mv: mv('a'),
                    captured: 2,
                    comment: None,
                },
            ],
            result: "*".into(),
        };
        assert_eq!(
            write_game(&game),
            "[Variant \"Oware Abapa\"]\n\n1. F {+0.10 3 0.002s} 1... b 2. A f 3. E a+2 *\n\n"
        );
    }
}
