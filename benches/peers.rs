//! bot-arena against other projects' evaluators, side by side in one process:
//!
//! - hold'em 7-card evaluation of one shared list of 1,000,000 hands, against rs_poker 5.0;
//! - Monte Carlo AhAs against KdKc, 1,000,000 trials, against rs_poker 5.0's `MonteCarloGame`;
//! - shanten of one shared list of 1,000,000 random 14-tile hands, against the `xiangting` crate
//!   (which knows three riichi shapes: standard, seven pairs, thirteen orphans), for bot-arena's
//!   every MCR shape and for its standard shape alone;
//! - end to end, 1,000,000 heads-up always-call hold'em hands: rs_poker 5.0's arena against the
//!   `arena run` command (benches/peers/arena.rs).
//!
//! Each contest alternates the two sides run after run (who goes first alternates too) and prints
//! the median of the per-run time ratios: robust to a machine that is busy with other work. It
//! also checks that the answers agree and panics (exit code 101) when they do not.
//!
//! `cargo bench --features peers --bench peers` (the peers are optional dependencies behind the
//! `peers` feature, so the normal build and CI never compile them).

use std::hint::black_box;
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use bot_arena::cards::Card;
use bot_arena::games::holdem::equity::{exact_heads_up, monte_carlo, FastRng, Opponents};
use bot_arena::games::holdem::eval::{eval7, HandValue};
use bot_arena::games::mahjong::shanten::{shanten, shanten_seven_pairs, shanten_standard, shanten_thirteen_orphans};
use bot_arena::games::mahjong::tiles::{Counts, TILE_KINDS};

use rs_poker::core::Rankable;

#[path = "peers/arena.rs"]
mod arena;

const HANDS: usize = 1_000_000;

fn main() {
    // `cargo bench` passes `--bench`; a name filter as in `cargo bench --bench peers -- shanten`.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    println!("peers: one thread, alternating runs, median of the per-run ratios (peer time / bot-arena time)");
    if wanted("eval7") {
        eval7_contest();
    }
    if wanted("monte_carlo") {
        monte_carlo_contest();
    }
    if wanted("shanten") {
        shanten_contest();
    }
    if wanted("arena") {
        arena::contest();
    }
}

/// Times `ours` and `theirs` alternately `runs` times; returns the median seconds of each and the
/// median, lowest and highest of the per-run ratios `theirs / ours`.
fn race<A, B>(runs: usize, mut ours: impl FnMut() -> A, mut theirs: impl FnMut() -> B) -> Race {
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64()
    };
    // One untimed run each: page in the lists and tables.
    black_box(ours());
    black_box(theirs());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let (ta, tb) = if run % 2 == 0 {
            let ta = time(&mut || drop(black_box(ours())));
            (ta, time(&mut || drop(black_box(theirs()))))
        } else {
            let tb = time(&mut || drop(black_box(theirs())));
            (time(&mut || drop(black_box(ours()))), tb)
        };
        a.push(ta);
        b.push(tb);
    }
    let mut ratios: Vec<f64> = a.iter().zip(&b).map(|(x, y)| y / x).collect();
    Race {
        ours: median(&mut a),
        theirs: median(&mut b),
        ratio: median(&mut ratios),
        lo: ratios[0],
        hi: ratios[runs - 1],
    }
}

struct Race {
    ours: f64,
    theirs: f64,
    ratio: f64,
    lo: f64,
    hi: f64,
}

impl Race {
    fn print(&self, what: &str, peer: &str, per_run: f64, unit: &str, target: Option<f64>) {
        let verdict = match target {
            Some(t) if self.ratio >= t => format!(" (target {t}: met)"),
            Some(t) => format!(" (target {t}: NOT met)"),
            None => String::new(),
        };
        println!(
            "{what}: bot-arena {:.1} ms ({:.1} M {unit}/s), {peer} {:.1} ms ({:.1} M {unit}/s): ratio {:.2} [runs {:.2}-{:.2}]{verdict}",
            self.ours * 1e3,
            per_run / self.ours / 1e6,
            self.theirs * 1e3,
            per_run / self.theirs / 1e6,
            self.ratio,
            self.lo,
            self.hi,
        );
    }
}

/// Sorts `v` and returns its median.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// 1,000,000 seven-card hands, each 7 distinct dense card indices (rank * 4 + suit).
fn shared_poker_hands() -> Vec<[u8; 7]> {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    (0..HANDS)
        .map(|_| {
            for i in 0..7 {
                let j = rng.random_range(i..52);
                deck.swap(i, j);
            }
            std::array::from_fn(|i| deck[i])
        })
        .collect()
}

fn rs_card(index: u8) -> rs_poker::core::Card {
    rs_poker::core::Card::new(rs_poker::core::Value::from(index / 4), rs_poker::core::Suit::from(index % 4))
}

fn eval7_contest() {
    let shared = shared_poker_hands();
    let ours: Vec<[Card; 7]> = shared.iter().map(|h| h.map(|i| Card::from_index(i as usize))).collect();
    let theirs: Vec<[rs_poker::core::Card; 7]> = shared.iter().map(|h| h.map(rs_card)).collect();

    // The answers: one ranking. Every value of ours maps to one of theirs, and in the same order.
    let mut pairs: Vec<(HandValue, rs_poker::core::Rank)> =
        ours.iter().zip(&theirs).map(|(a, b)| (eval7(a), b.as_slice().rank())).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let consistent = pairs.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
    assert!(consistent, "bot-arena and rs_poker rank some of the shared hands differently");

    // Every hand through `black_box` on both sides: the compiler may not see the list across calls
    // (our evaluator inlines into the loop, and without it the loop was measured, not the
    // evaluation: 1.73 where a harness outside the project found 1.27-1.34, issue 47).
    let race = race(15, || ours_eval7(&ours), || theirs_eval7(&theirs));
    race.print("holdem eval7, 1,000,000 listed hands", "rs_poker 5.0", HANDS as f64, "hands", Some(1.5));
    println!("  answers agree: the same ranking of all 1,000,000 hands ({} distinct values)", pairs.len());
}

