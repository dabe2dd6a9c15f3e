//! `arena check-bot`: the compliance run of a protocol bot (JSON lines, Gomocup, ACPC, Botzone),
//! on the real binary. Every example bot passes it for its game; each fault flag of bots/examples/arena_bot.py fails the
//! check it should, naming the line the bot sent (or that it sent none), with exit 1; bad input
//! exits 2; no bot outlives the command.

use std::time::Duration;

use crate::common::{arena, mark, project, python, survivors, MARK};

/// `arena check-bot GAME` with `flags` on the example bot `bot` and its `args`, its processes
/// marked `mark`; returns (exit code, stdout, stderr).
fn check(game: &str, flags: &[&str], bot: &str, args: &[&str], mark: &str) -> (i32, String, String) {
    let out = arena()
        .current_dir(project(""))
        .env(MARK, mark)
        .args(["check-bot", game])
        .args(flags)
        .args(["--", "python3", &format!("bots/examples/{bot}")])
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// The line of the check whose name starts with `name`.
fn line_of<'a>(stdout: &'a str, name: &str) -> &'a str {
    let found = stdout.lines().find(|l| l[6.min(l.len())..].starts_with(name));
    found.unwrap_or_else(|| panic!("no check `{name}` in:\n{stdout}"))
}

#[test]
fn every_example_bot_passes_for_its_game() {
    if !python("the example bots") {
        return;
    }
    let bots = [
        ("holdem", "holdem_random.py"),
        ("holdem", "holdem_heuristic.py"),
        ("stud", "stud_random.py"),
        ("zhajinhua", "zhajinhua_random.py"),
        ("gomoku", "gomoku_random.py"),
        ("gomoku", "gomoku_heuristic.py"),
        ("mahjong", "mahjong_random.py"),
    ];
    for (game, bot) in bots {
        let mark = mark(module_path!(), &format!("example-{bot}"));
        let (code, stdout, stderr) = check(game, &[], bot, &[], &mark);
        assert_eq!(code, 0, "{bot} on {game}:\n{stdout}{stderr}");
        assert!(!stdout.contains("FAIL"), "{bot}:\n{stdout}");
        let checks = stdout.lines().filter(|l| l.starts_with("pass  ")).count();
        assert!(checks >= 5, "{bot}: hello, a decision, a later game, nothing unasked, quit:\n{stdout}");
        let summary = stdout.lines().last().unwrap();
        assert_eq!(summary, format!("{checks} of {checks} checks passed"), "{bot}");
        line_of(&stdout, "hello");
        line_of(&stdout, "quit: the bot exits");
        assert!(survivors(&mark, Duration::from_secs(2)).is_empty(), "{bot} outlived the check");
    }
}

#[test]
fn holdem_is_checked_with_and_without_something_to_call() {
    if !python("the example bots") {
        return;
    }
    let (code, stdout, _) = check("holdem", &[], "holdem_random.py", &[], &mark(module_path!(), "kinds"));
    assert_eq!(code, 0, "{stdout}");
    assert!(line_of(&stdout, "act (fold, call").starts_with("pass  "), "{stdout}");
    assert!(line_of(&stdout, "act (check").starts_with("pass  "), "{stdout}");
}

