//! Runs spread over machines: `arena run --shard K/N`, `arena merge` (byte-identical to the run on
//! one machine, in every game, for 1, 2, 3 and 7 shards; the bad sets of shards refused with one
//! line), SPRT runs over shards, and `arena resume --games N`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{arena, manifest, write};
use tempfile::TempDir;

/// The files whose bytes a merge must reproduce.
const COMPARED: &[&str] = &["config.toml", "games.csv", "summary.csv", "match.csv", "ratings.csv"];

/// One small config per game: two bots at one table, and round robins and many-seat tables.
const CONFIGS: &[(&str, &str)] = &[
    ("gomoku-two", "game = \"gomoku\"\ngames = 60\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 15\n"),
    ("gomoku-round-robin", "game = \"gomoku\"\ngames = 14\npaired = true\nbots = [\"random\", \"random-adjacent\", \"weights\", \"random\"]\n[table]\nsize = 15\n"),
    ("holdem-round-robin", "game = \"holdem\"\ngames = 40\nseats = 2\npaired = true\nbots = [\"rr\", \"random\", \"always-call\"]\n"),
    ("holdem-6max", "game = \"holdem\"\ngames = 24\nseats = 6\npaired = true\nbots = [\"rr\", \"random\", \"always-call\", \"rr-tight\", \"always-raise\", \"random\"]\n"),
    ("stud-two", "game = \"stud\"\ngames = 50\npaired = true\nbots = [\"always-call\", \"random\"]\n"),
    ("zhajinhua-three", "game = \"zhajinhua\"\ngames = 30\nseats = 3\npaired = true\nbots = [\"threshold\", \"random\", \"always-call\"]\n"),
    ("mahjong-four", "game = \"mahjong\"\ngames = 8\npaired = true\nbots = [\"greedy\", \"random\", \"greedy\", \"random\"]\n"),
];

fn ok(output: Output) -> Output {
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

/// The one line of a refusal (exit 2).
fn refused(output: Output) -> String {
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

fn run(config: &Path, out: &Path, extra: &[&str]) -> Output {
    arena().args(["run", "--quiet", "--threads", "2", "--out"]).arg(out).args(extra).arg(config).output().unwrap()
}

fn merge(shards: &[PathBuf], out: &Path) -> Output {
    arena().args(["merge", "--quiet", "--out"]).arg(out).args(shards).output().unwrap()
}

/// Plays `config`'s shards 1..=n of n into `dir/<n>-<k>`; returns their folders.
fn shards(config: &Path, dir: &Path, n: u32) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let out = dir.join(format!("{n}-{k}"));
            ok(run(config, &out, &["--shard", &format!("{k}/{n}")]));
            out
        })
        .collect()
}

fn assert_same_files(reference: &Path, other: &Path, what: &str) {
    for name in COMPARED {
        let (a, b) = (std::fs::read(reference.join(name)).ok(), std::fs::read(other.join(name)).ok());
        assert!(a == b, "{what}: {name} differs from the run on one machine");
    }
}

fn set_manifest(dir: &Path, key: &str, value: serde_json::Value) {
    let mut m = manifest(dir);
    m[key] = value;
    std::fs::write(dir.join("run.json"), serde_json::to_string_pretty(&m).unwrap()).unwrap();
}

#[test]
fn merged_shards_are_the_run_on_one_machine_in_every_game() {
    let dir = TempDir::new().unwrap();
    for (name, text) in CONFIGS {
        let config = write(dir.path(), &format!("{name}.toml"), text);
        let reference = dir.path().join(name);
        ok(run(&config, &reference, &[]));
        let games = manifest(&reference)["games_played"].as_u64().unwrap();
        for n in [1, 2, 3, 7] {
            let parts = shards(&config, &dir.path().join(format!("{name}-shards")), n);
            let played: u64 = parts.iter().map(|p| manifest(p)["games_played"].as_u64().unwrap()).sum();
            assert_eq!(played, games, "{name}: {n} shards play every game once");
            assert_eq!(manifest(&parts[n as usize - 1])["shard"], serde_json::json!({"index": n, "count": n}));
            // In any order.
            let mut given = parts.clone();
            given.reverse();
            let merged = dir.path().join(format!("{name}-merged-{n}"));
            ok(merge(&given, &merged));
            assert_same_files(&reference, &merged, &format!("{name}, {n} shards"));
            let m = manifest(&merged);
            assert_eq!((m["status"].as_str(), m["games_played"].as_u64()), (Some("complete"), Some(games)));
            assert!(m.get("shard").is_none(), "the merged run is the whole run");
        }
    }
}

