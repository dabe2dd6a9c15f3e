//! The table: dealing, blinds and antes, betting rounds, side pots and the showdown
//! (rules per docs/book/src/rules/holdem.md; choices the rules leave open are stated where they are made).
//!
//! Seats sit clockwise 0..n. In `cash` the button is seat 0 for the one hand; in `sng` it moves one
//! live seat clockwise every hand. Heads-up the button posts the small blind, acts first pre-flop
//! and last after. Seat k is dealt `deck[2k], deck[2k+1]`, the board is `deck[2n..2n+5]`, so the
//! cards of a seat depend only on the deal seed. Chips are integers; nothing here allocates after
//! the deal except the action record's occasional growth.

use rand::seq::SliceRandom;
use smallvec::SmallVec;

use crate::cards::{write_spaced, Card, CardSet, Deck};
use crate::core::luck::{Exactness, LuckCache};
use crate::core::wire::Texts;
use crate::core::{DealRng, Game, IllegalAction, Outcome, Played, RecordFormat, Seat};

use super::eval::{Hand, HandValue};
use super::state::NOT_ACTED;
pub use super::state::{Action, Blinds, Chips, Event, Format, HandRecord, Holdem, State, MAX_SEATS};

const fn bit(seat: usize) -> u16 {
    1 << seat
}

/// The first seat of `mask` clockwise after `from` at a table of `n` seats (wrapping, `from`
/// itself last). Bit arithmetic, not a walk round the table: a division a seat cost a fast hand a
/// tenth of its time.
#[inline]
pub(super) fn next_in(n: usize, mask: u16, from: usize) -> Option<usize> {
    let mask = mask & ((1u32 << n) - 1) as u16;
    let after = mask & !((2u32 << from) - 1) as u16;
    [after, mask].into_iter().find(|&m| m != 0).map(|m| m.trailing_zeros() as usize)
}

/// Small and big blind seats of a hand dealt to the seats of `live` with the button on
/// `button`: heads-up the button posts the small blind.
pub(super) fn blind_seats(n: usize, live: u16, button: usize) -> (usize, usize) {
    let next = |from: usize| next_in(n, live, from).expect("a hand has seats dealt in");
    if live.count_ones() == 2 {
        (button, next(button))
    } else {
        let sb = next(button);
        (sb, next(sb))
    }
}

impl State {
    /// Seats still contesting the pot.
    pub fn contesting(&self) -> u16 {
        self.live & !self.folded
    }
    /// Seats that can still bet.
    pub fn able(&self) -> u16 {
        self.live & !self.folded & !self.all_in
    }
    /// Every chip put in this hand, current bets included.
    pub fn pot(&self) -> Chips {
        self.committed[..self.n].iter().sum()
    }
    /// The first seat of `mask` clockwise after `from` (wrapping, `from` itself last).
    pub fn next_in(&self, mask: u16, from: usize) -> Option<usize> {
        next_in(self.n, mask, from)
    }
    /// What `seat` must add to call, at most its stack.
    pub fn to_call(&self, seat: usize) -> Chips {
        (self.current_bet - self.bet[seat]).min(self.stack[seat])
    }
    /// May the seat to act raise? Some other seat must be able to answer, and the seat must not be
    /// facing only all-ins for less than a full raise since it last acted.
    pub fn can_raise(&self, seat: usize) -> bool {
        let others_able = self.able() & !bit(seat) != 0;
        let reopened = self.acted_at[seat] == NOT_ACTED || self.current_bet - self.acted_at[seat] >= self.min_raise;
        others_able && reopened && self.stack[seat] > self.to_call(seat)
    }
    /// (minimum, maximum) total of a raise by `seat`, if it may raise. The minimum is a full raise
    /// or, when the stack is shorter, the all-in.
    pub fn raise_bounds(&self, seat: usize) -> Option<(Chips, Chips)> {
        if !self.can_raise(seat) {
            return None;
        }
        let max = self.bet[seat] + self.stack[seat];
        Some(((self.current_bet + self.min_raise).min(max), max))
    }
    /// Small and big blind seats of the current hand.
    pub fn blind_seats(&self) -> (usize, usize) {
        blind_seats(self.n, self.live, self.button)
    }
    /// The board cards dealt so far.
    pub fn visible_board(&self) -> &[Card] {
        &self.board[..self.dealt]
    }
}

