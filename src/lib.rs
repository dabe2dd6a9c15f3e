//! bot-arena: deterministic, parallel tournaments between game-playing bots.
//!
//! Module map (see ARCHITECTURE.md): `core` knows no game; `cards` is shared by the card games;
//! `games` holds one folder per game and the registry; `external` speaks to bots outside the
//! process; `tournament` turns a config into jobs and runs them; `stats` is pure statistics; `report` writes CSV; `cli` is the command line.

pub mod cards;
pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub(crate) mod external;
pub mod games;
pub(crate) mod human;
pub mod registry;
pub mod report;
pub mod stats;
pub mod tournament;

pub use registry::Arena;
