//! The session: the game, the options and the running search; it executes commands and answers.
//!
//! Every rejected line gets exactly one `info string error: …` and leaves the session as it was.

use super::command::{At, Command, Go, PositionCommand, Query, SetOption, Start};
use super::engine::{Engine, Event, Job};
use super::options::{Change, OptionError, Options};
use super::parse::parse_command;
use super::response::{Output, Response};
use super::tablebase::{TableSource, d_line, endgame_dir};
use crate::rules::{Game, GrandSlam, Position, Side, notation};
use crate::search::{Clock, Control, Limits};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// The `movetime` of a `go` whose skipped words left nothing to end the search.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

/// Whether the session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` or end of input: call [`Session::finish`] and exit.
    Quit,
}

/// The search in progress.
#[derive(Debug)]
struct Running {
    generation: u64,
    control: Arc<Control>,
    kind: RunKind,
}

/// What a running `go` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunKind {
    /// A search on its own thread, which prints its `bestmove`.
    Search,
    /// `go ponder` or `go infinite` in a finished game: nothing to search, so no thread; the
    /// session prints `bestmove 0000` once `stop` (or, pondering only, `ponderhit`) comes, as
    /// for any pondering or infinite search.
    GameOver {
        /// `go infinite`: only `stop` (or `quit`) ends it.
        infinite: bool,
    },
}

/// The protocol state machine.
#[derive(Debug)]
pub struct Session<E: Engine> {
    engine: E,
    output: Output,
    events: Sender<Event>,
    options: Options,
    game: Game,
    running: Option<Running>,
    generation: u64,
    /// Endgame tables, once [`Session::start_tables`] or `EndgameDatabase` asked for them.
    tables: TableSource,
    tables_on: bool,
    /// The `EndgameDatabase` directory, if set.
    endgame_dir: Option<PathBuf>,
    /// `debug on`: diagnostics as `info string debug: …` lines.
    debug: bool,
}

impl<E: Engine> Session<E> {
    /// A session at the start position with default options; searches report their end on
    /// `events`, the channel the caller reads events from.
    pub fn new(engine: E, output: Output, events: Sender<Event>) -> Session<E> {
        let options = Options::default();
        Session {
            engine,
            output,
            events,
            game: Game::new(Position::start(), options.grand_slam),
            options,
            running: None,
            generation: 0,
            tables: TableSource::default(),
            tables_on: false,
            endgame_dir: None,
            debug: false,
        }
    }

    /// Starts building the built-in endgame tables in the background (the real engine does
    /// at start-up; test sessions may go without). They reach the searcher before a search.
    pub fn start_tables(&mut self) {
        self.tables_on = true;
        self.request_tables();
    }

    fn request_tables(&self) {
        if self.tables_on {
            let dir = self.endgame_dir.as_deref();
            self.tables
                .request(self.options.grand_slam, dir, &self.output);
        }
    }

