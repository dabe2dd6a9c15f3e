//! Five-card stud (梭哈, "show hand"): rules per ../shared/rules/stud.md, from the rule-based expert
//! system of source document 000 (without its bugs: ties are ties, one advice, no runaway loops).
//!
//! - [`eval`]: one comparable integer per hand (and per partial hand, for who acts first);
//! - [`odds`]: the exact win probability (Monte Carlo above a budget);
//! - [`engine`]: the table ([`Stud`]): antes, streets, no-limit betting capped by the shortest stack;
//! - [`bots`]: `expert`, `always-call`, `random`;
//! - [`advise`]: `arena advise stud` (wire [`advise::AdviseArgs`] and [`advise::run`]).
//!
//! Table options: `ante` (1), `stack` (100), `deck` ("full" or "short": 28 cards 8-A, same
//! ranking). Payoff: chips won or lost in the hand. games.csv columns: `cards` (the seat's hole
//! card then its face-up cards), `category` (its hand at showdown), `fold_street` (2-5).
//! Benches: `stud.eval5_per_s`, `stud.advice_last_street_us`, `stud.hands_per_s`.

pub mod advise;
mod bench;
pub mod bots;
pub mod engine;
pub mod eval;
pub mod odds;
#[cfg(test)]
mod tests;

pub use engine::{Action, State, Stud, View};

pub use bench::benches;
