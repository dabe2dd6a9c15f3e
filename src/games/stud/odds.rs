//! The expert's win probability: every unseen card (each opponent's hole card and the face-up
//! cards still to come) is equally likely to be anywhere. Exact enumeration over all of them when
//! the number of outcomes fits a budget, Monte Carlo with a fixed number of samples above it.
//!
//! A tie among the best hands counts as a share: half a win heads-up, 1/k among k tied hands.
//!
//! Exact enumeration works player by player: for each way to complete my hand, each way to
//! complete the first opponent's hand from the cards left, and so on. A final hand is a set, so an
//! opponent's hole card and its cards to come are chosen together as one subset; every outcome
//! (disjoint subsets) is equally likely.

use rand::Rng;

use super::eval::{value5, HandValue};
use crate::cards::CardSet;

/// What the player to advise knows.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// My cards so far (hole + face-up), 1 to 5.
    pub mine: CardSet,
    /// Each opponent still in the hand: its face-up cards (its hole card is unknown).
    pub opponents: &'a [CardSet],
    /// Other cards seen (folded players' face-up cards): not in anyone's future.
    pub dead: CardSet,
}

/// How the probability was computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Odds {
    /// P(win), ties as shares.
    pub win: f64,
    /// True: exact enumeration; false: Monte Carlo.
    pub exact: bool,
    /// Outcomes enumerated, or samples drawn.
    pub outcomes: u64,
}

/// When to enumerate and how much to sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Enumerate exactly when the number of outcomes is at most this.
    pub exact_max: u64,
    /// Monte Carlo samples above it.
    pub samples: u32,
}

/// Most players a position can hold: five seats.
const MAX_PLAYERS: usize = 5;

pub(super) fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Players' known cards (me first) and how many cards each still lacks.
struct Hands {
    known: [CardSet; MAX_PLAYERS],
    need: [u32; MAX_PLAYERS],
    players: usize,
}

impl Hands {
    fn new(pos: &Position) -> Hands {
        assert!(pos.opponents.len() < MAX_PLAYERS, "at most {} opponents", MAX_PLAYERS - 1);
        let mut known = [CardSet::EMPTY; MAX_PLAYERS];
        let mut need = [0; MAX_PLAYERS];
        known[0] = pos.mine;
        for (i, &up) in pos.opponents.iter().enumerate() {
            known[i + 1] = up;
        }
        let players = pos.opponents.len() + 1;
        for p in 0..players {
            assert!(known[p].len() <= 5, "a hand has at most five cards");
            need[p] = 5 - known[p].len();
        }
        Hands { known, need, players }
    }

    /// Number of outcomes of exact enumeration (saturating).
    fn outcomes(&self, pool: u32) -> u64 {
        let mut left = pool as u64;
        let mut total = 1u64;
        for &k in &self.need[..self.players] {
            total = total.saturating_mul(choose(left, k as u64));
            left = left.saturating_sub(k as u64);
        }
        total
    }
}

/// My share of the pot given my value and the opponents' best value and how many hold it.
/// A table lookup, not a branch: win or lose is a coin toss to the branch predictor when sampling.
fn share(mine: HandValue, best: HandValue, tied: u32) -> f64 {
    SHARE[tied as usize][(mine >= best) as usize + (mine > best) as usize]
}

/// My share when I lose, tie with k opponents (1/(k + 1)) or win, by k.
const SHARE: [[f64; 3]; MAX_PLAYERS] = {
    let mut t = [[0.0, 0.0, 1.0]; MAX_PLAYERS];
    let mut k = 0;
    while k < MAX_PLAYERS {
        t[k][1] = 1.0 / (k + 1) as f64;
        k += 1;
    }
    t
};

/// Calls `f` with every `k`-card subset of `pool` (as bits); `n` = cards in `pool`.
pub(super) fn for_each_subset<F: FnMut(u64)>(pool: u64, n: u32, k: u32, chosen: u64, f: &mut F) {
    if k == 0 {
        f(chosen);
        return;
    }
    let mut rest = pool;
    // The lowest card of the subset, then the rest from the cards above it.
    for left in (k..=n).rev() {
        let low = rest & rest.wrapping_neg();
        rest ^= low;
        for_each_subset(rest, left - 1, k - 1, chosen | low, f);
    }
}

