//! A set of layers, 0 to some seed count, under one grand-slam rule: loading, building and
//! probing.

use super::board::{for_each_child, own_split};
use super::bounds::Bounds;
use super::build::{Progress, build_layer};
use super::file::{
    FORMAT_VERSION, TableFileError, file_name, open_layer, verify_layer, write_layer,
};
use super::index::{MAX_SEEDS, normalised};
use super::layer::Layer;
use crate::rules::{Game, GrandSlam, Move, Position};
use std::path::Path;
use std::sync::Arc;

/// Endgame tables for every seed count from 0 up to [`Tables::max_seeds`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    rule: GrandSlam,
    /// Shared, so that a copy of the tables (one handed to a search) costs no memory.
    layers: Vec<Arc<Layer>>,
}

/// A probe of a position within a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Bounds on the margin the side to move will still gain.
    pub bounds: Bounds,
    /// Whether the bounds are proven for this game: no earlier position since the last capture
    /// is in the history (the position is the game's start or follows a capture). Otherwise
    /// an earlier position could end the game first by repetition, and the bounds are a hint.
    pub proven: bool,
}

/// A legal move and the bounds on what it gains the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// The move.
    pub mv: Move,
    /// Seeds it captures.
    pub captured: u8,
    /// Bounds on the margin of the side to move after playing it (its capture included).
    pub bounds: Bounds,
}

impl Tables {
    /// No tables at all (probes always miss).
    pub fn empty(rule: GrandSlam) -> Tables {
        Tables {
            rule,
            layers: Vec::new(),
        }
    }

    /// The grand-slam rule the tables were built for.
    pub fn rule(&self) -> GrandSlam {
        self.rule
    }

    /// The largest seed count covered, or `None` for no tables.
    pub fn max_seeds(&self) -> Option<u8> {
        self.layers.last().map(|layer| layer.seeds())
    }

    /// The layer of `seeds` seeds, if covered.
    pub fn layer(&self, seeds: u8) -> Option<&Layer> {
        self.layers.get(usize::from(seeds)).map(|layer| &**layer)
    }

    /// The layers, 0 seeds first.
    pub(super) fn lower(&self) -> &[Arc<Layer>] {
        &self.layers
    }

    /// Adds `layer` if it is the next one (one more seed than the largest covered); returns
    /// whether it was.
    pub fn push(&mut self, layer: Layer) -> bool {
        let next = usize::from(layer.seeds()) == self.layers.len() && layer.seeds() <= MAX_SEEDS;
        if next {
            self.layers.push(Arc::new(layer));
        }
        next
    }

    /// The tables up to `seeds` seeds (all of them if they cover fewer).
    pub fn truncated(&self, seeds: usize) -> Tables {
        Tables {
            rule: self.rule,
            layers: self.layers.iter().take(seeds).cloned().collect(),
        }
    }

    /// The first layer whose mapped file changed since it was opened (see
    /// [`super::mapped::MappedFile::changed`]); one `fstat` and one `stat` per mapped layer.
    pub fn first_changed(&self) -> Option<u8> {
        self.layers
            .iter()
            .find(|layer| layer.mapped_file().is_some_and(|f| f.changed()))
            .map(|layer| layer.seeds())
    }

    /// Adds the next layer (one more seed than the largest covered) by building it.
    pub fn build_next(&mut self, threads: usize, report: &(dyn Fn(Progress) + Sync)) {
        let seeds = self.layers.len() as u8;
        let codes = build_layer(seeds, self.rule, &self.layers, threads, report);
        if let Ok(layer) = Layer::new(seeds, codes) {
            self.layers.push(Arc::new(layer));
        }
    }

    /// Tables up to `max_seeds` seeds, built in memory on `threads` threads (12 seeds take a
    /// few seconds).
    pub fn build(rule: GrandSlam, max_seeds: u8, threads: usize) -> Tables {
        let mut tables = Tables::empty(rule);
        while tables.layers.len() <= usize::from(max_seeds.min(MAX_SEEDS)) {
            tables.build_next(threads, &|_| {});
        }
        tables
    }

    /// Loads the layers 0, 1, 2, … from `dir` until one is missing or refused (at most
    /// `max_seeds`). A missing file ends the tables quietly; a refused one is returned beside
    /// the tables loaded below it, which stay usable.
    ///
    /// Each file is mapped, not read ([`super::mapped`]): its length and header are checked at
    /// once, and its codes and checksum by reading it through once before it joins the tables.
    pub fn load(dir: &Path, rule: GrandSlam, max_seeds: u8) -> (Tables, Option<TableFileError>) {
        Tables::load_each(dir, rule, max_seeds, |_| true)
    }

    /// [`Tables::load`], showing the tables to `loaded` after each layer; loading stops early
    /// when it returns `false`.
    pub fn load_each(
        dir: &Path,
        rule: GrandSlam,
        max_seeds: u8,
        mut loaded: impl FnMut(&Tables) -> bool,
    ) -> (Tables, Option<TableFileError>) {
        let mut tables = Tables::empty(rule);
        for seeds in 0..=max_seeds.min(MAX_SEEDS) {
            match open_checked(dir, rule, seeds) {
                Ok((layer, _)) => tables.layers.push(Arc::new(layer)),
                Err(e) => {
                    let missing = matches!(&e.error, super::file::FileError::Io(io)
                        if io.kind() == std::io::ErrorKind::NotFound);
                    return (tables, (!missing).then_some(e));
                }
            }
            if !loaded(&tables) {
                break;
            }
        }
        (tables, None)
    }

