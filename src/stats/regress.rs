//! Regression adjustment fitted as the observations come: an observation `y` with covariates
//! `x` of mean zero is replaced by `y − βᵀx`, `β` the least-squares fit (with an intercept) of
//! the observations *before* it.
//!
//! Why before: `β` then depends only on earlier observations, and `x` is independent of them
//! with mean zero, so `E[βᵀx] = E[β]ᵀE[x] = 0` and the adjusted mean is the plain mean exactly,
//! not only as the sample grows (a fit on all the data, this one included, is biased by O(1/n)).
//! A covariate unrelated to `y` gets a coefficient near zero and costs almost nothing; one
//! that is identically zero (a seat's strength under full seat rotation) is skipped.

/// Observations before the fit is used: fewer leave `y` as it is (a fit on a handful of
/// observations would add noise, not take it out).
const WARM_UP: u64 = 32;

/// A pivot this small against the largest diagonal entry (at least the count of observations)
/// means the column is (nearly) a combination of the ones before it, or a covariate that is zero
/// but for rounding (a seat's strengths summed over a full rotation): its coefficient is left
/// at zero rather than fitted to the rounding.
const SINGULAR: f64 = 1e-9;

/// The running sums of a least-squares fit of `y` on `[1, x…]`.
#[derive(Clone, Debug)]
pub struct OnlineRegression {
    /// Covariates per observation (the intercept not counted).
    dims: usize,
    n: u64,
    /// Observations before the fit is used ([`WARM_UP`] unless [`OnlineRegression::with_prior`]).
    warm_up: u64,
    /// Pseudo-observations that pull each coefficient towards zero: the normal equations'
    /// diagonal (the intercept's apart) times `1 + shrink / n`, a pull that fades as the
    /// observations come. Zero: plain least squares.
    shrink: f64,
    /// The fit is solved again every this many observations (1: every one); in between the
    /// last coefficients stand, fitted on earlier observations still.
    every: u64,
    /// `Σ zzᵀ` and `Σ zy` for `z = [1, x…]`, row-major.
    zz: Vec<f64>,
    zy: Vec<f64>,
    /// Scratch for solving the normal equations (the augmented matrix, the (column, row) of each
    /// pivot), and the coefficients of the last solve.
    work: Vec<f64>,
    pivots: Vec<(usize, usize)>,
    beta: Vec<f64>,
}

impl OnlineRegression {
    /// A regression on `dims` covariates (and an intercept), no observations yet.
    pub fn new(dims: usize) -> OnlineRegression {
        let d = dims + 1;
        OnlineRegression {
            dims,
            n: 0,
            warm_up: WARM_UP,
            shrink: 0.0,
            every: 1,
            zz: vec![0.0; d * d],
            zy: vec![0.0; d],
            work: vec![0.0; d * (d + 1)],
            pivots: Vec::with_capacity(d),
            beta: vec![0.0; d],
        }
    }

    /// A regression on `dims` covariates used from `warm_up` observations on, its coefficients
    /// pulled towards zero by `shrink` pseudo-observations, solved again every `every`
    /// observations: for many covariates, where a fit on few observations would add noise.
    pub fn with_prior(dims: usize, warm_up: u64, shrink: f64, every: u64) -> OnlineRegression {
        OnlineRegression { warm_up, shrink, every: every.max(1), ..OnlineRegression::new(dims) }
    }

    /// Covariates per observation.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Adds covariates up to `dims` (zero in every observation before), their coefficients zero
    /// until the next solve.
    pub fn grow(&mut self, dims: usize) {
        if dims <= self.dims {
            return;
        }
        let (old, d) = (self.dims + 1, dims + 1);
        let mut zz = vec![0.0; d * d];
        for i in 0..old {
            zz[i * d..i * d + old].copy_from_slice(&self.zz[i * old..i * old + old]);
        }
        self.zz = zz;
        self.zy.resize(d, 0.0);
        self.beta.resize(d, 0.0);
        self.work = vec![0.0; d * (d + 1)];
        self.dims = dims;
    }

