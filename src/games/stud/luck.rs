//! The value function that takes the luck out of a stud hand's payoffs (core/luck.rs,
//! docs/book/src/luck-method.md).
//!
//! A seat's value is the chips it would end the hand with, less what it has put in, if every
//! seat still in called the bet on the table and nobody bet again (a bet is worth what it wins
//! called, as in hold'em's value; a fold leaves the bet where it is): every seat still in gets
//! its face-up cards to come and the pot is awarded as the
//! showdown awards it (the best five cards take it, ties split, odd chips to the lowest seats:
//! the engine's own `award`). It is averaged over the cards not yet known: every completion when
//! there are few (the last card heads-up: 44 × 43), else a sample drawn from the deal's luck
//! stream, kept for the other values of the hand.
//!
//! The chance events are the cards dealt ([`revealed`]: hole and face up, every seat, as the state
//! shows them), in the order the table deals them: the hole and first face-up cards of every seat
//! (the deal's start, always known), then street by street the next face-up card of each seat
//! still in, in seat order. The first `known` of them are known; the rest, and the cards still to
//! come, are exchangeable: a completion draws them uniformly from the deck's cards not known.
//!
//! At the end of a hand with every card known it is the payoff (a fold leaves one seat in, whose
//! value is the pot); the values of all seats sum to zero, so the adjusted payoffs do too.

use rand::Rng;

use crate::cards::{Card, CardSet};
use crate::core::luck::{pot_bucket, sample_size, Exactness, LuckCache, FULL_SAMPLE, POT_BUCKETS};
use crate::core::Seat;

use super::engine::{State, Stud, MAX_SEATS};
use super::eval::{value5, HandValue};
use super::odds::{choose, for_each_subset};

/// The most completions a value averages: it enumerates them when there are at most as many as
/// its sample would hold ([`sample_size`]; the last card heads-up: 1,892), else samples, unless
/// the value must be exact. Not more: enumerating 20,000 cost a tenth of an adjusted run for no
/// gain the variance could see.
const SAMPLES: usize = FULL_SAMPLE;
/// The fewest completions a sampled value averages (a pot of the antes alone).
const MIN_SAMPLES: usize = 16;
/// An exact value among three or more seats is enumerated up to this many completions (the last
/// two cards against three: 30 million, seconds); above, it is the average of a sample this big
/// (still without bias; heads-up is always exact, by counting, see [`heads_up`]).
const EXACT_UP_TO: u64 = 50_000_000;
const EXACT_SAMPLES: usize = 200_000;

impl State {
    /// [`revealed`], as the engine's `Game::revealed` gives it (this module extends the engine's
    /// types, so that the engine names no module that imports it).
    pub(super) fn cards_dealt(&self) -> usize {
        revealed(self)
    }
}

impl Stud {
    /// Each seat's starting strength (`Game::covariate`): its hole card and first face-up card,
    /// a pair above any two unpaired cards, then by the higher rank and the lower. The deck is
    /// shuffled before it is dealt, so any two cards are as likely at any seat.
    pub(super) fn start_strengths(&self, s: &State, out: &mut [f64]) {
        for (seat, x) in out.iter_mut().enumerate() {
            let cards = s.dealt(seat);
            let (a, b) = (f64::from(cards[0].rank()), f64::from(cards[1].rank()));
            *x = if a == b { 13.0 + a } else { a.max(b) + a.min(b) / 13.0 };
        }
    }

    /// The value function ([`value`]), as the engine's `Game::value` gives it.
    pub(super) fn check_down_value(
        &self,
        s: &State,
        known: usize,
        exactness: Exactness,
        cache: &mut LuckCache,
        out: &mut [f64],
    ) {
        value_as(self, s, known, exactness, cache, Bets::Called, out)
    }

    /// The value if every chip that can still go in went in (`Game::stake_value`): every seat
    /// still in puts in what the shortest stack in the hand can match.
    pub(super) fn all_in_value(
        &self,
        s: &State,
        known: usize,
        exactness: Exactness,
        cache: &mut LuckCache,
        out: &mut [f64],
    ) {
        value_as(self, s, known, exactness, cache, Bets::AllIn, out)
    }

    /// How many cells [`Stud::betting_cell`] has (`Game::luck_cells`): five streets (the fifth:
    /// after the last round) times the pot's buckets.
    pub(super) fn betting_cells(&self) -> usize {
        5 * POT_BUCKETS
    }

    /// The cell of a luck term at `s` (`Game::luck_cell`): its street and its pot's share of
    /// the chips the table started with ([`crate::core::luck::pot_bucket`]), both from the
    /// betting alone.
    pub(super) fn betting_cell(&self, s: &State) -> usize {
        let chips = f64::from(self.stack) * s.seats() as f64;
        s.street().min(4) * POT_BUCKETS + pot_bucket(f64::from(s.pot()) / chips)
    }
}

