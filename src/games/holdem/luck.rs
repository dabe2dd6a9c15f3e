//! The value function that takes the luck out of a cash hand's payoffs (core/luck.rs, docs/book/src/luck-method.md).
//!
//! A seat's value is the chips it would end the hand with, less what it has put in, if every
//! seat still in called the bet (as far as its stack goes), nobody bet again and the hand were
//! shown down: every seat still in shows its cards (all of them are known here, after the fact),
//! the board is completed, and the pots are awarded as the showdown awards them (side pots and
//! split pots included, by the same `award`). It is averaged
//! over the board cards not yet known: all their completions when there are few (the turn and
//! river after a flop: 990 heads-up), else a sample drawn from the deal's luck stream, whose
//! size follows the pot ([`sample_size`]).
//!
//! Why this one: it is the payoff itself at the end of every hand (a fold leaves one seat in,
//! whose value is the pot), and before the end it is what the all-in adjustment (equity times
//! the pot) has always used, so the corrections at the board's cards take out the luck of the
//! cards exactly where it falls. It needs no model of the bots, and the values of all seats sum
//! to zero, so the adjusted payoffs do too. Taking a bet as called is what makes a bot's coin
//! flips count: with bets handed back, raising and checking would be worth the same and the
//! corrections at decisions would be nothing (rr against always-call: variance ratio 1.31 with
//! bets handed back, 2.44 with bets called; 4,000 duplicate hands, seed 1).

use crate::cards::{Card, CardSet};
use crate::core::luck::{pot_bucket, sample_size, Exactness, LuckCache, POT_BUCKETS};

use super::engine::award;
use super::equity::{enumerate, hand_strength, FastRng};
use super::eval::{Hand, HandValue};
use super::state::{Chips, Holdem, State, MAX_SEATS};

/// Completions are enumerated when there are at most this many times the sample's size
/// ([`sample_size`]; at the full sample 20,000: the turn and river after the flop, 990 heads-up,
/// and the river, 44); more (the five cards before the flop: 1.7 million) are sampled, unless the
/// value must be exact.
const ENUMERATE_PER_SAMPLE: u64 = 10;
/// The fewest completions a sampled value averages (a pot of the blinds alone): more than stud's,
/// since the stake value's terms stake every chip whatever the pot (a floor of 16 took `rr`
/// against `rr-tight` from 2.48 to 2.32, 64 to 2.42; 200 keeps 2.47).
const MIN_SAMPLES: usize = 200;

impl Holdem {
    /// The value function ([`value`]), as the engine's `Game::value` gives it: this module
    /// extends the table's type, so that the engine names no module that imports it.
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
    /// still in puts in as much as the deepest of the others can match.
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

    /// How many cells [`Holdem::betting_cell`] has (`Game::luck_cells`).
    pub(super) fn betting_cells(&self) -> usize {
        LUCK_CELLS
    }

    /// The cell of a luck term at `s` (`Game::luck_cell`): its street (4 once the hand is
    /// settled) and its pot's share of the chips the seats dealt in started with
    /// ([`crate::core::luck::pot_bucket`]), both from the betting alone.
    pub(super) fn betting_cell(&self, s: &State) -> usize {
        let (pot, chips) = (0..s.n).filter(|&i| s.live & (1 << i) != 0).fold((0, 0), |(pot, chips), i| {
            let put = if s.over { s.paid[i] } else { s.committed[i] };
            (pot + put as u64, chips + s.start[i] as u64)
        });
        usize::from(s.street.min(4)) * POT_BUCKETS + pot_bucket(pot as f64 / chips.max(1) as f64)
    }

    /// Each seat's starting strength (`Game::covariate`): its hole cards' equity against one
    /// random hand ([`preflop_strength`]). Hole cards are dealt from a shuffled deck, so any
    /// hand is as likely at any seat.
    pub(super) fn start_strengths(&self, s: &State, out: &mut [f64]) {
        for (x, hole) in out.iter_mut().zip(&s.hole) {
            *x = preflop_strength(*hole);
        }
    }
}

