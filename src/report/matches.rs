//! match.csv and the terminal verdicts: one row for every two distinct bots that shared a table,
//! from bot A's side (A listed first), computed by [`super::TableTally`].
//!
//! - wins, draws, losses: games where A's mean payoff (over its seats) was above, equal to, below
//!   B's; with two seats and paired games a deal's two games are a pair (pentanomial counts), and
//!   Elo, nElo, LOS and the count SPRTs are per pair (as fishtest does), else per game;
//! - payoffs: each bot's mean payoff per game and A's minus B's, with Student-t intervals over
//!   deals (a deal's seat rotations and a bot's copies at the table make one observation).
//!   `variance_ratio` is the variance of the mean difference scored game by game (as if each game
//!   were independent) over its variance scored by deal: above 1, pairing narrowed the interval by
//!   its square root.

use std::path::Path;

use crate::core::Headline;
use crate::error::Result;
use crate::report::{num, write_csv_atomic};
use crate::stats::calc::Counts;
use crate::stats::{EloEstimate, MeanCi, Pentanomial, Sprt, SprtDecision, SprtModel, Trinomial, Welford};

/// The SPRT part of a row.
#[derive(Clone, Copy, Debug)]
pub struct SprtResult {
    pub sprt: Sprt,
    pub llr: f64,
    pub decision: SprtDecision,
}

/// One row of match.csv.
#[derive(Clone, Debug)]
pub struct MatchRow {
    /// The table (index in schedule order).
    pub pairing: usize,
    pub bot_a: String,
    pub bot_b: String,
    pub games: u64,
    /// Complete deals: the observations of the payoff figures.
    pub deals: u64,
    pub tri: Trinomial,
    /// Per pair when `pentanomial` (two seats, paired), else empty.
    pub penta: Pentanomial,
    pub pentanomial: bool,
    pub elo: EloEstimate,
    /// Each bot's mean payoff per game, over deals.
    pub payoff_a: MeanCi,
    pub payoff_b: MeanCi,
    /// A's payoff per game minus B's, deal by deal: the observations of the payoff SPRT.
    pub diff: Welford,
    pub payoff_diff: MeanCi,
    pub variance_ratio: f64,
    pub sprt: Option<SprtResult>,
}

pub const MATCH_COLUMNS: &[&str] = &[
    "pairing",
    "bot_a",
    "bot_b",
    "games",
    "deals",
    "wins",
    "draws",
    "losses",
    "ll",
    "ld",
    "wl_dd",
    "wd",
    "ww",
    "score",
    "elo",
    "elo_err",
    "nelo",
    "nelo_err",
    "los",
    "payoff_a",
    "payoff_a_lo",
    "payoff_a_hi",
    "payoff_b",
    "payoff_b_lo",
    "payoff_b_hi",
    "mean_payoff_diff",
    "payoff_diff_lo",
    "payoff_diff_hi",
    "variance_ratio",
];
pub const SPRT_COLUMNS: &[&str] = &["h0", "h1", "alpha", "beta", "model", "unit", "llr", "lower", "upper", "decision"];

impl MatchRow {
    /// The win/draw/loss counts the Elo figures and count SPRTs use: pairs or games.
    pub fn counts(&self) -> Counts {
        if self.pentanomial {
            Counts::Penta(self.penta)
        } else {
            Counts::Tri(self.tri)
        }
    }

