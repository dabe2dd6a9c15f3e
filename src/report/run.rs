//! [`RunTally`]: everything a run's records feed, in game order (each bot's summary, each table's
//! pairs, the rating data), and the [`Verdicts`] it comes to.

use std::path::Path;

use crate::core::luck::Estimator;
use crate::core::schedule::Schedule;
use crate::core::{deal_of, GameRecord, Headline, Status};
use crate::error::Result;
use crate::report::{BotSummary, CiUnit, MatchRow, RatingTable, TableTally, Tally};
use crate::stats::{payoff_ratings, Anchor, Comparisons, Sprt, TableField};

/// Pairwise verdicts the terminal shows: a round robin of five bots heads-up (ten); larger fields
/// of N-seat tables have many more, and the rating list sums them up.
pub const MAX_VERDICTS_SHOWN: usize = 10;

pub struct RunTally {
    names: Vec<String>,
    bots: Vec<Tally>,
    tables: Vec<TableTally>,
    comparisons: Comparisons,
    replays: u64,
    unit: CiUnit,
    estimator: Estimator,
    /// The (pairing, deal) whose games the bots' tallies are collecting, and the bots in it.
    deal: Option<(usize, u64)>,
    in_deal: Vec<usize>,
    /// Games whose own code panicked ([`Status::Error`]): no result, counted for nobody.
    engine_errors: u64,
}

/// What a run comes to: summary.csv's rows, match.csv's rows and, with three or more bots, the
/// rating list.
#[derive(Clone, Debug)]
pub struct Verdicts {
    /// One summary a bot, in the run's bot order (summary.csv).
    pub bots: Vec<BotSummary>,
    /// One row for every two bots that shared a table (match.csv).
    pub matches: Vec<MatchRow>,
    /// The rating list, when three or more bots played (ratings.csv).
    pub ratings: Option<RatingTable>,
    /// What the verdicts lead with (Elo or payoff) and the payoffs' unit.
    pub headline: Headline,
}

impl RunTally {
    /// A tally for `schedule`'s games; `names[bot]` names the bots.
    pub fn new(schedule: &Schedule, names: Vec<String>) -> RunTally {
        RunTally::estimating(schedule, names, Estimator::Plain)
    }

    /// [`RunTally::new`] whose payoff verdicts lead with `estimator`'s payoffs (adjusted for
    /// luck when it adjusts: the records must then carry them).
    pub fn estimating(schedule: &Schedule, names: Vec<String>, estimator: Estimator) -> RunTally {
        let tables: Vec<TableTally> = schedule
            .pairings
            .iter()
            .enumerate()
            .map(|(i, p)| TableTally::new(i, &p.table, schedule.replays, estimator))
            .collect();
        let unit = CiUnit::of(schedule);
        RunTally {
            bots: vec![Tally::default(); names.len()],
            comparisons: Comparisons::new(names.len()),
            names,
            tables,
            replays: schedule.replays,
            unit,
            estimator,
            deal: None,
            in_deal: Vec::new(),
            engine_errors: 0,
        }
    }

    /// Adds game `game` of table `pairing`; `lineup[seat]` is the bot in each seat. Returns true
    /// when the game completed a deal of its table. A game with an engine error has no result
    /// and counts for nobody: it is only counted as such.
    pub fn add(&mut self, pairing: usize, game: u64, lineup: &[usize], record: &GameRecord) -> bool {
        if let Status::Error(_) = record.status {
            self.engine_errors += 1;
            return false;
        }
        let deal = Some((pairing, deal_of(game, self.replays)));
        if deal != self.deal {
            for &bot in &self.in_deal {
                self.bots[bot].end_deal();
            }
            self.in_deal.clear();
            self.deal = deal;
        }
        for &bot in lineup {
            if !self.in_deal.contains(&bot) {
                self.in_deal.push(bot);
            }
        }
        Tally::add_game(&mut self.bots, lineup, record);
        self.tables[pairing].add(game, lineup, record, &mut self.comparisons)
    }

