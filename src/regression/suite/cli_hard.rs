//! `krou suite make hard`: its arguments, the file it writes as it goes, and resuming it.
//!
//! The file grows batch by batch: the kept entries, then `# hard N seeds: B boards` (the boards
//! of seed count `N` judged so far). A stopped run reads the file back and goes on from each
//! seed count's last such line. When the run ends, the file is rewritten with the entries in
//! order and named; without those lines when every seed count is full, with each count's last
//! one when some count reached `--max-boards`, so that a larger one goes on from there. Ids are
//! given again at each end, so those of a file that is resumed may change.

use super::cli_make::{header, load_tables, seeds_count};
use super::entry::Entry;
use super::judge::Result as Outcome;
use super::make_hard::{self, Progress};
use crate::egdb::MAX_SEEDS;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// `krou suite make hard`.
#[derive(clap::Args, Debug)]
pub struct HardArgs {
    /// The suite file to write; an unfinished one is resumed.
    #[arg(long, value_name = "FILE")]
    pub(super) out: PathBuf,
    /// The endgame table directory that proves the answers (0 to at least --to seeds).
    #[arg(long, value_name = "DIR")]
    pub(super) dir: Option<PathBuf>,
    /// The generator's seed.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// The smallest seed count.
    #[arg(long, default_value_t = 21)]
    pub(super) from: u8,
    /// The largest seed count (at most the largest table in DIR).
    #[arg(long, default_value_t = 26)]
    pub(super) to: u8,
    /// Positions per seed count (won and drawn ones with one, two, or three or more right
    /// moves: six kinds, none more than half).
    #[arg(long, default_value_t = 180)]
    pub(super) per_count: usize,
    /// Another number of positions for one seed count, `SEEDS:N` (repeatable).
    #[arg(long = "count", value_name = "SEEDS:N", value_parser = seeds_count)]
    pub(super) counts: Vec<(u8, usize)>,
    /// The largest table the engine's search may probe (a fresh install's default set).
    #[arg(long, default_value_t = 20)]
    pub(super) engine_seeds: u8,
    /// Nodes the engine's search spends on a position; it must play a wrong move in them.
    #[arg(long, default_value_t = 10_000)]
    pub(super) nodes: u64,
    /// Nodes of a second search, made only where the first played a wrong move, that must play
    /// a wrong move too: keeps positions a timed search finds hard at a small cost.
    #[arg(long, value_name = "NODES")]
    pub(super) confirm_nodes: Option<u64>,
    /// The most boards tried per seed count.
    #[arg(long, default_value_t = 20_000_000)]
    pub(super) max_boards: usize,
    /// Boards judged at once (a stopped run resumes at the start of its batch).
    #[arg(long, default_value_t = 4096)]
    pub(super) batch: usize,
    /// Threads (default: every core).
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// Boards from games of Krou against itself at this many nodes a move (its positions of
    /// each seed count) instead of seeds dropped at random.
    #[arg(long, value_name = "NODES")]
    pub(super) game_nodes: Option<u64>,
}

/// The progress line written after a batch.
const PROGRESS: &str = "# hard ";

