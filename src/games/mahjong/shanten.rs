//! Shanten (向听数): how many tiles a hand is from ready; −1 = complete.
//!
//! Defined exactly: `shanten = d − 1`, where `d` is the fewest tiles the hand must still get so
//! that it contains a complete hand (extra tiles are discarded), with at most 4 copies of a kind
//! among the hand's standing tiles. The same definition serves 13- and 14-tile hands.
//!
//! Standard shape, table-driven: for every count vector of one suit, and of the honors (pungs
//! only), tables computed at compile time (`build/mahjong_shanten.rs`) give, for each target of `m`
//! sets (0..=4) with or without the pair, the fewest tiles the group needs to contain such sets
//! ("replacement number"). A hand is then four lookups and a min-plus combination over the
//! groups, which is exact (not the blocks-formula approximation) because a target splits by group.
//! The vectors are numbered fewest tiles first, so those of real hands share a few kilobytes of
//! table; the 131 distinct cost vectors are 16 byte lanes each, combined lane-wise (a handful of
//! vector instructions).
//! Seven pairs (four of a kind counts as two pairs, as in MCR), thirteen orphans, honors and
//! knitted tiles and the knitted straight (+ one set + pair, using the same tables for the rest)
//! are closed formulas. Declared sets lower the number of sets needed; the special shapes need a
//! concealed hand (the knitted straight allows one declared set).

use super::tiles::{kinds_in, Counts, Tile, TILE_KINDS};

/// The costs of one group (a suit or the honors) in byte lanes: lane `m` = tiles needed for `m`
/// sets, lane `PAIR + m` = for `m` sets and the pair, every other lane [`INF`]. The gap of INF
/// lanes lets a shift by up to four lanes (the sets another group takes) stay within its half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(16))]
struct Group([u8; LANES]);

const LANES: usize = 16;
const PAIR: usize = 10;
/// Impossible: no target needs more than 14 tiles, so 15 marks "cannot". Sums of two lanes stay
/// far below 256.
const INF: u8 = 15;
/// The lanes that hold no target.
const GAPS: [bool; LANES] = {
    let mut gaps = [true; LANES];
    let mut m = 0;
    while m < 5 {
        gaps[m] = false;
        gaps[PAIR + m] = false;
        m += 1;
    }
    gaps
};

impl Group {
    /// Tiles needed for `sets` sets, plus the pair if `pair`.
    fn need(&self, pair: bool, sets: usize) -> u8 {
        self.0[pair as usize * PAIR + sets]
    }
}

// `SUIT_RANK`, `HONOR_RANK`, `SUIT_IDS`, `HONOR_IDS` and `GROUPS`: see build/mahjong_shanten.rs.
include!(concat!(env!("OUT_DIR"), "/shanten_tables.rs"));

/// Max standing tiles of one suit in a hand (a 14-tile hand of one suit).
const MAX_SUIT_TILES: usize = 14;

/// Reads the tables once, so that a benchmark's first timed call does not pay for paging them in
/// (they are compiled into the binary: nothing is built).
pub fn warm_up() {
    let sum = |bytes: &[u8]| bytes.iter().map(|&b| b as u32).sum::<u32>();
    std::hint::black_box(sum(SUIT_IDS) + sum(KNIT_IDS) + sum(HONOR_IDS) + sum(PAIRS));
}

/// Group `g` (0..3 suits, 3 honors) of a hand: its number in its table, and its tiles.
#[inline(always)]
fn group_rank_of(g: usize, counts: &Counts) -> (usize, usize) {
    if g == 3 {
        rank::<7, _, _>(&HONOR_RANK, counts[27..].try_into().expect("seven honors"))
    } else {
        rank::<9, _, _>(&SUIT_RANK, counts[9 * g..9 * g + 9].try_into().expect("nine ranks"))
    }
}

/// The id in [`GROUPS`] of the costs of group `g` with number and tiles `(index, n)`.
#[inline(always)]
fn group_id(g: usize, (index, n): (usize, usize)) -> u8 {
    if g == 3 {
        HONOR_IDS[index]
    } else if n > MAX_SUIT_TILES {
        IMPOSSIBLE
    } else {
        SUIT_IDS[index]
    }
}

/// For each knitted straight (as in [`KNITTED`]) and suit, the suit's lowest rank in the
/// straight (0, 1 or 2: kinds 1-4-7, 2-5-8 or 3-6-9), which picks its table of set-aside costs.
const KNIT_START: [[usize; 3]; 6] = {
    let mut out = [[0; 3]; 6];
    let mut k = 0;
    while k < 6 {
        let mut s = 0;
        while s < 3 {
            out[k][s] = KNITTED[k][s * 3] as usize - s * 9;
            s += 1;
        }
        k += 1;
    }
    out
};

/// The id of the impossible costs (a suit of more than 14 tiles).
const IMPOSSIBLE: u8 = 0;

/// A group vector's number, `Σ table[b][tiles before][5 * c + d]` over its kinds two at a time
/// (counts `c` and `d`; `d = 0` past the last kind), and its tiles.
#[inline(always)]
fn rank<const N: usize, const ROWS: usize, const BLOCKS: usize>(
    table: &[[[u32; 25]; ROWS]; BLOCKS],
    counts: &[u8; N],
) -> (usize, usize) {
    let (mut index, mut tiles) = (0, 0);
    for (b, row) in table.iter().enumerate() {
        let c = counts[2 * b] as usize;
        let d = if 2 * b + 1 < N { counts[2 * b + 1] as usize } else { 0 };
        index += row[tiles][5 * c + d];
        tiles += c + d;
    }
    (index as usize, tiles)
}

/// Groups `a` and `b` combined ([`combine`]), from the table of every two.
#[inline(always)]
fn pair(a: u8, b: u8) -> Group {
    let at = (a as usize * GROUPS.len() + b as usize) * LANES;
    Group(PAIRS[at..at + LANES].try_into().expect("16 lanes"))
}

/// `x` moved up by `BY` lanes, INF shifted in.
#[inline(always)]
fn shifted<const BY: usize>(x: &[u8; LANES]) -> [u8; LANES] {
    std::array::from_fn(|l| if l >= BY { x[l - BY] } else { INF })
}

/// Lane-wise `out = min(out, x + k)`.
#[inline(always)]
fn add_min(out: &mut [u8; LANES], x: &[u8; LANES], k: u8) {
    for (o, &v) in out.iter_mut().zip(x) {
        *o = (*o).min(v + k);
    }
}

/// `a` taking `I` sets (`P = PAIR + I`: and the pair): `b`'s lanes move up by `I`, or its
/// no-pair lanes up into the pair lanes.
#[inline(always)]
fn take<const I: usize, const P: usize>(out: &mut [u8; LANES], a: &Group, b: &Group) {
    add_min(out, &shifted::<I>(&b.0), a.0[I]);
    add_min(out, &shifted::<P>(&b.0), a.0[P]);
}

