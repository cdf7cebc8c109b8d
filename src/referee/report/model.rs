//! The match as the report sees it, read from a JSON summary (format 2, or the older files
//! without `format`): strict about the fields it reads, tolerant of optional ones being absent.

use super::json::{BadReport, Node, Place};
use crate::referee::stats::sprt::Sprt;
use crate::rules::{Side, TOTAL_SEEDS};
use serde_json::Value;

/// Newest JSON format this reader knows.
pub const FORMAT: u64 = 2;

/// One match (or one shard of it).
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Identifies the match across its shards (`None` in files older than format 2).
    pub match_id: Option<String>,
    /// `(index, count)` of this shard (`--shard K/N`: 1 ≤ K ≤ N), if one shard alone.
    pub shard: Option<(u64, u64)>,
    /// The shards a merged summary holds (`shards_merged`; empty when not merged).
    pub shards_merged: Vec<u64>,
    /// The shards missing from a merged summary (`shards_missing`).
    pub shards_missing: Vec<u64>,
    /// Engine names.
    pub engines: Vec<String>,
    /// Each engine's time control (empty when the file has none: then `tc` holds for all).
    pub engine_tc: Vec<String>,
    /// The match's time control as given.
    pub tc: Option<String>,
    /// The seed.
    pub seed: Option<u64>,
    /// The pairings, in the file's order.
    pub pairings: Vec<Pairing>,
    /// The games, in the file's order.
    pub games: Vec<Game>,
}

/// One pairing: who meets whom, and the SPRT when the match had one.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    /// The engine the statistics are counted for.
    pub first: String,
    /// Its opponent.
    pub second: String,
    /// The SPRT parameters, if `--sprt` was given.
    pub sprt: Option<Sprt>,
}

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// South or North won.
    Side(Side),
    /// Drawn.
    Draw,
}

/// An engine's score as written: centiseeds or mate in N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centiseeds for the side to move.
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

/// One move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// 1-based ply.
    pub ply: u64,
    /// The side that played it.
    pub side: Side,
    /// The move's letter.
    pub text: String,
    /// Whether it belongs to the opening (played by the referee, not an engine).
    pub opening: bool,
    /// Milliseconds the engine took, if measured.
    pub ms: Option<u64>,
    /// The engine's score for the side to move, if reported.
    pub score: Option<Score>,
    /// The engine's depth, if reported.
    pub depth: Option<u64>,
}

/// One game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    /// 1-based game number in the match.
    pub round: u64,
    /// Opening pair within its pairing (`None` in older files).
    pub pair: Option<u64>,
    /// Engine playing South.
    pub south: String,
    /// Engine playing North.
    pub north: String,
    /// The opening.
    pub opening: String,
    /// `25-19`, or `*`.
    pub result: String,
    /// The winner, `None` when unfinished.
    pub winner: Option<Winner>,
    /// Why it ended, in words.
    pub detail: String,
    /// The game record's file name, if written.
    pub record: Option<String>,
    /// The moves (`None` in files older than format 2).
    pub moves: Option<Vec<Move>>,
}

impl Game {
    /// The score of `engine` in this game (1, ½, 0), `None` when unfinished or not its game.
    pub fn score_of(&self, engine: &str) -> Option<f64> {
        let side = if self.south == engine {
            Side::South
        } else if self.north == engine {
            Side::North
        } else {
            return None;
        };
        Some(match self.winner? {
            Winner::Draw => 0.5,
            Winner::Side(s) if s == side => 1.0,
            Winner::Side(_) => 0.0,
        })
    }
}

/// Reads a match from its JSON value; `file` names it in errors.
pub fn read(value: &Value, file: &str) -> Result<Match, BadReport> {
    let root = Node::root(value, file);
    if !value.is_object() {
        return Err(root.error("expected a JSON object (a `krou match --json` file)"));
    }
    root.need("games", |g| g.each(|_| Ok(())))?;
    let games = value["games"].as_array().into_iter().flatten();
    read_parts(value, games.map(|g| Ok(g.clone())), file)
}

