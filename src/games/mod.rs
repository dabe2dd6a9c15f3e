//! The games, one folder each, and the registry ([`Arena`]) the tournament and the command line
//! see them through. A game plugs in by implementing [`GameDef`] (name, options, bot kinds,
//! roster, benchmarks, adviser) in its own `mod.rs` and adding one line to [`Arena::standard`].

pub mod conformance;
#[cfg(test)]
pub mod duplicate;
mod registry;

pub mod gomoku;
pub mod holdem;
pub mod mahjong;
pub mod stud;
pub mod zhajinhua;

pub use registry::{
    factory, Advice, Adviser, Arena, BotChoice, BotFactory, BotKind, BotListing, GameDef, GameEntry, Table,
};

impl Arena {
    /// The project's five games, in the order `arena list` shows them: the one place that lists them.
    pub fn standard() -> Arena {
        Arena::empty()
            .game::<holdem::Holdem>()
            .game::<stud::Stud>()
            .game::<zhajinhua::Zhajinhua>()
            .game::<gomoku::Gomoku>()
            .game::<mahjong::Mahjong>()
    }
}
