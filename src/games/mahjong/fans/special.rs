//! The shapes that are not (only) four sets and a pair: seven pairs, seven shifted pairs, honors
//! and knitted tiles, thirteen orphans, the knitted straight with a set and a pair, nine gates.

use super::regular::wait_fans_for;
use super::{
    adjust_by_rank_range, adjust_by_suits, adjust_by_tile_hog, adjust_by_tile_traits, adjust_by_win_flags,
    adjust_by_wind, final_adjust, is_unique_wait, Fan, FanTable, Prepared, HONORS,
};
use crate::games::mahjong::shanten::KNITTED;
use crate::games::mahjong::tiles::{MeldKind, Tile, TILE_KINDS};

const ORPHANS_MASK: u64 = super::mask_of(&[0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]);

/// Seven (shifted) pairs, honors and knitted tiles, thirteen orphans (concealed hands only).
pub(super) fn special_forms(p: &Prepared, t: &mut FanTable) -> bool {
    let c = &p.standing;
    if c.iter().all(|&n| n % 2 == 0) {
        if let Some(simples) = seven_shifted_pairs(p) {
            t[Fan::SevenShiftedPairs] = 1;
            if simples {
                t[Fan::AllSimples] = 1;
            }
            adjust_by_win_flags(p, t);
        } else {
            t[Fan::SevenPairs] = 1;
            adjust_by_suits(p.present, t);
            adjust_by_tile_traits(p.present, t);
            adjust_by_rank_range(p.present, t);
            adjust_by_tile_hog(c, 0, t);
            adjust_by_win_flags(p, t);
            final_adjust(t);
        }
        return true;
    }
    if p.present.count_ones() == 14 {
        let suited = p.present & !HONORS;
        let n = suited.count_ones();
        let in_knitted = KNITTED.iter().any(|k| suited & !k.iter().fold(0u64, |m, &x| m | 1 << x) == 0);
        if (7..=9).contains(&n) && in_knitted {
            if n == 7 {
                t[Fan::GreaterHonorsAndKnittedTiles] = 1;
            } else {
                t[Fan::LesserHonorsAndKnittedTiles] = 1;
                if n == 9 {
                    t[Fan::KnittedStraight] = 1;
                }
            }
            adjust_by_win_flags(p, t);
            return true;
        }
    }
    if p.present == ORPHANS_MASK {
        t[Fan::ThirteenOrphans] = 1;
        adjust_by_win_flags(p, t);
        return true;
    }
    false
}

/// Seven consecutive pairs of the winning tile's suit; `Some(true)` when they are 2..8.
fn seven_shifted_pairs(p: &Prepared) -> Option<bool> {
    if p.win >= 27 {
        return None;
    }
    let base = (p.win / 9 * 9) as usize;
    let c = &p.standing[base..base + 9];
    (0..3).find(|&start| (start..start + 7).all(|r| c[r] == 2)).map(|start| start == 1)
}

