//! End to end on a real Slurm: scripts/slurm/arena.sbatch submits a 4-shard job array and the
//! merge that depends on it; the merged folder must be byte for byte the run on this machine.
//!
//! Skipped (with a message) when `sbatch` is not on PATH or no Slurm controller answers; what the
//! scripts say without Slurm is checked everywhere. On one
//! machine, as root: `scripts/slurm/local-cluster.sh start`, then
//! `cargo test --release --test suite slurm:: -- --nocapture`, then `scripts/slurm/local-cluster.sh stop`.
//! The jobs run the arena binary of this build, so the folders must be on a filesystem the nodes
//! share with this machine (a one-node cluster shares /tmp).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, write};
use tempfile::TempDir;

/// A round robin of three hold'em bots: three tables, paired.
const CONFIG: &str = "game = \"holdem\"\ngames = 400\npaired = true\nbots = [\"rr\", \"random\", \"always-call\"]\n";

const COMPARED: &[&str] = &["config.toml", "games.csv", "summary.csv", "match.csv", "ratings.csv"];

/// How long the array and its merge may take before the test gives up and cancels them.
const LIMIT: Duration = Duration::from_secs(300);

fn answers(program: &str, args: &[&str]) -> bool {
    Command::new(program).args(args).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

#[test]
fn a_job_array_of_shards_and_its_merge_give_the_run_of_one_machine() {
    if !answers("sbatch", &["--version"]) {
        eprintln!("skipped: sbatch is not on PATH (scripts/slurm/local-cluster.sh starts a one-node cluster)");
        return;
    }
    if !answers("scontrol", &["ping"]) || !answers("sinfo", &["-h"]) {
        eprintln!("skipped: no Slurm controller answers (scripts/slurm/local-cluster.sh start)");
        return;
    }
    let arena = Path::new(env!("CARGO_BIN_EXE_arena"));
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "rr.toml", CONFIG);
    let local = dir.path().join("local");
    let ran = common::arena().args(["run", "--quiet", "--out"]).arg(&local).arg(&config).output().unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/arena.sbatch");
    let merged = dir.path().join("slurm");
    let started = Instant::now();
    let mut submit = Command::new(&script)
        .arg(&config)
        .arg("4")
        .arg(&merged)
        .env("ARENA", arena)
        .env("ARENA_SBATCH_WAIT", "1")
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let finished = loop {
        if let Some(status) = submit.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > LIMIT {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let output = submit.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    let Some(status) = finished else {
        // `shards: job array N ...`: cancel it (the merge depending on it goes with it).
        if let Some(id) = printed.split_whitespace().nth(3) {
            let _ = Command::new("scancel").arg(id).status();
        }
        panic!("the array and its merge took over {LIMIT:?}: {printed}");
    };
    let logs: String = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect();
    assert!(status.success(), "sbatch: {status}\n{printed}\n{logs}");
    eprintln!("4 shards and their merge took {:.1} s on Slurm", started.elapsed().as_secs_f64());
    for k in 1..=4 {
        let shard = dir.path().join(format!("slurm-shard-{k}-of-4"));
        let manifest = std::fs::read_to_string(shard.join("run.json")).unwrap();
        assert!(manifest.contains(&format!("\"index\": {k},")) && manifest.contains("\"complete\""), "{manifest}");
    }
    for name in COMPARED {
        let (a, b) = (std::fs::read(local.join(name)).unwrap(), std::fs::read(merged.join(name)).unwrap());
        assert!(a == b, "{name} merged from the Slurm shards differs from the run on one machine");
    }
}

/// Slow enough that a task can be killed while it plays (a few seconds a shard).
const SLOW_CONFIG: &str =
    "game = \"holdem\"\ngames = 200000\npaired = true\nbots = [\"rr\", \"random\", \"always-call\"]\n";

/// Whether Slurm job (or array) `id` has tasks left in the queue.
fn queued(id: &str) -> bool {
    let out = Command::new("squeue").args(["-h", "-j", id]).output().unwrap();
    out.status.success() && !String::from_utf8_lossy(&out.stdout).trim().is_empty()
}

/// Waits until `done` or [`LIMIT`]; panics naming `what` on the limit.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < LIMIT, "waited over {LIMIT:?} for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The recovery a cluster user needs: one task of the array cancelled and another SIGKILLed
/// mid-run (so the merge, which waits for every task to succeed, is cancelled), then
/// `arena.sbatch finish` submits the two unfinished shards again (the killed one resumes from
/// what it saved) and the merge: byte for byte the run of one machine. Jobs carry the run's name.
#[test]
fn a_run_whose_tasks_were_cancelled_and_killed_is_finished_by_one_command() {
    if !answers("sbatch", &["--version"]) || !answers("scontrol", &["ping"]) || !answers("sinfo", &["-h"]) {
        eprintln!("skipped: no Slurm cluster (scripts/slurm/local-cluster.sh start)");
        return;
    }
    let arena = Path::new(env!("CARGO_BIN_EXE_arena"));
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "slow.toml", SLOW_CONFIG);
    let local = dir.path().join("local");
    let ran = common::arena().args(["run", "--quiet", "--out"]).arg(&local).arg(&config).output().unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/arena.sbatch");
    let merged = dir.path().join("killed");
    let submit = |args: &[&str], wait: bool| {
        let output = Command::new(&script)
            .args(args)
            .arg(&config)
            .arg("4")
            .arg(&merged)
            .env("ARENA", arena)
            .env("ARENA_SBATCH_WAIT", if wait { "1" } else { "0" })
            .env("ARENA_THROTTLE", "2")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        (output.status.success(), printed)
    };
    let (submitted, printed) = submit(&[], false);
    assert!(submitted, "{printed}");
    let array = printed.split_whitespace().nth(3).expect("shards: job array ID").to_string();
    let merge = printed.lines().last().unwrap().trim().to_string();
    let names = Command::new("squeue").args(["-h", "-o", "%j", "-j"]).arg(format!("{array},{merge}")).output().unwrap();
    let names = String::from_utf8_lossy(&names.stdout).into_owned();
    assert!(names.contains("arena-killed-shards") && names.contains("arena-killed-merge"), "{names}");

    // Shard 4 is cancelled (pending or running); shard 1 is SIGKILLed once it has played.
    assert!(Command::new("scancel").arg(format!("{array}_3")).status().unwrap().success());
    let first = merged.with_file_name("killed-shard-1-of-4");
    let pattern = format!("--out {}", first.display());
    wait_for("shard 1 to write games", || std::fs::metadata(first.join("games.csv")).is_ok_and(|m| m.len() > 100_000));
    assert!(Command::new("pkill").args(["-KILL", "-f", "--", &pattern]).status().unwrap().success());
    wait_for("the array and the cancelled merge to leave the queue", || !queued(&array) && !queued(&merge));
    assert!(!merged.join("run.json").exists(), "the merge did not run");
    let log: String = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&format!("slurm-arena-killed-shards-{array}_0")))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(log.contains("shard 1 of 4"), "the killed task's log keeps its lines: {log}");

    let shards: Vec<String> =
        (1..=4).map(|k| merged.with_file_name(format!("killed-shard-{k}-of-4")).display().to_string()).collect();
    let status = common::arena().arg("status").args(&shards).output().unwrap();
    let status = String::from_utf8_lossy(&status.stdout).into_owned();
    let logs: String = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
        .map(|e| {
            format!("{}:\n{}", e.file_name().to_string_lossy(), std::fs::read_to_string(e.path()).unwrap_or_default())
        })
        .collect();
    let (finished, printed) = submit(&["finish"], true);
    assert!(finished, "{printed}");
    assert!(printed.contains("(tasks 0,3)"), "only the unfinished shards run again: {printed}\n{status}\n{logs}");
    for name in COMPARED {
        let (a, b) = (std::fs::read(local.join(name)).unwrap(), std::fs::read(merged.join(name)).unwrap());
        assert!(a == b, "{name} merged after the recovery differs from the run on one machine");
    }
}

