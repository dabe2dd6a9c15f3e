//! Fans made by combining sets: chows with chows, pungs with pungs, and the "account once" rule.
//!
//! Sets are identified by a code `suit << 4 | rank` (suits 1 = m, 2 = s, 3 = p, 4 = honors with
//! ranks E=1 .. P=7; a chow by its middle tile), so "three consecutive" is plain arithmetic that
//! can never run across a suit. Lists of codes are sorted ascending before these are called.

use super::{Fan, FanTable};
use crate::games::mahjong::tiles::Tile;

pub type Code = u8;

pub fn code(t: Tile) -> Code {
    if t >= 27 {
        0x40 | (t - 26)
    } else {
        ((t / 9 + 1) << 4) | (t % 9 + 1)
    }
}

fn suit(c: Code) -> u8 {
    c >> 4
}

fn rank(c: Code) -> u8 {
    c & 15
}

pub fn is_suited(c: Code) -> bool {
    suit(c) < 4
}

fn is_wind(c: Code) -> bool {
    (0x41..=0x44).contains(&c)
}

pub fn is_dragon(c: Code) -> bool {
    (0x45..=0x47).contains(&c)
}

fn is_terminal(c: Code) -> bool {
    is_suited(c) && (rank(c) == 1 || rank(c) == 9)
}

fn all_suits_differ(a: Code, b: Code, c: Code) -> bool {
    suit(a) != suit(b) && suit(a) != suit(c) && suit(b) != suit(c)
}

/// Three ranks that are consecutive in some order.
fn consecutive_ranks(a: Code, b: Code, c: Code) -> bool {
    let mut r = [rank(a), rank(b), rank(c)];
    r.sort_unstable();
    r[0] + 1 == r[1] && r[1] + 1 == r[2]
}

fn four_chows_fan(t: [Code; 4]) -> Option<Fan> {
    let step = |d: u8| t[0] + d == t[1] && t[1] + d == t[2] && t[2] + d == t[3];
    if step(2) || step(1) {
        Some(Fan::FourPureShiftedChows)
    } else if step(0) {
        Some(Fan::QuadrupleChow)
    } else {
        None
    }
}

fn three_chows_fan(a: Code, b: Code, c: Code) -> Option<Fan> {
    if all_suits_differ(a, b, c) {
        let mut r = [rank(a), rank(b), rank(c)];
        r.sort_unstable();
        if consecutive_ranks(a, b, c) {
            Some(Fan::MixedShiftedChows)
        } else if r[0] == r[2] {
            Some(Fan::MixedTripleChow)
        } else if r == [2, 5, 8] {
            Some(Fan::MixedStraight)
        } else {
            None
        }
    } else if a + 3 == b && b + 3 == c {
        Some(Fan::PureStraight)
    } else if (a + 2 == b && b + 2 == c) || (a + 1 == b && b + 1 == c) {
        Some(Fan::PureShiftedChows)
    } else if a == b && b == c {
        Some(Fan::PureTripleChow)
    } else {
        None
    }
}

fn two_chows_fan(a: Code, b: Code) -> Option<Fan> {
    if suit(a) != suit(b) {
        (rank(a) == rank(b)).then_some(Fan::MixedDoubleChow)
    } else if a + 3 == b || b + 3 == a {
        Some(Fan::ShortStraight)
    } else if (rank(a) == 2 && rank(b) == 8) || (rank(a) == 8 && rank(b) == 2) {
        Some(Fan::TwoTerminalChows)
    } else if a == b {
        Some(Fan::PureDoubleChow)
    } else {
        None
    }
}

/// The two-chow fans, in the order the trimming below walks them.
const PAIR_FANS: [Fan; 4] = [Fan::PureDoubleChow, Fan::MixedDoubleChow, Fan::ShortStraight, Fan::TwoTerminalChows];

/// "Account once": at most `max` two-chow fans; the surplus is taken from the repeated kinds
/// first (down to one of each, from Two Terminal Chows upwards), then from any.
fn keep_at_most(fans: &[Option<Fan>], max: usize, t: &mut FanTable) {
    let mut n = [0i8; 4];
    let mut total = 0;
    for f in fans.iter().flatten() {
        n[PAIR_FANS.iter().position(|p| p == f).unwrap()] += 1;
        total += 1;
    }
    for limit in [1, 0] {
        for i in (0..4).rev() {
            while n[i] > limit && total > max {
                n[i] -= 1;
                total -= 1;
            }
        }
    }
    for i in 0..4 {
        t[PAIR_FANS[i]] = n[i];
    }
}

/// With a three-chow fan, the fourth chow adds at most one fan with the other three.
fn extra_chow_fan(three: [Code; 3], extra: Code) -> Option<Fan> {
    let fans = three.map(|c| two_chows_fan(c, extra));
    PAIR_FANS.into_iter().find(|f| fans.contains(&Some(*f)))
}