pub(super) fn make_hard(args: &HardArgs) -> Result<ExitCode, String> {
    if args.from > args.to || args.engine_seeds >= args.from {
        return Err(format!(
            "--from {} --to {} --engine-seeds {}: the positions must have more seeds than the engine's tables",
            args.from, args.to, args.engine_seeds
        ));
    }
    let tables = load_tables(args.dir.as_deref(), args.to.min(MAX_SEEDS))?;
    let max = tables.max_seeds().unwrap_or(0);
    if args.to > max {
        return Err(format!("--to {}: the tables hold 0-{max} seeds", args.to));
    }
    let counts: Vec<(u8, usize)> = (args.from..=args.to)
        .map(|n| {
            let custom = args.counts.iter().rev().find(|(s, _)| *s == n);
            (n, custom.map_or(args.per_count, |c| c.1))
        })
        .collect();
    let earlier = read_back(&args.out)?;
    let mut progress: Vec<Progress> = counts
        .iter()
        .map(|&(seeds, _)| earlier.progress(seeds))
        .collect();
    let plan = make_hard::Plan {
        seed: args.seed,
        counts: counts.clone(),
        engine_seeds: args.engine_seeds,
        nodes: args.nodes,
        confirm_nodes: args.confirm_nodes,
        max_boards: args.max_boards,
        batch: args.batch,
        threads: args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        boards: args
            .game_nodes
            .map_or(make_hard::Boards::Random, make_hard::Boards::Games),
    };
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&args.out)
        .map_err(|e| format!("cannot write --out {}: {e}", args.out.display()))?;
    if earlier.entries.is_empty() && earlier.progress.is_empty() {
        file.write_all(file_header().as_bytes())
            .map_err(|e| format!("cannot write --out {}: {e}", args.out.display()))?;
    }
    let mut failed = None;
    make_hard::make(
        &Arc::new(tables),
        &plan,
        &mut progress,
        &mut |seeds, kept, done| {
            let mut text: String = kept.iter().map(|(e, _)| format!("{e}\n")).collect();
            if !kept.is_empty() || done.boards % (16 * plan.batch.max(1)) == 0 {
                text += &format!("{PROGRESS}{seeds} seeds: {} boards\n", done.boards);
            }
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                failed.get_or_insert(e.to_string());
            }
        },
        &mut |line| eprintln!("{line}"),
    );
    // Where each seed count stopped, so that a run stopped by --max-boards resumes there.
    let ends: String = counts
        .iter()
        .zip(&progress)
        .map(|((seeds, _), p)| format!("{PROGRESS}{seeds} seeds: {} boards\n", p.boards))
        .collect();
    if let Err(e) = file.write_all(ends.as_bytes()) {
        failed.get_or_insert(e.to_string());
    }
    if let Some(e) = failed {
        return Err(format!("cannot write --out {}: {e}", args.out.display()));
    }
    drop(file);
    let wanted: usize = counts.iter().map(|c| c.1).sum();
    let finished = read_back(&args.out)?;
    let mut entries = finished.entries;
    entries.sort_by_key(|e| (seeds_of(e), e.category.clone(), kind_of(e)));
    let mut text = file_header();
    let mut numbers = std::collections::HashMap::new();
    let kept = entries.len();
    for mut entry in entries {
        let category = entry.category.clone().unwrap_or_default();
        let k = numbers.entry(category.clone()).or_insert(0);
        *k += 1;
        entry.id = Some(format!("hard {category} {k:03}"));
        text += &format!("{entry}\n");
    }
    // Where seed counts outside this run stopped stays in the file, for their own resumption.
    // (Collected into a map, a count's last line wins.)
    let others: std::collections::BTreeMap<u8, usize> = finished
        .progress
        .iter()
        .copied()
        .filter(|(seeds, _)| counts.iter().all(|c| c.0 != *seeds))
        .collect();
    for (seeds, boards) in others {
        text += &format!("{PROGRESS}{seeds} seeds: {boards} boards\n");
    }
    // Full when every seed count of this run has its number, whatever else the file holds.
    let full = counts
        .iter()
        .zip(&progress)
        .all(|((_, wanted), p)| p.kept.iter().sum::<usize>() >= *wanted);
    if full {
        super::files::write(&args.out, "--out", &text)?;
        eprintln!("{kept} positions written to {}", args.out.display());
    } else {
        // Written in order all the same, with where each count stopped, so that the file can
        // be used as it is and a larger --max-boards goes on from there.
        text += &ends;
        super::files::write(&args.out, "--out", &text)?;
        eprintln!(
            "{kept} positions written to {}, short of {wanted} for this run (some seed count reached --max-boards)",
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn file_header() -> String {
    header(
        &format!("krou suite make hard {}", super::cli_make::command_line()),
        &[
            "Proven by the endgame tables (the game's result); kept where Krou's search with the",
            "engine's default tables, one thread, at --nodes (and again at --confirm-nodes when",
            "given), plays a move outside bm.",
            "Check: krou suite check FILE --dir <tables to --to seeds>",
        ],
    )
}

/// What an earlier, maybe unfinished, run left in the file.
#[derive(Default)]
struct Earlier {
    entries: Vec<Entry>,
    /// The last progress line's boards, per seed count.
    progress: Vec<(u8, usize)>,
}

impl Earlier {
    fn progress(&self, seeds: u8) -> Progress {
        let mut progress = Progress {
            boards: self
                .progress
                .iter()
                .rev()
                .find(|p| p.0 == seeds)
                .map_or(0, |p| p.1),
            ..Progress::default()
        };
        for entry in self.entries.iter().filter(|e| seeds_of(e) == seeds) {
            if let Some(kind) = kind_of(entry) {
                progress.kept[kind] += 1;
            }
            progress.positions.insert(entry.position);
        }
        progress
    }
}

/// The seeds on an entry's board.
fn seeds_of(entry: &Entry) -> u8 {
    entry.position.seeds_on_board()
}

/// An entry's kind (see [`make_hard::KINDS`]) from its category and its `bm`.
fn kind_of(entry: &Entry) -> Option<usize> {
    let result = match entry.category.as_deref()?.split(' ').next()? {
        "win" => Outcome::Win,
        "draw" => Outcome::Draw,
        _ => return None,
    };
    make_hard::kind(result, entry.best.len())
}

/// Reads an earlier run's file: nothing when it does not exist.
fn read_back(path: &Path) -> Result<Earlier, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(Earlier::default());
    };
    let suite =
        super::parse::parse_text(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
    let progress = text
        .lines()
        .filter_map(|l| l.strip_prefix(PROGRESS))
        .filter_map(|l| {
            let (seeds, rest) = l.split_once(" seeds: ")?;
            let boards = rest.strip_suffix(" boards")?;
            Some((seeds.parse().ok()?, boards.parse().ok()?))
        })
        .collect();
    Ok(Earlier {
        entries: suite.entries.into_iter().map(|(_, e)| e).collect(),
        progress,
    })
}
