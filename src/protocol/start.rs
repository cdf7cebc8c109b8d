//! The values options start with, from the command line: `krou --option NAME=VALUE`
//! (repeatable). Each is checked as `setoption` checks it, shown as the option's `default` in the
//! `uci` answer, and a client's `setoption` still overrides it.

use super::options::{Change, NO_DIRECTORY, Options};
use super::tablebase::endgame_dir;
use crate::book::Book;
use std::path::PathBuf;
use std::str::FromStr;

/// One checked `NAME=VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartValue(Setting);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Setting {
    /// Any option but `EndgameDatabase`.
    Change(Change),
    /// `EndgameDatabase`: a directory, or `None` for the default tables.
    EndgameDir(Option<PathBuf>),
    /// `BookFile`: a book file (read and checked when given), or `None` for the built-in book.
    BookFile(Option<PathBuf>),
}

impl FromStr for StartValue {
    type Err = String;

    /// Reads `NAME=VALUE` (the value is everything after the first `=`), refusing what
    /// `setoption name NAME value VALUE` would refuse, with the same message.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let Some((name, value)) = text.split_once('=') else {
            return Err(format!(
                "expected NAME=VALUE, such as UCI_Elo=1200, not '{}'",
                text.escape_debug()
            ));
        };
        let name = name.trim();
        if name.eq_ignore_ascii_case("EndgameDatabase") {
            return endgame_dir(Some(value)).map(|dir| StartValue(Setting::EndgameDir(dir)));
        }
        if name.eq_ignore_ascii_case("BookFile") {
            return book_file(value).map(|file| StartValue(Setting::BookFile(file)));
        }
        Options::read(name, Some(value))
            .map(|change| StartValue(Setting::Change(change)))
            .map_err(|e| e.to_string())
    }
}

/// `BookFile`'s value: `None` for the built-in book (`<empty>` or nothing), else a file that
/// reads as a whole Krou book (as `setoption` checks it).
fn book_file(value: &str) -> Result<Option<PathBuf>, String> {
    let value = value.trim();
    if value.is_empty() || value == NO_DIRECTORY {
        return Ok(None);
    }
    let path = PathBuf::from(value);
    Book::read(&path)
        .map(|_| Some(path))
        .map_err(|e| format!("cannot use the book file '{}': {e}", value.escape_debug()))
}

/// What a session starts with: the option values, the `EndgameDatabase` directory and the
/// `BookFile`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartOptions {
    /// The options' values.
    pub options: Options,
    /// The `EndgameDatabase` directory, if one was given.
    pub endgame_dir: Option<PathBuf>,
    /// The `BookFile`, if one was given.
    pub book_file: Option<PathBuf>,
}

impl StartOptions {
    /// The built-in defaults with `values` applied in order (a later value of an option
    /// replaces an earlier one).
    pub fn from_values(values: &[StartValue]) -> StartOptions {
        let mut start = StartOptions::default();
        for StartValue(setting) in values {
            match setting {
                Setting::Change(change) => start.options.apply(*change),
                Setting::EndgameDir(dir) => start.endgame_dir.clone_from(dir),
                Setting::BookFile(file) => start.book_file.clone_from(file),
            }
        }
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(values: &[&str]) -> Result<StartOptions, String> {
        let values: Vec<StartValue> = values.iter().map(|v| v.parse()).collect::<Result<_, _>>()?;
        Ok(StartOptions::from_values(&values))
    }

    #[test]
    fn a_start_value_becomes_the_default_shown() {
        let start = start(&["UCI_LimitStrength=true", "uci_elo=1234"]).expect("valid");
        assert!(start.options.limit_strength);
        assert_eq!(start.options.elo, 1234);
        let lines = start.options.describe(None, None);
        assert!(lines.contains(&"name UCI_LimitStrength type check default true".to_string()));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("name UCI_Elo type spin default 1234 min"))
        );
    }

    #[test]
    fn a_later_value_replaces_an_earlier_one() {
        let start = start(&["Hash=64", "Hash=32", "GrandSlam=forbidden"]).expect("valid");
        assert_eq!(start.options.settings.hash_mib, 32);
        assert_eq!(start.options.grand_slam, crate::rules::GrandSlam::Forbidden);
    }

    #[test]
    fn a_wrong_value_is_refused_with_the_range() {
        let error = start(&["UCI_Elo=5"]).expect_err("out of range");
        assert_eq!(
            error,
            format!(
                "option UCI_Elo must be a whole number from {} to {}, not '5'",
                super::super::options::MIN_ELO,
                super::super::options::MAX_ELO
            )
        );
    }

    #[test]
    fn a_wrong_name_or_form_is_refused() {
        let unknown = start(&["Colour=red"]).expect_err("unknown");
        assert!(unknown.starts_with("unknown option 'Colour' (options: Hash,"));
        let bare = start(&["UCI_Elo"]).expect_err("no value");
        assert!(bare.starts_with("expected NAME=VALUE"));
        let directory = start(&["EndgameDatabase=/nonexistent/krou"]).expect_err("no directory");
        assert!(directory.contains("is not a directory"));
        let book = start(&["BookFile=/nonexistent/krou.book"]).expect_err("no book");
        assert!(book.starts_with("cannot use the book file '/nonexistent/krou.book'"));
    }

    #[test]
    fn an_endgame_directory_is_kept() {
        let dir = std::env::temp_dir();
        let start = start(&[&format!("EndgameDatabase={}", dir.display())]).expect("valid");
        assert_eq!(start.endgame_dir.as_deref(), Some(dir.as_path()));
        let shown = format!("name EndgameDatabase type string default {}", dir.display());
        assert!(start.options.describe(Some(&dir), None).contains(&shown));
    }
}