/// What a value takes each seat still in to put in before the showdown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bets {
    /// The bet on the table called (the value).
    Called,
    /// Every chip that can still go in (the stake value).
    AllIn,
}

/// The cards dealt so far to the seats, hole and face up (never fewer in a later state: a seat
/// that folds keeps the cards it was dealt).
pub(super) fn revealed(s: &State) -> usize {
    (0..s.seats()).map(|x| 1 + s.up(x).len()).sum()
}

/// Each seat's known cards when the first `known` cards dealt are known (at least the deal's
/// start, at most what `s` shows).
fn known_cards(s: &State, known: usize) -> [CardSet; MAX_SEATS] {
    let n = s.seats();
    let mut cards = [CardSet::EMPTY; MAX_SEATS];
    for (x, set) in cards.iter_mut().enumerate().take(n) {
        let d = s.dealt(x);
        *set = CardSet::EMPTY.with(d[0]).with(d[1]);
    }
    let mut left = known.clamp(2 * n, revealed(s)) - 2 * n;
    for street in 1..4 {
        for (x, set) in cards.iter_mut().enumerate().take(n) {
            if s.up(x).len() > street {
                if left == 0 {
                    return cards;
                }
                set.insert(s.dealt(x)[1 + street]);
                left -= 1;
            }
        }
    }
    cards
}

/// Each seat's value at `s` with the first `known` cards dealt known (see the module's text), in
/// chips, into `out`.
#[cfg(test)]
pub(super) fn value(
    game: &Stud,
    s: &State,
    known: usize,
    exactness: Exactness,
    cache: &mut LuckCache,
    out: &mut [f64],
) {
    value_as(game, s, known, exactness, cache, Bets::Called, out)
}

/// [`value`] with the seats still in putting in what `bets` says.
fn value_as(
    game: &Stud,
    s: &State,
    known: usize,
    exactness: Exactness,
    cache: &mut LuckCache,
    bets: Bets,
    out: &mut [f64],
) {
    let n = s.seats();
    // The seats still in, on the stack: a value is asked several times a step.
    let mut seats_in = [0 as Seat; MAX_SEATS];
    let mut count = 0;
    for x in (0..n).filter(|&x| s.in_hand(x)) {
        seats_in[count] = x;
        count += 1;
    }
    let contesting = &seats_in[..count];
    // Every seat still in matches the bet on the table (the engine caps a bet at what the
    // shortest stack in the hand can match, so each can); in a finished hand the seats still
    // in have matched it already.
    let call = contesting.iter().map(|&x| s.committed(x)).max().unwrap_or(0);
    let bet = match bets {
        Bets::Called => call,
        // The shortest stack in the hand, all in (nothing more can go in once the hand is over).
        Bets::AllIn if s.is_over() => call,
        Bets::AllIn => contesting.iter().map(|&x| s.committed(x) + s.stack(x)).min().unwrap_or(0),
    };
    let put_in = |bet: u32| move |x: Seat| if s.in_hand(x) { bet } else { s.committed(x) };
    let called = put_in(bet);
    let pot: u32 = (0..n).map(called).sum();
    // The sample's size follows the pot with the bet called, whichever value is asked, so that
    // both values of a situation share one count.
    let pot_called: u32 = (0..n).map(put_in(call)).sum();
    let samples = sample_size(f64::from(pot_called) / (f64::from(game.stack) * n as f64), MIN_SAMPLES);
    // Chips won, summed over the completions, each with its weight.
    let mut won_sum = [0.0f64; MAX_SEATS];
    let mut weight = 0.0;
    if contesting.len() == 1 {
        won_sum[contesting[0]] = f64::from(pot);
        weight = 1.0;
    } else {
        // The counts do not depend on the bets: a street's decisions and the chance that
        // closes it count the same completions once (the cache is the game's).
        let exact = exactness == Exactness::Exact;
        let mask = contesting.iter().fold(0u64, |m, &x| m | 1 << x);
        let situation = (known, mask | u64::from(exact) << 32 | (samples as u64) << 33);
        if cache.counts_key != Some(situation) {
            cache.counts = count_winners(game, s, known, exact, samples, contesting, cache);
            cache.counts_key = Some(situation);
        }
        let mut values = [HandValue::default(); MAX_SEATS];
        let mut won = [0; MAX_SEATS];
        for &(winners, w) in &cache.counts {
            for &x in contesting {
                values[x] = HandValue(1 + (winners >> x & 1) as u32);
            }
            game.award_pot(s, pot, &values, &mut won);
            let w = w as f64;
            for (sum, &c) in won_sum.iter_mut().zip(&won) {
                *sum += w * f64::from(c);
            }
            weight += w;
        }
    }
    for x in 0..n {
        out[x] = won_sum[x] / weight - f64::from(called(x));
    }
}

