//! Bots that cannot run, through the `arena` binary: an outside bot whose program cannot be
//! started, exits at once or never answers its greeting, at the start of its first 3 games,
//! stops the run with exit code 5, one line naming the bot, the reason and its log, and the
//! log's last lines; quickly, at the same game on any thread count, with no forfeit of it in the
//! run's files, a run.json that says so, and a folder that `arena resume` finishes once the bot is
//! fixed. A bot that has played keeps forfeiting when it crashes later, and the run goes on. Each
//! kind of outside bot (external, gomocup, acpc, botzone) stops a run so.

#![cfg(target_os = "linux")]

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{arena, manifest, mark, statuses, survivors, write, MARK};
use tempfile::TempDir;

/// A test's folder and the mark its processes carry.
struct Case {
    dir: TempDir,
    mark: String,
}

impl Case {
    fn new(test: &str) -> Case {
        Case { dir: TempDir::new().unwrap(), mark: mark(module_path!(), test) }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `text` to an executable file `name` in the test's folder; returns its path as text.
    fn script(&self, name: &str, text: &str) -> String {
        let path = write(self.dir.path(), name, text);
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        path.display().to_string()
    }

    /// Runs `config` (written beside it) into folder `out` on `threads`; returns the output and
    /// how long the run took.
    fn run(&self, config: &str, out: &str, threads: usize) -> (Output, Duration) {
        let config = write(self.dir.path(), &format!("{out}.toml"), config);
        let began = Instant::now();
        let output = arena()
            .args(["run", "--threads", &threads.to_string(), "--records", "moves", "--out"])
            .arg(self.path(out))
            .arg(&config)
            .env(MARK, &self.mark)
            .output()
            .unwrap();
        (output, began.elapsed())
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).unwrap()
    }
}

/// An `external` bot named `name` running `command` (TOML strings), with more parameters.
fn external(name: &str, command: &[&str], params: &str) -> String {
    let command: Vec<String> = command.iter().map(|a| format!("{a:?}")).collect();
    format!("{{ name = \"{name}\", kind = \"external\", params = {{ command = [{}]{params} }} }}", command.join(", "))
}

/// Checks a run that a bot that cannot run stopped: exit code 5; stdout the header alone;
/// stderr one error line (`error: bot NAME could not run: ...`, holding `reason`, the log's path)
/// and the log's last lines indented (`log` among them, when given); no process left; run.json
/// `failed` with the error line, and games.csv without any game of the bot. Returns the error
/// line.
fn stopped(case: &Case, output: &Output, out: &str, bot: &str, reason: &str, log: Option<&str>) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(5), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "only the header: {stdout}");
    let mut lines = stderr.lines();
    let error = lines.next().unwrap_or_default().to_string();
    assert!(error.starts_with(&format!("error: bot {bot} could not run: ")), "{stderr}");
    assert!(error.contains(reason), "{error}\nexpected {reason}");
    let log_path = case.path(out).join("logs").join(format!("{bot}.log"));
    assert!(error.ends_with(&format!("its log: {})", log_path.display())), "{error}");
    let tail: Vec<&str> = lines.collect();
    assert!(tail.len() <= 5 && tail.iter().all(|l| l.starts_with("  [")), "{stderr}");
    if let Some(log) = log {
        assert!(!tail.is_empty() && tail.iter().all(|l| l.ends_with(log)), "{stderr}\nexpected the log's `{log}`");
    }
    assert!(survivors(&case.mark, Duration::from_secs(3)).is_empty(), "processes left behind");
    let run = manifest(&case.path(out));
    assert_eq!(run["status"], "failed", "{run}");
    assert_eq!(run["error"].as_str(), error.strip_prefix("error: "), "{run}");
    let games = case.read(&format!("{out}/games.csv"));
    assert!(statuses(&games, bot).is_empty(), "a forfeit of the bot was kept: {games}");
    assert_eq!(run["games_played"].as_u64(), Some(games.lines().count().saturating_sub(1) as u64 / 2));
    error
}

