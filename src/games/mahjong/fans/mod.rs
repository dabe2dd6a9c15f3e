//! The MCR (Chinese Official) fan calculator: all 81 fans plus "Concealed Kong and Melded Kong"
//! (5), scored as the reference calculator does (PyPI `pymahjonggb` 1.4.0, the one Botzone uses):
//! same fan names, same exclusions ("a fan implied by a bigger one is not counted again", the
//! "account once" rule for chow combinations), and the best total over all decompositions.
//!
//! Flow (see [`score`]): correct the context flags (a fourth tile that the hand itself holds is not
//! "Last Tile", ...), try the special shapes of a concealed hand (seven pairs, honors and knitted
//! tiles, thirteen orphans, knitted straight, nine gates), otherwise (and also for seven pairs,
//! which a standard split can beat) split the standing tiles into sets and a pair every possible
//! way and keep the best. Per split: set-combination fans ([`sets`]), then the adjustments by
//! self-draw, pair, set traits, suits, tile traits, rank range, tile hog, wait, the exclusion
//! table, and the winds.

mod regular;
mod sets;
mod special;

use super::tiles::{Counts, Meld, MeldKind, Tile, TILE_KINDS};

/// Every fan, in the reference's order (its output order; `pymahjonggb` lists its extra fan last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Fan {
    BigFourWinds,
    BigThreeDragons,
    AllGreen,
    NineGates,
    FourKongs,
    SevenShiftedPairs,
    ThirteenOrphans,
    AllTerminals,
    LittleFourWinds,
    LittleThreeDragons,
    AllHonors,
    FourConcealedPungs,
    PureTerminalChows,
    QuadrupleChow,
    FourPureShiftedPungs,
    FourPureShiftedChows,
    ThreeKongs,
    AllTerminalsAndHonors,
    SevenPairs,
    GreaterHonorsAndKnittedTiles,
    AllEvenPungs,
    FullFlush,
    PureTripleChow,
    PureShiftedPungs,
    UpperTiles,
    MiddleTiles,
    LowerTiles,
    PureStraight,
    ThreeSuitedTerminalChows,
    PureShiftedChows,
    AllFive,
    TriplePung,
    ThreeConcealedPungs,
    LesserHonorsAndKnittedTiles,
    KnittedStraight,
    UpperFour,
    LowerFour,
    BigThreeWinds,
    MixedStraight,
    ReversibleTiles,
    MixedTripleChow,
    MixedShiftedPungs,
    ChickenHand,
    LastTileDraw,
    LastTileClaim,
    OutWithReplacementTile,
    RobbingTheKong,
    AllPungs,
    HalfFlush,
    MixedShiftedChows,
    AllTypes,
    MeldedHand,
    TwoConcealedKongs,
    TwoDragonsPungs,
    OutsideHand,
    FullyConcealedHand,
    TwoMeldedKongs,
    LastTile,
    DragonPung,
    PrevalentWind,
    SeatWind,
    ConcealedHand,
    AllChows,
    TileHog,
    DoublePung,
    TwoConcealedPungs,
    ConcealedKong,
    AllSimples,
    PureDoubleChow,
    MixedDoubleChow,
    ShortStraight,
    TwoTerminalChows,
    PungOfTerminalsOrHonors,
    MeldedKong,
    OneVoidedSuit,
    NoHonors,
    EdgeWait,
    ClosedWait,
    SingleWait,
    SelfDrawn,
    FlowerTiles,
    /// Not an official fan: the reference's extra, listed last as it lists it.
    ConcealedKongAndMeldedKong,
}

pub const FAN_COUNT: usize = 82;

