//! `bench`: a fixed set of games searched to a fixed depth with one thread and a cleared hash
//! table. Its node count is the search's signature: any change to what the search does changes
//! it, and a test fails until the recorded count is updated (`Bench: <nodes>` in the commit).

use super::{Control, Limits, Searcher, Settings};
use crate::rules::{Game, GrandSlam, Move, Position, parse_moves};
use std::time::{Duration, Instant};

/// The depth `krou bench` searches to by default.
pub const BENCH_DEPTH: u32 = 12;

/// Hash table size of the bench, MiB.
const BENCH_HASH_MIB: usize = 16;

/// The bench games: moves from the start, default rules (generated once from a fixed random
/// walk, so they cover openings, middle games and endings).
const GAMES: [&str; 30] = [
    "Ee",                                                        // 5-5-5-4-0-5-5-5-5-4-0-5-0-0-S
    "DdEdBa",                                                    // 6-1-5-1-1-7-0-7-6-1-7-6-0-0-S
    "BaDcAdCeDa",                                                // 2-4-1-0-10-10-0-8-2-2-0-7-0-2-S
    "EbFdDcBeFaBe",                                              // 9-0-10-5-0-0-0-2-2-2-0-10-3-5-S
    "FbAdEaCdBfBaDcA",                                           // 0-2-5-2-5-7-2-8-0-3-10-2-0-2-N
    "DbBcFeFcDbEaFeAcE",                                         // 1-4-8-1-0-2-2-1-0-12-2-12-3-0-N
    "FcDaEaCbBfFdBcDeDaAbEfA",                                   // 0-5-10-2-1-6-3-1-5-5-4-0-0-6-N
    "EaCfDaCbAaDdAeCbDfEbAcF",                                   // 2-14-4-2-2-0-4-0-1-4-3-3-5-4-N
    "DdEfDcCdBaEdBbEfBcDcEdCeDaEa",                              // 12-1-1-0-0-17-0-5-1-1-0-2-6-2-S
    "DeEdBbBdFbAdFcBaDaFaBfAbDcEfAaF",                           // 0-3-16-0-0-0-1-0-0-6-9-0-13-0-N
    "EfDcEdAbDfAdFeDcCdEeFfAbBfAdCcAbBeA",                       // 0-2-0-9-6-4-16-0-1-1-0-2-5-2-N
    "BaDfBcDfCbFbBcEdAfCaDeBdEeDcFbFfBeF",                       // 10-1-7-5-3-0-8-0-2-4-0-1-5-2-N
    "BfEaBdCfAeAbBfFbCeDbAaEaFeDfBaDcFdEaDfBb",                  // 9-1-7-2-2-4-1-0-5-3-6-1-0-7-S
    "AeEbDdCbAeAfFcFbEbDbEcCaEeBbDcEaFcBdDbAfBc",                // 1-0-7-3-5-3-4-2-0-1-9-0-9-4-S
    "AfAdAaFaEeBbAfBcCfEeCdCbDeBdCfAbFaDbAeBfCdAc",              // 1-3-1-2-7-0-0-0-0-1-2-2-11-18-S
    "AfCaBfEfAaBbDcAfEeFeDfAdEdCdDbBeAbEcDeEdBaDbFcCf",          // 3-3-1-2-4-2-3-2-1-3-4-0-16-4-S
    "FbCdBcAdDcEfDbBaAcAdCfEeDcCeBcAdEfAdCeAbDeCbFfBbAeE",       // 0-1-2-2-0-2-12-1-2-1-0-1-11-13-N
    "CeCaDfFfEbAfFeEcBaFdDfDcBeCdAeFfAbDcEbAcBfFeDbCaDbFaEaFc",  // 1-0-0-0-0-0-1-3-0-5-1-2-19-16-S
    "CdAaBeFbCcAfCcEfBeBfFcCbEdEeCcFcDaBcEfCeFfBaDbBfFaCdBfDbF", // 0-0-2-0-6-0-1-1-4-0-3-0-11-20-N
    "FeEaDaEfFaCaDcAfBdDcFcEbCfCeCbBcAdFcAdEcFeBbDbCdAfEaBcBfAbDaEd", // 1-0-7-0-0-7-1-3-1-0-6-1-6-15-S
    "FaBbAeBdDdEaBeAbEdCfEcEfDdAfCcEbDcFdDbBcFdCaAeBbEfCbAcAeBdFcBbDfB", // 2-0-1-0-3-1-2-1-0-0-0-0-24-14-N
    "CfEeBcEbFcBeAfDbCdDcBbEaDeAfDbBdCeDcFfEdCfFcDbBcEdAfFeBaDbAfEcAdCe", // 0-2-0-1-1-3-1-0-0-0-0-1-16-23-S
    "AfAeCbEbBaBeFbCdCbBfDfCeAcCbEbAdCeAaFcBcAeCaFcEfCdDdAfDcBeBfCdFcDeEfF", // 1-0-0-0-0-0-7-12-1-2-1-0-8-16-N
    "BcEeBbDfFaBfBcAbBeDbCcAbDcEaCbBfBdFeCfEaAeFcBcEaFdCfFaEbFdBbCcAaBdCcEeEdF", // 1-1-1-19-0-0-0-0-0-0-1-3-16-6-N
    "BbCcBeBaAfAdFbBeFaBdAbEaCfEbFdAfDdCaBbEbFaCcAaEeEaCfEcDcCbAaFdBeCbBaCbAfFa", // 1-2-2-8-6-0-0-2-7-4-2-0-9-5-S
    "CaFeBfDcEcDaCdAbFeBcFbDeBaCfEbAfBeCaDbBcFcBeBfCbBdDbBdDcCaFaEcAeFfFbEfBcDeFfCaB", // 2-0-2-1-3-1-0-2-1-1-1-1-21-12-N
    "BdFcAaBdFcCfBaCcDcEaCcBeAbAeDbFbCeFcCeAfCdEeCaDfDbFaCfAcCeEaFeDcBeEcCfCdAaCcEdFdD", // 0-3-0-0-1-1-2-11-2-1-4-2-9-12-N
    "CcBeDcAeFeCfDaFcEdDfAbEbAeCdBdAcAaDcBbCdBaFcAbCeBfEbCdAeAaFfDaFaAdBcDdCeDfDbBfFbEeDa", // 6-0-3-0-1-1-0-2-3-1-0-2-17-12-S
    "AdFcCdDbCaAfDdEeDcEeAfDdEaCbDaAdBbCeFbBdEdDaEdCcEeAdDeCbBeEaCcFdBcCaEfFaCcAeEdFaDeEaFf", // 1-5-1-0-0-0-1-10-1-1-0-0-12-16-S
    "DcBeFeBaCdBcDeBfFdCcFdBaCbEaBcDdAaEcFbBeCdAbDfAeDcEfDaFaAbDdCaAcBeFcAdDfCeEaBdAfDeCcEdDfEe", // 0-0-0-0-0-5-1-6-0-0-0-1-19-16-S
];

