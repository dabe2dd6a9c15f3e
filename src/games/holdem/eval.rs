//! Hand evaluation: 5, 6 or 7 cards to one [`HandValue`] (1..=7462, higher is better, equal values
//! ⇔ equal hands: the value is the hand's class among the 7,462 distinct five-card poker hands).
//!
//! Design (tables computed at compile time by `build/holdem_eval.rs`, so no command pays for them):
//! - Every card has a 64-bit key. The low 32 bits are its rank's *rank key*: thirteen numbers chosen
//!   (by a greedy search) so that the sums over every multiset of at most seven ranks (each at most
//!   four times) are all distinct. The high bits count suits, one nibble per suit started at 3, so a
//!   nibble reaches 8 (bit 3 set) exactly when that suit has five or more cards.
//!   Keys are additive: a hand's key is the sum of its cards' keys, so a partial hand (hole cards and
//!   board) is summed once and completed per opponent or per Monte Carlo trial with two additions.
//! - Flush (≥ 5 cards of one suit): with at most seven cards, a flush beats every hand the other
//!   cards could make (no room left for quads or a full house), so the value is
//!   `FLUSH[13-bit rank mask of that suit]`.
//! - Otherwise the rank-key sum is scrambled by a multiplication modulo 2^KEY_BITS (a bijection)
//!   and looked up through a row-displacement perfect hash: `h = key * MIX mod 2^KEY_BITS`,
//!   `VALUES[OFFSETS[h >> SHIFT] + (h & MASK)]` (two loads). Scrambled keys pack the table almost
//!   without gaps: all tables together are 222 KB, which a 512 KB L2 cache holds beside a stream
//!   of hands (unscrambled, the table was a third full and all together 492 KB: 7-card
//!   evaluation of a list of a million random hands took 8.6 ns a hand, now 4.4 ns).
//!
//! The build script scores every rank multiset directly from its counts; the tests check every
//! table against `plain`, a slow evaluator written straight from the rules (best of the
//! five-card subsets).

use crate::cards::{Card, CardSet};

/// A hand's class: 1 (7-5-4-3-2 offsuit) ..= 7462 (royal flush).
pub type HandValue = u16;

pub use crate::cards::Category;

// `RANK_KEYS`, `KEY_BITS`, `MIX`, `SHIFT`, `FLUSH`, `OFFSETS`, `VALUES` and `FLOOR` (the lowest value
// of each category).
include!(concat!(env!("OUT_DIR"), "/holdem_eval_tables.rs"));

/// Suit nibbles start at 3: `3 + count ≥ 8` ⇔ five or more cards of the suit.
/// The tables the evaluator reads, in one static. A caller in another crate (the `peers` bench, a
/// library user) inlines the evaluator and finds a static of this crate through one address load
/// from the global offset table per static: one static instead of three saves a load a hand,
/// which is worth 7% of 7-card evaluation from a list. The build script's arrays are constants
/// used only here, so the binary holds one copy.
struct Tables {
    flush: [HandValue; FLUSH.len()],
    offsets: [u32; OFFSETS.len()],
    values: [HandValue; VALUES.len()],
}

static TABLES: Tables = Tables { flush: FLUSH, offsets: OFFSETS, values: VALUES };

const SUIT_START: u64 = 0x3333 << 32;
const FLUSH_BITS: u64 = 0x8888 << 32;
const MASK: u32 = (1 << SHIFT) - 1;

/// Each card's key, indexed by the card's byte (suit * 16 + rank): its rank key plus one in its
/// suit's nibble. Every byte has an entry, so indexing by one needs no bounds check.
const CARD_KEYS: [u64; 256] = {
    let mut keys = [0u64; 256];
    let mut i = 0;
    while i < 64 {
        let (suit, rank) = (i / 16, i % 16);
        if rank < 13 {
            keys[i] = RANK_KEYS[rank] as u64 | 1 << (32 + 4 * suit);
        }
        i += 1;
    }
    keys
};

