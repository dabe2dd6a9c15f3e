//! The payoffs with the luck taken out (`estimator = "aivat"`, docs/book/src/luck-method.md) held to their promise
//! by simulation with fixed seeds, on the real binary: the adjusted mean is the plain mean (no
//! bias), its 95% intervals contain the truth 95% of the time, and a payoff SPRT on it accepts a
//! false H1 no more often than α.
//!
//! Slow (millions of hands), so ignored in the default run:
//! `cargo test --release --test suite luck_honesty -- --ignored --nocapture --test-threads 1`.
//!
//! Tolerances: the unbiasedness check asks the mean of (adjusted − plain), deal by deal, to be
//! within 3 of its own standard errors of zero (a false alarm one time in 370). It also prints the
//! gap in the plain mean's standard errors, the "within 0.5" figure, without asserting it:
//! with no bias at all, that gap is a normal variable whose spread is the gap's own standard error
//! (here about 0.57 of the plain one), so it lands within 0.5 only about 62% of the time. A coverage rate over 1,000 blocks has a sampling
//! standard deviation of 0.69%; the check is 95% ± 1.5%. An SPRT error rate over R runs is checked
//! against α + 3·√(α(1 − α)/R).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use bot_arena::core::luck::Terms;
use bot_arena::stats::{Sprt, SprtDecision, SprtModel, TermFit, Welford};

use crate::common::{arena, write};

/// One deal: bot A's mean payoff a game minus bot B's, over the deal's seat rotations (as the
/// verdicts count it), plain and adjusted (AIVAT's terms weighed as fitted on the deals before).
#[derive(Clone, Copy, Debug)]
struct Deal {
    plain: f64,
    adjusted: f64,
    /// The all-in adjusted difference (`payoff_allin`: exact in an all-in run, sampled in an
    /// aivat one).
    allin: f64,
}

