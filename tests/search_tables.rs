//! The search with endgame tables agrees with the search without them where both prove a
//! result, and the tables' proven root value agrees with both.

use krou::egdb::Tables;
use krou::rules::{Game, GrandSlam, Position, Side};
use krou::search::{Control, Info, Limits, Score, Searcher, Settings};
use std::sync::Arc;

/// Seeds the tables cover in this test (small, so they build in well under a second).
const TABLE_SEEDS: u8 = 8;
/// Depth of both searches: enough for most small endings to end in a proven result.
const DEPTH: u32 = 18;

/// Boards of 3 to 8 seeds from a fixed pseudo-random generator, stores close to each other.
fn small_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let mut found = Vec::new();
    while found.len() < count {
        let seeds = 3 + next() % 6;
        let mut pits = [0u8; 12];
        for _ in 0..seeds {
            pits[next() % 12] += 1;
        }
        let rest = 48 - seeds;
        let south = rest / 2 + next() % 3 - 1;
        let side = if next() % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let stores = [south as u8, (rest - south) as u8];
        if let Some(position) = Position::new(pits, stores, side) {
            if Game::new(position, GrandSlam::NoCapture)
                .outcome()
                .is_none()
            {
                found.push(position);
            }
        }
    }
    found
}

fn last_info(searcher: &mut Searcher, game: &Game) -> Info {
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let control = Control::new(false);
    let mut last = None;
    searcher.search(game, &limits, &control, &mut |info| {
        last = Some(info.clone())
    });
    last.unwrap_or_else(|| panic!("no info for {}", game.position()))
}

/// The sign of a proven result, if the score is one.
fn proven_sign(score: Score) -> Option<i32> {
    match score {
        Score::Mate(n) => Some(n.signum().max(if n == 0 { 1 } else { -1 })),
        Score::Cp(_) => None,
    }
}

#[test]
fn tables_agree_with_plain_search_where_both_prove_a_result() {
    let rule = GrandSlam::NoCapture;
    let tables = Arc::new(Tables::build(rule, TABLE_SEEDS, 1));
    let settings = Settings {
        hash_mib: 4,
        threads: 1,
    };
    let mut plain = Searcher::new(settings);
    let mut with = Searcher::new(settings);
    with.set_tables(Some(tables.clone()));
    let (mut both_proven, mut hits, mut exact_roots) = (0, 0, 0);
    for position in small_positions(60, 11) {
        let game = Game::new(position, rule);
        plain.clear();
        with.clear();
        let a = last_info(&mut plain, &game);
        let b = last_info(&mut with, &game);
        assert_eq!(a.tbhits, 0, "no tables, no hits");
        hits += b.tbhits;
        if let (Some(x), Some(y)) = (proven_sign(a.score), proven_sign(b.score)) {
            both_proven += 1;
            assert_eq!(
                x, y,
                "{position}: {} without tables, {} with",
                a.score, b.score
            );
        }
        // The root starts the game: the tables' bounds are proven there.
        let bounds = tables
            .probe(&position)
            .expect("the tables cover the position");
        if let Some(value) = bounds.value() {
            exact_roots += 1;
            let us = position.side_to_move();
            let stores = i32::from(position.store(us)) - i32::from(position.store(us.opponent()));
            let margin = stores + i32::from(value);
            for score in [a.score, b.score] {
                if let Some(sign) = proven_sign(score) {
                    assert_eq!(
                        sign,
                        margin.signum(),
                        "{position}: table {value:+}, {score}"
                    );
                }
            }
            if margin == 0 {
                assert!(!matches!(b.score, Score::Mate(_)), "{position}: a draw");
            }
        }
    }
    assert!(both_proven >= 20, "only {both_proven} positions compared");
    assert!(exact_roots >= 20, "only {exact_roots} exact roots");
    assert!(hits > 0, "the tables were never probed");
}

#[test]
fn tables_of_another_rule_are_not_used() {
    let tables = Arc::new(Tables::build(GrandSlam::Forbidden, TABLE_SEEDS, 1));
    let mut searcher = Searcher::new(Settings::default());
    searcher.set_tables(Some(tables));
    for position in small_positions(5, 3) {
        let game = Game::new(position, GrandSlam::NoCapture);
        assert_eq!(last_info(&mut searcher, &game).tbhits, 0);
    }
}
