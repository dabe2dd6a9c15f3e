//! Gomoku games in the field's own files, read back by readers that are not the arena's writers:
//! `--hand-history` and `arena replay --export psq` read by tests/tools/psq_read.py (a reader
//! written from Piskvork's own `openPsq`), and `arena replay --export sgf` read by sgfmill. Each
//! must give back records.jsonl's moves, in order, opening included, with the seats' names.
//! The tests skip with a message where python3 (or sgfmill) is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::{arena, write};

/// Paired games between two quick bots from four-stone openings on 15x15 (a win, most of them,
/// in a few dozen moves), and a 6x6 board where some games fill up and are drawn.
const CONFIGS: [(&str, &str); 2] = [
    ("open", "game = \"gomoku\"\ngames = 6\nseed = 3\npaired = true\nbots = [\"weights\", \"random-adjacent\"]\n[table]\nsize = 15\nrule = \"freestyle\"\nopening = 4\n"),
    ("small", "game = \"gomoku\"\ngames = 8\nseed = 5\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 6\nrule = \"standard\"\n"),
];

fn tool(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools").join(name)
}

fn python_has(module: &str) -> bool {
    Command::new("python3").args(["-c", &format!("import {module}")]).output().is_ok_and(|o| o.status.success())
}

/// A run of `config` keeping its moves and its .psq hand histories.
fn run(dir: &Path, name: &str, config: &str) -> PathBuf {
    let config = write(dir, &format!("{name}.toml"), config);
    let out = dir.join(name);
    let output = arena()
        .args(["run", "--quiet", "--records", "moves", "--hand-history", "--out"])
        .arg(&out)
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    out
}

fn export(run: &Path, format: &str) {
    let output = arena().args(["replay"]).arg(run).args(["--export", format]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains(&format!("written as {format} into")), "{said}");
}

/// records.jsonl's games by (pairing, game): seats, every stone ("x,y", the opening's first) and
/// the winning seat.
struct Game {
    seats: Vec<String>,
    stones: Vec<String>,
    winner: Option<u64>,
}

fn records(run: &Path) -> BTreeMap<(u64, u64), Game> {
    let text = std::fs::read_to_string(run.join("records.jsonl")).unwrap();
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["status"], "ok", "{line}");
            let mut stones: Vec<String> =
                v["deal"]["opening"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
            for event in v["events"].as_array().unwrap() {
                // Seats alternate from black, so the stone's colour is its place in the list.
                assert_eq!(event[0].as_u64().unwrap() as usize, stones.len() % 2, "{line}");
                stones.push(event[1].as_str().unwrap().to_string());
            }
            let seats = v["seats"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
            let key = (v["pairing"].as_u64().unwrap(), v["game"].as_u64().unwrap());
            (key, Game { seats, stones, winner: v["end"]["winner"].as_u64() })
        })
        .collect()
}

fn python(script: &str, dir: &Path) -> Value {
    let output = Command::new("python3").arg(tool(script)).arg(dir).output().unwrap();
    assert!(output.status.success(), "{script}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

#[test]
fn psq_files_read_back_to_the_records_moves() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed (tests/tools/psq_read.py reads the .psq files)");
        return;
    }
    let dir = TempDir::new().unwrap();
    for (name, config) in CONFIGS {
        let out = run(dir.path(), name, config);
        export(&out, "psq");
        let games = records(&out);
        let history = python("psq_read.py", &out.join("history"));
        let exported = python("psq_read.py", &out.join("psq"));
        assert_eq!(history.as_object().unwrap().len(), games.len(), "{name}: one .psq a game in history/");
        for (&(pairing, game), want) in &games {
            let file = format!("{pairing}-{game}.psq");
            for (from, read) in [("history", &history[&file]), ("export", &exported[&file])] {
                assert_eq!(strings(&read["moves"]), want.stones, "{name} {from} {file}");
                assert_eq!(strings(&read["names"]), want.seats, "{name} {from} {file}");
                assert_eq!(read["code"], 0, "{name} {from} {file}: a game the rules ended");
                assert_eq!(read["size"], if name == "open" { 15 } else { 6 });
            }
            // No clock in either: the live file and the export are the same bytes.
            assert!(exported[&file]["times"].as_array().unwrap().iter().all(|t| t == 0));
            let live = std::fs::read(out.join("history").join(&file)).unwrap();
            assert_eq!(live, std::fs::read(out.join("psq").join(&file)).unwrap(), "{name} {file}");
        }
    }
}

#[test]
fn sgf_collections_read_by_sgfmill_give_the_records_moves() {
    if !python_has("sgfmill") {
        eprintln!("skipped: sgfmill is not importable (pip install sgfmill)");
        return;
    }
    let dir = TempDir::new().unwrap();
    for (name, config) in CONFIGS {
        let out = run(dir.path(), name, config);
        export(&out, "sgf");
        let games = records(&out);
        let read = python("sgf_read.py", &out.join("sgf"));
        // One collection a pairing, its games in game order.
        let files = read.as_object().unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["pairing-0.sgf"], "{name}");
        let collection = files["pairing-0.sgf"].as_array().unwrap();
        assert_eq!(collection.len(), games.len(), "{name}");
        let mut draws = 0;
        for (tree, (key, want)) in collection.iter().zip(&games) {
            assert_eq!(tree["gm"], 4, "{name} {key:?}: GM[4] is gomoku");
            assert_eq!(strings(&tree["moves"]), want.stones, "{name} {key:?}");
            assert_eq!([&tree["pb"], &tree["pw"]], [&want.seats[0], &want.seats[1]], "{name} {key:?}");
            let result = match want.winner {
                Some(0) => "B+",
                Some(_) => "W+",
                None => {
                    draws += 1;
                    "0"
                }
            };
            assert_eq!(tree["re"], result, "{name} {key:?}");
        }
        assert!(name != "small" || draws > 0, "the 6x6 run is meant to hold a draw");
    }
}

#[test]
fn export_names_the_formats_a_game_has() {
    let dir = TempDir::new().unwrap();
    let out = run(dir.path(), "open", CONFIGS[0].1);
    let output = arena().args(["replay"]).arg(&out).args(["--export", "pgn"]).output().unwrap();
    assert_ne!(output.status.code(), Some(0));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("gomoku has no record format `pgn` (it has psq, sgf)"), "{said}");
}
