//! The table: dealing, betting rounds, showdown (docs/book/src/rules/stud.md, "Play").
//!
//! - Every seat antes, then gets a hole card and a first face-up card; a betting round; then a
//!   second, third and fourth face-up card, each followed by a betting round; then showdown.
//! - Streets are named by the cards a seat holds: 2nd (hole + 1 up) to 5th.
//! - The best face-up partial hand acts first on each street (ties: the lower seat); then seats act
//!   in seat order.
//! - No-limit, but the pot can never grow past what the shortest stack still in the hand can put
//!   in: every seat still in has then put in the same amount, so there are no side pots.
//! - A bet or raise must raise by at least the last bet or raise on the street (at least the
//!   ante, and at least 1 chip), unless it is the show hand (all the cap allows).

use rand::seq::SliceRandom;
use smallvec::SmallVec;

use super::eval::{value, Category, HandValue};
use crate::cards::{write_spaced, Card, CardSet, Deck};
use crate::core::wire::{write_int, Texts};
use crate::core::{DealRng, Game, IllegalAction, Outcome, Seat};

/// Most seats at a table.
pub const MAX_SEATS: usize = 5;
/// Betting rounds: after the 2nd, 3rd, 4th and 5th card.
pub const STREETS: usize = 4;

/// One decision of the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Give up the hand (and what this seat put in).
    Fold,
    /// Pass when there is nothing to call.
    Check,
    /// Match the street's bet.
    Call,
    /// Bet, or raise: make this street's bet `n` chips in total (what each seat in the hand must
    /// have put in on this street to stay in).
    Bet(u32),
    /// 梭哈: bet or raise as much as the shortest stack in the hand allows.
    ShowHand,
}

/// One action of the hand, on the street it was taken (0 to 3, as [`State::street`] counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acted {
    pub street: u8,
    pub seat: u8,
    pub action: Action,
}

/// The table options.
#[derive(Clone, Debug)]
pub struct Stud {
    /// Seats at the table.
    pub seats: usize,
    /// Every seat's ante, in chips.
    pub ante: u32,
    /// Chips each seat starts the hand with.
    pub stack: u32,
    /// The cards in play: all 52, or the 28-card short deck (8 to A).
    pub deck: CardSet,
}

/// Everything, hidden cards included. Bots see it only through [`View`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    seats: usize,
    /// `cards[seat][0]` is the hole card, `[1..5]` the face-up cards in the order dealt.
    cards: [[Card; 5]; MAX_SEATS],
    /// 0..4 while betting (face-up cards showing = street + 1); 4 after the last round.
    street: usize,
    /// Chips behind.
    stack: [u32; MAX_SEATS],
    /// Chips in the pot this hand.
    committed: [u32; MAX_SEATS],
    /// Chips in the pot on this street.
    street_bet: [u32; MAX_SEATS],
    /// The street (0..4) on which a seat folded.
    folded: [Option<u8>; MAX_SEATS],
    /// Acted since the last bet or raise on this street.
    acted: [bool; MAX_SEATS],
    /// The size of the last bet or raise on this street.
    last_raise: u32,
    to_act: Option<Seat>,
    /// Chips each seat got back from the pot once the hand is over.
    won: [u32; MAX_SEATS],
    /// Whether the hand went to showdown.
    showdown: bool,
    /// Every action so far, in order: what a seat at the table saw done (the view's history).
    /// Kept here, in every seat's view and on the wire, rather than worked out by whoever shows a
    /// person the table from one view to the next: between two of a seat's decisions several
    /// seats may check, bet and call, and the views' stacks and bets show only the sum of it (a
    /// check leaves no trace at all), while any player at the table sees each action; a bot
    /// outside the process now sees them too. Inline up to a long hand's length, so a deal
    /// allocates nothing.
    history: SmallVec<[Acted; 16]>,
}

