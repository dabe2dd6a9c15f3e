//! Elo, normalized Elo (nElo) and LOS from trinomial (per game) and pentanomial (per pair) counts,
//! with the definitions fishtest and fastchess use (reference values in tests/stats_vectors.rs).
//!
//! Every estimate works on a discrete distribution of observation scores: a game scores 0, ½, 1
//! (loss, draw, win); a pair of games with the seats swapped scores the mean of its two games,
//! 0, ¼, ½, ¾, 1. From the observed frequencies we take the mean score s and the population variance
//! σ² (the variance of the empirical distribution, denominator N, as those tools do), and the
//! standard error of the mean se = σ/√N with N the number of observations. Scoring a pair as one
//! observation is what makes paired games honest: the two games of a pair share a deal, so they are
//! not independent, but distinct pairs are.

use super::interval::{normal_cdf, wilson, Interval, Z95};

/// 800 / ln 10: converts a t-value (mean excess score over its per-game standard deviation) to
/// normalized Elo. It is the slope of the logistic Elo curve at s = ½ (400/ln 10 · 1/(s(1 − s)) = 1600/ln 10)
/// times the standard deviation ½ of a drawless game, so nElo ≈ Elo for drawless play.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Elo difference for an expected score `s`: 400·log10(s / (1 − s)), the inverse of the logistic
/// curve s = 1 / (1 + 10^(−elo/400)). −∞ at s = 0, +∞ at s = 1 (s is clamped to [0, 1]).
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(0.0, 1.0);
    400.0 * (s / (1.0 - s)).log10()
}

/// Expected score for an Elo difference: 1 / (1 + 10^(−elo/400)).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The result of one game for the bot being measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Lost the game.
    Loss,
    /// Drew it.
    Draw,
    /// Won it.
    Win,
}

impl Outcome {
    /// Score in half points: loss 0, draw 1, win 2.
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        }
    }
}

/// Per-game counts (losses, draws, wins) of the bot being measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won.
    pub wins: u64,
}

/// Game scores of the trinomial cells, in the order of [`Trinomial::counts`].
pub const TRI_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// Pair scores of the pentanomial cells, in the order of [`Pentanomial`].
pub const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Trinomial {
    /// Counts one game.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Win => self.wins += 1,
        }
    }

    /// Counts in score order (L, D, W), matching [`TRI_SCORES`].
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    /// Elo, nElo and LOS treating every game as an independent observation.
    pub fn estimate(&self) -> EloEstimate {
        estimate(&TRI_SCORES, &self.counts(), 1)
    }
}

/// Per-pair counts of two games with the seats swapped, cells (LL, LD, WL+DD, WD, WW): the pair's
/// score is 0, ¼, ½, ¾, 1. Order within a pair does not matter (LD = DL); WL and DD share the ½ cell
/// because they score the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds the pair made of two games' outcomes.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.0[first.half_points() + second.half_points()] += 1;
    }

    /// Pairs of games counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Games counted: two a pair.
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Elo, nElo and LOS treating every pair as one observation.
    pub fn estimate(&self) -> EloEstimate {
        estimate(&PENTA_SCORES, &self.0, 2)
    }
}

/// Elo figures of a match. All "±" are half widths of 95% intervals (z = [`Z95`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Observations: games (trinomial) or pairs (pentanomial).
    pub n: u64,
    /// Games played.
    pub games: u64,
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Standard error of `score` (per observation: per pair for pentanomial); 0 when all
    /// observations are equal, +∞ with none.
    pub se: f64,
    /// 95% interval of the mean score: [score − z·se, score + z·se] clamped to [0, 1] (see
    /// [`estimate`] for the zero-variance case).
    pub score_ci: Interval,
    /// Elo difference from `score`.
    pub elo: f64,
    /// Half the width of the Elo interval [elo(score_ci.lo), elo(score_ci.hi)].
    pub elo_err: f64,
    /// Normalized Elo: (score − ½)/σ_game · 800/ln 10.
    pub nelo: f64,
    /// Half the width of the nElo interval.
    pub nelo_err: f64,
    /// Likelihood of superiority, Φ((score − ½)/se), as a fraction 0..1.
    pub los: f64,
}

impl EloEstimate {
    /// The 95% Elo interval [elo(score − z·se), elo(score + z·se)]. It is not symmetric around
    /// `elo` (the logistic curve bends), so a gate on "Elo lower bound" should use `lo` rather than
    /// `elo − elo_err`. An end is infinite where the score interval reaches 0 or 1.
    pub fn elo_interval(&self) -> Interval {
        Interval { lo: elo_from_score(self.score_ci.lo), hi: elo_from_score(self.score_ci.hi) }
    }
}