/// The three ways an `external` bot cannot run, each at once on one thread and on two: a command
/// that cannot start (a script whose interpreter does not exist: execve fails), a program that
/// exits at once, one that never answers `hello`. Each stops a 1000-game run in well under a
/// second a game, before any game of the bot is kept.
#[test]
fn an_external_bot_that_cannot_run_stops_the_run_with_its_reason_and_its_log() {
    let case = Case::new("external");
    let missing = case.script("missing-interpreter.sh", "#!/no/such/interpreter\necho never\n");
    let exits = case.script("exits.sh", "#!/bin/sh\necho \"cannot open weights.bin\" >&2\nexit 2\n");
    let silent = case.script("silent.sh", "#!/bin/sh\necho \"loading for ever\" >&2\nexec sleep 1000\n");
    let cases = [
        ("cannot-start", external("mine", &[&missing], ""), format!("cannot start `{missing}`: No such file or directory (os error 2), at the start of 3 games, with no answer in any (its log: "), None),
        (
            "exits",
            external("mine", &[&exits], ""),
            "exited with code 2 before answering hello, at the start of 3 games, with no answer in any (command: ".to_string(),
            Some("cannot open weights.bin"),
        ),
        (
            "silent",
            external("mine", &["sh", &silent], ", start_ms = 300"),
            "stall at start: no answer to hello in 300 ms of its own time (waited ".to_string(),
            Some("loading for ever"),
        ),
    ];
    for (name, bot, reason, log) in &cases {
        let mut lines = Vec::new();
        for threads in [1, 2] {
            let config = format!("game = \"holdem\"\ngames = 1000\nbots = [{bot}, \"always-call\"]\n");
            let out = format!("{name}-{threads}");
            let (output, took) = case.run(&config, &out, threads);
            let error = stopped(&case, &output, &out, "mine", reason, *log);
            // 3 starts of at most 300 ms each (and what a second thread started meanwhile).
            assert!(took < Duration::from_secs(5), "{name} on {threads} threads: stopped after {took:?}");
            assert_eq!(manifest(&case.path(&out))["games_played"], 0, "{name}");
            lines.push(error.split(" (waited").next().unwrap().replace(&out, "OUT"));
        }
        assert_eq!(lines[0], lines[1], "{name}: not the same on 1 and 2 threads");
    }
}

