//! Runs that survive: run.json, resume after SIGKILL, SIGTERM and Ctrl-C (byte-identical to the
//! run never interrupted, SPRT runs included), `--force` and `arena stats --run` on partial folders.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, manifest, write};
use tempfile::TempDir;

/// A gomoku run of about half a second on two threads: paired, so resume must keep whole pairs.
const PLAIN: &str =
    "game = \"gomoku\"\ngames = 1500\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 15\n";
/// An SPRT run that stops after 3580 games (seed 1).
const SPRT: &str = "game = \"gomoku\"\ngames = 100000\npaired = true\nbots = [\"random-adjacent\", \"random\"]\n[table]\nsize = 15\n[sprt]\nelo0 = 150\nelo1 = 155\n";

/// The files whose bytes must not depend on interruptions.
const COMPARED: &[&str] = &["config.toml", "games.csv", "summary.csv", "match.csv", "ratings.csv"];

fn run_to_end(config: &Path, out: &Path, threads: &str) -> Duration {
    let start = Instant::now();
    let output = arena().args(["run", "--quiet", "--threads", threads, "--out"]).arg(out).arg(config).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    start.elapsed()
}

fn assert_same_files(reference: &Path, other: &Path, what: &str) {
    for name in COMPARED {
        let (a, b) = (std::fs::read(reference.join(name)).ok(), std::fs::read(other.join(name)).ok());
        assert!(a == b, "{what}: {name} differs from the run never interrupted");
    }
}

/// Starts a run, sends `signal` after `wait`, waits for the process and returns its exit code.
fn interrupt(config: &Path, out: &Path, signal: &str, wait: Duration) -> Option<i32> {
    let mut child = arena()
        .args(["run", "--quiet", "--threads", "2", "--out"])
        .arg(out)
        .arg(config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(wait);
    let sent = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    child.wait().unwrap().code()
}

fn resume(out: &Path, threads: &str) {
    let output = arena().args(["resume", "--quiet", "--threads", threads]).arg(out).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}

/// Interrupts a run of `config` with `signal` at `moments` moments spread over its length, resumes
/// each (on one thread, the run had two) and checks the files are those of the run never
/// interrupted. Returns how many interruptions left a row cut short and how many left run.json
/// `running`.
fn interrupt_and_resume(config: &str, signal: &str, moments: u32, end_status: &str) -> (usize, usize) {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", config);
    let reference = dir.path().join("reference");
    let length = run_to_end(&config, &reference, "2");
    assert_eq!(manifest(&reference)["status"], end_status);
    // Run again: the shorter time places the kills (a first run slowed by a busy machine would
    // put most of them after the end), and the two runs must agree.
    let again = dir.path().join("again");
    let length = length.min(run_to_end(&config, &again, "2"));
    assert_same_files(&reference, &again, "a second run");
    let (mut cut, mut running) = (0, 0);
    for k in 0..moments {
        let out = dir.path().join(format!("cut-{k}"));
        let code = interrupt(&config, &out, signal, length.mul_f64(f64::from(k) / f64::from(moments)));
        let status = std::fs::read_to_string(out.join("run.json")).map(|_| manifest(&out)["status"].clone());
        let killed_running = status.as_ref().is_ok_and(|s| s == "running");
        running += usize::from(killed_running);
        let mut games = std::fs::read(out.join("games.csv")).unwrap_or_default();
        // The writer hands the file whole games, so a kill seldom tears a row; every other moment
        // of a run killed while running tears the last row as a kill inside a write would, so
        // that resume's cut-row path is taken from real killed runs too.
        let header_end = games.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
        if killed_running && k % 2 == 1 && games.len() > header_end + 8 && games.ends_with(b"\n") {
            games.truncate(games.len() - 1 - k as usize % 5);
            std::fs::write(out.join("games.csv"), &games).unwrap();
        }
        cut += usize::from(!games.is_empty() && !games.ends_with(b"\n"));
        if signal == "-TERM" && code == Some(143) {
            assert_eq!(status.unwrap(), "interrupted", "moment {k}");
            let stats = arena().args(["stats", "--run"]).arg(&out).output().unwrap();
            let first = String::from_utf8_lossy(&stats.stdout).lines().next().unwrap_or_default().to_string();
            assert!(first.starts_with("run: partial (status interrupted"), "{first}");
        }
        if !out.join("run.json").exists() {
            continue; // killed before the run started: nothing to resume
        }
        resume(&out, "1");
        assert_eq!(manifest(&out)["status"], end_status, "moment {k}");
        assert_same_files(&reference, &out, &format!("{signal} at moment {k} of {moments}"));
    }
    (cut, running)
}

#[test]
fn sigkill_at_twenty_moments_then_resume_gives_the_same_files() {
    let (cut, running) = interrupt_and_resume(PLAIN, "-KILL", 20, "complete");
    assert!(running >= 10, "most kills should land while the run is running: {running} of 20");
    assert!(cut >= 1, "some kills should land while a row is being written: {cut} of 20");
}

#[test]
fn sigterm_interrupts_cleanly_and_resume_gives_the_same_files() {
    interrupt_and_resume(PLAIN, "-TERM", 4, "complete");
}

#[test]
fn an_sprt_run_resumed_stops_at_the_same_game() {
    interrupt_and_resume(SPRT, "-KILL", 4, "sprt-stopped");
}

/// The acceptance test at full strength: 20 moments for SIGTERM and for the SPRT run.
/// `cargo test --release --test suite runs:: -- --ignored`
#[test]
#[ignore]
fn twenty_moments_for_sigterm_and_for_an_sprt_run() {
    interrupt_and_resume(PLAIN, "-TERM", 20, "complete");
    interrupt_and_resume(SPRT, "-KILL", 20, "sprt-stopped");
}

#[test]
fn the_manifest_says_how_the_run_ended() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let out = dir.path().join("out");
    run_to_end(&config, &out, "2");
    let m = manifest(&out);
    assert_eq!(m["status"], "complete");
    assert_eq!((m["games_planned"].as_u64(), m["games_played"].as_u64()), (Some(1500), Some(1500)));
    assert_eq!(m["commit"].as_str().unwrap().len(), 40, "the git commit is embedded: {}", m["commit"]);
    assert!(m["command"].as_array().unwrap().iter().any(|a| a == "--quiet"));
    assert!(m["config_hash"].as_str().unwrap().starts_with("fnv1a64:"));
    let stats = arena().args(["stats", "--run"]).arg(&out).output().unwrap();
    assert!(String::from_utf8_lossy(&stats.stdout).starts_with("run: complete, 1500 of 1500 games\n"));
    // Resuming a whole run changes nothing.
    let again = arena().arg("resume").arg(&out).output().unwrap();
    assert_eq!(again.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to resume"));
}

#[test]
fn a_killed_run_is_partial_for_stats_and_a_changed_config_is_not_resumed() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let out = dir.path().join("out");
    run_to_end(&config, &out, "2");
    // What kill -9 leaves: run.json `running`, games.csv cut in a row.
    let text = std::fs::read_to_string(out.join("run.json")).unwrap().replace("\"complete\"", "\"running\"");
    std::fs::write(out.join("run.json"), text).unwrap();
    let games = std::fs::read(out.join("games.csv")).unwrap();
    std::fs::write(out.join("games.csv"), &games[..games.len() / 2]).unwrap();
    let stats = arena().args(["stats", "--run"]).arg(&out).output().unwrap();
    let first = String::from_utf8_lossy(&stats.stdout).lines().next().unwrap().to_string();
    assert!(first.starts_with("run: partial (status running"), "{first}");
    assert!(first.contains("row cut short"), "{first}");
    let config_toml = out.join("config.toml");
    let changed = std::fs::read_to_string(&config_toml).unwrap().replace("games = 1500", "games = 1600");
    std::fs::write(&config_toml, changed).unwrap();
    let refused = arena().arg("resume").arg(&out).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("config.toml no longer matches") && err.lines().count() == 1, "{err}");
}

