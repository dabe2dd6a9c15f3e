//! The parallel runner: plays a [`Schedule`] on a rayon pool and hands each finished game to a
//! sink in schedule order, so output is the same for any number of threads.
//!
//! Games are played in batches; a batch is played in parallel, then delivered in order while the
//! next batch plays. Memory is a few batches of records, not the tournament. The batch grows
//! while batches finish quickly (up to about a quarter second), so fast games amortise the
//! hand-off and slow games still show progress. The [`Stop`] (Ctrl-C, SIGTERM, SIGHUP) is checked
//! before every game; what finished before the first unplayed game is kept. A second request
//! abandons the games in flight: nothing more is delivered.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::core::{GameRecord, Keep};
use crate::error::{Error, Result};
use crate::games::Table;
use crate::tournament::progress::{Progress, ProgressMode};
use crate::tournament::schedule::{Job, Schedule};

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub threads: usize,
    /// How the run shows its progress on stderr (see [`Progress`]).
    pub progress: ProgressMode,
    /// Ask games for their community-format record.
    pub history: bool,
    /// Set from outside (Ctrl-C, a signal) to stop after the games under way.
    pub stop: Arc<Stop>,
    /// How the games are kept: games.csv, games.csv.gz, or not at all.
    pub records: crate::report::Records,
}

/// A request from outside to stop a run: the first stops taking games and lets those in flight
/// finish; a second abandons those in flight. Only atomics, so a signal handler may call
/// [`Stop::request`].
#[derive(Debug, Default)]
pub struct Stop {
    requested: AtomicBool,
    abandon: AtomicBool,
    /// The signal that asked first, 0 when none did.
    signal: AtomicI32,
}

impl Stop {
    /// Asks the run to stop; `signal` is the signal number that asked (0 for none).
    pub fn request(&self, signal: i32) {
        let _ = self.signal.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
        if self.requested.swap(true, Ordering::SeqCst) {
            self.abandon.store(true, Ordering::SeqCst);
        }
    }

    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }

    pub fn abandoned(&self) -> bool {
        self.abandon.load(Ordering::Relaxed)
    }

    /// The signal that asked first, if one did.
    pub fn signal(&self) -> Option<i32> {
        Some(self.signal.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }
}

/// What the sink wants after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// Games delivered to the sink.
    pub played: u64,
    /// Stopped by the stop flag before the schedule was done.
    pub interrupted: bool,
    /// Stopped because the sink said so.
    pub stopped_by_sink: bool,
}

/// How often the hand-off looks at the stop request while waiting for a batch.
const POLL: Duration = Duration::from_millis(50);

const MAX_BATCH_TIME: Duration = Duration::from_millis(250);

/// The most games in a batch: enough to make the hand-off's cost vanish, few enough that a
/// batch's records stay in cache between the player and the writer.
const MAX_BATCH: usize = 1 << 12;

/// One game's place in a batch: the job, then its record once played. Batches go back to the
/// player after delivery and their slots are filled again, so a run allocates no record, lineup
/// or batch once the first few batches exist (and frees nothing across threads).
struct Slot {
    /// The game's index in the tournament; the worker that plays it fills `job` from it (the
    /// player thread, which fills batches one game after another, only hands out indexes).
    index: u64,
    job: Job,
    record: GameRecord,
    /// What the run's `format` made of the record (its games.csv rows), on the worker's thread.
    rows: Vec<u8>,
    /// False when the game was skipped because of the stop flag (it and everything after it are
    /// not delivered).
    played: bool,
}

/// Games played together, in schedule order: the first `len` slots (the rest are kept for reuse).
#[derive(Default)]
struct Batch {
    slots: Vec<Slot>,
    len: usize,
}

/// The games a run plays: tournament indexes in increasing order, `count` of them, after `done`
/// games the run already has (resumed, or copied from elsewhere; they only count in the progress).
pub struct Plan<'a> {
    pub games: Box<dyn Iterator<Item = u64> + Send + 'a>,
    pub count: u64,
    pub done: u64,
}

