//! A run folder belongs to one writer and one config, and tells the truth however its writer
//! ends: the lock (a second `run`, `--force` over a running run, `resume` of a running run),
//! finished games on disk within `--flush-every` of a SIGKILL and `arena status` counting them,
//! a full disk (run.json `failed` with the games on disk, exit code 4, resumed byte for byte),
//! a config into another config's folder, stale and unfinished shards at the merge. All on the
//! real binary: locks, kills and disks are faults of the process.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, manifest, write};
use tempfile::TempDir;

/// Mahjong on one thread: runs for minutes (a few thousand games a second), to be caught while it
/// runs.
const SLOW: &str = "game = \"mahjong\"\ngames = 1000000\nbots = [\"greedy\", \"random\"]\n";
/// Hold'em always-call hands: fast and small rows, to fill a small disk.
const FAST: &str = "game = \"holdem\"\ngames = 400000\npaired = true\nbots = [\"always-call\", \"random\"]\n";

/// A run in the background, killed if the test ends first (a failed assertion must not leave it).
struct Background(Child);

impl Background {
    fn id(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(config: &Path, out: &Path, extra: &[&str]) -> Background {
    let child = arena()
        .args(["run", "--quiet", "--threads", "1", "--out"])
        .arg(out)
        .arg(config)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Background(child)
}

/// Waits until the run in `out` has written games.csv's first game.
fn wait_until_running(out: &Path) {
    let until = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(out.join("games.csv")).map_or(true, |text| text.lines().count() < 2) {
        assert!(Instant::now() < until, "the run never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(child: &mut Background, signal: &str) {
    Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    child.0.wait().unwrap();
}

/// Exit code and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let output = arena().args(args).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Whole games in a games.csv of two-seat games (a cut last row is not one).
fn whole_games(path: &Path, seats: usize) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    text[..whole].lines().skip(1).count() / seats
}

/// `12345` as the tool prints it: `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn one_line(stderr: &str) -> &str {
    assert_eq!(stderr.lines().count(), 1, "one line on stderr: {stderr}");
    stderr.trim_end()
}

#[test]
fn a_second_writer_is_refused_naming_the_first() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "slow.toml", SLOW);
    let other = write(dir.path(), "other.toml", &format!("{SLOW}seed = 9\n"));
    let out = dir.path().join("run");
    let mut first = start(&config, &out, &[]);
    wait_until_running(&out);
    let pid = format!("pid {}", first.id());
    let out_s = out.to_str().unwrap();
    for (what, args) in [
        ("a second run, another seed", vec!["run", other.to_str().unwrap(), "--out", out_s, "--quiet"]),
        ("--force over the running run", vec!["run", config.to_str().unwrap(), "--out", out_s, "--force", "--quiet"]),
        ("resume of the running run", vec!["resume", out_s, "--quiet"]),
        ("run --resume into it", vec!["run", config.to_str().unwrap(), "--out", out_s, "--resume", "--quiet"]),
        ("a merge into it", vec!["merge", out_s, "--out", out_s, "--quiet"]),
    ] {
        let (code, stderr) = run(&args);
        assert_eq!(code, Some(2), "{what}: {stderr}");
        let line = one_line(&stderr);
        assert!(line.contains("is in use") && line.contains(&pid), "{what}: {line}");
    }
    // The first run is unharmed: stopped, its games whole and counted.
    kill(&mut first, "-TERM");
    let m = manifest(&out);
    assert_eq!(m["status"], "interrupted");
    assert_eq!(m["games_played"], whole_games(&out.join("games.csv"), 4) as u64);
    assert_eq!(m["config_hash"], manifest(&out)["config_hash"]);
    assert!(!out.join("arena.lock").exists(), "the lock goes with its holder");
}

/// The audit's reproducer: two runs of different seeds started together into one empty folder.
/// One plays, the other is refused; the folder holds one run whole.
#[test]
fn of_two_runs_started_together_into_one_folder_one_is_refused() {
    let dir = TempDir::new().unwrap();
    let short = "game = \"mahjong\"\ngames = 2000\nbots = [\"greedy\", \"random\"]\n";
    let (a, b) = (write(dir.path(), "a.toml", short), write(dir.path(), "b.toml", &format!("{short}seed = 7\n")));
    for attempt in 0..5 {
        let out = dir.path().join(format!("run-{attempt}"));
        let spawn = |config: &Path| arena().args(["run", "--quiet", "--out"]).arg(&out).arg(config).output();
        let (first, second) = std::thread::scope(|s| {
            let first = s.spawn(|| spawn(&a).unwrap());
            let second = s.spawn(|| spawn(&b).unwrap());
            (first.join().unwrap(), second.join().unwrap())
        });
        let mut codes = [first.status.code(), second.status.code()];
        codes.sort();
        assert_eq!(codes, [Some(0), Some(2)], "attempt {attempt}: both or neither ran");
        let m = manifest(&out);
        assert_eq!(m["status"], "complete");
        assert_eq!(whole_games(&out.join("games.csv"), 4), 2000, "attempt {attempt}: games.csv holds one run");
    }
}