#[test]
fn force_clears_a_run_folder_and_keeps_files_of_other_names() {
    let dir = TempDir::new().unwrap();
    let holdem = "game = \"holdem\"\ngames = 20\nbots = [\"rr\", \"random\", \"rr-tight\"]\n";
    let config = write(dir.path(), "run.toml", holdem);
    // A folder of a person's own files (no file a run writes) holds no run: the run goes in beside them.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let readme = write(&out, "README.md", "what this folder is for");
    let ignore = write(&out, ".gitignore", "*.csv\n");
    let ok = arena().args(["run", "--quiet", "--hand-history", "--out"]).arg(&out).arg(&config).output().unwrap();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(out.join("match.csv").exists() && out.join("ratings.csv").exists() && out.join("history").is_dir());
    // Now it holds a run: refused without --force, naming the run's files, not the others.
    let refused = arena().args(["run", "--quiet", "--out"]).arg(&out).arg(&config).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("already holds a run (config.toml, games.csv, history,") && err.lines().count() == 1, "{err}");
    assert!(!err.contains("README") && !err.contains("gitignore"), "{err}");
    // A one-bot rerun with --force writes neither match.csv nor ratings.csv nor history/: none is
    // left over, and the person's files are all kept.
    let mine = write(&out, "notes.txt", "mine");
    let one = write(dir.path(), "one.toml", "game = \"holdem\"\ngames = 20\nseats = 2\nbots = [\"rr\"]\n");
    let ok = arena().args(["run", "--quiet", "--force", "--out"]).arg(&out).arg(&one).output().unwrap();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let mut left: Vec<String> =
        out.read_dir().unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(
        left,
        [".gitignore", "README.md", "config.toml", "games.csv", "notes.txt", "run.json", "summary.csv", "timing.csv"]
    );
    for kept in [&readme, &ignore, &mine] {
        assert!(std::fs::read_to_string(kept).unwrap().len() > 3, "{} changed", kept.display());
    }
}

#[test]
fn a_second_ctrl_c_abandons_the_games_in_flight() {
    let dir = TempDir::new().unwrap();
    let long = "game = \"gomoku\"\ngames = 100000000\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 25\n";
    let config = write(dir.path(), "long.toml", long);
    let out: PathBuf = dir.path().join("long");
    let mut child =
        arena().args(["run", "--quiet", "--out"]).arg(&out).arg(&config).stdout(Stdio::null()).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    for _ in 0..2 {
        assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    }
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(manifest(&out)["status"], "interrupted");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(games.ends_with('\n') && (games.lines().count() - 1).is_multiple_of(2), "whole games only");
}
