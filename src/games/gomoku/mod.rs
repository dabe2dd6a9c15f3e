//! Gomoku (五子棋): rules per ../shared/rules/gomoku.md.

mod board;
pub mod bots;

pub use board::{Gomoku, Move, Rule, State};
