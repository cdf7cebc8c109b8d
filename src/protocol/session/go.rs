//! `go`: while idle it always starts a search (or answers from the opening book, or answers a
//! finished game), never an error.
//! Warnings first (what the parser changed or skipped, illegal `searchmoves`, a clock of the
//! wrong side, increments without a clock), then the game-over answer or the search.

use super::{Engine, Job, Response, RunKind, Running, Session};
use crate::protocol::command::{At, Command, Go, MAX_GO_WARNINGS};
use crate::protocol::parse::parse_command;
use crate::rules::{GrandSlam, Move, Side};
use crate::search::{Clock, Control, Features, Limits, Strength};
use std::sync::Arc;
use std::time::Duration;

/// The `movetime` of a `go` whose skipped words left nothing to end the search.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

impl<E: Engine> Session<E> {
    /// A line that is not UTF-8 text: refused, but a `go` must still get its `bestmove`, so a
    /// line whose first word is `go` runs with the bad bytes read as U+FFFD (and warned about).
    pub(super) fn not_text(&mut self, offset: usize, lossy: &str) {
        let message = format!("the line is not UTF-8 text (byte {})", offset + 1);
        let go = match parse_command(lossy) {
            Ok(Command::Go(go)) => go,
            _ => return self.reject("(not text)", message),
        };
        log::debug!("> {} (not UTF-8)", lossy.escape_debug());
        if self.running.is_none() {
            // The bytes before the bad one are text, the same in the line as read.
            let column = lossy.get(..offset).map_or(0, |s| s.chars().count()) + 1;
            self.send(Response::Warning(format!(
                "{message}: read with U+FFFD in place of the bad bytes (column {column})"
            )));
        }
        if let Err(e) = self.go(go) {
            self.reject(lossy, e);
        }
    }

    /// `go`: always one `bestmove` when idle (see the module docs).
    pub(super) fn go(&mut self, mut go: Go) -> Result<(), String> {
        self.idle("go")?;
        for warning in &go.warnings {
            self.warn(&warning.value, warning.column);
        }
        if go.warnings_left_out > 0 {
            let more = go.warnings_left_out;
            self.warn(
                &format!("{more} more warnings left out (at most {MAX_GO_WARNINGS} are printed)"),
                1,
            );
        }
        self.generation += 1;
        if self.game.outcome().is_some() {
            self.game_over(&go);
            return Ok(());
        }
        let asked = go.searchmoves.len();
        go.searchmoves = self.legal_searchmoves(&go.searchmoves);
        let (mut limits, lost_increment) = self.limits(&go);
        let skipped = go.skipped || go.searchmoves.len() < asked || lost_increment;
        if skipped && limits.is_unbounded() && !go.infinite {
            // The line meant a search with an end: it gets one rather than waiting for a stop
            // (a pondering search's limits start at `ponderhit`, so pondering is not cut short).
            limits.movetime = Some(Duration::from_millis(FALLBACK_MOVETIME_MS));
            self.warn(
                &format!("nothing left to end the search: searching {FALLBACK_MOVETIME_MS} ms"),
                1,
            );
        }
        if self.play_from_book(&go, &limits) {
            self.diagnose(|| format!("go #{}: answered from the book", self.generation));
            return Ok(());
        }
        if limits.movetime.is_none() && limits.clock.is_none() {
            // A search without a clock repeats itself: it waits for table files being read.
            self.wait_for_table_files();
        }
        self.diagnose(|| self.describe_go(&go, &limits));
        let score_side = self.score_side(&go);
        let control = Arc::new(Control::new(go.ponder));
        self.running = Some(Running {
            generation: self.generation,
            control: Arc::clone(&control),
            kind: RunKind::Search,
        });
        let job = Job {
            generation: self.generation,
            game: self.game.clone(),
            limits,
            control,
            proven_score: self.options.proven_score,
            score_side,
            pv_length: self.options.pv_length,
        };
        self.engine.set_tables(self.tables.current());
        self.engine.start(job, &self.output, &self.events);
        Ok(())
    }

