//! Decision-time benches of the two search bots (`arena bench mahjong`): positions recorded from
//! greedy-vs-greedy hands with a fixed seed (every turn where a discard is chosen), each bot
//! timed once per position; median and 99th percentile in milliseconds.
//!
//! Measures: `mahjong.pruned_decision_median_ms`, `mahjong.pruned_decision_p99_ms` (1,000
//! positions), the same for `pruned_patent` (the opponent model and
//! the special shapes), `mahjong.expectimax_decision_median_ms`, `mahjong.expectimax_decision_p99_ms`
//! (depth 2, the same 1,000 positions).

use std::time::Instant;

use rand::SeedableRng;

use super::expectimax::Expectimax;
use super::pruned::{Config, Pruned};
use super::Position;
use crate::core::bench::{BenchOptions, Measure};
use crate::core::{Bot, BotRng, Game, GameSeeds};
use crate::games::mahjong::bots::GreedyBot;
use crate::games::mahjong::engine::{Action, Mahjong, PhaseView};
use crate::games::mahjong::shanten::warm_up;

pub const POSITIONS: usize = 1000;

/// The first `n` discard decisions of greedy-vs-greedy hands (seed 1, 8-fan minimum).
pub fn recorded_positions(n: usize) -> Vec<Position> {
    let game = Mahjong::new(8);
    let mut out = Vec::with_capacity(n);
    let mut hand_no = 0u64;
    while out.len() < n {
        let seeds = GameSeeds::derive(1, 0, hand_no, 1);
        hand_no += 1;
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut rng = seeds.bot_rng(0);
        while let Some(seat) = game.to_act(&s) {
            let v = game.view(&s, seat);
            if matches!(v.phase, PhaseView::Turn { .. }) && !v.legal.contains(&Action::Win) && out.len() < n {
                out.push(Position::from_view(&v));
            }
            let a = GreedyBot.act(&game, &v, &mut rng);
            game.apply(&mut s, &a).expect("greedy plays legal actions");
        }
    }
    out
}

/// Median and 99th percentile of `times` (ms).
fn quantiles(mut times: Vec<f64>) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

fn timed(name: &str, positions: &[Position], mut decide: impl FnMut(&Position) -> u8) -> Vec<Measure> {
    let mut times = Vec::with_capacity(positions.len());
    let mut sink = 0u64;
    for p in positions {
        let start = Instant::now();
        sink += decide(p) as u64;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    std::hint::black_box(sink);
    let (median, p99) = quantiles(times);
    vec![
        Measure { name: format!("mahjong.{name}_decision_median_ms"), value: median, unit: "ms" },
        Measure { name: format!("mahjong.{name}_decision_p99_ms"), value: p99, unit: "ms" },
    ]
}

/// The default `pruned` and `pruned-patent` (opponent model, special shapes), each position with
/// its own seeded model sample.
pub fn pruned_decision(_: &BenchOptions) -> Vec<Measure> {
    warm_up();
    let positions = recorded_positions(POSITIONS);
    let mut out = Vec::new();
    for (name, cfg) in [("pruned", Config::default()), ("pruned_patent", Config::patent())] {
        let mut bot = Pruned::new(cfg);
        let mut i = 0;
        out.extend(timed(name, &positions, |p| {
            i += 1;
            bot.choose_discard(p, 8, &mut BotRng::seed_from_u64(i)).0
        }));
    }
    out
}

pub fn expectimax_decision(_: &BenchOptions) -> Vec<Measure> {
    warm_up();
    let positions = recorded_positions(POSITIONS);
    let mut bot = Expectimax::new(Default::default());
    timed("expectimax", &positions, |p| bot.choose_discard(p, 8).0)
}
