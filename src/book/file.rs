//! The book file: [`MAGIC`], a little-endian `u32` count, then the entries sorted by position,
//! then an FNV-1a checksum of everything before it.
//!
//! An entry is 26 bytes: the position from the side to move's point of view (its six pits in
//! sowing order, the opponent's six, its store, the opponent's store), then a little-endian
//! `i16` score for each of the side to move's pits, in 100 × seeds of final margin, or
//! [`NO_SCORE`] where that pit has no legal move.

use crate::rules::{Move, Position};
use crate::search::net::fnv1a;

/// The first bytes of a book file (and its format's version).
pub const MAGIC: &[u8; 8] = b"KROUBOK1";
/// The score of a pit whose move is not legal.
pub const NO_SCORE: i16 = i16::MIN;
/// Bytes of one entry.
const ENTRY_BYTES: usize = 14 + 12;

/// A position as the book keys it: seen from the side to move.
pub type Key = [u8; 14];

/// The book's key of `position`.
pub fn key(position: &Position) -> Key {
    let us = position.side_to_move();
    let pits = position.pits();
    let mut key = [0u8; 14];
    for (i, pit) in us.pits().chain(us.opponent().pits()).enumerate() {
        key[i] = pits[pit];
    }
    key[12] = position.store(us);
    key[13] = position.store(us.opponent());
    key
}

/// One book position: the score of every legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key.
    pub key: Key,
    /// The score of the move from each of the side to move's pits (first pit first), or
    /// [`NO_SCORE`].
    pub scores: [i16; 6],
}

/// A book: entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `entries` (sorted here; of two entries with one key the later is kept).
    pub fn new(mut entries: Vec<Entry>) -> Book {
        entries.reverse();
        entries.sort_by_key(|e| e.key);
        entries.dedup_by_key(|e| e.key);
        Book { entries }
    }

    /// The entries, sorted by key.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of `position`, if the book has it.
    pub fn entry(&self, position: &Position) -> Option<&Entry> {
        let key = key(position);
        let at = self.entries.binary_search_by_key(&key, |e| e.key).ok()?;
        self.entries.get(at)
    }

    /// Every legal move of `position` in the book with its score, best first.
    pub fn moves(&self, position: &Position) -> Vec<(Move, i32)> {
        let Some(entry) = self.entry(position) else {
            return Vec::new();
        };
        let first = position.side_to_move().first_pit();
        let mut moves: Vec<(Move, i32)> = entry
            .scores
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s != NO_SCORE)
            .filter_map(|(pit, &s)| Some((Move::new(first + pit)?, i32::from(s))))
            .collect();
        moves.sort_by_key(|&(mv, score)| (-score, mv.pit()));
        moves
    }

    /// The moves within `variety` of the best, best first, each with the best score.
    pub fn candidates(&self, position: &Position, variety: i32) -> Vec<(Move, i32)> {
        let moves = self.moves(position);
        let Some(&(_, best)) = moves.first() else {
            return Vec::new();
        };
        moves
            .into_iter()
            .filter(|&(_, s)| s >= best.saturating_sub(variety.max(0)))
            .map(|(mv, _)| (mv, best))
            .collect()
    }

    /// The book as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.key);
            for score in entry.scores {
                bytes.extend_from_slice(&score.to_le_bytes());
            }
        }
        let sum = fnv1a(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Reads a book from a file, or says what is wrong with it (the file is read whole).
    pub fn read(path: &std::path::Path) -> Result<Book, String> {
        let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
        Book::from_bytes(&bytes)
    }

    /// Reads a book file's bytes, or says what is wrong with them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        if bytes.len() < MAGIC.len() + 12 || !bytes.starts_with(MAGIC) {
            return Err("not a Krou book file".to_string());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if u64::from_le_bytes(stored) != fnv1a(body) {
            return Err("checksum mismatch".to_string());
        }
        let count = u32::from_le_bytes([body[8], body[9], body[10], body[11]]) as usize;
        let records = &body[12..];
        if records.len() != count.saturating_mul(ENTRY_BYTES) {
            return Err(format!(
                "{} bytes of entries for {count} entries of {ENTRY_BYTES}",
                records.len()
            ));
        }
        let mut entries = Vec::with_capacity(count);
        for (i, record) in records.chunks_exact(ENTRY_BYTES).enumerate() {
            let mut key = [0u8; 14];
            key.copy_from_slice(&record[..14]);
            if key.iter().map(|&s| u32::from(s)).sum::<u32>() != 48 {
                return Err(format!("entry {i}: its position does not hold 48 seeds"));
            }
            let scores = std::array::from_fn(|p| {
                i16::from_le_bytes([record[14 + 2 * p], record[15 + 2 * p]])
            });
            if let Some(last) = entries.last().map(|e: &Entry| e.key) {
                if last >= key {
                    return Err(format!("entry {i}: not in order"));
                }
            }
            entries.push(Entry { key, scores });
        }
        Ok(Book { entries })
    }
}
