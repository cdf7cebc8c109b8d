//! Reading JSON with a path to every value, so that a malformed file is refused with where and
//! what: `summary.json: games[3].moves[7].ms: expected a whole number ≥ 0, found "12"`.

use serde_json::Value;
use std::fmt;

/// A match JSON file that cannot be reported on: which file, where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadReport {
    /// The file (or `the match` for a value handed over in memory).
    pub file: String,
    /// Where in the JSON value: `games[3].moves[7].ms`, or empty for the whole file.
    pub at: String,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for BadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}: {}", self.file, self.what)
        } else {
            write!(f, "{}: {}: {}", self.file, self.at, self.what)
        }
    }
}

impl std::error::Error for BadReport {}

/// A JSON value and where it was found.
#[derive(Clone, Copy)]
pub struct Node<'a> {
    /// The value.
    pub value: &'a Value,
    file: &'a str,
    path: &'a Place<'a>,
}

/// A path into a JSON value, built as the reader descends (only turned into text for errors).
pub enum Place<'a> {
    /// The whole value.
    Root,
    /// A member of an object.
    Key(&'a Place<'a>, &'a str),
    /// An element of an array.
    Index(&'a Place<'a>, usize),
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Root => Ok(()),
            Place::Key(Place::Root, key) => f.write_str(key),
            Place::Key(parent, key) => write!(f, "{parent}.{key}"),
            Place::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A short description of a value for error messages: its type, and the value when short.
fn describe(value: &Value) -> String {
    let text = value.to_string();
    match value {
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
        _ if text.chars().count() > 40 => format!("{}…", text.chars().take(40).collect::<String>()),
        _ => text,
    }
}

impl<'a> Node<'a> {
    /// The root of `value`, read from `file`.
    pub fn root(value: &'a Value, file: &'a str) -> Node<'a> {
        Node {
            value,
            file,
            path: &Place::Root,
        }
    }

    /// `value`, read from `file`, found at `path`.
    pub fn at(value: &'a Value, file: &'a str, path: &'a Place<'a>) -> Node<'a> {
        Node { value, file, path }
    }

    /// An error at this node.
    pub fn error(&self, what: impl Into<String>) -> BadReport {
        BadReport {
            file: self.file.to_string(),
            at: self.path.to_string(),
            what: what.into(),
        }
    }

    fn expected(&self, what: &str) -> BadReport {
        self.error(format!("expected {what}, found {}", describe(self.value)))
    }

    /// Calls `f` with member `key` (`None` when missing or null).
    pub fn with<T>(
        &self,
        key: &str,
        f: impl FnOnce(Option<Node>) -> Result<T, BadReport>,
    ) -> Result<T, BadReport> {
        let path = Place::Key(self.path, key);
        let member = self.value.get(key).filter(|v| !v.is_null());
        f(member.map(|value| Node {
            value,
            file: self.file,
            path: &path,
        }))
    }

    /// Calls `f` with member `key`, which must be there.
    pub fn need<T>(
        &self,
        key: &str,
        f: impl FnOnce(Node) -> Result<T, BadReport>,
    ) -> Result<T, BadReport> {
        self.with(key, |member| match member {
            Some(node) => f(node),
            None => Err(self.error(format!("missing \"{key}\""))),
        })
    }

    /// Maps `f` over the elements of this array.
    pub fn each<T>(
        &self,
        mut f: impl FnMut(Node) -> Result<T, BadReport>,
    ) -> Result<Vec<T>, BadReport> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.expected("an array"))?;
        items
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let path = Place::Index(self.path, i);
                f(Node {
                    value,
                    file: self.file,
                    path: &path,
                })
            })
            .collect()
    }

    /// This value as a string.
    pub fn string(&self) -> Result<String, BadReport> {
        self.value
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| self.expected("a string"))
    }

    /// This value as a whole number ≥ 0.
    pub fn count(&self) -> Result<u64, BadReport> {
        self.value
            .as_u64()
            .ok_or_else(|| self.expected("a whole number ≥ 0"))
    }

    /// This value as a whole number that fits in an `i32`.
    pub fn int(&self) -> Result<i32, BadReport> {
        self.value
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| self.expected("a whole number"))
    }

    /// This value as a finite number.
    pub fn number(&self) -> Result<f64, BadReport> {
        self.value
            .as_f64()
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.expected("a number"))
    }

    /// This value as a boolean.
    pub fn boolean(&self) -> Result<bool, BadReport> {
        self.value
            .as_bool()
            .ok_or_else(|| self.expected("true or false"))
    }

    /// Member `key` as a string, if there.
    pub fn opt_string(&self, key: &str) -> Result<Option<String>, BadReport> {
        self.with(key, |n| n.map(|n| n.string()).transpose())
    }

    /// Member `key` as a whole number ≥ 0, if there.
    pub fn opt_count(&self, key: &str) -> Result<Option<u64>, BadReport> {
        self.with(key, |n| n.map(|n| n.count()).transpose())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn errors_name_the_file_and_the_path_to_the_bad_value() {
        let value = json!({ "games": [{}, { "moves": [{ "ms": "12" }] }] });
        let root = Node::root(&value, "a.json");
        let error = root
            .need("games", |games| {
                games.each(|game| {
                    game.with("moves", |moves| {
                        let Some(moves) = moves else { return Ok(()) };
                        moves.each(|m| m.need("ms", |ms| ms.count())).map(|_| ())
                    })
                })
            })
            .expect_err("a string is no count");
        assert_eq!(
            error.to_string(),
            "a.json: games[1].moves[0].ms: expected a whole number ≥ 0, found \"12\""
        );
        let missing = root
            .need("engines", |e| e.string())
            .expect_err("no engines");
        assert_eq!(missing.to_string(), "a.json: missing \"engines\"");
    }
}
