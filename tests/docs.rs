//! The documentation keeps working: the commands it shows run, and its links resolve.
//!
//! - ```` ```console ```` blocks in `README.md` and `docs/*.md` are run by `trycmd` (`$ ` lines
//!   are commands, the lines after them the expected output, stdout and stderr together; `...`
//!   on a line of its own matches any lines, `[..]` any text within a line).
//! - ```` ```sh ```` blocks run as written, each as one `bash -euo pipefail` script in a fresh
//!   directory with `krou` on `PATH`, and must succeed. A block that cannot run here (a GUI, a
//!   cluster, an hour of play) says so in its info string, ```` ```sh not run: WHY; TEST ````,
//!   where TEST is the file or folder (in `tests/`, or `.ci/run`) that runs what it shows.
//! - Every command of a ```` ```sh ```` block, run or not, is checked: every `krou …` command
//!   against `krou <subcommand> --help` (each subcommand and `--flag` it uses must be there),
//!   every `scripts/…` file it names must exist and pass `bash -n` (and be executable where it
//!   is the command), and every `cargo … --example`/`--test` target must exist.
//! - Every relative link in the Markdown files must name a file that exists, and a `#anchor`
//!   a heading of that file (GitHub's slugs).
//!
//! `docs/docs-tests.md` explains the convention to writers.

use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn krou() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_krou"))
}

/// The pages whose commands are tested: the README and everything in `docs/`.
fn command_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    pages.extend(markdown_in(&root().join("docs")));
    pages
}

/// Every Markdown file whose links are checked.
fn all_pages() -> Vec<PathBuf> {
    let mut pages = markdown_in(root());
    pages.extend(markdown_in(&root().join("docs")));
    pages
}

fn markdown_in(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).expect("the directory is readable");
    let mut pages: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------------
// Console blocks, run by trycmd

#[test]
fn console_blocks_print_what_the_docs_show() {
    // The commands write files (summary.json, report.html, session.txt): run them in a scratch
    // directory that sees the repository's tests/ (transcripts) as the README's reader does.
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-console");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("egdb")).expect("a scratch directory");
    std::os::unix::fs::symlink(root().join("tests"), scratch.join("tests")).expect("a symlink");
    std::env::set_current_dir(&scratch).expect("the scratch directory");
    // `krou record -- krou` starts `krou` by name, as after `cargo install --path .`.
    let bin_dir = krou().parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("krou", krou())
        .env("PATH", path)
        .env("KROU_EGDB_DIR", scratch.join("egdb").display().to_string())
        // The tables of 0-12 seeds only, so that the examples' output does not depend on how
        // far a background build of 0-20 has come (tests/engine_build.rs tests that build).
        .env("KROU_EGDB_BUILD", "off")
        .env("RUST_LOG", "warn");
    for page in command_pages() {
        cases.case(page);
    }
}

// ---------------------------------------------------------------------------------------------
// Shell blocks, checked for syntax

/// The code blocks of a page in a given language, as logical lines (continuations joined,
/// comments dropped), each with the page line it starts on.
fn block_lines(text: &str, language: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut inside = false;
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (inside, fence) {
            (false, Some(info)) => inside = info.split_whitespace().next() == Some(language),
            (true, Some(_)) => inside = false,
            (true, None) => {
                let (start, mut joined) = pending.take().unwrap_or((index + 1, String::new()));
                let code = strip_comment(line);
                match code.trim_end().strip_suffix('\\') {
                    Some(head) => {
                        joined.push_str(head);
                        joined.push(' ');
                        pending = Some((start, joined));
                    }
                    None => {
                        joined.push_str(code);
                        lines.push((start, joined));
                    }
                }
            }
            (false, None) => {}
        }
    }
    lines
}

/// The line without a shell comment (a `#` that starts a word outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// Shell words, quotes removed; `;`, `|` and `&` outside quotes end a command and stand as
/// words of their own.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c.is_whitespace() || matches!(c, ';' | '|' | '&') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if !c.is_whitespace() {
                    words.push(c.to_string());
                }
            }
            None => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The simple commands of a line: words between separators, with leading `time`, `nice -n N`,
/// `sudo`, `do`, `then` and variable assignments taken off.
fn commands(words: &[String]) -> Vec<Vec<String>> {
    let separators = [";", "|", "&"];
    let mut commands = Vec::new();
    for part in words.split(|w| separators.contains(&w.as_str())) {
        let mut rest = part;
        while let Some((first, tail)) = rest.split_first() {
            let assignment = first.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            match first.as_str() {
                "time" | "sudo" | "do" | "then" => rest = tail,
                "nice" if tail.first().is_some_and(|w| w == "-n") => {
                    rest = &tail[2.min(tail.len())..]
                }
                _ if assignment => rest = tail,
                _ => break,
            }
        }
        if !rest.is_empty() {
            commands.push(rest.to_vec());
        }
    }
    commands
}

