//! The betting rules: ante, blind and seen seats, look, fold, call, raise, compare, the round cap and
//! the showdown (docs/book/src/rules/zhajinhua.md, "Play"). One game is one hand.
//!
//! Rules the document leaves open, decided here:
//! - Seat 0 acts first in every round; a round is one pass over the seats in seat order.
//! - A call or a compare costs the stake (doubled when seen); a seat that cannot pay all of it pays
//!   what it has and is all-in: it stays in the hand, no longer acts, and the showdown splits the pot
//!   into side pots by what each seat put in. A raise must be paid in full.
//! - The hand goes to the showdown after `round_cap` rounds, when no seat can act any more, or when
//!   the only seat that can act has put in at least as much as every other seat still in.
//! - Showdown ties split the pot; odd chips go to the tied seats in seat order. Under
//!   `special_235`, if the hands form a cycle (2-3-5 < pair < leopard < 2-3-5) the 2-3-5 counts as
//!   a plain high card for that showdown.

use rand::seq::SliceRandom;

use crate::cards::{write_spaced, Card, Deck};
use crate::core::wire::Texts;
use crate::core::{DealRng, Game, IllegalAction, Outcome, Seat};
use crate::error::Result;

use super::eval::{self, beats, Category, Strength};

/// The most seats a table has.
pub const MAX_SEATS: usize = 6;

/// The table options (every number of the rules).
#[derive(Clone, Debug, PartialEq)]
pub struct Zhajinhua {
    /// Seats at the table, 2 to `MAX_SEATS`.
    pub seats: usize,
    /// Every seat's ante, in chips.
    pub ante: i64,
    /// Chips each seat starts the hand with.
    pub stack: i64,
    /// The stake ladder in blind units; the first is the opening stake.
    pub stakes: Vec<i64>,
    /// What a seen seat pays per stake unit (a blind seat pays 1).
    pub seen_multiplier: i64,
    /// Betting rounds before the forced showdown.
    pub round_cap: u32,
    /// The first round in which compare is allowed.
    pub compare_from_round: u32,
    /// Whether a blind seat may ask a seen seat to compare.
    pub blind_may_compare_seen: bool,
    /// Whether 2-3-5 of mixed suits beats a leopard (and loses to everything else).
    pub special_235: bool,
}

impl Zhajinhua {
    /// The default table with `seats` seats.
    pub fn with_seats(seats: usize) -> Zhajinhua {
        Zhajinhua {
            seats,
            ante: 1,
            stack: 100,
            stakes: vec![1, 2, 5, 10],
            seen_multiplier: 2,
            round_cap: 20,
            compare_from_round: 2,
            blind_may_compare_seen: false,
            special_235: false,
        }
    }

    /// What `seat` pays per unit of stake.
    pub fn multiplier(&self, p: &Public, seat: Seat) -> i64 {
        if p.seen[seat] {
            self.seen_multiplier
        } else {
            1
        }
    }

    /// The full price of a call (or of a compare) for `seat` now, before capping at its stack.
    pub fn call_price(&self, p: &Public, seat: Seat) -> i64 {
        p.stake * self.multiplier(p, seat)
    }

    /// Whether `seat` may ask `target` to compare now (the target being another seat still in).
    pub fn may_compare(&self, p: &Public, seat: Seat, target: Seat) -> bool {
        target < p.seats
            && target != seat
            && p.in_hand[target]
            && p.round >= self.compare_from_round
            && (self.blind_may_compare_seen || p.seen[seat] || !p.seen[target])
    }

    /// The legal actions of the seat to act, from the public state alone (bots use it too).
    pub fn legal(&self, p: &Public, out: &mut Vec<Action>) {
        out.clear();
        let Some(seat) = p.to_act else { return };
        if !p.seen[seat] {
            out.push(Action::Look);
        }
        out.push(Action::Fold);
        out.push(Action::Call);
        let mult = self.multiplier(p, seat);
        out.extend(
            self.stakes.iter().filter(|&&to| to > p.stake && to * mult <= p.stack[seat]).map(|&to| Action::Raise(to)),
        );
        out.extend((0..p.seats).filter(|&t| self.may_compare(p, seat, t)).map(Action::Compare));
    }
}

