//! Engine tests: hand-written hands (order of action, minimum raises, all-ins for less, 3- and
//! 4-way side pots, odd chips) and property tests over random play.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};

use super::engine::{Chips, Event, State};
use super::{Action, Format, Holdem};
use crate::cards::{parse_cards, Card, CardSet};
use crate::core::{DealRng, Game, Played};

/// A deck whose first cards are the given hole cards (seat by seat) and board.
pub(super) fn deck(holes: &[&str], board: &str) -> [Card; 52] {
    let mut front: Vec<Card> = holes.iter().flat_map(|h| parse_cards(h).unwrap()).collect();
    front.extend(parse_cards(board).unwrap());
    let used: CardSet = front.iter().copied().collect();
    front.extend(Card::all().filter(|c| !used.contains(*c)));
    front.try_into().unwrap()
}

fn table(seats: usize) -> Holdem {
    Holdem::new(seats, 50, 100, 10_000)
}

fn total(s: &State) -> Chips {
    s.stack[..s.n].iter().sum::<Chips>() + s.committed[..s.n].iter().sum::<Chips>()
}

fn play(g: &Holdem, s: &mut State, script: &[(usize, Action)]) {
    for &(seat, a) in script {
        assert_eq!(g.to_act(s), Some(seat), "expected seat {seat} to act before {a:?}");
        g.apply(s, &a).unwrap_or_else(|e| panic!("{a:?} by {seat}: {e}"));
    }
}

#[test]
fn heads_up_button_posts_small_blind_acts_first_preflop_last_after() {
    let g = table(2);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "2c 7d 9h Js 3c"), &[10_000, 10_000]);
    assert_eq!((s.bet[0], s.bet[1]), (50, 100));
    play(&g, &mut s, &[(0, Action::CheckCall), (1, Action::CheckCall)]);
    assert_eq!(s.street, 1);
    play(&g, &mut s, &[(1, Action::CheckCall), (0, Action::RaiseTo(100)), (1, Action::CheckCall)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (0, Action::CheckCall)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (0, Action::CheckCall)]);
    assert!(s.over);
    assert_eq!(&s.stack[..2], &[10_200, 9_800]);
    assert_eq!(g.outcome(&s).payoff[..], [2.0, -2.0]);
}

#[test]
fn phh_of_a_heads_up_hand() {
    let g = table(2);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "2c 7d 9h Js 3c"), &[10_000, 10_000]);
    let c = Action::CheckCall;
    play(&g, &mut s, &[(0, c), (1, c), (1, c), (0, Action::RaiseTo(100)), (1, c), (1, c), (0, c), (1, c), (0, c)]);
    // p1 is the seat after the button (heads-up: the big blind), p2 the button.
    let expected = "variant = 'NT'
ante_trimming_status = true
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [10000, 10000]
actions = ['d dh p1 KdKc', 'd dh p2 AhAs', 'p2 cc', 'p1 cc', 'd db 2c7d9h', 'p1 cc', 'p2 cbr 100', 'p1 cc', \
'd db Js', 'p1 cc', 'p2 cc', 'd db 3c', 'p1 cc', 'p2 cc', 'p1 sm KdKc', 'p2 sm AhAs']
finishing_stacks = [9800, 10200]
_arena_seats = [1, 0]
";
    assert_eq!(g.history(&s, &Played::default()).unwrap(), expected);
}

#[test]
fn phh_shows_before_the_run_out_from_the_last_raiser() {
    let g = table(3);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc", "QdQc"], "2c 7d 9h Js 3c"), &[1_000, 3_000, 5_000]);
    play(&g, &mut s, &[(0, Action::RaiseTo(1_000)), (1, Action::RaiseTo(3_000)), (2, Action::CheckCall)]);
    let phh = g.history(&s, &Played::default()).unwrap();
    // p1 = seat 1 (small blind), p2 = seat 2, p3 = the button; p1 raised last, so shows first.
    assert!(
        phh.contains("'p3 cbr 1000', 'p1 cbr 3000', 'p2 cc', 'p1 sm KdKc', 'p2 sm QdQc', 'p3 sm AhAs', 'd db 2c7d9h'"),
        "{phh}"
    );
    assert!(phh.contains("finishing_stacks = [4000, 2000, 3000]"), "{phh}");
}

