//! Gomoku bots.

mod random;
pub mod search;
mod tally;
pub mod weights;

use crate::core::BotKind;

use super::Gomoku;

pub static BOT_KINDS: &[BotKind<Gomoku>] = &[random::KIND, random::ADJACENT_KIND, weights::KIND, search::KIND];