/// Min-plus combination of two groups: for each target, the cheapest split of its sets (and the
/// pair) between them. Lane-wise, with constant shifts: a few vector instructions.
fn combine(a: &Group, b: &Group) -> Group {
    let mut out = [INF; LANES];
    take::<0, PAIR>(&mut out, a, b);
    take::<1, { PAIR + 1 }>(&mut out, a, b);
    take::<2, { PAIR + 2 }>(&mut out, a, b);
    take::<3, { PAIR + 3 }>(&mut out, a, b);
    take::<4, { PAIR + 4 }>(&mut out, a, b);
    Group(std::array::from_fn(|l| if GAPS[l] { INF } else { out[l].min(INF) }))
}

/// Only the (sets, pair) target of the last combination is needed.
#[inline(always)]
fn combine_target(a: &Group, b: &Group, sets: usize) -> u8 {
    match sets {
        0 => target::<0>(a, b),
        1 => target::<1>(a, b),
        2 => target::<2>(a, b),
        3 => target::<3>(a, b),
        4 => target::<4>(a, b),
        _ => panic!("at most four sets"),
    }
}

/// [`combine_target`] for `SETS` sets: straight-line code.
#[inline(always)]
fn target<const SETS: usize>(a: &Group, b: &Group) -> u8 {
    let mut best = INF;
    for i in 0..=SETS {
        let j = SETS - i;
        best = best.min(a.0[PAIR + i] + b.0[j]).min(a.0[i] + b.0[PAIR + j]);
    }
    best
}

/// Tiles the standing tiles `counts` still need for `sets` sets and a pair.
/// Counts must be at most 4 and a suit at most 14 tiles (any hand).
pub fn standard_distance(counts: &Counts, sets: usize) -> u8 {
    Ranked::new(counts).standard(sets)
}

/// Standard shape: `declared` sets already declared.
pub fn shanten_standard(counts: &Counts, declared: usize) -> i8 {
    Ranked::new(counts).shanten_standard(declared)
}

/// Seven pairs' shanten: tiles away from ready (0) or complete (-1).
pub fn shanten_seven_pairs(counts: &Counts) -> i8 {
    let mut pairs = 0u8;
    let mut singles = 0u8;
    for &c in counts.iter() {
        pairs += c / 2;
        singles += c & 1;
    }
    let need = 7 - pairs.min(7);
    (need + need.saturating_sub(singles)) as i8 - 1
}

const ORPHANS: [Tile; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Thirteen orphans' shanten: tiles away from ready (0) or complete (-1).
pub fn shanten_thirteen_orphans(counts: &Counts) -> i8 {
    let distinct = ORPHANS.iter().filter(|&&t| counts[t as usize] > 0).count() as i8;
    let pair = ORPHANS.iter().any(|&t| counts[t as usize] >= 2) as i8;
    13 - distinct - pair
}

/// The six knitted straights: suits (m, s, p) take ranks 147, 258, 369 in some order.
pub const KNITTED: [[Tile; 9]; 6] = {
    let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut out = [[0u8; 9]; 6];
    let mut k = 0;
    while k < 6 {
        let mut s = 0;
        while s < 3 {
            let start = orders[k][s];
            let mut j = 0;
            while j < 3 {
                out[k][s * 3 + j] = (s * 9 + start + 3 * j) as u8;
                j += 1;
            }
            s += 1;
        }
        k += 1;
    }
    out
};

fn held(counts: &Counts, tiles: &[Tile]) -> u8 {
    tiles.iter().filter(|&&t| counts[t as usize] > 0).count() as u8
}

/// Lesser / greater honors and knitted tiles: 14 distinct tiles of one knitted straight and the
/// seven honors.
pub fn shanten_honors_knitted(counts: &Counts) -> i8 {
    let honors = (27..34).filter(|&t| counts[t] > 0).count() as u8;
    let best = KNITTED.iter().map(|k| held(counts, k)).max().unwrap_or(0);
    (14 - (best + honors).min(14)) as i8 - 1
}

/// Knitted straight + one set + a pair (at most one declared set).
pub fn shanten_knitted_straight(counts: &Counts, declared: usize, bound: i8) -> i8 {
    let held = KNITTED.map(|k| held(counts, &k));
    knitted_straight(counts, &Ranked::new(counts), declared, bound, &held)
}

/// The knitted straight's shanten if below `bound` (else `bound`); `held[k]` = kinds of straight
/// `k` in the hand.
fn knitted_straight(counts: &Counts, ranked: &Ranked, declared: usize, bound: i8, held: &[u8; 6]) -> i8 {
    // At least 9 - h tiles are missing from a straight of which h kinds are held.
    if declared > 1 || 9 - held.iter().max().copied().unwrap_or(0) as i8 > bound {
        return bound;
    }
    let mut best = bound;
    for (k, &h) in held.iter().enumerate() {
        if 9 - h as i8 > best {
            continue;
        }
        let d = (9 - h) + ranked.knitted_rest(counts, k, 1 - declared);
        best = best.min(d as i8 - 1);
    }
    best
}

/// Minimum over every winning shape.
pub fn shanten(counts: &Counts, declared: usize) -> i8 {
    let ranked = Ranked::new(counts);
    let best = ranked.shanten_standard(declared);
    if declared > 1 {
        return best;
    }
    let tally = Tally::new(counts);
    let held = tally.knitted_held();
    let best = if declared == 0 { best.min(tally.concealed_shapes(&held)) } else { best };
    knitted_straight(counts, &ranked, declared, best, &held)
}

/// What the special shapes need to know of a hand, kept up to date tile by tile: the kinds held,
/// the pairs (four of a kind = two), the odd counts, and how many kinds of terminals and honors
/// are held (and twice or more) and of honors. Kept as counts rather than counted from masks when
/// needed: x86-64's baseline instruction set has no population count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tally {
    present: u64,
    pairs: i32,
    odd: i32,
    orphans: i32,
    orphan_pairs: i32,
    honors: i32,
}

/// One byte lane per kind, eight kinds a word.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The kinds of `mask` as byte lanes: 1 in the lane of each kind.
const fn lanes_of(mask: u64) -> [u64; 5] {
    let mut out = [0u64; 5];
    let mut k = 0;
    while k < TILE_KINDS {
        out[k / 8] |= (mask >> k & 1) << (8 * (k % 8));
        k += 1;
    }
    out
}
const ORPHAN_LANES: [u64; 5] = lanes_of(ORPHANS_MASK);
const HONOR_LANES: [u64; 5] = lanes_of(HONOR_MASK);

