//! Position suites (`krou suite`): chess's EPD test suites in Oware's notation.
//!
//! A suite file holds one position a line: the diagram (`4-4-4-4-4-4-4-4-4-4-4-4-0-0-S`), then
//! operations `opcode operand…;`:
//!
//! | opcode | operands | meaning |
//! |---|---|---|
//! | `bm` | pit letters | best moves: the position is solved when the engine plays one |
//! | `am` | pit letters | moves to avoid: playing one fails the position |
//! | `id` | a string | the position's name (unique in a run; default `file:line`) |
//! | `cat` | a string | the category the run's table counts it under |
//! | `src` | `"proven"` or `"search"` | where the answers come from |
//! | `c0`…`c9` | a string | comments |
//!
//! Strings are quoted (`"…"`, with `\"` and `\\`). `#` starts a comment line (or the rest of a
//! line after its operations); blank lines are skipped. Every move must be legal in the
//! position (under the default grand-slam rule), and a line needs `bm` or `am`.
//! See `docs/suites.md`.
//!
//! - [`entry`]: one position and its operations; [`parse`]: the strict reader;
//! - [`run`] and [`engine`]: an engine process through every position; [`report`]: the table,
//!   result files, changes against an earlier run, JUnit; [`noise`]: intervals and the sign test;
//! - [`judge`]: the tables' verdict on every move ([`result`]: what it is judged by), with
//!   [`recurrence`] for quiet moves whose position could recur; [`make`], [`make_hard`] and [`make_search`]:
//!   generators;
//!   [`check`]: a proven suite against the tables; [`cli`]: the command line, with `make` and
//!   `check` in [`cli_make`] (`make hard` in `cli_hard`); `files`: reading suites, writing results.

pub mod check;
pub mod cli;
mod cli_hard;
pub mod cli_make;
pub mod engine;
pub mod entry;
mod files;
pub mod judge;
pub mod make;
pub mod make_hard;
pub mod make_search;
pub mod noise;
pub mod parse;
pub mod recurrence;
pub mod report;
pub mod result;
pub mod run;

pub use entry::{Entry, Source};
pub use parse::{LineError, SuiteFile, parse_line, parse_text, read_file};
