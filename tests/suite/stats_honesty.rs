//! Honesty checks (issue 2, item 7) by simulation with fixed seeds: do the 95% intervals contain the
//! truth 95% of the time, and does the SPRT keep its error rates?
//!
//! Each test prints its measured rate; see them with
//! `cargo test --release --test suite stats_honesty:: -- --nocapture --test-threads 1`.
//!
//! Tolerances: a coverage rate over M = 2000 matches has a sampling standard deviation of
//! √(0.95·0.05/2000) = 0.49%, so the 95% ± 2% is about four standard deviations. An SPRT error
//! rate over R runs is checked against α + 3·√(α(1 − α)/R) (three standard deviations of sampling error).

use bot_arena::stats::sprt::mle_with_t_value;
use bot_arena::stats::{
    elo_from_score, Outcome, Pentanomial, Sprt, SprtDecision, SprtModel, Trinomial, Welford, NELO_PER_T, PENTA_SCORES,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MATCHES: usize = 2000;

/// Draws an index from the discrete distribution `p` (summing to 1).
fn sample(rng: &mut ChaCha8Rng, p: &[f64]) -> usize {
    let mut u: f64 = rng.random();
    for (i, pi) in p.iter().enumerate() {
        if u < *pi {
            return i;
        }
        u -= pi;
    }
    p.len() - 1
}

/// Outcome probabilities (loss, draw, win) of one game for bot A.
type Lwd = [f64; 3];
const OUTCOMES: [Outcome; 3] = [Outcome::Loss, Outcome::Draw, Outcome::Win];

fn mean_score(p: &Lwd) -> f64 {
    0.5 * p[1] + p[2]
}

/// A paired match model: every deal favours one seat (either with probability ½); A plays the deal
/// once in each seat, so it gets one game with the favoured seat (`fav`) and one without (`unfav`).
/// The two games of a pair are then strongly anti-correlated, like duplicate poker or openings with
/// a colour advantage.
struct PairModel {
    fav: Lwd,
    unfav: Lwd,
}

impl PairModel {
    fn true_score(&self) -> f64 {
        (mean_score(&self.fav) + mean_score(&self.unfav)) / 2.0
    }

    /// Plays `pairs` pairs; returns the pentanomial counts and the same games as trinomial counts.
    fn play(&self, rng: &mut ChaCha8Rng, pairs: usize) -> (Pentanomial, Trinomial) {
        let (mut penta, mut tri) = (Pentanomial::default(), Trinomial::default());
        for _ in 0..pairs {
            let seat1_favoured = rng.random::<bool>();
            let (p1, p2) = if seat1_favoured { (&self.fav, &self.unfav) } else { (&self.unfav, &self.fav) };
            let (g1, g2) = (OUTCOMES[sample(rng, p1)], OUTCOMES[sample(rng, p2)]);
            penta.add_pair(g1, g2);
            tri.add(g1);
            tri.add(g2);
        }
        (penta, tri)
    }
}

fn rate(hits: usize, of: usize) -> f64 {
    hits as f64 / of as f64
}

fn assert_coverage(what: &str, covered: usize) {
    let r = rate(covered, MATCHES);
    println!("honesty: {what}: 95% interval covers the truth in {:.2}% of {MATCHES} matches", 100.0 * r);
    assert!((0.93..=0.97).contains(&r), "{what}: coverage {r}");
}

/// Unpaired games: M matches of 200 independent games; the Elo interval (trinomial) must contain
/// the true Elo difference: 0 for equal players, and elo(0.6) for a stronger A.
#[test]
fn coverage_trinomial() {
    for (name, p) in [("equal, 40% draws", [0.3, 0.4, 0.3]), ("A scores 0.6", [0.2, 0.4, 0.4])] {
        let truth = elo_from_score(mean_score(&p));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let covered = (0..MATCHES)
            .filter(|_| {
                let mut t = Trinomial::default();
                (0..200).for_each(|_| t.add(OUTCOMES[sample(&mut rng, &p)]));
                t.estimate().elo_interval().contains(truth)
            })
            .count();
        assert_coverage(&format!("trinomial Elo, {name}"), covered);
    }
}

/// Paired games: M matches of 100 pairs (200 games) with a strong seat advantage. The pentanomial
/// interval covers at the nominal rate; the trinomial interval on the very same games (which wrongly
/// treats the two games of a pair as independent) is too wide here, which is what pairing buys.
#[test]
fn coverage_pentanomial_correlated_pairs() {
    let equal = PairModel { fav: [0.1, 0.2, 0.7], unfav: [0.7, 0.2, 0.1] };
    let stronger = PairModel { fav: [0.1, 0.15, 0.75], unfav: [0.6, 0.25, 0.15] };
    for (name, model) in [("equal", equal), ("A stronger", stronger)] {
        let truth = elo_from_score(model.true_score());
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let (mut covered, mut covered_unpaired) = (0, 0);
        let (mut var_paired, mut var_unpaired) = (0.0, 0.0);
        for _ in 0..MATCHES {
            let (penta, tri) = model.play(&mut rng, 100);
            let (p, t) = (penta.estimate(), tri.estimate());
            covered += p.elo_interval().contains(truth) as usize;
            covered_unpaired += t.elo_interval().contains(truth) as usize;
            var_paired += p.se * p.se;
            var_unpaired += t.se * t.se;
        }
        assert_coverage(&format!("pentanomial Elo, correlated pairs, {name} (truth {truth:.1})"), covered);
        println!(
            "honesty:   same games scored unpaired (trinomial): coverage {:.2}%, variance ratio paired/unpaired {:.3}",
            100.0 * rate(covered_unpaired, MATCHES),
            var_paired / var_unpaired
        );
        // The model's pairs are anti-correlated: unpaired scoring overstates the variance.
        assert!(var_paired < 0.7 * var_unpaired && rate(covered_unpaired, MATCHES) > 0.975);
    }
}

/// Student-t interval on paired payoff differences with true mean 0: M matches of 200 pairs, for a
/// symmetric heavy-tailed difference (±Exp, chip swings) and a skewed one (Exp(1) − 1).
#[test]
fn coverage_t_interval_payoff_difference() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let exp = |rng: &mut ChaCha8Rng| -(1.0 - rng.random::<f64>()).ln();
    for name in ["symmetric ±100·Exp(1)", "skewed Exp(1) − 1"] {
        let covered = (0..MATCHES)
            .filter(|_| {
                let mut w = Welford::new();
                for _ in 0..200 {
                    let x = if name.starts_with("sym") {
                        let sign = if rng.random::<bool>() { 1.0 } else { -1.0 };
                        sign * 100.0 * exp(&mut rng)
                    } else {
                        exp(&mut rng) - 1.0
                    };
                    w.push(x);
                }
                let ci = w.ci(0.95);
                ci.lo <= 0.0 && 0.0 <= ci.hi
            })
            .count();
        assert_coverage(&format!("t interval, payoff difference, {name}"), covered);
    }
}

