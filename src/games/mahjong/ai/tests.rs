use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::expectimax::{self, Expectimax, Search};
use super::odds::{p_at_least, TileOdds};
use super::pruned::{self, Pruned};
use super::turns;
use super::{self_drawn_fans, Memo, Position};
use crate::core::{Bot, BotRng, Game, GameSeeds};
use crate::games::mahjong::bots::{GreedyBot, RandomBot};
use crate::games::mahjong::engine::Mahjong;
use crate::games::mahjong::shanten::{shanten, shanten_standard};
use crate::games::mahjong::tiles::{Counts, Hand, Meld, Tile, TILE_KINDS};

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
    for k in 0..TILE_KINDS {
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
    for t in 0..TILE_KINDS {
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
        let mut kinds: Vec<usize> = (0..TILE_KINDS).collect();
        kinds.shuffle(&mut rng);
        let mut seen = [0u8; TILE_KINDS];
        for &k in &kinds[..TILE_KINDS - 9] {
            seen[k] = 4 - h[k];
        }
        let mut memo = Memo::default();
        for t in 0..TILE_KINDS {
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
    let p = position(h, melds, [0; TILE_KINDS], 60);
    let (t, v) = Expectimax::new(Default::default()).choose_discard(&p, 8);
    assert_eq!(t, 33, "discard P");
    assert!(v > 0.0);
}

/// With no slack the kept arrangements all stand for exactly the hand's standard shanten (the
/// arrangement formula never goes below it, and some arrangement reaches it).
#[test]
fn arrangements_reach_the_standard_shanten() {
    let cfg = pruned::Config { shanten_slack: 0, keep: 32, ..pruned::Config::default() };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut wall: Vec<Tile> = (0..TILE_KINDS as u8).flat_map(|t| [t; 4]).collect();
    let mut bot = Pruned::new(cfg);
    for i in 0..300 {
        wall.shuffle(&mut rng);
        let mut h = [0u8; TILE_KINDS];
        for &t in &wall[..13 + i % 2] {
            h[t as usize] += 1;
        }
        let unseen: Counts = std::array::from_fn(|k| 4 - h[k]);
        let odds = TileOdds::basic(&unseen, 15);
        let t = pruned::Table { melds: &[], odds: &odds, draws_left: 15, seat: 0, min_fans: 8 };
        bot.analyse(&h, &t);
        let kept = bot.kept_shantens();
        assert!(!kept.is_empty(), "hand {i}");
        assert!(kept.iter().all(|&s| s == shanten_standard(&h, 0)), "hand {i}: {kept:?}");
    }
}

fn rng() -> BotRng {
    <BotRng as SeedableRng>::seed_from_u64(1)
}

/// A ready hand: the pruned search (without the model) discards the odd tile, and its best paths
/// need the wait with the hypergeometric chance.
#[test]
fn pruned_discards_the_odd_tile_of_a_ready_hand() {
    let (h, melds) = hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P");
    let p = position(h, melds, [0; TILE_KINDS], 60);
    let mut bot = Pruned::new(pruned::Config::default());
    bot.record_paths();
    let (t, v, folded) = bot.choose_discard(&p, 8, &mut rng());
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

/// Hopeless against a threat: the fold (without the model) plays a tile the threatening seat
/// discarded itself.
#[test]
fn pruned_without_the_model_folds_to_a_safe_tile() {
    let (h, melds) = hand("1m 1m 5m 9m 2p 8p 3s 7s 9s E E S W C");
    let mut p = position(h, melds, [0; TILE_KINDS], 60);
    p.declared = [0, 3, 0, 0];
    p.discards[1] = vec![25];
    let (t, _, folded) = Pruned::new(pruned::Config::default()).choose_discard(&p, 8, &mut rng());
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
    let text = crate::games::mahjong::advise::run(&args).unwrap().to_string();
    assert!(text.contains("chosen: discard P"), "{text}");
    let first = text.lines().find(|l| l.trim_start().starts_with("needs ")).expect("a path line");
    assert!(first.contains("needs 6s") && first.contains("P(win)") && first.contains(" E "), "{first}");
}

/// Regenerates `shanten_by_turn.csv` (the opponent model's shanten-by-turn distribution, see
/// `turns.rs`): `cargo test --release -- --ignored regenerate_shanten_by_turn --nocapture`.
#[test]
#[ignore]
fn regenerate_shanten_by_turn() {
    let counts = pruned::measure_turns(turns::MEASURED_HANDS, 1);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/games/mahjong/ai/shanten_by_turn.csv");
    std::fs::write(path, turns::to_csv(&counts)).unwrap();
    let total: u32 = counts.iter().flatten().flatten().sum();
    println!("{total} discards of {} hands written to {path}", turns::MEASURED_HANDS);
}

/// The committed distribution is a real measurement in the file's own format, and measuring is
/// deterministic.
#[test]
fn shanten_by_turn_data_is_well_formed() {
    let text = include_str!("shanten_by_turn.csv");
    let counts = turns::parse(text).unwrap();
    assert_eq!(turns::to_csv(&counts), text, "the file round-trips");
    let total: u32 = counts.iter().flatten().flatten().sum();
    assert!(total > 100_000, "{total} discards: not the measurement");
    // Nobody is ready on the first turn more often than two shanten away; the shanten falls.
    let d = turns::Distribution::measured();
    assert!(d.p(0, 0, 0) < d.p(0, 0, 2) && d.p(15, 0, 0) > d.p(1, 0, 0));
    assert_eq!(pruned::measure_turns(3, 5), pruned::measure_turns(3, 5));
}

/// Document 004's figure 2: the arrangements of [2, 3, 4, 4, 5] (here 2m..5m, as the last set and
/// the partial set of a hand with three sets declared). With the patent's weights (chow 10, pair
/// 6) and ours for partial sets, [[2,3,4],[4,5]] has the highest total and is the arrangement kept
/// first, as the patent says.
#[test]
fn patent_example_arrangements_of_23445() {
    let mut h = [0u8; TILE_KINDS];
    for t in [1, 2, 3, 3, 4] {
        h[t] += 1;
    }
    let mut bot = Pruned::new(pruned::Config { keep: 32, shanten_slack: 8, ..pruned::Config::default() });
    let found: Vec<(String, f64)> = bot
        .arrangements(&h, 3)
        .iter()
        .map(|a| {
            let blocks: Vec<String> = a.blocks[..a.len]
                .iter()
                .map(|b| {
                    let (ts, n) = b.tiles();
                    ts[..n].iter().map(|&t| (t + 1).to_string()).collect::<String>()
                })
                .collect();
            (blocks.join(" "), a.weight)
        })
        .collect();
    assert_eq!(found[0], ("234 45".to_string(), 14.0), "{found:?}");
    // The other readings of the figure, each with its total.
    for (text, weight) in [("23 44 5", 10.0), ("234 4 5", 10.0), ("24 345", 13.0), ("2 345 4", 10.0), ("2 3 44 5", 6.0)]
    {
        assert!(found.contains(&(text.to_string(), weight)), "{text}: {found:?}");
    }
    assert!(found.windows(2).all(|w| w[0].1 >= w[1].1), "highest weight first");
}

/// Document 004's fan example: with 123m 456m 679m, the partial set 67m waits on two tiles (5m,
/// 8m) and 79m on one (8m); valuing by the chance of winning alone keeps 67m and misses the Pure
/// Straight (16 fans) that 79m + 8m makes. The path value P(win) × fans keeps 79m: the bot
/// discards 6m although keeping 67m is likelier to complete the hand.
#[test]
fn patent_example_keeps_the_pure_straight_wait() {
    let (h, melds) = hand("1m 2m 3m 4m 5m 6m 6m 7m 9m 1p 1p 5s 5s 5s");
    let p = position(h, melds, [0; TILE_KINDS], 60);
    for cfg in [pruned::Config::default(), pruned::Config::patent()] {
        let mut bot = Pruned::new(cfg);
        bot.record_paths();
        let (t, _, folded) = bot.choose_discard(&p, 8, &mut rng());
        assert_eq!((t, folded), (5, false), "discard 6m");
        let paths = bot.recorded_paths();
        let best_needing = |discard: Tile, need: Tile| {
            paths
                .iter()
                .filter(|x| x.discards == [discard] && x.needs == [need])
                .max_by(|a, b| a.value.total_cmp(&b.value))
                .unwrap_or_else(|| panic!("a path discarding {discard} needing {need}"))
                .clone()
        };
        let straight = best_needing(5, 7);
        let (low, high) = (best_needing(8, 4), best_needing(8, 7));
        assert!(straight.score >= 16.0, "Pure Straight: {}", straight.score);
        let either = 1.0 - (1.0 - low.p_win) * (1.0 - high.p_win);
        assert!(either > straight.p_win, "67m is likelier to complete: {either} vs {}", straight.p_win);
        assert!(straight.value > low.value + high.value);
    }
}