/// A bot that has played keeps today's rule: its later crashes, even at its start, are forfeits,
/// and the run plays to its end (exit 0). The bot here plays 3 games, each in a fresh process,
/// then exits before `hello` in every later one.
#[test]
fn a_bot_that_crashes_after_playing_forfeits_and_the_run_goes_on() {
    let case = Case::new("later");
    let exe = env!("CARGO_BIN_EXE_arena");
    let count = case.path("starts");
    let script = case.script(
        "tires.sh",
        &format!(
            "#!/bin/sh\nn=$(cat {count:?} 2>/dev/null || echo 0)\necho $((n + 1)) > {count:?}\n\
             if [ \"$n\" -ge 3 ]; then echo \"tired after $n games\" >&2; exit 4; fi\nexec {exe:?} protocol-bot\n",
        ),
    );
    let config = format!(
        "game = \"holdem\"\ngames = 10\nbots = [{}, \"always-call\"]\n",
        external("tires", &[&script], ", restart = \"game\"")
    );
    let (output, _) = case.run(&config, "out", 1);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&case.read("out/games.csv"), "tires");
    assert_eq!(rows.len(), 10);
    assert!(rows[..3].iter().all(|s| s == "ok"), "{rows:?}");
    assert!(rows[3..].iter().all(|s| s == "forfeit: exited with code 4 before answering hello"), "{rows:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("forfeits: tires 7 (crash 7)"), "{stdout}");
    assert_eq!(manifest(&case.path("out"))["status"], "complete");
    assert!(survivors(&case.mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

/// The bot's first games come after a whole pairing of other bots' (a round robin): the run
/// stops at the same game on 1 and 3 threads, keeps the games before the bot's and none of the
/// bot's (the same bytes), and `replay --check` holds them to the rules. Once the bot is fixed,
/// `arena resume` (from another working folder) plays the rest, and the run comes out byte for
/// byte as a run with the fixed bot from the start.
#[test]
fn a_stopped_run_keeps_the_games_before_and_resumes_once_the_bot_is_fixed() {
    let case = Case::new("resume");
    let exe = env!("CARGO_BIN_EXE_arena");
    let script = case.script("mine.sh", "#!/bin/sh\necho 'ModuleNotFoundError: numpy' >&2\nexit 1\n");
    let config = format!(
        "game = \"holdem\"\ngames = 20\nseats = 2\nschedule = \"round-robin\"\nbots = [\"always-call\", \"rr\", {}]\n",
        external("mine", &["sh", &script], "")
    );
    let mut kept = Vec::new();
    for threads in [1, 3] {
        let out = format!("t{threads}");
        let (output, _) = case.run(&config, &out, threads);
        stopped(&case, &output, &out, "mine", "exited with code 1 before answering hello", Some("numpy"));
        assert_eq!(manifest(&case.path(&out))["games_played"], 20, "the first pairing's games are kept");
        kept.push((case.read(&format!("{out}/games.csv")), case.read(&format!("{out}/records.jsonl"))));
        let check = arena().args(["replay", "--check"]).arg(case.path(&out)).output().unwrap();
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    }
    assert!(kept[0] == kept[1], "what was kept differs between 1 and 3 threads");

    // Fixed: the same command now runs the reference bot. Resumed from another folder.
    case.script("mine.sh", &format!("#!/bin/sh\nexec {exe:?} protocol-bot\n"));
    let elsewhere = case.path("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let resumed = arena()
        .args(["resume", "--threads", "2"])
        .arg(case.path("t1"))
        .current_dir(&elsewhere)
        .env(MARK, &case.mark)
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(manifest(&case.path("t1"))["status"], "complete");
    assert!(manifest(&case.path("t1")).get("error").is_none(), "a resumed run forgets the old error");
    let (fresh, _) = case.run(&config, "fresh", 2);
    assert!(fresh.status.success(), "{}", String::from_utf8_lossy(&fresh.stderr));
    for file in ["games.csv", "records.jsonl", "summary.csv", "match.csv", "ratings.csv"] {
        assert!(case.read(&format!("t1/{file}")) == case.read(&format!("fresh/{file}")), "{file} differs");
    }
    assert!(survivors(&case.mark, Duration::from_secs(3)).is_empty(), "processes left behind");
}

/// Every kind of outside bot stops a run so: a Gomocup engine that exits before START's answer,
/// an ACPC agent that exits before it connects, a Botzone bot that exits at its first turn.
#[test]
fn every_kind_of_outside_bot_that_cannot_run_stops_the_run() {
    let case = Case::new("kinds");
    let exits = case.script("exits.sh", "#!/bin/sh\necho \"missing library libfoo.so\" >&2\nexit 7\n");
    let kind = |kind: &str, params: &str| {
        format!("{{ name = \"mine\", kind = \"{kind}\", params = {{ command = [\"sh\", {exits:?}]{params} }} }}")
    };
    let cases = [
        (
            "gomocup",
            format!("game = \"gomoku\"\ngames = 50\nbots = [{}, \"random\"]\n[table]\nsize = 9\n", kind("gomocup", "")),
            "exited with code 7 before answering START",
        ),
        (
            "acpc",
            format!("game = \"holdem\"\ngames = 50\nbots = [{}, \"always-call\"]\n[table]\npreset = \"acpc\"\n", kind("acpc", "")),
            "the agent exited with code 7 before connecting",
        ),
        (
            "botzone",
            format!(
                "game = \"mahjong\"\ngames = 50\nseats = 4\nbots = [{}, \"greedy\", \"greedy\", \"greedy\"]\n[table]\npreset = \"botzone\"\n",
                kind("botzone", "")
            ),
            "exited with code 7",
        ),
    ];
    for (name, config, reason) in &cases {
        let (output, took) = case.run(config, name, 2);
        let error = stopped(&case, &output, name, "mine", reason, Some("missing library libfoo.so"));
        assert!(error.contains("at the start of 3 games, with no answer in any"), "{error}");
        assert!(took < Duration::from_secs(5), "{name}: stopped after {took:?}");
        assert_eq!(manifest(&case.path(name))["games_played"], 0, "{name}");
    }
}

/// A bot whose only games all fail at its start stops the run too, at its end: fewer than 3.
#[test]
fn a_bot_with_fewer_games_than_three_that_all_fail_stops_the_run() {
    let case = Case::new("fewer");
    let config = format!(
        "game = \"holdem\"\ngames = 2\nbots = [{}, \"always-call\"]\n",
        external("mine", &["sh", "-c", "echo gone >&2; exit 3"], "")
    );
    let (output, _) = case.run(&config, "out", 2);
    let error = stopped(&case, &output, "out", "mine", "exited with code 3 before answering hello", Some("gone"));
    assert!(error.contains("at the start of 2 games (the run had no more for it), with no answer in any"), "{error}");
}