impl Holdem {
    /// A cash table of `seats` seats with these blinds, no ante, every seat starting with
    /// `stack` chips.
    pub fn new(seats: usize, small_blind: Chips, big_blind: Chips, stack: Chips) -> Holdem {
        Holdem {
            seats,
            blinds: Blinds { small: small_blind, big: big_blind, ante: 0 },
            stack,
            format: Format::Cash,
            blind_every: 10,
            blind_factor: 1.5,
            max_hands: 10_000,
        }
    }

    /// Blinds of hand number `hand` (0-based).
    fn blinds_for(&self, hand: u32) -> Blinds {
        if self.format == Format::Cash {
            return self.blinds;
        }
        let level = (hand / self.blind_every.max(1)) as i32;
        let f = self.blind_factor.powi(level);
        let scale = |x: Chips| ((x as f64 * f).round().min(Chips::MAX as f64 / 16.0)) as Chips;
        Blinds { small: scale(self.blinds.small), big: scale(self.blinds.big), ante: scale(self.blinds.ante) }
    }

    fn empty_state(&self) -> State {
        let mut stack = [0; MAX_SEATS];
        stack[..self.seats].fill(self.stack);
        State {
            n: self.seats,
            stack,
            start: stack,
            button: 0,
            blinds: self.blinds,
            hand_no: 0,
            live: (1 << self.seats) - 1,
            hole: [[Card::new(0, 0); 2]; MAX_SEATS],
            board: [Card::new(0, 0); 5],
            dealt: 0,
            street: 0,
            folded: 0,
            all_in: 0,
            bet: [0; MAX_SEATS],
            committed: [0; MAX_SEATS],
            paid: [0; MAX_SEATS],
            current_bet: 0,
            min_raise: 0,
            acted_at: [NOT_ACTED; MAX_SEATS],
            pending: 0,
            to_act: 0,
            events: SmallVec::new(),
            showdown: 0,
            over: false,
            place: [0; MAX_SEATS],
            past: Vec::new(),
            rng: None,
        }
    }

    /// Deals a hand from `cards` (the deck's order) and posts antes and blinds.
    fn start_hand(&self, s: &mut State, cards: &[Card; 52]) {
        for seat in 0..s.n {
            s.hole[seat] = [cards[2 * seat], cards[2 * seat + 1]];
        }
        s.board.copy_from_slice(&cards[2 * s.n..2 * s.n + 5]);
        s.blinds = self.blinds_for(s.hand_no);
        s.start = s.stack;
        s.street = 0;
        s.dealt = 0;
        s.folded = 0;
        s.all_in = 0;
        s.bet = [0; MAX_SEATS];
        s.committed = [0; MAX_SEATS];
        s.acted_at = [NOT_ACTED; MAX_SEATS];
        s.events.clear();
        s.showdown = 0;
        for seat in 0..s.n {
            if s.live & bit(seat) != 0 {
                let ante = s.blinds.ante.min(s.stack[seat]);
                self.put(s, seat, ante, false);
            }
        }
        let (sb, bb) = s.blind_seats();
        self.put(s, sb, s.blinds.small.min(s.stack[sb]), true);
        self.put(s, bb, s.blinds.big.min(s.stack[bb]), true);
        // A short big blind does not lower the bet to call below the small blind's.
        s.current_bet = s.bet[sb].max(s.bet[bb]);
        s.min_raise = s.blinds.big;
        s.pending = s.able();
        match s.next_in(s.pending, bb) {
            Some(first) if s.able().count_ones() >= 2 || s.to_call(first) > 0 => s.to_act = first,
            _ => {
                s.pending = 0;
                self.end_round(s);
            }
        }
    }

    /// Moves `amount` from the seat's stack into the pot (into its round bet if `is_bet`).
    fn put(&self, s: &mut State, seat: usize, amount: Chips, is_bet: bool) {
        s.stack[seat] -= amount;
        s.committed[seat] += amount;
        if is_bet {
            s.bet[seat] += amount;
        }
        if s.stack[seat] == 0 {
            s.all_in |= bit(seat);
        }
    }