#[test]
fn a_sigkill_loses_at_most_the_flush_interval_and_status_counts_what_is_on_disk() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "slow.toml", SLOW);
    let out = dir.path().join("run");
    let mut child = start(&config, &out, &["--flush-every", "1"]);
    wait_until_running(&out);
    let output = arena().arg("status").arg(&out).output().unwrap();
    let line = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(line.contains(&format!("running (pid {}", child.id())), "{line}");
    std::thread::sleep(Duration::from_secs(5));
    kill(&mut child, "-KILL");
    let on_disk = whole_games(&out.join("games.csv"), 4);
    assert!(on_disk > 0, "a SIGKILL after 5 s left no game on disk");
    let output = arena().arg("status").arg(&out).output().unwrap();
    let line = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(line.contains(&format!("{} of 1,000,000 games on disk", thousands(on_disk))), "{line}");
    assert!(line.contains("killed"), "{line}");
    let json = arena().args(["status", "--json"]).arg(&out).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["folders"][0]["games_on_disk"], on_disk as u64);
    assert_eq!(doc["folders"][0]["state"], "killed");
    // The lock file a killed writer left is taken over.
    assert!(out.join("arena.lock").exists());
    let mut resumed = Background(arena().args(["resume", "--quiet"]).arg(&out).stdout(Stdio::null()).spawn().unwrap());
    let until = Instant::now() + Duration::from_secs(20);
    while manifest(&out)["resumed"].as_array().unwrap().is_empty() {
        assert!(Instant::now() < until, "the resume never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(&mut resumed, "-TERM");
    assert_eq!(manifest(&out)["status"], "interrupted");
}

#[test]
fn a_folder_belongs_to_one_config() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "a.toml", "game = \"gomoku\"\ngames = 20\nbots = [\"random\", \"weights\"]\n");
    let edited =
        write(dir.path(), "b.toml", "game = \"gomoku\"\ngames = 20\nseed = 2\nbots = [\"random\", \"weights\"]\n");
    let out = dir.path().join("run");
    let (config, edited, out_s) = (config.to_str().unwrap(), edited.to_str().unwrap(), out.to_str().unwrap());
    assert_eq!(run(&["run", config, "--out", out_s, "--quiet"]).0, Some(0));
    let games = std::fs::read(out.join("games.csv")).unwrap();
    for args in
        [vec!["run", edited, "--out", out_s, "--quiet"], vec!["run", edited, "--out", out_s, "--resume", "--quiet"]]
    {
        let (code, stderr) = run(&args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(one_line(&stderr).contains("already holds a run") || stderr.contains("another config"), "{stderr}");
    }
    assert!(std::fs::read(out.join("games.csv")).unwrap() == games, "the folder is untouched");
    // The same config with --resume: nothing to do.
    let output = arena().args(["run", config, "--out", out_s, "--resume"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("nothing to resume"));
    // Another shard of the same config is refused too.
    let (code, stderr) = run(&["run", config, "--out", out_s, "--resume", "--shard", "1/2", "--quiet"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("holds the whole run of this config, not shard 1/2"), "{stderr}");
}

/// scripts/slurm/arena.sbatch's task and merge modes, run here as Slurm would run them (the array
/// task's index in the environment): a task rerun alone keeps its shard, an edited config is
/// refused by the task and by the merge, which names the stale shard.
#[test]
fn slurm_tasks_rerun_alone_keep_their_shard_and_stale_shards_are_named() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("skipped: no bash");
        return;
    }
    let dir = TempDir::new().unwrap();
    let config =
        write(dir.path(), "a.toml", "game = \"gomoku\"\ngames = 40\npaired = true\nbots = [\"random\", \"weights\"]\n");
    let edited = write(
        dir.path(),
        "b.toml",
        "game = \"gomoku\"\ngames = 40\npaired = true\nseed = 2\nbots = [\"random\", \"weights\"]\n",
    );
    let out = dir.path().join("out");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/arena.sbatch");
    let binary = assert_cmd::cargo::cargo_bin("arena");
    let task = |config: &Path, id: u32| {
        Command::new("bash")
            .arg(&script)
            .args(["shard", config.to_str().unwrap(), out.to_str().unwrap(), "3"])
            .env("ARENA", &binary)
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            // A task rerun alone (`--array=2`) is an array of one task.
            .env("SLURM_ARRAY_TASK_MIN", id.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "1")
            .output()
            .unwrap()
    };
    for id in 0..3 {
        assert_eq!(task(&config, id).status.code(), Some(0));
    }
    let shard3 = dir.path().join("out-shard-3-of-3");
    let before = std::fs::read(shard3.join("games.csv")).unwrap();
    let rerun = task(&config, 2);
    assert_eq!(rerun.status.code(), Some(0), "{}", String::from_utf8_lossy(&rerun.stderr));
    assert!(!dir.path().join("out-shard-1-of-1").exists(), "a task rerun alone is still shard 3 of 3");
    assert!(std::fs::read(shard3.join("games.csv")).unwrap() == before);
    // The edited config, resubmitted into the same folders: refused by the task.
    let refused = task(&edited, 1);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("another config"));
    // A shard of the edited config (made with --force) among the old ones: the merge names it.
    let shard2 = dir.path().join("out-shard-2-of-3");
    let (code, _) = run(&[
        "run",
        edited.to_str().unwrap(),
        "--shard",
        "2/3",
        "--force",
        "--quiet",
        "--out",
        shard2.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0));
    let merge = Command::new("bash")
        .arg(&script)
        .args(["merge", config.to_str().unwrap(), "3", out.to_str().unwrap()])
        .env("ARENA", &binary)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&merge.stderr);
    assert_eq!(merge.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stale shard") && stderr.contains("out-shard-2-of-3"), "{stderr}");
    assert!(!out.join("games.csv").exists());
}

