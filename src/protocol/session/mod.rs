//! The session: the game, the options and the running search; it executes commands and answers.
//!
//! Every rejected line gets exactly one `info string error: …` and leaves the session as it was.
//! `go` has a module of its own: it is never rejected while idle.

mod go;

use super::command::{Command, PositionCommand, Query, SetOption, Start};
use super::engine::{Engine, Event, Job};
use super::options::{Change, NO_DIRECTORY, OptionError, Options};
use super::parse::parse_command;
use super::response::{Output, Response};
use super::start::StartOptions;
use super::tablebase::{TableSource, d_line, endgame_dir};
use crate::book::{Book, Chooser};
use crate::rules::{Game, GrandSlam, Position, Side, notation};
use crate::search::Control;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// The longest `isready` or a search without a clock waits for endgame table files being read
/// (milliseconds for the built-in tables; a large `EndgameDatabase` may take longer).
pub const TABLE_FILES_WAIT: Duration = Duration::from_secs(2);

/// The answer to `help`: the commands a person types most, and where the rest are.
pub const HELP: &str = "\
Krou speaks UCI (protocol.md has every command). The ones a person types most:
  uci                         identify, list the options
  isready                     answer readyok
  position startpos [moves FbAf...]
  position fen <diagram> [moves ...]  a diagram: 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S
  go depth <n> | movetime <ms> | infinite   search; stop ends an infinite one
  d                           draw the board, list the legal moves
  setoption name <name> value <value>
  perft <depth>, bench [depth], query gameover|p1turn|result
  quit                        leave (so does the end of input, Ctrl-D)
Moves are pit letters: A-F for South, a-f for North. `krou --help` lists the other tools.";

/// The line `krou` greets a person with when started on a terminal (never on a pipe).
pub fn greeting() -> String {
    format!(
        "Krou {}, an Oware (Abapa) engine speaking UCI. Type 'help' for the commands, 'quit' to leave.",
        env!("CARGO_PKG_VERSION")
    )
}

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
    /// Chooses among book moves (`OwnBook`, `BookSeed`).
    book: Chooser,
    /// The book of `BookFile`, if one is set (else the book built into Krou).
    book_file: Option<Book>,
    /// Seeds a limited level's choices (`StrengthSeed`, or the clock for 0).
    strength_seed: u64,
    /// A person at a terminal: a rejected line is shown once (on stdout), not logged too.
    interactive: bool,
    /// The side of this game's last search for a move (not a ponder, not `infinite`): the
    /// engine's own side, whose view a ponder on the opponent's move reports.
    own_side: Option<Side>,
    /// The values the options started with (the `default`s of the `uci` answer).
    start: StartOptions,
}

impl<E: Engine> Session<E> {
    /// A session at the start position with default options; searches report their end on
    /// `events`, the channel the caller reads events from.
    pub fn new(engine: E, output: Output, events: Sender<Event>) -> Session<E> {
        Session::with_start(engine, output, events, StartOptions::default())
    }

