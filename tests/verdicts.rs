//! End-to-end tests of the verdicts: match.csv, SPRT early stopping, `arena stats`, `arena gate`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod common;

use common::{arena, write};
use tempfile::TempDir;

/// random-adjacent is far stronger than random on a small board.
const SPRT_RUN: &str = r#"
game = "gomoku"
games = 100000
seed = 5
paired = true
bots = ["random-adjacent", "random"]
[table]
size = 9
opening = 2
[sprt]
elo0 = 0
elo1 = 40
model = "logistic"
"#;

fn run(dir: &Path, config: &Path, out: &str, threads: &str) -> PathBuf {
    let out = dir.join(out);
    let output =
        arena().args(["run", "--quiet", "--threads", threads, "--out"]).arg(&out).arg(config).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    out
}

/// Runs `config` on one and on two threads, checks that games.csv and match.csv are
/// byte-identical, and returns the one-thread run folder, its games.csv rows and its first
/// match.csv row by column name.
fn run_on_one_and_two_threads(dir: &Path, config: &str) -> (PathBuf, usize, HashMap<String, String>) {
    let config = write(dir, "config.toml", config);
    let one = run(dir, &config, "one", "1");
    let two = run(dir, &config, "two", "2");
    let games = std::fs::read(one.join("games.csv")).unwrap();
    assert_eq!(games, std::fs::read(two.join("games.csv")).unwrap());
    let matches = std::fs::read_to_string(one.join("match.csv")).unwrap();
    assert_eq!(matches, std::fs::read_to_string(two.join("match.csv")).unwrap());
    let rows = games.iter().filter(|&&b| b == b'\n').count() - 1;
    let header = matches.lines().next().unwrap().split(',');
    let row = header.zip(matches.lines().nth(1).unwrap().split(',')).map(|(h, v)| (h.to_string(), v.to_string()));
    (one, rows, row.collect())
}

#[test]
fn the_sprt_stops_at_the_same_game_on_any_thread_count() {
    let dir = TempDir::new().unwrap();
    let (_, rows, row) = run_on_one_and_two_threads(dir.path(), SPRT_RUN);
    assert!(rows < 2 * 2000, "stopped early: {rows} rows");
    let get = |name: &str| row[name].as_str();
    assert_eq!(get("decision"), "H1");
    assert_eq!(get("games").parse::<usize>().unwrap() * 2, rows, "match.csv counts every game written");
    let llr: f64 = get("llr").parse().unwrap();
    let upper: f64 = get("upper").parse().unwrap();
    assert!(llr >= upper, "{llr} >= {upper}");
    // The pentanomial cells add up to the pairs.
    let penta: u64 = ["ll", "ld", "wl_dd", "wd", "ww"].iter().map(|c| get(c).parse::<u64>().unwrap()).sum();
    assert_eq!(penta, get("pairs").parse::<u64>().unwrap());
}

