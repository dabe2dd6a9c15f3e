//! Honesty of the verdicts beyond two bots heads-up (issue 17), by simulation with fixed seeds: do
//! the deal-clustered 95% intervals (N-seat fields, per-bot summaries of paired runs) and the rating
//! lists' intervals cover the truth 95 ± 1.5% of the time, and does the payoff SPRT on an N-seat
//! difference keep its error rates?
//!
//! Each test prints its measured rates; see them with
//! `cargo test --release --test suite verdict_honesty:: -- --nocapture --test-threads 1`.
//!
//! Tolerances: a coverage rate over M = 2000 runs has a sampling standard deviation of
//! √(0.95·0.05/2000) = 0.49%, so 95 ± 1.5% is three standard deviations. An SPRT error rate over R
//! runs is checked against α + 3·√(α(1 − α)/R).

use bot_arena::stats::{
    payoff_ratings, Anchor, ClusteredMean, Comparisons, FieldStats, Interval, PairScore, Sprt, SprtDecision, SprtModel,
    TableField, Welford, Z95,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const RUNS: usize = 2000;

/// Every two of `n` bots, (a, b) with a < b.
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
}

fn rate(hits: usize, of: usize) -> f64 {
    hits as f64 / of as f64
}

fn assert_coverage(what: &str, covered: usize, of: usize) {
    let r = rate(covered, of);
    println!("honesty: {what}: 95% interval covers the truth in {:.2}% of {of}", 100.0 * r);
    assert!((0.935..=0.965).contains(&r), "{what}: coverage {r}");
}

fn exp(rng: &mut ChaCha8Rng) -> f64 {
    -(1.0 - rng.random::<f64>()).ln()
}

/// A deal of a mahjong-like game at `seats` seats: every seat gets a hand quality for the deal, and
/// the deal a value (8 points and a heavy tail). It is played once per seat rotation (paired) or
/// once: in each game one seat wins, with probability in proportion to its hand's quality (none in
/// a fifth of the games), and takes the value from each of the others. Then every seat's payoff is
/// shifted by its bot's skill minus the table's mean skill (still zero-sum), so bot a makes
/// skill[a] − skill[b] per game more than bot b whatever the luck.
///
/// The games of a deal share its hands and value: strongly correlated, heavy-tailed, as real
/// duplicate mahjong is. Calls `f(rotation, payoffs by seat)`, `table[seat]` naming the bots.
fn mahjong_deal(
    rng: &mut ChaCha8Rng,
    table: &[usize],
    skill: &[f64],
    rotations: usize,
    mut f: impl FnMut(usize, &[f64]),
) {
    let seats = table.len();
    let quality: Vec<f64> = (0..seats).map(|_| exp(rng).powi(2)).collect();
    let total: f64 = quality.iter().sum();
    let value = 8.0 + (8.0 * exp(rng)).floor() + if rng.random_bool(0.05) { 64.0 } else { 0.0 };
    let mut payoff = vec![0.0; seats];
    for r in 0..rotations {
        let bot = |seat: usize| table[(seat + r) % seats];
        let mean_skill = (0..seats).map(|s| skill[bot(s)]).sum::<f64>() / seats as f64;
        let mut u = rng.random::<f64>() * total / 0.8;
        let winner = quality.iter().position(|&q| {
            u -= q;
            u < 0.0
        });
        for (s, p) in payoff.iter_mut().enumerate() {
            let luck = match winner {
                Some(w) if w == s => value * (seats - 1) as f64,
                Some(_) => -value,
                None => 0.0,
            };
            *p = luck + skill[bot(s)] - mean_skill;
        }
        f(r, &payoff);
    }
}

/// Each distinct bot's mean payoff per game over one deal, pooled over its seats and rotations.
fn deal_means(rng: &mut ChaCha8Rng, table: &[usize], bots: &[usize], skill: &[f64], rotations: usize) -> Vec<f64> {
    let (mut sum, mut games) = (vec![0.0; bots.len()], vec![0.0; bots.len()]);
    mahjong_deal(rng, table, skill, rotations, |r, payoff| {
        for (seat, p) in payoff.iter().enumerate() {
            let k = bots.iter().position(|&b| b == table[(seat + r) % table.len()]).unwrap();
            sum[k] += p;
            games[k] += 1.0;
        }
    });
    sum.iter().zip(&games).map(|(s, g)| s / g).collect()
}