    /// Checks `action` for the seat to act.
    fn check(&self, s: &State, action: &Action) -> Result<(), IllegalAction> {
        if s.over {
            return Err(IllegalAction("the game is over".into()));
        }
        let seat = s.to_act;
        match *action {
            Action::Fold if s.to_call(seat) == 0 => {
                Err(IllegalAction("nothing to call: check instead of folding".into()))
            }
            Action::Fold | Action::CheckCall => Ok(()),
            Action::RaiseTo(to) => match s.raise_bounds(seat) {
                None => Err(IllegalAction("raising is not allowed here".into())),
                Some((min, max)) if to < min || to > max => {
                    Err(IllegalAction(format!("raise to {to} is outside {min}..={max}")))
                }
                Some(_) => Ok(()),
            },
        }
    }

    fn act(&self, s: &mut State, action: Action) {
        let seat = s.to_act;
        s.events.push(Event::Act { seat: seat as u8, action });
        s.pending &= !bit(seat);
        match action {
            Action::Fold => s.folded |= bit(seat),
            Action::CheckCall => {
                let amount = s.to_call(seat);
                self.put(s, seat, amount, true);
            }
            Action::RaiseTo(to) => {
                let increment = to - s.current_bet;
                if increment >= s.min_raise {
                    s.min_raise = increment;
                }
                self.put(s, seat, to - s.bet[seat], true);
                s.current_bet = to;
                s.pending = s.able() & !bit(seat);
            }
        }
        s.acted_at[seat] = s.current_bet;
        // The last seat able to bet, owing nothing, has no decision left: everyone else is all-in
        // (PokerKit agrees: no "option" for a big blind whose opponents are all-in).
        if s.able().count_ones() == 1 && s.to_call(s.able().trailing_zeros() as usize) == 0 {
            s.pending = 0;
        }
        if s.contesting().count_ones() == 1 {
            s.pending = 0;
            self.settle(s);
            return;
        }
        match s.next_in(s.pending, seat) {
            Some(next) => s.to_act = next,
            None => self.end_round(s),
        }
    }

    /// The betting round is over: deal the next street (running the board out when fewer than two
    /// seats can bet) or go to the showdown.
    fn end_round(&self, s: &mut State) {
        loop {
            if s.street == 3 {
                s.showdown = s.contesting();
                self.settle(s);
                return;
            }
            s.street += 1;
            s.dealt = 2 + s.street as usize;
            s.events.push(Event::Street(s.street));
            s.bet = [0; MAX_SEATS];
            s.current_bet = 0;
            s.min_raise = s.blinds.big;
            s.acted_at = [NOT_ACTED; MAX_SEATS];
            if s.able().count_ones() >= 2 {
                s.pending = s.able();
                s.to_act = s.next_in(s.pending, s.button).unwrap();
                return;
            }
        }
    }

    /// Awards the pots: side pots by all-in level, ties split with the odd chips to the first
    /// winner clockwise from the button (as PokerKit does). Then the next hand (sng) or the end.
    fn settle(&self, s: &mut State) {
        s.street = 4;
        let contesting = s.contesting();
        if contesting.count_ones() == 1 {
            let winner = contesting.trailing_zeros() as usize;
            s.stack[winner] += s.pot();
        } else {
            let mut value = [0 as HandValue; MAX_SEATS];
            let board = s.board.iter().fold(Hand::new(), |h, &c| h.plus(c));
            for (seat, v) in value.iter_mut().enumerate().take(s.n) {
                if contesting & bit(seat) != 0 {
                    *v = board.plus(s.hole[seat][0]).plus(s.hole[seat][1]).value();
                }
            }
            let mut won = [0; MAX_SEATS];
            award(s, contesting, &s.committed, &value, &mut won);
            for (stack, won) in s.stack.iter_mut().zip(won) {
                *stack += won;
            }
        }
        // Everything in the middle now sits in the stacks; what each seat put in is kept for
        // the value function (luck.rs).
        s.paid = s.committed;
        s.committed = [0; MAX_SEATS];
        s.bet = [0; MAX_SEATS];
        if self.format == Format::Cash {
            s.over = true;
            return;
        }
        self.next_hand(s);
    }

