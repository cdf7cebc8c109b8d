//! The search against an independent minimax, its limits, its determinism and its game ends.

use krou::rules::{Game, GrandSlam, Move, Position};
use krou::search::eval::evaluate;
use krou::search::{Control, Features, Found, Info, Limits, Score, Searcher, Settings};
use std::time::{Duration, Instant};

/// A proven win `p` plies from the root, in the test's own scale.
const TEST_WIN: i64 = 1_000_000;

/// Captures in a row the engine's quiescence search follows past the horizon.
const QUIESCENCE_PLIES: u32 = 8;

/// The exact value of a finished game for the side to move, `ply` plies from the root.
fn game_end(game: &Game, ply: i64) -> Option<i64> {
    let us = game.position().side_to_move();
    game.outcome()
        .map(|outcome| match outcome.margin(us).signum() {
            1 => TEST_WIN - ply,
            -1 => -TEST_WIN + ply,
            _ => 0,
        })
}

/// Plain quiescence: the evaluation, or a capture's value when one is better, following
/// captures `plies` more at most.
fn quiescence(game: &Game, plies: u32, ply: i64) -> i64 {
    if let Some(end) = game_end(game, ply) {
        return end;
    }
    let mut best = i64::from(evaluate(game.position()));
    if plies == 0 {
        return best;
    }
    for mv in game.legal_moves() {
        if game.position().play_unchecked(mv, game.rule()).captured == 0 {
            continue;
        }
        let mut child = game.clone();
        assert!(child.play(mv).is_ok());
        best = best.max(-quiescence(&child, plies - 1, ply + 1));
    }
    best
}

/// Plain minimax (negamax form) over `Game`, which applies every rule itself, repetition
/// included: exact ends score ±(TEST_WIN − ply) or 0, the horizon scores the quiescence value.
fn minimax(game: &Game, depth: u32, ply: i64) -> i64 {
    if let Some(end) = game_end(game, ply) {
        return end;
    }
    if depth == 0 {
        return quiescence(game, QUIESCENCE_PLIES, ply);
    }
    let mut best = i64::MIN;
    for mv in game.legal_moves() {
        let mut child = game.clone();
        assert!(child.play(mv).is_ok());
        best = best.max(-minimax(&child, depth - 1, ply + 1));
    }
    best
}

fn as_score(value: i64) -> Score {
    if value > TEST_WIN / 2 {
        Score::Mate((TEST_WIN - value) as i32)
    } else if value < -TEST_WIN / 2 {
        Score::Mate(-(TEST_WIN + value) as i32)
    } else {
        Score::Cp(value as i32)
    }
}

/// Games from a fixed pseudo-random walk: openings, middle games, endings with few seeds.
fn sample_games(count: usize, seed: u64) -> Vec<Game> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let mut games = Vec::new();
    while games.len() < count {
        let rule = [
            GrandSlam::NoCapture,
            GrandSlam::Forbidden,
            GrandSlam::CaptureAll,
        ][next() % 3];
        let mut game = Game::new(Position::start(), rule);
        let length = next() % 120;
        for _ in 0..length {
            let moves: Vec<_> = game.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            assert!(game.play(moves[next() % moves.len()]).is_ok());
        }
        if game.outcome().is_none() {
            games.push(game);
        }
    }
    games
}

