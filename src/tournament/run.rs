//! Executes a resolved config into a run folder: run.json (the manifest: whether the run is
//! whole), config.toml, games.csv (streamed in game order), summary.csv, match.csv (for tables of
//! two or more bots), ratings.csv (three or more bots) and timing.csv; with `--records moves`,
//! records.jsonl (every game's moves, in game order); with `history`, one record
//! file per game in history/ (`<pairing>-<game>.<ext>`); external bots keep their stderr in
//! logs/; stops early when an SPRT decides.
//!
//! `execute` starts a new run; `Run` plays any run in its folder (new, resumed in
//! `crate::tournament::resume`, merged in `crate::tournament::merge`) and writes its end.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::config::RunConfig;
use crate::core::schedule::{Job, Schedule, Shard};
use crate::core::{BotChoice, GameRecord, RunFolder};
use crate::error::{Error, Result};
use crate::registry::{Arena, Venue};
use crate::report::records::LineFormat;
use crate::report::{
    count_games, write_atomic, GameRow, GamesWriter, Manifest, Records, RowFormat, RunStatus, RunTally, TimeTally,
    Verdicts, TEMP_SUFFIX,
};
use crate::stats::{Sprt, SprtDecision};
use crate::tournament::folder::{self, FolderLock, CONFIG, HISTORY};
use crate::tournament::progress::Progress;
use crate::tournament::runner::{self, Flow, OnDrop, PerWorker, Plan, RunEnd, RunOptions};
use crate::tournament::start_watch::{CannotRun, StartWatch};

/// What a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// How the run ended; `played` counts every game in games.csv, resumed ones included.
    pub end: RunEnd,
    /// The games of the folder's share of the schedule (its shard's, or all).
    pub planned: u64,
    /// The shard the folder played, `None` for the whole run.
    pub shard: Option<Shard>,
    /// The run's plan: its pairings and games.
    pub schedule: Schedule,
    /// What the run came to: every bot's summary, the matches, the rating list.
    pub verdicts: Verdicts,
    /// How the run ended, as run.json records it.
    pub status: RunStatus,
    /// Games whose engine panicked (status `error: ...` in games.csv): no result, counted for
    /// nobody.
    pub engine_errors: u64,
    /// The time and memory of each bot outside the process or on a clock, one line each
    /// ([`TimeTally::line`]); measured on this machine, so not the same from run to run.
    pub timing: Vec<String>,
}

/// Plays `cfg` (or its `shard`) and writes its files into `dir`, which `lock` holds (see
/// [`folder::prepare`]). `schedule` is `cfg.schedule()`, built once by the caller (which shows
/// it in the run's header before play starts) and passed along rather than built again.
pub(crate) fn execute(
    arena: &Arena,
    cfg: &RunConfig,
    schedule: Schedule,
    opts: &RunOptions,
    dir: &Path,
    lock: FolderLock,
    shard: Option<Shard>,
) -> Result<RunReport> {
    let table = open_table(arena, cfg, opts.history, dir)?;
    let config = cfg.to_toml();
    let share = shard.unwrap_or(Shard::WHOLE);
    let mut manifest = Manifest::start(&config, share.games(&schedule), shard, opts.records, arena.program());
    manifest.clocks = cfg.bots.iter().filter_map(|b| Some((b.name.clone(), b.on_the_clock()?))).collect();
    let games_csv = begin(dir, &config, &manifest, || {
        if opts.history {
            let history = dir.join(HISTORY);
            std::fs::create_dir_all(&history).map_err(|e| Error::io(&history, e))?;
        }
        let games = opts
            .records
            .file()
            .map(|file| GamesWriter::create(&dir.join(file), &cfg.columns(&*table), opts.records.gz()));
        let moves = opts.records.moves_file().map(|file| GamesWriter::create_lines(&dir.join(file), opts.records.gz()));
        Ok(Output::direct(games.transpose()?, moves.transpose()?))
    })?;
    let tally = RunTally::estimating(&schedule, names(cfg), cfg.estimator);
    let plan = Plan { games: Box::new(share.games_from(&schedule, 0)), count: share.games(&schedule), done: 0 };
    let run = Run { cfg, table, schedule, dir, opts, manifest, lock, timed: true };
    run.play(tally, Start::Fresh, Known::new(), plan, games_csv)
}

