//! The runner: plays a [`Schedule`]'s games on as many threads as asked and hands each finished
//! game to a sink in schedule order, so output is the same for any number of threads.
//!
//! On one thread each game is played, formatted and delivered in turn. On more, the threads take
//! batches of consecutive games, play them and put them back on a shelf; the thread that called
//! `run` delivers them in order and plays when there is nothing to deliver. Memory is a few
//! batches of records a thread, not the tournament. A batch grows while batches finish quickly (up
//! to `MAX_BATCH` games), so fast games amortise the hand-off and slow games still show
//! progress. The [`Stop`] (Ctrl-C, SIGTERM, SIGHUP) is checked before every game; what finished
//! before the first unplayed game is kept. A second request abandons the games in flight: nothing
//! more is delivered.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::core::schedule::{Job, Schedule};
use crate::core::{GameRecord, Keep};
use crate::error::{Error, Result};
use crate::registry::Venue;
use crate::tournament::progress::{Progress, ProgressMode};

#[derive(Clone, Debug)]
/// How a run is played and kept, apart from its config.
pub struct RunOptions {
    /// Threads that play games (1: all on the calling thread); the output is the same for any
    /// number.
    pub threads: usize,
    /// How the run shows its progress on stderr (see `Progress`).
    pub progress: ProgressMode,
    /// Ask games for their community-format record.
    pub history: bool,
    /// Set from outside (Ctrl-C, a signal) to stop after the games under way.
    pub stop: Arc<Stop>,
    /// How the games are kept: games.csv, games.csv.gz, or not at all.
    pub records: crate::report::Records,
    /// How often finished games' rows are written out to the disk (zero: after every game).
    pub flush_every: Duration,
    /// How the run takes luck out of its payoffs (its config's `estimator`).
    pub luck: crate::core::luck::Estimator,
    /// The cores the workers are pinned to (`--affinity`): worker k (0, the calling thread)
    /// on `cores[k % len]`, and the bots it starts with it; empty: not pinned.
    pub cores: Vec<usize>,
}

/// The cores this process may run on, in order (Linux: `sched_getaffinity`); an error names
/// why none can be had, for `--affinity`'s one-line refusal.
pub fn usable_cores() -> std::result::Result<Vec<usize>, String> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a zeroed cpu_set_t filled by the kernel for the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Err(format!(
                    "cannot read which cores this process may use: {}",
                    std::io::Error::last_os_error()
                ));
            }
            Ok((0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect())
        }
    }
    #[cfg(not(target_os = "linux"))]
    Err("this system gives no way to pin threads to cores (sched_setaffinity is Linux's)".to_string())
}

/// Pins the calling thread to `core` (what it starts later, bots included, inherits it).
pub fn pin_to(core: usize) -> std::result::Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: a cpu_set_t with one core set, applied to the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(core, &mut set);
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                return Err(format!("cannot pin a worker to core {core}: {}", std::io::Error::last_os_error()));
            }
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    Err(format!("cannot pin a worker to core {core}: this system has no sched_setaffinity"))
}

/// Pins worker `worker` where `cores` says (nothing when empty). A pin refused now, after the
/// command checked it, leaves the worker where it is: the run's results do not depend on it.
fn pin_worker(cores: &[usize], worker: usize) {
    if let Some(&core) = cores.get(worker % cores.len().max(1)) {
        let _ = pin_to(core);
    }
}

/// How often finished games reach the disk by default (`--flush-every`).
pub const FLUSH_EVERY: Duration = Duration::from_secs(5);