/// The boards a starting hand's equity is sampled over (its standard error is under 1.2%; any
/// table would keep the regression unbiased, a closer one takes out more).
const STRENGTH_TRIALS: u64 = 2_000;

/// `hole`'s equity against one random hand before the flop, from a table of the 169 starting
/// hands (pairs, suited and offsuit by rank) built once a process from a fixed seed.
pub(super) fn preflop_strength(hole: [Card; 2]) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let class = |c: [Card; 2]| {
        let (hi, lo) = (c[0].rank().max(c[1].rank()) as usize, c[0].rank().min(c[1].rank()) as usize);
        (hi * 13 + lo) * 2 + usize::from(c[0].suit() == c[1].suit())
    };
    let table = TABLE.get_or_init(|| {
        let mut rng = FastRng::new(0x0053_5441_5254); // "START"
        let mut table = vec![0.0; 13 * 13 * 2];
        for hi in 0..13u8 {
            for lo in 0..=hi {
                for suited in [false, true] {
                    if suited && hi == lo {
                        continue;
                    }
                    let hole = [Card::new(hi, 0), Card::new(lo, if suited { 0 } else { 1 })];
                    table[class(hole)] = hand_strength(hole, &[], 1, STRENGTH_TRIALS, &mut rng);
                }
            }
        }
        table
    });
    table[class(hole)]
}

/// What a value takes each seat still in to put in before the showdown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bets {
    /// The bet on the table called, as far as each stack goes (the value).
    Called,
    /// Every chip that can still go in (the stake value).
    AllIn,
}

/// The luck cells of a hand: five streets (the fifth: settled) times the pot's buckets.
const LUCK_CELLS: usize = 5 * POT_BUCKETS;

/// Each seat's value at `s` with the first `known` board cards known (see the module's text),
/// in big blinds, into `out`.
#[cfg(test)]
pub(super) fn value(
    game: &Holdem,
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
    game: &Holdem,
    s: &State,
    known: usize,
    exactness: Exactness,
    cache: &mut LuckCache,
    bets: Bets,
    out: &mut [f64],
) {
    let n = s.n;
    let big = game.blinds.big as f64;
    let contesting = s.contesting();
    let called = bet_called(s, contesting);
    // A settled hand has moved the pot into the stacks: what each seat put in is kept apart.
    // In a hand under way, every seat still in is taken to match the bet (as far as its stack
    // goes): a bet is worth what it wins called, not the nothing of a bet handed back.
    let committed = if s.over {
        s.paid
    } else if bets == Bets::AllIn {
        // Each seat in puts in all it has, as far as the deepest other seat in can match.
        let total = |i: usize| s.committed[i] + s.stack[i];
        std::array::from_fn(|i| match contesting & (1 << i) != 0 {
            true => {
                let others = (0..n).filter(|&j| j != i && contesting & (1 << j) != 0).map(total).max().unwrap_or(0);
                total(i).min(others.max(s.committed[i]))
            }
            false => s.committed[i],
        })
    } else {
        called
    };
    let committed = &committed;
    let mut won_sum = [0u64; MAX_SEATS];
    let mut completions = 0u64;
    if contesting.count_ones() == 1 {
        won_sum[contesting.trailing_zeros() as usize] = committed[..n].iter().map(|&c| c as u64).sum();
        completions = 1;
    } else {
        let known = known.min(5);
        let exact = exactness == Exactness::Exact;
        // The sample follows the pot with the bet called, whichever value is asked, so that both
        // values of a situation share one count.
        let (pot, chips) = (0..n)
            .filter(|&i| s.live & (1 << i) != 0)
            .fold((0u64, 0u64), |(pot, chips), i| (pot + called[i] as u64, chips + s.start[i] as u64));
        // A street's values use every completion drawn for it so far (more than this pot asks
        // when a bet grew the pot earlier): the counts are then kept until a larger pot draws
        // more, and the count still depends on the betting alone.
        let drawn = if cache.key == Some((known, n)) { cache.ranks.len() / n } else { 0 };
        let samples = sample_size(pot as f64 / chips.max(1) as f64, MIN_SAMPLES).max(drawn);
        let situation = (known, u64::from(contesting) | u64::from(exact) << 32 | (samples as u64) << 33);
        if cache.counts_key != Some(situation) {
            let counts = count_orders(s, known, exact, samples, contesting, cache);
            cache.counts = counts;
            cache.counts_key = Some(situation);
        }
        let seats_in = (0..n).filter(|&i| contesting & (1 << i) != 0);
        for &(order, times) in &cache.counts {
            let mut value = [0 as HandValue; MAX_SEATS];
            for (k, i) in seats_in.clone().enumerate() {
                value[i] = 15 - ((order >> (4 * k)) & 15) as HandValue;
            }
            let mut won = [0 as Chips; MAX_SEATS];
            award(s, contesting, committed, &value, &mut won);
            for (sum, w) in won_sum.iter_mut().zip(won) {
                *sum += w as u64 * times;
            }
            completions += times;
        }
    }
    for i in 0..n {
        let won = won_sum[i] as f64 / completions as f64;
        out[i] = (won - committed[i] as f64) / big;
    }
}

