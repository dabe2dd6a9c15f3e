//! Gomoku (五子棋): rules per docs/book/src/rules/gomoku.md.

mod advise;
pub mod bots;
pub mod brain;
mod engine;
mod geometry;
pub(crate) mod gomocup;
pub(crate) mod gomocup_check;
pub mod openings;
mod psq;
pub(crate) mod renju;
mod report;
mod sgf;
mod wire;

pub use engine::{lines, makes_five, Gomoku, Move, Rule, State};
pub use openings::Book;
pub use renju::Foul;

use crate::core::bench::{throughput, Bench, BenchOptions, Measure};
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{play_game, Bot, GameRecord, GameSeeds, Params, ProtocolExample};
use crate::core::{Adviser, BotFactory, BotKind, Engine, GameDef};
use crate::core::{DealRng, Headline, ParamSpec, Seat, POINTS_A_GAME};
use crate::error::{Error, Result};

/// The largest board, cells a side.
pub const MAX_SIZE: usize = 25;

impl GameDef for Gomoku {
    const NAME: &'static str = "gomoku";
    const ABOUT: &'static str = "Five in a row on a square board (source: a 19x19 weight-based AI)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const ROSTER: &'static str = include_str!("../../../bots/gomoku.toml");
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> =
        Some(ProtocolExample { options: "size = 7", seats: 2, script: &["3,3", "4,3"] });
    const BENCH_LINEUP: &'static [&'static str] = &["random-adjacent", "weights"];
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("size", "15", "board size (cells a side)").range(5.0, MAX_SIZE as f64),
        ParamSpec::new(
            "rule",
            "\"freestyle\"",
            "\"freestyle\": five or more in a row wins; \"standard\": exactly five; \"renju\": black wins by exactly five and loses by a forbidden move (overline, double four, double three), white wins by five or more; \"caro\": five or more wins unless both ends of the row are blocked by the opponent's stones (the board's edge is not a block)",
        )
        .choices(&["freestyle", "standard", "renju", "caro"]),
        ParamSpec::new(
            "opening",
            "0",
            "stones placed at random near the centre before play (paired games replay the same opening with colours swapped)",
        )
        .range(0.0, 25.0),
        ParamSpec::new(
            "openings",
            "\"\"",
            "an openings file in Piskvork's format (one opening a line: x,y offsets from the centre, black first); deal k plays opening k, so paired games play each with colours swapped",
        )
        .file(),
    ];

    fn from_options(p: &Params, _seats: usize) -> Result<Gomoku> {
        let size = p.i64("size") as usize;
        let rule = match p.str("rule") {
            "freestyle" => Rule::Freestyle,
            "standard" => Rule::Standard,
            "caro" => Rule::Caro,
            _ => Rule::Renju,
        };
        let opening = p.i64("opening") as usize;
        if opening >= size * size {
            return Err(Error::input("gomoku: the opening must leave empty cells"));
        }
        let mut game = Gomoku::new(size, rule, opening);
        let path = p.str("openings");
        if !path.is_empty() {
            // Errors name the `openings` key, so that a config points at its line.
            let at_openings = |message: String| Error::Param { key: "openings".into(), message };
            if opening > 0 {
                return Err(at_openings(
                    "gomoku: give `opening` (random stones) or `openings` (a file), not both".into(),
                ));
            }
            let book = Book::load(std::path::Path::new(path), &game).map_err(|e| at_openings(e.to_string()))?;
            game.book = Some(std::sync::Arc::new(book));
        }
        Ok(game)
    }

    fn payoff_label(&self) -> &'static str {
        "+1 win, -1 loss"
    }
    /// `+1 (a win)`, `-1 (a loss)`, `0 (a draw)`.
    fn payoff_text(&self, payoff: f64) -> String {
        let what = match payoff {
            p if p > 0.0 => "a win",
            p if p < 0.0 => "a loss",
            _ => "a draw",
        };
        format!("{} ({what})", crate::core::readable::signed(payoff))
    }
    fn headline(&self) -> Headline {
        Headline::elo(POINTS_A_GAME)
    }

    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        report::section(games, names)
    }

    /// The built-in bots, and `gomocup`: any Gomocup engine.
    fn bot_kinds() -> Vec<BotKind<Gomoku>> {
        let mut kinds = bots::BOT_KINDS.to_vec();
        kinds.push(gomocup::KIND);
        kinds
    }

    fn engine() -> Option<Engine<Self>> {
        Some(brain::engine())
    }
    fn adviser() -> Option<Adviser> {
        Some(Adviser::new(
            "Gomoku: the weights bot's best cells on a position, with their attack and defence scores",
            advise::run,
        ))
    }

    /// `arena bench gomoku`, on one core, 15×15 freestyle, no opening stones:
    /// - `gomoku.games_per_s`: weights vs weights, game i with `GameSeeds::derive(1, 0, i, 1)`;
    /// - `gomoku.search_games_per_s`: search (default parameters) vs weights, colours alternating.
    fn benches() -> Vec<Bench> {
        vec![Bench { name: "gomoku", run: bench_games }]
    }

    /// Every stone is on the board for both to see.
    fn redeal_hidden(&self, _state: &State, _seat: Seat, _rng: &mut DealRng) -> Option<State> {
        None
    }

    fn conserved(&self, _state: &State) -> Option<u64> {
        None
    }
}