impl RunOptions {
    /// The options of a run started from code: `threads` threads, nothing shown while it plays,
    /// games.csv kept, no hand histories, rows flushed every [`FLUSH_EVERY`], and a [`Stop`] only
    /// the caller can request (through the `stop` field), workers not pinned to cores.
    pub fn new(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            progress: ProgressMode::Off,
            history: false,
            stop: Arc::default(),
            records: crate::report::Records::Csv,
            flush_every: FLUSH_EVERY,
            luck: crate::core::luck::Estimator::Plain,
            cores: Vec::new(),
        }
    }
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

    /// Whether a stop was asked for.
    pub fn requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }

    /// Whether a second stop was asked for: the games in flight are abandoned.
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
pub(crate) enum Flow {
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

/// How often the delivering thread looks at the stop request while waiting for a batch.
const POLL: Duration = Duration::from_millis(50);

/// A batch played in under half this time makes the next one twice as big (up to [`MAX_BATCH`]).
const MAX_BATCH_TIME: Duration = Duration::from_millis(250);

/// The most games in a batch: enough to make the hand-off's cost vanish (a lock and a wake-up a
/// batch), few enough that a batch's records (about 400 bytes a game with its rows) stay in the
/// core's cache until they are delivered.
const MAX_BATCH: usize = 256;

thread_local! {
    static WORKER: Cell<usize> = const { Cell::new(0) };
}

/// The calling thread's number among the threads of the run under way: 0 for the thread that
/// called [`run`] (and any thread outside a run), 1 and up for the workers it started. For
/// per-thread tallies like [`PerWorker`].
pub(crate) fn worker_index() -> usize {
    WORKER.get()
}

/// One game's place in a batch: the job, then its record once played. Batches go back on the
/// shelf after delivery and their slots are filled again, so a run allocates no record, lineup
/// or batch once the first few batches exist (and frees nothing across threads).
struct Slot {
    /// The game's index in the tournament; the thread that plays it fills `job` from it (the
    /// shelf, behind its lock, only hands out indexes).
    index: u64,
    job: Job,
    record: GameRecord,
    /// What the run's `format` made of the record (its games.csv rows), on the thread that played.
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

/// Batches a thread may hand out ahead of the oldest one not yet delivered, per thread: enough
/// that no thread waits on another's slower batch, few enough that memory stays a few batches.
const AHEAD_PER_THREAD: u64 = 4;

/// What the threads of a parallel run share, behind one lock: the games not yet handed out and
/// the played batches waiting for their turn to be delivered.
struct Shelf<'p> {
    games: Box<dyn Iterator<Item = u64> + Send + 'p>,
    /// Batches handed out so far, numbered from 0 in schedule order.
    claimed: u64,
    /// The number of the next batch to deliver.
    next: u64,
    /// Played batches by number, waiting until every earlier one is delivered.
    parked: BTreeMap<u64, Batch>,
    /// Delivered batches, to be filled again.
    spare: Vec<Batch>,
    /// Games in the next batch handed out: doubles while batches are quick.
    size: usize,
    /// Nothing more to hand out: the plan is done, or a stop request cut a batch short.
    exhausted: bool,
}

/// What a thread gets when it asks the shelf for work.
enum Claim {
    /// Play these games, batch number `.0`.
    Play(u64, Batch),
    /// Too far ahead of delivery: wait for it.
    Wait,
    /// Everything is handed out.
    Finished,
}

impl Shelf<'_> {
    fn claim(&mut self, schedule: &Schedule, threads: usize) -> Claim {
        if self.exhausted {
            return Claim::Finished;
        }
        if self.claimed >= self.next + AHEAD_PER_THREAD * threads as u64 {
            return Claim::Wait;
        }
        let mut batch = self.spare.pop().unwrap_or_default();
        batch.len = 0;
        for index in self.games.by_ref().take(self.size) {
            if batch.len == batch.slots.len() {
                let job = schedule.job(index);
                batch.slots.push(Slot { index, job, record: GameRecord::new(), rows: Vec::new(), played: false });
            } else {
                batch.slots[batch.len].index = index;
            }
            batch.len += 1;
        }
        if batch.len == 0 {
            self.exhausted = true;
            self.spare.push(batch);
            return Claim::Finished;
        }
        self.claimed += 1;
        Claim::Play(self.claimed - 1, batch)
    }

    /// Puts a played batch on the shelf; `took` is how long it took to play.
    fn park(&mut self, number: u64, batch: Batch, took: Duration) {
        if batch.slots[..batch.len].iter().any(|slot| !slot.played) {
            // A stop request: every later game would be skipped too.
            self.exhausted = true;
        } else if took < MAX_BATCH_TIME / 2 {
            self.size = (self.size * 2).min(MAX_BATCH);
        }
        self.parked.insert(number, batch);
    }
}

/// The games a run plays: tournament indexes in increasing order, `count` of them, after `done`
/// games the run already has (resumed, or copied from elsewhere; they only count in the progress).
pub(crate) struct Plan<'a> {
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
pub(crate) type Format<'a> = dyn Fn(&Job, &GameRecord, &mut Vec<u8>) + Sync + 'a;

