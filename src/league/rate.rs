//! The league's table: every version of every bot of one game rated over all the games kept.
//!
//! - Elo from pairs: each game counts once for each pair of seats held by two different bots,
//!   the better place winning and an equal place a draw (as ratings.csv counts a run), rated by
//!   maximum likelihood with cluster-robust intervals (`stats::Comparisons`), a game a cluster.
//! - Anchors: the mean of the field at 0, or a named version at a given Elo; relative anchors
//!   (Ordo's `-r`) hold each version of a bot near the one before it with a normal prior.
//! - The payoff rating in the game's unit (`stats::payoff_ratings`), a table (a run's pairing) a
//!   field and a game a deal.
//! - For games of three or more seats, the Plackett–Luce rating of each game's whole finishing
//!   order (`stats::plackett_luce`), in Elo, beside the pairs' Elo.
//! - The crosstable, and whether the field is transitive: a cycle A beats B beats C beats A, each
//!   by a score whose 95% interval is above one half, is named.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::league::db::{sql, League};
use crate::stats::plackett_luce::{self, Order};
use crate::stats::{
    payoff_ratings, wilson, Anchor, Comparisons, FieldStats, PairScore, Prior, RatingList, TableField, Unit, Z95,
};

/// One version of one bot in the league.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Version {
    /// The bot's name.
    pub(crate) name: String,
    /// Its version label.
    pub(crate) version: String,
    /// When it first played (UTC): orders a bot's versions.
    pub(crate) first: String,
}

impl Version {
    /// `name@version`, as the table, the export and `--anchor` write it.
    pub(crate) fn label(&self) -> String {
        format!("{}@{}", self.name, self.version)
    }
}

/// How the table is anchored and whether versions are held together.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// `NAME[@VERSION]` and its Elo; `None`: the field's mean at 0.
    pub(crate) anchor: Option<(String, f64)>,
    /// The sd (Elo) of the prior between successive versions of a bot; `None`: no prior.
    pub(crate) relative_sd: Option<f64>,
}

/// The evidence of one game: every kept game, tallied.
pub(crate) struct Evidence {
    /// The versions, by name then first appearance.
    pub(crate) versions: Vec<Version>,
    /// Pair results for the Elo list.
    pub(crate) comparisons: Comparisons,
    /// `cross[a * n + b]`: a's points against b and their games.
    pub(crate) cross: Vec<(f64, u64)>,
    /// Each table's bots and deal-by-deal payoffs.
    tables: Vec<(Vec<usize>, FieldStats)>,
    /// Each game's finishing order, and the most seats a game had.
    orders: Vec<Order>,
    widest: usize,
    /// Games kept, and runs.
    pub(crate) games: u64,
    pub(crate) runs: u64,
}

/// The versions of `game`'s bots in the league, in table order (a bot's versions by first
/// appearance), with their ids.
pub(crate) fn versions(league: &League, game: &str) -> Result<Vec<(i64, Version)>> {
    let e = |e| sql(&league.path, e);
    let mut stmt = league
        .conn
        .prepare("SELECT id, name, version, first_started FROM bots WHERE game = ?1 ORDER BY name, first_started, id")
        .map_err(e)?;
    let rows = stmt
        .query_map([game], |r| Ok((r.get(0)?, Version { name: r.get(1)?, version: r.get(2)?, first: r.get(3)? })))
        .map_err(e)?;
    rows.collect::<rusqlite::Result<_>>().map_err(e)
}

/// The games the league holds, by game.
pub(crate) fn games_held(league: &League) -> Result<Vec<String>> {
    let e = |e| sql(&league.path, e);
    let mut stmt = league.conn.prepare("SELECT DISTINCT game FROM runs ORDER BY game").map_err(e)?;
    let rows = stmt.query_map([], |r| r.get(0)).map_err(e)?;
    rows.collect::<rusqlite::Result<_>>().map_err(e)
}

