//! The patent's two search methods as bots (rules: docs/book/src/rules/mahjong.md, "Bots"):
//! [`expectimax`] (the "traditional" full tree the patent measures against) and [`pruned`] (the
//! patent's arrangement-weighted effective-tile search with P(win) × score path values).
//!
//! Both decide from a [`Position`]: what the seat can see, copied out of the view, so benches can
//! replay recorded positions without a table.
//!
//! Measured (2 shared cores, `arena bench mahjong.pruned_decision` / `.expectimax_decision`,
//! 1,000 discard decisions recorded from greedy games): pruned median 0.07 ms, p99 0.35 ms;
//! expectimax (depth 2) median 0.9 ms, p99 9.6 ms. Strength (configs/mahjong*.toml, 4,000 games =
//! 1,000 deals × 4 rotations each, points per hand, intervals clustered by deal): pruned − expectimax
//! +2.89 [+1.61, +4.17]; pruned − greedy +9.23 [+7.96, +10.49]; expectimax − greedy +4.84
//! [+3.76, +5.92].
//!
//! Known simplifications (both bots): the view shows no dealer or hand number, so the seat wind is
//! taken as seat − 0 (exact for one-hand games, the default) and the prevalent wind as East;
//! flowers are not counted in the estimated fans.

// Loops run over tile kinds and index several per-kind arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod bench;
pub mod expectimax;
pub mod explain;
pub mod odds;
pub mod opponents;
pub mod pruned;
pub mod shapes;
pub mod turns;

#[cfg(test)]
mod tests;

use std::hash::{BuildHasherDefault, Hasher};

use super::engine::View;
use super::fans::{score, WinContext, WinningHand};
use super::tiles::{Counts, Meld, Tile};
use crate::core::Seat;

/// What one seat sees when it has to decide, as owned data.
#[derive(Clone, Debug)]
pub struct Position {
    pub seat: Seat,
    pub hand: Counts,
    /// This seat's declared sets.
    pub melds: Vec<Meld>,
    /// Copies of each kind this seat cannot draw: visible discards and declared sets (all seats).
    pub seen: Counts,
    /// Every seat's discards (for the fold's safety rule) and declared-set counts.
    pub discards: [Vec<Tile>; 4],
    pub declared: [usize; 4],
    pub wall_left: usize,
}

impl Position {
    pub fn from_view(v: &View<'_>) -> Position {
        Position {
            seat: v.seat,
            hand: *v.hand,
            melds: v.own_melds().to_vec(),
            seen: *v.seen,
            discards: v.discards.clone(),
            declared: std::array::from_fn(|k| v.declared(k)),
            wall_left: v.wall_left,
        }
    }

    /// Copies of each kind not visible to this seat (not in its hand, not seen on the table).
    pub fn unseen(&self) -> Counts {
        std::array::from_fn(|k| 4u8.saturating_sub(self.hand[k] + self.seen[k]))
    }

    /// Draws this seat still gets from the live wall (one in four, rounded up).
    pub fn draws_left(&self) -> usize {
        self.wall_left.div_ceil(4)
    }
}

/// Fans of a self-drawn win on `win` with `concealed` standing tiles (without `win`), when it is
/// a win: a complete hand with at least `min_fans`. A complete hand below the minimum is not a win.
pub fn self_drawn_fans(melds: &[Meld], concealed: &Counts, win: Tile, seat: Seat, min_fans: u32) -> Option<u32> {
    let ctx = WinContext { self_drawn: true, seat_wind: (seat % 4) as u8, ..Default::default() };
    let h = WinningHand { melds, concealed, win_tile: win };
    score(&h, &ctx).map(|s| s.total).filter(|&f| f >= min_fans)
}

/// All fans of a complete hand (self-drawn), whatever the minimum; `None` when not complete.
pub fn hand_fans(melds: &[Meld], concealed: &Counts, win: Tile, seat: Seat) -> Option<u32> {
    self_drawn_fans(melds, concealed, win, seat, 0)
}

/// Hand counts packed 3 bits per kind (102 bits) for memo keys.
pub fn pack(h: &Counts) -> u128 {
    h.iter().enumerate().fold(0u128, |k, (i, &c)| k | (c as u128) << (3 * i))
}

/// A multiply-xorshift hasher for the u128 memo keys (the std SipHash is several times slower
/// and no key here comes from outside).
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let x = self.0.rotate_left(23) ^ (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let x = (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 = x ^ (x >> 32);
    }
}

/// Sets of path keys (final hand, discards) in the pruned search.
pub type KeySet = std::collections::HashSet<(u128, u128), BuildHasherDefault<KeyHasher>>;

pub type Memo = std::collections::HashMap<u128, f64, BuildHasherDefault<KeyHasher>>;

/// The counts after removing the tiles of a claimed set other than the claimed tile.
pub fn after_claim(hand: &Counts, meld: Meld, claimed: Tile) -> Counts {
    let mut h = *hand;
    let mut skipped = false;
    for x in meld.tiles() {
        if x == claimed && !skipped {
            skipped = true;
            continue;
        }
        h[x as usize] -= 1;
    }
    h
}

/// What both search bots do around their decision: always take a win, play a forced move without
/// searching, and never answer an action outside `legal` (a bug in a search must not forfeit).
pub(crate) fn act(v: &View<'_>, decide: impl FnOnce(&Position) -> super::engine::Action) -> super::engine::Action {
    use super::engine::Action;
    if v.legal.contains(&Action::Win) {
        return Action::Win;
    }
    if v.legal.len() == 1 {
        return v.legal[0];
    }
    let a = decide(&Position::from_view(v));
    debug_assert!(v.legal.contains(&a), "{a:?} not in {:?}", v.legal);
    if v.legal.contains(&a) {
        a
    } else {
        v.legal[0]
    }
}
