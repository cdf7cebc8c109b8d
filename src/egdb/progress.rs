//! The progress of `krou egdb build` on stderr: an `indicatif` bar per layer on a terminal
//! (nothing drawn when stderr is not one), and one line per finished layer everywhere, so that
//! logs get the layer times without any carriage returns.

use super::build::Progress;
use super::index::board_count;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Mutex;
use std::time::Instant;

/// The bar's layout: `12 seeds [=====>    ] 9/14 3s`.
const TEMPLATE: &str = "{prefix} [{bar:30}] {pos}/{len} {elapsed}";

/// The layer being built.
struct Current {
    seeds: u8,
    bar: ProgressBar,
    started: Instant,
}

/// Shows the build's progress; [`BuildProgress::report`] is the builder's callback.
#[derive(Default)]
pub struct BuildProgress {
    current: Mutex<Option<Current>>,
}

impl BuildProgress {
    /// Takes one report from the builder (from any thread).
    pub fn report(&self, p: Progress) {
        let Ok(mut current) = self.current.lock() else {
            return;
        };
        if p.done == 0 || current.as_ref().is_none_or(|c| c.seeds != p.seeds) {
            *current = Some(start(p));
        }
        let Some(layer) = current.as_ref() else {
            return;
        };
        layer.bar.set_position(p.done);
        if p.done >= p.total {
            layer.bar.finish_and_clear();
            eprintln!(
                "{}",
                done_line(p.seeds, layer.started.elapsed().as_secs_f64())
            );
            *current = None;
        }
    }
}

fn start(p: Progress) -> Current {
    let bar = ProgressBar::with_draw_target(Some(p.total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(TEMPLATE) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(format!("{:2} seeds", p.seeds));
    Current {
        seeds: p.seeds,
        bar,
        started: Instant::now(),
    }
}

/// `12 seeds:   1,352,078 boards in 3.21 s, CPU so far 6.0 s`.
fn done_line(seeds: u8, secs: f64) -> String {
    let cpu = cpu_seconds().map_or(String::new(), |s| format!(", CPU so far {s:.1} s"));
    format!(
        "{seeds:2} seeds: {:>11} boards in {secs:8.2} s{cpu}",
        board_count(seeds)
    )
}

/// CPU time used by this process so far (all threads), where `/proc` tells it (Linux, at the
/// usual 100 ticks a second).
fn cpu_seconds() -> Option<f64> {
    const TICKS_PER_SECOND: f64 = 100.0;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / TICKS_PER_SECOND)
}
