//! No-limit Texas hold'em: rules per ../shared/rules/holdem.md, the source's RR-mapping bot and
//! simple baselines.
//!
//! - [`eval`]: 5/6/7-card evaluator (table-driven, one comparable `u16`).
//! - [`equity`]: exact and Monte Carlo equity, hand strength.
//! - [`game`]: the table (blinds, antes, betting, side pots, showdown; `cash` and `sng`).
//! - [`phh`]: hand histories in the PHH format.
//! - [`bots`]: `rr`, `always-call`, `always-raise`, `all-in`, `random`.
//! - [`advise`]: `arena advise holdem ...`.

pub mod advise;
mod bench;
pub mod bots;
pub mod equity;
pub mod eval;
pub mod game;
pub mod phh;

pub use game::{Action, Blinds, Chips, Event, Format, Holdem, State, View};

use crate::bench::Bench;
use crate::core::{ParamSpec, Params};
use crate::error::{Error, Result};
use crate::games::{Adviser, BotKind, GameDef};

impl GameDef for Holdem {
    const NAME: &'static str = "holdem";
    const ABOUT: &'static str =
        "No-limit Texas hold'em, 2-10 seats, cash or sit-and-go (source: an RR-mapping poker AI)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=10;
    const ROSTER: &'static str = include_str!("../../../bots/holdem.toml");
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("small_blind", "50", "small blind in chips"),
        ParamSpec::new("big_blind", "100", "big blind in chips (also the minimum bet)"),
        ParamSpec::new("ante", "0", "ante in chips, paid by every seat dealt in"),
        ParamSpec::new("stack", "100", "starting stack in big blinds"),
        ParamSpec::new(
            "format",
            "\"cash\"",
            "\"cash\": a game is one hand, payoff in big blinds; \"sng\": hands until one seat has every chip, payoff by place (+1 first .. -1 last)",
        ),
        ParamSpec::new("blind_every", "10", "sng: hands per blind level"),
        ParamSpec::new("blind_factor", "1.5", "sng: blinds and ante are multiplied by this at each level (rounded to chips)"),
        ParamSpec::new("max_hands", "10000", "sng: stop after this many hands and place the seats left by chips"),
    ];

    fn from_options(p: &Params, seats: usize) -> Result<Holdem> {
        let owner = "holdem";
        let big = p.int_in("big_blind", 1, 1_000_000, owner)? as Chips;
        let small = p.int_in("small_blind", 0, big as i64, owner)? as Chips;
        let ante = p.int_in("ante", 0, big as i64, owner)? as Chips;
        let stack_bb = p.int_in("stack", 1, 100_000, owner)? as u64;
        let stack = stack_bb * big as u64;
        if !(2..=10).contains(&seats) {
            return Err(Error::input(format!("holdem: 2 to 10 seats, not {seats}")));
        }
        if stack * seats as u64 > (Chips::MAX / 4) as u64 {
            return Err(Error::input("holdem: stack × big_blind × seats is too large for 32-bit chips"));
        }
        let format = match p.choice("format", &["cash", "sng"], owner)? {
            "cash" => Format::Cash,
            _ => Format::Sng,
        };
        let blind_factor = p.f64("blind_factor");
        if !(1.0..=10.0).contains(&blind_factor) {
            return Err(Error::input("holdem: blind_factor must be in 1.0..=10.0"));
        }
        let mut game = Holdem::new(seats, small, big, stack as Chips);
        game.blinds.ante = ante;
        game.format = format;
        game.blind_every = p.int_in("blind_every", 1, 1_000_000, owner)? as u32;
        game.blind_factor = blind_factor;
        game.max_hands = p.int_in("max_hands", 1, 10_000_000, owner)? as u32;
        Ok(game)
    }

    fn bot_kinds() -> Vec<BotKind<Holdem>> {
        bots::KINDS.to_vec()
    }

    fn benches() -> Vec<Bench> {
        bench::benches()
    }

    fn adviser() -> Option<Adviser> {
        Some(Adviser::new(
            "Hold'em: equity of a hand (Monte Carlo or exact), its category and pot-odds guidance",
            advise::run,
        ))
    }
}

#[cfg(test)]
mod tests;
