//! Payoffs with the luck taken out (`estimator`, docs/book/src/luck-method.md) on the real binary: the same bytes
//! on any number of threads, adjusted payoffs that still sum to zero at every table, verdicts
//! read back from the folder as they were written, and one clear line for an estimator a game
//! cannot have.

use std::collections::BTreeMap;

use crate::common::{arena, write};

fn run(dir: &std::path::Path, config: &str, name: &str, threads: &str) -> std::path::PathBuf {
    let path = write(dir, &format!("{name}.toml"), config);
    let out = dir.join(format!("{name}-{threads}"));
    let output = arena()
        .args(["run", path.to_str().unwrap(), "--quiet", "--threads", threads, "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    out
}

/// Runs `config` on one thread and on two, checks the files are the same bytes, and returns the
/// one-thread run's folder.
fn same_on_one_and_two_threads(dir: &std::path::Path, config: &str, game: &str) -> std::path::PathBuf {
    let one = run(dir, config, game, "1");
    let two = run(dir, config, game, "2");
    for file in ["games.csv", "summary.csv", "match.csv"] {
        let (a, b) = (std::fs::read(one.join(file)).unwrap(), std::fs::read(two.join(file)).unwrap());
        assert!(a == b, "{game}: {file} differs between 1 and 2 threads");
    }
    one
}

const CONFIGS: [(&str, &str); 4] = [
    (
        "holdem",
        "game = \"holdem\"\ngames = 300\npaired = true\nestimator = \"aivat\"\nbots = [\"rr-fast\", \"rr-tight\"]\n\
         [table]\nformat = \"cash\"\nstack = 100\n",
    ),
    ("stud", "game = \"stud\"\ngames = 300\npaired = true\nestimator = \"aivat\"\nbots = [\"expert\", \"random\"]\n"),
    (
        "zhajinhua",
        "game = \"zhajinhua\"\ngames = 300\npaired = true\nestimator = \"aivat\"\nseats = 3\n\
         bots = [\"ev\", \"random\", \"random\"]\n",
    ),
    (
        "mahjong",
        "game = \"mahjong\"\ngames = 40\npaired = true\nestimator = \"aivat\"\nseats = 4\n\
         bots = [\"pruned\", \"greedy\", \"greedy\", \"greedy\"]\n",
    ),
];

#[test]
fn adjusted_runs_are_the_same_bytes_on_any_number_of_threads_and_stay_zero_sum() {
    let dir = tempfile::TempDir::new().unwrap();
    for (game, config) in CONFIGS {
        let one = same_on_one_and_two_threads(dir.path(), config, game);
        // Every game's adjusted payoffs sum to zero, as its payoffs do, and some differ from them.
        let mut reader = csv::Reader::from_path(one.join("games.csv")).unwrap();
        let mut sums: BTreeMap<u64, [f64; 3]> = BTreeMap::new();
        let mut adjusted = 0;
        for row in reader.deserialize::<BTreeMap<String, String>>() {
            let row = row.unwrap();
            let x = |c: &str| row[c].parse::<f64>().unwrap();
            let s = sums.entry(row["game"].parse().unwrap()).or_default();
            s[0] += x("payoff");
            s[1] += x("payoff_allin");
            s[2] += x("payoff_aivat");
            adjusted += usize::from(x("payoff_aivat") != x("payoff"));
        }
        for (g, s) in &sums {
            assert!(s.iter().all(|v| v.abs() < 1e-6), "{game} game {g}: sums {s:?}");
        }
        assert!(adjusted > 0, "{game}: no payoff was adjusted");
        // The verdicts name the estimator and carry the adjusted figures beside the plain ones.
        let matches = std::fs::read_to_string(one.join("match.csv")).unwrap();
        let header = matches.lines().next().unwrap();
        assert!(header.contains(",estimator,") && header.contains(",adjusted_payoff_a_"), "{game}: {header}");
        assert!(matches.lines().nth(1).unwrap().contains(",aivat,"), "{game}: {matches}");
        // Read back from the folder, the verdicts are the ones written.
        let stats = arena().args(["stats", "--run"]).arg(&one).output().unwrap();
        assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
        let report = arena().arg("report").arg(&one).output().unwrap();
        assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    }
}

#[test]
fn an_estimator_a_game_cannot_have_is_one_line_and_exit_2() {
    let dir = tempfile::TempDir::new().unwrap();
    let cases = [
        (
            "game = \"gomoku\"\nbots = [\"weights\", \"random\"]\nestimator = \"aivat\"\n",
            "needs a game with a value function",
        ),
        ("game = \"holdem\"\nbots = [\"rr\", \"random\"]\nestimator = \"duplicate\"\n", "needs paired deals"),
        ("game = \"holdem\"\nbots = [\"rr\", \"random\"]\nestimator = \"lucky\"\n", "is not one of plain"),
        (
            "game = \"holdem\"\nbots = [\"rr\", \"random\"]\nestimator = \"all-in\"\n[table]\nformat = \"sng\"\n",
            "not holdem sng",
        ),
        (
            "game = \"mahjong\"\nbots = [\"greedy\", \"random\"]\nestimator = \"aivat\"\n[table]\nflowers = true\n",
            "not mahjong with flowers or 16 hands",
        ),
    ];
    for (i, (config, expected)) in cases.iter().enumerate() {
        let path = write(dir.path(), &format!("bad{i}.toml"), config);
        let output = arena()
            .args(["run", path.to_str().unwrap(), "--games", "2", "--quiet", "--out"])
            .arg(dir.path().join(format!("o{i}")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "case {i}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "case {i}: {stderr}");
        assert!(stderr.contains(expected) && stderr.contains(&format!("bad{i}.toml:3:")), "case {i}: {stderr}");
    }
    let output = arena()
        .args([
            "run",
            "--game",
            "gomoku",
            "--bot",
            "weights",
            "--bot",
            "random",
            "--estimator",
            "aivat",
            "--games",
            "4",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --estimator aivat: estimator `aivat` needs"), "{stderr}");
}

/// `estimator = "covariates"`: the run writes each seat's starting strength (centred on the
/// table's mean, so every game's sum to zero), is the same bytes on one thread and two, and reads
/// back from its folder as written; a game without a starting strength refuses it in one line.
#[test]
fn covariate_runs_are_the_same_bytes_on_any_number_of_threads() {
    let dir = tempfile::TempDir::new().unwrap();
    let configs = [
        (
            "zhajinhua-cov",
            "game = \"zhajinhua\"\ngames = 400\nestimator = \"covariates\"\nbots = [\"ev\", \"random\"]\n",
        ),
        (
            "mahjong-cov",
            "game = \"mahjong\"\ngames = 40\npaired = true\nseats = 4\nestimator = \"covariates\"\n\
             bots = [\"greedy\", \"random\", \"random\", \"random\"]\n",
        ),
    ];
    for (game, config) in configs {
        let one = same_on_one_and_two_threads(dir.path(), config, game);
        let mut reader = csv::Reader::from_path(one.join("games.csv")).unwrap();
        let mut sums: BTreeMap<u64, f64> = BTreeMap::new();
        let mut nonzero = 0;
        for row in reader.deserialize::<BTreeMap<String, String>>() {
            let row = row.unwrap();
            let start: f64 = row["start"].parse().unwrap();
            *sums.entry(row["game"].parse().unwrap()).or_default() += start;
            nonzero += usize::from(start != 0.0);
        }
        assert!(sums.values().all(|s| s.abs() < 1e-9), "{game}: a game's starts do not sum to zero");
        assert!(nonzero > 0, "{game}: every start is zero");
        let matches = std::fs::read_to_string(one.join("match.csv")).unwrap();
        assert!(matches.lines().nth(1).unwrap().contains(",covariates,"), "{game}: {matches}");
        // `arena stats --run` recomputes the verdicts from games.csv: the adjusted figure written.
        let stats = arena().args(["stats", "--json", "--run"]).arg(&one).output().unwrap();
        assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
        let mut reader = csv::Reader::from_path(one.join("match.csv")).unwrap();
        let row = reader.deserialize::<BTreeMap<String, String>>().next().unwrap().unwrap();
        // The column in the game's unit (`adjusted_payoff_diff_bb_per_100`).
        let column = row
            .keys()
            .find(|k| k.starts_with("adjusted_payoff_diff_") && !k.contains("_lo_") && !k.contains("_hi_"))
            .unwrap();
        let recomputed = doc["matches"][0][column.as_str()].as_f64().unwrap();
        assert_eq!(format!("{recomputed:.6}"), row[column], "{game}");
    }
    let path = write(
        dir.path(),
        "bad.toml",
        "game = \"gomoku\"\nbots = [\"weights\", \"random\"]\nestimator = \"covariates\"\n",
    );
    let output = arena().args(["run", path.to_str().unwrap(), "--games", "2", "--quiet"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("needs a game that declares a starting strength"), "{stderr}");
}

/// With three bots or more, ratings.csv gains the payoff rating on the adjusted payoffs; a run
/// that does not adjust has no such columns.
#[test]
fn the_rating_list_carries_the_adjusted_payoff_rating() {
    let dir = tempfile::TempDir::new().unwrap();
    for (estimator, adjusted) in [("aivat", true), ("duplicate", false)] {
        let config = format!(
            "game = \"zhajinhua\"\ngames = 120\npaired = true\nseats = 3\nestimator = \"{estimator}\"\n\
             bots = [\"ev\", \"random\", \"ev-adaptive\"]\n"
        );
        let out = run(dir.path(), &config, estimator, "1");
        let mut reader = csv::Reader::from_path(out.join("ratings.csv")).unwrap();
        let header = reader.headers().unwrap().clone();
        assert_eq!(header.iter().any(|h| h == "adjusted_payoff_chips_per_hand"), adjusted, "{estimator}: {header:?}");
        for row in reader.deserialize::<BTreeMap<String, String>>() {
            let row = row.unwrap();
            if adjusted {
                let (lo, x, hi): (f64, f64, f64) = (
                    row["adjusted_payoff_lo_chips_per_hand"].parse().unwrap(),
                    row["adjusted_payoff_chips_per_hand"].parse().unwrap(),
                    row["adjusted_payoff_hi_chips_per_hand"].parse().unwrap(),
                );
                assert!(lo <= x && x <= hi, "{row:?}");
            }
        }
    }
}

/// `estimator = "aivat"` weighs each component of the AIVAT terms (games.csv's `aivat_terms`) by
/// a coefficient fitted on the deals before, from 200 deals on: past that, the verdict's adjusted
/// difference is not the mean of `payoff_aivat` any more; the fit is made in deal order from the
/// file, so the run is the same bytes on one thread and two, a run resumed to its length is the
/// run made at once, and `arena stats --run` recomputes the figure written.
#[test]
fn the_fitted_aivat_payoff_is_the_same_from_the_file_on_any_threads_and_after_resume() {
    let dir = tempfile::TempDir::new().unwrap();
    let config = "game = \"holdem\"\ngames = 1000\nseed = 3\npaired = true\nestimator = \"aivat\"\n\
                  bots = [\"rr-fast\", \"rr-tight\"]\n[table]\nformat = \"cash\"\nstack = 100\n";
    let one = same_on_one_and_two_threads(dir.path(), config, "fit");
    let row = |run: &std::path::Path| {
        let mut reader = csv::Reader::from_path(run.join("match.csv")).unwrap();
        reader.deserialize::<BTreeMap<String, String>>().next().unwrap().unwrap()
    };
    let written = row(&one);
    // The mean of the per-game AIVAT payoffs, deal by deal (two games a deal), A minus B.
    let mut reader = csv::Reader::from_path(one.join("games.csv")).unwrap();
    let (mut sum, mut terms) = (0.0, 0);
    for r in reader.deserialize::<BTreeMap<String, String>>() {
        let r = r.unwrap();
        let sign = if r["bot"] == written["bot_a"] { 1.0 } else { -1.0 };
        sum += sign * r["payoff_aivat"].parse::<f64>().unwrap();
        terms += r["aivat_terms"].split_whitespace().count();
        let parsed: bot_arena::core::luck::Terms = r["aivat_terms"].parse().unwrap();
        assert_eq!(parsed.to_string(), r["aivat_terms"], "the terms read back as written");
    }
    assert!(terms > 1000, "few terms written: {terms}");
    let unfitted = 100.0 * sum / 1000.0; // bb/100: a game's mean difference over the 1,000 games' 500 deals
    let fitted: f64 = written["adjusted_payoff_diff_bb_per_100"].parse().unwrap();
    assert!((fitted - unfitted).abs() > 0.01, "the fit changed nothing: {fitted} vs {unfitted}");
    // Resumed: 600 games, then to 1,000.
    let path = write(dir.path(), "part.toml", &config.replace("games = 1000", "games = 600"));
    let part = dir.path().join("part");
    let made = arena().args(["run", path.to_str().unwrap(), "--quiet", "--out"]).arg(&part).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let resumed = arena().arg("resume").arg(&part).args(["--games", "1000", "--quiet"]).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    for file in ["games.csv", "summary.csv", "match.csv"] {
        let (a, b) = (std::fs::read(one.join(file)).unwrap(), std::fs::read(part.join(file)).unwrap());
        assert!(a == b, "{file} differs between the run made at once and the one resumed");
    }
    // `arena stats --run` recomputes the verdict from games.csv: the figure written.
    let stats = arena().args(["stats", "--json", "--run"]).arg(&one).output().unwrap();
    assert!(stats.status.success(), "{}", String::from_utf8_lossy(&stats.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    let recomputed = doc["matches"][0]["adjusted_payoff_diff_bb_per_100"].as_f64().unwrap();
    assert_eq!(format!("{recomputed:.6}"), written["adjusted_payoff_diff_bb_per_100"]);
}
