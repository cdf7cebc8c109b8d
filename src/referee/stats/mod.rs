//! A match's statistics, all from the first engine's point of view: tallies of wins, draws,
//! losses and pentanomial pairs with Elo, its 95% interval and the likelihood of superiority
//! ([`elo`]), the sequential probability ratio test that stops a decided match ([`sprt`]), and
//! the running totals per pairing ([`standings`]), and the rating list fitted to the results of
//! many players ([`ratings`]).
//!
//! It owns the numbers; the summaries and the report print and draw them.

pub mod elo;
pub mod ratings;
pub mod sprt;
pub mod standings;
