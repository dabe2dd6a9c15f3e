//! Tournament configs: the TOML a user writes, checked and resolved into a [`RunConfig`].
//!
//! Every error names the file and line (`configs/x.toml:7: unknown bot ...`). Unknown keys are
//! errors. The resolved config (every bot's kind and every parameter, defaults included) is
//! written beside the results, so `arena run results/x/config.toml` repeats a run exactly.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::{Spanned, Table, Value};

use crate::core::limits;
use crate::core::luck::Estimator;
use crate::core::roster::Roster;
use crate::core::schedule::{self, Schedule, Shape};
use crate::core::BotChoice;
use crate::core::{resolve_paths, Headline, Params, TablePreset};
use crate::error::{one_line, shown, Error, Result};
use crate::registry::{Arena, GameEntry, Venue};
use crate::stats::sprt::{SprtGiven, SprtKey, SprtPlace};
use crate::stats::{Anchor, Sprt, SprtModel};

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    name: Option<Spanned<String>>,
    game: Spanned<String>,
    #[serde(default = "default_games")]
    games: Spanned<i64>,
    #[serde(default = "default_seed")]
    seed: Spanned<i64>,
    #[serde(default)]
    paired: bool,
    seats: Option<Spanned<i64>>,
    schedule: Option<Spanned<String>>,
    anchor: Option<Spanned<String>>,
    estimator: Option<Spanned<String>>,
    sprt: Option<Spanned<SprtFile>>,
    bots: Spanned<Vec<Spanned<Value>>>,
    table: Option<Spanned<BTreeMap<String, Spanned<Value>>>>,
}

/// Games per pairing when neither the file nor `--games` says.
pub const DEFAULT_GAMES: i64 = 100;

fn default_games() -> Spanned<i64> {
    Spanned::new(0..0, DEFAULT_GAMES)
}

fn default_seed() -> Spanned<i64> {
    Spanned::new(0..0, 1)
}

/// `[sprt]` (and a gate's `sprt = { ... }`): stop as soon as the test decides. The bounds say which
/// test: `elo0`/`elo1` an Elo model (`model` = "normalized", the default, or "logistic"),
/// `payoff0`/`payoff1` the payoff test; see [`SprtGiven`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SprtFile {
    elo0: Option<Spanned<f64>>,
    elo1: Option<Spanned<f64>>,
    payoff0: Option<Spanned<f64>>,
    payoff1: Option<Spanned<f64>>,
    alpha: Option<Spanned<f64>>,
    beta: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
    /// The bounds' unit (Elo, nElo, or the game's payoff unit such as "bb/100"): optional, checked.
    unit: Option<Spanned<String>>,
}

impl SprtFile {
    /// The test these keys ask for at `place`, or why not with where it is written (`whole`: the
    /// table's own place, for what is no one key's fault).
    pub(crate) fn resolve(
        &self,
        place: SprtPlace,
        whole: Range<usize>,
    ) -> std::result::Result<Sprt, (Range<usize>, Error)> {
        let value = |v: &Option<Spanned<f64>>| v.as_ref().map(|v| *v.get_ref());
        let given = SprtGiven {
            elo0: value(&self.elo0),
            elo1: value(&self.elo1),
            payoff0: value(&self.payoff0),
            payoff1: value(&self.payoff1),
            alpha: value(&self.alpha),
            beta: value(&self.beta),
            model: self.model.as_ref().map(|m| m.get_ref().clone()),
            unit: self.unit.as_ref().map(|u| u.get_ref().clone()),
        };
        given.resolve(place).map_err(|(key, e)| {
            let span = |v: &Option<Spanned<f64>>| v.as_ref().map(Spanned::span);
            let at = match key {
                SprtKey::Elo0 => span(&self.elo0),
                SprtKey::Elo1 => span(&self.elo1),
                SprtKey::Payoff0 => span(&self.payoff0),
                SprtKey::Payoff1 => span(&self.payoff1),
                SprtKey::Alpha => span(&self.alpha),
                SprtKey::Beta => span(&self.beta),
                SprtKey::Model => self.model.as_ref().map(Spanned::span),
                SprtKey::Unit => self.unit.as_ref().map(Spanned::span),
                SprtKey::Whole => None,
            };
            (at.unwrap_or(whole), e)
        })
    }
}

