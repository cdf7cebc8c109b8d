//! The scripts that run a sharded match on many machines: `scripts/match-parallel` (GNU
//! parallel; skipped when it is not installed) and `scripts/match-slurm.sbatch` (checked for
//! syntax, and run by hand as Slurm would, with the job array's variables set).

mod referee_support;

use referee_support::{krou, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const MATCH: [&str; 10] = [
    "--engine",
    "random",
    "--engine",
    "greedy",
    "--games",
    "16",
    "--random-openings",
    "4",
    "--seed",
    "21",
];

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("a JSON summary");
    serde_json::from_str(&text).expect("valid JSON")
}

/// The same match in one process.
fn one_process(dir: &Path) -> Value {
    let json = dir.join("one.json");
    let status = Command::new(krou())
        .arg("match")
        .args(MATCH)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("krou runs")
        .status;
    assert!(status.success());
    read_json(&json)
}

fn assert_same_games(one: &Value, merged: &Value) {
    for key in ["match_id", "games_finished", "pairings", "games", "reasons"] {
        assert_eq!(one[key], merged[key], "{key}");
    }
}

#[test]
fn match_parallel_plays_two_shards_at_once_and_merges_them() {
    let found = Command::new("sh")
        .args(["-c", "command -v parallel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        println!("skipped: GNU parallel is not on PATH (apt-get install parallel)");
        return;
    }
    let dir = scratch("match-parallel");
    let out = dir.join("out");
    // MATCH as `shards` shards, two at once, in `out`: the exit code and stderr.
    let play = |shards: &str, extra: &[&str]| {
        let output = Command::new(script("match-parallel"))
            .args(["-j", "2", "--shards", shards])
            .args(extra)
            .arg("--krou")
            .arg(krou())
            .arg("--out")
            .arg(&out)
            .arg("--")
            .args(MATCH)
            .output()
            .expect("the script runs");
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), said)
    };
    let (code, said) = play("2", &[]);
    assert_eq!(code, Some(0), "{said}");
    let merged = read_json(&out.join("merged.json"));
    assert_eq!(merged["shards_merged"], serde_json::json!([1, 2]));
    let one = one_process(&dir);
    assert_same_games(&one, &merged);
    let records = std::fs::read_to_string(out.join("games.ogn")).expect("records");
    let games = krou::referee::ogn_read::read_games(&records).expect("readable");
    assert_eq!(games.len(), 16);
    // --resume plays only the shards not complete: here shard 2, lost, and shard 1 is kept.
    let kept = std::fs::read_to_string(out.join("shard-1.json")).expect("shard 1");
    std::fs::remove_file(out.join("shard-2.json")).expect("shard 2 is there");
    let (code, said) = play("2", &["--resume"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("1 of 2 shards already complete; playing 1"),
        "{said}"
    );
    let joblog = std::fs::read_to_string(out.join("joblog")).expect("a job log");
    assert_eq!(joblog.lines().count(), 2, "a header and shard 2: {joblog}");
    assert_eq!(
        std::fs::read_to_string(out.join("shard-1.json")).ok(),
        Some(kept)
    );
    assert_same_games(&one, &read_json(&out.join("merged.json")));
    // Resuming with another split (or other options) is refused, and nothing is played.
    let (code, refused) = play("3", &["--resume"]);
    assert_eq!(code, Some(2), "{refused}");
    assert!(refused.contains("holds another match"), "{refused}");
    assert!(!out.join("shard-3.json").exists());
    let help = Command::new(script("match-parallel"))
        .arg("--help")
        .output()
        .expect("the script runs");
    assert!(String::from_utf8_lossy(&help.stdout).contains("--sshlogin"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_script_parses_and_its_tasks_and_merge_give_the_whole_match() {
    let syntax = Command::new("bash")
        .arg("-n")
        .arg(script("match-slurm.sbatch"))
        .status()
        .expect("bash runs");
    assert!(syntax.success(), "bash -n scripts/match-slurm.sbatch");
    // No cluster here: run the array's tasks and the merge job as Slurm would.
    let dir = scratch("match-slurm");
    let run = |task: Option<usize>, args: &[&str]| {
        let mut command = Command::new("bash");
        command
            .arg(script("match-slurm.sbatch"))
            .args(args)
            .env("SLURM_SUBMIT_DIR", &dir)
            .env("KROU", krou())
            .env("OUT", "results");
        if let Some(task) = task {
            command
                .env("SLURM_ARRAY_TASK_ID", task.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3")
                .env("SLURM_ARRAY_TASK_MIN", "1")
                .env("SLURM_ARRAY_TASK_MAX", "3");
        }
        let output = command.output().expect("bash runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    for task in 1..=3 {
        run(Some(task), &MATCH);
    }
    run(None, &["merge"]);
    let merged = read_json(&dir.join("results/merged.json"));
    assert_eq!(merged["shards_merged"], serde_json::json!([1, 2, 3]));
    assert_same_games(&one_process(&dir), &merged);
    let _ = std::fs::remove_dir_all(&dir);
}
