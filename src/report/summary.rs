//! summary.csv: one row per bot over every seat it played, and the terminal table.
//!
//! The intervals are over independent observations: games when every game is one (unpaired, one
//! seat per bot), else deals (`ci_unit` = `deal`): a deal's seat rotations, and a bot's copies at
//! one table, are correlated, so a bot's payoff and wins in one deal count as one cluster
//! ([`ClusteredMean`]).

use std::path::Path;

use crate::core::schedule::Schedule;
use crate::core::{FaultKind, GameRecord, Status};
use crate::error::Result;
use serde::Serialize;

use crate::core::luck::Estimator;

use crate::core::Headline;
use crate::report::export::{Csv, Exporter, Figure, Rows};
use crate::report::verdict;
use crate::report::write_atomic;
use crate::stats::{wilson, ClusteredMean, MeanCi, StartFit, TermFit, Unit, Z95};

/// What summary.csv's intervals count as independent observations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CiUnit {
    /// Every game is an observation.
    Game,
    /// A deal (all its replays and seats) is one observation.
    Deal,
}

impl CiUnit {
    /// What `schedule`'s intervals count: games are independent observations only when no deal
    /// is replayed and no bot holds two seats at one table; otherwise a bot's games of one deal
    /// are one observation.
    pub fn of(schedule: &Schedule) -> CiUnit {
        let copies = schedule.pairings.iter().any(|p| (1..p.table.len()).any(|s| p.table[..s].contains(&p.table[s])));
        if schedule.replays > 1 || copies {
            CiUnit::Deal
        } else {
            CiUnit::Game
        }
    }

    /// The unit as summary.csv's `ci_unit` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            CiUnit::Game => "game",
            CiUnit::Deal => "deal",
        }
    }
}

/// One bot's running totals over every seat it played.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub forfeits: u64,
    /// Forfeits by kind, indexed as [`FaultKind::ALL`].
    pub faults: [u64; FaultKind::ALL.len()],
    /// Payoff and wins, one cluster per deal.
    payoff: ClusteredMean,
    won: ClusteredMean,
    /// The payoffs adjusted for luck (all-in, AIVAT; regressed on the starting strengths), when
    /// the records carry what they need.
    adjusted: [ClusteredMean; 3],
    fit: Option<StartFit>,
    /// The weights of the AIVAT terms fitted on the deals before (the `aivat` payoff).
    terms: Option<TermFit>,
    /// The deal being collected: payoff, wins and seat-games so far, and the adjusted payoffs.
    deal: [f64; 3],
    deal_adjusted: [f64; 2],
}

/// One row of summary.csv.
#[derive(Clone, Debug)]
pub struct BotSummary {
    /// The bot's name.
    pub bot: String,
    /// Games it played, every seat counted.
    pub games: u64,
    /// Games it won.
    pub wins: u64,
    /// Games it drew.
    pub draws: u64,
    /// Games it lost.
    pub losses: u64,
    /// Games it forfeited.
    pub forfeits: u64,
    /// Forfeits by kind, indexed as [`FaultKind::ALL`] (the terminal shows them; summary.csv
    /// has the total).
    pub faults: [u64; FaultKind::ALL.len()],
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// Wins over games.
    pub win_rate: f64,
    /// The win rate's 95% interval, lower end.
    pub win_rate_lo: f64,
    /// The win rate's 95% interval, upper end.
    pub win_rate_hi: f64,
    /// Mean payoff per game, with its 95% interval, in the game's payoff units.
    pub payoff: MeanCi,
    /// What the intervals count as one observation.
    pub ci_unit: CiUnit,
    /// What the payoff verdicts lead with, and its mean payoff when it adjusts for luck.
    pub estimator: Estimator,
    /// The mean payoff adjusted for luck, when the estimator adjusts.
    pub adjusted: Option<MeanCi>,
}

/// One row of summary.csv, as written: the columns are its fields, in order (the `--json`
/// documents hold the same rows).
#[derive(Clone, Debug, Default, Serialize)]
pub struct SummaryRow {
    pub bot: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub forfeits: u64,
    pub score: Figure,
    pub win_rate: Figure,
    pub win_rate_lo: Figure,
    pub win_rate_hi: Figure,
    #[serde(rename = "payoff_{unit}")]
    pub mean_payoff: Figure,
    #[serde(rename = "payoff_lo_{unit}")]
    pub payoff_lo: Figure,
    #[serde(rename = "payoff_hi_{unit}")]
    pub payoff_hi: Figure,
    pub ci_unit: &'static str,
    pub estimator: &'static str,
    #[serde(flatten)]
    pub adjusted: Option<AdjustedPayoff>,
}

