//! Hand strength and equity: exact enumeration heads-up against a known hand (every board), and
//! Monte Carlo against a known hand or against N opponents holding uniformly random hands
//! (source §"计算一手牌的力量": a win scores 1, a k-way tie 1/k).
//!
//! Monte Carlo draws from [`FastRng`], a small generator seeded from the caller's stream, so results
//! stay a function of the seed; each trial deals only the cards it needs by a partial Fisher-Yates
//! over the live cards, and hands are completed from precomputed partial [`Hand`] keys.

use rand::Rng;

use super::eval::Hand;
use crate::cards::{Card, CardSet};

/// Equity of the hero's hand: `equity` = expected share of the pot (wins + tie shares).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Equity {
    /// Fraction of boards (or trials) won outright.
    pub win: f64,
    /// Fraction tied with at least one opponent for the best hand.
    pub tie: f64,
    /// The share of the pot the hand wins on average: wins, plus each tie's share.
    pub equity: f64,
    /// Boards enumerated or trials run.
    pub samples: u64,
}

/// wyrand (Wang Yi's 64-bit generator): a few cycles per number, seeded from a [`rand`] stream.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator seeded from `rng` (a bot's stream), so that its draws replay with the seed.
    pub fn from_rng(rng: &mut impl Rng) -> FastRng {
        FastRng(rng.random())
    }
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed)
    }
    #[inline(always)]
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }
    /// Uniform in `0..n` by the multiply-high method. Its bias, at most n / 2^32 < 2e-8 for a deck,
    /// is far below Monte Carlo noise.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// Cards not in `dead`, in a fixed order.
fn live_cards(dead: CardSet) -> ([Card; 52], usize) {
    let mut live = [Card::new(0, 0); 52];
    let mut n = 0;
    for c in Card::all().filter(|&c| !dead.contains(c)) {
        live[n] = c;
        n += 1;
    }
    (live, n)
}

fn hand_of(cards: &[Card]) -> Hand {
    cards.iter().fold(Hand::new(), |h, &c| h.plus(c))
}

/// Exact equity of `hero` against `villain` over every completion of `board` (0 to 5 cards).
pub fn exact_heads_up(hero: [Card; 2], villain: [Card; 2], board: &[Card]) -> Equity {
    let dead: CardSet = hero.iter().chain(&villain).chain(board).copied().collect();
    let (live, n) = live_cards(dead);
    let base = hand_of(board);
    let (h, v) = (base.join(hand_of(&hero)), base.join(hand_of(&villain)));
    count_heads_up(&live[..n], 5 - board.len(), h, v)
}

fn count_heads_up(live: &[Card], missing: usize, h: Hand, v: Hand) -> Equity {
    let mut tally = [0u64; 3]; // loss, tie, win
    enumerate(live, missing, Hand::new(), &mut |extra| {
        let (a, b) = (h.join(extra).value(), v.join(extra).value());
        tally[(a.cmp(&b) as i8 + 1) as usize] += 1;
    });
    let total = tally.iter().sum::<u64>();
    let t = total as f64;
    Equity {
        win: tally[2] as f64 / t,
        tie: tally[1] as f64 / t,
        equity: (tally[2] as f64 + tally[1] as f64 / 2.0) / t,
        samples: total,
    }
}

/// Calls `f` with every `k`-card subset of `cards` added to `acc` (a partial hand).
pub(super) fn enumerate(cards: &[Card], k: usize, acc: Hand, f: &mut impl FnMut(Hand)) {
    if k == 0 {
        f(acc);
        return;
    }
    for i in 0..=cards.len() - k {
        enumerate(&cards[i + 1..], k - 1, acc.plus(cards[i]), f);
    }
}

/// Who the hero plays against.
#[derive(Clone, Copy, Debug)]
pub enum Opponents {
    /// One opponent with these cards.
    Known([Card; 2]),
    /// This many opponents with uniformly random hands.
    Random(usize),
}

/// Monte Carlo equity over `trials` deals of the unseen cards.
pub fn monte_carlo(hero: [Card; 2], board: &[Card], opponents: Opponents, trials: u64, rng: &mut FastRng) -> Equity {
    let mut dead: CardSet = hero.iter().chain(board).copied().collect();
    let (known, n_opp) = match opponents {
        Opponents::Known(v) => {
            dead = dead.union(v.iter().copied().collect());
            (Some(hand_of(&v)), 1)
        }
        Opponents::Random(n) => (None, n),
    };
    assert!(n_opp >= 1, "at least one opponent");
    let (mut live, n_live) = live_cards(dead);
    let missing = 5 - board.len();
    let need = missing + if known.is_some() { 0 } else { 2 * n_opp };
    assert!(need <= n_live, "not enough cards for {n_opp} opponents");
    let base = hand_of(board);
    let hero_base = base.join(hand_of(&hero));
    let (mut wins, mut ties, mut share) = (0u64, 0u64, 0f64);
    for _ in 0..trials {
        // Partial Fisher-Yates, two cards per 64-bit draw (each half by multiply-high).
        let mut i = 0;
        while i < need {
            let r = rng.next_u64();
            let j = i + (((r >> 32) * (n_live - i) as u64) >> 32) as usize;
            live.swap(i, j);
            if i + 1 < need {
                let j = i + 1 + (((r & 0xffff_ffff) * (n_live - i - 1) as u64) >> 32) as usize;
                live.swap(i + 1, j);
            }
            i += 2;
        }
        let extra = hand_of(&live[..missing]);
        let me = hero_base.join(extra).value();
        let board_full = base.join(extra);
        let (mut best, mut level) = (0, 0u32);
        match known {
            Some(v) => {
                best = board_full.join(v).value();
                level = 1;
            }
            None => {
                for o in 0..n_opp {
                    let x = board_full.plus(live[missing + 2 * o]).plus(live[missing + 2 * o + 1]).value();
                    if x > best {
                        (best, level) = (x, 1);
                    } else if x == best {
                        level += 1;
                    }
                }
            }
        }
        if me > best {
            wins += 1;
            share += 1.0;
        } else if me == best {
            ties += 1;
            share += 1.0 / (level + 1) as f64;
        }
    }
    let t = trials.max(1) as f64;
    Equity { win: wins as f64 / t, tie: ties as f64 / t, equity: share / t, samples: trials }
}

