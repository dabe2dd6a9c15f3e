//! Bots outside the process, end to end through the `arena` binary: faults become forfeits with
//! the right reason and the run goes on; no child process outlives a run, however it ends;
//! results with external bots are byte-identical on any thread count; the Python examples play.
//!
//! Every test marks the processes of its run with an environment variable the bots inherit, and
//! looks for survivors through /proc (Linux).

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, mark, marked, statuses, survivors, write, MARK};
use tempfile::TempDir;

/// A bot for hold'em in sh that answers `call`, or misbehaves as `$1` says, on every `act`.
const SH_BOT: &str = r#"
mode=$1
echo "started" >&2
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      echo '{"type":"ready"}'
      if [ "$mode" = extra-ready ]; then echo '{"type":"ready"}'; fi ;;
    *'"type":"act"'*)
      case "$mode" in
        hang) sleep 1000 ;;
        slow) sleep 0.5; echo '{"action":"call"}' ;;
        exit) exit 3 ;;
        garbage) echo 'this is not json' ;;
        illegal) echo '{"action":"raise 1"}' ;;
        twice) printf '{"action":"call"}\n{"action":"call"}\n' ;;
        chow-east) echo '{"action":"Chow e"}' ;;
        flood) head -c 2000000 /dev/zero | tr '\0' x; sleep 1000 ;;
        dawdle) sleep 0.02; echo '{"action":"call"}' ;;
        huge) printf '{"action":"'; head -c 1000000 /dev/zero | tr '\0' x; printf '"}\n' ;;
        *) echo '{"action":"call"}' ;;
      esac ;;
    *'"type":"game_over"'*)
      if [ "$mode" = measure ]; then echo "game_over of ${#line} bytes" >&2; fi ;;
    *'"type":"quit"'*) exit 0 ;;
  esac
done
"#;

/// A run of the `arena` binary whose processes (and their children) carry `mark` in their
/// environment.
struct Run {
    dir: TempDir,
    mark: String,
}

impl Run {
    fn new(test: &str) -> Run {
        let dir = TempDir::new().unwrap();
        write(dir.path(), "bot.sh", SH_BOT);
        Run { dir, mark: mark(module_path!(), test) }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// An inline external bot running `bot.sh mode`, with `extra` parameters.
    fn sh_bot(&self, name: &str, mode: &str, extra: &str) -> String {
        format!(
            "{{ name = \"{name}\", kind = \"external\", params = {{ command = [\"sh\", {:?}, \"{mode}\"]{extra} }} }}",
            self.path("bot.sh").display().to_string()
        )
    }

    fn command(&self, config: &str, out: &str, threads: usize) -> Command {
        let config = write(self.dir.path(), &format!("{out}.toml"), config);
        let mut cmd = arena();
        cmd.args(["run", "--threads", &threads.to_string(), "--out"])
            .arg(self.path(out))
            .arg(&config)
            .env(MARK, &self.mark);
        cmd
    }

    fn run(&self, config: &str, out: &str, threads: usize) -> Output {
        let output = self.command(config, out, threads).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        output
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.path(file)).unwrap()
    }

    /// Processes of this run still alive (zombies do not count: they hold nothing), after
    /// giving them `grace` to go.
    fn survivors(&self, grace: Duration) -> Vec<u32> {
        survivors(&self.mark, grace)
    }
}

/// Whether `text` matches `pattern`, in which `*` stands for any text.
fn glob(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(rest) = text.strip_prefix(parts.next().unwrap_or("")) else { return false };
    let mut rest = rest;
    let mut parts = parts.peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Plays 6 hands of `mode` against always-call and checks every one of its hands is forfeited
/// for `reason` (`*` standing for any text), with `kind` on the terminal.
fn forfeits(mode: &str, reason: &str, kind: &str) {
    let run = Run::new(mode);
    let bot = run.sh_bot("bad", mode, ", move_ms = 300, start_ms = 500");
    let config = format!("game = \"holdem\"\ngames = 6\npaired = true\nbots = [{bot}, \"always-call\"]\n");
    let output = run.run(&config, "out", 2);
    let rows = statuses(&run.read("out/games.csv"), "bad");
    assert_eq!(rows.len(), 6);
    for status in &rows {
        assert!(glob(&format!("forfeit: {reason}"), status), "{mode}: {status}");
    }
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(&format!("forfeits: bad 6 ({kind} 6)")), "{stdout}");
    assert!(run.survivors(Duration::from_secs(3)).is_empty(), "{mode}: processes left behind");
}

