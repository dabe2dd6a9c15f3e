//! Five-card stud (梭哈, "show hand"): rules per docs/book/src/rules/stud.md, from the rule-based expert
//! system of source document 000 (without its bugs: ties are ties, one advice, no runaway loops).
//!
//! - `eval`: one comparable integer per hand (and per partial hand, for who acts first);
//! - `odds`: the exact win probability (Monte Carlo above a budget);
//! - `engine`: the table ([`Stud`]): antes, streets, no-limit betting capped by the shortest stack;
//! - `bots`: `expert`, `always-call`, `random`;
//! - `advise`: `arena advise stud` (wire `advise::AdviseArgs` and `advise::run`).
//!
//! Table options: `ante` (1), `stack` (100), `deck` ("full" or "short": 28 cards 8-A, same
//! ranking). Payoff: chips won or lost in the hand. games.csv columns: `cards` (the seat's hole
//! card then its face-up cards), `category` (its hand at showdown), `fold_street` (2-5).
//! Benches: `stud.eval5_per_s`, `stud.advice_last_street_us`, `stud.hands_per_s`.

pub(crate) mod advise;
mod bench;
pub(crate) mod bots;
pub(crate) mod engine;
pub(crate) mod eval;
mod luck;
pub(crate) mod odds;
mod report;
mod table;
#[cfg(test)]
mod tests;
mod wire;

pub use engine::{Action, State, Stud, View};

use crate::cards::CardSet;
use crate::core::bench::Bench;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{Adviser, BotKind, GameDef, ProtocolExample};
use crate::core::{DealRng, Headline, ParamSpec, Params, Seat, Unit};
use crate::error::{Error, Result};

use engine::{short_deck, MAX_SEATS};

impl GameDef for Stud {
    const NAME: &'static str = "stud";
    const ABOUT: &'static str =
        "Five-card stud (梭哈): one hole card, four face-up cards, no-limit up to the shortest stack (source: a rule-based expert system)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=MAX_SEATS;
    const ROSTER: &'static str = include_str!("../../../bots/stud.toml");
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> =
        Some(ProtocolExample { options: "", seats: 2, script: &["check"] });
    const BENCH_LINEUP: &'static [&'static str] = &["always-call", "always-call"];
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("ante", "1", "chips every seat puts in before the deal").range(0.0, 1e6),
        ParamSpec::new("stack", "100", "chips every seat starts the hand with (more than the ante)").range(1.0, 1e8),
        ParamSpec::new(
            "deck",
            "\"full\"",
            "\"full\": 52 cards; \"short\": the 28-card deck 8 to A (same ranking, no straight wraps)",
        )
        .choices(&["full", "short"]),
    ];

    fn from_options(p: &Params, seats: usize) -> Result<Stud> {
        // Ranges keep every pot (at most 5 stacks) inside a u32.
        let (ante, stack) = (p.i64("ante") as u32, p.i64("stack") as u32);
        if stack <= ante {
            return Err(Error::input(format!("stud: the stack ({stack}) must exceed the ante ({ante})")));
        }
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(Error::input(format!("stud is for 2 to {MAX_SEATS} seats, not {seats}")));
        }
        let deck = if p.str("deck") == "full" { CardSet::FULL } else { short_deck() };
        Ok(Stud::new(seats, ante, stack, deck))
    }

    fn payoff_label(&self) -> &'static str {
        "chips"
    }
    fn headline(&self) -> Headline {
        Headline::payoff(Unit::new("chips/hand", 1.0)).called("hand").edge(5.0)
    }

    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        report::section(games, names)
    }

    fn bot_kinds() -> Vec<BotKind<Stud>> {
        bots::BOT_KINDS.to_vec()
    }

    fn benches() -> Vec<Bench> {
        bench::benches()
    }

    fn adviser() -> Option<Adviser> {
        Some(Adviser::new(
            "Five-card stud: category, exact win probability against hidden cards, and the expert's advice",
            advise::run,
        ))
    }

    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State> {
        Stud::redeal_hidden(self, state, seat, rng)
    }

    fn conserved(&self, state: &Self::State) -> Option<u64> {
        Some(self.chips_in_play(state))
    }
}
