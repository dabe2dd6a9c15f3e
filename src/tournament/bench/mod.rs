//! Benchmarks of the harness itself: the runner's parallel scaling on gomoku, and what the
//! harness costs each game end to end.
//!
//! `runner.gomoku_scaling` plays weights-vs-weights gomoku through the real runner (schedule,
//! parallel batches, ordered hand-off, tallies; CSV formatting but no disk) three ways: one run on
//! one thread, two such runs side by side (two processes' worth of work in one process, each on
//! a thread of its own), and one run on two threads. The ratio says how much of two
//! independent single-thread runs the parallel runner achieves (target: at least 95%).

pub mod external;

use std::sync::Arc;
use std::time::Instant;

use crate::core::bench::{Bench, BenchOptions, Measure};
use crate::core::schedule::Schedule;
use crate::core::BotChoice;
use crate::core::{GameRecord, Keep, Params};
use crate::registry::Arena;
use crate::report::{Records, RunTally};
use crate::tournament::progress::{Progress, ProgressMode};
use crate::tournament::runner::{self, Flow, RunOptions};

pub fn benches() -> Vec<Bench> {
    vec![Bench { name: "runner.gomoku_scaling", run: scaling }, Bench { name: "runner.end_to_end", run: end_to_end }]
}

/// Every game's games per second on one thread two ways: engine only (the run's own games,
/// played by `Venue::play_into` in a loop: dealing, the bots, the rules and the record's columns,
/// nothing else) and end to end (`arena run` on one thread: the runner, the tallies, games.csv
/// written to a temporary folder, the verdict files), and the second as a percentage of the
/// first. The two alternate over [`ROUNDS`] rounds of a third of the budget each and the medians
/// are printed, so a machine that speeds up or slows down meanwhile weighs on both alike.
fn end_to_end(opts: &BenchOptions) -> Vec<Measure> {
    let arena = Arena::standard();
    let mut measures = Vec::new();
    let budget = opts.budget / ROUNDS as u32;
    // Each game with the cheap bots it names, so that what the harness adds shows.
    let lineups: Vec<(&str, &[&str])> =
        arena.games().filter(|g| !g.bench_lineup().is_empty()).map(|g| (g.name(), g.bench_lineup())).collect();
    for (game, lineup) in lineups {
        let bots = format!("{lineup:?}");
        let config = |games: u64| {
            let text = format!("game = \"{game}\"\ngames = {games}\nseed = 1\npaired = true\nbots = {bots}\n");
            let source = crate::config::Source::command_line(&text);
            let overrides = crate::config::Overrides::default();
            crate::config::RunConfig::parse(&arena, &source, game, &overrides).expect("bench config")
        };
        let cfg = config(1_000_000_000);
        let schedule = cfg.schedule().expect("bench schedule");
        let table = arena.find(game).and_then(|e| e.venue(&cfg.table, cfg.seats, &cfg.bots, None)).expect("table");
        let (mut job, mut record) = (schedule.job(0), GameRecord::new());
        let mut i = 0;
        let dir = std::env::temp_dir().join(format!("arena-bench-{}-{game}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let (mut engine, mut whole, mut share) = (Vec::new(), Vec::new(), Vec::new());
        let (mut moves, mut moves_share, mut bytes) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let rate = crate::core::bench::throughput(budget, 1, || {
                schedule.job_into(i, &mut job);
                i += 1;
                table.play_into(&job.lineup, job.game, &job.seeds, Keep::COLUMNS, &mut record);
                record.moves
            });
            // The end-to-end run takes about as long: a multiple of every table's rotations.
            let games = ((rate * budget.as_secs_f64()) as u64).max(1).next_multiple_of(12);
            let cfg = config(games);
            // The same games without and with their moves kept (records.jsonl), in turns that
            // alternate which goes first, so that neither always runs on a warmer machine.
            let mut rates = [0.0; 2];
            for turn in 0..2 {
                let kept = (turn + engine.len()) % 2;
                let run_opts = RunOptions {
                    threads: 1,
                    progress: ProgressMode::Off,
                    history: false,
                    stop: Arc::default(),
                    records: [Records::Csv, Records::Moves][kept],
                    flush_every: crate::tournament::runner::FLUSH_EVERY,
                    cores: Vec::new(),
                    luck: crate::core::luck::Estimator::Plain,
                };
                let start = Instant::now();
                crate::tournament::run::execute(
                    &arena,
                    &cfg,
                    cfg.schedule().expect("bench schedule"),
                    &run_opts,
                    &dir,
                    crate::tournament::folder::prepare(&dir, true).expect("a bench folder"),
                    None,
                )
                .expect("bench run");
                rates[kept] = games as f64 / start.elapsed().as_secs_f64();
                if kept == 1 {
                    let size = std::fs::metadata(dir.join(crate::report::records::FILE)).map_or(0, |m| m.len());
                    bytes.push(size as f64 / games as f64);
                }
            }
            engine.push(rate);
            whole.push(rates[0]);
            share.push(100.0 * rates[0] / rate);
            moves.push(rates[1]);
            moves_share.push(100.0 * rates[1] / rates[0]);
        }
        let _ = std::fs::remove_dir_all(&dir);
        measures.push(Measure {
            name: format!("runner.{game}_engine_only_per_s"),
            value: median(engine),
            unit: "games/s",
        });
        measures.push(Measure {
            name: format!("runner.{game}_end_to_end_per_s"),
            value: median(whole),
            unit: "games/s",
        });
        measures.push(Measure { name: format!("runner.{game}_end_to_end_vs_engine"), value: median(share), unit: "%" });
        measures.push(Measure {
            name: format!("runner.{game}_end_to_end_moves_per_s"),
            value: median(moves),
            unit: "games/s",
        });
        measures.push(Measure {
            name: format!("runner.{game}_moves_vs_end_to_end"),
            value: median(moves_share),
            unit: "%",
        });
        measures.push(Measure {
            name: format!("runner.{game}_moves_bytes_per_game"),
            value: median(bytes),
            unit: "bytes",
        });
    }
    measures
}

/// Rounds of the end-to-end bench.
const ROUNDS: usize = 3;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Games per second of a run of `games` games on `threads` threads.
fn run_games(bot: &str, games: u64, threads: usize) -> f64 {
    let arena = Arena::standard();
    let entry = arena.find("gomoku").expect("gomoku is registered");
    let options = Params::new(entry.options(), &toml::Table::new(), "gomoku").expect("defaults are valid");
    let specs = entry.bot_params(bot).expect("bench bot exists");
    let params = Params::new(specs, &toml::Table::new(), bot).expect("defaults are valid");
    let choice = BotChoice { name: bot.to_string(), kind: bot.to_string(), params };
    let table = entry.venue(&options, 2, &[choice.clone(), choice], None).expect("bench table");
    let schedule = Schedule::new(vec![vec![0, 1]], games, true, 1);
    let opts = RunOptions {
        threads,
        progress: ProgressMode::Off,
        history: false,
        stop: Arc::default(),
        records: Records::None,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    let mut tally = RunTally::new(&schedule, vec!["a".into(), "b".into()]);
    let start = Instant::now();
    runner::run(
        &schedule,
        runner::Plan::all(&schedule),
        table.as_ref(),
        &opts,
        &Progress::hidden(schedule.total()),
        &|_, _, _| {},
        &mut |job, record, _| {
            tally.add(job.pairing, job.game, &job.lineup, record);
            Ok(Flow::Continue)
        },
    )
    .expect("bench run");
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