#[test]
fn three_seats_order_of_action() {
    let g = table(3);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc", "QdQc"], "2c 7d 9h Js 3c"), &[10_000; 3]);
    // Button 0, small blind 1, big blind 2: the button speaks first pre-flop, the small blind after.
    assert_eq!((s.bet[1], s.bet[2]), (50, 100));
    play(&g, &mut s, &[(0, Action::CheckCall), (1, Action::CheckCall), (2, Action::CheckCall)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (2, Action::RaiseTo(200)), (0, Action::Fold), (1, Action::CheckCall)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (2, Action::CheckCall)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (2, Action::CheckCall)]);
    assert!(s.over);
    // Seat 0 folded its aces; the kings beat the queens for a pot of 700.
    assert_eq!(&s.stack[..3], &[9_900, 10_400, 9_700]);
}

#[test]
fn minimum_raises_and_illegal_actions_leave_the_state_alone() {
    let g = table(2);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "2c 7d 9h Js 3c"), &[10_000, 10_000]);
    let before = format!("{s:?}");
    for bad in [Action::RaiseTo(199), Action::RaiseTo(10_001), Action::RaiseTo(100)] {
        assert!(g.apply(&mut s, &bad).is_err(), "{bad:?}");
        assert_eq!(format!("{s:?}"), before);
    }
    play(&g, &mut s, &[(0, Action::RaiseTo(300))]); // a raise of 200
    assert!(g.apply(&mut s, &Action::RaiseTo(499)).is_err());
    play(&g, &mut s, &[(1, Action::RaiseTo(500)), (0, Action::CheckCall)]);
    // Flop: the minimum bet is the big blind, and folding when checking is free is refused.
    assert!(g.apply(&mut s, &Action::Fold).is_err());
    assert!(g.apply(&mut s, &Action::RaiseTo(99)).is_err());
    play(&g, &mut s, &[(1, Action::RaiseTo(100)), (0, Action::Fold)]);
    assert!(s.over);
    assert_eq!(&s.stack[..2], &[9_500, 10_500]);
    assert!(g.apply(&mut s, &Action::CheckCall).is_err());
}

#[test]
fn an_all_in_for_less_does_not_reopen_the_betting() {
    let g = table(3);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc", "QdQc"], "2c 7d 9h Js 3c"), &[10_000, 400, 10_000]);
    play(&g, &mut s, &[(0, Action::RaiseTo(300))]);
    // The small blind's all-in to 400 is 100 more: less than the full raise of 200.
    play(&g, &mut s, &[(1, Action::RaiseTo(400))]);
    // The big blind has not acted yet: it may raise.
    assert!(s.raise_bounds(2).is_some());
    play(&g, &mut s, &[(2, Action::CheckCall)]);
    // The opener already acted and faces only an incomplete raise: call or fold.
    assert_eq!(s.raise_bounds(0), None);
    assert!(g.apply(&mut s, &Action::RaiseTo(1000)).is_err());
    let mut legal = Vec::new();
    g.legal_actions(&s, &mut legal);
    assert_eq!(legal, vec![Action::Fold, Action::CheckCall]);
    play(&g, &mut s, &[(0, Action::CheckCall)]);
    assert_eq!(s.street, 1);
    assert_eq!(total(&s), 20_400);
}

#[test]
fn three_way_all_in_side_pots() {
    // Stacks 1000 / 3000 / 5000; aces beat kings beat queens.
    let g = table(3);
    let mut s = g.deal_cards(&deck(&["AhAs", "KdKc", "QdQc"], "2c 7d 9h Js 3c"), &[1_000, 3_000, 5_000]);
    play(&g, &mut s, &[(0, Action::RaiseTo(1_000)), (1, Action::RaiseTo(3_000)), (2, Action::CheckCall)]);
    assert!(s.over);
    // Main pot 3 × 1000 to the aces, side pot 2 × 2000 to the kings, the uncalled 2000 back.
    assert_eq!(&s.stack[..3], &[3_000, 4_000, 2_000]);
    assert_eq!(s.visible_board().len(), 5);
}

#[test]
fn four_way_all_in_side_pots_with_a_split() {
    let g = table(4);
    let holes = ["AhAd", "KhKd", "QhQd", "QsQc"];
    let mut s = g.deal_cards(&deck(&holes, "2c 7d 9h Js 3c"), &[500, 1_500, 3_000, 3_000]);
    // Button 0, blinds 1 and 2, seat 3 first.
    play(
        &g,
        &mut s,
        &[(3, Action::RaiseTo(3_000)), (0, Action::CheckCall), (1, Action::CheckCall), (2, Action::CheckCall)],
    );
    assert!(s.over);
    // 4 × 500 to the aces; 3 × 1000 to the kings; 2 × 1500 split by the queens.
    assert_eq!(&s.stack[..4], &[2_000, 3_000, 1_500, 1_500]);
}