/// A knitted straight, one more set (standing, or the single declared set) and a pair.
pub(super) fn knitted_straight(p: &Prepared, t: &mut FanTable) -> bool {
    if !p.standing.iter().any(|&n| n >= 2) {
        return false;
    }
    let Some(k) = KNITTED.iter().find(|k| k.iter().all(|&x| p.standing[x as usize] > 0)) else {
        return false;
    };
    let mut rest = p.standing;
    for &x in k {
        rest[x as usize] -= 1;
    }
    // The fourth set: (is chow, tile (middle for a chow), melded, kong).
    let mut fourth = None;
    let mut pair = None;
    let mut ways = 0;
    if let Some(m) = p.melds.first() {
        if let Some(pt) = (0..TILE_KINDS).find(|&x| rest[x] == 2) {
            let chow = m.kind == MeldKind::Chow;
            let tile = if chow { m.tile + 1 } else { m.tile };
            let kong = matches!(m.kind, MeldKind::Kong | MeldKind::ConcealedKong);
            fourth = Some((chow, tile, m.kind != MeldKind::ConcealedKong, kong));
            pair = Some(pt as Tile);
            ways = 1;
        }
    } else {
        for pt in (0..TILE_KINDS).filter(|&x| rest[x] >= 2) {
            let mut r = rest;
            r[pt] -= 2;
            let Some(s) = (0..TILE_KINDS).find(|&x| r[x] > 0) else {
                continue;
            };
            if r[s] == 3 {
                fourth = Some((false, s as Tile, false, false));
            } else if s < 27 && s % 9 <= 6 && r[s] == 1 && r[s + 1] == 1 && r[s + 2] == 1 {
                fourth = Some((true, s as Tile + 1, false, false));
            } else {
                continue;
            }
            pair = Some(pt as Tile);
            ways += 1;
        }
    }
    let (Some((chow, tile, melded, kong)), Some(pair), 1) = (fourth, pair, ways) else {
        return false;
    };
    t[Fan::KnittedStraight] = 1;
    let total = |x: Tile| p.fixed[x as usize] + p.standing[x as usize];
    if chow {
        if pair < 27 {
            t[Fan::AllChows] = 1;
        }
        if total(pair) == 4 {
            t[Fan::TileHog] = 1;
        }
    } else if tile >= 27 {
        if tile < 31 {
            t[Fan::PungOfTerminalsOrHonors] = 1;
            adjust_by_wind(tile, p, t);
            if pair >= 31 {
                t[Fan::AllTypes] = 1;
            }
        } else {
            t[Fan::DragonPung] = 1;
            if (27..31).contains(&pair) {
                t[Fan::AllTypes] = 1;
            }
        }
    } else {
        if tile % 9 == 0 || tile % 9 == 8 {
            t[Fan::PungOfTerminalsOrHonors] = 1;
        }
        if pair < 27 {
            t[Fan::NoHonors] = 1;
        }
        if !kong && total(tile) == 4 {
            t[Fan::TileHog] = 1;
        }
    }
    adjust_by_win_flags(p, t);
    if melded {
        if kong {
            t[Fan::MeldedKong] = 1;
        }
    } else {
        if kong {
            t[Fan::ConcealedKong] = 1;
        }
        if p.self_drawn {
            t[Fan::FullyConcealedHand] = 1;
            t[Fan::SelfDrawn] = 0;
        } else {
            t[Fan::ConcealedHand] = 1;
        }
    }
    // Wait fans, read as the reference reads them: the straight counts as complete, and the
    // winning tile earns a wait fan only as a tile of the set or the pair (its kind may be in the
    // straight too). Concealed: the set and pair less the winning tile must wait on that kind
    // alone. With a declared set, the standing tiles are the straight and the pair, so the wait
    // is Single Wait exactly when the winning tile is the pair's.
    if p.melds.is_empty() {
        if rest[p.win as usize] > 0 && is_unique_wait(&rest, 4, p.win) {
            wait_fans_for(chow.then_some(tile), pair, p.win, t);
        }
    } else if pair == p.win {
        t[Fan::SingleWait] = 1;
    }
    final_adjust(t);
    true
}

/// Nine gates: 1112345678999 of one suit plus any tile of that suit, concealed.
pub(super) fn nine_gates(p: &Prepared, t: &mut FanTable) -> bool {
    if p.win >= 27 {
        return false;
    }
    let base = (p.win / 9 * 9) as usize;
    let c = &p.standing[base..base + 9];
    let r = (p.win % 9) as usize;
    let mut want = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    want[r] += 1;
    if c != want {
        return false;
    }
    t[Fan::NineGates] = 1;
    match r + 1 {
        1 | 9 => {
            t[Fan::PureStraight] = 1;
            t[Fan::TileHog] = 1;
        }
        2 | 8 => {
            t[Fan::TwoConcealedPungs] = 1;
            t[Fan::ShortStraight] = 1;
            t[Fan::PungOfTerminalsOrHonors] = 1;
        }
        5 => {
            t[Fan::TwoConcealedPungs] = 1;
            t[Fan::PungOfTerminalsOrHonors] = 1;
        }
        _ => t[Fan::ShortStraight] = 1,
    }
    adjust_by_win_flags(p, t);
    true
}
