//! The engine's options: their `option` lines, their values, and `setoption` checking.

use super::response::ProvenScore;
use crate::rules::GrandSlam;
use crate::search::Settings;
use std::path::Path;
use std::time::Duration;

/// The largest `Hash` in MiB.
pub const MAX_HASH_MIB: usize = 4096;
/// The most `Threads`.
pub const MAX_THREADS: usize = 64;
/// The largest `MoveOverhead` in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// The default `MoveOverhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// The most `MultiPV` lines: a position has at most six moves.
pub const MAX_MULTI_PV: usize = 6;
/// The largest `BookVariety`, in 100 × seeds.
pub const MAX_BOOK_VARIETY: u64 = 1000;
/// The default `BookVariety`: book moves within a quarter of a seed of the best are played.
pub const DEFAULT_BOOK_VARIETY: u64 = 25;
/// The largest `BookSeed`.
pub const MAX_BOOK_SEED: u64 = (1 << 31) - 1;
/// The largest `PvLength`: longer than any line a search finds.
pub const MAX_PV_LENGTH: usize = 128;
/// The default `PvLength`: the Aualé GUI shows the score after the line, in one row of its
/// window, and a longer line (Krou's reach 40 moves at the GUI's Expert level) hides it.
pub const DEFAULT_PV_LENGTH: usize = 20;
/// The lowest `UCI_Elo`.
pub const MIN_ELO: u32 = crate::search::Strength::MIN_ELO;
/// The highest `UCI_Elo`.
pub const MAX_ELO: u32 = crate::search::Strength::MAX_ELO;
/// The default `UCI_Elo` (used only with `UCI_LimitStrength` on).
pub const DEFAULT_ELO: u32 = 1500;
/// The largest `StrengthSeed`.
pub const MAX_STRENGTH_SEED: u64 = (1 << 31) - 1;