/// One bot against three copies of another at a four-seat table, 200 deals each replayed with the
/// seats rotated (800 games): the deal-clustered interval of the difference covers the truth. The
/// same games scored as independent games (each game's pooled difference) do not: the rotations
/// of a deal cancel much of its luck, so the per-game interval is too wide (it covers 97.95%).
#[test]
fn n_seat_difference_covers_the_truth() {
    let skill = [1.5, 0.0];
    let truth = skill[0] - skill[1];
    let table = [0, 1, 1, 1];
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut covered, mut covered_by_game) = (0, 0);
    let (mut width, mut width_by_game) = (0.0, 0.0);
    for _ in 0..RUNS {
        let mut field = FieldStats::new(2);
        let mut games = Welford::new();
        for _ in 0..200 {
            let (mut sum, mut deal) = ([0.0; 2], [0.0; 2]);
            mahjong_deal(&mut rng, &table, &skill, 4, |r, payoff| {
                let mut game = [0.0; 2];
                for (seat, p) in payoff.iter().enumerate() {
                    let k = table[(seat + r) % 4];
                    game[k] += p / if k == 0 { 1.0 } else { 3.0 };
                    deal[k] += p;
                }
                games.push(game[0] - game[1]);
                sum[0] += 1.0;
                sum[1] += 3.0;
            });
            field.push(&[deal[0] / sum[0], deal[1] / sum[1]]);
        }
        let (d, g) = (field.difference(0, 1).ci(0.95), games.ci(0.95));
        covered += usize::from(d.interval().contains(truth));
        covered_by_game += usize::from(g.interval().contains(truth));
        width += d.hi - d.lo;
        width_by_game += g.hi - g.lo;
    }
    assert_coverage("N-seat difference, one bot against three copies, 4 rotations, by deal", covered, RUNS);
    println!(
        "honesty:   the same games as independent games: coverage {:.2}%, interval {:.2} times as wide",
        100.0 * rate(covered_by_game, RUNS),
        width_by_game / width
    );
    assert!(rate(covered_by_game, RUNS) > 0.965 && width_by_game > 1.1 * width);
}

/// Unpaired games with copies: three bots at a four-seat table, the middle one twice, no
/// rotations, 400 games. A game is its own cluster; the copies' payoffs in one game are pooled (they
/// are negatively correlated). Covers the bots' mean payoffs per game ([`ClusteredMean`], as
/// summary.csv computes them) and the differences.
#[test]
fn copies_at_one_table_cover_the_truth() {
    let skill = [-2.0, 1.0, 0.5];
    let table = [0, 1, 1, 2];
    // Zero-sum with skill shifts: a seat makes its bot's skill minus the mean over the seats.
    let mean_skill = table.iter().map(|&b| skill[b]).sum::<f64>() / 4.0;
    let copies = [1.0, 2.0, 1.0];
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let (mut covered, mut covered_diff) = ([0; 3], [0; 2]);
    for _ in 0..RUNS {
        let mut field = FieldStats::new(3);
        let mut bots = [ClusteredMean::new(); 3];
        for _ in 0..400 {
            let means = deal_means(&mut rng, &table, &[0, 1, 2], &skill, 1);
            for k in 0..3 {
                bots[k].push(copies[k] * means[k], copies[k]);
            }
            field.push(&means);
        }
        for k in 0..3 {
            covered[k] += usize::from(bots[k].ci(0.95).interval().contains(skill[k] - mean_skill));
        }
        for (k, (a, b)) in [(0, 1), (1, 2)].into_iter().enumerate() {
            covered_diff[k] += usize::from(field.difference(a, b).ci(0.95).interval().contains(skill[a] - skill[b]));
        }
    }
    for (k, what) in ["a lone bot's", "two copies' pooled", "the third bot's"].iter().enumerate() {
        assert_coverage(&format!("unpaired, copies at the table, {what} mean payoff"), covered[k], RUNS);
    }
    assert_coverage("unpaired, copies at the table, lone bot − copies", covered_diff[0], RUNS);
    assert_coverage("unpaired, copies at the table, copies − third bot", covered_diff[1], RUNS);
}

