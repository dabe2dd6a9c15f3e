//! `--records moves`: every game of every game kind keeps its move-by-move record
//! (records.jsonl), byte-identical on any number of threads, after a kill and resume and after a
//! merge of shards; `arena replay --check` plays the records back through the rules and catches a
//! record edited by hand, naming the game (and the event where the rules can tell).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, gunzipped, project, write};
use tempfile::TempDir;

/// One small run of each game: paired, three or more bots where the table allows.
const GAMES: &[(&str, &str)] = &[
    ("holdem", "game = \"holdem\"\ngames = 60\npaired = true\nseats = 3\nbots = [\"rr\", \"always-call\", \"random\"]\n"),
    ("stud", "game = \"stud\"\ngames = 60\npaired = true\nseats = 3\nbots = [\"expert\", \"always-call\", \"random\"]\n"),
    (
        "zhajinhua",
        "game = \"zhajinhua\"\ngames = 60\npaired = true\nseats = 3\nbots = [\"ev\", \"threshold\", \"random\"]\n",
    ),
    ("mahjong", "game = \"mahjong\"\ngames = 16\npaired = true\nseats = 4\nbots = [\"greedy\", \"random\"]\n"),
    (
        "gomoku",
        "game = \"gomoku\"\ngames = 40\npaired = true\nbots = [\"weights\", \"random-adjacent\", \"random\"]\n[table]\nsize = 15\n",
    ),
];

fn run(config: &Path, out: &Path, extra: &[&str]) -> Duration {
    let start = Instant::now();
    let output = arena().args(["run", "--quiet", "--out"]).arg(out).arg(config).args(extra).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    start.elapsed()
}

/// `arena replay DIR --check`: its exit code and its one line.
fn check(dir: &Path) -> (Option<i32>, String) {
    let out = arena().args(["replay", "--check"]).arg(dir).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text.trim_end().to_string())
}

fn records(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("records.jsonl")).unwrap()
}

fn lines(dir: &Path) -> Vec<serde_json::Value> {
    String::from_utf8(records(dir)).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn every_game_keeps_its_moves_the_same_on_one_and_two_threads_and_they_play_back() {
    let dir = TempDir::new().unwrap();
    for (game, text) in GAMES {
        let config = write(dir.path(), &format!("{game}.toml"), text);
        let (one, two) = (dir.path().join(format!("{game}-1")), dir.path().join(format!("{game}-2")));
        run(&config, &one, &["--records", "moves", "--threads", "1"]);
        run(&config, &two, &["--records", "moves", "--threads", "2"]);
        assert_eq!(records(&one), records(&two), "{game}: records.jsonl differs between 1 and 2 threads");
        let games = std::fs::read_to_string(one.join("games.csv")).unwrap();
        let lines = lines(&one);
        let seats = lines[0]["seats"].as_array().unwrap().len();
        assert_eq!(lines.len(), (games.lines().count() - 1) / seats, "{game}: one record a game");
        for line in &lines {
            assert_eq!(line["v"], 1, "{game}");
            assert!(line["deal"].is_object(), "{game}: the deal is written: {line}");
            let actions = line["events"].as_array().unwrap().iter().filter(|e| e.is_array()).count();
            assert!(actions > 0, "{game}: a game has actions: {line}");
        }
        let (code, said) = check(&one);
        assert_eq!(code, Some(0), "{game}: {said}");
        assert!(said.contains("every record matches games.csv"), "{game}: {said}");
    }
}

/// records.jsonl is written by hand, not by serde (issue 47), and must not change for it: each
/// game's small run writes, byte for byte, the records the serde writer wrote
/// (tests/data/records/, made by the arena before the change), and they play back.
#[test]
fn records_are_byte_for_byte_those_written_before_the_hand_written_writer() {
    let dir = TempDir::new().unwrap();
    for game in ["holdem", "holdem-sng", "stud", "zhajinhua", "mahjong", "gomoku"] {
        let config = project(&format!("tests/data/records/{game}.toml"));
        let out = dir.path().join(game);
        run(&config, &out, &["--records", "moves", "--threads", "1"]);
        let want = std::fs::read(project(&format!("tests/data/records/{game}.jsonl"))).unwrap();
        let got = records(&out);
        assert!(!want.is_empty());
        if got != want {
            let (got, want) = (String::from_utf8_lossy(&got), String::from_utf8_lossy(&want));
            let (k, (g, w)) =
                got.lines().zip(want.lines()).enumerate().find(|(_, (g, w))| g != w).unwrap_or_else(|| {
                    panic!("{game}: {} lines written, {} before", got.lines().count(), want.lines().count())
                });
            panic!("{game}: line {} differs:\n now:    {g}\n before: {w}", k + 1);
        }
        let (code, said) = check(&out);
        assert_eq!(code, Some(0), "{game}: {said}");
    }
}

/// The record of line `k` of `dir`'s records.jsonl rewritten by `edit`.
fn edit_line(dir: &Path, k: usize, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut all = lines(dir);
    edit(&mut all[k]);
    let text: String = all.iter().map(|l| format!("{}\n", serde_json::to_string(l).unwrap())).collect();
    std::fs::write(dir.join("records.jsonl"), text).unwrap();
}

fn copy_run(from: &Path, to: &Path) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
    to.to_path_buf()
}