    /// sng: records the hand, places the seats that went broke, and deals the next hand.
    fn next_hand(&self, s: &mut State) {
        let record = self.current_record(s);
        s.past.push(record);
        // Seats out this hand share a place unless they started it with different stacks.
        let broke: Vec<usize> = (0..s.n).filter(|&i| s.live & bit(i) != 0 && s.stack[i] == 0).collect();
        let remaining = s.live.count_ones() - broke.len() as u32;
        for &i in &broke {
            let richer = broke.iter().filter(|&&j| s.start[j] > s.start[i]).count() as u32;
            s.place[i] = remaining + 1 + richer;
            s.live &= !bit(i);
        }
        s.hand_no += 1;
        if s.live.count_ones() <= 1 || s.hand_no >= self.max_hands {
            // Whoever is left is placed by chips.
            for i in 0..s.n {
                if s.live & bit(i) != 0 {
                    s.place[i] =
                        1 + (0..s.n).filter(|&j| s.live & bit(j) != 0 && s.stack[j] > s.stack[i]).count() as u32;
                }
            }
            s.over = true;
            return;
        }
        s.button = s.next_in(s.live, s.button).unwrap();
        let deck = Deck::shuffled(s.rng.as_mut().expect("sng keeps its deal stream"));
        self.start_hand(s, deck.cards());
    }

    /// A cash hand from a given card order and stacks (tests and replays).
    pub fn deal_cards(&self, cards: &[Card; 52], stacks: &[Chips]) -> State {
        let mut s = self.empty_state();
        s.stack[..stacks.len()].copy_from_slice(stacks);
        self.start_hand(&mut s, cards);
        s
    }

    /// The record of the current (cash: the only) hand.
    pub fn current_record(&self, s: &State) -> HandRecord {
        HandRecord {
            seats: s.n as u8,
            button: s.button as u8,
            blinds: s.blinds,
            live: s.live,
            start: s.start,
            end: s.stack,
            hole: s.hole,
            board: s.board,
            events: s.events.to_vec(),
            showdown: s.showdown,
        }
    }
}

/// What one seat sees: its own hole cards and everything public. Other seats' cards stay hidden.
#[derive(Clone, Copy)]
pub struct View<'a> {
    state: &'a State,
    seat: Seat,
}

impl<'a> View<'a> {
    /// Whether the rules accept `action` from this seat now (the engine's own check).
    pub(super) fn judge(&self, game: &Holdem, action: &Action) -> Result<(), IllegalAction> {
        match self.state.to_act == self.seat {
            true => game.check(self.state, action),
            false => Err(IllegalAction(format!("seat {} is not to act", self.seat))),
        }
    }
    /// The seat this view is for.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// The whole hand, hidden cards included: for the table's own protocol code (ACPC's dealer
    /// writes a seat's `MATCHSTATE` from it, showing only what the seat may see).
    pub(in crate::games::holdem) fn state(&self) -> &'a State {
        self.state
    }
    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.state.n
    }
    /// The seat's own two cards.
    pub fn hole(&self) -> [Card; 2] {
        self.state.hole[self.seat]
    }
    /// The board cards dealt so far (0, 3, 4 or 5).
    pub fn board(&self) -> &'a [Card] {
        self.state.visible_board()
    }
    /// 0 pre-flop, 1 flop, 2 turn, 3 river.
    pub fn street(&self) -> u8 {
        self.state.street
    }
    /// The hand's number in the game (0 for a cash game's one hand).
    pub fn hand_no(&self) -> u32 {
        self.state.hand_no
    }
    /// The seat on the button.
    pub fn button(&self) -> Seat {
        self.state.button
    }
    /// This hand's blinds and ante, in chips.
    pub fn blinds(&self) -> Blinds {
        self.state.blinds
    }
    /// Everything in the middle, current bets included.
    pub fn pot(&self) -> Chips {
        self.state.pot()
    }
    /// What this seat must add to call, in chips (at most its stack).
    pub fn to_call(&self) -> Chips {
        self.state.to_call(self.seat)
    }
    /// `seat`'s chips behind, not yet in the pot.
    pub fn stack(&self, seat: Seat) -> Chips {
        self.state.stack[seat]
    }
    /// `seat`'s bet in this betting round, in chips.
    pub fn bet(&self, seat: Seat) -> Chips {
        self.state.bet[seat]
    }
    /// The bet to match in this betting round, in chips.
    pub fn current_bet(&self) -> Chips {
        self.state.current_bet
    }
    /// (minimum, maximum) raise-to amounts, `None` when raising is not allowed.
    pub fn raise_bounds(&self) -> Option<(Chips, Chips)> {
        self.state.raise_bounds(self.seat)
    }
    /// Whether `seat` still contests the pot (dealt in and not folded).
    pub fn is_in(&self, seat: Seat) -> bool {
        self.state.contesting() & bit(seat) != 0
    }
    /// Opponents still contesting the pot.
    pub fn opponents_in(&self) -> usize {
        (self.state.contesting() & !bit(self.seat)).count_ones() as usize
    }
    /// This hand's actions so far.
    pub fn history(&self) -> &'a [Event] {
        &self.state.events
    }
}

