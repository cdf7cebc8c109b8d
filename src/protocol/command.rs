//! The commands the engine understands, as typed values (parsing is in `parse`, execution in
//! `session`). Adding a command means adding a variant here, a keyword in `parse` and an arm in
//! `session`.

use crate::rules::{Move, Position};

/// One command line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`: forget everything learned; back to the start position.
    UciNewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption(SetOption),
    /// `position (startpos | fen <diagram>) [moves <moves>]`.
    Position(PositionCommand),
    /// `go [limits…]`.
    Go(Go),
    /// `stop`: end the running search (ignored when idle).
    Stop,
    /// `ponderhit`: the expected move was played; time limits now apply.
    PonderHit,
    /// `quit`: stop any search, print its `bestmove`, exit.
    Quit,
    /// `debug [on|off]`: diagnostics as `info string debug: …` lines (bare `debug` is `on`).
    Debug(bool),
    /// `register …`: accepted with whatever follows; Krou needs no registration.
    Register,
    /// `d`: draw the board (an extension).
    Display,
    /// `perft <depth>`: count leaf nodes (an extension).
    Perft(u32),
    /// `bench [depth]`: the search benchmark, as `krou bench` prints it (an extension).
    Bench(u32),
    /// `query gameover|p1turn|result` (an extension, as UGI referees ask).
    Query(Query),
    /// `help`: the commands, in a few lines for a person (an extension).
    Help,
}

/// A value with the column (1-based, in characters) where it starts in the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At<T> {
    /// The value.
    pub value: T,
    /// Its column in the line.
    pub column: usize,
}

/// `setoption name <name> [value <value>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetOption {
    /// The option name as written (matched ignoring ASCII case).
    pub name: At<String>,
    /// The value, if given.
    pub value: Option<At<String>>,
}

/// Where a `position` command starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// `startpos`.
    StartPos,
    /// `fen <diagram>`.
    Diagram(Position),
}

/// `position (startpos | fen <diagram>) [moves <moves>]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// The position before the moves.
    pub start: Start,
    /// The moves, each with its column (checked for legality by the session).
    pub moves: Vec<At<Move>>,
}

/// The parameters of `go`. Times are in milliseconds, negative ones meaning "no time left".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth <plies>`.
    pub depth: Option<u32>,
    /// `nodes <count>`.
    pub nodes: Option<u64>,
    /// `movetime <ms>`.
    pub movetime: Option<i64>,
    /// `wtime|p1time <ms>`: South's clock.
    pub south_time: Option<i64>,
    /// `btime|p2time <ms>`: North's clock.
    pub north_time: Option<i64>,
    /// `winc|p1inc <ms>`: South's increment.
    pub south_increment: Option<i64>,
    /// `binc|p2inc <ms>`: North's increment.
    pub north_increment: Option<i64>,
    /// `movestogo <moves>`.
    pub moves_to_go: Option<u32>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves <moves>`: consider only these (checked for legality by the session).
    pub searchmoves: Vec<At<Move>>,
    /// What the parser changed or skipped so that the `go` can run, each message with the
    /// column of the word it is about (printed as `info string warning: …`); at most
    /// [`MAX_GO_WARNINGS`].
    pub warnings: Vec<At<String>>,
    /// How many warnings past [`MAX_GO_WARNINGS`] were left out.
    pub warnings_left_out: usize,
    /// Whether a word was skipped (not only changed): the line then meant limits it lost.
    pub skipped: bool,
    /// The columns of the `wtime` and `btime` words (South, North), for warnings about them.
    pub clock_columns: [Option<usize>; 2],
}

/// The most warnings one `go` keeps; a line with more says how many were left out, so that a
/// huge line of junk is answered in time.
pub const MAX_GO_WARNINGS: usize = 20;

/// What `query` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover` → `response true|false`.
    GameOver,
    /// `query p1turn` → `response true|false` (p1 is South).
    P1Turn,
    /// `query result` → `response p1win|p2win|draw|none`.
    Result,
}
