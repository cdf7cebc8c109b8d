//! Plays one game between two players, adjudicated by Krou's own rules: the engines' word on
//! the result is never asked for.

use super::openings::Opening;
use super::tc::{Clock, TimeControl};
use crate::referee::engines::fault::{Fault, Stop};
use crate::referee::engines::player::{Player, Setup};
use crate::referee::engines::spec::EngineSpec;
use crate::referee::records::record::{GameRecord, PlayedMove, Reason, Verdict};
use crate::referee::rng::Rng;
use crate::rules::{Game, Move, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the referee keeps waiting past a clock's end for a late `bestmove`, to log the
/// exact overrun before it gives up on the engine.
pub const LATE_REPLY_GRACE: Duration = Duration::from_millis(500);

/// Everything that defines one scheduled game.
pub struct Fixture<'a> {
    /// 1-based game number.
    pub round: usize,
    /// Engine indices of South and North.
    pub engines: [usize; 2],
    /// Their specifications, South first.
    pub specs: [&'a EngineSpec; 2],
    /// The opening.
    pub opening: &'a Opening,
    /// The time controls of South and North.
    pub tc: [TimeControl; 2],
    /// Time a move may exceed its clock without losing, for South and North.
    pub margin: [Duration; 2],
    /// Maximum number of plies (opening included) before adjudication.
    pub max_plies: Option<usize>,
    /// Seed of this game's random stream (built-in players).
    pub seed: u64,
}

/// Plays a game to its end (or until the match stops) and returns its record.
pub fn play_game(fixture: &Fixture, setup: &Setup) -> GameRecord {
    let mut record = GameRecord {
        round: fixture.round,
        south: fixture.engines[0],
        north: fixture.engines[1],
        opening: fixture.opening.clone(),
        tc: fixture.tc,
        moves: Vec::new(),
        verdict: Verdict::Unfinished,
        reason: Reason::Aborted,
        logs: [String::new(), String::new()],
    };
    let mut game = match fixture.opening.game(setup.rule) {
        Ok(game) => game,
        Err(why) => {
            log::error!("round {}: {why}", fixture.round);
            return record;
        }
    };
    record.moves = opening_moves(&game);
    let mut players: Vec<Player> = Vec::with_capacity(2);
    for (i, side) in Side::BOTH.into_iter().enumerate() {
        let rng = Rng::derived(fixture.seed, i as u64);
        match Player::start(fixture.specs[i], setup, rng) {
            Ok(player) => players.push(player),
            Err(failed) => {
                record.logs[i] = failed.log;
                end(&mut record, side, settle(failed.stop, setup.abort));
                finish(&mut record, players);
                return record;
            }
        }
    }
    let (verdict, reason) = run(&mut game, &mut players, &mut record.moves, fixture, setup);
    record.verdict = verdict;
    record.reason = reason;
    finish(&mut record, players);
    record
}

fn opening_moves(game: &Game) -> Vec<PlayedMove> {
    game.moves()
        .iter()
        .zip(game.captures())
        .map(|(&mv, &captured)| PlayedMove {
            mv,
            captured,
            thinking: Default::default(),
            used: None,
        })
        .collect()
}

/// How long a game whose engine died waits for the match to stop before it counts a crash: a
/// signal to a whole job (Slurm's `scancel`, a closed terminal) reaches the engines as it
/// reaches the referee, and the game is then unfinished, not lost.
const CRASH_SETTLE: Duration = Duration::from_millis(250);

/// `stop`, or [`Stop::Aborted`] when it is a crash and the match stops within
/// [`CRASH_SETTLE`].
fn settle(stop: Stop, abort: &AtomicBool) -> Stop {
    if !matches!(stop, Stop::Fault(Fault::Crashed(_))) {
        return stop;
    }
    let deadline = Instant::now() + CRASH_SETTLE;
    loop {
        if abort.load(Ordering::Relaxed) || super::signals::received().is_some() {
            return Stop::Aborted;
        }
        if Instant::now() >= deadline {
            return stop;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn end(record: &mut GameRecord, side: Side, stop: Stop) {
    (record.verdict, record.reason) = verdict_of(side, stop);
}

fn verdict_of(side: Side, stop: Stop) -> (Verdict, Reason) {
    match stop {
        Stop::Aborted => (Verdict::Unfinished, Reason::Aborted),
        Stop::Fault(fault) => {
            log::warn!("{side} loses: {fault}");
            (
                Verdict::Forfeit { loser: side },
                Reason::Fault { side, fault },
            )
        }
    }
}

/// Keeps the protocol logs and stops both players at once (quit, then kill if need be).
fn finish(record: &mut GameRecord, players: Vec<Player>) {
    for (i, player) in players.iter().enumerate() {
        record.logs[i] = player.log();
    }
    let (engines, builtins): (Vec<_>, Vec<_>) = players
        .into_iter()
        .partition(|p| matches!(p, Player::Engine(_)));
    drop(builtins);
    std::thread::scope(|scope| {
        for engine in engines {
            scope.spawn(move || drop(engine));
        }
    });
}

/// The move loop: asks the side to move, charges its clock, checks the move, plays it.
fn run(
    game: &mut Game,
    players: &mut [Player],
    moves: &mut Vec<PlayedMove>,
    fixture: &Fixture,
    setup: &Setup,
) -> (Verdict, Reason) {
    let mut clocks = fixture.tc.map(Clock::new);
    loop {
        if let Some(outcome) = game.outcome() {
            let verdict = Verdict::Score {
                south: outcome.south,
                north: outcome.north,
            };
            return (verdict, Reason::Rules(outcome.reason));
        }
        if fixture
            .max_plies
            .is_some_and(|max| game.moves().len() >= max)
        {
            let stored = game.position().with_own_seeds_stored();
            let verdict = Verdict::Score {
                south: stored.store(Side::South),
                north: stored.store(Side::North),
            };
            return (verdict, Reason::MaxLength);
        }
        if setup.abort.load(Ordering::Relaxed) {
            return (Verdict::Unfinished, Reason::Aborted);
        }
        let side = game.position().side_to_move();
        match one_move(
            game,
            &mut players[side.index()],
            &mut clocks,
            fixture,
            setup,
        ) {
            Ok(played) => moves.push(played),
            Err(stop) => return verdict_of(side, settle(stop, setup.abort)),
        }
    }
}

fn one_move(
    game: &mut Game,
    player: &mut Player,
    clocks: &mut [Clock; 2],
    fixture: &Fixture,
    setup: &Setup,
) -> Result<PlayedMove, Stop> {
    let side = game.position().side_to_move();
    let go_line = go_command(fixture.tc, clocks, side);
    let allowed = clocks[side.index()].allowed();
    let margin = fixture.margin[side.index()];
    let wait = allowed.map_or(setup.timeout, |a| a + margin + LATE_REPLY_GRACE);
    let reply = match player.think(game, &go_line, wait, setup.abort) {
        Err(Stop::Fault(Fault::NoBestMove(waited))) if allowed.is_some() => {
            return Err(Fault::TimeForfeit {
                used: waited,
                allowed: allowed.unwrap_or_default(),
                answered: false,
            }
            .into());
        }
        other => other?,
    };
    clocks[side.index()]
        .charge(reply.used, margin)
        .map_err(|overrun| Fault::TimeForfeit {
            used: overrun.used,
            allowed: overrun.allowed,
            answered: true,
        })?;
    let mv: Move = reply
        .text
        .parse()
        .map_err(|_| Fault::MalformedMove(reply.line.clone()))?;
    game.play(mv).map_err(|why| Fault::IllegalMove {
        text: reply.text.clone(),
        why: why.to_string(),
    })?;
    Ok(PlayedMove {
        mv,
        captured: game.captures().last().copied().unwrap_or(0),
        thinking: reply.thinking,
        used: player.is_engine().then_some(reply.used),
    })
}

/// The `go` line for the side to move, by its own time control (`tc` is South's and North's):
/// clocks as `wtime btime winc binc [movestogo]` (w is South), or `movetime`, `nodes`, `depth`.
/// Under time odds the opponent's clock is sent as it stands (its fixed move time under `st=`,
/// zero under `nodes=` and `depth=`) with its own increment.
pub fn go_command(tc: [TimeControl; 2], clocks: &[Clock; 2], side: Side) -> String {
    let ms = |d: Duration| d.as_millis();
    match tc[side.index()] {
        TimeControl::Clock { .. } => {
            let [south, north] = clocks;
            let mut line = format!(
                "go wtime {} btime {} winc {} binc {}",
                ms(south.remaining()),
                ms(north.remaining()),
                ms(south.increment()),
                ms(north.increment())
            );
            if let Some(moves) = clocks[side.index()].moves_to_go() {
                line.push_str(&format!(" movestogo {moves}"));
            }
            line
        }
        TimeControl::MoveTime(time) => format!("go movetime {}", ms(time)),
        TimeControl::Nodes(nodes) => format!("go nodes {nodes}"),
        TimeControl::Depth(depth) => format!("go depth {depth}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_command_sends_both_clocks_and_the_movers_moves_to_go() {
        let tc: TimeControl = "40/60+0.5".parse().expect("valid");
        let mut clocks = [Clock::new(tc); 2];
        assert!(
            clocks[0]
                .charge(Duration::from_millis(1500), Duration::ZERO)
                .is_ok()
        );
        assert_eq!(
            go_command([tc; 2], &clocks, Side::North),
            "go wtime 59000 btime 60000 winc 500 binc 500 movestogo 40"
        );
        assert_eq!(
            go_command([tc; 2], &clocks, Side::South),
            "go wtime 59000 btime 60000 winc 500 binc 500 movestogo 39"
        );
        let tc: TimeControl = "st=0.25".parse().expect("valid");
        assert_eq!(
            go_command([tc; 2], &[Clock::new(tc); 2], Side::South),
            "go movetime 250"
        );
    }

    #[test]
    fn under_time_odds_each_side_is_asked_by_its_own_time_control() {
        let tc: [TimeControl; 2] = ["10+0.1", "st=0.05"].map(|t| t.parse().expect("valid"));
        let clocks = tc.map(Clock::new);
        assert_eq!(
            go_command(tc, &clocks, Side::South),
            "go wtime 10000 btime 50 winc 100 binc 0"
        );
        assert_eq!(go_command(tc, &clocks, Side::North), "go movetime 50");
        let tc: [TimeControl; 2] = ["depth=4", "nodes=900"].map(|t| t.parse().expect("valid"));
        let clocks = tc.map(Clock::new);
        assert_eq!(go_command(tc, &clocks, Side::South), "go depth 4");
        assert_eq!(go_command(tc, &clocks, Side::North), "go nodes 900");
    }
}
