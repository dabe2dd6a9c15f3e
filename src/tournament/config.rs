//! Tournament configs: the TOML a user writes, checked and resolved into a [`RunConfig`].
//!
//! Every error names the file and line (`configs/x.toml:7: unknown bot ...`). Unknown keys are
//! errors. The resolved config (every bot's kind and every parameter, defaults included) is
//! written beside the results, so `arena run results/x/config.toml` repeats a run exactly.

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::{Spanned, Table, Value};

use crate::core::Params;
use crate::error::{Error, Result};
use crate::games::{Arena, BotChoice, GameEntry};
use crate::stats::{Sprt, SprtModel};
use crate::tournament::roster::Roster;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    name: Option<String>,
    game: Spanned<String>,
    games: Spanned<i64>,
    #[serde(default = "default_seed")]
    seed: Spanned<i64>,
    #[serde(default)]
    paired: bool,
    seats: Option<Spanned<i64>>,
    sprt: Option<Spanned<SprtFile>>,
    bots: Spanned<Vec<Spanned<Value>>>,
    table: Option<Spanned<Table>>,
}

fn default_seed() -> Spanned<i64> {
    Spanned::new(0..0, 1)
}

/// `[sprt]`: stop as soon as the test decides.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SprtFile {
    /// The hypotheses in the model's unit; `payoff0`/`payoff1` read better for the payoff model.
    #[serde(alias = "payoff0")]
    elo0: f64,
    #[serde(alias = "payoff1")]
    elo1: f64,
    #[serde(default = "default_error_rate")]
    alpha: f64,
    #[serde(default = "default_error_rate")]
    beta: f64,
    #[serde(default = "default_model")]
    model: String,
}

fn default_error_rate() -> f64 {
    0.05
}

fn default_model() -> String {
    "normalized".into()
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

/// One bot of a resolved config.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    /// The name in the results (unique within the run).
    pub name: String,
    pub choice: BotChoice,
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
    pub bots: Vec<BotSpec>,
    /// Stop the run when this test decides (two bots only).
    pub sprt: Option<Sprt>,
}

/// Where a config came from, to locate errors.
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    fn line_of(&self, span: &Range<usize>) -> usize {
        1 + self.text[..span.start.min(self.text.len())].matches('\n').count()
    }

    /// `file:line: message`.
    pub fn error_at(&self, span: &Range<usize>, msg: impl std::fmt::Display) -> Error {
        Error::input(format!("{}:{}: {msg}", self.path, self.line_of(span)))
    }
}

/// The settings a command line can give instead of (or on top of) a file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub games: Option<i64>,
    pub seed: Option<u64>,
}

