//! `krou record`: a transparent proxy between a client (a GUI, a referee) and an engine that
//! writes the dialogue down as a transcript `krou replay` accepts; or the same from a log.
//!
//! The proxy passes every line through unchanged, both ways, as soon as it has it (the line is
//! written and flushed before it is recorded). The transcript is written line by line as the
//! session goes, so a session that ends badly still leaves what happened. The engine's exit
//! status passes through (an engine killed by a signal ends the proxy by the same signal);
//! SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the proxy are passed on to the engine; a client
//! that closes the proxy's input closes the engine's.

use super::dialogue::{Direction, Event, Generaliser, transcript};
use super::junit::now_timestamp;
use super::logs;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitCode, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// The most files one `%n` pattern numbers.
const MAX_NUMBERED: u32 = 100_000;

/// How long the proxy waits for the engine's last output once the engine has exited.
const OUTPUT_DRAIN: Duration = Duration::from_secs(2);

/// `krou record`: record a session through a proxy, or turn a log into a transcript.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
                  /usr/bin/python3 src/auale --engine \"/usr/local/bin/krou record --out /tmp/session-%n.txt -- /usr/local/bin/krou\"\n  \
                  krou match --engine \"name=krou krou record --out g-%n.txt -- ./krou\" …\n  \
                  krou record --from-log logs/round-0003-South-krou.log --out round-3.txt\n  \
                  krou record --from-log auale-debug.log --out 'auale-engine-%n.txt'")]
pub struct Args {
    /// The transcript to write (required when recording; standard output with --from-log).
    /// When recording, a `%n` in the name becomes the first number whose file does not exist
    /// yet, so that each engine a client starts writes its own: `--out 'rec/game-%n.txt'`
    /// (`krou match` starts one per game, and one more to check it starts). With --from-log,
    /// `%n` is the log's engine number: the Aualé GUI's log holds two engines' dialogues.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Keep every line as it was (info lines, times, every bestmove), instead of generalising
    /// what changes from run to run.
    #[arg(long)]
    exact: bool,
    /// Read a `krou match --log-dir` log or the Aualé GUI's `--debug` output instead of
    /// running an engine.
    #[arg(long, value_name = "LOG", conflicts_with = "engine")]
    from_log: Option<PathBuf>,
    /// The engine command and its arguments (after `--`).
    #[arg(last = true, value_name = "ENGINE")]
    engine: Vec<String>,
}

impl Args {
    /// Records a session, or converts a log; see [`Args`].
    pub fn run(&self) -> ExitCode {
        match &self.from_log {
            Some(log) => self.convert(log),
            None => self.record(),
        }
    }

    fn convert(&self, log: &PathBuf) -> ExitCode {
        let text = match std::fs::read(log) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => return fail(&format!("cannot read {}: {e}", log.display())),
        };
        let dialogues = match logs::read(&text) {
            Ok(dialogues) => dialogues,
            Err(e) => return fail(&format!("{}: {e}", log.display())),
        };
        let numbered = self.out.as_ref().is_some_and(|out| has_number(out));
        if dialogues.len() > 1 && !numbered {
            return fail(&format!(
                "{} holds the dialogues of {} engines: give --out a name with %n \
                 (the log's engine number), e.g. --out 'session-%n.txt'",
                log.display(),
                dialogues.len()
            ));
        }
        for dialogue in &dialogues {
            if let Err(message) = self.write_converted(log, dialogue) {
                return fail(&message);
            }
        }
        ExitCode::SUCCESS
    }

    /// Writes one dialogue of a log as a transcript: to `--out` (its `%n` the log's engine
    /// number), or to standard output.
    fn write_converted(
        &self,
        log: &std::path::Path,
        dialogue: &logs::Dialogue,
    ) -> Result<(), String> {
        let mut header = vec![format!("From {}, {}", log.display(), dialogue.kind)];
        if let Some(number) = dialogue.engine {
            header[0].push_str(&format!(", engine {number}"));
        }
        if let Some(command) = &dialogue.command {
            header.push(format!("Engine: {command}"));
        }
        header.push(format!("by krou record --from-log on {}", now_timestamp()));
        if let Some(note) = &dialogue.truncated {
            eprintln!("krou record: {}: {note}", log.display());
            header.push(format!("The log was cut short: {note}"));
        }
        let text = transcript(&header, &dialogue.events, self.exact);
        match &self.out {
            Some(pattern) => {
                let number = dialogue.engine.unwrap_or(1).to_string();
                let path = PathBuf::from(pattern.to_string_lossy().replace("%n", &number));
                std::fs::write(&path, text)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            }
            None => std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the transcript: {e}")),
        }
    }

    fn record(&self) -> ExitCode {
        let Some(out) = &self.out else {
            return fail("--out FILE is needed to record (standard output is the client's)");
        };
        let Some((program, arguments)) = self.engine.split_first() else {
            return fail("no engine to record: give its command after --");
        };
        let (file, out) = match create_output(out) {
            Ok(created) => created,
            Err(message) => return fail(&message),
        };
        let out = &out;
        let mut child = match Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => return fail(&format!("cannot start the engine '{program}': {e}")),
        };
        let header = vec![
            format!("Recorded by krou record on {}", now_timestamp()),
            format!("Engine: {}", self.engine.join(" ")),
        ];
        let recorder = Recorder::new(file, &header, self.exact);
        let (status, written) = proxy(&mut child, recorder);
        if let Err(e) = written {
            eprintln!("krou record: cannot write {}: {e}", out.display());
        }
        match status {
            Ok(status) => pass_on(status),
            Err(e) => fail(&format!("waiting for the engine: {e}")),
        }
    }
}