/// A seat's action. `Look` is followed by another action of the same seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Look at one's cards: from then on the seat pays the seen rate.
    Look,
    /// Give up the hand.
    Fold,
    /// Pay the current stake.
    Call,
    /// Raise the stake to this rung of the ladder (blind units) and pay it.
    Raise(i64),
    /// Pay a call and compare hands with this seat: the lower hand folds, the asker loses ties.
    Compare(Seat),
}

/// What happened, as every seat saw it (a compare shows who lost, not the cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A seat looked at its cards.
    Look {
        /// The seat that looked.
        seat: Seat,
    },
    /// A seat gave up the hand.
    Fold {
        /// The seat that folded.
        seat: Seat,
    },
    /// A seat paid the stake.
    Call {
        /// The seat that called.
        seat: Seat,
        /// What it paid, in chips.
        paid: i64,
    },
    /// A seat raised the stake and paid it.
    Raise {
        /// The seat that raised.
        seat: Seat,
        /// The new stake, in blind units.
        stake: i64,
        /// What it paid, in chips.
        paid: i64,
    },
    /// A seat paid to compare hands with another; the lower hand left the hand.
    Compare {
        /// The seat that asked.
        seat: Seat,
        /// The seat it compared with.
        target: Seat,
        /// What the asker paid, in chips.
        paid: i64,
        /// The seat whose hand was lower (the asker on a tie).
        loser: Seat,
    },
}

/// Everything every seat sees.
#[derive(Clone, Debug)]
pub struct Public {
    /// Seats at the table.
    pub seats: usize,
    /// Chips in the pot.
    pub pot: i64,
    /// Chips behind, by seat.
    pub stack: [i64; MAX_SEATS],
    /// Chips put into the pot this hand (ante included), by seat.
    pub put_in: [i64; MAX_SEATS],
    /// Whether each seat is still in the hand.
    pub in_hand: [bool; MAX_SEATS],
    /// Has looked at its cards.
    pub seen: [bool; MAX_SEATS],
    /// The current stake, blind units.
    pub stake: i64,
    /// 1-based betting round.
    pub round: u32,
    /// The seat to act, `None` once the hand is over.
    pub to_act: Option<Seat>,
    /// What happened so far, in order.
    pub events: Vec<Event>,
}

impl Public {
    /// How many seats are still in the hand.
    pub fn in_hand_count(&self) -> usize {
        self.in_hand[..self.seats].iter().filter(|&&b| b).count()
    }
    /// Still in and able to act (an all-in seat only waits for the showdown).
    pub fn can_act(&self, seat: Seat) -> bool {
        self.in_hand[seat] && self.stack[seat] > 0
    }
}

/// The whole hand, hidden cards included.
#[derive(Clone, Debug)]
pub struct State {
    /// What every seat sees.
    pub public: Public,
    /// Every seat's three cards.
    pub hands: [[Card; 3]; MAX_SEATS],
    /// Every seat's hand strength, compared at a showdown or a compare.
    pub values: [Strength; MAX_SEATS],
    /// Chips each seat takes from the pot at the end (filled when the hand is over).
    pub payout: [i64; MAX_SEATS],
    /// Whether the hand ended in a showdown (rather than with one seat left).
    pub showdown: bool,
}

/// One seat's view: the public state and its own cards only once it has looked.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    /// The seat this view is for.
    pub seat: Seat,
    /// What every seat sees.
    pub public: &'a Public,
    /// `None` while the seat is blind: it has not seen its own cards.
    pub cards: Option<[Card; 3]>,
}