/// Starts a run's files in `dir` (empty but for its lock): config.toml and run.json (`running`),
/// each written whole, then what `open` makes (the games file). When any of it fails (a full disk,
/// say), what was written is removed again, so the folder is left as it was found: a run that never
/// started leaves nothing that `arena run` or `arena resume` would take for a run.
pub(crate) fn begin<T>(dir: &Path, config: &str, manifest: &Manifest, open: impl FnOnce() -> Result<T>) -> Result<T> {
    let started =
        write_atomic(&dir.join(CONFIG), config.as_bytes()).and_then(|()| manifest.write(dir)).and_then(|()| open());
    if started.is_err() {
        folder::clear(dir);
    }
    started
}

/// Where a games file is written before it is renamed into place.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(TEMP_SUFFIX);
    PathBuf::from(name)
}

pub(crate) fn names(cfg: &RunConfig) -> Vec<String> {
    cfg.bots.iter().map(|b| b.name.clone()).collect()
}

/// The table of `cfg`'s game and bots; with `history`, one whose game has a record format.
pub(crate) fn open_table(arena: &Arena, cfg: &RunConfig, history: bool, dir: &Path) -> Result<Arc<dyn Venue>> {
    let table = arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, Some(dir))?;
    if history && table.history_extension().is_none() {
        return Err(no_history(cfg));
    }
    Ok(table)
}

/// Refuses `--hand-history` for a game without a record format, before a run prints or writes
/// anything.
pub(crate) fn check_history(arena: &Arena, cfg: &RunConfig) -> Result<()> {
    match arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &[], None)?.history_extension() {
        Some(_) => Ok(()),
        None => Err(no_history(cfg)),
    }
}

fn no_history(cfg: &RunConfig) -> Error {
    Error::input(format!("{} has no hand-history format (games.csv holds what its games record)", cfg.game))
}

/// A game already played, to be copied rather than played (a resume's games after a gap, or the
/// shards' games for a merge): its tournament index, its games.csv rows read back and, when the
/// run keeps them, its records.jsonl line.
#[derive(Clone, Debug)]
pub(crate) struct KnownGame {
    pub(crate) index: u64,
    pub(crate) row: GameRow,
    pub(crate) line: Option<String>,
}

/// Games already played, in tournament order.
pub(crate) type Known = VecDeque<KnownGame>;

/// What the tallies and games.csv already hold when play starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    Fresh,
    /// A resumed run's first `games` games are in games.csv and fed to the tally; `decided`: the
    /// SPRT decided in them.
    Resumed {
        games: u64,
        decided: bool,
    },
}

/// The writers of games.csv and records.jsonl (each none when the run does not keep it); with
/// `rename`, they write temporary files renamed over the run's at the end (`(temporary, file)`).
pub(crate) struct Output {
    games: Option<GamesWriter>,
    moves: Option<GamesWriter>,
    rename: Vec<(PathBuf, PathBuf)>,
}

impl Output {
    pub(crate) fn direct(games: Option<GamesWriter>, moves: Option<GamesWriter>) -> Output {
        Output { games, moves, rename: Vec::new() }
    }

    /// New games and records files in `dir`, written beside them and renamed into place at the end.
    pub(crate) fn fresh(dir: &Path, columns: &[&str], records: Records) -> Result<Output> {
        let mut output = Output::direct(None, None);
        if let Some(file) = records.file() {
            let (path, temp) = (dir.join(file), temp_path(&dir.join(file)));
            output.games = Some(GamesWriter::create(&temp, columns, records.gz())?);
            output.rename.push((temp, path));
        }
        if let Some(file) = records.moves_file() {
            let (path, temp) = (dir.join(file), temp_path(&dir.join(file)));
            output.moves = Some(GamesWriter::create_lines(&temp, records.gz())?);
            output.rename.push((temp, path));
        }
        Ok(output)
    }

    /// Writes out and closes the files (their bytes on disk), and renames them into place: the
    /// records first, so that games.csv never holds a game records.jsonl lacks.
    fn finish(&mut self) -> Result<()> {
        for writer in [self.moves.take(), self.games.take()].into_iter().flatten() {
            writer.finish()?;
        }
        for (temp, path) in self.rename.drain(..).rev() {
            std::fs::rename(&temp, &path).map_err(|e| Error::io(&path, e))?;
        }
        Ok(())
    }