/// One searched game of the bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position searched.
    pub position: Position,
    /// The move found.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// What `bench` measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Depth searched.
    pub depth: u32,
    /// One line per game.
    pub lines: Vec<BenchLine>,
    /// Nodes in all.
    pub nodes: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }

    /// The report as text lines; the last is `<nodes> nodes <nps> nps`.
    pub fn text(&self) -> Vec<String> {
        let mut text: Vec<String> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                let best = line.best.map_or("0000".to_string(), |m| m.to_string());
                format!(
                    "{:>2} {} bestmove {best} nodes {}",
                    i + 1,
                    line.position,
                    line.nodes
                )
            })
            .collect();
        text.push(format!(
            "depth {} time {} ms",
            self.depth,
            self.elapsed.as_millis()
        ));
        text.push(format!("{} nodes {} nps", self.nodes, self.nps()));
        text
    }
}

/// The bench games as games (with their histories).
pub fn bench_games() -> Vec<Game> {
    GAMES
        .iter()
        .filter_map(|moves| {
            let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
            for mv in parse_moves(moves).ok()? {
                game.play(mv).ok()?;
            }
            Some(game)
        })
        .collect()
}

/// Searches every bench game to `depth` with one thread, clearing the hash table before each.
/// Prints nothing.
pub fn bench(depth: u32) -> BenchReport {
    let mut searcher = Searcher::new(Settings {
        hash_mib: BENCH_HASH_MIB,
        threads: 1,
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut lines = Vec::new();
    let mut elapsed = Duration::ZERO;
    for game in bench_games() {
        searcher.clear();
        let control = Control::new(false);
        let mut nodes = 0;
        let started = Instant::now();
        let found = searcher.search(&game, &limits, &control, &mut |info| nodes = info.nodes);
        elapsed += started.elapsed();
        lines.push(BenchLine {
            position: *game.position(),
            best: found.best,
            nodes,
        });
    }
    BenchReport {
        depth,
        nodes: lines.iter().map(|l| l.nodes).sum(),
        lines,
        elapsed,
    }
}
