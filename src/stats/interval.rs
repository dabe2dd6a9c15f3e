//! Confidence intervals: the Wilson interval for a proportion and the Student-t interval for a mean
//! (with an online mean/variance accumulator).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The two-sided 95% quantile of the standard normal distribution, Φ⁻¹(0.975), to full double precision.
/// Engine testers (fishtest, fastchess) use exactly this value for their "± 95%" figures.
pub const Z95: f64 = 1.959963984540054;

/// A closed interval `[lo, hi]`. Bounds may be infinite when the data cannot bound the quantity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

impl Interval {
    /// True when `x` lies in `[lo, hi]`.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// Half the width, the "±" figure.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// Φ(x), the standard normal CDF.
pub fn normal_cdf(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// Φ⁻¹(p), the standard normal quantile, for `0 < p < 1` (±∞ at the ends, NaN outside [0, 1]).
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    Normal::standard().inverse_cdf(p)
}

/// The two-sided quantile of Student's t with `df` degrees of freedom for confidence `level`
/// (e.g. 0.95 → t₀.₉₇₅). `df` must be positive, `level` in (0, 1).
///
/// statrs computes it by inverting the regularized incomplete beta function, which is accurate for
/// small df (where the t quantile matters) but loses digits for large df (off by 1e-4 at df = 5e5,
/// wildly wrong at 1e7). From df = 1000 on we use the Cornish–Fisher expansion of t in powers of 1/df
/// around the normal quantile (Abramowitz & Stegun 26.7.5), whose first omitted term is below 1e-13
/// there; the two agree to about 1e-12 at the switch (tested).
pub fn t_quantile(level: f64, df: f64) -> f64 {
    let p = 0.5 + level / 2.0;
    if df >= 1000.0 {
        return t_quantile_expansion(p, df);
    }
    let t = StudentsT::new(0.0, 1.0, df).expect("degrees of freedom must be positive");
    t.inverse_cdf(p)
}

/// A&S 26.7.5: t_p(ν) ≈ z + g₁/ν + g₂/ν² + g₃/ν³ + g₄/ν⁴ with z = Φ⁻¹(p).
fn t_quantile_expansion(p: f64, v: f64) -> f64 {
    let z = normal_quantile(p);
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    z + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v
}

/// Wilson score interval for a proportion: `successes` out of `n` trials, at normal quantile `z`
/// (use [`Z95`] for 95%).
///
/// `successes` may be fractional so that a draw counts as half a win. The Wilson interval is the set
/// of proportions p whose score test |p̂ − p| / √(p(1 − p)/n) ≤ z does not reject; solving that
/// quadratic in p gives the centre (p̂ + z²/2n)/(1 + z²/n) and the half width
/// z/(1 + z²/n)·√(p̂(1 − p̂)/n + z²/4n²). Unlike the normal ("Wald") interval it stays inside [0, 1]
/// and keeps a sensible width at p̂ = 0 or 1. With `n = 0` nothing is known: the result is [0, 1].
pub fn wilson(successes: f64, n: f64, z: f64) -> Interval {
    if n <= 0.0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let p = (successes / n).clamp(0.0, 1.0);
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    // At p̂ = 0 (resp. 1) the lower (upper) end is exactly 0 (1); set it so rounding cannot move it.
    let lo = if p == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if p == 1.0 { 1.0 } else { (centre + half).min(1.0) };
    Interval { lo, hi }
}

/// Online mean and variance (Welford's algorithm): numerically stable in one pass, no storage, and
/// mergeable so that per-thread accumulators can be combined (Chan et al.'s pairwise update).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Welford {
    n: u64,
    mean: f64,
    /// Sum of squared deviations from the running mean.
    m2: f64,
}

/// A mean with its Student-t confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanCi {
    /// Number of observations.
    pub n: u64,
    /// The sample mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 denominator); 0 when n < 2.
    pub sd: f64,
    /// The 95% interval's lower end.
    pub lo: f64,
    /// The 95% interval's upper end.
    pub hi: f64,
}

impl MeanCi {
    /// The interval `[lo, hi]`.
    pub fn interval(&self) -> Interval {
        Interval { lo: self.lo, hi: self.hi }
    }
}

