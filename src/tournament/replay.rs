//! `arena replay`: a run's records.jsonl read back, and played back through the rules.
//!
//! [`RunRecords::check`] holds every record to the rules and to the run's other files: the game's
//! place (pairing, game, seats) is the schedule's; the deal is the one its seed deals; every
//! action is the seat to act's and legal; every chance event is the one the rules reveal; and the
//! record line and the game's games.csv rows the rules write for those events are, byte for byte,
//! the ones on disk. The first game that fails is named, with the event where it parts from the
//! rules (or the field it differs in, when every event was legal: an action changed for another
//! legal one shows in the result).

use std::path::Path;
use std::sync::Arc;

use crate::config::{Overrides, RunConfig};
use crate::core::record::{Event, Frame};
use crate::core::schedule::{Job, Schedule};
use crate::core::{Fault, FaultKind, Played, Status};
use crate::error::{Error, Result};
use crate::registry::{Arena, Venue};
use crate::report::html::viewer::{self, Pick, Step, ViewedGame};
use crate::report::html::RunData;
use crate::report::records::{self, RecordLine, Recorded, StatusIn};
use crate::report::{check_run_folder, GamesFile, Manifest, RowFormat, CONFIG, MANIFEST};
use crate::tournament::run::names;

/// A run folder's records, opened to be checked or shown.
pub struct RunRecords {
    pub cfg: RunConfig,
    schedule: Schedule,
    venue: Arc<dyn Venue>,
    /// The table with the run's own bots, when they all play in this process (bots outside it are
    /// not started again): to ask them where a record whose every event is legal parts from them.
    bots: Option<Arc<dyn Venue>>,
    names: Vec<String>,
    pub lines: Vec<RecordLine>,
    /// Where a compressed records file breaks, if it does (the lines are those before).
    broken: Option<String>,
    dir: std::path::PathBuf,
    /// The run's games.csv (or .gz), which the records are held to.
    games_path: std::path::PathBuf,
}

/// What [`RunRecords::check`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every record played back and matched: games, events, and games whose own code failed
    /// (which have nothing to play back).
    Passed { games: u64, events: u64, engine_errors: u64 },
    /// The first record that did not: which game (its line, pairing and game) and why.
    Failed(String),
}

impl RunRecords {
    pub fn open(arena: &Arena, dir: &Path) -> Result<RunRecords> {
        check_run_folder(dir, &[MANIFEST, CONFIG])?;
        let manifest = Manifest::read(dir)?;
        let Some(file) = manifest.records.moves_file() else {
            return Err(Error::input(format!(
                "{}: the run kept no move records (--records {}); run it with --records moves to keep them",
                dir.display(),
                manifest.records.name()
            )));
        };
        let cfg = RunConfig::load(arena, &dir.join(CONFIG), &Overrides::default())?;
        let schedule = cfg.schedule()?;
        let entry = arena.find(cfg.game)?;
        let venue = entry.venue(&cfg.table, cfg.seats, &[], None)?;
        let inside = cfg.bots.iter().all(|b| !OUTSIDE.contains(&b.kind.as_str()));
        let bots = inside.then(|| entry.venue(&cfg.table, cfg.seats, &cfg.bots, None).ok()).flatten();
        let (lines, broken) = records::read_checked(&dir.join(file))?;
        let names = names(&cfg);
        let games_path = manifest.records.path_in(dir)?;
        Ok(RunRecords { cfg, schedule, venue, bots, names, lines, broken, dir: dir.to_path_buf(), games_path })
    }

    /// The record of game `index` (the run's order: pairing by pairing), parsed, with its job.
    pub fn game(&self, index: u64) -> Result<(Job, Recorded)> {
        let line = self.lines.iter().find(|l| self.index_of(l) == Some(index)).ok_or_else(|| {
            Error::input(format!(
                "{}: no record of game {index} (the run has {} records)",
                self.dir.display(),
                self.lines.len()
            ))
        })?;
        let recorded = Recorded::parse(&line.text)?;
        Ok((self.schedule.job(index), recorded))
    }

    /// Every step of `recorded` (game `job`) as each seat saw it.
    pub fn frames(&self, job: &Job, recorded: &Recorded) -> Result<Vec<Frame>> {
        let ending =
            recorded.ending().ok_or_else(|| Error::input("the game's own code failed: it has no moves to show"))?;
        self.venue
            .frames(&job.seeds, &recorded.events, ending)
            .map_err(|d| Error::input(format!("the record does not play back: event {}: {}", d.event, d.what)))
    }

    /// The run's bot names (`job.lineup` indexes them).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The run's index of game `game` of pairing `pairing`, if the run has that game.
    pub fn index(&self, pairing: usize, game: u64) -> Option<u64> {
        (pairing < self.schedule.pairings.len() && game < self.schedule.games)
            .then(|| self.schedule.index(pairing, game))
    }