impl Plan<'_> {
    /// Every game of `schedule`, in order.
    pub fn all(schedule: &Schedule) -> Plan<'static> {
        Plan { games: Box::new(0..schedule.total()), count: schedule.total(), done: 0 }
    }
}

/// What the workers make of a finished game for the sink, on their own threads (its games.csv
/// rows; the decision times, into a [`PerWorker`] tally): that work scales with the threads, and
/// the sink, which runs on one, only copies and adds up results.
pub type Format<'a> = dyn Fn(&Job, &GameRecord, &mut Vec<u8>) + Sync + 'a;

/// One `T` per worker thread of a run, each on cache lines of its own: a worker updates its own
/// without waiting for or disturbing the others (its lock is only ever taken by that worker during
/// the run). For what the workers add up in any order, like decision times.
pub struct PerWorker<T> {
    slots: Vec<Padded<std::sync::Mutex<T>>>,
}

/// A value aligned to two cache lines (what the adjacent-line prefetcher fetches together).
#[repr(align(128))]
struct Padded<T>(T);

impl<T> PerWorker<T> {
    /// One value for each of `threads` workers, made by `new`.
    pub fn new(threads: usize, new: impl Fn() -> T) -> PerWorker<T> {
        PerWorker { slots: (0..threads.max(1)).map(|_| Padded(std::sync::Mutex::new(new()))).collect() }
    }

