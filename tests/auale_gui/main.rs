//! The Aualé GUI (2.2.0, unmodified) played by clicks with Krou as its engine, through
//! `krou record`: the four levels chosen from the menu, a move made while the engine ponders,
//! an undo, a new match watched, the window closed. From the GUI's own log and the recorder's
//! files: every engine move legal, every `go` answered by one `bestmove`, no warning from the
//! GUI's protocol client, both engine processes gone after the close, the live transcripts and
//! the ones `krou record --from-log` makes of the GUI's log replay green. Then a whole game
//! against a level set by `--option`, to its end.
//!
//! It needs an Aualé tree (`KROU_AUALE_DIR`), the system Python with GTK's bindings, Xvfb and
//! xdotool, and skips saying which is missing; `.ci/run` installs them and sets
//! `KROU_AUALE_REQUIRED=1`, which makes a missing one fail instead. Every wait is for a line
//! of the GUI's log (or a window, or a process's end), bounded; none is a fixed sleep.
// Helpers here are test code too: a setup step that fails should fail the test where it is.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod dialogue;
mod display;
mod log;

use dialogue::{after, best_move, giving_away, position_of};
use display::{Screen, Window};
use krou::rules::{GrandSlam, Move, Position, Side};
use log::{Log, engine_line};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The window size the pits' and menus' places were measured at (the GUI's default).
const WINDOW_SIZE: (i32, i32) = (1066, 650);
/// The longest any one awaited event may take: the longest search asked (3.6 s at Expert)
/// and the sowing animations, with room for a loaded machine.
const EVENT_WAIT: Duration = Duration::from_secs(60);
/// How long a click on a pit may take to reach the log before the next pit is tried (the GUI
/// ignores a click on an empty pit, or one made while a sowing is still drawn).
const CLICK_WAIT: Duration = Duration::from_secs(6);
/// How many times a menu choice that shows in the log is made before the test gives up.
const MENU_TRIES: usize = 3;
/// The GUI's lines that open and close a request for a move from a player.
const REQUEST: &str = "DEBUG:game-loop:Received a move request";
const REQUESTED: &str = "DEBUG:game-loop:Move requested for player";

/// The GUI's strength levels, in its menu's order, with the `go` each sends.
const LEVELS: [(&str, &str); 4] = [
    ("Easy", "go depth 2 movetime 600"),
    ("Medium", "go depth 6 movetime 1200"),
    ("Hard", "go depth 16 movetime 2400"),
    ("Expert", "go movetime 3600"),
];

fn krou() -> &'static str {
    env!("CARGO_BIN_EXE_krou")
}

/// What the test needs and did not find, if anything.
fn missing(tree: &Option<PathBuf>) -> Vec<String> {
    let mut missing = Vec::new();
    match tree {
        None => missing.push("KROU_AUALE_DIR (the path of an Aualé 2.2 source tree)".into()),
        Some(tree) if !tree.join("src/auale/__main__.py").is_file() => missing.push(format!(
            "an Aualé tree at KROU_AUALE_DIR={} (no src/auale/__main__.py)",
            tree.display()
        )),
        Some(_) => {}
    }
    for program in ["Xvfb", "xdotool", "glib-compile-schemas"] {
        let found = std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
        });
        if !found {
            missing.push(format!("{program} (on PATH)"));
        }
    }
    let bindings = "import gi\n\
        for name, version in [('Gtk', '3.0'), ('GtkClutter', '1.0'), ('Manette', '0.2'), ('Rsvg', '2.0')]:\n    \
            gi.require_version(name, version)\n\
        from gi.repository import Gtk, GtkClutter, Manette, Rsvg\n\
        import sdl2\n";
    let python = Command::new("/usr/bin/python3")
        .args(["-c", bindings])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !python.is_ok_and(|status| status.success()) {
        missing.push(
            "/usr/bin/python3 with GTK 3's bindings (python3-gi python3-gi-cairo gir1.2-gtk-3.0 \
             gir1.2-rsvg-2.0 gir1.2-gtkclutter-1.0 gir1.2-manette-0.2 python3-sdl2)"
                .into(),
        );
    }
    missing
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("krou-auale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The GUI's settings schema compiled into a directory of the test's own.
fn compile_schema(tree: &Path, dir: &Path) -> PathBuf {
    let schemas = dir.join("schemas");
    std::fs::create_dir_all(&schemas).unwrap();
    let name = "com.joansala.auale.gschema.xml";
    std::fs::copy(
        tree.join("share/glib-2.0/schemas").join(name),
        schemas.join(name),
    )
    .unwrap();
    let status = Command::new("glib-compile-schemas")
        .arg(&schemas)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "glib-compile-schemas {}",
        schemas.display()
    );
    schemas
}

