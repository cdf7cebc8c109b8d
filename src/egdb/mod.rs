//! Endgame tables: the value of every position with few seeds on the board.
//!
//! # What a table stores
//! For every board of `n` seeds (seen from the side to move, see [`index`]) and a grand-slam
//! rule, one byte: proven bounds `lo <= V <= hi` on `V`, the final seed margin the side to move
//! will still gain from here on (its captures plus the seeds on its side when the game ends by
//! repetition or a lack of moves, minus the opponent's). Stores never enter `V`; the game's end
//! by a store above 24 only cuts a line short without changing who is ahead, so the sign of
//! `store difference + V` is the result.
//!
//! The bounds are what each side can *force*: reach a capture or the game's end in finitely many
//! moves without depending on a repetition (see [`build`](self::build) for the proof). They hold
//! under the real rule — the first repetition ends the game, each side takes its own seeds —
//! for a game whose history starts at the probed position (or right after a capture). Where
//! `lo = hi` the value is exact (the byte stores it); where `lo < hi` best play loops, and the
//! byte stores an enclosing interval (see [`bounds`]) and never a guessed loop value. The engine
//! claims a proven result only from an exact value or from a bound that alone settles it, and
//! only where the bounds are proven ([`Probe::proven`]); elsewhere it treats them as a hint and
//! searches with the real history.
//!
//! # API
//! [`Tables::load`] (files in a directory), [`Tables::build`] (in memory),
//! [`Tables::probe`] / [`Tables::probe_game`], [`Tables::moves`] (each move's bounds, best
//! first), and the `krou egdb` command line ([`cli`]).

pub mod board;
pub mod bounds;
pub mod build;
pub mod cli;
pub mod default_set;
pub mod file;
pub mod grow;

pub mod index;
pub mod layer;
pub mod mapped;
pub mod progress;
mod tables;

pub use bounds::Bounds;
pub use build::Progress;
pub use cli::{EgdbCommand, default_dir, run};
pub use file::{FileError, TableFileError};
pub use index::MAX_SEEDS;
pub use layer::Layer;
pub use tables::{MoveBounds, Probe, Tables};