/// Calls `f` with each kept game of `game` in (run, pairing, game) order: its run, pairing, and
/// each seat's (version index, payoff, place).
pub(crate) fn each_game(
    league: &League,
    game: &str,
    index: &BTreeMap<i64, usize>,
    mut f: impl FnMut(i64, i64, &[(usize, f64, i64)]),
) -> Result<()> {
    let e = |e| sql(&league.path, e);
    let mut stmt = league
        .conn
        .prepare(
            "SELECT r.run, r.pairing, r.game, r.bot, r.payoff, r.place FROM results r JOIN runs ON runs.id = r.run
             WHERE runs.game = ?1 ORDER BY r.run, r.pairing, r.game, r.seat",
        )
        .map_err(e)?;
    let mut rows = stmt.query([game]).map_err(e)?;
    let mut seats: Vec<(usize, f64, i64)> = Vec::new();
    let mut at: Option<(i64, i64, i64)> = None;
    while let Some(row) = rows.next().map_err(e)? {
        let key: (i64, i64, i64) = (row.get(0).map_err(e)?, row.get(1).map_err(e)?, row.get(2).map_err(e)?);
        if at.is_some_and(|k| k != key) {
            let (run, pairing, _) = at.expect("a game under way");
            f(run, pairing, &seats);
            seats.clear();
        }
        at = Some(key);
        let bot: i64 = row.get(3).map_err(e)?;
        seats.push((index[&bot], row.get(4).map_err(e)?, row.get(5).map_err(e)?));
    }
    if let Some((run, pairing, _)) = at {
        f(run, pairing, &seats);
    }
    Ok(())
}

impl Evidence {
    /// Tallies every game of `game` in the league.
    pub(crate) fn read(league: &League, game: &str) -> Result<Evidence> {
        let listed = versions(league, game)?;
        if listed.is_empty() {
            let held = games_held(league)?;
            return Err(Error::input(format!(
                "{}: the league holds no {game} games (it holds: {})",
                league.path.display(),
                if held.is_empty() { "none".to_string() } else { held.join(", ") }
            )));
        }
        let index: BTreeMap<i64, usize> = listed.iter().enumerate().map(|(k, (id, _))| (*id, k)).collect();
        let n = listed.len();
        let mut ev = Evidence {
            versions: listed.into_iter().map(|(_, v)| v).collect(),
            comparisons: Comparisons::new(n),
            cross: vec![(0.0, 0); n * n],
            tables: Vec::new(),
            orders: Vec::new(),
            widest: 0,
            games: 0,
            runs: 0,
        };
        let mut table_at: Option<(i64, i64)> = None;
        let mut scores: Vec<PairScore> = Vec::new();
        let mut deal: Vec<f64> = Vec::new();
        each_game(league, game, &index, |run, pairing, seats| {
            ev.games += 1;
            ev.orders.push(seats.iter().map(|s| (s.0, s.2.clamp(0, i64::from(u32::MAX)) as u32)).collect());
            ev.widest = ev.widest.max(seats.len());
            if table_at.is_none_or(|(r, _)| r != run) {
                ev.runs += 1;
            }
            if table_at != Some((run, pairing)) {
                let mut bots: Vec<usize> = seats.iter().map(|s| s.0).collect();
                bots.sort_unstable();
                bots.dedup();
                let stats = FieldStats::new(bots.len());
                ev.tables.push((bots, stats));
                table_at = Some((run, pairing));
            }
            scores.clear();
            for (x, a) in seats.iter().enumerate() {
                for b in &seats[x + 1..] {
                    if a.0 == b.0 {
                        continue;
                    }
                    let half = match a.2.cmp(&b.2) {
                        std::cmp::Ordering::Less => 2,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Greater => 0,
                    };
                    scores.push(PairScore { a: a.0, b: b.0, half_points: half, games: 1 });
                    let cell = &mut ev.cross[a.0 * n + b.0];
                    (cell.0, cell.1) = (cell.0 + half as f64 / 2.0, cell.1 + 1);
                    let cell = &mut ev.cross[b.0 * n + a.0];
                    (cell.0, cell.1) = (cell.0 + (2 - half) as f64 / 2.0, cell.1 + 1);
                }
            }
            ev.comparisons.push_cluster(&scores);
            let (bots, stats) = ev.tables.last_mut().expect("a table");
            deal.clear();
            deal.extend(bots.iter().map(|&b| {
                let own: Vec<f64> = seats.iter().filter(|s| s.0 == b).map(|s| s.1).collect();
                if own.is_empty() {
                    0.0
                } else {
                    own.iter().sum::<f64>() / own.len() as f64
                }
            }));
            // A table whose set of bots changed within a pairing does not happen in a run; its
            // games would be left out of the payoff rating rather than misplaced.
            if seats.iter().all(|s| bots.contains(&s.0)) && bots.iter().all(|b| seats.iter().any(|s| s.0 == *b)) {
                stats.push(&deal);
            }
        })?;
        Ok(ev)
    }

