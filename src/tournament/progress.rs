//! A run's progress on stderr: a bar redrawn in place on a terminal, else one plain line every few
//! seconds, so a CI log shows the run is alive and how long it has left.
//!
//! The rate is the games finished over the time since the first game started (not a smoothed
//! recent rate, which swings with the runner's batches); the ETA is shown only once that rate
//! means something: after `RATE_KNOWN_AFTER` or a twentieth of the games. An SPRT run may stop
//! before its last game, so its ETA is an upper bound (`≤`) and its line shows the current LLR.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::stats::Sprt;
use crate::tournament::runner::{worker_index, Padded};

/// How a run shows its progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProgressMode {
    /// Nothing shown.
    Off,
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// One line every so often (stderr is a file or a pipe).
    Lines(Duration),
}

/// The time after which the mean rate is trusted for an ETA (or a twentieth of the games).
pub(crate) const RATE_KNOWN_AFTER: Duration = Duration::from_secs(2);

/// How often the bar is redrawn.
const BAR_TICK: Duration = Duration::from_millis(100);

/// What the workers and the sink update and the display reads.
struct Shared {
    /// Games played before this session (a resumed run), counted as done but not in the rate.
    before: u64,
    total: u64,
    /// Games finished in this session.
    done: DoneCount,
    started: Instant,
    /// With an SPRT: the test in words ([`Sprt::describe`]) and its bounds; the latest
    /// log-likelihood ratio (None before the first deal).
    sprt: Option<(String, (f64, f64))>,
    llr: Mutex<Option<f64>>,
}

/// A count of finished games that many workers add to at once: one counter per worker thread,
/// each on cache lines of its own. (One shared counter went back and forth between the cores at
/// every game, which cost two workers playing millions of short games a tenth of their time.)
#[derive(Default)]
struct DoneCount {
    counters: [Padded<AtomicU64>; DoneCount::COUNTERS],
}

impl DoneCount {
    /// Workers beyond this many share counters (and only then contend).
    const COUNTERS: usize = 32;

    fn add_one(&self) {
        let worker = worker_index() % DoneCount::COUNTERS;
        self.counters[worker].0.fetch_add(1, Ordering::Relaxed);
    }