/// One `T` per worker thread of a run, each on cache lines of its own: a worker updates its own
/// without waiting for or disturbing the others (its lock is only ever taken by that worker during
/// the run). For what the workers add up in any order, like decision times.
pub(crate) struct PerWorker<T> {
    slots: Vec<Padded<Mutex<T>>>,
}

/// A value aligned to two cache lines (what the adjacent-line prefetcher fetches together), so
/// values of different threads never share one.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct Padded<T>(pub T);

impl<T> PerWorker<T> {
    /// One value for each of `threads` workers, made by `new`.
    pub fn new(threads: usize, new: impl Fn() -> T) -> PerWorker<T> {
        PerWorker { slots: (0..threads.max(1)).map(|_| Padded(Mutex::new(new()))).collect() }
    }

    /// Runs `f` on the calling thread's value ([`worker_index`]; outside a run, the first one's).
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let i = worker_index() % self.slots.len();
        f(&mut self.slots[i].0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The workers' values.
    pub fn into_values(self) -> impl Iterator<Item = T> {
        self.slots.into_iter().map(|p| p.0.into_inner().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Where the games go, in schedule order, with what [`Format`] made of them; says whether to go on.
pub(crate) type Deliver<'a> = dyn FnMut(&Job, &GameRecord, &[u8]) -> Result<Flow> + 'a;

/// Plays the games of `plan` from `schedule`, on `table`, delivering records in schedule order to
/// `sink` with what `format` made of them (`played` counts the games delivered); counts every
/// finished game in `progress`.
///
/// On one thread, each game is played, formatted and delivered in turn ([`run_inline`]); on more,
/// the threads share batches and this thread delivers them ([`run_parallel`]).
pub(crate) fn run(
    schedule: &Schedule,
    plan: Plan,
    table: &dyn Venue,
    opts: &RunOptions,
    progress: &Progress,
    format: &Format<'_>,
    sink: &mut Deliver<'_>,
) -> Result<RunEnd> {
    let keep = Keep {
        columns: opts.records.file().is_some(),
        history: opts.history,
        moves: opts.records.moves_file().is_some(),
        luck: opts.luck,
    };
    let player = Player { schedule, table, stop: &opts.stop, progress, format, keep, cores: &opts.cores };
    pin_worker(&opts.cores, 0);
    let mut end = if opts.threads <= 1 {
        run_inline(&player, plan.games, sink)?
    } else {
        run_parallel(&player, plan.games, opts.threads, sink)?
    };
    end.interrupted |= opts.stop.requested() && end.played < plan.count && !end.stopped_by_sink;
    Ok(end)
}

/// What playing a game takes, shared by a run's threads.
struct Player<'r> {
    schedule: &'r Schedule,
    table: &'r dyn Venue,
    stop: &'r Stop,
    progress: &'r Progress,
    format: &'r Format<'r>,
    keep: Keep,
    /// Where the workers are pinned ([`RunOptions::cores`]).
    cores: &'r [usize],
}

impl Player<'_> {
    /// Plays game `index` of the schedule into `job`, `record` and its `rows` (all filled again).
    fn play(&self, index: u64, job: &mut Job, record: &mut GameRecord, rows: &mut Vec<u8>) {
        self.schedule.job_into(index, job);
        self.table.play_into(&job.lineup, job.game, &job.seeds, self.keep, record);
        rows.clear();
        (self.format)(job, record, rows);
        self.progress.game_done();
    }
}

/// [`run`] on `opts.threads` threads: the calling thread and `threads - 1` workers take batches of
/// consecutive games from one [`Shelf`], play them and put them back; the calling thread, which
/// alone holds the sink, delivers the batches in order whenever the next one is back, and plays
/// batches of its own when it is not. So there are as many busy threads as asked (the writing is
/// not a thread of its own competing for the cores), and the calling thread's own batches are
/// delivered from its cache. The sink sees every game in order; when it says stop, games already
/// played past that point are dropped, so the stop point does not depend on timing.
fn run_parallel(
    player: &Player<'_>,
    games: Box<dyn Iterator<Item = u64> + Send + '_>,
    threads: usize,
    sink: &mut Deliver<'_>,
) -> Result<RunEnd> {
    let (schedule, stop) = (player.schedule, player.stop);
    let shelf = Mutex::new(Shelf {
        games,
        claimed: 0,
        next: 0,
        parked: BTreeMap::new(),
        spare: Vec::new(),
        size: 1,
        exhausted: false,
    });
    // Signalled when a batch is parked (for the calling thread) or delivered (for workers waiting
    // to get ahead), and when the run is over.
    let changed = Condvar::new();
    // Set when delivery ended early (sink stop or error, abandoned): everyone stops playing.
    let over = AtomicBool::new(false);
    let lock = || shelf.lock().unwrap_or_else(PoisonError::into_inner);
    let play = |batch: &mut Batch| {
        for slot in &mut batch.slots[..batch.len] {
            slot.played = !(stop.requested() || over.load(Ordering::Relaxed));
            if slot.played {
                player.play(slot.index, &mut slot.job, &mut slot.record, &mut slot.rows);
            }
        }
    };
    // Plays the claimed batch and parks it; hands back the lock.
    let play_and_park = |number: u64, mut batch: Batch| {
        let started = Instant::now();
        play(&mut batch);
        let took = started.elapsed();
        let mut guard = lock();
        guard.park(number, batch, took);
        changed.notify_all();
        guard
    };
    let mut end = RunEnd { played: 0, interrupted: false, stopped_by_sink: false };
    // Ends the run for every thread. Under the lock, so no worker misses the wake-up between its
    // look at `over` and its wait.
    let end_run = || {
        let _guard = lock();
        over.store(true, Ordering::Relaxed);
        changed.notify_all();
    };
    let cores = player.cores;
    std::thread::scope(|scope| -> Result<()> {
        // However this thread leaves (done, an error, a panic), the workers stop.
        let _ending = OnDrop(end_run);
        for worker in 1..threads {
            let (lock, play_and_park, changed, over, end_run) = (&lock, &play_and_park, &changed, &over, &end_run);
            std::thread::Builder::new()
                .name(format!("arena-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    WORKER.set(worker);
                    pin_worker(cores, worker);
                    // A worker that panics stops the run (the scope then passes the panic on)
                    // rather than leave the delivering thread waiting for its batch.
                    let _on_panic = OnDrop(|| {
                        if std::thread::panicking() {
                            end_run();
                        }
                    });
                    let mut guard = lock();
                    while !over.load(Ordering::Relaxed) {
                        guard = match guard.claim(schedule, threads) {
                            Claim::Play(number, batch) => {
                                drop(guard);
                                play_and_park(number, batch)
                            }
                            Claim::Wait => changed.wait(guard).unwrap_or_else(PoisonError::into_inner),
                            Claim::Finished => return,
                        };
                    }
                })
                .map_err(|e| Error::input(format!("cannot start {threads} threads: {e}")))?;
        }
        let mut guard = lock();
        let result = loop {
            let next = guard.next;
            if let Some(batch) = guard.parked.remove(&next) {
                drop(guard);
                let delivered = deliver(&batch, stop, sink, &mut end);
                guard = lock();
                guard.next += 1;
                guard.spare.push(batch);
                changed.notify_all();
                match delivered {
                    Ok(true) => continue,
                    Ok(false) => break Ok(()),
                    Err(e) => break Err(e),
                }
            }
            guard = match guard.claim(schedule, threads) {
                Claim::Play(number, batch) => {
                    drop(guard);
                    play_and_park(number, batch)
                }
                Claim::Finished if guard.next == guard.claimed => break Ok(()),
                Claim::Wait | Claim::Finished => {
                    changed.wait_timeout(guard, POLL).unwrap_or_else(PoisonError::into_inner).0
                }
            };
            if stop.abandoned() {
                end.interrupted = true;
                break Ok(());
            }
            if over.load(Ordering::Relaxed) {
                break Ok(()); // a worker panicked
            }
        };
        drop(guard);
        result
    })?;
    Ok(end)
}

/// Runs its closure when dropped, also while unwinding.
pub(crate) struct OnDrop<F: FnMut()>(pub(crate) F);

impl<F: FnMut()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        (self.0)()
    }
}

