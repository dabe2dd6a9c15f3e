//! Gomoku bots.

mod random;

use crate::games::BotKind;

use super::Gomoku;

pub static KINDS: &[BotKind<Gomoku>] = &[random::KIND, random::ADJACENT_KIND];
