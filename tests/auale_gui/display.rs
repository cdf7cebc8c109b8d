//! The virtual screen and the clicks: Xvfb on a display of its own, and xdotool to find the
//! GUI's windows, click in them and press keys, as a person would.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// How long Xvfb may take to say it is ready.
const XVFB_START: Duration = Duration::from_secs(20);
/// How long a window may take to appear.
const WINDOW_WAIT: Duration = Duration::from_secs(60);

/// The first line a program writes, if it comes within `timeout` (read by a thread, so that a
/// program that writes nothing cannot hang the test).
fn first_line_within(
    out: impl Read + Send + 'static,
    timeout: Duration,
) -> Result<String, RecvTimeoutError> {
    let (send, line) = channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(out).read_line(&mut first);
        let _ = send.send(first);
    });
    line.recv_timeout(timeout)
}

/// An X server of the test's own, stopped when dropped.
pub struct Screen {
    server: Child,
    /// `:N`, for `DISPLAY`.
    pub display: String,
}

impl Screen {
    /// Starts Xvfb on the first free display; it writes the display's number when it is ready
    /// (`-displayfd`), which is the event waited for.
    pub fn start() -> Screen {
        let mut server = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x900x24",
                "-nolisten",
                "tcp",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let out = server.stdout.take().expect("Xvfb's output");
        let number = first_line_within(out, XVFB_START).expect("Xvfb says which display it took");
        let number = number.trim();
        assert!(
            !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
            "Xvfb wrote {number:?} for its display"
        );
        Screen {
            server,
            display: format!(":{number}"),
        }
    }

    fn xdotool(&self, args: &[&str]) -> String {
        let output = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .stderr(Stdio::null())
            .output()
            .expect("xdotool runs");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    /// The first visible window whose name matches `pattern` (a regular expression), waited
    /// for (xdotool's `--sync`, bounded).
    pub fn window(&self, pattern: &str) -> Window {
        let mut search = Command::new("xdotool")
            .args(["search", "--sync", "--onlyvisible", "--name", pattern])
            .env("DISPLAY", &self.display)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("xdotool runs");
        let out = search.stdout.take().expect("xdotool's output");
        let id = first_line_within(out, WINDOW_WAIT);
        let _ = search.kill();
        let _ = search.wait();
        let id = id.unwrap_or_else(|_| panic!("no window named {pattern:?} appeared"));
        let id = id.trim().to_string();
        let geometry = self.xdotool(&["getwindowgeometry", "--shell", &id]);
        let field = |name: &str| -> i32 {
            geometry
                .lines()
                .find_map(|line| line.strip_prefix(name)?.strip_prefix('='))
                .and_then(|value| value.parse().ok())
                .unwrap_or_else(|| panic!("window {id}'s {name}: {geometry}"))
        };
        Window {
            width: field("WIDTH"),
            height: field("HEIGHT"),
            id,
        }
    }

    /// Clicks at a point of a window, from its top left corner.
    pub fn click(&self, window: &Window, x: i32, y: i32) {
        let (x, y) = (x.to_string(), y.to_string());
        self.xdotool(&["mousemove", "--window", &window.id, &x, &y, "click", "1"]);
    }

    /// Presses a key (xdotool's names: `Escape`, `Page_Up`, `ctrl+n`) in a window.
    pub fn key(&self, window: &Window, key: &str) {
        self.xdotool(&["windowfocus", "--sync", &window.id]);
        self.xdotool(&["key", key]);
    }

    /// Saves the whole screen as a PNG, where ImageMagick's `import` is at hand.
    pub fn screenshot(&self, path: &Path) -> bool {
        Command::new("import")
            .args(["-window", "root"])
            .arg(path)
            .env("DISPLAY", &self.display)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// A window on the screen, with its size.
pub struct Window {
    id: String,
    /// Its width in pixels.
    pub width: i32,
    /// Its height in pixels.
    pub height: i32,
}
