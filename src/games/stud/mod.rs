//! Five-card stud (梭哈, "show hand"): rules per ../shared/rules/stud.md, from the rule-based expert
//! system of source document 000 (without its bugs: ties are ties, one advice, no runaway loops).
//!
//! - [`eval`]: one comparable integer per hand (and per partial hand, for who acts first);
//! - [`odds`]: the exact win probability (Monte Carlo above a budget);
//! - [`engine`]: the table ([`Stud`]): antes, streets, no-limit betting capped by the shortest stack;
//! - [`bots`]: `expert`, `always-call`, `random`;
//! - [`advise`]: `arena advise stud`.

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
