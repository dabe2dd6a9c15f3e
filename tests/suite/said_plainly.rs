//! What the tool says, said plainly: one unit a game for every payoff figure (the terminal, the
//! CSVs, JSON, the gate's bounds, the SPRT's), the verdict in one sentence wherever it is shown,
//! decisions from the command line (`--sprt`, `arena compare`).

use std::path::Path;

use crate::common::{arena, write};

/// The run every test here reads: rr against rr-tight, 2,000 paired hands, seed 3 (the issue's
/// example: the chips say rr-tight, the hands won say rr).
const RR: [&str; 12] =
    ["run", "--game", "holdem", "--bot", "rr", "--bot", "rr-tight", "--games", "2000", "--paired", "--seed", "3"];

fn run_rr(out: &Path, more: &[&str]) -> String {
    let output = arena().args(RR).arg("--out").arg(out).args(more).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The numbers of `+328.70 [+24.48, +632.92]` after `prefix` in `line`.
fn interval_after(line: &str, prefix: &str) -> [f64; 3] {
    let rest = &line[line.find(prefix).unwrap_or_else(|| panic!("`{prefix}` in `{line}`")) + prefix.len()..];
    let numbers: Vec<f64> = rest
        .split(|c: char| c == '[' || c == ']' || c == ',' || c.is_whitespace())
        .filter_map(|w| w.parse().ok())
        .take(3)
        .collect();
    assert_eq!(numbers.len(), 3, "three numbers after `{prefix}` in `{line}`");
    [numbers[0], numbers[1], numbers[2]]
}

/// The terminal's verdict is the payoff's, in bb/100, agreeing with its own interval; the hands
/// won are there, labelled as not the verdict; the likelihood of superiority beside the payoff is
/// the payoff's.
#[test]
fn the_terminal_gives_one_verdict_in_the_games_unit() {
    let dir = tempfile::tempdir().unwrap();
    let text = run_rr(&dir.path().join("r"), &[]);
    let verdict = text.lines().find(|l| l.contains("is stronger than")).expect("a verdict line");
    assert!(verdict.starts_with("rr-tight is stronger than rr: +"), "{text}");
    let [d, lo, hi] = interval_after(verdict, "rr-tight is stronger than rr: ");
    assert!(lo > 0.0 && lo < d && d < hi, "{verdict}");
    assert!(verdict.contains(" bb/100 [") && verdict.ends_with("(95% interval, 1,000 deals)"), "{verdict}");
    let won = text.lines().find(|l| l.contains("hands won, not the verdict")).expect("hands won, labelled");
    assert!(won.contains("Elo +"), "the hands won favour rr: {won}");
    let los = text.lines().find(|l| l.contains("; LOS ")).expect("the payoff's LOS");
    assert!(los.contains("(rr-tight stronger)"), "{los}");
    // The table's payoff column is in the same unit: rr-tight's mean is half the difference.
    let row = text.lines().find(|l| l.starts_with("rr-tight ")).unwrap();
    let mean: f64 = row.split_whitespace().nth(8).unwrap().parse().unwrap();
    assert!((2.0 * mean - d).abs() < 0.011, "{row} against {verdict}");
    assert!(text.contains("payoff bb/100 [95% CI]"), "{text}");
}

/// Every payoff column names its unit, and holds the figures in it: summary.csv's mean is 100
/// times the mean of games.csv's payoffs (big blinds a hand).
#[test]
fn every_payoff_column_carries_the_unit_and_is_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    run_rr(&out, &[]);
    let mut summary = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let headers = summary.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name} in {headers:?}"));
    let (bot, payoff) = (column("bot"), column("payoff_bb_per_100"));
    column("payoff_lo_bb_per_100");
    column("payoff_hi_bb_per_100");
    assert!(!headers.iter().any(|h| h.contains("payoff") && !h.ends_with("bb_per_100")), "{headers:?}");
    let mut games = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let (mut sum, mut n) = (0.0, 0.0);
    for row in games.records() {
        let row = row.unwrap();
        if &row[4] == "rr-tight" {
            sum += row[5].parse::<f64>().unwrap();
            n += 1.0;
        }
    }
    let row = summary.records().map(|r| r.unwrap()).find(|r| &r[bot] == "rr-tight").unwrap();
    let shown: f64 = row[payoff].parse().unwrap();
    assert!((shown - 100.0 * sum / n).abs() < 1e-5, "{shown} against {}", 100.0 * sum / n);
    let matches = std::fs::read_to_string(out.join("match.csv")).unwrap();
    let head = matches.lines().next().unwrap();
    for name in ["payoff_diff_bb_per_100", "payoff_diff_lo_bb_per_100", "verdict_los", "verdict"] {
        assert!(head.split(',').any(|h| h == name), "{name} in {head}");
    }
    assert!(!head.split(',').any(|h| h.contains("payoff") && !h.ends_with("bb_per_100")), "{head}");
}