/// Without Slurm the scripts say so in one line (what to install, how to play on this machine
/// instead) and exit 2, rather than ending in the shell's `sbatch: command not found` (127):
/// arena.sbatch before it submits anything, local-cluster.sh when it has no apt-get to install
/// Slurm with. Run with a PATH that holds only the few tools the scripts need before that point.
#[test]
fn without_slurm_the_scripts_say_what_to_install() {
    let dir = TempDir::new().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    for tool in ["dirname", "hostname", "id", "date"] {
        let which = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().unwrap();
        let path = String::from_utf8_lossy(&which.stdout).trim().to_string();
        assert!(!path.is_empty(), "{tool} is not installed");
        std::os::unix::fs::symlink(path, bin.join(tool)).unwrap();
    }
    let config = write(dir.path(), "rr.toml", CONFIG);
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm");
    let runs: [(&str, Vec<&std::ffi::OsStr>, &[&str]); 2] = [
        (
            "arena.sbatch",
            vec![config.as_os_str(), "4".as_ref(), "out".as_ref()],
            &["sbatch not found", "slurm-wlm", "arena run CONFIG"],
        ),
        ("local-cluster.sh", vec!["start".as_ref()], &["no apt-get", "slurm-wlm", "arena run CONFIG"]),
    ];
    for (script, args, says) in runs {
        let out =
            Command::new(scripts.join(script)).args(args).env("PATH", &bin).current_dir(dir.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{script}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{script}: one line, got {stderr}");
        assert!(stderr.starts_with("error: "), "{script}: {stderr}");
        for said in says {
            assert!(stderr.contains(said), "{script}: `{said}` not in {stderr}");
        }
        assert!(out.stdout.is_empty(), "{script}: {}", String::from_utf8_lossy(&out.stdout));
    }
}