/// How many completions of the cards after the first `known` give the pot to each set of the
/// `contesting` seats (a bit a seat: the seats holding the best hand), as `(set, count)`: every
/// completion when they are no more than `samples`, heads-up exactly when `exact`, else a
/// sample of `samples` kept for the hand (a fresh one of [`EXACT_SAMPLES`] when `exact`). The
/// pot's split depends only on that set, so a value awards each set once. Counts are whole
/// numbers of completions.
fn count_winners(
    game: &Stud,
    s: &State,
    known: usize,
    exact: bool,
    samples: usize,
    contesting: &[Seat],
    cache: &mut LuckCache,
) -> Vec<(u64, u64)> {
    let n = s.seats();
    let cards = known_cards(s, known);
    let dead = cards[..n].iter().fold(CardSet::EMPTY, |d, &c| d.union(c));
    let pool = game.deck.minus(dead);
    let mut left = u64::from(pool.len());
    let mut count = 1u64;
    for &x in contesting {
        let need = u64::from(5 - cards[x].len());
        count = count.saturating_mul(choose(left, need));
        left -= need;
    }
    // The pot's split depends only on which seats hold the best hand: completions are
    // counted by that set, and each set's split is the showdown's `award`, once.
    let mut by_winners = [0.0f64; 1 << MAX_SEATS];
    let mut tally = |values: &[HandValue; MAX_SEATS], w: f64| {
        let best = contesting.iter().map(|&x| values[x]).max().expect("seats are in");
        let winners = contesting.iter().filter(|&&x| values[x] == best).fold(0, |m, &x| m | 1 << x);
        by_winners[winners] += w;
    };
    let few = if exact { SAMPLES } else { samples };
    if count <= few as u64 || (exact && contesting.len() > 2 && count <= EXACT_UP_TO) {
        let mut values = [HandValue::default(); MAX_SEATS];
        enumerate(contesting, &cards, pool.0, pool.len(), &mut values, &mut |v| tally(v, 1.0));
    } else if exact && contesting.len() == 2 {
        let (a, b) = (contesting[0], contesting[1]);
        let [a_wins, ties, b_wins] = heads_up_kept(pool, cards[a], cards[b]);
        let mut values = [HandValue::default(); MAX_SEATS];
        for (va, vb, w) in [(2, 1, a_wins), (1, 1, ties), (1, 2, b_wins)] {
            (values[a], values[b]) = (HandValue(va), HandValue(vb));
            tally(&values, w as f64);
        }
    } else {
        let fresh;
        let ranks: &[u32] = if exact {
            fresh = draw(s, &cards, pool, EXACT_SAMPLES, cache);
            &fresh
        } else {
            // Keyed by the sample's size too: a bet that grows the pot asks for more.
            let key = (known, n | samples << 8);
            if cache.key != Some(key) {
                cache.key = Some(key);
                cache.ranks = draw(s, &cards, pool, samples, cache);
            }
            &cache.ranks
        };
        let mut values = [HandValue::default(); MAX_SEATS];
        for ranks in ranks.chunks_exact(n) {
            for &x in contesting {
                values[x] = HandValue(ranks[x]);
            }
            tally(&values, 1.0);
        }
    }
    by_winners.iter().enumerate().filter(|(_, &w)| w != 0.0).map(|(set, &w)| (set as u64, w as u64)).collect()
}

/// Calls `f` with the hand values of every completion of the `contesting` seats' hands (each a
/// subset of `pool`, disjoint from the others').
fn enumerate(
    contesting: &[Seat],
    cards: &[CardSet; MAX_SEATS],
    pool: u64,
    n: u32,
    values: &mut [HandValue; MAX_SEATS],
    f: &mut dyn FnMut(&[HandValue; MAX_SEATS]),
) {
    let Some((&x, rest)) = contesting.split_first() else {
        f(values);
        return;
    };
    let need = 5 - cards[x].len();
    for_each_subset(pool, n, need, 0, &mut |extra| {
        values[x] = value5(CardSet(cards[x].0 | extra));
        enumerate(rest, cards, pool & !extra, n - need, values, f);
    });
}

