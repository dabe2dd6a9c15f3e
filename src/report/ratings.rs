//! ratings.csv and the terminal's rating list, for runs of three or more bots: every bot's
//! maximum-likelihood Elo rating and least-squares payoff rating (see [`crate::stats::ratings`]),
//! anchored, with 95% intervals over deals; ranked by the game's headline figure.

use std::path::Path;

use crate::core::Headline;
use crate::error::Result;
use crate::report::verdict;
use serde::Serialize;

use crate::report::export::{Csv, Exporter, Figure, Rows};
use crate::report::write_atomic;
use crate::stats::{Anchor, Rating, RatingList};

/// One bot of the list.
#[derive(Clone, Debug)]
pub struct RatingRow {
    /// 1 for the best.
    pub rank: usize,
    /// The bot's index in the run's list of bots.
    pub index: usize,
    /// The bot's name.
    pub bot: String,
    /// Games against the other bots, counted pairwise (one per opponent at the table), and the
    /// share of their points (a draw half), the results the Elo ratings are fitted to.
    pub games: u64,
    /// The share of points in those games (a draw half).
    pub score: f64,
    /// The Elo rating, relative to the anchor, with its 95% interval.
    pub elo: Rating,
    /// Expected payoff per game minus the anchor's, at the same tables.
    pub payoff: Rating,
    /// The same on the payoffs adjusted for luck, when the run adjusts them.
    pub adjusted: Option<Rating>,
}

/// The rating list of a run.
#[derive(Clone, Debug)]
pub struct RatingTable {
    /// The bots, best first.
    pub rows: Vec<RatingRow>,
    /// `mean` or the anchor bot's name.
    pub anchor: String,
    /// What the list leads with (Elo or payoff) and the payoffs' unit.
    pub headline: Headline,
    /// The independent observations behind the Elo ratings.
    pub deals: u64,
}

/// One row of ratings.csv as written: the columns are its fields, in order (the `--json`
/// documents hold the same rows).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RatingCsvRow {
    pub rank: usize,
    pub bot: String,
    pub games: u64,
    pub score: Figure,
    pub elo: Figure,
    pub elo_lo: Figure,
    pub elo_hi: Figure,
    #[serde(rename = "payoff_{unit}")]
    pub payoff: Figure,
    #[serde(rename = "payoff_lo_{unit}")]
    pub payoff_lo: Figure,
    #[serde(rename = "payoff_hi_{unit}")]
    pub payoff_hi: Figure,
    #[serde(flatten)]
    pub adjusted: Option<AdjustedRating>,
    pub anchor: String,
}

/// The adjusted payoff rating's columns of a ratings.csv row (a run that adjusts its payoffs).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdjustedRating {
    #[serde(rename = "adjusted_payoff_{unit}")]
    pub adjusted_payoff: Figure,
    #[serde(rename = "adjusted_payoff_lo_{unit}")]
    pub adjusted_payoff_lo: Figure,
    #[serde(rename = "adjusted_payoff_hi_{unit}")]
    pub adjusted_payoff_hi: Figure,
}

impl RatingTable {
    /// The list from the two fits; `record[bot]` is its (points, games) against the others.
    pub fn new(
        names: &[String],
        elo: &RatingList,
        payoff: &RatingList,
        record: &[(f64, u64)],
        headline: Headline,
    ) -> RatingTable {
        let lead = if headline.is_elo() { elo } else { payoff };
        let rows = lead
            .ranking()
            .into_iter()
            .enumerate()
            .map(|(rank, i)| RatingRow {
                rank: rank + 1,
                index: i,
                bot: names[i].clone(),
                games: record[i].1,
                score: if record[i].1 == 0 { f64::NAN } else { record[i].0 / record[i].1 as f64 },
                elo: elo.ratings[i],
                payoff: payoff.ratings[i],
                adjusted: None,
            })
            .collect();
        let anchor = match elo.anchor {
            Anchor::Mean => "mean".to_string(),
            Anchor::Bot(i) => names[i].clone(),
        };
        RatingTable { rows, anchor, headline, deals: elo.clusters }
    }

