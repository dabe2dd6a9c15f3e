//! `arena bench stud`: the advisor at the last street and whole expert-vs-expert hands, one core.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::bots::expert::Thresholds;
use super::engine::Stud;
use super::eval::value;
use super::odds::{win_probability, Budget, Position};
use crate::cards::{CardSet, Deck};
use crate::core::bench::{throughput, Bench, BenchOptions, Measure};
use crate::core::{play_game, GameSeeds, Params};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "stud.eval5", run: eval5 },
        Bench { name: "stud.advice_last_street", run: advice_last_street },
        Bench { name: "stud.hands", run: hands },
    ]
}

/// Random five-card hands (and the next four cards), from a fixed seed.
fn random_hands(n: usize) -> Vec<(CardSet, CardSet)> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (0..n)
        .map(|_| {
            let deck = Deck::shuffled(&mut rng);
            (deck.cards()[..5].iter().copied().collect(), deck.cards()[5..9].iter().copied().collect())
        })
        .collect()
}

fn eval5(opts: &BenchOptions) -> Vec<Measure> {
    let hands = random_hands(1024);
    let per_s = throughput(opts.budget, hands.len() as u64, || hands.iter().map(|h| value(h.0).0 as u64).sum::<u64>());
    vec![Measure { name: "stud.eval5_per_s".into(), value: per_s, unit: "hands/s" }]
}

/// My five cards against one opponent's four face-up cards: 43 possible hole cards, enumerated.
fn advice_last_street(opts: &BenchOptions) -> Vec<Measure> {
    let positions = random_hands(1024);
    let budget = Budget { exact_max: 1000, samples: 1 };
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut i = 0;
    let per_s = throughput(opts.budget, 1, || {
        let (mine, up) = positions[i % positions.len()];
        i += 1;
        let pos = Position { mine, opponents: &[up], dead: CardSet::EMPTY };
        Thresholds::DOCUMENT.advice(win_probability(CardSet::FULL, &pos, budget, &mut rng).win)
    });
    vec![Measure { name: "stud.advice_last_street_us".into(), value: 1e6 / per_s, unit: "us" }]
}

/// Whole heads-up hands, expert (default parameters) against expert, fresh bots each hand.
fn hands(opts: &BenchOptions) -> Vec<Measure> {
    let game = Stud::new(2, 1, 100, CardSet::FULL);
    let kind = super::bots::BOT_KINDS.iter().find(|k| k.name == "expert").expect("expert");
    let params = Params::new(kind.params, &toml::Table::new(), "expert").expect("defaults");
    let make = (kind.make)(&params, &game).expect("expert");
    let mut g = 0u64;
    let per_s = throughput(opts.budget, 64, || {
        let mut sum = 0.0;
        for _ in 0..64 {
            let mut bots = [make(), make()];
            let record = play_game(&game, &mut bots, &GameSeeds::derive(1, 0, g, 1), false);
            sum += record.seats[0].payoff;
            g += 1;
        }
        sum
    });
    vec![Measure { name: "stud.hands_per_s".into(), value: per_s, unit: "hands/s" }]
}

#[cfg(test)]
mod tests {
    /// Prints the measures without the CLI:
    /// `cargo test --release -- --ignored stud_benches --nocapture`
    #[test]
    #[ignore]
    fn stud_benches() {
        let opts = crate::core::bench::BenchOptions { threads: 1, budget: std::time::Duration::from_secs(2) };
        let filter = std::env::var("STUD_BENCH").unwrap_or_default();
        for bench in super::benches().into_iter().filter(|b| b.name.contains(&filter)) {
            for m in (bench.run)(&opts) {
                println!("{} {:.3} {}", m.name, m.value, m.unit);
            }
        }
    }
}

/// CPU-time figures (the machine is shared, so wall-clock benches read low).
#[cfg(test)]
mod probe {
    use super::*;
    fn cpu_s() -> f64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let f: Vec<&str> = stat.rsplit(')').next().unwrap().split_whitespace().collect();
        (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
    }

    /// Expert-vs-expert hands per CPU second of this thread:
    /// `cargo test --release -- --ignored stud_cpu_hands --nocapture`
    #[test]
    #[ignore]
    fn stud_cpu_hands() {
        let game = Stud::new(2, 1, 100, CardSet::FULL);
        let kind = crate::games::stud::bots::BOT_KINDS.iter().find(|k| k.name == "expert").expect("expert");
        let params = Params::new(kind.params, &toml::Table::new(), "expert").expect("defaults");
        let make = (kind.make)(&params, &game).expect("expert");
        let c0 = cpu_s();
        let n = 30_000;
        for g in 0..n {
            let mut bots = [make(), make()];
            play_game(&game, &mut bots, &GameSeeds::derive(1, 0, g, 1), false);
        }
        println!("cpu hands/s {:.0}", n as f64 / (cpu_s() - c0));
    }
}