#[test]
fn bad_sets_of_shards_are_refused_with_one_line() {
    let dir = TempDir::new().unwrap();
    let (_, text) = CONFIGS[2];
    let config = write(dir.path(), "rr.toml", text);
    let parts = shards(&config, dir.path(), 3);
    let out = dir.path().join("merged");
    let err = refused(merge(&parts[..2], &out));
    assert!(err.contains("shard 3 of 3 is missing"), "{err}");
    let err = refused(merge(&[parts[0].clone(), parts[1].clone(), parts[1].clone(), parts[2].clone()], &out));
    assert!(err.contains("shard 2/3 is given twice"), "{err}");
    let other = write(dir.path(), "other.toml", &text.replace("games = 40", "games = 42"));
    let foreign = shards(&other, &dir.path().join("other"), 3);
    let err = refused(merge(&[parts[0].clone(), parts[1].clone(), foreign[2].clone()], &out));
    assert!(err.contains("stale shard") && err.contains(&format!("{} (shard 3/3", foreign[2].display())), "{err}");
    let two = shards(&config, &dir.path().join("two"), 2);
    let err = refused(merge(&[parts[0].clone(), two[1].clone()], &out));
    assert!(err.contains("is shard 1/3 but") && err.contains("is shard 2/2"), "{err}");
    // Another build of the tool.
    let rebuilt = dir.path().join("rebuilt");
    ok(run(&config, &rebuilt, &["--shard", "3/3"]));
    set_manifest(&rebuilt, "commit", "0123456789abcdef0123456789abcdef01234567".into());
    let err = refused(merge(&[parts[0].clone(), parts[1].clone(), rebuilt], &out));
    assert!(err.contains("different builds"), "{err}");
    // An unfinished shard: killed (run.json `running`, games.csv cut).
    let games = std::fs::read(parts[1].join("games.csv")).unwrap();
    std::fs::write(parts[1].join("games.csv"), &games[..games.len() / 2]).unwrap();
    set_manifest(&parts[1], "status", "running".into());
    let err = refused(merge(&parts, &out));
    assert!(err.contains("shard 2/3 is unfinished (status running") && err.contains("arena resume"), "{err}");
    assert!(!out.exists(), "a refused merge writes nothing");
    // Resumed, it merges.
    ok(arena().args(["resume", "--quiet"]).arg(&parts[1]).output().unwrap());
    ok(merge(&parts, &out));
    let reference = dir.path().join("reference");
    ok(run(&config, &reference, &[]));
    assert_same_files(&reference, &out, "after resuming the shard");
    // A shard's share is checked game by game.
    std::fs::write(parts[2].join("games.csv"), std::fs::read(parts[0].join("games.csv")).unwrap()).unwrap();
    let err = refused(merge(&parts, &dir.path().join("again")));
    assert!(err.contains("is not this run's next game in shard 3/3"), "{err}");
}

/// A gomoku SPRT that stops after 3580 games (seed 1) of 6000.
const SPRT: &str = "game = \"gomoku\"\ngames = 6000\npaired = true\nbots = [\"random-adjacent\", \"random\"]\n[table]\nsize = 15\n[sprt]\nelo0 = 150\nelo1 = 155\n";

#[test]
fn an_sprt_over_shards_stops_where_one_machine_does() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "sprt.toml", SPRT);
    let reference = dir.path().join("reference");
    ok(run(&config, &reference, &[]));
    assert_eq!(manifest(&reference)["status"], "sprt-stopped");
    let stop = manifest(&reference)["games_played"].as_u64().unwrap();
    let parts = shards(&config, dir.path(), 3);
    for p in &parts {
        assert_eq!(manifest(p)["status"], "complete", "a shard does not stop on its share's SPRT");
    }
    let merged = dir.path().join("merged");
    ok(merge(&parts, &merged));
    assert_same_files(&reference, &merged, "SPRT over 3 shards");
    assert_eq!(manifest(&merged)["status"], "sprt-stopped");
    assert_eq!(manifest(&merged)["games_played"].as_u64(), Some(stop));

    // Shards stopped early merge as soon as the games they all hold reach the stop: each holds
    // every third deal, so each needs about a third of the games before it.
    let cut = |part: &Path, games: u64| {
        let text = std::fs::read_to_string(part.join("games.csv")).unwrap();
        let rows: Vec<&str> = text.split_inclusive('\n').collect();
        std::fs::write(part.join("games.csv"), rows[..1 + 2 * games as usize].concat()).unwrap();
        set_manifest(part, "status", "interrupted".into());
    };
    let short = stop / 3 - 200;
    for p in &parts {
        cut(p, short);
    }
    let err = refused(merge(&parts, &dir.path().join("too-early")));
    assert!(err.contains("unfinished") && err.contains("the SPRT has not decided"), "{err}");
    let enough = stop / 3 + 10;
    let parts = shards(&config, &dir.path().join("again"), 3);
    for p in &parts {
        cut(p, enough);
    }
    let early = dir.path().join("early");
    ok(merge(&parts, &early));
    assert_same_files(&reference, &early, "SPRT over 3 shards stopped early");
}

