//! `arena bench external`: what the protocol costs. Two copies of the reference bot
//! (`arena protocol-bot`, started from this same executable, so no build step is needed) play
//! each other through the `external` kind on the calling thread (one worker thread), game after
//! game with the processes reused, as in a run:
//!
//! - `external.<game>_moves_per_s`: decisions per second, engine included;
//! - `external.<game>_round_trip_us`: the host's mean time per decision: encode the view and the
//!   legal actions, write a line, the bot reads, picks and answers, read and parse the answer.
//!
//! Every game of the arena is measured: hold'em has small views, gomoku's list up to 225 legal
//! moves, mahjong's claims are asked of every seat.

use std::time::{Duration, Instant};

use crate::core::bench::{Bench, BenchOptions, Measure};
use crate::core::BotChoice;
use crate::core::{GameSeeds, Params, Status};
use crate::registry::{Arena, GameEntry};

pub fn benches() -> Vec<Bench> {
    vec![Bench { name: "external", run }]
}

fn run(opts: &BenchOptions) -> Vec<Measure> {
    let exe = std::env::current_exe().expect("the path of this executable");
    let command = toml::Value::Array(vec![exe.display().to_string().into(), "protocol-bot".into()]);
    let arena = Arena::standard();
    arena.games().flat_map(|entry| measure(entry, &command, opts.budget)).collect()
}

fn measure(entry: &dyn GameEntry, command: &toml::Value, budget: Duration) -> [Measure; 2] {
    let game = entry.name();
    let options = Params::new(entry.options(), &toml::Table::new(), game).expect("defaults are valid");
    let specs = BotChoice::specs(entry.bot_params("external").expect("every game has the external kind"));
    let given = toml::Table::from_iter([("command".to_string(), command.clone())]);
    let params = Params::new(&specs, &given, "the bench bot").expect("valid parameters");
    let bot = BotChoice { name: "protocol-bot".into(), kind: "external".into(), params };
    // Every seat the reference bot, at the game's fewest seats (mahjong's four).
    let seats = *entry.seats().start();
    let table = entry.venue(&options, seats, &[bot], None).expect("a bench table");
    let lineup = vec![0; seats];
    let play = |g: u64| {
        let record = table.play(&lineup, g, &GameSeeds::derive(1, 0, g, 1), false);
        assert_eq!(record.status, Status::Ok, "the reference bot plays legal moves");
        record
    };
    // Start the two processes and fill the game's lazily built tables (hold'em's evaluator).
    let warm_up = 50;
    (0..warm_up).for_each(|g| drop(play(g)));
    let (mut games, mut moves, mut thinking) = (warm_up, 0u64, Duration::ZERO);
    let began = Instant::now();
    while began.elapsed() < budget {
        let record = play(games);
        games += 1;
        moves += record.times.len() as u64;
        thinking += record.times.iter().map(|&(_, t)| t).sum::<Duration>();
    }
    let elapsed = began.elapsed().as_secs_f64();
    [
        Measure { name: format!("external.{game}_moves_per_s"), value: moves as f64 / elapsed, unit: "moves/s" },
        Measure {
            name: format!("external.{game}_round_trip_us"),
            value: thinking.as_secs_f64() * 1e6 / moves.max(1) as f64,
            unit: "us",
        },
    ]
}
