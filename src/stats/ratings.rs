//! Rating lists: one number per bot from all the games of a run at once, anchored at a named bot or
//! at the bots' mean, with 95% intervals.
//!
//! - [`Comparisons::elo`]: maximum-likelihood Elo ratings. The expected score of bot i against bot j
//!   is the logistic Elo curve E = 1 / (1 + 10^(−(rᵢ − rⱼ)/400)) and a draw counts as half a win and
//!   half a loss (the Bradley–Terry model with draws as Ordo computes it): the ratings are those at
//!   which every bot's expected score equals its actual score.
//! - [`payoff_ratings`]: least-squares payoff ratings for games that pay chips or points. Bot i's
//!   rating θᵢ is its expected payoff per game minus that of the anchor (the average bot, by
//!   default) at the same table: θᵢ − θⱼ estimates what i makes per game more than j.
//!
//! The intervals are cluster-robust (sandwich) intervals with the deals as the independent
//! observations: the games of one deal (seat rotations, copies at one table) may be correlated in
//! any way, and draws need not follow the model. Each cluster's contribution to the score of the
//! likelihood (Elo) or to the normal equations (payoff) is accumulated in co-moments, so nothing is
//! kept per deal.
//!
//! A bot that won every game against the others (directly or through bots it beat) has no finite
//! maximum-likelihood rating. The list is computed for the *anchor group*: the bots that scored
//! against each other both ways (a strongly connected group of the "scored against" relation), the
//! one holding the anchor bot, or the largest one. Bots above it are +∞ with a finite lower bound
//! where they played it, bots below −∞ with an upper bound, and bots never compared with it are not
//! rated (NaN).

use std::collections::BTreeMap;
use std::f64::consts::LN_10;

use super::cluster::FieldStats;
use super::interval::{t_quantile, Interval, Z95};
use super::matrix;

/// The Elo curve in natural units: E(d) = 1 / (1 + e^(−κ·d)) = 1 / (1 + 10^(−d/400)).
const KAPPA: f64 = LN_10 / 400.0;

/// The one-sided error of a bound on an infinite rating: the tail a two-sided 95% interval leaves.
const TAIL: f64 = 0.025;

fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-KAPPA * d).exp())
}

/// What a rating list is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The mean rating of the anchor group is 0.
    Mean,
    /// This bot's rating is 0.
    Bot(usize),
}

/// One bot's rating with its 95% interval. ±∞ for a bot above or below the anchor group (with a
/// finite bound where it played the group, else NaN), NaN for a bot not compared with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub value: f64,
    /// The 95% interval's lower end.
    pub lo: f64,
    /// The 95% interval's upper end.
    pub hi: f64,
}

impl Rating {
    const UNRATED: Rating = Rating { value: f64::NAN, lo: f64::NAN, hi: f64::NAN };
}

/// Ratings of every bot (in bot order), anchored, with the covariance of the finite ones.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingList {
    /// One rating a bot, in bot order.
    pub ratings: Vec<Rating>,
    /// What the ratings are relative to.
    pub anchor: Anchor,
    /// The independent observations (deals) behind the finite ratings.
    pub clusters: u64,
    /// bots × bots; NaN outside the anchor group.
    cov: Vec<f64>,
    /// The interval's quantile (z for Elo, t with clusters − 1 degrees of freedom for payoffs).
    quantile: f64,
}

impl RatingList {
    /// The standard error of bot `a`'s rating (0 for the anchor bot).
    pub fn se(&self, a: usize) -> f64 {
        self.cov[a * self.ratings.len() + a].max(0.0).sqrt()
    }

    /// The 95% interval of rating `a` minus rating `b` (the anchor plays no part in it).
    pub fn difference(&self, a: usize, b: usize) -> Interval {
        let n = self.ratings.len();
        let d = self.ratings[a].value - self.ratings[b].value;
        let var = self.cov[a * n + a] + self.cov[b * n + b] - 2.0 * self.cov[a * n + b];
        let half = self.quantile * var.max(0.0).sqrt();
        Interval { lo: d - half, hi: d + half }
    }

    /// Bot indexes from the highest rating to the lowest; unrated bots last; ties in bot order.
    pub fn ranking(&self) -> Vec<usize> {
        let key = |i: usize| {
            let v = self.ratings[i].value;
            if v.is_nan() {
                f64::NEG_INFINITY
            } else {
                v
            }
        };
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| {
            let nan = |i: usize| self.ratings[i].value.is_nan();
            nan(a).cmp(&nan(b)).then(key(b).total_cmp(&key(a)))
        });
        order
    }
}

/// A relative anchor: bots `a` and `b` (two versions of one bot) are believed `sd` Elo apart or
/// less, a normal prior on the difference of their ratings centred on 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    /// One bot.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// The prior's standard deviation in Elo.
    pub sd: f64,
}

/// Two bots, the lower index first.
type Pair = (usize, usize);

/// Bot `a`'s score against bot `b` in one cluster (deal): `half_points` (a win 2, a draw 1) out of
/// `games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairScore {
    /// The bot scored (index in the field).
    pub a: usize,
    /// Its opponent.
    pub b: usize,
    /// `a`'s points in half points: a win 2, a draw 1.
    pub half_points: u64,
    /// Games between the two in the cluster.
    pub games: u64,
}