    /// The table of ratings.csv.
    /// Adds each bot's payoff rating on the adjusted payoffs (`list` in bot order).
    pub fn add_adjusted(&mut self, list: &RatingList) {
        for row in &mut self.rows {
            row.adjusted = list.ratings.get(row.index).copied();
        }
    }

    /// The table of ratings.csv, its payoff ratings in the verdict's unit.
    pub fn rows(&self) -> Rows {
        let unit = self.headline.unit;
        let f = |x: f64| Figure(unit.of(x));
        let rows: Vec<RatingCsvRow> = self
            .rows
            .iter()
            .map(|r| RatingCsvRow {
                rank: r.rank,
                bot: r.bot.clone(),
                games: r.games,
                score: Figure(r.score),
                elo: Figure(r.elo.value),
                elo_lo: Figure(r.elo.lo),
                elo_hi: Figure(r.elo.hi),
                payoff: f(r.payoff.value),
                payoff_lo: f(r.payoff.lo),
                payoff_hi: f(r.payoff.hi),
                adjusted: r.adjusted.map(|a| AdjustedRating {
                    adjusted_payoff: f(a.value),
                    adjusted_payoff_lo: f(a.lo),
                    adjusted_payoff_hi: f(a.hi),
                }),
                anchor: self.anchor.clone(),
            })
            .collect();
        Rows::of("ratings", &rows).in_unit(unit)
    }

    /// Writes the list as ratings.csv at `path`.
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        write_atomic(path, &Csv.serialize(&[self.rows()])?)
    }

    /// The list for the terminal, the game's headline figure first.
    pub fn describe(&self) -> String {
        let elo = |r: &Rating| interval(r, 1.0, 1);
        let unit = self.headline.unit;
        let decimals = verdict::decimals(self.rows.iter().map(|r| (unit.of(r.payoff.lo), unit.of(r.payoff.hi))));
        let (head, scale) = (unit.name, unit.scale);
        let payoff = |r: &Rating| interval(r, scale, decimals);
        let cells: Vec<[String; 2]> = self
            .rows
            .iter()
            .map(|r| {
                if self.headline.is_elo() {
                    [elo(&r.elo), payoff(&r.payoff)]
                } else {
                    [payoff(&r.payoff), elo(&r.elo)]
                }
            })
            .collect();
        let titles = if self.headline.is_elo() { ["Elo", head] } else { [head, "Elo on games won"] };
        let name = self.rows.iter().map(|r| r.bot.len()).max().unwrap_or(3).max(3);
        let width =
            |k: usize| cells.iter().map(|c| c[k].chars().count()).chain([titles[k].len() + 9]).max().unwrap_or(0);
        let (w0, w1) = (width(0), width(1));
        let anchor = if self.anchor == "mean" { "the mean".to_string() } else { self.anchor.clone() };
        let mut out = format!(
            "rating list (anchored at {anchor}; 95% intervals over {} deals; games counted per opponent)\n",
            self.deals
        );
        out.push_str(&format!(
            "rank  {:<name$}  {:>w0$}  {:>w1$}  {:>7}  {:>6}\n",
            "bot",
            format!("{} [95% CI]", titles[0]),
            format!("{} [95% CI]", titles[1]),
            "games",
            "score"
        ));
        for (r, c) in self.rows.iter().zip(&cells) {
            out.push_str(&format!(
                "{:>4}  {:<name$}  {:>w0$}  {:>w1$}  {:>7}  {:>5.1}%\n",
                r.rank,
                r.bot,
                c[0],
                c[1],
                r.games,
                100.0 * r.score
            ));
        }
        out
    }
}

/// `+12.3 [+1.0, +23.6]` with `decimals`, scaled; infinite ends as `inf`, unknown as `n/a`.
fn interval(r: &Rating, scale: f64, decimals: usize) -> String {
    let x = |v: f64| {
        if v.is_nan() {
            "n/a".to_string()
        } else if v.is_infinite() {
            if v > 0.0 { "+inf" } else { "-inf" }.to_string()
        } else {
            format!("{:+.decimals$}", scale * v)
        }
    };
    if r.value.is_nan() {
        return "not rated".to_string();
    }
    format!("{} [{}, {}]", x(r.value), x(r.lo), x(r.hi))
}
