//! End-to-end tests of the verdicts: match.csv, SPRT early stopping, `arena stats`, `arena gate`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::common::{arena, write, GATE_MATCH};
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
    let row = csv_rows(&one.join("match.csv")).swap_remove(0);
    (one, rows, row)
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
    assert_eq!(penta, get("deals").parse::<u64>().unwrap());
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
    let llr: f64 = csv_rows(&out.join("match.csv"))[0]["llr"].parse().unwrap();
    assert!(text.contains(&format!("LLR       {llr:.6}")), "{text}\nllr {llr}");
}

#[test]
fn stats_reproduces_the_reference_llr() {
    // Row B of the reference table in tests/suite/stats_vectors.rs.
    let output =
        arena().args(["stats", "--penta", "365,16618,36229,16974,390", "--elo0", "0", "--elo1", "2"]).output().unwrap();
    assert!(output.status.success());
    assert!(String::from_utf8(output.stdout).unwrap().contains("LLR       2.250368"));
    let bad = arena().args(["stats", "--penta", "1,2,3"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// rr wins several big blinds a hand from a calling station: a payoff SPRT decides early. Its
/// bounds are in the unit of the hold'em verdict: H1 is 200 bb/100, 2 big blinds a hand.
const PAYOFF_SPRT_RUN: &str = r#"
game = "holdem"
games = 100000
seed = 2
paired = true
bots = ["rr", "always-call"]
[table]
format = "cash"
[sprt]
payoff0 = 0
payoff1 = 200
"#;

#[test]
fn the_payoff_sprt_stops_at_the_same_game_on_any_thread_count() {
    let dir = TempDir::new().unwrap();
    let (one, _, row) = run_on_one_and_two_threads(dir.path(), PAYOFF_SPRT_RUN);
    let get = |name: &str| row[name].as_str();
    assert_eq!(
        (get("model"), get("unit"), get("h0"), get("h1"), get("decision")),
        ("payoff", "bb/100", "0.000000", "200.000000", "H1")
    );
    let pairs: u64 = get("deals").parse().unwrap();
    assert!((30..2000).contains(&pairs), "stopped early, not before the minimum: {pairs} pairs");
    let llr: f64 = get("llr").parse().unwrap();
    assert!(llr >= get("upper").parse::<f64>().unwrap());
    // The resolved config names the hypotheses and their unit, and runs the same test again.
    let resolved = std::fs::read_to_string(one.join("config.toml")).unwrap();
    assert!(resolved.contains("payoff1 = 200.0") && resolved.contains("unit = \"bb/100\""), "{resolved}");
    let again = run(dir.path(), &one.join("config.toml"), "again", "2");
    assert_eq!(std::fs::read(one.join("match.csv")).unwrap(), std::fs::read(again.join("match.csv")).unwrap());
    // The run's verdict names the test and the unit of its bounds, as the payoff beside it.
    let output = arena()
        .args(["run", "--threads", "2", "--out"])
        .arg(dir.path().join("shown"))
        .arg(dir.path().join("config.toml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("accepted: rr wins at least 200 bb/100 more than always-call, after ")
            && text.contains("  SPRT payoff [0, 200] bb/100 α=0.05 β=0.05: LLR "),
        "{text}"
    );
    // `arena stats --run` recomputes the same LLR from games.csv; counts alone cannot.
    let output = arena().args(["stats", "--payoff0", "0", "--payoff1", "200", "--run"]).arg(&one).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains(&format!("LLR       {llr:.6}")), "{text}\nllr {llr}");
    assert!(text.contains("SPRT      payoff [0, 200] bb/100, alpha 0.05, beta 0.05"), "{text}");
    // The payoff difference beside it in the same unit, as the run's verdict and match.csv show it.
    let diff = get("payoff_diff_bb_per_100").parse::<f64>().unwrap();
    assert!(text.contains(&format!("payoff    difference {diff:+.2} [")), "{text}\n{diff}");
    let bad = arena().args(["stats", "--penta", "1,2,3,2,1", "--payoff0", "0", "--payoff1", "2"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(err.contains("--run") && err.lines().count() == 1, "{err}");
}

/// rr-loose wins more hold'em hands than rr but loses chips to it: a test of "wins more
/// chips" must say no, where a count of hands won says yes.
const LOOSE_VS_RR: &str = r#"
game = "holdem"
games = 40000
seed = 1
paired = true
bots = ["rr-loose", "rr"]
[table]
format = "cash"
stack = 100
[sprt]
payoff0 = 0
payoff1 = 50
"#;

/// Payoff bounds are the payoff test's, with no `model` needed: the run tests the payoff difference
/// (and accepts H0 for the bot that loses chips), and a gate asking whether that bot wins more chips
/// fails, in its exit code and in JUnit.
#[test]
fn payoff_bounds_test_the_payoff_and_a_gate_fails_the_bot_that_loses_chips() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "loose.toml", LOOSE_VS_RR);
    let out = run(dir.path(), &config, "run", "2");
    let row = &csv_rows(&out.join("match.csv"))[0];
    assert_eq!((row["bot_a"].as_str(), row["model"].as_str(), row["decision"].as_str()), ("rr-loose", "payoff", "H0"));
    assert!(row["payoff_diff_bb_per_100"].parse::<f64>().unwrap() < 0.0, "{row:?}");
    assert!(row["verdict"].starts_with("rejected: rr-loose wins at least 50 bb/100 more than rr; "), "{row:?}");
    // The resolved config loads back to the same test: run again from it, the same verdict.
    let again = run(dir.path(), &out.join("config.toml"), "again", "1");
    assert_eq!(std::fs::read(out.join("match.csv")).unwrap(), std::fs::read(again.join("match.csv")).unwrap());

    let gate = write(
        dir.path(),
        "gate.toml",
        "[[expect]]\nname = \"rr-loose wins more chips than rr\"\nconfig = \"loose.toml\"\ngames = 40000\nseed = 1\nsprt = { payoff0 = 0, payoff1 = 50 }\n",
    );
    let junit = dir.path().join("junit.xml");
    let output = arena()
        .args(["gate", "--threads", "2", "--out"])
        .arg(dir.path().join("gate-out"))
        .arg("--junit")
        .arg(&junit)
        .arg(&gate)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.starts_with("FAIL rr-loose wins more chips than rr"), "{text}");
    assert!(
        text.contains("rejected: rr-loose wins at least 50 bb/100 more than rr; it wins at most 0 bb/100 more"),
        "{text}"
    );
    assert!(text.contains("SPRT payoff [0, 50] bb/100: LLR "), "the gate names the test and its unit: {text}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("failures=\"1\"") && xml.contains("<failure message=\"FAIL rr-loose"), "{xml}");
}

/// A bot that wins every game: the payoff difference has no variance, so pairing's variance ratio
/// is undefined. `arena run` and `arena stats --run` both say so in words.
#[test]
fn an_undefined_variance_ratio_reads_n_a_in_run_and_stats() {
    let dir = TempDir::new().unwrap();
    let config = write(
        dir.path(),
        "sure.toml",
        "game = \"gomoku\"\ngames = 40\npaired = true\nbots = [\"weights\", \"random\"]\n[table]\nsize = 9\n",
    );
    let out = dir.path().join("sure");
    let output = arena().args(["run", "--threads", "2", "--out"]).arg(&out).arg(&config).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("payoff difference +2.00 [+2.00, +2.00] points/game"), "not a sure win after all: {text}");
    assert!(text.contains("pairing variance ratio n/a"), "{text}");
    let output = arena().args(["stats", "--run"]).arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("variance ratio n/a") && !text.contains("NaN"), "{text}");
}

