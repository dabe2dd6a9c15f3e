//! Sequential probability ratio test (SPRT) on match results, by the generalized SPRT that fishtest
//! uses (reference values, computed by fishtest and fastchess, in tests/stats_vectors.rs).
//!
//! The observations are scores on a few cells (0, ½, 1 per game, or 0, ¼, ½, ¾, 1 per pair) with
//! observed frequencies p̂. Each hypothesis fixes one number of the unknown distribution (the expected
//! score for the logistic model, the t-value (s − ½)/σ for the normalized model) and leaves the rest
//! free; the generalized SPRT replaces "the" distribution under each hypothesis by the one that is
//! most likely given the data, p⁰ and p¹, and uses
//!
//!   LLR = N · Σᵢ p̂ᵢ (ln p¹ᵢ − ln p⁰ᵢ),
//!
//! the log of the likelihood ratio of the whole sample (N observations) under the two fitted
//! distributions. Wald's bounds ln(β/(1 − α)) and ln((1 − β)/α) then keep the error rates near α and β.
//!
//! Both constrained maximum-likelihood problems reduce to the "secular equation" of a multinomial
//! with one linear constraint Σ pᵢ cᵢ = 0: the Lagrange conditions give pᵢ = p̂ᵢ / (1 + x·cᵢ) where the
//! multiplier x solves Σ p̂ᵢ cᵢ / (1 + x·cᵢ) = 0 (this also makes Σ pᵢ = 1). [`secular`] solves it to
//! machine precision.
//!
//! The payoff model ([`Sprt::llr_payoff`]) tests the mean payoff difference instead, for chip and
//! point games: the same Wald bounds, with the generalized SPRT of a normal mean.

use super::elo::{score_from_elo, Pentanomial, Trinomial, NELO_PER_T, PENTA_SCORES, TRI_SCORES};
use super::interval::Welford;
use super::unit::Unit;
use crate::error::{Error, Result};

/// A count of zero is replaced by this before computing the LLR (as fishtest does), so every cell
/// keeps a positive probability and the logarithms stay finite.
pub const ZERO_COUNT: f64 = 1e-3;

/// How the hypotheses h0 and h1 are expressed. Reads from config files as "logistic" /
/// "normalized" (serde) or from strings with `parse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Logistic Elo: a hypothesis fixes the expected score 1 / (1 + 10^(−elo/400)).
    Logistic,
    /// Normalized Elo: a hypothesis fixes (s − ½)/σ_game = nelo / (800/ln 10); it does not depend on
    /// the draw rate, which makes the expected test length predictable (fishtest's default).
    Normalized,
    /// Payoff: a hypothesis fixes the mean payoff difference per observation (A's payoff minus B's,
    /// averaged over a deal's replays: chips, big blinds, points), for games where who wins a hand
    /// says less than what it wins. See [`Sprt::llr_payoff`].
    Payoff,
}

impl SprtModel {
    /// The model as configs and files name it.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
            SprtModel::Payoff => "payoff",
        }
    }

    /// What the hypotheses are measured in. The payoff model's bounds are in the unit of the
    /// game's verdicts ([`Sprt::in_payoff_unit`]); this is its unit when none is given.
    pub fn unit(self) -> Unit {
        match self {
            SprtModel::Logistic => Unit::new("Elo", 1.0),
            SprtModel::Normalized => Unit::new("nElo", 1.0),
            SprtModel::Payoff => Unit::new("points/game", 1.0),
        }
    }
}

impl std::fmt::Display for SprtModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SprtModel {
    type Err = Error;
    fn from_str(s: &str) -> Result<SprtModel> {
        match s {
            "logistic" => Ok(SprtModel::Logistic),
            "normalized" => Ok(SprtModel::Normalized),
            "payoff" => Ok(SprtModel::Payoff),
            _ => Err(Error::input(format!("unknown SPRT model '{s}' (expected 'normalized', 'logistic' or 'payoff')"))),
        }
    }
}

/// An SPRT as a user writes it (a config's `[sprt]`, a gate's `sprt = { ... }`, `arena stats`'s
/// flags): the bounds of one test and, optionally, its error rates, model and unit. The bounds say
/// which test it is: `elo0`/`elo1` an Elo model (`model` picks logistic or normalized, the
/// default), `payoff0`/`payoff1` the payoff model. Nothing is guessed: bounds of both kinds, a
/// `model` that is not the bounds' test, or half a pair are refused ([`SprtGiven::resolve`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SprtGiven {
    /// H0's Elo difference (an Elo test).
    pub elo0: Option<f64>,
    /// H1's Elo difference (an Elo test).
    pub elo1: Option<f64>,
    /// H0's payoff difference, in the verdict's unit (a payoff test).
    pub payoff0: Option<f64>,
    /// H1's payoff difference, in the verdict's unit (a payoff test).
    pub payoff1: Option<f64>,
    /// The false-positive rate, [`DEFAULT_ERROR_RATE`] when not given.
    pub alpha: Option<f64>,
    /// The false-negative rate, [`DEFAULT_ERROR_RATE`] when not given.
    pub beta: Option<f64>,
    /// `logistic` or `normalized` for an Elo test (normalized when not given), `payoff` for a
    /// payoff test.
    pub model: Option<String>,
    /// The unit of the bounds, when written (a resolved config writes it): it must be the test's.
    pub unit: Option<String>,
}

