//! One table's figures, deal by deal: for every two distinct bots at it, the win/draw/loss counts
//! and payoff differences behind a [`MatchRow`]; each bot's mean payoff per deal ([`FieldStats`])
//! for the rows and the payoff ratings; and each deal's pairwise scores for the Elo ratings.
//!
//! Wins, draws and losses compare seats: in every game, each seat of bot A with each seat of bot
//! B, by payoff (one comparison a game heads-up; pruned against three greedy seats, three). The
//! comparisons of one deal are correlated, so when a deal holds more than one, the Elo figures'
//! intervals are computed over deals (the comparisons' score as a [`ClusteredMean`]).
//!
//! Records arrive in game order, so the games of one deal (its seat rotations) are contiguous. A
//! deal cut short (an interrupted run) counts in the per-game figures and the Elo ratings (as a
//! smaller cluster), not in the deal-by-deal payoffs.

use crate::core::luck::Estimator;
use crate::core::schedule::Lineup;
use crate::core::{deal_of, GameRecord};
use crate::report::{AdjustedFigures, MatchRow, SprtResult};
use crate::stats::elo::from_moments;
use crate::stats::{
    ClusteredMean, Comparisons, EloEstimate, FieldStats, Outcome, PairScore, Pentanomial, Sprt, SprtModel, StartFit,
    TermFit, Trinomial, Welford,
};

/// Two distinct bots of a table, by their places in [`TableTally::bots`].
#[derive(Clone, Debug)]
struct PairTally {
    a: usize,
    b: usize,
    /// A's seats against B's, every comparison.
    tri: Trinomial,
    penta: Pentanomial,
    /// A's points per comparison, one cluster per deal.
    score: ClusteredMean,
    /// A's mean payoff minus B's, game by game (for the variance ratio).
    game_diff: Welford,
    /// This deal's comparisons for A.
    outcomes: Vec<Outcome>,
}

#[derive(Clone, Debug)]
pub struct TableTally {
    pairing: usize,
    /// The distinct bots at the table, in seat order of first appearance, and their seats.
    bots: Vec<usize>,
    copies: Vec<f64>,
    /// Games per deal.
    replays: u64,
    games: u64,
    pairs: Vec<PairTally>,
    field: FieldStats,
    /// The same deal by deal with the payoffs adjusted for luck, when the run adjusts them.
    adjusted: Option<Adjusting>,
    /// The deal being collected: its index, games so far and each bot's summed mean payoff.
    deal: u64,
    deal_games: u64,
    deal_payoff: Vec<f64>,
    /// The lineup of the last game and what it implies: each seat's bot (as its place in
    /// `bots`), and every comparison of a game (pair, seat of A, seat of B) in the order they are
    /// counted. A table's games come in a few seat rotations, so these are rarely worked out anew.
    lineup: Lineup,
    local: Vec<usize>,
    comparisons: Vec<(usize, usize, usize)>,
    /// Scratch: each bot's mean payoff in a game or deal, and the deal's pairwise scores.
    mean: Vec<f64>,
    scores: Vec<PairScore>,
}

/// A table's adjusted payoffs ([`Estimator::adjusts`]), deal by deal as the plain ones.
#[derive(Clone, Debug)]
struct Adjusting {
    estimator: Estimator,
    field: FieldStats,
    deal_payoff: Vec<f64>,
    mean: Vec<f64>,
    /// The regression on the starting strengths, when the estimator is `covariates`.
    fit: Option<StartFit>,
    /// The weights of the AIVAT terms fitted on the deals before, when the estimator is `aivat`.
    terms: Option<TermFit>,
}