/// The milliseconds a timeout's reason says the host waited (`... (waited 301.2 ms)`).
fn waited(status: &str) -> f64 {
    let ms = status.split_once("(waited ").and_then(|(_, rest)| rest.strip_suffix(" ms)"));
    ms.unwrap_or_else(|| panic!("{status}")).parse().unwrap()
}

/// A timeout says how long the host waited, not only the limit.
#[test]
fn a_bot_that_hangs_forfeits_on_time() {
    forfeits("hang", "timeout 300 ms: no answer (waited *", "time");
    let run = Run::new("hang-waited");
    let bot = run.sh_bot("bad", "hang", ", move_ms = 300");
    run.run(&format!("game = \"holdem\"\ngames = 2\nbots = [{bot}, \"always-call\"]\n"), "out", 2);
    for status in statuses(&run.read("out/games.csv"), "bad") {
        assert!((300.0..3000.0).contains(&waited(&status)), "{status}");
    }
}

#[test]
fn a_bot_that_answers_too_late_forfeits() {
    forfeits("slow", "timeout 300 ms: no answer (waited *", "time");
}

#[test]
fn a_bot_that_exits_mid_game_forfeits() {
    forfeits("exit", "exited with code 3", "crash");
}

#[test]
fn a_bot_that_prints_garbage_forfeits() {
    forfeits("garbage", "bad answer to act: *", "protocol");
}

/// An illegal action is quoted as the bot wrote it, with the game's reason and the legal list.
#[test]
fn a_bot_that_cheats_forfeits() {
    forfeits("illegal", "illegal action `raise 1`: raise to 1 is outside *; legal: *, raise *", "illegal");
}

