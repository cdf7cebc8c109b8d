//! The parameters of `go`.

use super::super::command::{At, Command, Go};
use super::words::{Res, fail, number, time, word};
use super::{MAX_DEPTH, MAX_MOVES_TO_GO, MAX_NODES, Reader};
use crate::rules::Move;

/// Which `go` field a keyword sets.
#[derive(Clone, Copy)]
enum GoKey {
    Depth,
    Nodes,
    MoveTime,
    Time(usize),
    Increment(usize),
    MovesToGo,
    Infinite,
    Ponder,
    SearchMoves,
}

impl GoKey {
    fn from_word(word: &str) -> Option<GoKey> {
        Some(match word {
            "depth" => GoKey::Depth,
            "nodes" => GoKey::Nodes,
            "movetime" => GoKey::MoveTime,
            "wtime" | "p1time" => GoKey::Time(0),
            "btime" | "p2time" => GoKey::Time(1),
            "winc" | "p1inc" => GoKey::Increment(0),
            "binc" | "p2inc" => GoKey::Increment(1),
            "movestogo" => GoKey::MovesToGo,
            "infinite" => GoKey::Infinite,
            "ponder" => GoKey::Ponder,
            "searchmoves" => GoKey::SearchMoves,
            _ => return None,
        })
    }
}

impl<'a> Reader<'a> {
    pub(super) fn go(&self, input: &'a str) -> Res<'a, Command> {
        let mut go = Go::default();
        let mut rest = input;
        while let (next, Some((key, at))) = word(rest)? {
            let Some(field) = GoKey::from_word(key) else {
                return fail(
                    at,
                    format!(
                        "unknown go parameter '{}' (expected depth, nodes, movetime, wtime, btime, winc, binc, movestogo, infinite, ponder or searchmoves)",
                        key.escape_debug()
                    ),
                );
            };
            rest = self.go_field(&mut go, field, key, at, next)?.0;
        }
        Ok(("", Command::Go(go)))
    }

    /// Reads the value of one `go` field into `go`.
    fn go_field(
        &self,
        go: &mut Go,
        field: GoKey,
        key: &str,
        at: &'a str,
        input: &'a str,
    ) -> Res<'a, ()> {
        let twice = || format!("'{key}' is given twice");
        match field {
            GoKey::Depth => set(&mut go.depth, number(input, key, 1, MAX_DEPTH)?, at, twice),
            GoKey::Nodes => set(&mut go.nodes, number(input, key, 1, MAX_NODES)?, at, twice),
            GoKey::MoveTime => set(&mut go.movetime, time(input, key)?, at, twice),
            GoKey::Time(0) => set(&mut go.south_time, time(input, key)?, at, twice),
            GoKey::Time(_) => set(&mut go.north_time, time(input, key)?, at, twice),
            GoKey::Increment(0) => set(&mut go.south_increment, time(input, key)?, at, twice),
            GoKey::Increment(_) => set(&mut go.north_increment, time(input, key)?, at, twice),
            GoKey::MovesToGo => set(
                &mut go.moves_to_go,
                number(input, key, 1, MAX_MOVES_TO_GO)?,
                at,
                twice,
            ),
            GoKey::Infinite => flag(&mut go.infinite, input, at, twice),
            GoKey::Ponder => flag(&mut go.ponder, input, at, twice),
            GoKey::SearchMoves => {
                if !go.searchmoves.is_empty() {
                    return fail(at, twice());
                }
                let mut rest = input;
                // The last word's text and column: each column counts on from the one before,
                // so a long list stays linear.
                let mut mark = (input, self.column(input));
                while let (next, Some((w, w_at))) = word(rest)? {
                    if !w.chars().all(|c| Move::from_letter(c).is_some()) {
                        break;
                    }
                    let skipped = mark.0.len().saturating_sub(w_at.len());
                    let column = mark.1 + mark.0.get(..skipped).map_or(0, |s| s.chars().count());
                    mark = (w_at, column);
                    go.searchmoves
                        .extend(w.chars().enumerate().filter_map(|(i, c)| {
                            Move::from_letter(c).map(|value| At {
                                value,
                                column: column + i,
                            })
                        }));
                    rest = next;
                }
                if go.searchmoves.is_empty() {
                    return fail(rest, "expected moves after 'searchmoves'");
                }
                Ok((rest, ()))
            }
        }
    }
}

fn set<'a, T>(
    slot: &mut Option<T>,
    value: (&'a str, T),
    at: &'a str,
    twice: impl Fn() -> String,
) -> Res<'a, ()> {
    if slot.is_some() {
        return fail(at, twice());
    }
    *slot = Some(value.1);
    Ok((value.0, ()))
}

fn flag<'a>(
    slot: &mut bool,
    input: &'a str,
    at: &'a str,
    twice: impl Fn() -> String,
) -> Res<'a, ()> {
    if *slot {
        return fail(at, twice());
    }
    *slot = true;
    Ok((input, ()))
}