impl State {
    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.seats
    }
    /// The betting round: 0..4 while betting (face-up cards showing = street + 1), 4 after.
    pub fn street(&self) -> usize {
        self.street
    }
    /// Whether the hand is settled.
    pub fn is_over(&self) -> bool {
        self.to_act.is_none()
    }
    /// Whether `seat` has not folded.
    pub fn in_hand(&self, seat: Seat) -> bool {
        self.folded[seat].is_none()
    }
    /// `seat`'s chips behind, not yet in the pot.
    pub fn stack(&self, seat: Seat) -> u32 {
        self.stack[seat]
    }
    /// What `seat` has put in the pot this hand, ante included.
    pub fn committed(&self, seat: Seat) -> u32 {
        self.committed[seat]
    }
    /// What `seat` has put in on this street.
    pub fn street_bet(&self, seat: Seat) -> u32 {
        self.street_bet[seat]
    }
    /// Every chip put in this hand.
    pub fn pot(&self) -> u32 {
        self.committed[..self.seats].iter().sum()
    }
    /// Chips a seat got from the pot (0 until the hand is over).
    pub fn won(&self, seat: Seat) -> u32 {
        self.won[seat]
    }
    /// The face-up cards showing: dealt so far (all four after the last round); a seat that
    /// folded got no more cards after folding.
    pub fn up(&self, seat: Seat) -> &[Card] {
        let street = self.folded[seat].map_or(self.street.min(3), usize::from);
        &self.cards[seat][1..2 + street]
    }
    /// The hole card: for the engine, tests and records, never for bots.
    pub fn hole(&self, seat: Seat) -> Card {
        self.cards[seat][0]
    }
    /// All five cards dealt to a seat, hole first (for the engine, tests and records).
    pub fn dealt(&self, seat: Seat) -> [Card; 5] {
        self.cards[seat]
    }
    /// `seat`'s face-up cards as a set.
    pub fn up_set(&self, seat: Seat) -> CardSet {
        self.up(seat).iter().copied().collect()
    }
    /// The bet every seat in the hand must match on this street.
    pub fn current_bet(&self) -> u32 {
        self.street_bet[..self.seats].iter().copied().max().unwrap_or(0)
    }
    /// The most any seat still in can have put in this hand: the shortest stack in the hand.
    fn cap(&self) -> u32 {
        (0..self.seats).filter(|&s| self.in_hand(s)).map(|s| self.committed[s] + self.stack[s]).min().unwrap_or(0)
    }
    /// The largest street bet `seat` may make: what the shortest stack in the hand can match.
    pub fn max_bet_to(&self, seat: Seat) -> u32 {
        self.cap() - (self.committed[seat] - self.street_bet[seat])
    }
    /// Smallest raise size on this street.
    fn min_raise(&self, ante: u32) -> u32 {
        self.last_raise.max(ante).max(1)
    }
    fn players_in(&self) -> usize {
        (0..self.seats).filter(|&s| self.in_hand(s)).count()
    }
    /// The seat whose face-up cards rank best among the seats still in; the lower seat on ties.
    pub fn best_showing(&self) -> Seat {
        let mut best: Option<(HandValue, Seat)> = None;
        for s in (0..self.seats).filter(|&s| self.in_hand(s)) {
            let v = value(self.up_set(s));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, s));
            }
        }
        best.expect("someone is in the hand").1
    }
    /// All five cards of a seat, as a set.
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.cards[seat].iter().copied().collect()
    }
    /// Every action so far, in order.
    pub fn history(&self) -> &[Acted] {
        &self.history
    }
}

/// What one seat may see: its own hole card, everyone's face-up cards and the betting.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    state: &'a State,
    seat: Seat,
}

