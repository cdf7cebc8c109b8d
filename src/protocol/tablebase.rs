//! Endgame tables for a session: out of the box, those of the default data directory, and the
//! missing layers of the default set ([`crate::egdb::default_set`]) built there in the
//! background, layer by layer, each used as soon as it is written; or those of the `EndgameDatabase` directory. The
//! session hands the latest ones to the searcher before each search, never during one. Table
//! files are mapped, and checked by reading them through once (0–20 seeds: about 0.1 s):
//! `isready` and searches without a clock wait for the files being opened, at most
//! [`TABLE_FILES_WAIT`](super::session::TABLE_FILES_WAIT) (see [`TableSource::wait_for_files`]),
//! so that the same commands give the same search from the first `go` on whenever the files
//! are read within it.

use super::options::NO_DIRECTORY;
use super::response::{Output, Response};
use crate::egdb::default_set::BUILT_IN_SEEDS;
use crate::egdb::grow::{GrowError, Grown};
use crate::egdb::{MAX_SEEDS, Tables};
use crate::rules::{Game, GrandSlam};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// The tables of the latest request, as far as they are ready.
#[derive(Debug, Default)]
struct Slot {
    /// Numbers the requests; a background job publishes only while its request is the latest.
    request: u64,
    /// The rule, directory and build target of the latest request.
    source: Option<(GrandSlam, Option<PathBuf>, u8)>,
    tables: Option<Arc<Tables>>,
    /// Whether the latest request is still reading table files (before any building).
    reading: bool,
    /// The layer being built (or waited for, from another process) and in which directory.
    building: Option<(u8, PathBuf)>,
}

/// The slot and the signal that the latest request has read its files.
#[derive(Debug, Default)]
struct Shared {
    slot: Mutex<Slot>,
    read_done: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        self.slot.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Marks the files of `request` read (if it is still the latest) and wakes the waiters.
    fn files_read(&self, request: u64) {
        let mut slot = self.lock();
        if slot.request == request {
            slot.reading = false;
        }
        self.read_done.notify_all();
    }
}

/// Marks request `.1`'s files read when dropped.
struct FilesRead<'a>(&'a Shared, u64);

impl Drop for FilesRead<'_> {
    fn drop(&mut self) {
        self.0.files_read(self.1);
    }
}

/// Where a session's endgame tables come from.
#[derive(Debug, Default)]
pub struct TableSource {
    shared: Arc<Shared>,
}

