//! End to end on a real Slurm: scripts/slurm/arena.sbatch submits a 4-shard job array and the
//! merge that depends on it; the merged folder must be byte for byte the run on this machine.
//!
//! Skipped (with a message) when `sbatch` is not on PATH or no Slurm controller answers. On one
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
