//! Zhajinhua (炸金花, three-card poker): rules per docs/book/src/rules/zhajinhua.md.
//!
//! - `eval`: one comparable integer per hand (the `special_235` rule on top);
//! - `winprob`: exact heads-up win probability (table), exact against two, Monte Carlo against k;
//! - `table`: the betting rules, the [`Zhajinhua`] game;
//! - `bots`: `ev`, `ev-adaptive`, `always-call`, `random`, `threshold`;
//! - `advise`: `arena advise zhajinhua`.

pub(crate) mod advise;
mod bench;
pub(crate) mod bots;
pub(crate) mod engine;
pub(crate) mod eval;
mod luck;
mod report;
mod table;
pub(crate) mod winprob;
mod wire;

#[cfg(test)]
mod measure;

pub use engine::{Action, Event, Public, State, View, Zhajinhua};

use crate::core::bench::Bench;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{Adviser, BotKind, GameDef, ProtocolExample};
use crate::core::{DealRng, Headline, ParamSpec, Params, Seat, Unit};
use crate::error::{Error, Result};

use engine::MAX_SEATS;

impl GameDef for Zhajinhua {
    const NAME: &'static str = "zhajinhua";
    const ABOUT: &'static str =
        "Zhajinhua (炸金花), three-card poker: blind and seen seats, compare; 2-6 seats (source: an EV-based AI series)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=MAX_SEATS;
    const ROSTER: &'static str = include_str!("../../../bots/zhajinhua.toml");
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> =
        Some(ProtocolExample { options: "", seats: 3, script: &["call", "look"] });
    const BENCH_LINEUP: &'static [&'static str] = &["always-call", "always-call"];
    const OPTIONS: &'static [ParamSpec] = &[
        ParamSpec::new("ante", "1", "chips each seat puts in before the deal (less than the stack)").range(1.0, 1e6),
        ParamSpec::new("stack", "100", "chips each seat starts the hand with").range(2.0, 1e6),
        ParamSpec::new(
            "stakes",
            "[1, 2, 5, 10]",
            "the stake ladder in blind units, increasing; the first is the opening stake",
        )
        .range(1.0, 1e6),
        ParamSpec::new("seen_multiplier", "2", "a seat that has looked pays this many times the stake")
            .range(1.0, 100.0),
        ParamSpec::new("round_cap", "20", "betting rounds before the forced showdown").range(1.0, 1000.0),
        ParamSpec::new("compare_from_round", "2", "the first round in which a seat may ask to compare")
            .range(1.0, 1000.0),
        ParamSpec::new("blind_may_compare_seen", "false", "whether a blind seat may ask a seen seat to compare"),
        ParamSpec::new("special_235", "false", "2-3-5 of mixed suits beats a leopard (and loses to everything else)"),
    ];

    fn from_options(o: &Params, seats: usize) -> Result<Zhajinhua> {
        let (stack, ante) = (o.i64("stack"), o.i64("ante"));
        if ante >= stack {
            return Err(Error::input(format!("zhajinhua: the ante ({ante}) must be less than the stack ({stack})")));
        }
        // Ranges keep stakes × multiplier × rounds × seats far inside an i64.
        let stakes = o.i64s("stakes");
        if stakes.is_empty() || stakes.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::input(format!("zhajinhua: `stakes` must be positive and increasing, not {stakes:?}")));
        }
        if !(2..=MAX_SEATS).contains(&seats) {
            return Err(Error::input(format!("zhajinhua: 2 to {MAX_SEATS} seats, not {seats}")));
        }
        Ok(Zhajinhua {
            seats,
            ante,
            stack,
            stakes,
            seen_multiplier: o.i64("seen_multiplier"),
            round_cap: o.i64("round_cap") as u32,
            compare_from_round: o.i64("compare_from_round") as u32,
            blind_may_compare_seen: o.bool("blind_may_compare_seen"),
            special_235: o.bool("special_235"),
        })
    }

    fn payoff_label(&self) -> &'static str {
        "chips"
    }
    fn headline(&self) -> Headline {
        Headline::payoff(Unit::new("chips/hand", 1.0)).called("hand").edge(1.0)
    }

    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        report::section(games, names)
    }

    fn bot_kinds() -> Vec<BotKind<Zhajinhua>> {
        bots::BOT_KINDS.to_vec()
    }

    fn benches() -> Vec<Bench> {
        bench::benches()
    }

    fn adviser() -> Option<Adviser> {
        Some(Adviser::new("Zhajinhua: category, strength value and win probability of a three-card hand; with --pot, the expected chips of every action the ev bot weighs", advise::run))
    }

    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State> {
        Zhajinhua::redeal_hidden(self, state, seat, rng)
    }

    fn conserved(&self, state: &Self::State) -> Option<u64> {
        Some(self.chips_in_play(state))
    }
}

/// The roster of named variants (bots/zhajinhua.toml), checked by the tests below.
#[cfg(test)]
const ROSTER: &str = include_str!("../../../bots/zhajinhua.toml");

#[cfg(test)]
mod tests {
    use crate::core::GameDef;
    use crate::core::Params;

    use super::Zhajinhua;

    #[test]
    fn roster_and_configs_name_known_bots_and_valid_options() {
        let roster: toml::Table = toml::from_str(super::ROSTER).unwrap();
        for (name, v) in &roster {
            let kind = v["kind"].as_str().unwrap();
            let k = super::bots::BOT_KINDS.iter().find(|k| k.name == kind).unwrap_or_else(|| panic!("{name}: {kind}"));
            let params = v.get("params").and_then(|p| p.as_table()).cloned().unwrap_or_default();
            Params::new(k.params, &params, name).unwrap();
        }
        for config in [
            include_str!("../../../configs/zhajinhua-3.toml"),
            include_str!("../../../configs/zhajinhua-4.toml"),
            include_str!("../../../configs/zhajinhua-6.toml"),
            include_str!("../../../configs/zhajinhua-headsup.toml"),
        ] {
            let c: toml::Table = toml::from_str(config).unwrap();
            assert_eq!(c["game"].as_str(), Some("zhajinhua"));
            let table = c.get("table").and_then(|t| t.as_table()).cloned().unwrap_or_default();
            let options = Params::new(Zhajinhua::OPTIONS, &table, "zhajinhua").unwrap();
            Zhajinhua::from_options(&options, c["seats"].as_integer().unwrap() as usize).unwrap();
            for b in c["bots"].as_array().unwrap() {
                let name = b.as_str().unwrap();
                assert!(roster.contains_key(name) || super::bots::BOT_KINDS.iter().any(|k| k.name == name), "{name}");
            }
        }
    }
}
