//! For the games' measuring tests: paired matches (duplicate deals), the one harness they share. Every deal is
//! played once per rotation of the bots through the seats, so luck of the cards cancels; the
//! deal (the mean over its rotations) is the independent unit of the 95% interval.

use crate::core::{play_game, Bot, GameSeeds, Status};
use crate::core::{BotFactory, GameDef};
use crate::stats::Welford;

/// Each bot's mean payoff per game and the half-width of its 95% interval (Student t over deals),
/// `bots[b]` starting in seat `b` (`b % seats` with more seats than bots: the bots repeat round the
/// table). Deal `d`, rotation `r` is game `d * seats + r` of `master`, the deal shared by its
/// rotations; bot `b` sits in seat `(b + r) % seats`.
pub fn paired_means<G: GameDef>(game: &G, bots: &[BotFactory<G>], deals: u64, master: u64) -> Vec<(f64, f64)> {
    let (seats, n) = (game.seats(), bots.len());
    let mut per_deal = vec![Welford::default(); n];
    for d in 0..deals {
        let mut sums = vec![0.0; n];
        for r in 0..seats {
            let lineup: Vec<usize> = (0..seats).map(|seat| (seat + seats - r) % seats % n).collect();
            let mut players: Vec<Box<dyn Bot<G>>> = lineup.iter().map(|&b| bots[b]()).collect();
            let seeds = GameSeeds::derive(master, 0, d * seats as u64 + r as u64, seats as u64);
            let record = play_game(game, &mut players, &seeds, false);
            assert_eq!(record.status, Status::Ok, "deal {d}, rotation {r}");
            for (seat, &b) in lineup.iter().enumerate() {
                sums[b] += record.seats[seat].payoff;
            }
        }
        for (b, sum) in sums.into_iter().enumerate() {
            // Per game this bot played in the deal's rotations.
            let played = (seats / n) * seats + (b < seats % n) as usize * seats;
            per_deal[b].push(sum / played as f64);
        }
    }
    per_deal
        .iter()
        .map(|w| {
            let ci = w.ci(0.95);
            (ci.mean, ci.interval().half_width())
        })
        .collect()
}
