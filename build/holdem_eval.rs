//! The hold'em evaluator's tables, computed at compile time (see `src/games/holdem/eval.rs` for
//! how they are read). Written as Rust source: `RANK_KEYS`, `KEY_BITS`, `MIX`, `SHIFT`, `FLUSH`,
//! `OFFSETS`, `VALUES` and `FLOOR`.
//!
//! A hand's value is its class among the 7,462 distinct five-card hands, 1 = the weakest. Here
//! every rank multiset (and every one-suit rank set, for flushes) of 5 to 7 cards is scored
//! directly from its rank counts, category by category; the crate's tests check the tables
//! against an independent evaluator that tries every five-card subset.

use std::fmt::Write;

/// Rank keys, 2 to A. Found by a greedy search (each key the smallest number keeping every sum over
/// multisets of ≤ 7 ranks, ≤ 4 of each, distinct); [`write`] re-checks distinctness.
const RANK_KEYS: [u32; 13] = [1, 5, 24, 112, 521, 2247, 9244, 30823, 103066, 250154, 667453, 1526359, 3453520];
/// Rank-key sums are below 2^KEY_BITS. Before the row-displacement hash, a sum is scrambled by a
/// multiplication modulo 2^KEY_BITS (odd, so a bijection: no two sums meet): the sums themselves
/// crowd into a few rows, which pack into a table three times the keys' number; scrambled, every
/// row holds a few keys at random columns and the rows pack almost without gaps (about 86,000
/// slots for 73,775 keys, 200 KB with the offsets instead of 460 KB, so the lookups stay in L2).
const KEY_BITS: u32 = 25;
/// Knuth's multiplicative-hashing constant (2^32 divided by the golden ratio, odd).
const MIX: u32 = 0x9e37_79b1;
/// The scrambled key's high bits pick a row of the displacement table, the low bits a column.
const SHIFT: u32 = 12;
const MASK: u32 = (1 << SHIFT) - 1;

/// A rank-key sum's place in the displacement table's key space.
fn scramble(key: u32) -> u32 {
    key.wrapping_mul(MIX) & ((1 << KEY_BITS) - 1)
}

// Categories, weakest first (the crate's `Category` discriminants).
const HIGH_CARD: u32 = 0;
const ONE_PAIR: u32 = 1;
const TWO_PAIR: u32 = 2;
const THREE_OF_A_KIND: u32 = 3;
const STRAIGHT: u32 = 4;
const FLUSH: u32 = 5;
const FULL_HOUSE: u32 = 6;
const FOUR_OF_A_KIND: u32 = 7;
const STRAIGHT_FLUSH: u32 = 8;

/// A comparable score: the category, then up to five ranks that break ties, highest first.
fn score(category: u32, ranks: &[u8]) -> u32 {
    ranks.iter().enumerate().fold(category << 20, |s, (i, &r)| s | (r as u32) << (16 - 4 * i))
}

/// The top card of the best straight among the ranks in `present` (bit r = rank r; the wheel
/// A-2-3-4-5 has the five as its top card).
fn straight_top(present: u16) -> Option<u8> {
    let with_low_ace = (present << 1 | present >> 12) & 0x3fff; // bit 0 = the ace as a one
    (4..14u8).rev().find(|&top| with_low_ace >> (top - 4) & 0x1f == 0x1f).map(|top| top - 1)
}

/// The highest `k` ranks with at least `n` copies, other than those in `skip`.
fn top(counts: &[u8; 13], n: u8, skip: &[u8], k: usize) -> Vec<u8> {
    (0..13u8).rev().filter(|&r| counts[r as usize] >= n && !skip.contains(&r)).take(k).collect()
}

