//! An in-process match between the default search and the search with one feature toggled,
//! at a fixed number of nodes per move (so CPU load does not change the result), with an SPRT.
//!
//! Each opening (a few pseudo-random moves from the start, fixed seed) is played twice, once
//! with each engine as South. Prints W/D/L of the default search, its Elo gain with a 95%
//! interval, and the SPRT log-likelihood ratio for H0 = 0 Elo against H1 = `ELO1` Elo
//! (α = β = 0.05: accept H1 at LLR ≥ 2.94, H0 at LLR ≤ −2.94).
//!
//! `cargo run --release --example ab_match -- <feature> <pairs> <nodes per move>`
//! with `<feature>` a name of `Features::without_each` (`aspiration`, `lmr`, `killers-history`,
//! `reverse-futility`, `quiescence`, `learned-evaluation`, `interval-estimate`,
//! `internal-reduction`, `razoring`; not `time-by-phase`, which needs a clock). Each name
//! toggles its feature: off where the default has it on, on where it is off (`aspiration`,
//! `interval-estimate`, `razoring`).

use krou::rules::{Game, GrandSlam, Position};
use krou::search::{Control, Features, Limits, Searcher, Settings};

/// Moves played at random to open each pair of games.
const OPENING_PLIES: usize = 4;
/// Games longer than this are scored as they stand (seeds on each side counted).
const MAX_PLIES: usize = 300;
/// The alternative hypothesis of the SPRT, in Elo.
const ELO1: f64 = 10.0;
/// SPRT bounds for α = β = 0.05.
const LLR_BOUND: f64 = 2.944;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).cloned().unwrap_or_else(|| "lmr".to_string());
    let pairs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let Some((_, without)) = Features::without_each()
        .into_iter()
        .find(|(n, _)| *n == name)
    else {
        eprintln!("unknown feature {name}");
        return;
    };
    let mut full = Searcher::new(Settings {
        hash_mib: 8,
        threads: 1,
    });
    let mut reduced = Searcher::new(Settings {
        hash_mib: 8,
        threads: 1,
    });
    reduced.set_features(without);
    let mut state = 0x6162_u64;
    let mut random = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    for pair in 0..pairs {
        let mut opening = Game::new(Position::start(), GrandSlam::NoCapture);
        for _ in 0..OPENING_PLIES {
            let moves: Vec<_> = opening.legal_moves().collect();
            if moves.is_empty() || opening.play(moves[random() % moves.len()]).is_err() {
                break;
            }
        }
        for full_is_south in [true, false] {
            let margin = play(&opening, &mut full, &mut reduced, full_is_south, nodes);
            match margin.signum() {
                1 => wins += 1,
                -1 => losses += 1,
                _ => draws += 1,
            }
        }
        if (pair + 1) % 10 == 0 || pair + 1 == pairs {
            report(&name, nodes, wins, draws, losses);
        }
    }
}

/// Plays one game; returns the final margin of the full search.
fn play(
    opening: &Game,
    full: &mut Searcher,
    reduced: &mut Searcher,
    full_is_south: bool,
    nodes: u64,
) -> i32 {
    let mut game = opening.clone();
    full.clear();
    reduced.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        let south = game.position().side_to_move() == krou::rules::Side::South;
        let engine = if south == full_is_south {
            &mut *full
        } else {
            &mut *reduced
        };
        let found = engine.search(&game, &limits, &Control::new(false), &mut |_| {});
        let Some(mv) = found.best else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    let full_side = if full_is_south {
        krou::rules::Side::South
    } else {
        krou::rules::Side::North
    };
    match game.outcome() {
        Some(outcome) => outcome.margin(full_side),
        None => {
            let end = game.position().with_own_seeds_stored();
            i32::from(end.store(full_side)) - i32::from(end.store(full_side.opponent()))
        }
    }
}

fn report(name: &str, nodes: u64, w: u32, d: u32, l: u32) {
    let n = f64::from(w + d + l);
    let s = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s * s)
        / n;
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    let margin = 1.96 * (var / n).sqrt();
    let (s0, s1) = (0.5, 1.0 / (1.0 + 10f64.powf(-ELO1 / 400.0)));
    let llr = if var > 0.0 {
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    } else {
        0.0
    };
    let verdict = if llr >= LLR_BOUND {
        "H1 accepted"
    } else if llr <= -LLR_BOUND {
        "H0 accepted"
    } else {
        "undecided"
    };
    println!(
        "{name} on vs off, {nodes} nodes/move: +{w} ={d} -{l}  Elo {:+.1} [{:+.1}, {:+.1}]  LLR {llr:.2} ({verdict})",
        elo(s),
        elo(s - margin),
        elo(s + margin)
    );
}
