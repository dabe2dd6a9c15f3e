//! End-to-end tests of the `arena` binary: determinism, outputs, bad input, interruption.

use std::path::Path;
use std::process::Command;

use crate::common::{arena, write};
use tempfile::TempDir;

const SMALL: &str = r#"
game = "gomoku"
games = 120
seed = 42
paired = true
bots = ["random-adjacent", "random", { name = "adj2", kind = "random-adjacent" }]
[table]
size = 9
opening = 2
"#;

/// Runs SMALL; returns games.csv and the derived files: summary.csv, match.csv, ratings.csv.
fn run_small(dir: &Path, out: &str, threads: &str) -> (Vec<u8>, Vec<u8>) {
    let config = write(dir, "small.toml", SMALL);
    let out = dir.join(out);
    let status = arena()
        .args(["run", config.to_str().unwrap(), "--quiet", "--threads", threads, "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let derived = ["summary.csv", "match.csv", "ratings.csv"].map(|f| std::fs::read(out.join(f)).unwrap()).concat();
    (std::fs::read(out.join("games.csv")).unwrap(), derived)
}

#[test]
fn results_are_byte_identical_for_any_thread_count_and_repeated_runs() {
    let dir = TempDir::new().unwrap();
    let one = run_small(dir.path(), "t1", "1");
    let two = run_small(dir.path(), "t2", "2");
    let four = run_small(dir.path(), "t4", "4");
    let again = run_small(dir.path(), "t1-again", "1");
    assert!(one.0 == two.0 && one.0 == four.0 && one.0 == again.0, "games.csv differs");
    assert!(one.1 == two.1 && one.1 == four.1 && one.1 == again.1, "summary, match or ratings.csv differs");
    // Three bots, two seats: a round robin of three pairings, 120 games each, two rows a game.
    let games = String::from_utf8(one.0).unwrap();
    assert_eq!(games.lines().count(), 1 + 3 * 120 * 2);
    assert!(games.starts_with("pairing,game,seed,seat,bot,payoff,place,moves,status,colour,end,move_list\n"));
}

#[test]
fn the_resolved_config_repeats_the_run() {
    let dir = TempDir::new().unwrap();
    let first = run_small(dir.path(), "first", "2");
    let resolved = dir.path().join("first/config.toml");
    let out = dir.path().join("again");
    let status = arena().args(["run", "--quiet", "--out"]).arg(&out).arg(&resolved).status().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(out.join("games.csv")).unwrap(), first.0);
    let derived = ["summary.csv", "match.csv", "ratings.csv"].map(|f| std::fs::read(out.join(f)).unwrap()).concat();
    assert_eq!(derived, first.1);
}

#[test]
fn a_run_without_a_file_and_the_summary() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("flags");
    let output = arena()
        .args([
            "run",
            "--game",
            "gomoku",
            "--bot",
            "random-adjacent",
            "--bot",
            "random",
            "--games",
            "40",
            "--paired",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("random-adjacent") && stdout.contains("win rate"), "{stdout}");
    assert!(stdout.contains(&format!("results: {}", out.display())), "{stdout}");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.starts_with(
        "bot,games,wins,draws,losses,forfeits,score,win_rate,win_rate_lo,win_rate_hi,payoff_points_per_game,payoff_lo_points_per_game,payoff_hi_points_per_game,ci_unit,estimator\n"
    ));
    assert_eq!(summary.lines().count(), 3);
    // Paired: the intervals are over deals, and the verdicts lead with the duplicate payoffs.
    assert!(summary.lines().skip(1).all(|l| l.ends_with(",deal,duplicate")), "{summary}");
}

#[test]
fn an_existing_run_is_not_overwritten_without_force() {
    let dir = TempDir::new().unwrap();
    run_small(dir.path(), "out", "1");
    let config = dir.path().join("small.toml");
    let out = dir.path().join("out");
    let output = arena().args(["run", "--quiet", "--out"]).arg(&out).arg(&config).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--force"));
    let forced = arena().args(["run", "--quiet", "--force", "--out"]).arg(&out).arg(&config).status().unwrap();
    assert!(forced.success());
}