/// Whether a file name has a `%n` to number.
fn has_number(pattern: &std::path::Path) -> bool {
    pattern.to_string_lossy().contains("%n")
}

/// Creates the transcript file, `%n` replaced by the first free number (1, 2, …): created
/// only if new, so that two engines started at once never share a file.
fn create_output(pattern: &std::path::Path) -> Result<(File, PathBuf), String> {
    let text = pattern.to_string_lossy();
    if !has_number(pattern) {
        return File::create(pattern)
            .map(|file| (file, pattern.to_path_buf()))
            .map_err(|e| format!("cannot write {}: {e}", pattern.display()));
    }
    for n in 1..=MAX_NUMBERED {
        let path = PathBuf::from(text.replace("%n", &n.to_string()));
        match File::options().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("cannot write {}: {e}", path.display())),
        }
    }
    Err(format!(
        "{}: every number up to {MAX_NUMBERED} is taken",
        pattern.display()
    ))
}

/// Writes the transcript as the events come.
struct Recorder {
    generaliser: Generaliser,
    out: BufWriter<File>,
    error: Option<std::io::Error>,
}

impl Recorder {
    fn new(file: File, header: &[String], exact: bool) -> Recorder {
        let mut recorder = Recorder {
            generaliser: Generaliser::new(exact),
            out: BufWriter::new(file),
            error: None,
        };
        recorder.write(&transcript(header, &[], exact));
        recorder
    }

    fn event(&mut self, event: &Event) {
        let mut text = String::new();
        for line in self.generaliser.push(event) {
            text.push_str(&line);
            text.push('\n');
        }
        self.write(&text);
    }

    fn write(&mut self, text: &str) {
        if self.error.is_none() {
            if let Err(e) = self
                .out
                .write_all(text.as_bytes())
                .and_then(|()| self.out.flush())
            {
                self.error = Some(e);
            }
        }
    }

    fn finish(&mut self) -> std::io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

/// Numbers the events in the order the proxy read them and stamps their time.
///
/// A line is numbered as soon as it is read, before it is passed on, so a line that answers it
/// (read later, on the other side) always gets a later number: the transcript keeps cause before
/// effect even though the two directions are recorded by two threads.
struct Stamps {
    started: Instant,
    next: AtomicU64,
}

impl Stamps {
    fn take(&self) -> (u64, Duration) {
        let number = self.next.fetch_add(1, Ordering::SeqCst);
        (number, self.started.elapsed())
    }
}

/// What the forwarding threads tell the writer.
enum Message {
    /// An event and its number.
    Event(u64, Event),
    /// The session is over: write what is left and answer.
    Finish(Sender<std::io::Result<()>>),
}

/// Writes the events in the order of their numbers; ends at [`Message::Finish`].
fn write_in_order(mut recorder: Recorder, inbox: &Receiver<Message>) {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    while let Ok(message) = inbox.recv() {
        match message {
            Message::Event(number, event) => {
                waiting.insert(number, event);
                while let Some(event) = waiting.remove(&next) {
                    recorder.event(&event);
                    next += 1;
                }
            }
            Message::Finish(answer) => {
                for event in waiting.values() {
                    recorder.event(event);
                }
                let _ = answer.send(recorder.finish());
                return;
            }
        }
    }
}

/// The recording side of a forwarding thread.
#[derive(Clone)]
struct Tap {
    stamps: Arc<Stamps>,
    writer: Sender<Message>,
}

impl Tap {
    /// Numbers a line just read, before it is passed on.
    fn stamp(&self) -> (u64, Duration) {
        self.stamps.take()
    }