/// A bot as the user names it: a roster entry or bot kind, or an inline table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InlineBot {
    name: String,
    kind: Option<String>,
    #[serde(default)]
    params: Table,
}

/// A checked, fully resolved tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    pub name: String,
    pub game: &'static str,
    /// Games per pairing.
    pub games: u64,
    /// The master seed, 0..=i64::MAX (a TOML integer).
    pub seed: u64,
    pub paired: bool,
    pub seats: usize,
    pub table: Params,
    /// The distinct bots: a bot listed several times with the same name and parameters is one
    /// bot in several seats (its results pooled under its name).
    pub bots: Vec<BotChoice>,
    /// The bots as listed, as indexes into `bots` (the single table's seating).
    pub listed: Vec<usize>,
    /// How the bots meet (`schedule = ...`).
    pub shape: &'static dyn Shape,
    /// What the rating list is relative to (`anchor = "bot"`, default the mean).
    pub anchor: Anchor,
    /// Stop the run when this test decides (two bots only).
    pub sprt: Option<Sprt>,
    /// What the game's verdicts lead with, and so the unit of payoff bounds.
    pub headline: Headline,
    /// How the payoff verdicts are estimated (`estimator = "aivat"`): the payoffs as they fell
    /// (plain, or duplicate when deals are replayed), or adjusted for luck (core/luck.rs). The
    /// payoff SPRT tests the estimator's payoff; the plain figures are kept beside it.
    pub estimator: Estimator,
}

/// Where a config came from, to locate errors and its relative paths.
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
    /// Written from command-line flags: errors name the value, not a line of this text.
    pub flags: bool,
    /// The folder its relative paths start from: the file's own, or the working folder for flags.
    pub dir: PathBuf,
}

impl<'a> Source<'a> {
    /// A file's text, `path` as shown in errors (and its folder, where its relative paths start).
    pub fn file(path: &'a str, text: &'a str) -> Source<'a> {
        let dir = Path::new(path).parent().map_or_else(PathBuf::new, Path::to_path_buf);
        Source { path, text, flags: false, dir }
    }

    /// Config text made from `arena run --game ... --bot ...`: relative paths start from the
    /// working folder.
    pub fn command_line(text: &'a str) -> Source<'a> {
        Source { path: "command line", text, flags: true, dir: PathBuf::new() }
    }

    fn line_of(&self, span: &Range<usize>) -> usize {
        1 + self.text[..span.start.min(self.text.len())].matches('\n').count()
    }

    /// `file:line: message` (just the message for flags).
    pub fn error_at(&self, span: &Range<usize>, msg: impl std::fmt::Display) -> Error {
        if self.flags {
            return Error::input(msg.to_string());
        }
        Error::input(format!("{}:{}: {msg}", self.path, self.line_of(span)))
    }
}

/// The settings a command line can give instead of (or on top of) a file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub games: Option<i64>,
    pub seed: Option<u64>,
    /// How the payoff verdicts are estimated (`--estimator`, a gate's `estimator`).
    pub estimator: Option<Estimator>,
}

impl RunConfig {
    /// Reads and resolves a config file.
    pub fn load(arena: &Arena, path: &Path, overrides: &Overrides) -> Result<RunConfig> {
        let text = limits::read_text(path)?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("run").to_string();
        let shown = path.display().to_string();
        let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        RunConfig::parse(arena, &Source { dir, ..Source::file(&shown, &text) }, &stem, overrides)
    }