    /// The side whose view a search's scores take. A search for a move makes the side to move
    /// the engine's own; a ponder on the opponent's move (the Aualé GUI, and the tournament
    /// runner, send the position with the opponent to move when they have no predicted move)
    /// reports from the engine's own side, as UCI's "from the engine's point of view" reads,
    /// so that a GUI showing the score keeps one view while the engine thinks and ponders.
    fn score_side(&mut self, go: &Go) -> Side {
        let to_move = self.game.position().side_to_move();
        if !go.ponder {
            if !go.infinite {
                self.own_side = Some(to_move);
            }
            return to_move;
        }
        match self.own_side {
            Some(own) if own != to_move => {
                self.diagnose(|| {
                    format!(
                        "go #{}: a ponder on the opponent's move: scores are {}'s",
                        self.generation, own
                    )
                });
                own
            }
            _ => to_move,
        }
    }

    /// With `OwnBook` on, a timed search (`movetime` or a clock, with or without `depth` or
    /// `nodes`; not pondering, not `infinite`, no `searchmoves`, one line) in a book position
    /// is answered at once with a book move: one within `BookVariety` of the best, chosen at
    /// random. The expected reply is the book's best in the next position, when it has one.
    /// Only under the no-capture grand-slam rule, which the book was built with, and not at a
    /// limited strength (the book's moves are full strength). Returns whether it answered.
    fn play_from_book(&mut self, go: &Go, limits: &Limits) -> bool {
        let timed = limits.movetime.is_some() || limits.clock.is_some();
        if !self.options.own_book
            || limits.strength.is_some()
            || !timed
            || go.ponder
            || go.infinite
            || !go.searchmoves.is_empty()
            || self.options.multi_pv > 1
            || self.game.rule() != GrandSlam::NoCapture
        {
            return false;
        }
        // BookFile's book, or the one built into Krou.
        let book = match &self.book_file {
            Some(book) => book,
            None => crate::book::shipped(),
        };
        let position = *self.game.position();
        let variety = self.options.book_variety as i32;
        let candidates = book.candidates(&position, variety).len();
        let Some((best, score)) = self.book.choose(book, &position, variety) else {
            return false;
        };
        // The book ignores the game's history: a move that would end the game by repetition
        // is left to the search.
        let mut next = self.game.clone();
        if next.play(best).is_err() || next.outcome().is_some() {
            return false;
        }
        let ponder = book
            .moves(next.position())
            .first()
            .map(|&(mv, _)| mv)
            .filter(|&mv| next.legal_moves().contains(mv));
        let moves = if candidates == 1 { "move" } else { "moves" };
        self.send(Response::Book(format!(
            "{best} (best score {:+.2} seeds; {candidates} {moves} within {:.2} of it)",
            f64::from(score) / 100.0,
            f64::from(variety) / 100.0
        )));
        self.send(Response::BestMove {
            best: Some(best),
            ponder,
        });
        true
    }

    fn warn(&self, message: &str, column: usize) {
        self.send(Response::Warning(format!("{message} (column {column})")));
    }

    /// A `go` in a finished game: the game-over line, and `bestmove 0000` at once, or, for
    /// `go ponder` and `go infinite`, once `stop` (or `ponderhit`) comes.
    fn game_over(&mut self, go: &Go) {
        if let Some(outcome) = self.game.outcome() {
            self.send(Response::GameOver(outcome));
        }
        if !(go.ponder || go.infinite) {
            self.send(Response::BestMove {
                best: None,
                ponder: None,
            });
            return;
        }
        self.diagnose(|| {
            format!(
                "go #{}: the game is over; bestmove 0000 comes at stop{}",
                self.generation,
                if go.infinite { "" } else { " or ponderhit" }
            )
        });
        self.running = Some(Running {
            generation: self.generation,
            control: Arc::new(Control::new(go.ponder)),
            kind: RunKind::GameOver {
                infinite: go.infinite,
            },
        });
    }

