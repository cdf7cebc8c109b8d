//! Regression testing: what turns real sessions and positions into tests.
//!
//! - [`transcript`]: sessions written down as lines sent and lines expected.
//! - [`replay`]: a transcript replayed against any engine (`krou replay`).
//! - [`record`]: `krou record`, a proxy that writes a live session down as a transcript, or
//!   turns a log into one; [`dialogue`] holds the rules of what is kept and what generalised,
//!   [`logs`] reads `krou match --log-dir` logs and the Aualé GUI's `--debug` output.
//! - [`junit`]: results as JUnit XML, the format CI servers read.
//! - [`suite`]: position suites with best moves and moves to avoid (`krou suite`).
//!
//! Replay, recording and `suite run` drive engines as processes through the protocol; only
//! `suite make` and `suite check` look inside, judging positions by the endgame tables and a
//! shallow search of Krou's own.

pub mod dialogue;
pub mod junit;
pub mod logs;
pub mod record;
pub mod replay;
pub mod suite;
pub mod transcript;