/// Reads a match from its fields but `games` (`head`, as [`json::head`] writes them) and its
/// games, one JSON value at a time (as [`game_entry`] makes them); `file` names it in errors,
/// where the `n`-th game is `games[n]`.
///
/// [`json::head`]: crate::referee::records::json::head
/// [`game_entry`]: crate::referee::records::json::game_entry
pub fn read_parts(
    head: &Value,
    games: impl IntoIterator<Item = Result<Value, BadReport>>,
    file: &str,
) -> Result<Match, BadReport> {
    let root = Node::root(head, file);
    if !head.is_object() {
        return Err(root.error("expected a JSON object (a `krou match --json` file)"));
    }
    root.with("format", |format| match format {
        Some(n) if n.count()? > FORMAT => Err(n.error(format!(
            "format {} is newer than this krou reads (up to {FORMAT})",
            n.count()?
        ))),
        Some(n) => n.count().map(|_| ()),
        None => Ok(()),
    })?;
    let engines = root.need("engines", |e| e.each(|n| n.string()))?;
    let mut game_list = Vec::new();
    for (i, value) in games.into_iter().enumerate() {
        game_list.push(read_game(&value?, file, i, &engines)?);
    }
    let pairings = root.need("pairings", |p| p.each(|n| pairing(n, &engines)))?;
    if let Some(i) = game_list
        .iter()
        .position(|g| !pairings.iter().any(|p| belongs(g, &p.first, &p.second)))
    {
        return Err(BadReport {
            file: file.to_string(),
            at: format!("games[{i}]"),
            what: "its players are none of the pairings".into(),
        });
    }
    Ok(Match {
        match_id: root.opt_string("match_id")?,
        shard: root.with("shard", |s| s.map(shard).transpose())?,
        shards_merged: counts(&root, "shards_merged")?,
        shards_missing: counts(&root, "shards_missing")?,
        engine_tc: root.with("engine_tc", |t| {
            t.map_or(Ok(Vec::new()), |t| t.each(|n| n.string()))
        })?,
        tc: root.opt_string("tc")?,
        seed: root.opt_count("seed")?,
        pairings,
        games: game_list,
        engines,
    })
}

/// Whether `game` is one of pairing `(first, second)`'s.
pub fn belongs(game: &Game, first: &str, second: &str) -> bool {
    (game.south == first && game.north == second) || (game.south == second && game.north == first)
}

/// Member `key`, a list of whole numbers, or empty when absent.
fn counts(node: &Node, key: &str) -> Result<Vec<u64>, BadReport> {
    node.with(key, |n| n.map_or(Ok(Vec::new()), |n| n.each(|n| n.count())))
}

/// `{"index": K, "count": N}` with 1 ≤ K ≤ N, as `--shard K/N` writes it.
fn shard(node: Node) -> Result<(u64, u64), BadReport> {
    let index = node.need("index", |n| n.count())?;
    let count = node.need("count", |n| n.count())?;
    if index == 0 || index > count {
        return Err(node.error(format!(
            "shard {index}/{count}: shards count from 1 to their number"
        )));
    }
    Ok((index, count))
}

/// A name that must be one of the engines.
fn engine(node: Node, engines: &[String]) -> Result<String, BadReport> {
    let name = node.string()?;
    if !engines.contains(&name) {
        return Err(node.error(format!("\"{name}\" is not one of the engines")));
    }
    Ok(name)
}

fn pairing(node: Node, engines: &[String]) -> Result<Pairing, BadReport> {
    Ok(Pairing {
        first: node.need("first", |n| engine(n, engines))?,
        second: node.need("second", |n| engine(n, engines))?,
        sprt: node.with("sprt", |s| s.map(sprt).transpose())?,
    })
}

fn sprt(node: Node) -> Result<Sprt, BadReport> {
    let get = |key| node.need(key, |n| n.number());
    let text = format!(
        "elo0={} elo1={} alpha={} beta={}",
        get("elo0")?,
        get("elo1")?,
        get("alpha")?,
        get("beta")?
    );
    text.parse().map_err(|e| node.error(format!("{e}")))
}

/// Reads the `index`-th game entry of `file` (`games[index]` in errors), whose players must be
/// among `engines`: the same checks for a report and for `krou match merge`.
pub fn read_game(
    value: &Value,
    file: &str,
    index: usize,
    engines: &[String],
) -> Result<Game, BadReport> {
    let list = Place::Key(&Place::Root, "games");
    let place = Place::Index(&list, index);
    game(Node::at(value, file, &place), engines)
}

fn game(node: Node, engines: &[String]) -> Result<Game, BadReport> {
    let round = node.need("round", |n| n.count())?;
    if round == 0 {
        return node.need("round", |n| Err(n.error("rounds count from 1")));
    }
    let winner = node.with("winner", |w| {
        w.map(|w| match w.string()?.as_str() {
            "south" => Ok(Winner::Side(Side::South)),
            "north" => Ok(Winner::Side(Side::North)),
            "draw" => Ok(Winner::Draw),
            other => Err(w.error(format!(
                "expected \"south\", \"north\", \"draw\" or null, found \"{other}\""
            ))),
        })
        .transpose()
    })?;
    let result = node.opt_string("result")?.unwrap_or_else(|| "*".into());
    check_result(&node, &result, winner)?;
    Ok(Game {
        round,
        pair: node.opt_count("pair")?,
        south: node.need("south", |n| engine(n, engines))?,
        north: node.need("north", |n| engine(n, engines))?,
        opening: node.opt_string("opening")?.unwrap_or_default(),
        result,
        winner,
        detail: node.opt_string("detail")?.unwrap_or_default(),
        record: node.opt_string("record")?,
        moves: node.with("moves", |m| m.map(|m| m.each(one_move)).transpose())?,
    })
}