/// Sum of my shares over every completion of players `player..`, given my value and the best
/// opponent value so far (with how many opponents hold it).
fn enumerate(hands: &Hands, player: usize, pool: u64, n: u32, mine: HandValue, best: HandValue, tied: u32) -> f64 {
    if player == hands.players {
        return share(mine, best, tied);
    }
    let mut sum = 0.0;
    let need = hands.need[player];
    let n_rest = n - need;
    for_each_subset(pool, n, need, 0, &mut |extra| {
        let v = value5(CardSet(hands.known[player].0 | extra));
        let rest = pool & !extra;
        sum += if player == 0 {
            enumerate(hands, 1, rest, n_rest, v, HandValue(0), 0)
        } else if v > best || player == 1 {
            enumerate(hands, player + 1, rest, n_rest, mine, v, 1)
        } else if v == best {
            enumerate(hands, player + 1, rest, n_rest, mine, best, tied + 1)
        } else {
            enumerate(hands, player + 1, rest, n_rest, mine, best, tied)
        };
    });
    sum
}

/// P(win) for the position, dealing from `deck` (52 cards, or the short deck).
pub fn win_probability(deck: CardSet, pos: &Position, budget: Budget, rng: &mut impl Rng) -> Odds {
    if pos.opponents.is_empty() {
        return Odds { win: 1.0, exact: true, outcomes: 1 };
    }
    let hands = Hands::new(pos);
    let seen = pos.opponents.iter().fold(pos.mine.union(pos.dead), |s, &o| s.union(o));
    let pool = deck.minus(seen);
    let outcomes = hands.outcomes(pool.len());
    if outcomes <= budget.exact_max {
        let total = enumerate(&hands, 0, pool.0, pool.len(), HandValue(0), HandValue(0), 0);
        Odds { win: total / outcomes as f64, exact: true, outcomes }
    } else {
        let samples = budget.samples.max(1);
        Odds { win: monte_carlo(&hands, pool, samples, rng), exact: false, outcomes: samples as u64 }
    }
}

/// Deals the missing cards at random `samples` times and averages my share.
fn monte_carlo(hands: &Hands, pool: CardSet, samples: u32, rng: &mut impl Rng) -> f64 {
    let need = &hands.need[..hands.players];
    let total_need = need.iter().sum::<u32>() as usize;
    assert!(total_need as u32 <= pool.len(), "not enough unseen cards");
    let mut draws = Draws::seeded(rng);
    // Samples are drawn a batch at a time, then evaluated: drawing is then one loop without a
    // branch per sample, and evaluating one with a fixed number of steps.
    let mut drawn = [0u64; BATCH * MAX_DRAWN];
    let mut sum = 0.0;
    let mut left = samples as usize;
    while left > 0 {
        let batch = left.min(BATCH);
        left -= batch;
        draws.samples(pool.0, total_need, batch, &mut drawn);
        for sample in drawn[..batch * total_need.max(1)].chunks_exact(total_need.max(1)) {
            // Me first, then each opponent in turn, takes its missing cards off the front.
            let mut next = 0;
            let mut mine = HandValue(0);
            let (mut best, mut tied) = (HandValue(0), 0);
            for (p, &k) in need.iter().enumerate() {
                let mut hand = hands.known[p].0;
                for &card in &sample[next..next + k as usize] {
                    hand |= card;
                }
                next += k as usize;
                let v = value5(CardSet(hand));
                if p == 0 {
                    mine = v;
                } else if p == 1 || v > best {
                    (best, tied) = (v, 1);
                } else if v == best {
                    tied += 1;
                }
            }
            sum += share(mine, best, tied);
        }
    }
    sum / samples as f64
}

/// Most cards a sample deals: five players lacking at most five cards each.
const MAX_DRAWN: usize = MAX_PLAYERS * 5;

