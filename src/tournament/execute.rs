//! Executes a resolved config into a run folder: run.json (the manifest: whether the run is
//! whole), config.toml, games.csv (streamed in game order), summary.csv, match.csv (for tables of
//! two or more bots), ratings.csv (three or more bots) and timing.csv; with `history`, one record
//! file per game in history/ (`<pairing>-<game>.<ext>`); external bots keep their stderr in
//! logs/; stops early when an SPRT decides.
//!
//! [`resume`] continues a run that was interrupted or killed: every game is a pure function of
//! (config, game index), so it keeps games.csv's whole observations, replays them into the
//! tallies and plays on from there; the files come out as those of the run never interrupted
//! (timing.csv, which differs from run to run anyway, covers only the games played since).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::games::{Arena, Table};
use crate::report::{
    config_hash, GamesFile, GamesWriter, Manifest, RunStatus, RunTally, TimeTally, Verdicts, MANIFEST, TEMP_SUFFIX,
};
use crate::stats::SprtDecision;
use crate::tournament::config::{Overrides, RunConfig};
use crate::tournament::progress::Progress;
use crate::tournament::runner::{self, Flow, RunEnd, RunOptions};
use crate::tournament::schedule::Schedule;

/// The files a run writes in its folder: `--force` removes these and nothing else.
pub const RUN_FILES: &[&str] =
    &[MANIFEST, "config.toml", "games.csv", "summary.csv", "match.csv", "ratings.csv", "timing.csv"];
/// The folder of hand histories (`--hand-history`).
const HISTORY: &str = "history";
/// The folders a run writes: hand histories and external bots' logs.
const RUN_DIRS: &[&str] = &[HISTORY, "logs"];

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// How the run ended; `played` counts every game in games.csv, resumed ones included.
    pub end: RunEnd,
    pub schedule: Schedule,
    pub verdicts: Verdicts,
    pub status: RunStatus,
    /// Games whose engine panicked (status `error: ...` in games.csv): no result, counted for
    /// nobody.
    pub engine_errors: u64,
}

