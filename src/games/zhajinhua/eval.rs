//! Hand strength: one comparable integer per three-card hand (rules: docs/book/src/rules/zhajinhua.md).
//!
//! `value = category << 12 | r1 << 8 | r2 << 4 | r3`, ranks 0..=12 for 2..A, as in the source
//! document, with its bug fixed: flushes and high cards keep all three ranks from the top (the
//! document repeats the top card where the lowest belongs, so A-K-3 and A-K-2 flushes tied).
//! A larger value is a stronger hand. The one exception is the `special_235` table option, under
//! which 2-3-5 of mixed suits beats a leopard: that relation is not transitive, so it cannot live in
//! an integer and [`beats`] applies it on top of the value order.

use std::sync::OnceLock;

use crate::cards::{Card, Rank};

/// A hand's strength value (see the module doc).
pub type Strength = u16;

/// Hand categories, weakest first; the discriminant is the value's top nibble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    HighCard = 0,
    Pair = 1,
    Straight = 2,
    Flush = 3,
    StraightFlush = 4,
    Leopard = 5,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::HighCard,
        Category::Pair,
        Category::Straight,
        Category::Flush,
        Category::StraightFlush,
        Category::Leopard,
    ];

    pub fn of(value: Strength) -> Category {
        Category::ALL[(value >> 12) as usize]
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::Pair => "pair",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::StraightFlush => "straight flush",
            Category::Leopard => "leopard",
        }
    }

    /// The Chinese name the community uses.
    pub fn name_zh(self) -> &'static str {
        match self {
            Category::HighCard => "高牌",
            Category::Pair => "对子",
            Category::Straight => "顺子",
            Category::Flush => "金",
            Category::StraightFlush => "顺金",
            Category::Leopard => "豹子",
        }
    }
}

const fn pack(cat: Category, r1: Rank, r2: Rank, r3: Rank) -> Strength {
    (cat as u16) << 12 | (r1 as u16) << 8 | (r2 as u16) << 4 | r3 as u16
}

/// The value of 5-3-2 high card, which (mixed suits being implied by "high card") is exactly the
/// `special_235` hand.
pub const SPECIAL_235: Strength = pack(Category::HighCard, 3, 1, 0);

/// The strength of three distinct cards.
pub fn evaluate(cards: [Card; 3]) -> Strength {
    let mut r = [cards[0].rank(), cards[1].rank(), cards[2].rank()];
    r.sort_unstable_by(|a, b| b.cmp(a)); // high to low
    let flush = cards[0].suit() == cards[1].suit() && cards[1].suit() == cards[2].suit();
    if r[0] == r[2] {
        return pack(Category::Leopard, r[0], 0, 0);
    }
    // The top card of a straight; A-2-3 (ranks 12, 1, 0) counts as 3, the lowest straight.
    let straight_top = if r[0] == r[1] + 1 && r[1] == r[2] + 1 {
        Some(r[0])
    } else if r == [12, 1, 0] {
        Some(1)
    } else {
        None
    };
    match (flush, straight_top) {
        (true, Some(top)) => pack(Category::StraightFlush, top, 0, 0),
        (true, None) => pack(Category::Flush, r[0], r[1], r[2]),
        (false, Some(top)) => pack(Category::Straight, top, 0, 0),
        (false, None) if r[0] == r[1] => pack(Category::Pair, r[0], r[2], 0),
        (false, None) if r[1] == r[2] => pack(Category::Pair, r[1], r[0], 0),
        (false, None) => pack(Category::HighCard, r[0], r[1], r[2]),
    }
}

/// Whether hand value `a` beats `b` (strictly). Under `special_235`, 2-3-5 of mixed suits beats a
/// leopard and a leopard loses to it; everything else follows the value order.
pub fn beats(a: Strength, b: Strength, special_235: bool) -> bool {
    if special_235 {
        let leopard = |v: Strength| Category::of(v) == Category::Leopard;
        if a == SPECIAL_235 && leopard(b) {
            return true;
        }
        if leopard(a) && b == SPECIAL_235 {
            return false;
        }
    }
    a > b
}