/// The best five-card score within 5 to 7 cards of these rank counts, all of one suit (`flush`,
/// then every count is 0 or 1) or not (then no five share a suit).
fn best(counts: &[u8; 13], flush: bool) -> u32 {
    let present = (0..13).filter(|&r| counts[r] > 0).fold(0u16, |m, r| m | 1 << r);
    let top = |n: u8, skip: &[u8], k: usize| top(counts, n, skip, k);
    if flush {
        return match straight_top(present) {
            Some(t) => score(STRAIGHT_FLUSH, &[t]),
            None => score(FLUSH, &top(1, &[], 5)),
        };
    }
    if let Some(&q) = top(4, &[], 1).first() {
        return score(FOUR_OF_A_KIND, &[q, top(1, &[q], 1)[0]]);
    }
    let trips = top(3, &[], 1);
    if let Some(&t) = trips.first() {
        if let Some(&p) = top(2, &[t], 1).first() {
            return score(FULL_HOUSE, &[t, p]);
        }
    }
    if let Some(t) = straight_top(present) {
        return score(STRAIGHT, &[t]);
    }
    if let Some(&t) = trips.first() {
        return score(THREE_OF_A_KIND, &[&[t][..], &top(1, &[t], 2)].concat());
    }
    let pairs = top(2, &[], 2);
    match pairs[..] {
        [hi, lo] => score(TWO_PAIR, &[hi, lo, top(1, &[hi, lo], 1)[0]]),
        [p] => score(ONE_PAIR, &[&[p][..], &top(1, &[p], 3)].concat()),
        _ => score(HIGH_CARD, &top(1, &[], 5)),
    }
}

/// Calls `f` with the rank counts of every multiset of `lo..=hi` ranks, each at most 4 times.
fn for_each_multiset(lo: u8, hi: u8, f: &mut dyn FnMut(&[u8; 13], u8)) {
    fn rec(counts: &mut [u8; 13], from: usize, n: u8, lo: u8, hi: u8, f: &mut dyn FnMut(&[u8; 13], u8)) {
        if n >= lo {
            f(counts, n);
        }
        if n == hi {
            return;
        }
        for r in from..13 {
            if counts[r] < 4 {
                counts[r] += 1;
                rec(counts, r, n + 1, lo, hi, f);
                counts[r] -= 1;
            }
        }
    }
    rec(&mut [0; 13], 0, 0, lo, hi, f);
}

/// The rank counts of a 13-bit rank set.
fn counts_of(mask: usize) -> [u8; 13] {
    std::array::from_fn(|r| (mask >> r & 1) as u8)
}

/// Every table, as Rust source.
pub fn write() -> String {
    // The 7,462 classes: every distinct five-card score, weakest first.
    let mut classes = Vec::new();
    for_each_multiset(5, 5, &mut |c, _| classes.push(best(c, false)));
    for mask in (0..1usize << 13).filter(|m| m.count_ones() == 5) {
        classes.push(best(&counts_of(mask), true));
    }
    classes.sort_unstable();
    classes.dedup();
    assert_eq!(classes.len(), 7462, "the five-card hand classes");
    let class_of = |s: u32| classes.binary_search(&s).expect("a five-card score") as u16 + 1;

    let flush: Vec<u16> = (0..1usize << 13)
        .map(|mask| if (5..=7).contains(&mask.count_ones()) { class_of(best(&counts_of(mask), true)) } else { 0 })
        .collect();

    let mut entries: Vec<(u32, u16)> = Vec::with_capacity(80_000);
    for_each_multiset(5, 7, &mut |c, _| {
        let key: u32 = (0..13).map(|r| RANK_KEYS[r] * c[r] as u32).sum();
        assert!(key < 1 << KEY_BITS, "rank-key sums must fit the scrambled key space");
        entries.push((scramble(key), class_of(best(c, false))));
    });
    entries.sort_unstable();
    assert!(entries.windows(2).all(|w| w[0].0 != w[1].0), "rank keys must give distinct sums");
    let (offsets, values) = displace(&entries);

    let floor: Vec<u16> = (0..9)
        .map(|cat| classes.iter().position(|&s| s >> 20 == cat).expect("every category occurs") as u16 + 1)
        .collect();

    let mut out = String::from("// Written by build.rs (build/holdem_eval.rs) at compile time.\n");
    array(&mut out, "const", "RANK_KEYS", "u32", &RANK_KEYS);
    writeln!(out, "const KEY_BITS: u32 = {KEY_BITS};").unwrap();
    writeln!(out, "const MIX: u32 = {MIX};").unwrap();
    writeln!(out, "const SHIFT: u32 = {SHIFT};").unwrap();
    // Constants, gathered into one static by the evaluator (see `Tables` there), which is the
    // only place they are used: the binary holds them once.
    let gathered = "#[allow(clippy::large_const_arrays)]\nconst";
    array(&mut out, gathered, "FLUSH", "HandValue", &flush);
    array(&mut out, gathered, "OFFSETS", "u32", &offsets);
    array(&mut out, gathered, "VALUES", "HandValue", &values);
    array(&mut out, "const", "FLOOR", "HandValue", &floor);
    out
}

