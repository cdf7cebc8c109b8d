//! What an engine said about its search (`info … depth … score … time …`), kept for the
//! `{score depth time}` comments of the game records.

use std::fmt;
use std::time::Duration;

/// An engine's score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centiseeds (`score cp N`); shown as seeds, `cp/100`.
    Cp(i32),
    /// Mate in N moves (`score mate N`), negative when being mated.
    Mate(i32),
}

/// The last search report before a move: score, depth and time, each if the engine gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// The score.
    pub score: Option<Score>,
    /// The completed depth.
    pub depth: Option<u32>,
    /// The engine's own search time.
    pub time: Option<Duration>,
}

impl Thinking {
    /// Updates from one `info` line; fields missing from the line keep their values. Anything
    /// malformed is ignored (an engine's report is a courtesy, not a contract).
    pub fn update(&mut self, line: &str) {
        let mut words = line.split_ascii_whitespace().skip(1);
        while let Some(word) = words.next() {
            match word {
                "depth" => self.depth = words.next().and_then(|w| w.parse().ok()).or(self.depth),
                "time" => {
                    if let Some(ms) = words.next().and_then(|w| w.parse().ok()) {
                        self.time = Some(Duration::from_millis(ms));
                    }
                }
                "score" => match (words.next(), words.next().and_then(|w| w.parse().ok())) {
                    (Some("cp"), Some(cp)) => self.score = Some(Score::Cp(cp)),
                    (Some("mate"), Some(n)) => self.score = Some(Score::Mate(n)),
                    _ => {}
                },
                // `score cp 9995 mate 5` (Krou's default for proven results): mate wins.
                "mate" => {
                    if let Some(n) = words.next().and_then(|w| w.parse().ok()) {
                        self.score = Some(Score::Mate(n));
                    }
                }
                "pv" | "string" => break,
                _ => {}
            }
        }
    }

    /// Whether the engine reported anything.
    pub fn is_empty(&self) -> bool {
        *self == Thinking::default()
    }
}

impl fmt::Display for Thinking {
    /// `score depth time` as in `+1.50 12 0.101s`, with `?` for a missing field and `#5` /
    /// `#-5` for mate scores.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Some(Score::Cp(cp)) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?
            }
            Some(Score::Mate(n)) => write!(f, "#{n}")?,
            None => f.write_str("?")?,
        }
        match self.depth {
            Some(depth) => write!(f, " {depth}")?,
            None => f.write_str(" ?")?,
        }
        match self.time {
            Some(time) => write!(f, " {:.3}s", time.as_secs_f64()),
            None => f.write_str(" ?"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_fill_score_depth_and_time_and_print_as_a_comment() {
        let mut thinking = Thinking::default();
        thinking.update("info depth 3 score cp 40 time 7 pv FbAf");
        thinking.update("info depth 12 seldepth 20 time 101 nodes 900 score cp -150 pv Fb");
        assert_eq!(thinking.to_string(), "-1.50 12 0.101s");
        thinking.update("info string depth 99");
        assert_eq!(thinking.depth, Some(12));
        thinking.update("info score mate 5 depth x");
        assert_eq!(thinking.to_string(), "#5 12 0.101s");
    }

    #[test]
    fn a_proven_score_with_both_cp_and_mate_reads_as_mate() {
        let mut thinking = Thinking::default();
        thinking.update("info depth 9 score cp -9993 mate -7 pv Fb");
        assert_eq!(thinking.score, Some(Score::Mate(-7)));
        thinking.update("info depth 10 score cp 25 pv Fb");
        assert_eq!(thinking.score, Some(Score::Cp(25)));
    }
}