/// The GUI running on the test's screen, and what the test knows of the match.
struct Gui {
    screen: Screen,
    window: Window,
    process: Child,
    log: Log,
    dir: PathBuf,
    /// The position on the board when the person is to move, if known (the GUI's own book
    /// plays the computer's first moves without a line in the log).
    known: Option<Position>,
    /// The person's pits not yet sown in this match: each still holds four seeds or more,
    /// so it is a legal move while the position is not known.
    fresh: Vec<Move>,
    /// The position the engine last searched for the computer's move.
    searched: Option<Position>,
    /// The engine pondering on the person's time, if one is.
    ponderer: Option<u32>,
    /// The processes the GUI started: the two `krou record` proxies and their engines.
    engines: Vec<u32>,
    /// Where the log was read up to.
    read: usize,
    /// Whether the person plays the moves that give the most seeds away.
    giving_away: bool,
}

impl Gui {
    /// Starts the GUI with `krou record … -- krou OPTIONS…` as its engine.
    fn start(tree: &Path, dir: &Path, options: &[&str]) -> Gui {
        let screen = Screen::start();
        let schemas = compile_schema(tree, dir);
        let home = dir.join("home");
        // GTK's animations off, so that a menu is there as soon as its button is clicked.
        std::fs::create_dir_all(home.join("config/gtk-3.0")).unwrap();
        std::fs::write(
            home.join("config/gtk-3.0/settings.ini"),
            "[Settings]\ngtk-enable-animations=0\n",
        )
        .unwrap();
        // KROU_AUALE_ENGINE stands in for the engine behind the recorder (to show that the
        // test fails with an engine that breaks the dialogue).
        let inner = std::env::var("KROU_AUALE_ENGINE").unwrap_or_else(|_| krou().to_string());
        let inner = std::iter::once(inner.as_str())
            .chain(options.iter().copied())
            .collect::<Vec<_>>()
            .join(" ");
        let engine = format!(
            "{} record --out {}/live-%n.txt -- {inner}",
            krou(),
            dir.display(),
        );
        assert!(
            !krou().contains(' ') && !dir.display().to_string().contains(' '),
            "the GUI splits --engine on spaces: {engine}"
        );
        let mut process = Command::new("/usr/bin/python3")
            .args(["src/auale", "--debug", "--engine", &engine])
            .current_dir(tree)
            .env("DISPLAY", &screen.display)
            .env("GSETTINGS_SCHEMA_DIR", &schemas)
            .env("GSETTINGS_BACKEND", "memory")
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("KROU_EGDB_DIR", dir.join("egdb"))
            // The tables of 0-12 seeds, built at once; not the minutes-long 0-20 build, which
            // tests/engine_build.rs covers and which the window's close would cut short.
            .env("KROU_EGDB_BUILD", "off")
            .env("PYTHONUNBUFFERED", "1")
            .env("NO_AT_BRIDGE", "1")
            .env("GDK_BACKEND", "x11")
            .env_remove("RUST_LOG")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(dir.join("gui-stderr.txt")).unwrap())
            .spawn()
            .expect("the GUI starts under /usr/bin/python3");
        let log = Log::follow(process.stdout.take().unwrap(), &dir.join("gui.log"));
        let window = screen.window("^Aualé$");
        let mut gui = Gui {
            screen,
            window,
            process,
            log,
            dir: dir.to_path_buf(),
            known: Some(Position::start()),
            fresh: "FEDCBA"
                .chars()
                .map(|c| c.to_string().parse().unwrap())
                .collect(),
            searched: None,
            ponderer: None,
            engines: Vec::new(),
            read: 0,
            giving_away: false,
        };
        assert_eq!(
            (gui.window.width, gui.window.height),
            WINDOW_SIZE,
            "the clicks' places were measured at the GUI's default size"
        );
        for engine in [1, 2] {
            gui.expect(&format!("engine {engine}'s uciok"), |line| {
                engine_line(line).is_some_and(|l| l.engine == engine && l.text == "uciok")
            });
        }
        gui.engines = children(gui.process.id())
            .into_iter()
            .flat_map(|proxy| std::iter::once(proxy).chain(children(proxy)))
            .collect();
        gui
    }

    /// Waits for the next line (from where the log was read up to) that `wanted` accepts, and
    /// reads on from it; fails, with a screenshot and the log's end, if it does not come.
    fn expect(&mut self, what: &str, wanted: impl Fn(&str) -> bool) -> usize {
        match self.log.wait_for(self.read, EVENT_WAIT, wanted) {
            Some(at) => {
                self.read = at + 1;
                at
            }
            None => self.fail(&format!("waited for {what}")),
        }
    }

    fn fail(&self, what: &str) -> ! {
        let shot = self.dir.join("failure.png");
        let saved = self.screen.screenshot(&shot);
        let lines = self.log.lines();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        panic!(
            "{what}; the GUI's log ends:\n{tail}\n(whole log: {}; screenshot: {})",
            self.dir.join("gui.log").display(),
            if saved {
                shot.display().to_string()
            } else {
                "none".into()
            }
        );
    }

    /// Opens the main menu (☰) and clicks an item of a submenu: `row` 0 is its first item.
    fn menu(&mut self, submenu_y: i32, row: i32) {
        let right = self.window.width;
        self.screen.click(&self.window, right - 155, 26);
        self.screen.click(&self.window, right - 213, submenu_y);
        self.screen.click(&self.window, right - 213, 138 + 26 * row);
        self.screen.key(&self.window, "Escape");
    }

    /// Chooses a level from the menu (☰, Computer strength). When the choice changes whether
    /// the engines may use their own book, the GUI tells both at once; the level itself shows
    /// in the next `go`.
    ///
    /// A click of the menu's is seldom lost (seen once in CI, while Krou pondered at Expert):
    /// where the choice shows in the log, a choice not seen within [`CLICK_WAIT`] is made
    /// again. Choosing the level already chosen changes nothing, so a late first choice is
    /// harmless.
    fn choose_level(&mut self, level: usize, from: usize) {
        let row = i32::try_from(level).unwrap();
        self.menu(211, row);
        if (level > 0) == (from > 0) {
            return;
        }
        let book = format!("setoption name OwnBook value {}", level > 0);
        let told = |engine: u32| {
            let book = book.clone();
            move |line: &str| {
                engine_line(line).is_some_and(|l| l.engine == engine && l.text == book)
            }
        };
        for _ in 1..MENU_TRIES {
            if self.log.wait_for(self.read, CLICK_WAIT, told(1)).is_some() {
                break;
            }
            self.menu(211, row);
        }
        for engine in [1, 2] {
            self.expect(&format!("engine {engine} told: {book}"), told(engine));
        }
    }

    /// Clicks a pit (the board as the GUI draws it, South's row below, `A` on the left).
    fn click_pit(&self, mv: Move) {
        let index = mv.pit();
        let (column, y) = if index < 6 {
            (index, 408)
        } else {
            (11 - index, 287)
        };
        let x = 229 + i32::try_from(column).unwrap() * 1215 / 10;
        self.screen.click(&self.window, x, y);
    }

    /// The moves to try for the person: any legal one when the position is known, else a
    /// pit not yet sown (legal whatever the GUI's book played).
    fn candidates(&self, side: Side) -> Vec<Move> {
        match self.known {
            Some(position) if self.giving_away => giving_away(&position),
            Some(position) => position.legal_moves(GrandSlam::NoCapture).collect(),
            None if side == Side::South => self.fresh.clone(),
            None => "abcdef"
                .chars()
                .map(|c| c.to_string().parse().unwrap())
                .collect(),
        }
    }

    /// Makes the person's move for `side` by a click, and waits for the GUI to take it.
    fn person_moves(&mut self, side: Side) -> Move {
        for mv in self.candidates(side) {
            let from = self.log.len();
            self.click_pit(mv);
            if let Some(at) = self.log.wait_for(from, CLICK_WAIT, |line| line == REQUEST) {
                self.read = at + 1;
                self.known = self.known.and_then(|position| after(&position, mv));
                self.fresh.retain(|&pit| pit != mv);
                return mv;
            }
        }
        self.fail("no click on a pit was taken as a move")
    }

    /// Waits, after the person's move, for the computer's and then for the person's turn.
    /// The GUI's book moves without a line in the log, so the request the person's move was
    /// followed by is either an engine's (a `go` inside it) or already the person's next
    /// turn. Gives the engine's `go` line, if an engine was asked.
    fn computer_moves(&mut self) -> Option<String> {
        let start = self.read.saturating_sub(1);
        let requested = self.expect("the request to end", |l| l == REQUESTED);
        let lines = self.log.lines();
        let asked = lines[start..requested]
            .iter()
            .enumerate()
            .find_map(|(i, line)| {
                let l = engine_line(line)?;
                (l.sent && l.text.starts_with("go") && !l.text.contains("ponder"))
                    .then_some((start + i, l))
            });
        let Some((go_at, go)) = asked else {
            // The GUI's book answered: the position is not in the log.
            self.known = None;
            self.ponderer = None;
            return None;
        };
        let engine = go.engine;
        let position = lines[..requested].iter().rev().find_map(|line| {
            let l = engine_line(line)?;
            (l.engine == engine && l.sent && l.text.starts_with("position")).then_some(l.text)
        });
        // A quick search's bestmove may come before the GUI logs the request's end.
        let Some(best) = self.log.wait_for(go_at + 1, EVENT_WAIT, |line| {
            engine_line(line).is_some_and(|l| l.engine == engine && l.text.starts_with("bestmove"))
        }) else {
            self.fail("waited for the engine's bestmove")
        };
        self.read = self.read.max(best + 1);
        let best = engine_line(&self.log.lines()[best]).unwrap().text;
        let searched = position_of(&position.unwrap()).unwrap();
        self.known = best_move(&best).and_then(|mv| after(&searched, mv));
        self.searched = Some(searched);
        if self.game_over() {
            self.ponderer = None;
            return Some(go.text);
        }
        // The person's turn (its request may start a ponder).
        let turn = self.expect("the person's turn", |l| l == REQUEST);
        let requested = self.expect("the person's turn to be requested", |l| l == REQUESTED);
        self.ponderer = self.log.lines()[turn..requested].iter().find_map(|line| {
            let l = engine_line(line)?;
            (l.sent && l.text == "go ponder").then_some(l.engine)
        });
        Some(go.text)
    }

    /// Whether the position on the board, if known, ends the game by the rules.
    fn game_over(&self) -> bool {
        self.known
            .is_some_and(|position| position.outcome(GrandSlam::NoCapture).is_some())
    }

    /// One move of the person's and the computer's answer; gives the engine's `go`, if any.
    fn play_turn(&mut self) -> Option<String> {
        self.person_moves(Side::South);
        self.computer_moves()
    }

    /// Plays turns until an engine has been asked with `go` (the GUI's book answers the first
    /// ones), and checks it is the level's.
    fn play_until_engine_asked(&mut self, level: usize) {
        for _ in 0..8 {
            if let Some(go) = self.play_turn() {
                assert_eq!(go, LEVELS[level].1, "{} sends its own go", LEVELS[level].0);
                return;
            }
        }
        self.fail(&format!("no engine asked at {}", LEVELS[level].0));
    }
}

