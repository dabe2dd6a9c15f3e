//! Standard hands (four sets and a pair): every split of the standing tiles, scored, best kept.

use super::sets::{self, code, Code};
use super::{
    adjust_by_rank_range, adjust_by_suits, adjust_by_tile_hog, adjust_by_tile_traits, adjust_by_win_flags,
    adjust_by_wind, final_adjust, is_unique_wait, Fan, FanTable, Prepared,
};
use crate::games::mahjong::tiles::{Counts, MeldKind, Tile, TILE_KINDS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Chow,
    Pung,
    Kong,
}

/// One set of a split. `tile` is the middle tile of a chow, the tile of a pung or kong.
#[derive(Clone, Copy, Debug)]
struct Set {
    kind: Kind,
    tile: Tile,
    melded: bool,
}

impl Set {
    fn code(&self) -> Code {
        code(self.tile)
    }
}

#[derive(Clone, Copy, Debug)]
struct Split {
    sets: [Set; 4],
    pair: Tile,
    /// Sort key of the standing sets, so splits are visited in the reference's order.
    key: [u8; 4],
}

const MAX_SPLITS: usize = 32;
const NO_SET: Set = Set { kind: Kind::Pung, tile: 0, melded: false };

struct Splits {
    list: [Split; MAX_SPLITS],
    len: usize,
}

/// All splits of the standing tiles into `need` sets and a pair, lowest tile first.
fn split_all(c: &mut Counts, start: usize, work: &mut Split, idx: usize, pair: bool, out: &mut Splits) {
    let Some(t) = (start..TILE_KINDS).find(|&t| c[t] > 0) else {
        if idx == 4 && pair && out.len < MAX_SPLITS {
            out.list[out.len] = *work;
            out.len += 1;
        }
        return;
    };
    if !pair && c[t] >= 2 {
        c[t] -= 2;
        work.pair = t as Tile;
        split_all(c, t, work, idx, true, out);
        c[t] += 2;
    }
    if idx == 4 {
        return;
    }
    if c[t] >= 3 {
        c[t] -= 3;
        work.sets[idx] = Set { kind: Kind::Pung, tile: t as Tile, melded: false };
        split_all(c, t, work, idx + 1, pair, out);
        c[t] += 3;
    }
    if t < 27 && t % 9 <= 6 && c[t + 1] > 0 && c[t + 2] > 0 {
        c[t] -= 1;
        c[t + 1] -= 1;
        c[t + 2] -= 1;
        work.sets[idx] = Set { kind: Kind::Chow, tile: t as Tile + 1, melded: false };
        split_all(c, t, work, idx + 1, pair, out);
        c[t] += 1;
        c[t + 1] += 1;
        c[t + 2] += 1;
    }
}

/// Scores every split and returns the best table (`None` when there is no split, or none beats
/// `floor`). Ties go as in the reference: a later split with Pure Triple Chow or Triple Pung (or
/// any split that ties a seven-pairs reading) replaces the earlier one.
pub(super) fn best_split(p: &Prepared, floor: u32, seven_pairs: bool) -> Option<FanTable> {
    let fixed_n = p.melds.len();
    let mut work = Split { sets: [NO_SET; 4], pair: 0, key: [0; 4] };
    for (i, m) in p.melds.iter().enumerate() {
        work.sets[i] = match m.kind {
            MeldKind::Chow => Set { kind: Kind::Chow, tile: m.tile + 1, melded: true },
            MeldKind::Pung => Set { kind: Kind::Pung, tile: m.tile, melded: true },
            MeldKind::Kong => Set { kind: Kind::Kong, tile: m.tile, melded: true },
            MeldKind::ConcealedKong => Set { kind: Kind::Kong, tile: m.tile, melded: false },
        };
    }
    let mut splits = Splits { list: [work; MAX_SPLITS], len: 0 };
    let mut c = p.standing;
    split_all(&mut c, 0, &mut work, fixed_n, false, &mut splits);
    if splits.len == 0 {
        return None;
    }
    let list = &mut splits.list[..splits.len];
    for s in list.iter_mut() {
        let mut key = [u8::MAX; 4];
        for (k, set) in key.iter_mut().zip(&s.sets[fixed_n..]) {
            // (start tile, pung before chow), the order of the reference's search.
            let start = if set.kind == Kind::Chow { set.tile - 1 } else { set.tile };
            *k = start * 2 + (set.kind == Kind::Chow) as u8;
        }
        key.sort_unstable();
        s.key = key;
    }
    list.sort_by_key(|s| s.key);

    let n_standing = p.standing.iter().map(|&c| c as usize).sum::<usize>() - 1;
    let unique_wait = is_unique_wait(&p.standing, n_standing, p.win);
    let mut best = floor;
    let mut chosen = None;
    for s in list.iter() {
        let mut t = FanTable::default();
        score_split(p, s, unique_wait, &mut t);
        let total = t.total();
        if total > best || (total == best && (t[Fan::PureTripleChow] == 1 || seven_pairs || t[Fan::TriplePung] != 0)) {
            best = total;
            chosen = Some(t);
        }
    }
    chosen
}

