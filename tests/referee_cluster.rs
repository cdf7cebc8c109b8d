//! The README's multi-machine recipes on the real tools: `scripts/match-parallel --sshlogin`
//! through an `sshd` on 127.0.0.1, and `scripts/match-slurm.sbatch` on a one-node Slurm
//! cluster (munge, slurmctld, slurmd) in a network namespace of its own (only loopback). Each
//! test skips, saying why, where a program is missing or it does not run as root. Every process
//! a test starts is killed when it ends, also when it fails ([`Guard`]).

mod referee_support;

use referee_support::{fake, krou, scratch};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills what a test started when dropped: process groups by their leader's pid, and every
/// process in a network namespace (held by the pid of its first process).
#[derive(Default)]
struct Guard {
    groups: Vec<Child>,
    namespace: Option<u32>,
}

impl Guard {
    /// Starts `command` as the leader of a new process group that the guard will kill.
    fn spawn(&mut self, command: &mut Command, log: &Path) -> u32 {
        let log = std::fs::File::create(log).expect("a log file");
        let err = log.try_clone().expect("a log file");
        let child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .expect("the program starts");
        let pid = child.id();
        self.groups.push(child);
        pid
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let kill = |target: String| {
            let _ = Command::new("kill").args(["-KILL", "--", &target]).status();
        };
        if let Some(holder) = self.namespace {
            let ns = std::fs::read_link(format!("/proc/{holder}/ns/net")).ok();
            for _ in 0..3 {
                for pid in in_namespace(ns.as_deref()) {
                    kill(pid.to_string());
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        for child in &mut self.groups {
            kill(format!("-{}", child.id()));
            let _ = child.wait();
        }
    }
}

/// The pids of the processes in network namespace `ns` (its `/proc/PID/ns/net` link).
fn in_namespace(ns: Option<&Path>) -> Vec<u32> {
    let Some(ns) = ns else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/ns/net"))
                .ok()
                .as_deref()
                == Some(ns)
        })
        .collect()
}

/// Why the test cannot run here: a program missing, or not root.
fn missing(programs: &[&str]) -> Option<String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if !root {
        return Some("needs root (to start the daemons)".into());
    }
    let absent: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {p}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    (!absent.is_empty()).then(|| format!("{} not found", absent.join(", ")))
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// The same match as one process, its JSON summary, and its wall time.
fn one_process(dir: &Path, args: &[String]) -> (Value, Duration) {
    let json = dir.join("one.json");
    let started = Instant::now();
    let output = Command::new(krou())
        .arg("match")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("krou runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (read_json(&json), started.elapsed())
}

/// The same games, results and totals; the moves' times (`ms`) differ from run to run.
fn assert_same_games(one: &Value, merged: &Value) {
    for key in ["match_id", "games_finished", "pairings", "reasons"] {
        assert_eq!(one[key], merged[key], "{key}");
    }
    let untimed = |summary: &Value| {
        let mut games = summary["games"].clone();
        for game in games.as_array_mut().into_iter().flatten() {
            for mv in game["moves"].as_array_mut().into_iter().flatten() {
                mv["ms"] = Value::Null;
            }
        }
        games
    };
    assert!(
        untimed(one) == untimed(merged),
        "the merged games differ from one process's"
    );
}

fn run(command: &mut Command) -> (bool, String) {
    let output = command.output().expect("the program runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

#[test]
fn match_parallel_runs_shards_over_ssh_and_names_a_host_that_cannot_run_krou() {
    if let Some(why) = missing(&["/usr/sbin/sshd", "ssh", "ssh-keygen", "parallel", "rsync"]) {
        println!("skipped: {why} (apt-get install openssh-server parallel rsync)");
        return;
    }
    let dir = scratch("ssh");
    let mut guard = Guard::default();
    for key in ["host_key", "user_key"] {
        let (made, said) = run(Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", ""])
            .arg("-f")
            .arg(dir.join(key)));
        assert!(made, "{said}");
    }
    std::fs::copy(dir.join("user_key.pub"), dir.join("authorized_keys")).expect("keys");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let config = dir.join("sshd_config");
    let d = dir.display();
    std::fs::write(
        &config,
        format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\n\
             AuthorizedKeysFile {d}/authorized_keys\nPidFile {d}/sshd.pid\nStrictModes no\n\
             PasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\n\
             PermitRootLogin prohibit-password\n"
        ),
    )
    .expect("sshd_config");
    // sshd wants its privilege separation directory.
    let _ = std::fs::create_dir_all("/run/sshd");
    guard.spawn(
        Command::new("/usr/sbin/sshd")
            .args(["-D", "-e", "-f"])
            .arg(&config),
        &dir.join("sshd.log"),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "sshd does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let ssh = |port: u16| {
        format!(
            "ssh -p {port} -i {d}/user_key -o StrictHostKeyChecking=no \
             -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1"
        )
    };
    let args: Vec<String> = ["--engine", "random", "--engine", "greedy", "--games", "16"]
        .into_iter()
        .chain(["--random-openings", "4", "--seed", "21"])
        .map(String::from)
        .collect();
    let out = dir.join("run1");
    // The README's command, this machine and the ssh "host".
    let (ran, said) = run(Command::new(script("match-parallel"))
        .args(["-j", "2", "--shards", "4", "--sshlogin"])
        .arg(format!(":,{}", ssh(port)))
        .arg("--krou")
        .arg(krou())
        .arg("--out")
        .arg(&out)
        .arg("--")
        .args(&args));
    assert!(ran, "{said}");
    let joblog = std::fs::read_to_string(out.join("joblog")).expect("a job log");
    assert!(
        joblog.contains("127.0.0.1"),
        "a shard ran over ssh: {joblog}"
    );
    let merged = read_json(&out.join("merged.json"));
    assert_eq!(merged["shards_merged"], serde_json::json!([1, 2, 3, 4]));
    assert_same_games(&one_process(&dir, &args).0, &merged);
    // A host with nothing listening is named before any shard runs.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let (ran, said) = run(Command::new(script("match-parallel"))
        .args(["--sshlogin", &format!("1/{}", ssh(closed))])
        .arg("--krou")
        .arg(krou())
        .arg("--out")
        .arg(dir.join("run2"))
        .arg("--")
        .args(&args));
    assert!(!ran);
    assert!(
        said.contains("match-parallel: host 'ssh -p") && said.contains("cannot run"),
        "{said}"
    );
    assert!(!dir.join("run2/joblog").exists(), "no shard ran");
    drop(guard);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Slurm's daemons and client commands in a network namespace of their own.
struct Cluster {
    dir: PathBuf,
    namespace: String,
}

impl Cluster {
    /// `program` with `args`, in the namespace, with this cluster's configuration.
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new("nsenter");
        command
            .arg(format!("--net={}", self.namespace))
            .arg(program)
            .env("SLURM_CONF", self.dir.join("slurm.conf"));
        command
    }

    fn run(&self, program: &str, args: &[&str]) -> String {
        let (ran, said) = run(self
            .command(program)
            .args(args)
            .current_dir(self.dir.join("work")));
        assert!(ran, "{program} {args:?}: {said}");
        said
    }

    /// Waits until job `job` (and its tasks) left the queue.
    fn wait(&self, job: &str, limit: Duration) {
        let started = Instant::now();
        while !self.run("squeue", &["-h", "-j", job]).trim().is_empty() {
            assert!(
                started.elapsed() < limit,
                "job {job} still queued after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

/// Starts munge, slurmctld and slurmd with a configuration in `dir`, in a new network
/// namespace whose processes `guard` kills.
fn start_cluster(dir: &Path, guard: &mut Guard) -> Cluster {
    let holder = guard.spawn(
        Command::new("unshare").args(["-n", "sleep", "3600"]),
        &dir.join("holder.log"),
    );
    guard.namespace = Some(holder);
    let namespace = format!("/proc/{holder}/ns/net");
    let started = Instant::now();
    while std::fs::read_link(&namespace).ok() == std::fs::read_link("/proc/self/ns/net").ok() {
        assert!(started.elapsed() < Duration::from_secs(5), "no namespace");
        std::thread::sleep(Duration::from_millis(20));
    }
    let cluster = Cluster {
        dir: dir.to_path_buf(),
        namespace,
    };
    for dir in ["state", "spool", "work"] {
        std::fs::create_dir_all(cluster.dir.join(dir)).expect("a directory");
    }
    // Loopback up; a second address on it because getaddrinfo(AI_ADDRCONFIG) ignores 127.0.0.1.
    cluster.run("ip", &["link", "set", "lo", "up"]);
    cluster.run("ip", &["addr", "add", "10.254.0.1/32", "dev", "lo"]);
    let key: Vec<u8> = (0..1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let key_file = dir.join("munge.key");
    std::fs::write(&key_file, key).expect("a munge key");
    let _ = Command::new("chmod").arg("400").arg(&key_file).status();
    let host = run(Command::new("hostname").arg("-s")).1.trim().to_string();
    let d = dir.display();
    std::fs::write(dir.join("plugstack.conf"), "").expect("plugstack.conf");
    std::fs::write(
        dir.join("slurm.conf"),
        format!(
            "ClusterName=krou\nSlurmctldHost={host}(127.0.0.1)\nSlurmctldPort=6817\n\
             SlurmdPort=6818\nAuthType=auth/munge\nCredType=cred/munge\n\
             AuthInfo=socket={d}/munge.sock\nSlurmUser=root\nSlurmdUser=root\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             PlugStackConfig={d}/plugstack.conf\nProctrackType=proctrack/linuxproc\n\
             TaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
             SchedulerType=sched/builtin\nReturnToService=2\nKillWait=5\nMinJobAge=600\n\
             NodeName=krou-node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN\n\
             PartitionName=test Nodes=krou-node Default=YES MaxTime=INFINITE State=UP\n"
        ),
    )
    .expect("slurm.conf");
    let daemons: [(&str, Vec<String>); 3] = [
        (
            "munged",
            vec![
                "-F".into(),
                "-f".into(),
                format!("--socket={d}/munge.sock"),
                format!("--key-file={d}/munge.key"),
                format!("--pid-file={d}/munged.pid"),
                format!("--log-file={d}/munged.log"),
                format!("--seed-file={d}/munged.seed"),
            ],
        ),
        ("slurmctld", vec!["-D".into(), "-c".into()]),
        ("slurmd", vec!["-D".into(), "-N".into(), "krou-node".into()]),
    ];
    for (name, args) in daemons {
        guard.spawn(
            cluster.command(name).args(args),
            &dir.join(format!("{name}.out")),
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let started = Instant::now();
    while !run(cluster.command("sinfo").args(["-h", "-o", "%t"]))
        .1
        .trim()
        .starts_with("idle")
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the node never became idle"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    cluster
}

#[test]
fn slurm_shards_survive_scancel_and_a_re_run_merges_into_one_process() {
    let tools = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scancel",
        "unshare",
        "nsenter",
        "ip",
    ];
    if let Some(why) = missing(&tools) {
        println!("skipped: {why} (apt-get install slurm-wlm munge)");
        return;
    }
    let dir = scratch("slurm");
    let mut guard = Guard::default();
    let cluster = start_cluster(&dir, &mut guard);
    let fake = fake().display().to_string();
    let args: Vec<String> = vec![
        "--engine".into(),
        format!("name=a {fake} good"),
        "--engine".into(),
        format!("name=b {fake} slow 40"),
        "--games".into(),
        "24".into(),
        "--random-openings".into(),
        "4".into(),
        "--tc".into(),
        "st=0.2".into(),
        "--seed".into(),
        "7".into(),
    ];
    let script = script("match-slurm.sbatch").display().to_string();
    let krou = krou().display().to_string();
    let sbatch = |extra: &[&str]| -> String {
        let mut command = cluster.command("sbatch");
        command
            .args(extra)
            .current_dir(dir.join("work"))
            .env("KROU", &krou);
        let (ran, said) = run(&mut command);
        assert!(ran, "sbatch {extra:?}: {said}");
        said.trim().to_string()
    };
    // The recipe of docs/clusters.md: Slurm's output files in match-out, not the directory.
    std::fs::create_dir_all(dir.join("work/match-out")).expect("match-out");
    let started = Instant::now();
    let mut first: Vec<&str> = vec![
        "--parsable",
        "--array=1-4",
        "--output=match-out/slurm-%A_%a.out",
        &script,
    ];
    first.extend(args.iter().map(String::as_str));
    let jid = sbatch(&first);
    let after = format!("--dependency=afterany:{jid}");
    let merge_job = sbatch(&[
        "--parsable",
        &after,
        "--cpus-per-task=1",
        "--time=10:00",
        "--output=match-out/slurm-merge-%j.out",
        &script,
        "merge",
    ]);
    // Cancel shard 2 once it has finished a game.
    let out = dir.join("work/match-out");
    let waited = Instant::now();
    while !std::fs::read_to_string(out.join("shard-2.ogn")).is_ok_and(|t| t.contains("[Round")) {
        assert!(
            waited.elapsed() < Duration::from_secs(90),
            "shard 2 finished no game"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    cluster.run("scancel", &[&format!("{jid}_2")]);
    cluster.wait(&merge_job, Duration::from_secs(120));
    let first_run = started.elapsed();
    let cancelled = read_json(&out.join("shard-2.json"));
    assert_eq!(cancelled["ending"], "interrupted", "{cancelled:#}");
    let kept = cancelled["games_finished"].as_u64().expect("a count");
    assert!(kept >= 1, "shard 2 keeps its finished games");
    assert_eq!(
        cancelled["reasons"].get("crash"),
        None,
        "no engine blamed for scancel"
    );
    let merged = read_json(&out.join("merged.json"));
    assert_eq!(merged["ending"], "interrupted");
    let others: u64 = [1, 3, 4]
        .iter()
        .map(|k| {
            read_json(&out.join(format!("shard-{k}.json")))["games_finished"]
                .as_u64()
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(
        merged["games_finished"].as_u64(),
        Some(others + kept),
        "the merge counts shard 2's games"
    );
    // A shard of another split is refused before it plays.
    let mut other: Vec<&str> = vec!["--parsable", "--array=1", &script, "--shards", "8"];
    other.extend(args.iter().map(String::as_str));
    let refused = sbatch(&other);
    cluster.wait(&refused, Duration::from_secs(60));
    let log = std::fs::read_to_string(dir.join(format!("work/slurm-{refused}_1.out")))
        .unwrap_or_default();
    assert!(log.contains("holds another run"), "{log}");
    // The README's re-run: only shard 2, then the merge.
    let restarted = Instant::now();
    let output = cluster
        .command("bash")
        .arg(&script)
        .arg("resume")
        .current_dir(dir.join("work"))
        .env("KROU", &krou)
        .output()
        .expect("the script runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("re-running shards 2 of 4"), "{said}");
    let jobs = String::from_utf8_lossy(&output.stdout);
    let merge_job = jobs.lines().last().unwrap_or_default().trim().to_string();
    cluster.wait(&merge_job, Duration::from_secs(120));
    let rerun = restarted.elapsed();
    let merged = read_json(&out.join("merged.json"));
    assert_eq!(merged["shards_merged"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(merged["ending"], "completed");
    let games = std::fs::read_to_string(out.join("games.ogn")).unwrap_or_default();
    assert_eq!(
        Some(games.matches("[Round ").count() as u64),
        merged["games_finished"].as_u64(),
        "the merge puts every shard's games in games.ogn"
    );
    assert!(
        std::fs::read_dir(out)
            .expect("match-out")
            .any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("slurm-"))),
        "Slurm's output files go to match-out with --output"
    );
    let (one, alone) = one_process(&dir, &args);
    assert_same_games(&one, &merged);
    println!(
        "slurm: 4 shards of {} games in {:.1} s (shard 2 cancelled), re-run of shard 2 and merge \
         {:.1} s; one process (--concurrency 1) {:.1} s",
        one["games_finished"],
        first_run.as_secs_f64(),
        rerun.as_secs_f64(),
        alone.as_secs_f64()
    );
    drop(guard);
    let _ = std::fs::remove_dir_all(&dir);
}