/// Runs `runs` sequential tests, each from an empty tally: `step` adds observations (as many as the
/// harness plays between two looks at the LLR), until `sprt` decides on `llr` of the tally. Returns
/// how many accepted H1 and the mean `size` of the tally at the decision.
fn sprt_runs<T: Default>(
    sprt: &Sprt,
    runs: usize,
    seed: u64,
    mut step: impl FnMut(&mut T, &mut ChaCha8Rng),
    llr: impl Fn(&Sprt, &T) -> f64,
    size: impl Fn(&T) -> u64,
) -> (usize, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut h1, mut total) = (0, 0u64);
    for _ in 0..runs {
        let mut tally = T::default();
        loop {
            step(&mut tally, &mut rng);
            match sprt.decision(llr(sprt, &tally)) {
                SprtDecision::Continue => continue,
                d => {
                    h1 += (d == SprtDecision::AcceptH1) as usize;
                    total += size(&tally);
                    break;
                }
            }
        }
    }
    (h1, total as f64 / runs as f64)
}

/// [`sprt_runs`] on pairs drawn from the pentanomial distribution `truth`, `batch` pairs a look.
fn sprt_runs_penta(sprt: &Sprt, truth: &[f64], runs: usize, batch: usize, seed: u64) -> (usize, f64) {
    let step = |p: &mut Pentanomial, rng: &mut ChaCha8Rng| (0..batch).for_each(|_| p.0[sample(rng, truth)] += 1);
    sprt_runs(sprt, runs, seed, step, Sprt::llr_penta, Pentanomial::pairs)
}