/// `(English name as the reference writes it, points per unit)`, in [`Fan`] order.
pub const FANS: [(&str, u8); FAN_COUNT] = [
    ("Big Four Winds", 88),
    ("Big Three Dragons", 88),
    ("All Green", 88),
    ("Nine Gates", 88),
    ("Four Kongs", 88),
    ("Seven Shifted Pairs", 88),
    ("Thirteen Orphans", 88),
    ("All Terminals", 64),
    ("Little Four Winds", 64),
    ("Little Three Dragons", 64),
    ("All Honors", 64),
    ("Four Concealed Pungs", 64),
    ("Pure Terminal Chows", 64),
    ("Quadruple Chow", 48),
    ("Four Pure Shifted Pungs", 48),
    ("Four Pure Shifted Chows", 32),
    ("Three Kongs", 32),
    ("All Terminals and Honors", 32),
    ("Seven Pairs", 24),
    ("Greater Honors and Knitted Tiles", 24),
    ("All Even Pungs", 24),
    ("Full Flush", 24),
    ("Pure Triple Chow", 24),
    ("Pure Shifted Pungs", 24),
    ("Upper Tiles", 24),
    ("Middle Tiles", 24),
    ("Lower Tiles", 24),
    ("Pure Straight", 16),
    ("Three-Suited Terminal Chows", 16),
    ("Pure Shifted Chows", 16),
    ("All Five", 16),
    ("Triple Pung", 16),
    ("Three Concealed Pungs", 16),
    ("Lesser Honors and Knitted Tiles", 12),
    ("Knitted Straight", 12),
    ("Upper Four", 12),
    ("Lower Four", 12),
    ("Big Three Winds", 12),
    ("Mixed Straight", 8),
    ("Reversible Tiles", 8),
    ("Mixed Triple Chow", 8),
    ("Mixed Shifted Pungs", 8),
    ("Chicken Hand", 8),
    ("Last Tile Draw", 8),
    ("Last Tile Claim", 8),
    ("Out with Replacement Tile", 8),
    ("Robbing The Kong", 8),
    ("All Pungs", 6),
    ("Half Flush", 6),
    ("Mixed Shifted Chows", 6),
    ("All Types", 6),
    ("Melded Hand", 6),
    ("Two Concealed Kongs", 6),
    ("Two Dragons Pungs", 6),
    ("Outside Hand", 4),
    ("Fully Concealed Hand", 4),
    ("Two Melded Kongs", 4),
    ("Last Tile", 4),
    ("Dragon Pung", 2),
    ("Prevalent Wind", 2),
    ("Seat Wind", 2),
    ("Concealed Hand", 2),
    ("All Chows", 2),
    ("Tile Hog", 2),
    ("Double Pung", 2),
    ("Two Concealed Pungs", 2),
    ("Concealed Kong", 2),
    ("All Simples", 2),
    ("Pure Double Chow", 1),
    ("Mixed Double Chow", 1),
    ("Short Straight", 1),
    ("Two Terminal Chows", 1),
    ("Pung of Terminals or Honors", 1),
    ("Melded Kong", 1),
    ("One Voided Suit", 1),
    ("No Honors", 1),
    ("Edge Wait", 1),
    ("Closed Wait", 1),
    ("Single Wait", 1),
    ("Self-Drawn", 1),
    ("Flower Tiles", 1),
    ("Concealed Kong and Melded Kong", 5),
];

impl Fan {
    pub const ALL: [Fan; FAN_COUNT] = {
        let mut out = [Fan::BigFourWinds; FAN_COUNT];
        let mut i = 0;
        while i < FAN_COUNT {
            // SAFETY: `Fan` is `repr(u8)` with the dense discriminants 0..FAN_COUNT (a test checks
            // that every name maps back to its index).
            out[i] = unsafe { std::mem::transmute::<u8, Fan>(i as u8) };
            i += 1;
        }
        out
    };

    pub fn name(self) -> &'static str {
        FANS[self as usize].0
    }

    pub fn points(self) -> u32 {
        FANS[self as usize].1 as u32
    }

    pub fn from_name(name: &str) -> Option<Fan> {
        FANS.iter().position(|f| f.0 == name).map(|i| Fan::ALL[i])
    }
}

/// How many times each fan counts (signed while adjusting, as the exclusions subtract).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FanTable(pub [i8; FAN_COUNT]);

impl Default for FanTable {
    fn default() -> Self {
        FanTable([0; FAN_COUNT])
    }
}

impl std::ops::Index<Fan> for FanTable {
    type Output = i8;
    fn index(&self, f: Fan) -> &i8 {
        &self.0[f as usize]
    }
}

impl std::ops::IndexMut<Fan> for FanTable {
    fn index_mut(&mut self, f: Fan) -> &mut i8 {
        &mut self.0[f as usize]
    }
}

impl FanTable {
    pub fn total(&self) -> u32 {
        self.0.iter().zip(FANS.iter()).map(|(&n, f)| n.max(0) as u32 * f.1 as u32).sum()
    }

    /// The fans that count, in the reference's order, with their counts.
    pub fn fans(&self) -> impl Iterator<Item = (Fan, u32)> + '_ {
        self.0.iter().enumerate().filter(|(_, &n)| n > 0).map(|(i, &n)| (Fan::ALL[i], n as u32))
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }
}

