//! `arena check-bot`: the compliance run of a JSON line protocol bot, on the real binary. Every
//! example bot passes it for its game; each fault flag of bots/examples/arena_bot.py fails the
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
    let cases: [&[&str]; 4] = [
        &["check-bot", "chess", "--", "python3", "bot.py"],
        &["check-bot", "holdem"],
        &["check-bot", "holdem", "--kind", "acpc", "--", "python3", "bot.py"],
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