/// What each seat has put in with the bet on the table called by every `contesting` seat, as far
/// as its stack goes.
fn bet_called(s: &State, contesting: u16) -> [Chips; MAX_SEATS] {
    let bet = (0..s.n).filter(|&i| contesting & (1 << i) != 0).map(|i| s.committed[i]).max().unwrap_or(0);
    std::array::from_fn(|i| match contesting & (1 << i) != 0 {
        true => bet.min(s.committed[i] + s.stack[i]),
        false => s.committed[i],
    })
}

/// How often each order of the `contesting` seats' hands comes up over the completions of the
/// board after its first `known` cards (all of them when `exact` or few, else the sample): the
/// pots go by that order alone, so a completion costs its hand values and nothing more. An order
/// is, for each seat in (in seat order, 4 bits each), how many seats in hold a better hand.
fn count_orders(
    s: &State,
    known: usize,
    exact: bool,
    samples: usize,
    contesting: u16,
    cache: &mut LuckCache,
) -> Vec<(u64, u64)> {
    // Heads-up before the flop, every board: the same counts for every deal of the same two
    // hands up to a renaming of the suits, so they are counted once a process (strong hands go
    // all-in again and again: aces against kings is a few such pairs).
    if exact && known == 0 && s.live.count_ones() == 2 && contesting.count_ones() == 2 {
        let (a, b) = (contesting.trailing_zeros() as usize, 15 - contesting.leading_zeros() as usize);
        let key = preflop_key(s.hole[a], s.hole[b]);
        if let Some(counts) = PREFLOP.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
            return counts.clone();
        }
        let counts = count_every_board(s, known, contesting);
        PREFLOP.lock().unwrap_or_else(|p| p.into_inner()).insert(key, counts.clone());
        return counts;
    }
    if exact {
        return count_every_board(s, known, contesting);
    }
    count_board_completions(s, known, contesting, samples, cache)
}

/// Exact heads-up pre-flop counts by hand pair, up to the suits' names ([`preflop_key`]).
static PREFLOP: std::sync::Mutex<std::collections::BTreeMap<u32, Vec<(u64, u64)>>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// Two hole-card pairs (seat order kept) with the suits renamed in order of first appearance: the
/// key of their pre-flop counts, which a renaming of the suits does not change.
fn preflop_key(a: [Card; 2], b: [Card; 2]) -> u32 {
    let mut names = [u8::MAX; 4];
    let mut next = 0;
    // Each pair by rank, so that its two orders give one key (equal ranks: by suit).
    let sort = |p: [Card; 2]| if (p[0].rank(), p[0].suit()) >= (p[1].rank(), p[1].suit()) { p } else { [p[1], p[0]] };
    let (a, b) = (sort(a), sort(b));
    [a[0], a[1], b[0], b[1]].iter().fold(0u32, |key, card| {
        let suit = card.suit() as usize;
        if names[suit] == u8::MAX {
            names[suit] = next;
            next += 1;
        }
        key << 6 | Card::new(card.rank(), names[suit]).index() as u32
    })
}