    /// `y − βᵀx` with `β` fitted on the observations pushed so far, then pushes `(x, y)`.
    pub fn adjust(&mut self, x: &[f64], y: f64) -> f64 {
        assert_eq!(x.len(), self.dims, "one value per covariate");
        let adjusted = if self.n >= self.warm_up {
            if (self.n - self.warm_up).is_multiple_of(self.every) {
                self.solve();
            }
            y - x.iter().zip(&self.beta[1..]).map(|(x, b)| x * b).sum::<f64>()
        } else {
            y
        };
        self.push(x, y);
        adjusted
    }

    fn push(&mut self, x: &[f64], y: f64) {
        let d = self.dims + 1;
        let z = |i: usize| if i == 0 { 1.0 } else { x[i - 1] };
        for i in 0..d {
            for j in 0..d {
                self.zz[i * d + j] += z(i) * z(j);
            }
            self.zy[i] += z(i) * y;
        }
        self.n += 1;
    }

    /// The coefficients into `beta`: Gaussian elimination with partial pivoting on the normal
    /// equations; a column that is (nearly) dependent on the ones before keeps a zero coefficient.
    fn solve(&mut self) {
        let d = self.dims + 1;
        let w = d + 1;
        let pull = 1.0 + self.shrink / self.n.max(1) as f64;
        for i in 0..d {
            self.work[i * w..i * w + d].copy_from_slice(&self.zz[i * d..i * d + d]);
            self.work[i * w + d] = self.zy[i];
            if i > 0 {
                self.work[i * w + i] *= pull;
            }
        }
        self.pivots.clear();
        let mut row = 0;
        let scale = (0..d).map(|i| self.zz[i * d + i]).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        for col in 0..d {
            let best = (row..d).max_by(|&a, &b| self.work[a * w + col].abs().total_cmp(&self.work[b * w + col].abs()));
            let Some(best) = best else { break };
            if self.work[best * w + col].abs() <= SINGULAR * scale {
                continue;
            }
            for k in 0..w {
                self.work.swap(row * w + k, best * w + k);
            }
            for r in (0..d).filter(|&r| r != row) {
                let f = self.work[r * w + col] / self.work[row * w + col];
                if f != 0.0 {
                    for k in col..w {
                        self.work[r * w + k] -= f * self.work[row * w + k];
                    }
                }
            }
            self.pivots.push((col, row));
            row += 1;
        }
        self.beta.fill(0.0);
        for &(col, r) in &self.pivots {
            self.beta[col] = self.work[r * w + d] / self.work[r * w + col];
        }
    }

    /// The coefficients of the covariates as last fitted (zero before the warm-up).
    pub fn coefficients(&self) -> &[f64] {
        &self.beta[1..]
    }
}

/// Bots' deal payoffs regressed on the deal's starting strengths (each seat's strength minus
/// the table's mean, which the game promises has mean zero): per bot, its own (its seats' mean
/// over the deal) and every seat's but the last (they sum to zero). A bot's own strength is what
/// an unpaired run leaves to luck; under full seat rotation it is zero and skipped.
#[derive(Clone, Debug)]
pub struct StartFit {
    bots: Vec<OnlineRegression>,
    /// This deal's sum of each bot's seats' strengths, game by game.
    own: Vec<f64>,
    /// This deal's strength by seat (from its first game that has them all), and scratch.
    seats: Vec<f64>,
    features: Vec<f64>,
}

impl StartFit {
    /// A fit for `bots` bots at tables of `seats` seats, no deals yet.
    pub fn new(bots: usize, seats: usize) -> StartFit {
        StartFit {
            bots: (0..bots).map(|_| OnlineRegression::new(seats)).collect(),
            own: vec![0.0; bots],
            seats: Vec::with_capacity(seats),
            features: Vec::with_capacity(seats),
        }
    }

