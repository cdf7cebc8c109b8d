//! The players of a match and how they misbehave: what `--engine` describes ([`spec`]), the
//! engine processes ([`process`]: spawned, read on a thread with bounded lines, killed on exit)
//! and the protocol client that talks to them ([`engine`], with what they say of their search,
//! [`info`]), the built-in players `random` and `greedy` ([`builtin`]), one [`player`] in a game
//! whichever it is, and the named faults by which a player loses ([`fault`]).
//!
//! It owns everything that knows an engine is a process speaking the protocol; the rest of the
//! referee sees a [`player::Player`] that moves or fails with a [`fault::Stop`].

pub mod builtin;
pub mod engine;
pub mod fault;
pub mod info;
pub mod player;
pub mod process;
pub mod spec;