    /// Parses config text; `default_name` names the run when the file does not.
    pub fn parse(arena: &Arena, src: &Source, default_name: &str, overrides: &Overrides) -> Result<RunConfig> {
        let file: ConfigFile = toml::from_str(src.text).map_err(|e| {
            let mut msg = one_line(e.message());
            if msg.contains("unknown field `expect`") {
                msg.push_str(" (this looks like a gate file: run it with `arena gate FILE`)");
            }
            match e.span() {
                Some(span) => src.error_at(&span, msg),
                None if src.flags => Error::input(msg),
                None => Error::input(format!("{}: {msg}", src.path)),
            }
        })?;
        let seed = match overrides.seed {
            Some(seed) => seed,
            None => u64::try_from(*file.seed.get_ref())
                .map_err(|_| src.error_at(&file.seed.span(), "seed must be 0 or more"))?,
        };
        let entry = arena.find(file.game.get_ref()).map_err(|e| src.error_at(&file.game.span(), e))?;
        let games = match overrides.games {
            Some(games) if games <= 0 => return Err(Error::input(format!("--games must be at least 1, not {games}"))),
            Some(games) => games,
            None if *file.games.get_ref() <= 0 => {
                return Err(
                    src.error_at(&file.games.span(), format!("games must be at least 1, not {}", file.games.get_ref()))
                )
            }
            None => *file.games.get_ref(),
        } as u64;
        let name = match &file.name {
            Some(name) => {
                limits::check_run_name(name.get_ref()).map_err(|e| src.error_at(&name.span(), e))?;
                name.get_ref().clone()
            }
            None => limits::run_name_from(default_name),
        };
        let table_owner = format!("the {} table", entry.name());
        let table = match &file.table {
            Some(t) => {
                let mut given: Table = t.get_ref().iter().map(|(k, v)| (k.clone(), v.get_ref().clone())).collect();
                TablePreset::expand(entry.tables(), entry.name(), &mut given, None)
                    .map_err(|e| src.error_at(&t.get_ref().get("preset").map_or(t.span(), |v| v.span()), e))?;
                resolve_paths(entry.options(), &mut given, &src.dir);
                Params::new(entry.options(), &given, &table_owner).map_err(|e| {
                    // Point at the option at fault, or at [table] for an option that is missing.
                    let span = match &e {
                        Error::Param { key, .. } => t.get_ref().get(key).map_or(t.span(), |v| v.span()),
                        _ => t.span(),
                    };
                    src.error_at(&span, e)
                })?
            }
            None => Params::new(entry.options(), &Table::new(), &table_owner)?,
        };
        let roster = Roster::load(entry)?;
        let mut entries = Vec::new();
        let mut origins = Vec::new();
        for value in file.bots.get_ref() {
            let (spec, origin) = resolve_bot(entry, &roster, value.get_ref(), &src.dir).map_err(|e| match e {
                // Set in a roster file: its place is already in the message.
                BotError::Roster(e) => e,
                BotError::Here(e) => src.error_at(&value.span(), e),
            })?;
            entries.push(spec);
            origins.push(origin);
        }
        if entries.is_empty() {
            return Err(src.error_at(&file.bots.span(), "at least one bot is needed"));
        }
        let (bots, listed) = distinct_bots(&entries).map_err(|(later, earlier)| {
            let span = |i: usize| file.bots.get_ref()[i].span();
            let msg = format!(
                "two different bots are named `{}`: {} and, at line {}, {}; give one of them another name",
                entries[later].name,
                origins[later],
                src.line_of(&span(earlier)),
                origins[earlier]
            );
            src.error_at(&span(later), msg)
        })?;
        let seats = match &file.seats {
            Some(s) => {
                let n = *s.get_ref();
                if n < 0 || !entry.seats().contains(&(n as usize)) {
                    return Err(src.error_at(
                        &s.span(),
                        format!(
                            "{} is played by {} to {} seats, not {n}",
                            entry.name(),
                            entry.seats().start(),
                            entry.seats().end()
                        ),
                    ));
                }
                n as usize
            }
            None => listed.len().clamp(*entry.seats().start(), *entry.seats().end()),
        };
        let shape = match &file.schedule {
            Some(name) => schedule::shape(name.get_ref()).map_err(|e| src.error_at(&name.span(), e))?,
            None => schedule::default_shape(listed.len(), seats),
        };
        let replays = if file.paired { seats as u64 } else { 1 };
        let rounded = games.div_ceil(replays) * replays;
        // Before the shape lists its tables: a round robin of many bots is checked, not built.
        limits::check_size(limits::pairings(bots.len(), seats), rounded).map_err(|e| match overrides.games {
            Some(_) => e,
            None => src.error_at(&file.games.span(), e),
        })?;
        shape
            .tables(&listed, bots.len(), seats)
            .map_err(|e| src.error_at(&file.schedule.as_ref().map_or(file.bots.span(), |s| s.span()), e))?;
        let anchor = match &file.anchor {
            None => Anchor::Mean,
            Some(name) => match bots.iter().position(|b| b.name == *name.get_ref()) {
                Some(i) => Anchor::Bot(i),
                None => {
                    let known: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
                    let msg = format!("anchor `{}` is not a bot of this run ({})", name.get_ref(), known.join(", "));
                    return Err(src.error_at(&name.span(), msg));
                }
            },
        };
        // Build the table once so that range checks in the game and its bots point at the line
        // that set the value: options at [table], a bot's parameters at that bot.
        let table_span = |e: &Error| match (&file.table, e) {
            (Some(t), Error::Param { key, .. }) => t.get_ref().get(key).map_or(t.span(), |v| v.span()),
            (Some(t), _) => t.span(),
            (None, _) => file.game.span(),
        };
        let headline = entry.venue(&table, seats, &[], None).map_err(|e| src.error_at(&table_span(&e), e))?.headline();
        for (bot, value) in entries.iter().zip(file.bots.get_ref()) {
            entry.venue(&table, seats, std::slice::from_ref(bot), None).map_err(|e| src.error_at(&value.span(), e))?;
        }
        let plain = if file.paired { Estimator::Duplicate } else { Estimator::Plain };
        // Given by a flag, an error has no line to point at; in the file, it points at the key.
        let chosen = match (overrides.estimator, &file.estimator) {
            (Some(e), _) => Some((e, None)),
            (None, None) => None,
            (None, Some(name)) => {
                let e = <Estimator as clap::ValueEnum>::from_str(name.get_ref(), false).map_err(|_| {
                    let msg = format!("estimator `{}` is not one of {}", name.get_ref(), Estimator::names());
                    src.error_at(&name.span(), msg)
                })?;
                Some((e, Some(name.span())))
            }
        };
        let estimator = match chosen {
            None => plain,
            Some((chosen, at)) => {
                let fail = |msg: String| match &at {
                    Some(span) => src.error_at(span, msg),
                    None => Error::input(format!("--estimator {}: {msg}", chosen.name())),
                };
                let venue = entry.venue(&table, seats, &[], None)?;
                match chosen {
                    Estimator::Duplicate if !file.paired => {
                        return Err(fail("estimator `duplicate` needs paired deals (`paired = true`)".into()))
                    }
                    Estimator::Plain | Estimator::Duplicate => plain,
                    Estimator::Covariates if !venue.has_covariate() => {
                        return Err(fail(format!(
                            "estimator `covariates` needs a game that declares a starting strength (holdem cash, stud, zhajinhua, mahjong), not {}{}",
                            entry.name(),
                            if entry.name() == "holdem" { " sng" } else { "" }
                        )))
                    }
                    Estimator::Covariates => Estimator::Covariates,
                    adjusted if !venue.adjusts() => {
                        return Err(fail(format!(
                        "estimator `{}` needs a game with a value function (holdem cash, stud, zhajinhua), not {}{}",
                        adjusted.name(),
                        entry.name(),
                        if entry.name() == "holdem" { " sng" } else { "" }
                    )))
                    }
                    adjusted => adjusted,
                }
            }
        };
        let sprt = match &file.sprt {
            None => None,
            Some(spanned) => {
                if bots.len() != 2 {
                    let msg = format!("[sprt] needs exactly two distinct bots, not {}", bots.len());
                    return Err(src.error_at(&spanned.span(), msg));
                }
                let place = SprtPlace { payoff: Some(headline.payoff_unit()), seats, flags: false };
                let sprt = spanned.get_ref().resolve(place, spanned.span()).map_err(|(at, e)| src.error_at(&at, e))?;
                Some(sprt)
            }
        };
        Ok(RunConfig {
            sprt,
            headline,
            estimator,
            name,
            game: entry.name(),
            games,
            seed,
            paired: file.paired,
            seats,
            table,
            bots,
            listed,
            shape,
            anchor,
        })
    }