/// The key of an [`SprtGiven`] an error is about, so that a file can point at its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtKey {
    /// `elo0`.
    Elo0,
    /// `elo1`.
    Elo1,
    /// `payoff0`.
    Payoff0,
    /// `payoff1`.
    Payoff1,
    /// `alpha`.
    Alpha,
    /// `beta`.
    Beta,
    /// `model`.
    Model,
    /// `unit`.
    Unit,
    /// The test as a whole (its table, or no key in particular).
    Whole,
}

/// Where an SPRT is to run, for [`SprtGiven::resolve`].
#[derive(Clone, Copy, Debug)]
pub struct SprtPlace {
    /// The payoffs' unit, when they are at hand (a run; not counts typed on the command line):
    /// the unit of the game's verdicts and how many of it one payoff a game makes (hold'em cash:
    /// "bb/100", 100). Payoff bounds are read in it.
    pub payoff: Option<Unit>,
    /// Seats at the table: the Elo models count two-seat games or pairs.
    pub seats: usize,
    /// The keys are command-line flags (`--elo0`, `--model logistic`), not TOML keys.
    pub flags: bool,
}

/// α and β when not given.
pub const DEFAULT_ERROR_RATE: f64 = 0.05;

impl SprtGiven {
    /// True when no key at all is given (no test asked for).
    pub fn is_empty(&self) -> bool {
        *self == SprtGiven::default()
    }

