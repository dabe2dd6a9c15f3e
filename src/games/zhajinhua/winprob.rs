//! Win probabilities with card removal.
//!
//! Heads-up (one random opponent hand from the 49 unseen cards, all C(49,3) = 18,424 of them) is
//! exact and comes from a table over the 22,100 hands, built without enumerating opponents: the
//! number of hands below a value that avoid a set R of known cards is, by inclusion-exclusion over
//! the subsets T of R with |T| <= 3 (a hand has three cards),
//! `sum (-1)^|T| * #{hands containing T and below the value}`. The table takes every hand's counts
//! in one pass over the hands in value order, tallying the hands passed through each card and each
//! pair of cards (well under a millisecond: no command pays for it at start). For any set R,
//! [`count_below_equal`] finds the same counts by binary searches in sorted value lists (all hands;
//! the 1,275 hands through each card) or short scans (the 50 hands through two cards): the exact
//! probability against two opponents. For any number of opponents there is a Monte Carlo estimate
//! with its standard error.

use std::sync::OnceLock;

use rand::Rng;

use super::eval::{all_hands, beats, hand_index, strength, strength_table, Category, Strength, HANDS, SPECIAL_235};
use crate::cards::Card;

/// Opponent hands after removing 3 known cards: C(49, 3).
pub const OPPONENT_HANDS: u32 = 18_424;

/// Outcome counts of one hand against every opponent hand that avoids the known cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Odds {
    pub win: u32,
    pub tie: u32,
    pub total: u32,
}

impl Odds {
    pub fn win(&self) -> f64 {
        self.win as f64 / self.total as f64
    }
    pub fn tie(&self) -> f64 {
        self.tie as f64 / self.total as f64
    }
    /// The showdown share: a tie splits the pot.
    #[cfg(test)]
    pub fn equity(&self) -> f64 {
        (self.win as f64 + 0.5 * self.tie as f64) / self.total as f64
    }
}

/// Sorted value lists for the inclusion-exclusion counts.
struct Sorted {
    all: Vec<Strength>,
    /// By dense card index: the values of the 1,275 hands holding that card.
    by_card: Vec<Vec<Strength>>,
}

fn sorted() -> &'static Sorted {
    static SORTED: OnceLock<Sorted> = OnceLock::new();
    SORTED.get_or_init(|| {
        let values = strength_table();
        let mut all = values.to_vec();
        all.sort_unstable();
        let mut by_card: Vec<Vec<Strength>> = (0..52).map(|_| Vec::with_capacity(1275)).collect();
        for (h, &v) in all_hands().iter().zip(values) {
            for c in h {
                by_card[c.index()].push(v);
            }
        }
        by_card.iter_mut().for_each(|l| l.sort_unstable());
        Sorted { all, by_card }
    })
}

/// (below, equal): how many of `sorted_values` are below `v`, and equal to it.
fn below_equal(sorted_values: &[Strength], v: Strength) -> (i64, i64) {
    let below = sorted_values.partition_point(|&x| x < v);
    let upto = sorted_values.partition_point(|&x| x <= v);
    (below as i64, (upto - below) as i64)
}

/// (below, equal) among the hands holding all of `t` (1 to 3 cards).
fn below_equal_through(t: &[Card], v: Strength) -> (i64, i64) {
    let values = strength_table();
    match t.len() {
        1 => below_equal(&sorted().by_card[t[0].index()], v),
        2 => {
            let (mut below, mut equal) = (0, 0);
            for third in Card::all().filter(|&c| c != t[0] && c != t[1]) {
                let x = values[hand_index([t[0], t[1], third])];
                below += (x < v) as i64;
                equal += (x == v) as i64;
            }
            (below, equal)
        }
        _ => {
            let x = values[hand_index([t[0], t[1], t[2]])];
            ((x < v) as i64, (x == v) as i64)
        }
    }
}

/// How many hands avoiding every card of `removed` are below `v` and equal to `v` in value order.
/// Exact, by inclusion-exclusion over the subsets of `removed` of size at most 3.
pub fn count_below_equal(removed: &[Card], v: Strength) -> (u32, u32) {
    let (mut below, mut equal) = below_equal(&sorted().all, v);
    let mut add = |t: &[Card], sign: i64| {
        let (b, e) = below_equal_through(t, v);
        below += sign * b;
        equal += sign * e;
    };
    let n = removed.len();
    for i in 0..n {
        add(&[removed[i]], -1);
        for j in i + 1..n {
            add(&[removed[i], removed[j]], 1);
            for k in j + 1..n {
                add(&[removed[i], removed[j], removed[k]], -1);
            }
        }
    }
    (below as u32, equal as u32)
}

