//! Tournament configs: the TOML a user writes, checked and resolved into a [`RunConfig`].
//!
//! Every error names the file and line (`configs/x.toml:7: unknown bot ...`). Unknown keys are
//! errors. All the errors of a file are found in one pass and told together in line order
//! (config/faults.rs): each key is read on its own (config/fields.rs), and each check is made
//! that does not need what an earlier one refused. The resolved config (every bot's kind and every parameter, defaults included) is
//! written beside the results, so `arena run results/x/config.toml` repeats a run exactly.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::{Spanned, Table, Value};

mod faults;
mod fields;

use faults::Faults;

use crate::core::limits;
use crate::core::luck::Estimator;
use crate::core::roster::Roster;
use crate::core::schedule::{self, Schedule, Shape};
use crate::core::suggest::known_names;
use crate::core::BotChoice;
use crate::core::{resolve_paths, Headline, Params, TablePreset};
use crate::error::{one_line, shown, Error, Result};
use crate::registry::{Arena, GameEntry, Venue};
use crate::stats::sprt::{SprtGiven, SprtKey, SprtPlace};
use crate::stats::{Anchor, Sprt, SprtModel};

/// The file as written, each key read on its own ([`ConfigFile::read`]): a key that is not there,
/// or whose value is not of its type, is `None` (its error kept).
struct ConfigFile {
    name: Option<Spanned<String>>,
    game: Option<Spanned<String>>,
    games: Spanned<i64>,
    seed: Spanned<i64>,
    paired: bool,
    seats: Option<Spanned<i64>>,
    schedule: Option<Spanned<String>>,
    anchor: Option<Spanned<String>>,
    estimator: Option<Spanned<String>>,
    sprt: Option<Spanned<SprtFile>>,
    bots: Option<Spanned<Vec<Spanned<Value>>>>,
    table: Option<Spanned<BTreeMap<String, Spanned<Value>>>>,
}

/// The keys of a config file.
const KEYS: &[&str] =
    &["name", "game", "games", "seed", "paired", "seats", "schedule", "anchor", "estimator", "sprt", "bots", "table"];

impl ConfigFile {
    /// Reads every key of `src` on its own, keeping in `faults` the error of each that is unknown,
    /// missing or of the wrong type. A text that is not TOML is refused at once (its first error).
    fn read(src: &Source, faults: &mut Faults) -> Result<ConfigFile> {
        let keys = fields::keys(src.text).map_err(|e| toml_error(src, &e))?;
        // A gate file given as a config: that is its one error (not its missing game and bots).
        if let Some(expect) = keys.iter().find(|k| k.get_ref() == "expect") {
            if !keys.iter().any(|k| k.get_ref() == "game") {
                let msg = "unknown field `expect` (this looks like a gate file: run it with `arena gate FILE`)";
                return Err(src.error_at(&expect.span(), msg));
            }
        }
        for key in &keys {
            let name = key.get_ref().as_str();
            if !KEYS.contains(&name) {
                faults.at(&key.span(), format!("unknown field {} ({})", shown(name), known_names(name, KEYS)));
            }
        }
        // A key's value, `None` when it is not there (an error when it must be) or not of its
        // type (its error kept).
        fn key<T: serde::de::DeserializeOwned>(src: &Source, faults: &mut Faults, key: &str, must: bool) -> Option<T> {
            match fields::field(src.text, key) {
                Ok(None) if must => {
                    faults.whole(format!("missing field `{key}`"));
                    None
                }
                Ok(value) => value,
                Err(e) => {
                    faults.told(e.span().as_ref(), toml_error(src, &e));
                    None
                }
            }
        }
        Ok(ConfigFile {
            name: key(src, faults, "name", false),
            game: key(src, faults, "game", true),
            games: key(src, faults, "games", false).unwrap_or_else(|| Spanned::new(0..0, DEFAULT_GAMES)),
            seed: key(src, faults, "seed", false).unwrap_or_else(|| Spanned::new(0..0, 1)),
            paired: key(src, faults, "paired", false).unwrap_or(false),
            seats: key(src, faults, "seats", false),
            schedule: key(src, faults, "schedule", false),
            anchor: key(src, faults, "anchor", false),
            estimator: key(src, faults, "estimator", false),
            sprt: key(src, faults, "sprt", false),
            bots: key(src, faults, "bots", true),
            table: key(src, faults, "table", false),
        })
    }
}

/// The TOML parser's error as this config's: at its line, its message on one line.
fn toml_error(src: &Source, e: &toml::de::Error) -> Error {
    let msg = one_line(e.message());
    match e.span() {
        Some(span) => src.error_at(&span, msg),
        None if src.flags => Error::input(msg),
        None => Error::input(format!("{}: {msg}", src.path)),
    }
}