impl Holdem {
    /// [`GameDef::redeal_hidden`](crate::core::GameDef::redeal_hidden): the other seats' hole
    /// cards and the board still to come, dealt anew from the cards `seat` has not seen.
    pub fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        let mut s = s.clone();
        let seen: CardSet = s.hole[seat].iter().chain(&s.board[..s.dealt]).copied().collect();
        let mut unseen: Vec<Card> = Card::all().filter(|&c| !seen.contains(c)).collect();
        unseen.shuffle(rng);
        let mut deck = unseen.into_iter();
        for other in (0..s.n).filter(|&o| o != seat) {
            s.hole[other] = [deck.next()?, deck.next()?];
        }
        for card in &mut s.board[s.dealt..] {
            *card = deck.next()?;
        }
        Some(s)
    }

    /// Chips behind and in the pot.
    pub fn chips_in_play(&self, s: &State) -> u64 {
        (0..s.n).map(|i| u64::from(s.stack[i]) + u64::from(s.committed[i])).sum()
    }
}

impl Game for Holdem {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;

    fn seats(&self) -> usize {
        self.seats
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        let mut s = self.empty_state();
        let deck = Deck::shuffled(rng);
        if self.format == Format::Sng {
            s.rng = Some(rng.clone());
        }
        self.start_hand(&mut s, deck.cards());
        s
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        (!s.over).then_some(s.to_act)
    }

    /// Fold (when something is owed), check/call, the minimum raise, a pot-sized raise and all-in.
    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        if s.over {
            return;
        }
        let seat = s.to_act;
        if s.to_call(seat) > 0 {
            out.push(Action::Fold);
        }
        out.push(Action::CheckCall);
        if let Some((min, max)) = s.raise_bounds(seat) {
            out.push(Action::RaiseTo(min));
            let pot_raise = s.current_bet + s.pot() + s.to_call(seat);
            if pot_raise > min && pot_raise < max {
                out.push(Action::RaiseTo(pot_raise));
            }
            if max > min {
                out.push(Action::RaiseTo(max));
            }
        }
    }

    fn view<'a>(&self, s: &'a State, seat: Seat) -> View<'a> {
        View { state: s, seat }
    }

    fn apply(&self, s: &mut State, action: &Action) -> Result<(), IllegalAction> {
        self.check(s, action)?;
        self.act(s, *action);
        Ok(())
    }

    fn outcome(&self, s: &State) -> Outcome {
        let n = s.n;
        match self.format {
            Format::Cash => {
                Outcome::from_payoffs((0..n).map(|i| (s.stack[i] as f64 - s.start[i] as f64) / self.blinds.big as f64))
            }
            Format::Sng => place_outcome(&s.place[..n]),
        }
    }

    /// The forfeiting seat loses its whole starting stack (cash) or comes last (sng); the others
    /// share its loss (cash) or are placed by chips.
    fn forfeit(&self, s: &State, seat: Seat) -> Outcome {
        let n = s.n;
        match self.format {
            Format::Cash => {
                let loss = self.stack as f64 / self.blinds.big as f64;
                let share = loss / (n - 1) as f64;
                Outcome::from_payoffs((0..n).map(|i| if i == seat { -loss } else { share }))
            }
            Format::Sng => {
                // Seats still in rank by chips (pot shares included), then the seats already out by
                // their places; the forfeiting seat is last.
                let key = |i: usize| match s.place[i] {
                    0 => (1, (s.stack[i] + s.committed[i] * (s.street < 4) as Chips) as i64),
                    p => (0, -(p as i64)),
                };
                let place: Vec<u32> = (0..n)
                    .map(|i| {
                        if i == seat {
                            n as u32
                        } else {
                            1 + (0..n).filter(|&j| j != seat && key(j) > key(i)).count() as u32
                        }
                    })
                    .collect();
                place_outcome(&place)
            }
        }
    }

    /// A cash hand has a value function (luck.rs); a sit-and-go's payoff is a place.
    fn adjusts(&self) -> bool {
        self.format == Format::Cash
    }

    /// A cash hand's starting strength: the hole cards' pre-flop equity (luck.rs).
    fn has_covariate(&self) -> bool {
        self.format == Format::Cash
    }

    fn covariate(&self, s: &State, out: &mut [f64]) {
        self.start_strengths(s, out)
    }

    /// The board cards dealt.
    fn revealed(&self, s: &State) -> usize {
        s.dealt
    }

    fn value(&self, s: &State, known: usize, exactness: Exactness, cache: &mut LuckCache, out: &mut [f64]) {
        self.check_down_value(s, known, exactness, cache, out)
    }

    /// Street by pot size (luck.rs).
    fn luck_cells(&self) -> usize {
        self.betting_cells()
    }

    fn luck_cell(&self, s: &State) -> usize {
        self.betting_cell(s)
    }

    fn stake_value(
        &self,
        s: &State,
        known: usize,
        exactness: Exactness,
        cache: &mut LuckCache,
        out: &mut [f64],
    ) -> bool {
        self.all_in_value(s, known, exactness, cache, out);
        true
    }

    fn columns(&self) -> &'static [&'static str] {
        &["hole", "board", "showdown", "hands"]
    }

    /// `hole`: this seat's cards in the last hand; `board`: the cards dealt; `showdown`: the seat
    /// reached the last hand's showdown (1/0); `hands`: hands played.
    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push_with(|text| write_spaced(s.hole[seat], text));
        out.push_with(|text| write_spaced(s.visible_board().iter().copied(), text));
        out.push_int(u8::from(s.showdown & bit(seat) != 0));
        out.push_int(s.hand_no + u32::from(self.format == Format::Cash));
    }

    /// One hand is a PHH file; a sit-and-go's hands are a `.phhs` file of `[N]` tables.
    fn record_formats(&self) -> &'static [RecordFormat] {
        match self.format {
            Format::Cash => &[RecordFormat { name: "phh", extension: "phh", per_pairing: false }],
            Format::Sng => &[RecordFormat { name: "phh", extension: "phhs", per_pairing: false }],
        }
    }

    fn write_record(&self, format: &str, s: &State, _played: &Played<'_>) -> Option<String> {
        (format == "phh").then(|| super::phh::write(self, s))
    }
}