    fn index_of(&self, line: &RecordLine) -> Option<u64> {
        self.index(line.pairing, line.game)
    }

    /// Plays every record back (see the module's documentation); `progress` is told each game
    /// checked.
    /// With `bots`, every game is also played again by the run's own bots and must come out as
    /// recorded, event for event: that catches an action changed for another legal one that
    /// leaves the result as it was, at the cost of playing the run again.
    pub fn check(&self, bots: bool, progress: &mut dyn FnMut(u64)) -> Result<Checked> {
        if bots && self.bots.is_none() {
            return Err(Error::input(format!(
                "{}: --bots plays the games again with the run's bots, and bots outside this process ({}) are not started again",
                self.dir.display(),
                OUTSIDE.join(", ")
            )));
        }
        if let Some(broken) = &self.broken {
            return Ok(Checked::Failed(format!(
                "{broken}; `arena resume {}` plays the games after the break again",
                self.dir.display()
            )));
        }
        let text = crate::report::read_games_text(&self.games_path)?;
        let games =
            GamesFile::parse(&text, &self.games_path, &self.names, self.cfg.seats, &self.cfg.columns(&*self.venue))?;
        let format = RowFormat::new(&self.names);
        let lines = records::LineFormat::new(&self.names);
        let (mut events, mut engine_errors) = (0u64, 0u64);
        let mut last: Option<u64> = None;
        let (mut line_bytes, mut rows) = (Vec::new(), Vec::new());
        for (k, line) in self.lines.iter().enumerate() {
            let game = |what: String| {
                Checked::Failed(format!("line {}, pairing {} game {}: {what}", k + 1, line.pairing, line.game))
            };
            let Some(index) = self.index_of(line).filter(|&i| last.is_none_or(|l| i > l)) else {
                return Ok(game("not this run's next game".into()));
            };
            last = Some(index);
            let job = self.schedule.job(index);
            let recorded = match Recorded::parse(&line.text) {
                Ok(r) => r,
                Err(e) => return Ok(game(e.to_string())),
            };
            let seats: Vec<&str> = job.lineup.iter().map(|&b| self.names[b].as_str()).collect();
            if recorded.seats != seats {
                return Ok(game(format!("seats {:?} where the schedule seats {seats:?}", recorded.seats)));
            }
            let Some(row) = games.games.get(k) else {
                return Ok(game(format!("games.csv has only {} games", games.games.len())));
            };
            if (row.pairing, row.game) != (line.pairing, line.game) {
                return Ok(game(format!("games.csv's game {} is pairing {} game {}", k + 1, row.pairing, row.game)));
            }
            let Some(ending) = recorded.ending() else {
                engine_errors += 1;
                progress(k as u64 + 1);
                continue;
            };
            let mut record = match self.venue.rescore(&job.seeds, &recorded.events, ending) {
                Ok(record) => record,
                Err(d) => return Ok(game(format!("event {}: {}", d.event, d.what))),
            };
            record.status = match &recorded.status {
                StatusIn::Forfeit { forfeit } => {
                    let Some(kind) = FaultKind::named(&forfeit.kind) else {
                        return Ok(game(format!("forfeit of an unknown kind `{}`", forfeit.kind)));
                    };
                    Status::Forfeit { seat: forfeit.seat, reason: Fault::new(kind, forfeit.reason.clone()) }
                }
                StatusIn::Word(word) if word == "ok" => Status::Ok,
                other => return Ok(game(format!("status {other:?} is not one a record has"))),
            };
            line_bytes.clear();
            lines.line(&job, &record, &mut line_bytes);
            if line_bytes.strip_suffix(b"\n") != Some(line.text.as_bytes()) {
                let why = first_difference(&line.text, &line_bytes);
                return Ok(game(self.bots_part(&job, &recorded).map_or(why.clone(), |at| format!("{at} ({why})"))));
            }
            rows.clear();
            format.rows(&job, &record, &mut rows);
            let on_disk = &text[games.end_of(k) as usize..row.end as usize];
            if rows != on_disk {
                if let Some(at) = self.bots_part(&job, &recorded) {
                    return Ok(game(format!("{at} (games.csv's rows differ from the ones the record scores to)")));
                }
                return Ok(game(format!(
                    "games.csv's rows differ from the ones the record scores to:\n  on disk: {}\n  replayed: {}",
                    String::from_utf8_lossy(on_disk).trim_end().replace('\n', "\n           "),
                    String::from_utf8_lossy(&rows).trim_end().replace('\n', "\n            ")
                )));
            }
            if bots {
                if let Some(at) = self.bots_part(&job, &recorded) {
                    return Ok(game(at));
                }
            }
            events += recorded.events.len() as u64;
            progress(k as u64 + 1);
        }
        if games.games.len() != self.lines.len() {
            return Ok(Checked::Failed(format!(
                "games.csv has {} games but records.jsonl {}",
                games.games.len(),
                self.lines.len()
            )));
        }
        Ok(Checked::Passed { games: self.lines.len() as u64, events, engine_errors })
    }
}

