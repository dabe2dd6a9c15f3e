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

use crate::core::luck::Estimator;
use crate::core::{Headline, Leads};
use crate::error::Result;
use crate::report::verdict;
use serde::Serialize;

use crate::report::export::{Csv, Exporter, Figure, Rows};
use crate::report::write_atomic;
use crate::stats::calc::Counts;
use crate::stats::{EloEstimate, MeanCi, Pentanomial, Sprt, SprtDecision, SprtModel, Trinomial, Welford};

/// The SPRT part of a row.
#[derive(Clone, Copy, Debug)]
pub struct SprtResult {
    /// The test that ran.
    pub sprt: Sprt,
    /// Its log-likelihood ratio at the end of the run.
    pub llr: f64,
    /// What it decided: H0, H1 or not yet.
    pub decision: SprtDecision,
}

/// One row of match.csv.
#[derive(Clone, Debug)]
pub struct MatchRow {
    /// The table (index in schedule order).
    pub pairing: usize,
    /// The first bot (the one the figures are for).
    pub bot_a: String,
    /// The second bot.
    pub bot_b: String,
    /// Games the two played at this table.
    pub games: u64,
    /// Complete deals: the observations of the payoff figures.
    pub deals: u64,
    /// A's losses, draws and wins against B, game by game.
    pub tri: Trinomial,
    /// Per pair when `pentanomial` (two seats, paired), else empty.
    pub penta: Pentanomial,
    /// Whether the Elo figures count pairs of games (two seats, paired deals).
    pub pentanomial: bool,
    /// A's Elo against B, with its interval, LOS and nElo.
    pub elo: EloEstimate,
    /// Each bot's mean payoff per game, over deals.
    pub payoff_a: MeanCi,
    /// B's mean payoff per game, over deals.
    pub payoff_b: MeanCi,
    /// A's payoff per game minus B's, deal by deal: the observations of the payoff SPRT.
    pub diff: Welford,
    /// The mean of `diff`, with its 95% interval: what the payoff verdict reads.
    pub payoff_diff: MeanCi,
    /// The variance of the payoff difference over games against its variance over deals: how
    /// much the pairing of deals took out (above 1: it helped).
    pub variance_ratio: f64,
    /// The same figures with the payoffs adjusted for luck, when the run adjusts them: then
    /// they lead the verdict and the payoff SPRT tests them.
    pub adjusted: Option<AdjustedFigures>,
    /// The SPRT's state, when the run has one.
    pub sprt: Option<SprtResult>,
}

/// A row's payoff figures with the luck taken out (core/luck.rs).
#[derive(Clone, Debug)]
pub struct AdjustedFigures {
    /// The estimator that took the luck out.
    pub estimator: Estimator,
    /// A's adjusted mean payoff per game.
    pub payoff_a: MeanCi,
    /// B's adjusted mean payoff per game.
    pub payoff_b: MeanCi,
    /// A's adjusted payoff minus B's, deal by deal.
    pub diff: Welford,
    /// The mean of `diff`, with its 95% interval.
    pub payoff_diff: MeanCi,
    /// The variance of the plain mean difference (deal by deal) over the adjusted one's: above
    /// 1, the adjustment narrowed the interval by its square root.
    pub variance_ratio: f64,
}

/// One row of match.csv as written: the columns are its fields, in order, the SPRT's last and
/// only when the run had one (the `--json` documents hold the same rows).
#[derive(Clone, Debug, Default, Serialize)]
pub struct MatchCsvRow {
    pub pairing: usize,
    pub bot_a: String,
    pub bot_b: String,
    pub games: u64,
    pub deals: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub ll: u64,
    pub ld: u64,
    pub wl_dd: u64,
    pub wd: u64,
    pub ww: u64,
    pub score: Figure,
    pub elo: Figure,
    pub elo_err: Figure,
    pub nelo: Figure,
    pub nelo_err: Figure,
    pub los: Figure,
    #[serde(rename = "payoff_a_{unit}")]
    pub payoff_a: Figure,
    #[serde(rename = "payoff_a_lo_{unit}")]
    pub payoff_a_lo: Figure,
    #[serde(rename = "payoff_a_hi_{unit}")]
    pub payoff_a_hi: Figure,
    #[serde(rename = "payoff_b_{unit}")]
    pub payoff_b: Figure,
    #[serde(rename = "payoff_b_lo_{unit}")]
    pub payoff_b_lo: Figure,
    #[serde(rename = "payoff_b_hi_{unit}")]
    pub payoff_b_hi: Figure,
    #[serde(rename = "payoff_diff_{unit}")]
    pub mean_payoff_diff: Figure,
    #[serde(rename = "payoff_diff_lo_{unit}")]
    pub payoff_diff_lo: Figure,
    #[serde(rename = "payoff_diff_hi_{unit}")]
    pub payoff_diff_hi: Figure,
    pub variance_ratio: Figure,
    /// What the verdict leads with: plain, duplicate, all-in or aivat.
    pub estimator: &'static str,
    /// The likelihood that A is the stronger, on the verdict's own quantity (the payoff
    /// difference in a chip or point game; `los` is on games won).
    pub verdict_los: Figure,
    /// The verdict in one sentence ([`super::verdict::sentence`]).
    pub verdict: String,
    #[serde(flatten)]
    pub adjusted: Option<AdjustedColumns>,
    #[serde(flatten)]
    pub sprt: Option<SprtColumns>,
}