/// C(n, 3).
fn choose3(n: u32) -> u32 {
    if n < 3 {
        0
    } else {
        n * (n - 1) * (n - 2) / 6
    }
}

fn avoids(hand: [Card; 3], removed: &[Card]) -> bool {
    hand.iter().all(|c| !removed.contains(c))
}

/// The 2-3-5 hands of mixed suits (the `special_235` hand).
fn special_hands() -> impl Iterator<Item = [Card; 3]> {
    (0..64u8).filter_map(|s| {
        let (a, b, c) = (s & 3, s >> 2 & 3, s >> 4);
        (!(a == b && b == c)).then(|| [Card::new(0, a), Card::new(1, b), Card::new(3, c)])
    })
}

/// Hands avoiding `removed` that `mine` (value `v`) beats, and those it ties with.
pub fn wins_ties_avoiding(v: Strength, removed: &[Card], special_235: bool) -> (u32, u32) {
    let (below, tie) = count_below_equal(removed, v);
    (wins_from_below(below, v, removed, special_235), tie)
}

/// The hands avoiding `removed` that value `v` beats, from those below it in value order: under
/// `special_235` the 2-3-5 hand and the leopards swap places.
fn wins_from_below(below: u32, v: Strength, removed: &[Card], special_235: bool) -> u32 {
    let mut win = below;
    if special_235 {
        if v == SPECIAL_235 {
            // Leopards sit above in value order but lose to this hand.
            win += (0..13u8).map(|r| choose3(4 - removed.iter().filter(|c| c.rank() == r).count() as u32)).sum::<u32>();
        } else if Category::of(v) == Category::Leopard {
            // 2-3-5 hands sit below in value order but beat this hand.
            win -= special_hands().filter(|&h| avoids(h, removed)).count() as u32;
        }
    }
    win
}

/// The heads-up table of one rule set, by [`hand_index`].
fn heads_up_table(special_235: bool) -> &'static [(u16, u16)] {
    static PLAIN: OnceLock<Vec<(u16, u16)>> = OnceLock::new();
    static SPECIAL: OnceLock<Vec<(u16, u16)>> = OnceLock::new();
    let cell = if special_235 { &SPECIAL } else { &PLAIN };
    cell.get_or_init(|| heads_up_counts(special_235))
}

/// Every hand's (wins, ties) against the hands that avoid its cards, in one pass over the hands in
/// value order. Hands of one value are a group; before a group, the hands passed (all below it)
/// are tallied in total, through each card and through each pair of cards, so the hands below a
/// hand that avoid its three cards are, by inclusion-exclusion, `total - Σ card + Σ pair` (no
/// passed hand holds all three: that is the hand itself). After the group is added, the same sum
/// minus the hand itself counts the hands at or below it.
fn heads_up_counts(special_235: bool) -> Vec<(u16, u16)> {
    let (hands, values) = (all_hands(), strength_table());
    let mut order: Vec<usize> = (0..HANDS).collect();
    order.sort_by_key(|&i| values[i]);
    let cards = |i: usize| hands[i].map(|c| c.index());
    let mut total = 0i32;
    let mut through_card = [0i32; 52];
    let mut through_pair = vec![0i32; 52 * 52];
    let avoiding = |h: [usize; 3], total: i32, card: &[i32; 52], pair: &[i32]| {
        let [a, b, c] = h;
        total - card[a] - card[b] - card[c] + pair[a * 52 + b] + pair[a * 52 + c] + pair[b * 52 + c]
    };
    let mut table = vec![(0u16, 0u16); HANDS];
    for group in order.chunk_by(|&i, &j| values[i] == values[j]) {
        for &i in group {
            table[i].0 = avoiding(cards(i), total, &through_card, &through_pair) as u16;
        }
        for &i in group {
            let [a, b, c] = cards(i);
            total += 1;
            for x in [a, b, c] {
                through_card[x] += 1;
            }
            for (x, y) in [(a, b), (a, c), (b, c)] {
                through_pair[x * 52 + y] += 1;
            }
        }
        for &i in group {
            let at_or_below = avoiding(cards(i), total, &through_card, &through_pair) - 1;
            let below = table[i].0;
            let win = wins_from_below(below as u32, values[i], &hands[i], special_235);
            table[i] = (win as u16, at_or_below as u16 - below);
        }
    }
    table
}

/// Exact odds of `hand` against one random opponent hand from the other 49 cards.
pub fn heads_up(hand: [Card; 3], special_235: bool) -> Odds {
    let (win, tie) = heads_up_table(special_235)[hand_index(hand)];
    Odds { win: win as u32, tie: tie as u32, total: OPPONENT_HANDS }
}

