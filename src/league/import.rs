//! `arena league add`: a finished run folder into the league, every game once.
//!
//! A run is known by its key: the hash of its resolved config (which holds the seed and every
//! bot's parameters) and of its bots' versions. A game is known by its run, its pairing and its
//! index there, so a shard's games and the merged run's are the same rows: adding a shard, then
//! the merged run (or the same folder twice) adds only the games not yet kept.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{params, TransactionBehavior};

use crate::error::{Error, Result};
use crate::league::db::{sql, League};
use crate::report::{check_run_folder, config_hash, now, read_games_text, Manifest, CONFIG};

/// What adding one folder did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Added {
    /// The run's name (its config's).
    pub(crate) name: String,
    /// The game.
    pub(crate) game: String,
    /// Whole games with a result read from the folder.
    pub(crate) read: u64,
    /// Of those, the games the league did not hold yet.
    pub(crate) new: u64,
    /// Each bot's version as kept.
    pub(crate) versions: Vec<(String, String)>,
}

/// One bot of the run as its config.toml names it.
struct RunBot {
    name: String,
    kind: String,
    params: String,
}

/// Adds the run folder `dir` to `league`; `labels` gives a bot (by name) a version label of the
/// user's, `label` every other bot's (else the tool's commit and the parameters' hash).
pub(crate) fn add(
    league: &mut League,
    dir: &Path,
    labels: &BTreeMap<String, String>,
    label: Option<&str>,
) -> Result<Added> {
    check_run_folder(dir, &[CONFIG])?;
    let manifest = Manifest::read(dir)?;
    if !manifest.status.is_whole() {
        return Err(Error::input(format!(
            "{}: the run is not finished (status {}): resume it (`arena resume`) or add it when it ends",
            dir.display(),
            manifest.status.as_str()
        )));
    }
    let config_path = dir.join(CONFIG);
    let text = std::fs::read_to_string(&config_path).map_err(|e| Error::io(&config_path, e))?;
    let config: toml::Table = text.parse().map_err(|e| Error::input(format!("{}: {e}", config_path.display())))?;
    let bad = |what: &str| Error::input(format!("{}: {what}", config_path.display()));
    let field = |key: &str| config.get(key).and_then(|v| v.as_str()).ok_or_else(|| bad(&format!("no `{key}`")));
    let (game, name) = (field("game")?.to_string(), field("name")?.to_string());
    let seed = config.get("seed").and_then(|v| v.as_integer()).ok_or_else(|| bad("no `seed`"))?;
    let seats = config.get("seats").and_then(|v| v.as_integer()).ok_or_else(|| bad("no `seats`"))? as usize;
    let bots: Vec<RunBot> = config
        .get("bots")
        .and_then(|v| v.as_array())
        .ok_or_else(|| bad("no `[[bots]]`"))?
        .iter()
        .map(|bot| {
            let get = |key: &str| bot.get(key).and_then(|v| v.as_str()).map(str::to_string);
            let params = bot.get("params").map(|p| serde_json::to_string(p).unwrap_or_default()).unwrap_or_default();
            Some(RunBot { name: get("name")?, kind: get("kind")?, params })
        })
        .collect::<Option<_>>()
        .ok_or_else(|| bad("a bot without its `name` or `kind`"))?;
    if let Some(unknown) = labels.keys().find(|k| !bots.iter().any(|b| &b.name == *k)) {
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        return Err(Error::input(format!(
            "--version {unknown}=...: the run has no bot `{unknown}` (its bots: {})",
            names.join(", ")
        )));
    }
    let commit: String = manifest.commit.chars().take(7).collect();
    let version_of = |bot: &RunBot| match labels.get(&bot.name).map(String::as_str).or(label) {
        Some(label) => label.to_string(),
        None => {
            let params = config_hash(&format!("{}\n{}", bot.kind, bot.params));
            format!("{commit}:{}", &params[params.len() - 8..])
        }
    };
    let versions: Vec<(String, String)> = bots.iter().map(|b| (b.name.clone(), version_of(b))).collect();
    let identity: Vec<String> = versions.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let key = config_hash(&format!("{}\n{}", manifest.config_hash, identity.join("\n")));

    let games_path = manifest.records.path_in(dir)?;
    if !games_path.to_string_lossy().contains("games.csv") {
        return Err(Error::input(format!(
            "{}: the run keeps its games in {} only; the league reads games.csv (run with --records csv or gz)",
            dir.display(),
            games_path.display()
        )));
    }
    let games_text = read_games_text(&games_path)?;

    let path = league.path.clone();
    let e = |e: rusqlite::Error| sql(&path, e);
    let tx = league.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(e)?;
    tx.execute(
        "INSERT OR IGNORE INTO runs (key, game, name, seed, config_hash, tool_commit, started)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![key, game, name, seed, manifest.config_hash, manifest.commit, manifest.started],
    )
    .map_err(e)?;
    let run: i64 = tx.query_row("SELECT id FROM runs WHERE key = ?1", [&key], |r| r.get(0)).map_err(e)?;
    let mut bot_ids: BTreeMap<&str, i64> = BTreeMap::new();
    for (bot, (_, version)) in bots.iter().zip(&versions) {
        tx.execute(
            "INSERT INTO bots (game, name, version, kind, params, first_started) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (game, name, version) DO UPDATE SET first_started = min(first_started, excluded.first_started)",
            params![game, bot.name, version, bot.kind, bot.params, manifest.started],
        )
        .map_err(e)?;
        let id: i64 = tx
            .query_row(
                "SELECT id FROM bots WHERE game = ?1 AND name = ?2 AND version = ?3",
                params![game, bot.name, version],
                |r| r.get(0),
            )
            .map_err(e)?;
        bot_ids.insert(&bot.name, id);
    }

    let (mut read, mut new) = (0u64, 0u64);
    {
        let mut insert = tx
            .prepare("INSERT OR IGNORE INTO results (run, pairing, game, seat, bot, payoff, place) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
            .map_err(e)?;
        let mut rows = Rows::new(&games_text, &games_path, seats, &bot_ids)?;
        while let Some(game) = rows.next_game()? {
            read += 1;
            let mut added = 0;
            for seat in &game.seats {
                added += insert
                    .execute(params![run, game.pairing, game.index, seat.0, seat.1, seat.2, seat.3])
                    .map_err(e)?;
            }
            new += u64::from(added > 0);
        }
    }
    let shard = manifest.shard.map(|s| s.to_string());
    tx.execute(
        "INSERT INTO imports (run, folder, shard, games_read, games_new, added) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![run, dir.display().to_string(), shard, read as i64, new as i64, now()],
    )
    .map_err(e)?;
    tx.commit().map_err(e)?;
    Ok(Added { name, game, read, new, versions })
}

/// One game read from games.csv: its pairing, index, and each seat's (seat, bot id, payoff, place).
struct Game {
    pairing: i64,
    index: i64,
    seats: Vec<(i64, i64, f64, i64)>,
}

/// games.csv read game by game, with the columns found by name (each game adds its own after
/// them). A game any seat of which ended in an engine error has no result and is left out, as is
/// a last game cut short.
struct Rows<'a> {
    reader: csv::Reader<&'a [u8]>,
    path: &'a Path,
    seats: usize,
    bots: &'a BTreeMap<&'a str, i64>,
    at: [usize; 7],
    row: csv::StringRecord,
    pending: Option<Game>,
    errored: bool,
}

