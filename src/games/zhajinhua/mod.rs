//! Zhajinhua (炸金花, three-card poker): rules per ../shared/rules/zhajinhua.md.
//!
//! - [`eval`]: one comparable integer per hand (the `special_235` rule on top);
//! - [`winprob`]: exact heads-up win probability (table), exact against two, Monte Carlo against k;
//! - [`table`]: the betting rules, the [`Zhajinhua`] game;
//! - [`bots`]: `ev`, `ev-adaptive`, `always-call`, `random`, `threshold`;
//! - [`advise`]: `arena advise zhajinhua`.

pub mod advise;
mod bench;
pub mod bots;
pub mod eval;
pub mod table;
pub mod winprob;

#[cfg(test)]
mod measure;

pub use table::{Action, Event, Public, State, View, Zhajinhua};

pub use bench::benches;