/// Number of three-card hands, C(52, 3).
pub const HANDS: usize = 22_100;

/// The dense index 0..22100 of a hand (combinatorial number system over the cards' dense indices),
/// for per-hand tables. Card order does not matter.
pub fn hand_index(cards: [Card; 3]) -> usize {
    let mut i = [cards[0].index(), cards[1].index(), cards[2].index()];
    i.sort_unstable();
    i[2] * (i[2] - 1) * (i[2] - 2) / 6 + i[1] * (i[1] - 1) / 2 + i[0]
}

/// Every hand in [`hand_index`] order.
pub fn all_hands() -> &'static [[Card; 3]] {
    static HANDS_LIST: OnceLock<Vec<[Card; 3]>> = OnceLock::new();
    HANDS_LIST.get_or_init(|| {
        let mut out = Vec::with_capacity(HANDS);
        for c in 2..52 {
            for b in 1..c {
                for a in 0..b {
                    out.push([Card::from_index(a), Card::from_index(b), Card::from_index(c)]);
                }
            }
        }
        out
    })
}

/// The strength of every hand in [`hand_index`] order, built once.
pub fn strength_table() -> &'static [Strength] {
    static TABLE: OnceLock<Vec<Strength>> = OnceLock::new();
    TABLE.get_or_init(|| all_hands().iter().map(|&h| evaluate(h)).collect())
}

/// Table lookup of [`evaluate`].
pub fn strength(cards: [Card; 3]) -> Strength {
    strength_table()[hand_index(cards)]
}