/// The adjusted payoff columns of a match.csv row (a run that adjusts its payoffs).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdjustedColumns {
    #[serde(rename = "adjusted_payoff_a_{unit}")]
    pub adjusted_payoff_a: Figure,
    #[serde(rename = "adjusted_payoff_a_lo_{unit}")]
    pub adjusted_payoff_a_lo: Figure,
    #[serde(rename = "adjusted_payoff_a_hi_{unit}")]
    pub adjusted_payoff_a_hi: Figure,
    #[serde(rename = "adjusted_payoff_b_{unit}")]
    pub adjusted_payoff_b: Figure,
    #[serde(rename = "adjusted_payoff_b_lo_{unit}")]
    pub adjusted_payoff_b_lo: Figure,
    #[serde(rename = "adjusted_payoff_b_hi_{unit}")]
    pub adjusted_payoff_b_hi: Figure,
    #[serde(rename = "adjusted_payoff_diff_{unit}")]
    pub adjusted_payoff_diff: Figure,
    #[serde(rename = "adjusted_payoff_diff_lo_{unit}")]
    pub adjusted_payoff_diff_lo: Figure,
    #[serde(rename = "adjusted_payoff_diff_hi_{unit}")]
    pub adjusted_payoff_diff_hi: Figure,
    pub luck_variance_ratio: Figure,
}