/// Plays `config` (a run config whose first bot is A and second B, with `estimator = "aivat"`)
/// with `games` games and returns its deals, read from games.csv.
fn deals(name: &str, config: &str, games: u64) -> Vec<Deal> {
    let dir = std::env::temp_dir().join(format!("arena-luck-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = write(&dir, "luck.toml", config);
    let out = dir.join("run");
    let status = arena()
        .args(["run", path.to_str().unwrap(), "--quiet", "--force", "--games", &games.to_string()])
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "{name}: the run failed");
    let found = read_deals(&out.join("games.csv"), &out.join("match.csv"));
    std::fs::remove_dir_all(&dir).ok();
    found
}

fn read_deals(games: &Path, matches: &Path) -> Vec<Deal> {
    let mut reader = csv::Reader::from_path(matches).unwrap();
    let row = reader.deserialize::<BTreeMap<String, String>>().next().unwrap().unwrap();
    let (a, b) = (row["bot_a"].clone(), row["bot_b"].clone());
    let replays: u64 = (row["games"].parse::<u64>().unwrap()) / row["deals"].parse::<u64>().unwrap();
    let mut reader = csv::Reader::from_path(games).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (game, bot, payoff, aivat) = (col("game"), col("bot"), col("payoff"), col("payoff_aivat"));
    let allin = col("payoff_allin");
    let terms = col("aivat_terms");
    // (deal) → per bot: (Σ plain, Σ adjusted, seat-games, Σ all-in), and its terms game by game.
    let mut by_deal: BTreeMap<u64, [(f64, f64, f64, f64); 2]> = BTreeMap::new();
    let mut deal_terms: BTreeMap<u64, [Vec<Terms>; 2]> = BTreeMap::new();
    for row in reader.records() {
        let row = row.unwrap();
        let side = if row[bot] == *a {
            0
        } else if row[bot] == *b {
            1
        } else {
            panic!("a third bot")
        };
        let deal = row[game].parse::<u64>().unwrap() / replays;
        let t = &mut by_deal.entry(deal).or_default()[side];
        t.0 += row[payoff].parse::<f64>().unwrap();
        t.1 += row[aivat].parse::<f64>().unwrap();
        t.2 += 1.0;
        t.3 += row[allin].parse::<f64>().unwrap();
        deal_terms.entry(deal).or_default()[side].push(row[terms].parse().unwrap());
    }
    // The verdict's aivat payoff: the terms weighed by coefficients fitted on the deals before,
    // in deal order, as the run's report fits them (TermFit).
    let mut fit = TermFit::new(2);
    by_deal
        .iter()
        .map(|(deal, [a, b])| {
            for (side, games) in deal_terms[deal].iter().enumerate() {
                games.iter().for_each(|t| fit.add(side, &t.0, 1.0));
            }
            let mut adjusted = [a.1 / a.2, b.1 / b.2];
            fit.adjust(&mut adjusted, a.2);
            Deal { plain: a.0 / a.2 - b.0 / b.2, adjusted: adjusted[0] - adjusted[1], allin: a.3 / a.2 - b.3 / b.2 }
        })
        .collect()
}

fn welford(xs: impl Iterator<Item = f64>) -> Welford {
    let mut w = Welford::new();
    xs.for_each(|x| w.push(x));
    w
}

/// The unbiasedness check on one pairing's deals; prints what it measured.
fn unbiased(name: &str, deals: &[Deal]) {
    let plain = welford(deals.iter().map(|d| d.plain));
    let adjusted = welford(deals.iter().map(|d| d.adjusted));
    let gap = welford(deals.iter().map(|d| d.adjusted - d.plain));
    let se = |w: &Welford| (w.variance() / w.n() as f64).sqrt();
    let in_plain_se = (adjusted.mean() - plain.mean()).abs() / se(&plain);
    let in_gap_se = gap.mean().abs() / se(&gap);
    println!(
        "{name}: {} deals; plain {:+.4} ± {:.4}, aivat {:+.4} ± {:.4} (a game); |aivat − plain| = {:.2} plain SE, \
         {:.2} SE of the gap; variance ratio {:.2}",
        deals.len(),
        plain.mean(),
        se(&plain),
        adjusted.mean(),
        se(&adjusted),
        in_plain_se,
        in_gap_se,
        plain.variance() / adjusted.variance()
    );
    assert!(in_gap_se <= 3.0, "{name}: the adjustment's mean is {in_gap_se:.2} standard errors from zero");
}

const HOLDEM_TABLE: &str = "[table]\nformat = \"cash\"\nstack = 100\n";

#[test]
#[ignore = "slow: 1,000,000 hands; cargo test --release --test suite luck_honesty -- --ignored"]
fn holdem_adjusted_payoffs_are_unbiased() {
    let config = format!(
        "name = \"luck\"\ngame = \"holdem\"\nseed = 11\npaired = true\nestimator = \"aivat\"\n\
         bots = [\"rr-fast\", \"always-call\"]\n{HOLDEM_TABLE}"
    );
    unbiased("holdem rr-fast vs always-call", &deals("holdem-unbiased", &config, 1_000_000));
}

/// Self-play: two copies of rr under different names, so the true difference is zero.
fn holdem_self_play() -> &'static [Deal] {
    static DEALS: OnceLock<Vec<Deal>> = OnceLock::new();
    DEALS.get_or_init(|| {
        let config = format!(
            "name = \"luck\"\ngame = \"holdem\"\nseed = 12\npaired = true\nestimator = \"aivat\"\n\
             bots = [{{ name = \"a\", kind = \"rr\", params = {{ trials = 200 }} }}, \
             {{ name = \"b\", kind = \"rr\", params = {{ trials = 200 }} }}]\n{HOLDEM_TABLE}"
        );
        deals("holdem-self", &config, 400_000)
    })
}

/// How often the 95% intervals of 1,000 blocks of a self-play's deals (true difference zero)
/// cover zero, printed for plain and aivat; returns aivat's rate.
fn coverage(name: &str, deals: &[Deal]) -> f64 {
    let blocks = 1000;
    let size = deals.len() / blocks;
    let mut covered = [0usize; 2];
    for block in deals.chunks_exact(size).take(blocks) {
        let plain = welford(block.iter().map(|d| d.plain)).ci(0.95);
        let adjusted = welford(block.iter().map(|d| d.adjusted)).ci(0.95);
        covered[0] += usize::from(plain.lo <= 0.0 && 0.0 <= plain.hi);
        covered[1] += usize::from(adjusted.lo <= 0.0 && 0.0 <= adjusted.hi);
    }
    let rate = |n: usize| n as f64 / blocks as f64;
    println!(
        "{name} self-play: {blocks} blocks of {size} deals: plain intervals cover 0 {:.1}%, aivat {:.1}%",
        100.0 * rate(covered[0]),
        100.0 * rate(covered[1])
    );
    rate(covered[1])
}

#[test]
#[ignore = "slow: 400,000 hands; cargo test --release --test suite luck_honesty -- --ignored"]
fn holdem_adjusted_intervals_cover_the_truth() {
    let deals = holdem_self_play();
    let aivat = coverage("holdem", deals);
    assert!((aivat - 0.95).abs() <= 0.015, "aivat coverage {aivat:.3}");
}