/// Creates `dir` for a run. A folder that already holds files needs `force`, which removes the
/// files a run writes; a folder holding anything else is refused, so `--force` never deletes
/// what no run wrote.
pub fn prepare_dir(dir: &Path, force: bool) -> Result<()> {
    let entries: Vec<PathBuf> = match dir.read_dir() {
        Ok(d) => d.map(|e| e.map(|e| e.path())).collect::<std::io::Result<_>>().map_err(|e| Error::io(dir, e))?,
        Err(_) => Vec::new(),
    };
    if !entries.is_empty() && !force {
        return Err(Error::input(format!(
            "{} already holds a run; use --force to overwrite it, `arena resume` to continue it, or --out to choose another folder",
            dir.display()
        )));
    }
    if let Some(stranger) = entries.iter().find(|p| !written_by_a_run(p)) {
        return Err(Error::input(format!(
            "{} holds {}, which no run writes; --force only clears run folders (choose another --out)",
            dir.display(),
            stranger.file_name().unwrap_or_default().to_string_lossy()
        )));
    }
    for path in &entries {
        let removed = if path.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
        removed.map_err(|e| Error::io(path, e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// True for the files a run writes (and their temporary files), and its folders of plain files.
fn written_by_a_run(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let base = name.strip_suffix(TEMP_SUFFIX).unwrap_or(&name);
    if path.is_dir() {
        return RUN_DIRS.contains(&name.as_ref())
            && path.read_dir().is_ok_and(|d| d.flatten().all(|e| e.file_type().is_ok_and(|t| t.is_file())));
    }
    path.symlink_metadata().is_ok_and(|m| m.is_file()) && RUN_FILES.contains(&base)
}

/// Plays `cfg` and writes its files into `dir` (which must exist).
pub fn execute(arena: &Arena, cfg: &RunConfig, opts: &RunOptions, dir: &Path) -> Result<RunReport> {
    let table = open_table(arena, cfg, opts.history, dir)?;
    let config = cfg.to_toml();
    let config_path = dir.join("config.toml");
    std::fs::write(&config_path, &config).map_err(|e| Error::io(&config_path, e))?;
    let schedule = cfg.schedule()?;
    let manifest = Manifest::start(&config, schedule.total());
    manifest.write(dir)?;
    let games_csv = GamesWriter::create(&dir.join("games.csv"), table.columns())?;
    if opts.history {
        let history = dir.join(HISTORY);
        std::fs::create_dir_all(&history).map_err(|e| Error::io(&history, e))?;
    }
    let tally = RunTally::new(&schedule, names(cfg));
    let run = Run { cfg, table, schedule, dir, opts, manifest };
    run.play(tally, 0, false, games_csv)
}

/// Continues the run in `dir` (see the module's documentation); also returns its config.
pub fn resume(arena: &Arena, dir: &Path, opts: &RunOptions) -> Result<(RunConfig, RunReport)> {
    let mut manifest = Manifest::read(dir)?;
    let config_path = dir.join("config.toml");
    let config = crate::tournament::limits::read_text(&config_path)?;
    if config_hash(&config) != manifest.config_hash {
        return Err(Error::input(format!(
            "{}: config.toml no longer matches the run's manifest (hash {}, run.json says {}); refusing to resume",
            dir.display(),
            config_hash(&config),
            manifest.config_hash
        )));
    }
    let cfg = RunConfig::load(arena, &config_path, &Overrides::default())?;
    let opts = RunOptions { history: dir.join(HISTORY).is_dir(), ..opts.clone() };
    let table = open_table(arena, &cfg, opts.history, dir)?;
    let schedule = cfg.schedule()?;
    let names = names(&cfg);
    let games_path = dir.join("games.csv");
    let file = GamesFile::read(&games_path, &names, cfg.seats, table.columns())?;
    if let Some((i, g)) = file.games.iter().enumerate().find(|(i, g)| {
        let job = (*i as u64) < schedule.total();
        !job || {
            let job = schedule.job(*i as u64);
            (job.pairing, job.game, &job.lineup) != (g.pairing, g.game, &g.lineup)
        }
    }) {
        return Err(Error::input(format!(
            "{}: game {i} (pairing {}, game {}) is not the schedule's; refusing to resume",
            games_path.display(),
            g.pairing,
            g.game
        )));
    }
    // Whole observations only: the replays of a deal are kept together or not at all.
    let mut kept = file.games.len() - file.games.len() % schedule.replays as usize;
    let mut tally = RunTally::new(&schedule, names);
    let mut decided = false;
    for (i, g) in file.games[..kept].iter().enumerate() {
        let completed = tally.add(g.pairing, g.game, &g.lineup, &g.record);
        if completed && cfg.sprt.as_ref().is_some_and(|s| s.decision(tally.llr(g.pairing, s)) != SprtDecision::Continue)
        {
            (kept, decided) = (i + 1, true);
            break;
        }
    }
    let games_csv = GamesWriter::append(&games_path, table.columns(), file.end_of(kept))?;
    manifest.resumed.push(crate::report::now());
    manifest.status = RunStatus::Running;
    manifest.ended = None;
    manifest.write(dir)?;
    let run = Run { cfg: &cfg, table, schedule, dir, opts: &opts, manifest };
    let report = run.play(tally, kept as u64, decided, games_csv)?;
    Ok((cfg, report))
}

fn names(cfg: &RunConfig) -> Vec<String> {
    cfg.bots.iter().map(|b| b.name.clone()).collect()
}

/// The table of `cfg`'s game and bots; with `history`, one whose game has a record format.
fn open_table(arena: &Arena, cfg: &RunConfig, history: bool, dir: &Path) -> Result<Arc<dyn Table>> {
    let table = arena.find(cfg.game)?.table(&cfg.table, cfg.seats, &cfg.bots, Some(dir))?;
    if history && table.history_extension().is_none() {
        return Err(Error::input(format!(
            "{} has no hand-history format (games.csv holds what its games record)",
            cfg.game
        )));
    }
    Ok(table)
}

/// A run under way in its folder.
struct Run<'a> {
    cfg: &'a RunConfig,
    /// Dropped before the verdicts are written: that ends external bots' processes.
    table: Arc<dyn Table>,
    schedule: Schedule,
    dir: &'a Path,
    opts: &'a RunOptions,
    manifest: Manifest,
}

impl Run<'_> {
    /// Plays from game `first` on (`tally` holds the games before it; `decided`: the SPRT already
    /// stopped there), then writes the verdicts and the manifest's end. An error marks the run
    /// `failed` in run.json before it is returned.
    fn play(mut self, tally: RunTally, first: u64, decided: bool, games_csv: GamesWriter) -> Result<RunReport> {
        let mut times = vec![TimeTally::default(); self.cfg.bots.len()];
        let played = self.play_games(tally, first, decided, games_csv, &mut times);
        let Run { cfg, table, schedule, dir, mut manifest, .. } = self;
        let headline = table.headline();
        drop(table); // ends the processes of external bots
        let (end, tally) = match played {
            Ok(done) => done,
            Err(e) => {
                manifest.end(RunStatus::Failed, manifest.games_played);
                let _ = manifest.write(dir);
                return Err(e);
            }
        };
        let status = if end.stopped_by_sink {
            RunStatus::SprtStopped
        } else if end.interrupted {
            RunStatus::Interrupted
        } else {
            RunStatus::Complete
        };
        TimeTally::write_csv(&times, &names(cfg), &dir.join("timing.csv"))?;
        let engine_errors = tally.engine_errors();
        let verdicts = tally.finish(cfg.sprt.as_ref(), cfg.anchor, headline);
        verdicts.write(dir)?;
        manifest.end(status, end.played);
        manifest.write(dir)?;
        Ok(RunReport { end, schedule, verdicts, status, engine_errors })
    }

    fn play_games(
        &mut self,
        mut tally: RunTally,
        first: u64,
        decided: bool,
        mut games_csv: GamesWriter,
        times: &mut [TimeTally],
    ) -> Result<(RunEnd, RunTally)> {
        self.manifest.games_played = first;
        if decided {
            return Ok((RunEnd { played: first, interrupted: false, stopped_by_sink: true }, tally));
        }
        let (cfg, schedule, names) = (self.cfg, &self.schedule, names(self.cfg));
        let extension = self.table.history_extension().unwrap_or_default();
        let history_dir = self.dir.join(HISTORY);
        let progress = Progress::start(self.opts.progress, first, schedule.total(), cfg.sprt.as_ref());
        let mut end = runner::run(schedule, first, self.table.as_ref(), self.opts, &progress, &mut |job, record| {
            games_csv.write(job, &names, &record)?;
            if let (true, Some(text)) = (self.opts.history, &record.history) {
                let path = history_dir.join(format!("{}-{}.{extension}", job.pairing, job.game));
                std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
            }
            for &(seat, took) in &record.times {
                times[job.lineup[seat]].add(took);
            }
            // The SPRT is looked at after every whole observation (pair or rotation), in game
            // order: the same config stops at the same game on any number of threads.
            let completed = tally.add(job.pairing, job.game, &job.lineup, &record);
            match &cfg.sprt {
                Some(sprt) if completed => {
                    let llr = tally.llr(job.pairing, sprt);
                    progress.set_llr(llr);
                    Ok(if sprt.decision(llr) == SprtDecision::Continue { Flow::Continue } else { Flow::Stop })
                }
                _ => Ok(Flow::Continue),
            }
        })?;
        drop(progress);
        games_csv.flush()?;
        end.played += first;
        Ok((end, tally))
    }
}