    /// Runs `f` on the calling worker's value (outside a pool, the first one's).
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let i = rayon::current_thread_index().unwrap_or(0) % self.slots.len();
        f(&mut self.slots[i].0.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// The workers' values.
    pub fn into_values(self) -> impl Iterator<Item = T> {
        self.slots.into_iter().map(|p| p.0.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
    }
}

/// Where the games go, in schedule order, with what [`Format`] made of them; says whether to go on.
pub type Deliver<'a> = dyn FnMut(&Job, &GameRecord, &[u8]) -> Result<Flow> + 'a;

/// Plays the games of `plan` from `schedule`, on `table`, delivering records in schedule order to
/// `sink` with what `format` made of them (`played` counts the games delivered); counts every
/// finished game in `progress`.
///
/// On one thread, each game is played, formatted and delivered in turn ([`run_inline`]). On more,
/// two stages run at once: a producer thread plays batch k+1 on the pool while this thread hands
/// batch k to the sink (CSV writing, tallies), so writing never leaves the workers idle. The sink
/// still sees every game in order; when it says stop, games already played past that point are
/// dropped, so the stop point does not depend on timing.
pub fn run(
    schedule: &Schedule,
    plan: Plan,
    table: &dyn Table,
    opts: &RunOptions,
    progress: &Progress,
    format: &Format<'_>,
    sink: &mut Deliver<'_>,
) -> Result<RunEnd> {
    if opts.threads <= 1 {
        return run_inline(schedule, plan, table, opts, progress, format, sink);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
        .map_err(|e| Error::input(format!("cannot start {} threads: {e}", opts.threads)))?;
    let Plan { games: mut indices, count, .. } = plan;
    let stop: &Stop = &opts.stop;
    // Set when the consumer is done early (sink stop or error): the producer stops playing.
    let consumer_done = AtomicBool::new(false);
    let mut end = RunEnd { played: 0, interrupted: false, stopped_by_sink: false };
    let result = std::thread::scope(|scope| -> Result<()> {
        // One batch in the channel and one being played while one is delivered: memory stays a
        // few batches, which go round between the two threads.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(1);
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Batch>();
        let (pool, consumer_done) = (&pool, &consumer_done);
        scope.spawn(move || {
            let mut size = (opts.threads * 4).max(1);
            while !consumer_done.load(Ordering::Relaxed) {
                let mut batch = back_rx.try_recv().unwrap_or_default();
                batch.len = 0;
                for index in indices.by_ref().take(size) {
                    if batch.len == batch.slots.len() {
                        let job = schedule.job(index);
                        batch.slots.push(Slot {
                            index,
                            job,
                            record: GameRecord::new(),
                            rows: Vec::new(),
                            played: false,
                        });
                    } else {
                        batch.slots[batch.len].index = index;
                    }
                    batch.len += 1;
                }
                if batch.len == 0 {
                    return;
                }
                let keep = Keep { columns: opts.records.file().is_some(), history: opts.history };
                let started = Instant::now();
                pool.install(|| {
                    batch.slots[..batch.len].par_iter_mut().for_each(|slot| {
                        slot.played = !(stop.requested() || consumer_done.load(Ordering::Relaxed));
                        if slot.played {
                            schedule.job_into(slot.index, &mut slot.job);
                            let job = &slot.job;
                            table.play_into(&job.lineup, job.game, &job.seeds, keep, &mut slot.record);
                            slot.rows.clear();
                            format(job, &slot.record, &mut slot.rows);
                            progress.game_done();
                        }
                    })
                });
                let cut_short = batch.slots[..batch.len].iter().any(|slot| !slot.played);
                if tx.send(batch).is_err() || cut_short {
                    return;
                }
                if started.elapsed() < MAX_BATCH_TIME / 2 {
                    size = (size * 2).min(MAX_BATCH);
                }
            }
        });
        loop {
            let batch = match rx.recv_timeout(POLL) {
                Ok(batch) => batch,
                Err(RecvTimeoutError::Timeout) if stop.abandoned() => {
                    end.interrupted = true;
                    consumer_done.store(true, Ordering::Relaxed);
                    break;
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            for slot in &batch.slots[..batch.len] {
                if !slot.played || stop.abandoned() {
                    end.interrupted = true;
                    break;
                }
                end.played += 1;
                let flow = sink(&slot.job, &slot.record, &slot.rows)
                    .inspect_err(|_| consumer_done.store(true, Ordering::Relaxed))?;
                if flow == Flow::Stop {
                    end.stopped_by_sink = true;
                    break;
                }
            }
            // The player may be gone (it stops after the last batch); the batch is then dropped.
            let _ = back_tx.send(batch);
            if end.interrupted || end.stopped_by_sink {
                consumer_done.store(true, Ordering::Relaxed);
                break;
            }
        }
        Ok(())
    });
    result?;
    if stop.requested() && end.played < count && !end.stopped_by_sink {
        end.interrupted = true;
    }
    Ok(end)
}

/// [`run`] on the calling thread alone: play a game, format it, deliver it, and the next. A game
/// never leaves the core that played it: handing records to a second thread costs a fast game
/// more in cache misses than the writing it takes off the player (a million always-call hold'em
/// hands with games.csv: 1.9 s of processor time handed over, 1.5 s in turn on one thread; with
/// `--records none` 1.2-1.4 s against 0.9 s). The stop request is looked at before every game;
/// after a second request the game under way is not delivered.
fn run_inline(
    schedule: &Schedule,
    plan: Plan,
    table: &dyn Table,
    opts: &RunOptions,
    progress: &Progress,
    format: &Format<'_>,
    sink: &mut Deliver<'_>,
) -> Result<RunEnd> {
    let Plan { games: indices, count, .. } = plan;
    let stop: &Stop = &opts.stop;
    let keep = Keep { columns: opts.records.file().is_some(), history: opts.history };
    let mut end = RunEnd { played: 0, interrupted: false, stopped_by_sink: false };
    let (mut job, mut record, mut rows) = (None::<Job>, GameRecord::new(), Vec::new());
    for index in indices {
        if stop.requested() {
            break;
        }
        let job = match &mut job {
            Some(job) => {
                schedule.job_into(index, job);
                job
            }
            None => job.insert(schedule.job(index)),
        };
        table.play_into(&job.lineup, job.game, &job.seeds, keep, &mut record);
        rows.clear();
        format(job, &record, &mut rows);
        progress.game_done();
        if stop.abandoned() {
            break;
        }
        end.played += 1;
        if sink(job, &record, &rows)? == Flow::Stop {
            end.stopped_by_sink = true;
            break;
        }
    }
    end.interrupted = stop.requested() && end.played < count && !end.stopped_by_sink;
    Ok(end)
}