/// A bot kind of gomoku with its default parameters.
fn default_bot(kind: &str, game: &Gomoku) -> BotFactory<Gomoku> {
    let kind = bots::BOT_KINDS.iter().find(|k| k.name == kind).expect("a gomoku bot kind");
    let params = Params::new(kind.params, &toml::Table::new(), kind.name).expect("defaults are valid");
    (kind.make)(&params, game).expect("defaults are valid")
}

/// Plays game `i` of a match: `first` is black in even games, white in odd ones.
fn play_pair(
    game: &Gomoku,
    first: &BotFactory<Gomoku>,
    second: &BotFactory<Gomoku>,
    seeds: &GameSeeds,
    i: u64,
) -> GameRecord {
    let mut seats: Vec<Box<dyn Bot<Gomoku>>> =
        if i.is_multiple_of(2) { vec![first(), second()] } else { vec![second(), first()] };
    play_game(game, &mut seats, seeds, false)
}

fn bench_games(opts: &BenchOptions) -> Vec<Measure> {
    let game = Gomoku::new(15, Rule::Freestyle, 0);
    let (weights, search) = (default_bot("weights", &game), default_bot("search", &game));
    let measure = |first: &BotFactory<Gomoku>, second: &BotFactory<Gomoku>| {
        let mut i = 0u64;
        throughput(opts.budget, 1, || {
            i += 1;
            play_pair(&game, first, second, &GameSeeds::derive(1, 0, i - 1, 1), i - 1).moves
        })
    };
    let games = measure(&weights, &weights);
    let search_games = measure(&search, &weights);
    vec![
        Measure { name: "gomoku.games_per_s".into(), value: games, unit: "games/s" },
        Measure { name: "gomoku.search_games_per_s".into(), value: search_games, unit: "games/s" },
    ]
}

#[cfg(test)]
mod strength {
    //! Match results of the bots. Slow: `cargo test --release -- --ignored gomoku::strength --nocapture`.

    use rayon::prelude::*;

    use super::*;

    /// `first` against `second` over `games` games (seeds `derive(1, 0, i, 2)`: each opening is
    /// played twice with colours swapped); returns (wins, draws, losses) of `first`.
    fn score(game: &Gomoku, first: &str, second: &str, games: u64) -> (u32, u32, u32) {
        let (a, b) = (default_bot(first, game), default_bot(second, game));
        let results: Vec<f64> = (0..games)
            .into_par_iter()
            .map(|i| {
                let record = play_pair(game, &a, &b, &GameSeeds::derive(1, 0, i, 2), i);
                assert_eq!(record.status, crate::core::Status::Ok);
                record.seats[(i % 2) as usize].payoff
            })
            .collect();
        let count = |v: f64| results.iter().filter(|&&p| p == v).count() as u32;
        let (w, d, l) = (count(1.0), count(0.0), count(-1.0));
        let n = games as f64;
        let p = (w as f64 + d as f64 / 2.0) / n;
        let half = 1.96 * (p * (1.0 - p) / n).sqrt();
        println!(
            "{first} vs {second} (size {}, opening {}): {w} wins, {d} draws, {l} losses; score {:.3} ± {half:.3}",
            game.size, game.opening, p
        );
        (w, d, l)
    }