    /// The version `NAME@VERSION` or `NAME` (its latest version) names.
    pub(crate) fn find(&self, wanted: &str) -> Result<usize> {
        let (name, version) = wanted.split_once('@').map_or((wanted, None), |(n, v)| (n, Some(v)));
        let found = self.versions.iter().rposition(|v| v.name == name && version.is_none_or(|w| v.version == w));
        found.ok_or_else(|| {
            let known: Vec<String> = self.versions.iter().map(Version::label).collect();
            Error::input(format!("no bot `{wanted}` in the league's table (known: {})", known.join(", ")))
        })
    }

    /// The priors between successive versions of each bot.
    fn priors(&self, sd: f64) -> Vec<Prior> {
        (1..self.versions.len())
            .filter(|&k| self.versions[k].name == self.versions[k - 1].name)
            .map(|k| Prior { a: k - 1, b: k, sd })
            .collect()
    }

    /// The table's ratings.
    pub(crate) fn rate(&self, options: &Options) -> Result<Table> {
        let (anchor, level) = match &options.anchor {
            Some((who, elo)) => (Anchor::Bot(self.find(who)?), *elo),
            None => (Anchor::Mean, 0.0),
        };
        let priors = options.relative_sd.map(|sd| self.priors(sd)).unwrap_or_default();
        let elo = self.comparisons.elo_with(anchor, &priors);
        let fields: Vec<TableField> = self.tables.iter().map(|(bots, field)| TableField { bots, field }).collect();
        let payoff = payoff_ratings(self.versions.len(), &fields, anchor);
        // Pairs count a field's game many times over; a field's ratings take its order whole.
        let field = (self.widest >= 3).then(|| plackett_luce::fit(self.versions.len(), &self.orders, anchor));
        Ok(Table {
            elo,
            level,
            payoff,
            field,
            cycle: cycle(&self.cross, self.versions.len()),
            anchor: options.anchor.clone(),
            relative_sd: options.relative_sd,
        })
    }

    /// a's score against b; `None` without games.
    pub(crate) fn beats(&self, a: usize, b: usize) -> Option<f64> {
        let (points, games) = self.cross[a * self.versions.len() + b];
        (games > 0).then(|| points / games as f64)
    }
}

/// In a crosstable of `n` versions (`cross[a * n + b]`: a's points against b and their games), a
/// cycle of three each of which beats the next by a score whose 95% Wilson interval is above one
/// half: the first in version order.
pub(crate) fn cycle(cross: &[(f64, u64)], n: usize) -> Option<[usize; 3]> {
    let clearly = |a: usize, b: usize| {
        let (points, games) = cross[a * n + b];
        games > 0 && wilson(points, games as f64, Z95).lo > 0.5
    };
    for a in 0..n {
        for b in (a + 1..n).filter(|&b| clearly(a, b)) {
            for c in (a + 1..n).filter(|&c| c != b) {
                if clearly(b, c) && clearly(c, a) {
                    return Some([a, b, c]);
                }
            }
        }
    }
    None
}

/// α-Rank's selection strength and population (Omidshafiei et al., 2019), on scores in [0, 1].
pub(crate) const ALPHA: f64 = 20.0;
pub(crate) const POPULATION: f64 = 50.0;

