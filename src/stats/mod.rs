//! Pure statistics for comparing bots: no I/O, no randomness, no game knowledge.
//!
//! - [`interval`]: Wilson interval for a proportion; online mean/variance ([`Welford`]) with a
//!   Student-t interval ([`MeanCi`]) for payoffs and paired payoff differences.
//! - [`elo`]: Elo with its 95% ±, normalized Elo (nElo) and likelihood of superiority (LOS) from
//!   trinomial (per game) or pentanomial (per pair) counts.
//! - [`sprt`]: the generalized SPRT (logistic and normalized models), Wald's bounds, decisions.
//! - [`calc`]: the `arena stats` calculator (counts on the command line → report).
//!
//! The definitions are those of fishtest and fastchess; tests/stats_vectors.rs reproduces
//! shared/vectors/statistics.md, and tests/stats_honesty.rs checks by simulation that the 95%
//! intervals cover the truth 95% of the time and that the SPRT's false-positive rate stays at α.

pub mod calc;
pub mod elo;
pub mod interval;
pub mod sprt;

pub use elo::{
    elo_from_score, estimate, score_from_elo, EloEstimate, Outcome, Pentanomial, Trinomial, NELO_PER_T, PENTA_SCORES,
    TRI_SCORES,
};
pub use interval::{normal_cdf, normal_quantile, t_quantile, wilson, Interval, MeanCi, Welford, Z95};
pub use sprt::{Sprt, SprtDecision, SprtModel};