#[test]
fn a_record_edited_by_hand_fails_the_check_with_its_game_named() {
    let dir = TempDir::new().unwrap();
    let (_, text) = GAMES.iter().find(|(g, _)| *g == "holdem").unwrap();
    let config = write(dir.path(), "holdem.toml", text);
    let run_dir = dir.path().join("run");
    run(&config, &run_dir, &["--records", "moves"]);
    assert_eq!(check(&run_dir).0, Some(0));
    let place = |k: usize| {
        let line = &lines(&run_dir)[k];
        format!("line {}, pairing {} game {}", k + 1, line["pairing"], line["game"])
    };
    let first_action = |line: &serde_json::Value| line["events"].as_array().unwrap().iter().position(|e| e.is_array());

    // An action no rule allows: the event is named.
    let illegal = copy_run(&run_dir, &dir.path().join("illegal"));
    let at = first_action(&lines(&illegal)[7]).unwrap();
    edit_line(&illegal, 7, |line| line["events"][at][1] = "raise 1".into());
    let (code, said) = check(&illegal);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains(&place(7)) && said.contains(&format!("event {}", at + 1)), "{said}");
    assert!(said.contains("\"raise 1\" is illegal"), "{said}");

    // An action by a seat whose turn it is not.
    let turn = copy_run(&run_dir, &dir.path().join("turn"));
    edit_line(&turn, 3, |line| {
        let seat = line["events"][at][0].as_u64().unwrap();
        line["events"][at][0] = ((seat + 1) % 3).into();
    });
    let (code, said) = check(&turn);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&place(3)) && said.contains(&format!("event {}", at + 1)) && said.contains("is to act"),
        "{said}"
    );

    // A board card changed: the chance event is not the one the rules reveal.
    let chance = copy_run(&run_dir, &dir.path().join("chance"));
    let (k, c) = lines(&chance)
        .iter()
        .enumerate()
        .find_map(|(k, l)| {
            l["events"]
                .as_array()
                .unwrap()
                .iter()
                .position(|e| e.as_str().is_some_and(|t| t.starts_with("flop")))
                .map(|c| (k, c))
        })
        .expect("some hand sees a flop");
    edit_line(&chance, k, |line| line["events"][c] = "flop 2c 2d 2h".into());
    let (code, said) = check(&chance);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains(&place(k)) && said.contains(&format!("event {}", c + 1)), "{said}");

    // A hole card changed in the deal: the deal is not the one the seed deals.
    let deal = copy_run(&run_dir, &dir.path().join("deal"));
    edit_line(&deal, 5, |line| line["deal"]["hole"][0][0] = "Xx".into());
    let (code, said) = check(&deal);
    assert_eq!((code, said.contains(&place(5)) && said.contains("the deal is")), (Some(1), true), "{said}");

    // A result changed: games.csv and the events say otherwise.
    let payoff = copy_run(&run_dir, &dir.path().join("payoff"));
    edit_line(&payoff, 9, |line| line["payoffs"][0] = 12345.into());
    let (code, said) = check(&payoff);
    assert_eq!((code, said.contains(&place(9)) && said.contains("payoffs")), (Some(1), true), "{said}");

    // A line dropped: the files no longer agree.
    let dropped = copy_run(&run_dir, &dir.path().join("dropped"));
    let text = String::from_utf8(records(&dropped)).unwrap();
    let kept: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(dropped.join("records.jsonl"), kept).unwrap();
    let (code, said) = check(&dropped);
    assert_eq!(code, Some(1), "{said}");
}