#[test]
fn all_odd_chips_go_to_the_first_winner_left_of_the_button() {
    // A royal flush on the board: every hand still in ties.
    let g = table(4);
    let mut s = g.deal_cards(&deck(&["2h3d", "4h4d", "4s4c", "5h5d"], "Tc Jc Qc Kc Ac"), &[10_000; 4]);
    let c = Action::CheckCall;
    play(&g, &mut s, &[(3, c), (0, c), (1, c), (2, c)]);
    play(&g, &mut s, &[(1, Action::RaiseTo(100)), (2, c), (3, c), (0, Action::Fold)]);
    play(&g, &mut s, &[(1, c), (2, c), (3, c), (1, c), (2, c), (3, c)]);
    assert!(s.over);
    // 700 / 3 = 233 rest 1: the small blind, first left of the button, gets the odd chip.
    assert_eq!(&s.stack[..4], &[9_900, 10_034, 10_033, 10_033]);
}

#[test]
fn odd_chips_go_to_the_first_winner_left_of_the_button() {
    let g = table(3);
    // Seats 1 and 2 tie (a board straight); seat 0 folds after the blinds.
    let mut s = g.deal_cards(&deck(&["2h3d", "4h4d", "4s4c"], "9c Td Jh Qs Kc"), &[10_000, 10_000, 10_000]);
    play(&g, &mut s, &[(0, Action::RaiseTo(201)), (1, Action::CheckCall), (2, Action::CheckCall)]);
    // Seat 0 folds to a flop bet; the pot of 603 + 2 × 100 splits between seats 1 and 2.
    play(&g, &mut s, &[(1, Action::RaiseTo(100)), (2, Action::CheckCall), (0, Action::Fold)]);
    play(&g, &mut s, &[(1, Action::CheckCall), (2, Action::CheckCall), (1, Action::CheckCall), (2, Action::CheckCall)]);
    assert!(s.over);
    // Pot 803: seat 1 (first left of the button) gets 402, seat 2 gets 401.
    assert_eq!(&s.stack[..3], &[9_799, 10_101, 10_100]);
}

#[test]
fn seats_keep_their_cards_for_a_seed() {
    let g = table(6);
    let a = g.deal(&mut DealRng::seed_from_u64(42));
    let b = g.deal(&mut DealRng::seed_from_u64(42));
    assert_eq!(a.hole, b.hole);
    assert_eq!(a.board, b.board);
    let all: CardSet = a.hole[..6].iter().flatten().chain(&a.board).copied().collect();
    assert_eq!(all.len(), 17);
}

#[test]
fn a_sit_and_go_ends_with_one_seat_holding_every_chip() {
    let mut g = table(4);
    g.format = Format::Sng;
    g.blind_every = 5;
    for seed in 0..20 {
        let mut rng = DealRng::seed_from_u64(seed);
        let mut s = g.deal(&mut rng);
        let mut bot = DealRng::seed_from_u64(seed + 100);
        let mut legal = Vec::new();
        while g.to_act(&s).is_some() {
            g.legal_actions(&s, &mut legal);
            let a = legal[bot.random_range(0..legal.len())];
            g.apply(&mut s, &a).unwrap();
            assert_eq!(total(&s), 40_000);
        }
        let o = g.outcome(&s);
        // One winner with every chip; the others placed 2..=4 (seats out in the same hand with the
        // same starting stack share a place).
        let winner = (0..4).find(|&i| o.place[i] == 1).unwrap();
        assert_eq!(s.stack[winner], 40_000);
        assert_eq!(o.place.iter().filter(|&&p| p == 1).count(), 1);
        assert!(o.place.iter().all(|&p| (1..=4).contains(&p)));
        assert_eq!(o.payoff[winner], 1.0);
        assert!(o.payoff.iter().sum::<f64>().abs() < 1e-9);
        assert!(g.history(&s, &Played::default()).unwrap().contains("[1]"));
    }
}

/// Checks the order of action against the rules, independently of the engine's bookkeeping:
/// the first to act in a round, that nobody who still owes an action is skipped, and that a round
/// ends only when every seat able to bet has acted and matched the bet.
struct OrderCheck {
    street: u8,
    acted: u16,
    last: Option<usize>,
}

