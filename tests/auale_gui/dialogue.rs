//! What the GUI's log says of each engine's dialogue, checked by the rules: every `go`
//! answered by one `bestmove`, every `bestmove` a legal move of the position searched.

use super::log::engine_line;
use krou::rules::{GrandSlam, Move, Position, parse_moves};
use std::collections::BTreeMap;

/// A `position` line as the position it sets, by Krou's rules (the GUI plays Abapa's).
pub fn position_of(line: &str) -> Result<Position, String> {
    let rest = line
        .strip_prefix("position ")
        .ok_or_else(|| format!("not a position line: {line}"))?;
    let (setup, moves) = match rest.split_once(" moves ") {
        Some((setup, moves)) => (setup, moves),
        None => (rest, ""),
    };
    let mut position = if setup == "startpos" {
        Position::start()
    } else {
        let diagram = setup
            .strip_prefix("fen ")
            .ok_or_else(|| format!("neither startpos nor fen: {line}"))?;
        diagram
            .parse::<Position>()
            .map_err(|e| format!("{line}: {e:?}"))?
    };
    let moves = parse_moves(moves).map_err(|e| format!("{line}: {e:?}"))?;
    for mv in moves {
        position = position
            .try_play(mv, GrandSlam::NoCapture)
            .map_err(|e| format!("{line}: {mv} is illegal: {e:?}"))?
            .position;
    }
    Ok(position)
}

/// The position after a legal move.
pub fn after(position: &Position, mv: Move) -> Option<Position> {
    position
        .try_play(mv, GrandSlam::NoCapture)
        .ok()
        .map(|played| played.position)
}

/// The move a `bestmove` line names.
pub fn best_move(text: &str) -> Option<Move> {
    text.strip_prefix("bestmove ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What one engine's dialogue held.
#[derive(Debug, Default)]
pub struct Tally {
    /// `go` lines sent, pondering or not.
    pub searches: usize,
    /// `go ponder` lines among them.
    pub ponders: usize,
    /// `stop` lines sent.
    pub stops: usize,
    /// `bestmove` lines printed.
    pub bestmoves: usize,
    /// The `go` lines sent, as sent.
    pub go_lines: Vec<String>,
    /// Whether it was sent `quit`.
    pub quit: bool,
}

/// Checks every engine's dialogue in the log; gives each engine's tally, or what went wrong.
pub fn check(lines: &[String]) -> Result<BTreeMap<u32, Tally>, String> {
    #[derive(Default)]
    struct State {
        position: Option<Position>,
        searching: Option<Position>,
        tally: Tally,
    }
    let mut engines: BTreeMap<u32, State> = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(dialogue) = engine_line(line) else {
            continue;
        };
        let at = || format!("log line {}: {line}", i + 1);
        let state = engines.entry(dialogue.engine).or_default();
        let text = dialogue.text.as_str();
        let word = text.split_whitespace().next().unwrap_or("");
        match (dialogue.sent, word) {
            (true, "position") => state.position = Some(position_of(text)?),
            (true, "go") => {
                if state.searching.is_some() {
                    return Err(format!("a go before the last one's bestmove: {}", at()));
                }
                let position = state
                    .position
                    .ok_or_else(|| format!("a go before any position: {}", at()))?;
                state.searching = Some(position);
                state.tally.searches += 1;
                state.tally.ponders += usize::from(text.split_whitespace().any(|w| w == "ponder"));
                state.tally.go_lines.push(text.to_string());
            }
            (true, "stop") => state.tally.stops += 1,
            (true, "quit") => state.tally.quit = true,
            (false, "bestmove") => {
                let searched = state
                    .searching
                    .take()
                    .ok_or_else(|| format!("a bestmove with no go: {}", at()))?;
                let mv = best_move(text).ok_or_else(|| format!("no move: {}", at()))?;
                if after(&searched, mv).is_none() {
                    return Err(format!("an illegal bestmove: {}", at()));
                }
                state.tally.bestmoves += 1;
            }
            _ => {}
        }
    }
    for (engine, state) in &engines {
        if state.searching.is_some() {
            return Err(format!("engine {engine}'s last go got no bestmove"));
        }
    }
    Ok(engines
        .into_iter()
        .map(|(engine, state)| (engine, state.tally))
        .collect())
}

/// The legal moves of a person who gives seeds away, worst first: a move that neither captures
/// nor ends the game before one that does, then by the most seeds the opponent's best reply
/// captures, so that a game against any level ends soon by the opponent's store.
pub fn giving_away(position: &Position) -> Vec<Move> {
    let rule = GrandSlam::NoCapture;
    let mut moves: Vec<(bool, u8, std::cmp::Reverse<u8>, Move)> = position
        .legal_moves(rule)
        .filter_map(|mv| {
            let played = position.try_play(mv, rule).ok()?;
            let next = played.position;
            let reply = next
                .legal_moves(rule)
                .filter_map(|reply| next.try_play(reply, rule).ok())
                .map(|answer| answer.captured)
                .max()
                .unwrap_or(0);
            let ends = next.outcome(rule).is_some();
            Some((ends, played.captured, std::cmp::Reverse(reply), mv))
        })
        .collect();
    moves.sort_by_key(|&(ends, captured, reply, _)| (ends, captured, reply));
    moves.into_iter().map(|(.., mv)| mv).collect()
}