    /// The game as set by `position` (the current position last).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether a search is running (its `bestmove` not yet reported).
    pub fn is_searching(&self) -> bool {
        self.running.is_some()
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(line) => self.line(&line),
            Event::NotText(offset, lossy) => {
                self.not_text(offset, &lossy);
                Flow::Continue
            }
            Event::End => {
                log::debug!("end of input");
                Flow::Quit
            }
            Event::SearchDone(generation) => {
                match &self.running {
                    Some(running) if running.generation == generation => {
                        self.engine.join();
                        self.running = None;
                    }
                    _ => log::debug!("ignoring the end of search {generation}"),
                }
                Flow::Continue
            }
        }
    }

    /// Stops the running search and waits for its `bestmove` (at `quit` or end of input).
    pub fn finish(&mut self) {
        if let Some(running) = self.running.take() {
            match running.kind {
                RunKind::Search => running.control.stop(),
                RunKind::GameOver { .. } => self.send(Response::BestMove {
                    best: None,
                    ponder: None,
                }),
            }
        }
        self.engine.join();
    }

    /// A line that is not UTF-8 text: refused, but a `go` must still get its `bestmove`, so a
    /// line whose first word is `go` runs with the bad bytes read as U+FFFD (and warned about).
    fn not_text(&mut self, offset: usize, lossy: &str) {
        let message = format!("the line is not UTF-8 text (byte {})", offset + 1);
        let go = match parse_command(lossy) {
            Ok(Command::Go(go)) if lossy.split_whitespace().next() == Some("go") => go,
            _ => return self.reject("(not text)", message),
        };
        log::debug!("> {} (not UTF-8)", lossy.escape_debug());
        if self.running.is_none() {
            self.send(Response::Warning(format!(
                "{message}: read with U+FFFD in place of the bad bytes"
            )));
        }
        if let Err(e) = self.go(go) {
            self.reject(lossy, e);
        }
    }

    fn line(&mut self, line: &str) -> Flow {
        log::debug!("> {line}");
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        let command = match parse_command(line) {
            Ok(command) => command,
            Err(e) => {
                self.reject(line, e.to_string());
                return Flow::Continue;
            }
        };
        match self.execute(command) {
            Ok(flow) => flow,
            Err(message) => {
                self.reject(line, message);
                Flow::Continue
            }
        }
    }

    fn reject(&self, line: &str, message: String) {
        log::warn!("rejected '{}': {message}", line.escape_debug());
        self.output.send(&Response::Error(message));
    }

    fn send(&self, response: Response) {
        self.output.send(&response);
    }

    fn execute(&mut self, command: Command) -> Result<Flow, String> {
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => self.send(Response::ReadyOk),
            Command::UciNewGame => self.new_game()?,
            Command::SetOption(set) => self.set_option(set)?,
            Command::Position(position) => self.position(position)?,
            Command::Go(go) => self.go(go)?,
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => return Ok(Flow::Quit),
            Command::Debug(on) => {
                self.debug = on;
                self.diagnose(|| "on".to_string());
            }
            Command::Register => self.diagnose(|| "register: nothing to register".to_string()),
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth)?,
            Command::Bench(depth) => self.bench(depth)?,
            Command::Query(query) => self.query(query),
        }
        Ok(Flow::Continue)
    }

    fn idle(&self, command: &str) -> Result<(), String> {
        match self.running {
            Some(_) => Err(format!(
                "{command} while a search is running (send stop and wait for its bestmove first) (column 1)"
            )),
            None => Ok(()),
        }
    }

    /// `stop`: the running search ends and prints its `bestmove`.
    fn stop(&mut self) {
        match &self.running {
            Some(running) if running.kind == RunKind::Search => running.control.stop(),
            Some(_) => self.end_game_over_wait(),
            None => log::debug!("no search to stop; ignored"),
        }
    }

    /// `ponderhit`: the pondering search becomes a normal one.
    fn ponderhit(&mut self) {
        match &self.running {
            Some(running) if running.kind == RunKind::Search => running.control.ponderhit(),
            Some(running) if running.kind == (RunKind::GameOver { infinite: true }) => {
                log::debug!("ponderhit on an infinite go; it waits for stop");
            }
            Some(_) => self.end_game_over_wait(),
            None => log::debug!("no search to ponderhit; ignored"),
        }
    }

    /// Ends a `go ponder` or `go infinite` in a finished game with its `bestmove 0000`.
    fn end_game_over_wait(&mut self) {
        self.running = None;
        self.send(Response::BestMove {
            best: None,
            ponder: None,
        });
    }

    /// Prints a diagnostic while `debug on` (built only then).
    fn diagnose(&self, message: impl FnOnce() -> String) {
        if self.debug {
            self.send(Response::Debug(message()));
        }
    }

    fn uci(&self) {
        self.send(Response::IdName);
        self.send(Response::IdAuthor);
        for option in Options::describe() {
            self.send(Response::Option(option));
        }
        self.send(Response::UciOk);
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.idle("ucinewgame")?;
        self.engine.clear();
        self.game = Game::new(Position::start(), self.options.grand_slam);
        Ok(())
    }

    fn set_option(&mut self, set: SetOption) -> Result<(), String> {
        let value = set.value.as_ref();
        if set.name.value.eq_ignore_ascii_case("EndgameDatabase") {
            let column = value.map_or(set.name.column, |v| v.column);
            return self
                .set_endgame_dir(value.map(|v| v.value.as_str()))
                .map_err(|e| format!("{e} (column {column})"));
        }
        let change =
            Options::read(&set.name.value, value.map(|v| v.value.as_str())).map_err(|e| {
                let column = match e {
                    OptionError::UnknownName(_) => set.name.column,
                    OptionError::MissingValue(_) => {
                        set.name.column + set.name.value.chars().count()
                    }
                    OptionError::BadValue(_) => value.map_or(set.name.column, |v| v.column),
                };
                format!("{e} (column {column})")
            })?;
        if change.needs_idle_search() {
            self.idle(&format!("setoption {}", set.name.value))?;
        }
        if let Change::GrandSlam(rule) = change {
            let column = value.map_or(0, |v| v.column);
            self.game = replay(&self.game, rule).map_err(|e| format!("{e} (column {column})"))?;
        }
        if let Change::Ignored(name) = change {
            self.diagnose(|| {
                format!("option {name} is another engine's or GUI's: accepted, changes nothing")
            });
        }
        self.options.apply(change);
        if matches!(change, Change::GrandSlam(_)) {
            self.request_tables();
        }
        if change.needs_idle_search() {
            self.engine.configure(self.options.settings);
        }
        Ok(())
    }

    /// `setoption name EndgameDatabase value <dir>`: loads the tables from `dir` in the
    /// background (`<empty>` or nothing: the built-in tables).
    fn set_endgame_dir(&mut self, value: Option<&str>) -> Result<(), String> {
        let dir = endgame_dir(value)?;
        self.endgame_dir = dir;
        self.tables_on = true;
        self.request_tables();
        Ok(())
    }

    fn position(&mut self, command: PositionCommand) -> Result<(), String> {
        let start = match command.start {
            Start::StartPos => Position::start(),
            Start::Diagram(position) => position,
        };
        let mut game = Game::new(start, self.options.grand_slam);
        for (i, mv) in command.moves.iter().enumerate() {
            game.play(mv.value).map_err(|e| {
                format!(
                    "move {} '{}' (column {}) cannot be played: {e}",
                    i + 1,
                    mv.value,
                    mv.column
                )
            })?;
        }
        self.game = game;
        Ok(())
    }

    /// `go`: always one `bestmove` when idle. Warnings first (what the parser changed or
    /// skipped, illegal `searchmoves`), then the game-over answer or the search.
    fn go(&mut self, mut go: Go) -> Result<(), String> {
        self.idle("go")?;
        for warning in &go.warnings {
            self.send(Response::Warning(format!(
                "{} (column {})",
                warning.value, warning.column
            )));
        }
        self.generation += 1;
        if let Some(outcome) = self.game.outcome() {
            self.send(Response::GameOver(outcome));
            if go.ponder || go.infinite {
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
            } else {
                self.send(Response::BestMove {
                    best: None,
                    ponder: None,
                });
            }
            return Ok(());
        }
        let before = go.searchmoves.len();
        go.searchmoves = self.legal_searchmoves(&go.searchmoves);
        let warned = !go.warnings.is_empty() || go.searchmoves.len() < before;
        let mut limits = self.limits(&go);
        if warned && limits.is_unbounded() && !go.infinite && !go.ponder {
            // Something was skipped and nothing is left to end the search: the line meant a
            // search with an end, so it gets one rather than waiting for a stop.
            limits.movetime = Some(Duration::from_millis(FALLBACK_MOVETIME_MS));
            self.send(Response::Warning(format!(
                "nothing left to end the search: searching {FALLBACK_MOVETIME_MS} ms (column 1)"
            )));
        }
        self.diagnose(|| self.describe_go(&go, &limits));
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
        };
        self.engine.set_tables(self.tables.current());
        self.engine.start(job, &self.output, &self.events);
        Ok(())
    }

    /// The `searchmoves` that are legal here, with a warning for each one that is not; none
    /// legal (or none given) means every legal move.
    fn legal_searchmoves(&self, moves: &[At<crate::rules::Move>]) -> Vec<At<crate::rules::Move>> {
        let legal = self.game.legal_moves();
        for At { value, column } in moves.iter().filter(|m| !legal.contains(m.value)) {
            self.send(Response::Warning(format!(
                "searchmoves: skipped '{value}', not a legal move here (legal: {legal}) (column {column})"
            )));
        }
        let kept: Vec<_> = moves
            .iter()
            .filter(|m| legal.contains(m.value))
            .copied()
            .collect();
        if let (true, Some(first)) = (kept.is_empty(), moves.first()) {
            self.send(Response::Warning(format!(
                "searchmoves: no legal move left, searching every move (column {})",
                first.column
            )));
        }
        kept
    }

    /// The `debug on` line of a `go`: its limits as the search will use them, its time plan,
    /// and the search's settings.
    fn describe_go(&self, go: &Go, limits: &Limits) -> String {
        let ms =
            |d: Option<Duration>| d.map_or("none".to_string(), |d| format!("{} ms", d.as_millis()));
        let (soft, hard) = crate::search::time_plan(limits);
        let tables = self
            .tables
            .current()
            .and_then(|t| t.max_seeds())
            .map_or("none ready".to_string(), |n| format!("to {n} seeds"));
        format!(
            "go #{}: depth {}, nodes {}, movetime {}, clock {}, {}{}; time plan: soft {}, hard {}; threads {}, hash {} MiB, endgame tables {tables}",
            self.generation,
            limits.depth.map_or("none".to_string(), |d| d.to_string()),
            limits.nodes.map_or("none".to_string(), |n| n.to_string()),
            ms(limits.movetime),
            limits.clock.map_or("none".to_string(), |c| format!(
                "{} ms + {} ms",
                c.remaining.as_millis(),
                c.increment.as_millis()
            )),
            if go.ponder { "ponder" } else { "no ponder" },
            if limits.infinite { ", infinite" } else { "" },
            ms(soft),
            ms(hard),
            self.options.settings.threads,
            self.options.settings.hash_mib,
        )
    }

    /// The search limits of `go`. The clock is the side to move's; when only the other
    /// side's is given (a client that mixed up the sides), that one is used, with a warning.
    fn limits(&self, go: &Go) -> Limits {
        let side = self.game.position().side_to_move();
        let (own, other) = match side {
            Side::South => (
                (go.south_time, go.south_increment),
                (go.north_time, go.north_increment),
            ),
            Side::North => (
                (go.north_time, go.north_increment),
                (go.south_time, go.south_increment),
            ),
        };
        let (time, increment) = match (own.0, other.0) {
            (None, Some(_)) => {
                let (mine, theirs) = match side {
                    Side::South => ("wtime", "btime"),
                    Side::North => ("btime", "wtime"),
                };
                self.send(Response::Warning(format!(
                    "no '{mine}' for {side}, the side to move: using '{theirs}' (column 1)"
                )));
                other
            }
            _ => own,
        };
        Limits {
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
        }
    }

    fn display(&self) {
        let position = self.game.position();
        for line in notation::board(position).lines() {
            self.send(Response::Text(line.to_string()));
        }
        let legal = self.game.legal_moves();
        let legal = if legal.is_empty() {
            "none".to_string()
        } else {
            legal.to_string()
        };
        self.send(Response::Text(format!("diagram {position}")));
        self.send(Response::Text(format!(
            "side to move {}",
            position.side_to_move()
        )));
        self.send(Response::Text(format!("legal moves {legal}")));
        self.send(Response::Text(format!("grand slam {}", self.game.rule())));
        if let Some(line) = self.table_line() {
            self.send(Response::Text(line));
        }
        if let Some(outcome) = self.game.outcome() {
            self.send(Response::Text(format!("game over: {outcome}")));
        }
    }

    /// The `d` line of the endgame tables, when they are on, the game goes on and the position
    /// has few enough seeds: the value, or `endgame table not ready` while they are loading.
    fn table_line(&self) -> Option<String> {
        if !self.tables_on || self.game.outcome().is_some() {
            return None;
        }
        d_line(self.tables.current().as_deref(), &self.game)
    }

    fn perft(&mut self, depth: u32) -> Result<(), String> {
        self.idle("perft")?;
        for line in self
            .engine
            .perft(self.game.position(), depth, self.game.rule())
        {
            self.send(Response::Text(line));
        }
        Ok(())
    }

    fn bench(&mut self, depth: u32) -> Result<(), String> {
        self.idle("bench")?;
        for line in self.engine.bench(depth) {
            self.send(Response::Text(line));
        }
        Ok(())
    }

    fn query(&self, query: Query) {
        let outcome = self.game.outcome();
        let answer = match query {
            Query::GameOver => yes_no(outcome.is_some()),
            Query::P1Turn => yes_no(self.game.position().side_to_move() == Side::South),
            Query::Result => match outcome.map(|o| o.winner()) {
                None => "none",
                Some(Some(Side::South)) => "p1win",
                Some(Some(Side::North)) => "p2win",
                Some(None) => "draw",
            },
        };
        self.send(Response::Answer(answer));
    }
}

fn yes_no(yes: bool) -> &'static str {
    if yes { "true" } else { "false" }
}

/// A time in milliseconds from `go`; zero or negative means none left.
fn millis(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The same game played under another grand-slam rule, or why a move cannot be replayed.
fn replay(game: &Game, rule: GrandSlam) -> Result<Game, String> {
    let mut replayed = Game::new(*game.start(), rule);
    for (i, &mv) in game.moves().iter().enumerate() {
        replayed.play(mv).map_err(|e| {
            format!("GrandSlam {rule} does not fit the current game: its move {} '{mv}' cannot be played: {e}", i + 1)
        })?;
    }
    Ok(replayed)
}