    /// A bot of `kind` with `params` (TOML) on top of the defaults.
    fn bot_with(kind: &str, params: &str, game: &Gomoku) -> BotFactory<Gomoku> {
        let kind = bots::BOT_KINDS.iter().find(|k| k.name == kind).expect("a gomoku bot kind");
        let params = Params::new(kind.params, &toml::from_str(params).expect("TOML"), kind.name).expect("valid");
        (kind.make)(&params, game).expect("valid")
    }

    /// Black's mean score (win 1, draw 1/2) over `deals` deals, each played `replays` times with
    /// `black` and `white` (fresh bot streams every game), and its 95% half width.
    fn black_score(
        game: &Gomoku,
        black: &BotFactory<Gomoku>,
        white: &BotFactory<Gomoku>,
        deals: u64,
        replays: u64,
    ) -> (f64, f64) {
        let points: Vec<f64> = (0..deals * replays)
            .into_par_iter()
            .map(|g| {
                let mut seats: Vec<Box<dyn Bot<Gomoku>>> = vec![black(), white()];
                let record = play_game(game, &mut seats, &GameSeeds::derive(1, 0, g, replays), false);
                (record.seats[0].payoff + 1.0) / 2.0
            })
            .collect();
        let n = points.len() as f64;
        let mean = points.iter().sum::<f64>() / n;
        let var = points.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, 1.96 * (var / n).sqrt())
    }

    /// The shipped openings (openings/freestyle-15.txt, chosen by `examples/gomoku_openings.rs`
    /// with search, search-wide and search-doc) against random three-stone openings: black's score
    /// when search-deep (no part in the choice) plays itself, and search's score against weights
    /// (no part either) from each side. Measured 2026-11-23: see the README (gomoku).
    #[test]
    #[ignore]
    fn balanced_openings() {
        let free = Gomoku::new(15, Rule::Freestyle, 0);
        let book = Book::load(std::path::Path::new("openings/freestyle-15.txt"), &free).expect("the shipped openings");
        let shipped = Gomoku { book: Some(std::sync::Arc::new(book.clone())), ..free.clone() };
        let random = Gomoku::new(15, Rule::Freestyle, 3);
        for (name, game, deals) in [("shipped", &shipped, book.openings.len() as u64), ("random 3-stone", &random, 200)]
        {
            let (deep, search, weights) =
                (bot_with("search", "depth = 4", game), bot_with("search", "", game), bot_with("weights", "", game));
            let show = |what: &str, (p, h): (f64, f64)| println!("{name} openings ({deals}): {what}: {p:.3} ± {h:.3}");
            show("black's score, search-deep against itself", black_score(game, &deep, &deep, deals, 1));
            show("search's score against weights as black", black_score(game, &search, &weights, deals, 1));
            let (p, h) = black_score(game, &weights, &search, deals, 1);
            show("search's score against weights as white", (1.0 - p, h));
        }
    }

    /// Game lengths and results of weights vs weights (time it with `time` for CPU seconds).
    #[test]
    #[ignore]
    fn weights_self_play() {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let w = default_bot("weights", &game);
        let (mut moves, mut draws) = (0, 0);
        for i in 0..5000 {
            let r = play_pair(&game, &w, &w, &GameSeeds::derive(1, 0, i, 1), i);
            moves += r.moves;
            draws += (r.seats[0].payoff == 0.0) as u32;
        }
        println!("weights self-play: {} moves per game, {draws} draws in 5000", moves as f64 / 5000.0);
    }

    /// Measured 2026-11-21: 1000 wins out of 1000.
    #[test]
    #[ignore]
    fn weights_beats_random() {
        let (w, _, l) = score(&Gomoku::new(15, Rule::Freestyle, 0), "weights", "random", 1000);
        assert!(w > 9 * l);
    }

    /// Measured 2026-11-21: opening 2: 702 wins, 271 draws, 27 losses (score 0.838 ± 0.023);
    /// opening 4: 720 / 252 / 28 (0.846 ± 0.022). About 40 ms of CPU per game.
    #[test]
    #[ignore]
    fn search_beats_weights() {
        for opening in [2, 4] {
            let (w, _, l) = score(&Gomoku::new(15, Rule::Freestyle, opening), "search", "weights", 1000);
            assert!(w > l);
        }
    }
}