#[test]
#[ignore = "slow: 400,000 hands; cargo test --release --test suite luck_honesty -- --ignored"]
fn holdem_adjusted_payoff_sprt_keeps_alpha() {
    // H0: no difference (the truth), H1: 5 big blinds a hand; α = β = 5%. The SPRTs run one
    // after another over the self-play deals, each on fresh deals.
    let sprt = Sprt::new(0.0, 500.0, 0.05, 0.05, SprtModel::Payoff)
        .unwrap()
        .in_payoff_unit(bot_arena::stats::Unit::new("bb/100", 100.0));
    let deals = holdem_self_play();
    let (mut runs, mut false_h1, mut at) = (0u64, 0u64, 0usize);
    while at < deals.len() {
        let mut diffs = Welford::new();
        let decision = loop {
            let Some(d) = deals.get(at) else { break SprtDecision::Continue };
            at += 1;
            diffs.push(d.adjusted);
            match sprt.decision(sprt.llr_payoff(&diffs)) {
                SprtDecision::Continue => {}
                decided => break decided,
            }
        };
        if decision == SprtDecision::Continue {
            break;
        }
        runs += 1;
        false_h1 += u64::from(decision == SprtDecision::AcceptH1);
    }
    let rate = false_h1 as f64 / runs as f64;
    let bound = 0.05 + 3.0 * (0.05 * 0.95 / runs as f64).sqrt();
    println!("holdem self-play: {runs} payoff SPRTs on the aivat payoff, {false_h1} false H1 ({:.2}%)", 100.0 * rate);
    assert!(runs >= 300, "only {runs} SPRTs decided");
    assert!(rate <= bound, "false H1 rate {rate:.4} above {bound:.4}");
}

/// One run's verdict as match.csv gives it: the plain mean difference and the covariates one with
/// its interval.
struct Verdict {
    plain: f64,
    adjusted: f64,
    lo: f64,
    hi: f64,
}