/// The bot kinds whose bots live outside the process (or are a person): not asked again.
const OUTSIDE: &[&str] = &["external", "gomocup", "human"];

impl RunRecords {
    /// Where a record whose every event is legal parts from what the run's bots play: a game is a
    /// pure function of its seeds and its bots, so they are asked to play it again and the first
    /// event where the two differ is named. `None` when the bots are outside the process or play
    /// the game as recorded.
    fn bots_part(&self, job: &Job, recorded: &Recorded) -> Option<String> {
        let bots = self.bots.as_ref()?;
        let mut record = crate::core::GameRecord::new();
        let keep = crate::core::Keep {
            columns: false,
            history: false,
            moves: true,
            luck: crate::core::luck::Estimator::Plain,
        };
        bots.play_into(&job.lineup, job.game, &job.seeds, keep, &mut record);
        let played = record.log.read_events();
        let show = |event: Option<&Event>| match event {
            Some(Event::Action(seat, action)) => format!("seat {seat}'s \"{action}\""),
            Some(Event::Chance(text)) => format!("\"{text}\""),
            None => "the game's end".to_string(),
        };
        let at = (0..played.len().max(recorded.events.len())).find(|&i| played.get(i) != recorded.events.get(i))?;
        Some(match (recorded.events.get(at), played.get(at)) {
            (Some(Event::Action(seat, action)), Some(Event::Action(same, again))) if seat == same => format!(
                "event {}: seat {seat} played \"{action}\" in the record but \"{again}\" when the run's bots play the game again",
                at + 1
            ),
            (recorded, again) => format!(
                "event {}: the record has {} where the run's bots, playing the game again, have {}",
                at + 1,
                show(recorded),
                show(again)
            ),
        })
    }
}

/// Says where a record line on disk and the one the rules write for its events differ: the first
/// top-level field that is not the same.
/// What [`RunRecords::export`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    pub files: usize,
    pub games: u64,
    /// Games whose own code failed: their records have no moves to write.
    pub skipped: u64,
}

impl RunRecords {
    /// Writes every recorded game in `format` (one of the game's [`Venue::record_formats`]) into
    /// `out`: `<pairing>-<game>.<ext>` a game, or `pairing-<P>.<ext>` for a format that holds a
    /// pairing's games in one file. Made from records.jsonl alone, so a resumed or merged run
    /// exports like one that ran straight through.
    pub fn export(&self, format: &str, out: &Path) -> Result<Exported> {
        let formats = self.venue.record_formats();
        let Some(chosen) = formats.iter().find(|f| f.name == format) else {
            let known: Vec<&str> = formats.iter().map(|f| f.name).collect();
            return Err(Error::input(match known.is_empty() {
                true => format!("{} has no record file format to export", self.cfg.game),
                false => match crate::core::suggest::did_you_mean(format, &known) {
                    Some(guess) => format!(
                        "{} has no record format `{format}` ({guess} it has {})",
                        self.cfg.game,
                        known.join(", ")
                    ),
                    None => format!("{} has no record format `{format}` (it has {})", self.cfg.game, known.join(", ")),
                },
            }));
        };
        std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
        let mut done = Exported { files: 0, games: 0, skipped: 0 };
        // Each pairing's collection, written at the end (a merged run's records need not keep a
        // pairing's games together).
        let mut collections: std::collections::BTreeMap<usize, String> = Default::default();
        for line in &self.lines {
            let index = self.index_of(line).ok_or_else(|| {
                Error::input(format!("records.jsonl has pairing {} game {}, not in this run", line.pairing, line.game))
            })?;
            let (job, recorded) = (self.schedule.job(index), Recorded::parse(&line.text)?);
            let Some(ending) = recorded.ending() else {
                done.skipped += 1;
                continue;
            };
            let forfeit = match &recorded.status {
                StatusIn::Forfeit { forfeit } => {
                    let kind = FaultKind::named(&forfeit.kind);
                    Some((forfeit.seat, kind.unwrap_or(FaultKind::Protocol)))
                }
                _ => None,
            };
            let names: Vec<&str> = job.lineup.iter().map(|&b| self.names[b].as_str()).collect();
            let played = Played { names: &names, forfeit };
            let text = self
                .venue
                .export(format, &job.seeds, &recorded.events, ending, &played)
                .map_err(|d| {
                    Error::input(format!(
                        "pairing {} game {}: the record does not play back: event {}: {}",
                        job.pairing, job.game, d.event, d.what
                    ))
                })?
                .expect("the format is one the game declares");
            done.games += 1;
            if chosen.per_pairing {
                collections.entry(job.pairing).or_default().push_str(&text);
            } else {
                let path = out.join(format!("{}-{}.{}", job.pairing, job.game, chosen.extension));
                std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
                done.files += 1;
            }
        }
        for (pairing, text) in collections {
            let path = out.join(format!("pairing-{pairing}.{}", chosen.extension));
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
            done.files += 1;
        }
        Ok(done)
    }
}