/// Samples drawn before they are evaluated.
const BATCH: usize = 32;

/// Random cards for the sampler. A card is a bit of a u64 (52 of the 64 positions are cards), so a
/// uniform card of a set is a uniform 6-bit position, redrawn until it is in the set: exactly
/// uniform, and one 64-bit word gives ten tries.
///
/// The generator is wyrand (Wang Yi's: a Weyl sequence through a 128-bit multiply-fold), seeded
/// once per estimate from the bot's stream, so every draw still comes from the stream the harness
/// hands out; drawing each card from ChaCha8 cost a sixth of a whole hand.
struct Draws {
    state: u64,
    bits: u64,
    tries_left: u32,
}

impl Draws {
    fn seeded(rng: &mut impl Rng) -> Draws {
        Draws { state: rng.next_u64(), bits: 0, tries_left: 0 }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let t = self.state as u128 * (self.state ^ 0xe703_7ed1_a0b4_28db) as u128;
        (t >> 64) as u64 ^ t as u64
    }

    /// `count` samples of `n` distinct uniform cards of `from` into `out[..count * n]`, sample
    /// after sample, as bits: exactly the cards `count * n` calls of [`Draws::card`] would give
    /// (each from `from` less the cards drawn before in its sample), from the same stream. A
    /// position outside the set is still written and then overwritten by the next try, and a
    /// full sample starts the next one: arithmetic instead of branches the predictor misses
    /// (a try fails about once in three, and a sample takes a varying number of tries).
    fn samples(&mut self, from: u64, n: usize, count: usize, out: &mut [u64; BATCH * MAX_DRAWN]) {
        debug_assert!(n <= MAX_DRAWN && count <= BATCH && n as u32 <= from.count_ones());
        if n == 0 {
            return;
        }
        // `i`: the next slot of `out`; `end`: the end of the sample being drawn.
        let (mut left, mut i, mut end) = (from, 0, n);
        while i < count * n {
            if self.tries_left == 0 {
                self.bits = self.next_u64();
                self.tries_left = 10;
            }
            let pos = self.bits & 63;
            self.bits >>= 6;
            self.tries_left -= 1;
            out[i] = 1u64 << pos;
            let hit = left >> pos & 1 != 0;
            // The sample is full when this try hits its last slot.
            let full = hit & (i + 1 == end);
            i += hit as usize;
            end += if full { n } else { 0 };
            left = if full { from } else { left & !(1u64 << pos) };
        }
    }