impl<'a> View<'a> {
    /// Whether the rules accept `action` from this seat now (the engine's own check).
    pub(super) fn judge(&self, game: &Stud, action: Action) -> Result<(), IllegalAction> {
        match self.state.to_act {
            Some(seat) if seat == self.seat => game.check_action(self.state, seat, action).map(|_| ()),
            _ => Err(IllegalAction(format!("seat {} is not to act", self.seat))),
        }
    }
    /// The seat this view is for.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Seats at the table.
    pub fn seats(&self) -> usize {
        self.state.seats
    }
    /// The betting round (see [`State::street`]).
    pub fn street(&self) -> usize {
        self.state.street
    }
    /// My hole card.
    pub fn hole(&self) -> Card {
        self.state.cards[self.seat][0]
    }
    /// Any seat's face-up cards.
    pub fn up(&self, seat: Seat) -> &'a [Card] {
        self.state.up(seat)
    }
    /// `seat`'s face-up cards as a set.
    pub fn up_set(&self, seat: Seat) -> CardSet {
        self.state.up_set(seat)
    }
    /// My hole and face-up cards.
    pub fn my_cards(&self) -> CardSet {
        self.state.up_set(self.seat).with(self.hole())
    }
    /// Whether `seat` has not folded.
    pub fn in_hand(&self, seat: Seat) -> bool {
        self.state.in_hand(seat)
    }
    /// `seat`'s chips behind.
    pub fn stack(&self, seat: Seat) -> u32 {
        self.state.stack[seat]
    }
    /// What `seat` has put in the pot this hand, ante included.
    pub fn committed(&self, seat: Seat) -> u32 {
        self.state.committed[seat]
    }
    /// Every chip put in this hand.
    pub fn pot(&self) -> u32 {
        self.state.pot()
    }
    /// The bet to match on this street.
    pub fn current_bet(&self) -> u32 {
        self.state.current_bet()
    }
    /// Chips I must put in to call.
    pub fn to_call(&self) -> u32 {
        self.state.current_bet() - self.state.street_bet[self.seat]
    }
    /// My street bet.
    pub fn my_bet(&self) -> u32 {
        self.state.street_bet[self.seat]
    }
    /// The largest bet I may make (the show hand), if I may raise at all.
    pub fn max_bet_to(&self) -> Option<u32> {
        let max = self.state.max_bet_to(self.seat);
        (max > self.state.current_bet()).then_some(max)
    }
    /// A representative set of my legal actions (as [`Game::legal_actions`] when I am to act).
    pub fn legal_actions(&self, game: &Stud, out: &mut Vec<Action>) {
        game.list_actions(self.state, self.seat, out);
    }
    /// Every seat's actions so far, in order.
    pub fn history(&self) -> &'a [Acted] {
        &self.state.history
    }
    /// The chips the seat has won from the pot (0 until the hand is over).
    pub fn won(&self, seat: Seat) -> u32 {
        self.state.won[seat]
    }
    /// Whether the seat is to act now.
    pub fn to_act(&self) -> bool {
        self.state.to_act == Some(self.seat)
    }
    /// The smallest bet I may make, if I may raise at all.
    pub fn min_bet_to(&self, game: &Stud) -> Option<u32> {
        let max = self.max_bet_to()?;
        Some((self.state.current_bet() + self.state.min_raise(game.ante)).min(max))
    }
}

impl Stud {
    /// A table of `seats` seats, `ante` and `stack` chips each, dealing from the cards of
    /// `deck` (at least five a seat).
    pub fn new(seats: usize, ante: u32, stack: u32, deck: CardSet) -> Stud {
        assert!((2..=MAX_SEATS).contains(&seats) && stack > ante && deck.len() as usize >= 5 * seats);
        Stud { seats, ante, stack, deck }
    }

