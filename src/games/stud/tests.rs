//! Engine and bot tests: hand-written hands, then property tests over random hands and random
//! (mostly illegal) actions against the rules written out independently here.

use proptest::prelude::*;
use rand::SeedableRng;

use super::engine::{Action, State, Stud};
use super::eval::value;
use crate::cards::{parse_cards, Card, CardSet};
use crate::core::GameDef;
use crate::core::{Game, GameSeeds, Params, Seat};

fn table(seats: usize) -> Stud {
    Stud::new(seats, 1, 100, CardSet::FULL)
}

/// "hole up up up up" per seat.
fn cards(hands: &[&str]) -> Vec<[Card; 5]> {
    hands.iter().map(|h| parse_cards(h).unwrap().try_into().unwrap()).collect()
}

fn play(game: &Stud, s: &mut State, actions: &[Action]) {
    for a in actions {
        game.apply(s, a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
}

fn payoffs(game: &Stud, s: &State) -> Vec<f64> {
    game.outcome(s).payoff.to_vec()
}

#[test]
fn checked_down_the_better_hand_takes_the_antes() {
    let game = table(2);
    let mut s = game.deal_cards(&cards(&["2C 3D 9H 9S KD", "AS 4C 5D 7H 8S"]), &[100, 100]);
    // 2nd street: seat 1 shows 4c, seat 0 shows 3d: seat 1 acts first.
    assert_eq!(game.to_act(&s), Some(1));
    play(&game, &mut s, &[Action::Check, Action::Check]);
    // 3rd street: 3-9 against 4-5: seat 0 (9 high) first.
    assert_eq!(game.to_act(&s), Some(0));
    play(&game, &mut s, &[Action::Check, Action::Check]);
    // 4th street: a pair of nines shows.
    assert_eq!(game.to_act(&s), Some(0));
    play(&game, &mut s, &[Action::Check, Action::Check, Action::Check, Action::Check]);
    assert!(s.is_over());
    assert_eq!(payoffs(&game, &s), vec![1.0, -1.0]);
}

#[test]
fn equal_showing_hands_let_the_lower_seat_act_first() {
    let game = table(3);
    let s = game.deal_cards(&cards(&["2C KD 9H 9S 3D", "AS KH 5D 7H 8S", "AD KS 4D 6H 8C"]), &[100; 3]);
    assert_eq!(game.to_act(&s), Some(0));
    let s = game.deal_cards(&cards(&["2C QD 9H 9S 3D", "AS KH 5D 7H 8S", "AD KS 4D 6H 8C"]), &[100; 3]);
    assert_eq!(game.to_act(&s), Some(1));
}

#[test]
fn exact_ties_split_the_pot_and_odd_chips_go_to_the_lowest_seat() {
    let game = table(3);
    // Seats 0 and 1: A-K-Q-J-9 of mixed suits; seat 2: K high.
    let hands = ["AS KD QC JH 9S", "AH KC QD JS 9D", "KS 2D 4C 6H 8S"];
    let mut s = game.deal_cards(&cards(&hands), &[100; 3]);
    while !s.is_over() {
        play(&game, &mut s, &[Action::Check]);
    }
    assert_eq!(payoffs(&game, &s), vec![1.0, 0.0, -1.0]);
    // Heads-up: an exact tie is a tie, nobody wins or loses.
    let game = table(2);
    let mut s = game.deal_cards(&cards(&hands[..2]), &[100; 2]);
    let first = game.to_act(&s).unwrap();
    assert_eq!(first, 0);
    play(&game, &mut s, &[Action::Bet(10), Action::Call]);
    while !s.is_over() {
        play(&game, &mut s, &[Action::Check]);
    }
    assert_eq!(payoffs(&game, &s), vec![0.0, 0.0]);
}

#[test]
fn bets_are_capped_by_the_shortest_stack_still_in() {
    let game = table(3);
    let hands = ["AS KD QC JH 9S", "AH KC QD JS 9D", "KS 2D 4C 6H 8S"];
    let mut s = game.deal_cards(&cards(&hands), &[100, 30, 100]);
    // KD and KC showing tie: seat 0 acts first.
    assert_eq!(game.to_act(&s), Some(0));
    assert!(game.apply(&mut s.clone(), &Action::Bet(30)).is_err(), "seat 1 can put in only 29 more");
    play(&game, &mut s, &[Action::ShowHand]);
    assert_eq!(s.street_bet(0), 29);
    // Seat 1 folds: the cap is now the 99 chips seat 0 and seat 2 each have after the ante.
    play(&game, &mut s, &[Action::Fold]);
    assert_eq!(s.max_bet_to(2), 99);
    play(&game, &mut s, &[Action::ShowHand, Action::Call]);
    // Both all in: the remaining cards are dealt without betting.
    assert!(s.is_over());
    assert_eq!(s.street(), 4);
    // Seat 0 (ace high) beats seat 2 (king high): wins seat 2's 100 and seat 1's ante.
    assert_eq!(payoffs(&game, &s), vec![101.0, -1.0, -100.0]);
}

#[test]
fn raises_must_be_at_least_the_last_raise_and_reopen_the_betting() {
    let game = table(2);
    let mut s = game.deal_cards(&cards(&["2C 3D 9H 9S KD", "AS 4C 5D 7H 8S"]), &[100, 100]);
    assert_eq!(game.to_act(&s), Some(1));
    assert!(game.apply(&mut s.clone(), &Action::Bet(0)).is_err());
    assert!(game.apply(&mut s.clone(), &Action::Call).is_err(), "nothing to call");
    play(&game, &mut s, &[Action::Bet(5)]);
    assert!(game.apply(&mut s.clone(), &Action::Check).is_err(), "5 to call");
    assert!(game.apply(&mut s.clone(), &Action::Bet(9)).is_err(), "a raise of 4 is below the last raise of 5");
    play(&game, &mut s, &[Action::Bet(10)]);
    // Seat 1 acted already but the raise reopens its turn.
    assert_eq!(game.to_act(&s), Some(1));
    play(&game, &mut s, &[Action::Call]);
    assert_eq!(s.street(), 1);
    assert_eq!((s.committed(0), s.committed(1)), (11, 11));
    play(&game, &mut s, &[Action::Bet(20), Action::Fold]);
    assert!(s.is_over());
    assert_eq!(payoffs(&game, &s), vec![11.0, -11.0]);
    // The folded seat got no third card: its record and everyone's view show two.
    assert_eq!(s.up(1).len(), 2);
    let mut row = crate::core::wire::Texts::default();
    game.record(&s, 1, &mut row);
    assert_eq!(row.iter().collect::<Vec<_>>(), ["As 4c 5d", "", "3"]);
}

#[test]
fn a_folded_seat_gets_no_more_cards() {
    let game = table(3);
    let mut s = game.deal_cards(&cards(&["2C 3D 9H 9S KD", "AS 4C 5D 7H 8S", "KS 2D 4H 6H 8C"]), &[100; 3]);
    // Seat 1 (4c) acts first, then seat 2; seat 2 folds on 2nd street.
    play(&game, &mut s, &[Action::Check, Action::Fold, Action::Check]);
    assert_eq!(s.street(), 1);
    assert_eq!(s.up(2), &cards(&["KS 2D 4H 6H 8C"])[0][1..2]);
    assert_eq!(game.view(&s, 0).up(2).len(), 1);
    assert_eq!(game.view(&s, 0).up(1).len(), 2);
}

#[test]
fn the_deal_is_fixed_by_the_seed_and_the_short_deck_deals_8_to_a() {
    let game = table(5);
    let a = game.deal(&mut rand_chacha::ChaCha8Rng::seed_from_u64(4));
    let b = game.deal(&mut rand_chacha::ChaCha8Rng::seed_from_u64(4));
    assert_eq!(a, b);
    let all: CardSet = (0..5).map(|x| a.hand(x)).fold(CardSet::EMPTY, |u, h| u.union(h));
    assert_eq!(all.len(), 25);
    let short = Stud::new(5, 1, 100, super::engine::short_deck());
    let s = short.deal(&mut rand_chacha::ChaCha8Rng::seed_from_u64(4));
    assert!((0..5).all(|x| s.hand(x).iter().all(|c| c.rank() >= 6)));
}

#[test]
fn table_options_are_checked() {
    let opts = |t: &str| Params::new(Stud::OPTIONS, &toml::from_str(t).unwrap(), "stud").unwrap();
    assert!(Stud::from_options(&opts(""), 2).is_ok());
    assert!(Stud::from_options(&opts("deck = \"short\""), 5).is_ok());
    assert!(Stud::from_options(&opts(""), 6).is_err());
    assert!(Stud::from_options(&opts("stack = 1"), 2).is_err());
    let long: toml::Table = toml::from_str("deck = \"long\"").unwrap();
    assert!(Params::new(Stud::OPTIONS, &long, "stud").is_err());
    // A stack beyond the range could overflow a five-seat pot.
    let huge: toml::Table = toml::from_str("stack = 1000000000").unwrap();
    assert!(Params::new(Stud::OPTIONS, &huge, "stud").is_err());
}

/// The rules' legality of `action` for the seat to act, from the betting alone.
fn legal_by_rules(game: &Stud, s: &State, last_raise: u32, action: Action) -> bool {
    let Some(seat) = game.to_act(s) else { return false };
    let n = s.seats();
    let current = (0..n).map(|x| s.street_bet(x)).max().unwrap();
    let mine = s.street_bet(seat);
    // What the shortest stack still in can match, as this seat's street bet.
    let cap = (0..n).filter(|&x| s.in_hand(x)).map(|x| s.committed(x) + s.stack(x)).min().unwrap();
    let max_to = cap - (s.committed(seat) - mine);
    let min_raise = last_raise.max(game.ante).max(1);
    match action {
        Action::Fold => true,
        Action::Check => mine == current,
        Action::Call => mine < current,
        Action::ShowHand => max_to > current,
        Action::Bet(to) => to > current && to <= max_to && (to - current >= min_raise || to == max_to),
    }
}

/// The seat that must act first on a street: best face-up cards among the seats in, lowest seat
/// on ties.
fn first_by_rules(s: &State) -> Seat {
    let seats: Vec<Seat> = (0..s.seats()).filter(|&x| s.in_hand(x)).collect();
    let best = seats.iter().map(|&x| value(s.up_set(x))).max().unwrap();
    seats.into_iter().find(|&x| value(s.up_set(x)) == best).unwrap()
}

fn chips(s: &State) -> u32 {
    (0..s.seats()).map(|x| s.stack(x)).sum::<u32>() + s.pot()
}

/// Plays a hand from `seed` with the actions `script` picks (many illegal), then calls down.
/// Checks every rule on the way.
fn run_script(seats: usize, stacks: &[u32], seed: u64, script: &[(u8, u32)]) {
    let game = table(seats);
    let dealt = game.deal(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let hands: Vec<[Card; 5]> = (0..seats).map(|x| dealt.dealt(x)).collect();
    let mut deal = game.deal_cards(&hands, stacks);
    let s = &mut deal;
    let total = chips(s);
    let mut last_raise = 0;
    let mut street = s.street();
    assert_eq!(game.to_act(s), Some(first_by_rules(s)), "first to act");
    let mut legal = Vec::new();
    let mut steps = script.iter().copied().chain(std::iter::repeat((2, 0)));
    for _ in 0..500 {
        let Some(seat) = game.to_act(s) else { break };
        let (pick, amount) = steps.next().unwrap();
        game.legal_actions(s, &mut legal);
        let action = match pick % 8 {
            0 => Action::Fold,
            1 => Action::Check,
            2 | 3 => {
                if s.street_bet(seat) < s.current_bet() {
                    Action::Call
                } else {
                    Action::Check
                }
            }
            4 => Action::Bet(amount % 120),
            5 => Action::ShowHand,
            _ => legal[amount as usize % legal.len()],
        };
        let expected = legal_by_rules(&game, s, last_raise, action);
        let before = s.clone();
        let current = s.current_bet();
        match game.apply(s, &action) {
            Ok(()) => {
                assert!(expected, "accepted an illegal {action:?} in {before:?}");
                let to = match action {
                    Action::Bet(to) => to,
                    Action::ShowHand => before.max_bet_to(seat),
                    _ => current,
                };
                if to > current {
                    last_raise = last_raise.max(to - current);
                }
            }
            Err(e) => {
                assert!(!expected, "refused a legal {action:?}: {e}");
                assert_eq!(*s, before, "a refused action changed the state");
                continue;
            }
        }
        assert_eq!(chips(s), total, "chips conserved");
        if s.is_over() {
            break;
        }
        if s.street() != street {
            street = s.street();
            last_raise = 0;
            assert_eq!(game.to_act(s), Some(first_by_rules(s)), "first to act on street {street}");
        } else {
            // Play goes round the table in seat order, skipping seats out or all in.
            let next = (1..seats).map(|i| (seat + i) % seats).find(|&x| s.in_hand(x) && s.stack(x) > 0);
            assert_eq!(game.to_act(s), next, "next to act");
        }
        // Every listed action is legal.
        game.legal_actions(s, &mut legal);
        for &a in &legal {
            assert!(legal_by_rules(&game, s, last_raise, a), "listed {a:?} is illegal");
        }
    }
    assert!(s.is_over(), "the hand ends");
    let outcome = game.outcome(s);
    assert_eq!(outcome.payoff.iter().sum::<f64>(), 0.0, "zero sum");
    for (x, &initial) in stacks.iter().enumerate() {
        assert_eq!(s.stack(x) as f64 + s.won(x) as f64 - initial as f64, outcome.payoff[x]);
    }
    // The pot goes to the best hands still in.
    let ins: Vec<Seat> = (0..seats).filter(|&x| s.in_hand(x)).collect();
    let best = ins.iter().map(|&x| value(s.hand(x))).max().unwrap();
    for x in 0..seats {
        let winner = s.in_hand(x) && (ins.len() == 1 || value(s.hand(x)) == best);
        assert_eq!(s.won(x) > 0, winner, "seat {x} won {}", s.won(x));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_hands_follow_the_rules(
        seats in 2usize..=5,
        seed in any::<u64>(),
        stacks in proptest::collection::vec(2u32..150, 5),
        script in proptest::collection::vec((any::<u8>(), any::<u32>()), 0..80),
    ) {
        run_script(seats, &stacks[..seats], seed, &script);
    }
}

#[test]
fn bots_play_whole_hands_in_every_seat_count() {
    for seats in 2..=5 {
        let game = table(seats);
        let kinds = Stud::bot_kinds();
        for g in 0..40u64 {
            let mut bots: Vec<_> = (0..seats)
                .map(|x| {
                    let kind = &kinds[(x + g as usize) % kinds.len()];
                    let params = Params::new(kind.params, &toml::Table::new(), kind.name).unwrap();
                    (kind.make)(&params, &game).unwrap()()
                })
                .collect();
            let record = crate::core::play_game(&game, &mut bots, &GameSeeds::derive(9, seats as u64, g, 1), false);
            assert_eq!(record.status, crate::core::Status::Ok, "{record:?}");
            assert_eq!(record.seats.iter().map(|r| r.payoff).sum::<f64>(), 0.0);
            assert!((0..seats).all(|seat| record.extra(seat).count() == 3));
        }
    }
}

/// Chips per hand won by `hero` against `villain` over `deals` deals, each played twice with the
/// seats swapped: (mean, half-width of the 95% interval), the deal (both seatings) as the unit.
fn paired_margin(hero: &str, villain: &str, deals: u64) -> (f64, f64) {
    let game = table(2);
    let make = |name: &str| {
        let kind = super::bots::BOT_KINDS.iter().find(|k| k.name == name).unwrap();
        (kind.make)(&Params::new(kind.params, &toml::Table::new(), name).unwrap(), &game).unwrap()
    };
    crate::core::paired::paired_means(&game, &[make(hero), make(villain)], deals, 1)[0]
}

/// The acceptance figures: expert against always-call and random, 20,000 hands each (10,000 deals
/// with the seats swapped). `cargo test --release -- --ignored expert_beats_the_baselines --nocapture`
#[test]
#[ignore]
fn expert_beats_the_baselines() {
    for villain in ["always-call", "random"] {
        let (mean, half) = paired_margin("expert", villain, 10_000);
        println!("expert vs {villain}: {mean:+.3} chips/hand, 95% interval [{:+.3}, {:+.3}]", mean - half, mean + half);
        assert!(mean - half > 0.0, "expert does not beat {villain}");
    }
}

#[test]
fn the_roster_and_the_config_name_real_bots_with_valid_parameters() {
    let roster: toml::Table = toml::from_str(include_str!("../../../bots/stud.toml")).unwrap();
    assert!(roster.len() >= 2);
    let game = table(2);
    for (name, variant) in &roster {
        let kind_name = variant["kind"].as_str().unwrap();
        let kind = super::bots::BOT_KINDS.iter().find(|k| k.name == kind_name).unwrap();
        let params = Params::new(kind.params, variant["params"].as_table().unwrap(), name).unwrap();
        assert!((kind.make)(&params, &game).is_ok(), "{name}");
    }
    let config: toml::Table = toml::from_str(include_str!("../../../configs/stud.toml")).unwrap();
    assert_eq!(config["game"].as_str(), Some(Stud::NAME));
    assert_eq!(config["paired"].as_bool(), Some(true));
    let options = Params::new(Stud::OPTIONS, config["table"].as_table().unwrap(), "stud").unwrap();
    assert!(Stud::from_options(&options, 2).is_ok());
    for bot in config["bots"].as_array().unwrap() {
        assert!(super::bots::BOT_KINDS.iter().any(|k| Some(k.name) == bot.as_str()), "{bot}");
    }
}
