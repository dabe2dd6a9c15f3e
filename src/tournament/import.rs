//! `arena import FORMAT FILE...`: games another program played (an ACPC dealer's log) into a run
//! folder whose files are those of a run played here.
//!
//! The game that reads the format ([`crate::registry::GameEntry::import`]) plays each game's
//! actions through its rules; here the games are placed in a schedule and handed to
//! [`Run::play`] as *known* games (as [`crate::tournament::merge`] does with shards), so
//! games.csv, summary.csv, match.csv, ratings.csv and run.json come out as for a run.
//!
//! Placement: the players, listed in the first log's order, sit one a seat; each game's seat order
//! must be a rotation of that list (rotation `r` seats player `(seat + r) mod N` in `seat`).
//! - A duplicate match (every deal key once in each of the N rotations: two logs of one seed with
//!   the players swapped) is a paired run: game `g` is deal `g / N` in rotation `g mod N`, the
//!   order `Schedule::job` seats, so the statistics take each deal's games as one observation.
//! - A match that deals each hand once is not paired: schedule `rotations`, one pairing a seat
//!   order, holding that order's hands in the order played; the orders must hold as many hands
//!   each (a log whose hand count is not a multiple of the seats cannot be placed).
//!
//! Anything else (a deal in some rotations only, a seat order that is not a rotation) is refused.

use std::collections::HashMap;
use std::path::Path;

use crate::config::{Overrides, RunConfig, Source};
use crate::core::schedule::Schedule;
use crate::core::ImportFile;
use crate::error::{Error, Result};
use crate::registry::{Arena, ImportedRecord};
use crate::report::{GameRow, Manifest, RunTally};
use crate::tournament::folder::{FolderLock, HISTORY};
use crate::tournament::run::{begin, names, open_table, Known, KnownGame, Output, Run, RunReport, Start};
use crate::tournament::runner::{Plan, RunOptions};

/// Games read from another program's logs and placed in a schedule: what [`Import::write`] puts
/// into a run folder.
pub struct Import {
    /// The config.toml written (comments say where the games come from).
    pub config: String,
    pub cfg: RunConfig,
    pub schedule: Schedule,
    /// What the logs said of themselves (the source's own totals).
    pub notes: Vec<String>,
    /// Each player's payoffs added up over the games placed, and its games (in the run's bot order).
    pub totals: Vec<(f64, u64)>,
    games: Vec<KnownGame>,
}

/// The formats `arena import` reads, with the game that reads each: (format, game, about).
pub fn formats(arena: &Arena) -> Vec<(&'static str, &'static str, &'static str)> {
    arena.games().flat_map(|g| g.importers().into_iter().map(move |(f, about)| (f, g.name(), about))).collect()
}

/// The rotation that seats `players` (player `(seat + r) mod N` in `seat`), if one does.
fn rotation(players: &[usize]) -> Option<u64> {
    let n = players.len();
    (0..n).find(|&r| players.iter().enumerate().all(|(seat, &p)| p == (seat + r) % n)).map(|r| r as u64)
}

impl Import {
    /// Reads `files` in `format` and places their games; `name`: the run's name.
    pub fn read(arena: &Arena, format: &str, files: &[ImportFile], name: &str) -> Result<Import> {
        let known = formats(arena);
        let (_, game, _) = known.iter().find(|(f, _, _)| *f == format).ok_or_else(|| {
            let list: Vec<&str> = known.iter().map(|(f, _, _)| *f).collect();
            let known = crate::core::suggest::known_names(format, &list);
            Error::input(format!("unknown import format {} ({known})", crate::error::shown(format)))
        })?;
        let run = arena.find(game)?.import(format, files)?;
        let n = run.seats;
        if run.players.len() != n || run.games.is_empty() {
            return Err(Error::input(format!(
                "{} players and {} games at {n} seats: an import seats one player a seat",
                run.players.len(),
                run.games.len()
            )));
        }
        let mut rotations = Vec::with_capacity(run.games.len());
        for g in &run.games {
            let r = rotation(&g.players).ok_or_else(|| {
                let order: Vec<&str> = g.players.iter().map(|&p| run.players[p].as_str()).collect();
                Error::input(format!(
                    "{}: seat order {} is not a rotation of {}: this game cannot be placed",
                    g.place,
                    order.join(", "),
                    run.players.join(", ")
                ))
            })?;
            rotations.push(r);
        }
        let (paired, games, indexes) = place(&run.games, &rotations, n as u64)?;
        let config = config_text(game, &run, paired, games, files)?;
        let cfg = RunConfig::parse(arena, &Source::file("(import)", &config), name, &Overrides::default())?;
        let schedule = cfg.schedule()?;
        let mut placed: Vec<KnownGame> = run
            .games
            .into_iter()
            .zip(indexes)
            .map(|(g, index)| {
                let job = schedule.job(index);
                let mut record = g.record;
                record.seed = job.seeds.deal;
                debug_assert_eq!(job.lineup[..], g.players[..]);
                let row = GameRow { pairing: job.pairing, game: job.game, lineup: job.lineup, record, end: 0 };
                KnownGame { index, row, line: None }
            })
            .collect();
        placed.sort_unstable_by_key(|g| g.index);
        let mut totals = vec![(0.0, 0); cfg.bots.len()];
        for g in &placed {
            for (seat, &bot) in g.row.lineup.iter().enumerate() {
                totals[bot].0 += g.row.record.seats[seat].payoff;
                totals[bot].1 += 1;
            }
        }
        debug_assert!(placed.iter().enumerate().all(|(i, g)| g.index == i as u64));
        Ok(Import { config, cfg, schedule, notes: run.notes, totals, games: placed })
    }

