//! The evaluation's training pipeline: self-play data ([`selfplay`]) stored as fixed-size
//! [`sample`] records, and the trainer ([`train`]) that fits the network of
//! [`crate::search::net`] to it and writes its weights file. Driven by
//! `examples/learn.rs` and `scripts/train-eval`; not used while playing.

pub mod sample;
pub mod selfplay;
pub mod train;
