//! Botzone's Chinese-Standard-Mahjong both ways, through the `arena` binary:
//! - the `botzone` bot kind: the reference Botzone bot (bots/examples/botzone_mahjong.py, written
//!   from Botzone's description of the game and of a bot's input and output) plays in all four of
//!   Botzone's ways (JSON or simple interaction, a process a turn or kept running), the same games
//!   in each, and the same bytes on one and two threads; a bot that answers a malformed response,
//!   answers for the wrong turn, stops answering while kept running, claims a false win or
//!   crashes loses its game with the reason, is scored as Botzone's judge scores it (−30, +10 to
//!   each other player), the run goes on, and no process is left;
//! - `arena brain mahjong --botzone`: our `pruned` as a Botzone bot, in the four ways, through the
//!   kind.
//!
//! The reference bot is Python: the tests skip with a message where python3 is absent.

#![cfg(target_os = "linux")]

use std::time::Duration;

use crate::common::{arena, mark, python, python_bot, run_in, statuses, survivors, write};
use tempfile::TempDir;

/// A `botzone` bot named `name` running `command`, with more parameters.
fn bot(name: &str, command: &[&str], params: &str) -> String {
    let command: Vec<String> = command.iter().map(|a| format!("{a:?}")).collect();
    format!("{{ name = \"{name}\", kind = \"botzone\", params = {{ command = [{}]{params} }} }}", command.join(", "))
}

/// The reference bot with `args`, in interaction `io`, kept running or not.
fn reference(io: &str, keep: bool, args: &[&str], params: &str) -> String {
    let mut command = python_bot("bots/examples/botzone_mahjong.py");
    command.extend(["--io", io].map(String::from));
    if keep {
        command.push("--keep".to_string());
    }
    command.extend(args.iter().map(|a| a.to_string()));
    let command: Vec<&str> = command.iter().map(String::as_str).collect();
    bot("ref", &command, &format!(", io = \"{io}\", keep_running = {keep}{params}"))
}

fn config(games: usize, first: &str) -> String {
    format!(
        "game = \"mahjong\"\ngames = {games}\nseed = 5\npaired = true\nseats = 4\nbots = [{first}, \"pruned\", \"greedy\", \"greedy\"]\n[table]\npreset = \"botzone\"\n"
    )
}

/// games.csv without the bot's name (the same games whoever plays them).
fn plays(games: &str) -> Vec<String> {
    games.lines().map(|l| l.split(',').enumerate().filter(|(i, _)| *i != 4).map(|(_, c)| c).collect()).collect()
}

#[test]
fn the_reference_bot_plays_the_same_games_in_all_four_ways_and_on_one_and_two_threads() {
    // A process a turn costs a Python bot a start every turn (some 150 a game, most of the
    // suite's time at four games a way): one game that way here, the whole deal in the ignored
    // test below, which CI runs.
    four_ways(1);
}

/// The same at full strength: the restarted ways play a whole deal too (one wall in its four
/// rotations, the bot in every seat), some 600 starts of Python a way.
/// `cargo test --release --test suite botzone_kind:: -- --ignored` (.ci/run runs it)
#[test]
#[ignore]
fn the_reference_bot_restarted_every_turn_plays_a_whole_deal_as_kept_running() {
    four_ways(4);
}

/// The reference bot in the four ways, `games` games each (a whole deal paired, in its four
/// rotations, from four games; one game alone unpaired): the same games whichever way. Then kept
/// running, forty paired games in both interactions, on two threads and on one: the same games.
fn four_ways(games: usize) {
    if !python("the reference Botzone bot") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), &format!("ways-{games}"));
    let mut seen: Option<(String, String)> = None;
    let ways = [("json", false, games), ("simple", false, games), ("json", true, games), ("simple", true, games)];
    let kept = [("json", true, 40), ("simple", true, 40)];
    for (io, keep, games) in ways.into_iter().chain(kept) {
        let out = format!("{io}-{keep}-{games}");
        let setup = config(games, &reference(io, keep, &[], ""));
        let setup = if games % 4 == 0 { setup } else { setup.replace("paired = true", "paired = false") };
        let (csv, stdout) = run_in(dir.path(), &mark, &setup, &out, 2);
        let rows = statuses(&csv, "ref");
        assert_eq!(rows.len(), games, "{out}");
        assert!(rows.iter().all(|s| s == "ok"), "{out}: {:?}", rows.iter().find(|s| *s != "ok"));
        assert!(!stdout.contains("forfeits"), "{out}: {stdout}");
        // Every way plays the same games as the first way that played as many.
        match &seen {
            Some((before, of)) if of.ends_with(&format!("-{games}")) => {
                assert_eq!(&csv, before, "{out} played other games than {of}")
            }
            _ => seen = Some((csv, out.clone())),
        }
        // The bot saved `data` every turn and checked it came back (else it exits with code 3),
        // and its `debug` went to its log.
        let log = std::fs::read_to_string(dir.path().join(&out).join("logs/ref.log")).unwrap();
        assert!(keep || log.contains("debug (turn 2): turn 2"), "{out}: {log}");
    }
    let (one, _) = run_in(dir.path(), &mark, &config(40, &reference("json", true, &[], "")), "one-thread", 1);
    let two = std::fs::read_to_string(dir.path().join("json-true-40/games.csv")).unwrap();
    assert_eq!(one, two, "one and two threads differ");
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