/// Results between bots, grouped into clusters (deals), for [`Comparisons::elo`].
///
/// Every sum is of whole numbers (half points, games, and their products in quarter points), so
/// it is exact in any order. A run adds a cluster per deal, nearly always of the same set of pairs
/// as the one before (a table plays its deals one after another), so the sums live in vectors
/// and the places of the last cluster's pairs are kept: adding a deal is a few additions, no map
/// lookup. The maps give each pair, product and layout its place, in key order for the readers.
#[derive(Clone, Debug, Default)]
pub struct Comparisons {
    bots: usize,
    /// For each pair i < j: i's half points and the games (at the place `pair_at` gives).
    totals: Vec<(u64, u64)>,
    pair_at: BTreeMap<Pair, usize>,
    /// For two pairs p, q met in one cluster, sums over clusters of the products of their
    /// (score S in points, games n): [S_p·S_q, S_p·n_q, n_p·S_q, n_p·n_q]. Exact: quarter points.
    products: Vec<[f64; 4]>,
    product_at: BTreeMap<(Pair, Pair), usize>,
    /// How many clusters held each set of pairs (one entry per table shape, not per deal).
    layouts: Vec<u64>,
    layout_at: BTreeMap<Vec<Pair>, usize>,
    /// Scratch for one cluster: its pairs' (half points, games).
    cluster: Vec<(Pair, u64, u64)>,
    /// The last cluster's pairs and their places: its pairs' totals, its products (pair by pair)
    /// and its layout.
    last: Vec<Pair>,
    last_places: Places,
}

/// The place of `key`'s sum in `sums`, a zero sum added at the end when `key` is new.
fn place<K: Ord, S: Default>(at: &mut BTreeMap<K, usize>, sums: &mut Vec<S>, key: K) -> usize {
    *at.entry(key).or_insert_with(|| {
        sums.push(S::default());
        sums.len() - 1
    })
}

/// Where one layout of pairs keeps its sums.
#[derive(Clone, Debug, Default)]
struct Places {
    totals: Vec<usize>,
    products: Vec<usize>,
    layout: usize,
}

impl Comparisons {
    /// No scores yet, for a field of `bots` bots.
    pub fn new(bots: usize) -> Comparisons {
        Comparisons { bots, ..Comparisons::default() }
    }

    /// The places of the sums of a cluster of `pairs` (sorted), made when first seen.
    fn places(&mut self, pairs: &[Pair]) -> Places {
        let totals = pairs.iter().map(|&p| place(&mut self.pair_at, &mut self.totals, p)).collect();
        let mut products = Vec::with_capacity(pairs.len() * pairs.len());
        for &p in pairs {
            for &q in pairs {
                products.push(place(&mut self.product_at, &mut self.products, (p, q)));
            }
        }
        let layout = place(&mut self.layout_at, &mut self.layouts, pairs.to_vec());
        Places { totals, products, layout }
    }