impl Tally {
    /// Eight kinds at a time, one byte lane each (counts up to 7): the lanes are added up over
    /// the five words first, and across lanes once at the end.
    fn new(counts: &Counts) -> Tally {
        // Bit 0 of each lane to bit i of a byte (lane i), and the sum of the lanes.
        let gather = |flags: u64| flags.wrapping_mul(0x0102_0408_1020_4080) >> 56;
        let lane_sum = |x: u64| (x.wrapping_mul(ONES) >> 56) as i32;
        let word = |w: usize| u64::from_le_bytes(counts[8 * w..8 * w + 8].try_into().expect("eight kinds"));
        let words = [word(0), word(1), word(2), word(3), counts[32] as u64 | (counts[33] as u64) << 8];
        let mut present = 0;
        // Per lane: pairs (at most 10 over five words), odd counts, orphan kinds held twice, and
        // orphan kinds held plus 16 × honor kinds held (13 + 16 × 7 < 256 in all).
        let (mut pairs, mut odd, mut orphan_pairs, mut kinds) = (0, 0, 0, 0);
        for (w, &x) in words.iter().enumerate() {
            let held = (x | x >> 1 | x >> 2) & ONES;
            present |= gather(held) << (8 * w);
            pairs += (x >> 1) & (3 * ONES);
            odd += x & ONES;
            orphan_pairs += (x >> 1 | x >> 2) & ORPHAN_LANES[w];
            kinds += (held & ORPHAN_LANES[w]) | (held & HONOR_LANES[w]) << 4;
        }
        let kinds = lane_sum(kinds);
        Tally {
            present,
            pairs: lane_sum(pairs),
            odd: lane_sum(odd),
            orphans: kinds & 15,
            orphan_pairs: lane_sum(orphan_pairs),
            honors: kinds >> 4,
        }
    }

    /// The tally once kind `k` goes from `c` to `nc` copies.
    fn with(self, k: usize, c: u8, nc: u8) -> Tally {
        let bit = 1u64 << k;
        let (orphan, honor) = ((ORPHANS_MASK & bit != 0) as i32, (HONOR_MASK & bit != 0) as i32);
        let held = (nc > 0) as i32 - (c > 0) as i32;
        Tally {
            present: if nc > 0 { self.present | bit } else { self.present & !bit },
            pairs: self.pairs - (c / 2) as i32 + (nc / 2) as i32,
            odd: self.odd - (c & 1) as i32 + (nc & 1) as i32,
            orphans: self.orphans + orphan * held,
            orphan_pairs: self.orphan_pairs + orphan * ((nc >= 2) as i32 - (c >= 2) as i32),
            honors: self.honors + honor * held,
        }
    }

    /// How many kinds of each knitted straight are held.
    fn knitted_held(&self) -> [u8; 6] {
        let suit = |s: usize| PATTERNS_HELD[(self.present >> (9 * s)) as usize & 0x1ff];
        let per_suit = [suit(0), suit(1), suit(2)];
        std::array::from_fn(|k| (0..3).map(|s| (per_suit[s] >> (8 * KNIT_START[k][s])) as u8).sum())
    }

    /// The lowest shanten of seven pairs, thirteen orphans and honors and knitted tiles (the
    /// shapes of a concealed hand that need no table), given [`Tally::knitted_held`].
    fn concealed_shapes(&self, knitted_held: &[u8; 6]) -> i8 {
        let need = 7 - self.pairs.min(7);
        let seven_pairs = (need + (need - self.odd).max(0)) as i8 - 1;
        let orphans = 13 - self.orphans as i8 - (self.orphan_pairs > 0) as i8;
        let knitted = knitted_held.iter().max().copied().unwrap_or(0);
        let honors_knitted = (14 - (knitted + self.honors as u8).min(14)) as i8 - 1;
        seven_pairs.min(orphans).min(honors_knitted)
    }
}

const ORPHANS_MASK: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 13 {
        m |= 1 << ORPHANS[i];
        i += 1;
    }
    m
};
const HONOR_MASK: u64 = 0x7F << 27;

/// For a suit's kinds held (a 9-bit mask): in byte `j`, how many of its kinds `j`, `j + 3`,
/// `j + 6` are held (the suit's share of a knitted straight).
const PATTERNS_HELD: [u32; 512] = {
    let mut out = [0u32; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut k = 0;
        while k < 9 {
            out[mask] += ((mask >> k & 1) as u32) << (8 * (k % 3));
            k += 1;
        }
        mask += 1;
    }
    out
};

/// The kinds that lower the shanten of a 3n+1 hand, each with the copies still unseen
/// (4 − in hand − `visible`), and the current shanten.
pub fn effective_tiles(counts: &Counts, declared: usize, visible: &Counts) -> (i8, Vec<(Tile, u8)>) {
    let base = shanten(counts, declared);
    let after = shanten_each(counts, declared, true);
    let out = (0..TILE_KINDS)
        .filter(|&t| after[t] < base)
        .map(|t| (t as Tile, 4u8.saturating_sub(counts[t] + visible[t])))
        .collect();
    (base, out)
}

/// The shanten of the hand with one more tile of each kind (`add`) or one fewer (`!add`);
/// `i8::MAX` where that is impossible. Same answers as calling [`shanten`] 34 times, but only the
/// changed suit is looked up again and the special shapes are updated, not recounted.
pub fn shanten_each(counts: &Counts, declared: usize, add: bool) -> [i8; TILE_KINDS] {
    Around::new(counts, declared).each(add)
}

const ALL_KINDS: u64 = (1 << TILE_KINDS) - 1;

/// The kinds of each group (three suits, the honors).
const GROUP_MASKS: [u64; 4] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27];

/// One hand with its groups looked up and combined once, answering for the hands one tile away
/// (and, for the greedy tie-break, two: one tile discarded and one drawn).
pub struct Around<'a> {
    hand: Hand<'a>,
    /// For each group, the other three combined.
    others: [Group; 4],
}

/// A hand as [`each_with`] reads it.
#[derive(Clone, Copy)]
struct Hand<'a> {
    counts: &'a Counts,
    declared: usize,
    split: Split,
    tally: Tally,
}

