//! Krou: an Oware (Abapa) engine.
//!
//! - [`rules`]: the exact rules core (positions, moves, sowing, capture, game end, notation,
//!   hashing, perft). It knows nothing of the layers above it.
//! - [`egdb`]: endgame tables: proven bounds on positions with few seeds, built and probed.
//! - [`book`]: the opening book: its file, its builder, the choice of a book move.
//! - [`learn`]: the evaluation's training pipeline (self-play data, the trainer); not used in play.
//! - [`search`]: finds moves within limits; reports through callbacks, never prints.
//! - [`protocol`]: the Aualé-compatible UCI dialect on stdin/stdout (see `protocol.md`).
//! - [`referee`]: engine-against-engine matches with clocks, statistics and game records.
//! - [`regression`]: regression testing: transcripts (replayed, recorded, read from logs),
//!   position suites, and JUnit XML results for CI servers.
//! - [`cli_docs`]: shell completions and man pages from the binary's command line.
//! - [`calendar`]: the present date and time in UTC, for records and results.
// `unsafe` is denied everywhere but in `egdb::mapped`, which maps table files (it says why).
#![deny(unsafe_code)]

pub mod book;
pub mod calendar;
pub mod cli_docs;
pub mod egdb;
pub mod learn;
pub mod protocol;
pub mod referee;
pub mod regression;
pub mod rules;
pub mod search;
