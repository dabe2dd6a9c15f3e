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
        // Laid out for 80 columns (a pipe's width), whatever the terminal running the tests is.
        .env_remove("COLUMNS")
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

/// A pseudo-terminal `columns` wide: the master end the test reads and types on, the slave end
/// the child's stdin, stdout and stderr.
fn pseudo_terminal(columns: u16) -> (std::fs::File, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize { ws_row: 50, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: openpty writes one descriptor through each of the first two pointers and reads the
    // window size through the last; no name is asked for and the default terminal modes are kept.
    let opened = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened for us and are owned by nothing else.
    unsafe { (std::fs::File::from_raw_fd(master), std::os::fd::OwnedFd::from_raw_fd(slave)) }
}

/// `arena play ARGS` in `dir`, at a terminal `columns` wide, played by a person who answers each
/// prompt with what `answer` makes of the screen since their last answer. Returns everything the
/// terminal showed (their typing echoed after each prompt, as a person sees it).
fn play_at_terminal(dir: &Path, args: &[&str], columns: u16, mut answer: impl FnMut(&str) -> String) -> String {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let (master, slave) = pseudo_terminal(columns);
    let mut child = arena()
        .arg("play")
        .args(args)
        .current_dir(dir)
        // The width comes from the terminal itself (TIOCGWINSZ), as a person's would.
        .env_remove("COLUMNS")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .unwrap();
    // What the terminal shows, read on a thread of its own until the child has gone (the last
    // slave end closed: the read fails with EIO).
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut reader = master.try_clone().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut typing = master;
    let (mut screen, mut answered) = (String::new(), 0);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(bytes) => screen.push_str(&String::from_utf8_lossy(&bytes).replace('\r', "")),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?}: no end after 120 s:\n{screen}");
        }
        let last_line = screen.rsplit('\n').next().unwrap_or("");
        if screen.len() > answered && last_line.starts_with("seat ") && last_line.ends_with("> ") {
            let line = answer(&screen[answered..]);
            typing.write_all(format!("{line}\n").as_bytes()).unwrap();
            answered = screen.len();
        }
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{args:?}: {status}\n{screen}");
    screen
}

/// The first of `choices` the legal list offers (`1) check`), else the first legal action.
fn first_of(choices: &'static [&'static str]) -> impl FnMut(&str) -> String {
    move |screen: &str| {
        let offered = |choice: &&&str| screen.contains(&format!(") {choice}"));
        choices.iter().find(offered).map_or("1".to_string(), |choice| choice.to_string())
    }
}

/// Whether a line tells an action of `who` in words, one of `verbs` (`rr (seat 1): checks`).
fn told(screen: &str, who: &str, verbs: &[&str]) -> bool {
    screen
        .lines()
        .filter_map(|line| line.strip_prefix(&format!("{who}: ")))
        .any(|action| verbs.iter().any(|verb| action.starts_with(verb)))
}

/// The person's result line: won or lost, a signed amount and `unit` after it (`chip` stands for
/// `chips` too).
fn result_in(screen: &str, unit: &str) -> bool {
    screen.lines().any(|line| {
        let rest = ["you won +", "you lost -", "you broke even, 0"].iter().find_map(|lead| line.strip_prefix(lead));
        rest.is_some_and(|rest| {
            let amount: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            !amount.is_empty() && rest[amount.len()..].starts_with(&format!(" {unit}"))
        })
    })
}

#[test]
fn at_a_terminal_a_person_sees_the_table_the_others_actions_in_words_and_the_result_in_the_games_unit() {
    let dir = TempDir::new().unwrap();
    let run = |game: &str, args: &[&str], columns: u16, answer: &mut dyn FnMut(&str) -> String| {
        let mut all = vec![game, "--seed", "2", "--out", game];
        all.extend_from_slice(args);
        let screen = play_at_terminal(dir.path(), &all, columns, answer);
        // Shown with --nocapture: what a person saw (the lead's closing note quotes it).
        println!("===== arena play {} ({columns} columns)\n{screen}", all.join(" "));
        assert!(!screen.contains("action="), "{game}: a field dump, not a table:\n{screen}");
        screen
    };

    // Hold'em: a person who checks and calls down against rr.
    let holdem = run("holdem", &["--bot", "rr"], 80, &mut first_of(&["check", "call"]));
    for line in ["  seat 0  you  button, small blind  stack 9950  bet 50 ", "  seat 1  rr   big blind", "board: -"] {
        assert!(holdem.contains(line), "hold'em: no `{line}` in the table:\n{holdem}");
    }
    let verbs = ["checks", "calls ", "bets ", "raises to ", "folds"];
    assert!(told(&holdem, "rr (seat 1)", &verbs), "hold'em: rr's action is not told in words:\n{holdem}");
    assert!(holdem.contains("showdown:\n") && holdem.contains("the pot of "), "hold'em:\n{holdem}");
    assert!(result_in(&holdem, "chip") && holdem.contains(" big blind"), "hold'em:\n{holdem}");

    // Stud: the person in seat 1, checking and calling against the expert.
    let stud = run("stud", &["--bot", "expert", "--seat", "1"], 80, &mut first_of(&["check", "call"]));
    assert!(stud.contains("  seat 0  expert") && stud.contains("  seat 1  you "), "stud:\n{stud}");
    assert!(stud.contains("[hole card] face-up cards"), "stud:\n{stud}");
    assert!(told(&stud, "expert (seat 0)", &verbs), "stud: the expert's action is not told:\n{stud}");
    assert!(stud.contains("showdown:\n") && result_in(&stud, "chip"), "stud:\n{stud}");

    // Zhajinhua: three seats; the person looks, then calls.
    let zhajinhua = run("zhajinhua", &["--bot", "ev", "--seats", "3"], 80, &mut first_of(&["look", "call"]));
    assert!(zhajinhua.contains("  seat 1  ev ") && zhajinhua.contains("your cards: "), "zhajinhua:\n{zhajinhua}");
    let verbs = ["looks at their cards", "folds", "calls, paying ", "raises the stake to "];
    let others = told(&zhajinhua, "ev (seat 1)", &verbs) || told(&zhajinhua, "ev (seat 2)", &verbs);
    assert!(others, "zhajinhua: no other seat's action told:\n{zhajinhua}");
    assert!(result_in(&zhajinhua, "chip"), "zhajinhua:\n{zhajinhua}");

    // Mahjong at a narrow terminal: every line within its width, no tile or action cut.
    let width = 60;
    let mahjong = run("mahjong", &["--bot", "greedy"], width, &mut first_of(&[]));
    let long: Vec<&str> = mahjong.lines().filter(|line| line.chars().count() > usize::from(width)).collect();
    assert!(long.is_empty(), "mahjong: lines wider than {width} columns: {long:#?}");
    assert!(mahjong.contains("your hand: ") && mahjong.contains("discards (oldest first):"), "mahjong:\n{mahjong}");
    assert!(told(&mahjong, "greedy (seat 1)", &["discards "]), "mahjong:\n{mahjong}");
    let won = mahjong.contains(" fans, ") && mahjong.contains("\nfans: ");
    assert!(won || mahjong.contains("the wall ran out"), "mahjong: how the hand ended:\n{mahjong}");
    assert!(result_in(&mahjong, "point"), "mahjong:\n{mahjong}");
    // The legal list, wrapped, keeps every action whole: `N) discard T`.
    let menu: Vec<&str> = mahjong.lines().filter(|line| line.starts_with("legal: ")).collect();
    assert!(!menu.is_empty() && menu.iter().all(|line| !line.trim_end().ends_with(") discard")), "{menu:?}");
}
