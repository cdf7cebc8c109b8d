//! Fits the evaluation weights (`src/search/eval.rs`) to self-play results.
//!
//! Plays `games` games of Krou against itself at a fixed `depth`, each from the start after
//! `RANDOM_PLIES` pseudo-random moves (a fixed seed, so runs are reproducible). Every position
//! of a game is a sample: its features from the side to move's point of view and 100 × the
//! game's final seed margin for that side. The weights minimise the squared error (normal
//! equations, solved by Gaussian elimination) and are printed ready to paste.
//!
//! `cargo run --release --example fit_eval -- <games> <depth>`

use krou::rules::{Game, GrandSlam, Position};
use krou::search::eval::{FEATURES, NAMES, WEIGHTS, features};
use krou::search::{Control, Features, Limits, Searcher, Settings};

/// Moves played at random at the start of each game, for variety.
const RANDOM_PLIES: usize = 6;
/// Games longer than this are abandoned (they would end by repetition anyway).
const MAX_PLIES: usize = 400;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(6);
    let mut searcher = Searcher::new(Settings {
        hash_mib: 8,
        threads: 1,
    });
    // The games are played with the evaluation being fitted, not the learned one.
    searcher.set_features(Features {
        learned_evaluation: false,
        ..Features::default()
    });
    let mut state = 0x6b72_6f75_u64;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let mut xtx = [[0f64; FEATURES]; FEATURES];
    let mut xty = [0f64; FEATURES];
    let mut samples = 0usize;
    let mut squared_error = 0f64;
    let mut yy = 0f64;
    for g in 0..games {
        let mut game = Game::new(Position::start(), GrandSlam::NoCapture);
        searcher.clear();
        let mut seen = Vec::new();
        while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
            let moves: Vec<_> = game.legal_moves().collect();
            let mv = if game.moves().len() < RANDOM_PLIES {
                moves[random() % moves.len()]
            } else {
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                let found = searcher.search(&game, &limits, &Control::new(false), &mut |_| {});
                found.best.unwrap_or(moves[0])
            };
            seen.push(*game.position());
            if game.play(mv).is_err() {
                break;
            }
        }
        let Some(outcome) = game.outcome() else {
            continue;
        };
        for position in &seen {
            let f = features(position).map(f64::from);
            let y = 100.0 * f64::from(outcome.margin(position.side_to_move()));
            for i in 0..FEATURES {
                xty[i] += f[i] * y;
                for j in 0..FEATURES {
                    xtx[i][j] += f[i] * f[j];
                }
            }
            let old: f64 = (0..FEATURES).map(|i| f64::from(WEIGHTS[i]) * f[i]).sum();
            squared_error += (old - y) * (old - y);
            yy += y * y;
            samples += 1;
        }
        if (g + 1) % 50 == 0 {
            eprintln!("{} games, {samples} positions", g + 1);
        }
    }
    let weights = solve(xtx, xty);
    println!("{samples} positions from {games} games at depth {depth}");
    for i in 0..FEATURES {
        println!("{:>9.2}  {}", weights[i], NAMES[i]);
    }
    let rounded: Vec<String> = weights
        .iter()
        .map(|w| format!("{}", w.round() as i64))
        .collect();
    println!(
        "pub const WEIGHTS: [i32; FEATURES] = [{}];",
        rounded.join(", ")
    );
    // Residual sum of squares of the fit: y'y - 2 w'X'y + w'X'X w.
    let mut fitted = yy;
    for i in 0..FEATURES {
        fitted -= 2.0 * weights[i] * xty[i];
        for j in 0..FEATURES {
            fitted += weights[i] * xtx[i][j] * weights[j];
        }
    }
    let n = samples.max(1) as f64;
    println!(
        "rms error (100 x seeds): current weights {:.0}, fitted weights {:.0}",
        (squared_error / n).sqrt(),
        (fitted.max(0.0) / n).sqrt()
    );
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; FEATURES]; FEATURES], mut b: [f64; FEATURES]) -> [f64; FEATURES] {
    for col in 0..FEATURES {
        let pivot = (col..FEATURES)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        for row in 0..FEATURES {
            if row != col {
                let factor = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= factor * p;
                }
                b[row] -= factor * b[col];
            }
        }
    }
    let mut x = [0f64; FEATURES];
    for i in 0..FEATURES {
        if a[i][i].abs() >= 1e-12 {
            x[i] = b[i] / a[i][i];
        }
    }
    x
}