    /// The SPRT's log-likelihood ratio on this row's observations.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        match sprt.model {
            SprtModel::Payoff => sprt.llr_payoff(&self.diff),
            _ => self.counts().llr(sprt),
        }
    }

    /// What one observation of the payoff difference is: a pair, a game or a deal.
    fn observation(&self) -> &'static str {
        if self.pentanomial {
            "pairs"
        } else if self.deals == self.games {
            "games"
        } else {
            "deals"
        }
    }

    fn fields(&self) -> Vec<String> {
        let mut f = vec![
            self.pairing.to_string(),
            self.bot_a.clone(),
            self.bot_b.clone(),
            self.games.to_string(),
            self.deals.to_string(),
            self.tri.wins.to_string(),
            self.tri.draws.to_string(),
            self.tri.losses.to_string(),
        ];
        f.extend(self.penta.0.iter().map(u64::to_string));
        let e = &self.elo;
        f.extend([e.score, e.elo, e.elo_err, e.nelo, e.nelo_err, e.los].map(num));
        for m in [&self.payoff_a, &self.payoff_b, &self.payoff_diff] {
            f.extend([m.mean, m.lo, m.hi].map(num));
        }
        f.push(num(self.variance_ratio));
        if let Some(s) = &self.sprt {
            let (lower, upper) = s.sprt.bounds();
            f.extend([num(s.sprt.h0), num(s.sprt.h1), num(s.sprt.alpha), num(s.sprt.beta)]);
            f.push(s.sprt.model.to_string());
            f.push(s.sprt.unit.to_string());
            f.extend([num(s.llr), num(lower), num(upper)]);
            f.push(s.decision.to_string());
        }
        f
    }

    pub fn write_csv(rows: &[MatchRow], path: &Path) -> Result<()> {
        let mut header: Vec<&str> = MATCH_COLUMNS.to_vec();
        if rows.iter().any(|r| r.sprt.is_some()) {
            header.extend(SPRT_COLUMNS);
        }
        write_csv_atomic(path, |w| {
            w.write_record(&header)?;
            rows.iter().try_for_each(|row| w.write_record(row.fields()))
        })
    }

    /// The verdict for the terminal, led by what the game is about: the payoff difference for
    /// payoff games, Elo for win/draw/loss games.
    pub fn describe(&self, headline: Headline) -> String {
        let e = &self.elo;
        let (a, b) = (&self.bot_a, &self.bot_b);
        let penta = if self.pentanomial {
            format!(" ({} pairs, penta {:?})", self.penta.pairs(), self.penta.0)
        } else {
            String::new()
        };
        let counts =
            format!("{} games{penta}, +{} ={} -{}", self.games, self.tri.wins, self.tri.draws, self.tri.losses);
        let elo = format!(
            "Elo {:+.1} ± {:.1}, nElo {:+.1} ± {:.1}, LOS {:.1}%",
            e.elo,
            e.elo_err,
            e.nelo,
            e.nelo_err,
            100.0 * e.los
        );
        let ratio = if self.observation() == "games" {
            String::new()
        } else if self.variance_ratio.is_nan() {
            "; pairing variance ratio n/a (no variance)".to_string()
        } else {
            format!("; pairing variance ratio {:.2}", self.variance_ratio)
        };
        let over = format!("95% over {} {}", self.deals, self.observation());
        let mut s = match headline {
            Headline::Payoff { unit, scale } => {
                let m = |c: &MeanCi| format!("{:+.2} [{:+.2}, {:+.2}]", scale * c.mean, scale * c.lo, scale * c.hi);
                format!(
                    "{a} vs {b}: {} {unit}, {over}\n  {a} {}, {b} {} {unit}\n  {counts}, score {:.1}%, {elo}{ratio}\n",
                    m(&self.payoff_diff),
                    m(&self.payoff_a),
                    m(&self.payoff_b),
                    100.0 * e.score,
                )
            }
            Headline::Elo => {
                let d = &self.payoff_diff;
                format!(
                    "{a} vs {b}: {elo}, score {:.1}%, {counts}\n  payoff difference {:+.4} [{:+.4}, {:+.4}] a game, {over}{ratio}\n",
                    100.0 * e.score,
                    d.mean,
                    d.lo,
                    d.hi,
                )
            }
        };
        if let Some(r) = &self.sprt {
            let (lo, hi) = r.sprt.bounds();
            // Where the LLR stands against Wald's bounds, in words: a decided test has crossed one.
            let position = match r.decision {
                SprtDecision::AcceptH1 => format!("reached the upper bound {hi:.3}"),
                SprtDecision::AcceptH0 => format!("reached the lower bound {lo:.3}"),
                SprtDecision::Continue => format!("between the bounds {lo:.3} and {hi:.3}"),
            };
            s.push_str(&format!(
                "  SPRT {} α={} β={}: LLR {:.3} {position}: {}\n",
                r.sprt.describe(),
                r.sprt.alpha,
                r.sprt.beta,
                r.llr,
                r.decision
            ));
        }
        s
    }
}
