//! Ratings for fields: the Plackett–Luce model of a game's whole finishing order, for games of
//! three or more seats where rating pair by pair counts one hand many times over.
//!
//! Bot i has a strength wᵢ = e^θᵢ. A game's order is drawn place by place: the first is i with
//! chance wᵢ / Σ w over all seats, the second from those left, and so on. Seats that share a
//! place are a tied group chosen together (Breslow's rule: each of the d members at the chance
//! above over the same remaining seats), and the last group is not a choice. The same bot in two
//! seats is two draws of the same strength.
//!
//! The fit is by Newton's method on the log-likelihood, with a weak normal prior on each θ (sd
//! [`PRIOR_SD`] Elo) so that a bot that always finished first still has a finite rating; the
//! intervals are cluster-robust (sandwich), a game a cluster. Ratings are in Elo: for two seats
//! the chance that i finishes ahead of j is 1 / (1 + 10^(−(rᵢ − rⱼ)/400)), as the pairwise list.

use std::f64::consts::LN_10;

use super::interval::Z95;
use super::matrix;
use super::ratings::{anchored, Anchor, RatingList};

/// Natural units per Elo point.
const KAPPA: f64 = LN_10 / 400.0;

/// The prior's sd in Elo: wide enough that a few dozen games outweigh it many times over.
pub const PRIOR_SD: f64 = 1000.0;

/// The model's name as tables write it.
pub const NAME: &str = "Plackett-Luce";

/// One game: each seat's bot and place (1 the best; equal places tie).
pub type Order = Vec<(usize, u32)>;

/// A game prepared for the fit: its choices, each the bots chosen (with repeats) and the bots
/// still in (with repeats), both by bot index.
struct Stages {
    stages: Vec<(Vec<usize>, Vec<usize>)>,
}

impl Stages {
    fn of(order: &Order) -> Stages {
        let mut seats = order.clone();
        seats.sort_by_key(|s| s.1);
        let mut stages = Vec::new();
        let mut start = 0;
        while start < seats.len() {
            let end = start + seats[start..].iter().take_while(|s| s.1 == seats[start].1).count();
            // The last group is what is left: no choice.
            if end < seats.len() {
                let chosen = seats[start..end].iter().map(|s| s.0).collect();
                let left = seats[start..].iter().map(|s| s.0).collect();
                stages.push((chosen, left));
            }
            start = end;
        }
        Stages { stages }
    }

    /// This game's log-likelihood at θ; with `sparse`, its score (the log-likelihood's gradient)
    /// as (bot, value) for the bots that played, and with `info` its information added (n × n).
    /// Only the game's own bots are touched: a league of many versions costs a game's seats.
    fn add(&self, theta: &[f64], mut sparse: Option<&mut Vec<(usize, f64)>>, mut info: Option<&mut [f64]>) -> f64 {
        let n = theta.len();
        let mut ll = 0.0;
        let mut share: Vec<(usize, f64)> = Vec::new();
        if let Some(score) = sparse.as_deref_mut() {
            score.clear();
        }
        for (chosen, left) in &self.stages {
            let d = chosen.len() as f64;
            let top = left.iter().map(|&i| theta[i]).fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = left.iter().map(|&i| (theta[i] - top).exp()).sum();
            ll += chosen.iter().map(|&i| theta[i]).sum::<f64>() - d * (top + total.ln());
            if sparse.is_none() && info.is_none() {
                continue;
            }
            // Each bot's share of the seats left (a bot in two seats has both).
            share.clear();
            for &i in left {
                let p = (theta[i] - top).exp() / total;
                match share.iter_mut().find(|s| s.0 == i) {
                    Some(s) => s.1 += p,
                    None => share.push((i, p)),
                }
            }
            if let Some(score) = sparse.as_deref_mut() {
                for &i in chosen {
                    bump(score, i, 1.0);
                }
                for &(a, p) in &share {
                    bump(score, a, -d * p);
                }
            }
            if let Some(info) = info.as_deref_mut() {
                for &(a, pa) in &share {
                    info[a * n + a] += d * pa;
                    for &(b, pb) in &share {
                        info[a * n + b] -= d * pa * pb;
                    }
                }
            }
        }
        ll
    }
}

/// Adds `by` to bot `i`'s entry of a sparse vector.
fn bump(sparse: &mut Vec<(usize, f64)>, i: usize, by: f64) {
    match sparse.iter_mut().find(|s| s.0 == i) {
        Some(s) => s.1 += by,
        None => sparse.push((i, by)),
    }
}

