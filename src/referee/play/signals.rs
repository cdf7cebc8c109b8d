//! Stopping a match by a signal: SIGINT (Ctrl-C), SIGTERM (`kill`, Slurm's `scancel` and time
//! limit) and SIGHUP (a closed terminal or ssh session) all stop it the same way: games in
//! progress are left unfinished, and the records, the JSON and the summary are still written.
//! The exit status is then 128 + the signal's number, as a shell reports a process killed by
//! it (130, 143, 129). A second signal, or a stop that takes longer than [`STOP_DEADLINE`],
//! kills the engines' process groups and exits at once.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The first signal received (0: none yet). The handler is process-wide.
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// How long the match may take, after the first signal, to stop its games and write its files
/// before the engines are killed and the referee exits anyway.
pub const STOP_DEADLINE: Duration = Duration::from_secs(20);

/// Starts the thread that turns SIGINT, SIGTERM and SIGHUP into a stop request. A failure is
/// logged: the signals then kill the referee as they would by default.
pub fn install() {
    let mut signals = match Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(e) => {
            log::warn!("signals will not stop the match cleanly: {e}");
            return;
        }
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            on_signal(signal);
        }
    });
}

fn on_signal(signal: i32) {
    let name = name(signal);
    if let Err(first) = RECEIVED.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst) {
        say(&format!(
            "\n{name} after {}: killing the engines and exiting at once",
            self::name(first)
        ));
        exit_now(first);
    }
    say(&format!(
        "\n{name}: stopping the games in progress and writing the files ({} again to quit at \
         once)",
        if signal == SIGINT { "Ctrl-C" } else { name }
    ));
    std::thread::spawn(move || {
        std::thread::sleep(STOP_DEADLINE);
        say(&format!(
            "the match did not stop within {} s of {name}: killing the engines and exiting",
            STOP_DEADLINE.as_secs()
        ));
        exit_now(signal);
    });
}

/// A line on stderr, if it can still be written: after SIGHUP the terminal may be gone, and a
/// failed write must not end the thread that stops the match.
fn say(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn exit_now(signal: i32) -> ! {
    crate::referee::engines::process::kill_all();
    std::process::exit(128 + signal);
}

/// The signal that stopped the match, if one did.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// `SIGINT`, `SIGTERM`, `SIGHUP`, or the number.
pub fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// The exit status of a match stopped by `signal`: 128 + its number (130 for SIGINT, 143 for
/// SIGTERM, 129 for SIGHUP), what a shell shows for a process the signal killed.
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}