impl Zhajinhua {
    fn pay(&self, p: &mut Public, seat: Seat, amount: i64) -> i64 {
        let paid = amount.min(p.stack[seat]);
        p.stack[seat] -= paid;
        p.put_in[seat] += paid;
        p.pot += paid;
        paid
    }

    /// Checks `action` for the seat to act without changing anything.
    fn check(&self, s: &State, action: &Action) -> Result<Seat, IllegalAction> {
        let p = &s.public;
        let seat = p.to_act.ok_or_else(|| IllegalAction("the hand is over".into()))?;
        match *action {
            Action::Look if p.seen[seat] => Err(IllegalAction("already looked".into())),
            Action::Raise(to) => {
                if !self.stakes.contains(&to) || to <= p.stake {
                    return Err(IllegalAction(format!(
                        "{to} is not a higher rung than {} of {:?}",
                        p.stake, self.stakes
                    )));
                }
                let price = to * self.multiplier(p, seat);
                if price > p.stack[seat] {
                    return Err(IllegalAction(format!(
                        "a raise to {to} costs {price}, the stack is {}",
                        p.stack[seat]
                    )));
                }
                Ok(seat)
            }
            Action::Compare(target) if !self.may_compare(p, seat, target) => {
                Err(IllegalAction(format!("seat {seat} may not compare with seat {target} now (round {})", p.round)))
            }
            _ => Ok(seat),
        }
    }

    /// Moves the turn on from `from`, ending the hand when the rules say so.
    fn advance(&self, s: &mut State, from: Seat) {
        let p = &mut s.public;
        if p.in_hand_count() == 1 {
            let winner = (0..p.seats).find(|&i| p.in_hand[i]).expect("one seat left");
            s.payout[winner] = p.pot;
            p.to_act = None;
            return;
        }
        let n = p.seats;
        let mut next = None;
        for step in 1..=n {
            if from + step == n {
                p.round += 1; // passing the last seat starts a new round
            }
            let i = (from + step) % n;
            if p.can_act(i) {
                next = Some(i);
                break;
            }
        }
        let able = (0..n).filter(|&i| p.can_act(i)).count();
        let matched = |i: Seat| (0..n).all(|j| !p.in_hand[j] || p.put_in[j] <= p.put_in[i]);
        let to_act = match next {
            Some(i) if p.round <= self.round_cap && !(able == 1 && matched(i)) => Some(i),
            _ => None,
        };
        p.to_act = to_act;
        if p.to_act.is_none() {
            self.showdown(s);
        }
    }

    /// Splits the pot among the seats still in: side pots by what each put in, each to its best
    /// hands.
    fn showdown(&self, s: &mut State) {
        s.showdown = true;
        self.award(&s.public, &s.values, &mut s.payout);
    }

    /// Adds to `payout` the pot split among the seats of `p` still in by the hands' `values`: side
    /// pots by what each put in, each to its best hands, odd chips in seat order (the showdown's
    /// split, shared with the value function of luck.rs).
    pub(super) fn award(&self, p: &Public, values: &[Strength; MAX_SEATS], payout: &mut [i64; MAX_SEATS]) {
        let n = p.seats;
        let mut levels: Vec<i64> = (0..n).filter(|&i| p.in_hand[i]).map(|i| p.put_in[i]).collect();
        levels.sort_unstable();
        levels.dedup();
        let mut below = 0;
        for (li, &level) in levels.iter().enumerate() {
            // Everyone's chips between the previous level and this one; the last layer also takes
            // what folded seats put in above the top level.
            let top = if li + 1 == levels.len() { i64::MAX } else { level };
            let layer: i64 = (0..n).map(|i| p.put_in[i].min(top) - p.put_in[i].min(below)).sum();
            let eligible: Vec<Seat> = (0..n).filter(|&i| p.in_hand[i] && p.put_in[i] >= level).collect();
            let winners = self.best(values, &eligible);
            let share = layer / winners.len() as i64;
            let odd = layer % winners.len() as i64;
            for (k, &w) in winners.iter().enumerate() {
                payout[w] += share + (k < odd as usize) as i64;
            }
            below = level;
        }
    }