impl<'a> Around<'a> {
    /// The hand of `counts` with `declared` sets declared, its groups looked up once.
    pub fn new(counts: &'a Counts, declared: usize) -> Around<'a> {
        let split = Split::new(counts);
        Around { others: split.others(), hand: Hand { counts, declared, split, tally: Tally::new(counts) } }
    }

    /// [`shanten_each`]: every entry exact.
    pub fn each(&self, add: bool) -> [i8; TILE_KINDS] {
        // `below = i8::MIN`: nothing is below it, so every entry is exact.
        each_with(&self.hand, add, ALL_KINDS, i8::MIN, &self.others, None)
    }

    /// The kinds within `candidates` whose draw brings the hand below shanten `below`, and every
    /// candidate of a group that would then hold more than 14 tiles (not answered here: kept).
    /// Among the kinds the hand holds fewer than four of, this covers every draw that brings the
    /// hand minus any one discard below `below`: a hand with more tiles is never farther.
    pub fn improving_draws(&self, below: i8, candidates: u64) -> u64 {
        let after = each_with(&self.hand, true, candidates, below, &self.others, None);
        let full = (0..4).filter(|&g| self.hand.split.ranked.n[g] >= MAX_SUIT_TILES).fold(0, |m, g| m | GROUP_MASKS[g]);
        below_in(&after, candidates, below) | candidates & full
    }

    /// For each discard `t` in `discards` (a mask of kinds), entry `t`: the kinds within `candidates` whose draw would then
    /// bring the shanten below `below` (what [`Around::improving_draws`] answers for the hand
    /// minus `t`, without the superset). The discards share the work: a discard changes one
    /// group, so its group is looked up again and the other groups' combinations come from pairs
    /// combined once.
    pub fn improving_after_discards(&self, discards: u64, below: i8, candidates: u64) -> [u64; TILE_KINDS] {
        let hand = &self.hand;
        let id = hand.split.ranked.id;
        // The looked-up group of each kind drawn to the hand: the same after any discard from
        // another group, so looked up once.
        let mut plus: [&'static Group; TILE_KINDS] = [&GROUPS[IMPOSSIBLE as usize]; TILE_KINDS];
        for k in kinds_in(candidates).filter(|&k| hand.counts[k] < 4) {
            plus[k] = hand.split.with(k, true).1;
        }
        let mut out = [0u64; TILE_KINDS];
        for t in kinds_in(discards) {
            let dg = group_rank(t).0;
            let s = hand.split.without(t);
            // Other than group `h`: the changed group with the two groups that are neither (only
            // for the groups holding a candidate: no other draw is looked at).
            let o: [Group; 4] = std::array::from_fn(|h| {
                if h == dg {
                    return self.others[h];
                }
                if candidates & GROUP_MASKS[h] == 0 {
                    return GROUPS[IMPOSSIBLE as usize];
                }
                let mut rest = (0..4).filter(|&x| x != dg && x != h);
                let (i, j) = (rest.next().unwrap(), rest.next().unwrap());
                combine(s.grp[dg], &pair(id[i], id[j]))
            });
            let mut c = *hand.counts;
            c[t] -= 1;
            // Draws of the discard's group: looked up again (the group changed).
            let mut plus = plus;
            for k in kinds_in(candidates & GROUP_MASKS[dg]).filter(|&k| c[k] < 4) {
                plus[k] = s.with(k, true).1;
            }
            let tally = hand.tally.with(t, hand.counts[t], c[t]);
            let after_discard = Hand { counts: &c, declared: hand.declared, split: s, tally };
            let after = each_with(&after_discard, true, candidates, below, &o, Some(&plus));
            out[t] = below_in(&after, candidates, below);
        }
        out
    }
}

/// The kinds within `mask` whose entry of `shantens` is below `below`.
fn below_in(shantens: &[i8; TILE_KINDS], mask: u64, below: i8) -> u64 {
    kinds_in(mask).filter(|&k| shantens[k] < below).fold(0, |m, k| m | 1 << k)
}

/// The kinds of group `g` (the three suits of nine, then the seven honors).
fn group_kinds(g: usize) -> std::ops::Range<usize> {
    if g < 3 {
        g * 9..g * 9 + 9
    } else {
        27..34
    }
}

/// Tiles in group `g` of `counts`.
fn group_tiles(counts: &Counts, g: usize) -> usize {
    counts[group_kinds(g)].iter().map(|&c| c as usize).sum()
}

/// The group (0..3 suits, 3 honors) of kind `k` and its rank within the group.
fn group_rank(k: usize) -> (usize, usize) {
    if k < 27 {
        (k / 9, k % 9)
    } else {
        (3, k - 27)
    }
}

/// A hand's four groups looked up: each one's number in its table, tile count and costs id.
#[derive(Clone, Copy)]
struct Ranked {
    index: [usize; 4],
    n: [usize; 4],
    id: [u8; 4],
}

impl Ranked {
    #[inline(always)]
    fn new(counts: &Counts) -> Ranked {
        // Written out (not `map`ped) so that each group's lookup is inlined for its own table.
        let ranks =
            [group_rank_of(0, counts), group_rank_of(1, counts), group_rank_of(2, counts), group_rank_of(3, counts)];
        Ranked {
            index: [ranks[0].0, ranks[1].0, ranks[2].0, ranks[3].0],
            n: [ranks[0].1, ranks[1].1, ranks[2].1, ranks[3].1],
            id: [group_id(0, ranks[0]), group_id(1, ranks[1]), group_id(2, ranks[2]), group_id(3, ranks[3])],
        }
    }

    /// Tiles needed for `sets` sets and the pair.
    #[inline(always)]
    fn standard(&self, sets: usize) -> u8 {
        combine_target(&pair(self.id[0], self.id[1]), &pair(self.id[2], self.id[3]), sets)
    }

    #[inline(always)]
    fn shanten_standard(&self, declared: usize) -> i8 {
        self.standard(4 - declared) as i8 - 1
    }

    /// Tiles the hand (`counts`) needs for `sets` sets and the pair once one tile of each kind of
    /// knitted straight `k` it holds is set aside: from the tables of set-aside costs, or (a suit
    /// of more than 14 tiles, which those tables do not cover) from the counts.
    fn knitted_rest(&self, counts: &Counts, k: usize, sets: usize) -> u8 {
        if self.n[..3].iter().any(|&n| n > MAX_SUIT_TILES) {
            let mut rest = *counts;
            for &t in &KNITTED[k] {
                rest[t as usize] = rest[t as usize].saturating_sub(1);
            }
            return Ranked::new(&rest).standard(sets);
        }
        let rest = |s: usize| KNIT_IDS[KNIT_START[k][s] * SUIT_IDS.len() + self.index[s]];
        combine_target(&pair(rest(0), rest(1)), &pair(rest(2), self.id[3]), sets)
    }
}

/// A hand by group, for answering about the hands one tile away: its counts, its groups looked
/// up, and their costs.
#[derive(Clone, Copy)]
struct Split {
    counts: Counts,
    ranked: Ranked,
    grp: [&'static Group; 4],
}

impl Split {
    fn new(counts: &Counts) -> Split {
        let ranked = Ranked::new(counts);
        Split { counts: *counts, ranked, grp: ranked.id.map(|id| &GROUPS[id as usize]) }
    }

    /// For each group, the other three combined.
    fn others(&self) -> [Group; 4] {
        let [a, b, c, d] = self.grp;
        let id = self.ranked.id;
        let (ab, cd) = (pair(id[0], id[1]), pair(id[2], id[3]));
        [combine(b, &cd), combine(a, &cd), combine(&ab, d), combine(&ab, c)]
    }

    /// The group of kind `k` and its costs once one tile of `k` is added (`add`) or removed.
    fn with(&self, k: usize, add: bool) -> (usize, &'static Group) {
        let (g, id) = self.id_with(k, add);
        (g, &GROUPS[id as usize])
    }

    fn id_with(&self, k: usize, add: bool) -> (usize, u8) {
        let (g, rank) = self.rank_with(k, add);
        (g, group_id(g, rank))
    }

    /// The group of kind `k`, and its number and tiles once one tile of `k` is added or removed.
    fn rank_with(&self, k: usize, add: bool) -> (usize, (usize, usize)) {
        let g = group_rank(k).0;
        let mut counts = self.counts;
        if add {
            counts[k] += 1;
        } else {
            counts[k] -= 1;
        }
        (g, group_rank_of(g, &counts))
    }

    /// The split once one tile of kind `k` is removed.
    fn without(&self, k: usize) -> Split {
        let (g, rank) = self.rank_with(k, false);
        let id = group_id(g, rank);
        let mut s = *self;
        s.counts[k] -= 1;
        (s.ranked.index[g], s.ranked.n[g]) = rank;
        s.ranked.id[g] = id;
        s.grp[g] = &GROUPS[id as usize];
        s
    }
}

/// The shanten of `hand` with one more (`add`) or one fewer (`!add`) tile of each kind in
/// `candidates` (the others are `i8::MAX`), given for each group the other three groups combined
/// (`others`) and optionally (`add` only) the changed group for each candidate already looked up.
/// With `below == i8::MIN` every entry is exact; otherwise only each entry's comparison with
/// `below` is: the special shapes are skipped where they cannot change it (the standard shape
/// alone is already below, or the special shapes cannot get below).
fn each_with(
    hand: &Hand<'_>,
    add: bool,
    candidates: u64,
    below: i8,
    others: &[Group; 4],
    plus: Option<&[&'static Group; TILE_KINDS]>,
) -> [i8; TILE_KINDS] {
    let Hand { counts, declared, split, tally } = *hand;
    let reversed = others.map(|o| reverse(&o, 4 - declared));
    // The knitted straights' rests, prepared when first needed.
    let mut knitted = KnittedRests::new(counts, declared, tally.knitted_held());
    // A lower bound of the special shapes for every hand one tile away: one tile changes a
    // shape's distance by at most one (and removing a tile never lowers it). Kinds whose standard
    // shanten is already at or below it skip the special shapes.
    // Whether the knitted straight can matter for any kind (see below).
    let mut knitted_possible = true;
    let special_floor = if declared <= 1 {
        let held = tally.knitted_held();
        let mut knitted_floor = 8 - held.iter().max().copied().unwrap_or(0) as i8;
        if below > i8::MIN && knitted_floor - (add as i8) < below {
            // When only the comparison with `below` matters, the knitted straight's actual
            // shanten (capped at `below + add`: enough to rule it out) is a much tighter floor,
            // computed once here rather than for each kind.
            knitted_floor = knitted.shanten(below + add as i8);
        }
        // One tile lowers the knitted straight's shanten by at most one.
        knitted_possible = below == i8::MIN || knitted_floor - (add as i8) < below;
        let floor = if declared == 0 { knitted_floor.min(tally.concealed_shapes(&held)) } else { knitted_floor };
        floor - add as i8
    } else {
        i8::MAX
    };
    let special_floor = if below > i8::MIN && special_floor >= below { i8::MAX } else { special_floor };
    let mut out = [i8::MAX; TILE_KINDS];
    for k in kinds_in(candidates) {
        let c = counts[k];
        if (add && c >= 4) || (!add && c == 0) {
            continue;
        }
        let nc = if add { c + 1 } else { c - 1 };
        let (g, grp) = match plus {
            Some(p) => (group_rank(k).0, p[k]),
            None => split.with(k, add),
        };
        let mut best = complete(&reversed[g], grp) as i8 - 1;
        if declared <= 1 && best > special_floor && best >= below {
            let t = tally.with(k, c, nc);
            let held = t.knitted_held();
            if declared == 0 {
                best = best.min(t.concealed_shapes(&held));
            }
            // The knitted straight is the costly shape. When only the comparison with `below`
            // matters, look only for straights that could get below it (none once below).
            let bound = if below == i8::MIN {
                best
            } else if best < below {
                i8::MIN
            } else {
                below
            };
            if knitted_possible {
                best = best.min(knitted.shanten_after(k, add, &held, bound));
            }
        }
        out[k] = best;
    }
    out
}

/// `o` with the set counts reversed (`sets - m`) and the halves swapped (pair lanes first), so
/// that completing it with one more group is one lane-wise sum and a minimum ([`complete`]).
fn reverse(o: &Group, sets: usize) -> Group {
    Group(std::array::from_fn(|l| {
        let (pair, m) = (l < PAIR, l % PAIR);
        if GAPS[l] || m > sets {
            INF
        } else {
            o.need(pair, sets - m)
        }
    }))
}

/// Tiles needed for the sets and pair `reversed` was reversed for, the rest of the hand being
/// `grp`.
fn complete(reversed: &Group, grp: &Group) -> u8 {
    reversed.0.iter().zip(&grp.0).map(|(&r, &g)| r + g).min().unwrap_or(INF).min(INF)
}

/// One knitted straight of a hand: the hand with one tile of each of the straight's kinds set
/// aside (the rest: what must make the remaining set and pair), looked up by group.
struct KnittedRest {
    /// Kinds of the straight held.
    held: u8,
    rest: Split,
    /// For each group, the rest's other three combined, reversed for the remaining set and pair.
    reversed: [Group; 4],
    /// Tiles the hand needs for this knitted straight hand.
    distance: u8,
}

/// The knitted straights of one hand, each prepared when first asked for. A hand one tile away
/// differs from it in the straight (a kind held or not any more) or else in the rest by that tile,
/// so each answer is one table lookup instead of a [`knitted_straight`] call.
struct KnittedRests<'a> {
    counts: &'a Counts,
    declared: usize,
    held: [u8; 6],
    rests: [Option<KnittedRest>; 6],
}

impl<'a> KnittedRests<'a> {
    fn new(counts: &'a Counts, declared: usize, held: [u8; 6]) -> KnittedRests<'a> {
        KnittedRests { counts, declared, held, rests: [const { None }; 6] }
    }

    fn rest(&mut self, k: usize) -> &KnittedRest {
        let (counts, declared, held) = (self.counts, self.declared, self.held[k]);
        self.rests[k].get_or_insert_with(|| {
            let mut rest = *counts;
            for &t in &KNITTED[k] {
                rest[t as usize] = rest[t as usize].saturating_sub(1);
            }
            let rest = Split::new(&rest);
            let reversed = rest.others().map(|o| reverse(&o, 1 - declared));
            let distance = (9 - held) + complete(&reversed[0], rest.grp[0]);
            KnittedRest { held, rest, reversed, distance }
        })
    }

    /// The hand's knitted straight shanten if below `bound`, else `bound` (as [`knitted_straight`]).
    fn shanten(&mut self, bound: i8) -> i8 {
        if self.declared > 1 {
            return bound;
        }
        let mut best = bound;
        for k in 0..6 {
            // At least 9 - held tiles are missing from the straight itself.
            if 9 - self.held[k] as i8 <= best {
                best = best.min(self.rest(k).distance as i8 - 1);
            }
        }
        best
    }

    /// The same for the hand with one tile of kind `t` more (`add`) or less, whose straights hold
    /// `held` kinds.
    fn shanten_after(&mut self, t: usize, add: bool, held: &[u8; 6], bound: i8) -> i8 {
        if self.declared > 1 {
            return bound;
        }
        let mut best = bound;
        for (k, &h) in held.iter().enumerate() {
            if 9 - h as i8 > best {
                continue;
            }
            let r = self.rest(k);
            let distance = if h != r.held {
                // The tile joined or left the straight; the rest is unchanged.
                r.distance + r.held - h
            } else {
                // The tile joined or left the rest.
                let (g, grp) = r.rest.with(t, add);
                (9 - h) + complete(&r.reversed[g], grp)
            };
            best = best.min(distance as i8 - 1);
        }
        best
    }
}

/// Whether the standing tiles (with `declared` sets) are a complete hand of any shape: the same
/// answer as `shanten(..) == -1`, but cheap when they are not (the common case when checking a
/// discard for a win).
pub fn is_winning_shape(counts: &Counts, declared: usize) -> bool {
    if is_complete_standard(counts) {
        return true;
    }
    if declared > 1 {
        return false;
    }
    let tally = Tally::new(counts);
    let held = tally.knitted_held();
    if declared == 0 && tally.concealed_shapes(&held) == -1 {
        return true;
    }
    // A knitted straight hand holds all nine tiles of one straight.
    held.contains(&9) && shanten_knitted_straight(counts, declared, i8::MAX) == -1
}

/// Whether the standing tiles (3n+2 of them) form sets and one pair. Counts may reach 5 (the
/// reference counts a wait on a kind the hand already holds four of); those go to a slow path.
pub fn is_complete_standard(counts: &Counts) -> bool {
    if counts.iter().any(|&c| c > 4) {
        let mut c = *counts;
        return decomposes(&mut c, true);
    }
    // Each group on its own: sets only, or (exactly one group) sets and the pair. The groups' tile
    // counts alone rule most hands out, before any table is read.
    let n: [usize; 4] = std::array::from_fn(|g| group_tiles(counts, g));
    if n.iter().any(|&n| n % 3 == 1 || n > MAX_SUIT_TILES) || n.iter().filter(|&&n| n % 3 == 2).count() != 1 {
        return false;
    }
    (0..4).all(|g| {
        let id = group_id(g, group_rank_of(g, counts));
        complete_alone(&GROUPS[id as usize], n[g]).is_some()
    })
}

/// What a group of `n` tiles with costs `grp` is on its own: sets only (`Some(false)`), sets and
/// the pair (`Some(true)`), or neither (`None`).
fn complete_alone(grp: &Group, n: usize) -> Option<bool> {
    let pair = n % 3 == 2;
    (n <= MAX_SUIT_TILES && n % 3 != 1 && grp.need(pair, n / 3) == 0).then_some(pair)
}

/// The kinds `t` (within `candidates`, a 34-bit mask) such that `counts` plus `t` is a complete
/// standard hand. Only the suit of `t` changes, so each candidate costs one table lookup.
pub fn standard_waits(counts: &Counts, candidates: u64) -> u64 {
    let split = Split::new(counts);
    let alone: [Option<bool>; 4] = std::array::from_fn(|g| complete_alone(split.grp[g], split.ranked.n[g]));
    let mut waits = 0u64;
    for k in kinds_in(candidates) {
        if counts[k] >= 4 {
            let mut c = *counts;
            c[k] += 1;
            if decomposes(&mut c, true) {
                waits |= 1 << k;
            }
            continue;
        }
        let (g, grp) = split.with(k, true);
        let mut with = alone;
        with[g] = complete_alone(grp, split.ranked.n[g] + 1);
        if with.iter().all(Option::is_some) && with.iter().filter(|&&a| a == Some(true)).count() == 1 {
            waits |= 1 << k;
        }
    }
    waits
}

/// Plain recursive check (lowest tile first), used only for out-of-range counts.
fn decomposes(c: &mut Counts, pair: bool) -> bool {
    let Some(t) = (0..TILE_KINDS).find(|&t| c[t] > 0) else {
        return !pair;
    };
    if pair && c[t] >= 2 {
        c[t] -= 2;
        let ok = decomposes(c, false);
        c[t] += 2;
        if ok {
            return true;
        }
    }
    if c[t] >= 3 {
        c[t] -= 3;
        let ok = decomposes(c, pair);
        c[t] += 3;
        if ok {
            return true;
        }
    }
    if t < 27 && t % 9 <= 6 && c[t + 1] > 0 && c[t + 2] > 0 {
        c[t] -= 1;
        c[t + 1] -= 1;
        c[t + 2] -= 1;
        let ok = decomposes(c, pair);
        c[t] += 1;
        c[t + 1] += 1;
        c[t + 2] += 1;
        return ok;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::tiles::Hand;
    use super::*;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn counts(s: &str) -> (Counts, usize) {
        let h = Hand::parse(s).unwrap();
        (h.standing_with_win(), h.melds.len())
    }

    #[test]
    fn known_hands() {
        let (c, m) = counts("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C");
        assert_eq!(shanten(&c, m), -1);
        let (c, m) = counts("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C");
        assert_eq!(shanten(&c, m), 0);
        let (c, _) = counts("1m 9m 1s 9s 1p 9p E S W N C F P");
        assert_eq!(shanten_thirteen_orphans(&c), 0);
        assert_eq!(shanten(&c, 0), 0);
        let (c, _) = counts("1m 4m 7m 2s 5s 8s 3p 6p 9p E S W N");
        assert_eq!(shanten_honors_knitted(&c), 0);
        let (c, _) = counts("1m 1m 2m 2m 3m 3m 5p 5p 7p 7p E E C");
        assert_eq!(shanten_seven_pairs(&c), 0);
        // Four of a kind is two pairs in MCR.
        let (c, _) = counts("1m 1m 1m 1m 3m 3m 5p 5p 7p 7p E E C");
        assert_eq!(shanten_seven_pairs(&c), 0);
        // Knitted straight + set + pair, one tile short.
        let (c, _) = counts("1m 4m 7m 2s 5s 8s 3p 6p 9p E E C C");
        assert_eq!(shanten_knitted_straight(&c, 0, i8::MAX), 0);
        // With declared sets: 1 set + pair from 4 tiles.
        let (c, m) = counts("[1m2m3m] [4p5p6p] [7s8s9s] E E C C");
        assert_eq!(shanten(&c, m), 0);
        // The four-copies case: holding 1111m, a single wait on 1m is impossible.
        let (c, m) = counts("1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m");
        assert!(shanten_standard(&c, m) >= 0);
    }

    /// Independent brute force for the standard shape: every choice of sets (each sharing a kind
    /// with the hand, or a fresh set costing 3) and a pair, at most 4 copies of a kind.
    fn brute_standard(counts: &Counts, sets: usize) -> i8 {
        let mut blocks: Vec<[u8; 3]> = Vec::new();
        for t in 0..TILE_KINDS {
            blocks.push([t as u8; 3]);
            if t < 27 && t % 9 <= 6 {
                blocks.push([t as u8, t as u8 + 1, t as u8 + 2]);
            }
        }
        let useful: Vec<[u8; 3]> = blocks.into_iter().filter(|b| b.iter().any(|&t| counts[t as usize] > 0)).collect();
        fn rec(
            useful: &[[u8; 3]],
            from: usize,
            left: usize,
            target: &mut [u8; TILE_KINDS],
            counts: &Counts,
            best: &mut u8,
        ) {
            // Every remaining set may also be a fresh one (3 tiles), then the pair.
            let used: u8 = (0..TILE_KINDS).map(|t| target[t].saturating_sub(counts[t])).sum();
            let fresh = 3 * left as u8;
            for p in 0..TILE_KINDS {
                if target[p] + 2 <= 4 {
                    let need = (target[p] + 2).saturating_sub(counts[p]) - target[p].saturating_sub(counts[p]);
                    *best = (*best).min(used + fresh + need);
                }
            }
            if left == 0 {
                return;
            }
            for i in from..useful.len() {
                let b = useful[i];
                if b.iter().all(|&t| target[t as usize] < 4 - (b[0] == b[1]) as u8 * 2) {
                    for &t in &b {
                        target[t as usize] += 1;
                    }
                    rec(useful, i, left - 1, target, counts, best);
                    for &t in &b {
                        target[t as usize] -= 1;
                    }
                }
            }
        }
        let mut best = u8::MAX;
        rec(&useful, 0, sets, &mut [0; TILE_KINDS], counts, &mut best);
        best as i8 - 1
    }

    /// The kinds of one knitted straight and a few more: hands from them are near a knitted
    /// straight often (random hands almost never are).
    fn near_knitted() -> Vec<Tile> {
        KNITTED[1].iter().copied().chain([1, 2, 12, 27, 28]).collect()
    }

    fn random_hand(rng: &mut ChaCha8Rng, n: usize, kinds: &[Tile]) -> Counts {
        let mut wall: Vec<Tile> = kinds.iter().flat_map(|&t| [t; 4]).collect();
        wall.shuffle(rng);
        let mut c = [0u8; TILE_KINDS];
        for &t in &wall[..n] {
            c[t as usize] += 1;
        }
        c
    }

    /// The compiled tables: the ranking numbers every suit vector of at most 14 tiles (and every
    /// honor vector) once, in the order of its tile count; id 0 is impossible; `PAIRS` holds
    /// every two groups combined as [`combine`] combines them.
    #[test]
    fn tables_are_consistent() {
        fn each_vector(kinds: usize, f: &mut dyn FnMut(&[u8])) {
            let mut v = vec![0u8; kinds];
            for idx in 0..5usize.pow(kinds as u32) {
                let mut rest = idx;
                for c in v.iter_mut() {
                    *c = (rest % 5) as u8;
                    rest /= 5;
                }
                f(&v);
            }
        }
        let rank_of = |g: usize, v: &[u8]| {
            if g == 3 {
                rank(&HONOR_RANK, &<[u8; 7]>::try_from(v).unwrap())
            } else {
                rank(&SUIT_RANK, &<[u8; 9]>::try_from(v).unwrap())
            }
        };
        for (g, kinds, max, size) in [(0, 9, 14, SUIT_IDS.len()), (3, 7, 28, HONOR_IDS.len())] {
            let mut seen = vec![false; size];
            let mut first_of = vec![usize::MAX; max + 1];
            each_vector(kinds, &mut |v| {
                let (index, n) = rank_of(g, v);
                assert_eq!(n, v.iter().map(|&c| c as usize).sum::<usize>());
                if n <= max {
                    assert!(!std::mem::replace(&mut seen[index], true), "{v:?} numbered twice");
                    first_of[n] = first_of[n].min(index);
                    if g == 0 {
                        // The set-aside costs: one tile of kinds j, j + 3, j + 6 fewer, where held.
                        for j in 0..3 {
                            let rest: Vec<u8> =
                                (0..9).map(|k| if k % 3 == j { v[k].saturating_sub(1) } else { v[k] }).collect();
                            let want = SUIT_IDS[rank_of(0, &rest).0];
                            assert_eq!(KNIT_IDS[j * SUIT_IDS.len() + index], want, "{v:?} without {j}");
                        }
                    }
                }
            });
            assert!(seen.iter().all(|&s| s));
            assert!(first_of.windows(2).all(|w| w[0] < w[1]), "fewer tiles first");
        }
        assert_eq!(GROUPS[IMPOSSIBLE as usize], Group([INF; LANES]));
        for (a, ga) in GROUPS.iter().enumerate() {
            assert!((0..LANES).all(|l| !GAPS[l] || ga.0[l] == INF));
            for (b, gb) in GROUPS.iter().enumerate() {
                assert_eq!(pair(a as u8, b as u8), combine(ga, gb), "{a} {b}");
            }
        }
    }

    /// The tally taken eight kinds at a time, against one kind at a time; kept up to date tile by
    /// tile, against taken anew.
    #[test]
    fn tally_matches_a_plain_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let kinds_held = |c: &Counts, kinds: &mut dyn Iterator<Item = usize>, at_least: u8| {
            kinds.filter(|&k| c[k] >= at_least).count() as i32
        };
        for _ in 0..2000 {
            let c: Counts = std::array::from_fn(|_| rng.random_range(0..=4));
            let t = Tally::new(&c);
            let orphans = || ORPHANS.iter().map(|&k| k as usize);
            let want = Tally {
                present: (0..TILE_KINDS).filter(|&k| c[k] > 0).fold(0u64, |m, k| m | 1 << k),
                pairs: c.iter().map(|&x| (x / 2) as i32).sum(),
                odd: c.iter().map(|&x| (x & 1) as i32).sum(),
                orphans: kinds_held(&c, &mut orphans(), 1),
                orphan_pairs: kinds_held(&c, &mut orphans(), 2),
                honors: kinds_held(&c, &mut (27..TILE_KINDS), 1),
            };
            assert_eq!(t, want, "{c:?}");
            let held: [u8; 6] =
                std::array::from_fn(|k| KNITTED[k].iter().filter(|&&x| c[x as usize] > 0).count() as u8);
            assert_eq!(t.knitted_held(), held, "{c:?}");
            let k = rng.random_range(0..TILE_KINDS);
            let mut d = c;
            d[k] = rng.random_range(0..=4);
            assert_eq!(t.with(k, c[k], d[k]), Tally::new(&d), "{c:?} {k} to {}", d[k]);
        }
    }

    #[test]
    fn standard_table_matches_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let all: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        let one_suit: Vec<Tile> = (0..9).collect();
        let two_suits: Vec<Tile> = (0..18).collect();
        for i in 0..300 {
            let kinds = [&all, &one_suit, &two_suits][i % 3];
            let declared = i % 5 % 3; // 0, 1 or 2 declared sets
            let n = 13 - 3 * declared + (i % 2);
            let c = random_hand(&mut rng, n, kinds);
            assert_eq!(shanten_standard(&c, declared), brute_standard(&c, 4 - declared), "{c:?} declared {declared}");
        }
    }

    #[test]
    fn seven_pairs_matches_brute_force() {
        // Brute force: pick which kinds form the 7 pairs (4 of a kind = 2 pairs), greedily cheapest.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let kinds: Vec<Tile> = (0..12).collect();
        for _ in 0..300 {
            let c = random_hand(&mut rng, 13, &kinds);
            // cost of the k-th pair of a kind: tiles missing for 2k copies, minus for 2(k-1).
            let mut steps: Vec<u8> = Vec::new();
            for &have in c.iter() {
                steps.push(2u8.saturating_sub(have));
                steps.push(4u8.saturating_sub(have) - 2u8.saturating_sub(have));
            }
            steps.sort_unstable();
            let d: u8 = steps[..7].iter().sum();
            assert_eq!(shanten_seven_pairs(&c), d as i8 - 1, "{c:?}");
        }
    }

    #[test]
    fn effective_tiles_lower_shanten() {
        let (c, m) = counts("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C");
        let (s, eff) = effective_tiles(&c, m, &[0; TILE_KINDS]);
        assert_eq!(s, 0);
        let kinds: Vec<Tile> = eff.iter().map(|e| e.0).collect();
        assert_eq!(kinds, vec![27, 31]);
        assert!(eff.iter().all(|e| e.1 == 2));
    }

    #[test]
    fn all_shapes_is_the_minimum_of_each_shape() {
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        let kinds: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        for i in 0..2000 {
            let c = random_hand(&mut rng, 13 + i % 2, &kinds);
            let want = shanten_standard(&c, 0)
                .min(shanten_seven_pairs(&c))
                .min(shanten_thirteen_orphans(&c))
                .min(shanten_honors_knitted(&c))
                .min(shanten_knitted_straight(&c, 0, i8::MAX));
            assert_eq!(shanten(&c, 0), want, "{c:?}");
        }
    }

    #[test]
    fn shanten_each_agrees_with_one_by_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let kinds: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        let few: Vec<Tile> = (0..9).chain(27..34).collect();
        for i in 0..600 {
            let declared = [0, 0, 1, 2][i % 4];
            let c = random_hand(&mut rng, 13 - 3 * declared + i / 300, [&few, &kinds, &near_knitted()][i % 3]);
            for add in [true, false] {
                let each = shanten_each(&c, declared, add);
                for t in 0..TILE_KINDS {
                    let mut d = c;
                    let want = if add && d[t] < 4 {
                        d[t] += 1;
                        shanten(&d, declared)
                    } else if !add && d[t] > 0 {
                        d[t] -= 1;
                        shanten(&d, declared)
                    } else {
                        i8::MAX
                    };
                    assert_eq!(each[t], want, "{c:?} {t} add {add} declared {declared}");
                }
            }
        }
    }

    #[test]
    fn improving_after_discards_agrees_with_shanten_each() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let kinds: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        let few: Vec<Tile> = (0..9).chain(27..34).collect();
        for i in 0..300 {
            let declared = [0, 0, 1, 2][i % 4];
            let hand = random_hand(&mut rng, 14 - 3 * declared, [&few, &kinds, &near_knitted()][i % 3]);
            let discards = (0..TILE_KINDS).filter(|&t| hand[t] > 0).fold(0u64, |m, t| m | 1 << t);
            let candidates = rng.random::<u64>() & ((1 << TILE_KINDS) - 1);
            for below in -1..5 {
                let got = Around::new(&hand, declared).improving_after_discards(discards, below, candidates);
                for t in kinds_in(discards) {
                    let mask = got[t];
                    let mut c = hand;
                    c[t] -= 1;
                    let after = shanten_each(&c, declared, true);
                    let want = (0..TILE_KINDS)
                        .filter(|&k| candidates >> k & 1 == 1 && after[k] < below)
                        .fold(0u64, |m, k| m | 1 << k);
                    assert_eq!(mask, want, "{hand:?} - {t} below {below}");
                }
            }
        }
    }

    /// The draws that improve the whole hand are exactly those `shanten_each` says lower it
    /// (kinds of a full group kept), and they include every draw that improves the hand after
    /// any discard: what lets the greedy tie-break look at them alone.
    #[test]
    fn improving_draws_cover_the_draws_after_any_discard() {
        let mut rng = ChaCha8Rng::seed_from_u64(15);
        let kinds: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        let few: Vec<Tile> = (0..9).chain(27..34).collect();
        let one_suit: Vec<Tile> = (9..18).collect();
        for i in 0..400 {
            let declared = [0, 0, 1, 2][i % 4];
            let pool = [&kinds, &few, &one_suit][i % 3];
            let hand = random_hand(&mut rng, 14 - 3 * declared, pool);
            let around = Around::new(&hand, declared);
            let after = shanten_each(&hand, declared, true);
            let discards = (0..TILE_KINDS).filter(|&t| hand[t] > 0).fold(0u64, |m, t| m | 1 << t);
            for below in -1..5 {
                let draws = around.improving_draws(below, ALL_KINDS);
                for (k, &s) in after.iter().enumerate() {
                    let full = around.hand.split.ranked.n[group_rank(k).0] >= MAX_SUIT_TILES;
                    assert_eq!(draws >> k & 1 == 1, s < below || full, "{hand:?} + {k} below {below}");
                }
                let drawable = (0..TILE_KINDS).filter(|&k| hand[k] < 4).fold(0u64, |m, k| m | 1 << k);
                for mask in around.improving_after_discards(discards, below, drawable) {
                    assert_eq!(mask & !draws, 0, "{hand:?} below {below}");
                }
            }
        }
    }

    #[test]
    fn winning_shape_is_shanten_minus_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let kinds: Vec<Tile> = (0..TILE_KINDS as u8).collect();
        let few: Vec<Tile> = (0..4).chain(27..34).collect();
        for i in 0..4000 {
            let c = random_hand(&mut rng, 14, if i % 2 == 0 { &few } else { &kinds });
            assert_eq!(is_winning_shape(&c, 0), shanten(&c, 0) == -1, "{c:?}");
        }
        for (h, d) in [
            ("1m 9m 1s 9s 1p 9p E S W N C F P P", 0),
            ("1m 4m 7m 2s 5s 8s 3p 6p 9p E S W N C", 0),
            ("1m 4m 7m 2s 5s 8s 3p 6p 9p 1p 2p 3p E E", 0),
            ("[EEE] 1m 4m 7m 2s 5s 8s 3p 6p 9p C C", 1),
            ("1m 1m 2m 2m 3m 3m 4p 4p 4p 4p E E C C", 0),
        ] {
            let (c, m) = counts(h);
            assert!(is_winning_shape(&c, m) && shanten(&c, m) == -1 && m == d, "{h}");
        }
    }

    #[test]
    fn waits_agree_with_completeness() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let kinds: Vec<Tile> = (0..9).chain(27..30).collect();
        for _ in 0..2000 {
            let c = random_hand(&mut rng, 13, &kinds);
            let waits = standard_waits(&c, (1u64 << TILE_KINDS) - 1);
            for t in 0..TILE_KINDS {
                let mut d = c;
                d[t] += 1;
                let mut e = d;
                assert_eq!(waits >> t & 1 == 1, decomposes(&mut e, true), "{c:?} + {t}");
            }
        }
    }

    #[test]
    fn completeness_agrees_with_recursion() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let kinds: Vec<Tile> = (0..9).chain(27..29).collect();
        for _ in 0..2000 {
            let c = random_hand(&mut rng, 14, &kinds);
            let mut d = c;
            assert_eq!(is_complete_standard(&c), decomposes(&mut d, true));
        }
    }
}