impl FromIterator<f64> for Welford {
    fn from_iter<I: IntoIterator<Item = f64>>(xs: I) -> Welford {
        let mut w = Welford::new();
        xs.into_iter().for_each(|x| w.push(x));
        w
    }
}

impl Welford {
    /// No observations yet.
    pub fn new() -> Welford {
        Welford::default()
    }

    /// Adds one observation.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        // Uses the deviation from both the old and the new mean: exact update of Σ(x − mean)².
        self.m2 += delta * (x - self.mean);
    }

    /// Combines two accumulators as if all observations had been pushed into one.
    pub fn merge(&mut self, other: &Welford) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let (na, nb) = (self.n as f64, other.n as f64);
        let n = na + nb;
        let delta = other.mean - self.mean;
        self.mean += delta * nb / n;
        self.m2 += other.m2 + delta * delta * na * nb / n;
        self.n += other.n;
    }

    /// An accumulator with `n` observations of mean `mean` whose squared deviations from it sum to
    /// `m2` (e.g. the moments of a difference of two variables computed from their co-moments).
    pub fn from_moments(n: u64, mean: f64, m2: f64) -> Welford {
        Welford { n, mean, m2 }
    }

    /// Observations added.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The mean; 0 when empty.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The sample variance (n − 1 denominator, unbiased); 0 when n < 2.
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// The mean with its two-sided Student-t interval at confidence `level` (e.g. 0.95):
    /// mean ± t(level, n − 1)·sd/√n. The t quantile (rather than z) accounts for the standard
    /// deviation itself being estimated, which matters for small n.
    ///
    /// With fewer than two observations the spread is unknown, so the interval is (−∞, +∞) (never a
    /// falsely narrow interval that a gate could pass on). `level` ≥ 1 also gives (−∞, +∞) and
    /// `level` ≤ 0 gives [mean, mean]. When all observations are equal (sd = 0) the interval is
    /// [mean, mean], as the formula says.
    pub fn ci(&self, level: f64) -> MeanCi {
        let (mean, sd) = (self.mean, self.variance().sqrt());
        let (lo, hi) = if self.n < 2 || level >= 1.0 || level.is_nan() {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else if level <= 0.0 || sd == 0.0 {
            (mean, mean)
        } else {
            let half = t_quantile(level, (self.n - 1) as f64) * sd / (self.n as f64).sqrt();
            (mean - half, mean + half)
        };
        MeanCi { n: self.n, mean, sd, lo, hi }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z95_is_the_normal_quantile() {
        assert!((normal_quantile(0.975) - Z95).abs() < 1e-12);
        // statrs' erfc is good to about 1e-12 here (plenty for LOS, quoted to 1e-6).
        assert!((normal_cdf(Z95) - 0.975).abs() < 1e-11);
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
    /// (Wilson score interval without continuity correction, z = 1.96).
    #[test]
    fn wilson_matches_newcombe_1998() {
        let cases = [
            (81.0, 263.0, 0.2553, 0.3662),
            (15.0, 148.0, 0.0624, 0.1605),
            (0.0, 20.0, 0.0, 0.1611),
            (1.0, 29.0, 0.0061, 0.1718),
        ];
        for (x, n, lo, hi) in cases {
            let i = wilson(x, n, 1.96);
            assert!((i.lo - lo).abs() < 5e-5 && (i.hi - hi).abs() < 5e-5, "{x}/{n}: {i:?}");
        }
    }

    #[test]
    fn wilson_edges() {
        assert_eq!(wilson(0.0, 0.0, Z95), Interval { lo: 0.0, hi: 1.0 });
        let all = wilson(10.0, 10.0, Z95);
        assert_eq!(all.hi, 1.0);
        assert!(all.lo > 0.6 && all.lo < 0.8, "{all:?}");
        // Fractional successes (draws count half) sit between the neighbouring integer counts.
        let half = wilson(5.5, 10.0, Z95);
        let (a, b) = (wilson(5.0, 10.0, Z95), wilson(6.0, 10.0, Z95));
        assert!(a.lo < half.lo && half.lo < b.lo && a.hi < half.hi && half.hi < b.hi);
        // Symmetry: k successes ↔ n − k failures.
        let (p, q) = (wilson(3.0, 17.0, Z95), wilson(14.0, 17.0, Z95));
        assert!((p.lo - (1.0 - q.hi)).abs() < 1e-14 && (p.hi - (1.0 - q.lo)).abs() < 1e-14);
    }

    #[test]
    fn t_quantile_df9() {
        // Standard t table: t(0.975, 9) = 2.262157162798...
        assert!((t_quantile(0.95, 9.0) - 2.262_157_162_8).abs() < 1e-8);
        // Known table values: t(0.975, 30) = 2.0422724563, t(0.975, 1000) = 1.9623390808.
        assert!((t_quantile(0.95, 30.0) - 2.042_272_456_3).abs() < 1e-9);
        assert!((t_quantile(0.95, 1000.0) - 1.962_339_080_8).abs() < 1e-9);
        // Large df: t(0.975, ν) = z + (z³ + z)/(4ν) + O(1/ν²), tending to the normal quantile.
        for v in [1e5, 1e7, 1e12] {
            let first_order = Z95 + (Z95.powi(3) + Z95) / (4.0 * v);
            assert!((t_quantile(0.95, v) - first_order).abs() < (3.0 / (v * v)).max(4e-16), "{v}");
        }
    }

    #[test]
    fn t_quantile_is_continuous_at_the_switch_to_the_expansion() {
        for level in [0.8, 0.9, 0.95, 0.99, 0.999] {
            for df in [999.0, 1000.0, 1500.0] {
                let exact = StudentsT::new(0.0, 1.0, df).unwrap().inverse_cdf(0.5 + level / 2.0);
                let series = t_quantile_expansion(0.5 + level / 2.0, df);
                assert!((exact - series).abs() < 1e-11, "{level} {df}: {exact} {series}");
            }
        }
    }

    #[test]
    fn t_interval_for_one_to_ten() {
        // 1..=10: mean 5.5, sd √(55/6) = 3.0276504, half width 2.2621572 · 3.0276504/√10 = 2.1658506.
        let mut w = Welford::new();
        (1..=10).for_each(|x| w.push(x as f64));
        let ci = w.ci(0.95);
        assert_eq!(ci.n, 10);
        assert!((ci.mean - 5.5).abs() < 1e-15);
        assert!((ci.sd - (55.0f64 / 6.0).sqrt()).abs() < 1e-14);
        assert!((ci.lo - (5.5 - 2.165_850_6)).abs() < 1e-6, "{ci:?}");
        assert!((ci.hi - (5.5 + 2.165_850_6)).abs() < 1e-6, "{ci:?}");
    }

    #[test]
    fn welford_merge_equals_one_pass_and_is_stable() {
        // Large offset: the naive Σx² − n·mean² formula would lose all digits here.
        let xs: Vec<f64> = (0..1000).map(|i| 1e9 + ((i * 7919) % 113) as f64 * 0.25).collect();
        let mut all = Welford::new();
        xs.iter().for_each(|&x| all.push(x));
        let (mut a, mut b) = (Welford::new(), Welford::new());
        xs[..337].iter().for_each(|&x| a.push(x));
        xs[337..].iter().for_each(|&x| b.push(x));
        a.merge(&b);
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
        assert_eq!(a.n(), all.n());
        for w in [a, all] {
            assert!((w.mean() - mean).abs() < 1e-6);
            assert!((w.variance() - var).abs() < 1e-9 * var, "{} vs {var}", w.variance());
        }
        let mut empty = Welford::new();
        empty.merge(&all);
        assert_eq!(empty, all);
    }

    #[test]
    fn welford_small_samples() {
        let mut w = Welford::new();
        let ci = w.ci(0.95);
        assert_eq!((ci.n, ci.mean, ci.sd), (0, 0.0, 0.0));
        assert!(ci.lo == f64::NEG_INFINITY && ci.hi == f64::INFINITY);
        w.push(3.0);
        let ci = w.ci(0.95);
        assert_eq!((ci.mean, ci.sd), (3.0, 0.0));
        assert!(ci.lo.is_infinite() && ci.hi.is_infinite());
        w.push(3.0);
        let ci = w.ci(0.95);
        assert_eq!((ci.lo, ci.hi), (3.0, 3.0));
    }
}
