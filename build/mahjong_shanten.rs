//! The shanten tables (see `src/games/mahjong/shanten.rs` for how they are read), computed at
//! compile time.
//!
//! For every count vector of one group (a suit: nine kinds, chows allowed; the honors: seven
//! kinds, pungs only) and every target of `m` sets (0..=4) with or without the pair, the fewest
//! tiles the group must still get so that it contains the target (its *replacement number*).
//! The distinct cost vectors are written once ([`GROUPS`]), and each group vector's entry is the
//! index of its costs, so the tables are small:
//!
//! - `SUIT_IDS`: suit vectors of at most 14 tiles (405,350 of them; a suit of a hand never holds
//!   more), `HONOR_IDS`: every honor vector (78,125), one byte each (131 distinct cost vectors),
//!   in binary files;
//! - `SUIT_RANK`, `HONOR_RANK`: the ranking that numbers the vectors, fewest tiles first, so the
//!   vectors a real hand has (a few tiles per group) sit together at the front and stay in cache:
//!   `index = Σ RANK[b][p][5 * c + d]` over the kinds taken two at a time (`b`: kinds `2b`,
//!   `2b + 1`, with counts `c`, `d`; `d = 0` past the last kind), `p` the tiles of the kinds
//!   before (see [`rank_table`]);
//! - `KNIT_IDS`: for each suit vector, the ids of its costs once a knitted straight's three tiles
//!   of the suit (1-4-7, 2-5-8 or 3-6-9) are set aside, `KNIT_IDS[j * SUIT_IDS.len() + index]`;
//! - `GROUPS`: the cost vectors (id 0: impossible, for a suit of more than 14 tiles), and `PAIRS`:
//!   every two of them combined (16 bytes each, `PAIRS[(a * GROUPS.len() + b) * 16..]`), so that
//!   two of a hand's four combinations are one lookup each.

use std::collections::HashMap;
use std::fmt::Write;

/// Lane `m` of a cost vector (`Group`): tiles needed for `m` sets; lane `PAIR + m`: for `m` sets
/// and the pair; every other lane INF. The gap keeps a shift by up to 4 lanes (one group's set count)
/// from carrying the no-pair lanes into the pair lanes.
const LANES: usize = 16;
const PAIR: usize = 10;
/// Impossible (no target needs more than 14 tiles).
const INF: u8 = 15;

/// Every count vector of `len` kinds (0..=4 copies each), by base-5 index (kind 0 the least
/// significant digit), with its replacement numbers in lanes.
fn replacement_numbers(len: usize, chows: bool) -> Vec<[u8; LANES]> {
    let pow5: Vec<usize> = (0..=len).map(|i| 5usize.pow(i as u32)).collect();
    let n = pow5[len];
    // 1. Which targets (bit m * 2 + p) each vector already contains: closure under adding a set,
    //    the pair, or a stray tile to a smaller vector.
    let mut contains = vec![0u16; n];
    let mut digits = [0usize; 9];
    for idx in 0..n {
        if idx > 0 {
            let mut i = 0;
            while digits[i] == 4 {
                digits[i] = 0;
                i += 1;
            }
            digits[i] += 1;
        }
        let mut mask = 1u16; // zero sets, no pair
        for i in 0..len {
            let c = digits[i];
            if c >= 1 {
                mask |= contains[idx - pow5[i]];
            }
            if c >= 2 {
                mask |= (contains[idx - 2 * pow5[i]] & 0b01_0101_0101) << 1;
            }
            if c >= 3 {
                mask |= (contains[idx - 3 * pow5[i]] << 2) & 0x3ff;
            }
            if chows && i + 2 < len && c >= 1 && digits[i + 1] >= 1 && digits[i + 2] >= 1 {
                mask |= (contains[idx - pow5[i] - pow5[i + 1] - pow5[i + 2]] << 2) & 0x3ff;
            }
        }
        contains[idx] = mask;
    }
    // 2. Distance: 0 when contained, else one tile more than the best vector with one more tile.
    //    Each vector's ten numbers are lanes of one u128 (the layout of `Group`), so taking the
    //    minimum over a neighbour is a few word operations (fast even in an unoptimised build).
    let mut cost = vec![0u128; n];
    for idx in (0..n).rev() {
        let mut best = u128::from_le_bytes([INF; LANES]);
        let (mut rest, mut i) = (idx, 0);
        while i < len {
            if rest % 5 < 4 {
                best = min_lanes(best, cost[idx + pow5[i]]);
            }
            rest /= 5;
            i += 1;
        }
        let mut lanes = [INF; LANES];
        let best = best.to_le_bytes();
        for (k, lane) in TARGET_LANES.iter().enumerate() {
            lanes[*lane] = if contains[idx] >> k & 1 == 1 { 0 } else { (best[*lane] + 1).min(INF) };
        }
        cost[idx] = u128::from_le_bytes(lanes);
    }
    cost.into_iter().map(u128::to_le_bytes).collect()
}