    /// A uniform card of the non-empty set `from`, as its bit.
    #[cfg(test)]
    fn card(&mut self, from: u64) -> u64 {
        debug_assert!(from != 0);
        loop {
            if self.tries_left == 0 {
                self.bits = self.next_u64();
                self.tries_left = 10;
            }
            let bit = 1u64 << (self.bits & 63);
            self.bits >>= 6;
            self.tries_left -= 1;
            if from & bit != 0 {
                return bit;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::eval::value;
    use super::*;
    use crate::cards::{parse_cards, parse_cards_or_hidden, Card};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const EXACT: Budget = Budget { exact_max: u64::MAX, samples: 0 };

    fn set(s: &str) -> CardSet {
        parse_cards(s).unwrap().into_iter().collect()
    }

    /// The plain way: give every hidden slot (in order) every unused unseen card, evaluate the
    /// final hands, and average the shares over all these ordered deals.
    fn brute_force(deck: CardSet, pos: &Position) -> f64 {
        let seen = pos.opponents.iter().fold(pos.mine.union(pos.dead), |s, &o| s.union(o));
        let pool: Vec<Card> = deck.minus(seen).iter().collect();
        let mut hands = vec![pos.mine];
        hands.extend_from_slice(pos.opponents);
        let slots: Vec<usize> =
            (0..hands.len()).flat_map(|p| std::iter::repeat_n(p, 5 - hands[p].len() as usize)).collect();
        fn go(
            slot: usize,
            slots: &[usize],
            pool: &[Card],
            used: &mut Vec<bool>,
            hands: &mut Vec<CardSet>,
            acc: &mut (f64, u64),
        ) {
            if slot == slots.len() {
                let values: Vec<HandValue> = hands.iter().map(|&h| value(h)).collect();
                let best = *values[1..].iter().max().unwrap();
                let tied = values[1..].iter().filter(|&&v| v == best).count();
                acc.0 += if values[0] > best {
                    1.0
                } else if values[0] == best {
                    1.0 / (tied + 1) as f64
                } else {
                    0.0
                };
                acc.1 += 1;
                return;
            }
            for i in 0..pool.len() {
                if !used[i] {
                    used[i] = true;
                    hands[slots[slot]].insert(pool[i]);
                    go(slot + 1, slots, pool, used, hands, acc);
                    hands[slots[slot]].remove(pool[i]);
                    used[i] = false;
                }
            }
        }
        let mut acc = (0.0, 0);
        go(0, &slots, &pool, &mut vec![false; pool.len()], &mut hands, &mut acc);
        acc.0 / acc.1 as f64
    }

    #[test]
    fn the_documents_example_wins_for_sure() {
        let opp: CardSet = parse_cards_or_hidden("XX 3C 5D 4H 6H").unwrap().into_iter().flatten().collect();
        let pos = Position { mine: set("8S 10D 10S 8H 8C"), opponents: &[opp], dead: CardSet::EMPTY };
        let odds = win_probability(CardSet::FULL, &pos, EXACT, &mut ChaCha8Rng::seed_from_u64(0));
        assert_eq!(odds, Odds { win: 1.0, exact: true, outcomes: 43 });
    }

    #[test]
    fn exact_ties_count_as_half() {
        // Me: 7-5-4-3-2 (7 high). The opponent shows 2-3-4-5; its hole card: a 7 (three left)
        // ties; a 6 (straight), a pair, an ace or 8-K beat me. So no wins, three ties in 43.
        let pos = Position { mine: set("2S 3D 4C 5H 7S"), opponents: &[set("2H 3C 4D 5S")], dead: CardSet::EMPTY };
        let exact = win_probability(CardSet::FULL, &pos, EXACT, &mut ChaCha8Rng::seed_from_u64(0));
        let brute = brute_force(CardSet::FULL, &pos);
        assert!((exact.win - brute).abs() < 1e-12, "{} vs {brute}", exact.win);
        assert!((exact.win - 1.5 / 43.0).abs() < 1e-12, "{}", exact.win);
    }

    #[test]
    fn exact_enumeration_agrees_with_brute_force_on_random_positions() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for case in 0..60 {
            let deck = if case % 5 == 4 { short_deck() } else { CardSet::FULL };
            let mut pool: Vec<Card> = deck.iter().collect();
            // Fisher-Yates, then read hands off the top.
            for i in (1..pool.len()).rev() {
                pool.swap(i, rng.random_range(0..=i));
            }
            let mut top = pool.into_iter();
            // Keep the brute force small: at most three hidden slots.
            let (opponents, up) = match case % 3 {
                0 => (rng.random_range(1..=3), 4),
                1 => (1, 3),
                _ => (2, 4),
            };
            let mine: CardSet = top.by_ref().take(up + 1).collect();
            let opps: Vec<CardSet> = (0..opponents).map(|_| top.by_ref().take(up).collect()).collect();
            let dead: CardSet = top.by_ref().take(rng.random_range(0..4)).collect();
            let pos = Position { mine, opponents: &opps, dead };
            let exact = win_probability(deck, &pos, EXACT, &mut rng);
            assert!(exact.exact);
            let brute = brute_force(deck, &pos);
            assert!((exact.win - brute).abs() < 1e-12, "case {case}: {} vs {brute}", exact.win);
        }
    }

    fn short_deck() -> CardSet {
        CardSet::FULL.iter().filter(|c| c.rank() >= 6).collect()
    }

    #[test]
    fn monte_carlo_lands_near_the_exact_value() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let pos = Position { mine: set("9S 9D KC"), opponents: &[set("AH 4C")], dead: set("2C") };
        let exact = win_probability(CardSet::FULL, &pos, EXACT, &mut rng);
        let samples = 40_000;
        let mc = win_probability(CardSet::FULL, &pos, Budget { exact_max: 0, samples }, &mut rng);
        assert!(exact.exact && !mc.exact && mc.outcomes == samples as u64);
        let sd = (exact.win * (1.0 - exact.win) / samples as f64).sqrt();
        assert!((mc.win - exact.win).abs() < 4.0 * sd, "{} vs {}", mc.win, exact.win);
    }

    #[test]
    fn draws_are_uniform() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let mut draws = Draws::seeded(&mut rng);
        let from = set("2C 9D 9H AS KS QS 10H");
        let mut counts = [0u32; 64];
        for _ in 0..70_000 {
            counts[draws.card(from.0).trailing_zeros() as usize] += 1;
        }
        // 10,000 expected for each of the 7 cards; sd ~ 93.
        for c in Card::all() {
            let n = counts[c.bit() as usize];
            assert!(if from.contains(c) { (9_600..10_400).contains(&n) } else { n == 0 }, "{c}: {n}");
        }
    }

