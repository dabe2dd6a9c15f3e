//! A gate file (`arena gate GATE.toml`), loaded and judged: named expectations about bot strength, each a match (a run config with
//! its games and seed pinned in the gate file, so CI is never flaky) and criteria. Everything is
//! loaded and checked before any game is played; each expectation's run is an ordinary run
//! ([`crate::tournament::run::execute`]), judged from its summary and match rows.
//!
//! ```toml
//! [[expect]]
//! name = "weights beats random"
//! config = "gate/gomoku-weights-random.toml"   # relative to the gate file
//! games = 200                                  # pins the config's games and seed
//! seed = 11
//! bot = "weights"                              # the bot judged (default: the config's first)
//! win_rate_lo = 0.95        # its Wilson 95% lower bound of the win rate is at least this
//! payoff_lo = "0 points/game"   # its mean payoff's 95% lower bound is at least this, written in
//!                           # the game's verdict unit (hold'em cash "bb/100", stud and zhajinhua
//!                           # "chips/hand", mahjong "points/hand", gomoku "points/game")
//! elo_lo = 100.0            # the lower end of its Elo 95% interval against the other bot (two bots)
//! payoff_diff_lo = "0 points/game"  # the lower end of its payoff minus the other bot's (two bots;
//!                           # at a table with copies, the bots' pooled payoffs), 95% over deals
//! sprt = { elo0 = 0, elo1 = 50, model = "logistic" }   # the SPRT accepts H1 (two bots); the
//!                           # run stops when it decides, and the other criteria see those games;
//!                           # payoff0/payoff1 instead of elo0/elo1: the payoff test, its
//!                           # bounds in the unit of the game's verdict (hold'em cash: bb/100)
//! baseline = "../results/baselines/gomoku.csv"  # a stored summary.csv: the bot's score is at
//! tolerance = 0.02                              # least the baseline's minus this
//! league = "../league.db"   # the run is added to this league (`arena league`), the judged bot
//! version = "v7"            # as this version (default: the tool's commit and its parameters'
//!                           # hash), and
//! within_best = "30 Elo"    # its rating is at most this below the league's best version's:
//!                           # "N Elo" on games won, or a payoff in the game's verdict unit
//! lbr_hi = "2000 mbb/hand"  # the judged bot is local best response (hold'em's `lbr` kind, a
//!                           # config of `lbr` against the bot measured, as `arena exploit`
//!                           # writes): fails when its winnings' 95% interval lies above this
//!                           # (also `exploitability_hi`, the same criterion)

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::{Overrides, RunConfig, SprtFile};
use crate::core::luck::Estimator;
use crate::core::{Headline, Unit};
use crate::error::one_line;
use crate::error::{Error, Result};
use crate::league::import;
use crate::league::rate::{Evidence, Options};
use crate::league::League;
use crate::registry::Arena;
use crate::report::export::Figure;
use crate::report::history::{HistoryRow, Outcome};
use crate::report::verdict;
use crate::report::{BotSummary, MatchRow};
use crate::stats::parse_quantity;
use crate::stats::sprt::SprtPlace;
use crate::stats::{Interval, SprtDecision};
use crate::tournament::folder::{self, FolderLock};
use crate::tournament::run::execute;
use crate::tournament::runner::RunOptions;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateFile {
    expect: Vec<Expectation>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    pub name: String,
    config: PathBuf,
    games: Option<i64>,
    seed: Option<u64>,
    bot: Option<String>,
    win_rate_lo: Option<f64>,
    payoff_lo: Option<Spanned<toml::Value>>,
    elo_lo: Option<f64>,
    payoff_diff_lo: Option<Spanned<toml::Value>>,
    /// The most local best response may be shown to win, in mbb/hand (`exploitability_hi` too).
    #[serde(alias = "exploitability_hi")]
    lbr_hi: Option<Spanned<toml::Value>>,
    sprt: Option<Spanned<SprtFile>>,
    /// How the payoff figures are estimated (overrides the config's `estimator`): `payoff_diff_lo`
    /// and a payoff `sprt` then judge the adjusted payoff.
    estimator: Option<Estimator>,
    baseline: Option<PathBuf>,
    #[serde(default)]
    tolerance: f64,
    /// The league the run is added to (relative to the gate file), for `within_best`.
    league: Option<PathBuf>,
    /// The judged bot's version label in the league.
    version: Option<String>,
    within_best: Option<Spanned<toml::Value>>,
    /// `within_best` read: the gap allowed, and whether in Elo (else the payoff's unit).
    #[serde(skip)]
    within: Option<(f64, bool)>,
    /// `payoff_lo` and `payoff_diff_lo` read in the game's verdict unit ([`load`]).
    #[serde(skip)]
    payoff_bounds: PayoffBounds,
    /// What the game's verdicts are given in (its unit, what a game is called).
    #[serde(skip)]
    headline: Option<Headline>,
}