/// [`count_orders`] over every completion.
fn count_every_board(s: &State, known: usize, contesting: u16) -> Vec<(u64, u64)> {
    count_completions(s, known, contesting, None)
}

/// [`count_orders`] over every completion when they are few, else over the hand's sample of
/// `samples` completions.
fn count_board_completions(
    s: &State,
    known: usize,
    contesting: u16,
    samples: usize,
    cache: &mut LuckCache,
) -> Vec<(u64, u64)> {
    count_completions(s, known, contesting, Some((cache, samples)))
}

/// The counts of [`count_orders`]: every completion, or with a cache and a sample's size, that
/// sample when there are more than [`ENUMERATE_PER_SAMPLE`] times its size.
fn count_completions(
    s: &State,
    known: usize,
    contesting: u16,
    draw: Option<(&mut LuckCache, usize)>,
) -> Vec<(u64, u64)> {
    let n = s.n;
    let dead: CardSet = (0..n)
        .filter(|&i| s.live & (1 << i) != 0)
        .flat_map(|i| s.hole[i])
        .chain(s.board[..known].iter().copied())
        .collect();
    let live: Vec<Card> = Card::all().filter(|c| !dead.contains(*c)).collect();
    let missing = 5 - known;
    let base = s.board[..known].iter().fold(Hand::new(), |h, &c| h.plus(c));
    let holes: [Hand; MAX_SEATS] =
        std::array::from_fn(|i| if i < n { Hand::new().plus(s.hole[i][0]).plus(s.hole[i][1]) } else { Hand::new() });
    let seats_in: Vec<usize> = (0..n).filter(|&i| contesting & (1 << i) != 0).collect();
    let mut orders: Vec<(u64, u64)> = Vec::with_capacity(4);
    let mut values = [0 as HandValue; MAX_SEATS];
    let mut count = |values: &[HandValue; MAX_SEATS]| {
        let mut order = 0u64;
        for (k, &i) in seats_in.iter().enumerate() {
            let above = seats_in.iter().filter(|&&j| values[j] > values[i]).count() as u64;
            order |= above << (4 * k);
        }
        match orders.iter_mut().find(|(o, _)| *o == order) {
            Some((_, c)) => *c += 1,
            None => orders.push((order, 1)),
        }
    };
    let completions = choose(live.len() as u64, missing as u64);
    match draw.filter(|&(_, samples)| completions > ENUMERATE_PER_SAMPLE * samples as u64) {
        None => enumerate(&live, missing, base, &mut |board| {
            for &i in &seats_in {
                values[i] = board.join(holes[i]).value();
            }
            count(&values);
        }),
        Some((cache, samples)) => {
            let ranks = sample(s, known, samples, &live, base, &holes, cache);
            for ranks in ranks.chunks_exact(n) {
                for &i in &seats_in {
                    values[i] = ranks[i] as HandValue;
                }
                count(&values);
            }
        }
    }
    orders
}