/// The Plackett–Luce ratings of `n` bots from `games`, in Elo, anchored as `anchor` says.
pub fn fit(n: usize, games: &[Order], anchor: Anchor) -> RatingList {
    let games: Vec<Stages> = games.iter().map(Stages::of).collect();
    let prior = 1.0 / (KAPPA * PRIOR_SD).powi(2);
    let objective = |theta: &[f64]| {
        let ll: f64 = games.iter().map(|g| g.add(theta, None, None)).sum();
        ll - 0.5 * prior * theta.iter().map(|t| t * t).sum::<f64>()
    };
    let mut theta = vec![0.0; n];
    let mut value = objective(&theta);
    let information = |theta: &[f64]| {
        let (mut score, mut info, mut game) = (vec![0.0; n], vec![0.0; n * n], Vec::new());
        for g in &games {
            g.add(theta, Some(&mut game), Some(&mut info));
            game.iter().for_each(|&(i, v)| score[i] += v);
        }
        for i in 0..n {
            score[i] -= prior * theta[i];
            info[i * n + i] += prior;
        }
        (score, info)
    };
    // Newton's steps, halved until the objective (concave) rises.
    for _ in 0..100 {
        let (score, info) = information(&theta);
        let inverse = matrix::inverse_spd(&info, n).expect("the prior makes the information positive definite");
        let step = matrix::apply(&inverse, &score);
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-6 {
            let next: Vec<f64> = theta.iter().zip(&step).map(|(a, s)| a + t * s).collect();
            let v = objective(&next);
            if v >= value {
                (theta, value, moved) = (next, v, true);
                break;
            }
            t /= 2.0;
        }
        let size = step.iter().map(|s| (t * s).abs()).fold(0.0, f64::max);
        if !moved || size < 1e-10 {
            break;
        }
    }
    // The sandwich: the inverse information around the games' scores' spread, a game a cluster.
    let (_, info) = information(&theta);
    let inverse = matrix::inverse_spd(&info, n).expect("the prior makes the information positive definite");
    let mut meat = vec![0.0; n * n];
    let mut score = Vec::new();
    for g in &games {
        g.add(&theta, Some(&mut score), None);
        for &(a, x) in &score {
            for &(b, y) in &score {
                meat[a * n + b] += x * y;
            }
        }
    }
    let clusters = games.len() as u64;
    let factor = if clusters < 2 { f64::INFINITY } else { clusters as f64 / (clusters - 1) as f64 };
    let cov: Vec<f64> =
        matrix::sandwich(&inverse, &meat, n).into_iter().map(|c| factor * c / (KAPPA * KAPPA)).collect();
    let values: Vec<f64> = theta.iter().map(|t| t / KAPPA).collect();
    let everyone: Vec<usize> = (0..n).collect();
    anchored(n, &everyone, &values, &cov, anchor, clusters, Z95)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A field's finishing order drawn from the model with strengths `elo`: `seats` bots drawn
    /// at random, places drawn one by one.
    fn draw(rng: &mut ChaCha8Rng, elo: &[f64], seats: usize) -> Order {
        let mut left: Vec<usize> = (0..elo.len()).collect();
        let mut bots = Vec::new();
        for _ in 0..seats {
            bots.push(left.swap_remove(rng.random_range(0..left.len())));
        }
        let mut order = Vec::new();
        for place in 1..=seats as u32 {
            let total: f64 = bots.iter().map(|&b| (KAPPA * elo[b]).exp()).sum();
            let mut u = rng.random::<f64>() * total;
            let k = bots
                .iter()
                .position(|&b| {
                    u -= (KAPPA * elo[b]).exp();
                    u <= 0.0
                })
                .unwrap_or(bots.len() - 1);
            order.push((bots.swap_remove(k), place));
        }
        order
    }

    /// Planted strengths, mean 0: the fit recovers their order in every one of 40 leagues of
    /// 1,500 four-seat games, and their 95% intervals hold the planted values about 95% of the
    /// time (at least 90% of the 240 intervals; a fit whose intervals were too narrow by a
    /// third would cover some 80%).
    #[test]
    fn planted_strengths_are_recovered_within_their_intervals() {
        let planted = [-250.0, -120.0, -30.0, 40.0, 140.0, 220.0];
        let mean = planted.iter().sum::<f64>() / planted.len() as f64;
        let planted: Vec<f64> = planted.iter().map(|p| p - mean).collect();
        let (mut covered, mut intervals) = (0, 0);
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let games: Vec<Order> = (0..1500).map(|_| draw(&mut rng, &planted, 4)).collect();
            let list = fit(planted.len(), &games, Anchor::Mean);
            assert_eq!(list.ranking(), vec![5, 4, 3, 2, 1, 0], "seed {seed}: {:?}", list.ratings);
            for (r, p) in list.ratings.iter().zip(&planted) {
                intervals += 1;
                covered += usize::from(r.lo <= *p && *p <= r.hi);
                assert!(r.hi - r.lo < 120.0, "seed {seed}: an interval of {} Elo", r.hi - r.lo);
            }
        }
        let share = covered as f64 / intervals as f64;
        eprintln!("{covered} of {intervals} 95% intervals hold the planted value ({:.1}%)", 100.0 * share);
        assert!((0.90..=0.99).contains(&share), "{covered} of {intervals} intervals hold the planted value");
    }

    /// Two seats are Bradley–Terry: 3 wins of 4 is log(3) apart, 191 Elo; a two-seat tie and a
    /// game all tied say nothing (the tied group is the last: no choice).
    #[test]
    fn two_seats_are_the_elo_curve_and_a_last_tie_says_nothing() {
        let mut games: Vec<Order> = Vec::new();
        for _ in 0..300 {
            games.push(vec![(0, 1), (1, 2)]);
        }
        for _ in 0..100 {
            games.push(vec![(0, 2), (1, 1)]);
        }
        games.push(vec![(0, 1), (1, 1)]);
        let list = fit(2, &games, Anchor::Bot(1));
        let expected = 400.0 * 3f64.log10();
        assert!((list.ratings[0].value - expected).abs() < 0.5, "{:?} against {expected}", list.ratings);
        // A game all tied: the same fit.
        games.push(vec![(0, 1), (1, 1), (0, 1)]);
        let again = fit(2, &games, Anchor::Bot(1));
        assert!((again.ratings[0].value - list.ratings[0].value).abs() < 1e-9);
    }
}