impl Drop for Gui {
    /// A test that fails midway leaves nothing running: the GUI and its engines are killed
    /// (after a close they are gone already).
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        for pid in self.engines.iter().filter(|&&pid| !gone(pid)) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}

/// Replays transcripts against this build started with `options`.
fn replay(transcripts: &[PathBuf], options: &[&str]) -> Output {
    let mut command = Command::new(krou());
    command
        .arg("replay")
        .args(transcripts)
        .args(["--timeout-ms", "20000"]);
    if !options.is_empty() {
        command.arg("--").arg(krou()).args(options);
    }
    command.env_remove("RUST_LOG").output().unwrap()
}

fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with(prefix))
        })
        .collect();
    found.sort();
    found
}

/// The processes whose parent is `pid`.
fn children(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat")).is_ok_and(|stat| {
                // The parent is the second field after the command's closing parenthesis.
                stat.rsplit_once(") ")
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(pid)
            })
        })
        .collect()
}

/// Whether a process has ended (reaped or a zombie).
fn gone(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

#[test]
fn the_auale_gui_plays_krou_at_every_level() {
    let tree = std::env::var_os("KROU_AUALE_DIR").map(PathBuf::from);
    let missing = missing(&tree);
    if !missing.is_empty() {
        let message = format!(
            "the Aualé GUI test needs {} (see docs/clients.md)",
            missing.join(", ")
        );
        assert!(
            std::env::var_os("KROU_AUALE_REQUIRED").is_none(),
            "KROU_AUALE_REQUIRED is set, but {message}"
        );
        eprintln!("skipped: {message}");
        return;
    }
    let tree = tree.unwrap();
    let dir = scratch();
    let started = Instant::now();
    let mut gui = Gui::start(&tree, &dir, &[]);
    assert_eq!(
        gui.engines.len(),
        4,
        "two krou record proxies, each with its engine"
    );

    // Easy, the GUI's default, then each level chosen from the menu.
    gui.play_until_engine_asked(0);
    gui.play_until_engine_asked(0);
    gui.choose_level(1, 0);
    gui.play_until_engine_asked(1);
    gui.choose_level(2, 1);
    gui.play_until_engine_asked(2);
    // At Hard the engine ponders on the person's time: a move made meanwhile stops it.
    let ponderer = gui.ponderer.expect("a ponder on the person's time at Hard");
    let moved = gui.log.len();
    gui.person_moves(Side::South);
    let stopped = gui.log.wait_for(moved, EVENT_WAIT, |line| {
        engine_line(line).is_some_and(|l| l.engine == ponderer && l.sent && l.text == "stop")
    });
    assert!(stopped.is_some(), "the person's move stops the ponder");
    let go = gui.computer_moves();
    assert_eq!(go.as_deref(), Some(LEVELS[2].1));
    // Undo (Page Up) while the engine ponders: the GUI stops it and takes back the computer's
    // move, and the person moves for both sides until the computer is asked again.
    let before_undo = gui.log.len();
    gui.screen.key(&gui.window, "Page_Up");
    gui.read = before_undo;
    gui.expect("the ponder stopped by the undo", |line| {
        engine_line(line).is_some_and(|l| l.sent && l.text == "stop")
    });
    gui.expect("the person's turn after the undo", |l| l == REQUESTED);
    gui.known = gui.searched;
    gui.person_moves(Side::North);
    gui.expect("South's turn after the person's move for North", |l| {
        l == REQUESTED
    });
    gui.choose_level(3, 2);
    gui.play_until_engine_asked(3);
    if let Some(shot) = std::env::var_os("KROU_AUALE_SCREENSHOT") {
        // The info bar once Krou has moved at Expert and reports again (its ponder).
        gui.expect("a score while pondering", |line| {
            engine_line(line).is_some_and(|l| l.text.starts_with("info depth"))
        });
        assert!(
            gui.screen.screenshot(Path::new(&shot)),
            "a screenshot needs ImageMagick"
        );
    }
    // A new match (Ctrl+N) watched: the computer plays both sides, at Easy to keep it short.
    gui.choose_level(0, 3);
    gui.screen.key(&gui.window, "ctrl+n");
    let choice = gui.screen.window("^What do you want to do\\?$");
    gui.screen.click(&choice, 232, 218);
    for engine in [2, 1, 2, 1] {
        gui.expect(
            &format!("engine {engine} asked in the watched match"),
            |line| engine_line(line).is_some_and(|l| l.engine == engine && l.text == LEVELS[0].1),
        );
        gui.expect(&format!("engine {engine}'s bestmove"), |line| {
            engine_line(line).is_some_and(|l| l.engine == engine && l.text.starts_with("bestmove"))
        });
    }
    // Closing the window ends both engines.
    let right = gui.window.width;
    gui.screen.click(&gui.window, right - 34, 26);
    assert!(
        gui.log.wait_closed(EVENT_WAIT),
        "the GUI's output ends once it exits"
    );
    let deadline = Instant::now() + EVENT_WAIT;
    while gui.engines.iter().any(|&pid| !gone(pid)) {
        assert!(
            Instant::now() < deadline,
            "engine processes still running after the close"
        );
        // Bounded polling of /proc: no process event to wait for that is not our child.
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = gui.process.wait();
    let played_for = started.elapsed();

    // What the GUI's log says of the dialogues.
    let lines = gui.log.lines();
    let tallies = dialogue::check(&lines).unwrap_or_else(|e| panic!("{e}"));
    for (engine, tally) in &tallies {
        assert!(tally.quit, "engine {engine} was sent quit: {tally:?}");
        assert_eq!(
            tally.searches, tally.bestmoves,
            "engine {engine}: {tally:?}"
        );
    }
    let all_go: Vec<&String> = tallies.values().flat_map(|t| &t.go_lines).collect();
    for (name, go) in LEVELS {
        assert!(
            all_go.iter().any(|line| *line == go),
            "{name}: {go} in {all_go:?}"
        );
    }
    assert!(
        tallies.values().map(|t| t.ponders).sum::<usize>() >= 2,
        "{tallies:?}"
    );
    assert!(
        tallies.values().map(|t| t.stops).sum::<usize>() >= 2,
        "{tallies:?}"
    );
    let stderr = std::fs::read_to_string(dir.join("gui-stderr.txt")).unwrap();
    for line in lines.iter().map(String::as_str).chain(stderr.lines()) {
        assert!(
            !line.starts_with("WARNING:uci") && !line.starts_with("ERROR:uci"),
            "the GUI's protocol client warned: {line}"
        );
    }

    // The live transcripts, and the GUI's log made into transcripts, replay green.
    let live = files(&dir, "live-");
    assert_eq!(live.len(), 2, "one live transcript per engine: {live:?}");
    let output = replay(&live, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let converted = Command::new(krou())
        .args(["record", "--from-log"])
        .arg(dir.join("gui.log"))
        .arg("--out")
        .arg(dir.join("from-log-%n.txt"))
        .output()
        .unwrap();
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    let from_log = files(&dir, "from-log-");
    assert_eq!(from_log.len(), 2, "one transcript per engine: {from_log:?}");
    let output = replay(&from_log, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    eprintln!(
        "the GUI played {:.1} s: {} engine searches; {tallies:?}",
        played_for.as_secs_f64(),
        all_go.len()
    );
    // A person who wants an easier Krou sets a level on its command line: the GUI sends no
    // option for it. One whole game at the GUI's Easy against UCI_Elo 1200, the person giving
    // seeds away so that it ends within minutes, then the close.
    let limited = [
        "--option",
        "UCI_LimitStrength=true",
        "--option",
        "UCI_Elo=1200",
    ];
    let level_dir = dir.join("level");
    std::fs::create_dir_all(&level_dir).unwrap();
    let mut gui = Gui::start(&tree, &level_dir, &limited);
    for engine in [1, 2] {
        let shown = gui.log.lines().iter().any(|line| {
            engine_line(line).is_some_and(|l| {
                l.engine == engine
                    && l.text
                        .starts_with("option name UCI_Elo type spin default 1200")
            })
        });
        assert!(shown, "engine {engine} starts at UCI_Elo 1200");
    }
    gui.giving_away = true;
    let (mut turns, mut searched) = (0, 0);
    while !gui.game_over() {
        turns += 1;
        assert!(
            turns <= 100,
            "the game against the level ends within 100 turns"
        );
        gui.person_moves(Side::South);
        if gui.game_over() {
            break;
        }
        if let Some(go) = gui.computer_moves() {
            assert_eq!(go, LEVELS[0].1, "Easy sends its own go");
            searched += 1;
        }
    }
    let end = gui
        .known
        .and_then(|position| position.outcome(GrandSlam::NoCapture))
        .unwrap();
    assert_eq!(
        end.winner(),
        Some(Side::North),
        "the level wins the game the person gives away: {end}"
    );
    let right = gui.window.width;
    gui.screen.click(&gui.window, right - 34, 26);
    assert!(
        gui.log.wait_closed(EVENT_WAIT),
        "the GUI's output ends once it exits"
    );
    let _ = gui.process.wait();
    let lines = gui.log.lines();
    let last_move = lines
        .iter()
        .rposition(|line| engine_line(line).is_some_and(|l| l.text.starts_with("bestmove")))
        .unwrap();
    assert!(
        !lines[last_move..].iter().any(|line| line == REQUEST),
        "the GUI asks for no move once the game is over ({end})"
    );
    let tallies = dialogue::check(&lines).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        tallies.values().map(|t| t.bestmoves).sum::<usize>(),
        searched,
        "one bestmove for each of the level's moves: {tallies:?}"
    );
    eprintln!("a whole game against UCI_Elo 1200: {turns} turns, {searched} searched, {end}");
    let output = replay(&files(&level_dir, "live-"), &limited);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    if std::env::var_os("KROU_AUALE_KEEP").is_some() {
        eprintln!("kept: {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