/// A gate's payoff bounds, in the unit of the game's verdict.
#[derive(Debug, Default)]
struct PayoffBounds {
    lo: Option<f64>,
    diff_lo: Option<f64>,
    /// `lbr_hi`, in mbb/hand.
    lbr_hi: Option<f64>,
}

/// What local best response's winnings are written in: thousandths of a big blind a hand.
pub const MBB: Unit = Unit::new("mbb/hand", 1000.0);

/// `lbr_hi` as the gate file writes it: a number with its unit, `"500 mbb/hand"`.
fn lbr_bound(value: &Spanned<toml::Value>) -> std::result::Result<f64, String> {
    match value.get_ref() {
        toml::Value::String(text) => parse_quantity(text, MBB).map_err(|why| format!("lbr_hi: {why}")),
        other => Err(format!("lbr_hi must be a number with its unit, such as \"500 {MBB}\", not {other}")),
    }
}

/// A payoff bound as the gate file writes it, in `unit`: a number with its unit (`"50 bb/100"`).
/// A bare number is refused at its line: until payoffs had one unit everywhere, a gate's payoff
/// bounds were in payoff per game while the terminal showed bb/100, so a bare number may be either;
/// the message says what it meant then, converted.
fn payoff_bound(key: &str, value: &Spanned<toml::Value>, unit: Unit) -> std::result::Result<f64, String> {
    match value.get_ref() {
        toml::Value::String(text) => parse_quantity(text, unit).map_err(|why| format!("{key}: {why}")),
        toml::Value::Integer(_) | toml::Value::Float(_) => {
            let x =
                value.get_ref().as_float().or_else(|| value.get_ref().as_integer().map(|i| i as f64)).unwrap_or(0.0);
            if !x.is_finite() {
                return Err(format!("{key} must be a finite number with its unit, such as \"10 {unit}\", not {x}"));
            }
            let meant = unit.of(x);
            Err(format!(
                "{key} = {x} has no unit: payoff bounds are written in the game's verdict unit, {unit}, as the \
                 terminal shows them; a bare number used to mean payoff per game, which is {key} = \"{meant} {unit}\""
            ))
        }
        other => Err(format!("{key} must be a number with its unit, such as \"10 {unit}\", not {other}")),
    }
}

/// One criterion's verdict: whether it passed, the figures that decided it and how the terminal
/// says it.
pub struct Check {
    /// The gate file's key: `win_rate_lo`, `payoff_lo`, `elo_lo`, `payoff_diff_lo`, `sprt`,
    /// `baseline`, `lbr_hi`.
    pub criterion: &'static str,
    /// The figure judged (the LLR for `sprt`) and the bound it had to reach (the SPRT's upper).
    pub value: f64,
    pub bound: f64,
    pub pass: bool,
    pub text: String,
    /// What the criterion estimates, with its 95% interval (the history's columns: a point
    /// interval for the SPRT's LLR and the baseline's score, which have none) and what the
    /// estimate is (`elo (pentanomial)`, `payoff (aivat)`, ...).
    pub estimate: Estimated,
}

/// A criterion's figure as the gate's history keeps it.
pub struct Estimated {
    pub model: String,
    pub estimate: f64,
    pub interval: Interval,
}

