//! Playing cards shared by the card games: [`Card`], [`CardSet`] (one bit per card in a u64),
//! parsing (every common notation: `Ah`, `AH`, `10d`, `Td`, `HA`, `♠K`; `XX` for a hidden card) and
//! the shuffled [`Deck`].
//!
//! Layout: a card is `suit * 16 + rank`, rank 0..=12 for 2..A. A [`CardSet`] therefore holds one
//! 13-bit rank mask per suit at bits `16 * suit ..`: flushes and rank masks are a shift and a mask.

pub(crate) mod naming;

use rand::RngCore;

use crate::error::{shown, Error, Result};

/// A rank's letter in card text, indexed by [`Rank`] (`T` is ten).
pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
/// Every card's two letters, suit by suit, rank by rank (what [`Card::write_to`] copies).
const CARD_TEXTS: &str =
    "2c3c4c5c6c7c8c9cTcJcQcKcAc2d3d4d5d6d7d8d9dTdJdQdKdAd2h3h4h5h6h7h8h9hThJhQhKhAh2s3s4s5s6s7s8s9sTsJsQsKsAs";
/// A suit's letter in card text, indexed by [`Suit`] (clubs, diamonds, hearts, spades).
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// Rank 0..=12 (2..A).
pub type Rank = u8;
/// Suit 0..=3 (clubs, diamonds, hearts, spades).
pub type Suit = u8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// One playing card, stored as `suit * 16 + rank` so that it is its own bit in a [`CardSet`].
pub struct Card(u8);

impl Card {
    /// The card of `rank` (0 = two .. 12 = ace) and `suit`; panics out of range, a bug of the caller.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        assert!(rank < 13 && suit < 4);
        Card(suit * 16 + rank)
    }
    /// 0 (two) ..= 12 (ace).
    pub const fn rank(self) -> Rank {
        self.0 & 15
    }
    /// 0 (clubs) ..= 3 (spades).
    pub const fn suit(self) -> Suit {
        self.0 >> 4
    }
    /// The bit index in a [`CardSet`] (0..64, not contiguous).
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }
    /// A dense index 0..52 (rank * 4 + suit), for tables.
    pub const fn index(self) -> usize {
        self.rank() as usize * 4 + self.suit() as usize
    }
    /// The card at dense index `i` (0..52), the inverse of [`Card::index`].
    pub const fn from_index(i: usize) -> Card {
        Card::new((i / 4) as u8, (i % 4) as u8)
    }

    /// All 52 cards, in dense index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card::from_index)
    }

    /// Parses one card in any common notation: a rank (`2`-`9`, `10` or `T`, `J`, `Q`, `K`, `A`)
    /// and a suit (`c d h s` or `♣ ♦ ♥ ♠`), either case, in either order (`Ah`, `10d`, `HA`,
    /// `♠K`). `XX` is not a card: see [`parse_cards_or_hidden`].
    pub fn parse(s: &str) -> Result<Card> {
        let mut parts = CardParts::new(s.trim());
        match (parts.next_card(), parts.rest.is_empty()) {
            (Some(card), true) => Ok(card),
            _ => Err(bad_card(s)),
        }
    }

    /// The rank's letter in card text (`2`..`9`, `T`, `J`, `Q`, `K`, `A`).
    pub fn rank_char(self) -> char {
        RANK_CHARS[self.rank() as usize] as char
    }
    /// The suit's letter in card text (`c`, `d`, `h`, `s`).
    pub fn suit_char(self) -> char {
        SUIT_CHARS[self.suit() as usize] as char
    }

    /// Appends the card's two letters (as its `Display` writes them) to `out`, in one write.
    pub fn write_to(self, out: &mut String) {
        out.push_str(self.text());
    }

    /// The card's two letters (`Ah`), as its `Display` writes them.
    pub fn text(self) -> &'static str {
        let at = 2 * (self.suit() as usize * 13 + self.rank() as usize);
        &CARD_TEXTS[at..at + 2]
    }

    /// The card's two letters as bytes, the rank's then the suit's (a record's JSON writes them).
    pub fn letters(self) -> [u8; 2] {
        [RANK_CHARS[self.rank() as usize], SUIT_CHARS[self.suit() as usize]]
    }
}

/// Appends `cards` separated by spaces (`Ah Td 2c`) to `out`: how records write cards.
pub fn write_spaced(cards: impl IntoIterator<Item = Card>, out: &mut String) {
    for (i, card) in cards.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        card.write_to(out);
    }
}