/// The adjusted payoff columns of a summary.csv row (a run that adjusts its payoffs).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdjustedPayoff {
    #[serde(rename = "adjusted_payoff_{unit}")]
    pub adjusted_payoff: Figure,
    #[serde(rename = "adjusted_payoff_lo_{unit}")]
    pub adjusted_payoff_lo: Figure,
    #[serde(rename = "adjusted_payoff_hi_{unit}")]
    pub adjusted_payoff_hi: Figure,
}

impl Tally {
    /// Adds every seat of `record`; `lineup[seat]` is the bot index.
    ///
    /// A seat wins when it alone has place 1, draws when it shares place 1, and loses otherwise.
    pub fn add_game(tallies: &mut [Tally], lineup: &[usize], record: &GameRecord) {
        let firsts = record.seats.iter().filter(|s| s.place == 1).count();
        for (seat, result) in record.seats.iter().enumerate() {
            let t = &mut tallies[lineup[seat]];
            match (result.place, firsts) {
                (1, 1) => t.wins += 1,
                (1, _) => t.draws += 1,
                _ => t.losses += 1,
            }
            if let Status::Forfeit { seat: s, reason } = &record.status {
                if *s == seat {
                    t.forfeits += 1;
                    t.faults[reason.kind as usize] += 1;
                }
            }
            let won = f64::from(u8::from(result.place == 1 && firsts == 1));
            t.deal = [t.deal[0] + result.payoff, t.deal[1] + won, t.deal[2] + 1.0];
            if let Some(a) = result.adjusted {
                t.deal_adjusted[0] += a.allin;
                t.deal_adjusted[1] += a.aivat;
                t.terms.get_or_insert_with(|| TermFit::new(1)).add(0, &result.terms.0, 1.0);
            }
            if let Some(x) = result.start {
                let fit = t.fit.get_or_insert_with(|| StartFit::new(1, record.seats.len()));
                fit.see_seats(record.seats.iter().map(|s| s.start));
                fit.add_own(0, x);
            }
        }
    }

