//! `arena play`: a person's game at the terminal, driven here by a scripted stdin. Every game is
//! finished from the script; bad lines are refused with a reason and the game goes on; the record
//! is kept like a run's; the end of the input forfeits.

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use crate::common::{arena, write};
use tempfile::TempDir;

/// Runs `arena ARGS` in `dir` with `script` on stdin.
fn arena_with_input(dir: &Path, args: &[&str], script: &str) -> Output {
    let mut child = arena()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The game may end before the whole script is read: a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(script.as_bytes());
    child.wait_with_output().unwrap()
}

/// Runs `arena play ARGS` in `dir` with `script` on stdin.
fn play(dir: &Path, args: &[&str], script: &str) -> Output {
    arena_with_input(dir, &[&["play"], args].concat(), script)
}

/// games.csv's rows as (bot, status) per seat.
fn seats(run: &Path) -> Vec<(String, String)> {
    let mut reader = csv::Reader::from_path(run.join("games.csv")).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (bot, status) = (column("bot"), column("status"));
    reader.records().map(|r| r.unwrap()).map(|r| (r[bot].to_string(), r[status].to_string())).collect()
}

/// Two bad lines (not an action, a number off the list), then always the first legal action.
fn script() -> String {
    format!("nonsense\n0\n{}", "1\n".repeat(5000))
}

#[test]
fn a_person_finishes_a_game_of_every_game_from_a_script_and_bad_lines_are_asked_again() {
    // (game, bots and table, seats, the person's seat)
    let cases: [(&str, &[&str], usize, usize); 5] = [
        ("holdem", &["--bot", "rr"], 2, 0),
        ("stud", &["--bot", "expert", "--seat", "1"], 2, 1),
        ("zhajinhua", &["--bot", "ev", "--seats", "3"], 3, 0),
        ("gomoku", &["--bot", "weights", "--seat", "1"], 2, 1),
        ("mahjong", &["--bot", "greedy", "--bot", "pruned"], 4, 0),
    ];
    for (game, bots, table, me) in cases {
        let dir = TempDir::new().unwrap();
        let mut args = vec![game, "--seed", "11", "--out", "run"];
        args.extend_from_slice(bots);
        let out = play(dir.path(), &args, &script());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{game}: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("is not a"), "{game}: the nonsense line was not refused:\n{stdout}");
        assert!(stdout.contains("no action 0: the list runs from 1 to"), "{game}:\n{stdout}");
        assert!(stdout.contains("=== game over ==="), "{game}:\n{stdout}");
        let rows = seats(&dir.path().join("run"));
        assert_eq!(rows.len(), table, "{game}: one row per seat");
        assert_eq!(rows[me], ("you".to_string(), "ok".to_string()), "{game}: {rows:?}");
        assert!(rows.iter().enumerate().all(|(seat, (bot, _))| (seat == me) == (bot == "you")), "{game}: {rows:?}");
    }
}

#[test]
fn an_illegal_action_is_refused_with_the_rules_reason_and_the_game_goes_on() {
    let dir = TempDir::new().unwrap();
    // Black takes 7,7, then tries it again and a cell off the board.
    let script = format!("7,7\n7,7\n20,3\n{}", "1\n".repeat(300));
    let out = play(dir.path(), &["gomoku", "--bot", "weights", "--seed", "3", "--out", "run"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("not now: 7,7 is taken"), "{stdout}");
    assert!(stdout.contains("not now: 20,3 is off the 15x15 board"), "{stdout}");
    let moves = std::fs::read_to_string(dir.path().join("run/games.csv")).unwrap();
    assert!(moves.contains("7,7 "), "the first move is on record: {moves}");
}

#[test]
fn a_raise_between_the_listed_ends_is_played_and_the_hand_history_is_kept() {
    let dir = TempDir::new().unwrap();
    // Seat 0 is the small blind heads-up: it may raise to any total from 200 up.
    let script = format!("raise 150\nraise 345\n{}", "1\n".repeat(300));
    let out = play(dir.path(), &["holdem", "--bot", "random", "--seed", "5", "--out", "run"], &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("not now: raise to 150 is outside 200..="), "{stdout}");
    let history: Vec<_> =
        std::fs::read_dir(dir.path().join("run/history")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(history.len(), 1, "one PHH file for the one hand");
    let phh = std::fs::read_to_string(&history[0]).unwrap();
    assert!(phh.contains(" cbr 345'"), "the raise is on record: {phh}");
}

#[test]
fn the_end_of_the_input_forfeits_the_game_and_the_record_says_so() {
    let dir = TempDir::new().unwrap();
    let out = play(dir.path(), &["zhajinhua", "--bot", "ev", "--seed", "4", "--out", "run"], "");
    assert!(out.status.success());
    let rows = seats(&dir.path().join("run"));
    assert_eq!(rows[0], ("you".to_string(), "forfeit: the player left (end of input)".to_string()));
}

#[test]
fn a_config_seats_a_person_too() {
    let dir = TempDir::new().unwrap();
    let config = "game = \"stud\"\ngames = 2\nbots = [{ name = \"me\", kind = \"human\" }, \"always-call\"]\n";
    write(dir.path(), "me.toml", config);
    let out = arena_with_input(dir.path(), &["run", "me.toml", "--threads", "1", "--out", "run"], &"1\n".repeat(200));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = seats(&dir.path().join("run"));
    assert_eq!(rows.len(), 4, "two games of two seats: {rows:?}");
    assert!(rows.iter().filter(|(bot, _)| bot == "me").all(|(_, status)| status == "ok"), "{rows:?}");
}

#[test]
fn bad_command_lines_get_one_line_and_exit_2() {
    let dir = TempDir::new().unwrap();
    for args in [
        &["gomoku", "--bot", "nosuch"][..],
        &["gomoku", "--bot", "weights", "--seat", "2"],
        &["mahjong", "--bot", "greedy", "--seats", "3"],
        &["chess", "--bot", "x"],
        &["gomoku"],
    ] {
        let out = play(dir.path(), args, "");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}
