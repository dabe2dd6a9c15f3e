//! The ACPC protocol both ways, through the `arena` binary:
//! - the `acpc` bot kind: the reference agent (bots/examples/acpc_agent.py, written from the
//!   protocol's text) plays a thousand hands against rr heads-up and a three-seat table, with no
//!   fault, the same bytes on one and two threads; agents that misbehave (a line that is not an
//!   action, an answer for another hand, an illegal raise, half a line and a stall, the wrong
//!   version) each lose their hand with the reason, the run goes on, and no process is left, nor
//!   after Ctrl-C, SIGTERM or `kill -9` of the host; an agent that never connects, or exits at
//!   once, could not run: the run stops (exit code 5) with the reason;
//! - `arena acpc-agent`: our bots play a test dealer written from the protocol's text
//!   (tests/tools/acpc_dealer.py), heads-up and three-handed, answering exactly the states where
//!   they are to act, and exit when the dealer closes the connection.
//!
//! The tests skip with a message where python3 is absent.

#![cfg(target_os = "linux")]

use std::process::Command;
use std::time::Duration;

use crate::common::{arena, mark, project, python, run_in, statuses, survivors, write, MARK};
use tempfile::TempDir;

/// The reference agent as an `acpc` bot named `agent`, with more arguments and parameters.
fn agent(args: &[&str], params: &str) -> String {
    let script = project("bots/examples/acpc_agent.py").display().to_string();
    let args: String = args.iter().map(|a| format!(", {a:?}")).collect();
    format!("{{ name = \"agent\", kind = \"acpc\", params = {{ command = [\"python3\", {script:?}{args}]{params} }} }}")
}

#[test]
fn the_reference_agent_plays_a_thousand_hands_cleanly_and_alike_on_one_and_two_threads() {
    if !python("the reference ACPC agent and test dealer") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "clean");
    let config = format!(
        "game = \"holdem\"\ngames = 1000\npaired = true\nbots = [{}, \"rr\"]\n[table]\npreset = \"acpc\"\n",
        agent(&[], "")
    );
    let mut results = Vec::new();
    for threads in [1, 2] {
        let out = format!("t{threads}");
        let (games, stdout) = run_in(dir.path(), &mark, &config, &out, threads);
        let rows = statuses(&games, "agent");
        assert_eq!(rows.len(), 1000);
        assert!(rows.iter().all(|s| s == "ok"), "{:?}", rows.iter().find(|s| *s != "ok"));
        assert!(!stdout.contains("forfeits"), "{stdout}");
        results.push((games, std::fs::read_to_string(dir.path().join(&out).join("summary.csv")).unwrap()));
    }
    assert!(results[0] == results[1], "results differ between 1 and 2 threads");
    // Three seats, from the config the project ships (its preset, the roster's agent).
    let config = std::fs::read_to_string(project("configs/holdem-acpc-3p.toml")).unwrap();
    let (games, _) = run_in(dir.path(), &mark, &config.replace("games = 300", "games = 150"), "three", 2);
    let rows = statuses(&games, "acpc-example");
    assert_eq!(rows.len(), 150);
    assert!(rows.iter().all(|s| s == "ok"), "{:?}", rows.iter().find(|s| *s != "ok"));
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