/// A gomoku run of a few tenths of a second with its moves kept.
const PLAIN: &str =
    "game = \"gomoku\"\ngames = 1500\npaired = true\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 15\n";

#[test]
fn moves_survive_a_kill_and_resume_and_a_merge_of_shards() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "run.toml", PLAIN);
    for records in ["moves", "moves-gz"] {
        let reference = dir.path().join(format!("reference-{records}"));
        let length = run(&config, &reference, &["--records", records, "--threads", "2"]);
        let file = if records == "moves" { "records.jsonl" } else { "records.jsonl.gz" };
        let expected = std::fs::read(reference.join(file)).unwrap();
        let (moments, mut kept) = (6, 0);
        for k in 1..=moments {
            let out = dir.path().join(format!("cut-{records}-{k}"));
            let mut child = arena()
                .args(["run", "--quiet", "--threads", "2", "--records", records, "--out"])
                .arg(&out)
                .arg(&config)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(length.mul_f64(f64::from(k) / f64::from(moments + 1)));
            assert!(Command::new("kill").args(["-KILL", &child.id().to_string()]).status().unwrap().success());
            child.wait().unwrap();
            if !out.join("run.json").exists() {
                continue;
            }
            let resumed = arena().args(["resume", "--quiet", "--threads", "1"]).arg(&out).output().unwrap();
            assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
            let same = gunzipped(&out.join(file)) == gunzipped(&reference.join(file));
            assert!(same, "{records}: killed at moment {k}, the records differ from the run never interrupted");
            assert_eq!(check(&out).0, Some(0), "{records}: moment {k}");
            kept += 1;
        }
        assert!(kept >= moments / 2, "most kills should land once the run has started: {kept} of {moments}");
        let mut shards = Vec::new();
        for k in 1..=3 {
            let shard = dir.path().join(format!("shard-{records}-{k}"));
            run(&config, &shard, &["--shard", &format!("{k}/3"), "--records", records]);
            shards.push(shard);
        }
        let merged = dir.path().join(format!("merged-{records}"));
        let out = arena()
            .args(["merge", "--quiet", "--records", records, "--out"])
            .arg(&merged)
            .args(&shards)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read(merged.join(file)).unwrap(), expected, "{records}: merged");
        assert_eq!(check(&merged).0, Some(0));
    }
    // Shards that kept no moves cannot give a merged run moves.
    let bare = dir.path().join("bare");
    run(&config, &bare, &["--shard", "1/1"]);
    let out = arena()
        .args(["merge", "--quiet", "--records", "moves", "--out"])
        .arg(dir.path().join("m"))
        .arg(&bare)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.trim_end().lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("kept no move records"), "{stderr}");
}