/// α-Rank of a crosstable: each version's share of the stationary distribution of a population
/// that drifts from version to version, a mutant σ→τ taking over with the fixation probability
/// ρ = (1 − e^(−α·Δ)) / (1 − e^(−m·α·Δ)), Δ = τ's score against σ minus σ's against τ (a pair
/// that never met is neutral, Δ = 0, ρ = 1/m). In a transitive field the mass goes to the top;
/// in a cycle it is shared by the versions of the cycle, which one list cannot say.
pub(crate) fn alpha_rank(cross: &[(f64, u64)], n: usize) -> Vec<f64> {
    if n < 2 {
        return vec![1.0; n];
    }
    let score = |a: usize, b: usize| {
        let (points, games) = cross[a * n + b];
        if games == 0 {
            0.5
        } else {
            points / games as f64
        }
    };
    let rho = |from: usize, to: usize| {
        let delta = score(to, from) - score(from, to);
        if delta.abs() < 1e-12 {
            1.0 / POPULATION
        } else {
            (-(-ALPHA * delta).exp_m1()) / (-(-POPULATION * ALPHA * delta).exp_m1())
        }
    };
    let eta = 1.0 / (n - 1) as f64;
    let mut move_to = vec![0.0; n * n];
    for from in 0..n {
        let mut stay = 1.0;
        for to in (0..n).filter(|&to| to != from) {
            move_to[from * n + to] = eta * rho(from, to);
            stay -= move_to[from * n + to];
        }
        move_to[from * n + from] = stay;
    }
    // The stationary distribution by power iteration (the chain is irreducible: ρ > 0).
    let mut pi = vec![1.0 / n as f64; n];
    for _ in 0..100_000 {
        let next: Vec<f64> = (0..n).map(|to| (0..n).map(|from| pi[from] * move_to[from * n + to]).sum()).collect();
        let moved = next.iter().zip(&pi).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        pi = next;
        if moved < 1e-15 {
            break;
        }
    }
    let total: f64 = pi.iter().sum();
    pi.iter().map(|p| p / total).collect()
}

/// The rated table.
pub(crate) struct Table {
    /// Elo ratings (before `level` is added).
    pub(crate) elo: RatingList,
    /// The anchor's Elo.
    pub(crate) level: f64,
    /// Payoff ratings per game.
    pub(crate) payoff: RatingList,
    /// For fields of three or more seats: the Plackett–Luce ratings in Elo (before `level`).
    pub(crate) field: Option<RatingList>,
    /// A cycle in the crosstable.
    pub(crate) cycle: Option<[usize; 3]>,
    anchor: Option<(String, f64)>,
    relative_sd: Option<f64>,
}

impl Table {
    /// Version `k`'s Elo and interval, anchored.
    pub(crate) fn elo_of(&self, k: usize) -> (f64, f64, f64) {
        let r = self.elo.ratings[k];
        (r.value + self.level, r.lo + self.level, r.hi + self.level)
    }

    /// The versions from the highest Elo down.
    pub(crate) fn ranking(&self) -> Vec<usize> {
        self.elo.ranking()
    }

    /// The table's first line: the game and how much evidence it holds.
    pub(crate) fn summary(&self, ev: &Evidence, game: &str) -> String {
        let bots = ev.versions.iter().map(|v| &v.name).collect::<std::collections::BTreeSet<_>>().len();
        format!(
            "league table for {game}: {bots} bots in {} versions, {} runs, {} games",
            ev.versions.len(),
            ev.runs,
            ev.games
        )
    }

    /// How the figures were rated and anchored, in a sentence.
    pub(crate) fn method(&self, unit: Unit) -> String {
        let anchor = match &self.anchor {
            Some((who, elo)) => format!("{who} at {elo:+.1} Elo"),
            None => "the mean at 0 Elo".to_string(),
        };
        let relative = match self.relative_sd {
            Some(sd) => format!("; successive versions of a bot held together by a prior of sd {sd} Elo"),
            None => String::new(),
        };
        let field = match self.field {
            Some(_) => format!(
                "; {} Elo on each game's whole finishing order (places by payoff, ties shared), anchored alike",
                plackett_luce::NAME
            ),
            None => String::new(),
        };
        format!(
            "Elo on games won (each pair of seats, a draw half) anchored at {anchor}{relative}{field}; payoff in {unit} against the {}; 95% intervals",
            if self.anchor.is_some() { "anchor" } else { "field's mean" }
        )
    }