/// Hands a played batch's games to the sink in order; false when the run ends here (a game the
/// stop request skipped, a second request, or the sink said stop).
fn deliver(batch: &Batch, stop: &Stop, sink: &mut Deliver<'_>, end: &mut RunEnd) -> Result<bool> {
    for slot in &batch.slots[..batch.len] {
        if !slot.played || stop.abandoned() {
            end.interrupted = true;
            return Ok(false);
        }
        end.played += 1;
        if sink(&slot.job, &slot.record, &slot.rows)? == Flow::Stop {
            end.stopped_by_sink = true;
            return Ok(false);
        }
    }
    Ok(true)
}

/// [`run`] on the calling thread alone: play a game, format it, deliver it, and the next. A game
/// never leaves the core that played it: handing records to a second thread costs a fast game
/// more in cache misses than the writing it takes off the player (a million always-call hold'em
/// hands with games.csv: 1.9 s of processor time handed over, 1.5 s in turn on one thread; with
/// `--records none` 1.2-1.4 s against 0.9 s). The stop request is looked at before every game;
/// after a second request the game under way is not delivered.
fn run_inline(
    player: &Player<'_>,
    games: Box<dyn Iterator<Item = u64> + Send + '_>,
    sink: &mut Deliver<'_>,
) -> Result<RunEnd> {
    let stop = player.stop;
    let mut end = RunEnd { played: 0, interrupted: false, stopped_by_sink: false };
    let (mut job, mut record, mut rows) = (None::<Job>, GameRecord::new(), Vec::new());
    for index in games {
        if stop.requested() {
            break;
        }
        let job = job.get_or_insert_with(|| player.schedule.job(index));
        player.play(index, job, &mut record, &mut rows);
        if stop.abandoned() {
            break;
        }
        end.played += 1;
        if sink(job, &record, &rows)? == Flow::Stop {
            end.stopped_by_sink = true;
            break;
        }
    }
    Ok(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::BotChoice;
    use crate::core::Params;
    use crate::registry::Arena;
    use crate::report::Records;
    use crate::tournament::progress::Progress;

    /// A heads-up hold'em table of always-call bots and a schedule of `games` games at each of three
    /// tables.
    fn holdem(games: u64) -> (Arc<dyn Venue>, Schedule) {
        let arena = Arena::standard();
        let entry = arena.find("holdem").expect("holdem is registered");
        let options = Params::new(entry.options(), &toml::Table::new(), "holdem").expect("defaults");
        let params = Params::new(entry.bot_params("always-call").expect("a bot"), &toml::Table::new(), "b").unwrap();
        let bots: Vec<BotChoice> = (0..3)
            .map(|i| BotChoice { name: format!("b{i}"), kind: "always-call".into(), params: params.clone() })
            .collect();
        let table = entry.venue(&options, 2, &bots, None).expect("a table");
        (table, Schedule::new(vec![vec![0, 1], vec![1, 2], vec![0, 2]], games, true, 7))
    }

    fn options(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            progress: ProgressMode::Off,
            history: false,
            stop: Arc::default(),
            records: Records::None,
            flush_every: crate::tournament::runner::FLUSH_EVERY,
            cores: Vec::new(),
            luck: crate::core::luck::Estimator::Plain,
        }
    }

    /// Runs `plan` on `threads` threads; the sink answers `answer(n)` for the n-th game delivered
    /// (from 0). Returns how the run ended and the tournament indexes and payoffs delivered.
    fn deliveries(
        threads: usize,
        plan: Vec<u64>,
        stop: Arc<Stop>,
        answer: impl Fn(u64) -> Result<Flow>,
    ) -> (Result<RunEnd>, Vec<(u64, f64)>) {
        let (table, schedule) = holdem(40_000);
        let opts = RunOptions { stop, ..options(threads) };
        let count = plan.len() as u64;
        let plan = Plan { games: Box::new(plan.into_iter()), count, done: 0 };
        let mut seen = Vec::new();
        let end = run(
            &schedule,
            plan,
            table.as_ref(),
            &opts,
            &Progress::hidden(count),
            &|_, _, _| {},
            &mut |job, record, _| {
                seen.push((schedule.index(job.pairing, job.game), record.seats[0].payoff));
                answer(seen.len() as u64 - 1)
            },
        );
        (end, seen)
    }

    #[test]
    fn every_thread_count_delivers_the_plan_in_order_and_the_same_games() {
        // Every third game from 5 on, like a shard's share.
        let plan: Vec<u64> = (5..1200).step_by(3).collect();
        let (end, one) = deliveries(1, plan.clone(), Arc::default(), |_| Ok(Flow::Continue));
        assert_eq!(end.unwrap(), RunEnd { played: plan.len() as u64, interrupted: false, stopped_by_sink: false });
        assert_eq!(one.iter().map(|d| d.0).collect::<Vec<_>>(), plan);
        for threads in 2..=5 {
            let (end, seen) = deliveries(threads, plan.clone(), Arc::default(), |_| Ok(Flow::Continue));
            assert_eq!(end.unwrap().played, plan.len() as u64, "{threads} threads");
            assert!(seen == one, "{threads} threads delivered other games or another order");
        }
    }

    #[test]
    fn a_sink_that_stops_or_fails_ends_the_run_at_that_game_on_any_thread_count() {
        let plan: Vec<u64> = (0..1200).collect();
        for threads in 1..=5 {
            let (end, seen) = deliveries(threads, plan.clone(), Arc::default(), |n| {
                Ok(if n == 700 { Flow::Stop } else { Flow::Continue })
            });
            assert_eq!(end.unwrap(), RunEnd { played: 701, interrupted: false, stopped_by_sink: true });
            assert_eq!(seen.iter().map(|d| d.0).collect::<Vec<_>>(), (0..701).collect::<Vec<_>>());
            let (end, seen) = deliveries(threads, plan.clone(), Arc::default(), |n| {
                if n == 300 {
                    Err(Error::input("the disk is full"))
                } else {
                    Ok(Flow::Continue)
                }
            });
            assert!(end.is_err(), "{threads} threads");
            assert_eq!(seen.len(), 301, "{threads} threads");
        }
    }

    /// A run of far more games than the threads may play ahead of delivery, in which the sink
    /// asks to stop `requests` times when the game numbered `at` is delivered.
    fn stopped_at(threads: usize, at: u64, requests: usize) -> (RunEnd, Vec<(u64, f64)>) {
        let stop = Arc::new(Stop::default());
        let asked = stop.clone();
        let (end, seen) = deliveries(threads, (0..120_000).collect(), stop, move |n| {
            if n == at {
                (0..requests).for_each(|_| asked.request(2));
            }
            Ok(Flow::Continue)
        });
        (end.expect("the run ends well"), seen)
    }

    #[test]
    fn a_stop_request_keeps_the_games_before_the_first_unplayed_one() {
        for threads in 1..=4 {
            let (end, seen) = stopped_at(threads, 200, 1);
            assert!(end.interrupted && !end.stopped_by_sink, "{threads} threads: {end:?}");
            assert!(end.played > 200 && end.played < 120_000, "{threads} threads: {end:?}");
            assert_eq!(seen.iter().map(|d| d.0).collect::<Vec<_>>(), (0..end.played).collect::<Vec<_>>());
            // A stop before the first game: nothing is played.
            let stop = Arc::new(Stop::default());
            stop.request(15);
            let (end, seen) = deliveries(threads, (0..100).collect(), stop, |_| Ok(Flow::Continue));
            assert_eq!(end.unwrap(), RunEnd { played: 0, interrupted: true, stopped_by_sink: false });
            assert!(seen.is_empty());
        }
    }

    #[test]
    fn a_second_stop_request_delivers_nothing_more() {
        for threads in 1..=4 {
            let (end, seen) = stopped_at(threads, 100, 2);
            assert!(end.interrupted && end.played == 101 && seen.len() == 101, "{threads} threads: {end:?}");
        }
    }

    /// Whether a run on `threads` threads whose formatting panics from game 100 on, on the calling
    /// thread or on a worker (`on_caller`), ends with that panic (within a minute: not hung).
    fn panics(threads: usize, on_caller: bool) -> bool {
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let (table, schedule) = holdem(40_000);
            let format = |job: &Job, _: &GameRecord, _: &mut Vec<u8>| {
                if job.game >= 100 && (worker_index() == 0) == on_caller {
                    panic!("a bug in formatting");
                }
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let progress = Progress::hidden(schedule.total());
                let (plan, opts) = (Plan::all(&schedule), options(threads));
                run(&schedule, plan, table.as_ref(), &opts, &progress, &format, &mut |_, _, _| Ok(Flow::Continue))
            }));
            let _ = done.send(outcome.is_err());
        });
        ended.recv_timeout(Duration::from_secs(60)).expect("the run ended")
    }

    #[test]
    fn a_panic_on_any_thread_ends_the_run_instead_of_hanging_it() {
        assert!(panics(1, true));
        for threads in 2..=4 {
            assert!(panics(threads, true), "{threads} threads, the calling thread");
            assert!(panics(threads, false), "{threads} threads, a worker");
        }
    }
}
