//! The pruned search's decision as text, for `arena advise mahjong --hand ... --explain`:
//! the kept arrangements (weight, shanten), the discards by value, and the best paths of the
//! chosen discard with their needed tiles, discards, P(win), score and value E = P × score.
//!
//! ```text
//! $ arena advise mahjong --hand "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 7s P" --explain
//! ...
//! pruned search (draws left 15, 124 tiles unseen):
//!   arrangements (weight, shanten):
//!     123m 456m 789m 1p1p 5s7s P          39   0
//!     ...
//!   discards by value: P 1.794, 7s 0.069, 5s 0.069, ...
//!   chosen: discard P (value 1.794)
//!     needs 6s         discards P            P(win) 0.4143  score 16.0  E 6.6290
//!     ...
//! ```

use std::fmt::Write;

use rand::SeedableRng;

use super::pruned::{Config, Pruned};
use super::Position;
use crate::core::BotRng;
use crate::games::mahjong::tiles::{tile_name, Counts, Meld, Tile, TILE_KINDS};

fn tiles_text(ts: &[Tile]) -> String {
    if ts.is_empty() {
        return "-".into();
    }
    ts.iter().map(|&t| tile_name(t)).collect::<Vec<_>>().join(" ")
}

/// The explanation of the pruned bot's discard for a 3n+2 hand (`seen` includes the own sets).
/// The opponent model is sampled with a fixed seed (0), so the explanation is the same each time.
pub fn explain(hand: &Counts, melds: &[Meld], seen: &Counts, wall_left: usize, seat: usize) -> String {
    let p = Position {
        seat,
        hand: *hand,
        melds: melds.to_vec(),
        seen: *seen,
        discards: Default::default(),
        declared: [melds.len(), 0, 0, 0],
        wall_left,
    };
    let mut bot = Pruned::new(Config::default());
    bot.record_paths();
    let odds = bot.prepare(&p, &mut BotRng::seed_from_u64(0));
    let t = super::pruned::Table { melds, odds: &odds, draws_left: p.draws_left(), seat, min_fans: 8 };
    let a = bot.analyse(hand, &t);
    let mut paths = bot.recorded_paths();
    let mut out = String::new();
    let n: u32 = p.unseen().iter().map(|&x| x as u32).sum();
    writeln!(out, "pruned search (draws left {}, {n} tiles unseen, {} paths):", p.draws_left(), a.paths).unwrap();
    if let Some(m) = bot.model() {
        let mut held: Vec<usize> = (0..TILE_KINDS).filter(|&k| m.held[k] >= 0.05).collect();
        held.sort_by(|&x, &y| m.held[y].total_cmp(&m.held[x]).then(x.cmp(&y)));
        let list: Vec<String> =
            held.iter().take(8).map(|&k| format!("{} {:.2}", tile_name(k as Tile), m.held[k])).collect();
        writeln!(
            out,
            "  opponent model ({} hands of the other seats, seed 0): ready {}; copies in their hands: {}",
            bot.cfg.model.samples,
            m.ready.map(|r| format!("{r:.2}")).join(" "),
            if list.is_empty() { "-".into() } else { list.join(", ") }
        )
        .unwrap();
    }
    writeln!(out, "  arrangements (weight, shanten):").unwrap();
    for arr in bot.kept() {
        let blocks: Vec<String> = arr.blocks[..arr.len]
            .iter()
            .map(|b| {
                let (ts, k) = b.tiles();
                ts[..k].iter().map(|&x| tile_name(x)).collect::<String>()
            })
            .collect();
        writeln!(out, "    {:<40} {:>4} {:>3}", blocks.join(" "), arr.weight, arr.shanten).unwrap();
    }
    let mut order: Vec<usize> = (0..TILE_KINDS).filter(|&k| hand[k] > 0).collect();
    order.sort_by(|&x, &y| a.discard_value[y].total_cmp(&a.discard_value[x]).then(x.cmp(&y)));
    let list: Vec<String> =
        order.iter().map(|&k| format!("{} {:.3}", tile_name(k as Tile), a.discard_value[k])).collect();
    writeln!(out, "  discards by value (sum of E over the paths discarding the tile): {}", list.join(", ")).unwrap();
    let (tile, value, folded) = bot.discard_with(&p, &odds, 8);
    let how = if folded { " (folding: least dangerous tile)" } else { "" };
    writeln!(out, "  chosen: discard {} (value {value:.3}){how}", tile_name(tile)).unwrap();
    paths.retain(|x| x.discards.contains(&tile));
    paths.sort_by(|x, y| y.value.total_cmp(&x.value));
    writeln!(out, "  best paths discarding {}:", tile_name(tile)).unwrap();
    for x in paths.iter().take(8) {
        writeln!(
            out,
            "    needs {:<14} discards {:<14} P(win) {:.4}  score {:>5.1}  E {:.4}",
            tiles_text(&x.needs),
            tiles_text(&x.discards),
            x.p_win,
            x.score,
            x.value
        )
        .unwrap();
    }
    out
}
