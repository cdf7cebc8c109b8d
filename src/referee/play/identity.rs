//! The match identifier: a hash of everything that defines a match's schedule and players, so
//! that `krou match merge` can tell the shards of one match from those of another.
//!
//! It covers the engines (names after de-duplication, command lines or built-ins, options, time
//! controls and margins as each engine plays them), the games per pairing, the openings as played
//! (so an openings file counts by its contents, not its path), the seed, the grand-slam rule, the
//! maximum length, the gauntlet and the SPRT parameters. It leaves out what only says how or
//! where a match runs: `--shard`, `--concurrency`, `--timeout`, output paths, logs, `Event` and
//! `Site`.

use super::openings::Opening;
use super::tc::TimeControl;
use crate::referee::engines::spec::{EngineSpec, Kind};
use crate::referee::stats::sprt::Sprt;
use crate::rules::GrandSlam;

/// What defines a match, resolved (defaults applied).
pub struct Definition<'a> {
    /// The players, names made unique.
    pub specs: &'a [EngineSpec],
    /// Each engine's time control.
    pub tc: &'a [TimeControl],
    /// Each engine's margin in milliseconds.
    pub margin_ms: &'a [u64],
    /// Games per pairing.
    pub games: usize,
    /// The openings, in the order games use them.
    pub openings: &'a [Opening],
    /// The match seed.
    pub seed: u64,
    /// The grand-slam rule.
    pub rule: GrandSlam,
    /// `--max-plies`.
    pub max_plies: Option<usize>,
    /// `--gauntlet`.
    pub gauntlet: bool,
    /// `--sprt`.
    pub sprt: Option<Sprt>,
}

impl Definition<'_> {
    /// The canonical text the identifier hashes: one line per setting, free text (names,
    /// command lines, options) as length-prefixed words so that no choice of characters can
    /// make two definitions read the same.
    pub fn canonical(&self) -> String {
        let mut text = String::from("krou match 2\n");
        for (i, spec) in self.specs.iter().enumerate() {
            let kind = match &spec.kind {
                Kind::Random => "random".to_string(),
                Kind::Greedy => "greedy".to_string(),
                Kind::Command(argv) => format!("command {}", words(argv)),
            };
            let options: Vec<String> = spec
                .options
                .iter()
                .flat_map(|(name, value)| [name.clone(), value.clone()])
                .collect();
            let tc = self.tc.get(i).map(ToString::to_string).unwrap_or_default();
            let margin = self.margin_ms.get(i).copied().unwrap_or_default();
            text.push_str(&format!(
                "engine {} {kind} options {} tc {tc} margin {margin}\n",
                words(std::slice::from_ref(&spec.name)),
                words(&options)
            ));
        }
        text.push_str(&format!("games {}\n", self.games));
        for opening in self.openings {
            text.push_str(&format!("opening {opening}\n"));
        }
        let sprt = self.sprt.map(|s| s.to_string()).unwrap_or_default();
        let max_plies = self.max_plies.map(|m| m.to_string()).unwrap_or_default();
        text.push_str(&format!(
            "seed {}\ngrand-slam {}\nmax-plies {max_plies}\ngauntlet {}\nsprt {sprt}\n",
            self.seed, self.rule, self.gauntlet
        ));
        text
    }

    /// The identifier: 32 hex digits, two 64-bit FNV-1a hashes of [`Self::canonical`].
    pub fn id(&self) -> String {
        let text = self.canonical();
        format!(
            "{:016x}{:016x}",
            fnv1a(&text, FNV_OFFSET),
            fnv1a(&text, FNV_OFFSET_2)
        )
    }
}

/// `3:abc 0: 2:de`: each word with its length in bytes.
fn words(list: &[String]) -> String {
    let words: Vec<String> = list.iter().map(|w| format!("{}:{w}", w.len())).collect();
    format!("[{}]", words.join(" "))
}

/// The FNV-1a offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// A second basis (the first's hash of "krou"), for the other half of the identifier.
const FNV_OFFSET_2: u64 = 0x6c62_272e_07bb_0142;

/// The 64-bit FNV-1a hash of `text` from `basis`: stable across builds and platforms, unlike
/// the standard library's hasher.
fn fnv1a(text: &str, basis: u64) -> u64 {
    text.bytes().fold(basis, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    static SPACED: std::sync::LazyLock<[EngineSpec; 2]> =
        std::sync::LazyLock::new(|| ["./e 'a b'", "greedy"].map(|s| s.parse().expect("spec")));
    static JOINED: std::sync::LazyLock<[EngineSpec; 2]> =
        std::sync::LazyLock::new(|| ["./e a b", "greedy"].map(|s| s.parse().expect("spec")));

    fn id_with(change: impl FnOnce(&mut Definition)) -> String {
        let specs: Vec<EngineSpec> = ["random", "greedy"]
            .iter()
            .map(|s| s.parse().expect("spec"))
            .collect();
        let tc = ["st=0.1".parse().expect("tc"); 2];
        let openings = [Opening::startpos()];
        let mut definition = Definition {
            specs: &specs,
            tc: &tc,
            margin_ms: &[50, 50],
            games: 10,
            openings: &openings,
            seed: 1,
            rule: GrandSlam::NoCapture,
            max_plies: None,
            gauntlet: false,
            sprt: None,
        };
        change(&mut definition);
        definition.id()
    }

    #[test]
    fn the_id_is_stable_and_changes_with_every_defining_setting() {
        let base = id_with(|_| {});
        assert_eq!(base, id_with(|_| {}));
        assert_eq!(base.len(), 32);
        assert!(base.chars().all(|c| c.is_ascii_hexdigit()));
        const ODDS: [TimeControl; 2] = [
            TimeControl::MoveTime(Duration::from_millis(100)),
            TimeControl::MoveTime(Duration::from_millis(200)),
        ];
        let others = [
            id_with(|d| d.games = 12),
            id_with(|d| d.seed = 2),
            id_with(|d| d.rule = GrandSlam::Forbidden),
            id_with(|d| d.max_plies = Some(100)),
            id_with(|d| d.gauntlet = true),
            id_with(|d| d.margin_ms = &[50, 51]),
            id_with(|d| d.tc = &ODDS),
            id_with(|d| d.openings = &[]),
            id_with(|d| d.sprt = "elo0=0 elo1=5".parse().ok()),
            id_with(|d| d.specs = SPACED.as_slice()),
            id_with(|d| d.specs = JOINED.as_slice()),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(&base, other, "setting {i}");
        }
        // One argument with a space is not two arguments.
        assert_ne!(others[9], others[10]);
    }
}
