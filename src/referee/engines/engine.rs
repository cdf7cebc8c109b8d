//! The protocol client: starts an engine (`uci` … `uciok`, options, `ucinewgame`, `isready` …
//! `readyok`) and asks it for moves (`position` + `go` … `bestmove`), every wait bounded.

use super::fault::{Fault, Stop};
use super::info::Thinking;
use super::process::{Process, Received};
use crate::rules::{Game, GrandSlam, Position, format_moves};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What a game needs to start its players.
#[derive(Clone, Copy, Debug)]
pub struct Setup<'a> {
    /// The grand-slam rule sent to engines.
    pub rule: GrandSlam,
    /// Longest wait for `uciok` and `readyok` (and `bestmove` without a clock).
    pub timeout: Duration,
    /// Whether to keep protocol logs.
    pub log: bool,
    /// Whether engines' stderr goes to the referee's stderr (otherwise it is discarded).
    pub stderr: bool,
    /// Set when the match is stopping.
    pub abort: &'a AtomicBool,
}

/// A move as an engine sent it, with what it said while thinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The first word after `bestmove`, unchecked (empty if none).
    pub text: String,
    /// The whole `bestmove` line, for error messages.
    pub line: String,
    /// Time from sending `go` to reading `bestmove`.
    pub used: Duration,
    /// The last reported score, depth and time.
    pub thinking: Thinking,
}

/// Why an engine could not be started, with its protocol log so far (empty without logging).
#[derive(Debug)]
pub struct StartError {
    /// The fault (or the match stopping).
    pub stop: Stop,
    /// The protocol log up to the failure.
    pub log: String,
}

/// An engine process that has answered `uciok` and `readyok`.
pub struct Engine {
    process: Process,
}

impl Engine {
    /// Starts `argv`, does the handshake within `timeout` per reply, sends `GrandSlam` and the
    /// given options, and waits until the engine is ready. On failure, the protocol log so far
    /// comes with the reason.
    pub fn start(
        argv: &[String],
        options: &[(String, String)],
        setup: &Setup,
    ) -> Result<Engine, StartError> {
        let process = Process::spawn(argv, setup.log, setup.stderr).map_err(|e| StartError {
            stop: Fault::StartFailed(format!("cannot run '{}': {e}", argv.join(" "))).into(),
            log: String::new(),
        })?;
        let mut engine = Engine { process };
        match engine.handshake(options, setup.rule, setup.timeout, setup.abort) {
            Ok(()) => Ok(engine),
            Err(stop) => Err(StartError {
                stop,
                log: engine.log(),
            }),
        }
    }

    fn handshake(
        &mut self,
        options: &[(String, String)],
        rule: GrandSlam,
        timeout: Duration,
        abort: &AtomicBool,
    ) -> Result<(), Stop> {
        self.send("uci")?;
        self.wait_for("uciok", timeout, abort, Fault::NoUciOk)?;
        self.send(&format!("setoption name GrandSlam value {rule}"))?;
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", timeout, abort, Fault::NoReadyOk)
    }

    /// Sends the game so far and `go_line`, and waits at most `wait` for `bestmove`. A timeout
    /// is returned as [`Fault::NoBestMove`]; the caller turns it into a time forfeit when a
    /// clock was running.
    pub fn think(
        &mut self,
        game: &Game,
        go_line: &str,
        wait: Duration,
        abort: &AtomicBool,
    ) -> Result<Reply, Stop> {
        self.process.drain();
        self.send(&position_command(game))?;
        self.send(go_line)?;
        let sent = Instant::now();
        let deadline = sent + wait;
        let mut thinking = Thinking::default();
        loop {
            let line = self.receive(deadline, abort, || Fault::NoBestMove(wait))?;
            let mut words = line.text.split_ascii_whitespace();
            match words.next() {
                Some("info") => thinking.update(&line.text),
                Some("bestmove") => {
                    return Ok(Reply {
                        text: words.next().unwrap_or_default().to_string(),
                        line: line.text.clone(),
                        used: line.at.saturating_duration_since(sent),
                        thinking,
                    });
                }
                _ => log::debug!("ignored engine output: {}", line.text),
            }
        }
    }

    /// The protocol log of this engine (empty unless logging was asked for).
    pub fn log(&self) -> String {
        self.process.log()
    }

    fn send(&mut self, line: &str) -> Result<(), Stop> {
        if self.process.send(line) {
            Ok(())
        } else {
            Err(self.crashed("its input is closed").into())
        }
    }

    fn wait_for(
        &mut self,
        word: &str,
        timeout: Duration,
        abort: &AtomicBool,
        fault: fn(Duration) -> Fault,
    ) -> Result<(), Stop> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.receive(deadline, abort, || fault(timeout))?;
            if line.text.trim() == word {
                return Ok(());
            }
        }
    }

    fn receive(
        &mut self,
        deadline: Instant,
        abort: &AtomicBool,
        timed_out: impl FnOnce() -> Fault,
    ) -> Result<super::process::Line, Stop> {
        match self.process.receive(deadline, abort) {
            Received::Line(line) => Ok(line),
            Received::Closed => Err(self.crashed("it closed its output").into()),
            Received::TimedOut => Err(timed_out().into()),
            Received::Aborted => Err(Stop::Aborted),
        }
    }

    fn crashed(&mut self, what: &str) -> Fault {
        match self.process.exit_status() {
            Some(status) => Fault::Crashed(format!("{what}; it exited with {status}")),
            None => Fault::Crashed(what.to_string()),
        }
    }
}

/// `position startpos|fen <diagram> [moves <letters>]` for the whole game, so the engine knows
/// the history the repetition rule needs.
pub fn position_command(game: &Game) -> String {
    let start = if *game.start() == Position::start() {
        "startpos".to_string()
    } else {
        format!("fen {}", game.start())
    };
    match game.moves() {
        [] => format!("position {start}"),
        moves => format!("position {start} moves {}", format_moves(moves)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;

    #[test]
    fn position_command_sends_the_whole_game_from_its_start() {
        let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
        assert_eq!(position_command(&game), "position startpos");
        for letter in ['F', 'b'] {
            game.play(Move::from_letter(letter).expect("letter"))
                .expect("legal");
        }
        assert_eq!(position_command(&game), "position startpos moves Fb");
        let start: Position = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N".parse().expect("diagram");
        let game = Game::new(start, GrandSlam::NoCapture);
        assert_eq!(
            position_command(&game),
            "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"
        );
    }
}
