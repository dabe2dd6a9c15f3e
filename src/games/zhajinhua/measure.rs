//! The benchmark the series describes: the EV AI against the baselines, chips per hand with 95%
//! intervals, at 3-, 4- and 6-seat tables, and ev-adaptive against ev.
//!
//! `cargo test --release -- --ignored --nocapture zhajinhua::measure`
//!
//! Duplicate mode: every deal is replayed once per seat with the tested bot rotated through the
//! seats (the other seats hold the opponent bot), so each deal gives the tested bot every position.
//! The sample unit is the deal (the mean over its rotations); the interval is the Student-t 95%
//! interval over deals ([`crate::core::paired::paired_means`]).

use crate::core::BotFactory;
use crate::core::{play_game, Bot, GameSeeds, Params};

use super::Zhajinhua;

/// A bot kind with its defaults, or a variant of bots/zhajinhua.toml.
fn bot(game: &Zhajinhua, name: &str) -> BotFactory<Zhajinhua> {
    let roster: toml::Table = toml::from_str(super::ROSTER).unwrap();
    let (kind, params) = match roster.get(name) {
        Some(v) => {
            (v["kind"].as_str().unwrap(), v.get("params").and_then(|p| p.as_table()).cloned().unwrap_or_default())
        }
        None => (name, toml::Table::new()),
    };
    let k = super::bots::BOT_KINDS.iter().find(|k| k.name == kind).expect("known bot");
    (k.make)(&Params::new(k.params, &params, name).unwrap(), game).unwrap()
}

/// Mean chips per hand of `hero` (one seat) against `villain` (every other seat) and the 95%
/// half-width, over `deals` deals each played `seats` times.
pub fn chips_per_hand(seats: usize, hero: &str, villain: &str, deals: u64, master: u64) -> (f64, f64) {
    let game = Zhajinhua::with_seats(seats);
    let mut bots = vec![bot(&game, villain); seats];
    bots[0] = bot(&game, hero);
    crate::core::paired::paired_means(&game, &bots, deals, master)[0]
}

/// `cargo test --release -- --ignored --nocapture zhajinhua::measure::ev_against_the_baselines`
#[test]
#[ignore]
fn ev_against_the_baselines() {
    // ZJH_SEED: another master seed, to check that the figures are not one seed's luck.
    let master: u64 = std::env::var("ZJH_SEED").map_or(1, |s| s.parse().unwrap());
    let mut failures = Vec::new();
    for seats in [3, 4, 6] {
        for hero in ["ev", "ev-adaptive"] {
            for villain in ["always-call", "random", "threshold"] {
                let (mean, half) = chips_per_hand(seats, hero, villain, 20_000, master);
                println!("{seats} seats  {hero:<12} vs {villain:<12} {mean:+8.3} +- {half:.3} chips/hand");
                if hero == "ev" && mean - half <= 0.0 {
                    failures.push(format!("{seats} seats ev vs {villain}: {mean:+.3} +- {half:.3}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "ev does not beat: {failures:?}");
}

/// `cargo test --release -- --ignored --nocapture zhajinhua::measure::ev_adaptive_against_ev`
#[test]
#[ignore]
fn ev_adaptive_against_ev() {
    for seats in [2, 3, 4, 6] {
        let (mean, half) = chips_per_hand(seats, "ev-adaptive", "ev", 20_000, 2);
        println!("{seats} seats  ev-adaptive vs ev  {mean:+8.3} +- {half:.3} chips/hand");
    }
}

/// A breakdown of the hero's chips by its hand category and how its hand ended, to see where a
/// bot wins and loses:
/// `cargo test --release -- --ignored --nocapture zhajinhua::measure::breakdown`
#[test]
#[ignore]
fn breakdown() {
    // ZJH_SEATS, ZJH_HERO, ZJH_VILLAIN choose the table (default: 3 seats, ev against threshold).
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let seats: usize = env("ZJH_SEATS", "3").parse().unwrap();
    let (hero, villain) = (env("ZJH_HERO", "ev"), env("ZJH_VILLAIN", "threshold"));
    let (hero, villain) = (hero.as_str(), villain.as_str());
    let game = Zhajinhua::with_seats(seats);
    let (h, v) = (bot(&game, hero), bot(&game, villain));
    let mut table: std::collections::BTreeMap<String, (u32, f64)> = Default::default();
    for g in 0..60_000u64 {
        let hero_seat = (g % seats as u64) as usize;
        let mut bots: Vec<Box<dyn Bot<Zhajinhua>>> =
            (0..seats).map(|s| if s == hero_seat { h() } else { v() }).collect();
        let r = play_game(&game, &mut bots, &GameSeeds::derive(3, 0, g, 1), false);
        let x: Vec<&str> = r.extra(hero_seat).collect();
        let key = format!("{:<14} looked={:<5} folded={:<5} showdown={}", x[1], x[2], x[3], x[5]);
        let e = table.entry(key).or_default();
        e.0 += 1;
        e.1 += r.seats[hero_seat].payoff;
    }
    for (k, (n, sum)) in table {
        println!("{k}  n={n:6}  total={sum:+9.0}  mean={:+.2}", sum / n as f64);
    }
}

/// The roster variants against the baselines:
/// `cargo test --release -- --ignored --nocapture zhajinhua::measure::variants`
#[test]
#[ignore]
fn variants() {
    for hero in ["ev-short", "ev-aggressive", "ev-naive", "ev-adaptive-soft"] {
        for villain in ["always-call", "random", "threshold"] {
            let (mean, half) = chips_per_hand(3, hero, villain, 10_000, 3);
            println!("3 seats  {hero:<16} vs {villain:<12} {mean:+8.3} +- {half:.3} chips/hand");
        }
    }
}
