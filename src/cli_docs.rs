//! Shell completions and man pages, generated from the binary's clap definitions
//! (`krou completions <shell>`, `krou man [--out DIR]`).

use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes the completion script of `command` for `shell` to `out`.
pub fn completions(command: &mut clap::Command, shell: Shell, out: &mut dyn Write) {
    let name = command.get_name().to_string();
    clap_complete::generate(shell, command, name, out);
}

/// Writes the man page of `command` alone (`krou.1`) to `out`.
pub fn man_page(command: clap::Command, out: &mut dyn Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command).render(out)
}

/// Writes a man page for `command` and for each of its subcommands into `dir` (`krou.1`,
/// `krou-match.1`, `krou-match-report.1`, …), creating `dir`; returns the files written.
pub fn man_pages(command: clap::Command, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    fn write_all(
        command: clap::Command,
        dir: &Path,
        written: &mut Vec<PathBuf>,
    ) -> std::io::Result<()> {
        written.push(clap_mangen::Man::new(command.clone()).generate_to(dir)?);
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            write_all(sub.clone(), dir, written)?;
        }
        Ok(())
    }
    std::fs::create_dir_all(dir)?;
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut written = Vec::new();
    write_all(command, dir, &mut written)?;
    Ok(written)
}
