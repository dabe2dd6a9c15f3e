//! match.csv: head-to-head figures for every pairing of exactly two distinct bots.
//!
//! Records arrive in game order, so the replays of one deal (the same cards or opening with the
//! seats rotated) are contiguous; a deal's replays form one *observation*:
//! - every game scores a win, draw or loss for bot A by comparing A's mean payoff over its seats
//!   with B's (for two seats: who won); these are the trinomial counts;
//! - with two seats and paired games, the two games of a deal are a pair: pentanomial counts, and
//!   Elo, nElo, LOS and the SPRT are computed per pair (as fishtest does); otherwise per game
//!   (the SPRT's payoff model uses the payoff differences below instead);
//! - the payoff difference of a game is A's mean payoff minus B's; its mean over a deal's replays
//!   is the observation whose mean and Student-t interval are reported. `variance_ratio` is the
//!   variance of the mean difference scored game by game (as if unpaired) over its variance scored
//!   by observation: above 1, pairing narrowed the interval by its square root.
//!
//! A deal cut short (an interrupted run) counts in the per-game figures only.

use std::path::Path;

use crate::core::GameRecord;
use crate::error::{Error, Result};
use crate::report::num;
use crate::stats::{EloEstimate, MeanCi, Outcome, Pentanomial, Sprt, SprtDecision, SprtModel, Trinomial, Welford};

pub struct MatchTally {
    /// Bot indexes: A is the first listed in the config.
    pub a: usize,
    pub b: usize,
    replays: u64,
    pub tri: Trinomial,
    pub penta: Pentanomial,
    game_diff: Welford,
    obs_diff: Welford,
    /// The deal being collected: its index, the outcomes and payoff differences so far.
    deal: u64,
    deal_outcomes: Vec<Outcome>,
    deal_diff: f64,
}

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
    pub bot_a: String,
    pub bot_b: String,
    pub games: u64,
    pub pairs: u64,
    pub tri: Trinomial,
    pub penta: Pentanomial,
    pub elo: EloEstimate,
    pub payoff_diff: MeanCi,
    pub variance_ratio: f64,
    pub sprt: Option<SprtResult>,
}

pub const MATCH_COLUMNS: &[&str] = &[
    "bot_a",
    "bot_b",
    "games",
    "pairs",
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
    "mean_payoff_diff",
    "payoff_diff_lo",
    "payoff_diff_hi",
    "variance_ratio",
];
pub const SPRT_COLUMNS: &[&str] = &["h0", "h1", "alpha", "beta", "model", "llr", "lower", "upper", "decision"];

impl MatchTally {
    /// A tally when `table` seats exactly two distinct bots.
    pub fn for_table(table: &[usize], replays: u64) -> Option<MatchTally> {
        let a = table[0];
        let b = *table.iter().find(|&&x| x != a)?;
        if table.iter().any(|&x| x != a && x != b) {
            return None;
        }
        Some(MatchTally {
            a,
            b,
            replays,
            tri: Trinomial::default(),
            penta: Pentanomial::default(),
            game_diff: Welford::new(),
            obs_diff: Welford::new(),
            deal: 0,
            deal_outcomes: Vec::new(),
            deal_diff: 0.0,
        })
    }

    /// Whether scores are per pair (two seats, paired games).
    pub fn pentanomial(&self) -> bool {
        self.replays == 2
    }

    /// Adds game `game` (index within the pairing). Returns true when it completed a deal.
    pub fn add(&mut self, game: u64, lineup: &[usize], record: &GameRecord) -> bool {
        let mean_of = |bot: usize| {
            let seats: Vec<f64> =
                record.seats.iter().zip(lineup).filter(|(_, &b)| b == bot).map(|(s, _)| s.payoff).collect();
            seats.iter().sum::<f64>() / seats.len() as f64
        };
        let diff = mean_of(self.a) - mean_of(self.b);
        let outcome = match diff.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => Outcome::Win,
            Some(std::cmp::Ordering::Less) => Outcome::Loss,
            _ => Outcome::Draw,
        };
        self.tri.add(outcome);
        self.game_diff.push(diff);
        let deal = game / self.replays;
        if deal != self.deal || self.deal_outcomes.len() as u64 == self.replays {
            self.deal = deal;
            self.deal_outcomes.clear();
            self.deal_diff = 0.0;
        }
        self.deal_outcomes.push(outcome);
        self.deal_diff += diff;
        if self.deal_outcomes.len() as u64 == self.replays {
            self.obs_diff.push(self.deal_diff / self.replays as f64);
            if self.pentanomial() {
                self.penta.add_pair(self.deal_outcomes[0], self.deal_outcomes[1]);
            }
            return true;
        }
        false
    }

    pub fn elo(&self) -> EloEstimate {
        if self.pentanomial() {
            self.penta.estimate()
        } else {
            self.tri.estimate()
        }
    }

    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if sprt.model == SprtModel::Payoff {
            sprt.llr_payoff(&self.obs_diff)
        } else if self.pentanomial() {
            sprt.llr_penta(&self.penta)
        } else {
            sprt.llr_tri(&self.tri)
        }
    }

    pub fn row(&self, names: &[String], sprt: Option<&Sprt>) -> MatchRow {
        let games_ci = self.game_diff.ci(0.95);
        let obs_ci = self.obs_diff.ci(0.95);
        // Variance of the mean difference, game by game versus observation by observation.
        let unpaired = games_ci.sd.powi(2) / games_ci.n.max(1) as f64;
        let paired = obs_ci.sd.powi(2) / obs_ci.n.max(1) as f64;
        MatchRow {
            bot_a: names[self.a].clone(),
            bot_b: names[self.b].clone(),
            games: self.tri.games(),
            pairs: self.obs_diff.n(),
            tri: self.tri,
            penta: self.penta,
            elo: self.elo(),
            payoff_diff: obs_ci,
            variance_ratio: if paired > 0.0 { unpaired / paired } else { f64::NAN },
            sprt: sprt.map(|s| {
                let llr = self.llr(s);
                SprtResult { sprt: *s, llr, decision: s.decision(llr) }
            }),
        }
    }
}