    /// Whether the games were placed as a duplicate match.
    pub fn paired(&self) -> bool {
        self.schedule.replays > 1
    }

    /// Writes the run into `out`, which `lock` holds and [`folder::ready`](crate::tournament::folder::ready)
    /// has made ready.
    pub fn write(self, arena: &Arena, out: &Path, lock: FolderLock, opts: &RunOptions) -> Result<RunReport> {
        let Import { config, cfg, schedule, games, .. } = self;
        let table = open_table(arena, &cfg, opts.history, out)?;
        let manifest = Manifest::start(&config, schedule.total(), None, opts.records, arena.program());
        let output = begin(out, &config, &manifest, || {
            if opts.history {
                let history = out.join(HISTORY);
                std::fs::create_dir_all(&history).map_err(|e| Error::io(&history, e))?;
            }
            Output::fresh(out, table.columns(), opts.records)
        })?;
        let known: Known = games.into_iter().collect();
        let plan = Plan { games: Box::new(std::iter::empty()), count: 0, done: 0 };
        let tally = RunTally::new(&schedule, names(&cfg));
        let run = Run { cfg: &cfg, table, schedule, dir: out, opts, manifest, lock, timed: false };
        run.play(tally, Start::Fresh, known, plan, output)
    }
}

/// Each game's tournament index: paired when every deal is played once in each rotation, else
/// one pairing a rotation. Returns (paired, games a pairing, indexes).
fn place(games: &[ImportedRecord], rotations: &[u64], n: u64) -> Result<(bool, u64, Vec<u64>)> {
    let mut deals: HashMap<u64, usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let d = *deals.entry(g.deal).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[d].push(i);
    }
    let mut indexes = vec![0u64; games.len()];
    if members.iter().all(|m| m.len() == 1) {
        let mut counts = vec![0u64; n as usize];
        let mut k = vec![0u64; games.len()];
        for (i, &r) in rotations.iter().enumerate() {
            k[i] = counts[r as usize];
            counts[r as usize] += 1;
        }
        if counts.iter().any(|&c| c != counts[0]) {
            let shown: Vec<String> = counts.iter().map(u64::to_string).collect();
            return Err(Error::input(format!(
                "{} games dealt once each do not fill the {n} seat orders evenly ({} games in them): an unpaired import is one pairing a seat order, of as many games each",
                games.len(),
                shown.join(", ")
            )));
        }
        for (i, &r) in rotations.iter().enumerate() {
            indexes[i] = r * counts[0] + k[i];
        }
        return Ok((false, counts[0], indexes));
    }
    for (d, m) in members.iter().enumerate() {
        let mut seen: Vec<u64> = m.iter().map(|&i| rotations[i]).collect();
        seen.sort_unstable();
        if seen != (0..n).collect::<Vec<_>>() {
            let g = &games[m[0]];
            return Err(Error::input(format!(
                "{}: this deal is played {} time{} ({}), not once in each of the {n} seat orders: the games cannot be placed as a duplicate match",
                g.place,
                m.len(),
                if m.len() == 1 { "" } else { "s" },
                m.iter().map(|&i| games[i].place.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        for &i in m {
            indexes[i] = d as u64 * n + rotations[i];
        }
    }
    Ok((true, members.len() as u64 * n, indexes))
}

/// The run's config: the game, the table the importer read, the seed the logs name, the players
/// as bots and the schedule the games were placed in.
fn config_text(
    game: &str,
    run: &crate::registry::ImportedRun,
    paired: bool,
    games: u64,
    files: &[ImportFile],
) -> Result<String> {
    let seed = i64::try_from(run.seed)
        .map_err(|_| Error::input(format!("seed {} is above a run's largest (2^63 - 1)", run.seed)))?;
    let from: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let mut text = format!(
        "# Imported by `arena import` from: {}\n\
         # These games were played by another program; the bots below stand for its players and\n\
         # played none of them here.\n",
        from.join(", ")
    );
    let mut doc = toml::Table::new();
    doc.insert("game".into(), toml::Value::String(game.into()));
    doc.insert("games".into(), toml::Value::Integer(games as i64));
    doc.insert("seed".into(), toml::Value::Integer(seed));
    doc.insert("paired".into(), toml::Value::Boolean(paired));
    doc.insert("seats".into(), toml::Value::Integer(run.seats as i64));
    let shape = if paired { "single-table" } else { "rotations" };
    doc.insert("schedule".into(), toml::Value::String(shape.into()));
    text.push_str(&toml::to_string(&doc).expect("a config serialises"));
    // Each player as the kind of bot that played (an ACPC agent: one that would connect to the
    // port the kind prints, were the run played here).
    text.push_str("bots = [\n");
    let kind = toml::Value::String(run.player_kind.to_string());
    for player in &run.players {
        let name = toml::Value::String(player.clone());
        text.push_str(&format!("  {{ name = {name}, kind = {kind} }},  # imported: played elsewhere\n"));
    }
    text.push_str("]\n\n[table]\n");
    text.push_str(&toml::to_string(&run.options).expect("options serialise"));
    Ok(text)
}