impl OrderCheck {
    fn able(s: &State, i: usize) -> bool {
        s.live >> i & 1 == 1 && s.folded >> i & 1 == 0 && s.all_in >> i & 1 == 0
    }
    fn owes(&self, s: &State, i: usize) -> bool {
        Self::able(s, i) && (self.acted >> i & 1 == 0 || s.bet[i] < s.current_bet)
    }
    fn before_action(&mut self, s: &State, seat: usize) {
        assert!(Self::able(s, seat), "seat {seat} cannot act");
        let n = s.n;
        let same_round = if s.street == self.street { self.last } else { None };
        if let Some(last) = same_round {
            let mut i = (last + 1) % n;
            while i != seat {
                assert!(!self.owes(s, i), "seat {i} skipped on street {}", s.street);
                i = (i + 1) % n;
            }
        } else {
            // First actor of the round: pre-flop after the big blind (heads-up: the button),
            // afterwards the first seat able to act after the button.
            let from = if s.street == 0 { s.blind_seats().1 } else { s.button };
            let first = (1..=n).map(|k| (from + k) % n).find(|&i| Self::able(s, i)).unwrap();
            assert_eq!(seat, first, "first to act on street {}", s.street);
            if s.live.count_ones() == 2 {
                let expect = if s.street == 0 { s.button } else { s.blind_seats().1 };
                assert_eq!(seat, expect, "heads-up order");
            }
            self.street = s.street;
            self.acted = 0;
        }
        self.last = Some(seat);
    }
    fn after_action(&mut self, before: &State, after: &State, seat: usize) {
        self.acted |= 1 << seat;
        if after.street != before.street && !after.over {
            // The old round closed: nobody able still owed an action.
            // (A seat left alone with chips behind and nothing to call has no decision.)
            let able: Vec<usize> = (0..before.n).filter(|&i| Self::able(after, i)).collect();
            let alone_and_even = able.len() == 1 && before.bet[able[0]] >= before.current_bet.min(before.bet[seat]);
            for &i in &able {
                if i != seat && !alone_and_even {
                    assert!(self.acted >> i & 1 == 1, "round ended before seat {i} acted");
                }
            }
            self.last = None;
        }
    }
}