/// `Ah`, `Tc`: the notation of hold'em tools (PHH, PokerKit).
impl std::fmt::Display for Card {
    /// One write of two letters from a table (no UTF-8 check: a card is written for every
    /// seat of every game's record).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

/// Five-card poker hand categories, weakest first (hold'em's and stud's; the hold'em source's
/// "poker type" numbering 0..=8 is the discriminant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// No pair, no straight, no flush.
    HighCard,
    /// Two cards of one rank.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five ranks in a row (the ace plays high or, in hold'em, low).
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit.
    StraightFlush,
}

impl Category {
    /// Every category, weakest first (the discriminants' order).
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The category in words for a person (`two pair`).
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high card",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of cards, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const FULL: CardSet = CardSet(0x1fff_1fff_1fff_1fff);

    /// Whether `c` is in the set.
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.bit() & 1 == 1
    }
    /// Adds `c` (no change when it is there).
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1 << c.bit();
    }
    /// Takes `c` out (no change when it is not there).
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1 << c.bit());
    }
    /// The set with `c` added, for building sets in constants.
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | 1 << c.bit())
    }
    /// How many cards the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// Whether the set holds no card.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The cards in either set.
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    /// The cards of this set that are not in `o` (what is left of a deck once `o` is dealt).
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    /// The 13-bit mask of the ranks held in `suit`.
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        (self.0 >> (16 * suit as u32)) as u16 & 0x1fff
    }
    /// The ranks held in any suit.
    pub const fn rank_mask(self) -> u16 {
        (self.0 | self.0 >> 16 | self.0 >> 32 | self.0 >> 48) as u16 & 0x1fff
    }
    /// The cards in bit order: suit by suit, two to ace within a suit.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Card(b as u8)
            })
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        iter.into_iter().for_each(|c| s.insert(c));
        s
    }
}

/// Parses cards separated by spaces or commas, or written together (`AhKd`, `8S 10D`). Duplicates
/// are an error.
pub fn parse_cards(s: &str) -> Result<Vec<Card>> {
    let cards: Vec<Option<Card>> = parse_cards_or_hidden(s)?;
    cards
        .into_iter()
        .map(|c| c.ok_or_else(|| Error::input(format!("`{s}`: a hidden card (XX) is not allowed here"))))
        .collect()
}

/// Like [`parse_cards`], but `XX` stands for a hidden card (`None`).
pub fn parse_cards_or_hidden(s: &str) -> Result<Vec<Option<Card>>> {
    let mut out = Vec::new();
    let mut seen = CardSet::EMPTY;
    for word in s.split(|c: char| c.is_whitespace() || c == ',') {
        let mut parts = CardParts::new(word);
        while !parts.rest.is_empty() {
            if let Some(rest) = strip_prefix_ignore_case(parts.rest, "xx") {
                out.push(None);
                parts.rest = rest;
                continue;
            }
            let before = parts.rest;
            let card = parts.next_card().ok_or_else(|| bad_card(before))?;
            if seen.contains(card) {
                return Err(Error::input(format!("card {card} appears twice in {}", shown(s))));
            }
            seen.insert(card);
            out.push(Some(card));
        }
    }
    Ok(out)
}

fn bad_card(s: &str) -> Error {
    Error::input(format!(
        "bad card {}: expected a rank (2-9, 10 or T, J, Q, K, A) and a suit (c, d, h, s or ♣ ♦ ♥ ♠), e.g. Ah, 10d or HA",
        shown(s)
    ))
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// Reads cards one by one off the front of a string: each is a rank and a suit in either order.
struct CardParts<'a> {
    rest: &'a str,
}

