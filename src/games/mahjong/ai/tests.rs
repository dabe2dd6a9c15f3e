use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::expectimax::{self, Expectimax, Search};
use super::pruned::{self, p_at_least, Pruned};
use super::{self_drawn_fans, Memo, Position};
use crate::core::{Bot, Game, GameSeeds};
use crate::games::mahjong::bots::{GreedyBot, RandomBot};
use crate::games::mahjong::engine::Mahjong;
use crate::games::mahjong::shanten::{shanten, shanten_standard};
use crate::games::mahjong::tiles::{Counts, Hand, Meld, Tile, KINDS};

fn hand(s: &str) -> (Counts, Vec<Meld>) {
    let h = Hand::parse(s).unwrap();
    (h.concealed, h.melds)
}

fn position(h: Counts, melds: Vec<Meld>, seen: Counts, wall_left: usize) -> Position {
    let mut seen = seen;
    for m in &melds {
        for t in m.tiles() {
            seen[t as usize] += 1;
        }
    }
    Position {
        seat: 0,
        hand: h,
        declared: [melds.len(), 0, 0, 0],
        melds,
        seen,
        discards: Default::default(),
        wall_left,
    }
}

/// Plays whole hands with the two bots against greedy/random: every action the bots choose is
/// legal (apply would refuse it otherwise) and every hand finishes.
#[test]
fn bots_play_legal_hands_that_finish() {
    let game = Mahjong::new(8);
    let shallow = expectimax::Config { depth: 1, ..Default::default() };
    for seed in 0..10u64 {
        let mut bots: Vec<Box<dyn Bot<Mahjong>>> = vec![
            Box::new(Pruned::new(pruned::Config::default())),
            Box::new(Expectimax::new(if seed < 2 { Default::default() } else { shallow })),
            Box::new(GreedyBot),
            if seed % 2 == 0 { Box::new(RandomBot) } else { Box::new(Pruned::new(pruned::Config::default())) },
        ];
        // Rotate the seats so every bot plays every seat across the seeds.
        bots.rotate_left(seed as usize % 4);
        let seeds = GameSeeds::derive(seed, 7, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut rng = seeds.bot_rng(0);
        let mut steps = 0;
        while let Some(seat) = game.to_act(&s) {
            let v = game.view(&s, seat);
            let a = bots[seat].act(&game, &v, &mut rng);
            assert!(v.legal.contains(&a), "seed {seed}: {a:?} not in {:?}", v.legal);
            game.apply(&mut s, &a).unwrap();
            steps += 1;
            assert!(steps < 2_000, "the hand finishes");
        }
        assert_eq!(s.payoff.iter().sum::<i32>(), 0);
    }
}

/// The plain definition of the expectimax value, without memo or shortcuts.
fn brute_draw(h: &Counts, melds: &[Meld], seen: &Counts, d: u32, cfg: &expectimax::Config) -> f64 {
    let est = |s: i8| cfg.ready_value * cfg.decay.powi(s.max(0) as i32);
    let (mut sum, mut total) = (0.0, 0.0);
    for k in 0..KINDS {
        let n = 4u32.saturating_sub(seen[k] as u32 + h[k] as u32);
        if n == 0 {
            continue;
        }
        let mut g = *h;
        g[k] += 1;
        let v = if let Some(f) = self_drawn_fans(melds, h, k as Tile, 0, 8) {
            f as f64 + cfg.win_bonus
        } else if d == 1 {
            est(shanten(&g, melds.len()))
        } else {
            brute_discard(&g, melds, seen, d - 1, cfg)
        };
        sum += n as f64 * v;
        total += n as f64;
    }
    if total == 0.0 {
        est(shanten(h, melds.len()))
    } else {
        sum / total
    }
}

fn brute_discard(h: &Counts, melds: &[Meld], seen: &Counts, d: u32, cfg: &expectimax::Config) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for t in 0..KINDS {
        if h[t] > 0 {
            let mut g = *h;
            g[t] -= 1;
            best = best.max(brute_draw(&g, melds, seen, d, cfg));
        }
    }
    best
}