#[test]
fn a_shard_killed_and_resumed_merges_to_the_same_files() {
    let dir = TempDir::new().unwrap();
    let (_, text) = CONFIGS[0];
    let config = write(dir.path(), "two.toml", &text.replace("games = 60", "games = 3000"));
    let reference = dir.path().join("reference");
    ok(run(&config, &reference, &[]));
    let parts = shards(&config, dir.path(), 2);
    // What kill -9 leaves in shard 2: a row cut short, run.json `running`.
    let games = std::fs::read(parts[1].join("games.csv")).unwrap();
    std::fs::write(parts[1].join("games.csv"), &games[..games.len() / 3]).unwrap();
    set_manifest(&parts[1], "status", "running".into());
    let stats = ok(arena().args(["stats", "--run"]).arg(&parts[1]).output().unwrap());
    let first = String::from_utf8_lossy(&stats.stdout).lines().next().unwrap().to_string();
    assert!(first.starts_with("run: shard 2/2") && first.contains("partial (status running"), "{first}");
    ok(arena().args(["resume", "--quiet", "--threads", "1"]).arg(&parts[1]).output().unwrap());
    assert_eq!(manifest(&parts[1])["status"], "complete");
    let merged = dir.path().join("merged");
    ok(merge(&parts, &merged));
    assert_same_files(&reference, &merged, "shard killed and resumed");
}

#[test]
fn the_shard_index_comes_from_a_slurm_array_or_a_kubernetes_indexed_job() {
    let dir = TempDir::new().unwrap();
    let (_, text) = CONFIGS[2];
    let config = write(dir.path(), "rr.toml", text);
    let explicit = shards(&config, dir.path(), 3);
    let slurm = dir.path().join("slurm");
    let output = arena()
        .args(["run", "--quiet", "--shard", "auto", "--out"])
        .arg(&slurm)
        .arg(&config)
        .envs([("SLURM_ARRAY_TASK_ID", "11"), ("SLURM_ARRAY_TASK_MIN", "10"), ("SLURM_ARRAY_TASK_COUNT", "3")])
        .output()
        .unwrap();
    ok(output);
    let k8s = dir.path().join("k8s");
    let output = arena()
        .args(["run", "--quiet", "--shard", "auto/3", "--out"])
        .arg(&k8s)
        .arg(&config)
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    ok(output);
    for from_env in [&slurm, &k8s] {
        assert_eq!(manifest(from_env)["shard"], serde_json::json!({"index": 2, "count": 3}));
        assert_eq!(
            std::fs::read(from_env.join("games.csv")).unwrap(),
            std::fs::read(explicit[1].join("games.csv")).unwrap()
        );
    }
    let err = refused(run(&config, &dir.path().join("none"), &["--shard", "auto"]));
    assert!(err.contains("SLURM_ARRAY_TASK_ID") && err.contains("JOB_COMPLETION_INDEX"), "{err}");
    let err = refused(run(&config, &dir.path().join("bad"), &["--shard", "4/3"]));
    assert!(err.contains("1 <= K <= N"), "{err}");
}

#[test]
fn resume_games_extends_a_run_to_the_run_of_that_many_games() {
    let dir = TempDir::new().unwrap();
    for (name, text, from, to) in
        [("two", CONFIGS[0].1, 30, 60), ("round-robin", CONFIGS[2].1, 16, 40), ("sprt", SPRT, 2000, 6000)]
    {
        let config = write(dir.path(), &format!("{name}.toml"), text);
        let reference = dir.path().join(format!("{name}-reference"));
        ok(run(&config, &reference, &[]));
        let out = dir.path().join(name);
        ok(run(&config, &out, &["--games", &from.to_string()]));
        assert_eq!(manifest(&out)["status"], "complete");
        ok(arena().args(["resume", "--quiet", "--games", &to.to_string()]).arg(&out).output().unwrap());
        assert_same_files(&reference, &out, &format!("{name} extended from {from} to {to} games"));
        assert_eq!(manifest(&out)["status"], manifest(&reference)["status"]);
        assert_eq!(manifest(&out)["games_planned"], manifest(&reference)["games_planned"]);
        let err = refused(arena().args(["resume", "--games", &(from / 2).to_string()]).arg(&out).output().unwrap());
        assert!(err.contains("a run can only be extended"), "{err}");
    }
    // A round robin killed while it is being extended resumes from the games it had.
    let config = dir.path().join("round-robin.toml");
    let out = dir.path().join("rr-killed");
    ok(run(&config, &out, &["--games", "16"]));
    let before = std::fs::read(out.join("games.csv")).unwrap();
    ok(arena().args(["resume", "--quiet", "--games", "40"]).arg(&out).output().unwrap());
    // As a kill mid-extension leaves it: the new config and manifest, the old games.csv, a
    // half-written new one beside it.
    std::fs::write(out.join("games.csv"), &before).unwrap();
    std::fs::write(out.join("games.csv.tmp"), &before[..before.len() / 2]).unwrap();
    set_manifest(&out, "status", "running".into());
    ok(arena().args(["resume", "--quiet"]).arg(&out).output().unwrap());
    assert_same_files(&dir.path().join("round-robin-reference"), &out, "extension killed, then resumed");
    assert!(!out.join("games.csv.tmp").exists());
    // A shard is not extended (its share of a longer run is other games).
    let part = shards(&config, &dir.path().join("shards"), 2);
    let err = refused(arena().args(["resume", "--games", "80"]).arg(&part[0]).output().unwrap());
    assert!(err.contains("cannot be extended"), "{err}");
}