    /// games.csv's columns after the fixed ones at `table` (this config's venue): the adjusted
    /// payoffs when the run adjusts them, then the game's own.
    pub fn columns(&self, table: &dyn Venue) -> Vec<&'static str> {
        self.estimator.columns().iter().chain(table.columns()).copied().collect()
    }

    /// The run's games: its shape's tables, `games` games each.
    pub fn schedule(&self) -> Result<Schedule> {
        let tables = self.shape.tables(&self.listed, self.bots.len(), self.seats)?;
        Ok(Schedule::new(tables, self.games, self.paired, self.seed))
    }

    /// The config as TOML, every value explicit: reading it back gives the same config.
    pub fn to_toml(&self) -> String {
        let mut doc = Table::new();
        doc.insert("name".into(), Value::String(self.name.clone()));
        doc.insert("game".into(), Value::String(self.game.into()));
        doc.insert("games".into(), Value::Integer(self.games as i64));
        doc.insert("seed".into(), Value::Integer(self.seed as i64));
        doc.insert("paired".into(), Value::Boolean(self.paired));
        doc.insert("seats".into(), Value::Integer(self.seats as i64));
        let bots = self
            .listed
            .iter()
            .map(|&i| &self.bots[i])
            .map(|b| {
                let mut t = Table::new();
                t.insert("name".into(), Value::String(b.name.clone()));
                t.insert("kind".into(), Value::String(b.kind.clone()));
                t.insert("params".into(), Value::Table(b.params.table().clone()));
                Value::Table(t)
            })
            .collect();
        doc.insert("bots".into(), Value::Array(bots));
        doc.insert("schedule".into(), Value::String(self.shape.name().into()));
        if let Anchor::Bot(i) = self.anchor {
            doc.insert("anchor".into(), Value::String(self.bots[i].name.clone()));
        }
        doc.insert("table".into(), Value::Table(self.table.table().clone()));
        if !self.estimator.columns().is_empty() {
            doc.insert("estimator".into(), Value::String(self.estimator.name().into()));
        }
        if let Some(sprt) = &self.sprt {
            let mut t = Table::new();
            let [h0, h1] = if sprt.model == SprtModel::Payoff { ["payoff0", "payoff1"] } else { ["elo0", "elo1"] };
            t.insert(h0.into(), Value::Float(sprt.h0));
            t.insert(h1.into(), Value::Float(sprt.h1));
            t.insert("alpha".into(), Value::Float(sprt.alpha));
            t.insert("beta".into(), Value::Float(sprt.beta));
            t.insert("model".into(), Value::String(sprt.model.to_string()));
            t.insert("unit".into(), Value::String(sprt.unit.into()));
            doc.insert("sprt".into(), Value::Table(t));
        }
        let mut out = String::from("# Resolved by bot-arena: every bot and parameter explicit.\n");
        out.push_str(&toml::to_string(&doc).expect("a config serialises"));
        out
    }
}

