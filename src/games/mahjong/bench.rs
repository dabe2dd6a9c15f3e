//! `arena bench mahjong`: fan calculations and shanten per second on one core, over hands drawn
//! from a fixed seed (so every run times the same work).

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::fans::{score, WinContext, WinningHand};
use super::shanten::{shanten, shanten_standard, warm_up};
use super::tiles::{Counts, Meld, MeldKind, Tile, TILE_KINDS};
use crate::core::bench::{throughput, Bench, BenchOptions, Measure};

pub fn benches() -> Vec<Bench> {
    vec![
        Bench { name: "mahjong.fans_per_s", run: fans_per_s },
        Bench { name: "mahjong.shanten_per_s", run: shanten_per_s },
        Bench { name: "mahjong.shanten_standard_per_s", run: shanten_standard_per_s },
        Bench { name: "mahjong.greedy_hands_per_s", run: greedy_hands_per_s },
        Bench { name: "mahjong.pruned_decision", run: super::ai::bench::pruned_decision },
        Bench { name: "mahjong.expectimax_decision", run: super::ai::bench::expectimax_decision },
    ]
}

/// A random winning hand: four sets and a pair within the copy limit, up to `max_melds` of the sets
/// declared, the winning tile one of the standing tiles.
pub fn random_winning_hand(rng: &mut ChaCha8Rng, max_melds: usize) -> (Vec<Meld>, Counts, Tile) {
    loop {
        let mut used = [0u8; TILE_KINDS];
        let mut sets = Vec::new();
        let mut ok = true;
        for _ in 0..4 {
            let t = rng.random_range(0..TILE_KINDS as u8);
            let chow = t < 27 && t % 9 <= 6 && rng.random_bool(0.6);
            let meld =
                if chow { Meld { kind: MeldKind::Chow, tile: t } } else { Meld { kind: MeldKind::Pung, tile: t } };
            for x in meld.tiles() {
                used[x as usize] += 1;
            }
            sets.push(meld);
        }
        let pair = rng.random_range(0..TILE_KINDS as u8);
        used[pair as usize] += 2;
        if used.iter().any(|&c| c > 4) {
            ok = false;
        }
        if !ok {
            continue;
        }
        let n_melds = rng.random_range(0..=max_melds);
        let mut melds = Vec::new();
        let mut standing = [0u8; TILE_KINDS];
        standing[pair as usize] += 2;
        for (i, s) in sets.iter().enumerate() {
            if i < n_melds {
                let mut m = *s;
                if m.kind == MeldKind::Pung && used[m.tile as usize] == 3 && rng.random_bool(0.2) {
                    m.kind = if rng.random_bool(0.5) { MeldKind::Kong } else { MeldKind::ConcealedKong };
                }
                melds.push(m);
            } else {
                for x in s.tiles() {
                    standing[x as usize] += 1;
                }
            }
        }
        let held: Vec<Tile> = (0..TILE_KINDS as u8).filter(|&t| standing[t as usize] > 0).collect();
        let win = *held.choose(rng).unwrap();
        standing[win as usize] -= 1;
        return (melds, standing, win);
    }
}

fn random_context(rng: &mut ChaCha8Rng) -> WinContext {
    WinContext {
        self_drawn: rng.random_bool(0.4),
        fourth_tile: rng.random_bool(0.1),
        kong_related: rng.random_bool(0.05),
        last_wall_tile: rng.random_bool(0.05),
        flowers: rng.random_range(0..3),
        seat_wind: rng.random_range(0..4),
        prevalent_wind: rng.random_range(0..4),
    }
}

fn fans_per_s(o: &BenchOptions) -> Vec<Measure> {
    warm_up();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let hands: Vec<_> = (0..1000).map(|_| (random_winning_hand(&mut rng, 2), random_context(&mut rng))).collect();
    let value = throughput(o.budget, hands.len() as u64, || {
        let mut sum = 0u32;
        for ((melds, concealed, win), ctx) in &hands {
            let h = WinningHand { melds, concealed, win_tile: *win };
            sum += score(&h, ctx).map_or(0, |s| s.total);
        }
        sum
    });
    vec![Measure { name: "mahjong.fans_per_s".into(), value, unit: "hands/s" }]
}

/// Random 13- and 14-tile concealed hands from a shuffled wall.
fn random_hands(n: usize) -> Vec<Counts> {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut wall: Vec<Tile> = (0..TILE_KINDS as u8).flat_map(|t| [t; 4]).collect();
    (0..n)
        .map(|i| {
            wall.shuffle(&mut rng);
            let mut c = [0u8; TILE_KINDS];
            for &t in &wall[..13 + i % 2] {
                c[t as usize] += 1;
            }
            c
        })
        .collect()
}

fn shanten_per_s(o: &BenchOptions) -> Vec<Measure> {
    warm_up();
    let hands = random_hands(4096);
    let value = throughput(o.budget, hands.len() as u64, || hands.iter().map(|h| shanten(h, 0) as i32).sum::<i32>());
    vec![Measure { name: "mahjong.shanten_per_s".into(), value, unit: "hands/s" }]
}

fn shanten_standard_per_s(o: &BenchOptions) -> Vec<Measure> {
    warm_up();
    let hands = random_hands(4096);
    let value =
        throughput(o.budget, hands.len() as u64, || hands.iter().map(|h| shanten_standard(h, 0) as i32).sum::<i32>());
    vec![Measure { name: "mahjong.shanten_standard_per_s".into(), value, unit: "hands/s" }]
}

/// Whole hands, four greedy bots, 8-fan minimum, fans scored on every win.
fn greedy_hands_per_s(o: &BenchOptions) -> Vec<Measure> {
    use crate::core::{play_game, Bot, GameSeeds};
    warm_up();
    let game = super::Mahjong::new(8);
    let mut game_no = 0u64;
    let value = throughput(o.budget, 20, || {
        let mut moves = 0;
        for _ in 0..20 {
            let mut bots: Vec<Box<dyn Bot<super::Mahjong>>> =
                (0..4).map(|_| Box::new(super::bots::GreedyBot) as Box<dyn Bot<super::Mahjong>>).collect();
            let seeds = GameSeeds::derive(1, 0, game_no, 1);
            game_no += 1;
            moves += play_game(&game, &mut bots, &seeds, false).moves;
        }
        moves
    });
    vec![Measure { name: "mahjong.greedy_hands_per_s".into(), value, unit: "hands/s" }]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every generated winning hand scores (a win is always recognised), with a sane total.
    #[test]
    fn random_winning_hands_all_score() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..3000 {
            let (melds, concealed, win) = random_winning_hand(&mut rng, 4);
            let ctx = random_context(&mut rng);
            let h = WinningHand { melds: &melds, concealed: &concealed, win_tile: win };
            let s = score(&h, &ctx).expect("a winning hand scores");
            assert!(s.total > ctx.flowers as u32);
            let mut c = concealed;
            c[win as usize] += 1;
            assert!(crate::games::mahjong::shanten::is_complete_standard(&c));
            assert_eq!(shanten(&c, melds.len()), -1);
        }
    }

    /// Prints the figures until `arena bench mahjong` is wired:
    /// `cargo test --release -- --ignored --nocapture print_mahjong_benches`
    #[test]
    #[ignore]
    fn print_mahjong_benches() {
        let o = BenchOptions { threads: 1, budget: std::time::Duration::from_secs(2) };
        for b in benches() {
            for m in (b.run)(&o) {
                println!("{} {:.0} {}", m.name, m.value, m.unit);
            }
        }
    }
}