/// `samples` completions of the board after its first `known` cards, as every dealt-in seat's
/// hand value (completion after completion, `s.n` a completion): drawn from the deal's luck
/// stream once a hand for each `known`, and kept in `cache` for the other values of the hand. A
/// value that asks for more (a bet grew the pot) extends the sample with fresh draws, so the
/// values of a street share their completions.
fn sample<'c>(
    s: &State,
    known: usize,
    samples: usize,
    live: &[Card],
    base: Hand,
    holes: &[Hand; MAX_SEATS],
    cache: &'c mut LuckCache,
) -> &'c [u32] {
    let n = s.n;
    if cache.key != Some((known, n)) {
        cache.key = Some((known, n));
        cache.ranks.clear();
    }
    let drawn = cache.ranks.len() / n;
    if drawn < samples {
        let mut deck = live.to_vec();
        let missing = 5 - known;
        // One draw from the luck stream seeds a quick generator for the new completions: each is
        // a uniform draw whatever the deck's order, so an extension is as good as a fresh sample.
        let mut rng = FastRng::new(rand::RngCore::next_u64(&mut cache.rng));
        for _ in drawn..samples {
            // A partial Fisher-Yates shuffle: the first `missing` cards are a uniform draw.
            let mut board = base;
            for k in 0..missing {
                let j = k + rng.below((deck.len() - k) as u32) as usize;
                deck.swap(k, j);
                board = board.plus(deck[k]);
            }
            cache.ranks.extend((0..n).map(|i| u32::from(board.join(holes[i]).value())));
        }
    }
    &cache.ranks[..samples * n]
}