/// A bot entry: `"name"` (roster entry or kind) or `{ name, kind, params }`.
/// Where a bad bot entry's fault lies: in the config's bot entry, or in a roster file (the error
/// then names that file and line).
enum BotError {
    Here(Error),
    Roster(Error),
}

impl From<Error> for BotError {
    fn from(e: Error) -> BotError {
        BotError::Here(e)
    }
}

/// Resolves a bot entry (its relative paths from folder `dir`); also says what it is, for an
/// error that names it beside another.
fn resolve_bot(
    entry: &dyn GameEntry,
    roster: &Roster,
    value: &Value,
    dir: &Path,
) -> Result<(BotChoice, String), BotError> {
    let inline = match value {
        Value::String(name) => InlineBot { name: name.clone(), kind: None, params: Table::new() },
        Value::Table(_) => value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| Error::input(format!("bad bot entry: {}", one_line(e.message()))))?,
        other => {
            return Err(Error::input(format!("a bot is a name or a table, not {}", shown(&other.to_string()))).into())
        }
    };
    limits::check_bot_name(&inline.name)?;
    let base = inline.kind.as_deref().unwrap_or(&inline.name);
    let resolved = roster.lookup(entry, base)?;
    let specs = BotChoice::specs(entry.bot_params(&resolved.kind).expect("roster lookup checked the kind"));
    let mut params = resolved.params.clone();
    let mut inline_params = inline.params.clone();
    resolve_paths(&specs, &mut inline_params, dir);
    params.extend(inline_params);
    let params = Params::new(&specs, &params, &format!("bot `{}`", inline.name)).map_err(|e| match &e {
        Error::Param { key, .. } if !inline.params.contains_key(key) => match resolved.place_of(key) {
            Some(place) => BotError::Roster(Error::input(format!("{place}: {e}"))),
            None => BotError::Here(e),
        },
        _ => BotError::Here(e),
    })?;
    let origin = match (value.is_str(), roster.place_of(base)) {
        (true, Some(place)) => format!("the roster's `{base}` ({place})"),
        (true, None) => format!("the kind `{base}`"),
        (false, Some(place)) => format!("an inline bot built on the roster's `{base}` ({place})"),
        (false, None) => format!("an inline bot of kind `{base}`"),
    };
    Ok((BotChoice { name: inline.name, kind: resolved.kind, params }, origin))
}