/// How the hand was won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WinContext {
    pub self_drawn: bool,
    /// The winning tile is the last copy ("Last Tile").
    pub fourth_tile: bool,
    /// Self-drawn: replacement tile after a kong; on a discard: robbing a kong.
    pub kong_related: bool,
    /// The last tile of the wall (drawn or claimed).
    pub last_wall_tile: bool,
    pub flowers: u8,
    /// 0 = East .. 3 = North.
    pub seat_wind: u8,
    pub prevalent_wind: u8,
}

/// A winning hand as the calculator reads it.
#[derive(Clone, Copy, Debug)]
pub struct WinningHand<'a> {
    pub melds: &'a [Meld],
    /// Standing tiles without the winning tile.
    pub concealed: &'a Counts,
    pub win_tile: Tile,
}

/// The fans of the best reading, with `total` including the flowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub table: FanTable,
    pub total: u32,
}

/// Everything the per-split scoring needs, computed once per hand.
struct Prepared<'a> {
    melds: &'a [Meld],
    /// Tiles of the declared sets.
    fixed: Counts,
    /// Standing tiles with the winning tile.
    standing: Counts,
    /// Kinds present anywhere in the hand.
    present: u64,
    win: Tile,
    self_drawn: bool,
    last_tile: bool,
    kong: bool,
    wall_last: bool,
    seat: u8,
    prevalent: u8,
}

/// Scores a winning hand; `None` when the tiles do not form a winning shape (or a count is wrong).
pub fn score(hand: &WinningHand, ctx: &WinContext) -> Option<Score> {
    if hand.melds.len() > 4 {
        return None;
    }
    let mut fixed = [0u8; TILE_KINDS];
    for m in hand.melds {
        for t in m.tiles() {
            fixed[t as usize] += 1;
        }
    }
    let mut standing = *hand.concealed;
    standing[hand.win_tile as usize] += 1;
    let n: usize = standing.iter().map(|&c| c as usize).sum();
    if n + 3 * hand.melds.len() != 14 {
        return None;
    }
    let present = (0..TILE_KINDS).fold(0u64, |m, t| m | (((fixed[t] | standing[t]) > 0) as u64) << t);
    let w = hand.win_tile as usize;
    // The reference's corrections of the flags.
    let mut last_tile = ctx.fourth_tile && standing[w] == 1;
    if fixed[w] == 3 {
        last_tile = true;
    }
    let mut kong = ctx.kong_related;
    if kong {
        if ctx.self_drawn {
            kong = hand.melds.iter().any(|m| matches!(m.kind, MeldKind::Kong | MeldKind::ConcealedKong));
        } else {
            kong = fixed[w] == 0 && standing[w] == 1;
        }
    }
    let p = Prepared {
        melds: hand.melds,
        fixed,
        standing,
        present,
        win: hand.win_tile,
        self_drawn: ctx.self_drawn,
        last_tile,
        kong,
        wall_last: ctx.last_wall_tile,
        seat: ctx.seat_wind,
        prevalent: ctx.prevalent_wind,
    };

    let mut table = FanTable::default();
    let mut best = 0;
    let mut special = false;
    if hand.melds.is_empty() {
        special = special::special_forms(&p, &mut table)
            || special::knitted_straight(&p, &mut table)
            || special::nine_gates(&p, &mut table);
    } else if hand.melds.len() == 1 {
        special = special::knitted_straight(&p, &mut table);
    }
    if special {
        best = table.total();
    }
    let seven_pairs = table[Fan::SevenPairs] == 1;
    if best == 0 || seven_pairs {
        if let Some(t) = regular::best_split(&p, best, seven_pairs) {
            table = t;
            best = table.total();
        }
    }
    if best == 0 {
        return None;
    }
    table[Fan::FlowerTiles] = ctx.flowers as i8;
    Some(Score { table, total: best + ctx.flowers as u32 })
}

// ---- tile classes as 34-bit masks (kind t = bit t) ----

const fn mask_of(tiles: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < tiles.len() {
        m |= 1 << tiles[i];
        i += 1;
    }
    m
}