    /// Builds (or loads, when a valid file is already there) every layer up to `max_seeds`
    /// into `dir`, one file each, so an interrupted build resumes at the first missing file.
    ///
    /// While a layer is built only the layers a capture can reach (two seeds fewer and below)
    /// are held in memory; the layer just below is read back from its file afterwards. Files
    /// of an older format are rewritten in the current one (where the directory allows).
    pub fn build_into(
        dir: &Path,
        rule: GrandSlam,
        max_seeds: u8,
        threads: usize,
        report: &(dyn Fn(Progress) + Sync),
    ) -> Result<Tables, TableFileError> {
        let mut tables = Tables::empty(rule);
        for seeds in 0..=max_seeds.min(MAX_SEEDS) {
            match open_checked(dir, rule, seeds) {
                Ok((layer, version)) => {
                    if version < FORMAT_VERSION {
                        if let Err(e) = write_layer(dir, rule, &layer) {
                            log::warn!("{e}; keeping the file in format {version}");
                        }
                    }
                    tables.layers.push(Arc::new(layer));
                }
                Err(e) => {
                    if !matches!(&e.error, super::file::FileError::Io(_)) {
                        log::warn!("{e}; building it again");
                    }
                    // No capture takes a single seed: the layer just below is never probed,
                    // so it is dropped (freed) while this one is built.
                    let dropped_below = seeds >= 2 && tables.layers.pop().is_some();
                    let codes = build_layer(seeds, rule, &tables.layers, threads, report);
                    let layer = Layer::new(seeds, codes).map_err(|e| TableFileError {
                        path: dir.join(file_name(rule, seeds)),
                        error: super::file::FileError::Layer(e),
                    })?;
                    write_layer(dir, rule, &layer)?;
                    if dropped_below {
                        tables
                            .layers
                            .push(Arc::new(open_layer(dir, rule, seeds - 1)?.0));
                    }
                    // The file just written, mapped: the codes leave this process's memory.
                    drop(layer);
                    tables
                        .layers
                        .push(Arc::new(open_layer(dir, rule, seeds)?.0));
                }
            }
        }
        Ok(tables)
    }

    /// Bounds on the margin the side to move will still gain from `position`, if the tables
    /// cover its seed count. They are proven for a game starting at `position` (see
    /// [`Tables::probe_game`] for a position inside a game).
    pub fn probe(&self, position: &Position) -> Option<Bounds> {
        let board = normalised(position);
        let layer = self.layer(position.seeds_on_board())?;
        Some(layer.bounds(&board))
    }

    /// Probes the current position of `game`, saying whether the bounds are proven there.
    pub fn probe_game(&self, game: &Game) -> Option<Probe> {
        let bounds = self.probe(game.position())?;
        Some(Probe {
            bounds,
            proven: game.since_last_capture().len() == 1,
        })
    }

    /// Every legal move of `position` with the bounds it gives the side to move, best first
    /// (highest proven lower bound, then highest upper bound, then captures before quiet
    /// moves). `None` when the tables do not cover the position; empty when it has no move.
    ///
    /// A capturing move's bounds are proven. A quiet move's bounds come from the next
    /// position's entry, which assumes the game starts there: the position left behind could
    /// recur, so a quiet move that ties with a capture is best only when the search confirms it
    /// with the real history.
    pub fn moves(&self, position: &Position) -> Option<Vec<MoveBounds>> {
        let board = normalised(position);
        self.layer(position.seeds_on_board())?;
        let mut found = Vec::new();
        let mut missing = false;
        for_each_child(&board, self.rule, |child| {
            let seeds = position.seeds_on_board() - child.captured;
            match self.layer(seeds) {
                Some(layer) => found.push(MoveBounds {
                    mv: absolute(child.mv, position),
                    captured: child.captured,
                    bounds: layer.bounds(&child.board).after_move(child.captured),
                }),
                None => missing = true,
            }
        });
        if missing {
            return None;
        }
        found.sort_by_key(|m| (-m.bounds.lo, -m.bounds.hi, m.captured == 0, m.mv));
        Some(found)
    }

    /// The margin if the game ended now by a repetition or a lack of moves: the side to move's
    /// seeds minus the opponent's.
    pub fn own_split(position: &Position) -> i8 {
        own_split(&normalised(position))
    }
}

/// Maps the layer of `seeds` seeds in `dir` and checks it whole before it is used.
pub(super) fn open_checked(
    dir: &Path,
    rule: GrandSlam,
    seeds: u8,
) -> Result<(Layer, u32), TableFileError> {
    let (layer, version) = open_layer(dir, rule, seeds)?;
    verify_layer(&layer, &dir.join(file_name(rule, seeds)))?;
    Ok((layer, version))
}

/// The move in the real position for a move of its normalised board.
fn absolute(mv: Move, position: &Position) -> Move {
    let pit = mv.pit() + position.side_to_move().first_pit();
    Move::new(pit).unwrap_or(mv)
}