    /// The `searchmoves` that are legal here, with a warning for each one that is not; none
    /// legal (or none given) means every legal move.
    fn legal_searchmoves(&self, moves: &[At<Move>]) -> Vec<At<Move>> {
        let legal = self.game.legal_moves();
        for At { value, column } in moves.iter().filter(|m| !legal.contains(m.value)) {
            self.warn(
                &format!("searchmoves: skipped '{value}', not a legal move here (legal: {legal})"),
                *column,
            );
        }
        let kept: Vec<_> = moves
            .iter()
            .filter(|m| legal.contains(m.value))
            .copied()
            .collect();
        if let (true, Some(first)) = (kept.is_empty(), moves.first()) {
            self.warn(
                "searchmoves: no legal move left, searching every move",
                first.column,
            );
        }
        kept
    }

    /// The search limits of `go`, and whether an increment was dropped for want of a clock.
    /// The clock is the side to move's; when only the other side's is given (a client that
    /// mixed up the sides), that one is used, with a warning.
    fn limits(&self, go: &Go) -> (Limits, bool) {
        let side = self.game.position().side_to_move();
        let clocks = [
            (go.south_time, go.south_increment),
            (go.north_time, go.north_increment),
        ];
        let (own, other) = match side {
            Side::South => (0, 1),
            Side::North => (1, 0),
        };
        let names = ["wtime", "btime"];
        let used = match (clocks[own].0, clocks[other].0) {
            (None, Some(_)) => {
                self.warn(
                    &format!(
                        "no '{}' for {side}, the side to move: using '{}'",
                        names[own], names[other]
                    ),
                    go.clock_columns[other].unwrap_or(1),
                );
                other
            }
            _ => own,
        };
        let (time, increment) = clocks[used];
        let lost_increment = time.is_none() && clocks.iter().any(|c| c.1.is_some());
        if lost_increment {
            self.warn("skipped 'winc'/'binc': an increment without a clock", 1);
        }
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(millis),
            clock: time.map(|t| Clock {
                remaining: millis(t),
                increment: millis(increment.unwrap_or(0)),
                moves_to_go: go.moves_to_go,
            }),
            infinite: go.infinite,
            searchmoves: go.searchmoves.iter().map(|m| m.value).collect(),
            overhead: self.options.move_overhead,
            multi_pv: self.options.multi_pv,
            strength: self.options.limit_strength.then_some(Strength {
                elo: self.options.elo,
                seed: self.strength_seed,
            }),
        };
        (limits, lost_increment)
    }

    /// The `debug on` line of a `go`: its limits as the search will use them, its time plan,
    /// and the search's settings.
    fn describe_go(&self, go: &Go, limits: &Limits) -> String {
        let none = || "none".to_string();
        let ms = |d: Option<Duration>| d.map_or_else(none, |d| format!("{} ms", d.as_millis()));
        // The protocol's searches run with the default features (nothing here switches them).
        let (soft, hard) =
            crate::search::time_plan(limits, self.game.position(), Features::default());
        let tables = self.tables.describe();
        let clock = limits.clock.map_or_else(none, |c| {
            format!(
                "{} ms + {} ms",
                c.remaining.as_millis(),
                c.increment.as_millis()
            )
        });
        format!(
            "go #{}: depth {}, nodes {}, movetime {}, clock {clock}, {}{}; time plan: soft {}, hard {}; threads {}, hash {} MiB, endgame tables {tables}",
            self.generation,
            limits.depth.map_or_else(none, |d| d.to_string()),
            limits.nodes.map_or_else(none, |n| n.to_string()),
            ms(limits.movetime),
            if go.ponder { "ponder" } else { "no ponder" },
            if limits.infinite { ", infinite" } else { "" },
            ms(soft),
            ms(hard),
            self.options.settings.threads,
            self.options.settings.hash_mib,
        )
    }
}

/// A time in milliseconds from `go`; zero or negative means none left.
fn millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}
