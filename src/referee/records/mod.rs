//! What a match leaves behind, and reading it back: the record of one game ([`record`]), OGN
//! game records written and read back against the rules ([`ogn`], [`ogn_read`]), the text
//! summary ([`summary`]) and the JSON summary ([`json`]), one shard's JSON summary as the merge
//! streams it ([`shard_file`]), `krou match merge` that combines shards ([`merge`]), `krou match ratings` that fits a rating
//! list to any summaries ([`ratings`], the list itself in [`rating_list`]), and the
//! checks on output files made before any work ([`outputs`]).
//!
//! It owns the formats of the files a match writes; the figures in them come from
//! [`stats`](super::stats), and the HTML page drawn from them is [`report`](super::report)'s.

pub mod json;
pub mod merge;
pub mod ogn;
pub mod ogn_read;
pub mod outputs;
pub mod rating_list;
pub mod ratings;
pub mod record;
pub mod shard_file;
pub mod summary;
