//! A player in one game: a built-in player or an engine process behind the protocol client.

use super::builtin::{greedy_move, random_move};
pub use super::engine::Setup;
use super::engine::{Engine, Reply, StartError};
use super::fault::Stop;
use super::info::Thinking;
use super::spec::{EngineSpec, Kind};
use crate::referee::rng::Rng;
use crate::rules::Game;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One player, ready to move.
pub enum Player {
    /// A built-in player with its own random stream.
    Builtin {
        /// Which one.
        greedy: bool,
        /// Its tie-breaking / choosing stream.
        rng: Rng,
    },
    /// An engine process.
    Engine(Engine),
}

impl Player {
    /// Starts the player described by `spec`; `rng` seeds built-in players.
    pub fn start(spec: &EngineSpec, setup: &Setup, rng: Rng) -> Result<Player, StartError> {
        match &spec.kind {
            Kind::Random => Ok(Player::Builtin { greedy: false, rng }),
            Kind::Greedy => Ok(Player::Builtin { greedy: true, rng }),
            Kind::Command(argv) => Ok(Player::Engine(Engine::start(argv, &spec.options, setup)?)),
        }
    }

    /// Asks for a move in `game` with `go_line`, waiting at most `wait`.
    pub fn think(
        &mut self,
        game: &Game,
        go_line: &str,
        wait: Duration,
        abort: &AtomicBool,
    ) -> Result<Reply, Stop> {
        match self {
            Player::Builtin { greedy, rng } => {
                let started = Instant::now();
                let mv = if *greedy {
                    greedy_move(game, rng)
                } else {
                    random_move(game, rng)
                };
                let text = mv.map_or_else(|| "0000".to_string(), |m| m.letter().to_string());
                Ok(Reply {
                    line: format!("bestmove {text}"),
                    text,
                    used: started.elapsed(),
                    thinking: Thinking::default(),
                })
            }
            Player::Engine(engine) => engine.think(game, go_line, wait, abort),
        }
    }

    /// Whether this is an engine process (whose move times the referee measures).
    pub fn is_engine(&self) -> bool {
        matches!(self, Player::Engine(_))
    }

    /// The protocol log (empty for built-in players or without logging).
    pub fn log(&self) -> String {
        match self {
            Player::Builtin { .. } => String::new(),
            Player::Engine(engine) => engine.log(),
        }
    }
}
