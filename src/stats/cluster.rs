//! Statistics over deals: when the games of one deal are not independent (the seat rotations of a
//! paired deal, or copies of a bot at one table), the deal is the observation.
//!
//! - [`ClusteredMean`]: a mean per game from clusters of unequal size (a bot's payoff or wins over
//!   its seats in each deal), with the cluster-robust variance of a ratio of sums and a Student-t
//!   interval, and a Wilson interval for proportions at the effective sample size.
//! - [`FieldStats`]: the bots at one table, deal by deal: each bot's mean payoff per game in the deal
//!   (its copies pooled), so that each bot's mean and the difference between any two come with
//!   intervals over deals.
//!
//! Both accumulate co-moments in one pass (Welford's update, extended to several variables), so they
//! stay exact to rounding level on large offsets and need no storage per deal.

use super::interval::{t_quantile, wilson, Interval, MeanCi, Welford};

/// A mean per unit (game) estimated from clusters (deals): Σy / Σm over clusters that each add a
/// total `y` over `m` units.
///
/// The variance of that ratio is the cluster-robust (linearised) one,
///
///   v = K/(K − 1) · Σₖ (yₖ − r·mₖ)² / (Σₖ mₖ)²,
///
/// which treats clusters as independent and makes no assumption about the games within one. With
/// equal cluster sizes it is s²/K, s the standard deviation of the cluster means, so the interval is
/// exactly the Student-t interval of the cluster means; with one unit per cluster it is the usual
/// interval over games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClusteredMean {
    clusters: u64,
    /// The first cluster's mean per unit, subtracted from every unit: with it the co-moments hold
    /// spreads, not a large common level (which would cancel catastrophically in the residuals).
    shift: f64,
    /// Means of y − shift·m and of m.
    mean_y: f64,
    mean_m: f64,
    /// Co-moments Σ(y − ȳ)², Σ(m − m̄)², Σ(y − ȳ)(m − m̄).
    c_yy: f64,
    c_mm: f64,
    c_ym: f64,
}

impl ClusteredMean {
    /// No clusters yet.
    pub fn new() -> ClusteredMean {
        ClusteredMean::default()
    }

    /// Adds a cluster with total `y` over `m` units (`m` > 0).
    pub fn push(&mut self, y: f64, m: f64) {
        if self.clusters == 0 {
            self.shift = y / m;
        }
        let y = y - self.shift * m;
        self.clusters += 1;
        let k = self.clusters as f64;
        let (dy, dm) = (y - self.mean_y, m - self.mean_m);
        self.mean_y += dy / k;
        self.mean_m += dm / k;
        // One old and one new deviation: the exact update of the co-moments.
        self.c_yy += dy * (y - self.mean_y);
        self.c_mm += dm * (m - self.mean_m);
        self.c_ym += dy * (m - self.mean_m);
    }

    /// Clusters added: the independent observations.
    pub fn clusters(&self) -> u64 {
        self.clusters
    }

    /// Σm: the units (games) in all clusters.
    pub fn units(&self) -> f64 {
        self.mean_m * self.clusters as f64
    }

    /// Σy / Σm; 0 when empty.
    pub fn mean(&self) -> f64 {
        if self.clusters == 0 {
            0.0
        } else {
            self.shift + self.mean_y / self.mean_m
        }
    }

    /// The standard deviation of one cluster's mean that the clustered variance implies,
    /// √(Σ(y − r·m)² / ((K − 1)·m̄²)), so that the variance of the mean is sd²/K; 0 with fewer than two
    /// clusters. With one unit per cluster it is the sample standard deviation of the games.
    ///
    /// Σ(y − r·m)² = C_yy − 2r·C_ym + r²·C_mm because ȳ = r·m̄: the sum of squared residuals
    /// from the co-moments (of the shifted y, so r is the mean's distance from the shift).
    fn sd(&self) -> f64 {
        if self.clusters < 2 {
            return 0.0;
        }
        let r = self.mean_y / self.mean_m;
        let residual = (self.c_yy - 2.0 * r * self.c_ym + r * r * self.c_mm).max(0.0);
        (residual / ((self.clusters - 1) as f64 * (self.mean_m * self.mean_m))).sqrt()
    }

    /// The cluster-robust variance of [`Self::mean`]; +∞ with fewer than two clusters.
    pub fn variance_of_mean(&self) -> f64 {
        if self.clusters < 2 {
            return f64::INFINITY;
        }
        self.sd().powi(2) / self.clusters as f64
    }

