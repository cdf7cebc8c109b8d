//! The protocol: an Aualé-compatible dialect of UCI on stdin/stdout (specified in
//! `protocol.md`).
//!
//! - [`command`]: the commands as typed values; [`parse`]: nom parsers, one line at a time.
//! - [`response`]: the output lines (`Display`) and the shared flushed writer.
//! - [`options`]: the options and `setoption` checking.
//! - [`session`]: the state machine executing commands; [`engine`]: the search thread.
//!
//! Threads: one reads stdin and sends each line as an [`Event`]; the session thread handles
//! events in order (answering `isready` at once, setting `stop`/`ponderhit` flags); each search
//! runs on its own thread and prints its `info` lines and its one `bestmove` itself.

pub mod command;
pub mod engine;
pub mod options;
pub mod parse;
pub mod response;
pub mod session;
pub mod start;
pub mod tablebase;

pub use command::Command;
pub use engine::{Engine, Event, Job, ThreadEngine};
pub use parse::{ParseError, parse_command};
pub use response::{Output, Response};
pub use session::{Flow, Session};
pub use start::{StartOptions, StartValue};

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;
use std::sync::mpsc::{Sender, channel};

/// Runs the protocol on stdin/stdout, the options starting at `start`, until `quit` or the
/// end of input; exits with success.
pub fn run(start: StartOptions) -> ExitCode {
    let (events, inbox) = channel();
    let reader_events = events.clone();
    let reader = std::thread::Builder::new()
        .name("stdin".to_string())
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_events));
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return ExitCode::FAILURE;
    }
    let engine = ThreadEngine::new(start.options.settings);
    let mut session = Session::with_start(engine, Output::stdout(), events, start);
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if interactive {
        session.set_interactive(true);
        println!("{}", session::greeting());
    }
    session.start_tables();
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit {
            break;
        }
    }
    session.finish();
    ExitCode::SUCCESS
}

/// Sends every line of `input` as an event (line ends stripped), then [`Event::End`].
pub fn read_lines(mut input: impl BufRead, events: &Sender<Event>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let event = match input.read_until(b'\n', &mut buffer) {
            Ok(0) => Event::End,
            Ok(_) => {
                while matches!(buffer.last(), Some(b'\n' | b'\r')) {
                    buffer.pop();
                }
                match String::from_utf8(std::mem::take(&mut buffer)) {
                    Ok(line) => Event::Line(line),
                    Err(e) => {
                        let offset = e.utf8_error().valid_up_to();
                        Event::NotText(offset, String::from_utf8_lossy(e.as_bytes()).into_owned())
                    }
                }
            }
            Err(e) => {
                log::warn!("cannot read the input ({e}); ending the session");
                Event::End
            }
        };
        let end = event == Event::End;
        if events.send(event).is_err() || end {
            return;
        }
    }
}