/// The SPRT's columns of a match.csv row.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SprtColumns {
    pub h0: Figure,
    pub h1: Figure,
    pub alpha: Figure,
    pub beta: Figure,
    pub model: String,
    pub unit: String,
    pub llr: Figure,
    pub lower: Figure,
    pub upper: Figure,
    pub decision: String,
}

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
            SprtModel::Payoff => sprt.llr_payoff(self.adjusted.as_ref().map_or(&self.diff, |a| &a.diff)),
            _ => self.counts().llr(sprt),
        }
    }

    /// What the verdict leads with.
    pub fn estimator(&self) -> Estimator {
        match &self.adjusted {
            Some(a) => a.estimator,
            None if self.deals == self.games => Estimator::Plain,
            None => Estimator::Duplicate,
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

    /// The row as match.csv holds it, its payoffs in the verdict's unit.
    pub fn row(&self, headline: Headline) -> MatchCsvRow {
        let (e, [ll, ld, wl_dd, wd, ww]) = (&self.elo, self.penta.0);
        let f = |x: f64| Figure(headline.unit.of(x));
        let sprt = self.sprt.as_ref().map(|s| {
            let (lower, upper) = s.sprt.bounds();
            SprtColumns {
                h0: Figure(s.sprt.h0),
                h1: Figure(s.sprt.h1),
                alpha: Figure(s.sprt.alpha),
                beta: Figure(s.sprt.beta),
                model: s.sprt.model.to_string(),
                unit: s.sprt.unit.to_string(),
                llr: Figure(s.llr),
                lower: Figure(lower),
                upper: Figure(upper),
                decision: s.decision.to_string(),
            }
        });
        MatchCsvRow {
            pairing: self.pairing,
            bot_a: self.bot_a.clone(),
            bot_b: self.bot_b.clone(),
            games: self.games,
            deals: self.deals,
            wins: self.tri.wins,
            draws: self.tri.draws,
            losses: self.tri.losses,
            ll,
            ld,
            wl_dd,
            wd,
            ww,
            score: Figure(e.score),
            elo: Figure(e.elo),
            elo_err: Figure(e.elo_err),
            nelo: Figure(e.nelo),
            nelo_err: Figure(e.nelo_err),
            los: Figure(e.los),
            payoff_a: f(self.payoff_a.mean),
            payoff_a_lo: f(self.payoff_a.lo),
            payoff_a_hi: f(self.payoff_a.hi),
            payoff_b: f(self.payoff_b.mean),
            payoff_b_lo: f(self.payoff_b.lo),
            payoff_b_hi: f(self.payoff_b.hi),
            mean_payoff_diff: f(self.payoff_diff.mean),
            payoff_diff_lo: f(self.payoff_diff.lo),
            payoff_diff_hi: f(self.payoff_diff.hi),
            variance_ratio: Figure(self.variance_ratio),
            estimator: self.estimator().name(),
            verdict_los: Figure(verdict::lead(self, headline).los()),
            verdict: verdict::sentence(self, headline),
            adjusted: self.adjusted.as_ref().map(|a| AdjustedColumns {
                adjusted_payoff_a: f(a.payoff_a.mean),
                adjusted_payoff_a_lo: f(a.payoff_a.lo),
                adjusted_payoff_a_hi: f(a.payoff_a.hi),
                adjusted_payoff_b: f(a.payoff_b.mean),
                adjusted_payoff_b_lo: f(a.payoff_b.lo),
                adjusted_payoff_b_hi: f(a.payoff_b.hi),
                adjusted_payoff_diff: f(a.payoff_diff.mean),
                adjusted_payoff_diff_lo: f(a.payoff_diff.lo),
                adjusted_payoff_diff_hi: f(a.payoff_diff.hi),
                luck_variance_ratio: Figure(a.variance_ratio),
            }),
            sprt,
        }
    }

    /// The table of match.csv.
    pub fn rows(rows: &[MatchRow], headline: Headline) -> Rows {
        Rows::of("match", &rows.iter().map(|r| r.row(headline)).collect::<Vec<_>>()).in_unit(headline.unit)
    }

    /// Writes `rows` as match.csv at `path`, the payoffs in `headline`'s unit.
    pub fn write_csv(rows: &[MatchRow], headline: Headline, path: &Path) -> Result<()> {
        write_atomic(path, &Csv.serialize(&[MatchRow::rows(rows, headline)])?)
    }

    /// The verdict for the terminal: its sentence first (`verdict::sentence`; an SPRT's
    /// decision, then the estimate's), then the figures behind it. In a chip or point game the
    /// counts of games won, their score, Elo and LOS follow, labelled as what they are.
    pub fn describe(&self, headline: Headline) -> String {
        let e = &self.elo;
        let (a, b) = (&self.bot_a, &self.bot_b);
        let unit = headline.unit;
        let shown = [&self.payoff_a, &self.payoff_b, &self.payoff_diff];
        let d = verdict::decimals(shown.iter().map(|c| (unit.of(c.lo), unit.of(c.hi))));
        let m = |c: &MeanCi| format!("{:+.d$} [{:+.d$}, {:+.d$}]", unit.of(c.mean), unit.of(c.lo), unit.of(c.hi));
        let penta = if self.pentanomial {
            format!(" ({} pairs, penta {:?})", self.penta.pairs(), self.penta.0)
        } else {
            String::new()
        };
        let won = format!(
            "{} {}{penta}, +{} ={} -{}",
            self.games,
            headline.games(self.games),
            self.tri.wins,
            self.tri.draws,
            self.tri.losses
        );
        let elo = format!(
            "score {:.1}%, Elo {:+.1} ± {:.1}, nElo {:+.1} ± {:.1}, LOS {:.1}%",
            100.0 * e.score,
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
        let mut s = format!("{}\n", verdict::sentence(self, headline));
        if self.sprt.is_some() {
            let estimate = MatchRow { sprt: None, ..self.clone() };
            s.push_str(&format!("  {}\n", verdict::sentence(&estimate, headline)));
        }
        match headline.leads {
            Leads::Payoff => {
                let lead = verdict::lead(self, headline);
                let (pa, pb, how) = match &self.adjusted {
                    Some(adj) => (&adj.payoff_a, &adj.payoff_b, format!(" ({})", adj.estimator.name())),
                    None => (&self.payoff_a, &self.payoff_b, String::new()),
                };
                // The likelihood of superiority of the bot ahead, on the verdict's quantity.
                let (ahead, los) = if lead.estimate >= 0.0 { (a, lead.los()) } else { (b, 1.0 - lead.los()) };
                s.push_str(&format!(
                    "  {a} {}, {b} {} {unit}{how}; LOS {:.1}% ({ahead} stronger)\n",
                    m(pa),
                    m(pb),
                    100.0 * los
                ));
                if let Some(adj) = &self.adjusted {
                    s.push_str(&format!(
                        "  {} difference {} {unit}, luck variance ratio {:.2}\n",
                        if self.observation() == "games" { "plain" } else { "duplicate" },
                        m(&self.payoff_diff),
                        adj.variance_ratio
                    ));
                }
                s.push_str(&format!("  {} won, not the verdict: {won}, {elo}{ratio}\n", headline.games(2)));
            }
            Leads::Elo => {
                s.push_str(&format!("  {won}, {elo}\n"));
                s.push_str(&format!("  payoff difference {} {unit}{ratio}\n", m(&self.payoff_diff)));
            }
        }
        if let Some(r) = &self.sprt {
            let (lo, hi) = r.sprt.bounds();
            // Where the LLR stands against Wald's bounds, in words: a decided test has crossed one.
            let position = match r.decision {
                SprtDecision::AcceptH1 => format!("reached the upper bound {hi:.3}"),
                SprtDecision::AcceptH0 => format!("reached the lower bound {lo:.3}"),
                SprtDecision::Continue => format!("between the bounds {lo:.3} and {hi:.3}"),
            };
            s.push_str(&format!(
                "  SPRT {} α={} β={}: LLR {:.3} {position}\n",
                r.sprt.describe(),
                r.sprt.alpha,
                r.sprt.beta,
                r.llr,
            ));
        }
        s
    }
}
