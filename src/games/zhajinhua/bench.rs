//! `arena bench zhajinhua`: the heads-up win-probability query and whole 6-seat hands of ev bots.

use std::hint::black_box;

use crate::core::bench::{throughput, Bench, BenchOptions, Measure};
use crate::core::BotFactory;
use crate::core::{play_game, GameSeeds, Params};

use super::eval::all_hands;
use super::winprob::heads_up;
use super::Zhajinhua;

pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "zhajinhua.winprob_us", run: winprob_us },
        Bench { name: "zhajinhua.hands_per_s", run: hands_per_s },
    ]
}

/// Microseconds per exact heads-up win probability (table lookup after the one-time build), over
/// hands spread through the whole hand list.
fn winprob_us(o: &BenchOptions) -> Vec<Measure> {
    let hands: Vec<_> = all_hands().iter().step_by(7).copied().collect();
    let per_s = throughput(o.budget, hands.len() as u64, || {
        hands.iter().map(|&h| heads_up(black_box(h), false).win).sum::<u32>()
    });
    vec![Measure { name: "zhajinhua.winprob_us".into(), value: 1e6 / per_s, unit: "us" }]
}

/// Whole hands at a 6-seat table of `ev` bots, played as the harness plays them (fresh bots, seeded
/// streams), on one thread.
fn hands_per_s(o: &BenchOptions) -> Vec<Measure> {
    let game = Zhajinhua::with_seats(6);
    let ev = super::bots::BOT_KINDS.iter().find(|k| k.name == "ev").expect("ev bot");
    let params = Params::new(ev.params, &toml::Table::new(), "bench").expect("defaults");
    let make: BotFactory<Zhajinhua> = (ev.make)(&params, &game).expect("ev bot");
    let mut i = 0u64;
    let per_s = throughput(o.budget, 1, || {
        i += 1;
        let mut bots: Vec<_> = (0..6).map(|_| make()).collect();
        play_game(&game, &mut bots, &GameSeeds::derive(1, 0, i, 1), false).moves
    });
    vec![Measure { name: "zhajinhua.hands_per_s".into(), value: per_s, unit: "hands/s" }]
}