/// Elo figures from counts over observation scores in [0, 1], each observation being the mean of
/// `games_per_obs` games (1 for single games, 2 for pairs).
///
/// Formulas (fishtest/fastchess): s = Σ pᵢ·aᵢ, σ² = Σ pᵢ·(aᵢ − s)², se = σ/√N;
/// elo = elo(s); elo_err = (elo(s + z·se) − elo(s − z·se))/2; LOS = Φ((s − ½)/se);
/// nElo = (s − ½)/σ_game · 800/ln 10 with σ_game = σ·√games_per_obs, nelo_err = z·se/σ_game · 800/ln 10.
/// σ_game is the per-game deviation an observation of that many independent games would imply (a
/// mean of k independent games has variance σ_game²/k); it puts paired and unpaired nElo on the same
/// per-game scale. These reproduce every row of statistics.md.
///
/// Edge cases (never NaN, never a panic):
/// - no observations: score ½, elo 0, nelo 0, los ½; se, elo_err and nelo_err +∞, score_ci [0, 1]
///   (nothing is known);
/// - all observations equal (σ = 0: all won, all lost, all drawn, every pair WL/DD...): the normal
///   interval would be a falsely exact "± 0". The score interval is then the Wilson interval of
///   the score (n observations, "successes" = score·n): a score in [0, 1] with mean μ has variance
///   at most μ(1 − μ), the Bernoulli variance Wilson assumes, so this is conservative. Hence all won
///   gives elo +∞, a finite Elo lower bound and elo_err +∞ (the upper end is +∞); all drawn gives
///   elo 0 with a finite ±. nElo has no scale without σ: nelo is ±∞ when s ≠ ½ and 0 when s = ½,
///   nelo_err +∞. los is 1, 0 or ½ by the sign of s − ½ (the limit of Φ).
/// - otherwise elo_err is +∞ whenever the score interval reaches 0 or 1 (e.g. 9 wins of 10), as the
///   Elo of a score of 0 or 1 is infinite.
pub fn estimate(scores: &[f64], counts: &[u64], games_per_obs: u64) -> EloEstimate {
    debug_assert_eq!(scores.len(), counts.len());
    let n: u64 = counts.iter().sum();
    let nf = n as f64;
    let freq = || scores.iter().zip(counts).map(|(&a, &c)| (a, c as f64 / nf));
    let (score, sd) = if n == 0 {
        (0.5, 0.0)
    } else {
        let score = freq().map(|(a, p)| p * a).sum::<f64>().clamp(0.0, 1.0);
        (score, freq().map(|(a, p)| p * (a - score).powi(2)).sum::<f64>().sqrt())
    };
    from_moments(n, n * games_per_obs, score, sd / nf.sqrt(), sd * (games_per_obs as f64).sqrt())
}