    /// A hand with these cards (`cards[seat]` = hole, then the four face-up cards) and stacks.
    pub fn deal_cards(&self, cards: &[[Card; 5]], stacks: &[u32]) -> State {
        assert!(cards.len() == self.seats && stacks.len() == self.seats);
        let mut s = State {
            seats: self.seats,
            cards: [[Card::new(0, 0); 5]; MAX_SEATS],
            street: 0,
            stack: [0; MAX_SEATS],
            committed: [0; MAX_SEATS],
            street_bet: [0; MAX_SEATS],
            folded: [None; MAX_SEATS],
            acted: [false; MAX_SEATS],
            last_raise: 0,
            to_act: None,
            won: [0; MAX_SEATS],
            showdown: false,
            history: SmallVec::new(),
        };
        for seat in 0..self.seats {
            s.cards[seat] = cards[seat];
            let ante = self.ante.min(stacks[seat]);
            s.stack[seat] = stacks[seat] - ante;
            s.committed[seat] = ante;
        }
        self.start_street(&mut s);
        s
    }

    /// Opens the betting on `s.street`, or skips to showdown when no one can bet any more.
    fn start_street(&self, s: &mut State) {
        loop {
            if s.street == STREETS {
                self.showdown(s);
                return;
            }
            s.street_bet = [0; MAX_SEATS];
            s.acted = [false; MAX_SEATS];
            s.last_raise = 0;
            let first = s.best_showing();
            if s.max_bet_to(first) > 0 {
                s.to_act = Some(first);
                return;
            }
            // The shortest stack in the hand is all in: deal on.
            s.street += 1;
        }
    }

    fn showdown(&self, s: &mut State) {
        s.to_act = None;
        s.street = STREETS;
        s.showdown = s.players_in() > 1;
        let mut values = [HandValue::default(); MAX_SEATS];
        for x in (0..self.seats).filter(|&x| s.in_hand(x)) {
            values[x] = value(s.hand(x));
        }
        let mut won = [0; MAX_SEATS];
        self.award(s, &values, &mut won);
        s.won = won;
    }

    /// Sets `won` to the pot of `s` split among its best hands by `values` (read for the seats
    /// still in only): the showdown's split, shared with the value function of luck.rs. Odd chips
    /// go one each to the winners nearest the dealer's left (lowest seats).
    pub(super) fn award(&self, s: &State, values: &[HandValue; MAX_SEATS], won: &mut [u32; MAX_SEATS]) {
        self.award_pot(s, s.pot(), values, won)
    }

    /// [`Stud::award`] of a `pot` other than the one on the table (luck.rs: the pot with the bet
    /// on the table called).
    pub(super) fn award_pot(&self, s: &State, pot: u32, values: &[HandValue; MAX_SEATS], won: &mut [u32; MAX_SEATS]) {
        *won = [0; MAX_SEATS];
        let in_hand = || (0..self.seats).filter(|&x| s.in_hand(x));
        let best = in_hand().map(|x| values[x]).max().expect("someone is in");
        let winners = in_hand().filter(|&x| values[x] == best).count() as u32;
        let (share, odd) = (pot / winners, pot % winners);
        for (i, w) in in_hand().filter(|&x| values[x] == best).enumerate() {
            won[w] = share + u32::from((i as u32) < odd);
        }
    }

    /// Fold (only when facing a bet), check or call, and bets of the minimum, the pot and the show
    /// hand when a raise is allowed.
    fn list_actions(&self, s: &State, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let current = s.current_bet();
        if s.street_bet[seat] < current {
            out.extend([Action::Fold, Action::Call]);
        } else {
            out.push(Action::Check);
        }
        let max = s.max_bet_to(seat);
        if max > current {
            let min = (current + s.min_raise(self.ante)).min(max);
            let pot_raise = current + s.pot() + (current - s.street_bet[seat]);
            out.push(Action::Bet(min));
            if pot_raise > min && pot_raise < max {
                out.push(Action::Bet(pot_raise));
            }
            out.push(Action::ShowHand);
        }
    }

