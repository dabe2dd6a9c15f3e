//! What happened at the table in a hand, in order: the engine's log of a hand ([`Event`]), and one
//! seat's sight of it ([`Seen`]). The order is what a record in another program's terms needs
//! (Botzone's requests, its judge's log); the state keeps only where things are.

use super::tiles::Tile;
use crate::core::Seat;

/// Seats at the table.
pub const SEATS: usize = 4;

/// What happened at the table, in order (our seats). Flowers are numbered 1..=8 by their place in
/// the hand's wall (the k-th flower of the wall in its stored order is flower k), so that every
/// flower has one name for the whole hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Each seat's 13 tiles in the order dealt, and the flowers it set aside while being dealt.
    Deal {
        hands: [[Tile; 13]; SEATS],
        flowers: [Vec<u8>; SEATS],
    },
    Draw {
        seat: Seat,
        tile: Tile,
    },
    /// Flower `flower` drawn and set aside; the seat draws again (from the far end).
    Flower {
        seat: Seat,
        flower: u8,
    },
    Discard {
        seat: Seat,
        tile: Tile,
    },
    /// A pung or chow (its lowest tile) of the last discard; the seat discards next.
    Pung {
        seat: Seat,
        tile: Tile,
    },
    Chow {
        seat: Seat,
        low: Tile,
    },
    /// A kong on the last discard.
    Kong {
        seat: Seat,
        tile: Tile,
    },
    ConcealedKong {
        seat: Seat,
        tile: Tile,
    },
    AddedKong {
        seat: Seat,
        tile: Tile,
    },
    Win {
        seat: Seat,
    },
}

/// An [`Event`] as one seat sees it: another seat's dealt tiles, drawn tile and concealed kong are
/// hidden; everything else is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen<'a> {
    /// The seat's own 13 dealt tiles, and every seat's flowers.
    Deal {
        hand: &'a [Tile; 13],
        flowers: &'a [Vec<u8>; SEATS],
    },
    /// `tile`: `None` when another seat drew.
    Draw {
        seat: Seat,
        tile: Option<Tile>,
    },
    /// `tile`: `None` when another seat declared it.
    ConcealedKong {
        seat: Seat,
        tile: Option<Tile>,
    },
    Public(&'a Event),
}

impl Event {
    pub fn seen_by(&self, me: Seat) -> Seen<'_> {
        let mine = |seat: Seat, tile: Tile| (seat == me).then_some(tile);
        match *self {
            Event::Deal { ref hands, ref flowers } => Seen::Deal { hand: &hands[me], flowers },
            Event::Draw { seat, tile } => Seen::Draw { seat, tile: mine(seat, tile) },
            Event::ConcealedKong { seat, tile } => Seen::ConcealedKong { seat, tile: mine(seat, tile) },
            _ => Seen::Public(self),
        }
    }
}