/// Our evaluator over the list (a function of its own, never inlined, so that callgrind can count
/// its instructions apart: `--toggle-collect='peers::ours_eval7'`, README: Benchmarks).
#[inline(never)]
fn ours_eval7(hands: &[[Card; 7]]) -> u32 {
    hands.iter().fold(0u32, |s, h| s.wrapping_add(eval7(black_box(h)) as u32))
}

/// rs_poker's evaluator over the list (`--toggle-collect='peers::theirs_eval7'`).
#[inline(never)]
fn theirs_eval7(hands: &[[rs_poker::core::Card; 7]]) -> u32 {
    hands.iter().fold(0u32, |s, h| s.wrapping_add(black_box(h).as_slice().rank().value_bits() as u32))
}

fn monte_carlo_contest() {
    const TRIALS: u64 = 1_000_000;
    let card = |s: &str| Card::parse(s).unwrap();
    let (aa, kk) = ([card("Ah"), card("As")], [card("Kd"), card("Kc")]);
    let hands = || ["AhAs", "KdKc"].iter().map(|s| rs_poker::core::Hand::new_from_str(s).unwrap()).collect::<Vec<_>>();
    let mut game = rs_poker::holdem::MonteCarloGame::new(hands()).unwrap();
    let mut seed = 0;
    let mut ours_last = 0.0;
    let mut theirs_last = 0.0;
    let race = race(
        7,
        || {
            seed += 1;
            ours_last = monte_carlo(aa, &[], Opponents::Known(kk), TRIALS, &mut FastRng::new(seed)).equity;
        },
        || theirs_last = game.estimate_equity(TRIALS as usize)[0] as f64,
    );
    race.print("holdem Monte Carlo AhAs vs KdKc, 1,000,000 trials", "rs_poker 5.0", TRIALS as f64, "trials", None);
    // Both estimates within 5 standard errors of the exact equity (a loose bound: no false alarms).
    let exact = exact_heads_up(aa, kk, &[]).equity;
    let tolerance = 5.0 * (exact * (1.0 - exact) / TRIALS as f64).sqrt();
    for (who, e) in [("bot-arena", ours_last), ("rs_poker", theirs_last)] {
        assert!((e - exact).abs() < tolerance, "{who}'s equity {e:.5} is off the exact {exact:.5}");
    }
    println!(
        "  answers agree: equity {ours_last:.4} and {theirs_last:.4}, exact {exact:.4} (within {tolerance:.4}, 5 standard errors)"
    );
}

/// 1,000,000 random 14-tile hands, each from a freshly shuffled wall.
fn shared_mahjong_hands() -> Vec<Counts> {
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let mut wall: Vec<u8> = (0..TILE_KINDS as u8).flat_map(|t| [t; 4]).collect();
    (0..HANDS)
        .map(|_| {
            wall.shuffle(&mut rng);
            let mut c = [0u8; TILE_KINDS];
            for &t in &wall[..14] {
                c[t as usize] += 1;
            }
            c
        })
        .collect()
}

fn shanten_contest() {
    let hands = shared_mahjong_hands();
    let xiangting = |h: &Counts| xiangting::calculate_replacement_number(h, xiangting::PlayerCount::Four).unwrap();

    // The answers: on the three shapes both know, bot-arena's shanten is xiangting's replacement
    // number minus one, except that MCR counts a four of a kind as two pairs (seven pairs), so
    // with a four bot-arena's can only be lower.
    let (mut same, mut with_four, mut lower) = (0, 0, 0);
    for h in &hands {
        let ours = shanten_standard(h, 0).min(shanten_seven_pairs(h)).min(shanten_thirteen_orphans(h));
        let theirs = xiangting(h) as i8 - 1;
        if h.contains(&4) {
            with_four += 1;
            assert!(ours <= theirs, "{h:?}: bot-arena {ours}, xiangting {theirs}");
            lower += (ours < theirs) as u32;
        } else {
            assert_eq!(ours, theirs, "{h:?}");
            same += 1;
        }
        assert!(shanten(h, 0) <= ours, "{h:?}: every MCR shape can only be lower");
    }

    let sum = |f: &dyn Fn(&Counts) -> i8| hands.iter().fold(0i32, |s, h| s + f(h) as i32);
    let all = race(9, || sum(&|h| shanten(h, 0)), || hands.iter().fold(0u32, |s, h| s + xiangting(h) as u32));
    all.print(
        "mahjong shanten, every MCR shape, 1,000,000 14-tile hands",
        "xiangting 6 (3 shapes)",
        HANDS as f64,
        "hands",
        Some(1.5),
    );
    let standard =
        race(9, || sum(&|h| shanten_standard(h, 0)), || hands.iter().fold(0u32, |s, h| s + xiangting(h) as u32));
    standard.print(
        "mahjong shanten, standard shape, 1,000,000 14-tile hands",
        "xiangting 6 (3 shapes)",
        HANDS as f64,
        "hands",
        Some(3.0),
    );
    println!(
        "  answers agree: {same} hands without a four of a kind give the same shanten on the shared shapes; \
         of {with_four} with a four, {lower} are lower here (MCR's seven pairs count a four as two pairs)"
    );
}
