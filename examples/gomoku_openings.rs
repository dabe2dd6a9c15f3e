//! Makes the balanced 15×15 freestyle openings shipped in `openings/freestyle-15.txt`:
//!
//! ```sh
//! cargo run --release --example gomoku_openings > openings/freestyle-15.txt
//! ```
//!
//! Candidates: every three-stone opening (black at the centre, white within two cells of it,
//! black's second stone within three), one per class of the board's eight symmetries. Each is
//! played 9 times, every ordered pair of three searching bots (`search`, `search-wide` and
//! `search-doc` of the roster) as black and white, and kept when black scores 4, 4.5 or 5 of the
//! 9 points (0.44 to 0.56). The kept openings are printed in Piskvork's format, best balanced
//! first, ties in candidate order. Nothing is random: the bots are deterministic and no seed is
//! drawn, so the command always prints the same file. The set is checked, with bots that chose
//! none of it, by `cargo test --release -- --ignored balanced_openings --nocapture`.

use std::sync::Arc;

use rayon::prelude::*;

use bot_arena::core::BotFactory;
use bot_arena::core::{play_game, Bot, GameSeeds, Params};
use bot_arena::games::gomoku::{bots::BOT_KINDS, Book, Gomoku, Move, Rule};

/// The three bots: a kind and its parameters (as in bots/gomoku.toml).
const BOTS: [(&str, &str); 3] =
    [("search", ""), ("search", "width = 12"), ("search", "own = [1, 2, 8, 32, 128]\nvalue = [0, 1, 8, 64, 512]")];

fn factory(game: &Gomoku, kind: &str, params: &str) -> BotFactory<Gomoku> {
    let kind = BOT_KINDS.iter().find(|k| k.name == kind).expect("a gomoku bot kind");
    let params = Params::new(kind.params, &toml::from_str(params).expect("TOML"), kind.name).expect("valid");
    (kind.make)(&params, game).expect("valid")
}

/// The eight symmetries of the square, about the centre.
fn transform(t: usize, (x, y): (i32, i32)) -> (i32, i32) {
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    (if t & 1 != 0 { -x } else { x }, if t & 2 != 0 { -y } else { y })
}

/// Every three-stone opening, one per symmetry class (the smallest image), in a fixed order.
fn candidates() -> Vec<[(i32, i32); 3]> {
    let mut out = Vec::new();
    let near = |r: i32| (-r..=r).flat_map(move |y| (-r..=r).map(move |x| (x, y)));
    for white in near(2) {
        for black in near(3) {
            let stones = [(0, 0), white, black];
            if white == (0, 0) || black == (0, 0) || black == white {
                continue;
            }
            let canonical = (0..8).map(|t| stones.map(|s| transform(t, s))).min().expect("eight images");
            if canonical == stones {
                out.push(stones);
            }
        }
    }
    out.sort();
    out
}

fn main() {
    let game = Gomoku::new(15, Rule::Freestyle, 0);
    let bots: Vec<BotFactory<Gomoku>> = BOTS.iter().map(|(k, p)| factory(&game, k, p)).collect();
    let openings = candidates();
    let centre = 7;
    let stones: Vec<Vec<Move>> = openings
        .iter()
        .map(|o| o.iter().map(|&(dx, dy)| Move { x: (centre + dx) as u8, y: (centre + dy) as u8 }).collect())
        .collect();
    let mut table = game.clone();
    table.book = Some(Arc::new(Book { path: "candidates".into(), openings: stones }));
    let pairs: Vec<(usize, usize)> = (0..3).flat_map(|b| (0..3).map(move |w| (b, w))).collect();
    let games = pairs.len() as u64;
    // Black's points in each opening's 9 games.
    let black_points: Vec<f64> = (0..openings.len() as u64)
        .into_par_iter()
        .map(|k| {
            pairs
                .iter()
                .enumerate()
                .map(|(j, &(b, w))| {
                    let seeds = GameSeeds::derive(1, 0, k * games + j as u64, games);
                    let mut seats: Vec<Box<dyn Bot<Gomoku>>> = vec![bots[b](), bots[w]()];
                    let record = play_game(&table, &mut seats, &seeds, false);
                    (record.seats[0].payoff + 1.0) / 2.0
                })
                .sum()
        })
        .collect();
    let mut kept: Vec<(usize, f64)> =
        black_points.iter().enumerate().filter(|(_, &p)| (4.0..=5.0).contains(&p)).map(|(i, &p)| (i, p)).collect();
    kept.sort_by(|a, b| (a.1 - 4.5).abs().total_cmp(&(b.1 - 4.5).abs()).then(a.0.cmp(&b.0)));
    eprintln!(
        "{} candidates, {} kept (black scores 4 to 5 of 9); black's mean score over the kept: {:.3}",
        openings.len(),
        kept.len(),
        kept.iter().map(|k| k.1).sum::<f64>() / (9.0 * kept.len() as f64)
    );
    for (i, _) in kept {
        let line: Vec<String> = openings[i].iter().map(|(x, y)| format!("{x},{y}")).collect();
        println!("{}", line.join(", "));
    }
}