/// `krou <path…> --help`, remembered.
fn help(cache: &mut HashMap<Vec<String>, String>, path: &[String]) -> String {
    cache
        .entry(path.to_vec())
        .or_insert_with(|| {
            let output = Command::new(krou())
                .args(path)
                .arg("--help")
                .output()
                .expect("krou runs");
            assert!(
                output.status.success(),
                "krou {} --help failed",
                path.join(" ")
            );
            String::from_utf8_lossy(&output.stdout).into_owned()
        })
        .clone()
}

/// The subcommand names a help text lists under `Commands:`.
fn subcommands(help: &str) -> BTreeSet<String> {
    let section = help.split("\nCommands:\n").nth(1).unwrap_or("");
    section
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// Whether `flag` (such as `--games` or `-o`) is one the help text lists.
fn lists_flag(help: &str, flag: &str) -> bool {
    let part_of_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-');
    help.match_indices(flag).any(|(at, _)| {
        let before = help[..at].chars().next_back();
        let after = help[at + flag.len()..].chars().next();
        !part_of_word(before) && !part_of_word(after)
    })
}

/// What is wrong with one documented `krou` command (its words after `krou`), if anything.
fn check_krou_command(cache: &mut HashMap<Vec<String>, String>, args: &[String]) -> Vec<String> {
    let mut path: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let mut words = args.iter().take_while(|w| w.as_str() != "--").peekable();
    loop {
        let known = subcommands(&help(cache, &path));
        match words.peek() {
            Some(next) if known.contains(next.as_str()) => {
                path.push(words.next().cloned().unwrap_or_default())
            }
            Some(next) if !known.is_empty() && !next.starts_with('-') && path.is_empty() => {
                problems.push(format!("`krou {next}`: no such subcommand"));
                return problems;
            }
            _ => break,
        }
    }
    let text = help(cache, &path);
    for word in words {
        let word = word.trim_matches(|c| matches!(c, '[' | ']' | '(' | ')'));
        if !word.starts_with('-') || word == "-" {
            continue;
        }
        let flag = word.split('=').next().unwrap_or(word);
        if flag.len() > 1
            && !flag[1..].starts_with(|c: char| c.is_ascii_digit())
            && !lists_flag(&text, flag)
        {
            problems.push(format!("`krou {}` has no {flag}", path.join(" ")));
        }
    }
    problems
}

/// What is wrong with a script a page names, if anything.
fn check_script(name: &str, is_command: bool) -> Vec<String> {
    let file = root().join(name);
    let Ok(metadata) = std::fs::metadata(&file) else {
        return vec![format!("{name} does not exist")];
    };
    let mut problems = Vec::new();
    use std::os::unix::fs::PermissionsExt;
    if is_command && metadata.permissions().mode() & 0o111 == 0 {
        problems.push(format!("{name} is not executable"));
    }
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .expect("bash runs");
    if !syntax.status.success() {
        problems.push(format!(
            "{name}: bash -n: {}",
            String::from_utf8_lossy(&syntax.stderr)
        ));
    }
    problems
}

/// What is wrong with a `cargo` command's `--example`/`--test` target, if anything.
fn check_cargo_command(args: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for pair in args.windows(2) {
        let dir = match pair[0].as_str() {
            "--example" => "examples",
            "--test" => "tests",
            _ => continue,
        };
        // Cargo takes a target from `NAME.rs` or from `NAME/main.rs`.
        let file = format!("{dir}/{}.rs", pair[1]);
        let folder = format!("{dir}/{}/main.rs", pair[1]);
        if !root().join(&file).exists() && !root().join(&folder).exists() {
            problems.push(format!("neither {file} nor {folder} exists"));
        }
    }
    problems
}

fn check_command(cache: &mut HashMap<Vec<String>, String>, command: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, word) in command.iter().enumerate() {
        let word = word.trim_start_matches("$(");
        if word.starts_with("scripts/") {
            problems.extend(check_script(word.trim_end_matches(')'), i == 0));
        }
    }
    match command[0].as_str() {
        "krou" => problems.extend(check_krou_command(cache, &command[1..])),
        "cargo" => problems.extend(check_cargo_command(&command[1..])),
        _ => {}
    }
    problems
}