/// Outcome probabilities (loss, draw, win) of one game with expected score `s` and draws at
/// `draw_share` of the most the score allows.
fn lwd(s: f64, draw_share: f64) -> [f64; 3] {
    let draw = draw_share * 2.0 * s.min(1.0 - s);
    [1.0 - s - draw / 2.0, draw, s - draw / 2.0]
}

/// Half points (0, 1, 2) of one game.
fn play(rng: &mut ChaCha8Rng, p: &[f64; 3]) -> u64 {
    let u: f64 = rng.random();
    if u < p[0] {
        0
    } else if u < p[0] + p[1] {
        1
    } else {
        2
    }
}

/// A duplicate pair of games with a strong seat advantage: A's expected score is s + δ in the
/// favoured seat and s − δ in the other, δ = half the room the score leaves. The pair's games are
/// strongly anti-correlated. Returns A's half points in each game.
fn pair(rng: &mut ChaCha8Rng, s: f64) -> [u64; 2] {
    let delta = 0.5 * s.min(1.0 - s);
    [play(rng, &lwd(s + delta, 0.4)), play(rng, &lwd(s - delta, 0.4))]
}

/// A bot's win rate and mean score per game in paired two-seat games, as summary.csv computes them
/// for paired runs: clustered by pair (Wilson at the effective sample size, and the clustered mean).
/// The per-game Wilson interval on the same games covers too often (97.25%: the pairs' games are
/// anti-correlated), which is what clustering fixes.
#[test]
fn paired_summary_intervals_cover_the_truth() {
    let s: f64 = 0.6;
    let delta = 0.5 * s.min(1.0 - s);
    let (fav, unfav) = (lwd(s + delta, 0.4), lwd(s - delta, 0.4));
    let win_truth = (fav[2] + unfav[2]) / 2.0;
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let (mut wins_covered, mut score_covered, mut per_game) = (0, 0, 0);
    for _ in 0..RUNS {
        let (mut wins, mut score) = (ClusteredMean::new(), ClusteredMean::new());
        let mut won = 0;
        for _ in 0..150 {
            let g = pair(&mut rng, s);
            let w = g.iter().filter(|&&h| h == 2).count();
            won += w;
            wins.push(w as f64, 2.0);
            score.push((g[0] + g[1]) as f64 / 2.0, 2.0);
        }
        wins_covered += usize::from(wins.wilson(Z95).contains(win_truth));
        score_covered += usize::from(score.ci(0.95).interval().contains(s));
        per_game += usize::from(bot_arena::stats::wilson(won as f64, 300.0, Z95).contains(win_truth));
    }
    assert_coverage(
        &format!("paired win rate (truth {:.1}%), clustered by pair", 100.0 * win_truth),
        wins_covered,
        RUNS,
    );
    assert_coverage("paired mean score, clustered by pair", score_covered, RUNS);
    println!("honesty:   the same win rate over games: coverage {:.2}%", 100.0 * rate(per_game, RUNS));
    assert!(rate(per_game, RUNS) > 0.965);
}

/// True Elo ratings of five bots (mean 0).
const ELO: [f64; 5] = [-160.0, -60.0, 10.0, 70.0, 140.0];

/// A round robin of the five bots, `games` duplicate pairs of games a pairing, into
/// [`Comparisons`], one cluster per pair of games.
fn round_robin(rng: &mut ChaCha8Rng, games: usize) -> Comparisons {
    let mut c = Comparisons::new(5);
    for (a, b) in pairs(5) {
        let s = bot_arena::stats::score_from_elo(ELO[a] - ELO[b]);
        for _ in 0..games {
            let g = pair(rng, s);
            c.push_cluster(&[PairScore { a, b, half_points: g[0] + g[1], games: 2 }]);
        }
    }
    c
}