/// The lane of target bit `m * 2 + p`.
const TARGET_LANES: [usize; 10] = [0, PAIR, 1, PAIR + 1, 2, PAIR + 2, 3, PAIR + 3, 4, PAIR + 4];

/// The lane-wise minimum of two vectors of byte lanes below 128.
fn min_lanes(x: u128, y: u128) -> u128 {
    const HIGH: u128 = u128::from_le_bytes([0x80; LANES]);
    // Per lane 128 + x - y: no borrow crosses lanes, and bit 7 says x >= y.
    let x_ge_y = ((x | HIGH).wrapping_sub(y) & HIGH) >> 7;
    let mask = (x_ge_y << 8).wrapping_sub(x_ge_y); // 0xff in those lanes
    (y & mask) | (x & !mask)
}

/// `count[k][s]`: vectors of `k` kinds (0..=4 copies each) with `s` tiles.
fn counts(kinds: usize, max_tiles: usize) -> Vec<Vec<u32>> {
    let mut count = vec![vec![0u32; max_tiles + 1]; kinds + 1];
    count[0][0] = 1;
    for k in 1..=kinds {
        for s in 0..=max_tiles {
            count[k][s] = (0..=4.min(s)).map(|c| count[k - 1][s - c]).sum();
        }
    }
    count
}

/// The ranking of the vectors of `kinds` kinds with at most `max_tiles` tiles: fewer tiles first,
/// then by the counts from the last kind down. A vector's index is the sum over its kinds `i`
/// (count `c`, `p` tiles before `i`) of `per_kind[i][p][c]`: the vectors that agree with it above
/// `i` and hold fewer than `c` of kind `i` (the kinds below `i` then hold the rest of its tiles),
/// plus, for the last kind, the vectors with fewer tiles in all. Two kinds are looked up at once:
/// the table returned holds, for kinds `2b` and `2b + 1` with counts `c` and `d`,
/// `rank[b][p][5 * c + d]` = the sum of their two terms. `p` goes up to `4 * kinds`, so a vector
/// with too many tiles can be ranked before it is rejected (its entries past `max_tiles` are 0).
fn rank_table(kinds: usize, max_tiles: usize) -> Vec<Vec<[u32; 25]>> {
    let count = counts(kinds, max_tiles);
    let fewer: Vec<u32> = (0..=max_tiles).map(|n| count[kinds][..n].iter().sum()).collect();
    let rows = 4 * kinds + 1;
    let per_kind: Vec<Vec<[u32; 5]>> = (0..kinds)
        .map(|i| {
            let mut t = vec![[0u32; 5]; rows];
            for (p, row) in t.iter_mut().enumerate().take(max_tiles + 1) {
                for (c, entry) in row.iter_mut().enumerate() {
                    if p + c > max_tiles {
                        continue;
                    }
                    *entry = (0..c).map(|lower| count[i][p + c - lower]).sum();
                    if i + 1 == kinds {
                        *entry += fewer[p + c];
                    }
                }
            }
            t
        })
        .collect();
    (0..kinds.div_ceil(2))
        .map(|b| {
            let mut t = vec![[0u32; 25]; rows];
            for (p, row) in t.iter_mut().enumerate() {
                for c in 0..5 {
                    for d in 0..5 {
                        row[5 * c + d] = match per_kind.get(2 * b + 1) {
                            Some(next) if p + c < rows => per_kind[2 * b][p][c] + next[p + c][d],
                            Some(_) => 0,
                            None if d == 0 => per_kind[2 * b][p][c],
                            None => 0,
                        };
                    }
                }
            }
            t
        })
        .collect()
}

/// A vector's number and tiles by the ranking of [`rank_table`].
fn rank(table: &[Vec<[u32; 25]>], digits: &[usize]) -> (usize, usize) {
    let (mut index, mut tiles) = (0, 0);
    for (row, two) in table.iter().zip(digits.chunks(2)) {
        let (c, d) = (two[0], two.get(1).copied().unwrap_or(0));
        index += row[tiles][5 * c + d] as usize;
        tiles += c + d;
    }
    (index, tiles)
}

/// The tables of one kind of group (`kinds` kinds, at most `max_tiles` tiles) by the vectors'
/// ranking: the id of each vector's costs, and (`knitted`, for suits) of its costs once one tile
/// of each of the kinds 1-4-7, 2-5-8 or 3-6-9 is set aside for a knitted straight (`knit[j]`, the
/// kinds `j`, `j + 3`, `j + 6`, where held).
struct Ids {
    rank: Vec<Vec<[u32; 25]>>,
    ids: Vec<u8>,
    knit: Vec<u8>,
}