fn score_split(p: &Prepared, s: &Split, unique_wait: bool, t: &mut FanTable) {
    let mut chows = [0 as Code; 4];
    let mut pungs = [0 as Code; 4];
    let (mut nc, mut np) = (0, 0);
    let (mut concealed_pungs, mut melded_kongs, mut concealed_kongs) = (0, 0, 0);
    for set in &s.sets {
        match set.kind {
            Kind::Chow => {
                chows[nc] = set.code();
                nc += 1;
            }
            Kind::Pung => {
                pungs[np] = set.code();
                np += 1;
                concealed_pungs += !set.melded as i32;
            }
            Kind::Kong => {
                pungs[np] = set.code();
                np += 1;
                if set.melded {
                    melded_kongs += 1;
                } else {
                    concealed_kongs += 1;
                }
            }
        }
    }

    adjust_by_win_flags(p, t);

    // On a discard, a pung completed by the winning tile is melded, unless the tile can be read
    // as part of a standing chow.
    if !p.self_drawn {
        let in_chow = s.sets.iter().any(|x| {
            x.kind == Kind::Chow && !x.melded && (x.tile == p.win || x.tile + 1 == p.win || x.tile == p.win + 1)
        });
        if !in_chow {
            concealed_pungs -=
                s.sets.iter().filter(|x| x.kind == Kind::Pung && !x.melded && x.tile == p.win).count() as i32;
        }
    }

    if np > 0 {
        kongs_and_concealed_pungs(concealed_pungs, melded_kongs, concealed_kongs, t);
        if np == 4 && t[Fan::FourKongs] == 0 && t[Fan::FourConcealedPungs] == 0 {
            t[Fan::AllPungs] = 1;
        }
        for &c in &pungs[..np] {
            if let Some(f) = sets::one_pung_fan(c) {
                t[f] += 1;
            }
        }
    }

    let pair = code(s.pair);
    match nc {
        4 => {
            if three_suited_terminal_chows(&chows, pair) {
                t[Fan::ThreeSuitedTerminalChows] = 1;
            } else if pure_terminal_chows(&chows, pair) {
                t[Fan::PureTerminalChows] = 1;
            } else {
                chows.sort_unstable();
                sets::four_chows(chows, t);
            }
        }
        3 => {
            let mut c = [chows[0], chows[1], chows[2]];
            c.sort_unstable();
            sets::three_chows(c, t);
        }
        2 => {
            sets::two_chows(chows[0], chows[1], t);
            sets::two_pungs(pungs[0], pungs[1], t);
        }
        1 => {
            let mut c = [pungs[0], pungs[1], pungs[2]];
            c.sort_unstable();
            sets::three_pungs(c, t);
        }
        _ => {
            pungs.sort_unstable();
            sets::four_pungs(pungs, t);
        }
    }

    // Concealed Hand / Fully Concealed Hand / Melded Hand / Self-Drawn.
    let melded = p.melds.iter().filter(|m| m.kind != MeldKind::ConcealedKong).count();
    match melded {
        0 => t[if p.self_drawn { Fan::FullyConcealedHand } else { Fan::ConcealedHand }] = 1,
        4 => t[if p.self_drawn { Fan::SelfDrawn } else { Fan::MeldedHand }] = 1,
        _ if p.self_drawn => t[Fan::SelfDrawn] = 1,
        _ => {}
    }

    adjust_by_pair(pair, nc, t);
    adjust_by_set_traits(s, t);
    adjust_by_suits(p.present, t);
    adjust_by_tile_traits(p.present, t);
    adjust_by_rank_range(p.present, t);
    if t[Fan::QuadrupleChow] == 0 {
        let mut all = p.standing;
        for (a, f) in all.iter_mut().zip(&p.fixed) {
            *a += f;
        }
        adjust_by_tile_hog(&all, (melded_kongs + concealed_kongs) as usize, t);
    }
    if unique_wait && t[Fan::MeldedHand] == 0 && t[Fan::FourKongs] == 0 {
        wait_fans(&s.sets[p.melds.len()..], s.pair, p.win, t);
    }
    final_adjust(t);
    if t[Fan::BigFourWinds] == 0 {
        for set in &s.sets {
            if set.kind != Kind::Chow && (27..31).contains(&set.tile) {
                adjust_by_wind(set.tile, p, t);
            }
        }
    }
    if t.is_empty() {
        t[Fan::ChickenHand] = 1;
    }
}