    /// The keys as `--sprt` writes them, `key=value` pairs split by commas
    /// (`payoff0=0,payoff1=1`, `elo0=0,elo1=5,model=logistic,alpha=0.05`): the same keys as a
    /// config's `[sprt]`. Which keys make a test is [`SprtGiven::resolve`]'s to say.
    pub fn parse_pairs(text: &str) -> Result<SprtGiven> {
        let mut given = SprtGiven::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = pair.split_once('=') else {
                return Err(Error::input(format!("--sprt: `{pair}` is not KEY=VALUE (e.g. payoff0=0,payoff1=1)")));
            };
            let (key, value) = (key.trim(), value.trim());
            let number =
                || value.parse::<f64>().map_err(|_| Error::input(format!("--sprt: {key}={value}: not a number")));
            let slot = match key {
                "elo0" => &mut given.elo0,
                "elo1" => &mut given.elo1,
                "payoff0" => &mut given.payoff0,
                "payoff1" => &mut given.payoff1,
                "alpha" => &mut given.alpha,
                "beta" => &mut given.beta,
                "model" => {
                    given.model = Some(value.to_string());
                    continue;
                }
                "unit" => {
                    given.unit = Some(value.to_string());
                    continue;
                }
                _ => {
                    return Err(Error::input(format!(
                        "--sprt: unknown key `{key}` (keys: elo0, elo1, payoff0, payoff1, alpha, beta, model, unit)"
                    )))
                }
            };
            if slot.replace(number()?).is_some() {
                return Err(Error::input(format!("--sprt: {key} is given twice")));
            }
        }
        if given.is_empty() {
            return Err(Error::input(
                "--sprt needs its bounds, e.g. --sprt payoff0=0,payoff1=1 or --sprt elo0=0,elo1=5",
            ));
        }
        Ok(given)
    }

    /// The test these keys ask for, or why they do not make one (with the key at fault).
    pub fn resolve(&self, place: SprtPlace) -> std::result::Result<Sprt, (SprtKey, Error)> {
        let key = |name: &str| if place.flags { format!("--{name}") } else { name.to_string() };
        let model_given = |m: &str| if place.flags { format!("--model {m}") } else { format!("model = \"{m}\"") };
        let fail = |at: SprtKey, msg: String| (at, Error::input(msg));
        // A pair of bounds: both or neither.
        let pair = |a: Option<f64>, b: Option<f64>, (ka, kb): (SprtKey, SprtKey), (na, nb): (&str, &str)| match (a, b) {
            (Some(a), Some(b)) => Ok(Some((a, b))),
            (None, None) => Ok(None),
            (Some(_), None) => Err(fail(ka, format!("{} needs {} too (an SPRT has two bounds)", key(na), key(nb)))),
            (None, Some(_)) => Err(fail(kb, format!("{} needs {} too (an SPRT has two bounds)", key(nb), key(na)))),
        };
        // Bounds of two tests (even one of each) are a test nobody can tell apart: refused first.
        if self.elo0.or(self.elo1).is_some() && self.payoff0.or(self.payoff1).is_some() {
            let at = if self.payoff0.is_some() { SprtKey::Payoff0 } else { SprtKey::Payoff1 };
            let msg = format!(
                "{}/{} and {}/{} are the bounds of two different tests (Elo and payoff): give one pair",
                key("elo0"),
                key("elo1"),
                key("payoff0"),
                key("payoff1")
            );
            return Err(fail(at, msg));
        }
        let elo = pair(self.elo0, self.elo1, (SprtKey::Elo0, SprtKey::Elo1), ("elo0", "elo1"))?;
        let payoff = pair(self.payoff0, self.payoff1, (SprtKey::Payoff0, SprtKey::Payoff1), ("payoff0", "payoff1"))?;
        let named = match &self.model {
            Some(m) => Some(m.parse::<SprtModel>().map_err(|e| (SprtKey::Model, e))?),
            None => None,
        };
        let (model, (h0, h1), keys) = match (elo, payoff) {
            (None, None) => {
                return Err(fail(
                    SprtKey::Whole,
                    format!(
                        "the SPRT needs its bounds: {} and {} (an Elo test, see {}) or {} and {} (the payoff test)",
                        key("elo0"),
                        key("elo1"),
                        key("model"),
                        key("payoff0"),
                        key("payoff1")
                    ),
                ))
            }
            (Some(bounds), _) => match named {
                Some(SprtModel::Payoff) => {
                    return Err(fail(
                        SprtKey::Model,
                        format!(
                            "{} takes its bounds as {}/{}, not {}/{}",
                            model_given("payoff"),
                            key("payoff0"),
                            key("payoff1"),
                            key("elo0"),
                            key("elo1")
                        ),
                    ))
                }
                model => (model.unwrap_or(SprtModel::Normalized), bounds, ("elo0", "elo1")),
            },
            (None, Some(bounds)) => match named {
                Some(m) if m != SprtModel::Payoff => {
                    return Err(fail(
                        SprtKey::Model,
                        format!(
                            "{} contradicts {}/{}, the payoff test's bounds: give {}/{} for the {m} test, or leave the model out",
                            model_given(m.as_str()),
                            key("payoff0"),
                            key("payoff1"),
                            key("elo0"),
                            key("elo1")
                        ),
                    ))
                }
                _ => (SprtModel::Payoff, bounds, ("payoff0", "payoff1")),
            },
        };
        let first = if model == SprtModel::Payoff { SprtKey::Payoff0 } else { SprtKey::Elo0 };
        if model == SprtModel::Payoff && place.payoff.is_none() {
            return Err(fail(
                first,
                "the payoff test needs the payoffs: use --run DIR (counts carry no payoffs)".into(),
            ));
        }
        if model != SprtModel::Payoff && place.seats > 2 {
            let at = if self.model.is_some() { SprtKey::Model } else { SprtKey::Whole };
            // Why the Elo models of the SPRT are for two seats only.
            let msg = format!(
                "the SPRT's Elo models (logistic, normalized) count independent games or pairs; \
                 at a table of more than two seats give {}/{} (the payoff test on the difference per deal)",
                key("payoff0"),
                key("payoff1")
            );
            return Err(fail(at, msg));
        }
        if !(h0.is_finite() && h1.is_finite() && h0 < h1) {
            let (k0, k1) = keys;
            return Err(fail(
                first,
                format!("the SPRT needs {} < {} (H0 below H1), got {h0} and {h1}", key(k0), key(k1)),
            ));
        }
        let (alpha, beta) = (self.alpha.unwrap_or(DEFAULT_ERROR_RATE), self.beta.unwrap_or(DEFAULT_ERROR_RATE));
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            let at = if self.alpha.is_some() { SprtKey::Alpha } else { SprtKey::Beta };
            let msg = format!(
                "the SPRT needs {a} > 0, {b} > 0 and {a} + {b} < 1, got {alpha} and {beta}",
                a = key("alpha"),
                b = key("beta")
            );
            return Err(fail(at, msg));
        }
        let sprt = Sprt::new(h0, h1, alpha, beta, model).map_err(|e| (first, e))?;
        let sprt = match place.payoff {
            Some(unit) if model == SprtModel::Payoff => sprt.in_payoff_unit(unit),
            _ => sprt,
        };
        match &self.unit {
            Some(unit) if unit != sprt.unit.name => {
                let msg = format!("unit = \"{unit}\" is not this test's unit: its bounds are in {}", sprt.unit);
                Err(fail(SprtKey::Unit, msg))
            }
            _ => Ok(sprt),
        }
    }
}

/// The state of a sequential test after looking at the LLR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// LLR at or below the lower bound: the difference is at most h0.
    AcceptH0,
    /// LLR at or above the upper bound: the difference is at least h1.
    AcceptH1,
    /// Between the bounds: play more games.
    Continue,
}

impl SprtDecision {
    /// The decision as match.csv writes it: `H0`, `H1` or `continue`.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
            SprtDecision::Continue => "continue",
        }
    }
}

