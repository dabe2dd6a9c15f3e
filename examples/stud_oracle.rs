//! How much luck could any value function after the deal take out of stud's `expert` against
//! `always-call`? (Issue 51; docs/book/src/luck-method.md, "Where it falls short".)
//!
//! ```sh
//! cargo run --profile quick --example stud_oracle -- DEALS ROLLOUTS SEED [K]
//! ```
//!
//! AIVAT with the true value (the expected payoff under the bots' own play over the cards to
//! come) corrects every card after the deal and every stated coin flip: what it leaves of a
//! game's payoff is the value right after the deal. Under duplicate (the deal played twice, the
//! bots swapping seats) that is `V(deal)`, the mean of the two rotations' values. This tool deals
//! `DEALS` hands, plays both rotations once as the run would (the real payoff, and the unfitted
//! AIVAT payoff as `Luck` adds it), and estimates each rotation's value after the deal by
//! `ROLLOUTS` games from the same hole and first face-up cards, the three face-up cards still to
//! come drawn afresh from a stream of its own, the bots' real `act` with streams of their own.
//!
//! With `K`, each rotation's game is also adjusted by AIVAT with *rollout values*: the value of a
//! state is the mean payoff of `K` games played on from it by the bots, the cards not yet known
//! dealt afresh (every value its own streams, independent of the game's, so each term keeps mean
//! zero), at every card dealt and every bluff of expert's.
//!
//! It prints the variance of the duplicate payoff, of the AIVAT payoff, and of `V(deal)` (two
//! ways: the rollout means' variance less their noise, and their covariance with the played
//! payoff, which has no rollout noise in it since the played cards are independent of the
//! rollouts' given the deal), and the ratio that bounds what any value after the deal could reach:
//! duplicate ÷ `Var V(deal)`.

use bot_arena::cards::{Card, CardSet};
use bot_arena::core::luck::Luck;
use bot_arena::core::seeds::mix;
use bot_arena::core::{Bot, BotFactory, BotRng, DealRng, Game, GameDef, Params};
use bot_arena::games::stud::{State, Stud};
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The bots of a game (expert in its seat, always-call in the other) and their streams, by a key.
type Lineup<'a> = dyn Fn(u64) -> (Vec<Box<dyn Bot<Stud>>>, Vec<BotRng>) + 'a;

/// Plays `s` to its end with `bots` (seat by seat), each drawing from its stream; the payoffs,
/// and with `luck` its terms added at every step.
fn play(
    g: &Stud,
    mut s: State,
    bots: &mut [Box<dyn Bot<Stud>>],
    rngs: &mut [BotRng],
    mut luck: Option<&mut Luck>,
) -> State {
    let mut policy = Vec::new();
    while let Some(seat) = g.to_act(&s) {
        let view = g.view(&s, seat);
        let a = bots[seat].act(g, &view, &mut rngs[seat]);
        policy.clear();
        bots[seat].policy(g, &view, &mut policy);
        let before = s.clone();
        g.apply(&mut s, &a).expect("a bot plays a legal action");
        if let Some(luck) = luck.as_deref_mut() {
            luck.step(g, &before, &a, &s, &policy);
        }
    }
    s
}

/// The deal's cards with every face-up card after the first dealt afresh from `rng`.
fn redeal_after_start(g: &Stud, cards: &[[Card; 5]; 2], rng: &mut DealRng) -> [[Card; 5]; 2] {
    let start: CardSet = cards.iter().flat_map(|c| c[..2].iter().copied()).collect();
    let mut pool: Vec<Card> = g.deck.minus(start).iter().collect();
    pool.shuffle(rng);
    let mut out = *cards;
    let mut next = pool.into_iter();
    for hand in &mut out {
        for c in &mut hand[2..] {
            *c = next.next().expect("the deck holds ten cards");
        }
    }
    out
}

/// The state `s` with every face-up card past the first `ups` of each seat dealt afresh from
/// `rng` (the cards still unknown to a value that knows `ups` face-up cards a seat), its betting
/// replayed.
fn redeal_unknown(g: &Stud, s: &State, ups: usize, rng: &mut DealRng) -> State {
    let mut cards = [s.dealt(0), s.dealt(1)];
    let known: CardSet = cards.iter().flat_map(|c| c[..1 + ups].iter().copied()).collect();
    let mut pool: Vec<Card> = g.deck.minus(known).iter().collect();
    pool.shuffle(rng);
    let mut next = pool.into_iter();
    for hand in &mut cards {
        for c in &mut hand[1 + ups..] {
            *c = next.next().expect("the deck holds ten cards");
        }
    }
    let mut t = g.deal_cards(&cards, &[g.stack; 2]);
    for a in s.history() {
        g.apply(&mut t, &a.action).expect("the same betting is legal with other cards to come");
    }
    t
}