impl Estimated {
    fn new(model: impl Into<String>, estimate: f64, lo: f64, hi: f64) -> Estimated {
        Estimated { model: model.into(), estimate, interval: Interval { lo, hi } }
    }

    /// A figure without an interval: the interval is the point.
    fn point(model: impl Into<String>, x: f64) -> Estimated {
        Estimated::new(model, x, x, x)
    }
}

fn at_least(criterion: &'static str, what: &str, value: f64, bound: f64, estimate: Estimated) -> Check {
    at_least_in(criterion, what, value, bound, estimate, &|x| format!("{x:.4}"), &|x| format!("{x}"))
}

/// [`at_least`] with the value and the bound written by `value_text` and `bound_text` (a payoff
/// with its unit).
fn at_least_in(
    criterion: &'static str,
    what: &str,
    value: f64,
    bound: f64,
    estimate: Estimated,
    value_text: &dyn Fn(f64) -> String,
    bound_text: &dyn Fn(f64) -> String,
) -> Check {
    let pass = value >= bound;
    let text = format!("{what} {} {} {}", value_text(value), if pass { ">=" } else { "<" }, bound_text(bound));
    Check { criterion, value, bound, pass, text, estimate }
}

/// The score of `bot` in a stored summary.csv.
fn baseline_score(path: &Path, bot: &str) -> Result<f64> {
    let bad = |what: String| Error::input(format!("{}: {what}", path.display()));
    let mut reader = csv::Reader::from_path(path).map_err(|e| bad(e.to_string()))?;
    let headers = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name).ok_or_else(|| bad(format!("no `{name}` column")));
    let (bot_col, score_col) = (column("bot")?, column("score")?);
    for row in reader.records() {
        let row = row.map_err(|e| bad(e.to_string()))?;
        if row.get(bot_col) == Some(bot) {
            return row
                .get(score_col)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| bad(format!("bad score for `{bot}`")));
        }
    }
    Err(bad(format!("no row for bot `{bot}`")))
}

/// `within_best`: the run in `dir` added to the league at `path` (the judged bot as `version`),
/// and the judged version's rating against the league's best version's, in Elo or in `unit`.
fn within_best(
    path: &Path,
    version: Option<&str>,
    (gap, elo): (f64, bool),
    dir: &Path,
    judged: &str,
    unit: Unit,
) -> Result<Check> {
    let mut league = League::open(path, true)?;
    let labels: BTreeMap<String, String> = version.map(|v| (judged.to_string(), v.to_string())).into_iter().collect();
    let added = import::add(&mut league, dir, &labels, None)?;
    let mine = added.versions.iter().find(|(n, _)| n == judged).map(|(_, v)| v.clone()).expect("the judged bot ran");
    let evidence = Evidence::read(&league, &added.game)?;
    let table = evidence.rate(&Options::default())?;
    let me = evidence.find(&format!("{judged}@{mine}"))?;
    let (list, scale, name) =
        if elo { (&table.elo, 1.0, "Elo".to_string()) } else { (&table.payoff, unit.of(1.0), unit.to_string()) };
    let best = list.ranking()[0];
    let value = scale * (list.ratings[me].value - list.ratings[best].value);
    let d = list.difference(me, best);
    let figure = Estimated::new(format!("league gap {name}"), value, scale * d.lo, scale * d.hi);
    let what = format!("{judged}@{mine} against the league's best, {},", evidence.versions[best].label());
    Ok(at_least_in("within_best", &what, value, -gap, figure, &|x| format!("{x:+.1} {name}"), &|x| {
        format!("{x} {name}")
    }))
}

pub fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