    /// The mean with its Student-t interval at `level` over K − 1 degrees of freedom (K clusters).
    /// `n` is the number of clusters and `sd` the standard deviation the interval implies for one
    /// cluster's mean (see `Self::sd`). Fewer than two clusters: (−∞, +∞); no spread: [mean, mean].
    pub fn ci(&self, level: f64) -> MeanCi {
        let (n, mean, sd) = (self.clusters, self.mean(), self.sd());
        let (lo, hi) = if n < 2 || level >= 1.0 || level.is_nan() {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else if level <= 0.0 || sd == 0.0 {
            (mean, mean)
        } else {
            let half = t_quantile(level, (n - 1) as f64) * sd / (n as f64).sqrt();
            (mean - half, mean + half)
        };
        MeanCi { n, mean, sd, lo, hi }
    }

    /// The Wilson interval of a proportion (y counts successes) at normal quantile `z`, with the
    /// effective sample size n* = p̂(1 − p̂)/v (Kish's design effect: the number of independent
    /// games that would give the clustered variance v).
    ///
    /// When v is 0 (p̂ is 0 or 1, or every cluster has the same proportion) the spread is unknown
    /// rather than nil: n* is then the number of clusters, which is conservative, since a cluster's
    /// proportion lies in [0, 1] and so has a variance of at most p(1 − p).
    pub fn wilson(&self, z: f64) -> Interval {
        let p = self.mean().clamp(0.0, 1.0);
        let v = self.variance_of_mean();
        let n = if v > 0.0 && v.is_finite() { p * (1.0 - p) / v } else { self.clusters as f64 };
        wilson(p * n, n, z)
    }
}

/// The bots at one table, deal by deal: `push` takes each bot's mean payoff per game over its seats
/// in one deal (all its copies and the deal's seat rotations), and the deals are the observations.
/// Within one table every deal seats each bot the same number of times, so the mean of the deal
/// means is the bot's mean payoff per game, and the difference of two bots' deal means is a paired
/// observation of their payoff difference.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldStats {
    deals: u64,
    mean: Vec<f64>,
    /// Σ (xᵢ − x̄ᵢ)(xⱼ − x̄ⱼ), row-major, bots × bots.
    comoment: Vec<f64>,
    /// Scratch: the deviations from the old means.
    delta: Vec<f64>,
}

impl FieldStats {
    /// No deals yet, for a field of `bots` bots.
    pub fn new(bots: usize) -> FieldStats {
        FieldStats { deals: 0, mean: vec![0.0; bots], comoment: vec![0.0; bots * bots], delta: vec![0.0; bots] }
    }

    /// Bots in the field.
    pub fn bots(&self) -> usize {
        self.mean.len()
    }

    /// Deals added.
    pub fn deals(&self) -> u64 {
        self.deals
    }

    /// Adds one deal: `x[i]` is bot i's mean payoff per game in it.
    pub fn push(&mut self, x: &[f64]) {
        assert_eq!(x.len(), self.bots(), "one mean per bot");
        self.deals += 1;
        let k = self.deals as f64;
        for (d, (xi, m)) in self.delta.iter_mut().zip(x.iter().zip(&self.mean)) {
            *d = xi - m;
        }
        for (m, d) in self.mean.iter_mut().zip(&self.delta) {
            *m += d / k;
        }
        for (row, di) in self.comoment.chunks_exact_mut(x.len()).zip(&self.delta) {
            for (c, (xj, mj)) in row.iter_mut().zip(x.iter().zip(&self.mean)) {
                *c += di * (xj - mj);
            }
        }
    }

    /// The bots' mean payoffs per game.
    pub fn means(&self) -> &[f64] {
        &self.mean
    }

    /// The co-moment Σ (xᵢ − x̄ᵢ)(xⱼ − x̄ⱼ) over deals.
    pub fn comoment(&self, i: usize, j: usize) -> f64 {
        self.comoment[i * self.bots() + j]
    }

    /// Bot `i`'s deal means as one accumulator (mean payoff per game, variance over deals).
    pub fn bot(&self, i: usize) -> Welford {
        Welford::from_moments(self.deals, self.mean[i], self.comoment(i, i))
    }