/// The same on games drawn from the trinomial distribution `truth` (loss, draw, win).
fn sprt_runs_tri(sprt: &Sprt, truth: &Lwd, runs: usize, batch: usize, seed: u64) -> (usize, f64) {
    let step = |t: &mut Trinomial, rng: &mut ChaCha8Rng| (0..batch).for_each(|_| t.add(OUTCOMES[sample(rng, truth)]));
    sprt_runs(sprt, runs, seed, step, Sprt::llr_tri, Trinomial::games)
}

fn max_rate(target: f64, runs: usize) -> f64 {
    target + 3.0 * (target * (1.0 - target) / runs as f64).sqrt()
}

/// Normalized SPRT [0, 5] nElo on pairs: equal players accept H1 at most α of the time; players
/// exactly at nElo 5 accept H0 at most β of the time; a clearly stronger player accepts H1.
#[test]
fn sprt_error_rates_normalized_pentanomial() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
    // Equal players: a symmetric pentanomial distribution (true nElo 0).
    let equal = [0.04, 0.22, 0.48, 0.22, 0.04];
    let runs = 2000;
    let (h1, pairs) = sprt_runs_penta(&sprt, &equal, runs, 50, 4);
    let fp = rate(h1, runs);
    println!("honesty: SPRT normalized [0, 5] pentanomial, true nElo 0: accepts H1 in {:.2}% of {runs} runs (alpha 5%), mean {pairs:.0} pairs", 100.0 * fp);
    assert!(fp <= max_rate(0.05, runs), "false-positive rate {fp}");

    // Exactly at H1: the closest distribution to `equal` with per-pair t-value √2 · 5/(800/ln 10).
    let t1 = 5.0 / NELO_PER_T * 2f64.sqrt();
    let at_h1 = mle_with_t_value(&PENTA_SCORES, &equal, 0.5, t1).unwrap();
    let nelo = true_nelo_penta(&at_h1);
    assert!((nelo - 5.0).abs() < 1e-9, "{nelo}");
    let (h1, pairs) = sprt_runs_penta(&sprt, &at_h1, runs, 50, 5);
    let fnr = rate(runs - h1, runs);
    println!("honesty: SPRT normalized [0, 5] pentanomial, true nElo 5: accepts H0 in {:.2}% of {runs} runs (beta 5%), mean {pairs:.0} pairs", 100.0 * fnr);
    assert!(fnr <= max_rate(0.05, runs), "false-negative rate {fnr}");

    // Clearly stronger (true nElo 20, four times elo1): H1 nearly always.
    let strong = mle_with_t_value(&PENTA_SCORES, &equal, 0.5, 4.0 * t1).unwrap();
    let runs = 500;
    let (h1, pairs) = sprt_runs_penta(&sprt, &strong, runs, 50, 6);
    println!("honesty: SPRT normalized [0, 5] pentanomial, true nElo {:.1}: accepts H1 in {:.2}% of {runs} runs, mean {pairs:.0} pairs", true_nelo_penta(&strong), 100.0 * rate(h1, runs));
    assert!(rate(h1, runs) >= 0.99);
}

/// Logistic SPRT [0, 5] Elo on single games: the same checks.
#[test]
fn sprt_error_rates_logistic_trinomial() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
    let runs = 2000;
    let (h1, games) = sprt_runs_tri(&sprt, &[0.3, 0.4, 0.3], runs, 100, 7);
    let fp = rate(h1, runs);
    println!("honesty: SPRT logistic [0, 5] trinomial, true Elo 0: accepts H1 in {:.2}% of {runs} runs (alpha 5%), mean {games:.0} games", 100.0 * fp);
    assert!(fp <= max_rate(0.05, runs), "false-positive rate {fp}");

    // True Elo 5 with 40% draws: win − loss = 2·s(5) − 1.
    let s5 = bot_arena::stats::score_from_elo(5.0);
    let at_h1 = [0.3 - (s5 - 0.5), 0.4, 0.3 + (s5 - 0.5)];
    assert!((elo_from_score(mean_score(&at_h1)) - 5.0).abs() < 1e-9);
    let (h1, games) = sprt_runs_tri(&sprt, &at_h1, runs, 100, 8);
    let fnr = rate(runs - h1, runs);
    println!("honesty: SPRT logistic [0, 5] trinomial, true Elo 5: accepts H0 in {:.2}% of {runs} runs (beta 5%), mean {games:.0} games", 100.0 * fnr);
    assert!(fnr <= max_rate(0.05, runs), "false-negative rate {fnr}");

    let strong = [0.27, 0.4, 0.33]; // score 0.53, Elo ≈ 20.9
    let runs = 500;
    let (h1, games) = sprt_runs_tri(&sprt, &strong, runs, 100, 9);
    println!("honesty: SPRT logistic [0, 5] trinomial, true Elo {:.1}: accepts H1 in {:.2}% of {runs} runs, mean {games:.0} games", elo_from_score(mean_score(&strong)), 100.0 * rate(h1, runs));
    assert!(rate(h1, runs) >= 0.99);
}