/// `n`-seat completions (every seat's, folded seats' too: its draws do not change the others'
/// law) drawn from the luck stream, as the seats' hand values one completion after another.
fn draw(s: &State, cards: &[CardSet; MAX_SEATS], pool: CardSet, samples: usize, cache: &mut LuckCache) -> Vec<u32> {
    let n = s.seats();
    let mut deck: Vec<Card> = pool.iter().collect();
    let mut ranks = Vec::with_capacity(samples * n);
    for _ in 0..samples {
        // A partial Fisher-Yates shuffle: the first cards drawn are a uniform draw.
        let mut k = 0;
        for known in &cards[..n] {
            let mut hand = *known;
            for _ in known.len()..5 {
                let j = cache.rng.random_range(k..deck.len());
                deck.swap(k, j);
                hand.insert(deck[k]);
                k += 1;
            }
            ranks.push(value5(hand).0);
        }
    }
    ranks
}

/// [`heads_up`], counted once a process for each position up to the suits' names: the counts
/// do not change when the suits of the pool and both hands are renamed alike, and a strong start
/// goes all-in again and again.
fn heads_up_kept(pool: CardSet, a: CardSet, b: CardSet) -> [i64; 3] {
    type Kept = std::collections::BTreeMap<[u64; 3], [i64; 3]>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(std::collections::BTreeMap::new());
    let key = suits_renamed([pool.0, a.0, b.0]);
    if let Some(&counts) = KEPT.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return counts;
    }
    let counts = heads_up(pool, a, b);
    KEPT.lock().unwrap_or_else(|p| p.into_inner()).insert(key, counts);
    counts
}

/// The least of `sets` under the 24 renamings of the suits (a card set holds one 16-bit lane a
/// suit): the same for every renaming of the same position.
fn suits_renamed(sets: [u64; 3]) -> [u64; 3] {
    let lane = |x: u64, suit: usize| (x >> (16 * suit)) & 0xffff;
    let mut best = [u64::MAX; 3];
    for p in 0..24usize {
        // The permutation number p of 0..4, by its factorial digits.
        let mut left = vec![0usize, 1, 2, 3];
        let mut order = [0usize; 4];
        let mut rest = p;
        for (i, slot) in order.iter_mut().enumerate() {
            let radix = 4 - i;
            *slot = left.remove(rest % radix);
            rest /= radix;
        }
        let renamed = sets.map(|x| (0..4).fold(0u64, |y, s| y | lane(x, order[s]) << (16 * s)));
        best = best.min(renamed);
    }
    best
}