/// A small tree (most kinds all seen) searched with the memo and the `shanten_each` shortcut
/// gives the same value for every discard as the plain recursion.
#[test]
fn expectimax_matches_brute_force_on_a_small_tree() {
    let cfg = expectimax::Config::default();
    let cases = [
        // Mixed straight + all types shapes near ready; some with a declared set.
        "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P",
        "[2p3p4p] 1m 2m 3m 7s 8s 9s C C W N",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for text in cases {
        let (h, melds) = hand(text);
        // Everything seen except a random handful of kinds: a tree brute force can walk.
        let mut kinds: Vec<usize> = (0..KINDS).collect();
        kinds.shuffle(&mut rng);
        let mut seen = [0u8; KINDS];
        for &k in &kinds[..KINDS - 9] {
            seen[k] = 4 - h[k];
        }
        let mut memo = Memo::default();
        for t in 0..KINDS {
            if h[t] == 0 {
                continue;
            }
            let mut g = h;
            g[t] -= 1;
            let mut s = Search { cfg: &cfg, melds: &melds, seen: &seen, seat: 0, min_fans: 8, memo: &mut memo };
            let fast = s.draw_node(&mut g.clone(), 2);
            let slow = brute_draw(&g, &melds, &seen, 2, &cfg);
            assert!((fast - slow).abs() < 1e-9, "{text} discard {t}: {fast} vs {slow}");
        }
    }
}

/// A ready hand whose wait makes 8 fans: expectimax keeps it (discards the odd tile).
#[test]
fn expectimax_keeps_a_qualifying_wait() {
    // 123m 456m 789m (Pure Straight, 16) + 1p1p + 5s7s + P: discarding P leaves a 6s wait.
    let (h, melds) = hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P");
    let p = position(h, melds, [0; KINDS], 60);
    let (t, v) = Expectimax::new(Default::default()).choose_discard(&p, 8);
    assert_eq!(t, 33, "discard P");
    assert!(v > 0.0);
}

/// Hypergeometric cases worked by hand.
#[test]
fn hypergeometric_probability_by_hand() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    // 10 tiles, 2 copies, 3 draws: 1 − C(8,3)/C(10,3) = 1 − 56/120.
    assert!(close(p_at_least(1, 10, 2, 3), 64.0 / 120.0));
    // Both copies: C(2,2)·C(8,1)/C(10,3) = 8/120.
    assert!(close(p_at_least(2, 10, 2, 3), 8.0 / 120.0));
    // One draw from 100 with 4 copies: 4/100.
    assert!(close(p_at_least(1, 100, 4, 1), 0.04));
    // Two draws from 5 with 1 copy: 1 − (4/5)(3/4) = 2/5.
    assert!(close(p_at_least(1, 5, 1, 2), 0.4));
    // No copies, more copies needed than exist or than draws: impossible; drawing all: certain.
    assert_eq!(p_at_least(1, 50, 0, 10), 0.0);
    assert_eq!(p_at_least(3, 50, 2, 10), 0.0);
    assert_eq!(p_at_least(2, 50, 4, 1), 0.0);
    assert!(close(p_at_least(1, 6, 1, 6), 1.0));
    // Against a sum of the probability mass: P(≥1) + P(0) = 1 with P(0) = Π (N−K−i)/(N−i).
    let p0: f64 = (0..7).map(|i| (120.0 - 3.0 - i as f64) / (120.0 - i as f64)).product();
    assert!(close(p_at_least(1, 120, 3, 7), 1.0 - p0));
}

/// With no slack the kept arrangements all stand for exactly the hand's standard shanten (the
/// arrangement formula never goes below it, and some arrangement reaches it).
#[test]
fn arrangements_reach_the_standard_shanten() {
    let cfg = pruned::Config { shanten_slack: 0, keep: 32, ..pruned::Config::default() };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut wall: Vec<Tile> = (0..KINDS as u8).flat_map(|t| [t; 4]).collect();
    let mut bot = Pruned::new(cfg);
    for i in 0..300 {
        wall.shuffle(&mut rng);
        let mut h = [0u8; KINDS];
        for &t in &wall[..13 + i % 2] {
            h[t as usize] += 1;
        }
        let unseen: Counts = std::array::from_fn(|k| 4 - h[k]);
        let t = pruned::Table { melds: &[], unseen: &unseen, draws_left: 15, seat: 0, min_fans: 8 };
        bot.analyse(&h, &t);
        let kept = bot.kept_shantens();
        assert!(!kept.is_empty(), "hand {i}");
        assert!(kept.iter().all(|&s| s == shanten_standard(&h, 0)), "hand {i}: {kept:?}");
    }
}

/// A ready hand: the pruned search discards the odd tile, and its best paths need the wait.
#[test]
fn pruned_discards_the_odd_tile_of_a_ready_hand() {
    let (h, melds) = hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P");
    let p = position(h, melds, [0; KINDS], 60);
    let mut bot = Pruned::new(pruned::Config::default());
    bot.record_paths();
    let (t, v, folded) = bot.choose_discard(&p, 8);
    assert_eq!((t, folded), (33, false));
    let paths = bot.recorded_paths();
    let best = paths.iter().max_by(|a, b| a.value.total_cmp(&b.value)).unwrap();
    assert_eq!(best.needs, vec![14], "needs 6s");
    assert!(best.discards.contains(&33));
    // P(win) of the one-tile wait: 4 copies of 6s among the unseen tiles, 15 draws.
    let n: u32 = p.unseen().iter().map(|&x| x as u32).sum();
    assert!((best.p_win - p_at_least(1, n, 4, 15)).abs() < 1e-12);
    assert!(best.score >= 8.0 && (best.value - best.p_win * best.score).abs() < 1e-12);
    assert!(v >= best.value);
}

/// Hopeless against a threat: the fold plays a tile the threatening seat discarded itself.
#[test]
fn pruned_folds_to_a_safe_tile() {
    let (h, melds) = hand("1m 1m 5m 9m 2p 8p 3s 7s 9s E E S W C");
    let mut p = position(h, melds, [0; KINDS], 60);
    p.declared = [0, 3, 0, 0];
    p.discards[1] = vec![25];
    let (t, _, folded) = Pruned::new(pruned::Config::default()).choose_discard(&p, 8);
    assert!(folded);
    assert_eq!(t, 25, "8p is safe against seat 1");
    assert!(shanten(&h, 0) >= 2);
}

/// `advise --explain` names the pruned search's discard and lists its paths with P, score and E.
#[test]
fn advise_explain_shows_the_chosen_discard_and_its_paths() {
    let args = crate::games::mahjong::advise::AdviseArgs {
        hand: Some("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P".into()),
        explain: true,
        wall_left: 60,
        seat_wind: "E".into(),
        prevalent_wind: "E".into(),
        ..Default::default()
    };
    let text = crate::games::mahjong::advise::run(&args).unwrap();
    assert!(text.contains("chosen: discard P"), "{text}");
    let first = text.lines().find(|l| l.trim_start().starts_with("needs ")).expect("a path line");
    assert!(first.contains("needs 6s") && first.contains("P(win)") && first.contains(" E "), "{first}");
}