#[test]
fn replay_shows_a_game_step_by_step_and_as_one_seat_saw_it() {
    let dir = TempDir::new().unwrap();
    let (_, text) = GAMES.iter().find(|(g, _)| *g == "holdem").unwrap();
    let config = write(dir.path(), "holdem.toml", text);
    let run_dir = dir.path().join("run");
    run(&config, &run_dir, &["--records", "moves"]);
    let line = &lines(&run_dir)[2];
    let show = |extra: &[&str]| {
        let out = arena().args(["replay", "--game", "2"]).arg(&run_dir).args(extra).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let open = show(&[]);
    // Every action in order, and every seat's hole cards (each seat's view at its turn).
    for (i, event) in line["events"].as_array().unwrap().iter().enumerate() {
        let said = match event {
            serde_json::Value::Array(a) => format!("{:>4}. seat {} (", i + 1, a[0]),
            other => format!("{:>4}. {}", i + 1, other.as_str().unwrap()),
        };
        assert!(open.contains(&said), "{said} missing from\n{open}");
    }
    // A seat's two cards, as its row of the table drawn for it shows them (`Qh Kd`): the other
    // seats' rows show `?? ??`, and the board never holds a seat's cards.
    let hole = |seat: usize| {
        let cards = line["deal"]["hole"][seat].as_array().unwrap();
        format!("{} {}", cards[0].as_str().unwrap(), cards[1].as_str().unwrap())
    };
    let acted: Vec<usize> =
        line["events"].as_array().unwrap().iter().filter_map(|e| e.get(0)?.as_u64()).map(|s| s as usize).collect();
    for &seat in &acted {
        assert!(open.contains(&hole(seat)), "seat {seat}'s {} missing", hole(seat));
    }
    // As seat 0 saw it: its own cards, nobody else's, and no chance lines of their own.
    let seat0 = show(&["--seat", "0"]);
    assert!(seat0.contains(&hole(0)), "{seat0}");
    for seat in 1..3 {
        assert!(!seat0.contains(&hole(seat)), "seat 0 saw seat {seat}'s cards:\n{seat0}");
    }
    let bad = arena().args(["replay", "--game", "99999"]).arg(&run_dir).output().unwrap();
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!((bad.status.code(), stderr.trim_end().lines().count()), (Some(2), 1), "{stderr}");
    // A run that kept no moves says how to keep them.
    let bare = dir.path().join("bare");
    run(&config, &bare, &[]);
    let out = arena().args(["replay", "--check"]).arg(&bare).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--records moves"), "{stderr}");
}

/// A move changed for another legal one that leaves the winner as it was: the rules cannot tell,
/// but the run's bots, asked to play the game again, name the event; `--bots` asks them for every
/// game and passes on the run as played.
#[test]
fn a_legal_move_changed_by_hand_is_named_by_the_bots_playing_again() {
    let dir = TempDir::new().unwrap();
    let (_, text) = GAMES.iter().find(|(g, _)| *g == "gomoku").unwrap();
    let config = write(dir.path(), "gomoku.toml", text);
    let run_dir = dir.path().join("run");
    run(&config, &run_dir, &["--records", "moves"]);
    let out = arena().args(["replay", "--check", "--bots"]).arg(&run_dir).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("the run's bots play every game as recorded"), "{said}");
    // The loser's second move goes to a cell nobody played: the winner's five stands as it was.
    let edited = copy_run(&run_dir, &dir.path().join("edited"));
    let all = lines(&edited);
    let k = all.iter().position(|l| l["status"] == "ok" && l["events"].as_array().unwrap().len() > 8).unwrap();
    let loser = all[k]["places"].as_array().unwrap().iter().position(|p| p == 2).unwrap() as u64;
    let events = all[k]["events"].as_array().unwrap();
    let at = events.iter().enumerate().filter(|(_, e)| e[0] == loser).nth(1).unwrap().0;
    let used: Vec<&str> = events.iter().map(|e| e[1].as_str().unwrap()).collect();
    let free = ["0,0", "14,0", "0,14", "14,14", "0,7"].into_iter().find(|c| !used.contains(c)).unwrap();
    edit_line(&edited, k, |line| line["events"][at][1] = free.into());
    for extra in [&[][..], &["--bots"]] {
        let (code, said) = {
            let out = arena().args(["replay", "--check"]).args(extra).arg(&edited).output().unwrap();
            (out.status.code(), String::from_utf8_lossy(&out.stdout).trim_end().to_string())
        };
        assert_eq!(code, Some(1), "{extra:?}: {said}");
        let named = format!("event {}: seat {loser} played \"{free}\" in the record but \"{}\"", at + 1, used[at]);
        assert!(said.contains(&named), "{extra:?}: {said}\nexpected {named}");
    }
}