/// Heads-up equity (win + tie / 2) of every hand, by [`hand_index`]: the bots' lookup table.
pub fn equity_table(special_235: bool) -> &'static [f32] {
    static PLAIN: OnceLock<Vec<f32>> = OnceLock::new();
    static SPECIAL: OnceLock<Vec<f32>> = OnceLock::new();
    let cell = if special_235 { &SPECIAL } else { &PLAIN };
    cell.get_or_init(|| {
        heads_up_table(special_235)
            .iter()
            .map(|&(w, t)| ((w as f64 + 0.5 * t as f64) / OPPONENT_HANDS as f64) as f32)
            .collect()
    })
}

/// Exact probability that `hand` beats both of two random opponent hands (strictly: a tie at the
/// top is not a win), dealt from the other 49 cards without replacement.
pub fn beats_two_exact(hand: [Card; 3], special_235: bool) -> f64 {
    let values = strength_table();
    let mine = values[hand_index(hand)];
    let mut removed = [hand[0], hand[1], hand[2], hand[0], hand[0], hand[0]];
    let mut favourable = 0u64;
    for &first in all_hands() {
        if !avoids(first, &hand) || !beats(mine, values[hand_index(first)], special_235) {
            continue;
        }
        removed[3..].copy_from_slice(&first);
        favourable += wins_ties_avoiding(mine, &removed, special_235).0 as u64;
    }
    favourable as f64 / (OPPONENT_HANDS as f64 * choose3(46) as f64)
}

/// A Monte Carlo estimate and its standard error.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    pub p: f64,
    pub std_error: f64,
}