/// Hand strength (HS): the source's Monte Carlo estimate against `opponents` random hands. When
/// enumerating every case is no more work than the trials (one opponent on the river: 990 hands),
/// the exact value is returned instead: the same quantity without the sampling noise.
pub fn hand_strength(hero: [Card; 2], board: &[Card], opponents: usize, trials: u64, rng: &mut FastRng) -> f64 {
    if opponents == 0 {
        return 1.0;
    }
    if board.len() == 5 && opponents == 1 && 45 * 44 / 2 <= trials {
        return river_vs_random(hero, board).equity;
    }
    monte_carlo(hero, board, Opponents::Random(opponents), trials, rng).equity
}

/// Exact equity on a complete board against one opponent holding any two unseen cards.
pub fn river_vs_random(hero: [Card; 2], board: &[Card]) -> Equity {
    assert_eq!(board.len(), 5);
    let dead: CardSet = hero.iter().chain(board).copied().collect();
    let (live, n) = live_cards(dead);
    let base = hand_of(board);
    let me = base.join(hand_of(&hero)).value();
    let mut tally = [0u64; 3]; // loss, tie, win
    enumerate(&live[..n], 2, base, &mut |opp| {
        tally[(me.cmp(&opp.value()) as i8 + 1) as usize] += 1;
    });
    let t = tally.iter().sum::<u64>() as f64;
    Equity {
        win: tally[2] as f64 / t,
        tie: tally[1] as f64 / t,
        equity: (tally[2] as f64 + tally[1] as f64 / 2.0) / t,
        samples: t as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn two(s: &str) -> [Card; 2] {
        parse_cards(s).unwrap().try_into().unwrap()
    }

    fn pct(x: f64) -> f64 {
        (x * 1e6).round() / 1e4
    }

    #[test]
    fn exact_preflop_reference_values() {
        let e = exact_heads_up(two("AhAs"), two("KdKc"), &[]);
        assert_eq!(e.samples, 1_712_304);
        assert_eq!((pct(e.equity), pct(e.win), pct(e.tie)), (81.2555, 81.0646, 0.3818));
        assert_eq!(pct(exact_heads_up(two("AhKh"), two("QsQc"), &[]).equity), 46.2145);
        assert_eq!(pct(exact_heads_up(two("7c2d"), two("AhAs"), &[]).equity), 12.5776);
    }

    #[test]
    fn exact_is_symmetric_and_counts_boards() {
        let board = parse_cards("2c 7h Kd").unwrap();
        let a = exact_heads_up(two("AhAs"), two("KcQc"), &board);
        let b = exact_heads_up(two("KcQc"), two("AhAs"), &board);
        assert_eq!(a.samples, 990); // C(45, 2)
        assert!((a.equity + b.equity - 1.0).abs() < 1e-12);
        let river = parse_cards("2c 7h Kd 3s 4s").unwrap();
        assert_eq!(exact_heads_up(two("AhAs"), two("KcQc"), &river).equity, 1.0);
        assert_eq!(exact_heads_up(two("KcQc"), two("AhAs"), &river).samples, 1);
    }

    #[test]
    fn monte_carlo_agrees_with_enumeration() {
        let mut rng = FastRng::new(5);
        let e = monte_carlo(two("AhAs"), &[], Opponents::Known(two("KdKc")), 200_000, &mut rng);
        assert!((e.equity - 0.812555).abs() < 0.004, "{e:?}");
        let board = parse_cards("Qh 7h 2c").unwrap();
        let exact = exact_heads_up(two("AhKh"), two("QsQc"), &board).equity;
        let mc = monte_carlo(two("AhKh"), &board, Opponents::Known(two("QsQc")), 200_000, &mut rng).equity;
        assert!((exact - mc).abs() < 0.004, "{exact} {mc}");
    }

    #[test]
    fn river_enumeration_matches_monte_carlo() {
        let board = parse_cards("Qh 7h 2c 9d 3s").unwrap();
        let exact = river_vs_random(two("AhQd"), &board);
        assert_eq!(exact.samples, 990);
        let mc = monte_carlo(two("AhQd"), &board, Opponents::Random(1), 400_000, &mut FastRng::new(2));
        assert!((exact.equity - mc.equity).abs() < 0.003, "{exact:?} {mc:?}");
        assert_eq!(hand_strength(two("AhQd"), &board, 1, 1000, &mut FastRng::new(1)), exact.equity);
    }

    #[test]
    fn random_opponents_split_ties() {
        let mut rng = FastRng::new(9);
        // The board is a royal flush: everyone ties, so each of the 3 players gets a third.
        let board = parse_cards("As Ks Qs Js Ts").unwrap();
        let e = monte_carlo(two("2c3d"), &board, Opponents::Random(2), 1000, &mut rng);
        assert!((e.equity - 1.0 / 3.0).abs() < 1e-9 && e.tie == 1.0);
        // Aces against one random hand: about 85.2 %.
        let hs = hand_strength(two("AcAd"), &[], 1, 200_000, &mut rng);
        assert!((hs - 0.852).abs() < 0.005, "{hs}");
        // More opponents, less strength.
        assert!(hand_strength(two("AcAd"), &[], 4, 50_000, &mut rng) < 0.6);
    }
}