/// A card's key (its byte indexes the 256-entry table: no bounds check in the hot loops).
#[inline(always)]
fn card_key(c: Card) -> u64 {
    CARD_KEYS[c.bit() as u8 as usize]
}

/// A hand being built card by card. Adding is two additions; [`Hand::value`] needs 5 to 7 cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hand {
    key: u64,
    cards: u64,
}

impl Default for Hand {
    fn default() -> Hand {
        Hand::new()
    }
}

impl Hand {
    /// The hand of no cards.
    pub const fn new() -> Hand {
        Hand { key: SUIT_START, cards: 0 }
    }

    #[inline(always)]
    /// The hand with `c` added (`c` must not be in it).
    pub fn plus(self, c: Card) -> Hand {
        Hand { key: self.key + card_key(c), cards: self.cards | 1 << c.bit() }
    }

    /// Adds every card of `cs`.
    pub fn with_set(self, cs: CardSet) -> Hand {
        cs.iter().fold(self, Hand::plus)
    }

    /// Both hands' cards (they must be disjoint).
    #[inline(always)]
    pub fn join(self, o: Hand) -> Hand {
        Hand { key: self.key + o.key - SUIT_START, cards: self.cards | o.cards }
    }

    /// How many cards the hand holds.
    pub fn len(self) -> u32 {
        self.cards.count_ones()
    }

    /// Whether the hand holds no card.
    pub fn is_empty(self) -> bool {
        self.cards == 0
    }

    /// The value of the best five cards. Needs 5 to 7 cards.
    #[inline(always)]
    pub fn value(self) -> HandValue {
        let flush = self.key & FLUSH_BITS;
        if flush != 0 {
            let suit = (flush.trailing_zeros() - 35) / 4;
            TABLES.flush[(self.cards >> (16 * suit)) as usize & 0x1fff]
        } else {
            lookup(self.key)
        }
    }
}

/// The value of a hand without five cards of one suit, from its key.
#[inline(always)]
fn lookup(key: u64) -> HandValue {
    let h = (key as u32).wrapping_mul(MIX) & ((1 << KEY_BITS) - 1);
    let t = &TABLES;
    t.values[(t.offsets[(h >> SHIFT) as usize] + (h & MASK)) as usize]
}

/// The value of the best five of `cards` (5 to 7 cards).
#[inline]
pub fn eval(cards: &[Card]) -> HandValue {
    debug_assert!((5..=7).contains(&cards.len()));
    cards.iter().fold(Hand::new(), |h, &c| h.plus(c)).value()
}

/// Seven cards, the showdown case.
#[inline]
pub fn eval7(cards: &[Card; 7]) -> HandValue {
    let key = cards.iter().fold(SUIT_START, |k, &c| k + card_key(c));
    let flush = key & FLUSH_BITS;
    if flush != 0 {
        // Rare (about 3 % of seven-card hands): only now collect the suit's ranks.
        let suit = (flush.trailing_zeros() - 35) / 4;
        let mask = cards.iter().filter(|c| c.suit() as u32 == suit).fold(0usize, |m, c| m | 1 << c.rank());
        TABLES.flush[mask]
    } else {
        lookup(key)
    }
}

/// The category of a value.
pub fn category(v: HandValue) -> Category {
    let i = FLOOR.iter().rposition(|&f| f <= v).unwrap_or(0);
    Category::ALL[i]
}

/// The slow, plain evaluator the tests check the tables against: a five-card hand
/// to `category << 20 | ranks`, the ranks as nibbles in the order that breaks ties (by count, then
/// rank; a straight by its top card, the wheel's being the five).
#[cfg(test)]
pub mod plain {
    use super::Category;