    /// Checks `action` for the seat to act; the chips it puts in (street bet afterwards).
    fn check_action(&self, s: &State, seat: Seat, action: Action) -> Result<u32, IllegalAction> {
        let current = s.current_bet();
        let mine = s.street_bet[seat];
        let max = s.max_bet_to(seat);
        let illegal = |why: String| Err(IllegalAction(why));
        match action {
            Action::Fold => Ok(mine),
            Action::Check if mine == current => Ok(mine),
            Action::Check => illegal(format!("cannot check: {} to call", current - mine)),
            Action::Call if mine < current => Ok(current),
            Action::Call => illegal("nothing to call: check".into()),
            Action::ShowHand if max > current => Ok(max),
            Action::ShowHand => {
                illegal(format!("cannot raise: the bet is already {current}, the most the hand allows"))
            }
            Action::Bet(to) => {
                let min = current + s.min_raise(self.ante);
                if max <= current {
                    illegal(format!("cannot raise: the bet is already {current}, the most the hand allows"))
                } else if to > max {
                    illegal(format!("bet to {to} exceeds {max}, what the shortest stack in the hand can match"))
                } else if to < min && to != max {
                    illegal(format!("bet to {to} is below the minimum {}", min.min(max)))
                } else {
                    Ok(to)
                }
            }
        }
    }

    /// After `seat` acted: the next seat, the next street, or the end of the hand.
    fn advance(&self, s: &mut State, seat: Seat) {
        if s.players_in() == 1 {
            let winner = (0..self.seats).find(|&x| s.in_hand(x)).expect("one seat is in");
            s.won[winner] = s.pot();
            s.to_act = None;
            return;
        }
        let current = s.current_bet();
        let waiting = |x: Seat| s.in_hand(x) && s.stack[x] > 0 && !(s.acted[x] && s.street_bet[x] == current);
        if let Some(next) = (1..self.seats).map(|i| (seat + i) % self.seats).find(|&x| waiting(x)) {
            s.to_act = Some(next);
        } else {
            s.street += 1;
            self.start_street(s);
        }
    }
}

impl Stud {
    /// [`GameDef::redeal_hidden`](crate::core::GameDef::redeal_hidden): the other seats' hole
    /// cards and every card still to come, dealt anew from the cards `seat` has not seen.
    pub fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        let mut s = s.clone();
        let seen: CardSet =
            std::iter::once(s.hole(seat)).chain((0..s.seats).flat_map(|x| s.up(x).iter().copied())).collect();
        let mut unseen: Vec<Card> = self.deck.iter().filter(|&c| !seen.contains(c)).collect();
        unseen.shuffle(rng);
        let mut deck = unseen.into_iter();
        for x in 0..s.seats {
            let shown = 1 + s.up(x).len();
            for j in (0..5).filter(|&j| (j == 0 && x != seat) || j >= shown) {
                s.cards[x][j] = deck.next()?;
            }
        }
        Some(s)
    }

    /// Chips behind and in the pot.
    pub fn chips_in_play(&self, s: &State) -> u64 {
        (0..s.seats).map(|x| u64::from(s.stack[x]) + u64::from(s.committed[x])).sum()
    }
}

impl Game for Stud {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;

    fn seats(&self) -> usize {
        self.seats
    }

    /// Shuffles the whole 52-card deck (the short deck: its cards in that order), then deals round
    /// by round: card `j` of seat `s` is card `j * seats + s` of the deck.
    fn deal(&self, rng: &mut DealRng) -> State {
        let deck = Deck::shuffled(rng);
        let mut order = deck.cards().iter().copied().filter(|&c| self.deck.contains(c));
        let mut cards = [[Card::new(0, 0); 5]; MAX_SEATS];
        for j in 0..5 {
            for hand in cards.iter_mut().take(self.seats) {
                hand[j] = order.next().expect("the deck holds five cards a seat");
            }
        }
        self.deal_cards(&cards[..self.seats], &[self.stack; MAX_SEATS][..self.seats])
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        s.to_act
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        if let Some(seat) = s.to_act {
            self.list_actions(s, seat, out);
        }
    }

