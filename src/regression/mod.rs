//! Regression testing: what turns real sessions and positions into tests.
//!
//! - [`transcript`]: sessions written down as lines sent and lines expected.
//! - [`replay`]: a transcript replayed against any engine (`krou replay`).
//! - [`junit`]: results as JUnit XML, the format CI servers read.
//! - [`suite`]: position suites with best moves and moves to avoid (`krou suite`).
//!
//! Everything here drives engines as processes through the protocol; nothing here searches.

pub mod junit;
pub mod replay;
pub mod suite;
pub mod transcript;