    /// The seats among `eligible` whose hands no other eligible hand beats.
    pub(super) fn best(&self, values: &[Strength; MAX_SEATS], eligible: &[Seat]) -> Vec<Seat> {
        let unbeaten = |special: bool| -> Vec<Seat> {
            eligible
                .iter()
                .copied()
                .filter(|&i| !eligible.iter().any(|&j| beats(values[j], values[i], special)))
                .collect()
        };
        let winners = unbeaten(self.special_235);
        if winners.is_empty() {
            unbeaten(false) // a 2-3-5 / leopard / other cycle: plain order decides
        } else {
            winners
        }
    }
}

impl Zhajinhua {
    /// [`GameDef::redeal_hidden`](crate::core::GameDef::redeal_hidden): every hand `seat` has not
    /// looked at (the others', and its own while blind) dealt anew from the rest of the deck.
    pub fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        let mut s = s.clone();
        let looked = s.public.seen[seat];
        let seen: &[Card] = if looked { &s.hands[seat] } else { &[] };
        let mut unseen: Vec<Card> = Card::all().filter(|c| !seen.contains(c)).collect();
        unseen.shuffle(rng);
        let mut deck = unseen.into_iter();
        for x in (0..self.seats).filter(|&x| x != seat || !looked) {
            s.hands[x] = [deck.next()?, deck.next()?, deck.next()?];
            s.values[x] = eval::strength(s.hands[x]);
        }
        Some(s)
    }

    /// Chips behind and in the pot.
    pub fn chips_in_play(&self, s: &State) -> u64 {
        let behind: i64 = s.public.stack[..self.seats].iter().sum();
        (behind + s.public.pot) as u64
    }
}

impl Game for Zhajinhua {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;

    fn seats(&self) -> usize {
        self.seats
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        let mut deck = Deck::shuffled(rng);
        let mut hands = [[Card::new(0, 0); 3]; MAX_SEATS];
        let mut values = [0; MAX_SEATS];
        for seat in 0..self.seats {
            hands[seat] = [deck.draw(), deck.draw(), deck.draw()];
            values[seat] = eval::strength(hands[seat]);
        }
        let mut public = Public {
            seats: self.seats,
            pot: 0,
            stack: [0; MAX_SEATS],
            put_in: [0; MAX_SEATS],
            in_hand: [false; MAX_SEATS],
            seen: [false; MAX_SEATS],
            stake: self.stakes[0],
            round: 1,
            to_act: Some(0),
            events: Vec::with_capacity(64),
        };
        for seat in 0..self.seats {
            public.stack[seat] = self.stack;
            public.in_hand[seat] = true;
            self.pay(&mut public, seat, self.ante);
        }
        State { public, hands, values, payout: [0; MAX_SEATS], showdown: false }
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        s.public.to_act
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        self.legal(&s.public, out);
    }