/// Loads the gate file `gate` and everything it names (configs, SPRTs, baselines) first, so a
/// bad file fails before any game is played: each expectation with its run config (games and
/// seed pinned, the SPRT set).
pub fn load(arena: &Arena, gate: &Path) -> Result<Vec<(Expectation, RunConfig)>> {
    let text = crate::core::limits::read_text(gate)?;
    let shown = gate.display();
    let file: GateFile = toml::from_str(&text).map_err(|e| {
        let line = e.span().map(|s| 1 + text[..s.start].matches('\n').count()).unwrap_or(0);
        Error::input(format!("{shown}:{line}: {}", one_line(e.message())))
    })?;
    let base = gate.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for mut e in file.expect {
        let overrides = Overrides { games: e.games, seed: e.seed, estimator: e.estimator, ..Overrides::default() };
        let mut cfg = RunConfig::load(arena, &base.join(&e.config), &overrides)?;
        let ctx = |msg: String| Error::input(format!("{shown}: expectation `{}`: {msg}", e.name));
        if let Some(bot) = &e.bot {
            if !cfg.bots.iter().any(|b| &b.name == bot) {
                return Err(ctx(format!("its config has no bot `{bot}`")));
            }
        }
        let two_bots = cfg.bots.len() == 2;
        if (e.elo_lo.is_some() || e.payoff_diff_lo.is_some() || e.sprt.is_some()) && !two_bots {
            return Err(ctx("elo_lo, payoff_diff_lo and sprt need a config with exactly two distinct bots".into()));
        }
        if let Some(s) = &e.sprt {
            if e.bot.as_ref().is_some_and(|b| *b != cfg.bots[0].name) {
                return Err(ctx(
                    "sprt tests the config's first bot against the second: list the judged bot first".into()
                ));
            }
            let place = SprtPlace { payoff: Some(cfg.headline.unit), seats: cfg.seats, flags: false };
            let sprt = s.get_ref().resolve(place, s.span()).map_err(|(at, err)| {
                let line = 1 + text[..at.start.min(text.len())].matches('\n').count();
                Error::input(format!("{shown}:{line}: expectation `{}`: {err}", e.name))
            })?;
            cfg.sprt = Some(sprt);
        }
        let unit = cfg.headline.unit;
        let line = |span: std::ops::Range<usize>| 1 + text[..span.start.min(text.len())].matches('\n').count();
        for (key, given, slot) in [
            ("payoff_lo", &e.payoff_lo, &mut e.payoff_bounds.lo),
            ("payoff_diff_lo", &e.payoff_diff_lo, &mut e.payoff_bounds.diff_lo),
        ] {
            if let Some(value) = given {
                let bound = payoff_bound(key, value, unit).map_err(|why| {
                    Error::input(format!("{shown}:{}: expectation `{}`: {why}", line(value.span()), e.name))
                })?;
                *slot = Some(bound);
            }
        }
        match (&e.league, &e.within_best) {
            (Some(_), Some(value)) => {
                let elo = Unit::new("Elo", 1.0);
                let read = match value.get_ref() {
                    toml::Value::String(t) if t.trim_end().ends_with("Elo") => {
                        parse_quantity(t, elo).map(|x| (x, true))
                    }
                    toml::Value::String(t) => parse_quantity(t, unit).map(|x| (x, false)),
                    other => {
                        Err(format!("must be a gap with its unit, such as \"30 Elo\" or \"5 {unit}\", not {other}"))
                    }
                };
                let (gap, is_elo) = read.map_err(|why| {
                    Error::input(format!(
                        "{shown}:{}: expectation `{}`: within_best: {why}",
                        line(value.span()),
                        e.name
                    ))
                })?;
                if !(gap.is_finite() && gap >= 0.0) {
                    return Err(ctx(format!("within_best must be a gap of 0 or more, not {gap}")));
                }
                e.within = Some((gap, is_elo));
            }
            (None, None) if e.version.is_none() => {}
            _ => return Err(ctx("league, within_best (and version) go together".into())),
        }
        if let Some(value) = &e.lbr_hi {
            let bound = lbr_bound(value).map_err(|why| {
                Error::input(format!("{shown}:{}: expectation `{}`: {why}", line(value.span()), e.name))
            })?;
            let judged = e.judged(&cfg);
            if cfg.bots.iter().find(|b| b.name == judged).is_none_or(|b| b.kind != "lbr") {
                return Err(ctx(format!(
                    "lbr_hi judges local best response: `{judged}` is not an `lbr` bot (name it with `bot`)"
                )));
            }
            e.payoff_bounds.lbr_hi = Some(bound);
        }
        e.headline = Some(cfg.headline);
        let bounds = [
            ("win_rate_lo", e.win_rate_lo, 0.0, 1.0),
            ("elo_lo", e.elo_lo, f64::MIN, f64::MAX),
            ("tolerance", Some(e.tolerance), 0.0, f64::MAX),
        ];
        for (key, value, lo, hi) in bounds {
            if let Some(v) = value.filter(|v| !(v.is_finite() && (lo..=hi).contains(v))) {
                let range = if hi == 1.0 {
                    " in 0..=1"
                } else if lo == 0.0 {
                    " and not negative"
                } else {
                    ""
                };
                return Err(ctx(format!("{key} must be a finite number{range}, not {v}")));
            }
        }
        let judged = e.bot.clone().unwrap_or_else(|| cfg.bots[0].name.clone());
        if let Some(path) = &e.baseline {
            baseline_score(&base.join(path), &judged).map_err(|err| ctx(err.to_string()))?;
        }
        let criteria = [
            e.win_rate_lo.is_some(),
            e.payoff_lo.is_some(),
            e.elo_lo.is_some(),
            e.payoff_diff_lo.is_some(),
            e.sprt.is_some(),
            e.baseline.is_some(),
            e.within.is_some(),
            e.lbr_hi.is_some(),
        ];
        if !criteria.contains(&true) {
            return Err(ctx(
                "no criterion (win_rate_lo, payoff_lo, elo_lo, payoff_diff_lo, sprt, baseline, within_best, lbr_hi)"
                    .into(),
            ));
        }
        out.push((e, cfg));
    }
    Ok(out)
}

