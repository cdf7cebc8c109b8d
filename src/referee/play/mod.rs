//! Playing a match: which engines meet with which opening in which colours ([`schedule`],
//! [`openings`]), split into shards that run anywhere ([`shard`]) and known by the match
//! identifier ([`identity`]); the clocks ([`tc`]); one game adjudicated by Krou's own rules
//! ([`game`]); and the match loop ([`runner`]) that plays games concurrently, shows their
//! [`progress`] and stops on an SPRT decision or a signal ([`signals`]).
//!
//! It owns the order and the rules of play; engines, records and statistics are the other
//! parts', which the loop calls.

pub mod game;
pub mod identity;
pub mod openings;
pub mod progress;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod signals;
pub mod tc;

// The path of before the layout (`referee::play` was one game), kept for tests.
pub use game::{Fixture, play_game};