    /// A game of the deal's strengths by seat: the first game that has them all sets them.
    pub fn see_seats(&mut self, starts: impl Iterator<Item = Option<f64>> + Clone) {
        if self.seats.is_empty() && starts.clone().all(|s| s.is_some()) {
            self.seats.extend(starts.map(|s| s.unwrap_or(0.0)));
        }
    }

    /// Adds `strength` to bot `bot`'s own this deal (a seat of it, weighted as its payoff is).
    pub fn add_own(&mut self, bot: usize, strength: f64) {
        self.own[bot] += strength;
    }

    /// Replaces each bot's deal payoff `payoff[bot]` (a mean over the deal's `games`) by its
    /// adjusted value, adds it to the fit, and starts the next deal.
    pub fn adjust(&mut self, payoff: &mut [f64], games: f64) {
        let seats = self.bots.first().map_or(1, OnlineRegression::dims);
        self.seats.resize(seats, 0.0);
        for (k, y) in payoff.iter_mut().enumerate() {
            self.features.clear();
            self.features.push(self.own[k] / games);
            self.features.extend_from_slice(&self.seats[..seats - 1]);
            *y = self.bots[k].adjust(&self.features, *y);
        }
        self.clear();
    }

    /// Forgets the deal being collected (complete or cut short).
    pub fn clear(&mut self) {
        self.own.iter_mut().for_each(|x| *x = 0.0);
        self.seats.clear();
    }
}

/// Deals before the terms' fit is used: with tens of terms, a fit on fewer deals adds noise
/// (measured offline with scripts/luck-fit.py's fit: hold'em `rr` against `rr-tight`, 58 terms,
/// has a ratio of 1.87 when the fit starts at 50 deals unpulled, 2.47 from 200 deals pulled by
/// 30 pseudo-deals; a pull of 1,000 costs 0.08).
const TERMS_WARM_UP: u64 = 200;
/// Pseudo-deals pulling the terms' coefficients towards zero (towards the payoff as AIVAT adjusts
/// it) while the deals are few.
const TERMS_SHRINK: f64 = 30.0;
/// The terms' fit is solved again every this many deals: a solve costs the cube of the terms'
/// number, and the coefficients move little from one deal to the next.
const TERMS_EVERY: u64 = 25;

/// Bots' deal payoffs, adjusted by AIVAT, with each component of their AIVAT terms weighed by a
/// coefficient fitted on the deals before (core/luck.rs's `Terms`): per bot, `y − βᵀx`, `y` its
/// adjusted payoff over the deal and `x` its terms by component over the deal. Each term has
/// mean zero given what came before it, and `β` depends only on earlier deals, so the mean stays
/// the payoff's. Components are numbered by the game; a component first seen adds a covariate.
#[derive(Clone, Debug)]
pub struct TermFit {
    bots: Vec<OnlineRegression>,
    /// The component of each covariate, in order of first appearance.
    components: Vec<u16>,
    /// Where each component's covariate is (`usize::MAX`: not yet seen), by component.
    slot: Vec<usize>,
    /// This deal's terms of each bot by covariate, weighted as its payoff is.
    sums: Vec<Vec<f64>>,
}

impl TermFit {
    /// A fit for `bots` bots, no deals yet.
    pub fn new(bots: usize) -> TermFit {
        TermFit {
            bots: (0..bots)
                .map(|_| OnlineRegression::with_prior(0, TERMS_WARM_UP, TERMS_SHRINK, TERMS_EVERY))
                .collect(),
            components: Vec::new(),
            slot: Vec::new(),
            sums: vec![Vec::new(); bots],
        }
    }

    /// Adds a seat's terms (`(component, term)`) to bot `bot`'s this deal, times `weight` (as
    /// its payoff is weighted).
    pub fn add(&mut self, bot: usize, terms: &[(u16, f64)], weight: f64) {
        for &(component, x) in terms {
            let c = usize::from(component);
            if c >= self.slot.len() {
                self.slot.resize(c + 1, usize::MAX);
            }
            if self.slot[c] == usize::MAX {
                self.slot[c] = self.components.len();
                self.components.push(component);
                let dims = self.components.len();
                self.bots.iter_mut().for_each(|fit| fit.grow(dims));
                self.sums.iter_mut().for_each(|s| s.resize(dims, 0.0));
            }
            self.sums[bot][self.slot[c]] += weight * x;
        }
    }

