//! Zhajinhua bots: the series' EV AI (`ev`, `ev-adaptive`) and the baselines.

mod baseline;
mod belief;
pub mod ev;

use crate::core::BotKind;

use super::Zhajinhua;

pub static BOT_KINDS: &[BotKind<Zhajinhua>] =
    &[ev::EV, ev::EV_ADAPTIVE, baseline::ALWAYS_CALL, baseline::RANDOM, baseline::THRESHOLD];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{play_game, GameSeeds, Params, Status};

    #[test]
    fn every_kind_builds_from_its_defaults_and_plays_legally() {
        for seats in [2, 3, 6] {
            let game = Zhajinhua::with_seats(seats);
            let factories: Vec<_> = BOT_KINDS
                .iter()
                .map(|k| (k.make)(&Params::new(k.params, &toml::Table::new(), k.name).unwrap(), &game).unwrap())
                .collect();
            for g in 0..200u64 {
                let mut bots: Vec<_> = (0..seats).map(|s| factories[(g as usize + s) % factories.len()]()).collect();
                let r = play_game(&game, &mut bots, &GameSeeds::derive(5, seats as u64, g, 1), false);
                assert_eq!(r.status, Status::Ok);
                assert_eq!(r.seats.iter().map(|s| s.payoff).sum::<f64>(), 0.0);
            }
        }
    }
}
