//! The value function that takes the luck out of a hand's payoffs (core/luck.rs, docs/book/src/luck-method.md).
//!
//! Every card is dealt at the start, so no chance event follows the deal ([`Game::revealed`] is
//! 0) and the value is the full-information check-down: if nobody bet again, the hand would go
//! to the showdown with the seats still in (compares already made have folded their losers),
//! and the pot would be split by the showdown's own `award` (side pots by what each seat put in,
//! the `special_235` cycle rule, odd chips in seat order). A seat's value is what it would take
//! from the pot less what it has put in; a hand left to one seat is worth the pot to it.
//!
//! With no chance left to average over, AIVAT's only terms are at the decisions of bots that
//! state their policy (`random`): they take out the luck of the bots' own coin flips.
//!
//! [`Game::revealed`]: crate::core::Game::revealed

use super::engine::{State, Zhajinhua, MAX_SEATS};

/// Each seat's value at `s` (see the module's text), in chips, into `out`.
impl Zhajinhua {
    /// The value function ([`value`]), as the engine's `Game::value` gives it: this module
    /// extends the table's type, so that the engine names no module that imports it.
    pub(super) fn check_down_value(&self, s: &State, out: &mut [f64]) {
        value(self, s, out)
    }

    /// Each seat's starting strength (`Game::covariate`): its share of the showdown if every
    /// seat stayed in (one for the best hand, split among equal ones). Every card is dealt at
    /// the start, so this is what the deal decides; the deck is shuffled before it is dealt, so
    /// any hand is as likely at any seat. (The hand's rank among all hands explains less of a
    /// payoff: what wins is being best at this table.)
    pub(super) fn start_strengths(&self, s: &State, out: &mut [f64]) {
        let seats: Vec<usize> = (0..out.len()).collect();
        let best = self.best(&s.values, &seats);
        out.fill(0.0);
        for &seat in &best {
            out[seat] = 1.0 / best.len() as f64;
        }
    }
}

pub(super) fn value(game: &Zhajinhua, s: &State, out: &mut [f64]) {
    let p = &s.public;
    let n = p.seats;
    let mut payout = [0i64; MAX_SEATS];
    if p.in_hand_count() == 1 {
        let winner = (0..n).find(|&i| p.in_hand[i]).expect("one seat left");
        payout[winner] = p.pot;
    } else {
        game.award(p, &s.values, &mut payout);
    }
    for i in 0..n {
        out[i] = (payout[i] - p.put_in[i]) as f64;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::luck::{Exactness, LuckCache};
    use crate::core::{play_kept, BotRng, DealRng, Game, GameSeeds, Keep, Params};
    use crate::games::zhajinhua::bots::BOT_KINDS;
    use crate::games::zhajinhua::engine::Action;
    use crate::games::zhajinhua::eval;

    fn values(game: &Zhajinhua, s: &State) -> Vec<f64> {
        let mut out = vec![0.0; game.seats];
        game.value(s, 0, Exactness::Exact, &mut LuckCache::new(1), &mut out);
        out
    }

    #[test]
    fn a_finished_hand_is_worth_its_payoff_and_values_sum_to_zero() {
        // Random play at 2, 3 and 6 seats, the 2-3-5 rule on and off: every state's values sum
        // to zero, and the last state's are the payoffs (showdowns with side pots, compares,
        // folds, the round cap).
        let mut legal = Vec::new();
        for seats in [2, 3, 6] {
            for special_235 in [false, true] {
                let game = Zhajinhua { special_235, ..Zhajinhua::with_seats(seats) };
                let mut rng = BotRng::seed_from_u64(seats as u64);
                for g in 0..300u64 {
                    let mut s = game.deal(&mut DealRng::seed_from_u64(g));
                    while game.to_act(&s).is_some() {
                        let v = values(&game, &s);
                        assert!(v.iter().sum::<f64>().abs() < 1e-9, "{v:?}");
                        game.legal_actions(&s, &mut legal);
                        let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
                        game.apply(&mut s, &a).unwrap();
                    }
                    assert_eq!(values(&game, &s), game.outcome(&s).payoff.to_vec());
                }
            }
        }
    }

    #[test]
    fn a_compare_takes_its_loser_out_of_the_check_down() {
        let game = Zhajinhua::with_seats(3);
        let mut s = game.deal(&mut DealRng::seed_from_u64(0));
        for (i, h) in ["AS AD KC", "2S 3D 5C", "KS KD 9C"].iter().enumerate() {
            s.hands[i] = crate::cards::parse_cards(h).unwrap().try_into().unwrap();
            s.values[i] = eval::strength(s.hands[i]);
        }
        // Antes in (3 chips): the aces would take the pot.
        assert_eq!(values(&game, &s), vec![2.0, -1.0, -1.0]);
        for a in [Action::Call, Action::Call, Action::Call] {
            game.apply(&mut s, &a).unwrap();
        }
        // Round 2: seat 0 compares seat 1 (paying a call) and wins; the aces still hold the pot
        // of 7, 3 of them their own.
        game.apply(&mut s, &Action::Compare(1)).unwrap();
        assert!(!s.public.in_hand[1]);
        assert_eq!(values(&game, &s), vec![4.0, -2.0, -2.0]);
        // Seat 2 compares the aces and loses: the hand is over, its value the payoff.
        game.apply(&mut s, &Action::Compare(0)).unwrap();
        assert!(game.to_act(&s).is_none());
        assert_eq!(values(&game, &s), vec![5.0, -2.0, -3.0]);
        assert_eq!(values(&game, &s), game.outcome(&s).payoff.to_vec());
    }

    #[test]
    fn deterministic_play_is_left_as_it_fell_and_random_play_keeps_its_sum() {
        // Without stated policies (ev, threshold) nothing is corrected; random states its
        // policy, and the adjusted payoffs still sum to zero.
        let game = Zhajinhua::with_seats(3);
        let factories: Vec<_> = BOT_KINDS
            .iter()
            .map(|k| (k.make)(&Params::new(k.params, &toml::Table::new(), k.name).unwrap(), &game).unwrap())
            .collect();
        let random = BOT_KINDS.iter().position(|k| k.name == "random").unwrap();
        let mut corrected = 0;
        for g in 0..200u64 {
            let mut bots: Vec<_> = (0..3).map(|s| factories[(g as usize + s) % factories.len()]()).collect();
            let keep = Keep { columns: false, history: false, moves: false, luck: crate::core::luck::Estimator::Aivat };
            let r = play_kept(&game, &mut bots, &GameSeeds::derive(5, 3, g, 1), keep);
            let adjusted: Vec<_> = r.seats.iter().map(|s| s.adjusted.expect("adjusted")).collect();
            assert!(adjusted.iter().map(|a| a.aivat).sum::<f64>().abs() < 1e-9);
            for (seat, a) in r.seats.iter().zip(&adjusted) {
                assert_eq!(a.allin, seat.payoff, "no chance falls after the deal");
            }
            let plays_random = (0..3).any(|s| (g as usize + s) % factories.len() == random);
            if !plays_random {
                for (seat, a) in r.seats.iter().zip(&adjusted) {
                    assert!((a.aivat - seat.payoff).abs() < 1e-9);
                }
            } else if r.seats.iter().zip(&adjusted).any(|(s, a)| (a.aivat - s.payoff).abs() > 1e-9) {
                corrected += 1;
            }
        }
        assert!(corrected > 0, "random's coin flips are corrected");
    }
}