    /// Replaces each bot's deal payoff `payoff[bot]` (a mean over the deal's `games`) by its
    /// adjusted value, adds the deal to the fit, and starts the next deal.
    pub fn adjust(&mut self, payoff: &mut [f64], games: f64) {
        for (k, y) in payoff.iter_mut().enumerate() {
            self.sums[k].iter_mut().for_each(|x| *x /= games);
            *y = self.bots[k].adjust(&self.sums[k], *y);
        }
        self.clear();
    }

    /// Forgets the deal being collected (complete or cut short).
    pub fn clear(&mut self) {
        self.sums.iter_mut().for_each(|s| s.iter_mut().for_each(|x| *x = 0.0));
    }

    /// Bot `bot`'s coefficients as last fitted, by component in order of first appearance.
    pub fn coefficients(&self, bot: usize) -> impl Iterator<Item = (u16, f64)> + '_ {
        self.components.iter().copied().zip(self.bots[bot].coefficients().iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn recovers_a_linear_law_and_takes_out_its_variance() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut fit = OnlineRegression::new(2);
        let (mut plain, mut adjusted) = (Vec::new(), Vec::new());
        for _ in 0..4000 {
            let x = [rng.random::<f64>() - 0.5, rng.random::<f64>() - 0.5];
            let noise = rng.random::<f64>() - 0.5;
            let y = 3.0 + 10.0 * x[0] - 4.0 * x[1] + 0.1 * noise;
            plain.push(y);
            adjusted.push(fit.adjust(&x, y));
        }
        let b = fit.coefficients();
        assert!((b[0] - 10.0).abs() < 0.05 && (b[1] + 4.0).abs() < 0.05, "{b:?}");
        let var = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64
        };
        // Past the warm-up only the noise is left: its variance is 0.01 / 12.
        assert!(var(&adjusted[100..]) < 0.002, "{}", var(&adjusted[100..]));
        assert!(var(&plain) > 5.0);
    }

    #[test]
    fn a_zero_rounding_or_repeated_covariate_gets_no_coefficient() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut fit = OnlineRegression::new(4);
        for _ in 0..500 {
            let x: f64 = rng.random::<f64>() - 0.5;
            let y = 2.0 * x + rng.random::<f64>();
            // Three strengths that sum to zero but for rounding, like a full seat rotation's.
            let (a, b) = (x / 3.0, rng.random::<f64>() / 7.0);
            let rounding = a + b + (-a - b);
            let out = fit.adjust(&[x, 0.0, x, rounding + 1e-17 * (rng.random::<f64>() - 0.5)], y);
            assert!(out.is_finite() && (out - y).abs() < 10.0, "{out} {y}");
        }
        let b = fit.coefficients();
        assert!((b[0] - 2.0).abs() < 0.2 && b[1] == 0.0 && b[2] == 0.0 && b[3] == 0.0, "{b:?}");
    }

    #[test]
    fn the_adjusted_mean_is_the_plain_mean_on_average() {
        // y depends on x (mean zero) with noise whose spread grows with |x|: over many short
        // series, each series' adjusted mean minus its plain mean averages to zero (within three
        // of its standard errors), since the fit uses only earlier observations.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut gaps = crate::stats::Welford::new();
        for _ in 0..4000 {
            let mut fit = OnlineRegression::new(1);
            let (mut plain, mut adjusted) = (0.0, 0.0);
            for _ in 0..48 {
                let x = rng.random::<f64>() - 0.5;
                let y = 1.0 + 5.0 * x + 4.0 * x.abs() * (rng.random::<f64>() - 0.5);
                plain += y;
                adjusted += fit.adjust(&[x], y);
            }
            gaps.push((adjusted - plain) / 48.0);
        }
        let se = (gaps.variance() / gaps.n() as f64).sqrt();
        assert!(gaps.mean().abs() <= 3.0 * se, "gap {} with standard error {se}", gaps.mean());
        assert!(se > 0.0);
    }

    /// Deals of two bots whose payoff is a few terms of mean zero times weights the fit has to
    /// find, plus noise: `(payoff of bot 0, its terms)`; bot 1's are their negatives.
    fn term_deals(rng: &mut ChaCha8Rng, n: usize) -> Vec<(f64, Vec<(u16, f64)>)> {
        (0..n)
            .map(|_| {
                let mut terms = Vec::new();
                let mut y = 0.0;
                for (k, weight) in [(3u16, 2.0), (7, -1.0), (40, 0.5)] {
                    // Heavy-tailed: most deals small, some large, as pots are.
                    let x = (rng.random::<f64>() - 0.5) * if rng.random::<f64>() < 0.1 { 20.0 } else { 1.0 };
                    y += weight * x;
                    terms.push((k, x));
                }
                (y + rng.random::<f64>() - 0.5, terms)
            })
            .collect()
    }

    fn fitted(deals: &[(f64, Vec<(u16, f64)>)]) -> Vec<f64> {
        let mut fit = TermFit::new(2);
        let negated = |t: &[(u16, f64)]| t.iter().map(|&(k, x)| (k, -x)).collect::<Vec<_>>();
        deals
            .iter()
            .map(|(y, terms)| {
                fit.add(0, terms, 1.0);
                fit.add(1, &negated(terms), 1.0);
                let mut payoff = [*y, -*y];
                fit.adjust(&mut payoff, 1.0);
                payoff[0]
            })
            .collect()
    }

    #[test]
    fn a_deals_term_weights_come_from_the_deals_before_it_alone() {
        // The correction of deal i (adjusted − payoff) is the same whatever deal i's own payoff
        // and whatever the deals after it: a fit that saw deal i would move with it.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let deals = term_deals(&mut rng, 600);
        let base = fitted(&deals);
        for i in [TERMS_WARM_UP as usize, 333, 599] {
            let mut changed = deals.clone();
            changed[i].0 += 1.0e4;
            for later in changed.iter_mut().skip(i + 1) {
                later.0 = -later.0;
            }
            let again = fitted(&changed);
            assert_eq!(base[..i], again[..i], "deals before {i}");
            let (was, now) = (base[i] - deals[i].0, again[i] - changed[i].0);
            assert!((was - now).abs() < 1e-6, "deal {i}: correction {was} became {now}");
        }
        // And the fit does its work: past the warm-up the weights are found (pulled a little
        // towards zero still) and the variance left is a small part of the payoff's.
        let var = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64
        };
        let late: Vec<f64> = deals[300..].iter().map(|d| d.0).collect();
        assert!(var(&base[300..]) < var(&late) / 20.0, "{} {}", var(&base[300..]), var(&late));
    }

    #[test]
    fn the_term_fit_keeps_the_mean_on_average() {
        // Over many short runs, each run's adjusted mean minus its plain mean averages to zero
        // (within three of its standard errors).
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut gaps = crate::stats::Welford::new();
        for _ in 0..300 {
            let deals = term_deals(&mut rng, TERMS_WARM_UP as usize + 100);
            let adjusted = fitted(&deals);
            let gap: f64 = adjusted.iter().zip(&deals).map(|(a, d)| a - d.0).sum();
            gaps.push(gap / deals.len() as f64);
        }
        let se = (gaps.variance() / gaps.n() as f64).sqrt();
        assert!(gaps.mean().abs() <= 3.0 * se && se > 0.0, "gap {} with standard error {se}", gaps.mean());
    }

    #[test]
    fn nothing_changes_before_the_warm_up() {
        let mut fit = OnlineRegression::new(1);
        for i in 0..WARM_UP {
            assert_eq!(fit.adjust(&[i as f64], 7.0 * i as f64), 7.0 * i as f64);
        }
        assert_ne!(fit.adjust(&[1.0], 0.0), 0.0);
    }
}