const HONORS: u64 = 0x7F << 27;
const WINDS: u64 = 0xF << 27;
const DRAGONS: u64 = 0x7 << 31;
const TERMINALS: u64 = mask_of(&[0, 8, 9, 17, 18, 26]);
const SUIT_MASK: [u64; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// 1234589p, 245689s, white dragon.
const REVERSIBLE: u64 = mask_of(&[18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33]);
/// 23468s, green dragon.
const GREEN: u64 = mask_of(&[10, 11, 12, 14, 16, 32]);

/// Suit-based fans: No Honors, One Voided Suit, Half / Full Flush, All Types.
fn adjust_by_suits(present: u64, t: &mut FanTable) {
    if present & HONORS == 0 {
        t[Fan::NoHonors] = 1;
    }
    let voided = SUIT_MASK.iter().filter(|&&s| present & s == 0).count() as i8;
    t[Fan::OneVoidedSuit] += voided;
    if t[Fan::OneVoidedSuit] == 2 {
        t[Fan::OneVoidedSuit] = 0;
        if t[Fan::NoHonors] == 0 {
            t[Fan::HalfFlush] = 1;
        } else {
            t[Fan::FullFlush] = 1;
            t[Fan::NoHonors] = 0;
        }
    }
    if voided == 0 && present & WINDS != 0 && present & DRAGONS != 0 {
        t[Fan::AllTypes] = 1;
    }
}

/// All Simples, Reversible Tiles, All Green, All Honors, All Terminals, All Terminals and Honors.
fn adjust_by_tile_traits(present: u64, t: &mut FanTable) {
    if present & (TERMINALS | HONORS) == 0 {
        t[Fan::AllSimples] = 1;
    }
    if present & !REVERSIBLE == 0 {
        t[Fan::ReversibleTiles] = 1;
    }
    if present & !GREEN == 0 {
        t[Fan::AllGreen] = 1;
    }
    if t[Fan::AllSimples] != 0 {
        return;
    }
    if present & !HONORS == 0 {
        t[Fan::AllHonors] = 1;
    } else if present & !TERMINALS == 0 {
        t[Fan::AllTerminals] = 1;
    } else if present & !(TERMINALS | HONORS) == 0 {
        t[Fan::AllTerminalsAndHonors] = 1;
    }
}

/// Upper / Lower Four, Upper / Middle / Lower Tiles (suited tiles only).
fn adjust_by_rank_range(present: u64, t: &mut FanTable) {
    if present & HONORS != 0 {
        return;
    }
    // bit r-1 = some tile of rank r.
    let ranks = (present | present >> 9 | present >> 18) & 0x1FF;
    if ranks & !0b1111 == 0 {
        t[if ranks & 0b1000 != 0 { Fan::LowerFour } else { Fan::LowerTiles }] = 1;
    } else if ranks & !0b1_1110_0000 == 0 {
        t[if ranks & 0b10_0000 != 0 { Fan::UpperFour } else { Fan::UpperTiles }] = 1;
    } else if ranks & !0b11_1000 == 0 {
        t[Fan::MiddleTiles] = 1;
    }
}

/// Tile Hog: kinds with all four copies in the hand, less those that are kongs.
fn adjust_by_tile_hog(all: &Counts, kongs: usize, t: &mut FanTable) {
    let fours = all.iter().filter(|&&c| c == 4).count();
    t[Fan::TileHog] = (fours - kongs) as i8;
}

/// Last Tile, Last Tile Draw / Claim, Out with Replacement Tile, Robbing The Kong, Self-Drawn.
fn adjust_by_win_flags(p: &Prepared, t: &mut FanTable) {
    if p.last_tile {
        t[Fan::LastTile] = 1;
    }
    if p.self_drawn {
        t[Fan::SelfDrawn] = 1;
        if p.wall_last {
            t[Fan::LastTileDraw] = 1;
            t[Fan::SelfDrawn] = 0;
        }
        if p.kong {
            t[Fan::OutWithReplacementTile] = 1;
            t[Fan::SelfDrawn] = 0;
        }
    } else {
        if p.wall_last {
            t[Fan::LastTileClaim] = 1;
        }
        if p.kong {
            t[Fan::RobbingTheKong] = 1;
            t[Fan::LastTile] = 0;
        }
    }
}

/// The exclusions that the construction does not already imply ("not counted with ...").
fn final_adjust(t: &mut FanTable) {
    use Fan::*;
    let clear = |t: &mut FanTable, fans: &[Fan]| fans.iter().for_each(|&f| t[f] = 0);
    if t[BigFourWinds] != 0 {
        clear(t, &[AllPungs, PungOfTerminalsOrHonors]);
    }
    if t[BigThreeDragons] != 0 {
        clear(t, &[DragonPung]);
    }
    if t[AllGreen] != 0 {
        clear(t, &[HalfFlush, OneVoidedSuit]);
    }
    if t[FourKongs] != 0 {
        clear(t, &[SingleWait]);
    }
    if t[AllTerminals] != 0 {
        clear(t, &[AllPungs, OutsideHand, PungOfTerminalsOrHonors, NoHonors, DoublePung]);
    }
    if t[LittleFourWinds] != 0 {
        clear(t, &[PungOfTerminalsOrHonors]);
    }
    if t[LittleThreeDragons] != 0 {
        clear(t, &[DragonPung]);
    }
    if t[AllHonors] != 0 {
        clear(t, &[AllPungs, OutsideHand, PungOfTerminalsOrHonors, OneVoidedSuit]);
    }
    if t[FourConcealedPungs] != 0 {
        clear(t, &[AllPungs, ConcealedHand]);
        if t[FullyConcealedHand] != 0 {
            t[FullyConcealedHand] = 0;
            t[SelfDrawn] = 1;
        }
    }
    if t[PureTerminalChows] != 0 {
        clear(t, &[FullFlush, AllChows, NoHonors]);
    }
    if t[FourPureShiftedPungs] != 0 {
        clear(t, &[AllPungs]);
    }
    if t[AllTerminalsAndHonors] != 0 {
        clear(t, &[AllPungs, OutsideHand, PungOfTerminalsOrHonors]);
    }
    if t[AllEvenPungs] != 0 {
        clear(t, &[AllPungs, AllSimples, NoHonors]);
    }
    if t[UpperTiles] != 0 {
        clear(t, &[NoHonors]);
    }
    if t[MiddleTiles] != 0 {
        clear(t, &[AllSimples, NoHonors]);
    }
    if t[LowerTiles] != 0 {
        clear(t, &[NoHonors]);
    }
    if t[ThreeSuitedTerminalChows] != 0 {
        clear(t, &[AllChows, NoHonors]);
    }
    if t[AllFive] != 0 {
        clear(t, &[AllSimples, NoHonors]);
    }
    if t[UpperFour] != 0 {
        clear(t, &[NoHonors]);
    }
    if t[LowerFour] != 0 {
        clear(t, &[NoHonors]);
    }
    if t[BigThreeWinds] != 0 && t[AllHonors] == 0 && t[AllTerminalsAndHonors] == 0 {
        // The three wind pungs are inside Big Three Winds.
        t[PungOfTerminalsOrHonors] -= 3;
    }
    if t[ReversibleTiles] != 0 {
        clear(t, &[OneVoidedSuit]);
    }
    if t[LastTileDraw] != 0 || t[OutWithReplacementTile] != 0 {
        clear(t, &[SelfDrawn]);
    }
    if t[MeldedHand] != 0 {
        clear(t, &[SingleWait]);
    }
    if t[TwoDragonsPungs] != 0 {
        clear(t, &[DragonPung]);
    }
    if t[FullyConcealedHand] != 0 {
        clear(t, &[SelfDrawn]);
    }
    if t[AllChows] != 0 || t[AllSimples] != 0 {
        clear(t, &[NoHonors]);
    }
}

/// Prevalent / Seat Wind for a wind pung; the Pung of Terminals or Honors it was counted as goes.
fn adjust_by_wind(tile: Tile, p: &Prepared, t: &mut FanTable) {
    let deducted = t[Fan::BigThreeWinds] != 0
        || t[Fan::AllTerminalsAndHonors] != 0
        || t[Fan::AllHonors] != 0
        || t[Fan::LittleFourWinds] != 0;
    let wind = tile - super::tiles::EAST;
    if wind == p.prevalent {
        t[Fan::PrevalentWind] = 1;
        if !deducted {
            t[Fan::PungOfTerminalsOrHonors] -= 1;
        }
    }
    if wind == p.seat {
        t[Fan::SeatWind] = 1;
        if p.seat != p.prevalent && !deducted {
            t[Fan::PungOfTerminalsOrHonors] -= 1;
        }
    }
}

/// Whether the hand (standing tiles without the winning tile, `n` of them) waits on one kind only,
/// counting the standard shape and, for 13 tiles, seven pairs.
fn is_unique_wait(standing: &Counts, n: usize, win: Tile) -> bool {
    let mut c = *standing;
    c[win as usize] -= 1;
    let mut waits = 0;
    if n == 13 {
        let odd = (0..TILE_KINDS).fold(0u64, |m, t| m | ((c[t] & 1) as u64) << t);
        if odd.count_ones() == 1 {
            waits |= odd;
        }
    }
    // Only kinds next to a held tile (or equal to one) can complete a standard hand.
    let held = (0..TILE_KINDS).fold(0u64, |m, t| m | ((c[t] > 0) as u64) << t);
    let mut near = held & HONORS;
    for s in 0..3 {
        let m = (held >> (9 * s)) & 0x1FF;
        near |= ((m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x1FF) << (9 * s);
    }
    waits |= super::shanten::standard_waits(&c, near & !waits);
    waits.count_ones() == 1
}

#[cfg(test)]
mod tests;