    fn view<'a>(&self, s: &'a State, seat: Seat) -> View<'a> {
        View { seat, public: &s.public, cards: s.public.seen[seat].then(|| s.hands[seat]) }
    }

    fn apply(&self, s: &mut State, action: &Action) -> Result<(), IllegalAction> {
        let seat = self.check(s, action)?;
        let price = self.call_price(&s.public, seat);
        let values = s.values;
        let p = &mut s.public;
        match *action {
            Action::Look => {
                p.seen[seat] = true;
                p.events.push(Event::Look { seat });
                return Ok(()); // the same seat acts again
            }
            Action::Fold => {
                p.in_hand[seat] = false;
                p.events.push(Event::Fold { seat });
            }
            Action::Call => {
                let paid = self.pay(p, seat, price);
                p.events.push(Event::Call { seat, paid });
            }
            Action::Raise(to) => {
                let paid = self.pay(p, seat, to * self.multiplier(p, seat));
                p.stake = to;
                p.events.push(Event::Raise { seat, stake: to, paid });
            }
            Action::Compare(target) => {
                let paid = self.pay(p, seat, price);
                let loser = if beats(values[seat], values[target], self.special_235) { target } else { seat };
                p.in_hand[loser] = false;
                p.events.push(Event::Compare { seat, target, paid, loser });
            }
        }
        self.advance(s, seat);
        Ok(())
    }

    fn adjusts(&self) -> bool {
        true
    }

    fn has_covariate(&self) -> bool {
        true
    }

    /// The hand's rank among all hands (luck.rs).
    fn covariate(&self, s: &State, out: &mut [f64]) {
        self.start_strengths(s, out)
    }

    /// Every card is dealt at the start: no chance event follows.
    fn revealed(&self, _: &State) -> usize {
        0
    }

    /// The full-information check-down (luck.rs).
    fn value(
        &self,
        s: &State,
        _known: usize,
        _exactness: crate::core::luck::Exactness,
        _cache: &mut crate::core::luck::LuckCache,
        out: &mut [f64],
    ) {
        self.check_down_value(s, out);
    }

    fn outcome(&self, s: &State) -> Outcome {
        let p = &s.public;
        Outcome::from_payoffs((0..self.seats).map(|i| (s.payout[i] - p.put_in[i]) as f64))
    }

    /// The forfeiting seat loses what it put in, shared among the others (odd chips in seat order);
    /// everyone else gets its own chips back.
    fn forfeit(&self, s: &State, seat: Seat) -> Outcome {
        let lost = s.public.put_in[seat];
        let others = self.seats as i64 - 1;
        let mut k = 0;
        Outcome::from_payoffs((0..self.seats).map(|i| {
            if i == seat {
                return -lost as f64;
            }
            k += 1;
            (lost / others + (k <= lost % others) as i64) as f64
        }))
    }

    fn columns(&self) -> &'static [&'static str] {
        &["hand", "category", "looked", "folded", "rounds", "showdown"]
    }

    /// `hand`: the seat's cards (`As Ah Kd`); `category`: its category; `looked`: whether the seat
    /// saw them; `folded`: whether it left the hand (fold or lost compare); `rounds`: the round the
    /// hand ended in; `showdown`: whether it ended in a showdown.
    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push_with(|text| write_spaced(s.hands[seat], text));
        out.push_str(Category::of(s.values[seat]).name());
        out.push_int(u8::from(s.public.seen[seat]));
        out.push_int(u8::from(!s.public.in_hand[seat]));
        out.push_int(s.public.round.min(self.round_cap));
        out.push_int(u8::from(s.showdown));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn hand(s: &str) -> [Card; 3] {
        parse_cards(s).unwrap().try_into().unwrap()
    }

    /// A dealt state with the given hands (the deck's other cards do not matter after the deal).
    fn with_hands(game: &Zhajinhua, hands: &[&str]) -> State {
        let mut s = game.deal(&mut DealRng::seed_from_u64(0));
        for (i, h) in hands.iter().enumerate() {
            s.hands[i] = hand(h);
            s.values[i] = eval::strength(s.hands[i]);
        }
        s
    }

    fn total_payoff(game: &Zhajinhua, s: &State) -> f64 {
        game.outcome(s).payoff.iter().sum()
    }

    #[test]
    fn deal_antes_and_blind_views() {
        let game = Zhajinhua::with_seats(4);
        let s = game.deal(&mut DealRng::seed_from_u64(1));
        assert_eq!(s.public.pot, 4);
        assert_eq!(s.public.stack[..4], [99; 4]);
        let cards: crate::cards::CardSet = s.hands[..4].iter().flatten().copied().collect();
        assert_eq!(cards.len(), 12);
        // A blind seat sees no cards at all, its own included.
        for seat in 0..4 {
            assert!(game.view(&s, seat).cards.is_none());
        }
        let mut s = s;
        game.apply(&mut s, &Action::Look).unwrap();
        assert_eq!(game.to_act(&s), Some(0), "looking is followed by an action of the same seat");
        assert_eq!(game.view(&s, 0).cards, Some(s.hands[0]));
        assert!(game.view(&s, 1).cards.is_none());
        assert!(game.apply(&mut s, &Action::Look).is_err());
    }

    #[test]
    fn seen_pays_double_and_raises_follow_the_ladder() {
        let game = Zhajinhua::with_seats(3);
        let mut s = game.deal(&mut DealRng::seed_from_u64(2));
        game.apply(&mut s, &Action::Call).unwrap(); // seat 0 blind: 1
        game.apply(&mut s, &Action::Look).unwrap();
        game.apply(&mut s, &Action::Call).unwrap(); // seat 1 seen: 2
        assert!(game.apply(&mut s, &Action::Raise(3)).is_err(), "3 is not on the ladder");
        assert!(game.apply(&mut s, &Action::Raise(1)).is_err(), "not higher");
        game.apply(&mut s, &Action::Raise(5)).unwrap(); // seat 2 blind: 5
        assert_eq!(s.public.put_in[..3], [2, 3, 6]);
        game.apply(&mut s, &Action::Call).unwrap(); // seat 0 blind at 5
        game.apply(&mut s, &Action::Call).unwrap(); // seat 1 seen at 5: 10
        assert_eq!(s.public.put_in[..3], [7, 13, 6]);
        assert_eq!(s.public.round, 2);
    }

    #[test]
    fn compare_rules() {
        let game = Zhajinhua::with_seats(3);
        let mut s = with_hands(&game, &["AS AD KC", "2S 3D 5C", "KS KD 9C"]);
        let mut legal = Vec::new();
        game.legal_actions(&s, &mut legal);
        assert!(!legal.iter().any(|a| matches!(a, Action::Compare(_))), "no compare in round one");
        assert!(game.apply(&mut s, &Action::Compare(1)).is_err());
        for _ in 0..2 {
            game.apply(&mut s, &Action::Call).unwrap();
        }
        game.apply(&mut s, &Action::Look).unwrap(); // seat 2 is seen
        game.apply(&mut s, &Action::Call).unwrap();
        // Round 2: blind seat 0 may compare the blind seat 1, not the seen seat 2.
        assert!(game.apply(&mut s, &Action::Compare(2)).is_err());
        assert!(game.apply(&mut s, &Action::Compare(0)).is_err());
        let before = s.public.put_in[0];
        game.apply(&mut s, &Action::Compare(1)).unwrap();
        assert_eq!(s.public.put_in[0], before + 1, "a compare costs a call");
        assert!(!s.public.in_hand[1] && s.public.in_hand[0]);
        // Seat 2 (seen) asks blind seat 0 and loses to the aces.
        game.apply(&mut s, &Action::Compare(0)).unwrap();
        assert_eq!(game.to_act(&s), None);
        assert!(!s.showdown);
        assert_eq!(s.payout[0], s.public.pot);
        assert_eq!(total_payoff(&game, &s), 0.0);
    }

    #[test]
    fn the_asker_loses_ties_and_the_option_lets_blind_compare_seen() {
        let mut game = Zhajinhua::with_seats(2);
        game.blind_may_compare_seen = true;
        let mut s = with_hands(&game, &["AS KD 9C", "AH KC 9D"]);
        game.apply(&mut s, &Action::Call).unwrap();
        game.apply(&mut s, &Action::Look).unwrap();
        game.apply(&mut s, &Action::Call).unwrap();
        game.apply(&mut s, &Action::Compare(1)).unwrap(); // blind asks seen: allowed by the option
        assert!(!s.public.in_hand[0], "tie: the asker loses");
        assert_eq!(game.outcome(&s).payoff[..], [-3.0, 3.0]);
    }

    #[test]
    fn round_cap_forces_a_showdown_and_ties_split() {
        let mut game = Zhajinhua::with_seats(3);
        game.round_cap = 2;
        let mut s = with_hands(&game, &["AS KD 9C", "AH KC 9D", "2S 3D 7C"]);
        for _ in 0..6 {
            game.apply(&mut s, &Action::Call).unwrap();
        }
        assert_eq!(game.to_act(&s), None);
        assert!(s.showdown);
        // Pot 3 antes + 6 calls = 9: the two A-K-9 hands split it, 4.5 each: 5 and 4, odd chip to seat 0.
        assert_eq!(s.payout[..3], [5, 4, 0]);
        assert_eq!(game.outcome(&s).payoff[..], [2.0, 1.0, -3.0]);
    }

    #[test]
    fn all_in_seats_get_side_pots() {
        let mut game = Zhajinhua::with_seats(3);
        game.stack = 12;
        game.round_cap = 2;
        let mut s = with_hands(&game, &["KH KC 9D", "2S 3D 7C", "AS AD 9C"]);
        // Round 1: seats 0 and 1 look and pay 10 at stake 5 (1 chip left each); seat 2 pays 5 blind.
        game.apply(&mut s, &Action::Look).unwrap();
        game.apply(&mut s, &Action::Raise(5)).unwrap();
        game.apply(&mut s, &Action::Look).unwrap();
        game.apply(&mut s, &Action::Call).unwrap();
        game.apply(&mut s, &Action::Call).unwrap();
        // Round 2: seats 0 and 1 call all-in with 1 chip; seat 2 pays 5 more and the cap ends the hand.
        for _ in 0..3 {
            game.apply(&mut s, &Action::Call).unwrap();
        }
        assert_eq!(game.to_act(&s), None);
        assert_eq!(s.public.put_in[..3], [12, 12, 11]);
        // Main pot 33 to the aces (seat 2); the side pot of 2, which seat 2 did not match, to the kings.
        assert_eq!(s.payout[..3], [2, 0, 33]);
        assert_eq!(game.outcome(&s).payoff[..], [-10.0, -12.0, 22.0]);
    }

    #[test]
    fn the_last_seat_with_chips_must_still_match() {
        let mut game = Zhajinhua::with_seats(2);
        game.stack = 12;
        let mut s = with_hands(&game, &["KH KC 9D", "2S 3D 7C"]);
        game.apply(&mut s, &Action::Raise(10)).unwrap(); // seat 0 blind: 10, 1 chip left
        game.apply(&mut s, &Action::Call).unwrap(); // seat 1 blind: 10, 1 chip left
        game.apply(&mut s, &Action::Call).unwrap(); // seat 0 all-in with 1
        assert_eq!(game.to_act(&s), Some(1), "seat 1 has put in less and may still fold");
        game.apply(&mut s, &Action::Fold).unwrap();
        assert_eq!(game.outcome(&s).payoff[..], [11.0, -11.0]);
    }

    #[test]
    fn special_235_cycles_fall_back_to_plain_order() {
        let mut game = Zhajinhua::with_seats(3);
        game.special_235 = true;
        game.round_cap = 1;
        let mut s = with_hands(&game, &["2S 3D 5C", "9S 9D 9C", "AS AD KC"]);
        for _ in 0..3 {
            game.apply(&mut s, &Action::Call).unwrap();
        }
        assert_eq!(s.payout[..3], [0, 6, 0]);
        let mut s = with_hands(&game, &["2S 3D 5C", "9S 9D 9C", "7S 7D 7C"]);
        for _ in 0..3 {
            game.apply(&mut s, &Action::Call).unwrap();
        }
        assert_eq!(s.payout[..3], [6, 0, 0], "2-3-5 beats both leopards");
    }

    #[test]
    fn forfeit_puts_the_forfeiter_last() {
        let game = Zhajinhua::with_seats(4);
        let mut s = game.deal(&mut DealRng::seed_from_u64(5));
        game.apply(&mut s, &Action::Raise(10)).unwrap();
        let o = game.forfeit(&s, 0);
        assert_eq!(o.payoff[..], [-11.0, 4.0, 4.0, 3.0]);
        assert_eq!(o.place[..], [4, 1, 1, 3]);
    }

    fn check_invariants(game: &Zhajinhua, s: &State) {
        let p = &s.public;
        for i in 0..game.seats {
            assert_eq!(p.stack[i] + p.put_in[i], game.stack, "chips of seat {i}");
            assert!(p.stack[i] >= 0);
        }
        assert_eq!(p.pot, p.put_in[..game.seats].iter().sum::<i64>());
        if let Some(seat) = p.to_act {
            assert!(p.can_act(seat), "the seat to act is in and has chips");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random legal and illegal actions: illegal ones change nothing, legal ones keep chips
        /// conserved, and the payoffs of every finished hand sum to zero.
        #[test]
        fn chips_conserved_and_only_legal_actions(
            seats in 2usize..=6,
            seed in any::<u64>(),
            picks in proptest::collection::vec((any::<u16>(), any::<bool>()), 1..400),
            blind_may_compare_seen in any::<bool>(),
            stack in 5i64..150,
        ) {
            let mut game = Zhajinhua::with_seats(seats);
            game.blind_may_compare_seen = blind_may_compare_seen;
            game.stack = stack;
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            let mut legal = Vec::new();
            let all_actions: Vec<Action> = [Action::Look, Action::Fold, Action::Call]
                .into_iter()
                .chain([1, 2, 3, 5, 10, 20].map(Action::Raise))
                .chain((0..7).map(Action::Compare))
                .collect();
            for (pick, from_legal) in picks {
                let Some(seat) = game.to_act(&s) else { break };
                game.legal_actions(&s, &mut legal);
                let action = if from_legal {
                    legal[pick as usize % legal.len()]
                } else {
                    all_actions[pick as usize % all_actions.len()]
                };
                let before = s.public.clone();
                let result = game.apply(&mut s, &action);
                prop_assert_eq!(result.is_ok(), legal.contains(&action), "{:?} legal list {:?}", action, legal);
                if result.is_err() {
                    prop_assert_eq!(format!("{:?}", before), format!("{:?}", s.public));
                    continue;
                }
                if let Action::Compare(t) = action {
                    prop_assert!(before.round >= game.compare_from_round);
                    prop_assert!(game.blind_may_compare_seen || before.seen[seat] || !before.seen[t]);
                }
                check_invariants(&game, &s);
                for i in 0..seats {
                    // A view shows a seat's own cards once it has looked, and nobody else's ever.
                    let v = game.view(&s, i);
                    prop_assert_eq!(v.cards.is_some(), s.public.seen[i]);
                    prop_assert!(v.cards.is_none_or(|c| c == s.hands[i]));
                }
            }
            if game.to_act(&s).is_none() {
                prop_assert_eq!(s.payout[..seats].iter().sum::<i64>(), s.public.pot);
                let o = game.outcome(&s);
                prop_assert_eq!(o.payoff.iter().sum::<f64>(), 0.0);
                for i in 0..seats {
                    prop_assert!(s.public.in_hand[i] || s.payout[i] == 0, "a folded seat wins nothing");
                }
            }
            for i in 0..seats {
                let o = game.forfeit(&s, i);
                prop_assert_eq!(o.payoff.iter().sum::<f64>(), 0.0);
                prop_assert_eq!(o.place[i] as usize, seats);
            }
        }
    }
}