impl TableSource {
    /// Starts getting tables for `rule`, in a background thread: from `dir` when given, else
    /// from the default data directory, building its missing layers up to `build_seeds` (see
    /// [`build_seeds`](crate::egdb::default_set::build_seeds)). Tables of an earlier request are dropped at once. Problems go to
    /// `output` as one `info string error: …` or `warning: …` line. The same request as the
    /// latest changes nothing (a GUI may set every option before every game).
    pub fn request(&self, rule: GrandSlam, dir: Option<&Path>, build_seeds: u8, output: &Output) {
        let source = (rule, dir.map(Path::to_path_buf), build_seeds);
        let request = {
            let mut slot = self.shared.lock();
            if slot.source.as_ref() == Some(&source) {
                return;
            }
            slot.source = Some(source);
            slot.request += 1;
            slot.tables = None;
            slot.reading = true;
            slot.building = None;
            slot.request
        };
        let shared = Arc::clone(&self.shared);
        let (dir, output) = (dir.map(Path::to_path_buf), output.clone());
        let spawned = std::thread::Builder::new()
            .name("endgame tables".to_string())
            .spawn(move || {
                // Marks the files read however the thread ends (a panic included), so that
                // nothing waits for them longer than the thread lives.
                let _read = FilesRead(&shared, request);
                match dir {
                    Some(dir) => load(&shared, request, rule, &dir, build_seeds, &output),
                    None => build(&shared, request, rule, build_seeds, &output),
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start the endgame table thread ({e}); playing without tables");
            self.shared.files_read(request);
        }
    }

    /// Drops the tables and stops the background work (after the layer it is building).
    pub fn drop_tables(&self) {
        let mut slot = self.shared.lock();
        slot.request += 1;
        slot.source = None;
        slot.tables = None;
        slot.reading = false;
        slot.building = None;
        self.shared.read_done.notify_all();
    }

    /// The tables ready now, if any. A layer whose file changed since it was mapped (rewritten,
    /// truncated, replaced) is withdrawn with those above it, with one warning: its codes are
    /// no longer those checked.
    pub fn current(&self) -> Option<Arc<Tables>> {
        let mut slot = self.shared.lock();
        let tables = slot.tables.clone()?;
        let Some(changed) = tables.first_changed() else {
            return Some(tables);
        };
        let kept = Arc::new(tables.truncated(usize::from(changed)));
        log::warn!(
            "endgame table file of {changed} seeds changed while in use; using 0-{} seeds",
            kept.max_seeds()
                .map_or("none".to_string(), |n| n.to_string())
        );
        slot.tables = Some(Arc::clone(&kept));
        Some(kept)
    }

    /// What the tables are now, for diagnostics: `to 14 seeds, building 15 in DIR`,
    /// `none ready`.
    pub fn describe(&self) -> String {
        let slot = self.shared.lock();
        let ready = slot
            .tables
            .as_ref()
            .and_then(|t| t.max_seeds())
            .map_or("none ready".to_string(), |n| format!("to {n} seeds"));
        match &slot.building {
            Some((seeds, dir)) => format!("{ready}, building {seeds} in {}", dir.display()),
            None => ready,
        }
    }

    /// Waits (at most `limit`) until the latest request has read its table files: those of
    /// `EndgameDatabase`, or those a build saved at an earlier start. Never waits for layers
    /// being built. Returns whether the files are read.
    pub fn wait_for_files(&self, limit: Duration) -> bool {
        let slot = self.shared.lock();
        let (slot, _) = self
            .shared
            .read_done
            .wait_timeout_while(slot, limit, |slot| slot.reading)
            .unwrap_or_else(PoisonError::into_inner);
        !slot.reading
    }
}

/// Publishes `tables` if `request` is still the latest; returns whether it is.
fn publish(shared: &Shared, request: u64, tables: Tables) -> bool {
    let mut slot = shared.lock();
    if slot.request != request {
        return false;
    }
    slot.tables = Some(Arc::new(tables));
    true
}

/// Gets the out-of-the-box tables: first whatever the default data directory
/// ([`default_dir`](crate::egdb::default_dir)) holds for `rule` (tables built by `krou egdb build`,
/// or by an earlier start), then the missing layers up to `target` seeds, one at a time, each
/// handed over once it is there: taken from the directory when another engine wrote it, else
/// built and written there ([`crate::egdb::grow`]): the layers up to [`BUILT_IN_SEEDS`] on one
/// thread at nice 19, the others in the idle scheduling class on every core.
/// A directory that cannot take a file gives one warning: the engine goes on with what it has,
/// building only the built-in layers, in memory.
fn build(shared: &Shared, request: u64, rule: GrandSlam, target: u8, output: &Output) {
    let started = std::time::Instant::now();
    let dir = crate::egdb::default_dir();
    let (mut tables, error) = load_publishing(shared, request, rule, &dir);
    if let Some(e) = error {
        log::info!("endgame table cache: {e}; rebuilding from there");
    }
    let published = tables.max_seeds().is_none() || publish(shared, request, tables.clone());
    shared.files_read(request);
    if !published {
        return;
    }
    let mut saving = match std::fs::create_dir_all(&dir) {
        Ok(()) => true,
        Err(e) => {
            unwritable(output, &dir, &e.to_string(), &tables);
            false
        }
    };
    let superseded = || shared.lock().request != request;
    // 0: normal priority, 1: nice 19, 2: the idle class.
    let mut lowered = 0u8;
    while tables.max_seeds().is_none_or(|n| n < target) {
        let seeds = tables.max_seeds().map_or(0, |n| n + 1);
        let background = seeds > BUILT_IN_SEEDS;
        if background && !saving {
            break;
        }
        // The built-in layers at nice 19 (a share of a busy machine still; measured: a first
        // game at st=0.1 lost on time more often with them at the normal priority), the
        // others in the idle class, so a search never waits for their core.
        if lowered < 1 + u8::from(background) {
            lowered = 1 + u8::from(background);
            let set = crate::egdb::mapped::lower_thread_priority(background);
            log::info!(
                "endgame tables: building {seeds}-{target} seeds in {}{}",
                dir.display(),
                match (set, background) {
                    (false, _) => "",
                    (true, false) => " (nice 19)",
                    (true, true) => " in the background (idle priority)",
                }
            );
        }
        set_building(shared, request, Some((seeds, dir.clone())));
        if saving {
            let threads = if background {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            } else {
                1
            };
            let layer_started = std::time::Instant::now();
            match crate::egdb::grow::grow(&dir, &tables, threads, &superseded, &|_| {}) {
                Ok(grown) => {
                    let (layer, how) = match grown {
                        Grown::Found(layer) => (layer, "read"),
                        Grown::Built(layer) => (layer, "built"),
                    };
                    tables.push(layer);
                    if background {
                        crate::egdb::mapped::release_free_memory();
                    }
                    log::info!(
                        "endgame tables: {seeds} seeds {how} in {:.1} s; 0-{seeds} ready",
                        layer_started.elapsed().as_secs_f64()
                    );
                }
                Err(GrowError::Stopped) => return,
                Err(GrowError::Complete) => break,
                Err(GrowError::Unwritable(e, layer)) => {
                    unwritable(output, &dir, &e.error.to_string(), &tables);
                    saving = false;
                    if let Some(layer) = layer {
                        tables.push(*layer);
                    }
                }
            }
        } else {
            tables.build_next(1, &|_| {});
        }
        if !publish(shared, request, tables.clone()) {
            return;
        }
    }
    set_building(shared, request, None);
    log::info!(
        "endgame tables 0-{} seeds ({rule}) ready in {:.1} s",
        tables.max_seeds().unwrap_or(0),
        started.elapsed().as_secs_f64()
    );
}

/// The one warning for a default directory that cannot take table files.
fn unwritable(output: &Output, dir: &Path, error: &str, tables: &Tables) {
    let have = tables.max_seeds().map_or("no tables".to_string(), |n| {
        format!("the tables of 0-{n} seeds")
    });
    output.send(&Response::Warning(format!(
        "endgame tables: cannot write to '{}' ({error}); playing with {have}, \
         the rest of 0-{BUILT_IN_SEEDS} built in memory (set KROU_EGDB_DIR to a writable \
         directory)",
        dir.display().to_string().escape_debug()
    )));
}

/// Records the layer being built, if `request` is still the latest.
fn set_building(shared: &Shared, request: u64, building: Option<(u8, PathBuf)>) {
    let mut slot = shared.lock();
    if slot.request == request {
        slot.building = building;
    }
}

/// Loads the tables in `dir`, handing over each layer from [`BUILT_IN_SEEDS`] on as soon as it
/// is read (the larger layers of a big set take seconds), and stopping when a newer request
/// came.
fn load_publishing(
    shared: &Shared,
    request: u64,
    rule: GrandSlam,
    dir: &Path,
) -> (Tables, Option<crate::egdb::TableFileError>) {
    let started = std::time::Instant::now();
    let loaded = Tables::load_each(dir, rule, MAX_SEEDS, |tables| {
        tables.max_seeds().is_none_or(|n| n < BUILT_IN_SEEDS)
            || publish(shared, request, tables.clone())
    });
    if let Some(n) = loaded.0.max_seeds() {
        log::debug!(
            "endgame tables 0-{n} seeds read from {} in {:.2} s",
            dir.display(),
            started.elapsed().as_secs_f64()
        );
    }
    loaded
}

/// Loads the tables from `dir`; a refused file or no file at all gives one error line, and the
/// engine goes on with the layers below the refused one (or, with none, the built-in tables).
fn load(shared: &Shared, request: u64, rule: GrandSlam, dir: &Path, target: u8, output: &Output) {
    let (tables, error) = load_publishing(shared, request, rule, dir);
    let covered = tables.max_seeds();
    if let Some(e) = error {
        output.send(&Response::Error(format!("EndgameDatabase: {e}")));
    } else if covered.is_none() {
        output.send(&Response::Error(format!(
            "EndgameDatabase: no {rule} table files in '{}'",
            dir.display().to_string().escape_debug()
        )));
    }
    match covered {
        Some(seeds) if seeds >= BUILT_IN_SEEDS => {
            publish(shared, request, tables);
            shared.files_read(request);
        }
        _ => build(shared, request, rule, target.min(BUILT_IN_SEEDS), output),
    }
}

/// The `d` line for the endgame tables' value of the game's position, if they cover it:
/// `endgame table +4 (exact, proven)`, `endgame table [-2, +4] (hint: …)`. The value is the
/// margin the side to move will still gain (stores apart).
pub fn table_line(tables: &Tables, game: &Game) -> Option<String> {
    if tables.rule() != game.rule() {
        return None;
    }
    let probe = tables.probe_game(game)?;
    let kind = if probe.bounds.value().is_some() {
        "exact"
    } else {
        "bounds"
    };
    let proof = if probe.proven {
        "proven"
    } else {
        "hint: earlier positions since the last capture may repeat"
    };
    Some(format!("endgame table {} ({kind}, {proof})", probe.bounds))
}

/// The `d` line for a game that goes on: the tables' value when they cover the position,
/// `endgame table not ready` when the position has few enough seeds for tables still coming,
/// nothing otherwise.
pub fn d_line(tables: Option<&Tables>, game: &Game) -> Option<String> {
    let covered = tables.and_then(Tables::max_seeds).unwrap_or(0);
    if game.position().seeds_on_board() > covered.max(BUILT_IN_SEEDS) {
        return None;
    }
    let line = tables.and_then(|t| table_line(t, game));
    Some(line.unwrap_or_else(|| "endgame table not ready".to_string()))
}

/// The directory an `EndgameDatabase` value names: `None` for `<empty>` or nothing, an error
/// when it is not a directory.
pub fn endgame_dir(value: Option<&str>) -> Result<Option<PathBuf>, String> {
    let dir = value
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != NO_DIRECTORY)
        .map(PathBuf::from);
    match dir {
        Some(dir) if !dir.is_dir() => Err(format!(
            "option EndgameDatabase: '{}' is not a directory; keeping the tables in use",
            dir.display().to_string().escape_debug()
        )),
        dir => Ok(dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;
    use std::io::Write;
    use std::time::{Duration, Instant};

    /// Output kept in memory.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            kept.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn game(diagram: &str) -> Game {
        let position: Position = diagram.parse().expect("valid diagram");
        Game::new(position, GrandSlam::NoCapture)
    }

    /// Waits (at most a minute) until the source's tables cover `seeds` seeds.
    fn wait_for(source: &TableSource, seeds: u8) -> Arc<Tables> {
        let started = Instant::now();
        loop {
            if let Some(t) = source.current().filter(|t| t.max_seeds() >= Some(seeds)) {
                return t;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "tables not ready"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn the_d_line_shows_the_table_value_and_whether_it_is_proven() {
        let tables = Tables::build(GrandSlam::NoCapture, 6, 1);
        let start = game("0-0-0-2-0-1-1-0-1-0-0-0-20-23-N");
        let bounds = tables.probe(start.position()).expect("6 seeds are covered");
        let line = table_line(&tables, &start).expect("covered");
        assert_eq!(line, format!("endgame table {bounds} (exact, proven)"));
        assert!(bounds.value().is_some());
        let mut later = start.clone();
        let quiet = later
            .legal_moves()
            .find(|&mv| later.position().play_unchecked(mv, later.rule()).captured == 0)
            .expect("a quiet move");
        assert!(later.play(quiet).is_ok());
        let hint = table_line(&tables, &later).expect("covered");
        assert!(
            hint.ends_with(", hint: earlier positions since the last capture may repeat)"),
            "{hint}"
        );
        let other = Tables::build(GrandSlam::Forbidden, 6, 1);
        assert_eq!(table_line(&other, &start), None, "tables of another rule");
    }

    #[test]
    fn waiting_for_the_files_ends_when_they_are_read_or_their_thread_ends() {
        let source = TableSource::default();
        assert!(source.wait_for_files(Duration::ZERO), "nothing asked for");
        let request = {
            let mut slot = source.shared.lock();
            slot.request += 1;
            slot.reading = true;
            slot.request
        };
        assert!(!source.wait_for_files(Duration::from_millis(10)));
        let shared = Arc::clone(&source.shared);
        let reader = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            shared.files_read(request);
        });
        assert!(source.wait_for_files(Duration::from_secs(20)));
        reader.join().expect("the reader ends");
        // A thread that dies while reading still lets the waiters go.
        source.shared.lock().reading = true;
        let shared = Arc::clone(&source.shared);
        let dying = std::thread::spawn(move || {
            let _read = FilesRead(&shared, request);
            panic!("a reader that fails");
        });
        assert!(dying.join().is_err());
        assert!(source.wait_for_files(Duration::ZERO));
        // An older request's reader does not end the wait of a newer one.
        let newer = {
            let mut slot = source.shared.lock();
            slot.request += 1;
            slot.reading = true;
            slot.request
        };
        source.shared.files_read(newer - 1);
        assert!(!source.wait_for_files(Duration::from_millis(10)));
        source.drop_tables();
        assert!(
            source.wait_for_files(Duration::ZERO),
            "dropped: nothing to read"
        );
    }

    #[test]
    fn a_directory_without_table_files_gives_one_error_and_the_built_in_tables() {
        let dir = std::env::temp_dir().join(format!("krou-no-tables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let kept = Kept::default();
        let source = TableSource::default();
        source.request(
            GrandSlam::NoCapture,
            Some(&dir),
            BUILT_IN_SEEDS,
            &Output::new(kept.clone()),
        );
        let tables = wait_for(&source, 6);
        assert_eq!(tables.rule(), GrandSlam::NoCapture);
        let text = String::from_utf8(kept.0.lock().map(|k| k.clone()).unwrap_or_default());
        let text = text.expect("text output");
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(text.starts_with("info string error: EndgameDatabase: no no-capture table files"));
        // A newer request drops the older one's tables at once.
        source.request(
            GrandSlam::Forbidden,
            None,
            BUILT_IN_SEEDS,
            &Output::new(kept),
        );
        assert!(
            source
                .current()
                .is_none_or(|t| t.rule() == GrandSlam::Forbidden)
        );
        let forbidden = wait_for(&source, 4);
        assert_eq!(forbidden.rule(), GrandSlam::Forbidden);
        // The same request again keeps the tables (and the build) going.
        source.request(
            GrandSlam::Forbidden,
            None,
            BUILT_IN_SEEDS,
            &Output::new(Kept::default()),
        );
        assert!(source.current().is_some());
        source.drop_tables();
        assert!(source.current().is_none());
        let _ = std::fs::remove_dir(&dir);
    }
}