/// `Q-K-A straight`, `A-K-3 flush`, `pair of 9s, T kicker`-like short description of a value.
pub fn describe(value: Strength) -> String {
    let rank = |shift: u16| crate::cards::RANK_CHARS[(value >> shift & 15) as usize] as char;
    let cat = Category::of(value);
    match cat {
        Category::Leopard => format!("leopard of {}s", rank(8)),
        Category::StraightFlush | Category::Straight => {
            let top = (value >> 8 & 15) as usize;
            let low = |d: usize| crate::cards::RANK_CHARS[(top + 13 - d) % 13] as char;
            format!("{}-{}-{} {}", low(2), low(1), rank(8), cat.name())
        }
        Category::Pair => format!("pair of {}s, {} kicker", rank(8), rank(4)),
        Category::Flush | Category::HighCard => format!("{}-{}-{} {}", rank(8), rank(4), rank(0), cat.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn hand(s: &str) -> [Card; 3] {
        parse_cards(s).unwrap().try_into().unwrap()
    }
    fn v(s: &str) -> Strength {
        evaluate(hand(s))
    }

    #[test]
    fn exhaustive_category_counts_match_the_reference() {
        // The reference counts for these rules (published with the rules).
        let mut counts = [0usize; 6];
        for &h in all_hands() {
            counts[Category::of(evaluate(h)) as usize] += 1;
        }
        assert_eq!(counts, [16_440, 3_744, 720, 1_096, 48, 52]);
        assert_eq!(all_hands().len(), HANDS);
    }

    #[test]
    fn hand_index_is_a_bijection_independent_of_card_order() {
        for (i, &h) in all_hands().iter().enumerate() {
            assert_eq!(hand_index(h), i);
            assert_eq!(hand_index([h[2], h[0], h[1]]), i);
        }
    }

    #[test]
    fn distinct_values_follow_the_tie_rules() {
        // Suits never break ties, so the number of distinct values is the number of rank patterns
        // each category distinguishes: leopards 13, straight flushes 12, flushes C(13,3) - 12 = 274,
        // straights 12, pairs 13 * 12 = 156, high cards 274.
        let mut per_cat = [
            std::collections::BTreeSet::new(),
            Default::default(),
            Default::default(),
            Default::default(),
            Default::default(),
            Default::default(),
        ];
        for &h in all_hands() {
            let value = evaluate(h);
            per_cat[Category::of(value) as usize].insert(value);
        }
        let sizes: Vec<usize> = per_cat.iter().map(|s| s.len()).collect();
        assert_eq!(sizes, [274, 156, 12, 274, 12, 13]);
    }

    #[test]
    fn flushes_and_high_cards_compare_all_three_cards() {
        // The source document's evaluator ties these (it uses the top card twice).
        assert!(v("AS KS 3S") > v("AH KH 2H"));
        assert!(v("AS KD 3S") > v("AH KH 2C"));
        assert!(v("AS 9S 8S") > v("KH QH 9H"));
        assert!(v("AS 4D 3C") < v("AS 5D 2C"));
        assert_eq!(v("AS KS 3S"), v("AH KH 3H"));
        assert_eq!(v("AS KD 3C"), v("AH KC 3D"));
    }

    #[test]
    fn straights_a23_lowest_qka_highest_no_wrap() {
        let a23 = v("AS 2D 3C");
        assert_eq!(Category::of(a23), Category::Straight);
        assert!(a23 < v("2S 3D 4C"));
        assert!(v("QS KD AC") > v("JS QD KC"));
        assert_eq!(Category::of(v("KS AD 2C")), Category::HighCard);
        let sf_low = v("AH 2H 3H");
        assert_eq!(Category::of(sf_low), Category::StraightFlush);
        assert!(sf_low < v("2S 3S 4S"));
        assert!(v("QS KS AS") > v("JH QH KH"));
        // The top card of A-2-3 is 3, so A-2-3 does not beat 2-3-4 by its ace.
        assert!(v("AC 2C 3C") > v("QS KD AC"));
    }

    #[test]
    fn category_order_leopard_over_straight_flush() {
        let order = ["AS KD 9C", "2S 2D 3C", "2S 3D 4C", "2S 3S 5S", "2H 3H 4H", "2S 2D 2C"];
        for w in order.windows(2) {
            assert!(v(w[0]) < v(w[1]), "{} < {}", w[0], w[1]);
        }
        assert!(v("2S 2D 2C") > v("QS KS AS"));
        assert!(v("AS AD KC") > v("KS KD AC"));
        assert!(v("9S 9D KC") > v("9H 9C QC"));
        assert_eq!(v("9S 9D KC"), v("9H 9C KD"));
    }

    #[test]
    fn special_235_beats_only_leopards() {
        let s = v("2S 3D 5C");
        assert_eq!(s, SPECIAL_235);
        let leopard = v("AS AD AC");
        assert!(beats(s, leopard, true) && !beats(leopard, s, true));
        assert!(!beats(s, leopard, false) && beats(leopard, s, false));
        // Loses to everything else, including the next-lowest high card and any pair.
        for other in ["2H 3H 6D", "2H 2D 3C", "AS 2D 3C", "2C 3C 5C"] {
            assert!(beats(v(other), s, true) && !beats(s, v(other), true), "{other}");
        }
        // A 2-3-5 flush is a flush, not the special hand.
        assert_ne!(v("2C 3C 5C"), SPECIAL_235);
        assert!(!beats(s, v("5S 3H 2D"), true) && !beats(v("5S 3H 2D"), s, true));
    }

    #[test]
    fn describes_values() {
        assert_eq!(describe(v("AS 2D 3C")), "A-2-3 straight");
        assert_eq!(describe(v("QS KS AS")), "Q-K-A straight flush");
        assert_eq!(describe(v("AS KS 3S")), "A-K-3 flush");
        assert_eq!(describe(v("9S 9D TC")), "pair of 9s, T kicker");
        assert_eq!(describe(v("9S 9D 9C")), "leopard of 9s");
    }
}