#[test]
fn shell_blocks_use_only_commands_and_flags_that_exist() {
    let mut cache = HashMap::new();
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in command_pages() {
        for (line, code) in block_lines(&read(&page), "sh") {
            for command in commands(&shell_words(&code)) {
                checked += 1;
                for problem in check_command(&mut cache, &command) {
                    problems.push(format!("{}:{line}: {problem}", page.display()));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} shell commands found: is the parser right?"
    );
    assert!(
        problems.is_empty(),
        "documented commands that no longer work:\n{}",
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Shell blocks, run

/// A ```` ```sh ```` block: where it starts, its info string after `sh`, and its text.
struct ShellBlock {
    line: usize,
    info: String,
    text: String,
}

fn shell_blocks(text: &str) -> Vec<ShellBlock> {
    let mut blocks = Vec::new();
    let mut open: Option<ShellBlock> = None;
    for (index, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (open.take(), fence) {
            (None, Some(info)) => {
                let mut words = info.split_whitespace();
                if words.next() == Some("sh") {
                    open = Some(ShellBlock {
                        line: index + 1,
                        info: words.collect::<Vec<_>>().join(" "),
                        text: String::new(),
                    });
                }
            }
            (Some(block), Some(_)) => blocks.push(block),
            (Some(mut block), None) => {
                block.text.push_str(line);
                block.text.push('\n');
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The test a block that is not run names (`not run: WHY; TEST`), or what is wrong with its
/// info string. `None`: the block runs.
fn not_run(info: &str) -> Option<Result<String, String>> {
    if info.is_empty() {
        return None;
    }
    let Some(rest) = info.strip_prefix("not run:") else {
        return Some(Err(format!(
            "info string '{info}': expected 'not run: WHY; TEST'"
        )));
    };
    let Some((why, test)) = rest.rsplit_once(';') else {
        return Some(Err(format!("'{info}' names no test after ';'")));
    };
    let test = test.trim();
    let named = root().join(test);
    let in_place = test.starts_with("tests/") || test == ".ci/run";
    Some(if why.trim().is_empty() {
        Err(format!("'{info}' says not why"))
    } else if !in_place || !named.exists() {
        Err(format!(
            "'{info}': {test} is not a test in tests/ or .ci/run"
        ))
    } else {
        Ok(test.to_string())
    })
}

/// How long one block may run.
const BLOCK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Runs a block as written in a fresh directory that holds the checkout's `tests/`, `scripts/`
/// and `docs/`, with the built `krou` first on `PATH`; gives what went wrong, if anything.
fn run_block(page: &Path, block: &ShellBlock, index: usize) -> Option<String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs-sh")
        .join(format!("{}-{index}", page.file_stem()?.to_string_lossy()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("home")).expect("a scratch directory");
    for shared in ["tests", "scripts", "docs"] {
        std::os::unix::fs::symlink(root().join(shared), dir.join(shared)).expect("a symlink");
    }
    let bin_dir = krou().parent().expect("the binary's directory");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = dir.join("block.sh");
    std::fs::write(&script, &block.text).expect("the script is written");
    let mut child = Command::new("bash");
    // A group of its own, so that a block past its time is stopped with all it started.
    std::os::unix::process::CommandExt::process_group(&mut child, 0);
    let mut child = child
        .args(["-euo", "pipefail"])
        .arg(&script)
        .current_dir(&dir)
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("KROU_EGDB_DIR", dir.join("egdb"))
        .env("KROU_EGDB_BUILD", "off")
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(dir.join("out.txt")).expect("out.txt"))
        .stderr(std::fs::File::create(dir.join("err.txt")).expect("err.txt"))
        .spawn()
        .expect("bash runs");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the block's status") {
            break Some(status);
        }
        if started.elapsed() > BLOCK_TIMEOUT {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            let _ = child.wait();
            break None;
        }
        // Bounded polling of a child process: there is no event to wait for with a deadline.
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let err = std::fs::read_to_string(dir.join("err.txt")).unwrap_or_default();
    let tail: Vec<&str> = err.lines().rev().take(5).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    match status {
        Some(status) if status.success() => None,
        Some(status) => Some(format!(
            "{}:{}: the block failed ({status}; in {}): {}",
            page.display(),
            block.line,
            dir.display(),
            tail.join(" | ")
        )),
        None => Some(format!(
            "{}:{}: the block ran past {} s",
            page.display(),
            block.line,
            BLOCK_TIMEOUT.as_secs()
        )),
    }
}

#[test]
fn shell_blocks_run_as_written_or_name_the_test_that_runs_them() {
    let mut problems = Vec::new();
    let mut ran = 0;
    for page in command_pages() {
        for (index, block) in shell_blocks(&read(&page)).iter().enumerate() {
            match not_run(&block.info) {
                Some(Ok(_)) => {}
                Some(Err(e)) => problems.push(format!("{}:{}: {e}", page.display(), block.line)),
                // cargo in a block that runs would build and test again inside the tests.
                None if block
                    .text
                    .lines()
                    .any(|l| l.trim_start().starts_with("cargo ")) =>
                {
                    problems.push(format!(
                        "{}:{}: a block that runs cargo must be marked 'not run: …'",
                        page.display(),
                        block.line
                    ));
                }
                None => {
                    ran += 1;
                    problems.extend(run_block(&page, block, index));
                }
            }
        }
    }
    assert!(ran >= 3, "only {ran} shell blocks ran");
    assert!(
        problems.is_empty(),
        "shell blocks that do not run as written:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_block_that_is_not_run_names_a_test_that_exists() {
    assert!(not_run("").is_none());
    assert_eq!(
        not_run("not run: a GUI; tests/auale_gui"),
        Some(Ok("tests/auale_gui".to_string()))
    );
    assert!(matches!(
        not_run("not run: slow; tests/nothing.rs"),
        Some(Err(_))
    ));
    assert!(matches!(not_run("not run: ; tests/docs.rs"), Some(Err(_))));
    assert!(matches!(not_run("bash"), Some(Err(_))));
}

#[test]
fn the_syntax_check_catches_a_flag_that_does_not_exist() {
    let mut cache = HashMap::new();
    let words = shell_words(strip_comment(
        "krou match --engine random --gmaes 20 # --nothing",
    ));
    let problems = check_krou_command(&mut cache, &commands(&words)[0][1..]);
    assert_eq!(problems, vec!["`krou match` has no --gmaes".to_owned()]);
    let problems = check_krou_command(&mut cache, &shell_words("nosuchcommand --x"));
    assert_eq!(
        problems,
        vec!["`krou nosuchcommand`: no such subcommand".to_owned()]
    );
}

// ---------------------------------------------------------------------------------------------
// Links

/// GitHub's anchor for a heading: inline markup dropped, lower case, punctuation removed,
/// spaces to hyphens.
fn slug(heading: &str) -> String {
    let link = Regex::new(r"\[([^\]]*)\]\([^)]*\)").expect("a valid pattern");
    let text = link.replace_all(heading, "$1");
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The page's text outside fenced code blocks, line by line (code lines left empty).
fn prose_lines(text: &str) -> Vec<String> {
    let mut inside = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                inside = !inside;
                return String::new();
            }
            if inside {
                String::new()
            } else {
                line.to_owned()
            }
        })
        .collect()
}

/// The anchors of a page's headings, with GitHub's `-1`, `-2` for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose_lines(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let base = slug(heading.trim_start_matches('#').trim());
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The relative link targets of a page (inline code left out), with their line numbers.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let code = Regex::new(r"`[^`]*`").expect("a valid pattern");
    let link = Regex::new(r"\]\(([^)\s]+)\)").expect("a valid pattern");
    let mut links = Vec::new();
    for (index, line) in prose_lines(text).iter().enumerate() {
        let line = code.replace_all(line, "");
        for found in link.captures_iter(&line) {
            let target = &found[1];
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push((index + 1, target.to_owned()));
            }
        }
    }
    links
}

fn check_link(page: &Path, target: &str) -> Option<String> {
    let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if file.is_empty() {
        page.to_path_buf()
    } else {
        page.parent()?.join(file)
    };
    if !file.exists() {
        return Some(format!("{target}: no such file"));
    }
    let is_page = file.extension().is_some_and(|ext| ext == "md");
    if !anchor.is_empty() && (!is_page || !anchors(&read(&file)).contains(anchor)) {
        return Some(format!("{target}: no such heading"));
    }
    None
}

#[test]
fn every_relative_link_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for page in all_pages() {
        for (line, target) in relative_links(&read(&page)) {
            checked += 1;
            if let Some(problem) = check_link(&page, &target) {
                problems.push(format!("{}:{line}: {problem}", page.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser right?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("Merging shards: `krou match merge`"),
        "merging-shards-krou-match-merge"
    );
    assert_eq!(
        slug("The strength round of 2026-12-01: kept, dropped, not tried"),
        "the-strength-round-of-2026-12-01-kept-dropped-not-tried"
    );
    assert_eq!(
        slug("Playing Krou in the Aualé GUI"),
        "playing-krou-in-the-aualé-gui"
    );
    let page = "# A\n## B\n```sh\n# not a heading\n```\n## B\n";
    assert_eq!(anchors(page), ["a", "b", "b-1"].map(str::to_owned).into());
}