/// The distinct bots of the listed ones, and each listed one's index among them.
///
/// A bot listed again with the same name and parameters is the same bot in another seat (its
/// copies are pooled under its name), unless it is the only bot: then the copies play each other
/// and are told apart as `name`, `name#2`, ... (a bot against itself, to check the harness). Two
/// different bots of one name (an inline bot named like a roster variant listed beside it) would
/// need one of them renamed behind the user's back, and results under a name that is not theirs:
/// refused, as (the later entry, the earlier one of that name).
fn distinct_bots(entries: &[BotChoice]) -> std::result::Result<(Vec<BotChoice>, Vec<usize>), (usize, usize)> {
    let self_play = entries.len() > 1 && entries.iter().all(|e| *e == entries[0]);
    let mut bots: Vec<BotChoice> = Vec::new();
    let mut listed = Vec::new();
    for (k, e) in entries.iter().enumerate() {
        if let Some(i) = bots.iter().position(|b| b == e).filter(|_| !self_play) {
            listed.push(i);
            continue;
        }
        if let Some(earlier) = entries[..k].iter().position(|b| b.name == e.name).filter(|_| !self_play) {
            return Err((k, earlier));
        }
        let taken = |name: &str| bots.iter().any(|b| b.name == name);
        let mut name = e.name.clone();
        let mut k = 2;
        while taken(&name) {
            name = format!("{}#{k}", e.name);
            k += 1;
        }
        listed.push(bots.len());
        bots.push(BotChoice { name, ..e.clone() });
    }
    Ok((bots, listed))
}
