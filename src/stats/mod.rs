//! Pure statistics for comparing bots: no I/O, no randomness, no game knowledge.
//!
//! - [`interval`]: Wilson interval for a proportion; online mean/variance ([`Welford`]) with a
//!   Student-t interval ([`MeanCi`]) for payoffs and paired payoff differences.
//! - [`elo`]: Elo with its 95% ±, normalized Elo (nElo) and likelihood of superiority (LOS) from
//!   trinomial (per game) or pentanomial (per pair) counts.
//! - [`sprt`]: the generalized SPRT (logistic and normalized models), Wald's bounds, decisions.
//! - [`cluster`]: means over deals ([`ClusteredMean`], a bot's payoff or win rate when the games
//!   of a deal are correlated) and the bots of one table deal by deal ([`FieldStats`]: each bot's
//!   mean payoff and the difference between any two, clustered by deal).
//! - [`ratings`]: rating lists: maximum-likelihood Elo (draws as half points) and least-squares
//!   payoff ratings, anchored, with cluster-robust intervals.
//! - [`plackett_luce`]: ratings for fields of three or more seats from each game's whole
//!   finishing order (the Plackett–Luce model, ties by Breslow's rule), in Elo.
//! - [`regress`]: regression adjustment on covariates of mean zero, fitted on the observations
//!   before each one ([`OnlineRegression`]), so that it keeps the mean exactly.
//! - [`unit`](mod@unit): the unit a game's payoff verdicts are counted in, and numbers written with it.
//! - `calc`: the `arena stats` calculator (counts on the command line → report).
//!
//! The definitions are those of fishtest and fastchess; tests/stats_vectors.rs reproduces
//! their published reference values, and tests/stats_honesty.rs checks by simulation that the 95%
//! intervals cover the truth 95% of the time and that the SPRT's false-positive rate stays at α.

pub(crate) mod calc;
pub(crate) mod change;
pub mod cluster;
pub mod elo;
pub mod interval;
mod matrix;
pub mod plackett_luce;
pub mod ratings;
pub mod regress;
pub mod sprt;
pub mod unit;

pub use cluster::{ClusteredMean, FieldStats};
pub use elo::{
    elo_from_score, estimate, score_from_elo, EloEstimate, Outcome, Pentanomial, Trinomial, NELO_PER_T, PENTA_SCORES,
    TRI_SCORES,
};
pub use interval::{normal_cdf, normal_quantile, t_quantile, wilson, Interval, MeanCi, Welford, Z95};
pub use ratings::{payoff_ratings, Anchor, Comparisons, PairScore, Prior, Rating, RatingList, TableField};
pub use regress::{OnlineRegression, StartFit, TermFit};
pub use sprt::{Sprt, SprtDecision, SprtModel};
pub use unit::{parse_quantity, Unit};
