//! Gomoku (五子棋): rules per ../shared/rules/gomoku.md.

mod board;
pub mod bots;

pub use board::{Gomoku, Move, Rule, State};

/// `arena bench gomoku`: filled in with the weights bot.
pub fn benches() -> Vec<crate::bench::Bench> {
    Vec::new()
}