/// nElo of a pentanomial distribution: (μ − ½)/(√2·σ_pair) · 800/ln 10.
fn true_nelo_penta(p: &[f64]) -> f64 {
    let mu: f64 = p.iter().zip(PENTA_SCORES).map(|(p, a)| p * a).sum();
    let var: f64 = p.iter().zip(PENTA_SCORES).map(|(p, a)| p * (a - mu).powi(2)).sum();
    (mu - 0.5) / (2.0 * var).sqrt() * NELO_PER_T
}

/// A payoff difference of one duplicate pair shaped like real poker pairs: 30% of pairs end with
/// exactly the same difference (in real hold'em pairs many hands are identical folds; here +5 from
/// the mean, which is the H1 of the test below when the truth is 0), the others spread with heavy
/// tails: mostly small pots, now and then a big one, rarely a huge one. Mean `mean`, sd about 32.
/// Exact repeats are what fools a variance estimated from a few pairs: with no minimum number of
/// observations, a first pair at +5 has no spread and sits on H1, and the test accepts H1 at once.
fn poker_like(rng: &mut ChaCha8Rng, mean: f64) -> f64 {
    if rng.random_bool(0.3) {
        return mean + 5.0;
    }
    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    let u: f64 = rng.random();
    let size = if u < 0.80 {
        rng.random_range(0.0..5.0)
    } else if u < 0.95 {
        rng.random_range(20.0..60.0)
    } else {
        rng.random_range(100.0..200.0)
    };
    // The spread part's mean offsets the repeats' +5 (0.3 · 5 = 0.7 · 15/7).
    mean - 15.0 / 7.0 + sign * size
}

/// [`sprt_runs`] on payoff differences drawn with mean `truth`, looking at the LLR after every one
/// (as the harness does after every pair).
fn sprt_runs_payoff(sprt: &Sprt, truth: f64, runs: usize, seed: u64) -> (usize, f64) {
    let step = |w: &mut Welford, rng: &mut ChaCha8Rng| w.push(poker_like(rng, truth));
    sprt_runs(sprt, runs, seed, step, Sprt::llr_payoff, Welford::n)
}

/// Payoff SPRT [0, 5] on poker-like pairs: no difference accepts H1 at most α of the time; a
/// difference of exactly 5 accepts H0 at most β of the time; 20 accepts H1 nearly always.
#[test]
fn sprt_error_rates_payoff() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Payoff).unwrap();
    let runs = 2000;
    let (h1, n) = sprt_runs_payoff(&sprt, 0.0, runs, 11);
    let fp = rate(h1, runs);
    println!("honesty: SPRT payoff [0, 5], poker-like pairs, true difference 0: accepts H1 in {:.2}% of {runs} runs (alpha 5%), mean {n:.0} pairs", 100.0 * fp);
    assert!(fp <= max_rate(0.05, runs), "false-positive rate {fp}");
    let (h1, n) = sprt_runs_payoff(&sprt, 5.0, runs, 12);
    let fnr = rate(runs - h1, runs);
    println!("honesty: SPRT payoff [0, 5], poker-like pairs, true difference 5: accepts H0 in {:.2}% of {runs} runs (beta 5%), mean {n:.0} pairs", 100.0 * fnr);
    assert!(fnr <= max_rate(0.05, runs), "false-negative rate {fnr}");
    let runs = 500;
    let (h1, n) = sprt_runs_payoff(&sprt, 20.0, runs, 13);
    println!("honesty: SPRT payoff [0, 5], poker-like pairs, true difference 20: accepts H1 in {:.2}% of {runs} runs, mean {n:.0} pairs", 100.0 * rate(h1, runs));
    assert!(rate(h1, runs) >= 0.99);
}
