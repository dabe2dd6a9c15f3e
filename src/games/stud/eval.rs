//! Hand ranking per docs/book/src/rules/stud.md: the ace is always high, A-2-3-4-5 and wrap-arounds
//! are not straights, suits never break ties.
//!
//! A hand's strength is one comparable integer, [`HandValue`]:
//!
//! ```text
//! category << 26 | primary << 13 | secondary
//! ```
//!
//! `primary` and `secondary` are 13-bit rank masks (bit r = rank r, 2..A). For sets of ranks of
//! the same size, comparing masks as integers compares the ranks card by card from the top, which
//! is exactly each tie-break rule of the rules file:
//!
//! | category | primary | secondary |
//! |---|---|---|
//! | four of a kind | the quad rank | the kicker |
//! | full house | the trips rank | the pair rank |
//! | three of a kind | the trips rank | the two kickers |
//! | two pair | both pair ranks (higher pair first, then lower) | the kicker |
//! | one pair | the pair rank | the three kickers |
//! | straight (flush), flush, high card | — | all five ranks (a straight: its top card decides) |
//!
//! Equal integers are a tie. The same function ranks partial hands (1-4 face-up cards, who acts
//! first): with fewer than five cards only groups count (pairs, trips, quads), never straights or
//! flushes.

use crate::cards::CardSet;

/// Categories from low to high (shared with hold'em); the discriminant is the top field of a
/// [`HandValue`].
pub use crate::cards::Category;

/// The strength of a hand: greater is better, equal is a tie.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandValue(pub u32);

impl HandValue {
    const fn new(category: Category, primary: u16, secondary: u16) -> HandValue {
        HandValue((category as u32) << 26 | (primary as u32) << 13 | secondary as u32)
    }

    pub fn category(self) -> Category {
        Category::ALL[(self.0 >> 26) as usize]
    }
}

/// The ranks held exactly once, twice, three and four times.
struct Groups {
    singles: u16,
    pairs: u16,
    trips: u16,
    quads: u16,
}

fn groups(cards: CardSet) -> Groups {
    let [c, d, h, s] = [0, 1, 2, 3].map(|suit| cards.suit_mask(suit));
    let any = c | d | h | s;
    let two_or_more = (c & d) | (c & h) | (c & s) | (d & h) | (d & s) | (h & s);
    let three_or_more = (c & d & h) | (c & d & s) | (c & h & s) | (d & h & s);
    let four = c & d & h & s;
    Groups {
        singles: any & !two_or_more,
        pairs: two_or_more & !three_or_more,
        trips: three_or_more & !four,
        quads: four,
    }
}

/// Five distinct ranks in a row, ace high only (A-2-3-4-5 is bits 12,0,1,2,3: not a run).
/// `ranks` holds five ranks. (No `count_ones` in the hot path: without a target CPU it is slow.)
fn is_straight(ranks: u16) -> bool {
    ranks >> ranks.trailing_zeros() == 0b11111
}

/// Five cards of five distinct ranks (`ranks`) all in one suit.
fn is_flush(cards: CardSet, ranks: u16) -> bool {
    (0..4).any(|suit| cards.suit_mask(suit) == ranks)
}

/// The value of 1 to 5 cards. Five cards: the full ranking; fewer: the partial ranking that decides
/// who acts first (groups and high cards only).
pub fn value(cards: CardSet) -> HandValue {
    rank(cards, cards.len() == 5)
}

/// The value of exactly five cards (the hot path of the win probability): the same integer as
/// [`value`], computed without branches. The category of a sampled hand is a coin toss to the
/// branch predictor (high card and one pair are nearly 50/50), so the cases are combined
/// arithmetically instead of matched.
#[inline]
pub fn value5(cards: CardSet) -> HandValue {
    debug_assert_eq!(cards.len(), 5);
    let g = groups(cards);
    let any = g.singles | g.pairs | g.trips | g.quads;
    // Five cards: trips go with a pair (full house) or with singles (three of a kind), never
    // both, so the trips are the primary ranks and the rest the secondary; otherwise the quads or
    // the pairs are primary (at most one of them is non-zero) and the singles secondary.
    let has_trips = g.trips != 0;
    let (primary, secondary) = if has_trips { (g.trips, g.pairs | g.singles) } else { (g.quads | g.pairs, g.singles) };
    // Category of the groups: one pair, two pair, trips, full house, quads (0 = no group).
    let two_pairs = g.pairs & g.pairs.wrapping_sub(1) != 0;
    let grouped = GROUPED[(g.quads != 0) as usize * 4 + has_trips as usize * 2 + (g.pairs != 0) as usize] as u32
        + two_pairs as u32;
    // Five distinct ranks: five in a row (ace high only), one suit. With any group, `run` is
    // false (fewer than five singles) and `flush` is masked off.
    let s = g.singles;
    let run = s & s >> 1 & s >> 2 & s >> 3 & s >> 4 != 0;
    let [c, d, h, sp] = [0, 1, 2, 3].map(|suit| cards.suit_mask(suit));
    let flush = (c == any) | (d == any) | (h == any) | (sp == any);
    let flush = flush & (grouped == 0);
    // High card 0, straight 4, flush 5, straight flush 8.
    let plain = 4 * run as u32 + 5 * flush as u32 - (run & flush) as u32;
    HandValue((grouped + plain) << 26 | (primary as u32) << 13 | secondary as u32)
}