impl std::fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An SPRT of H0: difference = h0 against H1: difference = h1 (Elo, nElo or payoff by `model`), with
/// false-positive rate `alpha` (accepting H1 when H0 holds) and false-negative rate `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The hypotheses, in `unit`: H0 says the difference is `h0`, H1 `h1`.
    pub h0: f64,
    /// H1's difference, in `unit`.
    pub h1: f64,
    /// The false-positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// The false-negative rate: accepting H0 when H1 holds.
    pub beta: f64,
    /// What the difference is and how the LLR is counted.
    pub model: SprtModel,
    /// What `h0` and `h1` are measured in: Elo, nElo, or for the payoff model the unit of the game's
    /// verdicts (bb/100, chips/hand, points/hand), so that the bounds read as the verdict; its
    /// scale is how many of it one payoff a game makes (hold'em cash: 100 bb/100 = 1 bb a hand),
    /// 1 for the Elo models.
    pub unit: Unit,
}

/// Largest |h0|, |h1| accepted by the Elo models. Engine testing uses hypotheses of a few Elo;
/// far beyond, the normalized fixed-point fit approaches t-values near 1 per observation where its
/// convergence is not established. Within this range both fits are property-tested on any counts.
/// (Payoff hypotheses are in the game's own units: any finite values.)
pub const MAX_HYPOTHESIS: f64 = 200.0;

/// The payoff model decides nothing before this many observations. Its variance is estimated from
/// the data; on a handful of heavy-tailed payoffs (poker all-ins) that estimate can be far too
/// small and the test stops wrongly. Resampling 10,000 real paired hold'em pairs (rr against
/// rr-tight, centred; H1 = 5 big blinds a pair, α = β = 5%), 1,000 runs each: 10.5% false H1 with
/// no minimum, 4.7% with 10, 4.5% with 30 (the false stops without a minimum come at the first
/// pair or two, sitting exactly on H1 with no spread). tests/stats_honesty.rs checks α and β on a
/// model with such exact repeats: 3.95% false H1 with 30, 13.9% with a minimum of 2.
pub const PAYOFF_MIN_OBSERVATIONS: u64 = 30;

impl Sprt {
    /// Checks the parameters: finite, h0 < h1, both within ±[`MAX_HYPOTHESIS`], 0 < α, β and
    /// α + β < 1 (so that the lower bound is below 0 and the upper above).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Result<Sprt> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(Error::input(format!("SPRT needs elo0 < elo1 (H0 below H1), got {elo0} and {elo1}")));
        }
        if model != SprtModel::Payoff && (elo0.abs() > MAX_HYPOTHESIS || elo1.abs() > MAX_HYPOTHESIS) {
            return Err(Error::input(format!(
                "SPRT hypotheses must lie within ±{MAX_HYPOTHESIS}, got [{elo0}, {elo1}]"
            )));
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(Error::input(format!(
                "SPRT needs alpha > 0, beta > 0 and alpha + beta < 1, got alpha = {alpha}, beta = {beta}"
            )));
        }
        Ok(Sprt { h0: elo0, h1: elo1, alpha, beta, model, unit: model.unit() })
    }

    /// The payoff test with its bounds in `unit`, of which one payoff a game makes `scale` (the
    /// game's verdict unit: [`SprtPlace::payoff`]).
    pub fn in_payoff_unit(self, unit: Unit) -> Sprt {
        debug_assert!(self.model == SprtModel::Payoff && unit.scale > 0.0);
        Sprt { unit, ..self }
    }

    /// The test in a few words, its model and the unit of its bounds: `payoff [0, 200] bb/100`,
    /// `normalized [0, 5] nElo`. Every line that shows an SPRT starts with it.
    pub fn describe(&self) -> String {
        format!("{} [{}, {}] {}", self.model, self.h0, self.h1, self.unit)
    }

    /// Wald's bounds (lower, upper) = (ln(β/(1 − α)), ln((1 − β)/α)).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a log-likelihood ratio.
    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// LLR of observed payoff differences (the payoff model), by the generalized SPRT for the mean
    /// of a normal distribution with unknown variance: under each hypothesis μₖ the likeliest
    /// variance is σ̂ₖ² = σ̂² + (x̄ − μₖ)² (σ̂² the variance with denominator n), so
    ///
    ///   LLR = (n/2) · ln(σ̂₀² / σ̂₁²).
    ///
    /// 0 (no evidence) before [`PAYOFF_MIN_OBSERVATIONS`]; ±∞ when every observation is equal (the
    /// data then sit on one hypothesis' side with no spread). Other models give NaN: their
    /// observations are counts ([`Sprt::llr_tri`], [`Sprt::llr_penta`]).
    pub fn llr_payoff(&self, diffs: &Welford) -> f64 {
        if self.model != SprtModel::Payoff {
            return f64::NAN;
        }
        let n = diffs.n();
        if n < PAYOFF_MIN_OBSERVATIONS {
            return 0.0;
        }
        let spread = diffs.variance() * (n - 1) as f64 / n as f64;
        // The observations are payoffs a game; the bounds are in `unit`.
        let (d0, d1) = (diffs.mean() - self.h0 / self.unit.scale, diffs.mean() - self.h1 / self.unit.scale);
        n as f64 / 2.0 * ((spread + d0 * d0).ln() - (spread + d1 * d1).ln())
    }

    /// LLR of per-game trinomial counts.
    pub fn llr_tri(&self, t: &Trinomial) -> f64 {
        self.llr_grouped(&TRI_SCORES, &t.counts(), 1)
    }

    /// LLR of pentanomial pair counts (each pair one observation of two games).
    pub fn llr_penta(&self, p: &Pentanomial) -> f64 {
        self.llr_grouped(&PENTA_SCORES, &p.0, 2)
    }

    /// LLR of counts over observation scores in [0, 1], each observation being one game.
    pub fn llr(&self, scores: &[f64], counts: &[u64]) -> f64 {
        self.llr_grouped(scores, counts, 1)
    }

    /// LLR of counts over observation scores in [0, 1], each observation being the mean score of
    /// `games_per_obs` games (2 for pairs). This only matters for the normalized model: nElo is
    /// defined per game, and a mean of k independent games has k times less variance, so the
    /// hypothesis t-value per observation is √k times the per-game one (fishtest's √2 for pairs).
    ///
    /// Returns NaN only if a hypothesis cannot be fitted; with [`Sprt::new`]'s limits this does not
    /// happen for the trinomial and pentanomial cells (property test `llr_is_finite_for_any_counts`).
    pub fn llr_grouped(&self, scores: &[f64], counts: &[u64], games_per_obs: u64) -> f64 {
        assert_eq!(scores.len(), counts.len(), "one count per score");
        // Regularize: zero cells get ZERO_COUNT, and N is the regularized total (as fishtest).
        let regular: Vec<f64> = counts.iter().map(|&c| if c == 0 { ZERO_COUNT } else { c as f64 }).collect();
        let n: f64 = regular.iter().sum();
        let phat: Vec<f64> = regular.iter().map(|c| c / n).collect();
        let fit = |elo: f64| match self.model {
            SprtModel::Logistic => mle_with_mean(scores, &phat, score_from_elo(elo)),
            SprtModel::Normalized => {
                let t = elo / NELO_PER_T * (games_per_obs as f64).sqrt();
                mle_with_t_value(scores, &phat, 0.5, t)
            }
            // Payoffs are not counts (see `llr_payoff`).
            SprtModel::Payoff => None,
        };
        match (fit(self.h0), fit(self.h1)) {
            (Some(p0), Some(p1)) => {
                n * phat.iter().zip(p0.iter().zip(&p1)).map(|(h, (a, b))| h * (b.ln() - a.ln())).sum::<f64>()
            }
            _ => f64::NAN,
        }
    }
}