#[test]
fn every_fault_loses_its_game_with_its_reason_scored_as_botzone_scores_it() {
    if !python("the reference Botzone bot") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "faults");
    let fast = ", turn_ms = 500";
    let cases = [
        (reference("simple", true, &["--fault", "malformed", "--at", "3"], fast), "answered `PLAY` to `", "protocol"),
        (
            reference("json", false, &["--fault", "malformed", "--at", "3"], fast),
            "answered `{\"response\": \"PLAY\"",
            "protocol",
        ),
        (
            reference("simple", true, &["--fault", "wrong-turn", "--at", "1"], fast),
            "answered `PLAY W1` to `0 ",
            "protocol",
        ),
        (reference("json", true, &["--fault", "stall", "--at", "5"], fast), "timeout: no answer to `", "time"),
        (reference("simple", true, &["--fault", "false-win", "--at", "3"], fast), "false win: `HU` to `2 ", "illegal"),
        (reference("json", true, &["--fault", "crash", "--at", "4"], fast), "exited with code 1", "crash"),
    ];
    for (i, (bot, reason, kind)) in cases.iter().enumerate() {
        let (games, stdout) = run_in(dir.path(), &mark, &config(4, bot), &format!("case{i}"), 2);
        let rows = statuses(&games, "ref");
        assert_eq!(rows.len(), 4, "{bot}");
        for status in &rows {
            assert!(status.starts_with("forfeit: ") && status.contains(reason), "{bot}: {status}\nexpected {reason}");
        }
        assert!(stdout.contains(&format!("forfeits: ref 4 ({kind} 4)")), "{bot}: {stdout}");
        // Botzone's judge: −30 for the player at fault, +10 for each other.
        let mut reader = csv::Reader::from_reader(games.as_bytes());
        for row in reader.records().map(Result::unwrap) {
            let expected = if &row[4] == "ref" { "-30" } else { "10" };
            assert_eq!(&row[5], expected, "{bot}: {row:?}");
        }
    }
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

#[test]
fn our_bot_as_a_botzone_bot_plays_through_the_kind_in_all_four_ways() {
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "brain");
    let exe = env!("CARGO_BIN_EXE_arena");
    let mut seen: Option<Vec<String>> = None;
    for (io, keep, games) in [("json", true, 40), ("simple", true, 40), ("json", false, 4), ("simple", false, 4)] {
        let entry = bot(
            "brain",
            &[exe, "brain", "mahjong", "--botzone", "--bot", "pruned"],
            &format!(", io = \"{io}\", keep_running = {keep}"),
        );
        let out = format!("{io}-{keep}");
        let (csv, _) = run_in(dir.path(), &mark, &config(games, &entry), &out, 2);
        let rows = statuses(&csv, "brain");
        assert_eq!(rows.len(), games);
        assert!(rows.iter().all(|s| s == "ok"), "{out}: {:?}", rows.iter().find(|s| *s != "ok"));
        let first: Vec<String> = plays(&csv).into_iter().take(1 + 4 * 4).collect();
        match &seen {
            None => seen = Some(first),
            Some(before) => assert_eq!(&first, before, "{out} played other games"),
        }
    }
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

#[test]
fn the_botzone_kind_needs_one_hand_a_game_said_in_one_line() {
    let dir = TempDir::new().unwrap();
    let entry = bot("b", &["true"], "");
    let path = write(dir.path(), "c.toml", &config(4, &entry).replace("preset = \"botzone\"", "hands = 16"));
    let out = arena().arg("run").arg(&path).arg("--out").arg(dir.path().join("out")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Botzone plays one hand a game"), "{err}");
    // The brain refuses a game that does not speak Botzone's protocol.
    let out = arena().args(["brain", "gomoku", "--botzone"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
