//! The chance of getting each tile a path needs: the patent's p_i (document 004, step S17).
//!
//! Without the opponent model (the default `pruned`): the hypergeometric chance of drawing at least the
//! copies needed in our draws left, from the tiles we cannot see, copies left = 4 − seen − held.
//!
//! With it, the patent's pieces, in our reading (its formulas are images missing from the text):
//! - copies left n_i = 4 − t_i − a·g_i: t_i the copies we can see (our hand, every discard and
//!   declared set), g_i the copies the model puts in the other seats' hands, a its accuracy;
//! - p_self: the chance of drawing them ourselves, hypergeometric over our draws left from the
//!   pool N = Σ n_i (the wall and the other seats' unallocated tiles, which the patent counts as
//!   wall), evaluated with real-valued n_i;
//! - p_other: per turn of another seat, the chance it draws the kind (n_i / N) and gives it up
//!   (1 − the share of samples in which it wants the kind): for a pair's effective tile averaged
//!   over the three seats (pung from anyone), for a partial set's from the seat on our left only
//!   (chow); weighted by the patent's bias — `bias_pair` (5) for a pair's effective tile,
//!   `bias_partial` (1) for a partial set's, 0 otherwise (an isolated tile cannot be claimed);
//! - the copies got = own draws + claims, claims binomial over our turns left with rate
//!   min(1, bias × p_other): P(≥ c) for c = 1, 2 (a path never needs three copies of a kind).

use super::opponents::Model;
use crate::games::mahjong::tiles::{Counts, TILE_KINDS};

/// What a needed tile completes, which decides whether another seat's discard can supply it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// An isolated tile's partner (a pair or a set from one tile): only our own draws.
    Other,
    /// A partial set's effective tile: our draws or a chow from the left.
    Partial,
    /// A pair's third tile: our draws or a pung from anyone.
    Pair,
}

/// P(at least `c` of the `k` copies among `draws` tiles drawn from `n` unseen tiles).
pub fn p_at_least(c: u32, n: u32, k: u32, draws: u32) -> f64 {
    if c == 0 {
        return 1.0;
    }
    if k < c || draws < c || n == 0 {
        return 0.0;
    }
    let draws = draws.min(n);
    // 1 − Σ_{j<c} C(k,j) C(n−k, draws−j) / C(n, draws).
    let total = ln_choose(n, draws);
    let mut below = 0.0;
    for j in 0..c {
        if j > k || j > draws || draws - j > n - k {
            continue;
        }
        below += (ln_choose(k, j) + ln_choose(n - k, draws - j) - total).exp();
    }
    (1.0 - below).clamp(0.0, 1.0)
}

fn ln_choose(n: u32, k: u32) -> f64 {
    let k = k.min(n - k);
    (0..k).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum()
}

/// P(no copy) and P(exactly one copy) among `draws` tiles from a pool of `pool` tiles holding
/// `copies` of the kind; `copies` may be fractional (an expected count). For whole numbers these
/// are the hypergeometric probabilities: P(0) = Π_{j<d} (N − n − j)/(N − j) and
/// P(1) = d·n/N · Π_{j<d−1} (N − n − j)/(N − 1 − j).
pub fn none_and_one(copies: f64, pool: f64, draws: u32) -> (f64, f64) {
    let d = draws.min(pool.max(0.0).floor() as u32);
    if d == 0 || copies <= 0.0 {
        return (1.0, 0.0);
    }
    let none: f64 = (0..d).map(|j| ((pool - copies - j as f64) / (pool - j as f64)).max(0.0)).product();
    let rest: f64 = (0..d - 1).map(|j| ((pool - copies - j as f64) / (pool - 1.0 - j as f64)).max(0.0)).product();
    (none, (d as f64 * copies / pool * rest).clamp(0.0, 1.0 - none))
}

/// The per-decision table of chances: `p(kind, copies, role)`.
pub struct TileOdds {
    /// Basic: P(≥ c) by c = 1, 2 and the copies left 0..=4 (indexed by `unseen`).
    basic: Option<([[f64; 5]; 3], Counts)>,
    /// Modeled, per kind: P(0), P(1) own draws; per role: P(0), P(1) claims.
    own: [(f64, f64); TILE_KINDS],
    claims: [[(f64, f64); TILE_KINDS]; 3],
}

/// The patent's constants for the modeled chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OddsConfig {
    /// a_i, the model's accuracy (0..1).
    pub accuracy: f64,
    pub bias_partial: f64,
    pub bias_pair: f64,
}

impl TileOdds {
    /// Hypergeometric own draws only, copies left = `unseen`.
    pub fn basic(unseen: &Counts, draws: usize) -> TileOdds {
        let n: u32 = unseen.iter().map(|&x| x as u32).sum();
        let mut table = [[0.0; 5]; 3];
        for c in 1..=2u32 {
            for k in 0..=4u32 {
                table[c as usize][k as usize] = p_at_least(c, n, k, draws as u32);
            }
        }
        TileOdds { basic: Some((table, *unseen)), own: [(1.0, 0.0); TILE_KINDS], claims: [[(1.0, 0.0); TILE_KINDS]; 3] }
    }