/// Heads-up, exactly: how many completions (seat `a`'s cards, seat `b`'s, disjoint subsets of
/// `pool`) `a` wins, ties and `b` wins. Counted without pairing every completion: the pairs
/// sharing cards are taken out by inclusion-exclusion over the shared cards `u`
/// (`Σ_u (-1)^|u| #{(A, B): u ⊆ A ∩ B}` counts the disjoint pairs), each term by sorting.
fn heads_up(pool: CardSet, a: CardSet, b: CardSet) -> [i64; 3] {
    // (u, value) for every completion and every part u of its cards, sorted: the completions
    // holding u, by value, are one run.
    let by_shared = |known: CardSet| {
        let mut all: Vec<(u64, u32)> = Vec::new();
        for_each_subset(pool.0, pool.len(), 5 - known.len(), 0, &mut |extra| {
            let v = value5(CardSet(known.0 | extra)).0;
            let mut u = extra;
            loop {
                all.push((u, v));
                if u == 0 {
                    break;
                }
                u = (u - 1) & extra;
            }
        });
        all.sort_unstable();
        all
    };
    let (of_a, of_b) = (by_shared(a), by_shared(b));
    let run = |all: &[(u64, u32)], i: usize| i + all[i..].partition_point(|&(u, _)| u == all[i].0);
    let [mut a_wins, mut ties, mut pairs] = [0i64; 3];
    let (mut i, mut j) = (0, 0);
    while i < of_a.len() && j < of_b.len() {
        let (ua, ub) = (of_a[i].0, of_b[j].0);
        if ua < ub {
            i = run(&of_a, i);
        } else if ub < ua {
            j = run(&of_b, j);
        } else {
            let (end_a, end_b) = (run(&of_a, i), run(&of_b, j));
            let vb = &of_b[j..end_b];
            let sign = if ua.count_ones() % 2 == 0 { 1 } else { -1 };
            let (mut wins, mut tied) = (0i64, 0i64);
            for &(_, v) in &of_a[i..end_a] {
                let below = vb.partition_point(|&(_, w)| w < v);
                let not_above = vb.partition_point(|&(_, w)| w <= v);
                wins += below as i64;
                tied += (not_above - below) as i64;
            }
            a_wins += sign * wins;
            ties += sign * tied;
            pairs += sign * ((end_a - i) * vb.len()) as i64;
            (i, j) = (end_a, end_b);
        }
    }
    [a_wins, ties, pairs - a_wins - ties]
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::cards::parse_cards;
    use crate::core::luck::Luck;
    use crate::core::{BotRng, DealRng, Game};
    use crate::games::stud::engine::{short_deck, Action};
    use crate::games::stud::odds::{win_probability, Budget, Position};

    fn hands(cards: &[&str]) -> Vec<[Card; 5]> {
        cards.iter().map(|h| parse_cards(h).unwrap().try_into().unwrap()).collect()
    }

    fn values(g: &Stud, s: &State, known: usize, exactness: Exactness, cache: &mut LuckCache) -> Vec<f64> {
        let mut out = vec![0.0; g.seats];
        value(g, s, known, exactness, cache, &mut out);
        out
    }

    #[test]
    fn a_finished_hand_is_worth_its_payoff_and_values_sum_to_zero() {
        // Random play (folds, show hands, splits) at 2, 3 and 5 seats, full and short decks: at
        // every state the values sum to zero, the cards revealed never decrease, and at the end,
        // every card known, the value is the payoff.
        let mut legal = Vec::new();
        for (seats, deck) in
            [(2, CardSet::FULL), (3, CardSet::FULL), (5, CardSet::FULL), (2, short_deck()), (5, short_deck())]
        {
            let g = Stud::new(seats, 1, 100, deck);
            let mut rng = BotRng::seed_from_u64(seats as u64);
            for hand in 0..100u64 {
                let mut cache = LuckCache::new(hand);
                let mut s = g.deal(&mut DealRng::seed_from_u64(hand));
                loop {
                    let known = revealed(&s);
                    let v = values(&g, &s, known, Exactness::Sampled, &mut cache);
                    assert!(v.iter().sum::<f64>().abs() < 1e-9, "{v:?}");
                    if g.to_act(&s).is_none() {
                        break;
                    }
                    g.legal_actions(&s, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    g.apply(&mut s, &a).unwrap();
                    assert!(revealed(&s) >= known);
                }
                let known = revealed(&s);
                for exactness in [Exactness::Sampled, Exactness::Exact] {
                    let v = values(&g, &s, known, exactness, &mut LuckCache::new(hand));
                    assert_eq!(v, g.outcome(&s).payoff.to_vec());
                }
            }
        }
    }

    /// Heads-up, both checked the second street: the third street is being bet, 3 cards known
    /// a seat, 979,110 completions.
    fn third_street() -> (Stud, State) {
        let g = Stud::new(2, 1, 100, CardSet::FULL);
        let mut s = g.deal_cards(&hands(&["AsKd2c9h3d", "7h7dTs4c8s"]), &[100, 100]);
        g.apply(&mut s, &Action::Check).unwrap();
        g.apply(&mut s, &Action::Check).unwrap();
        assert_eq!(s.street(), 1);
        (g, s)
    }

    #[test]
    fn heads_up_counting_is_the_enumeration() {
        let (g, s) = third_street();
        let cards = known_cards(&s, revealed(&s));
        let pool = g.deck.minus(cards[0].union(cards[1]));
        let mut counts = [0i64; 3];
        let mut values = [HandValue::default(); MAX_SEATS];
        enumerate(&[0, 1], &cards, pool.0, pool.len(), &mut values, &mut |v| {
            counts[if v[0] > v[1] {
                0
            } else if v[0] == v[1] {
                1
            } else {
                2
            }] += 1;
        });
        assert_eq!(counts.iter().sum::<i64>(), 979_110);
        assert_eq!(heads_up(pool, cards[0], cards[1]), counts);
        // Kept counts are the same, and the same again for the suits renamed (clubs and spades
        // swapped).
        assert_eq!(heads_up_kept(pool, cards[0], cards[1]), counts);
        let swap = |c: CardSet| CardSet((c.0 & 0x0000_ffff_ffff_0000) | (c.0 & 0xffff) << 48 | c.0 >> 48);
        assert_eq!(
            suits_renamed([pool.0, cards[0].0, cards[1].0]),
            suits_renamed([swap(pool).0, swap(cards[0]).0, swap(cards[1]).0])
        );
        assert_eq!(heads_up_kept(swap(pool), swap(cards[0]), swap(cards[1])), counts);
    }

    /// [`third_street`] with both seats having put `bet` chips in on the second street (called):
    /// a pot of 2 + 2 × `bet` chips.
    fn third_street_after(bet: u32) -> (Stud, State) {
        let g = Stud::new(2, 1, 100, CardSet::FULL);
        let mut s = g.deal_cards(&hands(&["AsKd2c9h3d", "7h7dTs4c8s"]), &[100, 100]);
        g.apply(&mut s, &Action::Bet(bet)).unwrap();
        g.apply(&mut s, &Action::Call).unwrap();
        assert_eq!(s.street(), 1);
        (g, s)
    }

    #[test]
    fn a_sampled_value_estimates_the_exact_one() {
        // A pot of 42 chips (21% of the 200 in play): the full sample of 2,000 completions.
        let (g, s) = third_street_after(20);
        assert_eq!(s.pot(), 42);
        let known = revealed(&s);
        assert_eq!(known, 6);
        let exact = values(&g, &s, known, Exactness::Exact, &mut LuckCache::new(1));
        let mut cache = LuckCache::new(1);
        let sampled = values(&g, &s, known, Exactness::Sampled, &mut cache);
        assert_eq!(cache.ranks.len(), 2 * SAMPLES, "the full sample");
        let again = values(&g, &s, known, Exactness::Sampled, &mut LuckCache::new(1));
        assert_eq!(sampled, again, "the same deal's luck stream draws the same sample");
        // A share's standard error over 2,000 completions is under 1.2%.
        assert!((exact[0] - sampled[0]).abs() < 4.0 * 0.012 * 42.0, "{exact:?} {sampled:?}");
        assert!((exact[0] + exact[1]).abs() < 1e-12);
        // At the deal's start (fewer cards known) too: the 2 face-up cards a seat still to come.
        let start = values(&g, &s, 4, Exactness::Exact, &mut LuckCache::new(1));
        let sampled = values(&g, &s, 4, Exactness::Sampled, &mut LuckCache::new(1));
        assert!((start[0] - sampled[0]).abs() < 4.0 * 0.012 * 42.0, "{start:?} {sampled:?}");
    }

    #[test]
    fn the_sample_follows_the_pot() {
        // The antes' pot (2 of 200 chips) draws the floor's completions; a bet not yet called
        // counts as called, so the bettor's value and the caller's share one count.
        let (g, mut s) = third_street();
        let mut cache = LuckCache::new(1);
        values(&g, &s, revealed(&s), Exactness::Sampled, &mut cache);
        assert_eq!(cache.ranks.len(), 2 * MIN_SAMPLES);
        g.apply(&mut s, &Action::Bet(40)).unwrap();
        values(&g, &s, revealed(&s), Exactness::Sampled, &mut cache);
        assert_eq!(cache.ranks.len(), 2 * sample_size(82.0 / 200.0, MIN_SAMPLES));
    }

    #[test]
    fn a_small_sample_is_an_unbiased_estimate() {
        // The antes' pot averages 16 completions: over 2,000 deals' luck streams, the mean of
        // the sampled values is the exact value within 4 of its standard errors (a share's over
        // 16 completions is at most 12.5%: 0.125 × 2 chips / √2,000 for the mean).
        let (g, s) = third_street();
        let known = revealed(&s);
        let exact = values(&g, &s, known, Exactness::Exact, &mut LuckCache::new(1));
        let runs = 2_000;
        let (mut sum, mut sum2) = (0.0, 0.0);
        for deal in 0..runs {
            let v = values(&g, &s, known, Exactness::Sampled, &mut LuckCache::new(deal))[0];
            sum += v;
            sum2 += v * v;
        }
        let n = runs as f64;
        let mean = sum / n;
        let sd = ((sum2 - sum * sum / n) / (n - 1.0)).sqrt();
        assert!(sd > 0.0 && sd <= 0.125 * 2.0 + 1e-9, "the sample's spread {sd}");
        assert!((mean - exact[0]).abs() < 4.0 * sd / n.sqrt(), "mean {mean}, exact {}, sd {sd}", exact[0]);
    }

    #[test]
    fn the_all_in_adjustment_is_the_exact_equity_of_a_show_hand_on_the_third_street() {
        // The show hand, called on the third street: the all-in adjusted payoff is the pot (200)
        // times the exact equity of the cards known then (odds.rs' enumeration, ties halved)
        // less the 100 put in, whatever the last two streets dealt.
        let (g, mut s) = third_street();
        let before = s.clone();
        let mut luck = Luck::new(2, 7);
        for action in [Action::ShowHand, Action::Call] {
            let prev = s.clone();
            g.apply(&mut s, &action).unwrap();
            luck.step(&g, &prev, &action, &s, &[]);
        }
        assert!(g.to_act(&s).is_none() && s.pot() == 200);
        let mine = before.up_set(0).with(before.hole(0));
        let theirs = [before.up_set(1).with(before.hole(1))];
        let pos = Position { mine, opponents: &theirs, dead: CardSet::EMPTY };
        let exact = Budget { exact_max: u64::MAX, samples: 0 };
        let odds = win_probability(g.deck, &pos, exact, &mut BotRng::seed_from_u64(1));
        assert!(odds.exact);
        let payoff = g.outcome(&s).payoff[0];
        let a = luck.adjusted(0, payoff);
        assert!((a.allin - (200.0 * odds.win - 100.0)).abs() < 1e-9, "{a:?} {odds:?}");
        // No decision of known probabilities, the chance before fell in a step of no bet: AIVAT
        // adds to the all-in adjustment only the terms of the first street's close.
        let b = luck.adjusted(1, -payoff);
        assert!((a.allin + b.allin).abs() < 1e-9);
    }

    /// Every `k`-subset of `cards`, as lists.
    fn subsets(cards: &[Card], k: usize) -> Vec<Vec<Card>> {
        if k == 0 {
            return vec![Vec::new()];
        }
        (0..cards.len())
            .flat_map(|i| {
                subsets(&cards[i + 1..], k - 1).into_iter().map(move |mut rest| {
                    rest.insert(0, cards[i]);
                    rest
                })
            })
            .collect()
    }

    #[test]
    fn an_all_in_value_is_the_mean_payoff_over_every_way_the_cards_fall() {
        // Issue 51: the all-in adjustment sat above the plain mean in stud's all-in games. The
        // adjustment's term is `w - payoff`, `w` the exact value when the show hand is called;
        // its mean is zero if and only if `w` is the payoff's mean over the cards still to come.
        // Here that mean is counted the slow way (every pair of completions, the engine's own
        // hand values and split, nothing shared with the counting of `heads_up`) for show hands
        // called on every street with cards to come, started by either seat, on 8 deals each:
        // the full deck's last two streets (1,892 and 979,110 completions) and the short deck's
        // first (2.7 million).
        use super::super::eval::value as hand_value;
        let mut checked = [0; 2];
        for (deck, street) in [(short_deck(), 0), (CardSet::FULL, 1), (CardSet::FULL, 2)] {
            let g = Stud::new(2, 1, 100, deck);
            for deal in 0..8u64 {
                let mut s = g.deal(&mut DealRng::seed_from_u64(1000 * street as u64 + deal));
                while s.street() < street {
                    g.apply(&mut s, &Action::Check).unwrap();
                }
                let shover = g.to_act(&s).unwrap();
                let known = revealed(&s);
                let before = s.clone();
                g.apply(&mut s, &Action::ShowHand).unwrap();
                let prev = s.clone();
                g.apply(&mut s, &Action::Call).unwrap();
                assert!(g.to_act(&s).is_none() && s.pot() == 200);
                let mut luck = Luck::new(2, deal);
                luck.step(&g, &prev, &Action::Call, &s, &[]);
                let w = values(&g, &s, known, Exactness::Exact, &mut LuckCache::new(deal));
                // The slow way: every completion of seat 0's hand, then of seat 1's from the rest.
                let mine = |x: Seat| before.up_set(x).with(before.hole(x));
                let pool: Vec<Card> = deck.minus(mine(0).union(mine(1))).iter().collect();
                let need = 5 - mine(0).len() as usize;
                let (mut sum, mut count) = (0.0f64, 0u64);
                for extra in subsets(&pool, need) {
                    let a = extra.iter().fold(mine(0), |h, &c| h.with(c));
                    let rest: Vec<Card> = pool.iter().copied().filter(|c| !extra.contains(c)).collect();
                    let va = hand_value(a);
                    for other in subsets(&rest, need) {
                        let vb = hand_value(other.iter().fold(mine(1), |h, &c| h.with(c)));
                        sum += if va > vb {
                            100.0
                        } else if va == vb {
                            0.0
                        } else {
                            -100.0
                        };
                        count += 1;
                    }
                }
                let mean = sum / count as f64;
                assert!((w[0] - mean).abs() < 1e-9, "street {street}, deal {deal}: value {w:?}, mean payoff {mean}");
                // The game's all-in term is that value less the payoff, whatever the cards dealt.
                let payoff = g.outcome(&s).payoff[0];
                assert!((luck.adjusted(0, payoff).allin - w[0]).abs() < 1e-9);
                checked[shover] += 1;
            }
        }
        assert!(checked.iter().all(|&n| n > 0), "both seats started a show hand: {checked:?}");
    }

    #[test]
    fn a_bet_not_yet_answered_is_valued_as_called() {
        // On the third street (both checked the second) the first to act bets 10 chips: its
        // value is its exact share of the 22 chip pot the call would make, less its 11, and
        // summing to zero with the other's; the call changes neither value.
        let (g, mut s) = third_street();
        let known = revealed(&s);
        let bettor = g.to_act(&s).unwrap();
        g.apply(&mut s, &Action::Bet(10)).unwrap();
        let bet = values(&g, &s, known, Exactness::Exact, &mut LuckCache::new(1));
        let mut called = s.clone();
        g.apply(&mut called, &Action::Call).unwrap();
        let after = values(&g, &called, known, Exactness::Exact, &mut LuckCache::new(1));
        assert!(bet.iter().zip(&after).all(|(a, b)| (a - b).abs() < 1e-9), "{bet:?} {after:?}");
        assert!((bet[0] + bet[1]).abs() < 1e-9);
        // The same position with the bet's 10 chips a seat already in: the share of 22 chips.
        let checked = third_street().1;
        let share = values(&g, &checked, known, Exactness::Exact, &mut LuckCache::new(1));
        let equity = (share[bettor] + 1.0) / 2.0;
        assert!((bet[bettor] - (22.0 * equity - 11.0)).abs() < 1e-9, "{bet:?} {share:?}");
    }

    #[test]
    fn three_seats_all_in_are_enumerated_exactly() {
        // Three seats on the last street, its cards not known: 40 × 39 × 38 completions, enumerated; the same
        // as the sampled value within its error, and summing to zero.
        // Each seat put 20 chips in on the second street: a pot of 63 of the 300 chips in play,
        // so the sampled value averages the full sample.
        let g = Stud::new(3, 1, 100, CardSet::FULL);
        let mut s = g.deal_cards(&hands(&["AsKd2c9h3d", "7h7dTs4c8s", "QcQh5d6d9s"]), &[100; 3]);
        for action in [Action::Bet(20), Action::Call, Action::Call] {
            g.apply(&mut s, &action).unwrap();
        }
        for _ in 0..2 {
            for _ in 0..3 {
                g.apply(&mut s, &Action::Check).unwrap();
            }
        }
        assert_eq!(s.pot(), 63);
        assert_eq!(s.street(), 3);
        let known = revealed(&s);
        let exact = values(&g, &s, known - 3, Exactness::Exact, &mut LuckCache::new(1));
        let sampled = values(&g, &s, known - 3, Exactness::Sampled, &mut LuckCache::new(1));
        assert!(exact.iter().sum::<f64>().abs() < 1e-9);
        for (e, x) in exact.iter().zip(&sampled) {
            assert!((e - x).abs() < 4.0 * 0.012 * 63.0, "{exact:?} {sampled:?}");
        }
    }

    #[test]
    fn the_bots_state_policies_that_hold_their_action() {
        // Every decision of expert (its bluff) and random: the stated policy sums
        // to one over legal actions and gives the action taken a positive probability; the
        // adjusted payoffs of whole games still sum to zero.
        use crate::core::{play_kept, GameSeeds, Keep, Params};
        use crate::games::stud::bots::BOT_KINDS;
        let g = Stud::new(3, 1, 100, CardSet::FULL);
        let factories: Vec<_> = BOT_KINDS
            .iter()
            .map(|k| (k.make)(&Params::new(k.params, &toml::Table::new(), k.name).unwrap(), &g).unwrap())
            .collect();
        let (mut legal, mut policy) = (Vec::new(), Vec::new());
        let mut mixed = 0;
        for hand in 0..300u64 {
            let mut bots: Vec<_> = (0..3).map(|x| factories[(hand as usize + x) % 3]()).collect();
            let mut rng = BotRng::seed_from_u64(hand);
            let mut s = g.deal(&mut DealRng::seed_from_u64(hand));
            while let Some(seat) = g.to_act(&s) {
                let view = g.view(&s, seat);
                let a = bots[seat].act(&g, &view, &mut rng);
                policy.clear();
                bots[seat].policy(&g, &view, &mut policy);
                g.legal_actions(&s, &mut legal);
                if BOT_KINDS[(hand as usize + seat) % 3].name == "always-call" {
                    // Deterministic: it states nothing, and nothing is corrected.
                    assert!(policy.is_empty());
                    g.apply(&mut s, &a).unwrap();
                    continue;
                }
                assert!((policy.iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9, "{policy:?}");
                assert!(policy.iter().any(|&(b, p)| b == a && p > 0.0), "{a:?} {policy:?}");
                assert!(policy.iter().all(|(b, _)| g.apply(&mut s.clone(), b).is_ok()), "{policy:?}");
                mixed += usize::from(policy.len() > 1);
                g.apply(&mut s, &a).unwrap();
            }
            let mut bots: Vec<_> = (0..3).map(|x| factories[(hand as usize + x) % 3]()).collect();
            let keep = Keep { columns: false, history: false, moves: false, luck: crate::core::luck::Estimator::Aivat };
            let r = play_kept(&g, &mut bots, &GameSeeds::derive(9, 3, hand, 1), keep);
            let adjusted: Vec<_> = r.seats.iter().map(|x| x.adjusted.expect("adjusted")).collect();
            assert!(adjusted.iter().map(|a| a.aivat).sum::<f64>().abs() < 1e-6, "{adjusted:?}");
            assert!(adjusted.iter().map(|a| a.allin).sum::<f64>().abs() < 1e-6, "{adjusted:?}");
        }
        assert!(mixed > 0);
    }
}