#[test]
fn stats_from_a_run_folder_matches_match_csv() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "sprt.toml", SPRT_RUN);
    let out = run(dir.path(), &config, "run", "2");
    let output = arena()
        .args(["stats", "--elo0", "0", "--elo1", "40", "--model", "logistic", "--run"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let matches = std::fs::read_to_string(out.join("match.csv")).unwrap();
    let header: Vec<&str> = matches.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = matches.lines().nth(1).unwrap().split(',').collect();
    let llr: f64 = row[header.iter().position(|h| *h == "llr").unwrap()].parse().unwrap();
    assert!(text.contains(&format!("LLR       {llr:.6}")), "{text}\nllr {llr}");
}

#[test]
fn stats_reproduces_the_reference_llr() {
    // Row B of shared/vectors/statistics.md.
    let output =
        arena().args(["stats", "--penta", "365,16618,36229,16974,390", "--elo0", "0", "--elo1", "2"]).output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout).unwrap().contains("LLR       2.250368"));
    let bad = arena().args(["stats", "--penta", "1,2,3"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// rr wins several big blinds a hand from a calling station: a payoff SPRT decides early.
const PAYOFF_SPRT_RUN: &str = r#"
game = "holdem"
games = 100000
seed = 2
paired = true
bots = ["rr", "always-call"]
[table]
format = "cash"
[sprt]
model = "payoff"
payoff0 = 0
payoff1 = 2
"#;

#[test]
fn the_payoff_sprt_stops_at_the_same_game_on_any_thread_count() {
    let dir = TempDir::new().unwrap();
    let (one, _, row) = run_on_one_and_two_threads(dir.path(), PAYOFF_SPRT_RUN);
    let get = |name: &str| row[name].as_str();
    assert_eq!((get("model"), get("h0"), get("h1"), get("decision")), ("payoff", "0.000000", "2.000000", "H1"));
    let pairs: u64 = get("pairs").parse().unwrap();
    assert!((30..2000).contains(&pairs), "stopped early, not before the minimum: {pairs} pairs");
    let llr: f64 = get("llr").parse().unwrap();
    assert!(llr >= get("upper").parse::<f64>().unwrap());
    // The resolved config names the hypotheses in payoff units.
    let resolved = std::fs::read_to_string(one.join("config.toml")).unwrap();
    assert!(resolved.contains("payoff1 = 2.0") && resolved.contains("model = \"payoff\""), "{resolved}");
    // `arena stats --run` recomputes the same LLR from games.csv; counts alone cannot.
    let output =
        arena().args(["stats", "--model", "payoff", "--elo0", "0", "--elo1", "2", "--run"]).arg(&one).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains(&format!("LLR       {llr:.6}")) && text.contains("payoff difference"), "{text}\nllr {llr}");
    let bad = arena()
        .args(["stats", "--penta", "1,2,3,2,1", "--model", "payoff", "--elo0", "0", "--elo1", "2"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(err.contains("--run") && err.lines().count() == 1, "{err}");
}

const GATE_RUN: &str = r#"
game = "gomoku"
games = 10
bots = ["random-adjacent", "random"]
paired = true
[table]
size = 9
"#;

#[test]
fn the_gate_passes_fails_and_rejects_bad_input() {
    let dir = TempDir::new().unwrap();
    write(dir.path(), "match.toml", GATE_RUN);
    let gate = |text: &str| {
        let path = write(dir.path(), "gate.toml", text);
        arena().args(["gate", "--out"]).arg(dir.path().join("gate-out")).arg(path).output().unwrap()
    };
    let pass = gate(
        concat!(
            "[[expect]]\nname = \"adjacent beats random\"\nconfig = \"match.toml\"\ngames = 400\nseed = 3\nwin_rate_lo = 0.5\nelo_lo = 0\n",
            "[[expect]]\nname = \"sprt\"\nconfig = \"match.toml\"\ngames = 2000\nseed = 3\nsprt = { elo0 = 0, elo1 = 40, model = \"logistic\" }\n",
        ),
    );
    let text = String::from_utf8_lossy(&pass.stdout);
    assert_eq!(pass.status.code(), Some(0), "{text}");
    assert!(text.starts_with("PASS adjacent beats random"), "{text}");
    assert!(text.contains("PASS sprt") && text.contains(": H1"), "{text}");
    // The same match judged from the weaker side fails, and the gate says why.
    let fail = gate(
        "[[expect]]\nname = \"random beats adjacent\"\nconfig = \"match.toml\"\ngames = 400\nseed = 3\nbot = \"random\"\nwin_rate_lo = 0.5\n",
    );
    let text = String::from_utf8_lossy(&fail.stdout);
    assert_eq!(fail.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL random beats adjacent") && text.contains("< 0.5"), "{text}");
    for (bad, says) in [
        ("[[expect]]\nname = \"x\"\nconfig = \"match.toml\"\n", "no criterion"),
        ("[[expect]]\nname = \"x\"\nconfig = \"nope.toml\"\nwin_rate_lo = 0.5\n", "nope.toml"),
        (
            "[[expect]]\nname = \"x\"\nconfig = \"match.toml\"\nwin_rate = 0.5\n",
            "gate.toml:4: unknown field `win_rate`",
        ),
        ("[[expect]]\nname = \"x\"\nconfig = \"match.toml\"\nbot = \"zz\"\nwin_rate_lo = 0.5\n", "no bot `zz`"),
    ] {
        let out = gate(bad);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains(says), "{says} not in {stderr}");
    }
}

/// The CI gate's first expectation, with the gated bot deliberately weakened (all weights zero:
/// it plays the first empty cell its tie-breaks pick), must fail with exit code 1.
#[test]
fn the_ci_gate_fails_when_the_gated_bot_is_weakened() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = TempDir::new().unwrap();
    let original = std::fs::read_to_string(repo.join("configs/gate/gomoku-weights-random.toml")).unwrap();
    let weakened = original.replace(
        "bots = [\"weights\", \"random\"]",
        "bots = [{ name = \"weights\", kind = \"weights\", params = { own = [0, 0, 0, 0, 0], opp = [0, 0, 0, 0, 0] } }, \"random\"]",
    );
    assert_ne!(weakened, original, "the gate config still seats weights against random");
    write(dir.path(), "gomoku-weights-random.toml", &weakened);
    let ci_gate = std::fs::read_to_string(repo.join("configs/ci-gate.toml")).unwrap();
    let first = ci_gate
        .split("[[expect]]")
        .nth(1)
        .unwrap()
        .replace("gate/gomoku-weights-random.toml", "gomoku-weights-random.toml");
    let gate = write(dir.path(), "gate.toml", &format!("[[expect]]{first}"));
    let output = arena().args(["gate", "--out"]).arg(dir.path().join("out")).arg(&gate).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.starts_with("FAIL gomoku: weights beats random"), "{text}");
    // And the real one passes.
    let real = write(dir.path(), "real.toml", &format!("[[expect]]{}", ci_gate.split("[[expect]]").nth(1).unwrap()));
    std::fs::copy(repo.join("configs/gate/gomoku-weights-random.toml"), dir.path().join("gate-real.toml")).unwrap();
    let real_text =
        std::fs::read_to_string(&real).unwrap().replace("gate/gomoku-weights-random.toml", "gate-real.toml");
    std::fs::write(&real, real_text).unwrap();
    let output = arena().args(["gate", "--out"]).arg(dir.path().join("out2")).arg(&real).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
}