    /// Own draws and claims with the opponent model.
    pub fn modeled(unseen: &Counts, draws: usize, model: &Model, cfg: &OddsConfig) -> TileOdds {
        let left: [f64; TILE_KINDS] =
            std::array::from_fn(|k| (unseen[k] as f64 - cfg.accuracy * model.held[k]).max(0.0));
        let pool: f64 = left.iter().sum();
        let d = draws as u32;
        let own = std::array::from_fn(|k| none_and_one(left[k], pool, d));
        let mut claims = [[(1.0, 0.0); TILE_KINDS]; 3];
        if pool > 0.0 {
            for k in 0..TILE_KINDS {
                let per_turn = left[k] / pool;
                let gives_up = |o: usize| 1.0 - model.wants[o][k];
                let pair = (0..3).map(gives_up).sum::<f64>() / 3.0;
                let rates = [0.0, cfg.bias_partial * per_turn * gives_up(Model::LEFT), cfg.bias_pair * per_turn * pair];
                for (role, &rate) in rates.iter().enumerate() {
                    let q = rate.clamp(0.0, 1.0);
                    let miss = (1.0 - q).powi(d as i32);
                    let one = if d == 0 || q >= 1.0 { 0.0 } else { d as f64 * q * (1.0 - q).powi(d as i32 - 1) };
                    claims[role][k] = (miss, one);
                }
            }
        }
        TileOdds { basic: None, own, claims }
    }

    /// P(getting at least `copies` of kind `k` in the turns left), the tile serving `role`.
    pub fn p(&self, k: usize, copies: u8, role: Role) -> f64 {
        if let Some((table, unseen)) = &self.basic {
            return if copies <= 2 { table[copies as usize][unseen[k].min(4) as usize] } else { 0.0 };
        }
        let (s0, s1) = self.own[k];
        let (b0, b1) = self.claims[role as usize][k];
        match copies {
            0 => 1.0,
            1 => 1.0 - s0 * b0,
            2 => (1.0 - s0 * b0 - s1 * b0 - s0 * b1).max(0.0),
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hypergeometric cases worked by hand.
    #[test]
    fn hypergeometric_probability_by_hand() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // 10 tiles, 2 copies, 3 draws: 1 − C(8,3)/C(10,3) = 1 − 56/120.
        assert!(close(p_at_least(1, 10, 2, 3), 64.0 / 120.0));
        // Both copies: C(2,2)·C(8,1)/C(10,3) = 8/120.
        assert!(close(p_at_least(2, 10, 2, 3), 8.0 / 120.0));
        // One draw from 100 with 4 copies: 4/100.
        assert!(close(p_at_least(1, 100, 4, 1), 0.04));
        // Two draws from 5 with 1 copy: 1 − (4/5)(3/4) = 2/5.
        assert!(close(p_at_least(1, 5, 1, 2), 0.4));
        // No copies, more copies needed than exist or than draws: impossible; drawing all: certain.
        assert_eq!(p_at_least(1, 50, 0, 10), 0.0);
        assert_eq!(p_at_least(3, 50, 2, 10), 0.0);
        assert_eq!(p_at_least(2, 50, 4, 1), 0.0);
        assert!(close(p_at_least(1, 6, 1, 6), 1.0));
        // Against a sum of the probability mass: P(≥1) + P(0) = 1 with P(0) = Π (N−K−i)/(N−i).
        let p0: f64 = (0..7).map(|i| (120.0 - 3.0 - i as f64) / (120.0 - i as f64)).product();
        assert!(close(p_at_least(1, 120, 3, 7), 1.0 - p0));
    }

    /// The real-valued form agrees with the hypergeometric one on whole numbers.
    #[test]
    fn real_valued_form_is_the_hypergeometric_on_whole_numbers() {
        for n in [5u32, 30, 84, 123] {
            for k in 0..=4u32.min(n) {
                for d in 0..=n.min(20) {
                    let (none, one) = none_and_one(k as f64, n as f64, d);
                    let p1 = p_at_least(1, n, k, d);
                    let p2 = p_at_least(2, n, k, d);
                    assert!((1.0 - none - p1).abs() < 1e-9, "n {n} k {k} d {d}: {none} vs {p1}");
                    assert!((1.0 - none - one - p2).abs() < 1e-9, "n {n} k {k} d {d}: {one} vs {p2}");
                }
            }
        }
    }

    /// With no model information (nothing held, nothing wanted, no claim bias) the modeled chances
    /// are the basic ones; claims only add, a pair's tile more than a partial set's.
    #[test]
    fn modeled_odds_reduce_to_basic_and_claims_add() {
        let mut unseen = [3u8; TILE_KINDS];
        unseen[5] = 1;
        unseen[6] = 0;
        let model = Model {
            held: [0.0; TILE_KINDS],
            wants: [[0.0; TILE_KINDS]; 3],
            danger: [0.0; TILE_KINDS],
            ready: [0.0; 3],
        };
        let basic = TileOdds::basic(&unseen, 12);
        let none = OddsConfig { accuracy: 0.8, bias_partial: 0.0, bias_pair: 0.0 };
        let flat = TileOdds::modeled(&unseen, 12, &model, &none);
        let biased = TileOdds::modeled(&unseen, 12, &model, &OddsConfig { bias_partial: 1.0, bias_pair: 5.0, ..none });
        for k in 0..TILE_KINDS {
            for c in 1..=2 {
                for role in [Role::Other, Role::Partial, Role::Pair] {
                    assert!((basic.p(k, c, role) - flat.p(k, c, role)).abs() < 1e-9);
                }
                assert!(biased.p(k, c, Role::Other) <= biased.p(k, c, Role::Partial) + 1e-12);
                assert!(biased.p(k, c, Role::Partial) <= biased.p(k, c, Role::Pair) + 1e-12);
            }
        }
        assert!(biased.p(0, 1, Role::Pair) > biased.p(0, 1, Role::Other) + 0.01);
        assert_eq!(biased.p(6, 1, Role::Pair), 0.0, "no copy left");
        // Copies the model puts in other hands lower the chance.
        let mut held = model.clone();
        held.held[0] = 2.0;
        assert!(TileOdds::modeled(&unseen, 12, &held, &none).p(0, 1, Role::Other) < flat.p(0, 1, Role::Other));
    }
}