    /// Writes out both files' whole games so far, the records first (see [`Output::finish`]).
    fn flush(&mut self) -> Result<()> {
        for writer in [self.moves.as_mut(), self.games.as_mut()].into_iter().flatten() {
            writer.flush()?;
        }
        Ok(())
    }

    /// Gives up after an error: the writers are dropped (what they still hold goes out if it can)
    /// and files that were to be renamed into place are removed, the old ones being the run's.
    /// Returns the run's games file, if it keeps one.
    fn abandon(self) -> Option<PathBuf> {
        let path = self.games.as_ref().map(|w| w.path().to_path_buf());
        drop(self.moves);
        drop(self.games);
        for (temp, _) in &self.rename {
            let _ = std::fs::remove_file(temp);
        }
        match self.rename.into_iter().find(|(temp, _)| Some(temp) == path.as_ref()) {
            Some((_, path)) => Some(path),
            None => path,
        }
    }
}

/// A run under way in its folder.
pub(crate) struct Run<'a> {
    pub(crate) cfg: &'a RunConfig,
    /// Dropped before the verdicts are written: that ends external bots' processes.
    pub(crate) table: Arc<dyn Venue>,
    pub(crate) schedule: Schedule,
    pub(crate) dir: &'a Path,
    pub(crate) opts: &'a RunOptions,
    pub(crate) manifest: Manifest,
    /// The folder's lock, held to the end (and its disk reserve, given back for the last writes
    /// when the disk is full).
    pub(crate) lock: FolderLock,
    /// Writes timing.csv (a merge has no decision times of its own: they stay in the shards).
    pub(crate) timed: bool,
}

/// Where each game goes once it is played or copied: games.csv, history/ and the tallies, with
/// the SPRT looked at after every whole observation. (The decision times are added up by the
/// workers, which have them at hand.)
struct Sink<'a> {
    out: &'a mut Output,
    format: RowFormat,
    /// How a game becomes its records.jsonl line.
    lines: LineFormat,
    /// Where a game's records.jsonl line is made.
    line: Vec<u8>,
    tally: &'a mut RunTally,
    /// The test that may stop the run: only a whole run's (a shard's games are not the run's).
    sprt: Option<&'a Sprt>,
    history: Option<(PathBuf, &'static str)>,
    known: Known,
    schedule: &'a Schedule,
    progress: &'a Progress,
    /// Games written to games.csv by this run (played or copied).
    written: u64,
    /// Set when games.csv's rows should be written out to the disk (see [`FlushClock`]).
    flush: &'a FlushClock,
    /// Which bots have answered in this session, and which have only failed at their start.
    watch: StartWatch,
    /// Games held back, in order, while a bot's verdict is pending ([`StartWatch::doubtful`]):
    /// written once it answers, dropped when it turns out unable to run.
    held: Vec<Held>,
    /// The bots and the run folder, for the error of a bot that cannot run.
    bots: &'a [BotChoice],
    dir: &'a Path,
}

/// A game held back by the sink: what [`Sink::commit`] takes, owned.
struct Held {
    job: Job,
    record: GameRecord,
    rows: Option<Vec<u8>>,
    line: Option<String>,
}

/// The most games held back at once: past it they are written (a bot's games far apart in the
/// schedule, with others' between them, must not fill the memory), and a bot then found unable
/// to run leaves those of its forfeits in the run's files.
const MAX_HELD: usize = 100_000;