/// Games per pairing when neither the file nor `--games` says.
pub const DEFAULT_GAMES: i64 = 100;

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
    /// The run's name: the config's `name`, else its file name; the default folder under results/.
    pub name: String,
    /// The game's registered name (`holdem`, `gomoku`, ...).
    pub game: &'static str,
    /// Games per pairing.
    pub games: u64,
    /// The master seed, 0..=i64::MAX (a TOML integer).
    pub seed: u64,
    /// Whether every deal is replayed with the seats rotated, so that luck of the deal cancels
    /// between the bots (paired games).
    pub paired: bool,
    /// Seats at the table.
    pub seats: usize,
    /// The table options (`[table]`), checked against the game's options, defaults filled in.
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
    /// The file's path as given, or a name for text that came from elsewhere (an error names it).
    pub path: &'a str,
    /// The TOML text; errors point into it.
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
    /// `--games`: games per pairing, replacing the file's (checked like it: a negative is refused).
    pub games: Option<i64>,
    /// `--seed`: the master seed, replacing the file's.
    pub seed: Option<u64>,
    /// How the payoff verdicts are estimated (`--estimator`, a gate's `estimator`).
    pub estimator: Option<Estimator>,
    /// An SPRT given on the command line (`--sprt payoff0=0,payoff1=1`): replaces the file's.
    pub sprt: Option<SprtGiven>,
    /// A time control for every bot that sets none of its own (`--tc 10+0.1`).
    pub tc: Option<String>,
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

    /// Parses config text; `default_name` names the run when the file does not. Every error of
    /// the text is found before any is told (`Faults`): one is told as it is, several together
    /// in line order ([`Error::Several`]).
    pub fn parse(arena: &Arena, src: &Source, default_name: &str, overrides: &Overrides) -> Result<RunConfig> {
        let mut faults = Faults::new(src);
        let file = ConfigFile::read(src, &mut faults)?;
        let config = RunConfig::resolve(arena, src, &file, default_name, overrides, &mut faults);
        faults.finish(config)
    }

    /// The config `file` says, with every error found kept in `faults`: each check that does not
    /// need what an earlier one refused is made (`None` when any error was found).
    fn resolve(
        arena: &Arena,
        src: &Source,
        file: &ConfigFile,
        default_name: &str,
        overrides: &Overrides,
        faults: &mut Faults,
    ) -> Option<RunConfig> {
        let seed = match overrides.seed {
            Some(seed) => Some(seed),
            None => faults.check(
                &file.seed.span(),
                u64::try_from(*file.seed.get_ref()).map_err(|_| Error::input("seed must be 0 or more")),
            ),
        };
        let games = match overrides.games {
            Some(games) if games <= 0 => {
                faults.told(None, Error::input(format!("--games must be at least 1, not {games}")));
                None
            }
            Some(games) => Some(games as u64),
            None if *file.games.get_ref() <= 0 => {
                faults.at(&file.games.span(), format!("games must be at least 1, not {}", file.games.get_ref()));
                None
            }
            None => Some(*file.games.get_ref() as u64),
        };
        let name = match &file.name {
            Some(name) => {
                faults.check(&name.span(), limits::check_run_name(name.get_ref())).map(|()| name.get_ref().clone())
            }
            None => Some(limits::run_name_from(default_name)),
        };
        // `None`: not given, the default chosen once the seats are known; `Some(None)`: refused.
        let shape = file.schedule.as_ref().map(|name| faults.check(&name.span(), schedule::shape(name.get_ref())));
        // Given by a flag, an error has no line to point at; in the file, it points at the key.
        let chosen = match (overrides.estimator, &file.estimator) {
            (Some(e), _) => Some(Some((e, None))),
            (None, None) => Some(None),
            (None, Some(name)) => {
                let e = <Estimator as clap::ValueEnum>::from_str(name.get_ref(), false).map_err(|_| {
                    Error::input(format!("estimator `{}` is not one of {}", name.get_ref(), Estimator::names()))
                });
                faults.check(&name.span(), e).map(|e| Some((e, Some(name.span()))))
            }
        };
        // The rest is the game's: without one, nothing more can be checked.
        let game = file.game.as_ref()?;
        let entry = faults.check(&game.span(), arena.find(game.get_ref()))?;
        let table_owner = format!("the {} table", entry.name());
        let table = match &file.table {
            Some(t) => {
                let mut given: Table = t.get_ref().iter().map(|(k, v)| (k.clone(), v.get_ref().clone())).collect();
                let preset = t.get_ref().get("preset").map_or(t.span(), |v| v.span());
                faults.check(&preset, TablePreset::expand(entry.tables(), entry.name(), &mut given, None)).and_then(
                    |()| {
                        resolve_paths(entry.options(), &mut given, &src.dir);
                        match Params::check(entry.options(), &given, &table_owner) {
                            Ok(params) => Some(params),
                            Err(errors) => {
                                // Each at the option at fault, or at [table] for one that is missing.
                                for e in errors {
                                    let span = match &e {
                                        Error::Param { key, .. } => t.get_ref().get(key).map_or(t.span(), |v| v.span()),
                                        _ => t.span(),
                                    };
                                    faults.at(&span, e);
                                }
                                None
                            }
                        }
                    },
                )
            }
            None => faults.check(&game.span(), Params::new(entry.options(), &Table::new(), &table_owner)),
        };
        let bot_values = file.bots.as_ref()?;
        let roster = Roster::load(entry).map_err(|e| faults.told(Some(&bot_values.span()), e)).ok();
        let mut entries = Vec::new();
        let mut origins = Vec::new();
        for value in bot_values.get_ref() {
            match roster
                .as_ref()
                .map(|roster| resolve_bot(entry, roster, value.get_ref(), &src.dir, overrides.tc.as_deref()))
            {
                Some(Ok((spec, origin))) => {
                    entries.push(spec);
                    origins.push(origin);
                }
                Some(Err(errors)) => {
                    for e in errors {
                        match e {
                            // Set in a roster file: its place is already in the message.
                            BotError::Roster(e) => faults.told(Some(&value.span()), e),
                            BotError::Here(e) => faults.at(&value.span(), e),
                        }
                    }
                }
                None => {}
            }
        }
        if bot_values.get_ref().is_empty() {
            faults.at(&bot_values.span(), "at least one bot is needed");
        }
        let seats = match &file.seats {
            Some(s) => {
                let n = *s.get_ref();
                let refused = n < 0 || !entry.seats().contains(&(n as usize));
                if refused {
                    let (min, max) = (*entry.seats().start(), *entry.seats().end());
                    faults.at(&s.span(), format!("{} is played by {min} to {max} seats, not {n}", entry.name()));
                }
                (!refused).then_some(n as usize)
            }
            None => Some(bot_values.get_ref().len().clamp(*entry.seats().start(), *entry.seats().end())),
        };
        // What follows weighs the bots together and builds the table: it needs them all.
        if entries.is_empty() || entries.len() != bot_values.get_ref().len() {
            return None;
        }
        let (bots, listed) = match distinct_bots(&entries) {
            Ok(distinct) => distinct,
            Err((later, earlier)) => {
                let span = |i: usize| bot_values.get_ref()[i].span();
                let msg = format!(
                    "two different bots are named `{}`: {} and, at line {}, {}; give one of them another name",
                    entries[later].name,
                    origins[later],
                    src.line_of(&span(earlier)),
                    origins[earlier]
                );
                faults.at(&span(later), msg);
                return None;
            }
        };
        let anchor = match &file.anchor {
            None => Some(Anchor::Mean),
            Some(name) => match bots.iter().position(|b| b.name == *name.get_ref()) {
                Some(i) => Some(Anchor::Bot(i)),
                None => {
                    let known: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
                    let msg = format!("anchor `{}` is not a bot of this run ({})", name.get_ref(), known.join(", "));
                    faults.at(&name.span(), msg);
                    None
                }
            },
        };
        let seats = seats?;
        let shape = match shape {
            Some(shape) => shape,
            None => Some(schedule::default_shape(listed.len(), seats)),
        };
        if let (Some(shape), Some(games)) = (shape, games) {
            let replays = if file.paired { seats as u64 } else { 1 };
            let rounded = games.div_ceil(replays) * replays;
            // Before the shape lists its tables: a round robin of many bots is checked, not built.
            match limits::check_size(limits::pairings(bots.len(), seats), rounded) {
                Err(e) if overrides.games.is_some() => faults.told(None, e),
                Err(e) => faults.at(&file.games.span(), e),
                Ok(()) => {
                    let at = file.schedule.as_ref().map_or(bot_values.span(), |s| s.span());
                    faults.check(&at, shape.tables(&listed, bots.len(), seats));
                }
            }
        }
        // Build the table once so that range checks in the game and its bots point at the line
        // that set the value: options at [table], a bot's parameters at that bot.
        let table = table?;
        let table_span = |e: &Error| match (&file.table, e) {
            (Some(t), Error::Param { key, .. }) => t.get_ref().get(key).map_or(t.span(), |v| v.span()),
            (Some(t), _) => t.span(),
            (None, _) => game.span(),
        };
        let venue = entry.venue(&table, seats, &[], None).map_err(|e| faults.at(&table_span(&e), e)).ok()?;
        let headline = venue.headline();
        for (bot, value) in entries.iter().zip(bot_values.get_ref()) {
            faults.check(&value.span(), entry.venue(&table, seats, std::slice::from_ref(bot), None));
        }
        let plain = if file.paired { Estimator::Duplicate } else { Estimator::Plain };
        let estimator = match chosen? {
            None => Some(plain),
            Some((chosen, at)) => {
                let mut fail = |msg: String| match &at {
                    Some(span) => faults.at(span, msg),
                    None => faults.told(None, Error::input(format!("--estimator {}: {msg}", chosen.name()))),
                };
                let holdem_sng = if entry.name() == "holdem" { " sng" } else { "" };
                match chosen {
                    Estimator::Duplicate if !file.paired => {
                        fail("estimator `duplicate` needs paired deals (`paired = true`)".into());
                        None
                    }
                    Estimator::Plain | Estimator::Duplicate => Some(plain),
                    Estimator::Covariates if !venue.has_covariate() => {
                        fail(format!(
                            "estimator `covariates` needs a game that declares a starting strength (holdem cash, stud, zhajinhua, mahjong), not {}{holdem_sng}",
                            entry.name(),
                        ));
                        None
                    }
                    Estimator::Covariates => Some(Estimator::Covariates),
                    adjusted if !venue.adjusts() => {
                        fail(format!(
                            "estimator `{}` needs a game with a value function (holdem cash, stud, zhajinhua, mahjong one hand without flowers), not {}{}",
                            adjusted.name(),
                            entry.name(),
                            if entry.name() == "mahjong" { " with flowers or 16 hands" } else { holdem_sng },
                        ));
                        None
                    }
                    adjusted => Some(adjusted),
                }
            }
        };
        let place = SprtPlace { payoff: Some(headline.unit), seats, flags: false };
        let sprt = match (&overrides.sprt, &file.sprt) {
            // `--sprt` replaces the file's `[sprt]`: its errors are the flag's, at no line.
            (Some(_), _) if bots.len() != 2 => {
                faults.told(None, Error::input(format!("--sprt needs exactly two distinct bots, not {}", bots.len())));
                None
            }
            (Some(given), _) => match given.resolve(place) {
                Ok(sprt) => Some(Some(sprt)),
                Err((_, e)) => {
                    faults.told(None, Error::input(format!("--sprt: {e}")));
                    None
                }
            },
            (None, None) => Some(None),
            (None, Some(spanned)) if bots.len() != 2 => {
                faults.at(&spanned.span(), format!("[sprt] needs exactly two distinct bots, not {}", bots.len()));
                None
            }
            (None, Some(spanned)) => {
                spanned.get_ref().resolve(place, spanned.span()).map_err(|(at, e)| faults.at(&at, e)).ok().map(Some)
            }
        };
        Some(RunConfig {
            sprt: sprt?,
            headline,
            estimator: estimator?,
            name: name?,
            game: entry.name(),
            games: games?,
            seed: seed?,
            paired: file.paired,
            seats,
            table,
            bots,
            listed,
            shape: shape?,
            anchor: anchor?,
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
            t.insert("unit".into(), Value::String(sprt.unit.name.into()));
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
/// error that names it beside another. Its parameters' errors are all found.
fn resolve_bot(
    entry: &dyn GameEntry,
    roster: &Roster,
    value: &Value,
    dir: &Path,
    tc: Option<&str>,
) -> Result<(BotChoice, String), Vec<BotError>> {
    let inline = match value {
        Value::String(name) => InlineBot { name: name.clone(), kind: None, params: Table::new() },
        Value::Table(_) => value.clone().try_into().map_err(|e: toml::de::Error| {
            vec![Error::input(format!("bad bot entry: {}", one_line(e.message()))).into()]
        })?,
        other => {
            let e = Error::input(format!("a bot is a name or a table, not {}", shown(&other.to_string())));
            return Err(vec![e.into()]);
        }
    };
    let one = |e: Error| vec![BotError::Here(e)];
    limits::check_bot_name(&inline.name).map_err(one)?;
    let base = inline.kind.as_deref().unwrap_or(&inline.name);
    let resolved = roster.lookup(entry, base).map_err(one)?;
    let specs = BotChoice::specs(entry.bot_params(&resolved.kind).expect("roster lookup checked the kind"));
    let mut params = resolved.params.clone();
    let mut inline_params = inline.params.clone();
    resolve_paths(&specs, &mut inline_params, dir);
    params.extend(inline_params);
    if let Some(tc) = tc {
        // The run's clock, for a bot that gives none itself.
        params.entry("tc").or_insert_with(|| Value::String(tc.to_string()));
    }
    let placed = |e: Error| match &e {
        Error::Param { key, .. } if !inline.params.contains_key(key) => match resolved.place_of(key) {
            Some(place) => BotError::Roster(Error::input(format!("{place}: {e}"))),
            None => BotError::Here(e),
        },
        _ => BotError::Here(e),
    };
    let params = Params::check(&specs, &params, &format!("bot `{}`", inline.name))
        .map_err(|errors| errors.into_iter().map(placed).collect::<Vec<_>>())?;
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