#[test]
fn an_unfinished_shard_is_refused_with_the_games_on_its_disk() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "slow.toml", SLOW);
    let (one, two) = (dir.path().join("s1"), dir.path().join("s2"));
    // Shard 1 killed after a few games, shard 2 after more: the merged run stops at shard 1's.
    let play_and_kill = |out: &Path, shard: &str, at_least: usize| {
        let mut child = start(&config, out, &["--shard", shard, "--flush-every", "0"]);
        wait_until_running(out);
        let until = Instant::now() + Duration::from_secs(20);
        while whole_games(&out.join("games.csv"), 4) < at_least {
            assert!(Instant::now() < until, "no games written");
            std::thread::sleep(Duration::from_millis(5));
        }
        kill(&mut child, "-KILL");
        whole_games(&out.join("games.csv"), 4)
    };
    let on_disk = play_and_kill(&one, "1/2", 8);
    play_and_kill(&two, "2/2", on_disk + 4);
    assert!(whole_games(&two.join("games.csv"), 4) > on_disk);
    let merged = dir.path().join("merged");
    let (code, stderr) =
        run(&["merge", one.to_str().unwrap(), two.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(one_line(&stderr).contains(&format!("{} of 500,000 games on disk", thousands(on_disk))), "{stderr}");
    assert!(!merged.exists(), "a refused merge leaves no folder behind");
}

/// A tmpfs of `size`, unmounted when dropped; `None` (the test skips) where mounting is not
/// allowed (not root, no mount namespace).
struct SmallDisk {
    dir: TempDir,
}

impl SmallDisk {
    fn mount(size: &str) -> Option<SmallDisk> {
        let dir = TempDir::new().ok()?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .ok()?
            .success();
        if !mounted {
            eprintln!("skipped: cannot mount a tmpfs here (run the tests as root: `sudo cargo test --release --test suite run_folder::`)");
            return None;
        }
        Some(SmallDisk { dir })
    }

    fn path(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    fn grow(&self, size: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(self.dir.path())
            .status()
            .unwrap()
            .success();
        assert!(ok, "remount");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[test]
fn a_full_disk_fails_the_run_truthfully_and_resume_finishes_it_byte_for_byte() {
    let Some(disk) = SmallDisk::mount("2m") else { return };
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "fast.toml", FAST);
    let out = disk.path().join("run");
    let (code, stderr) = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, Some(4), "an I/O failure has its own exit code: {stderr}");
    assert!(one_line(&stderr).contains("No space left on device"), "{stderr}");
    let m = manifest(&out);
    assert_eq!(m["status"], "failed");
    let on_disk = whole_games(&out.join("games.csv"), 2);
    assert!(on_disk > 1000, "{on_disk}");
    assert_eq!(m["games_played"], on_disk as u64, "run.json counts the games on disk");
    let names: Vec<String> =
        out.read_dir().unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp") || n == "arena.lock"), "{names:?}");
    disk.grow("100m");
    let (code, stderr) = run(&["resume", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, Some(0), "{stderr}");
    let reference = dir.path().join("reference");
    assert_eq!(run(&["run", config.to_str().unwrap(), "--out", reference.to_str().unwrap(), "--quiet"]).0, Some(0));
    for name in ["games.csv", "summary.csv", "match.csv"] {
        assert!(std::fs::read(out.join(name)).unwrap() == std::fs::read(reference.join(name)).unwrap(), "{name}");
    }
}

#[test]
fn a_disk_full_at_the_start_leaves_nothing_behind() {
    let Some(disk) = SmallDisk::mount("1m") else { return };
    let filler = disk.path().join("filler");
    // Fill the disk to the last block.
    let _ = Command::new("dd")
        .arg("if=/dev/zero")
        .arg(format!("of={}", filler.display()))
        .arg("bs=4k")
        .stderr(Stdio::null())
        .status();
    let out = disk.path().join("run");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quickstart.toml");
    let (code, stderr) =
        run(&["run", config.to_str().unwrap(), "--games", "10", "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, Some(4), "{stderr}");
    one_line(&stderr);
    assert!(!out.exists() || out.read_dir().unwrap().next().is_none(), "nothing is left in {}", out.display());
    std::fs::remove_file(&filler).unwrap();
    // Space freed: the same command runs, no --force needed.
    let (code, stderr) =
        run(&["run", config.to_str().unwrap(), "--games", "10", "--out", out.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, Some(0), "{stderr}");
}