/// Plays `config` (no `seed`: each run gets its own) `runs` times with `games` games each, seeds
/// 1, 2, …, and returns each run's verdict.
fn covariate_runs(name: &str, config: &str, runs: u64, games: u64) -> Vec<Verdict> {
    let dir = std::env::temp_dir().join(format!("arena-covariates-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = write(&dir, "cov.toml", config);
    let out = dir.join("run");
    let verdicts = (1..=runs)
        .map(|seed| {
            let status = arena()
                .args(["run", path.to_str().unwrap(), "--quiet", "--force", "--games", &games.to_string()])
                .args(["--seed", &seed.to_string(), "--out"])
                .arg(&out)
                .status()
                .unwrap();
            assert!(status.success(), "{name}: run {seed} failed");
            let mut reader = csv::Reader::from_path(out.join("match.csv")).unwrap();
            let row = reader.deserialize::<BTreeMap<String, String>>().next().unwrap().unwrap();
            // The payoff columns end in the game's unit (`payoff_diff_chips_per_hand`): all in it.
            let unit = row
                .keys()
                .filter_map(|k| k.strip_prefix("payoff_diff_"))
                .find(|u| !u.starts_with("lo_") && !u.starts_with("hi_"));
            let unit = unit.map(str::to_string).unwrap_or_else(|| panic!("no payoff_diff_UNIT in {row:?}"));
            let x = |c: &str| row[&format!("{c}_{unit}")].parse::<f64>().unwrap();
            assert_eq!(row["estimator"], "covariates");
            Verdict {
                plain: x("payoff_diff"),
                adjusted: x("adjusted_payoff_diff"),
                lo: x("adjusted_payoff_diff_lo"),
                hi: x("adjusted_payoff_diff_hi"),
            }
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    verdicts
}

#[test]
#[ignore = "slow: 1,000,000 hands in 200 runs; cargo test --release --test suite luck_honesty -- --ignored"]
fn covariate_adjusted_payoffs_are_unbiased() {
    // Unpaired, where the starting strengths are not taken out by seat rotation. The runs are
    // independent, so the runs' (adjusted − plain) averages to its mean with a known error.
    let config = "name = \"cov\"\ngame = \"zhajinhua\"\nestimator = \"covariates\"\nbots = [\"ev\", \"ev-adaptive\"]\n";
    let runs = covariate_runs("unbiased", config, 200, 5_000);
    let gap = welford(runs.iter().map(|r| r.adjusted - r.plain));
    let plain = welford(runs.iter().map(|r| r.plain));
    let adjusted = welford(runs.iter().map(|r| r.adjusted));
    let se = |w: &Welford| (w.variance() / w.n() as f64).sqrt();
    let in_gap_se = gap.mean().abs() / se(&gap);
    println!(
        "zhajinhua ev vs ev-adaptive, 200 runs of 5,000 hands: plain {:+.4} ± {:.4}, covariates {:+.4} ± {:.4} a hand; \
         |covariates − plain| = {:.2} plain SE, {:.2} SE of the gap; variance ratio over runs {:.2}",
        plain.mean(),
        se(&plain),
        adjusted.mean(),
        se(&adjusted),
        (adjusted.mean() - plain.mean()).abs() / se(&plain),
        in_gap_se,
        plain.variance() / adjusted.variance()
    );
    assert!(in_gap_se <= 3.0, "the adjustment's mean is {in_gap_se:.2} standard errors from zero");
}

#[test]
#[ignore = "slow: 400,000 hands in 1,000 runs; cargo test --release --test suite luck_honesty -- --ignored"]
fn covariate_adjusted_intervals_cover_the_truth() {
    // Self-play: ev against itself under two names, so the true difference is zero.
    let config = "name = \"cov\"\ngame = \"zhajinhua\"\nestimator = \"covariates\"\n\
                  bots = [{ name = \"a\", kind = \"ev\" }, { name = \"b\", kind = \"ev\" }]\n";
    let runs = covariate_runs("coverage", config, 1000, 400);
    let covered = runs.iter().filter(|r| r.lo <= 0.0 && 0.0 <= r.hi).count();
    let rate = covered as f64 / runs.len() as f64;
    println!("zhajinhua self-play: 1,000 runs of 400 hands: covariates intervals cover 0 {:.1}%", 100.0 * rate);
    assert!((rate - 0.95).abs() <= 0.015, "covariates coverage {rate:.3}");
}

#[test]
#[ignore = "slow: 800,000 hands; cargo test --release --test suite luck_honesty::stud -- --ignored"]
fn stud_adjusted_payoffs_are_unbiased() {
    // Issue 51: over 20 seeds stud's all-in adjusted mean sat +0.07 chips a hand above the plain
    // one (z = +2.5). The term's mean is zero exactly (luck.rs counts it the slow way); here the
    // run says the same: `expert` against `always-call` (configs/luck/), 400,000 deals with the
    // all-in adjustment exact, and AIVAT's on the same games (its last step exact too). The gap
    // of the difference (twice a bot's) has a standard error of about 0.03 chips here, so a bias
    // of 0.07 chips a hand, 0.14 in the difference, would stand about 4.6 of them from zero.
    let config = "name = \"luck\"\ngame = \"stud\"\nseed = 15\npaired = true\nestimator = \"all-in\"\n\
         bots = [\"expert\", \"always-call\"]\n[table]\nante = 1\nstack = 100\ndeck = \"full\"\n";
    let deals = deals("stud-unbiased", config, 800_000);
    unbiased("stud expert vs always-call, aivat", &deals);
    let allin: Vec<Deal> = deals.iter().map(|d| Deal { adjusted: d.allin, ..*d }).collect();
    unbiased("stud expert vs always-call, all-in", &allin);
}

/// Mahjong (one hand, no flowers): the table of the luck runs, every deal's wall replayed with
/// the seats rotated.
const MAHJONG_TABLE: &str = "seats = 4\n[table]\nmin_fans = 8\n";

#[test]
#[ignore = "slow: 40,000 hands; cargo test --release --test suite luck_honesty::mahjong -- --ignored"]
fn mahjong_adjusted_payoffs_are_unbiased() {
    let config = format!(
        "name = \"luck\"\ngame = \"mahjong\"\nseed = 13\npaired = true\nestimator = \"aivat\"\n\
         bots = [\"pruned\", \"greedy\", \"greedy\", \"greedy\"]\n{MAHJONG_TABLE}"
    );
    unbiased("mahjong pruned vs greedy", &deals("mahjong-unbiased", &config, 40_000));
}

#[test]
#[ignore = "slow: 40,000 hands; cargo test --release --test suite luck_honesty::mahjong -- --ignored"]
fn mahjong_adjusted_intervals_cover_the_truth() {
    // Self-play: the pruned search with its opponent model (which draws from the bot's random
    // stream) in one seat under one name and in three under another, so the true difference is
    // zero. Not `greedy`: it never draws at random, so the four rotations of a wall play the same
    // hand and every deal's difference is zero, plain and adjusted alike.
    let bot = |name: &str| format!("{{ name = \"{name}\", kind = \"pruned\", params = {{ opponent_model = true }} }}");
    let config = format!(
        "name = \"luck\"\ngame = \"mahjong\"\nseed = 14\npaired = true\nestimator = \"aivat\"\n\
         bots = [{}, {}, {}, {}]\n{MAHJONG_TABLE}",
        bot("a"),
        bot("b"),
        bot("b"),
        bot("b")
    );
    let deals = deals("mahjong-self", &config, 40_000);
    let aivat = coverage("mahjong", &deals);
    assert!(
        deals.iter().any(|d| d.plain != 0.0),
        "every deal's difference is zero: the self-play cannot test coverage"
    );
    unbiased("mahjong pruned self-play", &deals);
    assert!((aivat - 0.95).abs() <= 0.015, "aivat coverage {aivat:.3}");
}