fn search(searcher: &mut Searcher, game: &Game, limits: &Limits) -> (Found, Vec<Info>) {
    let control = Control::new(false);
    let mut infos = Vec::new();
    let found = searcher.search(game, limits, &control, &mut |info| infos.push(info.clone()));
    (found, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn alpha_beta_scores_equal_plain_minimax_at_small_depths() {
    // Reductions and pruning make the search selective on purpose: compare the full-width
    // search (PVS, aspiration windows, hash table, move ordering and quiescence all in force)
    // with minimax and its plain quiescence.
    let mut searcher = Searcher::new(Settings::default());
    searcher.set_features(Features {
        late_move_reductions: false,
        reverse_futility: false,
        internal_reduction: false,
        razoring: false,
        singular_extension: false,
        aspiration: true,
        ..Features::default()
    });
    for (i, game) in sample_games(150, 7).iter().enumerate() {
        let d = 1 + (i % 5) as u32;
        searcher.clear();
        let (found, infos) = search(&mut searcher, game, &depth(d));
        let last = infos.last().expect("a completed iteration");
        assert_eq!(last.depth, d);
        let expected = as_score(minimax(game, d, 0));
        assert_eq!(last.score, expected, "depth {d} in {}", game.position());
        // The best move really achieves the score.
        let best = found.best.expect("a move");
        let mut child = game.clone();
        assert!(child.play(best).is_ok());
        assert_eq!(as_score(-minimax(&child, d - 1, 1)), expected);
    }
}

#[test]
fn multi_pv_lines_are_every_move_with_its_minimax_score_best_first() {
    // With as many lines as moves, line k is the k-th best move and its exact score.
    let mut searcher = Searcher::new(Settings::default());
    // Internal iterative reduction stays on: below depth 5 it could only touch the root, which
    // it must not (a later line has no table move), so this also checks that it does not.
    searcher.set_features(Features {
        late_move_reductions: false,
        reverse_futility: false,
        ..Features::default()
    });
    for (i, game) in sample_games(60, 11).iter().enumerate() {
        let d = 1 + (i % 4) as u32;
        let legal: Vec<_> = game.legal_moves().collect();
        searcher.clear();
        let limits = Limits {
            multi_pv: 6,
            ..depth(d)
        };
        let (found, infos) = search(&mut searcher, game, &limits);
        let last: Vec<&Info> = infos.iter().filter(|info| info.depth == d).collect();
        assert_eq!(
            last.len(),
            legal.len(),
            "one line per move in {}",
            game.position()
        );
        let mut values = Vec::new();
        for (k, info) in last.iter().enumerate() {
            assert_eq!(info.multipv, k as u32 + 1);
            let mv = info.pv[0];
            assert!(
                last[..k].iter().all(|other| other.pv[0] != mv),
                "lines start apart"
            );
            let mut child = game.clone();
            assert!(child.play(mv).is_ok());
            let value = -minimax(&child, d - 1, 1);
            assert_eq!(
                info.score,
                as_score(value),
                "line {} in {}",
                k + 1,
                game.position()
            );
            values.push(value);
        }
        assert!(
            values.windows(2).all(|w| w[0] >= w[1]),
            "best first: {values:?}"
        );
        assert_eq!(
            found.best,
            Some(last[0].pv[0]),
            "the best line's move is played"
        );
    }
}

#[test]
fn fewer_lines_than_moves_are_the_best_ones_and_line_one_is_played() {
    let mut searcher = Searcher::new(Settings::default());
    for game in sample_games(20, 5) {
        let legal = game.legal_moves().len();
        searcher.clear();
        let limits = Limits {
            multi_pv: 2,
            ..depth(7)
        };
        let (found, infos) = search(&mut searcher, &game, &limits);
        let last: Vec<&Info> = infos.iter().filter(|info| info.depth == 7).collect();
        assert_eq!(last.len(), legal.min(2), "{}", game.position());
        if last.len() == 2 {
            assert_ne!(last[0].pv[0], last[1].pv[0]);
            assert_eq!(last[1].multipv, 2);
        }
        assert_eq!(found.best, Some(last[0].pv[0]));
    }
}

#[test]
fn multi_pv_lines_stay_within_searchmoves() {
    let mut searcher = Searcher::new(Settings::default());
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let chosen: Vec<Move> = ["A", "D"].iter().filter_map(|m| m.parse().ok()).collect();
    let limits = Limits {
        multi_pv: 6,
        searchmoves: chosen.clone(),
        ..depth(6)
    };
    let (found, infos) = search(&mut searcher, &game, &limits);
    let last: Vec<&Info> = infos.iter().filter(|info| info.depth == 6).collect();
    assert_eq!(last.len(), 2);
    assert!(last.iter().all(|info| chosen.contains(&info.pv[0])));
    assert!(found.best.is_some_and(|mv| chosen.contains(&mv)));
}

#[test]
fn a_timed_multi_pv_search_plays_the_last_reported_line_one() {
    let mut searcher = Searcher::new(Settings::default());
    for (ms, threads) in [(30, 1), (60, 2)] {
        searcher.configure(Settings {
            threads,
            ..Settings::default()
        });
        let game = Game::new(Position::start(), GrandSlam::NoCapture);
        let limits = Limits {
            multi_pv: 3,
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let (found, infos) = search(&mut searcher, &game, &limits);
        let line_one = infos.iter().rev().find(|info| info.multipv == 1);
        let line_one = line_one.expect("line 1 was reported");
        assert_eq!(
            found.best,
            Some(line_one.pv[0]),
            "{ms} ms, {threads} threads"
        );
    }
}

#[test]
fn with_two_threads_the_move_played_is_the_last_reported_line() {
    // Lazy SMP: when a helper completed a deeper iteration than the main thread, its line is
    // played and reported last; either way `bestmove` matches the last `info`.
    let mut searcher = Searcher::new(Settings {
        hash_mib: 4,
        threads: 2,
    });
    for ms in [20, 50, 120] {
        let game = Game::new(Position::start(), GrandSlam::NoCapture);
        let limits = Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let (found, infos) = search(&mut searcher, &game, &limits);
        let last = infos.last().expect("an iteration was reported");
        assert_eq!(found.best, Some(last.pv[0]), "{ms} ms");
        let deepest = infos.iter().map(|info| info.depth).max();
        assert_eq!(
            Some(last.depth),
            deepest,
            "{ms} ms: the last line is the deepest"
        );
    }
}

#[test]
fn one_line_is_reported_without_a_multipv_number() {
    let mut searcher = Searcher::new(Settings::default());
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let (_, infos) = search(&mut searcher, &game, &depth(4));
    assert_eq!(infos.len(), 4, "one line a depth");
    assert!(infos.iter().all(|info| info.multipv == 0));
}

#[test]
fn a_finished_game_has_no_best_move() {
    let mut searcher = Searcher::new(Settings::default());
    for diagram in [
        "0-0-0-0-0-0-1-2-0-0-0-0-20-25-S",
        "1-1-1-1-0-0-0-0-0-0-0-0-20-24-N",
    ] {
        let position: Position = diagram.parse().expect("valid diagram");
        let game = Game::new(position, GrandSlam::NoCapture);
        assert!(game.outcome().is_some(), "{diagram}");
        let (found, infos) = search(&mut searcher, &game, &depth(5));
        assert_eq!(found.best, None);
        assert!(infos.is_empty());
    }
}

#[test]
fn depth_and_node_limits_are_respected() {
    let mut searcher = Searcher::new(Settings::default());
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let (_, infos) = search(&mut searcher, &game, &depth(9));
    assert_eq!(infos.last().map(|i| i.depth), Some(9));
    assert!(infos.windows(2).all(|w| w[1].depth == w[0].depth + 1));
    for limit in [100, 5_000, 200_000] {
        searcher.clear();
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        let (found, infos) = search(&mut searcher, &game, &limits);
        assert!(found.best.is_some());
        let nodes = infos.last().map_or(0, |i| i.nodes);
        assert!(
            nodes <= limit,
            "{nodes} nodes searched for a limit of {limit}"
        );
    }
}

#[test]
fn evaluations_kept_from_earlier_searches_change_no_result() {
    // A searcher keeps its threads' evaluation caches from one search to the next, and empties
    // them when the evaluation is switched. Searching a game once (then taking a new hash
    // table, so that only the caches carry over) must change nothing when it is searched
    // again, with either evaluation, nor after a switch between them.
    let small = Settings {
        hash_mib: 8,
        ..Settings::default()
    };
    let linear = Features {
        learned_evaluation: false,
        ..Features::default()
    };
    let summary = |infos: &[Info]| {
        infos
            .iter()
            .map(|i| (i.depth, i.nodes, i.score, i.pv.clone()))
            .collect::<Vec<_>>()
    };
    for (before, after) in [
        (Features::default(), Features::default()),
        (linear, linear),
        (Features::default(), linear),
        (linear, Features::default()),
    ] {
        for game in sample_games(4, 41) {
            let mut kept = Searcher::new(Settings::default());
            kept.set_features(before);
            search(&mut kept, &game, &depth(9));
            kept.configure(small);
            kept.set_features(after);
            let mut fresh = Searcher::new(small);
            fresh.set_features(after);
            let (found, infos) = search(&mut kept, &game, &depth(9));
            let (expected_found, expected_infos) = search(&mut fresh, &game, &depth(9));
            assert_eq!(found, expected_found, "{}", game.position());
            assert_eq!(summary(&infos), summary(&expected_infos));
        }
    }
}

#[test]
fn one_thread_searches_are_deterministic() {
    let games = sample_games(6, 99);
    let run = || {
        let mut searcher = Searcher::new(Settings::default());
        let mut out = Vec::new();
        for game in &games {
            let (found, infos) = search(&mut searcher, game, &depth(10));
            out.push((
                found,
                infos
                    .iter()
                    .map(|i| (i.nodes, i.score, i.pv.clone()))
                    .collect::<Vec<_>>(),
            ));
        }
        out
    };
    assert_eq!(run(), run());
}

#[test]
fn stop_ends_an_infinite_search_promptly() {
    let mut searcher = Searcher::new(Settings {
        hash_mib: 4,
        threads: 2,
    });
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let control = Control::new(false);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (asked, returned) = std::thread::scope(|scope| {
        let stopper = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            control.stop();
            Instant::now()
        });
        let found = searcher.search(&game, &limits, &control, &mut |_| {});
        assert!(found.best.is_some());
        let returned = Instant::now();
        (stopper.join().expect("the stopping thread ends"), returned)
    });
    assert!(returned >= asked, "an infinite search ended before stop");
    assert!(returned - asked < Duration::from_millis(50));
}

#[test]
fn a_loop_of_two_seeds_is_a_draw_by_repetition() {
    // From the endgame notes: South must feed with F; the two seeds then chase each other round
    // the board until a position repeats with one seed on each side: 24-24.
    let position: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S"
        .parse()
        .expect("valid diagram");
    let game = Game::new(position, GrandSlam::NoCapture);
    let mut searcher = Searcher::new(Settings::default());
    let (_, infos) = search(&mut searcher, &game, &depth(16));
    let last = infos.last().expect("a completed iteration");
    assert_eq!(last.score, as_score(minimax(&game, 16, 0)));
    assert_eq!(last.score, Score::Cp(0));
}

#[test]
fn movetime_is_kept() {
    let mut searcher = Searcher::new(Settings::default());
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let limits = Limits {
        movetime: Some(Duration::from_millis(200)),
        overhead: Duration::from_millis(10),
        ..Limits::default()
    };
    let started = Instant::now();
    let (found, _) = search(&mut searcher, &game, &limits);
    assert!(found.best.is_some());
    assert!(started.elapsed() < Duration::from_millis(190 + 100));
}

#[test]
fn pondering_waits_for_ponderhit_then_keeps_its_time() {
    let mut searcher = Searcher::new(Settings::default());
    let game = Game::new(Position::start(), GrandSlam::NoCapture);
    let control = Control::new(true);
    let limits = Limits {
        movetime: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let (hit_at, done_at) = std::thread::scope(|scope| {
        let hit = scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            control.ponderhit();
            Instant::now()
        });
        let found = searcher.search(&game, &limits, &control, &mut |_| {});
        assert!(found.best.is_some());
        (
            hit.join().expect("the ponderhit thread ends"),
            Instant::now(),
        )
    });
    assert!(done_at >= hit_at, "the search ended before ponderhit");
    assert!(done_at - hit_at < Duration::from_millis(50 + 100));
}

#[test]
fn seldepth_is_never_below_depth_even_when_every_line_ends_early() {
    // North wins in two moves: from depth 3 on, every line ends before the nominal depth.
    let position: Position = "0-0-0-0-0-2-0-1-0-0-0-0-22-23-N"
        .parse()
        .expect("a diagram");
    let game = Game::new(position, GrandSlam::default());
    let mut searcher = Searcher::new(Settings::default());
    let (_, infos) = search(&mut searcher, &game, &depth(40));
    assert!(
        infos.iter().any(|i| i.depth == 40),
        "the search reaches depth 40"
    );
    for info in &infos {
        assert!(info.seldepth >= info.depth, "{info:?}");
    }
    // Random middle games too.
    for game in sample_games(20, 7) {
        let (_, infos) = search(&mut searcher, &game, &depth(8));
        assert!(infos.iter().all(|i| i.seldepth >= i.depth), "{infos:?}");
    }
}
