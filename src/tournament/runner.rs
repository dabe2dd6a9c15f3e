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

use crate::core::GameRecord;
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

/// One batch of played games, in schedule order; `None` marks a game skipped because of the stop
/// flag (it and everything after it are not delivered).
type Batch = Vec<Option<(Job, GameRecord)>>;

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

/// Plays the games of `plan` from `schedule`, on `table`, delivering records in schedule order to
/// `sink` (`played` counts the games delivered); counts every finished game in `progress`.
///
/// Two stages run at once: a producer thread plays batch k+1 on the pool while this thread hands
/// batch k to the sink (CSV writing, tallies), so writing never leaves the workers idle. The sink
/// still sees every game in order; when it says stop, games already played past that point are
/// dropped, so the stop point does not depend on timing.
pub fn run(
    schedule: &Schedule,
    plan: Plan,
    table: &dyn Table,
    opts: &RunOptions,
    progress: &Progress,
    sink: &mut dyn FnMut(&Job, GameRecord) -> Result<Flow>,
) -> Result<RunEnd> {
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
        // One batch in the channel and one being played: memory stays a few batches.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(1);
        let (pool, consumer_done) = (&pool, &consumer_done);
        scope.spawn(move || {
            let mut batch = (opts.threads * 4).max(1);
            while !consumer_done.load(Ordering::Relaxed) {
                let next: Vec<u64> = indices.by_ref().take(batch).collect();
                if next.is_empty() {
                    return;
                }
                let started = Instant::now();
                let records: Batch = pool.install(|| {
                    next.into_par_iter()
                        .map(|i| {
                            if stop.requested() || consumer_done.load(Ordering::Relaxed) {
                                return None;
                            }
                            let job = schedule.job(i);
                            let record = table.play(&job.lineup, job.game, &job.seeds, opts.history);
                            progress.game_done();
                            Some((job, record))
                        })
                        .collect()
                });
                let cut_short = records.iter().any(Option::is_none);
                if tx.send(records).is_err() || cut_short {
                    return;
                }
                if started.elapsed() < MAX_BATCH_TIME / 2 {
                    batch = (batch * 2).min(1 << 16);
                }
            }
        });
        loop {
            let records = match rx.recv_timeout(POLL) {
                Ok(records) => records,
                Err(RecvTimeoutError::Timeout) if stop.abandoned() => {
                    end.interrupted = true;
                    consumer_done.store(true, Ordering::Relaxed);
                    break;
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            for item in records {
                let Some((job, record)) = item.filter(|_| !stop.abandoned()) else {
                    end.interrupted = true;
                    break;
                };
                end.played += 1;
                let flow = sink(&job, record).inspect_err(|_| consumer_done.store(true, Ordering::Relaxed))?;
                if flow == Flow::Stop {
                    end.stopped_by_sink = true;
                    break;
                }
            }
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
