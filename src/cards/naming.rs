//! A poker hand in words, for a person (`arena play`'s showdowns): `two pair, Kings and Nines`,
//! `a straight, Nine high`. Hold'em and stud name their hands alike; each game says which five
//! cards make the hand and its category, by its own rules (stud's straights are ace-high only).

use super::{Card, Category, Rank};

/// The ranks' names, Two to Ace.
const RANKS: [&str; 13] =
    ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"];

/// A rank's name, `Nine`.
pub fn rank_name(rank: Rank) -> &'static str {
    RANKS[rank as usize]
}

/// A rank's name for several cards of it, `Nines`, `Sixes`.
pub fn ranks_name(rank: Rank) -> String {
    match rank_name(rank) {
        "Six" => "Sixes".to_string(),
        name => format!("{name}s"),
    }
}

/// The hand `cards` make (the five that count, or fewer while a stud hand is being dealt), of
/// `category` as the game's evaluator ranks them: `a pair of Nines`, `two pair, Kings and Nines`,
/// `a full house, Kings full of Nines`. Cards of one rank come first by their number, then by rank.
pub fn hand_name(cards: &[Card], category: Category) -> String {
    let mut count = [0u8; 13];
    cards.iter().for_each(|c| count[c.rank() as usize] += 1);
    // The ranks held, most copies first, then the higher.
    let mut ranks: Vec<Rank> = (0..13).rev().filter(|&r| count[r as usize] > 0).collect();
    ranks.sort_by_key(|&r| std::cmp::Reverse(count[r as usize]));
    let top = ranks.first().copied().unwrap_or(12);
    let second = ranks.get(1).copied().unwrap_or(top);
    // A straight's high card: the five of the wheel (A-2-3-4-5), where the rules allow one.
    let high = match ranks.contains(&12) && ranks.contains(&3) && !ranks.contains(&11) {
        true if matches!(category, Category::Straight | Category::StraightFlush) => 3,
        _ => top,
    };
    match category {
        Category::HighCard => format!("high card, {}", rank_name(top)),
        Category::OnePair => format!("a pair of {}", ranks_name(top)),
        Category::TwoPair => format!("two pair, {} and {}", ranks_name(top), ranks_name(second)),
        Category::ThreeOfAKind => format!("three of a kind, {}", ranks_name(top)),
        Category::Straight => format!("a straight, {} high", rank_name(high)),
        Category::Flush => format!("a flush, {} high", rank_name(top)),
        Category::FullHouse => format!("a full house, {} full of {}", ranks_name(top), ranks_name(second)),
        Category::FourOfAKind => format!("four of a kind, {}", ranks_name(top)),
        Category::StraightFlush if high == 12 => "a royal flush".to_string(),
        Category::StraightFlush => format!("a straight flush, {} high", rank_name(high)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn named(cards: &str, category: Category) -> String {
        hand_name(&parse_cards(cards).unwrap(), category)
    }

    #[test]
    fn every_category_is_named_by_its_ranks() {
        assert_eq!(named("Kc 9d Kh 9s 2c", Category::TwoPair), "two pair, Kings and Nines");
        assert_eq!(named("2c 9d 9h Ks 6c", Category::OnePair), "a pair of Nines");
        assert_eq!(named("6c 6d 6h Ks 2c", Category::ThreeOfAKind), "three of a kind, Sixes");
        assert_eq!(named("9c 9d Kh Ks Kc", Category::FullHouse), "a full house, Kings full of Nines");
        assert_eq!(named("Ac 2d 3h 4s 5c", Category::Straight), "a straight, Five high");
        assert_eq!(named("Tc Jd Qh Ks Ac", Category::Straight), "a straight, Ace high");
        assert_eq!(named("Tc Jc Qc Kc Ac", Category::StraightFlush), "a royal flush");
        assert_eq!(named("5h 6h 7h 8h 9h", Category::StraightFlush), "a straight flush, Nine high");
        assert_eq!(named("2h 6h 7h Jh 9h", Category::Flush), "a flush, Jack high");
        assert_eq!(named("Qc Qd Qh Qs 2c", Category::FourOfAKind), "four of a kind, Queens");
        assert_eq!(named("Ac 2d 7h 4s 5c", Category::HighCard), "high card, Ace");
        // A stud hand still being dealt: two cards.
        assert_eq!(named("Ad Ac", Category::OnePair), "a pair of Aces");
    }
}