#[test]
fn the_gate_passes_fails_and_rejects_bad_input() {
    let dir = TempDir::new().unwrap();
    write(dir.path(), "match.toml", GATE_MATCH);
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
    assert!(
        text.contains("PASS sprt")
            && text.contains("accepted: random-adjacent is at least 40 Elo stronger than random, after "),
        "{text}"
    );
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

/// One ev against three copies of threshold at a four-seat zhajinhua table, every deal in the four
/// rotations, with a payoff SPRT on their difference per game.
const FIELD_RUN: &str = r#"
game = "zhajinhua"
games = 40000
seed = 3
paired = true
seats = 4
bots = ["ev", "threshold", "threshold", "threshold"]
[sprt]
model = "payoff"
payoff0 = 0
payoff1 = 1
"#;

/// Every row of a CSV file by column name (match.csv's `verdict` is quoted: it holds commas).
fn csv_rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    reader.deserialize().map(|r| r.unwrap()).collect()
}

/// The field's verdict, recomputed from games.csv by hand: each deal's mean payoff per game of ev
/// and of the pooled threshold seats, their difference deal by deal, its mean and t interval.
#[test]
fn a_field_pools_copies_and_its_payoff_sprt_stops_on_the_deal_differences() {
    let dir = TempDir::new().unwrap();
    let (one, rows, row) = run_on_one_and_two_threads(dir.path(), FIELD_RUN);
    let get = |name: &str| row[name].as_str();
    assert_eq!((get("bot_a"), get("bot_b"), get("decision")), ("ev", "threshold", "H1"));
    let (games, deals): (u64, u64) = (get("games").parse().unwrap(), get("deals").parse().unwrap());
    assert_eq!((rows as u64, games), (4 * games, 4 * deals), "stopped after a whole deal");
    assert!(games < 40000, "stopped early");
    // Three seats a game are threshold's: three comparisons with ev a game.
    let wdl: u64 = ["wins", "draws", "losses"].iter().map(|c| get(c).parse::<u64>().unwrap()).sum();
    assert_eq!(wdl, 3 * games);
    let summary = csv_rows(&one.join("summary.csv"));
    let names: Vec<&str> = summary.iter().map(|r| r["bot"].as_str()).collect();
    assert_eq!(names, ["ev", "threshold"]);
    assert_eq!(summary[1]["games"].parse::<u64>().unwrap(), 3 * games);
    assert!(summary.iter().all(|r| r["ci_unit"] == "deal"));

    let mut diffs = Vec::new();
    let (mut sum, mut count) = ([0.0; 2], [0.0; 2]);
    for (i, r) in csv_rows(&one.join("games.csv")).iter().enumerate() {
        let k = usize::from(r["bot"] == "threshold");
        sum[k] += r["payoff"].parse::<f64>().unwrap();
        count[k] += 1.0;
        if (i + 1) % 16 == 0 {
            diffs.push(sum[0] / count[0] - sum[1] / count[1]);
            (sum, count) = ([0.0; 2], [0.0; 2]);
        }
    }
    let ci = diffs.iter().copied().collect::<bot_arena::stats::Welford>().ci(0.95);
    let close = |name: &str, want: f64| {
        let got: f64 = get(name).parse().unwrap();
        assert!((got - want).abs() < 2e-6, "{name}: {got} vs {want}");
    };
    // In the game's unit: zhajinhua's chips/hand are the payoff a game as it is.
    close("payoff_diff_chips_per_hand", ci.mean);
    close("payoff_diff_lo_chips_per_hand", ci.lo);
    close("payoff_diff_hi_chips_per_hand", ci.hi);
    let llr = bot_arena::stats::Sprt::new(0.0, 1.0, 0.05, 0.05, bot_arena::stats::SprtModel::Payoff)
        .unwrap()
        .llr_payoff(&diffs.iter().copied().collect());
    close("llr", llr);
}