    /// Every pair's (half points, games), in pair order.
    fn totals(&self) -> impl Iterator<Item = (Pair, (u64, u64))> + '_ {
        self.pair_at.iter().map(|(&pair, &at)| (pair, self.totals[at]))
    }

    fn total(&self, pair: Pair) -> Option<(u64, u64)> {
        self.pair_at.get(&pair).map(|&at| self.totals[at])
    }

    /// Adds one cluster: the scores of the pairs of bots that met in one deal.
    pub fn push_cluster(&mut self, scores: &[PairScore]) {
        let mut cluster = std::mem::take(&mut self.cluster);
        cluster.clear();
        for s in scores.iter().filter(|s| s.games > 0) {
            assert!(s.a != s.b && s.a < self.bots && s.b < self.bots, "a pair of two known bots");
            assert!(s.half_points <= 2 * s.games, "at most a win a game");
            let (key, hp) =
                if s.a < s.b { ((s.a, s.b), s.half_points) } else { ((s.b, s.a), 2 * s.games - s.half_points) };
            match cluster.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, h, g)) => (*h, *g) = (*h + hp, *g + s.games),
                None => cluster.push((key, hp, s.games)),
            }
        }
        if cluster.is_empty() {
            self.cluster = cluster;
            return;
        }
        cluster.sort_unstable();
        if !cluster.iter().map(|c| c.0).eq(self.last.iter().copied()) {
            let pairs: Vec<Pair> = cluster.iter().map(|c| c.0).collect();
            self.last_places = self.places(&pairs);
            self.last = pairs;
        }
        let places = &self.last_places;
        for (&(_, hp, games), &at) in cluster.iter().zip(&places.totals) {
            let t = &mut self.totals[at];
            (t.0, t.1) = (t.0 + hp, t.1 + games);
        }
        let mut product = places.products.iter();
        for &(_, hp, np) in &cluster {
            let (sp, np) = (hp as f64 / 2.0, np as f64);
            for &(_, hq, nq) in &cluster {
                let (sq, nq) = (hq as f64 / 2.0, nq as f64);
                let m = &mut self.products[*product.next().expect("a place for every product")];
                m[0] += sp * sq;
                m[1] += sp * nq;
                m[2] += np * sq;
                m[3] += np * nq;
            }
        }
        self.layouts[places.layout] += 1;
        self.cluster = cluster;
    }

    /// Bot `bot`'s points (a draw half) and games against the others.
    pub fn record(&self, bot: usize) -> (f64, u64) {
        self.totals().fold((0.0, 0), |(points, games), ((i, j), (hp, g))| {
            if i == bot {
                (points + hp as f64 / 2.0, games + g)
            } else if j == bot {
                (points + (2 * g - hp) as f64 / 2.0, games + g)
            } else {
                (points, games)
            }
        })
    }

    /// Maximum-likelihood Elo ratings with cluster-robust 95% intervals (normal quantile).
    pub fn elo(&self, anchor: Anchor) -> RatingList {
        self.elo_with(anchor, &[])
    }

    /// [`Comparisons::elo`] with relative anchors (Ordo's `-r`): each [`Prior`] adds the belief
    /// that two bots' ratings differ by a normal error of its `sd`, as if observed, so a bot with
    /// few games between two versions of it is held near them (the maximum is then the posterior
    /// mode). A prior also joins two bots into one group, as games both ways would.
    pub fn elo_with(&self, anchor: Anchor, priors: &[Prior]) -> RatingList {
        let n = self.bots;
        // reach[i][j]: i scored against j, directly or through a chain of bots that scored.
        let mut reach = vec![false; n * n];
        for ((i, j), (hp, games)) in self.totals() {
            reach[i * n + j] |= hp > 0;
            reach[j * n + i] |= hp < 2 * games;
        }
        for p in priors {
            assert!(p.a < n && p.b < n && p.sd > 0.0, "a prior between two known bots");
            reach[p.a * n + p.b] = true;
            reach[p.b * n + p.a] = true;
        }
        for i in 0..n {
            reach[i * n + i] = true;
        }
        transitive_closure(&mut reach, n);
        let same_group = |i: usize, j: usize| reach[i * n + j] && reach[j * n + i];
        let group = anchor_group(n, anchor, same_group);
        let pos = positions(n, &group);

        let pairs: Vec<(usize, usize, f64, f64)> =
            self.totals().filter_map(|((i, j), (hp, g))| Some((pos[i]?, pos[j]?, hp as f64 / 2.0, g as f64))).collect();
        let local_priors: Vec<(usize, usize, f64)> =
            priors.iter().filter_map(|p| Some((pos[p.a]?, pos[p.b]?, 1.0 / (p.sd * p.sd)))).collect();
        let values = fit_elo(group.len(), &pairs, &local_priors);

        // The covariance: inverse information · score covariance over clusters · inverse information.
        let m = group.len();
        let (mut info, mut meat) = (vec![0.0; m * m], vec![0.0; m * m]);
        let e = |i: usize, j: usize| expected(values[i] - values[j]);
        for &(i, j, _, g) in &pairs {
            let w = KAPPA * KAPPA * g * e(i, j) * (1.0 - e(i, j));
            add_outer(&mut info, m, (i, j), (i, j), w);
        }
        // A prior is a pseudo-observation of the difference with variance sd²: its information
        // enters the bread and its score's variance the meat, so that where the model holds the
        // sandwich is the posterior's covariance, (data + prior information)⁻¹.
        for &(i, j, precision) in &local_priors {
            add_outer(&mut info, m, (i, j), (i, j), precision);
            add_outer(&mut meat, m, (i, j), (i, j), precision);
        }
        let local = |(i, j): (usize, usize)| Some((pos[i]?, pos[j]?));
        for (&(p, q), &at) in &self.product_at {
            let s = &self.products[at];
            let (Some(p), Some(q)) = (local(p), local(q)) else { continue };
            let (ep, eq) = (e(p.0, p.1), e(q.0, q.1));
            let mut u = s[0] - eq * s[1] - ep * s[2] + ep * eq * s[3];
            // A pair whose every deal scored exactly as fitted (every duplicate pair split, say)
            // shows no spread, which would make its difference exact. A deal's score share lies in
            // [0, 1], so its variance is at most E(1 − E): take that bound instead, as the
            // heads-up figures take Wilson's interval when the observations do not vary.
            if p == q && u <= 1e-12 * s[3] {
                u = s[3] * ep * (1.0 - ep);
            }
            add_outer(&mut meat, m, p, q, KAPPA * KAPPA * u);
        }
        let clusters = self.clusters_among(&pos);
        let cov = robust_covariance(&info, &meat, m, clusters);
        let mut list = anchored(n, &group, &values, &cov, anchor, clusters, Z95);

        // Bots above or below the group: ±∞, bounded by their games against it.
        for i in (0..n).filter(|&i| pos[i].is_none()) {
            let (above, below) = (reach[i * n + group[0]], reach[group[0] * n + i]);
            list.ratings[i] = match (above, below) {
                (true, false) => {
                    Rating { value: f64::INFINITY, lo: self.bound(i, &group, &list, true), hi: f64::INFINITY }
                }
                (false, true) => {
                    Rating { value: f64::NEG_INFINITY, lo: f64::NEG_INFINITY, hi: self.bound(i, &group, &list, false) }
                }
                _ => Rating::UNRATED,
            };
        }
        list
    }

    /// Clusters that compared two bots of the group.
    fn clusters_among(&self, pos: &[Option<usize>]) -> u64 {
        let inside = |&(i, j): &(usize, usize)| pos[i].is_some() && pos[j].is_some();
        self.layout_at.iter().filter(|(pairs, _)| pairs.iter().any(inside)).map(|(_, &at)| self.layouts[at]).sum()
    }

    /// The bound on an infinite rating: the rating r at which bot `i`'s results against the group
    /// (all won if `above`, all lost otherwise) had probability 2.5%, the group's ratings taken as
    /// known; NaN when it never played the group.
    fn bound(&self, i: usize, group: &[usize], list: &RatingList, above: bool) -> f64 {
        let games: Vec<(f64, f64)> = group
            .iter()
            .filter_map(|&j| {
                let g = self.total((i.min(j), i.max(j)))?.1;
                Some((list.ratings[j].value, g as f64))
            })
            .collect();
        if games.is_empty() {
            return f64::NAN;
        }
        // ln P(the results | r): increasing in r for wins, decreasing for losses.
        let log_p = |r: f64| {
            games
                .iter()
                .map(|&(rj, g)| {
                    let p = expected(r - rj);
                    g * if above { p.ln() } else { (1.0 - p).ln() }
                })
                .sum::<f64>()
        };
        let (lo_all, hi_all) =
            games.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), g| (a.min(g.0), b.max(g.0)));
        let (mut lo, mut hi) = (lo_all - 10_000.0, hi_all + 10_000.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            // Too likely on the far side of the bound: move towards the group.
            if (log_p(mid) > TAIL.ln()) == above {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

/// The maximum-likelihood ratings of `m` bots (the first fixed at 0) from pair totals
/// (i, j, i's points, games), by Newton's method with step halving on the concave log-likelihood.
/// The bots must form a group that scored against each other both ways (then the maximum exists).
/// `priors` (i, j, 1/sd²) add −(rᵢ − rⱼ)²/(2sd²) to the log-likelihood.
fn fit_elo(m: usize, pairs: &[(usize, usize, f64, f64)], priors: &[(usize, usize, f64)]) -> Vec<f64> {
    let mut r = vec![0.0; m];
    if m < 2 {
        return r;
    }
    let log_lik = |r: &[f64]| {
        pairs
            .iter()
            .map(|&(i, j, s, g)| {
                let e = expected(r[i] - r[j]);
                s * e.ln() + (g - s) * (1.0 - e).ln()
            })
            .sum::<f64>()
            - priors.iter().map(|&(i, j, w)| 0.5 * w * (r[i] - r[j]).powi(2)).sum::<f64>()
    };
    for _ in 0..200 {
        let (mut grad, mut info) = (vec![0.0; m], vec![0.0; m * m]);
        for &(i, j, s, g) in pairs {
            let e = expected(r[i] - r[j]);
            grad[i] += KAPPA * (s - g * e);
            grad[j] -= KAPPA * (s - g * e);
            add_outer(&mut info, m, (i, j), (i, j), KAPPA * KAPPA * g * e * (1.0 - e));
        }
        for &(i, j, w) in priors {
            grad[i] -= w * (r[i] - r[j]);
            grad[j] += w * (r[i] - r[j]);
            add_outer(&mut info, m, (i, j), (i, j), w);
        }
        let reduced = drop_first(&info, m);
        let Some(inverse) = matrix::inverse_spd(&reduced, m - 1) else { break };
        let step = matrix::apply(&inverse, &grad[1..]);
        let now = log_lik(&r);
        let mut t = 1.0;
        let mut next = r.clone();
        loop {
            for (x, (r0, d)) in next[1..].iter_mut().zip(r[1..].iter().zip(&step)) {
                *x = r0 + t * d;
            }
            if log_lik(&next) >= now || t < 1e-6 {
                break;
            }
            t /= 2.0;
        }
        let moved = step.iter().map(|d| (t * d).abs()).fold(0.0, f64::max);
        r = next;
        if moved < 1e-10 {
            break;
        }
    }
    r
}

/// One table's deal-by-deal payoffs for [`payoff_ratings`]: `bots[k]` is the bot of the field's
/// k-th mean.
#[derive(Clone, Copy, Debug)]
pub struct TableField<'a> {
    /// The bot of each of the field's means.
    pub bots: &'a [usize],
    /// The table's deal-by-deal payoffs.
    pub field: &'a FieldStats,
}

/// Least-squares payoff ratings with cluster-robust 95% intervals (Student t over the deals).
///
/// Model: in a deal of table T, bot i's mean payoff per game is αₖ + θᵢ + noise, αₖ the deal's
/// own level (the cards, the table). Least squares with the αₖ profiled out minimises
/// Σₖ |Pₜ(yₖ − θ)|², Pₜ centring over the distinct bots of the table, so the normal equations are
/// (Σₜ Kₜ·Pₜ)·θ = Σₜ Kₜ·Pₜ·ȳₜ: only each table's mean payoffs enter the ratings, and the deals'
/// spread (the field's co-moments) the intervals. For one table of two bots the rating difference
/// and its interval are exactly the deal-clustered payoff difference and its t interval.
pub fn payoff_ratings(bots: usize, tables: &[TableField], anchor: Anchor) -> RatingList {
    let tables: Vec<&TableField> = tables.iter().filter(|t| t.field.deals() > 0).collect();
    let mut linked = vec![false; bots * bots];
    for t in &tables {
        for &i in t.bots {
            for &j in t.bots {
                linked[i * bots + j] = true;
            }
        }
    }
    for i in 0..bots {
        linked[i * bots + i] = true;
    }
    transitive_closure(&mut linked, bots);
    let group = anchor_group(bots, anchor, |i, j| linked[i * bots + j]);
    let pos = positions(bots, &group);
    let m = group.len();

    // Each table with its bots in the group: (index in the table's field, index in the group).
    let parts: Vec<(&TableField, Vec<(usize, usize)>)> = tables
        .iter()
        .map(|t| (*t, t.bots.iter().enumerate().filter_map(|(k, &b)| Some((k, pos[b]?))).collect::<Vec<_>>()))
        .filter(|(_, inside)| !inside.is_empty())
        .collect();
    let clusters: u64 = parts.iter().map(|(t, _)| t.field.deals()).sum();

    let (mut normal, mut rhs) = (vec![0.0; m * m], vec![0.0; m]);
    for (t, inside) in &parts {
        let (deals, means) = (t.field.deals() as f64, t.field.means());
        let centre = inside.iter().map(|&(k, _)| means[k]).sum::<f64>() / inside.len() as f64;
        for_centred(inside, |(_, a), (_, b), p| normal[a * m + b] += deals * p);
        for &(k, a) in inside {
            rhs[a] += deals * (means[k] - centre);
        }
    }
    let theta = if m < 2 {
        vec![0.0; m]
    } else {
        let inverse = matrix::inverse_spd(&drop_first(&normal, m), m - 1).expect("a connected group");
        std::iter::once(0.0).chain(matrix::apply(&inverse, &rhs[1..])).collect()
    };

    // The sandwich's middle: Σₜ Pₜ·(Cₜ + Kₜ·(ȳₜ − θ)(ȳₜ − θ)ᵀ)·Pₜ, C the co-moments over deals.
    let mut meat = vec![0.0; m * m];
    for (t, inside) in &parts {
        let (deals, means) = (t.field.deals() as f64, t.field.means());
        let residual: Vec<f64> = inside.iter().map(|&(k, a)| means[k] - theta[a]).collect();
        let centre = residual.iter().sum::<f64>() / residual.len() as f64;
        let row_centre: Vec<f64> = inside
            .iter()
            .map(|&(k, _)| inside.iter().map(|&(l, _)| t.field.comoment(k, l)).sum::<f64>() / inside.len() as f64)
            .collect();
        let all_centre = row_centre.iter().sum::<f64>() / inside.len() as f64;
        for (x, &(k, a)) in inside.iter().enumerate() {
            for (y, &(l, b)) in inside.iter().enumerate() {
                // (P·C·P)ₐᵦ = C_kl − row mean − column mean + grand mean.
                let pcp = t.field.comoment(k, l) - row_centre[x] - row_centre[y] + all_centre;
                meat[a * m + b] += pcp + deals * (residual[x] - centre) * (residual[y] - centre);
            }
        }
    }
    let cov = robust_covariance(&normal, &meat, m, clusters);
    let quantile = if clusters < 2 { f64::INFINITY } else { t_quantile(0.95, (clusters - 1) as f64) };
    anchored(bots, &group, &theta, &cov, anchor, clusters, quantile)
}

/// Adds w·(eᵢ − eⱼ)·(e_k − e_l)ᵀ for the pairs p = (i, j), q = (k, l).
fn add_outer(a: &mut [f64], m: usize, (i, j): (usize, usize), (k, l): (usize, usize), w: f64) {
    a[i * m + k] += w;
    a[j * m + l] += w;
    a[i * m + l] -= w;
    a[j * m + k] -= w;
}

/// Calls `f(a, b, P_ab)` for the centring projection P = I − 11ᵀ/n over `members`.
fn for_centred(members: &[(usize, usize)], mut f: impl FnMut((usize, usize), (usize, usize), f64)) {
    let share = 1.0 / members.len() as f64;
    for &a in members {
        for &b in members {
            f(a, b, if a == b { 1.0 - share } else { -share });
        }
    }
}

/// The matrix without its first row and column.
fn drop_first(a: &[f64], m: usize) -> Vec<f64> {
    (1..m).flat_map(|i| (1..m).map(move |j| (i, j))).map(|(i, j)| a[i * m + j]).collect()
}

/// Warshall's transitive closure of a relation on `n` items.
fn transitive_closure(r: &mut [bool], n: usize) {
    for k in 0..n {
        for i in 0..n {
            if r[i * n + k] {
                for j in 0..n {
                    r[i * n + j] |= r[k * n + j];
                }
            }
        }
    }
}

/// The anchor bot's group, or the largest group (the first in bot order among equals), under an
/// equivalence relation.
fn anchor_group(n: usize, anchor: Anchor, same: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let group_of = |i: usize| (0..n).filter(|&j| same(i, j)).collect::<Vec<usize>>();
    match anchor {
        Anchor::Bot(a) => group_of(a),
        Anchor::Mean => (0..n).map(group_of).fold(Vec::new(), |best, g| if g.len() > best.len() { g } else { best }),
    }
}

fn positions(n: usize, group: &[usize]) -> Vec<Option<usize>> {
    let mut pos = vec![None; n];
    for (k, &b) in group.iter().enumerate() {
        pos[b] = Some(k);
    }
    pos
}

/// The sandwich covariance of estimates whose first component is fixed at 0, with the
/// small-sample factor G/(G − 1) for G clusters; `m × m` with a zero first row and column.
fn robust_covariance(info: &[f64], meat: &[f64], m: usize, clusters: u64) -> Vec<f64> {
    let mut cov = vec![0.0; m * m];
    if m < 2 {
        return cov;
    }
    let factor = if clusters < 2 { f64::INFINITY } else { clusters as f64 / (clusters - 1) as f64 };
    let inverse = matrix::inverse_spd(&drop_first(info, m), m - 1).expect("a connected group");
    let reduced = matrix::sandwich(&inverse, &drop_first(meat, m), m - 1);
    for i in 1..m {
        for j in 1..m {
            cov[i * m + j] = factor * reduced[(i - 1) * (m - 1) + (j - 1)];
        }
    }
    cov
}

/// The group's ratings and covariance moved to the anchor, spread over all `n` bots (others NaN).
pub(super) fn anchored(
    n: usize,
    group: &[usize],
    values: &[f64],
    cov: &[f64],
    anchor: Anchor,
    clusters: u64,
    quantile: f64,
) -> RatingList {
    let m = group.len();
    // The anchored ratings are T·values with T = I − 1·wᵀ, w the anchor's weights over the group.
    let weights: Vec<f64> = match anchor {
        Anchor::Bot(a) => group.iter().map(|&b| f64::from(u8::from(a == b))).collect(),
        Anchor::Mean => vec![1.0 / m as f64; m],
    };
    let level: f64 = weights.iter().zip(values).map(|(w, v)| w * v).sum();
    let cw = matrix::apply(cov, &weights); // Σ·w
    let wcw: f64 = weights.iter().zip(&cw).map(|(w, c)| w * c).sum();
    let mut full = vec![f64::NAN; n * n];
    let mut ratings = vec![Rating::UNRATED; n];
    for (x, &a) in group.iter().enumerate() {
        for (y, &b) in group.iter().enumerate() {
            // (T·Σ·Tᵀ)ₓᵧ = Σₓᵧ − (Σw)ₓ − (Σw)ᵧ + wᵀΣw.
            full[a * n + b] = cov[x * m + y] - cw[x] - cw[y] + wcw;
        }
    }
    for (x, &a) in group.iter().enumerate() {
        let value = values[x] - level;
        let half = quantile * full[a * n + a].max(0.0).sqrt();
        ratings[a] = Rating { value, lo: value - half, hi: value + half };
    }
    RatingList { ratings, anchor, clusters, cov: full, quantile }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: usize, b: usize, wins: u64, draws: u64, losses: u64) -> PairScore {
        PairScore { a, b, half_points: 2 * wins + draws, games: wins + draws + losses }
    }

    /// The sums are exact, so the list does not depend on the order of the clusters: tables
    /// interleaved deal by deal (each cluster's places looked up anew) give what tables played one
    /// after another give (the places of the last cluster reused).
    #[test]
    fn the_order_of_the_clusters_does_not_matter() {
        let layouts = [
            vec![games(0, 1, 3, 1, 2)],
            vec![games(2, 1, 1, 0, 4), games(0, 2, 2, 2, 2), games(0, 1, 0, 1, 1)],
            vec![games(3, 0, 5, 0, 1), games(1, 3, 2, 1, 0)],
        ];
        let (mut grouped, mut interleaved) = (Comparisons::new(4), Comparisons::new(4));
        for layout in &layouts {
            (0..20).for_each(|_| grouped.push_cluster(layout));
        }
        for _ in 0..20 {
            layouts.iter().for_each(|layout| interleaved.push_cluster(layout));
        }
        assert_eq!(grouped.elo(Anchor::Mean), interleaved.elo(Anchor::Mean));
        assert_eq!(
            (0..4).map(|b| grouped.record(b)).collect::<Vec<_>>(),
            (0..4).map(|b| interleaved.record(b)).collect::<Vec<_>>()
        );
        assert_eq!(grouped.totals().collect::<Vec<_>>(), interleaved.totals().collect::<Vec<_>>());
    }

    /// Two bots: the rating difference is the Elo of the score, 400·log10(s/(1 − s)).
    #[test]
    fn two_bots_differ_by_the_elo_of_their_score() {
        let mut c = Comparisons::new(2);
        c.push_cluster(&[games(0, 1, 60, 20, 20)]);
        let list = c.elo(Anchor::Bot(1));
        let want = crate::stats::elo_from_score(0.7);
        assert!((list.ratings[0].value - want).abs() < 1e-9, "{:?}", list.ratings);
        assert_eq!(list.ratings[1], Rating { value: 0.0, lo: 0.0, hi: 0.0 });
        let mean = c.elo(Anchor::Mean);
        assert!((mean.ratings[0].value - want / 2.0).abs() < 1e-9 && (mean.ratings[1].value + want / 2.0).abs() < 1e-9);
        let (d, e) = (list.difference(0, 1), mean.difference(0, 1));
        assert!((d.lo - e.lo).abs() < 1e-9 && (d.hi - e.hi).abs() < 1e-9, "the anchor does not move differences");
    }

    /// At the maximum every bot's expected score equals its actual score.
    #[test]
    fn expected_scores_equal_actual_scores() {
        let mut c = Comparisons::new(4);
        c.push_cluster(&[games(0, 1, 30, 10, 20), games(0, 2, 12, 5, 3)]);
        c.push_cluster(&[games(1, 2, 8, 8, 8), games(2, 3, 40, 2, 9), games(3, 0, 5, 1, 20)]);
        c.push_cluster(&[games(1, 3, 7, 0, 2)]);
        let list = c.elo(Anchor::Mean);
        let r: Vec<f64> = list.ratings.iter().map(|x| x.value).collect();
        assert!(r.iter().sum::<f64>().abs() < 1e-9);
        for bot in 0..4 {
            let (mut actual, mut expected_score) = (0.0, 0.0);
            for ((i, j), (hp, g)) in c.totals() {
                let e = expected(r[i] - r[j]);
                if i == bot {
                    (actual, expected_score) = (actual + hp as f64 / 2.0, expected_score + g as f64 * e);
                } else if j == bot {
                    (actual, expected_score) =
                        (actual + g as f64 - hp as f64 / 2.0, expected_score + g as f64 * (1.0 - e));
                }
            }
            assert!((actual - expected_score).abs() < 1e-9, "bot {bot}: {actual} vs {expected_score}");
        }
        assert_eq!(list.clusters, 3);
    }

    /// Two bots, one game per cluster: the sandwich is the delta-method variance of the Elo of the
    /// mean score, Var(s̄)/(κ·s̄(1 − s̄))² with Var(s̄) the sample variance of the games over n.
    #[test]
    fn two_bot_interval_is_the_delta_method_interval_of_the_score() {
        let mut c = Comparisons::new(2);
        let results = [2u64, 2, 1, 0, 2, 2, 1, 2, 0, 2, 2, 1, 2, 0, 2];
        for &hp in &results {
            c.push_cluster(&[PairScore { a: 0, b: 1, half_points: hp, games: 1 }]);
        }
        let list = c.elo(Anchor::Bot(1));
        let n = results.len() as f64;
        let s = results.iter().map(|&h| h as f64 / 2.0).sum::<f64>() / n;
        let var_s = results.iter().map(|&h| (h as f64 / 2.0 - s).powi(2)).sum::<f64>() / (n - 1.0) / n;
        // d = elo(s): dd/ds = 1/(κ·s(1 − s)).
        let se = var_s.sqrt() / (KAPPA * s * (1.0 - s));
        assert!((list.se(0) - se).abs() < 1e-9 * se, "{} {se}", list.se(0));
        let i = list.difference(0, 1);
        assert!((i.hi - i.lo - 2.0 * Z95 * se).abs() < 1e-6);
    }

    /// Every pair of games split one win and one loss: no spread in the data, so the interval
    /// takes the bound E(1 − E) for each deal's score share. For K pairs at E = ½: information
    /// κ²·2K·¼, score variance κ²·Σn²·¼ = κ²K, so Var = 4/(κ²K)·K/(K − 1) = 4/(κ²(K − 1)).
    #[test]
    fn pairs_without_spread_get_the_conservative_bound() {
        let mut c = Comparisons::new(2);
        let k = 50;
        for _ in 0..k {
            c.push_cluster(&[PairScore { a: 0, b: 1, half_points: 2, games: 2 }]);
        }
        let list = c.elo(Anchor::Bot(0));
        assert!(list.ratings[1].value.abs() < 1e-9);
        let want = 2.0 / (KAPPA * ((k - 1) as f64).sqrt());
        assert!((list.se(1) - want).abs() < 1e-9 * want, "{} vs {want}", list.se(1));
    }

    #[test]
    fn perfect_winners_and_losers_are_infinite_with_a_bound() {
        let mut c = Comparisons::new(4);
        // 0 beats everyone; 1 and 2 share points; 3 loses to 1 and 2 and never met 0.
        c.push_cluster(&[games(0, 1, 10, 0, 0), games(0, 2, 5, 0, 0), games(1, 2, 6, 2, 4)]);
        c.push_cluster(&[games(1, 3, 9, 0, 0), games(2, 3, 4, 0, 0)]);
        let list = c.elo(Anchor::Mean);
        let (top, low) = (list.ratings[0], list.ratings[3]);
        assert_eq!(
            (top.value, top.hi, low.value, low.lo),
            (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY)
        );
        // The bound: P(15 wins) = 2.5% at the bound.
        let r = [list.ratings[1].value, list.ratings[2].value];
        let p = 10.0 * expected(top.lo - r[0]).ln() + 5.0 * expected(top.lo - r[1]).ln();
        assert!((p - TAIL.ln()).abs() < 1e-9, "{p}");
        assert!(top.lo > r[0].max(r[1]) && low.hi < r[0].min(r[1]), "{:?}", list.ratings);
        let p = 9.0 * (1.0 - expected(low.hi - r[0])).ln() + 4.0 * (1.0 - expected(low.hi - r[1])).ln();
        assert!((p - TAIL.ln()).abs() < 1e-9, "{p}");
        assert!(r[0] > r[1], "1 scored 7 of 12 against 2");
        assert_eq!(list.ranking(), vec![0, 1, 2, 3]);
        // Anchored at a bot of the group, the same differences.
        let at_two = c.elo(Anchor::Bot(2));
        assert!((at_two.ratings[1].value - (r[0] - r[1])).abs() < 1e-9 && at_two.ratings[2].value == 0.0);
        // Anchored at the perfect winner: it is the group, alone, and everyone else is below.
        let at_top = c.elo(Anchor::Bot(0));
        assert_eq!(at_top.ratings[0], Rating { value: 0.0, lo: 0.0, hi: 0.0 });
        assert!((1..4).all(|i| at_top.ratings[i].value == f64::NEG_INFINITY), "{:?}", at_top.ratings);
        assert!(at_top.ratings[1].hi < 0.0 && at_top.ratings[3].hi.is_nan(), "3 never played 0");
        // A bot that never met the group is not rated.
        let mut c = Comparisons::new(3);
        c.push_cluster(&[games(0, 1, 3, 1, 3)]);
        let list = c.elo(Anchor::Mean);
        assert!(list.ratings[2].value.is_nan() && list.ratings[0].value.is_finite());
    }

    /// A relative anchor pulls two versions together by as much as its sd says: with a wide prior
    /// the ratings are the plain maximum likelihood's, with a narrow one the two versions come
    /// within a few Elo of each other; and a version never compared with the others by games is
    /// rated through its prior alone.
    #[test]
    fn a_relative_anchor_holds_two_versions_together() {
        let mut c = Comparisons::new(3);
        // Bot 0 (version 1) scores 75% against bot 2, bot 1 (version 2) 25%.
        c.push_cluster(&[games(0, 2, 30, 0, 10)]);
        c.push_cluster(&[games(1, 2, 10, 0, 30)]);
        let plain = c.elo(Anchor::Bot(2));
        let wide = c.elo_with(Anchor::Bot(2), &[Prior { a: 0, b: 1, sd: 1e6 }]);
        let narrow = c.elo_with(Anchor::Bot(2), &[Prior { a: 0, b: 1, sd: 1.0 }]);
        for b in 0..3 {
            assert!((plain.ratings[b].value - wide.ratings[b].value).abs() < 1e-3, "{plain:?} {wide:?}");
        }
        assert!((plain.ratings[0].value - 190.85).abs() < 0.1, "{plain:?}");
        let apart = narrow.ratings[0].value - narrow.ratings[1].value;
        assert!(apart.abs() < 5.0 && apart > 0.0, "{narrow:?}");

        let mut lone = Comparisons::new(3);
        (0..10).for_each(|_| lone.push_cluster(&[games(0, 2, 3, 0, 1)]));
        assert!(lone.elo(Anchor::Bot(2)).ratings[1].value.is_nan());
        let held = lone.elo_with(Anchor::Bot(2), &[Prior { a: 0, b: 1, sd: 50.0 }]);
        assert!((held.ratings[1].value - held.ratings[0].value).abs() < 1e-6, "{held:?}");
        // The lone version's variance is its neighbour's plus the prior's sd² (times the
        // small-sample factor 10/9 of 10 clusters, which the sandwich applies to the whole).
        let var = |r: Rating| ((r.hi - r.lo) / (2.0 * Z95)).powi(2);
        assert!((var(held.ratings[1]) - var(held.ratings[0]) - 2500.0 * 10.0 / 9.0).abs() < 1.0, "{held:?}");
    }
}