#[test]
fn each_fault_fails_the_check_it_should() {
    if !python("the example bots") {
        return;
    }
    // (fault, the check that fails, what its line says)
    let faults = [
        ("crash", "act (fold, call, raise)", "the bot sent nothing: it exited with code 3"),
        ("hang", "act (fold, call, raise)", "the bot sent nothing within 1000 ms (killed)"),
        ("stall", "hello", "the bot sent nothing within 2000 ms (killed)"),
        ("illegal", "act (fold, call, raise)", "the bot sent `{\"action\": \"no-such-action\"}`: illegal action"),
        ("protocol", "act (fold, call, raise)", "the bot sent `this is not json`"),
        ("memory", "act (fold, call, raise)", "over the 200 MiB allowed (killed)"),
        ("quit", "quit: the bot exits", "still running 1000 ms after quit (killed)"),
    ];
    let flags = ["--start-ms", "2000", "--move-ms", "1000", "--memory-mb", "200"];
    for (fault, name, says) in faults {
        let mark = mark(module_path!(), &format!("fault-{fault}"));
        let (code, stdout, stderr) = check("holdem", &flags, "holdem_random.py", &["--fault", fault], &mark);
        assert_eq!(code, 1, "--fault {fault}:\n{stdout}{stderr}");
        let line = line_of(&stdout, name);
        assert!(line.starts_with("FAIL  ") && line.contains(says), "--fault {fault}: `{line}`\n{stdout}");
        // The first failure is the fault's own: every check before it passed.
        let first = stdout.lines().find(|l| l.starts_with("FAIL  ")).unwrap();
        assert_eq!(first, line, "--fault {fault}:\n{stdout}");
        let summary = stdout.lines().last().unwrap();
        let total = stdout.lines().filter(|l| l.starts_with("pass  ") || l.starts_with("FAIL  ")).count();
        let passed = stdout.lines().filter(|l| l.starts_with("pass  ")).count();
        assert_eq!(summary, format!("{passed} of {total} checks passed"), "--fault {fault}");
        assert!(survivors(&mark, Duration::from_secs(2)).is_empty(), "--fault {fault}: a bot outlived the check");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases: [&[&str]; 7] = [
        &["check-bot", "chess", "--", "python3", "bot.py"],
        &["check-bot", "holdem"],
        &["check-bot", "gomoku", "--kind", "acpc", "--", "python3", "bot.py"],
        &["check-bot", "holdem", "--kind", "nonsense", "--", "python3", "bot.py"],
        &["check-bot", "holdem", "--table", "stack=-5", "--", "python3", "bot.py"],
        &["check-bot", "holdem", "--kind", "acpc", "--param", "colour=3", "--", "python3", "bot.py"],
        &["check-bot", "holdem", "--", "/no/such/program"],
    ];
    for args in cases {
        let out = arena().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A Gomocup engine in Python that misbehaves as `mode` says: `taken` plays 7,7 on every move,
/// `silent` never answers BEGIN, `noend` ignores END, `norestart` refuses RESTART; else it plays
/// the first free cell.
const ENGINE: &str = r#"
import sys
mode = sys.argv[1]
taken = set()
def move():
    if mode == "taken":
        return "7,7"
    cell = next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)
    taken.add(cell)
    return "%d,%d" % cell
board = False
for line in sys.stdin:
    words = line.strip().split()
    if not words:
        continue
    word = words[0].upper()
    if board:
        if word == "DONE":
            board = False
            print(move(), flush=True)
        else:
            x, y, _ = line.strip().split(",")
            taken.add((int(x), int(y)))
        continue
    if word == "START":
        taken.clear()
        print("OK", flush=True)
    elif word == "RESTART":
        taken.clear()
        print("UNKNOWN no restart" if mode == "norestart" else "OK", flush=True)
    elif word == "BEGIN":
        if mode == "silent":
            continue
        print("MESSAGE thinking", flush=True)
        print(move(), flush=True)
    elif word == "TURN":
        x, y = words[1].split(",")
        taken.add((int(x), int(y)))
        print(move(), flush=True)
    elif word == "BOARD":
        taken.clear()
        board = True
    elif word == "END":
        if mode != "noend":
            break
"#;

/// `arena check-bot gomoku --kind gomocup` on `command`; returns (exit code, stdout).
fn check_gomocup(command: &[&str], mark: &str) -> (i32, String) {
    let out = arena()
        .env(MARK, mark)
        .args(["check-bot", "gomoku", "--kind", "gomocup", "--start-ms", "3000", "--move-ms", "1000", "--"])
        .args(command)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_brain_passes_the_gomocup_check() {
    let exe = assert_cmd::cargo::cargo_bin("arena");
    let mark = mark(module_path!(), "brain");
    let (code, stdout) = check_gomocup(&[exe.to_str().unwrap(), "brain", "gomoku", "--bot", "random"], &mark);
    assert_eq!(code, 0, "{stdout}");
    for step in ["START 15", "INFO, then BEGIN", "TURN", "RESTART", "BOARD … DONE", "END"] {
        assert!(line_of(&stdout, step).starts_with("pass  "), "{step}:\n{stdout}");
    }
    assert_eq!(stdout.lines().last(), Some("6 of 6 checks passed"));
    assert!(survivors(&mark, Duration::from_secs(2)).is_empty());
}

#[test]
fn a_faulty_gomocup_engine_fails_the_check_it_should() {
    if !python("the test's Gomocup engine") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let engine = crate::common::write(dir.path(), "engine.py", ENGINE);
    let engine = engine.to_str().unwrap();
    // (mode, exit code, the check named, what its line says)
    let cases = [
        ("good", 0, "RESTART", ""),
        ("norestart", 0, "RESTART", ""),
        ("taken", 1, "TURN", "the engine sent `7,7`, a cell taken"),
        ("silent", 1, "INFO, then BEGIN", "the engine sent nothing within 1000 ms (killed)"),
        ("noend", 1, "END", "still running 1000 ms after END (killed)"),
    ];
    for (mode, exit, name, says) in cases {
        let mark = mark(module_path!(), &format!("gomocup-{mode}"));
        let (code, stdout) = check_gomocup(&["python3", engine, mode], &mark);
        assert_eq!(code, exit, "{mode}:\n{stdout}");
        let line = line_of(&stdout, name);
        match exit {
            0 => assert!(line.starts_with("pass  "), "{mode}: {line}"),
            _ => assert!(line.starts_with("FAIL  ") && line.contains(says), "{mode}: `{line}`\n{stdout}"),
        }
        assert!(survivors(&mark, Duration::from_secs(2)).is_empty(), "{mode}: an engine outlived the check");
    }
}

/// `arena check-bot GAME --kind KIND` with `flags` on the example `bot` and its `args`; returns
/// (exit code, stdout).
fn check_kind(game: &str, kind: &str, flags: &[&str], bot: &str, args: &[&str], mark: &str) -> (i32, String) {
    let mut all = vec!["--kind", kind];
    all.extend_from_slice(flags);
    let (code, stdout, stderr) = check(game, &all, bot, args, mark);
    assert!(stderr.is_empty() || code == 0, "{stderr}");
    (code, stdout)
}

#[test]
fn the_reference_acpc_agent_passes_and_each_fault_fails_the_check_it_should() {
    if !python("the reference ACPC agent") {
        return;
    }
    let good = mark(module_path!(), "acpc-good");
    let flags = ["--table", "preset=acpc"];
    let (code, stdout) = check_kind("holdem", "acpc", &flags, "acpc_agent.py", &[], &good);
    assert_eq!(code, 0, "{stdout}");
    line_of(&stdout, "start: the bot is ready");
    line_of(&stdout, "act (fold, call, raise)");
    line_of(&stdout, "game over, then a new game");
    assert!(stdout.ends_with("5 of 5 checks passed\n"), "{stdout}");
    assert!(survivors(&good, Duration::from_secs(2)).is_empty(), "the agent outlived the check");

    let fast = ["--table", "preset=acpc", "--start-ms", "2000", "--move-ms", "1000"];
    let cases = [
        (
            "illegal",
            "act (fold, call, raise)",
            "illegal action `r1`: a raise here goes to r200 .. r20000; in `MATCHSTATE:",
        ),
        ("garbage", "act (fold, call, raise)", "malformed action `raise please` (f, c or r<chips>) in `MATCHSTATE:"),
        ("wrong", "act (fold, call, raise)", "answered another state: `MATCHSTATE:"),
        ("version", "start: the bot is ready", "first line `VERSION:1.0.0` is not VERSION:2.0.0"),
        ("never", "start: the bot is ready", "timeout: the agent did not connect to 127.0.0.1:"),
    ];
    for (stall, step, why) in cases {
        let mark = mark(module_path!(), &format!("acpc-{stall}"));
        let (code, stdout) = check_kind("holdem", "acpc", &fast, "acpc_agent.py", &["--stall", stall], &mark);
        assert_eq!(code, 1, "{stall}: {stdout}");
        let line = line_of(&stdout, step);
        assert!(line.starts_with("FAIL  ") && line.contains(why), "{stall}: {line}\nexpected {why}");
        assert!(survivors(&mark, Duration::from_secs(2)).is_empty(), "{stall}: the agent outlived the check");
    }
}

#[test]
fn the_reference_botzone_bot_passes_and_each_fault_fails_the_check_it_should() {
    if !python("the reference Botzone bot") {
        return;
    }
    // Kept running, as Botzone's keep-running bots are: one process a game, not one a turn.
    let good = mark(module_path!(), "botzone-good");
    let keep = ["--param", "keep_running=true"];
    let (code, stdout) = check_kind("mahjong", "botzone", &keep, "botzone_mahjong.py", &["--keep"], &good);
    assert_eq!(code, 0, "{stdout}");
    line_of(&stdout, "act (discard)");
    line_of(&stdout, "game over, then a new game");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(survivors(&good, Duration::from_secs(2)).is_empty(), "the bot outlived the check");

    let cases = [
        ("malformed", "act (discard)", "`PLAY` is not a response"),
        ("wrong-turn", "act (pass, chow)", "`PLAY W1` is not an answer player 0 may give"),
        ("crash", "act (discard)", "exited with code 1"),
    ];
    for (fault, step, why) in cases {
        let mark = mark(module_path!(), &format!("botzone-{fault}"));
        let args = ["--fault", fault, "--at", "3"];
        let (code, stdout) =
            check_kind("mahjong", "botzone", &["--move-ms", "3000"], "botzone_mahjong.py", &args, &mark);
        assert_eq!(code, 1, "{fault}: {stdout}");
        let line = line_of(&stdout, step);
        assert!(line.starts_with("FAIL  ") && line.contains(why), "{fault}: {line}\nexpected {why}");
        assert!(survivors(&mark, Duration::from_secs(2)).is_empty(), "{fault}: the bot outlived the check");
    }
}