impl Expectation {
    /// The bot judged: the one named, else the config's first.
    pub fn judged(&self, cfg: &RunConfig) -> String {
        self.bot.clone().unwrap_or_else(|| cfg.bots[0].name.clone())
    }
}

/// Judges the run of `e` from its summary and match rows: one [`Check`] per criterion, in the
/// gate file's order of keys; `base` is the gate file's folder (baselines are relative to it).
pub fn judge(
    e: &Expectation,
    base: &Path,
    bots: &[BotSummary],
    matches: &[MatchRow],
    judged: &str,
) -> Result<Vec<Check>> {
    let me = bots.iter().find(|b| b.bot == judged).expect("judged bot is in the run");
    let mut checks = Vec::new();
    if let Some(x) = e.win_rate_lo {
        let figure = Estimated::new("win rate", me.win_rate, me.win_rate_lo, me.win_rate_hi);
        checks.push(at_least("win_rate_lo", &format!("{judged} win rate lower bound"), me.win_rate_lo, x, figure));
    }
    let headline = e.headline.expect("a loaded expectation knows its game's headline");
    let unit = headline.unit;
    // The figure judged to four decimals, the bound as the gate file wrote it.
    let payoff = |x: f64| format!("{x:+.4} {unit}");
    let bound = |x: f64| format!("{x} {unit}");
    if let Some(x) = e.payoff_bounds.lo {
        let p = &me.payoff;
        let figure = Estimated::new(format!("payoff {unit}"), unit.of(p.mean), unit.of(p.lo), unit.of(p.hi));
        let what = format!("{judged} payoff lower bound");
        checks.push(at_least_in("payoff_lo", &what, unit.of(p.lo), x, figure, &payoff, &bound));
    }
    if let Some(x) = e.payoff_bounds.lbr_hi {
        // What LBR wins is a lower bound on the other bot's exploitability: the gate fails only
        // when the whole interval lies above the bound.
        let p = &me.payoff;
        let figure = Estimated::new(format!("lbr {MBB}"), MBB.of(p.mean), MBB.of(p.lo), MBB.of(p.hi));
        let (lo, pass) = (MBB.of(p.lo), MBB.of(p.lo) <= x);
        let text = format!(
            "{judged} wins {:.0} {MBB}, its lower bound {lo:.0} {MBB} {} {x} {MBB}",
            MBB.of(p.mean),
            if pass { "<=" } else { ">" }
        );
        checks.push(Check { criterion: "lbr_hi", value: lo, bound: x, pass, text, estimate: figure });
    }
    // Two-bot criteria read the match row from the judged bot's side.
    let row = matches.first();
    let sign = if row.map(|r| r.bot_a == judged).unwrap_or(true) { 1.0 } else { -1.0 };
    if let (Some(x), Some(r)) = (e.elo_lo, row) {
        // The Elo interval is asymmetric: use its real lower end (from the judged side).
        let interval = r.elo.elo_interval();
        let (lo, hi) = if sign > 0.0 { (interval.lo, interval.hi) } else { (-interval.hi, -interval.lo) };
        let model = if r.pentanomial { "elo (pentanomial)" } else { "elo (trinomial)" };
        let figure = Estimated::new(model, sign * r.elo.elo, lo, hi);
        checks.push(at_least("elo_lo", &format!("{judged} Elo lower bound"), lo, x, figure));
    }
    if let (Some(x), Some(r)) = (e.payoff_bounds.diff_lo, row) {
        // The headline's difference: adjusted for luck when the run adjusts it.
        let (d, model) = match &r.adjusted {
            Some(a) => (&a.payoff_diff, format!("payoff diff {unit} ({})", a.estimator.name())),
            None => (&r.payoff_diff, format!("payoff diff {unit}")),
        };
        let (lo, hi) = if sign > 0.0 { (unit.of(d.lo), unit.of(d.hi)) } else { (-unit.of(d.hi), -unit.of(d.lo)) };
        let figure = Estimated::new(model, sign * unit.of(d.mean), lo, hi);
        let what = format!("{judged} payoff difference lower bound");
        checks.push(at_least_in("payoff_diff_lo", &what, lo, x, figure, &payoff, &bound));
    }
    if let (Some(_), Some(r)) = (&e.sprt, row) {
        let s = r.sprt.as_ref().expect("the run had the SPRT");
        checks.push(Check {
            criterion: "sprt",
            value: s.llr,
            bound: s.sprt.bounds().1,
            pass: s.decision == SprtDecision::AcceptH1,
            text: format!("SPRT {}: LLR {:.3}", s.sprt.describe(), s.llr),
            estimate: Estimated::point(format!("sprt {}", s.sprt.describe()), s.llr),
        });
    }
    if let Some(path) = &e.baseline {
        let stored = baseline_score(&base.join(path), judged)?;
        checks.push(at_least(
            "baseline",
            &format!("{judged} score (baseline {stored:.4} - {})", e.tolerance),
            me.score,
            stored - e.tolerance,
            Estimated::point("score", me.score),
        ));
    }
    Ok(checks)
}

