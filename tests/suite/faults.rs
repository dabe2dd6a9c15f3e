//! The faults an audit found (issue 46), each on the real binary: a Botzone history that cannot
//! follow, a peer's endless line, a gate history cut mid-line or past 1 MiB, a broken
//! records.jsonl.gz, a Botzone bot whose child holds its output, the page a resume leaves, a run
//! checked while it is written, `acpc-agent`'s checks before it connects, and a bot's control
//! characters in games.csv.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common::{arena, python, python_bot, write};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// One line on stderr, `error: ...`, and exit 2.
fn refused(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{err}");
    err
}

/// Waits up to `limit` for `child` to end; kills it (and says so) if it does not.
fn wait_for(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn a_botzone_history_that_cannot_follow_is_refused_in_one_line_by_every_bot() {
    // Seat 1 draws J1 and answers; the judge then sends it a second draw without the discard it
    // answered: a 15-tile hand.
    let first = serde_json::json!({
        "requests": ["0 1 0", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4", "3 0 DRAW", "3 0 PLAY T1", "2 J1"],
        "responses": ["PASS", "PASS", "PASS", "PASS"],
    });
    for bot in ["pruned", "greedy", "random", "expectimax"] {
        let mut child = arena()
            .args(["brain", "mahjong", "--botzone", "--bot", bot])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        writeln!(input, "{first}").unwrap();
        writeln!(input, "2 J2").unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        let err = refused(&out);
        assert!(err.contains("`2 J2` cannot follow") && err.contains("player 1 holds 14 tiles"), "{bot}: {err}");
        // The first turn was answered (a discard of the 14-tile hand), the second never.
        let answers = String::from_utf8_lossy(&out.stdout);
        assert_eq!(answers.matches("\"response\"").count(), 1, "{bot}: {answers}");
        assert!(answers.contains("PLAY"), "{bot}: {answers}");
    }
    // A history inconsistent from its first turn is refused before any answer.
    let mut child = arena()
        .args(["brain", "mahjong", "--botzone", "--bot", "pruned"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{\"requests\":[\"0 1 0\",\"2 J1\"],\"responses\":[\"PASS\"]}\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = refused(&out);
    assert!(err.contains("`2 J1` cannot follow") && out.stdout.is_empty(), "{err}");
}

/// A dealer on a free port that sends the agent `what` once it has connected, then holds the
/// connection open.
fn hostile_dealer(what: Vec<u8>) -> (u16, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let dealer = std::thread::spawn(move || {
        let Ok((mut socket, _)) = listener.accept() else { return };
        let _ = socket.write_all(&what);
        // Held open until the agent gives up (or the test's limit).
        let mut sink = [0u8; 4096];
        let until = Instant::now() + Duration::from_secs(15);
        socket.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
        while Instant::now() < until {
            match socket.read(&mut sink) {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => return,
            }
        }
    });
    (port, dealer)
}

#[test]
fn acpc_agent_refuses_a_dealer_line_over_a_mebibyte_as_soon_as_it_is_passed() {
    // 8 MiB without a newline: the agent stops at the first MiB past, whatever follows.
    let (port, dealer) = hostile_dealer(vec![b'M'; 8 << 20]);
    let mut child = arena()
        .args(["acpc-agent", "holdem", "--bot", "rr", "127.0.0.1", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_for(&mut child, Duration::from_secs(10)).expect("the agent still reads the endless line");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: ") && err.contains("a line over 1 MiB"), "{err}");
    dealer.join().unwrap();
}

#[test]
fn acpc_agent_checks_its_bot_parameters_and_table_before_it_connects() {
    // Nothing listens on the port: a check made first is what is said, not the connection.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    for (args, says) in [
        (vec!["--bot", "nosuch"], "nosuch"),
        (vec!["--param", "trials=0"], "trials"),
        (vec!["--table", "stack=-5"], "stack"),
        (vec!["--table", "nosuch=1"], "nosuch"),
    ] {
        let out = arena().arg("acpc-agent").arg("holdem").args(&args).args(["127.0.0.1", &port]).output().unwrap();
        let err = refused(&out);
        assert!(err.contains(says) && !err.contains("cannot connect"), "{args:?}: {err}");
    }
}

const HEADER: &str = "commit,date,expectation,criterion,model,bot,seed,games,estimate,lo,hi,bound,verdict\n";

fn history_row(commit: usize) -> String {
    format!("c{commit:06},2026-01-01T00:00:00Z,adjacent vs random,win_rate_lo,win rate,random-adjacent,3,40,0.6,0.5,0.7,0.3,pass\n")
}

#[test]
fn a_gate_history_append_ends_a_cut_line_first() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    write(d, "match.toml", crate::common::GATE_MATCH);
    write(
        d,
        "gate.toml",
        "[[expect]]\nname = \"adjacent vs random\"\nconfig = \"match.toml\"\ngames = 40\nseed = 3\nwin_rate_lo = 0.3\n",
    );
    // The last row lost its newline (an editor, or an append that crashed after the row).
    let before = format!("{HEADER}{}", history_row(1).trim_end());
    write(d, "history.csv", &before);
    let out = arena()
        .current_dir(d)
        .args(["gate", "gate.toml", "--out", "gate-out", "--history", "history.csv", "--commit", "c000002"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(d.join("history.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[1], history_row(1).trim_end());
    assert!(lines[2].starts_with("c000002,"), "{text}");
    let out = arena().current_dir(d).args(["report", "--history", "history.csv", "--out", "h.html"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_gate_history_over_a_mebibyte_is_read_streamed() {
    let dir = TempDir::new().unwrap();
    let mut text = HEADER.to_string();
    let mut commit = 0;
    while text.len() <= 3 << 20 {
        commit += 1;
        text.push_str(&history_row(commit));
    }
    write(dir.path(), "history.csv", &text);
    let out = arena()
        .current_dir(dir.path())
        .args(["report", "--history", "history.csv", "--out", "h.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.path().join("h.html")).unwrap();
    assert!(page.contains(&format!("c{commit:06}")), "the last commit is not drawn");
}

/// A run of 12 stud games keeping its records compressed, in `dir/name`.
fn gz_run(dir: &Path, name: &str) -> std::path::PathBuf {
    let run = dir.join(name);
    let out = arena()
        .args(["run", "--game", "stud", "--bot", "expert", "--bot", "always-call", "--games", "12"])
        .args(["--records", "moves-gz", "--quiet", "--out"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    run
}

fn check(run: &Path) -> Output {
    arena().arg("replay").arg(run).args(["--check", "--progress-every", "0"]).output().unwrap()
}

#[test]
fn a_broken_records_gz_is_named_by_replay_check_and_repaired_by_resume() {
    let dir = TempDir::new().unwrap();
    let whole = gz_run(dir.path(), "whole");
    let gz = std::fs::read(whole.join("records.jsonl.gz")).unwrap();
    let games = std::fs::read(whole.join("games.csv.gz")).unwrap();
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("trailer", gz[..gz.len() - 8].to_vec(), "breaks after line 12 (pairing 0 game 11)"),
        ("truncated", gz[..gz.len() / 2].to_vec(), "breaks after line"),
        ("empty", Vec::new(), "breaks before its first game: the file is empty"),
        (
            "not-gzip",
            b"{\"v\":1,\"pairing\":0,\"game\":0,\"events\":[]}\n".to_vec(),
            "breaks before its first game: gzip: invalid gzip header",
        ),
    ];
    for (name, bytes, says) in cases {
        let run = gz_run(dir.path(), name);
        std::fs::write(run.join("records.jsonl.gz"), &bytes).unwrap();
        let out = check(&run);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}{}", stderr(&out));
        assert!(text.contains("records.jsonl.gz") && text.contains(says), "{name}: {text}");
        // The run said complete: resume repairs it instead of calling it so.
        let out = arena().arg("resume").arg(&run).output().unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("the games after the break are played again"), "{name}: {said}");
        let out = check(&run);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(std::fs::read(run.join("records.jsonl.gz")).unwrap() == gz, "{name}: the records are not the run's");
        assert!(std::fs::read(run.join("games.csv.gz")).unwrap() == games, "{name}: games.csv.gz changed");
    }
}

#[test]
fn a_botzone_answer_counts_when_it_comes_though_a_child_holds_the_output() {
    if !python("a_botzone_answer_counts_when_it_comes_though_a_child_holds_the_output") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let bot = python_bot("bots/examples/botzone_mahjong.py").join(" ");
    // The bot answers and exits; a child it left behind holds its output for 20 s.
    let command = format!("{bot} --io json; sleep 20 &");
    let config = format!(
        "game = \"mahjong\"\ngames = 1\nseed = 5\nseats = 4\n\
         bots = [{{ name = \"ref\", kind = \"botzone\", params = {{ command = [\"sh\", \"-c\", {command:?}], io = \"json\", turn_ms = 2000 }} }}, \"pruned\", \"greedy\", \"greedy\"]\n\
         [table]\npreset = \"botzone\"\nhands = 1\n"
    );
    let path = write(dir.path(), "c.toml", &config);
    let out = arena().arg("run").arg(&path).arg("--quiet").arg("--out").arg(dir.path().join("run")).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Before: `forfeit: timeout: no answer to `0 0 0` (turn 1) in 2000 ms`.
    let games = std::fs::read_to_string(dir.path().join("run/games.csv")).unwrap();
    assert!(!games.contains("timeout") && !games.contains("forfeit"), "{games}");
    assert_eq!(crate::common::statuses(&games, "ref"), ["ok"], "{games}");
}

#[test]
fn resume_without_report_after_a_kill_leaves_a_final_page() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("run");
    let mut child = arena()
        // Long enough that a live page is written before the end on a fast, idle machine.
        .args(["run", "--game", "stud", "--bot", "expert", "--bot", "always-call", "--games", "100000"])
        .args(["--report", "--report-every", "0.05", "--quiet", "--out"])
        .arg(&dir)
        .spawn()
        .unwrap();
    let page = dir.join("report.html");
    let until = Instant::now() + Duration::from_secs(60);
    while !std::fs::read_to_string(&page).is_ok_and(|p| p.contains("http-equiv=\"refresh\"")) {
        assert!(Instant::now() < until && child.try_wait().unwrap().is_none(), "no live page before the run ended");
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY-free kill -9 of our own child.
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(std::fs::read_to_string(&page).unwrap().contains("http-equiv=\"refresh\""));
    let out = arena().arg("resume").arg(&dir).arg("--quiet").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(!text.contains("http-equiv=\"refresh\""), "the page left reloads itself");
    let again = tmp.path().join("again.html");
    let out = arena().arg("report").arg(&dir).arg("--out").arg(&again).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(&page).unwrap() == std::fs::read(&again).unwrap(), "not arena report's page");
}

#[test]
fn replay_check_on_a_run_being_written_says_it_is_running() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("run");
    let mut child = arena()
        .args(["run", "--game", "stud", "--bot", "expert", "--bot", "always-call", "--games", "100000000"])
        .args(["--records", "moves", "--quiet", "--threads", "1", "--out"])
        .arg(&dir)
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while !std::fs::metadata(dir.join("records.jsonl")).is_ok_and(|m| m.len() > 0) {
        assert!(Instant::now() < until, "the run wrote no record");
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = check(&dir);
    child.kill().unwrap();
    child.wait().unwrap();
    let err = refused(&out);
    assert!(err.contains("is still being written") && err.contains(&format!("process {} ", child.id())), "{err}");
}

#[test]
fn a_bots_control_characters_are_escaped_in_games_csv() {
    let dir = TempDir::new().unwrap();
    // Answers every line with a move that has a NUL, an escape and a bell in it.
    let script =
        write(dir.path(), "nul.sh", "#!/bin/sh\nwhile read line; do printf 'fold\\000\\033[31m\\007\\n'; done\n");
    let config = format!(
        "game = \"stud\"\ngames = 2\nseed = 1\nbots = [{{ name = \"nul\", kind = \"external\", params = {{ command = [\"sh\", {:?}] }} }}, \"always-call\"]\n",
        script.display().to_string()
    );
    let path = write(dir.path(), "c.toml", &config);
    let out = arena().arg("run").arg(&path).arg("--quiet").arg("--out").arg(dir.path().join("run")).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let games = std::fs::read(dir.path().join("run/games.csv")).unwrap();
    assert!(games.iter().all(|&b| b == b'\n' || b >= 0x20), "{}", String::from_utf8_lossy(&games));
    let text = String::from_utf8_lossy(&games);
    assert!(text.contains("\\0") && text.contains("\\u{1b}"), "{text}");
}

/// A run killed after its last game but before its final page: `resume` finds nothing to play
/// and still writes the page final (it was left reloading itself).
#[test]
fn resume_of_a_complete_run_with_a_live_page_writes_it_final() {
    let tmp = TempDir::new().unwrap();
    let dir = tmp.path().join("run");
    let out = arena()
        .args([
            "run",
            "--game",
            "stud",
            "--bot",
            "expert",
            "--bot",
            "always-call",
            "--games",
            "40",
            "--report",
            "--quiet",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let page = dir.join("report.html");
    let final_page = std::fs::read_to_string(&page).unwrap();
    // The live page a kill at that moment leaves: the same page, reloading itself.
    let live = final_page.replacen("<head>", "<head><meta http-equiv=\"refresh\" content=\"1\">", 1);
    assert_ne!(live, final_page, "the page has a head to put the reload in");
    std::fs::write(&page, &live).unwrap();
    let out = arena().arg("resume").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing to resume"));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), final_page, "the page left reloads itself");
}