fn ids(kinds: usize, max_tiles: usize, chows: bool, knitted: bool, groups: &mut Groups) -> Ids {
    let pow5: Vec<usize> = (0..kinds).map(|i| 5usize.pow(i as u32)).collect();
    let cost = replacement_numbers(kinds, chows);
    let rank_table = rank_table(kinds, max_tiles);
    let size = counts(kinds, max_tiles)[kinds].iter().sum::<u32>() as usize;
    let mut ids = vec![u8::MAX; size];
    let mut knit = if knitted { vec![u8::MAX; 3 * size] } else { Vec::new() };
    for (idx, &lanes) in cost.iter().enumerate() {
        let digits: Vec<usize> = pow5.iter().map(|p| idx / p % 5).collect();
        let (index, tiles) = rank(&rank_table, &digits);
        if tiles > max_tiles {
            continue;
        }
        assert_eq!(ids[index], u8::MAX, "the ranking numbers each vector once");
        ids[index] = groups.id(lanes);
        if knitted {
            for j in 0..3 {
                let set_aside: usize = [j, j + 3, j + 6].iter().filter(|&&k| digits[k] > 0).map(|&k| pow5[k]).sum();
                knit[j * size + index] = groups.id(cost[idx - set_aside]);
            }
        }
    }
    assert!(ids.iter().chain(&knit).all(|&id| id != u8::MAX), "the ranking numbers every vector");
    Ids { rank: rank_table, ids, knit }
}

/// The distinct cost vectors, numbered in order of appearance, the impossible one (all INF) first.
struct Groups {
    list: Vec<[u8; LANES]>,
    ids: HashMap<[u8; LANES], u8>,
}

impl Groups {
    fn new() -> Groups {
        let mut groups = Groups { list: Vec::new(), ids: HashMap::new() };
        groups.id([INF; LANES]);
        groups
    }

    fn id(&mut self, lanes: [u8; LANES]) -> u8 {
        let next = u8::try_from(self.list.len()).expect("fewer than 256 distinct cost vectors");
        let id = *self.ids.entry(lanes).or_insert(next);
        if id == next {
            self.list.push(lanes);
        }
        id
    }
}

/// Two groups combined: for each target, the cheapest split of its sets (and the pair) between
/// them, straight from the definition.
fn combined(a: &[u8; LANES], b: &[u8; LANES]) -> [u8; LANES] {
    let mut out = [INF; LANES];
    for m in 0..5 {
        for i in 0..=m {
            let j = m - i;
            out[m] = out[m].min(a[i] + b[j]);
            out[PAIR + m] = out[PAIR + m].min(a[PAIR + i] + b[j]).min(a[i] + b[PAIR + j]);
        }
    }
    out.map(|x| x.min(INF))
}

/// Every file: the Rust source the evaluator includes, and the binary tables it names.
pub fn write() -> Vec<(&'static str, Vec<u8>)> {
    let mut groups = Groups::new();
    let suits = ids(9, 14, true, true, &mut groups);
    let honors = ids(7, 28, false, false, &mut groups);
    let pairs: Vec<u8> =
        groups.list.iter().flat_map(|a| groups.list.iter().flat_map(move |b| combined(a, b))).collect();

    let mut out = String::from("// Written by build.rs (build/mahjong_shanten.rs) at compile time.\n");
    for (name, rank) in [("SUIT_RANK", &suits.rank), ("HONOR_RANK", &honors.rank)] {
        writeln!(out, "static {name}: [[[u32; 25]; {}]; {}] = [", rank[0].len(), rank.len()).unwrap();
        for kind in rank {
            writeln!(out, "    {kind:?},").unwrap();
        }
        out.push_str("];\n");
    }
    writeln!(out, "static GROUPS: [Group; {}] = [", groups.list.len()).unwrap();
    for g in &groups.list {
        writeln!(out, "    Group({g:?}),").unwrap();
    }
    out.push_str("];\n");
    let tables = [
        ("SUIT_IDS", "shanten_suit_ids.bin", suits.ids),
        ("KNIT_IDS", "shanten_knit_ids.bin", suits.knit),
        ("HONOR_IDS", "shanten_honor_ids.bin", honors.ids),
        ("PAIRS", "shanten_pairs.bin", pairs),
    ];
    for (name, file, bytes) in &tables {
        writeln!(
            out,
            "static {name}: &[u8; {}] = include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));",
            bytes.len()
        )
        .unwrap();
    }
    let mut files = vec![("shanten_tables.rs", out.into_bytes())];
    files.extend(tables.into_iter().map(|(_, file, bytes)| (file, bytes)));
    files
}
