//! Gomoku as Gomocup plays it, end to end through the binary: `arena brain gomoku` driven over its
//! stdin/stdout as a Gomocup manager drives an engine, one command at a time (so an answer that is
//! not flushed hangs the test, which then fails on a timeout instead); openings files; renju.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use bot_arena::core::seeds::mix;
use bot_arena::core::BotChoice;
use bot_arena::core::{GameSeeds, Params};
use bot_arena::Arena;

use crate::common;

const WAIT: Duration = Duration::from_secs(30);

/// A running engine: its stdin, and its stdout lines as they come.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { stdin: child.stdin.take(), child, lines }
    }

    fn brain(args: &[&str]) -> Engine {
        let mut command = common::arena();
        command.args(["brain", "gomoku"]).args(args);
        Engine::spawn(command)
    }

    /// Sends lines (CR LF, as Piskvork does) without waiting for an answer.
    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        for line in text.lines() {
            write!(stdin, "{line}\r\n").unwrap();
        }
        stdin.flush().unwrap();
    }

    /// The next line the engine writes.
    fn answer(&self) -> String {
        match self.lines.recv_timeout(WAIT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {WAIT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    fn ask(&mut self, text: &str) -> String {
        self.send(text);
        self.answer()
    }

    /// Waits for the process to exit by itself; returns its exit code and whatever else it wrote.
    fn finish(mut self, close_stdin: bool) -> (i32, Vec<String>) {
        if close_stdin {
            self.stdin = None;
        }
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let rest: Vec<String> =
                    std::iter::from_fn(|| self.lines.recv_timeout(Duration::from_secs(5)).ok()).collect();
                return (status.code().unwrap_or(-1), rest);
            }
            if start.elapsed() > WAIT {
                self.child.kill().unwrap();
                panic!("the engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// `x,y` on an `n` × `n` board.
fn parse_move(line: &str, n: u8) -> (u8, u8) {
    let (x, y) = line.split_once(',').unwrap_or_else(|| panic!("not a move: {line:?}"));
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < n && y < n, "{line} is off the board");
    (x, y)
}

#[test]
fn a_session_over_pipes() {
    let mut e = Engine::brain(&["--bot", "weights", "--seed", "3"]);
    let about = e.ask("ABOUT");
    assert!(about.starts_with("name=\"arena-weights\", version=\""), "{about}");
    assert_eq!(e.ask("START 15"), "OK");
    // INFO has no answer: the next line answers BOARD.
    e.send("INFO timeout_match 300000\nINFO timeout_turn 1000\nINFO max_memory 83886080\nINFO rule 0\nINFO time_left 300000");
    let reply = e.ask("BOARD\n7,7,2\n8,7,1\n8,10,2\nDONE");
    let taken = [(7, 7), (8, 7), (8, 10)];
    let first = parse_move(&reply, 15);
    assert!(!taken.contains(&first));
    let second = parse_move(&e.ask("TURN 0,0"), 15);
    assert!(!taken.contains(&second) && second != (0, 0) && second != first);
    assert_eq!(e.ask(&format!("TAKEBACK {},{}", second.0, second.1)), "OK");
    assert_eq!(e.ask("TAKEBACK 0,0"), "OK");
    let again = parse_move(&e.ask("TURN 0,0"), 15);
    assert!(!taken.contains(&again) && again != (0, 0) && again != first);
    assert_eq!(e.ask("TURN 0,0"), "ERROR 0,0 is taken");
    assert_eq!(e.ask("TURN 15,3"), "ERROR 15,3 is off the 15x15 board");
    assert!(e.ask("FOO bar").starts_with("UNKNOWN"));
    assert_eq!(e.ask("RESTART"), "OK");
    parse_move(&e.ask("BEGIN"), 15);
    e.send("END");
    let (code, rest) = e.finish(false);
    assert_eq!((code, rest), (0, vec![]), "END exits at once and writes nothing more");
}

#[test]
fn the_end_of_input_ends_the_engine() {
    let mut e = Engine::brain(&[]);
    assert_eq!(e.ask("START 20"), "OK");
    parse_move(&e.ask("BEGIN"), 20);
    assert_eq!(e.finish(true), (0, vec![]));
}

#[cfg(unix)]
#[test]
fn a_pbrain_link_is_an_engine() {
    let dir = tempfile::TempDir::new().unwrap();
    let binary = common::arena().get_program().to_owned();
    // Gomocup's file-name suffixes (the build, the rule) are not part of the bot's name.
    for (name, bot) in [
        ("pbrain-arena", "search"),
        ("pbrain-arena-weights", "weights"),
        ("pbrain-arena-weights_64", "weights"),
        ("pbrain-arena_64", "search"),
        ("pbrain-arena-random_15", "random"),
        ("pbrain-arena-weights_64_renju", "weights"),
    ] {
        let link = dir.path().join(name);
        std::os::unix::fs::symlink(&binary, &link).unwrap();
        let mut e = Engine::spawn(Command::new(&link));
        let about = e.ask("ABOUT");
        assert!(about.starts_with(&format!("name=\"arena-{bot}\"")), "{name}: {about}");
        // Gomocup's tester wants every field, country included.
        assert!(about.contains(" author=\"bot-arena\", country=\""), "{about}");
        e.send("END");
        assert_eq!(e.finish(false).0, 0);
    }
}

#[test]
fn bad_command_lines_are_one_error_line() {
    for (args, expected) in [
        (
            &["brain", "stud"][..],
            "error: no engine protocol for stud: only holdem has one (ACPC), gomoku has one (Gomocup), mahjong has one (Botzone)\n",
        ),
        (&["brain", "gomoku", "--bot", "nobody"], "error: unknown bot `nobody` for gomoku"),
        (
            &["brain", "gomoku", "--param", "depth=99"],
            "error: parameter `depth` of bot `search` must be in 1..=8, not 99\n",
        ),
        (&["brain", "gomoku", "--param", "depth"], "error: --param `depth`: expected name=value\n"),
    ] {
        let out = common::arena().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with(expected) && err.lines().count() == 1, "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// Two brain processes (`weights`, `search`) play `games` games of the `[table]` given through the
/// protocol, the test being the manager; every game must be the game the same two bots play
/// in-process with the same seeds (the opening stones, from a file or drawn at random, reach the
/// engines as BOARD, as a manager sends them).
fn brains_play_the_in_process_games(table_options: &str, games: u64) {
    let arena = Arena::standard();
    let gomoku = arena.find("gomoku").unwrap();
    let options = Params::new(gomoku.options(), &toml::from_str(table_options).unwrap(), "test").unwrap();
    let (size, rule, opening) = (options.i64("size") as u8, options.str("rule"), options.i64("opening") as usize);
    let rule_code = match rule {
        "freestyle" => 0,
        "standard" => 1,
        _ => 4,
    };
    let bots = ["weights", "search"];
    let choices: Vec<BotChoice> = bots
        .iter()
        .map(|&kind| BotChoice {
            name: kind.into(),
            kind: kind.into(),
            params: Params::new(gomoku.bot_params(kind).unwrap(), &toml::Table::new(), kind).unwrap(),
        })
        .collect();
    let table = gomoku.venue(&options, 2, &choices, None).unwrap();
    // The shipped openings' lengths, in file order; a random opening has `opening` stones.
    let book = std::fs::read_to_string("openings/freestyle-15.txt").unwrap();
    let book_lengths: Vec<usize> = book.lines().map(|l| l.split(", ").count()).collect();
    let opening_length = |g: u64| match options.str("openings") {
        "" => opening,
        _ => book_lengths[(g / 2) as usize % book_lengths.len()],
    };
    let mut engines: Vec<Engine> = bots.iter().map(|b| Engine::brain(&["--bot", b])).collect();
    for e in &mut engines {
        assert_eq!(e.ask(&format!("START {size}")), "OK");
    }
    for g in 0..games {
        let seeds = GameSeeds::derive(1, 0, g, 2);
        let lineup = if g % 2 == 0 { [0, 1] } else { [1, 0] };
        let record = table.play(&lineup, g, &seeds, false);
        let expected = record.extra(0).nth(2).unwrap().to_string();
        let expected_moves: Vec<(u8, u8)> = expected.split(' ').map(|m| parse_move(m, size)).collect();
        // The manager's side: seat k's engine gets its stream's seed, then the opening as BOARD.
        let mut moves = expected_moves[..opening_length(g)].to_vec();
        let mut asked = [false; 2];
        for (seat, &bot) in lineup.iter().enumerate() {
            assert_eq!(engines[bot].ask("RESTART"), "OK");
            engines[bot].send(&format!("INFO rule {rule_code}\nINFO seed {}", mix(seeds.bots, 1 + seat as u64)));
        }
        while moves.len() < expected_moves.len() {
            let seat = moves.len() % 2;
            let engine = &mut engines[lineup[seat]];
            let reply = if asked[seat] {
                let (x, y) = moves.last().unwrap();
                engine.ask(&format!("TURN {x},{y}"))
            } else {
                asked[seat] = true;
                let stones: Vec<String> = moves
                    .iter()
                    .enumerate()
                    .map(|(i, (x, y))| format!("{x},{y},{}", if i % 2 == seat { 1 } else { 2 }))
                    .collect();
                engine.ask(&format!("BOARD\n{}\nDONE", stones.join("\n")))
            };
            let m = parse_move(&reply, size);
            assert_eq!(m, expected_moves[moves.len()], "game {g} ({table_options}), move {}", moves.len());
            moves.push(m);
        }
    }
    for mut e in engines {
        e.send("END");
        assert_eq!(e.finish(false), (0, vec![]));
    }
}

#[test]
fn two_brains_play_the_in_process_games() {
    brains_play_the_in_process_games("openings = \"openings/freestyle-15.txt\"", 6);
    brains_play_the_in_process_games("size = 20\nrule = \"standard\"\nopening = 4", 4);
}

/// 1,000 games each under freestyle and standard on a `size` board, from random 4-stone openings.
fn a_thousand_games_each_rule(size: usize) {
    for rule in ["freestyle", "standard"] {
        let start = std::time::Instant::now();
        brains_play_the_in_process_games(&format!("size = {size}\nrule = \"{rule}\"\nopening = 4"), 1000);
        println!("{size}x{size} {rule}: 1000 games equal, {:.0} s", start.elapsed().as_secs_f64());
    }
}

/// `cargo test --release --test suite gomoku_gomocup:: -- --ignored --nocapture` (both sizes), or one
/// size: `... -- --ignored --nocapture a_thousand_games_through_the_protocol_20x20`.
#[test]
#[ignore]
fn a_thousand_games_through_the_protocol_15x15() {
    a_thousand_games_each_rule(15);
}

#[test]
#[ignore]
fn a_thousand_games_through_the_protocol_20x20() {
    a_thousand_games_each_rule(20);
}

/// Runs a gomoku config; returns (exit code, stderr, games.csv rows as maps).
fn run(dir: &std::path::Path, config: &str) -> (i32, String, Vec<std::collections::HashMap<String, String>>) {
    let path = common::write(dir, "config.toml", config);
    let out_dir = dir.join("out");
    let out = common::arena().args(["run", "--quiet", "--force", "--out"]).arg(&out_dir).arg(&path).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let mut rows = Vec::new();
    if out.status.success() {
        let mut csv = csv::Reader::from_path(out_dir.join("games.csv")).unwrap();
        let headers = csv.headers().unwrap().clone();
        for record in csv.records() {
            rows.push(
                headers.iter().zip(record.unwrap().iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect(),
            );
        }
    }
    (out.status.code().unwrap_or(-1), err, rows)
}

#[test]
fn an_openings_file_is_played_in_turn_with_colours_swapped() {
    let dir = tempfile::TempDir::new().unwrap();
    let book = common::write(dir.path(), "book.txt", "0,0, 1,0, 1,3\n\n0,0, 1,1, -1,3\n0,0\n");
    let config = format!(
        "game = \"gomoku\"\ngames = 14\npaired = true\nbots = [\"weights\", \"random-adjacent\"]\n[table]\nopenings = {:?}\n",
        book.display().to_string()
    );
    let (code, err, rows) = run(dir.path(), &config);
    assert_eq!(code, 0, "{err}");
    let openings = ["7,7 8,7 8,10", "7,7 8,8 6,10", "7,7"];
    for row in rows.iter().filter(|r| r["seat"] == "0") {
        let game: usize = row["game"].parse().unwrap();
        // Game g plays opening g / 2 (modulo 3): both colours of each opening, in file order.
        let opening = openings[(game / 2) % 3];
        assert!(row["move_list"].starts_with(opening), "game {game}: {}", row["move_list"]);
        let black = if game.is_multiple_of(2) { "weights" } else { "random-adjacent" };
        assert_eq!(row["bot"], black, "game {game}");
        assert_eq!(row["status"], "ok");
    }
}

#[test]
fn a_bad_openings_file_is_one_error_line_with_its_file_and_line() {
    let dir = tempfile::TempDir::new().unwrap();
    let book = common::write(dir.path(), "book.txt", "0,0, 1,0\n0,0, 9,0\n");
    let shown = book.display().to_string();
    let config =
        format!("game = \"gomoku\"\ngames = 2\nbots = [\"weights\"]\n[table]\nsize = 15\nopenings = {shown:?}\n");
    let (code, err, _) = run(dir.path(), &config);
    assert_eq!(code, 2);
    let config_path = dir.path().join("config.toml").display().to_string();
    assert_eq!(err, format!("error: {config_path}:6: {shown}:2: 9,0 is off the 15x15 board (centre 7,7)\n"));
    // A missing file, and both kinds of opening at once.
    let (code, err, _) = run(
        dir.path(),
        "game = \"gomoku\"\ngames = 2\nbots = [\"weights\"]\n[table]\nopenings = \"no/such/file.txt\"\n",
    );
    assert!(code == 2 && err.contains("no/such/file.txt: ") && err.lines().count() == 1, "{err}");
    let config =
        format!("game = \"gomoku\"\ngames = 2\nbots = [\"weights\"]\n[table]\nopening = 2\nopenings = {shown:?}\n");
    let (code, err, _) = run(dir.path(), &config);
    assert!(code == 2 && err.contains("give `opening` (random stones) or `openings` (a file), not both"), "{err}");
}

#[test]
fn renju_bots_never_play_a_forbidden_point() {
    let dir = tempfile::TempDir::new().unwrap();
    let config =
        "game = \"gomoku\"\ngames = 10\npaired = true\nbots = [\"search\", \"weights\", \"random-adjacent\"]\n\
                  [table]\nrule = \"renju\"\nopenings = \"openings/freestyle-15.txt\"\n";
    let (code, err, rows) =
        run(dir.path(), &config.replace("openings/", &format!("{}/openings/", env!("CARGO_MANIFEST_DIR"))));
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows.len(), 3 * 10 * 2);
    for row in &rows {
        assert_eq!(row["status"], "ok");
        assert!(["five", "full"].contains(&row["end"].as_str()), "{row:?}");
    }
}

/// Gomocup's time limits, kept when the bot is asked to (`clock=true`; by default it searches
/// within its node budget, the same moves at any load): at `timeout_turn 200` every answer comes
/// well inside 200 ms, for the default search and for one that would take seconds a move on a
/// fixed depth; with `timeout_match` the match's time is shared over the moves (`time_left`).
/// Measured here from the command's last byte written to the answer read.
#[test]
fn the_brain_keeps_to_timeout_turn_and_time_left() {
    let positions = [
        "BOARD\n7,7,2\nDONE",
        "BOARD\n7,7,2\n8,8,1\n8,6,2\nDONE",
        "BOARD\n7,7,2\n8,7,1\n8,10,2\n6,8,1\n9,9,2\nDONE",
        "BOARD\n7,7,2\n8,8,1\n7,8,2\n9,9,1\n7,9,2\n6,6,1\n10,10,2\nDONE",
    ];
    let mut slowest = Duration::ZERO;
    let deep = ["--bot", "search", "--param", "clock=true", "--param", "depth=8", "--param", "width=8"];
    for args in [&["--bot", "search", "--param", "clock=true"][..], &deep] {
        let mut e = Engine::brain(args);
        assert_eq!(e.ask("START 15"), "OK");
        e.send("INFO timeout_turn 200\nINFO timeout_match 0\nINFO time_left 2147483647\nINFO rule 0");
        for board in positions {
            let began = std::time::Instant::now();
            let reply = e.ask(board);
            let took = began.elapsed();
            parse_move(&reply, 15);
            slowest = slowest.max(took);
            assert!(took < Duration::from_millis(200), "{args:?}: {took:?} for {board:?}");
            // Then a few moves of a game from there.
            for turn in ["0,0", "14,14", "0,14"] {
                let began = std::time::Instant::now();
                let reply = e.ask(&format!("TURN {turn}"));
                let took = began.elapsed();
                if reply.starts_with("ERROR") {
                    break; // the cell was taken
                }
                parse_move(&reply, 15);
                slowest = slowest.max(took);
                assert!(took < Duration::from_millis(200), "{args:?}: {took:?} for TURN {turn} after {board:?}");
            }
        }
        e.send("END");
        assert_eq!(e.finish(false).0, 0);
    }
    // A match of 3 s with 10 s turns: the first moves take a share of time_left, not the turn.
    let mut e = Engine::brain(&deep);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 10000\nINFO timeout_match 3000\nINFO time_left 3000");
    let began = std::time::Instant::now();
    parse_move(&e.ask(positions[2]), 15);
    assert!(began.elapsed() < Duration::from_millis(400), "{:?} of a 3 s match", began.elapsed());
    println!("slowest answer at timeout_turn 200: {slowest:?}");
}

/// INFO rule 8 is caro (a five blocked at both ends does not win), and exactly five (rule 1) is
/// read by the bots' evaluation: an overline is not a win.
#[test]
fn caro_and_exactly_five_through_the_protocol() {
    // The brain (black, to move) has 1,3..4,3 with white stones at 0,3 and 6,3: 5,3 makes a five
    // blocked at both ends, a win in freestyle and nothing under caro.
    let board = "BOARD\n1,3,1\n2,3,1\n3,3,1\n4,3,1\n0,3,2\n6,3,2\n14,14,2\n0,14,2\nDONE";
    for (rule, wins) in [("0", true), ("8", false)] {
        let mut e = Engine::brain(&["--bot", "search"]);
        assert_eq!(e.ask("START 15"), "OK");
        e.send(&format!("INFO rule {rule}"));
        let reply = e.ask(board);
        assert!(!reply.starts_with("ERROR"), "INFO rule {rule}: {reply}");
        assert_eq!(reply == "5,3", wins, "rule {rule}: {reply}");
    }
    // White (the brain, to move) has 1,5..4,5 and 6,5: 5,5 makes six; black has an open three
    // on row 9. Freestyle: 5,5 wins. Exactly five: 5,5 is no win, and the three must be blocked.
    let board = "BOARD\n1,5,1\n2,5,1\n3,5,1\n4,5,1\n6,5,1\n0,5,2\n7,9,2\n8,9,2\n9,9,2\n14,14,2\n14,0,2\nDONE";
    for bot in ["weights", "search"] {
        for (rule, expected) in [("0", &["5,5"][..]), ("1", &["6,9", "10,9", "5,9", "11,9"])] {
            let mut e = Engine::brain(&["--bot", bot]);
            assert_eq!(e.ask("START 15"), "OK");
            e.send(&format!("INFO rule {rule}"));
            let reply = e.ask(board);
            assert!(expected.contains(&reply.as_str()), "{bot}, rule {rule}: {reply}, expected one of {expected:?}");
        }
    }
}