    /// A session at the start position whose options start at `start` (`krou --option`).
    pub fn with_start(
        engine: E,
        output: Output,
        events: Sender<Event>,
        start: StartOptions,
    ) -> Session<E> {
        let options = start.options;
        // Checked when the command line was read; read again here (a file that went away
        // since leaves the built-in book, with an error on stderr).
        let book_file = start.book_file.as_deref().and_then(|path| {
            Book::read(path)
                .map_err(|e| log::error!("cannot use the book file '{}': {e}", path.display()))
                .ok()
        });
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
            endgame_dir: start.endgame_dir.clone(),
            debug: false,
            book: Chooser::new(book_seed(options.book_seed)),
            book_file,
            strength_seed: book_seed(options.strength_seed),
            interactive: false,
            own_side: None,
            start,
        }
    }

    /// Marks the session as a person's at a terminal (see [`HELP`]): rejected lines are then
    /// shown once, as `info string error: …`, and not also logged on stderr.
    pub fn set_interactive(&mut self, interactive: bool) {
        self.interactive = interactive;
    }

    /// Starts building the built-in endgame tables in the background (the real engine does
    /// at start-up; test sessions may go without). They reach the searcher before a search.
    pub fn start_tables(&mut self) {
        self.tables_on = true;
        self.request_tables();
    }

    /// Waits (at most [`TABLE_FILES_WAIT`]) for the endgame table files being read, so that
    /// `isready` and searches without a clock see the same tables each time.
    fn wait_for_table_files(&self) {
        if !self.tables.wait_for_files(TABLE_FILES_WAIT) {
            log::info!(
                "endgame table files still being read after {} s: going on without waiting",
                TABLE_FILES_WAIT.as_secs()
            );
        }
    }

    fn request_tables(&self) {
        if self.tables_on {
            let dir = self.endgame_dir.as_deref();
            let seeds = crate::egdb::default_set::from_env(self.options.endgame_build);
            self.tables
                .request(self.options.grand_slam, dir, seeds, &self.output);
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
        if !self.interactive {
            log::warn!("rejected '{}': {message}", line.escape_debug());
        }
        self.output.send(&Response::Error(message));
    }

    fn send(&self, response: Response) {
        self.output.send(&response);
    }

    fn execute(&mut self, command: Command) -> Result<Flow, String> {
        match command {
            Command::Uci => self.uci(),
            Command::IsReady => {
                if self.running.is_none() {
                    self.wait_for_table_files();
                }
                self.send(Response::ReadyOk);
            }
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
            Command::Help => HELP
                .lines()
                .for_each(|line| self.send(Response::Text(line.to_string()))),
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
        let start = &self.start;
        let (dir, file) = (start.endgame_dir.as_deref(), start.book_file.as_deref());
        for option in start.options.describe(dir, file) {
            self.send(Response::Option(option));
        }
        self.send(Response::UciOk);
    }

    fn new_game(&mut self) -> Result<(), String> {
        self.idle("ucinewgame")?;
        self.engine.clear();
        self.game = Game::new(Position::start(), self.options.grand_slam);
        self.own_side = None;
        Ok(())
    }

    fn set_option(&mut self, set: SetOption) -> Result<(), String> {
        let value = set.value.as_ref();
        if set.name.value.eq_ignore_ascii_case("BookFile") {
            let column = value.map_or(set.name.column, |v| v.column);
            return self
                .set_book_file(value.map(|v| v.value.as_str()))
                .map_err(|e| format!("{e} (column {column})"));
        }
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
        if matches!(change, Change::GrandSlam(_) | Change::EndgameBuild(_)) {
            self.request_tables();
        }
        if let Change::BookSeed(seed) = change {
            self.book = Chooser::new(book_seed(seed));
        }
        if let Change::StrengthSeed(seed) = change {
            self.strength_seed = book_seed(seed);
        }
        if change.needs_idle_search() {
            self.engine.configure(self.options.settings);
        }
        Ok(())
    }

    /// `setoption name BookFile value <file>`: the book `OwnBook` plays from, read and checked
    /// now (`<empty>` or nothing: the book built into Krou). A file that cannot be read, or is
    /// not a whole Krou book, is refused and the book in use stays.
    fn set_book_file(&mut self, value: Option<&str>) -> Result<(), String> {
        let path = value
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != NO_DIRECTORY);
        let Some(path) = path else {
            self.book_file = None;
            return Ok(());
        };
        let book = Book::read(std::path::Path::new(path))
            .map_err(|e| format!("cannot use the book file '{}': {e}", path.escape_debug()))?;
        self.diagnose(|| format!("book file {path}: {} positions", book.len()));
        self.book_file = Some(book);
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

/// The seed for `BookSeed` or `StrengthSeed` `seed`: the seed itself, or for 0 one from the
/// clock, so that every run varies unless a seed is set.
fn book_seed(seed: u64) -> u64 {
    if seed != 0 {
        return seed;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
