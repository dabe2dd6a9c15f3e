//! `--records csv|gz|none`: games.csv.gz holds exactly games.csv's bytes, compressed; a run that
//! keeps no games writes the same verdicts; compressed runs resume after a kill and merge from
//! shards to the run never interrupted; a run without games refuses what needs them.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, gunzipped, write};
use tempfile::TempDir;

/// A paired gomoku run of a few tenths of a second.
const PLAIN: &str =
    "game = \"gomoku\"\ngames = 1500\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 15\n";

/// The files whose bytes do not depend on how the games are kept.
const VERDICTS: &[&str] = &["config.toml", "summary.csv", "match.csv"];

fn run(config: &Path, out: &Path, extra: &[&str]) -> Duration {
    let start = Instant::now();
    let output = arena().args(["run", "--quiet", "--out"]).arg(out).arg(config).args(extra).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    start.elapsed()
}

fn same_verdicts(a: &Path, b: &Path) {
    for name in VERDICTS {
        assert_eq!(std::fs::read(a.join(name)).unwrap(), std::fs::read(b.join(name)).unwrap(), "{name}");
    }
}

#[test]
fn gz_holds_games_csv_compressed_and_none_writes_the_same_verdicts() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let (csv, gz, none) = (dir.path().join("csv"), dir.path().join("gz"), dir.path().join("none"));
    run(&config, &csv, &[]);
    run(&config, &gz, &["--records", "gz"]);
    run(&config, &none, &["--records", "none", "--threads", "1"]);
    let games = std::fs::read(csv.join("games.csv")).unwrap();
    assert!(!gz.join("games.csv").exists() && !none.join("games.csv").exists() && !none.join("games.csv.gz").exists());
    let packed = std::fs::metadata(gz.join("games.csv.gz")).unwrap().len();
    assert!(packed * 3 < games.len() as u64, "{packed} bytes compressed of {}", games.len());
    assert_eq!(gunzipped(&gz.join("games.csv.gz")), games);
    same_verdicts(&csv, &gz);
    same_verdicts(&csv, &none);
    // stats and the report read a compressed run as they read games.csv.
    let stats = |dir: &Path| arena().args(["stats", "--run"]).arg(dir).output().unwrap();
    assert_eq!(stats(&csv).stdout, stats(&gz).stdout);
    let report = arena().args(["report"]).arg(&gz).output().unwrap();
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
}

#[test]
fn a_run_without_games_refuses_what_needs_them_in_one_line() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let none = dir.path().join("none");
    run(&config, &none, &["--records", "none"]);
    // (A complete run has nothing to resume; extended, it would need its games.)
    for args in [&["resume", "--games", "3000"][..], &["stats", "--run"], &["report"], &["merge", "--out", "merged"]] {
        let out = arena().args(args).arg(&none).current_dir(dir.path()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("kept no games (--records none)"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_compressed_run_killed_anywhere_resumes_to_the_run_never_interrupted() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let reference = dir.path().join("reference");
    let length = run(&config, &reference, &["--threads", "2"]);
    let games = std::fs::read(reference.join("games.csv")).unwrap();
    let (moments, mut kept) = (8, 0);
    for k in 0..moments {
        let out = dir.path().join(format!("cut-{k}"));
        let mut child = arena()
            .args(["run", "--quiet", "--threads", "2", "--records", "gz", "--out"])
            .arg(&out)
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(length.mul_f64(f64::from(k) / f64::from(moments)));
        assert!(Command::new("kill").args(["-KILL", &child.id().to_string()]).status().unwrap().success());
        child.wait().unwrap();
        if !out.join("run.json").exists() {
            continue; // killed before the run started
        }
        let resumed = arena().args(["resume", "--quiet", "--threads", "1"]).arg(&out).output().unwrap();
        assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(gunzipped(&out.join("games.csv.gz")), games, "killed at moment {k}");
        same_verdicts(&reference, &out);
        kept += 1;
    }
    assert!(kept >= moments / 2, "most kills should land once the run has started: {kept} of {moments}");
}

#[test]
fn compressed_shards_merge_to_the_one_machine_run() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    let whole = dir.path().join("whole");
    run(&config, &whole, &[]);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = dir.path().join(format!("shard-{k}"));
        run(&config, &shard, &["--shard", &format!("{k}/3"), "--records", if k == 2 { "csv" } else { "gz" }]);
        shards.push(shard);
    }
    for (records, file) in [("csv", "games.csv"), ("gz", "games.csv.gz")] {
        let merged = dir.path().join(format!("merged-{records}"));
        let out = arena()
            .args(["merge", "--quiet", "--records", records, "--out"])
            .arg(&merged)
            .args(&shards)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let text = match records {
            "gz" => gunzipped(&merged.join(file)),
            _ => std::fs::read(merged.join(file)).unwrap(),
        };
        assert_eq!(text, std::fs::read(whole.join("games.csv")).unwrap(), "merged as {records}");
        same_verdicts(&whole, &merged);
    }
}

/// `arena replay --export phh` plays hold'em's records back into the very hand histories
/// `--hand-history` wrote as the hands were played, byte for byte (PHH has no clock to differ in).
#[test]
fn exported_phh_is_the_live_hand_history() {
    let dir = TempDir::new().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/holdem-headsup.toml");
    let out = dir.path().join("hh");
    run(&config, &out, &["--games", "4", "--records", "moves", "--hand-history"]);
    let output = arena().args(["replay"]).arg(&out).args(["--export", "phh"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let mut files = 0;
    for entry in std::fs::read_dir(out.join("history")).unwrap() {
        let path = entry.unwrap().path();
        let exported = out.join("phh").join(path.file_name().unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&exported).unwrap(), "{}", path.display());
        files += 1;
    }
    assert!(files >= 4, "{files} hand histories");
    assert_eq!(std::fs::read_dir(out.join("phh")).unwrap().count(), files);
}
