//! Gomoku bots.

mod random;
pub(crate) mod search;
mod tally;
pub(crate) mod weights;

use crate::core::BotKind;

use super::Gomoku;

/// Gomoku's bot kinds: `random`, `adjacent`, `weights`, `search`.
pub static BOT_KINDS: &[BotKind<Gomoku>] = &[random::KIND, random::ADJACENT_KIND, weights::KIND, search::KIND];