impl MatchRow {
    fn fields(&self) -> Vec<String> {
        let p = self.penta.0;
        let mut f = vec![
            self.bot_a.clone(),
            self.bot_b.clone(),
            self.games.to_string(),
            self.pairs.to_string(),
            self.tri.wins.to_string(),
            self.tri.draws.to_string(),
            self.tri.losses.to_string(),
        ];
        f.extend(p.iter().map(u64::to_string));
        f.extend(
            [
                self.elo.score,
                self.elo.elo,
                self.elo.elo_err,
                self.elo.nelo,
                self.elo.nelo_err,
                self.elo.los,
                self.payoff_diff.mean,
                self.payoff_diff.lo,
                self.payoff_diff.hi,
                self.variance_ratio,
            ]
            .map(num),
        );
        if let Some(s) = &self.sprt {
            let (lower, upper) = s.sprt.bounds();
            f.extend([num(s.sprt.h0), num(s.sprt.h1), num(s.sprt.alpha), num(s.sprt.beta)]);
            f.push(s.sprt.model.to_string());
            f.extend([num(s.llr), num(lower), num(upper)]);
            f.push(s.decision.to_string());
        }
        f
    }

    pub fn write_csv(rows: &[MatchRow], path: &Path) -> Result<()> {
        let err = |e: csv::Error| Error::io(path, std::io::Error::other(e.to_string()));
        let mut w = csv::Writer::from_path(path).map_err(err)?;
        let mut header: Vec<&str> = MATCH_COLUMNS.to_vec();
        if rows.iter().any(|r| r.sprt.is_some()) {
            header.extend(SPRT_COLUMNS);
        }
        w.write_record(&header).map_err(err)?;
        for row in rows {
            w.write_record(row.fields()).map_err(err)?;
        }
        w.flush().map_err(|e| Error::io(path, e))
    }

    /// Lines for the terminal.
    pub fn describe(&self) -> String {
        let e = &self.elo;
        let mut s = format!(
            "{} vs {}: {} games{}, +{} ={} -{}, score {:.1}%, Elo {:+.1} ± {:.1}, nElo {:+.1} ± {:.1}, LOS {:.1}%\n  payoff difference {:+.4} [{:+.4}, {:+.4}] per {}, pairing variance ratio {}\n",
            self.bot_a,
            self.bot_b,
            self.games,
            if self.penta.pairs() > 0 { format!(" ({} pairs, penta {:?})", self.pairs, self.penta.0) } else { String::new() },
            self.tri.wins,
            self.tri.draws,
            self.tri.losses,
            100.0 * e.score,
            e.elo,
            e.elo_err,
            e.nelo,
            e.nelo_err,
            100.0 * e.los,
            self.payoff_diff.mean,
            self.payoff_diff.lo,
            self.payoff_diff.hi,
            if self.pairs * 2 == self.games { "pair" } else if self.pairs == self.games { "game" } else { "deal" },
            if self.variance_ratio.is_nan() { "n/a (no variance)".to_string() } else { format!("{:.2}", self.variance_ratio) },
        );
        if let Some(r) = &self.sprt {
            let (lo, hi) = r.sprt.bounds();
            s.push_str(&format!(
                "  SPRT {} [{}, {}] α={} β={}: LLR {:.3} in ({:.3}, {:.3}): {}\n",
                r.sprt.model, r.sprt.h0, r.sprt.h1, r.sprt.alpha, r.sprt.beta, r.llr, lo, hi, r.decision
            ));
        }
        s
    }
}