/// The pots of a showdown among `contesting` with `committed` chips in, awarded by hand
/// `value` into `won` (added): side pots by all-in level, ties split with the odd chips to the
/// first winner clockwise from the button (as PokerKit does). The showdown and the value
/// function (luck.rs) share it.
pub(super) fn award(
    s: &State,
    contesting: u16,
    committed: &[Chips; MAX_SEATS],
    value: &[HandValue],
    won: &mut [Chips],
) {
    let mut prev = 0;
    loop {
        // The next all-in level: the smallest commitment above `prev` of a seat contesting.
        let level = (0..s.n).filter(|&i| contesting & bit(i) != 0 && committed[i] > prev).map(|i| committed[i]).min();
        let Some(level) = level else { break };
        let pot: Chips = (0..s.n).map(|i| committed[i].min(level) - committed[i].min(prev)).sum();
        let eligible = (0..s.n).filter(|&i| contesting & bit(i) != 0 && committed[i] >= level);
        let best = eligible.clone().map(|i| value[i]).max().unwrap();
        let winners = eligible.filter(|&i| value[i] == best).fold(0u16, |m, i| m | bit(i));
        let k = winners.count_ones();
        // Equal shares; the odd chips all go to the first winner left of the button.
        let mut odd = pot % k;
        let mut seat = s.button;
        for _ in 0..s.n {
            seat = if seat + 1 == s.n { 0 } else { seat + 1 };
            if winners & bit(seat) != 0 {
                won[seat] += pot / k + odd;
                odd = 0;
            }
        }
        prev = level;
    }
}

/// sng payoff: linear in place, +1 for the winner to -1 for the last; seats sharing a place share
/// the payoffs of the places they cover (so the payoffs sum to zero).
fn place_outcome(place: &[u32]) -> Outcome {
    let n = place.len() as f64;
    let payoff = place
        .iter()
        .map(|&p| {
            let k = place.iter().filter(|&&q| q == p).count() as f64;
            let mid = p as f64 + (k - 1.0) / 2.0;
            (n + 1.0 - 2.0 * mid) / (n - 1.0)
        })
        .collect();
    Outcome { payoff, place: place.iter().copied().collect() }
}