#[test]
fn every_fault_loses_its_hand_with_its_reason_and_the_run_goes_on() {
    if !python("the reference ACPC agent and test dealer") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "faults");
    let fast = ", move_ms = 500, start_ms = 1000";
    let python_agent = |stall: &str| agent(&["--stall", stall], fast);
    let cases = [
        (python_agent("garbage"), "malformed action `raise please` (f, c or r<chips>) in `MATCHSTATE:", "protocol"),
        (python_agent("wrong"), "answered another state: `MATCHSTATE:", "protocol"),
        (python_agent("illegal"), "illegal action `r1`: a raise here goes to r", "illegal"),
        (python_agent("half"), "timeout 500 ms: ", "time"),
        (python_agent("version"), "first line `VERSION:1.0.0` is not VERSION:2.0.0", "protocol"),
    ];
    for (i, (bot, reason, kind)) in cases.iter().enumerate() {
        // Against always-call the agent acts in every hand, whichever its seat.
        let config = format!("game = \"holdem\"\ngames = 4\npaired = true\nbots = [{bot}, \"always-call\"]\n[table]\npreset = \"acpc\"\n");
        let (games, stdout) = run_in(dir.path(), &mark, &config, &format!("case{i}"), 2);
        let rows = statuses(&games, "agent");
        assert_eq!(rows.len(), 4, "{bot}");
        for status in &rows {
            assert!(status.starts_with(&format!("forfeit: {reason}")), "{bot}: {status}\nexpected {reason}");
        }
        assert!(statuses(&games, "always-call").iter().all(|s| s == "opponent forfeit"), "{bot}");
        assert!(stdout.contains(&format!("forfeits: agent 4 ({kind} 4)")), "{bot}: {stdout}");
    }
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

/// An agent that never connects, or exits before it does, never answered: at the start of its
/// first 3 hands so, it could not run, and the run stops with exit code 5 and the reason.
#[test]
fn an_agent_that_never_connects_or_exits_at_once_stops_the_run() {
    if !python("the reference ACPC agent") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "never");
    let fast = ", move_ms = 500, start_ms = 1000";
    let cases = [
        (agent(&["--stall", "never"], fast), "timeout: the agent did not connect to 127.0.0.1:"),
        (
            format!("{{ name = \"agent\", kind = \"acpc\", params = {{ command = [\"false\"]{fast} }} }}"),
            "the agent exited with code 1 before connecting, at the start of 3 games, with no answer in any",
        ),
    ];
    for (i, (bot, reason)) in cases.iter().enumerate() {
        let config = format!("game = \"holdem\"\ngames = 100\npaired = true\nbots = [{bot}, \"always-call\"]\n[table]\npreset = \"acpc\"\n");
        let path = write(dir.path(), &format!("never{i}.toml"), &config);
        let output = arena()
            .args(["run", "--threads", "2", "--out"])
            .arg(dir.path().join(format!("never{i}")))
            .arg(&path)
            .env(MARK, &mark)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(5), "{bot}: {stderr}");
        assert!(stderr.starts_with(&format!("error: bot agent could not run: {reason}")), "{bot}: {stderr}");
    }
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

#[test]
fn our_bots_play_a_test_dealer_as_acpc_agents() {
    if !python("the reference ACPC agent and test dealer") {
        return;
    }
    let arena_bin = assert_cmd::cargo::cargo_bin("arena");
    for (players, bot, hands) in [("2", "rr", "1000"), ("3", "rr-tight", "500"), ("2", "all-in", "200")] {
        let output = Command::new("python3")
            .arg(project("tests/tools/acpc_dealer.py"))
            .args(["--hands", hands, "--players", players, "--"])
            .arg(&arena_bin)
            .args(["acpc-agent", "holdem", "--bot", bot])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{bot} at {players} seats: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.starts_with(&format!("hands {hands} answers ")) && last.ends_with(" errors 0 exit 0"), "{last}");
    }
}

