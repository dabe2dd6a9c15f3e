//! The table's types: the game as its options make it ([`Holdem`]), a hand in progress
//! ([`State`]), its actions, events and finished hands. Their rules are in engine.rs; they live
//! here, apart, so that phh.rs (the hand histories the engine writes) reads them without
//! importing the engine that imports it.

use smallvec::SmallVec;

use crate::cards::Card;
use crate::core::DealRng;

/// An amount of chips.
pub type Chips = u32;
pub const MAX_SEATS: usize = 10;
/// `acted_at` of a seat that has not acted in this betting round.
pub(super) const NOT_ACTED: Chips = Chips::MAX;

/// A player's decision. A bet is a `RaiseTo` when nothing has been bet; all-in is
/// `RaiseTo(bet + stack)` (or `CheckCall` when that does not exceed the bet to call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Only when there is something to call (folding when checking is free is refused, as PokerKit does).
    Fold,
    /// Check when nothing is to call, else call.
    CheckCall,
    /// Raise (or bet) so that this seat's bet in the round totals the amount.
    RaiseTo(Chips),
}

/// One entry of a hand's record, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A seat acted.
    Act {
        /// The seat that acted.
        seat: u8,
        /// What it did.
        action: Action,
    },
    /// The board was dealt up to this street (1 flop, 2 turn, 3 river).
    Street(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// How a game is played and paid: one cash hand or a sit-and-go.
pub enum Format {
    /// One hand; payoff = chips won or lost, in big blinds.
    Cash,
    /// Hands until one seat has every chip; blinds rise; payoff by place.
    Sng,
}

/// Blind structure of one hand (on the wire, the view's `blinds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Blinds {
    /// The small blind, in chips.
    pub small: Chips,
    /// The big blind, in chips (cash payoffs are counted in it).
    pub big: Chips,
    /// Every seat's ante, in chips (0: none).
    pub ante: Chips,
}

/// The table's options (see `GameDef::OPTIONS` in mod.rs).
#[derive(Clone, Debug)]
pub struct Holdem {
    /// Seats at the table, 2 to `MAX_SEATS`.
    pub seats: usize,
    /// The first hand's blinds and ante.
    pub blinds: Blinds,
    /// Chips each seat starts with.
    pub stack: Chips,
    /// Cash or sit-and-go.
    pub format: Format,
    /// sng: the blinds and ante are multiplied by `blind_factor` every `blind_every` hands.
    pub blind_every: u32,
    /// sng: what the blinds are multiplied by at each rise.
    pub blind_factor: f64,
    /// sng: after this many hands the game stops and places go by chips.
    pub max_hands: u32,
}

/// A finished hand kept for the record (sng keeps every hand; cash has one).
#[derive(Clone, Debug)]
pub struct HandRecord {
    /// Seats at the table.
    pub seats: u8,
    pub button: u8,
    pub blinds: Blinds,
    /// Seats dealt in.
    pub live: u16,
    pub start: [Chips; MAX_SEATS],
    pub end: [Chips; MAX_SEATS],
    pub hole: [[Card; 2]; MAX_SEATS],
    pub board: [Card; 5],
    pub events: Vec<Event>,
    /// Seats still in at a showdown (0 when the hand ended by folds).
    pub showdown: u16,
}

/// Everything about a game in progress.
#[derive(Clone, Debug)]
pub struct State {
    /// Seats at the table.
    pub n: usize,
    /// Chips behind (not yet put in this hand).
    pub stack: [Chips; MAX_SEATS],
    /// Stacks at the start of the current hand.
    pub start: [Chips; MAX_SEATS],
    /// The seat on the button.
    pub button: usize,
    /// The current hand's blinds and ante.
    pub blinds: Blinds,
    /// The current hand's number, from 0.
    pub hand_no: u32,
    /// Seats dealt into the current hand (sng: seats with chips).
    pub live: u16,
    /// Every seat's two cards, hidden ones included.
    pub hole: [[Card; 2]; MAX_SEATS],
    /// The five board cards, drawn at the deal; `dealt` says how many are shown.
    pub board: [Card; 5],
    /// Board cards dealt so far.
    pub dealt: usize,
    /// 0 pre-flop, 1 flop, 2 turn, 3 river, 4 the hand is settled.
    pub street: u8,
    /// Seats that folded this hand (bit per seat).
    pub folded: u16,
    /// Seats with no chips behind this hand (bit per seat).
    pub all_in: u16,
    /// Bet in the current betting round.
    pub bet: [Chips; MAX_SEATS],
    /// Put in the pot this hand (antes, blinds and bets).
    pub committed: [Chips; MAX_SEATS],
    /// What each seat had put in when the last hand was settled (`committed` is then zero).
    pub paid: [Chips; MAX_SEATS],
    /// The bet to match in this round.
    pub current_bet: Chips,
    /// The size of the last full bet or raise in this round (the big blind at its start).
    pub min_raise: Chips,
    /// The bet to match when the seat last acted in this round (`NOT_ACTED` before), for the
    /// rule that an all-in for less than a full raise does not reopen the betting.
    pub acted_at: [Chips; MAX_SEATS],
    /// Seats that must still act in this round.
    pub pending: u16,
    /// The seat to act.
    pub to_act: usize,
    /// This hand's actions and streets, inline up to a usual hand's length (no allocation a deal).
    pub events: SmallVec<[Event; 24]>,
    /// Seats in at the showdown of the current hand (0 if none yet).
    pub showdown: u16,
    /// Whether the game has ended.
    pub over: bool,
    /// sng: elimination order, `place[seat]` (0 while in).
    pub place: [u32; MAX_SEATS],
    /// sng: earlier hands, and the stream that shuffles the next decks (drawn in `deal`'s order, so
    /// hand h's deck depends only on the seed).
    pub past: Vec<HandRecord>,
    pub(super) rng: Option<DealRng>,
}