const ROUND_ROBIN: &str = r#"
game = "gomoku"
games = 40
seed = 4
paired = true
anchor = "random-adjacent"
bots = ["random-adjacent", "random", "weights", { name = "adj2", kind = "random-adjacent" }, "weights-defensive"]
[table]
size = 9
opening = 2
"#;

#[test]
fn a_round_robin_of_five_writes_and_prints_a_rating_list() {
    let dir = TempDir::new().unwrap();
    let config = write(dir.path(), "rr.toml", ROUND_ROBIN);
    let out = dir.path().join("rr");
    let output = arena().args(["run", "--threads", "2", "--out"]).arg(&out).arg(&config).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("(round-robin, 10 pairings, seed 4), paired")
            && text.contains("rating list (anchored at random-adjacent"),
        "{text}"
    );
    assert_eq!(csv_rows(&out.join("match.csv")).len(), 10);
    let ratings = csv_rows(&out.join("ratings.csv"));
    assert_eq!(ratings.len(), 5);
    let elo = |r: &HashMap<String, String>| r["elo"].parse::<f64>().unwrap();
    for (rank, r) in ratings.iter().enumerate() {
        assert_eq!((r["rank"].parse::<usize>().unwrap(), r["anchor"].as_str()), (rank + 1, "random-adjacent"));
        // Every bot played four opponents 40 games each.
        assert_eq!(r["games"], "160", "{r:?}");
        if rank > 0 {
            assert!(elo(&ratings[rank - 1]) >= elo(r), "ranked by Elo: {ratings:?}");
        }
        if r["bot"] == "random-adjacent" {
            assert_eq!((elo(r), r["elo_lo"].as_str(), r["elo_hi"].as_str()), (0.0, "0.000000", "0.000000"));
        }
    }
    // The two weights bots won every game against the others: no finite rating, a lower bound.
    for r in &ratings[..2] {
        assert!(r["bot"].starts_with("weights") && r["elo"] == "inf" && r["elo_hi"] == "inf", "{r:?}");
        assert!(r["elo_lo"].parse::<f64>().unwrap() > 0.0, "{r:?}");
    }
}

#[test]
fn a_gauntlet_plays_the_first_bot_against_each_of_the_others() {
    let dir = TempDir::new().unwrap();
    let text = ROUND_ROBIN.replace("anchor = \"random-adjacent\"", "schedule = \"gauntlet\"");
    let config = write(dir.path(), "g.toml", &text);
    let out = dir.path().join("g");
    let status = arena().args(["run", "--quiet", "--out"]).arg(&out).arg(&config).status().unwrap();
    assert!(status.success());
    let rows = csv_rows(&out.join("match.csv"));
    let pairs: Vec<(&str, &str)> = rows.iter().map(|r| (r["bot_a"].as_str(), r["bot_b"].as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("random-adjacent", "random"),
            ("random-adjacent", "weights"),
            ("random-adjacent", "adj2"),
            ("random-adjacent", "weights-defensive")
        ]
    );
    assert!(std::fs::read_to_string(out.join("config.toml")).unwrap().contains("schedule = \"gauntlet\""));
    assert_eq!(csv_rows(&out.join("ratings.csv")).len(), 5);
}