    /// Games added that ended in an engine error.
    pub fn engine_errors(&self) -> u64 {
        self.engine_errors
    }

    /// The SPRT's log-likelihood ratio on table `pairing`'s two bots.
    pub fn llr(&self, pairing: usize, sprt: &Sprt) -> f64 {
        self.tables[pairing].llr(sprt)
    }

    /// The verdicts: rows for every bot and every two bots that met, and the rating list when
    /// three or more bots played.
    pub fn finish(mut self, sprt: Option<&Sprt>, anchor: Anchor, headline: Headline) -> Verdicts {
        self.bots.iter_mut().for_each(Tally::end_deal);
        for t in &mut self.tables {
            t.close_deal(&mut self.comparisons);
        }
        let names = &self.names;
        let bots = self.bots.iter().zip(names).map(|(t, n)| t.summary(n, self.unit, self.estimator)).collect();
        let matches = self.tables.iter().flat_map(|t| t.rows(names, sprt)).collect();
        let ratings = (names.len() >= 3).then(|| {
            let fields: Vec<TableField> = self
                .tables
                .iter()
                .map(|t| {
                    let (bots, field) = t.field();
                    TableField { bots, field }
                })
                .collect();
            let payoff = payoff_ratings(names.len(), &fields, anchor);
            // The payoff ratings again on the adjusted payoffs, when the run adjusts them.
            let adjusted: Option<Vec<TableField>> = self
                .tables
                .iter()
                .map(|t| t.adjusted_field().map(|(bots, field)| TableField { bots, field }))
                .collect();
            let adjusted = adjusted.map(|fields| payoff_ratings(names.len(), &fields, anchor));
            let elo = self.comparisons.elo(anchor);
            let record: Vec<(f64, u64)> = (0..names.len()).map(|b| self.comparisons.record(b)).collect();
            let mut table = RatingTable::new(names, &elo, &payoff, &record, headline);
            if let Some(list) = adjusted {
                table.add_adjusted(&list);
            }
            table
        });
        Verdicts { bots, matches, ratings, headline }
    }
}

impl Verdicts {
    /// The files [`Verdicts::write`] writes (summary.csv, match.csv, ratings.csv): named here
    /// alone, so the run folder's list of what `--force` may remove is made from the same names.
    pub const FILES: [&'static str; 3] = ["summary.csv", "match.csv", "ratings.csv"];

    /// The run's tables as summary.csv, match.csv and ratings.csv hold them (ratings only with
    /// three or more bots), for `--export`.
    pub fn tables(&self) -> Vec<crate::report::export::Rows> {
        let unit = self.headline.unit;
        let mut tables = vec![BotSummary::rows(&self.bots, unit), MatchRow::rows(&self.matches, self.headline)];
        tables.extend(self.ratings.as_ref().map(RatingTable::rows));
        tables
    }

    /// Writes summary.csv, and match.csv and ratings.csv when there are rows, into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let [summary, matches, ratings] = Verdicts::FILES;
        BotSummary::write_csv(&self.bots, self.headline.unit, &dir.join(summary))?;
        if !self.matches.is_empty() {
            MatchRow::write_csv(&self.matches, self.headline, &dir.join(matches))?;
        }
        if let Some(r) = &self.ratings {
            r.write_csv(&dir.join(ratings))?;
        }
        Ok(())
    }

    /// The terminal lines after the summary table: every pair's verdict (up to
    /// `MAX_VERDICTS_SHOWN`; more are in match.csv) and the rating list.
    pub fn describe(&self) -> String {
        let mut out: String = if self.matches.len() <= MAX_VERDICTS_SHOWN {
            self.matches.iter().map(|m| m.describe(self.headline)).collect()
        } else {
            format!("{} pairwise verdicts (every two bots at every table): see match.csv\n", self.matches.len())
        };
        if let Some(r) = &self.ratings {
            out.push_str(&r.describe());
        }
        out
    }
}