/// The rollout value of `s` to seat `r` (expert's seat) when `ups` face-up cards a seat are known:
/// the mean payoff of `k` games played on from `s` with the unknown cards dealt afresh, the bots
/// new, every stream its own (`key` keeps the streams of different values apart).
fn rollout_value(g: &Stud, s: &State, ups: usize, r: usize, k: u64, key: u64, lineup: &Lineup<'_>) -> f64 {
    if g.to_act(s).is_none() && ups >= 4 {
        return g.outcome(s).payoff[r];
    }
    let mut cards_rng = DealRng::seed_from_u64(key);
    let mut sum = 0.0;
    for i in 0..k {
        let t = redeal_unknown(g, s, ups, &mut cards_rng);
        let (mut bots, mut rngs) = lineup(mix(key, i));
        sum += g.outcome(&play(g, t, &mut bots, &mut rngs, None)).payoff[r];
    }
    sum / k as f64
}

/// Face-up cards a seat shows at `s` (both seats are in: expert never folds against a caller).
fn ups_shown(s: &State) -> usize {
    s.up(0).len().min(s.up(1).len())
}

/// The real game from `s` with AIVAT's terms from rollout values of `k` games: the payoff to
/// seat `r` and the adjusted one.
fn rollout_aivat(g: &Stud, s: &State, r: usize, k: u64, seed: u64, lineup: &Lineup<'_>) -> (f64, f64) {
    let (mut bots, mut rngs) = lineup(0);
    let mut s = s.clone();
    let mut terms = 0.0;
    let mut policy = Vec::new();
    let mut key = seed;
    let mut fresh = || {
        key = mix(key, 1);
        key
    };
    while let Some(seat) = g.to_act(&s) {
        let view = g.view(&s, seat);
        let a = bots[seat].act(g, &view, &mut rngs[seat]);
        policy.clear();
        bots[seat].policy(g, &view, &mut policy);
        let before = s.clone();
        g.apply(&mut s, &a).expect("legal");
        let ups = ups_shown(&before);
        let revealed = ups_shown(&s) > ups;
        let mixed = policy.len() > 1;
        if !mixed && !revealed {
            continue;
        }
        let w = rollout_value(g, &s, ups, r, k, fresh(), lineup);
        if mixed {
            let mut expected = 0.0;
            for (b, p) in &policy {
                expected += p * if *b == a {
                    w
                } else {
                    let mut t = before.clone();
                    g.apply(&mut t, b).expect("a stated action is legal");
                    rollout_value(g, &t, ups, r, k, fresh(), lineup)
                };
            }
            terms += expected - w;
        }
        if revealed {
            terms += w - rollout_value(g, &s, ups_shown(&s), r, k, fresh(), lineup);
        }
    }
    let payoff = g.outcome(&s).payoff[r];
    (payoff, payoff + terms)
}

fn var(x: &[f64]) -> f64 {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (x.len() - 1) as f64
}

