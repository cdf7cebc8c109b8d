//! The calendar: the present date and time in UTC, as game records (OGN's `Date`) and test
//! results (JUnit's `timestamp`) write them. No time zones, no clock but the system's.

/// A moment in UTC, to the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcTime {
    /// The year.
    pub year: i64,
    /// The month, 1–12.
    pub month: u32,
    /// The day of the month, 1–31.
    pub day: u32,
    /// Seconds since midnight.
    pub seconds: u32,
}

impl UtcTime {
    /// The moment `secs` seconds after 1970-01-01 00:00:00 UTC.
    pub fn from_unix(secs: u64) -> UtcTime {
        let (year, month, day) = civil_from_days((secs / 86_400) as i64);
        UtcTime {
            year,
            month,
            day,
            seconds: (secs % 86_400) as u32,
        }
    }

    /// `YYYY-MM-DDThh:mm:ss` (ISO 8601, no zone).
    pub fn iso(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year,
            self.month,
            self.day,
            self.seconds / 3600,
            self.seconds / 60 % 60,
            self.seconds % 60
        )
    }
}

/// Now, by the system clock (1970-01-01 if the clock is before it).
pub fn now() -> UtcTime {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    UtcTime::from_unix(secs)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn day_counts_become_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }

    #[test]
    fn moments_read_as_iso_8601() {
        let t = UtcTime::from_unix(20_788 * 86_400 + 3_723);
        assert_eq!(t.iso(), "2026-12-01T01:02:03");
    }
}