fn random_action(s: &State, r: &mut DealRng) -> Action {
    let seat = s.to_act;
    match r.random_range(0..10) {
        0 => Action::Fold,
        1..=4 => Action::CheckCall,
        5..=7 => match s.raise_bounds(seat) {
            Some((min, max)) => Action::RaiseTo(r.random_range(min..=max)),
            None => Action::CheckCall,
        },
        8 => Action::RaiseTo(s.current_bet + r.random_range(0..300)),
        _ => Action::RaiseTo(s.bet[seat] + s.stack[seat]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_play_conserves_chips_and_follows_the_order(
        seed in any::<u64>(),
        seats in 2usize..=10,
        stacks in proptest::collection::vec(1u32..30_000, 10),
        ante in 0u32..30,
    ) {
        let mut g = table(seats);
        g.blinds.ante = ante;
        let mut rng = DealRng::seed_from_u64(seed);
        let deck = crate::cards::Deck::shuffled(&mut rng);
        let mut s = g.deal_cards(deck.cards(), &stacks[..seats]);
        let start: Chips = stacks[..seats].iter().sum();
        prop_assert_eq!(total(&s), start);
        let mut order = OrderCheck { street: 0, acted: 0, last: None };
        let mut steps = 0;
        while let Some(seat) = g.to_act(&s) {
            order.before_action(&s, seat);
            loop {
                let a = random_action(&s, &mut rng);
                let before = s.clone();
                let dump = format!("{s:?}");
                match g.apply(&mut s, &a) {
                    Ok(()) => {
                        order.after_action(&before, &s, seat);
                        break;
                    }
                    Err(_) => prop_assert_eq!(format!("{s:?}"), dump, "a refused action changed the state"),
                }
            }
            prop_assert_eq!(total(&s), start);
            steps += 1;
            prop_assert!(steps < 1000);
        }
        prop_assert!(s.over);
        let o = g.outcome(&s);
        prop_assert!(o.payoff.iter().sum::<f64>().abs() < 1e-6);
        prop_assert_eq!(s.stack[..seats].iter().sum::<Chips>(), start);
        let events = s.events.iter().filter(|e| matches!(e, Event::Street(_))).count();
        prop_assert!(events <= 3);
    }
}

/// Writes sample hand histories (cash hands of 2-10 seats with random, all-in and always-call
/// bots, some with antes and odd stacks) for `scripts/holdem_phh_check.py` to replay in PokerKit:
/// `HOLDEM_PHH_DIR=target/phh cargo test --release -- --ignored write_phh_samples`
#[test]
#[ignore]
fn write_phh_samples() {
    use crate::core::{play_game, Bot, GameSeeds};
    let dir = std::env::var("HOLDEM_PHH_DIR").unwrap_or_else(|_| "target/phh".into());
    std::fs::create_dir_all(&dir).unwrap();
    let mut count = 0;
    for i in 0..2000u64 {
        let seats = 2 + (i % 9) as usize;
        let mut g = Holdem::new(seats, 50, 100, 100 * (5 + (i % 7) as u32 * 20));
        if i % 3 == 0 {
            g.blinds.ante = 10 + (i % 13) as u32;
        }
        let mut bots: Vec<Box<dyn Bot<Holdem>>> = (0..seats)
            .map(|k| -> Box<dyn Bot<Holdem>> {
                match (i as usize + k) % 4 {
                    0 => Box::new(super::bots::always_call()),
                    1 | 2 => Box::new(super::bots::random()),
                    _ => Box::new(super::bots::all_in()),
                }
            })
            .collect();
        let record = play_game(&g, &mut bots, &GameSeeds::derive(99, 0, i, 1), true);
        assert_eq!(record.status, crate::core::Status::Ok);
        std::fs::write(format!("{dir}/{i:05}.phh"), record.history.unwrap()).unwrap();
        count += 1;
    }
    // Sit-and-gos: short stacks posting partial blinds, rising blinds and antes, seats going out.
    for i in 0..100u64 {
        let seats = 2 + (i % 5) as usize;
        let mut g = Holdem::new(seats, 50, 100, 1_000 + 37 * i as u32);
        g.format = Format::Sng;
        g.blind_every = 3;
        g.blinds.ante = (i % 2) as u32 * 5;
        let mut bots: Vec<Box<dyn Bot<Holdem>>> = (0..seats)
            .map(|k| -> Box<dyn Bot<Holdem>> {
                if (i as usize + k).is_multiple_of(2) {
                    Box::new(super::bots::always_call())
                } else {
                    Box::new(super::bots::random())
                }
            })
            .collect();
        let record = play_game(&g, &mut bots, &GameSeeds::derive(98, 0, i, 1), true);
        assert_eq!(record.status, crate::core::Status::Ok);
        std::fs::write(format!("{dir}/sng{i:03}.phhs"), record.history.unwrap()).unwrap();
    }
    println!("wrote {count} hands and 100 sit-and-gos to {dir}");
}

/// Duplicate cash hands of `bots` (with their defaults) at `seats` seats: each bot's bb/100 and
/// the half-width of its 95% interval.
fn paired(seats: usize, bots: &[&str], deals: u64) -> Vec<(f64, f64)> {
    use crate::core::GameDef;
    let g = table(seats);
    let kinds = Holdem::bot_kinds();
    let factories: Vec<_> = bots
        .iter()
        .map(|name| {
            let kind = kinds.iter().find(|k| k.name == *name).unwrap();
            let params = crate::core::Params::new(kind.params, &Default::default(), name).unwrap();
            (kind.make)(&params, &g).unwrap()
        })
        .collect();
    crate::core::paired::paired_means(&g, &factories, deals, 1)
        .into_iter()
        .map(|(m, h)| (100.0 * m, 100.0 * h))
        .collect()
}

/// The acceptance estimate: rr against always-call and random heads-up over 20,000 paired
/// hands each, and rr at a six-seat table with the simple bots:
/// `cargo test --release -- --ignored --nocapture rr_beats_the_simple_bots`
#[test]
#[ignore]
fn rr_beats_the_simple_bots() {
    for opponent in ["always-call", "random"] {
        let r = paired(2, &["rr", opponent], 10_000);
        println!("rr vs {opponent}: {:.1} ± {:.1} bb/100 (20,000 paired hands)", r[0].0, r[0].1);
        assert!(r[0].0 - r[0].1 > 0.0, "rr must beat {opponent}");
    }
    let names = ["rr", "always-call", "always-raise", "all-in", "random", "rr"];
    let r = paired(6, &names, 1_000);
    for (name, (m, h)) in names.iter().zip(&r) {
        println!("6-max {name}: {m:.1} ± {h:.1} bb/100 (6,000 hands)");
    }
}

/// `next_in` is the walk round the table it replaced: the first seat of the mask after `from`,
/// wrapping, `from` itself last, for every table size, mask and seat.
#[test]
fn next_in_walks_round_the_table() {
    for n in 2..=super::engine::MAX_SEATS {
        let mut s = table(n).deal(&mut DealRng::seed_from_u64(1));
        s.n = n;
        for mask in 0..1u32 << n {
            for from in 0..n {
                let walked = (1..=n).map(|i| (from + i) % n).find(|&seat| mask >> seat & 1 == 1);
                assert_eq!(s.next_in(mask as u16, from), walked, "{n} seats, mask {mask:b}, from {from}");
            }
        }
    }
}
