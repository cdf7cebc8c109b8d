//! An engine for in-process session tests that answers at once: a search ends as soon as its
//! limits let it (bounded: at the next [`InlineEngine::step`]; unbounded or pondering: once
//! stopped, as the real engine holds its `bestmove`), reporting its end and printing one `bestmove` as the real engine does.

use krou::protocol::{Engine, Event, Job, Output, Session};
use krou::rules::{GrandSlam, Position, perft_report};
use krou::search::{Limits, Settings};
use std::io::Write;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// A collecting output.
#[derive(Clone, Default)]
pub struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("sink lock").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    /// The lines written since the last call.
    pub fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().expect("sink lock"));
        String::from_utf8(bytes)
            .expect("output is text")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// A search that has started and not yet printed its `bestmove`.
struct Pending {
    job: Job,
    output: Output,
    events: Sender<Event>,
}

impl Pending {
    /// Ends it as a search does: report the end, then print the one `bestmove`.
    fn finish(self) {
        let _ = self.events.send(Event::SearchDone(self.job.generation));
        self.output.send(&krou::protocol::Response::BestMove {
            best: self.job.game.legal_moves().next(),
            ponder: None,
        });
    }

    fn may_end(&self) -> bool {
        let control = &self.job.control;
        control.is_stopped() || !(self.job.limits.is_unbounded() || control.is_pondering())
    }
}

/// An engine that answers at once: a search ends as soon as its limits let it.
#[derive(Clone, Default)]
pub struct InlineEngine {
    pending: Arc<Mutex<Option<Pending>>>,
    /// The limits of the last search started, until [`InlineEngine::take_started`].
    started: Arc<Mutex<Option<Limits>>>,
}

impl InlineEngine {
    /// The limits and pondering flag of the search that has started and not yet ended.
    pub fn pending(&self) -> Option<(Limits, bool)> {
        let pending = self.pending.lock().expect("pending lock");
        pending
            .as_ref()
            .map(|p| (p.job.limits.clone(), p.job.control.is_pondering()))
    }

    /// The limits of the search started since the last call, if one was.
    pub fn take_started(&self) -> Option<Limits> {
        self.started.lock().expect("started lock").take()
    }

    /// Ends the pending search if it may end now.
    pub fn step(&self) {
        let mut pending = self.pending.lock().expect("pending lock");
        if pending.as_ref().is_some_and(Pending::may_end) {
            if let Some(search) = pending.take() {
                search.finish();
            }
        }
    }
}

impl Engine for InlineEngine {
    fn configure(&mut self, _: Settings) {}
    fn clear(&mut self) {}
    fn start(&mut self, job: Job, output: &Output, events: &Sender<Event>) {
        *self.started.lock().expect("started lock") = Some(job.limits.clone());
        let pending = Pending {
            job,
            output: output.clone(),
            events: events.clone(),
        };
        *self.pending.lock().expect("pending lock") = Some(pending);
    }
    fn join(&mut self) {
        if let Some(search) = self.pending.lock().expect("pending lock").take() {
            search.finish();
        }
    }
    fn perft(&mut self, position: &Position, depth: u32, rule: GrandSlam) -> Vec<String> {
        // Capped so that mutated depths keep the fuzzing fast; the real perft is in transcripts.
        perft_report(position, depth.min(2), rule)
    }
}

/// A session on an [`InlineEngine`]: the session, its engine, its output and the events the
/// searches send back.
pub struct InlineSession {
    /// The session under test.
    pub session: Session<InlineEngine>,
    /// Its engine (a clone sharing the pending search).
    pub engine: InlineEngine,
    /// What it printed.
    pub sink: Sink,
    /// The searches' ends, for [`Session::handle`].
    pub inbox: Receiver<Event>,
}

impl InlineSession {
    /// A fresh session at the start position.
    pub fn new() -> InlineSession {
        let (events, inbox) = channel();
        let sink = Sink::default();
        let engine = InlineEngine::default();
        let session = Session::new(engine.clone(), Output::new(sink.clone()), events);
        InlineSession {
            session,
            engine,
            sink,
            inbox,
        }
    }

    /// Sends a line; returns everything printed until the engine has ended what it may end.
    pub fn send(&mut self, line: &str) -> Vec<String> {
        assert_eq!(
            self.session.handle(Event::Line(line.to_string())),
            krou::protocol::Flow::Continue
        );
        self.settle()
    }

    /// Ends the searches that may end, hands their ends to the session, and returns what was
    /// printed since the last call.
    pub fn settle(&mut self) -> Vec<String> {
        let mut lines = self.sink.take_lines();
        self.engine.step();
        while let Ok(event) = self.inbox.try_recv() {
            self.session.handle(event);
        }
        lines.extend(self.sink.take_lines());
        lines
    }
}