pub fn four_chows(t: [Code; 4], out: &mut FanTable) {
    if let Some(f) = four_chows_fan(t) {
        out[f] = 1;
        return;
    }
    for (skip, three) in [(3, [0, 1, 2]), (2, [0, 1, 3]), (1, [0, 2, 3]), (0, [1, 2, 3])] {
        let three = three.map(|i| t[i]);
        if let Some(f) = three_chows_fan(three[0], three[1], three[2]) {
            out[f] = 1;
            if let Some(e) = extra_chow_fan(three, t[skip]) {
                out[e] = 1;
            }
            return;
        }
    }
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let fans = pairs.map(|(i, j)| two_chows_fan(t[i], t[j]));
    // Each chow that combines with none of the others lowers the allowance of three.
    let lonely =
        (0..4).filter(|&k| pairs.iter().zip(&fans).all(|(&(i, j), f)| f.is_none() || (i != k && j != k))).count();
    let max = 3usize.saturating_sub(lonely);
    if max > 0 {
        keep_at_most(&fans, max, out);
    }
}

pub fn three_chows(t: [Code; 3], out: &mut FanTable) {
    if let Some(f) = three_chows_fan(t[0], t[1], t[2]) {
        out[f] = 1;
        return;
    }
    let fans = [two_chows_fan(t[0], t[1]), two_chows_fan(t[0], t[2]), two_chows_fan(t[1], t[2])];
    keep_at_most(&fans, 2, out);
}

pub fn two_chows(a: Code, b: Code, out: &mut FanTable) {
    if let Some(f) = two_chows_fan(a, b) {
        out[f] += 1;
    }
}

fn four_pungs_fan(t: [Code; 4]) -> Option<Fan> {
    if is_suited(t[0]) && t[0] + 1 == t[1] && t[1] + 1 == t[2] && t[2] + 1 == t[3] {
        Some(Fan::FourPureShiftedPungs)
    } else if t == [0x41, 0x42, 0x43, 0x44] {
        Some(Fan::BigFourWinds)
    } else {
        None
    }
}

fn three_pungs_fan(a: Code, b: Code, c: Code) -> Option<Fan> {
    if is_suited(a) && is_suited(b) && is_suited(c) {
        if all_suits_differ(a, b, c) {
            if consecutive_ranks(a, b, c) {
                Some(Fan::MixedShiftedPungs)
            } else if rank(a) == rank(b) && rank(b) == rank(c) {
                Some(Fan::TriplePung)
            } else {
                None
            }
        } else {
            (a + 1 == b && b + 1 == c).then_some(Fan::PureShiftedPungs)
        }
    } else if is_wind(a) && is_wind(b) && is_wind(c) {
        Some(Fan::BigThreeWinds)
    } else if [a, b, c] == [0x45, 0x46, 0x47] {
        Some(Fan::BigThreeDragons)
    } else {
        None
    }
}

fn two_pungs_fan(a: Code, b: Code) -> Option<Fan> {
    if is_suited(a) && is_suited(b) {
        (rank(a) == rank(b)).then_some(Fan::DoublePung)
    } else {
        (is_dragon(a) && is_dragon(b)).then_some(Fan::TwoDragonsPungs)
    }
}

pub fn one_pung_fan(c: Code) -> Option<Fan> {
    if is_dragon(c) {
        Some(Fan::DragonPung)
    } else if is_terminal(c) || is_wind(c) {
        Some(Fan::PungOfTerminalsOrHonors)
    } else {
        None
    }
}

fn pairwise_pungs(t: &[Code], out: &mut FanTable) {
    for i in 0..t.len() {
        for j in i + 1..t.len() {
            if let Some(f) = two_pungs_fan(t[i], t[j]) {
                out[f] += 1;
            }
        }
    }
}

pub fn four_pungs(t: [Code; 4], out: &mut FanTable) {
    if let Some(f) = four_pungs_fan(t) {
        out[f] = 1;
        return;
    }
    for (free, three) in [(3, [0, 1, 2]), (2, [0, 1, 3]), (1, [0, 2, 3]), (0, [1, 2, 3])] {
        if let Some(f) = three_pungs_fan(t[three[0]], t[three[1]], t[three[2]]) {
            out[f] = 1;
            // The fourth pung combines once at most.
            if let Some(e) = three.iter().find_map(|&i| two_pungs_fan(t[i], t[free])) {
                out[e] += 1;
            }
            return;
        }
    }
    pairwise_pungs(&t, out);
}

pub fn three_pungs(t: [Code; 3], out: &mut FanTable) {
    if let Some(f) = three_pungs_fan(t[0], t[1], t[2]) {
        out[f] = 1;
        return;
    }
    pairwise_pungs(&t, out);
}

pub fn two_pungs(a: Code, b: Code, out: &mut FanTable) {
    pairwise_pungs(&[a, b], out);
}