    /// Closes the deal being collected: its games are one observation of the bot.
    pub fn end_deal(&mut self) {
        let [payoff, won, games] = std::mem::take(&mut self.deal);
        let mut adjusted = std::mem::take(&mut self.deal_adjusted);
        if games > 0.0 {
            self.payoff.push(payoff, games);
            self.won.push(won, games);
            if let Some(terms) = &mut self.terms {
                // The AIVAT payoff with its terms weighed as fitted on the deals before.
                let mut mean = [adjusted[1] / games];
                terms.adjust(&mut mean, games);
                adjusted[1] = mean[0] * games;
            }
            for (mean, sum) in self.adjusted.iter_mut().zip(adjusted) {
                mean.push(sum, games);
            }
            if let Some(fit) = &mut self.fit {
                let mut mean = [payoff / games];
                fit.adjust(&mut mean, games);
                self.adjusted[2].push(mean[0] * games, games);
            }
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The row of summary.csv, with intervals over `unit` (deals must have been closed), led by
    /// `estimator`'s payoffs.
    pub fn summary(&self, bot: &str, unit: CiUnit, estimator: Estimator) -> BotSummary {
        let games = self.games();
        let n = games as f64;
        let rate = |x: u64| if games == 0 { f64::NAN } else { x as f64 / n };
        let w = match unit {
            CiUnit::Game => wilson(self.wins as f64, n, Z95),
            CiUnit::Deal => self.won.wilson(Z95),
        };
        BotSummary {
            bot: bot.to_string(),
            games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            forfeits: self.forfeits,
            faults: self.faults,
            score: rate(2 * self.wins + self.draws) / 2.0,
            win_rate: rate(self.wins),
            win_rate_lo: w.lo,
            win_rate_hi: w.hi,
            payoff: self.payoff.ci(0.95),
            ci_unit: unit,
            estimator,
            adjusted: match estimator {
                Estimator::AllIn => Some(self.adjusted[0].ci(0.95)),
                Estimator::Aivat => Some(self.adjusted[1].ci(0.95)),
                Estimator::Covariates => Some(self.adjusted[2].ci(0.95)),
                _ => None,
            },
        }
    }
}

impl BotSummary {
    /// The row as summary.csv holds it, its payoffs in `unit`.
    pub fn row(&self, unit: Unit) -> SummaryRow {
        let f = |x: f64| Figure(unit.of(x));
        SummaryRow {
            bot: self.bot.clone(),
            games: self.games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            forfeits: self.forfeits,
            score: Figure(self.score),
            win_rate: Figure(self.win_rate),
            win_rate_lo: Figure(self.win_rate_lo),
            win_rate_hi: Figure(self.win_rate_hi),
            mean_payoff: f(self.payoff.mean),
            payoff_lo: f(self.payoff.lo),
            payoff_hi: f(self.payoff.hi),
            ci_unit: self.ci_unit.as_str(),
            estimator: self.estimator.name(),
            adjusted: self.adjusted.map(|a| AdjustedPayoff {
                adjusted_payoff: f(a.mean),
                adjusted_payoff_lo: f(a.lo),
                adjusted_payoff_hi: f(a.hi),
            }),
        }
    }

    /// The table of summary.csv, its payoffs in `unit`.
    pub fn rows(rows: &[BotSummary], unit: Unit) -> Rows {
        Rows::of("summary", &rows.iter().map(|r| r.row(unit)).collect::<Vec<_>>()).in_unit(unit)
    }

    /// Writes `rows` as summary.csv at `path`, the payoffs in `unit`.
    pub fn write_csv(rows: &[BotSummary], unit: Unit, path: &Path) -> Result<()> {
        write_atomic(path, &Csv.serialize(&[BotSummary::rows(rows, unit)])?)
    }

    /// One line per bot that forfeited, by kind (as fastchess counts time losses and crashes):
    /// `forfeits: mine 3 (timeout 2, crash 1)`. Empty when nobody forfeited.
    pub fn forfeit_lines(rows: &[BotSummary]) -> String {
        let mut out = String::new();
        for r in rows.iter().filter(|r| r.forfeits > 0) {
            let kinds: Vec<String> = FaultKind::ALL
                .iter()
                .zip(r.faults)
                .filter(|&(_, n)| n > 0)
                .map(|(kind, n)| format!("{} {n}", kind.name()))
                .collect();
            out.push_str(&format!("forfeits: {} {} ({})\n", r.bot, r.forfeits, kinds.join(", ")));
        }
        out
    }

    /// The terminal table, its payoffs in the verdict's unit.
    pub fn table(rows: &[BotSummary], headline: Headline) -> String {
        let unit = headline.unit;
        let d = verdict::decimals(rows.iter().map(|r| (unit.of(r.payoff.lo), unit.of(r.payoff.hi))));
        let interval =
            |c: &MeanCi| format!("{:+.d$} [{:+.d$}, {:+.d$}]", unit.of(c.mean), unit.of(c.lo), unit.of(c.hi));
        let width = rows.iter().map(|r| r.bot.len()).max().unwrap_or(3).max(3);
        let cells: Vec<(String, String)> = rows
            .iter()
            .map(|r| {
                let rate =
                    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r.win_rate, 100.0 * r.win_rate_lo, 100.0 * r.win_rate_hi);
                (rate, interval(&r.payoff))
            })
            .collect();
        // Wide enough for every row, and at least as wide as always (so short tables look as before).
        let rate_w = cells.iter().map(|c| c.0.len()).chain([22]).max().unwrap_or(22);
        let payoff_w = cells.iter().map(|c| c.1.len()).chain([30]).max().unwrap_or(30);
        // A run that adjusts its payoffs shows the adjusted mean in a last column.
        let adjusted: Vec<String> = rows.iter().filter_map(|r| r.adjusted.as_ref().map(interval)).collect();
        let adjusted_head = rows.first().map(|r| format!("{} {unit} [95% CI]", r.estimator.name()));
        let adjusted_w = adjusted.iter().map(String::len).chain(adjusted_head.iter().map(String::len)).max();
        let last = |cell: &str| match adjusted_w {
            Some(w) if !adjusted.is_empty() => format!("  {cell:>w$}"),
            _ => String::new(),
        };
        let mut out = format!(
            "{:<width$}  {:>7}  {:>7} {:>6} {:>7}  {:>rate_w$}  {:>payoff_w$}{}\n",
            "bot",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate [95% CI]",
            format!("payoff {unit} [95% CI]"),
            last(adjusted_head.as_deref().unwrap_or_default())
        );
        for (i, (r, (rate, payoff))) in rows.iter().zip(&cells).enumerate() {
            out.push_str(&format!(
                "{:<width$}  {:>7}  {:>7} {:>6} {:>7}  {:>rate_w$}  {:>payoff_w$}{}\n",
                r.bot,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                rate,
                payoff,
                last(adjusted.get(i).map_or("", String::as_str))
            ));
        }
        out
    }
}
