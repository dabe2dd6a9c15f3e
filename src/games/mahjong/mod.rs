//! Mahjong, Chinese Official rules (MCR, 国标麻将): rules per docs/book/src/rules/mahjong.md.
//!
//! - [`tiles`]: tile kinds, counts, melds and the notation of the reference vectors;
//! - `fans`: the fan calculator (all 81 fans plus "Concealed Kong and Melded Kong"), checked
//!   hand by hand against `pymahjonggb` 1.4.0 (tests/data/mcr_fans_sample.jsonl);
//! - [`shanten`]: table-driven shanten over every winning shape, and effective tiles;
//! - `engine`: the four-seat table (one hand), `bots`: `random` and `greedy`;
//! - `advise`: `arena advise mahjong`.
//!
//! How the fan calculator was checked: `fans::tests::every_reference_vector_agrees` scores all 196
//! hands of tests/data/mcr_fans_sample.jsonl (scored by `pymahjonggb` 1.4.0) and requires the exact
//! total and the exact fan list (name and count) for every one; `advise::tests::batch_reproduces_the_vectors`
//! requires `--batch` to print every line as the reference lists it (same fans, same order);
//! `fans::tests::every_special_shape_vector_agrees` does the same for the 801 hands of
//! tests/data/mcr_fans_special.jsonl (knitted straights concealed and with a declared set, honours
//! and knitted tiles, thirteen orphans, seven (shifted) pairs, nine gates, each with every winning
//! tile; written by `scripts/mcr_special_vectors.py` with the reference).
//! Rare fans have hand-written cases (Nine Gates, Chicken Hand, Big Four Winds, Big Three Dragons,
//! All Green, Four Kongs, Seven Shifted Pairs, Thirteen Orphans), and 3,000 random winning hands must
//! all score. Any other file of reference hands can be checked with
//! `arena advise mahjong --batch FILE` and a diff against its `id,total,fans`.
//!
//! Benchmarks (`arena bench mahjong`, one core): `mahjong.fans_per_s`, `mahjong.shanten_per_s`
//! (all shapes), `mahjong.shanten_standard_per_s`, `mahjong.greedy_hands_per_s` (whole hands, four
//! greedy bots, 8-fan minimum).

pub(crate) mod advise;
pub(crate) mod ai;
pub(crate) mod bots;
pub(crate) mod botzone;
pub(crate) mod engine;
pub(crate) mod events;
pub(crate) mod fans;
mod luck;
mod report;
pub mod shanten;
mod table;
pub mod tiles;
mod wire;

mod bench;

pub use engine::{Action, Mahjong, State, View};

use crate::core::bench::Bench;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{Adviser, BotKind, Engine, GameDef, ProtocolExample, TablePreset};
use crate::core::{DealRng, Headline, ParamSpec, Params, Seat, Unit};
use crate::error::{Error, Result};

/// The game's bot kinds: the baselines and the documents' AIs (listed here, so that the bots and
/// the AI that builds on them do not import each other).
pub static BOT_KINDS: &[BotKind<Mahjong>] =
    &[bots::RANDOM, bots::GREEDY, ai::expectimax::KIND, ai::pruned::KIND, botzone::kind::KIND];

impl GameDef for Mahjong {
    const NAME: &'static str = "mahjong";
    const ABOUT: &'static str =
        "Chinese Official (MCR) mahjong, four seats, one hand or a 16-hand round (source: a mahjong AI patent)";
    const SEATS: std::ops::RangeInclusive<usize> = 4..=4;
    const ROSTER: &'static str = include_str!("../../../bots/mahjong.toml");
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> = Some(ProtocolExample { options: "", seats: 4, script: &[] });
    const BENCH_LINEUP: &'static [&'static str] = &["greedy", "random"];
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("min_fans", "8", "fans a win needs (flowers excluded); 0 = no minimum").range(0.0, 88.0),
        ParamSpec::new("flowers", "false", "8 flower tiles in the wall, 1 fan each"),
        ParamSpec::new("hands", "1", "hands per game: 1, or 16 for a full round (dealer and winds rotate)")
            .range(1.0, 16.0),
        ParamSpec::new(
            "fault_pays",
            "96",
            "points a seat that forfeits (a fault, a false win) pays each other seat (96: the most a hand can cost; Botzone: 10)",
        )
        .range(0.0, 10_000.0),
    ];
    const TABLES: &'static [TablePreset] = &[TablePreset {
        name: "botzone",
        about: "Botzone's Chinese-Standard-Mahjong: 144 tiles with flowers, one hand, 8 fans to win, a fault costs 30 (10 to each other player)",
        options: "flowers = true\nhands = 1\nmin_fans = 8\nfault_pays = 10\n",
    }];

    fn from_options(p: &Params, _seats: usize) -> Result<Mahjong> {
        let hands = p.i64("hands") as usize;
        if hands != 1 && hands != 16 {
            return Err(Error::input("mahjong: hands must be 1 or 16"));
        }
        Ok(Mahjong {
            min_fans: p.i64("min_fans") as u32,
            flowers: p.bool("flowers"),
            hands,
            fault_pays: p.i64("fault_pays") as i32,
        })
    }

    fn payoff_label(&self) -> &'static str {
        "points"
    }
    fn headline(&self) -> Headline {
        // A game of 16 hands is judged per hand too, so that one figure reads the same whatever
        // the game's length.
        let headline = Headline::payoff(Unit::new("points/hand", 1.0 / self.hands as f64)).edge(2.0);
        headline.called(if self.hands == 1 { "hand" } else { "round" })
    }

    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        report::section(games, names)
    }

    fn bot_kinds() -> Vec<BotKind<Mahjong>> {
        BOT_KINDS.to_vec()
    }

    fn benches() -> Vec<Bench> {
        bench::benches()
    }

    fn engine() -> Option<Engine<Self>> {
        Some(botzone::brain::engine())
    }

    fn adviser() -> Option<Adviser> {
        Some(Adviser::new(
            "Mahjong (MCR): shanten, effective tiles, and the fans of a complete hand (or a --batch file)",
            advise::run,
        ))
    }

    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State> {
        Mahjong::redeal_hidden(self, state, seat, rng)
    }

    fn conserved(&self, state: &Self::State) -> Option<u64> {
        Some(self.tiles_in_play(state))
    }
}