fn first_difference(on_disk: &str, replayed: &[u8]) -> String {
    let parse = |bytes: &[u8]| serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(bytes).ok();
    let (Some(a), Some(b)) = (parse(on_disk.as_bytes()), parse(replayed)) else {
        return "the line is not the one the rules write for its events".to_string();
    };
    let Some((key, replayed)) = b.iter().find(|(key, value)| a.get(*key) != Some(value)) else {
        return "the line's bytes are not the ones the rules write for its events".to_string();
    };
    let lead = match key.as_str() {
        "deal" => "the deal is".to_string(),
        "end" => "the end shows".to_string(),
        _ => format!("the record says {key}"),
    };
    format!("{lead} {} where its events give {}", compact(a.get(key)), compact(Some(replayed)))
}

/// A JSON value on one line, cut to a readable length.
fn compact(value: Option<&serde_json::Value>) -> String {
    let text = value.map_or("nothing".to_string(), |v| v.to_string());
    crate::core::bounded(text, 200)
}

/// Adds to `run`'s page the games it shows step by step (see [`viewer::select`]) with every step
/// replayed from records.jsonl, when the run kept its moves; `asked` (pairing, game) are games
/// the user named, an error when the run has no such record.
pub fn add_viewer(arena: &Arena, run: &mut RunData, asked: &[(usize, u64)]) -> Result<()> {
    let kept = run.manifest.as_ref().is_some_and(|m| m.records.moves_file().is_some());
    if !kept {
        if asked.is_empty() {
            return Ok(());
        }
        return Err(Error::input(format!(
            "{}: --game shows a game step by step, but the run kept no move records (arena run --records moves)",
            run.dir.display()
        )));
    }
    let records = RunRecords::open(arena, &run.dir)?;
    for &(pairing, game) in asked {
        if records.index(pairing, game).is_none() {
            return Err(Error::input(format!("--game {game}: the run has no game {game} in pairing {pairing}")));
        }
    }
    let (picks, left_out) = viewer::select(run, asked);
    run.viewer.faults_left_out = left_out;
    run.viewer.games = picks.into_iter().map(|pick| records.viewed(pick)).collect::<Result<_>>()?;
    Ok(())
}

impl RunRecords {
    /// Game `pick` as the viewer shows it: every step (none when the game's own code failed),
    /// its events as text, its result.
    fn viewed(&self, pick: Pick) -> Result<ViewedGame> {
        let index = self.index(pick.pairing, pick.game).expect("a game of the run");
        let (job, recorded) = self.game(index)?;
        let seats: Vec<String> =
            job.lineup.iter().enumerate().map(|(seat, &bot)| format!("seat {seat} ({})", self.names[bot])).collect();
        let events = recorded
            .events
            .iter()
            .map(|event| match event {
                Event::Action(seat, action) => {
                    (Some(*seat), format!("{}: {action}", seats.get(*seat).map_or("?", String::as_str)))
                }
                Event::Chance(text) => (None, text.clone()),
            })
            .collect();
        let steps = match recorded.ending() {
            Some(_) => self
                .frames(&job, &recorded)?
                .into_iter()
                .map(|frame| Step { to_act: frame.to_act, views: frame.views })
                .collect(),
            None => Vec::new(),
        };
        let payoffs: Vec<String> =
            recorded.seats.iter().zip(&recorded.payoffs).map(|(name, payoff)| format!("{name} {payoff}")).collect();
        let result = format!("{} ({})", payoffs.join(", "), status_text(&recorded.status));
        let command = format!("arena replay {} --pairing {} --game {}", self.dir.display(), pick.pairing, pick.game);
        Ok(ViewedGame { pick, seats, events, steps, result, command })
    }
}

/// What a game record's `status` says, as the terminal shows it.
pub fn status_text(status: &StatusIn) -> String {
    match status {
        StatusIn::Word(word) => word.clone(),
        StatusIn::Forfeit { forfeit } => {
            format!("seat {} forfeits after event {}: {}", forfeit.seat, forfeit.at, forfeit.reason)
        }
        StatusIn::Error { error } => format!("error: {error}"),
    }
}