/// Plays each expectation of the gate file `gate` (loaded by [`load`]) into its folder under
/// `out` and judges it; `shown` sees each verdict as it comes. Every folder is made ready before
/// the first game: a folder that cannot be used refuses the gate with its one line, not after
/// some verdicts.
pub fn play(
    arena: &Arena,
    gate: &Path,
    expectations: &[(Expectation, RunConfig)],
    out: &Path,
    opts: &RunOptions,
    mut shown: impl FnMut(&Verdict),
) -> Result<Vec<Verdict>> {
    let base = gate.parent().unwrap_or(Path::new("."));
    let dirs: Vec<PathBuf> = expectations.iter().map(|(e, _)| out.join(slug(&e.name))).collect();
    let mut locks = BTreeMap::<PathBuf, FolderLock>::new();
    for dir in &dirs {
        if !locks.contains_key(dir) {
            locks.insert(dir.clone(), folder::prepare(dir, true)?);
        }
    }
    let mut verdicts = Vec::new();
    for ((e, cfg), dir) in expectations.iter().zip(dirs) {
        // Two expectations of one name share a folder: the second finds it as the first left it.
        let lock = match locks.remove(&dir) {
            Some(lock) => lock,
            None => folder::prepare(&dir, true)?,
        };
        let started = Instant::now();
        let report = execute(arena, cfg, cfg.schedule()?, opts, &dir, lock, None)?;
        let judged = e.judged(cfg);
        let mut checks = judge(e, base, &report.verdicts.bots, &report.verdicts.matches, &judged)?;
        if let (Some(path), Some(within)) = (&e.league, e.within) {
            checks.push(within_best(&base.join(path), e.version.as_deref(), within, &dir, &judged, cfg.headline.unit)?);
        }
        let verdict = Verdict {
            sentence: report.verdicts.matches.first().map(|m| verdict::sentence(m, cfg.headline)),
            games_called: cfg.headline.games(report.end.played),
            name: e.name.clone(),
            bot: judged,
            seed: cfg.seed,
            games: report.end.played,
            seconds: started.elapsed().as_secs_f64(),
            dir,
            checks,
        };
        shown(&verdict);
        verdicts.push(verdict);
    }
    Ok(verdicts)
}