    fn total(&self) -> u64 {
        self.counters.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// A run's progress: counts games as they finish and shows them per its [`ProgressMode`] on a
/// thread of its own until dropped.
pub(crate) struct Progress {
    shared: Arc<Shared>,
    ticker: Option<(mpsc::Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// Starts showing the progress of `total` games (at most `total` with an SPRT), `before` of
    /// which were played before (a resumed run).
    pub fn start(mode: ProgressMode, before: u64, total: u64, sprt: Option<&Sprt>) -> Progress {
        let shared = Arc::new(Shared {
            before,
            total,
            done: DoneCount::default(),
            started: Instant::now(),
            sprt: sprt.map(|s| (s.describe(), s.bounds())),
            llr: Mutex::new(None),
        });
        let ticker = match mode {
            ProgressMode::Off => None,
            ProgressMode::Bar => Some(spawn(shared.clone(), BAR_TICK, Display::Bar(bar(total)))),
            ProgressMode::Lines(every) => Some(spawn(shared.clone(), every, Display::Lines)),
        };
        Progress { shared, ticker }
    }

    /// No display; the counts are still kept.
    pub fn hidden(total: u64) -> Progress {
        Progress::start(ProgressMode::Off, 0, total, None)
    }

    /// One more game finished (called from the workers).
    pub fn game_done(&self) {
        self.shared.done.add_one();
    }

    /// The SPRT's log-likelihood ratio after the latest whole deal.
    pub fn set_llr(&self, llr: f64) {
        *self.shared.llr.lock().expect("progress lock") = Some(llr);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some((tx, handle)) = self.ticker.take() {
            drop(tx);
            let _ = handle.join();
        }
    }
}

/// Where the progress goes.
enum Display {
    Bar(ProgressBar),
    Lines,
}

fn bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {msg}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

/// A thread that redraws the bar or prints a line every `every`, until the sender is dropped.
fn spawn(shared: Arc<Shared>, every: Duration, display: Display) -> (mpsc::Sender<()>, JoinHandle<()>) {
    let (tx, rx) = mpsc::channel::<()>();
    let handle = std::thread::spawn(move || {
        while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(every) {
            let done = shared.done.total();
            let status = shared.status(done, shared.started.elapsed());
            match &display {
                Display::Bar(bar) => {
                    bar.set_position(shared.before + done);
                    bar.set_message(status);
                }
                // Not `eprintln!`, which panics when nobody reads stderr any more: the run's
                // results go to files, and losing its progress lines is no reason to stop it.
                Display::Lines => {
                    let _ = writeln!(std::io::stderr(), "progress: {status}");
                }
            }
        }
        if let Display::Bar(bar) = display {
            bar.finish_and_clear();
        }
    });
    (tx, handle)
}

impl Shared {
    fn status(&self, done: u64, elapsed: Duration) -> String {
        let llr = *self.llr.lock().expect("progress lock");
        let sprt = self.sprt.as_ref().map(|(test, bounds)| (test.as_str(), llr, *bounds));
        status(self.before, done, self.total, elapsed, sprt)
    }
}

/// One progress line: `7,380/10,000 games, 13,143 games/s, ETA 2s` (+ `, SPRT payoff [0, 200]
/// bb/100: LLR 1.23 (stops at -2.94 or 2.94)` with an SPRT, whose ETA is an upper bound). `done` games were played in `elapsed`, after
/// `before` played earlier (a resumed run: they count as done but not in the rate).
pub(crate) fn status(
    before: u64,
    done: u64,
    total: u64,
    elapsed: Duration,
    sprt: Option<(&str, Option<f64>, (f64, f64))>,
) -> String {
    let mut s = format!("{}/{} games", thousands(before + done), thousands(total));
    let seconds = elapsed.as_secs_f64();
    let to_play = total.saturating_sub(before);
    let known = done > 0 && (elapsed >= RATE_KNOWN_AFTER || done.saturating_mul(20) >= to_play);
    if known {
        let rate = done as f64 / seconds.max(1e-9);
        s.push_str(&format!(", {} games/s", rate_text(rate)));
        if done < to_play {
            let left = Duration::from_secs_f64((to_play - done) as f64 / rate);
            let bound = if sprt.is_some() { "≤ " } else { "" };
            s.push_str(&format!(", ETA {bound}{}", duration_text(left)));
        }
    }
    if let Some((test, llr, (lower, upper))) = sprt {
        match llr {
            Some(llr) => s.push_str(&format!(", SPRT {test}: LLR {llr:.2} (stops at {lower:.2} or {upper:.2})")),
            None => s.push_str(&format!(", SPRT {test}: LLR after the first deal")),
        }
    }
    s
}

/// `13143` → `13,143` (the verdicts' own, so that every count is written one way).
pub use crate::report::verdict::thousands;

/// A rate with three significant figures below 100 (`0.521`, `45.2`), whole numbers with
/// separators above (`13,143`).
pub(crate) fn rate_text(rate: f64) -> String {
    if rate >= 99.5 {
        thousands(rate.round() as u64)
    } else if rate >= 9.995 {
        format!("{rate:.1}")
    } else if rate >= 0.9995 {
        format!("{rate:.2}")
    } else {
        format!("{rate:.3}")
    }
}

/// `42s`, `2m 05s`, `1h 02m`.
pub(crate) fn duration_text(d: Duration) -> String {
    let s = d.as_secs_f64().ceil() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(13143), "13,143");
        assert_eq!(thousands(1_000_000_000_000), "1,000,000,000,000");
    }

    #[test]
    fn rates_with_units_and_separators() {
        // 400 games in 0.03 s (4% of the games): no rate yet; at 10% the mean rate is
        // 13,143 games/s (what indicatif showed as "13.143/s").
        let line = status(0, 400, 10_000, Duration::from_secs_f64(400.0 / 13_143.0), None);
        assert_eq!(line, "400/10,000 games");
        let line = status(0, 1000, 10_000, Duration::from_secs_f64(1000.0 / 13_143.0), None);
        assert_eq!(line, "1,000/10,000 games, 13,143 games/s, ETA 1s");
        assert_eq!(rate_text(0.5213), "0.521");
        assert_eq!(rate_text(4.567), "4.57");
        assert_eq!(rate_text(45.23), "45.2");
        assert_eq!(rate_text(123.4), "123");
    }

    #[test]
    fn no_eta_until_the_rate_is_known() {
        // 1% of the games after one second: no rate, no ETA yet.
        assert_eq!(status(0, 100, 10_000, Duration::from_secs(1), None), "100/10,000 games");
        // After two seconds the mean rate is used: 200 games in 2 s, 9,800 left at 100/s.
        assert_eq!(status(0, 200, 10_000, Duration::from_secs(2), None), "200/10,000 games, 100 games/s, ETA 1m 38s");
        assert_eq!(status(0, 0, 10_000, Duration::from_secs(30), None), "0/10,000 games");
        // Done: no ETA.
        assert_eq!(status(0, 10, 10, Duration::from_secs(3), None), "10/10 games, 3.33 games/s");
        assert_eq!(duration_text(Duration::from_secs(7300)), "2h 01m");
    }

    #[test]
    fn a_resumed_run_counts_earlier_games_as_done_but_not_in_the_rate() {
        // 6,000 games played before; 1,000 more in 2 s: 500 games/s, 3,000 left.
        assert_eq!(
            status(6_000, 1_000, 10_000, Duration::from_secs(2), None),
            "7,000/10,000 games, 500 games/s, ETA 6s"
        );
        // The rate is known after a twentieth of the games left to play, not of the whole run.
        assert_eq!(status(6_000, 100, 10_000, Duration::from_millis(100), None), "6,100/10,000 games");
        assert_eq!(
            status(6_000, 200, 10_000, Duration::from_millis(100), None),
            "6,200/10,000 games, 2,000 games/s, ETA 2s"
        );
    }

    #[test]
    fn sprt_shows_the_llr_and_an_upper_bound() {
        let (test, bounds) = ("payoff [0, 200] bb/100", (-2.944, 2.944));
        let line = status(0, 3000, 100_000, Duration::from_secs(3), Some((test, Some(1.234), bounds)));
        assert_eq!(
            line,
            "3,000/100,000 games, 1,000 games/s, ETA ≤ 1m 37s, SPRT payoff [0, 200] bb/100: LLR 1.23 (stops at -2.94 or 2.94)"
        );
        let line = status(0, 1, 100_000, Duration::from_millis(10), Some((test, None, bounds)));
        assert_eq!(line, "1/100,000 games, SPRT payoff [0, 200] bb/100: LLR after the first deal");
    }

    #[test]
    fn counts_from_many_threads() {
        let progress = Progress::hidden(4000);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..1000).for_each(|_| progress.game_done()));
            }
        });
        assert_eq!(progress.shared.done.total(), 4000);
    }
}