impl Sink<'_> {
    /// A game played in this session, in game order, with what a worker made of it (`rows`, as
    /// [`Sink::commit`] takes them): judged by the [`StartWatch`], then written, or held back
    /// while a bot's verdict is pending. A bot that cannot run is an error
    /// ([`Error::BotCannotRun`]) and the games held back are dropped.
    fn deliver(&mut self, job: &Job, record: &GameRecord, rows: &[u8]) -> Result<Flow> {
        if let Some(cannot) = self.watch.see(&job.lineup, record) {
            return Err(self.cannot_run(cannot, false));
        }
        if self.held.is_empty() && !self.watch.doubtful() {
            return self.commit(job, record, Some(rows), None);
        }
        self.held.push(Held { job: job.clone(), record: record.clone(), rows: Some(rows.to_vec()), line: None });
        self.release()
    }

    /// Writes the games held back, in order, unless a bot's verdict is still pending (and they
    /// fit in the memory).
    fn release(&mut self) -> Result<Flow> {
        if self.watch.doubtful() && self.held.len() < MAX_HELD {
            return Ok(Flow::Continue);
        }
        self.release_all()
    }

    /// Writes the games held back, in order, whatever is pending.
    fn release_all(&mut self) -> Result<Flow> {
        for held in std::mem::take(&mut self.held) {
            if self.commit(&held.job, &held.record, held.rows.as_deref(), held.line.as_deref())? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }

    /// The error of a bot that cannot run (`all`: the session had no more games for it).
    fn cannot_run(&self, cannot: CannotRun, all: bool) -> Error {
        let bot = &self.bots[cannot.bot];
        let log = RunFolder::new(self.dir).log_path(&bot.name);
        let words = bot.params.table().get("command").and_then(|c| c.as_array());
        let command = words.map(|c| c.iter().filter_map(|w| w.as_str()).collect::<Vec<_>>().join(" "));
        Error::BotCannotRun(Box::new(crate::error::CannotRun {
            bot: bot.name.clone(),
            reason: cannot.reason,
            games: cannot.games,
            all,
            command: command.filter(|c| !c.is_empty()),
            log,
        }))
    }

    /// At the end of the session's games (not interrupted): a bot that failed at its start in
    /// every game it had and never answered could not run; else the games held back are written.
    fn settle(&mut self) -> Result<Flow> {
        if let Some(cannot) = self.watch.finish() {
            return Err(self.cannot_run(cannot, true));
        }
        self.release()
    }

    /// Writes a game to the run's files and tallies it. `formatted`: what a worker made of the
    /// game already: its records.jsonl line first, when the run keeps its moves (one line: JSON
    /// escapes line breaks), then its games.csv rows. `line`: a copied game's records.jsonl
    /// line, as read.
    fn commit(&mut self, job: &Job, record: &GameRecord, formatted: Option<&[u8]>, line: Option<&str>) -> Result<Flow> {
        let mut rows = formatted;
        if let Some(moves) = self.out.moves.as_mut() {
            match (line, formatted) {
                (Some(line), _) => {
                    moves.write_rows(line.as_bytes())?;
                    moves.write_rows(b"\n")?;
                }
                (None, Some(formatted)) => {
                    let end = memchr::memchr(b'\n', formatted).map_or(formatted.len(), |i| i + 1);
                    moves.write_rows(&formatted[..end])?;
                    rows = Some(&formatted[end..]);
                }
                (None, None) => {
                    self.line.clear();
                    self.lines.line(job, record, &mut self.line);
                    moves.write_rows(&self.line)?;
                }
            }
        }
        match (self.out.games.as_mut(), rows) {
            (Some(out), Some(rows)) => out.write_rows(rows)?,
            (Some(out), None) => out.write(job, &self.format, record)?,
            (None, _) => {}
        }
        self.written += 1;
        if let (Some((dir, extension)), Some(text)) = (&self.history, &record.history) {
            let path = dir.join(format!("{}-{}.{extension}", job.pairing, job.game));
            std::fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        }
        if self.flush.due() {
            self.out.flush()?;
        }
        // The SPRT is looked at after every whole observation (pair or rotation), in game order:
        // the same config stops at the same game on any number of threads.
        let completed = self.tally.add(job.pairing, job.game, &job.lineup, record);
        match self.sprt {
            Some(sprt) if completed => {
                let llr = self.tally.llr(job.pairing, sprt);
                self.progress.set_llr(llr);
                Ok(if sprt.decision(llr) == SprtDecision::Continue { Flow::Continue } else { Flow::Stop })
            }
            _ => Ok(Flow::Continue),
        }
    }

    /// Copies the known games before tournament index `until`, in order (held back behind the
    /// games held back, if any).
    fn copy_until(&mut self, until: u64) -> Result<Flow> {
        while self.known.front().is_some_and(|g| g.index < until) {
            let KnownGame { index, row, line } = self.known.pop_front().expect("a known game");
            let job = Job { lineup: row.lineup, ..self.schedule.job(index) };
            if !self.held.is_empty() || self.watch.doubtful() {
                self.held.push(Held { job, record: row.record, rows: None, line });
            } else if self.commit(&job, &row.record, None, line.as_deref())? == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        Ok(Flow::Continue)
    }
}

/// When games.csv's rows go out to the disk: every `--flush-every` seconds, so that a run killed
/// outright (SIGKILL, out of memory, a lost node) loses at most that much finished play, and not
/// a buffer's worth. A thread of its own raises a flag on time; the delivering thread looks at the
/// flag after each game (a relaxed load), writes out whole games' rows and syncs them to the disk
/// (on a network filesystem, rows only in the client's memory are lost with the node).
struct FlushClock {
    due: AtomicBool,
    /// Zero: after every game.
    every: Duration,
    ticking: (Mutex<bool>, Condvar),
}

impl FlushClock {
    fn new(every: Duration) -> FlushClock {
        FlushClock { due: AtomicBool::new(false), every, ticking: (Mutex::new(true), Condvar::new()) }
    }

    /// True (once) when the rows should go out now.
    fn due(&self) -> bool {
        self.every.is_zero() || (self.due.load(Ordering::Relaxed) && self.due.swap(false, Ordering::Relaxed))
    }

    /// Raises the flag every `every` until [`FlushClock::stop`].
    fn tick(&self) {
        let (on, changed) = &self.ticking;
        let mut on = on.lock().unwrap_or_else(PoisonError::into_inner);
        while *on {
            let (guard, waited) = changed.wait_timeout(on, self.every).unwrap_or_else(PoisonError::into_inner);
            on = guard;
            if waited.timed_out() {
                self.due.store(true, Ordering::Relaxed);
            }
        }
    }

    fn stop(&self) {
        *self.ticking.0.lock().unwrap_or_else(PoisonError::into_inner) = false;
        self.ticking.1.notify_all();
    }
}

impl Run<'_> {
    /// Plays `plan` and copies the `known` games in with them, in order, after the games `start`
    /// says the tally and games.csv hold; then writes the verdicts and the manifest's end. An
    /// error (a full disk, say) marks the run `failed` in run.json, with the games on disk, before
    /// it is returned; the folder can be resumed.
    pub(crate) fn play(
        self,
        mut tally: RunTally,
        start: Start,
        known: Known,
        plan: Plan,
        mut output: Output,
    ) -> Result<RunReport> {
        let mut times = vec![TimeTally::default(); self.cfg.bots.len()];
        let played = self.play_games(&mut tally, (start, known, plan), &mut output, &mut times);
        let Run { cfg, table, schedule, dir, mut manifest, mut lock, timed, .. } = self;
        let headline = table.headline();
        // A resumed run keeps what earlier sessions' engines said and adds this session's.
        manifest.engines.extend(table.engines());
        drop(table); // ends the processes of external bots
        let finished = played.and_then(|end| {
            output.finish()?;
            let status = if end.stopped_by_sink {
                RunStatus::SprtStopped
            } else if end.interrupted {
                RunStatus::Interrupted
            } else {
                RunStatus::Complete
            };
            if timed {
                TimeTally::write_csv(&times, &names(cfg), &dir.join(TimeTally::FILE))?;
            }
            let engine_errors = tally.engine_errors();
            let verdicts = tally.finish(cfg.sprt.as_ref(), cfg.anchor, headline);
            verdicts.write(dir)?;
            manifest.end(status, end.played);
            manifest.write(dir)?;
            let shard = manifest.shard;
            let timing = times.iter().zip(names(cfg)).filter(|(t, _)| t.watched()).map(|(t, n)| t.line(&n)).collect();
            Ok(RunReport {
                end,
                planned: manifest.games_planned,
                shard,
                schedule,
                verdicts,
                status,
                engine_errors,
                timing,
            })
        });
        finished.inspect_err(|e| {
            // The writer goes first, while the disk is still as full as it was: then the reserve
            // is given back for run.json alone.
            let games = output.abandon();
            lock.release_reserve();
            let on_disk = games.and_then(|path| count_games(&path, cfg.seats).ok());
            manifest.failed(e, on_disk.unwrap_or(manifest.games_played));
            let _ = manifest.write(dir);
        })
    }

    /// Plays and copies the games (see [`Run::play`]); `played` in the end counts every game in
    /// games.csv.
    fn play_games(
        &self,
        tally: &mut RunTally,
        (start, known, plan): (Start, Known, Plan),
        output: &mut Output,
        times: &mut [TimeTally],
    ) -> Result<RunEnd> {
        let Run { cfg, table, schedule, dir, opts, .. } = self;
        let whole = self.manifest.share().count == 1;
        let (first, decided) = match start {
            Start::Fresh => (0, false),
            Start::Resumed { games, decided } => (games, decided),
        };
        if decided {
            return Ok(RunEnd { played: first, interrupted: false, stopped_by_sink: true });
        }
        let history = opts.history.then(|| (dir.join(HISTORY), table.history_extension().unwrap_or_default()));
        let sprt = cfg.sprt.as_ref().filter(|_| whole);
        let opts = &RunOptions { luck: cfg.estimator, ..(*opts).clone() };
        let progress = Progress::start(opts.progress, plan.done, plan.done + plan.count, sprt);
        let flush = FlushClock::new(opts.flush_every);
        let mut sink = Sink {
            out: output,
            format: RowFormat::new(&names(cfg)),
            lines: LineFormat::new(&names(cfg)),
            line: Vec::new(),
            tally,
            sprt,
            history,
            known,
            schedule,
            progress: &progress,
            written: 0,
            flush: &flush,
            watch: StartWatch::new(cfg.bots.len()),
            held: Vec::new(),
            bots: &cfg.bots,
            dir,
        };
        let mut end = RunEnd { played: 0, interrupted: false, stopped_by_sink: false };
        std::thread::scope(|scope| -> Result<()> {
            if !flush.every.is_zero() {
                std::thread::Builder::new()
                    .name("arena-flush".into())
                    .spawn_scoped(scope, || flush.tick())
                    .map_err(|e| Error::input(format!("cannot start a thread: {e}")))?;
            }
            // However the games end (done, an error, a panic), the clock stops.
            let _stop = OnDrop(|| flush.stop());
            if plan.count > 0 {
                let rows_of = sink.format.clone();
                let writing = sink.out.games.is_some();
                let moves = sink.out.moves.is_some().then(|| sink.lines.clone());
                // Every game played is timed, delivered or not (one played past an SPRT's stop point).
                let worker_times = PerWorker::new(opts.threads, || vec![TimeTally::default(); times.len()]);
                let format = |job: &Job, record: &GameRecord, rows: &mut Vec<u8>| {
                    worker_times.with(|tallies| {
                        for &(seat, took) in &record.times {
                            tallies[job.lineup[seat]].add(took);
                        }
                        for seat in 0..record.seats.len() {
                            tallies[job.lineup[seat]].add_seat(record, seat);
                        }
                    });
                    // Formatted here, on the worker that played the game: the delivering thread
                    // only copies bytes in order.
                    if let Some(lines) = &moves {
                        lines.line(job, record, rows);
                    }
                    if writing {
                        rows_of.rows(job, record, rows);
                    }
                };
                end =
                    runner::run(schedule, plan, table.as_ref(), opts, &progress, &format, &mut |job, record, rows| {
                        if sink.copy_until(schedule.index(job.pairing, job.game))? == Flow::Stop {
                            return Ok(Flow::Stop);
                        }
                        sink.deliver(job, record, rows)
                    })?;
                for tallies in worker_times.into_values() {
                    times.iter_mut().zip(&tallies).for_each(|(all, worker)| all.merge(worker));
                }
            }
            if !end.stopped_by_sink {
                // The games held back: a bot still failing at its start when its games ran out
                // could not run; an interrupted run keeps them, as it keeps every finished game.
                end.stopped_by_sink = match end.interrupted {
                    false => sink.settle()?,
                    true => sink.release_all()?,
                } == Flow::Stop;
            }
            if !end.stopped_by_sink {
                // The known games after the last one played. An interrupted run copies them too (they
                // must not be lost) but does not let the SPRT look at them: games before them are missing.
                if end.interrupted {
                    sink.sprt = None;
                }
                end.stopped_by_sink = sink.copy_until(u64::MAX)? == Flow::Stop;
            }
            Ok(())
        })?;
        end.played = first + sink.written;
        Ok(end)
    }
}