    /// `ranks`: five ranks 0..=12 (2..A); `flush`: all one suit.
    pub fn key5(ranks: [u8; 5], flush: bool) -> u32 {
        let mut count = [0u8; 13];
        for &r in &ranks {
            count[r as usize] += 1;
        }
        // Ranks ordered by (count, rank), highest first.
        let mut order: Vec<u8> = (0..13u8).rev().filter(|&r| count[r as usize] > 0).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(count[r as usize]));
        let shape: Vec<u8> = order.iter().map(|&r| count[r as usize]).collect();
        let straight_top = if order.len() == 5 {
            if order[0] - order[4] == 4 {
                Some(order[0])
            } else if order == [12, 3, 2, 1, 0] {
                Some(3) // A-2-3-4-5: the five is the top card
            } else {
                None
            }
        } else {
            None
        };
        let cat = match (straight_top, flush, shape.as_slice()) {
            (Some(_), true, _) => Category::StraightFlush,
            (_, _, [4, 1]) => Category::FourOfAKind,
            (_, _, [3, 2]) => Category::FullHouse,
            (_, true, _) => Category::Flush,
            (Some(_), false, _) => Category::Straight,
            (_, _, [3, 1, 1]) => Category::ThreeOfAKind,
            (_, _, [2, 2, 1]) => Category::TwoPair,
            (_, _, [2, 1, 1, 1]) => Category::OnePair,
            _ => Category::HighCard,
        };
        let tiebreak: Vec<u8> = match straight_top {
            Some(top) if matches!(cat, Category::Straight | Category::StraightFlush) => vec![top],
            _ => order,
        };
        let mut key = (cat as u32) << 20;
        for (i, &r) in tiebreak.iter().enumerate() {
            key |= (r as u32) << (16 - 4 * i);
        }
        key
    }

    /// Every distinct five-card key, ascending: the 7,462 hand classes.
    pub fn classes() -> Vec<u32> {
        let mut keys = Vec::new();
        for_each_multiset(5, 5, &mut |ranks| {
            let r: [u8; 5] = ranks.try_into().unwrap();
            keys.push(key5(r, false));
            let distinct = (1..5).all(|i| r[i] != r[i - 1]);
            if distinct {
                keys.push(key5(r, true));
            }
        });
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Calls `f` with every non-decreasing rank list of length `lo..=hi` using each rank ≤ 4 times.
    pub fn for_each_multiset(lo: usize, hi: usize, f: &mut dyn FnMut(&[u8])) {
        fn rec(buf: &mut Vec<u8>, from: u8, lo: usize, hi: usize, f: &mut dyn FnMut(&[u8])) {
            if buf.len() >= lo {
                f(buf);
            }
            if buf.len() == hi {
                return;
            }
            for r in from..13 {
                let n = buf.iter().filter(|&&x| x == r).count();
                if n < 4 {
                    buf.push(r);
                    rec(buf, r, lo, hi, f);
                    buf.pop();
                }
            }
        }
        rec(&mut Vec::with_capacity(hi), 0, lo, hi, f);
    }

    /// The best key over every five-card subset of `ranks` (5 to 7 of them).
    pub fn best_key(ranks: &[u8], flush: bool) -> u32 {
        let n = ranks.len();
        let mut best = 0;
        for skip in 0u32..(1 << n) {
            if n as u32 - skip.count_ones() != 5 {
                continue;
            }
            let mut five = [0u8; 5];
            let mut k = 0;
            for (i, &r) in ranks.iter().enumerate() {
                if skip >> i & 1 == 0 {
                    five[k] = r;
                    k += 1;
                }
            }
            best = best.max(key5(five, flush));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use rand::{Rng, SeedableRng};
    use std::sync::OnceLock;

    fn v(s: &str) -> HandValue {
        eval(&parse_cards(s).unwrap())
    }

    /// Document 003's example: AH QD 4S KH 8C, no pair, is type 0 and the ranks A K Q 8 4 as the
    /// nibbles C B A 6 2: 0x000CBA62. The plain scorer writes every hand that way; its two-pair
    /// example 2D AS AH 2C 2H is a full house, as the document says.
    #[test]
    fn the_documents_nibble_encoding() {
        let nibbles = |s: &str| {
            let cards = parse_cards(s).unwrap();
            let ranks: [u8; 5] = std::array::from_fn(|i| cards[i].rank());
            let flush = cards.iter().all(|c| c.suit() == cards[0].suit());
            plain::key5(ranks, flush)
        };
        assert_eq!(nibbles("AH QD 4S KH 8C"), 0x000C_BA62);
        assert_eq!(nibbles("2D AS AH 2C 2H") >> 20, Category::FullHouse as u32);
        assert_eq!(category(v("2D AS AH 2C 2H")), Category::FullHouse);
    }

    /// Plain reference: best of the five-card subsets, mapped to its class.
    fn reference(cards: &[Card]) -> HandValue {
        static CLASSES: OnceLock<Vec<u32>> = OnceLock::new();
        let classes = CLASSES.get_or_init(plain::classes);
        let n = cards.len();
        let mut best = 0;
        for skip in 0u32..(1 << n) {
            if n as u32 - skip.count_ones() != 5 {
                continue;
            }
            let five: Vec<Card> = (0..n).filter(|i| skip >> i & 1 == 0).map(|i| cards[i]).collect();
            let ranks: [u8; 5] = std::array::from_fn(|i| five[i].rank());
            let flush = five.iter().all(|c| c.suit() == five[0].suit());
            best = best.max(plain::key5(ranks, flush));
        }
        classes.binary_search(&best).unwrap() as HandValue + 1
    }

    #[test]
    fn known_orderings() {
        assert_eq!(v("As Ks Qs Js Ts"), 7462);
        assert_eq!(v("7c 5d 4h 3s 2c"), 1);
        assert_eq!(category(v("Ah 2d 3c 4s 5h")), Category::Straight);
        assert!(v("Ah 2d 3c 4s 5h") < v("2h 3d 4c 5s 6h"), "the wheel is the lowest straight");
        assert!(v("Ah 2h 3h 4h 5h") < v("2h 3h 4h 5h 6h"));
        assert_eq!(category(v("Ah 2h 3h 4h 5h")), Category::StraightFlush);
        assert!(v("Kh Kd Kc 2s 2h") > v("Qh Qd Qc As Ah"));
        assert!(v("Ah Ad 9c 9s 3h") > v("Ah Ad 9c 9s 2h"));
        assert_eq!(v("Ah Ad 9c 9s 3h 3c 2d"), v("Ah Ad 9c 9s 3h"));
        assert_eq!(category(v("2c 2d 2h 2s 3c 3d 3h")), Category::FourOfAKind);
        assert_eq!(category(v("9h 8h 2h 3h 4h 9c 9d")), Category::Flush);
        assert_eq!(v("Ah Kh Qh Jh 9h 9c 9d"), v("Ah Kh Qh Jh 9h"));
    }

    #[test]
    fn five_card_hands_give_7462_classes_and_the_known_counts() {
        let cards: Vec<Card> = Card::all().collect();
        let mut seen = vec![false; 7463];
        let mut by_cat = [0u64; 9];
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let x = eval(&[cards[a], cards[b], cards[c], cards[d], cards[e]]);
                            seen[x as usize] = true;
                            by_cat[category(x) as usize] += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(seen.iter().filter(|&&s| s).count(), 7462);
        assert_eq!(by_cat.iter().sum::<u64>(), 2_598_960);
        assert_eq!(by_cat, [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
    }

    #[test]
    fn classes_per_category() {
        let classes = plain::classes();
        let mut n = [0; 9];
        for k in classes {
            n[(k >> 20) as usize] += 1;
        }
        assert_eq!(n, [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]);
    }

    /// All C(52,7) = 133,784,560 seven-card hands: about a second in release, where it runs with
    /// the suite; ignored in debug builds, run it there with
    /// `cargo test --release -- --ignored seven_card_hands_category_counts`.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn seven_card_hands_category_counts() {
        let cards: Vec<Card> = Card::all().collect();
        let mut by_cat = [0u64; 9];
        let mut hist = vec![0u64; 7463];
        let h0 = Hand::new();
        for a in 0..52 {
            let h1 = h0.plus(cards[a]);
            for b in a + 1..52 {
                let h2 = h1.plus(cards[b]);
                for c in b + 1..52 {
                    let h3 = h2.plus(cards[c]);
                    for d in c + 1..52 {
                        let h4 = h3.plus(cards[d]);
                        for e in d + 1..52 {
                            let h5 = h4.plus(cards[e]);
                            for f in e + 1..52 {
                                let h6 = h5.plus(cards[f]);
                                for g in f + 1..52 {
                                    hist[h6.plus(cards[g]).value() as usize] += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        for (value, &n) in hist.iter().enumerate().skip(1) {
            by_cat[category(value as HandValue) as usize] += n;
        }
        assert_eq!(hist[0], 0);
        assert_eq!(by_cat.iter().sum::<u64>(), 133_784_560);
        assert_eq!(
            by_cat,
            [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
        );
        // Seven cards reach 4,824 of the 7,462 classes (the lowest high cards need exactly five).
        assert_eq!(hist.iter().filter(|&&n| n > 0).count(), 4_824);
    }

    #[test]
    fn seven_and_six_cards_match_the_plain_best_of_subsets() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let all: Vec<Card> = Card::all().collect();
        for i in 0..20_000 {
            let n = 5 + i % 3;
            let mut deck = all.clone();
            for j in 0..n {
                let k = rng.random_range(j..52);
                deck.swap(j, k);
            }
            let hand = &deck[..n];
            assert_eq!(eval(hand), reference(hand), "{hand:?}");
            if n == 7 {
                assert_eq!(eval7(hand.try_into().unwrap()), eval(hand));
            }
        }
    }

    #[test]
    fn tables_stay_small() {
        let bytes = std::mem::size_of_val(&TABLES);
        // 221,838 bytes when written (491,606 before the keys were scrambled): the non-flush
        // table is 86% full.
        assert!(bytes < 256 * 1024, "{bytes} bytes");
    }

    /// Every entry the evaluator can read, against the plain evaluator: each rank multiset of 5 to 7
    /// cards without a flush, and each one-suit rank set of 5 to 7 cards.
    #[test]
    fn every_table_entry_matches_the_plain_evaluator() {
        let classes = plain::classes();
        let class_of = |key: u32| classes.binary_search(&key).unwrap() as HandValue + 1;
        let mut multisets = 0;
        plain::for_each_multiset(5, 7, &mut |ranks| {
            let key = ranks.iter().fold(0u64, |k, &r| k + RANK_KEYS[r as usize] as u64);
            assert_eq!(lookup(key), class_of(plain::best_key(ranks, false)), "{ranks:?}");
            multisets += 1;
        });
        assert_eq!(multisets, 6_175 + 18_395 + 49_205);
        for mask in (0..1usize << 13).filter(|m| (5..=7).contains(&m.count_ones())) {
            let ranks: Vec<u8> = (0..13u8).filter(|r| mask >> r & 1 == 1).collect();
            assert_eq!(TABLES.flush[mask], class_of(plain::best_key(&ranks, true)), "{ranks:?}");
        }
        for (cat, &floor) in FLOOR.iter().enumerate() {
            assert_eq!(classes[floor as usize - 1] >> 20, cat as u32);
            assert!(floor == 1 || classes[floor as usize - 2] >> 20 < cat as u32);
        }
    }

    #[test]
    fn partial_hands_join() {
        let a = parse_cards("Ah Kh").unwrap();
        let b = parse_cards("Qh Jh Th 2c 3d").unwrap();
        let ha = a.iter().fold(Hand::new(), |h, &c| h.plus(c));
        let hb = b.iter().fold(Hand::new(), |h, &c| h.plus(c));
        assert_eq!(ha.join(hb).value(), 7462);
        assert_eq!(ha.join(hb).len(), 7);
    }
}