    /// The deal-by-deal differences of bot `a`'s mean payoff per game minus bot `b`'s, as one
    /// accumulator: its interval is clustered by deal, and the SPRT's payoff model takes it as is.
    pub fn difference(&self, a: usize, b: usize) -> Welford {
        let m2 = self.comoment(a, a) + self.comoment(b, b) - 2.0 * self.comoment(a, b);
        Welford::from_moments(self.deals, self.mean[a] - self.mean[b], m2.max(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Z95;

    /// Equal cluster sizes: the clustered interval is the t interval of the cluster means.
    #[test]
    fn equal_clusters_give_the_t_interval_of_cluster_means() {
        let clusters = [(3.0, 4.0), (-1.0, 4.0), (7.5, 4.0), (0.0, 4.0), (2.25, 4.0), (-6.0, 4.0)];
        let c: ClusteredMean = clusters.iter().fold(ClusteredMean::new(), |mut c, &(y, m)| {
            c.push(y, m);
            c
        });
        let w: Welford = clusters.iter().map(|(y, m)| y / m).collect();
        let (a, b) = (c.ci(0.95), w.ci(0.95));
        assert_eq!((a.n, c.units()), (6, 24.0));
        assert!((a.mean - b.mean).abs() < 1e-15 && (a.lo - b.lo).abs() < 1e-14 && (a.hi - b.hi).abs() < 1e-14);
        assert!((a.sd - b.sd).abs() < 1e-14, "{a:?} {b:?}");
    }

    /// One unit per cluster: the usual interval over games.
    #[test]
    fn unit_clusters_are_games() {
        let xs = [1.0, -2.0, 0.5, 4.0, 4.0, -3.5, 0.0];
        let mut c = ClusteredMean::new();
        xs.iter().for_each(|&x| c.push(x, 1.0));
        let (a, b) = (c.ci(0.95), xs.iter().copied().collect::<Welford>().ci(0.95));
        assert_eq!(a.n, b.n);
        for (x, y) in [(a.mean, b.mean), (a.sd, b.sd), (a.lo, b.lo), (a.hi, b.hi)] {
            assert!((x - y).abs() < 1e-14, "{a:?} {b:?}");
        }
    }

    /// Unequal clusters against the formula written out: r = Σy/Σm, v = K/(K−1)·Σ(y − r·m)²/(Σm)².
    #[test]
    fn unequal_clusters_match_the_ratio_formula() {
        let clusters = [(5.0, 2.0), (-3.0, 4.0), (10.0, 3.0), (1.0, 1.0), (-2.0, 4.0)];
        let mut c = ClusteredMean::new();
        clusters.iter().for_each(|&(y, m)| c.push(1e9 * m + y, m)); // a large offset per unit
        let (sy, sm): (f64, f64) = clusters.iter().fold((0.0, 0.0), |(a, b), (y, m)| (a + y, b + m));
        let r = sy / sm;
        let k = clusters.len() as f64;
        let v = k / (k - 1.0) * clusters.iter().map(|(y, m)| (y - r * m).powi(2)).sum::<f64>() / (sm * sm);
        assert!((c.mean() - 1e9 - r).abs() < 1e-6, "{} {r}", c.mean());
        assert!((c.variance_of_mean() - v).abs() < 1e-9 * v, "{} {v}", c.variance_of_mean());
    }

    #[test]
    fn clustered_wilson() {
        // All won: the spread is unknown, Wilson over the clusters (not the games).
        let mut c = ClusteredMean::new();
        (0..10).for_each(|_| c.push(2.0, 2.0));
        assert_eq!(c.wilson(Z95), wilson(10.0, 10.0, Z95));
        // One unit per cluster: n* = p(1 − p)/v = K − 1.
        let mut c = ClusteredMean::new();
        [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0].iter().for_each(|&y| c.push(y, 1.0));
        assert_eq!(c.wilson(Z95), wilson(5.0 * 7.0 / 8.0, 7.0, Z95));
        // Every pair won once and lost once: no spread at ½, n* = K.
        let mut c = ClusteredMean::new();
        (0..20).for_each(|_| c.push(1.0, 2.0));
        assert_eq!(c.wilson(Z95), wilson(10.0, 20.0, Z95));
        // Nothing: [0, 1].
        assert_eq!(ClusteredMean::new().wilson(Z95), Interval { lo: 0.0, hi: 1.0 });
    }

    #[test]
    fn few_clusters_give_no_interval() {
        let mut c = ClusteredMean::new();
        assert!(c.ci(0.95).lo.is_infinite());
        c.push(3.0, 2.0);
        let ci = c.ci(0.95);
        assert_eq!((ci.mean, ci.lo, ci.hi), (1.5, f64::NEG_INFINITY, f64::INFINITY));
    }

    /// The field's bot means and differences equal Welford accumulators fed the same numbers.
    #[test]
    fn field_matches_separate_accumulators() {
        let deals = [[1.0, -0.5, -0.5], [4.0, -3.0, -1.0], [-2.0, 1.5, 0.5], [0.0, 0.0, 0.0], [3.0, -4.0, 1.0]];
        let mut f = FieldStats::new(3);
        deals.iter().for_each(|d| f.push(d));
        assert_eq!(f.deals(), 5);
        for a in 0..3 {
            let w: Welford = deals.iter().map(|d| d[a]).collect();
            let (x, y) = (f.bot(a).ci(0.95), w.ci(0.95));
            assert!((x.mean - y.mean).abs() < 1e-15 && (x.sd - y.sd).abs() < 1e-14, "{x:?} {y:?}");
            for b in 0..3 {
                let w: Welford = deals.iter().map(|d| d[a] - d[b]).collect();
                let (x, y) = (f.difference(a, b).ci(0.95), w.ci(0.95));
                assert!((x.mean - y.mean).abs() < 1e-14 && (x.sd - y.sd).abs() < 1e-13, "{a} {b}: {x:?} {y:?}");
            }
        }
        assert_eq!(f.difference(1, 1).ci(0.95).sd, 0.0);
    }
}