#[cfg(test)]
mod payoff_tests {
    use super::*;

    fn field(deals: &[&[f64]]) -> FieldStats {
        let mut f = FieldStats::new(deals[0].len());
        deals.iter().for_each(|d| f.push(d));
        f
    }

    /// One table of two bots: the rating difference and its interval are the deal-clustered
    /// payoff difference and its t interval.
    #[test]
    fn one_table_of_two_is_the_paired_difference() {
        let f = field(&[&[1.0, -1.0], &[3.5, -2.0], &[-2.0, 0.5], &[0.0, 0.0], &[4.0, -3.0], &[0.5, 1.0]]);
        let list = payoff_ratings(2, &[TableField { bots: &[1, 0], field: &f }], Anchor::Bot(0));
        let d = f.difference(0, 1).ci(0.95);
        assert!((list.ratings[1].value - d.mean).abs() < 1e-12, "{:?} {d:?}", list.ratings);
        assert!((list.ratings[1].lo - d.lo).abs() < 1e-12 && (list.ratings[1].hi - d.hi).abs() < 1e-12);
        assert_eq!(list.clusters, 6);
    }

    /// Tables of three bots where every deal fits θ exactly up to a deal level: the ratings are θ
    /// and the intervals have no width.
    #[test]
    fn exact_fields_recover_the_ratings() {
        let theta = [2.0, -1.0, 0.5, -1.5];
        let table = |bots: [usize; 3], levels: &[f64]| {
            let mut f = FieldStats::new(3);
            levels.iter().for_each(|l| f.push(&bots.map(|b| l + theta[b])));
            f
        };
        let (a, b) = (table([0, 1, 2], &[0.0, 3.0, -7.0]), table([3, 2, 1], &[1.0, 1.0, 5.0, -2.0]));
        let tables = [TableField { bots: &[0, 1, 2], field: &a }, TableField { bots: &[3, 2, 1], field: &b }];
        let list = payoff_ratings(4, &tables, Anchor::Mean);
        let mean = theta.iter().sum::<f64>() / 4.0;
        for (r, t) in list.ratings.iter().zip(theta) {
            assert!((r.value - (t - mean)).abs() < 1e-12 && (r.hi - r.lo).abs() < 1e-9, "{:?}", list.ratings);
        }
        assert_eq!(list.ranking(), vec![0, 2, 1, 3]);
        // A bot at no table is not rated; the others are rated as before.
        let list = payoff_ratings(5, &tables, Anchor::Bot(3));
        assert!(list.ratings[4].value.is_nan());
        assert!((list.ratings[0].value - 3.5).abs() < 1e-12);
    }
}