/// A result is `*` (unfinished, or lost by a fault: any winner) or the seeds in South's and
/// North's stores at the end (`25-23`, at most 48 in all: a game won by a store above 24 ends
/// with seeds on the board), which decide the winner.
fn check_result(node: &Node, result: &str, winner: Option<Winner>) -> Result<(), BadReport> {
    if result == "*" {
        return Ok(());
    }
    let seeds = result
        .split_once('-')
        .filter(|(south, north)| [south, north].iter().all(|n| is_count(n)))
        .and_then(|(south, north)| Some((south.parse::<u8>().ok()?, north.parse::<u8>().ok()?)))
        .filter(|&(south, north)| u16::from(south) + u16::from(north) <= u16::from(TOTAL_SEEDS));
    let Some((south, north)) = seeds else {
        return node.need("result", |n| {
            Err(n.error(format!(
                "expected \"*\" or the seeds of South and North, at most {TOTAL_SEEDS} in \
                 all (\"25-23\"), found \"{result}\""
            )))
        });
    };
    let decided = match south.cmp(&north) {
        std::cmp::Ordering::Greater => Winner::Side(Side::South),
        std::cmp::Ordering::Less => Winner::Side(Side::North),
        std::cmp::Ordering::Equal => Winner::Draw,
    };
    if winner == Some(decided) {
        return Ok(());
    }
    let name = |w: Option<Winner>| match w {
        Some(Winner::Side(Side::South)) => "\"south\"",
        Some(Winner::Side(Side::North)) => "\"north\"",
        Some(Winner::Draw) => "\"draw\"",
        None => "null",
    };
    node.with("winner", |w| {
        let what = format!(
            "the result {result} makes the winner {}, not {}",
            name(Some(decided)),
            name(winner)
        );
        Err(w.map_or_else(|| node.error(what.clone()), |w| w.error(what.clone())))
    })
}

/// Whether `text` is a count as the referee writes one: one to two ASCII digits.
fn is_count(text: &str) -> bool {
    (1..=2).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())
}

fn side(node: Node) -> Result<Side, BadReport> {
    match node.string()?.as_str() {
        "south" => Ok(Side::South),
        "north" => Ok(Side::North),
        other => Err(node.error(format!(
            "expected \"south\" or \"north\", found \"{other}\""
        ))),
    }
}

fn score(node: Node) -> Result<Score, BadReport> {
    if let Some(cp) = node.with("cp", |n| n.map(|n| n.int()).transpose())? {
        return Ok(Score::Cp(cp));
    }
    if let Some(mate) = node.with("mate", |n| n.map(|n| n.int()).transpose())? {
        return Ok(Score::Mate(mate));
    }
    Err(node.error("expected {\"cp\": N} or {\"mate\": N}"))
}

fn one_move(node: Node) -> Result<Move, BadReport> {
    Ok(Move {
        ply: node.need("ply", |n| n.count())?,
        side: node.need("side", side)?,
        text: node.need("move", |n| n.string())?,
        opening: node.with("opening", |n| n.map_or(Ok(false), |n| n.boolean()))?,
        ms: node.opt_count("ms")?,
        score: node.with("score", |n| n.map(score).transpose())?,
        depth: node.opt_count("depth")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn minimal() -> Value {
        json!({
            "engines": ["a", "b"],
            "pairings": [{ "first": "a", "second": "b", "sprt": null }],
            "games": [{ "round": 1, "south": "a", "north": "b", "winner": "south" }],
        })
    }

    #[test]
    fn an_older_file_without_moves_reads_with_the_optional_fields_empty() {
        let m = read(&minimal(), "old.json").expect("readable");
        assert_eq!(m.match_id, None);
        assert_eq!(m.games[0].moves, None);
        assert_eq!(m.games[0].pair, None);
        assert_eq!(m.games[0].score_of("a"), Some(1.0));
        assert_eq!(m.games[0].score_of("b"), Some(0.0));
    }

    #[test]
    fn malformed_fields_are_refused_with_where_and_what() {
        let cases = [
            ("/games/0/winner", json!("both"), "games[0].winner"),
            ("/games/0/south", json!("c"), "games[0].south"),
            ("/games/0/round", json!(-1), "games[0].round"),
            (
                "/pairings/0/sprt",
                json!({ "elo0": 5, "elo1": 0, "alpha": 0.05, "beta": 0.05 }),
                "pairings[0].sprt",
            ),
            (
                "/games/0/moves",
                json!([{ "ply": 1, "side": "east", "move": "A" }]),
                "games[0].moves[0].side",
            ),
            (
                "/games/0/moves",
                json!([{ "ply": 1, "side": "south", "move": "A", "score": { "cp": "x" } }]),
                "games[0].moves[0].score.cp",
            ),
            ("/format", json!(3), "format"),
        ];
        for (pointer, bad, at) in cases {
            let mut value = minimal();
            let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
            let slot = value.pointer_mut(parent).expect("the parent exists");
            slot[key] = bad;
            let error = read(&value, "x.json").expect_err(pointer);
            assert_eq!(error.at, at, "{error}");
        }
        let error = read(&json!([1]), "x.json").expect_err("not an object");
        assert!(
            error.to_string().contains("expected a JSON object"),
            "{error}"
        );
    }
}
