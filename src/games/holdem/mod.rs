//! No-limit Texas hold'em: rules per docs/book/src/rules/holdem.md, the source's RR-mapping bot and
//! simple baselines.
//!
//! - [`eval`]: 5/6/7-card evaluator (table-driven, one comparable `u16`).
//! - [`equity`]: exact and Monte Carlo equity, hand strength.
//! - `game`: the table (blinds, antes, betting, side pots, showdown; `cash` and `sng`).
//! - `phh`: hand histories in the PHH format.
//! - `bots`: `rr`, `always-call`, `always-raise`, `all-in`, `random`.
//! - `advise`: `arena advise holdem ...`.

pub mod acpc;
pub(crate) mod advise;
mod bench;
pub(crate) mod bots;
pub(crate) mod engine;
pub mod equity;
pub mod eval;
mod luck;
pub(crate) mod phh;
mod report;
mod state;
mod table;
mod wire;

pub use engine::{Action, Blinds, Chips, Event, Format, Holdem, State, View};

use crate::core::bench::Bench;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{Adviser, BotKind, Engine, GameDef, Importer, ProtocolExample, TablePreset};
use crate::core::{DealRng, Headline, ParamSpec, Params, Seat, Unit, POINTS_A_GAME};
use crate::error::{Error, Result};

impl GameDef for Holdem {
    const NAME: &'static str = "holdem";
    const ABOUT: &'static str =
        "No-limit Texas hold'em, 2-10 seats, cash or sit-and-go (source: an RR-mapping poker AI)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=10;
    const ROSTER: &'static str = include_str!("../../../bots/holdem.toml");
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> =
        Some(ProtocolExample { options: "", seats: 2, script: &["call", "check"] });
    const BENCH_LINEUP: &'static [&'static str] = &["always-call", "always-call"];
    /// The no-limit table of the Annual Computer Poker Competition (the ACPC server's
    /// `holdem.nolimit.2p.reverse_blinds.game` heads-up, `holdem.nolimit.3p.game` with three
    /// seats): our heads-up button posts the small blind and acts first pre-flop, as ACPC's
    /// reversed blinds have it, and a cash game's stacks start afresh every hand.
    const TABLES: &'static [TablePreset] = &[TablePreset {
        name: "acpc",
        about: "ACPC's no-limit hold'em: blinds 50/100, 20,000 chips (200 big blinds) reset every hand, no ante",
        options: "small_blind = 50\nbig_blind = 100\nante = 0\nstack = 200\nformat = \"cash\"\n",
    }];
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("small_blind", "50", "small blind in chips (at most the big blind)").range(0.0, 1e6),
        ParamSpec::new("big_blind", "100", "big blind in chips (also the minimum bet)").range(1.0, 1e6),
        ParamSpec::new("ante", "0", "ante in chips, paid by every seat dealt in (at most the big blind)").range(0.0, 1e6),
        ParamSpec::new("stack", "100", "starting stack in big blinds").range(1.0, 1e5),
        ParamSpec::new(
            "format",
            "\"cash\"",
            "\"cash\": a game is one hand, payoff in big blinds; \"sng\": hands until one seat has every chip, payoff by place (+1 first .. -1 last)",
        )
        .choices(&["cash", "sng"]),
        ParamSpec::new("blind_every", "10", "sng: hands per blind level").range(1.0, 1e6),
        ParamSpec::new("blind_factor", "1.5", "sng: blinds and ante are multiplied by this at each level (rounded to chips)")
            .range(1.0, 10.0),
        ParamSpec::new("max_hands", "10000", "sng: stop after this many hands and place the seats left by chips")
            .range(1.0, 1e7),
    ];

    fn from_options(p: &Params, seats: usize) -> Result<Holdem> {
        let big = p.i64("big_blind") as Chips;
        let (small, ante) = (p.i64("small_blind") as Chips, p.i64("ante") as Chips);
        if small > big || ante > big {
            return Err(Error::input("holdem: small_blind and ante must not exceed big_blind"));
        }
        let stack = p.i64("stack") as u64 * big as u64;
        if !(2..=10).contains(&seats) {
            return Err(Error::input(format!("holdem: 2 to 10 seats, not {seats}")));
        }
        if stack * seats as u64 > (Chips::MAX / 4) as u64 {
            return Err(Error::input("holdem: stack × big_blind × seats is too large for 32-bit chips"));
        }
        let format = if p.str("format") == "cash" { Format::Cash } else { Format::Sng };
        let mut game = Holdem::new(seats, small, big, stack as Chips);
        game.blinds.ante = ante;
        game.format = format;
        game.blind_every = p.i64("blind_every") as u32;
        game.blind_factor = p.f64("blind_factor");
        game.max_hands = p.i64("max_hands") as u32;
        Ok(game)
    }

    fn payoff_label(&self) -> &'static str {
        match self.format {
            Format::Cash => "big blinds",
            Format::Sng => "place points, +1 first to -1 last",
        }
    }

    /// Cash: the chips and the big blinds they make (`+390 chips (+3.9 big blinds)`); a
    /// sit-and-go: its place points.
    fn payoff_text(&self, payoff: f64) -> String {
        let units = crate::core::readable::signed_units;
        match self.format {
            Format::Cash => {
                let chips = payoff * f64::from(self.blinds.big);
                format!("{} ({})", units(chips.round(), "chips"), units(payoff, "big blinds"))
            }
            Format::Sng => units(payoff, "place points"),
        }
    }

    fn headline(&self) -> Headline {
        match self.format {
            Format::Cash => Headline::payoff(Unit::new("bb/100", 100.0)).called("hand").edge(100.0),
            // A sit-and-go pays by place: who wins is the question.
            Format::Sng => Headline::elo(POINTS_A_GAME),
        }
    }

    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        report::section(self, games, names)
    }

    fn bot_kinds() -> Vec<BotKind<Holdem>> {
        bots::BOT_KINDS.to_vec()
    }

    fn benches() -> Vec<Bench> {
        bench::benches()
    }

    /// `arena acpc-agent holdem` (and `arena brain holdem`): a bot of ours as an ACPC agent.
    fn engine() -> Option<Engine<Self>> {
        Some(acpc::agent::engine())
    }

    fn adviser() -> Option<Adviser> {
        Some(Adviser::new(
            "Hold'em: equity of a hand (Monte Carlo or exact), its category and pot-odds guidance",
            advise::run,
        ))
    }

    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State> {
        Holdem::redeal_hidden(self, state, seat, rng)
    }

    fn conserved(&self, state: &Self::State) -> Option<u64> {
        Some(self.chips_in_play(state))
    }

    fn importers() -> Vec<Importer<Holdem>> {
        vec![acpc::log::importer()]
    }
}

#[cfg(test)]
mod tests;
