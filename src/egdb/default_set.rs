//! The default set of endgame tables: how far the engine builds by itself (the built-in layers,
//! the default set, or what [`BUILD_VARIABLE`] asks for). `krou egdb build` without `--seeds`
//! builds the same set, so a script can build before a match what its engines would.

use super::MAX_SEEDS;

/// Seed counts the built-in tables cover (0 to 12 seeds take a few seconds on one thread; each
/// layer is handed over as soon as it is built, so small endings are covered at once). The
/// engine builds them at nice 19, in memory if the default directory cannot take them.
pub const BUILT_IN_SEEDS: u8 = 12;

/// The default set the engine builds by itself into the default data directory: the tables
/// the README's strength figures are measured with. The engine builds the layers above
/// [`BUILT_IN_SEEDS`] at the lowest priority (the idle class on Linux), on every core, only
/// into the directory (never held in memory alone).
pub const DEFAULT_SEEDS: u8 = 20;

/// The environment variable that changes the default set: `off` (or `0`, `no`, `false`)
/// builds only the built-in tables, a seed count from 12 to 30 builds up to it.
pub const BUILD_VARIABLE: &str = "KROU_EGDB_BUILD";

/// The seed count the out-of-the-box build goes to, given the `EndgameBuild` option and
/// [`BUILD_VARIABLE`] as the environment has it (see [`build_seeds`]).
pub fn from_env(endgame_build: bool) -> u8 {
    let variable = std::env::var(BUILD_VARIABLE).ok();
    build_seeds(endgame_build, variable.as_deref())
}

/// The seed count the out-of-the-box build goes to, given the `EndgameBuild` option and the
/// value of [`BUILD_VARIABLE`]; an unreadable value is logged and the default kept.
pub fn build_seeds(endgame_build: bool, variable: Option<&str>) -> u8 {
    if !endgame_build {
        return BUILT_IN_SEEDS;
    }
    let Some(value) = variable.map(str::trim).filter(|v| !v.is_empty()) else {
        return DEFAULT_SEEDS;
    };
    if ["off", "0", "no", "false"]
        .iter()
        .any(|off| value.eq_ignore_ascii_case(off))
    {
        return BUILT_IN_SEEDS;
    }
    match value.parse::<u8>() {
        Ok(n) if (BUILT_IN_SEEDS..=MAX_SEEDS).contains(&n) => n,
        _ => {
            log::warn!(
                "{BUILD_VARIABLE}='{}': not off or a seed count from {BUILT_IN_SEEDS} to {MAX_SEEDS}; building 0-{DEFAULT_SEEDS}",
                value.escape_debug()
            );
            DEFAULT_SEEDS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_sets_the_build_target() {
        assert_eq!(build_seeds(true, None), DEFAULT_SEEDS);
        assert_eq!(build_seeds(true, Some("  ")), DEFAULT_SEEDS);
        assert_eq!(build_seeds(true, Some(" OFF ")), BUILT_IN_SEEDS);
        assert_eq!(build_seeds(true, Some("0")), BUILT_IN_SEEDS);
        assert_eq!(build_seeds(true, Some("no")), BUILT_IN_SEEDS);
        assert_eq!(build_seeds(true, Some("FALSE")), BUILT_IN_SEEDS);
        assert_eq!(build_seeds(true, Some("12")), 12);
        assert_eq!(build_seeds(true, Some(" 13 ")), 13);
        assert_eq!(build_seeds(true, Some("24")), 24);
        assert_eq!(build_seeds(true, Some("30")), 30);
    }

    #[test]
    fn an_unreadable_value_keeps_the_default() {
        for value in ["31", "11", "-1", "twenty"] {
            assert_eq!(build_seeds(true, Some(value)), DEFAULT_SEEDS, "{value}");
        }
    }

    #[test]
    fn endgame_build_off_keeps_the_built_in_tables() {
        assert_eq!(build_seeds(false, Some("24")), BUILT_IN_SEEDS);
    }
}