/// The number of `k`-subsets of `n` things.
fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::core::luck::FULL_SAMPLE;
    use crate::core::luck::{Luck, LuckCache};
    use crate::core::{Game, GameSeeds};
    use crate::games::holdem::equity::exact_heads_up;
    use crate::games::holdem::tests::deck;
    use crate::games::holdem::Action;

    #[test]
    fn an_all_in_before_the_flop_is_worth_its_exact_equity() {
        // Aces against kings, both all-in for 100 big blinds: the aces' value is their exact
        // equity (81.2555%, every board enumerated) of the 200 big blind pot, less their 100.
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "Kh7c2d9s3h"), &[10_000, 10_000]);
        let before = s.clone();
        g.apply(&mut s, &Action::RaiseTo(10_000)).unwrap();
        g.apply(&mut s, &Action::CheckCall).unwrap();
        assert!(s.over);
        let mut out = [0.0; 2];
        let mut cache = LuckCache::new(1);
        value(&g, &s, 0, Exactness::Exact, &mut cache, &mut out);
        let eq = exact_heads_up(before.hole[0], before.hole[1], &[]);
        let expected = 200.0 * (eq.win + eq.tie / 2.0) - 100.0;
        assert!((out[0] - expected).abs() < 1e-9, "{} vs {expected}", out[0]);
        assert!((out[0] + out[1]).abs() < 1e-9, "values sum to zero");
        // With every card known the value is the payoff: the kings made a set on this board.
        value(&g, &s, 5, Exactness::Exact, &mut cache, &mut out);
        assert_eq!(out, [-100.0, 100.0]);
        assert_eq!(g.outcome(&s).payoff.to_vec(), vec![-100.0, 100.0]);
    }

    #[test]
    fn the_all_in_adjustment_replaces_the_payoff_by_its_expectation() {
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "Kh7c2d9s3h"), &[10_000, 10_000]);
        let mut luck = Luck::new(2, 7);
        for action in [Action::RaiseTo(10_000), Action::CheckCall] {
            let before = s.clone();
            g.apply(&mut s, &action).unwrap();
            luck.step(&g, &before, &action, &s, &[]);
        }
        let a = luck.adjusted(0, -100.0);
        let eq = exact_heads_up(parse_two("AhAs"), parse_two("KdKc"), &[]);
        assert!((a.allin - (200.0 * eq.equity - 100.0)).abs() < 1e-9, "{a:?}");
        // With no decision of known probabilities, AIVAT is the all-in adjustment plus the
        // sampled-value terms before it (none here: the board fell in the last step).
        assert!((a.aivat - a.allin).abs() < 1e-9, "{a:?}");
    }

    fn parse_two(s: &str) -> [Card; 2] {
        parse_cards(s).unwrap().try_into().unwrap()
    }

    #[test]
    fn a_bet_not_yet_answered_is_valued_as_called() {
        // The button raises to 3 big blinds: its value is its exact equity of the 6 big blind pot
        // the call would make, less its 3.
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["AhAs", "KdKc"], "Kh7c2d9s3h"), &[10_000, 10_000]);
        g.apply(&mut s, &Action::RaiseTo(300)).unwrap();
        let mut out = [0.0; 2];
        value(&g, &s, 0, Exactness::Exact, &mut LuckCache::new(1), &mut out);
        let eq = exact_heads_up(parse_two("AhAs"), parse_two("KdKc"), &[]);
        assert!((out[0] - (6.0 * eq.equity - 3.0)).abs() < 1e-9, "{out:?}");
        assert!((out[0] + out[1]).abs() < 1e-9);
    }

    #[test]
    fn a_pre_flop_all_in_counted_once_is_the_same_for_renamed_suits() {
        // AhKh against QsQc, and the same hands with the suits renamed (and the pairs' cards
        // swapped): one key, and the value read back from the counts kept is the one counted.
        let two = parse_two;
        assert_eq!(preflop_key(two("AhKh"), two("QsQc")), preflop_key(two("KdAd"), two("QcQh")));
        assert_ne!(preflop_key(two("AhKh"), two("QsQc")), preflop_key(two("AhKs"), two("QsQc")));
        assert_ne!(preflop_key(two("AhKh"), two("QsQc")), preflop_key(two("QsQc"), two("AhKh")));
        let g = Holdem::new(2, 50, 100, 10_000);
        let all_in = |holes: [&str; 2]| {
            let mut s = g.deal_cards(&deck(&holes, ""), &[10_000, 10_000]);
            g.apply(&mut s, &Action::RaiseTo(10_000)).unwrap();
            g.apply(&mut s, &Action::CheckCall).unwrap();
            let mut out = [0.0; 2];
            value(&g, &s, 0, Exactness::Exact, &mut LuckCache::new(1), &mut out);
            out
        };
        let first = all_in(["AhKh", "QsQc"]);
        let eq = exact_heads_up(two("AhKh"), two("QsQc"), &[]);
        assert!((first[0] - (200.0 * eq.equity - 100.0)).abs() < 1e-9, "{first:?}");
        assert_eq!(all_in(["KdAd", "QcQh"]), first);
    }

    #[test]
    fn a_hand_won_by_a_fold_is_worth_the_pot_whatever_the_board() {
        let g = Holdem::new(3, 50, 100, 10_000);
        let mut s = g.deal_cards(&deck(&["AhAs", "KdKc", "7c2d"], "2c3d4h5s7h"), &[10_000; 3]);
        for a in [Action::RaiseTo(300), Action::Fold, Action::Fold] {
            g.apply(&mut s, &a).unwrap();
        }
        assert!(s.over);
        let mut out = [0.0; 3];
        value(&g, &s, 0, Exactness::Sampled, &mut LuckCache::new(1), &mut out);
        assert_eq!(out.to_vec(), g.outcome(&s).payoff.to_vec());
    }

    /// A heads-up deal (seed 3, 100 big blinds a seat) before the flop, the small blind having
    /// raised to `to`: a pot of 2 × `to` with the raise called.
    fn pre_flop_after(to: Chips) -> (Holdem, State) {
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal(&mut GameSeeds::derive(3, 0, 0, 1).deal_rng());
        g.apply(&mut s, &Action::RaiseTo(to)).unwrap();
        assert_eq!(s.street, 0, "the big blind still to act before the flop");
        (g, s)
    }

    #[test]
    fn a_sampled_value_estimates_the_exact_one() {
        // Before the flop, heads-up, a pot of 40 big blinds (a fifth of the chips: the full
        // sample): the sampled value is within a few standard errors of the exact one, and the
        // same for the same deal.
        let (g, s) = pre_flop_after(2_000);
        let (mut exact, mut sampled, mut again) = ([0.0; 2], [0.0; 2], [0.0; 2]);
        value(&g, &s, 0, Exactness::Exact, &mut LuckCache::new(1), &mut exact);
        let mut cache = LuckCache::new(1);
        value(&g, &s, 0, Exactness::Sampled, &mut cache, &mut sampled);
        assert_eq!(cache.ranks.len(), 2 * FULL_SAMPLE, "the full sample");
        value(&g, &s, 0, Exactness::Sampled, &mut LuckCache::new(1), &mut again);
        assert_eq!(sampled, again);
        // An equity's standard error over 2,000 boards is under 1.2%.
        assert!((exact[0] - sampled[0]).abs() < 4.0 * 0.012 * 40.0, "{exact:?} {sampled:?}");
    }

    #[test]
    fn the_sample_follows_the_pot() {
        // The blinds' pot (2 of 200 big blinds, the small blind's call counted) draws the
        // floor's completions; a raise not yet called counts as called.
        let g = Holdem::new(2, 50, 100, 10_000);
        let mut s = g.deal(&mut GameSeeds::derive(3, 0, 0, 1).deal_rng());
        let mut cache = LuckCache::new(1);
        value(&g, &s, 0, Exactness::Sampled, &mut cache, &mut [0.0; 2]);
        assert_eq!(cache.ranks.len(), 2 * MIN_SAMPLES);
        g.apply(&mut s, &Action::RaiseTo(1_000)).unwrap();
        value(&g, &s, 0, Exactness::Sampled, &mut cache, &mut [0.0; 2]);
        assert_eq!(cache.ranks.len(), 2 * sample_size(2_000.0 / 20_000.0, MIN_SAMPLES));
        // A smaller pot after that (the small blind limps) draws nothing new.
        let before = cache.ranks.clone();
        let mut limped = g.deal(&mut GameSeeds::derive(3, 0, 0, 1).deal_rng());
        g.apply(&mut limped, &Action::CheckCall).unwrap();
        value(&g, &limped, 0, Exactness::Sampled, &mut cache, &mut [0.0; 2]);
        assert_eq!(cache.ranks, before, "the same completions");
    }

    #[test]
    fn a_small_sample_is_an_unbiased_estimate() {
        // The blinds' pot averages the fewest boards: over 2,000 deals' luck streams, the mean of
        // the sampled values is the exact value within 4 of its standard errors (a share's over
        // n boards is at most 0.5 / √n, times 2 big blinds, over √2,000 for the mean).
        let g = Holdem::new(2, 50, 100, 10_000);
        let s = g.deal(&mut GameSeeds::derive(3, 0, 0, 1).deal_rng());
        let mut exact = [0.0; 2];
        value(&g, &s, 0, Exactness::Exact, &mut LuckCache::new(1), &mut exact);
        let runs = 2_000;
        let mean = (0..runs)
            .map(|deal| {
                let mut out = [0.0; 2];
                value(&g, &s, 0, Exactness::Sampled, &mut LuckCache::new(deal), &mut out);
                out[0]
            })
            .sum::<f64>()
            / runs as f64;
        let se = 0.5 / (MIN_SAMPLES as f64).sqrt() * 2.0 / (runs as f64).sqrt();
        assert!((mean - exact[0]).abs() < 4.0 * se, "mean {mean} exact {} se {se}", exact[0]);
        // Not a tolerance too wide to fail: one stream's value is off by more than the mean's bound.
        let spread = (0..20)
            .map(|deal| {
                let mut out = [0.0; 2];
                value(&g, &s, 0, Exactness::Sampled, &mut LuckCache::new(deal), &mut out);
                (out[0] - exact[0]).abs()
            })
            .fold(0.0, f64::max);
        assert!(spread > 4.0 * se, "the 16-board values vary: largest error {spread}");
    }
}
