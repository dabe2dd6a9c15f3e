//! `arena bench holdem`: evaluator, Monte Carlo, engine and rr throughput, one core each.

use std::time::Instant;

use rand::{Rng, SeedableRng};

use crate::cards::{Card, Deck};
use crate::core::bench::{throughput, Bench, BenchOptions, Measure};
use crate::core::{play_game, Bot, BotChoice, BotFactory, BotKind, DealRng, Game, GameSeeds, Params, Status};

use super::bots::{RrBot, RrConfig};
use super::equity::{monte_carlo, FastRng, Opponents};
use super::eval::eval7;
use super::{Action, Holdem};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "holdem.eval7_per_s", run: eval7_per_s },
        Bench { name: "holdem.mc_1m_aa_vs_kk_s", run: mc_1m },
        Bench { name: "holdem.hands_per_s", run: hands_per_s },
        Bench { name: "holdem.rr_hands_per_s", run: rr_hands_per_s },
        Bench { name: "holdem.acpc", run: acpc_moves_per_s },
    ]
}

fn measure(name: &str, value: f64, unit: &'static str) -> Vec<Measure> {
    vec![Measure { name: name.to_string(), value, unit }]
}

/// Seven-card evaluations per second from lists of 7 cards (4,096 random hands, cycled).
fn eval7_per_s(o: &BenchOptions) -> Vec<Measure> {
    let mut rng = DealRng::seed_from_u64(1);
    let hands: Vec<[Card; 7]> = (0..4096)
        .map(|_| {
            let d = Deck::shuffled(&mut rng);
            std::array::from_fn(|i| d.cards()[i])
        })
        .collect();
    let rate = throughput(o.budget, hands.len() as u64, || {
        hands.iter().fold(0u32, |acc, h| acc.wrapping_add(eval7(std::hint::black_box(h)) as u32))
    });
    measure("holdem.eval7_per_s", rate, "hands/s")
}

/// Seconds for 1,000,000 Monte Carlo trials of AhAs against KdKc (best of 5).
fn mc_1m(_: &BenchOptions) -> Vec<Measure> {
    let aa = [Card::parse("Ah").unwrap(), Card::parse("As").unwrap()];
    let kk = [Card::parse("Kd").unwrap(), Card::parse("Kc").unwrap()];
    let best = (0..5)
        .map(|i| {
            let start = Instant::now();
            let e = monte_carlo(aa, &[], Opponents::Known(kk), 1_000_000, &mut FastRng::new(i));
            std::hint::black_box(e);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    measure("holdem.mc_1m_aa_vs_kk_s", best, "s")
}

/// Whole heads-up hands per second, always-call against always-call, engine only (deal, apply,
/// outcome; no bot objects).
fn hands_per_s(o: &BenchOptions) -> Vec<Measure> {
    let game = Holdem::new(2, 50, 100, 10_000);
    let mut rng = DealRng::seed_from_u64(7);
    let rate = throughput(o.budget, 1000, || {
        let mut chips = 0f64;
        for _ in 0..1000 {
            let mut s = game.deal(&mut rng);
            while game.to_act(&s).is_some() {
                game.apply(&mut s, &Action::CheckCall).unwrap();
            }
            chips += game.outcome(&s).payoff[0];
        }
        chips
    });
    measure("holdem.hands_per_s", rate, "hands/s")
}

/// Heads-up hands per second, rr (1,000 trials) against always-call, through `play_game`.
fn rr_hands_per_s(o: &BenchOptions) -> Vec<Measure> {
    let game = Holdem::new(2, 50, 100, 10_000);
    let cfg = RrConfig::default_config();
    let mut seed = DealRng::seed_from_u64(3);
    let rate = throughput(o.budget, 100, || {
        let mut total = 0f64;
        for g in 0..100u64 {
            let mut bots: Vec<Box<dyn Bot<Holdem>>> =
                vec![Box::new(RrBot::new(cfg.clone())), Box::new(super::bots::always_call())];
            if g % 2 == 1 {
                bots.swap(0, 1);
            }
            let seeds = GameSeeds::derive(seed.random(), 0, g, 1);
            total += play_game(&game, &mut bots, &seeds, false).seats[0].payoff;
        }
        total
    });
    measure("holdem.rr_hands_per_s", rate, "hands/s")
}

/// What an agent over ACPC's protocol costs, side by side with the JSON protocol: decisions a
/// second, heads-up on ACPC's table, through the `acpc` kind (two `arena acpc-agent holdem --bot
/// always-call`, this executable: a compiled agent that thinks no time) and through the `external`
/// kind (two `arena protocol-bot`), agents and processes reused game after game as in a run; and
/// the second rate over the first.
fn acpc_moves_per_s(o: &BenchOptions) -> Vec<Measure> {
    let exe = std::env::current_exe().expect("the path of this executable").display().to_string();
    let game = Holdem::new(2, 50, 100, 20_000);
    let agent = [exe.as_str(), "acpc-agent", "holdem", "--bot", "always-call"];
    let acpc = factory(&super::acpc::kind::KIND, &game, &agent);
    let external = factory(&crate::external::kind::<Holdem>(), &game, &[exe.as_str(), "protocol-bot"]);
    let half = o.budget / 2;
    let over_acpc = moves_per_s(&game, &acpc, half);
    let over_json = moves_per_s(&game, &external, half);
    vec![
        Measure { name: "holdem.acpc_moves_per_s".into(), value: over_acpc, unit: "moves/s" },
        Measure { name: "holdem.acpc_external_moves_per_s".into(), value: over_json, unit: "moves/s" },
        Measure { name: "holdem.acpc_external_over_acpc".into(), value: over_json / over_acpc, unit: "x" },
    ]
}

/// A bot of `kind` running `command`.
fn factory(kind: &BotKind<Holdem>, game: &Holdem, command: &[&str]) -> BotFactory<Holdem> {
    let command = toml::Value::Array(command.iter().map(|&a| a.into()).collect());
    let given = toml::Table::from_iter([("command".to_string(), command)]);
    let params = Params::new(&BotChoice::specs(kind.params), &given, "the bench bot").expect("valid parameters");
    (kind.make)(&params, game).expect("a bench bot")
}

/// Decisions a second of two bots from `factory` playing each other for about `budget`.
fn moves_per_s(game: &Holdem, factory: &BotFactory<Holdem>, budget: std::time::Duration) -> f64 {
    let play = |g: u64| {
        let mut bots = vec![factory(), factory()];
        let record = play_game(game, &mut bots, &GameSeeds::derive(1, 0, g, 1), false);
        assert_eq!(record.status, Status::Ok, "the bench's agents play legal moves");
        record.times.len() as u64
    };
    // Start the processes and fill the evaluator's tables.
    (0..50).for_each(|g| {
        play(g);
    });
    let (mut games, mut moves) = (50, 0);
    let began = Instant::now();
    while began.elapsed() < budget {
        moves += play(games);
        games += 1;
    }
    moves as f64 / began.elapsed().as_secs_f64()
}