fn cov(x: &[f64], y: &[f64]) -> f64 {
    let (mx, my) = (x.iter().sum::<f64>() / x.len() as f64, y.iter().sum::<f64>() / y.len() as f64);
    x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum::<f64>() / (x.len() - 1) as f64
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("DEALS ROLLOUTS SEED [K]")).collect();
    let (deals, rollouts, seed, k) = match args[..] {
        [d, r, s] => (d, r, s, 0),
        [d, r, s, k] => (d, r, s, k),
        _ => {
            eprintln!("error: usage: stud_oracle DEALS ROLLOUTS SEED [K]");
            std::process::exit(2);
        }
    };
    let g = Stud::new(2, 1, 100, CardSet::FULL);
    let kinds = Stud::bot_kinds();
    let make = |name: &str| -> BotFactory<Stud> {
        let k = kinds.iter().find(|k| k.name == name).expect("a built-in bot");
        (k.make)(&Params::new(k.params, &toml::Table::new(), k.name).expect("defaults"), &g).expect("made")
    };
    let (expert, call) = (make("expert"), make("always-call"));
    // Per deal: the duplicate payoff, the unfitted AIVAT one, the rollouts' V(deal) and its noise
    // variance, and each rotation's rollout mean.
    let (mut dup, mut aivat, mut oracle, mut noise, mut rolled) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    println!("deal,duplicate,aivat,v0,v1,sd0,sd1,rollout_aivat");
    for d in 0..deals {
        let deal_seed = mix(seed, d);
        let s = g.deal(&mut DealRng::seed_from_u64(deal_seed));
        let cards = [s.dealt(0), s.dealt(1)];
        let (mut paid, mut adjusted, mut v, mut sd, mut by_rollouts) = (0.0, 0.0, [0.0; 2], [0.0; 2], 0.0);
        for r in 0..2usize {
            let lineup = |k: u64| -> (Vec<Box<dyn Bot<Stud>>>, Vec<BotRng>) {
                let mut bots = vec![call(), call()];
                bots[r] = expert();
                (bots, (0..2).map(|x| BotRng::seed_from_u64(mix(mix(deal_seed, k), 10 * r as u64 + x))).collect())
            };
            let (mut bots, mut rngs) = lineup(0);
            let mut luck = Luck::new(2, deal_seed);
            let end = play(&g, s.clone(), &mut bots, &mut rngs, Some(&mut luck));
            let payoff = g.outcome(&end).payoff[r];
            if k > 0 {
                // The same game (its cards and streams), with rollout values.
                let (again, adjusted) = rollout_aivat(&g, &s, r, k, mix(deal_seed, 5 + r as u64), &lineup);
                assert_eq!(again, payoff);
                by_rollouts += adjusted / 2.0;
            }
            paid += payoff / 2.0;
            adjusted += luck.adjusted(r, payoff).aivat / 2.0;
            let (mut sum, mut sum2) = (0.0, 0.0);
            let mut cards_rng = DealRng::seed_from_u64(mix(deal_seed, 77 + r as u64));
            for k in 0..rollouts {
                let hands = redeal_after_start(&g, &cards, &mut cards_rng);
                let (mut bots, mut rngs) = lineup(1 + k);
                let end = play(&g, g.deal_cards(&hands, &[g.stack; 2]), &mut bots, &mut rngs, None);
                let x = g.outcome(&end).payoff[r];
                sum += x;
                sum2 += x * x;
            }
            let n = rollouts as f64;
            v[r] = sum / n;
            sd[r] = ((sum2 - sum * sum / n) / (n - 1.0)).max(0.0).sqrt();
        }
        println!("{d},{paid},{adjusted},{},{},{},{},{by_rollouts}", v[0], v[1], sd[0], sd[1]);
        rolled.push(by_rollouts);
        dup.push(paid);
        aivat.push(adjusted);
        oracle.push((v[0] + v[1]) / 2.0);
        noise.push((sd[0] * sd[0] + sd[1] * sd[1]) / (4.0 * rollouts as f64));
    }
    let n = dup.len() as f64;
    let (vd, va, vo) = (var(&dup), var(&aivat), var(&oracle));
    let mean_noise = noise.iter().sum::<f64>() / n;
    let v_deal = vo - mean_noise;
    let v_cov = cov(&dup, &oracle);
    eprintln!("{deals} deals, {rollouts} rollouts a rotation, seed {seed} (chips² a deal)");
    eprintln!("  duplicate payoff: mean {:+.3} chips/hand, variance {vd:.2}", dup.iter().sum::<f64>() / n);
    eprintln!(
        "  unfitted aivat:   mean {:+.3} chips/hand, variance {va:.2}, ratio {:.3}",
        aivat.iter().sum::<f64>() / n,
        vd / va
    );
    eprintln!(
        "  V(deal) by rollouts: variance {vo:.2}, of it rollout noise {mean_noise:.2}: Var V(deal) = {v_deal:.2}"
    );
    eprintln!("  Cov(duplicate, rollout V(deal)) = {v_cov:.2} (= Var V(deal) without noise)");
    eprintln!(
        "  bound on the paired ratio after the deal: {:.2} (noise taken off), {:.2} (by the covariance)",
        vd / v_deal,
        vd / v_cov
    );
    if k > 0 {
        let vr = var(&rolled);
        eprintln!(
            "  aivat with rollout values ({k} games a value): mean {:+.3} chips/hand, variance {vr:.2}, ratio {:.3}",
            rolled.iter().sum::<f64>() / n,
            vd / vr
        );
    }
    eprintln!(
        "  duplicate − V(deal) (the oracle's terms): variance {:.2}",
        var(&dup.iter().zip(&oracle).map(|(a, b)| a - b).collect::<Vec<_>>())
    );
}