impl RunConfig {
    /// Reads and resolves a config file.
    pub fn load(arena: &Arena, path: &Path, overrides: &Overrides) -> Result<RunConfig> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("run").to_string();
        let shown = path.display().to_string();
        RunConfig::parse(arena, &Source { path: &shown, text: &text }, &stem, overrides)
    }

    /// Parses config text; `default_name` names the run when the file does not.
    pub fn parse(arena: &Arena, src: &Source, default_name: &str, overrides: &Overrides) -> Result<RunConfig> {
        let file: ConfigFile = toml::from_str(src.text).map_err(|e| {
            let msg = one_line(e.message());
            match e.span() {
                Some(span) => src.error_at(&span, msg),
                None => Error::input(format!("{}: {msg}", src.path)),
            }
        })?;
        let seed = match overrides.seed {
            Some(seed) => seed,
            None => u64::try_from(*file.seed.get_ref())
                .map_err(|_| src.error_at(&file.seed.span(), "seed must be 0 or more"))?,
        };
        let entry = arena.find(file.game.get_ref()).map_err(|e| src.error_at(&file.game.span(), e))?;
        let games = overrides.games.unwrap_or(*file.games.get_ref());
        if games <= 0 {
            return Err(src.error_at(&file.games.span(), format!("games must be at least 1, not {games}")));
        }
        let table_owner = format!("the {} table", entry.name());
        let table = match &file.table {
            Some(t) => {
                Params::new(entry.options(), t.get_ref(), &table_owner).map_err(|e| src.error_at(&t.span(), e))?
            }
            None => Params::new(entry.options(), &Table::new(), &table_owner)?,
        };
        let roster = Roster::load(entry)?;
        let mut bots = Vec::new();
        for value in file.bots.get_ref() {
            let spec = resolve_bot(entry, &roster, value.get_ref()).map_err(|e| src.error_at(&value.span(), e))?;
            bots.push(spec);
        }
        if bots.is_empty() {
            return Err(src.error_at(&file.bots.span(), "at least one bot is needed"));
        }
        unique_names(&mut bots);
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
            None => bots.len().clamp(*entry.seats().start(), *entry.seats().end()),
        };
        // Build the table once so that range checks in the game and its bots point at the line
        // that set the value: options at [table], a bot's parameters at that bot.
        let table_span = file.table.as_ref().map(|t| t.span()).unwrap_or(file.game.span());
        entry.table(&table, seats, &[]).map_err(|e| src.error_at(&table_span, e))?;
        for (bot, value) in bots.iter().zip(file.bots.get_ref()) {
            entry
                .table(&table, seats, std::slice::from_ref(&bot.choice))
                .map_err(|e| src.error_at(&value.span(), e))?;
        }
        let sprt = match &file.sprt {
            None => None,
            Some(spanned) => {
                let at = |e| src.error_at(&spanned.span(), e);
                let f = spanned.get_ref();
                let model: SprtModel = f.model.parse().map_err(at)?;
                if bots.len() != 2 {
                    return Err(at(Error::input(format!("[sprt] needs exactly two bots, not {}", bots.len()))));
                }
                Some(Sprt::new(f.elo0, f.elo1, f.alpha, f.beta, model).map_err(at)?)
            }
        };
        Ok(RunConfig {
            sprt,
            name: file.name.unwrap_or_else(|| default_name.to_string()),
            game: entry.name(),
            games: games as u64,
            seed,
            paired: file.paired,
            seats,
            table,
            bots,
        })
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
            .bots
            .iter()
            .map(|b| {
                let mut t = Table::new();
                t.insert("name".into(), Value::String(b.name.clone()));
                t.insert("kind".into(), Value::String(b.choice.kind.clone()));
                t.insert("params".into(), Value::Table(b.choice.params.table().clone()));
                Value::Table(t)
            })
            .collect();
        doc.insert("bots".into(), Value::Array(bots));
        doc.insert("table".into(), Value::Table(self.table.table().clone()));
        if let Some(sprt) = &self.sprt {
            let mut t = Table::new();
            let [h0, h1] = if sprt.model == SprtModel::Payoff { ["payoff0", "payoff1"] } else { ["elo0", "elo1"] };
            t.insert(h0.into(), Value::Float(sprt.h0));
            t.insert(h1.into(), Value::Float(sprt.h1));
            t.insert("alpha".into(), Value::Float(sprt.alpha));
            t.insert("beta".into(), Value::Float(sprt.beta));
            t.insert("model".into(), Value::String(sprt.model.to_string()));
            doc.insert("sprt".into(), Value::Table(t));
        }
        let mut out = String::from("# Resolved by bot-arena: every bot and parameter explicit.\n");
        out.push_str(&toml::to_string(&doc).expect("a config serialises"));
        out
    }
}

/// toml's messages may span lines ("invalid string\nexpected ..."): join them.
pub fn one_line(msg: &str) -> String {
    msg.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

/// A bot entry: `"name"` (roster entry or kind) or `{ name, kind, params }`.
fn resolve_bot(entry: &dyn GameEntry, roster: &Roster, value: &Value) -> Result<BotSpec> {
    let inline = match value {
        Value::String(name) => InlineBot { name: name.clone(), kind: None, params: Table::new() },
        Value::Table(_) => value
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| Error::input(format!("bad bot entry: {}", one_line(e.message()))))?,
        other => return Err(Error::input(format!("a bot is a name or a table, not {other}"))),
    };
    let base = inline.kind.as_deref().unwrap_or(&inline.name);
    let (kind, mut params) = roster.lookup(entry, base)?;
    params.extend(inline.params);
    let specs = entry.bot_params(&kind).expect("roster lookup checked the kind");
    let params = Params::new(specs, &params, &format!("bot `{}`", inline.name))?;
    Ok(BotSpec { name: inline.name, choice: BotChoice { kind, params } })
}

/// Two bots with one name (e.g. a bot against itself) become `name` and `name#2`.
fn unique_names(bots: &mut [BotSpec]) {
    for i in 1..bots.len() {
        let taken = |name: &str, bots: &[BotSpec]| bots[..i].iter().any(|b| b.name == name);
        if taken(&bots[i].name, bots) {
            let base = bots[i].name.clone();
            let mut k = 2;
            while taken(&format!("{base}#{k}"), bots) {
                k += 1;
            }
            bots[i].name = format!("{base}#{k}");
        }
    }
}