/// The Elo rating list of a five-bot paired round robin (100 pairs a pairing, 2,000 games, 40% of
/// the room for draws): each rating's interval (anchored at the mean) and each difference's covers
/// the truth.
#[test]
fn elo_rating_list_covers_the_truth() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let (mut covered, mut covered_diff) = ([0; 5], 0);
    for _ in 0..RUNS {
        let list = round_robin(&mut rng, 100).elo(Anchor::Mean);
        for (i, r) in list.ratings.iter().enumerate() {
            covered[i] += usize::from(Interval { lo: r.lo, hi: r.hi }.contains(ELO[i]));
        }
        for (a, b) in pairs(5) {
            covered_diff += usize::from(list.difference(a, b).contains(ELO[a] - ELO[b]));
        }
    }
    for (i, &c) in covered.iter().enumerate() {
        assert_coverage(&format!("Elo rating list, paired round robin, bot at {:+}", ELO[i]), c, RUNS);
    }
    assert_coverage("Elo rating list, the ten differences", covered_diff, 10 * RUNS);
}

/// Payoff ratings of five bots at every three-seat table (ten tables, 100 deals each, every deal
/// played in the three rotations) in the mahjong-like game: each rating's interval (anchored at
/// the mean) and each difference's covers the truth.
#[test]
fn payoff_rating_list_covers_the_truth() {
    let skill = [-3.0, -1.0, 0.0, 1.5, 2.5];
    let mean = skill.iter().sum::<f64>() / 5.0;
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let tables: Vec<[usize; 3]> = pairs(5).flat_map(|(a, b)| (b + 1..5).map(move |c| [a, b, c])).collect();
    let (mut covered, mut covered_diff) = ([0; 5], 0);
    for _ in 0..RUNS {
        let fields: Vec<FieldStats> = tables
            .iter()
            .map(|t| {
                let mut f = FieldStats::new(3);
                (0..100).for_each(|_| f.push(&deal_means(&mut rng, t, t, &skill, 3)));
                f
            })
            .collect();
        let parts: Vec<TableField> =
            tables.iter().zip(&fields).map(|(t, f)| TableField { bots: t, field: f }).collect();
        let list = payoff_ratings(5, &parts, Anchor::Mean);
        for (i, r) in list.ratings.iter().enumerate() {
            covered[i] += usize::from(Interval { lo: r.lo, hi: r.hi }.contains(skill[i] - mean));
        }
        for (a, b) in pairs(5) {
            covered_diff += usize::from(list.difference(a, b).contains(skill[a] - skill[b]));
        }
    }
    for (i, &c) in covered.iter().enumerate() {
        assert_coverage(&format!("payoff rating list, 3-seat tables, bot at {:+}", skill[i] - mean), c, RUNS);
    }
    assert_coverage("payoff rating list, the ten differences", covered_diff, 10 * RUNS);
}

/// The payoff SPRT on one bot against three copies at a four-seat table (each deal replayed in the
/// four rotations, one observation a deal, as the runner feeds it): H0 difference 0, H1 difference
/// 4 points a game. Equal bots accept H1 at most α of the time, bots exactly 4 apart accept H0 at
/// most β of the time.
#[test]
fn payoff_sprt_on_an_n_seat_difference_keeps_its_error_rates() {
    let sprt = Sprt::new(0.0, 4.0, 0.05, 0.05, SprtModel::Payoff).unwrap();
    let table = [0, 1, 1, 1];
    let runs = RUNS;
    let max_rate = |target: f64| target + 3.0 * (target * (1.0 - target) / runs as f64).sqrt();
    for (truth, seed) in [(0.0, 26), (4.0, 27)] {
        let skill = [truth, 0.0];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut h1, mut deals) = (0, 0u64);
        for _ in 0..runs {
            let mut field = FieldStats::new(2);
            loop {
                field.push(&deal_means(&mut rng, &table, &[0, 1], &skill, 4));
                match sprt.decision(sprt.llr_payoff(&field.difference(0, 1))) {
                    SprtDecision::Continue => continue,
                    d => {
                        h1 += usize::from(d == SprtDecision::AcceptH1);
                        deals += field.deals();
                        break;
                    }
                }
            }
        }
        let (wrong, target) = if truth == 0.0 { (h1, sprt.alpha) } else { (runs - h1, sprt.beta) };
        println!(
            "honesty: SPRT payoff [0, 4] on one bot against three copies, true difference {truth}: wrong decision in {:.2}% of {runs} runs (target {}%), mean {:.0} deals",
            100.0 * rate(wrong, runs),
            100.0 * target,
            deals as f64 / runs as f64
        );
        assert!(rate(wrong, runs) <= max_rate(target), "error rate {}", rate(wrong, runs));
    }
}