/// Each game's unit, as its columns name it.
#[test]
fn each_game_has_its_unit() {
    let dir = tempfile::tempdir().unwrap();
    for (game, bots, unit) in [
        ("stud", ["expert", "always-call"], "chips_per_hand"),
        ("zhajinhua", ["ev", "threshold"], "chips_per_hand"),
        ("mahjong", ["greedy", "random"], "points_per_hand"),
        ("gomoku", ["weights", "random"], "points_per_game"),
    ] {
        let out = dir.path().join(game);
        let status = arena()
            .args(["run", "--game", game, "--bot", bots[0], "--bot", bots[1], "--games", "8", "--quiet", "--out"])
            .arg(&out)
            .args(if game == "mahjong" { vec!["--seats", "4"] } else { vec![] })
            .status()
            .unwrap();
        assert!(status.success(), "{game}");
        let head = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(head.lines().next().unwrap().contains(&format!(",payoff_{unit},")), "{game}: {head}");
    }
}

/// A gate written from the numbers the terminal shows judges what the terminal said: its lower
/// ends copied a hundredth below pass, a hundredth above fail (the unit is the terminal's); a bare
/// number, the old unit, is refused at its line with the number it meant.
#[test]
fn a_gate_written_from_the_terminal_gates_what_the_terminal_said() {
    let dir = tempfile::tempdir().unwrap();
    let text = run_rr(&dir.path().join("r"), &[]);
    let verdict = text.lines().find(|l| l.contains("is stronger than")).unwrap();
    let [_, diff_lo, _] = interval_after(verdict, "rr-tight is stronger than rr: ");
    let row = text.lines().find(|l| l.starts_with("rr-tight ")).unwrap();
    let [_, lo, _] = interval_after(row, "] ");
    write(dir.path(), "run.toml", "game = \"holdem\"\npaired = true\nbots = [\"rr\", \"rr-tight\"]\n");
    let gate = |criteria: &str| {
        let text = format!(
            "[[expect]]\nname = \"copied\"\nconfig = \"run.toml\"\ngames = 2000\nseed = 3\nbot = \"rr-tight\"\n{criteria}\n"
        );
        let path = write(dir.path(), "gate.toml", &text);
        arena().arg("gate").arg(&path).arg("--out").arg(dir.path().join("gate")).output().unwrap()
    };
    let bounds =
        |d: f64| format!("payoff_lo = \"{:.2} bb/100\"\npayoff_diff_lo = \"{:.2} bb/100\"", lo + d, diff_lo + d);
    let pass = gate(&bounds(-0.01));
    assert_eq!(pass.status.code(), Some(0), "{}", String::from_utf8_lossy(&pass.stdout));
    let out = String::from_utf8_lossy(&pass.stdout);
    assert!(out.contains(verdict), "the gate says the terminal's verdict: {out}");
    let fail = gate(&bounds(0.01));
    assert_eq!(fail.status.code(), Some(1), "{}", String::from_utf8_lossy(&fail.stdout));
    let old = gate("payoff_diff_lo = 0.2");
    assert_eq!(old.status.code(), Some(2));
    let err = String::from_utf8_lossy(&old.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("gate.toml:7:") && err.contains("payoff_diff_lo = \"20 bb/100\""), "{err}");
    let other = gate("payoff_lo = \"3 chips/hand\"");
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("counted in bb/100"));
}