/// The value of every option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Hash` and `Threads`.
    pub settings: Settings,
    /// `MoveOverhead`: time kept back per move for pipe and GUI latency.
    pub move_overhead: Duration,
    /// `Ponder`: whether the GUI may send `go ponder` (informative; `go ponder` always works).
    pub ponder: bool,
    /// `OwnBook`: timed searches in book positions play a book move (see protocol.md).
    pub own_book: bool,
    /// `BookVariety`: book moves within this many hundredths of a seed of the best are
    /// chosen among at random.
    pub book_variety: u64,
    /// `BookSeed`: seeds the choice among book moves; 0 seeds it from the clock.
    pub book_seed: u64,
    /// `GrandSlam`: the grand-slam rule of the game.
    pub grand_slam: GrandSlam,
    /// `MultiPV`: how many best lines a search reports (analysis; play uses the first).
    pub multi_pv: usize,
    /// `ProvenScore`: how `info` lines show a proven result.
    pub proven_score: ProvenScore,
    /// `EndgameBuild`: whether the default endgame tables (0 to 20 seeds) are built in the
    /// background into the default data directory when it lacks them (else only 0 to 12).
    pub endgame_build: bool,
    /// `PvLength`: the most moves an `info` line's `pv` shows.
    pub pv_length: usize,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` names instead of full strength.
    pub limit_strength: bool,
    /// `UCI_Elo`: the level played with `UCI_LimitStrength` on.
    pub elo: u32,
    /// `StrengthSeed`: seeds a limited level's choice of move; 0 seeds it from the clock.
    pub strength_seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            settings: Settings::default(),
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            ponder: false,
            own_book: false,
            book_variety: DEFAULT_BOOK_VARIETY,
            book_seed: 0,
            grand_slam: GrandSlam::default(),
            multi_pv: 1,
            proven_score: ProvenScore::default(),
            endgame_build: true,
            pv_length: DEFAULT_PV_LENGTH,
            limit_strength: false,
            elo: DEFAULT_ELO,
            strength_seed: 0,
        }
    }
}

/// One accepted `setoption`, ready to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// `Hash` in MiB.
    Hash(usize),
    /// `Threads`.
    Threads(usize),
    /// `MoveOverhead`.
    MoveOverhead(Duration),
    /// `Ponder`.
    Ponder(bool),
    /// `OwnBook`.
    OwnBook(bool),
    /// `BookVariety` in 100 × seeds.
    BookVariety(u64),
    /// `BookSeed`.
    BookSeed(u64),
    /// `GrandSlam`.
    GrandSlam(GrandSlam),
    /// `MultiPV`.
    MultiPv(usize),
    /// `ProvenScore`.
    ProvenScore(ProvenScore),
    /// `EndgameBuild`.
    EndgameBuild(bool),
    /// `PvLength`.
    PvLength(usize),
    /// `UCI_LimitStrength`.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(u32),
    /// `StrengthSeed`.
    StrengthSeed(u64),
    /// An option other engines or their GUIs define that asks nothing of Krou's play (one of
    /// [`IGNORED`], by its canonical name): accepted, changes nothing.
    Ignored(&'static str),
}

impl Change {
    /// Whether applying it touches the search's memory or threads (never during a search).
    pub fn needs_idle_search(self) -> bool {
        matches!(self, Change::Hash(_) | Change::Threads(_))
    }
}

/// Why a `setoption` is refused; each variant holds the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    UnknownName(String),
    /// The option needs a value and none was given.
    MissingValue(String),
    /// The value is not one the option takes.
    BadValue(String),
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionError::UnknownName(m)
            | OptionError::MissingValue(m)
            | OptionError::BadValue(m) => f.write_str(m),
        }
    }
}

/// Options that other engines or their GUIs and runners send, accepted without a word because
/// they ask nothing of Krou's play: UCI's informative options (the GUI telling the engine
/// about its mode, its opponent, what it displays) and `EngineTurn` (the Java Oware runner
/// telling an engine its side; Krou reads the side to move from `position`). Options that
/// would change play if they were carried out (`UseLeaves`, …) are not here: they stay
/// unknown, so that nobody believes a setting took effect.
pub const IGNORED: [&str; 6] = [
    "UCI_AnalyseMode",
    "UCI_Opponent",
    "UCI_EngineAbout",
    "UCI_ShowCurrLine",
    "UCI_ShowRefutations",
    "EngineTurn",
];

/// The names, as `uci` lists them.
pub const NAMES: [&str; 17] = [
    "Hash",
    "Threads",
    "MoveOverhead",
    "Ponder",
    "OwnBook",
    "BookFile",
    "BookVariety",
    "BookSeed",
    "GrandSlam",
    "EndgameDatabase",
    "EndgameBuild",
    "MultiPV",
    "ProvenScore",
    "PvLength",
    "UCI_LimitStrength",
    "UCI_Elo",
    "StrengthSeed",
];

/// The `EndgameDatabase` value that means no directory (the built-in tables), and the
/// `BookFile` value that means no file (the book built into Krou).
pub const NO_DIRECTORY: &str = "<empty>";

impl Options {
    /// The `option name …` texts (after `option `), one per option, with these values as the
    /// defaults, `endgame_dir` as `EndgameDatabase`'s and `book_file` as `BookFile`'s (the start
    /// values: built in, or set by `krou --option`).
    pub fn describe(&self, endgame_dir: Option<&Path>, book_file: Option<&Path>) -> Vec<String> {
        let defaults = self;
        let shown =
            |p: Option<&Path>| p.map_or(NO_DIRECTORY.to_string(), |p| p.display().to_string());
        let (directory, file) = (shown(endgame_dir), shown(book_file));
        let rules: Vec<String> = GrandSlam::ALL.iter().map(|r| format!("var {r}")).collect();
        vec![
            format!(
                "name Hash type spin default {} min 1 max {MAX_HASH_MIB}",
                defaults.settings.hash_mib
            ),
            format!(
                "name Threads type spin default {} min 1 max {MAX_THREADS}",
                defaults.settings.threads
            ),
            format!(
                "name MoveOverhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                defaults.move_overhead.as_millis()
            ),
            format!("name Ponder type check default {}", defaults.ponder),
            format!("name OwnBook type check default {}", defaults.own_book),
            format!("name BookFile type string default {file}"),
            format!(
                "name BookVariety type spin default {} min 0 max {MAX_BOOK_VARIETY}",
                defaults.book_variety
            ),
            format!(
                "name BookSeed type spin default {} min 0 max {MAX_BOOK_SEED}",
                defaults.book_seed
            ),
            format!(
                "name GrandSlam type combo default {} {}",
                defaults.grand_slam,
                rules.join(" ")
            ),
            format!("name EndgameDatabase type string default {directory}"),
            format!(
                "name EndgameBuild type check default {}",
                defaults.endgame_build
            ),
            format!(
                "name MultiPV type spin default {} min 1 max {MAX_MULTI_PV}",
                defaults.multi_pv
            ),
            format!(
                "name ProvenScore type combo default {} {}",
                defaults.proven_score,
                ProvenScore::ALL.map(|p| format!("var {p}")).join(" ")
            ),
            format!(
                "name PvLength type spin default {} min 1 max {MAX_PV_LENGTH}",
                defaults.pv_length
            ),
            format!(
                "name UCI_LimitStrength type check default {}",
                defaults.limit_strength
            ),
            format!(
                "name UCI_Elo type spin default {} min {MIN_ELO} max {MAX_ELO}",
                defaults.elo
            ),
            format!(
                "name StrengthSeed type spin default {} min 0 max {MAX_STRENGTH_SEED}",
                defaults.strength_seed
            ),
        ]
    }

    /// Reads `setoption name <name> value <value>` into a change, or says what is wrong.
    /// Names are matched ignoring ASCII case; values are range-checked.
    pub fn read(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        if let Some(ignored) = IGNORED.iter().find(|n| n.eq_ignore_ascii_case(name)) {
            return Ok(Change::Ignored(ignored));
        }
        let Some(canonical) = NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) else {
            return Err(OptionError::UnknownName(format!(
                "unknown option '{}' (options: {})",
                name.escape_debug(),
                NAMES.join(", ")
            )));
        };
        let Some(value) = value else {
            return Err(OptionError::MissingValue(format!(
                "option {canonical} needs a value ('value <v>')"
            )));
        };
        Self::read_value(canonical, value).map_err(OptionError::BadValue)
    }

    fn read_value(canonical: &str, value: &str) -> Result<Change, String> {
        Ok(match canonical {
            "Hash" => Change::Hash(spin(canonical, value, 1, MAX_HASH_MIB as u64)? as usize),
            "Threads" => Change::Threads(spin(canonical, value, 1, MAX_THREADS as u64)? as usize),
            "MoveOverhead" => Change::MoveOverhead(Duration::from_millis(spin(
                canonical,
                value,
                0,
                MAX_MOVE_OVERHEAD_MS,
            )?)),
            "Ponder" => Change::Ponder(check(canonical, value)?),
            "OwnBook" => Change::OwnBook(check(canonical, value)?),
            "EndgameBuild" => Change::EndgameBuild(check(canonical, value)?),
            "BookVariety" => Change::BookVariety(spin(canonical, value, 0, MAX_BOOK_VARIETY)?),
            "BookSeed" => Change::BookSeed(spin(canonical, value, 0, MAX_BOOK_SEED)?),
            "UCI_LimitStrength" => Change::LimitStrength(check(canonical, value)?),
            "UCI_Elo" => {
                Change::Elo(spin(canonical, value, MIN_ELO.into(), MAX_ELO.into())? as u32)
            }
            "StrengthSeed" => Change::StrengthSeed(spin(canonical, value, 0, MAX_STRENGTH_SEED)?),
            "MultiPV" => Change::MultiPv(spin(canonical, value, 1, MAX_MULTI_PV as u64)? as usize),
            "PvLength" => {
                Change::PvLength(spin(canonical, value, 1, MAX_PV_LENGTH as u64)? as usize)
            }
            "ProvenScore" => Change::ProvenScore(value.parse().map_err(|_| {
                format!(
                    "option {canonical} must be {}, not '{}'",
                    ProvenScore::ALL.map(|p| p.to_string()).join(" or "),
                    value.escape_debug()
                )
            })?),
            _ => Change::GrandSlam(
                value
                    .parse()
                    .map_err(|e| format!("option {canonical}: {e}"))?,
            ),
        })
    }

    /// Applies a change read by [`Options::read`].
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::Hash(mib) => self.settings.hash_mib = mib,
            Change::Threads(n) => self.settings.threads = n,
            Change::MoveOverhead(d) => self.move_overhead = d,
            Change::Ponder(on) => self.ponder = on,
            Change::OwnBook(on) => self.own_book = on,
            Change::BookVariety(v) => self.book_variety = v,
            Change::BookSeed(seed) => self.book_seed = seed,
            Change::GrandSlam(rule) => self.grand_slam = rule,
            Change::MultiPv(lines) => self.multi_pv = lines,
            Change::ProvenScore(form) => self.proven_score = form,
            Change::EndgameBuild(on) => self.endgame_build = on,
            Change::PvLength(moves) => self.pv_length = moves,
            Change::LimitStrength(on) => self.limit_strength = on,
            Change::Elo(elo) => self.elo = elo,
            Change::StrengthSeed(seed) => self.strength_seed = seed,
            Change::Ignored(_) => {}
        }
    }
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option {name} must be a whole number from {min} to {max}, not '{}'",
            value.escape_debug()
        )),
    }
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    if value.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(format!(
            "option {name} must be true or false, not '{}'",
            value.escape_debug()
        ))
    }
}