/// Each case: config text (or None for flags only), extra args, what the one error line says.
#[test]
fn bad_input_gets_one_clear_line_and_exit_code_2() {
    let dir = TempDir::new().unwrap();
    let blocker = write(dir.path(), "a-file", "");
    let cases: Vec<(Option<&str>, Vec<&str>, &str)> = vec![
        (Some("game = \"chess\"\ngames = 1\nbots = [\"random\"]\n"), vec![], "bad.toml:1: unknown game `chess`"),
        (
            Some("game = \"gomoku\"\ngames = 1\nbots = [\"random\", \"alphazero\"]\n"),
            vec![],
            "bad.toml:3: unknown bot `alphazero`",
        ),
        (
            Some(
                "game = \"gomoku\"\ngames = 1\nbots = [{ name = \"r\", kind = \"random\", params = { depth = 2 } }]\n",
            ),
            vec![],
            "unknown parameter `depth`",
        ),
        (
            Some("game = \"gomoku\"\ngames = 1\nbots = [\"random\"]\n[table]\nsize = 40\n"),
            vec![],
            "bad.toml:5: parameter `size` of the gomoku table must be in 5..=25, not 40",
        ),
        (
            Some("game = \"gomoku\"\ngames = 1\nbots = [\"random\"]\ncolour = 3\n"),
            vec![],
            "bad.toml:4: unknown field `colour`",
        ),
        (Some("game = \"gomoku\"\ngames = \nbots = [\"random\"]\n"), vec![], "bad.toml:2:"),
        (Some("game = \"gomoku\"\ngames = 0\nbots = [\"random\"]\n"), vec![], "bad.toml:2: games must be at least 1"),
        (Some("game = \"gomoku\"\ngames = -5\nbots = [\"random\"]\n"), vec![], "games must be at least 1"),
        (
            Some("game = \"gomoku\"\ngames = 10\nbots = [\"random\"]\n"),
            vec!["--games", "0"],
            "games must be at least 1",
        ),
        (Some("game = \"gomoku\"\ngames = 1\nbots = []\n"), vec![], "at least one bot"),
        (
            Some("game = \"gomoku\"\ngames = 1\nschedule = \"swiss\"\nbots = [\"random\"]\n"),
            vec![],
            "bad.toml:3: unknown schedule `swiss` (known: single-table, round-robin, gauntlet, rotations)",
        ),
        (
            Some("game = \"gomoku\"\ngames = 1\nschedule = \"single-table\"\nbots = [\"random\", \"weights\", \"search\"]\n"),
            vec![],
            "bad.toml:3: one table seats 1 to 2 bots, not 3",
        ),
        (
            Some("game = \"mahjong\"\ngames = 1\nschedule = \"round-robin\"\nbots = [\"random\", \"greedy\"]\n"),
            vec![],
            "a round robin at 4 seats needs at least 4 bots, not 2",
        ),
        (Some("game = \"gomoku\"\ngames = 1\nschedule = \"gauntlet\"\nbots = [\"random\"]\n"), vec![], "a gauntlet needs"),
        (
            Some("game = \"gomoku\"\ngames = 1\nanchor = \"weights\"\nbots = [\"random\", \"search\"]\n"),
            vec![],
            "bad.toml:3: anchor `weights` is not a bot of this run (random, search)",
        ),
        (
            Some("game = \"mahjong\"\ngames = 1\nbots = [\"greedy\", \"random\"]\n[sprt]\nelo0 = 0\nelo1 = 5\n"),
            vec![],
            "bad.toml:4: the SPRT's Elo models (logistic, normalized) count independent games or pairs",
        ),
        (None, vec!["--game", "chess", "--bot", "random"], "unknown game `chess`"),
        (None, vec!["--game", "gomoku"], "at least one --bot"),
        (None, vec!["--game", "gomoku", "--bot", "random", "--threads", "0"], "--threads"),
    ];
    for (i, (config, extra, expected)) in cases.into_iter().enumerate() {
        let mut cmd = arena();
        cmd.arg("run").arg("--quiet").arg("--out").arg(dir.path().join(format!("out{i}")));
        if let Some(text) = config {
            cmd.arg(write(dir.path(), "bad.toml", text));
        }
        let output = cmd.args(&extra).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "case {i}: {stderr}");
        assert!(stderr.contains(expected), "case {i}: expected `{expected}` in {stderr}");
        assert!(!stderr.contains("panicked"), "case {i}: {stderr}");
        if config.is_some() {
            assert_eq!(stderr.trim_end().lines().count(), 1, "case {i}: one line, got {stderr}");
        }
    }
    // A missing config file and an output folder that cannot be created.
    let output = arena().args(["run", "no-such.toml"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no-such.toml"));
    let config = write(dir.path(), "ok.toml", "game = \"gomoku\"\ngames = 2\nbots = [\"random\"]\n");
    let output = arena().args(["run", "--quiet", "--out"]).arg(blocker.join("sub")).arg(&config).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a-file"));
}

#[test]
fn list_shows_games_bots_and_parameters() {
    let output = arena().args(["list", "gomoku"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for needle in ["gomoku", "size = 15", "rule = \"freestyle\"", "random-adjacent"] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
    let output = arena().args(["list", "chess"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_keeps_what_finished() {
    let dir = TempDir::new().unwrap();
    let config = write(
        dir.path(),
        "long.toml",
        "game = \"gomoku\"\ngames = 100000000\nbots = [\"random\", \"random-adjacent\"]\n[table]\nsize = 25\n",
    );
    // One thread plays and writes each game in turn; two share batches, which the calling thread writes.
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("long-{threads}"));
        let mut child =
            arena().args(["run", "--quiet", "--threads", threads, "--out"]).arg(&out).arg(&config).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{threads} threads");
        let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
        let rows = games.lines().count() - 1;
        assert!(rows > 0 && rows.is_multiple_of(2), "whole games only: {rows} rows on {threads} threads");
        assert!(games.ends_with('\n'));
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        let played: u64 = summary.lines().nth(1).unwrap().split(',').nth(1).unwrap().parse().unwrap();
        assert_eq!(played as usize, rows / 2, "{threads} threads");
    }
}