    fn record(&self, (number, at): (u64, Duration), direction: Direction, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes)
            .trim_end_matches(['\n', '\r'])
            .to_string();
        let event = Event::Line {
            at,
            direction,
            text,
        };
        let _ = self.writer.send(Message::Event(number, event));
    }
}

/// Passes lines both ways until the engine exits and writes the transcript; returns the
/// engine's exit status and how the writing went.
fn proxy(
    child: &mut Child,
    recorder: Recorder,
) -> (std::io::Result<ExitStatus>, std::io::Result<()>) {
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    forward_signals(child.id());
    let (writer, inbox) = channel();
    std::thread::spawn(move || write_in_order(recorder, &inbox));
    let tap = Tap {
        stamps: Arc::new(Stamps {
            started: Instant::now(),
            next: AtomicU64::new(0),
        }),
        writer: writer.clone(),
    };
    let client_tap = tap.clone();
    std::thread::spawn(move || client_to_engine(stdin, &client_tap));
    let (done, drained) = channel();
    std::thread::spawn(move || {
        if let Some(stdout) = stdout {
            engine_to_client(stdout, &tap);
        }
        let _ = done.send(());
    });
    let status = child.wait();
    let _ = drained.recv_timeout(OUTPUT_DRAIN);
    let (answer, written) = channel();
    let _ = writer.send(Message::Finish(answer));
    let written = written
        .recv_timeout(OUTPUT_DRAIN)
        .unwrap_or_else(|_| Err(std::io::Error::other("the transcript writer stopped")));
    (status, written)
}

/// Records the client's lines and copies them to the engine; closes the engine's input when the
/// client closes the proxy's.
fn client_to_engine(stdin: Option<ChildStdin>, tap: &Tap) {
    let mut input = std::io::stdin().lock();
    let mut engine = stdin;
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // Recorded (numbered, then handed to the writer) before it is passed on: the writer
        // then has it even if the engine exits at once on it (`quit`).
        tap.record(tap.stamp(), Direction::Sent, &line);
        if let Some(pipe) = engine.as_mut() {
            if pipe.write_all(&line).and_then(|()| pipe.flush()).is_err() {
                engine = None;
            }
        }
    }
    let (number, at) = tap.stamp();
    let _ = tap
        .writer
        .send(Message::Event(number, Event::InputClosed { at }));
    drop(engine);
}

/// Records the engine's lines and copies them to the client.
fn engine_to_client(stdout: impl Read, tap: &Tap) {
    let mut output = BufReader::new(stdout);
    let mut client = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match output.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        tap.record(tap.stamp(), Direction::Received, &line);
        let _ = client.write_all(&line).and_then(|()| client.flush());
    }
}

/// Passes SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the proxy on to the engine.
fn forward_signals(engine: u32) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    else {
        log::warn!("cannot catch signals: they will not be passed on to the engine");
        return;
    };
    let Ok(pid) = i32::try_from(engine) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if let Ok(signal) = nix::sys::signal::Signal::try_from(signal) {
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), signal);
            }
        }
    });
}

/// Ends the proxy as the engine ended: with its exit code, or by the signal that killed it.
fn pass_on(status: ExitStatus) -> ExitCode {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        let _ = signal_hook::low_level::emulate_default_handler(signal);
        return ExitCode::from(128u8.wrapping_add(signal as u8));
    }
    status
        .code()
        .map_or(ExitCode::FAILURE, |code| ExitCode::from(code as u8))
}

fn fail(message: &str) -> ExitCode {
    eprintln!("krou record: {message}");
    ExitCode::from(2)
}