    /// The sampler as first written: one card at a time with a branch per try, the full
    /// evaluator, a branch per share. The fast path must give the very same number.
    fn monte_carlo_plain(hands: &Hands, pool: CardSet, samples: u32, rng: &mut impl Rng) -> f64 {
        let mut draws = Draws::seeded(rng);
        let mut sum = 0.0;
        for _ in 0..samples {
            let mut left = pool.0;
            let mut values = Vec::new();
            for p in 0..hands.players {
                let mut hand = hands.known[p].0;
                for _ in 0..hands.need[p] {
                    let card = draws.card(left);
                    left ^= card;
                    hand |= card;
                }
                values.push(value(CardSet(hand)));
            }
            let best = *values[1..].iter().max().unwrap();
            let tied = values[1..].iter().filter(|&&v| v == best).count();
            sum += match values[0].cmp(&best) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 1.0 / (tied + 1) as f64,
                std::cmp::Ordering::Less => 0.0,
            };
        }
        sum / samples as f64
    }

    #[test]
    fn monte_carlo_is_bit_identical_to_the_plain_sampler() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for case in 0..300 {
            let deck = if case % 4 == 3 { short_deck() } else { CardSet::FULL };
            let mut pool: Vec<Card> = deck.iter().collect();
            for i in (1..pool.len()).rev() {
                pool.swap(i, rng.random_range(0..=i));
            }
            let mut top = pool.into_iter();
            let opponents = rng.random_range(1..=if deck == CardSet::FULL { 4 } else { 3 });
            let up = rng.random_range(1..=4);
            let mine: CardSet = top.by_ref().take(up + 1).collect();
            let opps: Vec<CardSet> = (0..opponents).map(|_| top.by_ref().take(up).collect()).collect();
            let dead: CardSet = top.by_ref().take(rng.random_range(0..3)).collect();
            let pos = Position { mine, opponents: &opps, dead };
            let hands = Hands::new(&pos);
            let seen = opps.iter().fold(mine.union(dead), |s, &o| s.union(o));
            let seed = rng.random::<u64>();
            let fast = monte_carlo(&hands, deck.minus(seen), 500, &mut ChaCha8Rng::seed_from_u64(seed));
            let plain = monte_carlo_plain(&hands, deck.minus(seen), 500, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(fast.to_bits(), plain.to_bits(), "case {case}: {fast} vs {plain}");
        }
    }

    #[test]
    fn the_budget_switches_to_sampling() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let pos = Position { mine: set("9S 9D"), opponents: &[set("AH")], dead: CardSet::EMPTY };
        let odds = win_probability(CardSet::FULL, &pos, Budget { exact_max: 1_000_000, samples: 500 }, &mut rng);
        assert!(!odds.exact && odds.outcomes == 500);
        assert!(odds.win > 0.5 && odds.win < 0.9, "{}", odds.win);
    }
}
