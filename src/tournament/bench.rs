//! Benchmarks of the harness itself: the runner's parallel scaling on gomoku.
//!
//! `runner.gomoku_scaling` plays weights-vs-weights gomoku through the real runner (schedule,
//! parallel batches, ordered hand-off, tallies; CSV formatting but no disk) three ways: one run on
//! one thread, two such runs side by side (two processes' worth of work in one process, each on
//! its own one-thread pool), and one run on two threads. The ratio says how much of two
//! independent single-thread runs the parallel runner achieves (target: at least 95%).

use std::sync::Arc;
use std::time::Instant;

use crate::bench::{Bench, BenchOptions, Measure};
use crate::core::Params;
use crate::games::{Arena, BotChoice};
use crate::report::{Records, RunTally};
use crate::tournament::progress::{Progress, ProgressMode};
use crate::tournament::runner::{self, Flow, RunOptions};
use crate::tournament::schedule::Schedule;

pub fn benches() -> Vec<Bench> {
    vec![Bench { name: "runner.gomoku_scaling", run: scaling }]
}

/// Games per second of a run of `games` games on `threads` threads.
fn run_games(bot: &str, games: u64, threads: usize) -> f64 {
    let arena = Arena::standard();
    let entry = arena.find("gomoku").expect("gomoku is registered");
    let options = Params::new(entry.options(), &toml::Table::new(), "gomoku").expect("defaults are valid");
    let specs = entry.bot_params(bot).expect("bench bot exists");
    let params = Params::new(specs, &toml::Table::new(), bot).expect("defaults are valid");
    let choice = BotChoice { name: bot.to_string(), kind: bot.to_string(), params };
    let table = entry.table(&options, 2, &[choice.clone(), choice], None).expect("bench table");
    let schedule = Schedule::new(vec![vec![0, 1]], games, true, 1);
    let opts = RunOptions {
        threads,
        progress: ProgressMode::Off,
        history: false,
        stop: Arc::default(),
        records: Records::None,
    };
    let mut tally = RunTally::new(&schedule, vec!["a".into(), "b".into()]);
    let mut bytes = 0usize;
    let start = Instant::now();
    runner::run(
        &schedule,
        runner::Plan::all(&schedule),
        table.as_ref(),
        &opts,
        &Progress::hidden(schedule.total()),
        &mut |job, record| {
            // Format like games.csv does, so the hand-off cost is realistic.
            bytes += record.columns.iter().map(str::len).sum::<usize>() + 32 * record.seats.len();
            tally.add(job.pairing, job.game, &job.lineup, record);
            Ok(Flow::Continue)
        },
    )
    .expect("bench run");
    std::hint::black_box(bytes);
    games as f64 / start.elapsed().as_secs_f64()
}

/// The bot used for throughput: the document's AI when present.
fn bench_bot() -> &'static str {
    let arena = Arena::standard();
    let entry = arena.find("gomoku").expect("gomoku is registered");
    if entry.bot_params("weights").is_some() {
        "weights"
    } else {
        "random-adjacent"
    }
}

fn scaling(opts: &BenchOptions) -> Vec<Measure> {
    let bot = bench_bot();
    // Size the run from a short calibration so each measure takes about the budget.
    let rate = run_games(bot, 200, 1);
    let games = ((rate * opts.budget.as_secs_f64()) as u64).max(200);
    let single = run_games(bot, games, 1);
    let side_by_side: f64 = std::thread::scope(|s| {
        let a = s.spawn(|| run_games(bot, games, 1));
        let b = s.spawn(|| run_games(bot, games, 1));
        a.join().expect("bench thread") + b.join().expect("bench thread")
    });
    let threads = opts.threads.max(2);
    let parallel = run_games(bot, games * threads as u64, threads);
    vec![
        Measure { name: format!("runner.{bot}_games_per_s_1_thread"), value: single, unit: "games/s" },
        Measure { name: format!("runner.{bot}_games_per_s_two_1_thread_runs"), value: side_by_side, unit: "games/s" },
        Measure { name: format!("runner.{bot}_games_per_s_{threads}_threads"), value: parallel, unit: "games/s" },
        Measure {
            name: format!("runner.{threads}_threads_vs_side_by_side"),
            value: 100.0 * parallel / side_by_side,
            unit: "%",
        },
    ]
}