/// An expectation's verdict as one row of the gate's results: a `--json` document's
/// `expectations` and a JUnit test case (see [`crate::report::export::JUnit`]).
#[derive(Default, Serialize)]
pub struct GateResult {
    name: String,
    pass: bool,
    games: u64,
    seconds: f64,
    results: String,
    line: String,
    /// The verdict sentence on the two bots, when the expectation's run had two.
    verdict: String,
    checks: Vec<CheckResult>,
}

/// One criterion of a [`GateResult`].
#[derive(Default, Serialize)]
pub struct CheckResult {
    criterion: &'static str,
    value: Figure,
    bound: Figure,
    pass: bool,
    text: String,
}

/// One expectation's verdict, as the terminal, JSON and JUnit show it.
pub struct Verdict {
    pub name: String,
    /// The bot judged and the run's master seed.
    pub bot: String,
    pub seed: u64,
    pub games: u64,
    pub seconds: f64,
    /// The expectation's run folder.
    pub dir: PathBuf,
    pub checks: Vec<Check>,
    /// The verdict sentence on the run's two bots ([`verdict::sentence`]), when it had two.
    pub sentence: Option<String>,
    /// What `games` games are called (`hands`).
    pub games_called: String,
}

impl Verdict {
    pub fn pass(&self) -> bool {
        self.checks.iter().all(|c| c.pass)
    }

    /// The terminal's line: `PASS name (200 games): figures; figures`.
    pub fn line(&self) -> String {
        let figures: Vec<&str> = self.checks.iter().map(|c| c.text.as_str()).collect();
        let mark = if self.pass() { "PASS" } else { "FAIL" };
        format!("{mark} {} ({} {}): {}", self.name, self.games, self.games_called, figures.join("; "))
    }

    /// The verdict as `--history` keeps it: one row per criterion, at `commit` on `date`.
    pub fn history(&self, commit: &str, date: &str) -> Vec<HistoryRow> {
        self.checks
            .iter()
            .map(|c| HistoryRow {
                commit: commit.to_string(),
                date: date.to_string(),
                expectation: self.name.clone(),
                criterion: c.criterion.to_string(),
                model: c.estimate.model.clone(),
                bot: self.bot.clone(),
                seed: self.seed,
                games: self.games,
                estimate: c.estimate.estimate,
                lo: c.estimate.interval.lo,
                hi: c.estimate.interval.hi,
                bound: c.bound,
                verdict: if c.pass { Outcome::Pass } else { Outcome::Fail },
            })
            .collect()
    }

    /// The verdict as `--json` and the JUnit export show it.
    pub fn result(&self) -> GateResult {
        let checks = self
            .checks
            .iter()
            .map(|c| CheckResult {
                criterion: c.criterion,
                value: Figure(c.value),
                bound: Figure(c.bound),
                pass: c.pass,
                text: c.text.clone(),
            })
            .collect();
        GateResult {
            name: self.name.clone(),
            pass: self.pass(),
            games: self.games,
            seconds: self.seconds,
            results: self.dir.display().to_string(),
            line: self.line(),
            verdict: self.sentence.clone().unwrap_or_default(),
            checks,
        }
    }
}