/// Elo figures of a mean score from `n` independent observations of `games` games in all: the
/// score, its standard error `se`, and `sd_game`, the standard deviation of one game's score
/// (nElo's scale). [`estimate`] computes these from counts; for correlated games (the seat pairs of
/// one deal at an N-seat table) the caller takes `se` from the deals as clusters. The edge cases
/// are [`estimate`]'s.
pub fn from_moments(n: u64, games: u64, score: f64, se: f64, sd_game: f64) -> EloEstimate {
    let inf = f64::INFINITY;
    if n == 0 {
        let score_ci = Interval { lo: 0.0, hi: 1.0 };
        let (score, elo, nelo, los) = (0.5, 0.0, 0.0, 0.5);
        return EloEstimate { n, games, score, se: inf, score_ci, elo, elo_err: inf, nelo, nelo_err: inf, los };
    }
    let nf = n as f64;
    let excess = score - 0.5;
    let elo = elo_from_score(score);
    let half_width = |ci: Interval| (elo_from_score(ci.hi) - elo_from_score(ci.lo)) / 2.0;
    if se == 0.0 || sd_game == 0.0 {
        let score_ci = wilson(score * nf, nf, Z95);
        let (nelo, los) = if excess > 0.0 {
            (inf, 1.0)
        } else if excess < 0.0 {
            (-inf, 0.0)
        } else {
            (0.0, 0.5)
        };
        let elo_err = half_width(score_ci);
        return EloEstimate { n, games, score, se: 0.0, score_ci, elo, elo_err, nelo, nelo_err: inf, los };
    }
    let score_ci = Interval { lo: (score - Z95 * se).max(0.0), hi: (score + Z95 * se).min(1.0) };
    EloEstimate {
        n,
        games,
        score,
        se,
        score_ci,
        elo,
        elo_err: half_width(score_ci),
        nelo: excess / sd_game * NELO_PER_T,
        nelo_err: Z95 * se / sd_game * NELO_PER_T,
        los: normal_cdf(excess / se),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_nan(e: &EloEstimate) -> bool {
        [e.score, e.se, e.elo, e.elo_err, e.nelo, e.nelo_err, e.los].iter().all(|x| !x.is_nan())
    }

    #[test]
    fn elo_score_roundtrip() {
        for elo in [-800.0, -100.0, -1.0, 0.0, 0.5, 35.0, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(score_from_elo(400.0), 10.0 / 11.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn no_games() {
        for e in [Trinomial::default().estimate(), Pentanomial::default().estimate()] {
            assert!(no_nan(&e), "{e:?}");
            assert_eq!((e.n, e.score, e.elo, e.nelo, e.los), (0, 0.5, 0.0, 0.0, 0.5));
            assert!(e.elo_err.is_infinite() && e.nelo_err.is_infinite());
            assert_eq!(e.score_ci, Interval { lo: 0.0, hi: 1.0 });
            assert_eq!(e.elo_interval(), Interval { lo: f64::NEG_INFINITY, hi: f64::INFINITY });
        }
    }

    #[test]
    fn all_won_all_lost_all_drawn() {
        let won = Trinomial { losses: 0, draws: 0, wins: 50 }.estimate();
        assert!(no_nan(&won), "{won:?}");
        assert_eq!((won.score, won.elo, won.nelo, won.los), (1.0, f64::INFINITY, f64::INFINITY, 1.0));
        assert!(won.elo_err.is_infinite() && won.nelo_err.is_infinite());
        // Wilson's lower bound for 50/50 is n/(n + z²) = 0.92865: Elo ≥ 445.8, a usable gate figure.
        let i = won.elo_interval();
        assert_eq!(i.hi, f64::INFINITY);
        let wl = 50.0 / (50.0 + Z95 * Z95);
        assert!((i.lo - 400.0 * (wl / (1.0 - wl)).log10()).abs() < 1e-9 && i.lo > 445.0, "{i:?}");

        let lost = Pentanomial([7, 0, 0, 0, 0]).estimate();
        assert!(no_nan(&lost), "{lost:?}");
        assert_eq!((lost.score, lost.elo, lost.nelo, lost.los), (0.0, f64::NEG_INFINITY, f64::NEG_INFINITY, 0.0));
        assert_eq!((lost.games, lost.elo_interval().lo), (14, f64::NEG_INFINITY));
        assert!(lost.elo_interval().hi.is_finite());

        for (drawn, n) in [
            (Trinomial { losses: 0, draws: 9, wins: 0 }.estimate(), 9.0),
            (Pentanomial([0, 0, 9, 0, 0]).estimate(), 9.0),
        ] {
            assert!(no_nan(&drawn), "{drawn:?}");
            assert_eq!((drawn.score, drawn.elo, drawn.nelo, drawn.los), (0.5, 0.0, 0.0, 0.5));
            assert!(drawn.nelo_err.is_infinite());
            // Wilson at ½: half width z/(1 + z²/n)·√(1/4n + z²/4n²), symmetric in Elo.
            let h = Z95 / (1.0 + Z95 * Z95 / n) * (0.25 / n + Z95 * Z95 / (4.0 * n * n)).sqrt();
            let want = 400.0 * ((0.5 + h) / (0.5 - h)).log10();
            assert!((drawn.elo_err - want).abs() < 1e-9, "{} {want}", drawn.elo_err);
        }
    }

    #[test]
    fn interval_reaching_one_gives_infinite_error() {
        let e = Trinomial { losses: 1, draws: 0, wins: 9 }.estimate();
        assert!(no_nan(&e));
        assert!(e.elo.is_finite() && e.elo_err.is_infinite());
        assert!(e.elo_interval().lo.is_finite() && e.elo_interval().hi.is_infinite());
    }

    #[test]
    fn pairing_the_same_games_differently() {
        // 100 pairs WL: as pairs, zero variance (every pair scores ½); the same 200 games as
        // independent games have the maximal variance of a drawless match.
        let paired = Pentanomial([0, 0, 100, 0, 0]).estimate();
        let unpaired = Trinomial { losses: 100, draws: 0, wins: 100 }.estimate();
        assert_eq!(paired.games, unpaired.games);
        assert_eq!(paired.score, unpaired.score);
        assert!(unpaired.elo_err.is_finite() && (unpaired.se - 0.5 / 200f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn symmetric_counts_mirror() {
        let a = Pentanomial([3, 10, 20, 14, 5]).estimate();
        let b = Pentanomial([5, 14, 20, 10, 3]).estimate();
        assert!((a.elo + b.elo).abs() < 1e-9 && (a.elo_err - b.elo_err).abs() < 1e-9);
        assert!((a.nelo + b.nelo).abs() < 1e-9 && (a.los + b.los - 1.0).abs() < 1e-12);
        let i = a.elo_interval();
        assert!(i.lo < a.elo && a.elo < i.hi && (i.half_width() - a.elo_err).abs() < 1e-9);
    }
}
