//! Executes a resolved config into a run folder: config.toml, games.csv (streamed in game order),
//! summary.csv, timing.csv, match.csv (for tables of two or more bots) and ratings.csv (three or
//! more bots); with `history`, one record file per game in history/ (`<pairing>-<game>.<ext>`);
//! external bots keep their stderr in logs/; stops early when an SPRT decides.

use std::path::Path;

use crate::error::{Error, Result};
use crate::games::Arena;
use crate::report::{GamesWriter, RunTally, TimeTally, Verdicts};
use crate::stats::SprtDecision;
use crate::tournament::config::RunConfig;
use crate::tournament::runner::{self, Flow, RunEnd, RunOptions};
use crate::tournament::schedule::Schedule;

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub end: RunEnd,
    pub schedule: Schedule,
    pub verdicts: Verdicts,
}

/// Creates `dir` for a run; a folder that already holds files needs `force`.
pub fn prepare_dir(dir: &Path, force: bool) -> Result<()> {
    let occupied = dir.read_dir().map(|mut d| d.next().is_some()).unwrap_or(false);
    if occupied && !force {
        return Err(Error::input(format!(
            "{} already holds a run; use --force to overwrite it or --out to choose another folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Plays `cfg` and writes its files into `dir` (which must exist).
pub fn execute(arena: &Arena, cfg: &RunConfig, opts: &RunOptions, dir: &Path) -> Result<RunReport> {
    let entry = arena.find(cfg.game)?;
    let table = entry.table(&cfg.table, cfg.seats, &cfg.bots, Some(dir))?;
    let extension = match (opts.history, table.history_extension()) {
        (true, None) => {
            return Err(Error::input(format!(
                "{} has no hand-history format (games.csv holds what its games record)",
                cfg.game
            )))
        }
        (_, extension) => extension.unwrap_or_default(),
    };
    let config_path = dir.join("config.toml");
    std::fs::write(&config_path, cfg.to_toml()).map_err(|e| Error::io(&config_path, e))?;

    let schedule = cfg.schedule()?;
    let names: Vec<String> = cfg.bots.iter().map(|b| b.name.clone()).collect();

    let mut games_csv = GamesWriter::create(&dir.join("games.csv"), table.columns())?;
    let history_dir = dir.join("history");
    if opts.history {
        std::fs::create_dir_all(&history_dir).map_err(|e| Error::io(&history_dir, e))?;
    }
    let mut tally = RunTally::new(&schedule, names.clone());
    let mut times = vec![TimeTally::default(); names.len()];
    let end = runner::run(&schedule, table.as_ref(), opts, &mut |job, record| {
        let lineup = schedule.lineup(job);
        games_csv.write(job, &lineup, &names, &record)?;
        if let Some(text) = &record.history {
            let path = history_dir.join(format!("{}-{}.{extension}", job.pairing, job.game));
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        }
        for &(seat, took) in &record.times {
            times[lineup[seat]].add(took);
        }
        // The SPRT is looked at after every whole observation (pair or rotation), in game order:
        // the same config stops at the same game on any number of threads.
        let completed = tally.add(job.pairing, job.game, &lineup, &record);
        match &cfg.sprt {
            Some(sprt) if completed && sprt.decision(tally.llr(job.pairing, sprt)) != SprtDecision::Continue => {
                Ok(Flow::Stop)
            }
            _ => Ok(Flow::Continue),
        }
    })?;
    games_csv.flush()?;

    let headline = table.headline();
    drop(table); // ends the processes of external bots
    TimeTally::write_csv(&times, &names, &dir.join("timing.csv"))?;
    let verdicts = tally.finish(cfg.sprt.as_ref(), cfg.anchor, headline);
    verdicts.write(dir)?;
    Ok(RunReport { end, schedule, verdicts })
}
