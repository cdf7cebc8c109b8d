//! One training position and what is known of its value, as an 18-byte record.
//!
//! A record holds the position from the side to move's point of view (its pits first), so a
//! record never names South or North: `own` pits, `other` pits, the two stores, then the
//! labels. Files of records begin with [`MAGIC`].

use crate::rules::{Position, Side};

/// The first bytes of a file of samples (and its format's version).
pub const MAGIC: &[u8; 8] = b"KROUSMP1";
/// Bytes of one record.
pub const RECORD_BYTES: usize = 18;

/// A position with its labels, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Seeds in the side to move's pits (a–f or A–F, in sowing order), then the opponent's.
    pub pits: [u8; 12],
    /// The side to move's store, then the opponent's.
    pub stores: [u8; 2],
    /// The final seed margin of the game for the side to move.
    pub result: i8,
    /// The exact margin the side to move will still gain from here, when the endgame tables
    /// settle it.
    pub exact: Option<i8>,
    /// The search's score when the move was chosen (100 × seeds), unless it was proven or no
    /// search was made.
    pub searched: Option<i16>,
}

impl Sample {
    /// The sample of `position` with no labels yet (`result` 0).
    pub fn of(position: &Position) -> Sample {
        let us = position.side_to_move();
        let all = position.pits();
        let mut pits = [0u8; 12];
        for (i, pit) in us.pits().chain(us.opponent().pits()).enumerate() {
            pits[i] = all[pit];
        }
        Sample {
            pits,
            stores: [position.store(us), position.store(us.opponent())],
            result: 0,
            exact: None,
            searched: None,
        }
    }

    /// The position, with the side to move as South.
    pub fn position(&self) -> Option<Position> {
        Position::new(self.pits, self.stores, Side::South)
    }

    /// Store of the side to move minus the opponent's.
    pub fn store_margin(&self) -> i32 {
        i32::from(self.stores[0]) - i32::from(self.stores[1])
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[..12].copy_from_slice(&self.pits);
        bytes[12..14].copy_from_slice(&self.stores);
        bytes[14] = self.result as u8;
        bytes[15] = self.exact.map_or(u8::MAX, |v| (i16::from(v) + 48) as u8);
        let searched = self.searched.unwrap_or(i16::MIN);
        bytes[16..18].copy_from_slice(&searched.to_le_bytes());
        bytes
    }

    /// Reads a record, or says what is wrong with it.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Sample, String> {
        let mut pits = [0u8; 12];
        pits.copy_from_slice(&bytes[..12]);
        let stores = [bytes[12], bytes[13]];
        let total: u32 = pits.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        if total != 48 {
            return Err(format!("{total} seeds instead of 48"));
        }
        let exact = match bytes[15] {
            u8::MAX => None,
            code @ 0..=96 => Some((i16::from(code) - 48) as i8),
            code => return Err(format!("exact value code {code} out of range")),
        };
        let searched = i16::from_le_bytes([bytes[16], bytes[17]]);
        Ok(Sample {
            pits,
            stores,
            result: bytes[14] as i8,
            exact,
            searched: (searched != i16::MIN).then_some(searched),
        })
    }
}

/// Writes `samples` to `path` as a file of records (through a temporary file renamed at the
/// end, so that a file is either whole or absent).
pub fn write_file(path: &std::path::Path, samples: &[Sample]) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + samples.len() * RECORD_BYTES);
    bytes.extend_from_slice(MAGIC);
    for sample in samples {
        bytes.extend_from_slice(&sample.to_bytes());
    }
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(partial, path)
}

/// Reads a file of records, naming the file and the record if one is wrong.
pub fn read_file(path: &std::path::Path) -> Result<Vec<Sample>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) else {
        return Err(format!("{}: not a file of Krou samples", path.display()));
    };
    if body.len() % RECORD_BYTES != 0 {
        return Err(format!(
            "{}: {} bytes after the header, not a whole number of records",
            path.display(),
            body.len()
        ));
    }
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let record: &[u8; RECORD_BYTES] = chunk.try_into().map_err(|_| "short record")?;
            Sample::from_bytes(record).map_err(|e| format!("{}: record {i}: {e}", path.display()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let position: Position = "1-0-3-5-12-2-4-0-0-6-3-2-6-4-N"
            .parse()
            .expect("valid diagram");
        let mut sample = Sample::of(&position);
        assert_eq!(sample.pits, [4, 0, 0, 6, 3, 2, 1, 0, 3, 5, 12, 2]);
        assert_eq!(sample.stores, [4, 6]);
        sample.result = -7;
        sample.exact = Some(-3);
        sample.searched = Some(-250);
        assert_eq!(Sample::from_bytes(&sample.to_bytes()), Ok(sample));
        let none = Sample::of(&Position::start());
        assert_eq!(Sample::from_bytes(&none.to_bytes()), Ok(none));
    }

    #[test]
    fn a_record_without_48_seeds_is_refused() {
        let mut bytes = Sample::of(&Position::start()).to_bytes();
        bytes[0] += 1;
        assert!(Sample::from_bytes(&bytes).is_err());
    }
}