fn array<T: std::fmt::Display>(out: &mut String, kind: &str, name: &str, ty: &str, items: &[T]) {
    write!(out, "{kind} {name}: [{ty}; {}] = [", items.len()).unwrap();
    for (i, x) in items.iter().enumerate() {
        if i % 32 == 0 {
            out.push('\n');
        }
        write!(out, "{x},").unwrap();
    }
    out.push_str("\n];\n");
}

/// Row-displacement perfect hash (Tarjan and Yao): the keys of row `key >> SHIFT` keep their column
/// `key & MASK` and the whole row is shifted by one offset chosen so no two keys share a slot.
/// Rows are placed fullest first, each at the first offset that fits; the search tests 64
/// offsets at a time on a bit set of the slots taken.
fn displace(entries: &[(u32, u16)]) -> (Vec<u32>, Vec<u16>) {
    let rows = (entries.last().unwrap().0 >> SHIFT) as usize + 1;
    let mut by_row: Vec<Vec<(u32, u16)>> = vec![Vec::new(); rows];
    for &(k, v) in entries {
        by_row[(k >> SHIFT) as usize].push((k & MASK, v));
    }
    let mut order: Vec<usize> = (0..rows).filter(|&r| !by_row[r].is_empty()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(by_row[r].len()), r));
    let mut taken = Slots(Vec::new());
    let mut values: Vec<u16> = Vec::new();
    let mut offsets = vec![0u32; rows];
    let mut first_free = 0usize;
    for r in order {
        let row = &by_row[r];
        let min_col = row.iter().map(|e| e.0).min().unwrap() as usize;
        let mut off = first_free.saturating_sub(min_col);
        'search: loop {
            // Bit i: offset `off + i` puts some key of the row on a taken slot.
            let mut blocked = 0u64;
            for &(c, _) in row {
                blocked |= taken.window(off + c as usize);
                if blocked == u64::MAX {
                    off += 64;
                    continue 'search;
                }
            }
            off += (!blocked).trailing_zeros() as usize;
            break;
        }
        for &(c, v) in row {
            let slot = off + c as usize;
            taken.set(slot);
            if slot >= values.len() {
                values.resize(slot + 1, 0);
            }
            values[slot] = v;
        }
        offsets[r] = off as u32;
        while taken.window(first_free) & 1 == 1 {
            first_free += 1;
        }
    }
    // Keys never looked up may land past the end: pad so every row's span is addressable.
    values.resize(values.len() + MASK as usize + 1, 0);
    (offsets, values)
}

/// A growable set of slots, one bit each.
struct Slots(Vec<u64>);

impl Slots {
    fn set(&mut self, slot: usize) {
        if slot / 64 >= self.0.len() {
            self.0.resize(slot / 64 + 1, 0);
        }
        self.0[slot / 64] |= 1 << (slot % 64);
    }

    /// Slots `from..from + 64` as bits (bit 0 = `from`); slots past the end are free.
    fn window(&self, from: usize) -> u64 {
        let (i, shift) = (from / 64, from % 64);
        let low = if i < self.0.len() { self.0[i] >> shift } else { 0 };
        let high = if shift > 0 && i + 1 < self.0.len() { self.0[i + 1] << (64 - shift) } else { 0 };
        low | high
    }
}