/// Kong fans and the concealed-pung fans, which count concealed kongs as concealed pungs.
fn kongs_and_concealed_pungs(cp: i32, mk: i32, ck: i32, t: &mut FanTable) {
    // Concealed pungs including concealed kongs decide the concealed-pung fan...
    let concealed = cp + ck;
    let concealed_fan = |t: &mut FanTable, n: i32| match n {
        2 => t[Fan::TwoConcealedPungs] = 1,
        3 => t[Fan::ThreeConcealedPungs] = 1,
        4 => t[Fan::FourConcealedPungs] = 1,
        _ => {}
    };
    // ...and the kongs their own fan.
    match (mk + ck, ck) {
        (0, _) => {}
        (1, 0) => t[Fan::MeldedKong] = 1,
        (1, _) => t[Fan::ConcealedKong] = 1,
        (2, 0) => t[Fan::TwoMeldedKongs] = 1,
        (2, 1) => t[Fan::ConcealedKongAndMeldedKong] = 1,
        (2, _) => t[Fan::TwoConcealedKongs] = 1,
        (3, _) => t[Fan::ThreeKongs] = 1,
        _ => t[Fan::FourKongs] = 1,
    }
    // Two concealed kongs already imply two concealed pungs.
    if !(mk == 0 && ck == 2 && cp == 0) {
        concealed_fan(t, concealed);
    }
}

fn pure_terminal_chows(chows: &[Code; 4], pair: Code) -> bool {
    if !sets::is_suited(pair) || pair & 15 != 5 {
        return false;
    }
    let same_suit = chows.iter().all(|&c| c >> 4 == pair >> 4);
    let low = chows.iter().filter(|&&c| c & 15 == 2).count();
    let high = chows.iter().filter(|&&c| c & 15 == 8).count();
    same_suit && low == 2 && high == 2
}

fn three_suited_terminal_chows(chows: &[Code; 4], pair: Code) -> bool {
    if !sets::is_suited(pair) || pair & 15 != 5 {
        return false;
    }
    let has = |c: Code| chows.contains(&c);
    chows.iter().all(|&c| c >> 4 != pair >> 4)
        && (1..4).filter(|&s| s != pair >> 4).all(|s| has(s << 4 | 2) && has(s << 4 | 8))
}

/// All Chows; Little Three Dragons / Little Four Winds from the pair.
fn adjust_by_pair(pair: Code, chows: usize, t: &mut FanTable) {
    if chows == 4 {
        if sets::is_suited(pair) {
            t[Fan::AllChows] = 1;
        }
        return;
    }
    if t[Fan::TwoDragonsPungs] != 0 {
        if sets::is_dragon(pair) {
            t[Fan::LittleThreeDragons] = 1;
            t[Fan::TwoDragonsPungs] = 0;
        }
        return;
    }
    if t[Fan::BigThreeWinds] != 0 && (0x41..=0x44).contains(&pair) {
        t[Fan::LittleFourWinds] = 1;
        t[Fan::BigThreeWinds] = 0;
    }
}

/// Outside Hand, All Five, All Even Pungs: a property of every set and the pair.
fn adjust_by_set_traits(s: &Split, t: &mut FanTable) {
    let (mut outside, mut five, mut even) = (0, 0, 0);
    let items = s.sets.iter().map(|x| (x.kind == Kind::Chow, x.tile)).chain([(false, s.pair)]);
    for (chow, tile) in items {
        if tile >= 27 {
            outside += 1;
            continue;
        }
        let r = tile % 9 + 1;
        match (chow, r) {
            (true, 2 | 8) | (false, 1 | 9) => outside += 1,
            (true, 4..=6) | (false, 5) => five += 1,
            (false, 2 | 4 | 6 | 8) => even += 1,
            _ => {}
        }
    }
    if outside == 5 {
        t[Fan::OutsideHand] = 1;
    } else if five == 5 {
        t[Fan::AllFive] = 1;
    } else if even == 5 {
        t[Fan::AllEvenPungs] = 1;
    }
}

/// Edge / Closed / Single Wait (only for a one-kind wait), read from the standing sets.
fn wait_fans(standing_sets: &[Set], pair: Tile, win: Tile, t: &mut FanTable) {
    let (mut edge, mut closed) = (false, false);
    for x in standing_sets {
        if x.kind == Kind::Chow {
            if x.tile == win {
                closed = true;
            } else if x.tile + 1 == win || x.tile == win + 1 {
                edge = true;
            }
        }
    }
    if edge {
        t[Fan::EdgeWait] = 1;
    } else if closed {
        t[Fan::ClosedWait] = 1;
    } else if pair == win {
        t[Fan::SingleWait] = 1;
    }
}

/// For the knitted-straight hand: the fourth set of the hand as a standing chow/pung, for the wait.
pub(super) fn wait_fans_for(set_chow_mid: Option<Tile>, pair: Tile, win: Tile, t: &mut FanTable) {
    match set_chow_mid {
        Some(m) => wait_fans(&[Set { kind: Kind::Chow, tile: m, melded: false }], pair, win, t),
        None => wait_fans(&[], pair, win, t),
    }
}