#[test]
fn an_agent_that_cannot_reach_its_dealer_is_one_error_line() {
    let output = arena().args(["acpc-agent", "holdem", "--bot", "rr", "127.0.0.1", "1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot connect to the dealer at 127.0.0.1:1"), "{stderr}");
    let output = arena().args(["acpc-agent", "gomoku", "127.0.0.1", "1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("gomoku has no ACPC agent (only holdem has)"));
}

#[test]
fn the_acpc_preset_sets_the_table_and_a_wrong_preset_is_one_error() {
    let dir = TempDir::new().unwrap();
    let config =
        "game = \"holdem\"\ngames = 2\nbots = [\"always-call\", \"rr\"]\n[table]\npreset = \"acpc\"\nbig_blind = 200\n";
    let path = write(dir.path(), "preset.toml", config);
    let output = arena().args(["run", "--out"]).arg(dir.path().join("out")).arg(&path).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let resolved: toml::Table = std::fs::read_to_string(dir.path().join("out/config.toml")).unwrap().parse().unwrap();
    let table = resolved["table"].as_table().unwrap();
    // The preset's options, with the one given beside it winning; the preset itself is expanded away.
    assert_eq!(table["small_blind"].as_integer(), Some(50));
    assert_eq!(table["stack"].as_integer(), Some(200));
    assert_eq!(table["big_blind"].as_integer(), Some(200));
    assert!(!table.contains_key("preset"));
    let path = write(dir.path(), "wrong.toml", &config.replace("\"acpc\"", "\"acpc-3p\""));
    let output = arena().args(["run", "--out"]).arg(dir.path().join("wrong")).arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("wrong.toml:5") && stderr.contains("holdem has no table preset `acpc-3p` (known: acpc)"),
        "{stderr}"
    );
}

/// Ctrl-C, SIGTERM and `kill -9` of the host while ACPC agents play (two of them, on two
/// threads, one stalling mid-answer): no agent outlives it. (Ctrl-C and SIGTERM let the hands
/// under way finish: the stalling agent's by its 3-second limit.)
#[test]
fn a_host_stopped_by_any_signal_leaves_no_agent_behind() {
    if !python("the reference ACPC agent and test dealer") {
        return;
    }
    let dir = TempDir::new().unwrap();
    for (signal, code) in [(libc::SIGINT, Some(130)), (libc::SIGTERM, Some(143)), (libc::SIGKILL, None)] {
        let mark = mark(module_path!(), &format!("signal{signal}"));
        let stalling = agent(&["--stall", "half"], ", move_ms = 3000").replace("\"agent\"", "\"stalling\"");
        let config = format!(
            "game = \"holdem\"\ngames = 1000000\npaired = true\nbots = [{}, {stalling}]\n[table]\npreset = \"acpc\"\n",
            agent(&[], "")
        );
        let path = write(dir.path(), &format!("signal{signal}.toml"), &config);
        let mut child = arena()
            .args(["run", "--threads", "2", "--quiet", "--out"])
            .arg(dir.path().join(format!("signal{signal}")))
            .arg(&path)
            .current_dir(project(""))
            .env(MARK, &mark)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // The host and at least three agents (both seats of one worker, one of the other's).
        let until = std::time::Instant::now() + Duration::from_secs(20);
        while crate::common::marked(&format!("{MARK}={mark}")).len() < 4 && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: signalling our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        assert_eq!(child.wait().unwrap().code(), code, "signal {signal}");
        assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "signal {signal}: agents left behind");
    }
}

/// Without a command the kind waits on `port` for agents the user starts: one agent, started
/// once the run says where it listens, serves every hand of a one-thread run on its one
/// connection.
#[test]
fn agents_started_by_the_user_connect_to_the_port() {
    use std::io::BufRead;
    if !python("the reference ACPC agent and test dealer") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let mark = mark(module_path!(), "port");
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let config = format!(
        "game = \"holdem\"\ngames = 40\npaired = true\nbots = [{{ name = \"agent\", kind = \"acpc\", params = {{ port = {port} }} }}, \"rr\"]\n[table]\npreset = \"acpc\"\n"
    );
    let path = write(dir.path(), "port.toml", &config);
    let mut run = arena()
        .args(["run", "--threads", "1", "--quiet", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .env(MARK, &mark)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(run.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(line.trim_end(), format!("acpc: agents connect to 127.0.0.1 port {port}"));
    let mut agent = Command::new("python3")
        .arg(project("bots/examples/acpc_agent.py"))
        .args(["127.0.0.1", &port.to_string()])
        .env(MARK, &mark)
        .spawn()
        .unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(run.wait().unwrap().success(), "{rest}");
    let games = std::fs::read_to_string(dir.path().join("out/games.csv")).unwrap();
    let rows = statuses(&games, "agent");
    assert_eq!(rows.len(), 40);
    assert!(rows.iter().all(|s| s == "ok"), "{:?}", rows.iter().find(|s| *s != "ok"));
    // The run closed the connection: the agent read end of file and exited.
    assert!(agent.wait().unwrap().success());
}