    /// The table's rows, from the highest Elo down, their figures written as the terminal and
    /// the page both show them.
    pub(crate) fn rows(&self, ev: &Evidence, unit: Unit) -> Vec<Row> {
        let ranking = self.ranking();
        ranking
            .into_iter()
            .enumerate()
            .map(|(rank, k)| {
                let (elo, lo, hi) = self.elo_of(k);
                let p = self.payoff.ratings[k];
                let (points, games) = ev.comparisons.record(k);
                let field = self.field.as_ref().map(|list| {
                    let (r, l) = (list.ratings[k], self.level);
                    estimate(r.value + l, r.lo + l, r.hi + l, 1)
                });
                Row {
                    rank: rank + 1,
                    label: ev.versions[k].label(),
                    elo: estimate(elo, lo, hi, 1),
                    payoff: estimate(unit.of(p.value), unit.of(p.lo), unit.of(p.hi), 2),
                    field,
                    pairs: games,
                    score: if games == 0 { "-".to_string() } else { format!("{:.1}%", 100.0 * points / games as f64) },
                }
            })
            .collect()
    }

    /// Each version against the one before it, in the figure the game's verdicts lead with: the
    /// regression (or progress) in a sentence.
    pub(crate) fn steps(&self, ev: &Evidence, unit: Unit, elo_leads: bool) -> Vec<String> {
        let (list, scale, what) = if elo_leads {
            (&self.elo, 1.0, "Elo".to_string())
        } else {
            (&self.payoff, unit.of(1.0), unit.to_string())
        };
        (1..ev.versions.len())
            .filter(|&k| ev.versions[k].name == ev.versions[k - 1].name)
            .map(|k| {
                let d = list.difference(k, k - 1);
                let value = list.ratings[k].value - list.ratings[k - 1].value;
                let verdict = if d.hi < 0.0 {
                    "weaker: a regression"
                } else if d.lo > 0.0 {
                    "stronger"
                } else {
                    "not told apart by the games so far"
                };
                format!(
                    "{} against {}: {} {what} [{}, {}], {verdict}",
                    ev.versions[k].label(),
                    ev.versions[k - 1].label(),
                    num(scale * value, 2),
                    num(scale * d.lo, 2),
                    num(scale * d.hi, 2)
                )
            })
            .collect()
    }

    /// Whether the field is transitive, in a sentence; when it is not, the cycle found and the
    /// field's α-Rank (each version and its share, the largest first) after it.
    pub(crate) fn transitivity(&self, ev: &Evidence) -> (String, Option<Vec<(usize, f64)>>) {
        match self.cycle {
            Some([a, b, c]) => {
                let s = |x: usize, y: usize| ev.beats(x, y).map_or(0.0, |b| 100.0 * b);
                let l = |x: usize| ev.versions[x].label();
                let mass = alpha_rank(&ev.cross, ev.versions.len());
                let mut order: Vec<usize> = (0..mass.len()).collect();
                order.sort_by(|&x, &y| mass[y].total_cmp(&mass[x]).then(x.cmp(&y)));
                let said = format!(
                    "not transitive: {} beats {} ({:.1}%), {} beats {} ({:.1}%), {} beats {} ({:.1}%), each score's 95% interval above 50%: no one list orders this field",
                    l(a), l(b), s(a, b), l(b), l(c), s(b, c), l(c), l(a), s(c, a)
                );
                (said, Some(order.into_iter().map(|k| (k, mass[k])).collect()))
            }
            None => ("transitive as far as the games tell: no three versions beat each other in a circle (by scores whose 95% intervals are above 50%)".to_string(), None),
        }
    }

