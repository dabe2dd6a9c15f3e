//! Clocks, memory and cores for bots outside the process, through the `arena` binary: a time
//! control with an increment (`tc`, per bot and `--tc`), a loss on time named `time`, a bot over
//! its `memory_mb` forfeiting with `memory`, timing.csv's latency, clock and memory columns, a
//! start limit that a loaded machine does not break (the bot is charged its own time), and
//! `--affinity`.

#![cfg(target_os = "linux")]

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena, mark, project, python, statuses, survivors, write, MARK};
use tempfile::TempDir;

/// A run from the project's folder, its processes marked; the output whatever its exit.
fn run(dir: &TempDir, test: &str, config: &str, flags: &[&str]) -> Output {
    let path = write(dir.path(), "run.toml", config);
    let mark = mark(module_path!(), test);
    let output = arena()
        .args(["run", "--threads", "2", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .args(flags)
        .current_dir(project(""))
        .env(MARK, &mark)
        .output()
        .unwrap();
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty(), "{test}: processes left behind");
    output
}

/// The columns of timing.csv's row for `bot`, by name.
fn timing(dir: &TempDir, bot: &str) -> std::collections::BTreeMap<String, String> {
    let text = std::fs::read_to_string(dir.path().join("out/timing.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head = reader.headers().unwrap().clone();
    let row = reader.records().map(|r| r.unwrap()).find(|r| &r[0] == bot).unwrap_or_else(|| panic!("{text}"));
    head.iter().zip(row.iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect()
}

fn number(row: &std::collections::BTreeMap<String, String>, column: &str) -> f64 {
    row[column].parse().unwrap_or_else(|_| panic!("{column}: {row:?}"))
}

fn games_csv(dir: &TempDir) -> String {
    std::fs::read_to_string(dir.path().join("out/games.csv")).unwrap()
}

/// A gomoku bot that sleeps 100 ms a move: under 10+0.1 (its own `tc`) its clock holds; under
/// `--tc 1+0.05` for the run it loses every game on time, and games.csv, the terminal and
/// timing.csv say so.
#[test]
fn a_bot_that_sleeps_loses_on_time_under_a_short_clock_and_not_under_a_long_one() {
    if !python("the sleeping bot") {
        return;
    }
    let sleeper = "{ name = \"sleeper\", kind = \"external\", params = { command = [\"python3\", \"bots/examples/gomoku_random.py\", \"--sleep-ms\", \"100\"]TC } }";
    let config = |tc: &str| {
        format!("game = \"gomoku\"\ngames = 2\nbots = [{}, \"random\"]\n[table]\nsize = 9\n", sleeper.replace("TC", tc))
    };

    let dir = TempDir::new().unwrap();
    let output = run(&dir, "long", &config(", tc = \"10+0.1\""), &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(statuses(&games_csv(&dir), "sleeper").iter().all(|s| s == "ok"), "{}", games_csv(&dir));
    let row = timing(&dir, "sleeper");
    assert_eq!(row["time_losses"], "0");
    // 100 ms a move is what the increment gives back: the clock stays near its 10 s.
    let left = number(&row, "clock_left_min_ms");
    assert!((5000.0..=10_000.0 + 100.0 * 41.0).contains(&left), "{row:?}");
    let (p50, p90, p99, max) =
        (number(&row, "median_ms"), number(&row, "p90_ms"), number(&row, "p99_ms"), number(&row, "max_ms"));
    // (quantiles from a histogram, within 1.6%)
    assert!(p50 >= 98.0 && p50 <= p90 && p90 <= p99 && p99 <= max, "{row:?}");
    assert!(number(&row, "peak_memory_mib") > 1.0, "a Python program holds megabytes: {row:?}");
    // A bot in the process has a clock (here none) but no program's memory.
    let builtin = timing(&dir, "random");
    assert_eq!((builtin["clock_left_min_ms"].as_str(), builtin["peak_memory_mib"].as_str()), ("", ""), "{builtin:?}");

    let dir = TempDir::new().unwrap();
    let output = run(&dir, "short", &config(""), &["--tc", "1+0.05"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&games_csv(&dir), "sleeper");
    assert_eq!(rows.len(), 2);
    for status in &rows {
        assert!(status.starts_with("forfeit: time: lost on time under 1+0.05: "), "{status}");
        assert!(status.ends_with(" left on its clock"), "{status}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("forfeits: sleeper 2 (time 2)"), "{stdout}");
    let row = timing(&dir, "sleeper");
    assert_eq!(row["time_losses"], "2", "{row:?}");
    assert!(number(&row, "clock_left_min_ms") < 100.0, "a clock run out: {row:?}");
    // The run's clock was given to every bot without one of its own: written in the config kept.
    let kept = std::fs::read_to_string(dir.path().join("out/config.toml")).unwrap();
    assert!(kept.contains("tc = \"1+0.05\""), "{kept}");
}

/// A time control that is not one is refused in one line, from the flag and from a config.
#[test]
fn a_bad_time_control_is_refused_in_one_line() {
    let dir = TempDir::new().unwrap();
    let output = arena()
        .args(["run", "--game", "gomoku", "--bot", "random", "--bot", "random", "--tc", "ten"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("must be a time control like \"10+0.1\""), "{stderr}");
    let config =
        "game = \"gomoku\"\nbots = [{ name = \"a\", kind = \"random\", params = { tc = \"10+\" } }, \"random\"]\n";
    let output = run(&dir, "bad-tc", config, &[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains("parameter `tc` of bot `a` must be a time control"),
        "{stderr}"
    );
}

/// A bot that takes 300 MiB under `memory_mb = 100` forfeits with `memory`; its neighbour under
/// the same bound plays; timing.csv shows both peaks.
#[test]
fn a_bot_over_its_memory_forfeits_with_memory() {
    if !python("the greedy bot") {
        return;
    }
    let bot = |name: &str, fault: &str| {
        format!("{{ name = \"{name}\", kind = \"external\", params = {{ command = [\"python3\", \"bots/examples/holdem_random.py\"{fault}], memory_mb = 100 }} }}")
    };
    let config = format!(
        "game = \"holdem\"\ngames = 4\nbots = [{}, {}]\n",
        bot("fat", ", \"--fault\", \"memory\""),
        bot("lean", "")
    );
    let dir = TempDir::new().unwrap();
    let output = run(&dir, "memory", &config, &[]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&games_csv(&dir), "fat");
    assert_eq!(rows.len(), 4);
    for status in &rows {
        assert!(
            status.starts_with("forfeit: memory: peak ") && status.ends_with(" MiB over memory_mb 100 MiB"),
            "{status}"
        );
    }
    assert!(statuses(&games_csv(&dir), "lean").iter().all(|s| s == "opponent forfeit"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("forfeits: fat 4 (memory 4)"), "{stdout}");
    assert!(number(&timing(&dir, "fat"), "peak_memory_mib") > 100.0);
    let lean = number(&timing(&dir, "lean"), "peak_memory_mib");
    assert!(lean > 1.0 && lean < 100.0, "{lean}");
}

/// CPU burners on one core, killed when dropped.
struct Burners(Vec<Child>);

impl Burners {
    fn on_core_0(n: usize) -> Burners {
        let start = || {
            Command::new("taskset").args(["-c", "0", "sh", "-c", "while :; do :; done"]).stdout(Stdio::null()).spawn()
        };
        Burners((0..n).map(|_| start().unwrap()).collect())
    }
}

impl Drop for Burners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// On a core shared with ten busy processes a Python bot takes most of a second to start,
/// a small part of it its own: under `start_ms = 400` it is not ruled silent, and its moves
/// under `move_ms = 400` count, because the time it waits for the core is not charged to it.
/// The interpreter itself is run: a `python3` that is a script (pyenv's shim) starts short-lived
/// helpers whose waits end with them, which the host cannot see (docs/book/src/protocol.md).
#[test]
fn a_loaded_machine_does_not_break_the_start_limit() {
    let taskset = Command::new("taskset").arg("--version").output().is_ok_and(|o| o.status.success());
    if !python("the bot") || !taskset {
        eprintln!("skipped: needs python3 and taskset");
        return;
    }
    let interpreter = crate::common::interpreter().unwrap();
    let _burners = Burners::on_core_0(10);
    std::thread::sleep(Duration::from_millis(200));
    // The premise: on that core the bot's start takes longer than its start limit, by the wall.
    let began = Instant::now();
    let status = Command::new("taskset")
        .args(["-c", "0", interpreter, "bots/examples/holdem_random.py"])
        .current_dir(project(""))
        .stdin(Stdio::null())
        .status()
        .unwrap();
    let wall = began.elapsed();
    assert!(status.success());
    assert!(wall > Duration::from_millis(400), "the load did not slow the start: {wall:?}");

    let dir = TempDir::new().unwrap();
    let config = format!("game = \"holdem\"\ngames = 4\nbots = [{{ name = \"py\", kind = \"external\", params = {{ command = [{interpreter:?}, \"bots/examples/holdem_random.py\"], start_ms = 400, move_ms = 400 }} }}, \"always-call\"]\n");
    let path = write(dir.path(), "run.toml", &config);
    let mark = mark(module_path!(), "loaded");
    let output = Command::new("taskset")
        .args(["-c", "0"])
        .arg(assert_cmd::cargo::cargo_bin("arena"))
        .args(["run", "--threads", "1", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .current_dir(project(""))
        .env(MARK, &mark)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = statuses(&games_csv(&dir), "py");
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|s| !s.starts_with("forfeit")), "{rows:?}");
    assert!(survivors(&mark, Duration::from_secs(3)).is_empty());
}

/// `--affinity` pins each worker's bots to its core: with two workers, the bots' processes run
/// on one core each (read from /proc while they play).
#[test]
fn affinity_pins_the_bots_to_their_workers_cores() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if !python("the bots") || cores < 2 {
        eprintln!("skipped: needs python3 and two cores");
        return;
    }
    let dir = TempDir::new().unwrap();
    let script =
        write(dir.path(), "bot.sh", "#!/bin/sh\ngrep Cpus_allowed_list /proc/$$/status >&2\nexec python3 \"$@\"\n");
    let bot = |name: &str| {
        format!(
            "{{ name = \"{name}\", kind = \"external\", params = {{ command = [\"sh\", \"{}\", \"bots/examples/holdem_random.py\"] }} }}",
            script.display()
        )
    };
    let config = format!("game = \"holdem\"\ngames = 8\nbots = [{}, {}]\n", bot("a"), bot("b"));
    let output = run(&dir, "affinity", &config, &["--affinity"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for name in ["a", "b"] {
        let log = std::fs::read_to_string(dir.path().join(format!("out/logs/{name}.log"))).unwrap();
        let lists: Vec<&str> =
            log.lines().filter_map(|l| l.split("Cpus_allowed_list:").nth(1)).map(str::trim).collect();
        assert!(!lists.is_empty(), "{log}");
        for list in lists {
            assert!(list.parse::<usize>().is_ok(), "a bot on one core, not {list:?}: {log}");
        }
    }
}

/// An outside bot's time and memory are said in the terminal (a `time:` line) and in report.html
/// ("Time and memory"), and run.json names it among the bots on a clock; a run of built-in bots
/// alone says none of it (its output stays the same bytes from run to run).
#[test]
fn an_outside_bots_time_is_said_and_built_in_bots_are_left_out() {
    if !python("the example bot") {
        return;
    }
    let dir = TempDir::new().unwrap();
    let py = "{ name = \"py\", kind = \"external\", params = { command = [\"python3\", \"bots/examples/holdem_random.py\"] } }";
    let out = run(&dir, "said", &format!("game = \"holdem\"\ngames = 10\nbots = [{py}, \"rr\"]\n"), &["--report"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("time: ")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.starts_with("time: py ") && line.contains(" decisions, median ") && line.contains("peak memory"),
        "{line}"
    );
    assert_eq!(stdout.lines().filter(|l| l.starts_with("time: ")).count(), 1, "rr is left out: {stdout}");
    let page = std::fs::read_to_string(dir.path().join("out/report.html")).unwrap();
    let table = &page[page.find("<h3>Time and memory</h3>").expect("the table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(table.contains(">py</td>") && !table.contains(">rr</td>"), "{table}");
    let manifest = std::fs::read_to_string(dir.path().join("out/run.json")).unwrap();
    assert!(manifest.contains("\"clocks\"") && manifest.contains("a program outside the process"), "{manifest}");

    let dir = TempDir::new().unwrap();
    let out = run(&dir, "built-in", "game = \"holdem\"\ngames = 10\nbots = [\"rr\", \"always-call\"]\n", &["--report"]);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("time: "));
    assert!(!std::fs::read_to_string(dir.path().join("out/report.html")).unwrap().contains("Time and memory"));
    assert!(!std::fs::read_to_string(dir.path().join("out/run.json")).unwrap().contains("\"clocks\""));
}