/// The category of a five-card hand's groups by (quads, trips, pairs present); two pair adds one
/// to one pair.
const GROUPED: [u8; 8] = {
    let mut t = [0u8; 8];
    t[0b001] = Category::OnePair as u8;
    t[0b010] = Category::ThreeOfAKind as u8;
    t[0b011] = Category::FullHouse as u8;
    t[0b100] = Category::FourOfAKind as u8;
    t
};

#[inline]
fn rank(cards: CardSet, five: bool) -> HandValue {
    let g = groups(cards);
    let two_pairs = g.pairs & g.pairs.wrapping_sub(1) != 0;
    // Groups first: a hand with a pair or better is never a straight or a flush.
    match (g.quads != 0, g.trips != 0, g.pairs != 0) {
        (true, _, _) => HandValue::new(Category::FourOfAKind, g.quads, g.singles),
        (false, true, true) => HandValue::new(Category::FullHouse, g.trips, g.pairs),
        (false, true, false) => HandValue::new(Category::ThreeOfAKind, g.trips, g.singles),
        (false, false, true) if two_pairs => HandValue::new(Category::TwoPair, g.pairs, g.singles),
        (false, false, true) => HandValue::new(Category::OnePair, g.pairs, g.singles),
        (false, false, false) => {
            let straight = five && is_straight(g.singles);
            let flush = five && is_flush(cards, g.singles);
            let category = match (straight, flush) {
                (true, true) => Category::StraightFlush,
                (false, true) => Category::Flush,
                (true, false) => Category::Straight,
                (false, false) => Category::HighCard,
            };
            HandValue::new(category, 0, g.singles)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Card};
    use rand::{Rng, SeedableRng};
    use std::cmp::Ordering;

    fn v(s: &str) -> HandValue {
        value(parse_cards(s).unwrap().into_iter().collect())
    }

    fn cat(s: &str) -> Category {
        v(s).category()
    }

    /// Every 5-card hand once, as a CardSet.
    fn for_each_hand(mut f: impl FnMut(CardSet)) {
        let cards: Vec<Card> = Card::all().collect();
        for a in 0..52 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            f([a, b, c, d, e].iter().map(|&i| cards[i]).collect());
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn category_counts_over_all_hands_match_the_reference() {
        let mut counts = [0u32; 9];
        for_each_hand(|hand| {
            assert_eq!(value5(hand), value(hand));
            counts[value5(hand).category() as usize] += 1
        });
        // The reference counts for these rules (published with the rules), high card first.
        assert_eq!(counts, [1_303_560, 1_098_240, 123_552, 54_912, 9_180, 5_112, 3_744, 624, 36]);
        assert_eq!(counts.iter().sum::<u32>(), 2_598_960);
    }

    #[test]
    fn the_documents_categories() {
        assert_eq!(cat("10S JS QS KS AS"), Category::StraightFlush);
        assert_eq!(cat("4D 5D 6D 7D 8D"), Category::StraightFlush);
        assert_eq!(cat("7S 7C 7D 7H 8D"), Category::FourOfAKind);
        assert_eq!(cat("3D 3S 3C KS KH"), Category::FullHouse);
        assert_eq!(cat("3H 7H 10H QH AH"), Category::Flush);
        assert_eq!(cat("5C 6D 7C 8H 9S"), Category::Straight);
        assert_eq!(cat("JH JS JD 10S 5C"), Category::ThreeOfAKind);
        assert_eq!(cat("5H 5S 9C 9S AC"), Category::TwoPair);
        assert_eq!(cat("AS AD JC 10D QS"), Category::OnePair);
        assert_eq!(cat("2S 3C 8D 10C 5H"), Category::HighCard);
        assert_eq!(cat("8S 10D 10S 8H 8C"), Category::FullHouse);
    }

    #[test]
    fn the_ace_is_always_high_and_nothing_wraps() {
        assert_eq!(cat("AS 2D 3C 4H 5S"), Category::HighCard);
        assert_eq!(cat("AS 2S 3S 4S 5S"), Category::Flush);
        assert_eq!(cat("JS QD KC AH 2S"), Category::HighCard);
        assert_eq!(cat("10S JD QC KH AS"), Category::Straight);
        // A-2-3-4-5 is an ace-high hand: above K-high, below a pair.
        assert!(v("AS 2D 3C 4H 5S") > v("KS QD JC 9H 8S"));
        assert!(v("AS 2D 3C 4H 5S") < v("2S 2D 3C 4H 5S"));
        // The lowest straight is 2-6.
        assert!(v("2S 3D 4C 5H 6S") > v("AS KD QC JH 9S"));
        assert!(v("2S 3D 4C 5H 6S") < v("3S 4D 5C 6H 7S"));
    }

    #[test]
    fn categories_order_as_in_the_rules() {
        let ladder = [
            "2S 3C 8D 10C 5H",
            "AS AD JC 10D QS",
            "5H 5S 9C 9S AC",
            "JH JS JD 10S 5C",
            "5C 6D 7C 8H 9S",
            "3H 7H 10H QH AH",
            "3D 3S 3C KS KH",
            "7S 7C 7D 7H 8D",
            "4D 5D 6D 7D 8D",
            "10S JS QS KS AS",
        ];
        for pair in ladder.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn straights_and_straight_flushes_by_the_top_card() {
        assert!(v("9S 10D JC QH KS") > v("8S 9D 10C JH QS"));
        assert_eq!(v("9S 10D JC QH KS"), v("9H 10H JS QC KD"));
        assert!(v("10S JS QS KS AS") > v("9D 10D JD QD KD"));
        assert_eq!(v("10S JS QS KS AS"), v("10H JH QH KH AH"));
        assert!(v("2C 3C 4C 5C 6C") > v("AS AC AD AH KD"));
    }

    #[test]
    fn flushes_and_high_cards_card_by_card_from_the_top() {
        // Differences at every position, down to the fifth card.
        assert!(v("AH KH 9H 7H 4H") > v("KS QS JS 9S 7S"));
        assert!(v("AH KH 9H 7H 4H") > v("AS QS JS 9S 7S"));
        assert!(v("AH KH 9H 7H 4H") > v("AS KS 8S 7S 6S"));
        assert!(v("AH KH 9H 7H 4H") > v("AS KS 9S 6S 5S"));
        assert!(v("AH KH 9H 7H 4H") > v("AS KS 9S 7S 3S"));
        assert_eq!(v("AH KH 9H 7H 4H"), v("AS KS 9S 7S 4S"));
        assert!(v("AH KD 9C 7H 3S") > v("AS KC 9D 7S 2H"));
        assert!(v("AH KD 9C 7H 3S") < v("AS KC 9D 8S 2H"));
        assert_eq!(v("AH KD 9C 7H 3S"), v("AS KC 9D 7S 3H"));
    }

    #[test]
    fn groups_by_rank_then_kickers() {
        // Four of a kind: the quad, then the kicker (separate decks for the same quad).
        assert!(v("8S 8C 8D 8H 2D") > v("7S 7C 7D 7H AD"));
        assert!(v("8S 8C 8D 8H KD") > v("8S 8C 8D 8H QD"));
        assert_eq!(v("8S 8C 8D 8H KD"), v("8S 8C 8D 8H KS"));
        // Full house: the trips, then the pair.
        assert!(v("4D 4S 4C 2S 2H") > v("3D 3S 3C AS AH"));
        assert!(v("4D 4S 4C KS KH") > v("4D 4S 4C QS QH"));
        assert_eq!(v("4D 4S 4C KS KH"), v("4D 4S 4H KC KD"));
        // Three of a kind: the trips, then the kickers from the top.
        assert!(v("JH JS JD 3S 2C") > v("10H 10S 10D AS KC"));
        assert!(v("JH JS JD AS 2C") > v("JH JS JC KS QC"));
        assert!(v("JH JS JD AS 3C") > v("JH JS JC AD 2C"));
        assert_eq!(v("JH JS JD AS 3C"), v("JH JS JC AD 3D"));
    }

    #[test]
    fn two_pair_by_high_pair_then_low_pair_then_kicker() {
        assert!(v("KH KS 2C 2S 3C") > v("QH QS JC JS AC"));
        assert!(v("KH KS 5C 5S 3C") > v("KD KC 4C 4S AC"));
        assert!(v("KH KS 5C 5S 4C") > v("KD KC 5D 5H 3C"));
        assert_eq!(v("KH KS 5C 5S 4C"), v("KD KC 5D 5H 4D"));
    }

    #[test]
    fn one_pair_by_the_pair_then_kickers_from_the_top() {
        assert!(v("3H 3S 4C 5S 6C") > v("2H 2S AC KS QC"));
        assert!(v("AS AD KC 3D 2S") > v("AH AC QC JD 9S"));
        assert!(v("AS AD KC 4D 2S") > v("AH AC KD 3D 2H"));
        assert!(v("AS AD KC 4D 3S") > v("AH AC KD 4H 2H"));
        assert_eq!(v("AS AD KC 4D 3S"), v("AH AC KD 4H 3H"));
    }

    /// An independent, slow ranking: sort the ranks by (count, rank) from the top, classify, and
    /// compare (category, that list) lexicographically.
    fn reference(hand: &[Card]) -> (u8, Vec<(usize, u8)>) {
        let mut counts = [0usize; 13];
        hand.iter().for_each(|c| counts[c.rank() as usize] += 1);
        let mut groups: Vec<(usize, u8)> =
            (0..13u8).filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
        groups.sort_by(|a, b| b.cmp(a));
        let shape: Vec<usize> = groups.iter().map(|g| g.0).collect();
        let flush = hand.iter().all(|c| c.suit() == hand[0].suit());
        let straight = shape.len() == 5 && groups[0].1 - groups[4].1 == 4;
        let category = match shape.as_slice() {
            [4, 1] => 7,
            [3, 2] => 6,
            [3, 1, 1] => 3,
            [2, 2, 1] => 2,
            [2, 1, 1, 1] => 1,
            _ if straight && flush => 8,
            _ if flush => 5,
            _ if straight => 4,
            _ => 0,
        };
        (category, groups)
    }

    #[test]
    fn agrees_with_a_slow_reference_on_random_pairs_and_ignores_suits() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let deal = |rng: &mut rand_chacha::ChaCha8Rng| -> Vec<Card> {
            let mut set = CardSet::EMPTY;
            while set.len() < 5 {
                set.insert(Card::from_index(rng.random_range(0..52)));
            }
            set.iter().collect()
        };
        let mut orders = [0u32; 3];
        for _ in 0..100_000 {
            // Bias towards close hands: half the time the second hand shares the first's ranks.
            let a = deal(&mut rng);
            let b = if rng.random_bool(0.5) {
                let shift: u8 = rng.random_range(0..4);
                a.iter().map(|c| Card::new(c.rank(), (c.suit() + shift) % 4)).collect()
            } else {
                deal(&mut rng)
            };
            let ours = value(a.iter().copied().collect()).cmp(&value(b.iter().copied().collect()));
            assert_eq!(ours, reference(&a).cmp(&reference(&b)), "{a:?} vs {b:?}");
            orders[match ours {
                Ordering::Less => 0,
                Ordering::Equal => 1,
                Ordering::Greater => 2,
            }] += 1;
        }
        assert!(orders.iter().all(|&n| n > 1000), "{orders:?}");
    }

    #[test]
    fn partial_hands_rank_groups_only() {
        // No straights or flushes with fewer than five cards.
        assert_eq!(cat("10S JS QS KS"), Category::HighCard);
        assert!(v("2S 2D") > v("AS KS"));
        assert!(v("2S 2D 3C") < v("AS AD KC"));
        assert!(v("AS AD KC") > v("AH AC QC"));
        assert_eq!(cat("AS AD KC KD"), Category::TwoPair);
        assert!(v("3S 3D 3C 2H") > v("AS AD KC KD"));
        assert!(v("2S 2D 2C 2H") > v("AS AD AC KD"));
        assert!(v("AS KD") > v("AH QD"));
        assert_eq!(v("AS KD"), v("AH KC"));
        assert_eq!(v("9S"), v("9H"));
        assert!(v("10S") > v("9H"));
        assert_eq!(cat("7S 7D 7C"), Category::ThreeOfAKind);
    }
}