    /// The table as the terminal shows it.
    pub(crate) fn text(&self, ev: &Evidence, game: &str, unit: Unit, elo_leads: bool) -> String {
        let mut out = format!("{}\n{}\n", self.summary(ev, game), self.method(unit));
        let width = ev.versions.iter().map(|v| v.label().len()).max().unwrap_or(3).max(3);
        // The field's column, when there is one, after the pairs' Elo.
        let field_head = self.field.as_ref().map(|_| format!("  {:>28}", format!("{} [95% CI]", plackett_luce::NAME)));
        out.push_str(&format!(
            "rank  {:<width$}  {:>28}{}  {:>30}  {:>9}  {:>6}\n",
            "bot",
            "Elo [95% CI]",
            field_head.unwrap_or_default(),
            format!("{unit} [95% CI]"),
            "pairs",
            "score"
        ));
        for row in self.rows(ev, unit) {
            let field = row.field.map(|f| format!("  {f:>28}")).unwrap_or_default();
            out.push_str(&format!(
                "{:>4}  {:<width$}  {:>28}{field}  {:>30}  {:>9}  {:>6}\n",
                row.rank, row.label, row.elo, row.payoff, row.pairs, row.score
            ));
        }
        for step in self.steps(ev, unit, elo_leads) {
            out.push_str(&step);
            out.push('\n');
        }
        let (said, shares) = self.transitivity(ev);
        out.push_str(&said);
        out.push('\n');
        if let Some(shares) = shares {
            let ranked: Vec<String> =
                shares.iter().map(|&(k, m)| format!("{} {:.1}%", ev.versions[k].label(), 100.0 * m)).collect();
            out.push_str(&format!(
                "α-Rank (α {ALPHA}, population {POPULATION}), each version's share of the long run: {}\n",
                ranked.join(", ")
            ));
        }
        out
    }
}

/// One row of the table.
pub(crate) struct Row {
    pub(crate) rank: usize,
    pub(crate) label: String,
    /// Elo and its 95% interval.
    pub(crate) elo: String,
    /// The payoff rating in the game's unit and its interval.
    pub(crate) payoff: String,
    /// The field's rating (Plackett–Luce, Elo) and its interval, for fields of three or more.
    pub(crate) field: Option<String>,
    /// Pairs of seats played against other versions, and the share of their points won.
    pub(crate) pairs: u64,
    pub(crate) score: String,
}

/// A signed number with `places` decimals; ±inf and `-` for NaN.
/// A figure with its 95% interval, as the table writes it: `+12.3 [+1.0, +23.6]`.
fn estimate(value: f64, lo: f64, hi: f64, places: usize) -> String {
    format!("{} [{}, {}]", num(value, places), num(lo, places), num(hi, places))
}

fn num(x: f64, places: usize) -> String {
    if x.is_nan() {
        "-".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.places$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crosstable from scores: `scores[a][b]` is a's share against b over 200 games.
    fn cross(scores: &[&[f64]]) -> Vec<(f64, u64)> {
        scores
            .iter()
            .flat_map(|row| row.iter().map(|&s| (200.0 * s, if s < 0.0 { 0 } else { 200 })))
            .map(|(p, g)| (p.max(0.0), g))
            .collect()
    }

    /// Rock, paper, scissors is a cycle and α-Rank shares the long run equally; a transitive field
    /// has no cycle and α-Rank puts nearly all of it on the strongest.
    #[test]
    fn a_cycle_is_named_and_alpha_rank_shares_it() {
        let rps = cross(&[&[-1.0, 0.2, 0.8], &[0.8, -1.0, 0.2], &[0.2, 0.8, -1.0]]);
        assert_eq!(cycle(&rps, 3), Some([0, 2, 1]));
        let mass = alpha_rank(&rps, 3);
        assert!(mass.iter().all(|m| (m - 1.0 / 3.0).abs() < 1e-9), "{mass:?}");

        let ladder = cross(&[&[-1.0, 0.7, 0.8], &[0.3, -1.0, 0.7], &[0.2, 0.3, -1.0]]);
        assert_eq!(cycle(&ladder, 3), None);
        let mass = alpha_rank(&ladder, 3);
        assert!(mass[0] > 0.99 && mass[1] > mass[2], "{mass:?}");

        // A cycle whose legs the games do not establish (55% of 200 games) is not claimed.
        let faint = cross(&[&[-1.0, 0.45, 0.55], &[0.55, -1.0, 0.45], &[0.45, 0.55, -1.0]]);
        assert_eq!(cycle(&faint, 3), None);
    }
}