impl TableTally {
    /// A tally of table `pairing` seating `table` (bot indexes by seat), `replays` games a deal.
    pub fn new(pairing: usize, table: &[usize], replays: u64, estimator: Estimator) -> TableTally {
        let mut bots: Vec<usize> = Vec::new();
        for &b in table {
            if !bots.contains(&b) {
                bots.push(b);
            }
        }
        let copies = bots.iter().map(|b| table.iter().filter(|&x| x == b).count() as f64).collect();
        let n = bots.len();
        let pairs = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| PairTally {
                a,
                b,
                tri: Trinomial::default(),
                penta: Pentanomial::default(),
                score: ClusteredMean::new(),
                game_diff: Welford::new(),
                outcomes: Vec::new(),
            })
            .collect();
        TableTally {
            pairing,
            bots,
            copies,
            replays,
            games: 0,
            pairs,
            field: FieldStats::new(n),
            adjusted: estimator.has_adjusted().then(|| Adjusting {
                estimator,
                field: FieldStats::new(n),
                deal_payoff: vec![0.0; n],
                mean: vec![0.0; n],
                fit: estimator.starts().then(|| StartFit::new(n, table.len())),
                terms: (estimator == Estimator::Aivat).then(|| TermFit::new(n)),
            }),
            deal: 0,
            deal_games: 0,
            deal_payoff: vec![0.0; n],
            lineup: Lineup::new(),
            local: Vec::new(),
            comparisons: Vec::new(),
            mean: vec![0.0; n],
            scores: Vec::new(),
        }
    }

    /// The distinct bots at the table and their deal-by-deal mean payoffs.
    pub fn field(&self) -> (&[usize], &FieldStats) {
        (&self.bots, &self.field)
    }

    /// The same with the payoffs adjusted for luck, when the run adjusts them.
    pub fn adjusted_field(&self) -> Option<(&[usize], &FieldStats)> {
        self.adjusted.as_ref().map(|adj| (&self.bots[..], &adj.field))
    }

    /// Adds game `game` of the table; a finished deal's pairwise scores go to `comparisons`.
    /// Returns true when the game completed a deal.
    pub fn add(&mut self, game: u64, lineup: &[usize], record: &GameRecord, comparisons: &mut Comparisons) -> bool {
        let deal = deal_of(game, self.replays);
        if self.deal_games > 0 && deal != self.deal {
            self.close_deal(comparisons);
        }
        self.deal = deal;
        if lineup != &self.lineup[..] {
            self.seat(lineup);
        }
        let mean = &mut self.mean;
        mean.iter_mut().for_each(|m| *m = 0.0);
        // x / 1.0 is x, bit for bit: a bot with one seat (most tables) skips the division.
        for (&k, result) in self.local.iter().zip(&record.seats) {
            mean[k] += if self.copies[k] == 1.0 { result.payoff } else { result.payoff / self.copies[k] };
        }
        for (sum, m) in self.deal_payoff.iter_mut().zip(mean.iter()) {
            *sum += m;
        }
        if let Some(adj) = &mut self.adjusted {
            adj.mean.iter_mut().for_each(|m| *m = 0.0);
            for (&k, result) in self.local.iter().zip(&record.seats) {
                adj.mean[k] += adj.estimator.payoff(result) / self.copies[k];
            }
            for (sum, m) in adj.deal_payoff.iter_mut().zip(&adj.mean) {
                *sum += m;
            }
            if let Some(fit) = &mut adj.fit {
                fit.see_seats(record.seats.iter().map(|s| s.start));
                for (&k, result) in self.local.iter().zip(&record.seats) {
                    fit.add_own(k, result.start.unwrap_or(0.0) / self.copies[k]);
                }
            }
            if let Some(terms) = &mut adj.terms {
                for (&k, result) in self.local.iter().zip(&record.seats) {
                    terms.add(k, &result.terms.0, 1.0 / self.copies[k]);
                }
            }
        }
        for p in &mut self.pairs {
            p.game_diff.push(mean[p.a] - mean[p.b]);
        }
        for &(pair, s, t) in &self.comparisons {
            let outcome = match record.seats[s].payoff.partial_cmp(&record.seats[t].payoff) {
                Some(std::cmp::Ordering::Greater) => Outcome::Win,
                Some(std::cmp::Ordering::Less) => Outcome::Loss,
                _ => Outcome::Draw,
            };
            let p = &mut self.pairs[pair];
            p.tri.add(outcome);
            p.outcomes.push(outcome);
        }
        self.games += 1;
        self.deal_games += 1;
        if self.deal_games < self.replays {
            return false;
        }
        for (m, &sum) in self.mean.iter_mut().zip(&self.deal_payoff) {
            *m = if self.replays == 1 { sum } else { sum / self.replays as f64 };
        }
        self.field.push(&self.mean);
        if let Some(adj) = &mut self.adjusted {
            for (m, &sum) in adj.mean.iter_mut().zip(&adj.deal_payoff) {
                *m = sum / self.replays as f64;
            }
            if let Some(fit) = &mut adj.fit {
                fit.adjust(&mut adj.mean, self.replays as f64);
            }
            if let Some(terms) = &mut adj.terms {
                terms.adjust(&mut adj.mean, self.replays as f64);
            }
            adj.field.push(&adj.mean);
        }
        if self.pentanomial() {
            for p in &mut self.pairs {
                p.penta.add_pair(p.outcomes[0], p.outcomes[1]);
            }
        }
        self.close_deal(comparisons);
        true
    }

    /// Works out what `lineup` implies (see [`TableTally::lineup`]).
    fn seat(&mut self, lineup: &[usize]) {
        self.lineup = lineup.into();
        self.local.clear();
        self.local.extend(lineup.iter().map(|b| self.bots.iter().position(|x| x == b).expect("a bot of the table")));
        self.comparisons.clear();
        let local = &self.local;
        for (pair, p) in self.pairs.iter().enumerate() {
            for s in (0..local.len()).filter(|&s| local[s] == p.a) {
                for t in (0..local.len()).filter(|&t| local[t] == p.b) {
                    self.comparisons.push((pair, s, t));
                }
            }
        }
    }

    /// Hands the deal being collected (complete or not) to `comparisons` and starts afresh.
    pub fn close_deal(&mut self, comparisons: &mut Comparisons) {
        if self.deal_games == 0 {
            return;
        }
        self.scores.clear();
        self.scores.extend(self.pairs.iter().map(|p| PairScore {
            a: self.bots[p.a],
            b: self.bots[p.b],
            half_points: p.outcomes.iter().map(|o| o.half_points() as u64).sum(),
            games: p.outcomes.len() as u64,
        }));
        for (p, s) in self.pairs.iter_mut().zip(&self.scores) {
            p.score.push(s.half_points as f64 / 2.0, s.games as f64);
        }
        comparisons.push_cluster(&self.scores);
        self.pairs.iter_mut().for_each(|p| p.outcomes.clear());
        self.deal_payoff.iter_mut().for_each(|s| *s = 0.0);
        if let Some(adj) = &mut self.adjusted {
            adj.deal_payoff.iter_mut().for_each(|s| *s = 0.0);
            if let Some(fit) = &mut adj.fit {
                fit.clear();
            }
            if let Some(terms) = &mut adj.terms {
                terms.clear();
            }
        }
        self.deal_games = 0;
    }

    /// Scores per pair: two seats, paired.
    fn pentanomial(&self) -> bool {
        self.replays == 2
    }

    /// A deal holds one comparison of A and B: unpaired heads-up games, each independent.
    fn independent(&self, p: &PairTally) -> bool {
        self.replays == 1 && self.copies[p.a] == 1.0 && self.copies[p.b] == 1.0
    }

    /// Elo, nElo and LOS of A against B: per pair (pentanomial), per game, or over deals.
    fn elo(&self, p: &PairTally) -> EloEstimate {
        if self.pentanomial() {
            p.penta.estimate()
        } else if self.independent(p) {
            p.tri.estimate()
        } else {
            // The comparisons' own spread sets nElo's scale; the deals' spread the intervals.
            let sd = p.tri.estimate().se * (p.tri.games() as f64).sqrt();
            let se = p.score.variance_of_mean().sqrt();
            from_moments(p.score.clusters(), p.tri.games(), p.score.mean(), se, sd)
        }
    }

    /// The SPRT's log-likelihood ratio on the table's first pair (a table of two distinct bots);
    /// NaN when the table has no pair.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let Some(p) = self.pairs.first() else { return f64::NAN };
        match sprt.model {
            SprtModel::Payoff => sprt.llr_payoff(&self.headline_field().difference(p.a, p.b)),
            _ if self.pentanomial() => sprt.llr_penta(&p.penta),
            _ => sprt.llr_tri(&p.tri),
        }
    }

    /// The deal-by-deal payoffs the verdict leads with: the adjusted ones when the run adjusts
    /// them.
    fn headline_field(&self) -> &FieldStats {
        self.adjusted.as_ref().map_or(&self.field, |adj| &adj.field)
    }

    /// One row per pair of distinct bots; `names[bot]` names them.
    pub fn rows(&self, names: &[String], sprt: Option<&Sprt>) -> Vec<MatchRow> {
        self.pairs
            .iter()
            .map(|p| {
                let diff = self.field.difference(p.a, p.b);
                let (by_game, by_deal) = (p.game_diff.ci(0.95), diff.ci(0.95));
                // Variance of the mean difference, game by game versus deal by deal.
                let unpaired = by_game.sd.powi(2) / by_game.n.max(1) as f64;
                let paired = by_deal.sd.powi(2) / by_deal.n.max(1) as f64;
                let mut row = MatchRow {
                    pairing: self.pairing,
                    bot_a: names[self.bots[p.a]].clone(),
                    bot_b: names[self.bots[p.b]].clone(),
                    games: self.games,
                    deals: self.field.deals(),
                    tri: p.tri,
                    penta: p.penta,
                    pentanomial: self.pentanomial(),
                    elo: self.elo(p),
                    payoff_a: self.field.bot(p.a).ci(0.95),
                    payoff_b: self.field.bot(p.b).ci(0.95),
                    diff,
                    payoff_diff: by_deal,
                    variance_ratio: if paired > 0.0 { unpaired / paired } else { f64::NAN },
                    adjusted: self.adjusted.as_ref().map(|adj| {
                        let diff = adj.field.difference(p.a, p.b);
                        let ci = diff.ci(0.95);
                        let adjusted = ci.sd.powi(2) / ci.n.max(1) as f64;
                        AdjustedFigures {
                            estimator: adj.estimator,
                            payoff_a: adj.field.bot(p.a).ci(0.95),
                            payoff_b: adj.field.bot(p.b).ci(0.95),
                            payoff_diff: ci,
                            diff,
                            variance_ratio: if adjusted > 0.0 { paired / adjusted } else { f64::NAN },
                        }
                    }),
                    sprt: None,
                };
                row.sprt = sprt.map(|s| {
                    let llr = row.llr(s);
                    SprtResult { sprt: *s, llr, decision: s.decision(llr) }
                });
                row
            })
            .collect()
    }
}