/// Solves the secular equation f(x) = Σ wᵢ cᵢ / (1 + x·cᵢ) = 0 for positive weights w, on the
/// interval (−1/max c, −1/min c) where every 1 + x·cᵢ > 0 (so the fitted probabilities stay positive).
/// f falls strictly (f' = −Σ wᵢ cᵢ² / (1 + x·cᵢ)² < 0) from +∞ to −∞ across it, so the root is unique;
/// it exists only if the cᵢ take both signs (None otherwise).
///
/// Newton's method safeguarded by bisection: Newton converges quadratically near the root, and the
/// bracket [lo, hi] (f(lo) > 0 > f(hi)) catches its steps when they would leave the interval near the
/// poles. It stops when a step no longer changes any 1 + x·cᵢ by more than a rounding error, i.e. the
/// fitted probabilities are exact to machine precision.
pub fn secular(w: &[f64], c: &[f64]) -> Option<f64> {
    let cmin = c.iter().copied().fold(f64::INFINITY, f64::min);
    let cmax = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(cmin < 0.0 && cmax > 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (-1.0 / cmax, -1.0 / cmin);
    let scale = cmax.max(-cmin);
    // f and f' at x, and the smallest denominator (how close x is to a pole).
    let eval = |x: f64| {
        let (mut f, mut df, mut dmin) = (0.0, 0.0, f64::INFINITY);
        for (wi, ci) in w.iter().zip(c) {
            let d = 1.0 + x * ci;
            f += wi * ci / d;
            df -= wi * ci * ci / (d * d);
            dmin = dmin.min(d);
        }
        (f, df, dmin)
    };
    let mut x = 0.0; // inside (lo, hi) since lo < 0 < hi
    for _ in 0..200 {
        let (f, df, dmin) = eval(x);
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let newton = x - f / df;
        let next = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        if (next - x).abs() * scale <= f64::EPSILON * dmin || next == x {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The fitted probabilities pᵢ = wᵢ / (1 + x·cᵢ) at a root x of the secular equation.
///
/// When a hypothesis is far from the data, x lies near a pole −1/cₖ and one denominator 1 + x·cₖ is
/// tiny; it then carries only the digits x has left beyond the pole, so that cell's pₖ (which can be
/// large, e.g. ½ for a cell observed 1e-9 of the time) loses relative precision. The other cells are
/// well conditioned, so we take pₖ = 1 − Σ_{i≠k} pᵢ instead whenever that is the more accurate of
/// the two (its absolute error is a few ulps of 1; the direct one is about pₖ·|x·cₖ|/(1 + x·cₖ) ulps).
fn fitted(w: &[f64], c: &[f64], x: f64) -> Vec<f64> {
    let mut p: Vec<f64> = w.iter().zip(c).map(|(wi, ci)| wi / (1.0 + x * ci)).collect();
    let k = (0..c.len()).min_by(|&i, &j| (1.0 + x * c[i]).total_cmp(&(1.0 + x * c[j]))).unwrap_or(0);
    let dk = 1.0 + x * c[k];
    if p[k] * (x * c[k]).abs() > dk {
        let rest: f64 = p.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, pi)| pi).sum();
        p[k] = (1.0 - rest).max(0.0);
    }
    p
}

/// The distribution over `scores` closest in likelihood to `phat` (maximizing Σ p̂ᵢ ln pᵢ) with
/// expected score `s`: the constraint Σ pᵢ (aᵢ − s) = 0 is linear, so pᵢ = p̂ᵢ / (1 + x (aᵢ − s)) with x
/// from the secular equation.
pub fn mle_with_mean(scores: &[f64], phat: &[f64], s: f64) -> Option<Vec<f64>> {
    let c: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let x = secular(phat, &c)?;
    Some(fitted(phat, &c, x))
}

/// The distribution over `scores` closest in likelihood to `phat` with t-value (μ − r)/σ = t.
///
/// The constraint g(p) = μ − r − t·σ = 0 is not linear in p. Its gradient is
/// ∂g/∂pᵢ = aᵢ − t·((aᵢ − μ)² − μ²)/(2σ) (from σ² = Σ pⱼaⱼ² − μ²); a constant added to every cell
/// is absorbed by the normalization multiplier, so we may use cᵢ = aᵢ − r − t·σ·(1 + ((μ − aᵢ)/σ)²)/2,
/// the shift chosen so that Σ pᵢ cᵢ = g(p). The Lagrange conditions are then those of the linear
/// constraint Σ pᵢ cᵢ = 0 (so pᵢ = p̂ᵢ/(1 + x·cᵢ)), with the cᵢ evaluated at the
/// solution's own μ and σ. As fishtest does, start from the uniform distribution and iterate:
/// take μ, σ of the current p, solve the secular equation for the cᵢ, update p. It converges in a
/// few rounds (fishtest stops after at most 10 rounds or a change below 1e-9; we iterate until the
/// change is at rounding level, which moves the reference LLRs by about 1e-11).
pub fn mle_with_t_value(scores: &[f64], phat: &[f64], r: f64, t: f64) -> Option<Vec<f64>> {
    let k = scores.len();
    let mut p = vec![1.0 / k as f64; k];
    let mut c = vec![0.0; k];
    for _ in 0..100 {
        let mu: f64 = p.iter().zip(scores).map(|(pi, a)| pi * a).sum();
        let sigma = p.iter().zip(scores).map(|(pi, a)| pi * (a - mu).powi(2)).sum::<f64>().sqrt();
        if sigma <= 0.0 || !sigma.is_finite() {
            return None;
        }
        for (ci, a) in c.iter_mut().zip(scores) {
            *ci = a - r - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0;
        }
        let x = secular(phat, &c)?;
        let next = fitted(phat, &c, x);
        let change = p.iter().zip(&next).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if change <= 4.0 * f64::EPSILON {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn welford(xs: &[f64]) -> Welford {
        xs.iter().copied().collect()
    }

    /// The payoff LLR against values worked out by hand from (n/2)·ln(σ̂₀²/σ̂₁²).
    #[test]
    fn payoff_llr_by_hand() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05, SprtModel::Payoff).unwrap();
        // 1..=30: mean 15.5, spread (n² − 1)/12 = 74.9167; 15·ln(315.1667/105.1667).
        let one_to_thirty: Vec<f64> = (1..=30).map(f64::from).collect();
        assert!((s.llr_payoff(&welford(&one_to_thirty)) - 16.463328091758665).abs() < 1e-9);
        // Ten −3s and twenty 1s: mean −1/3, spread 32/9; against [−1, 2]: 15·ln((32/9 + 4/9)/(32/9 + 49/9)).
        let s = Sprt::new(-1.0, 2.0, 0.05, 0.05, SprtModel::Payoff).unwrap();
        let mixed: Vec<f64> = [-3.0; 10].into_iter().chain([1.0; 20]).collect();
        let llr = s.llr_payoff(&welford(&mixed));
        assert!((llr - -12.16395324324494).abs() < 1e-9, "{llr}");
        assert_eq!(s.decision(llr), SprtDecision::AcceptH0);
        // Too few observations: no evidence yet, whatever they say.
        assert_eq!(s.llr_payoff(&welford(&one_to_thirty[..29])), 0.0);
        // No spread: all the evidence on one side.
        assert_eq!(s.llr_payoff(&welford(&[2.0; 40])), f64::INFINITY);
        assert_eq!(s.llr_payoff(&welford(&[-1.0; 40])), f64::NEG_INFINITY);
        // Count models have no payoff LLR, the payoff model no count LLR.
        let counts = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        assert!(counts.llr_payoff(&welford(&one_to_thirty)).is_nan());
        assert!(s.llr_penta(&Pentanomial([1, 2, 3, 2, 1])).is_nan());
        // Payoff hypotheses are in the game's units: no Elo range limit.
        assert!(Sprt::new(0.0, 500.0, 0.05, 0.05, SprtModel::Payoff).is_ok());
        assert!(Sprt::new(0.0, 500.0, 0.05, 0.05, SprtModel::Logistic).is_err());
    }

    #[test]
    fn bounds_are_walds() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-15 && (hi - 19f64.ln()).abs() < 1e-15);
        assert!((hi - 2.944_438_979_166_44).abs() < 1e-12);
        assert_eq!(s.decision(hi), SprtDecision::AcceptH1);
        assert_eq!(s.decision(lo), SprtDecision::AcceptH0);
        assert_eq!(s.decision(0.0), SprtDecision::Continue);
        let s = Sprt::new(0.0, 5.0, 0.1, 0.2, SprtModel::Logistic).unwrap();
        assert!((s.bounds().0 - (0.2f64 / 0.9).ln()).abs() < 1e-15 && (s.bounds().1 - 8f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn new_rejects_bad_parameters() {
        use SprtModel::*;
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, Normalized).is_err());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05, Normalized).is_err());
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05, Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.5, 0.5, Logistic).is_err());
        assert!(Sprt::new(0.0, 500.0, 0.05, 0.05, Logistic).is_err());
        assert_eq!("logistic".parse::<SprtModel>().unwrap(), Logistic);
        assert!("bayes".parse::<SprtModel>().is_err());
        #[derive(serde::Deserialize)]
        struct Table {
            model: SprtModel,
        }
        let t: Table = toml::from_str("model = \"normalized\"").unwrap();
        assert_eq!(t.model, Normalized);
        assert!(toml::from_str::<Table>("model = \"Normal\"").is_err());
    }

    /// f of the secular equation, for checking roots.
    fn secular_f(w: &[f64], c: &[f64], x: f64) -> f64 {
        w.iter().zip(c).map(|(w, c)| w * c / (1.0 + x * c)).sum()
    }

    #[test]
    fn secular_root_is_exact() {
        let cases: [(&[f64], &[f64]); 4] = [
            (&[0.2, 0.5, 0.3], &[-0.52, -0.02, 0.48]),
            // Roots close to a pole: a tiny weight on the only negative (positive) cell, as when a
            // zero count is regularized to 1e-3 out of many games.
            (&[1e-9, 0.5, 0.5], &[-1.0, 0.3, 0.7]),
            (&[0.5, 0.5 - 1e-9, 1e-9], &[-0.3, -0.2, 0.6]),
            // Root exactly 0: the weights already satisfy the constraint.
            (&[0.25, 0.5, 0.25], &[-0.5, 0.0, 0.5]),
        ];
        for (w, c) in cases {
            let x = secular(w, c).unwrap();
            // Machine precision: the sign of f changes within two ulps of x (f falls in x).
            let (below, above) = (x.next_down().next_down(), x.next_up().next_up());
            assert!(secular_f(w, c, below) >= 0.0 && secular_f(w, c, above) <= 0.0, "{w:?} {c:?}: {x}");
            assert!(c.iter().all(|ci| 1.0 + x * ci > 0.0));
        }
        assert!(secular(&[0.2, 0.5, 0.3], &[0.1, 0.2, 0.3]).is_none());
    }

    #[test]
    fn fitted_distributions_meet_their_constraints() {
        let phat = [0.05, 0.2, 0.45, 0.22, 0.08];
        let p = mle_with_mean(&PENTA_SCORES, &phat, 0.53).unwrap();
        let (sum, mean) = moments(&p);
        assert!((sum - 1.0).abs() < 1e-14 && (mean.0 - 0.53).abs() < 1e-14);
        let p = mle_with_t_value(&PENTA_SCORES, &phat, 0.5, 0.07).unwrap();
        let (sum, (mu, sd)) = moments(&p);
        assert!((sum - 1.0).abs() < 1e-14 && ((mu - 0.5) / sd - 0.07).abs() < 1e-12, "{mu} {sd}");
    }

    /// Hypotheses far from the data put a fitted cell next to a pole of the secular equation (e.g.
    /// all games won, a zero count regularized to 1e-3, and H0 = 0: the fit moves half the mass to a
    /// cell observed 1e-9 of the time). The fits still meet their constraints to rounding level.
    #[test]
    fn fits_far_from_the_data_are_exact() {
        for counts in [[0u64, 0, 210], [0, 0, 1_000_000], [0, 1_000_000, 0], [0, 5, 1_000_000], [1_000_000, 0, 0]] {
            let reg: Vec<f64> = counts.iter().map(|&c| if c == 0 { ZERO_COUNT } else { c as f64 }).collect();
            let n: f64 = reg.iter().sum();
            let phat: Vec<f64> = reg.iter().map(|c| c / n).collect();
            for t in [0.0, 0.01, -0.3] {
                let p = mle_with_t_value(&TRI_SCORES, &phat, 0.5, t).unwrap();
                let mu: f64 = p.iter().zip(TRI_SCORES).map(|(p, a)| p * a).sum();
                let sd = p.iter().zip(TRI_SCORES).map(|(p, a)| p * (a - mu).powi(2)).sum::<f64>().sqrt();
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-14, "{counts:?} {t}: {p:?}");
                assert!(((mu - 0.5) / sd - t).abs() < 1e-11, "{counts:?} {t}: {p:?}");
            }
            let p = mle_with_mean(&TRI_SCORES, &phat, 0.5).unwrap();
            let mu: f64 = p.iter().zip(TRI_SCORES).map(|(p, a)| p * a).sum();
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-14 && (mu - 0.5).abs() < 1e-14, "{counts:?}: {p:?}");
        }
    }

    fn moments(p: &[f64]) -> (f64, (f64, f64)) {
        let mu: f64 = p.iter().zip(PENTA_SCORES).map(|(p, a)| p * a).sum();
        let var: f64 = p.iter().zip(PENTA_SCORES).map(|(p, a)| p * (a - mu).powi(2)).sum();
        (p.iter().sum(), (mu, var.sqrt()))
    }

    #[test]
    fn llr_is_antisymmetric_in_the_hypotheses_and_zero_without_games() {
        for model in [SprtModel::Logistic, SprtModel::Normalized] {
            let s = Sprt::new(0.0, 5.0, 0.05, 0.05, model).unwrap();
            let p = Pentanomial([30, 200, 450, 210, 40]);
            let swapped = Sprt { h0: 5.0, h1: 0.0, ..s };
            assert!((s.llr_penta(&p) + swapped.llr_penta(&p)).abs() < 1e-9);
            // No games: all cells are ZERO_COUNT, N = 0.005: the LLR is finite and negligible.
            let none = s.llr_penta(&Pentanomial::default());
            assert!(none.is_finite() && none.abs() < 1e-3, "{none}");
            let none = s.llr_tri(&Trinomial::default());
            assert!(none.is_finite() && none.abs() < 1e-3, "{none}");
        }
    }

    proptest::proptest! {
        /// Any counts (including zeros and lopsided ones) and any valid hypotheses give a finite LLR,
        /// and the fitted distributions meet their constraints.
        #[test]
        fn llr_is_finite_for_any_counts(
            counts in proptest::array::uniform5(proptest::prop_oneof![proptest::strategy::Just(0u64), 0u64..20, 0u64..1_000_000]),
            e0 in -200.0f64..199.0,
            width in 0.1f64..50.0,
            penta in proptest::bool::ANY,
            logistic in proptest::bool::ANY,
        ) {
            let model = if logistic { SprtModel::Logistic } else { SprtModel::Normalized };
            let e1 = (e0 + width).min(200.0);
            let s = Sprt::new(e0, e1, 0.05, 0.05, model).unwrap();
            let llr = if penta {
                s.llr_penta(&Pentanomial(counts))
            } else {
                s.llr_tri(&Trinomial { losses: counts[0], draws: counts[1], wins: counts[2] })
            };
            proptest::prop_assert!(llr.is_finite(), "{:?} {} {} {:?} {}", counts, e0, e1, model, penta);
            // The fits behind it: right total, right mean (logistic) or t-value (normalized).
            let (scores, cells): (&[f64], &[u64]) =
                if penta { (&PENTA_SCORES, &counts) } else { (&TRI_SCORES, &counts[..3]) };
            let reg: Vec<f64> = cells.iter().map(|&c| if c == 0 { ZERO_COUNT } else { c as f64 }).collect();
            let n: f64 = reg.iter().sum();
            let phat: Vec<f64> = reg.iter().map(|c| c / n).collect();
            for elo in [e0, e1] {
                let t = elo / NELO_PER_T * if penta { 2f64.sqrt() } else { 1.0 };
                let p = if logistic {
                    mle_with_mean(scores, &phat, score_from_elo(elo))
                } else {
                    mle_with_t_value(scores, &phat, 0.5, t)
                }
                .unwrap();
                let mu: f64 = p.iter().zip(scores).map(|(p, a)| p * a).sum();
                let sd = p.iter().zip(scores).map(|(p, a)| p * (a - mu).powi(2)).sum::<f64>().sqrt();
                proptest::prop_assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                let miss = if logistic { mu - score_from_elo(elo) } else { (mu - 0.5) / sd - t };
                proptest::prop_assert!(miss.abs() < 1e-9, "{:?} {} {:?}: {}", counts, elo, model, miss);
            }
        }
    }
}