impl<'a> CardParts<'a> {
    fn new(s: &'a str) -> CardParts<'a> {
        CardParts { rest: s }
    }

    fn rank(&mut self) -> Option<Rank> {
        if let Some(rest) = self.rest.strip_prefix("10") {
            self.rest = rest;
            return Some(8);
        }
        let c = self.rest.chars().next()?.to_ascii_uppercase();
        let rank = RANK_CHARS.iter().position(|&r| r as char == c)? as Rank;
        self.rest = &self.rest[1..];
        Some(rank)
    }

    fn suit(&mut self) -> Option<Suit> {
        let c = self.rest.chars().next()?;
        let suit = match c.to_ascii_lowercase() {
            'c' | '♣' | '♧' => 0,
            'd' | '♦' | '♢' => 1,
            'h' | '♥' | '♡' => 2,
            's' | '♠' | '♤' => 3,
            _ => return None,
        };
        self.rest = &self.rest[c.len_utf8()..];
        Some(suit)
    }

    /// The next card, rank first or suit first; `None` (and nothing consumed that matters: the
    /// caller reports an error) when the front is not a card.
    fn next_card(&mut self) -> Option<Card> {
        let start = self.rest;
        if let Some(rank) = self.rank() {
            if let Some(suit) = self.suit() {
                return Some(Card::new(rank, suit));
            }
        }
        self.rest = start;
        let suit = self.suit()?;
        let rank = self.rank()?;
        Some(Card::new(rank, suit))
    }
}

/// A 52-card deck in the order drawn from the deal stream.
#[derive(Clone, Debug)]
pub struct Deck {
    cards: [Card; 52],
    next: usize,
}

impl Deck {
    /// A fully shuffled deck (Fisher-Yates), so the order never depends on what the players do.
    /// Card `i` (from the last) swaps with the card at `rng.random_range(0..=i)`: the draws are
    /// rand's, made here without its general machinery (it took a fifth of a hold'em hand).
    pub fn shuffled(rng: &mut impl RngCore) -> Deck {
        let mut cards: [Card; 52] = std::array::from_fn(Card::from_index);
        for i in (1..52).rev() {
            let j = index_up_to(|| rng.next_u32(), i as u32) as usize;
            cards.swap(i, j);
        }
        Deck { cards, next: 0 }
    }
    /// The next card. Panics past 52: engines never deal more than a deck holds.
    pub fn draw(&mut self) -> Card {
        let c = self.cards[self.next];
        self.next += 1;
        c
    }
    /// The whole deck in dealing order, the dealt cards included.
    pub fn cards(&self) -> &[Card; 52] {
        &self.cards
    }
}

/// What `rng.random_range(0..=high)` gives for a `usize` range within `u32` (rand 0.9: the high
/// half of a 32-bit draw times the range's size, and a second draw when the low half falls in the
/// sliver where that is biased; the whole `u32` range is one draw), drawing the same numbers.
/// `tests` hold it to rand's.
/// `draw` gives the stream's next 32-bit word.
#[inline(always)]
fn index_up_to(mut draw: impl FnMut() -> u32, high: u32) -> u32 {
    let range = high.wrapping_add(1);
    if range == 0 {
        return draw();
    }
    let product = u64::from(draw()) * u64::from(range);
    let (mut index, low) = ((product >> 32) as u32, product as u32);
    if low > range.wrapping_neg() {
        let next = ((u64::from(draw()) * u64::from(range)) >> 32) as u32;
        index += u32::from(low.checked_add(next).is_none());
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn parses_both_tens_and_either_case() {
        assert_eq!(Card::parse("10D").unwrap(), Card::parse("td").unwrap());
        assert_eq!(Card::parse("As").unwrap(), Card::new(12, 3));
        assert_eq!(Card::parse("2c").unwrap().to_string(), "2c");
        for bad in ["", "1S", "AX", "10", "A", "11D", "AhKd", "é", "A♠♠", "♠", "AHH"] {
            assert!(Card::parse(bad).is_err(), "{bad}");
        }
        let ace_of_spades = Card::new(12, 3);
        for good in ["As", "AS", "as", "SA", "sa", "A♠", "♠A", "a♤"] {
            assert_eq!(Card::parse(good).unwrap(), ace_of_spades, "{good}");
        }
        assert_eq!(Card::parse("H10").unwrap(), Card::parse("Th").unwrap());
    }

    #[test]
    fn parses_lists_hidden_cards_and_rejects_duplicates() {
        let cards = parse_cards_or_hidden("XX 3C 5D,4h6H").unwrap();
        assert_eq!(cards.len(), 5);
        assert_eq!(cards[0], None);
        assert_eq!(parse_cards("8S 10D 10S 8H 8C").unwrap().len(), 5);
        assert_eq!(parse_cards("AhAs").unwrap().len(), 2);
        assert!(parse_cards("Ah Ah").unwrap_err().to_string().contains("twice"));
        assert!(parse_cards("XX Ah").is_err());
        assert_eq!(parse_cards("HA KD").unwrap(), parse_cards("Ah Kd").unwrap());
        assert_eq!(parse_cards("A♠K♠").unwrap(), parse_cards("As Ks").unwrap());
    }

    proptest::proptest! {
        /// Any string: parsed or refused with one line, never a panic; whatever parses prints
        /// back (in the canonical notation) to the same cards.
        #[test]
        fn any_string_parses_or_is_refused_in_one_line(s in "(?s).{0,16}") {
            match parse_cards_or_hidden(&s) {
                Ok(cards) => {
                    let text: Vec<String> = cards.iter().map(|c| c.map_or("XX".to_string(), |c| c.to_string())).collect();
                    proptest::prop_assert_eq!(parse_cards_or_hidden(&text.join(" ")).unwrap(), cards);
                }
                Err(e) => proptest::prop_assert!(!e.to_string().contains('\n'), "{}", e),
            }
        }
    }

    #[test]
    fn sets_and_masks() {
        let s: CardSet = parse_cards("Ah Kh 2c").unwrap().into_iter().collect();
        assert_eq!(s.len(), 3);
        assert_eq!(s.suit_mask(2), 0b1_1000_0000_0000);
        assert_eq!(s.rank_mask(), 0b1_1000_0000_0001);
        assert_eq!(CardSet::FULL.len(), 52);
        assert_eq!(CardSet::FULL.iter().count(), 52);
        assert!(Card::all().all(|c| CardSet::FULL.contains(c) && Card::from_index(c.index()) == c));
    }

    /// The shuffle's draws are rand's `random_range(0..=i)`, draw for draw: every deal of every
    /// published run depends on it.
    #[test]
    fn index_draws_match_rands_random_range() {
        use rand::{Rng, RngCore};
        let mut ours = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut theirs = ours.clone();
        for n in 0..200_000u32 {
            let high = match n % 4 {
                0 => n % 52,
                1 => n % 1000,
                2 => u32::MAX - n % 7,
                _ => (u32::MAX / 3).wrapping_mul(n) >> (n % 32),
            };
            assert_eq!(
                index_up_to(|| ours.next_u32(), high) as usize,
                theirs.random_range(0..=high as usize),
                "{high}"
            );
        }
        assert_eq!(ours.next_u64(), theirs.next_u64(), "the same number of draws");
    }

    /// The deck is the one rand's `random_range` draws give, and the stream goes on from the same
    /// place, for streams at every offset in ChaCha's blocks, and for seed 1,896,018, whose first
    /// draw is redrawn (the shuffle takes 52 words).
    #[test]
    fn shuffle_draws_what_a_draw_at_a_time_draws() {
        use rand::{Rng, RngCore};
        let redrawn = 1_896_018;
        let mut past_the_batch = rand_chacha::ChaCha8Rng::seed_from_u64(redrawn);
        (0..52).for_each(|_| {
            past_the_batch.next_u32();
        });
        let mut shuffled = rand_chacha::ChaCha8Rng::seed_from_u64(redrawn);
        Deck::shuffled(&mut shuffled);
        assert_eq!(shuffled.next_u64(), past_the_batch.next_u64(), "seed {redrawn} takes 52 words");
        for seed in (0..2_000u64).chain([redrawn]) {
            let mut ours = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            (0..seed % 67).filter(|_| seed != redrawn).for_each(|_| {
                ours.next_u32();
            });
            let mut theirs = ours.clone();
            let deck = Deck::shuffled(&mut ours);
            let mut cards: [Card; 52] = std::array::from_fn(Card::from_index);
            for i in (1..52).rev() {
                cards.swap(i, theirs.random_range(0..=i));
            }
            assert_eq!(deck.cards(), &cards, "seed {seed}");
            assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}: the stream goes on from the same place");
        }
    }

    #[test]
    fn every_card_writes_its_rank_and_suit_letters() {
        for card in Card::all() {
            let mut text = String::new();
            card.write_to(&mut text);
            assert_eq!(text, format!("{}{}", card.rank_char(), card.suit_char()));
            assert_eq!(text, card.to_string());
        }
    }

    #[test]
    fn shuffle_is_a_permutation_fixed_by_the_seed() {
        let a = Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3));
        let b = Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(3));
        assert_eq!(a.cards(), b.cards());
        assert_eq!(a.cards().iter().copied().collect::<CardSet>(), CardSet::FULL);
    }
}