    fn view<'a>(&self, state: &'a State, seat: Seat) -> View<'a> {
        View { state, seat }
    }

    fn apply(&self, s: &mut State, action: &Action) -> Result<(), IllegalAction> {
        let seat = s.to_act.ok_or_else(|| IllegalAction("the hand is over".into()))?;
        let to = self.check_action(s, seat, *action)?;
        s.history.push(Acted { street: s.street as u8, seat: seat as u8, action: *action });
        if *action == Action::Fold {
            s.folded[seat] = Some(s.street as u8);
        } else {
            let current = s.current_bet();
            if to > current {
                s.last_raise = s.last_raise.max(to - current);
                s.acted = [false; MAX_SEATS];
            }
            let add = to - s.street_bet[seat];
            s.stack[seat] -= add;
            s.committed[seat] += add;
            s.street_bet[seat] = to;
        }
        s.acted[seat] = true;
        self.advance(s, seat);
        Ok(())
    }

    fn adjusts(&self) -> bool {
        true
    }

    fn has_covariate(&self) -> bool {
        true
    }

    /// The first two cards' strength (luck.rs).
    fn covariate(&self, s: &State, out: &mut [f64]) {
        self.start_strengths(s, out)
    }

    /// Cards dealt so far, hole and face up, to every seat (luck.rs).
    fn revealed(&self, s: &State) -> usize {
        s.cards_dealt()
    }

    /// The check-down value (luck.rs).
    fn value(
        &self,
        s: &State,
        known: usize,
        exactness: crate::core::luck::Exactness,
        cache: &mut crate::core::luck::LuckCache,
        out: &mut [f64],
    ) {
        self.check_down_value(s, known, exactness, cache, out);
    }

    /// Street by pot size (luck.rs).
    fn luck_cells(&self) -> usize {
        self.betting_cells()
    }

    fn luck_cell(&self, s: &State) -> usize {
        self.betting_cell(s)
    }

    /// Every seat still in all-in as far as the shortest stack goes (luck.rs).
    fn stake_value(
        &self,
        s: &State,
        known: usize,
        exactness: crate::core::luck::Exactness,
        cache: &mut crate::core::luck::LuckCache,
        out: &mut [f64],
    ) -> bool {
        self.all_in_value(s, known, exactness, cache, out);
        true
    }

    /// Chips won or lost in the hand.
    fn outcome(&self, s: &State) -> Outcome {
        Outcome::from_payoffs((0..self.seats).map(|x| s.won[x] as f64 - s.committed[x] as f64))
    }

    /// The forfeiting seat loses its whole starting stack, shared by the others.
    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        let share = self.stack as f64 / (self.seats - 1) as f64;
        Outcome::from_payoffs((0..self.seats).map(|x| if x == seat { -(self.stack as f64) } else { share }))
    }

    fn columns(&self) -> &'static [&'static str] {
        &["cards", "category", "fold_street"]
    }

    /// `cards`: the seat's hole card then its face-up cards dealt (`Ah Kd 7c`); `category`: its
    /// five-card hand at showdown, empty otherwise; `fold_street`: the cards it held when it
    /// folded (2 to 5), empty if it did not fold.
    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push_with(|text| write_spaced(std::iter::once(s.hole(seat)).chain(s.up(seat).iter().copied()), text));
        let category: Option<Category> = (s.showdown && s.in_hand(seat)).then(|| value(s.hand(seat)).category());
        out.push_str(category.map_or("", |c| c.name()));
        let folded = s.folded[seat];
        out.push_with(|text| folded.into_iter().for_each(|street| write_int(text, street + 2)));
    }
}

/// The 28 cards 8 to A.
pub fn short_deck() -> CardSet {
    CardSet::FULL.iter().filter(|c| c.rank() >= 6).collect()
}