/// Probability that `hand` beats all of `opponents` random hands (strictly), by `samples` deals
/// of the other 49 cards. The standard error is sqrt(p (1 - p) / samples), at most
/// 0.5 / sqrt(samples): 0.0016 for 100,000 samples.
pub fn beats_all_monte_carlo(
    hand: [Card; 3],
    opponents: usize,
    samples: u32,
    special_235: bool,
    rng: &mut impl Rng,
) -> Estimate {
    assert!((1..=16).contains(&opponents), "3 + 3k cards must fit in the deck");
    let mine = strength(hand);
    let mut rest: Vec<Card> = Card::all().filter(|c| !hand.contains(c)).collect();
    let mut wins = 0u32;
    for _ in 0..samples {
        // A partial Fisher-Yates shuffle draws the 3k opponent cards.
        for i in 0..3 * opponents {
            let j = rng.random_range(i..rest.len());
            rest.swap(i, j);
        }
        let all_beaten =
            rest[..3 * opponents].chunks_exact(3).all(|o| beats(mine, strength([o[0], o[1], o[2]]), special_235));
        wins += all_beaten as u32;
    }
    let p = wins as f64 / samples as f64;
    Estimate { p, std_error: (p * (1.0 - p) / samples as f64).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn hand(s: &str) -> [Card; 3] {
        parse_cards(s).unwrap().try_into().unwrap()
    }

    /// Enumerates all 18,424 opponent hands.
    fn brute_heads_up(h: [Card; 3], special: bool) -> Odds {
        let mine = strength(h);
        let (mut win, mut tie, mut total) = (0, 0, 0);
        for &o in all_hands().iter().filter(|&&o| avoids(o, &h)) {
            let theirs = strength(o);
            total += 1;
            win += beats(mine, theirs, special) as u32;
            tie += (!beats(mine, theirs, special) && !beats(theirs, mine, special)) as u32;
        }
        Odds { win, tie, total }
    }

    #[test]
    fn aak_wins_91_14_percent() {
        // The reference figure: A-A-K wins 91.14% against one random hand.
        let odds = heads_up(hand("AS AH KD"), false);
        assert_eq!(odds.total, brute_heads_up(hand("AS AH KD"), false).total);
        assert_eq!(format!("{:.2}", 100.0 * odds.win()), "91.14");
    }

    #[test]
    fn table_matches_brute_force_on_special_and_sampled_hands() {
        let mut hands = vec![
            hand("AS AH KD"),
            hand("2S 3D 5C"),
            hand("2S 2D 2C"),
            hand("5S 5D 5C"),
            hand("AS AD AC"),
            hand("AS 2S 3S"),
            hand("QH KH AH"),
            hand("2C 3C 5C"),
            hand("AS 2D 3C"),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        hands.extend((0..150).map(|_| all_hands()[rng.random_range(0..HANDS)]));
        for special in [false, true] {
            for &h in &hands {
                assert_eq!(heads_up(h, special), brute_heads_up(h, special), "{h:?} special {special}");
            }
        }
    }

    /// The one-pass table against the inclusion-exclusion counter, hand by hand.
    #[test]
    fn heads_up_table_matches_the_counter_on_every_hand() {
        for special in [false, true] {
            let table = heads_up_table(special);
            for (i, (h, &v)) in all_hands().iter().zip(strength_table()).enumerate() {
                let (w, t) = wins_ties_avoiding(v, h, special);
                assert_eq!(table[i], (w as u16, t as u16), "{h:?} special {special}");
            }
        }
    }

    #[test]
    fn special_235_changes_exactly_the_235_and_leopard_rows() {
        let s = heads_up(hand("2S 3D 5C"), true);
        let plain = heads_up(hand("2S 3D 5C"), false);
        // 52 leopards minus those using a 2, 3 or 5 held here: 3 ranks lose 3 leopards each.
        assert_eq!(s.win - plain.win, 52 - 9);
        let l = heads_up(hand("2S 2D 2C"), true);
        let lp = heads_up(hand("2S 2D 2C"), false);
        // One deuce left: 1 * 4 * 4 rank-suit choices minus the one flush.
        assert_eq!(lp.win - l.win, 15);
    }

    #[test]
    fn inclusion_exclusion_counter_matches_brute_force() {
        let values = strength_table();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for trial in 0..60 {
            let n = 3 + trial % 10;
            let mut cards: Vec<Card> = Card::all().collect();
            for i in 0..n {
                let j = rng.random_range(i..52);
                cards.swap(i, j);
            }
            let removed = &cards[..n];
            let v = values[rng.random_range(0..HANDS)];
            let (mut below, mut equal) = (0, 0);
            for (&h, &x) in all_hands().iter().zip(values) {
                if avoids(h, removed) {
                    below += (x < v) as u32;
                    equal += (x == v) as u32;
                }
            }
            assert_eq!(count_below_equal(removed, v), (below, equal), "removed {removed:?}");
        }
    }

    #[test]
    fn two_opponents_exact_matches_brute_force_on_a_slice() {
        // Brute force over all opponent pairs is 280M comparisons (see the ignored test below); here
        // the inner count is checked against enumeration for a sample of first opponents, which is
        // what the exact sum adds up.
        let h = hand("KS QS 9D");
        let mine = strength(h);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..40 {
            let first = all_hands()[rng.random_range(0..HANDS)];
            if !avoids(first, &h) {
                continue;
            }
            let removed = [h[0], h[1], h[2], first[0], first[1], first[2]];
            let brute = all_hands().iter().filter(|&&o| avoids(o, &removed) && beats(mine, strength(o), true)).count();
            assert_eq!(wins_ties_avoiding(mine, &removed, true).0 as usize, brute);
        }
    }

    /// `cargo test --release -- --ignored two_opponents_exact_full_brute_force`
    #[test]
    #[ignore]
    fn two_opponents_exact_full_brute_force() {
        for s in ["KS QS 9D", "2S 3D 5C"] {
            let h = hand(s);
            let mine = strength(h);
            let rest: Vec<[Card; 3]> = all_hands().iter().copied().filter(|&o| avoids(o, &h)).collect();
            let mut favourable = 0u64;
            for &a in &rest {
                if beats(mine, strength(a), true) {
                    favourable +=
                        rest.iter().filter(|&&b| avoids(b, &a) && beats(mine, strength(b), true)).count() as u64;
                }
            }
            let brute = favourable as f64 / (OPPONENT_HANDS as f64 * choose3(46) as f64);
            assert!((beats_two_exact(h, true) - brute).abs() < 1e-12, "{s}");
        }
    }

    #[test]
    fn monte_carlo_agrees_with_the_exact_values() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for s in ["AS AH KD", "KS QS 9D", "7C 7D 2H", "JS 8D 4C"] {
            let h = hand(s);
            let one = beats_all_monte_carlo(h, 1, 40_000, false, &mut rng);
            let exact_one = heads_up(h, false).win();
            assert!((one.p - exact_one).abs() < 4.5 * one.std_error.max(1e-4), "{s}: {one:?} vs {exact_one}");
            let two = beats_all_monte_carlo(h, 2, 40_000, false, &mut rng);
            let exact_two = beats_two_exact(h, false);
            assert!((two.p - exact_two).abs() < 4.5 * two.std_error.max(1e-4), "{s}: {two:?} vs {exact_two}");
        }
    }
}