/// A mahjong action the rules refuse is named in the notation the bot sent (it was named in
/// Rust's debug form, `Chow(27) is not legal in Turn { seat: 3, .. }`), with the
/// legal actions. `Chow e` also shows that case does not matter in a tile: it reads as `chow E`.
#[test]
fn an_illegal_mahjong_action_is_named_as_the_bot_wrote_it() {
    let run = Run::new("mahjong-illegal");
    let bot = run.sh_bot("bad", "chow-east", "");
    run.run(&format!("game = \"mahjong\"\ngames = 2\nseats = 4\nbots = [{bot}, \"random\"]\n"), "out", 2);
    // The seat that forfeited, not the bot's other seats at the table.
    let rows: Vec<String> =
        statuses(&run.read("out/games.csv"), "bad").into_iter().filter(|s| s.starts_with("forfeit: ")).collect();
    assert!(!rows.is_empty());
    for status in &rows {
        let reason = status.strip_prefix("forfeit: illegal action `Chow e`: ").unwrap_or_else(|| panic!("{status}"));
        assert!(reason.contains("; legal: "), "{status}");
        assert!(!reason.contains("Chow(") && !reason.contains('{'), "{status}");
    }
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// A line written when nothing was asked is named as such, not taken for the next answer: an
/// extra `ready` after `hello` (once read as an answer to act, `missing field action`, and every
/// game forfeited), or a second answer to one `act` (once read as the answer to the next).
#[test]
fn a_line_nobody_asked_for_forfeits_as_unsolicited() {
    forfeits("extra-ready", "unsolicited line `{\"type\":\"ready\"}` written before act*", "protocol");
    forfeits("twice", "unsolicited line `{\"action\":\"call\"}` written before act", "protocol");
}

#[test]
fn a_bot_that_floods_its_output_forfeits() {
    forfeits("flood", "a line over 1 MiB", "protocol");
}

/// A bot that is gone before the host writes to it never costs the host its life: the host keeps
/// SIGPIPE ignored, so a write to a pipe nobody reads fails (with the signal's default action it
/// ended the host, exit 141, before games.csv had a row). Gone before it answers `hello`, it
/// cannot run, and the run stops with exit code 5 and the reason (tests/suite/cannot_run.rs
/// holds the rest of that rule: a bot that never says hello, one that cannot start); gone after
/// `hello`, it forfeits every game and the run goes on.
#[test]
fn a_bot_that_exits_or_closes_its_input_at_once_never_ends_the_host() {
    let run = Run::new("gone");
    let ready = r#"{\"type\":\"ready\"}"#;
    for (name, command, code, reason) in [
        // Gone before `hello`: the write or the read that follows finds it out.
        ("exits", r#"["true"]"#.to_string(), 5, "exited with code 0 before answering hello"),
        // Its input closed at once: `hello` fails, or waits for an answer that never comes.
        ("closes", r#"["sh", "-c", "exec 0<&-; sleep 2"]"#.to_string(), 5, "*"),
        // It answers `hello` with its input already closed: the first `act` cannot be written.
        (
            "closes-later",
            format!(r#"["sh", "-c", "read l; exec 0<&-; echo '{ready}'; sleep 2"]"#),
            0,
            "closed its input",
        ),
    ] {
        let bot =
            format!("{{ name = \"{name}\", kind = \"external\", params = {{ command = {command}, start_ms = 500 }} }}");
        let config = format!("game = \"holdem\"\ngames = 6\nbots = [{bot}, \"random\"]\n");
        let output = run.command(&config, name, 2).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{name}: {:?} {stderr}", output.status);
        let matches = |text: &str| match reason.strip_suffix('*') {
            Some(prefix) => text.starts_with(prefix),
            None => text == reason,
        };
        if code == 5 {
            let error = stderr.lines().next().unwrap_or_default();
            let why =
                error.strip_prefix(&format!("error: bot {name} could not run: ")).unwrap_or_else(|| panic!("{stderr}"));
            assert!(
                matches(why.split(", at the start of 3 games, with no answer in any").next().unwrap()),
                "{name}: {error}"
            );
            continue;
        }
        let rows = statuses(&run.read(&format!("{name}/games.csv")), name);
        assert_eq!(rows.len(), 6, "{name}");
        for status in &rows {
            assert!(matches(status.strip_prefix("forfeit: ").unwrap_or(status)), "{name}: {status}");
        }
        assert!(run.read(&format!("{name}/summary.csv")).contains(&format!("\n{name},6,")), "{name}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(stdout.contains(&format!("forfeits: {name} 6")), "{name}: {stdout}");
    }
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// A bot that answers every move with a 1 MB illegal action costs a short reason a game, not a
/// megabyte: in games.csv (40 games made 40 MB of it) and in the `game_over` the other bot at
/// the table is sent.
#[test]
fn a_huge_illegal_action_is_cut_short_in_games_csv_and_in_game_over() {
    let run = Run::new("huge");
    let (huge, other) = (run.sh_bot("huge", "huge", ""), run.sh_bot("other", "measure", ""));
    run.run(&format!("game = \"holdem\"\ngames = 40\nbots = [{huge}, {other}]\n"), "out", 2);
    let games = run.read("out/games.csv");
    assert!(games.len() < 400_000, "games.csv: {} bytes", games.len());
    let rows = statuses(&games, "huge");
    assert_eq!(rows.len(), 40);
    for status in &rows {
        let reason = status.strip_prefix("forfeit: illegal action: `xxxx").unwrap_or_else(|| panic!("{status}"));
        assert!(reason.ends_with("x… (1000071 bytes)"), "{status}");
        assert_eq!(status.chars().count(), "forfeit: ".len() + 200, "{status}");
    }
    // What the other bot heard of each game's end (it writes the length to its log).
    let log = run.read("out/logs/other.log");
    let heard: Vec<usize> =
        log.lines().filter_map(|l| l.split_once("] game_over of ")?.1.strip_suffix(" bytes")?.parse().ok()).collect();
    assert!(heard.len() >= 20, "{log}");
    assert!(heard.iter().all(|&n| n < 1000), "game_over lines of {heard:?} bytes");
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// Bots whose children leave their process group and keep their stderr (`setsid`, or a daemon's
/// double fork): such children once outlived the run, and the thread copying a bot's stderr
/// waited for them with a descriptor open, until the host ran out of descriptors and every later
/// start failed (`forfeit: cannot start`, after 114 games with 128 descriptors). Now the host,
/// a child subreaper, ends them as bots end, and a drain stops soon after its bot.
#[test]
fn escaped_processes_neither_leak_nor_outlive_the_run() {
    let run = Run::new("escape");
    let script = run.path("bot.sh").display().to_string();
    let bot = |name: &str, escape: &str| {
        let command = format!("{escape} exec sh {script} call");
        format!("{{ name = \"{name}\", kind = \"external\", params = {{ command = [\"sh\", \"-c\", {command:?}], restart = \"game\" }} }}")
    };
    let (setsid, daemon) = (bot("setsid", "setsid sleep 300 &"), bot("daemon", "(setsid sleep 300 &);"));
    let config =
        write(run.dir.path(), "escape.toml", &format!("game = \"holdem\"\ngames = 300\nbots = [{setsid}, {daemon}]\n"));
    // The host gets 128 descriptors; every bot process cost one for good before.
    let output = Command::new("sh")
        .args([
            "-c",
            "ulimit -n 128 && exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_arena"),
            "run",
            "--threads",
            "2",
            "--out",
        ])
        .arg(run.path("out"))
        .arg(&config)
        .env(MARK, &run.mark)
        .output()
        .unwrap();
    let survivors = run.survivors(Duration::from_secs(3));
    for &pid in &survivors {
        // SAFETY: killing a leftover of this test (it carries the test's mark).
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    }
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let games = run.read("out/games.csv");
    let rows: Vec<String> = ["setsid", "daemon"].iter().flat_map(|bot| statuses(&games, bot)).collect();
    assert_eq!(rows.len(), 600);
    let cannot_start = rows.iter().filter(|s| s.starts_with("forfeit: cannot start")).count();
    let bad = rows.iter().filter(|s| *s != "ok").count();
    assert!(
        bad == 0 && survivors.is_empty(),
        "{bad} of 600 seats not ok, {cannot_start} of them `cannot start` (the first: {:?}); {} escaped processes outlived the run",
        rows.iter().find(|s| s.starts_with("forfeit: ")),
        survivors.len()
    );
}

/// The guard (the `sh` that ends the bots' process groups if the host dies) may itself be killed:
/// the host's next line to it then fails, which once ended the host (SIGPIPE, exit 141); now the
/// run goes on without a guard.
#[test]
fn a_run_outlives_its_guard() {
    let run = Run::new("guard");
    let bot = run.sh_bot("a", "call", ", restart = \"game\"");
    let config = format!("game = \"holdem\"\ngames = 2000\nbots = [{bot}, \"random\"]\n");
    let child = run.command(&config, "out", 2).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let is_guard = |pid: &u32| {
        std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.windows(17).any(|w| w == b"while read -r op "))
    };
    let until = Instant::now() + Duration::from_secs(20);
    let guard = loop {
        if let Some(pid) = marked(&format!("{MARK}={}", run.mark)).into_iter().find(is_guard) {
            break pid;
        }
        assert!(Instant::now() < until, "no guard started");
        std::thread::sleep(Duration::from_millis(5));
    };
    // SAFETY: killing the guard of this test's own run.
    assert_eq!(unsafe { libc::kill(guard as i32, libc::SIGKILL) }, 0);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{:?} {}", output.status, String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&run.read("out/games.csv"), "a");
    assert_eq!(rows.len(), 2000);
    assert!(rows.iter().all(|s| s == "ok"), "{:?}", rows.iter().find(|s| *s != "ok"));
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

#[test]
fn a_program_that_cannot_be_found_is_bad_input() {
    let run = Run::new("missing");
    let config = "game = \"holdem\"\ngames = 2\nbots = [{ name = \"x\", kind = \"external\", params = { command = [\"./no/such/bot\"] } }, \"random\"]\n";
    let output = run.command(config, "out", 1).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    // The relative path starts from the config's folder, and the error shows where that led.
    let expected = format!(":3: bot kind external: cannot find the program `{}`", run.path("no/such/bot").display());
    assert!(stderr.contains(&expected), "{stderr}");
}

/// Distinct process ids in a bot's log (each process says `started`).
fn processes_in_log(log: &str) -> std::collections::BTreeSet<String> {
    log.lines().filter(|l| l.ends_with("] started")).map(|l| l.split(']').next().unwrap().to_string()).collect()
}

#[test]
fn processes_are_reused_one_per_seat_and_thread_or_fresh_for_every_game() {
    let run = Run::new("reuse");
    for (restart, out) in [("crash", "reused"), ("game", "fresh")] {
        // One bot in both seats: two seats a game, two threads.
        let bot = run.sh_bot("mine", "call", &format!(", restart = \"{restart}\""));
        run.run(&format!("game = \"holdem\"\ngames = 40\nseats = 2\nbots = [{bot}]\n"), out, 2);
        assert!(statuses(&run.read(&format!("{out}/games.csv")), "mine").iter().all(|s| s == "ok"));
        let started = processes_in_log(&run.read(&format!("{out}/logs/mine.log"))).len();
        match restart {
            "crash" => assert!((2..=4).contains(&started), "{started} processes"),
            _ => assert_eq!(started, 80),
        }
    }
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// The reference bot (`arena protocol-bot`) against `random` at `game`.
fn reference_config(game: &str, restart: &str) -> String {
    let exe = env!("CARGO_BIN_EXE_arena");
    format!(
        "game = \"{game}\"\ngames = 60\npaired = true\nbots = [{{ name = \"ref\", kind = \"external\", params = {{ command = [{exe:?}, \"protocol-bot\"], restart = \"{restart}\" }} }}, \"random\"]\n"
    )
}

#[test]
fn external_results_are_byte_identical_on_any_thread_count() {
    let run = Run::new("determinism");
    for game in bot_arena::Arena::standard().games().map(|g| g.name()) {
        let mut outputs = Vec::new();
        for (threads, restart) in [(1, "crash"), (2, "crash"), (2, "game")] {
            let out = format!("{game}-{threads}-{restart}");
            run.run(&reference_config(game, restart), &out, threads);
            let games = run.read(&format!("{out}/games.csv"));
            assert!(statuses(&games, "ref").iter().all(|s| s == "ok"), "{game}");
            outputs.push((games, run.read(&format!("{out}/summary.csv"))));
        }
        assert!(outputs.iter().all(|o| *o == outputs[0]), "{game}: results differ");
        let timing = run.read(&format!("{game}-1-crash/timing.csv"));
        assert!(
            timing.starts_with(
                "bot,moves,mean_ms,median_ms,p90_ms,p99_ms,max_ms,time_losses,clock_left_min_ms,peak_memory_mib\nref,"
            ),
            "{timing}"
        );
    }
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// Starts a long run with external bots, waits until they play, and signals the host. Bot `a`
/// plays as `mode` says (`hang`: it waits in a child of its own, which the kernel does not end
/// with the host).
fn signal_during_a_run(signal: i32, mode: &str) -> (Option<i32>, Vec<u32>) {
    let run = Run::new(&format!("signal{signal}"));
    let a = run.sh_bot("a", mode, ", move_ms = 60000");
    let b = run.sh_bot("b", "dawdle", "");
    let config = format!("game = \"holdem\"\ngames = 1000000\nbots = [{a}, {b}]\n");
    let mut child = run.command(&config, "out", 2).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while marked(&format!("{MARK}={}", run.mark)).len() < 4 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let status = child.wait().unwrap();
    (status.code(), run.survivors(Duration::from_secs(3)))
}

#[test]
fn ctrl_c_leaves_no_process_behind() {
    let (code, survivors) = signal_during_a_run(libc::SIGINT, "dawdle");
    assert_eq!(code, Some(130));
    assert!(survivors.is_empty(), "{survivors:?}");
}

#[test]
fn sigterm_leaves_no_process_behind() {
    let (code, survivors) = signal_during_a_run(libc::SIGTERM, "dawdle");
    assert_eq!(code, Some(143), "128 + SIGTERM");
    assert!(survivors.is_empty(), "{survivors:?}");
}

#[test]
fn a_host_killed_outright_leaves_no_process_behind() {
    for mode in ["dawdle", "hang"] {
        let (code, survivors) = signal_during_a_run(libc::SIGKILL, mode);
        assert_eq!(code, None, "killed by a signal");
        assert!(survivors.is_empty(), "{mode}: {survivors:?}");
    }
}

/// The Python examples: each plays `games` games against a built-in bot on 1 and 2 threads,
/// without a single forfeit, with byte-identical results.
fn python_examples(games: u64) {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("bots/examples");
    let run = Run::new(&format!("python{games}"));
    for (game, bot, opponent) in [
        ("holdem", "holdem_random", "always-call"),
        ("holdem", "holdem_heuristic", "rr"),
        ("stud", "stud_random", "expert"),
        ("zhajinhua", "zhajinhua_random", "ev"),
        ("gomoku", "gomoku_random", "random-adjacent"),
        ("gomoku", "gomoku_heuristic", "random-adjacent"),
        ("mahjong", "mahjong_random", "greedy"),
    ] {
        let script = examples.join(format!("{bot}.py")).display().to_string();
        let config = format!(
            "game = \"{game}\"\ngames = {games}\npaired = true\nbots = [{{ name = \"{bot}\", kind = \"external\", params = {{ command = [\"python3\", {script:?}] }} }}, \"{opponent}\"]\n"
        );
        let mut results = Vec::new();
        for threads in [1, 2] {
            let out = format!("{bot}-{threads}");
            run.run(&config, &out, threads);
            let csv = run.read(&format!("{out}/games.csv"));
            let rows = statuses(&csv, bot);
            assert!(rows.len() as u64 >= games, "{bot}: {} rows", rows.len());
            assert!(rows.iter().all(|s| s == "ok"), "{bot}: {:?}", rows.iter().find(|s| *s != "ok"));
            results.push((csv, run.read(&format!("{out}/summary.csv"))));
        }
        assert!(results[0] == results[1], "{bot}: results differ between 1 and 2 threads");
    }
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

#[test]
fn python_examples_play_100_games_cleanly_and_reproducibly() {
    python_examples(100);
}

/// The acceptance run: `cargo test --release -- --ignored python_examples_play_1000`.
#[test]
#[ignore]
fn python_examples_play_1000_games_cleanly_and_reproducibly() {
    python_examples(1000);
}

/// `arena bench external` measures the protocol's cost for every registered game, at each game's
/// own seat count (it once seated two for mahjong, which needs four, and panicked).
#[test]
fn the_protocol_bench_measures_every_game() {
    let output = arena().args(["bench", "external", "--seconds", "0.05"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?} {}", output.status, String::from_utf8_lossy(&output.stderr));
    for game in bot_arena::Arena::standard().games().map(|g| g.name()) {
        let line = format!("external.{game}_moves_per_s ");
        let moves = stdout.lines().find_map(|l| l.strip_prefix(&line)).unwrap_or_else(|| panic!("{game}: {stdout}"));
        let per_s: f64 = moves.split_whitespace().next().unwrap().parse().unwrap();
        assert!(per_s > 0.0, "{game}: {stdout}");
    }
}

/// An outside bot named on the command line, as a config names it: `NAME=KIND:COMMAND`.
#[test]
fn an_outside_bot_can_be_named_on_the_command_line() {
    let run = Run::new("command-line");
    let bot = format!("mine=external:sh {} call", run.path("bot.sh").display());
    let output = arena()
        .args([
            "run",
            "--game",
            "holdem",
            "--games",
            "4",
            "--threads",
            "1",
            "--bot",
            &bot,
            "--bot",
            "always-call",
            "--out",
        ])
        .arg(run.path("out"))
        .env(MARK, &run.mark)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&run.read("out/games.csv"), "mine");
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|s| s == "ok"), "{rows:?}");
    assert!(run.read("out/config.toml").contains("kind = \"external\""));
    // A program with no command is refused with the syntax.
    let output = arena().args(["run", "--game", "holdem", "--bot", "mine=external:", "--bot", "rr"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("NAME=KIND:COMMAND"), "{stderr}");
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}

/// A forfeit is explained by the record alone: records.jsonl says who forfeited, after which
/// event, and why, in the notation the bot sent with the legal actions; and the record still
/// plays back (`arena replay --check`) with the forfeit where it says.
#[test]
fn a_forfeit_is_explained_by_its_record() {
    let run = Run::new("forfeit-record");
    let bot = run.sh_bot("bad", "illegal", ", move_ms = 300, start_ms = 500");
    let config =
        format!("game = \"holdem\"\ngames = 4\npaired = true\nseats = 3\nbots = [{bot}, \"always-call\", \"rr\"]\n");
    let output = run.command(&config, "out", 2).args(["--records", "moves"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let mut forfeits = 0;
    for line in run.read("out/records.jsonl").lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let forfeit = &record["status"]["forfeit"];
        let seat = forfeit["seat"].as_u64().unwrap() as usize;
        assert_eq!(record["seats"][seat], "bad", "{line}");
        assert_eq!(forfeit["kind"], "illegal", "{line}");
        let reason = forfeit["reason"].as_str().unwrap();
        assert!(glob("illegal action `raise 1`: * legal: *", reason), "{reason}");
        // The events before the fault, and none of the bad bot's own: it never got to act.
        let events = record["events"].as_array().unwrap();
        assert_eq!(forfeit["at"].as_u64().unwrap() as usize, events.len(), "{line}");
        assert!(events.iter().all(|e| e.get(0).and_then(|s| s.as_u64()) != Some(seat as u64)), "{line}");
        forfeits += 1;
    }
    assert!(forfeits >= 4, "{forfeits} games");
    let check = arena().args(["replay", "--check"]).arg(run.path("out")).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
    assert!(run.survivors(Duration::from_secs(3)).is_empty());
}