/// The sentence is the same in the terminal, match.csv, the JSON document, report.html and a
/// gate's JUnit.
#[test]
fn the_verdict_is_one_sentence_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let output = arena().args(RR).arg("--out").arg(&out).args(["--json", "--report"]).output().unwrap();
    assert!(output.status.success());
    let terminal = String::from_utf8_lossy(&output.stderr);
    let sentence = terminal.lines().find(|l| l.contains("is stronger than")).unwrap().to_string();
    let doc: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(doc["matches"][0]["verdict"], sentence.as_str());
    let mut reader = csv::Reader::from_path(out.join("match.csv")).unwrap();
    let at = reader.headers().unwrap().iter().position(|h| h == "verdict").unwrap();
    assert_eq!(&reader.records().next().unwrap().unwrap()[at], sentence);
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(page.contains(&format!("<li>{sentence}</li>")), "report.html lacks the sentence");
    // The same run as a gate's expectation (the bots in the same order: a bot's own stream follows
    // its place in the list).
    write(dir.path(), "run.toml", "game = \"holdem\"\npaired = true\nbots = [\"rr\", \"rr-tight\"]\n");
    let gate = write(
        dir.path(),
        "gate.toml",
        "[[expect]]\nname = \"x\"\nconfig = \"run.toml\"\ngames = 2000\nseed = 3\nbot = \"rr-tight\"\npayoff_diff_lo = \"0 bb/100\"\n",
    );
    let junit = dir.path().join("junit.xml");
    let status = arena()
        .arg("gate")
        .arg(&gate)
        .arg("--out")
        .arg(dir.path().join("g"))
        .arg("--junit")
        .arg(&junit)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(std::fs::read_to_string(&junit).unwrap().contains(&sentence), "the JUnit case carries the sentence");
}

/// `--sprt` on the command line is the config's `[sprt]`: the same games, the same files.
#[test]
fn a_decision_from_the_command_line_is_the_configs() {
    let dir = tempfile::tempdir().unwrap();
    let base = "game = \"holdem\"\ngames = 100000\nseed = 1\npaired = true\nbots = [\"rr-tight\", \"rr\"]\n\
                [table]\nformat = \"cash\"\nstack = 100\n";
    let with = write(dir.path(), "with.toml", &format!("{base}[sprt]\npayoff0 = 0\npayoff1 = 200\n"));
    let without = write(dir.path(), "without.toml", base);
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let first = arena().arg("run").arg(&with).arg("--out").arg(&a).output().unwrap();
    let second = arena()
        .arg("run")
        .arg(&without)
        .args(["--sprt", "payoff0=0,payoff1=200"])
        .arg("--out")
        .arg(&b)
        .output()
        .unwrap();
    assert!(first.status.success() && second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    for file in ["games.csv", "match.csv", "summary.csv"] {
        assert!(std::fs::read(a.join(file)).unwrap() == std::fs::read(b.join(file)).unwrap(), "{file} differs");
    }
    let said = String::from_utf8_lossy(&second.stdout);
    assert!(
        said.contains("accepted: rr-tight wins at least 200 bb/100 more than rr, after 4,468 hands; error rates 5%/5%"),
        "{said}"
    );
    // Half a test is one line and exit 2.
    let bad = arena().arg("run").arg(&without).args(["--sprt", "payoff0=0"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.lines().count() == 1 && err.contains("payoff1"), "{err}");
}

/// `arena compare` plays until its test decides and says what it decided, in the game's unit:
/// accepted for a stronger candidate (hold'em in bb/100, gomoku in Elo), rejected for a weaker one.
#[test]
fn compare_decides_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let output =
        arena().args(["compare", "holdem", "rr", "rr-tight", "--out"]).arg(dir.path().join("c")).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("accepted: rr-tight wins at least 100 bb/100 more than rr, after "), "{said}");
    let quiet = arena()
        .args(["compare", "gomoku", "random", "weights", "--quiet", "--out"])
        .arg(dir.path().join("g"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&quiet.stdout);
    assert!(said.contains("accepted: weights is at least 20 Elo stronger than random, after "), "{said}");
    // The candidate weaker: the test rejects it.
    let weaker = arena()
        .args(["compare", "gomoku", "weights", "random", "--quiet", "--out"])
        .arg(dir.path().join("w"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&weaker.stdout);
    assert!(
        said.contains("rejected: random is at least 20 Elo stronger than weights; it is at most 0 Elo stronger"),
        "{said}"
    );
}