const COLUMNS: [&str; 7] = ["pairing", "game", "seat", "bot", "payoff", "place", "status"];

impl<'a> Rows<'a> {
    fn new(text: &'a [u8], path: &'a Path, seats: usize, bots: &'a BTreeMap<&'a str, i64>) -> Result<Rows<'a>> {
        let mut reader = csv::ReaderBuilder::new().from_reader(text);
        let header = reader.headers().map_err(|e| Error::input(format!("{}: {e}", path.display())))?.clone();
        let mut at = [0; 7];
        for (slot, name) in at.iter_mut().zip(COLUMNS) {
            *slot = header
                .iter()
                .position(|h| h == name)
                .ok_or_else(|| Error::input(format!("{}: no `{name}` column: not a games.csv", path.display())))?;
        }
        Ok(Rows { reader, path, seats, bots, at, row: csv::StringRecord::new(), pending: None, errored: false })
    }

    /// The next whole game with a result, `None` at the end.
    fn next_game(&mut self) -> Result<Option<Game>> {
        loop {
            let line = self.reader.position().line();
            let more = match self.reader.read_record(&mut self.row) {
                Ok(more) => more,
                // A row cut short at the end of a file is not a game; elsewhere the file is bad.
                Err(_) if self.reader.is_done() => false,
                Err(e) => return Err(Error::input(format!("{}: line {line}: {e}", self.path.display()))),
            };
            if !more {
                return Ok(None);
            }
            let field = |k: usize| self.row.get(self.at[k]).unwrap_or_default();
            let bad = |what: &str| Error::input(format!("{}: line {line}: {what}", self.path.display()));
            let int =
                |k: usize| field(k).parse::<i64>().map_err(|_| bad(&format!("`{}` is not a whole number", COLUMNS[k])));
            let (pairing, index, seat) = (int(0)?, int(1)?, int(2)?);
            let bot = *self
                .bots
                .get(field(3))
                .ok_or_else(|| bad(&format!("the bot `{}` is not in config.toml", field(3))))?;
            let errored = field(6).starts_with("error");
            let (payoff, place) = if errored {
                (0.0, 0)
            } else {
                (field(4).parse::<f64>().map_err(|_| bad("`payoff` is not a number"))?, int(5)?)
            };
            let same = self.pending.as_ref().is_some_and(|g| (g.pairing, g.index) == (pairing, index));
            if !same {
                self.pending = Some(Game { pairing, index, seats: Vec::with_capacity(self.seats) });
                self.errored = false;
            }
            self.errored |= errored;
            let game = self.pending.as_mut().expect("a game under way");
            game.seats.push((seat, bot, payoff, place));
            if game.seats.len() == self.seats {
                let game = self.pending.take().expect("a whole game");
                if !self.errored {
                    return Ok(Some(game));
                }
            }
        }
    }
}
