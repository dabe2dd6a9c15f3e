//! Stud bots: the document's expert and two baselines.

pub mod expert;
mod simple;

use crate::core::BotKind;

use super::Stud;

pub static BOT_KINDS: &[BotKind<Stud>] = &[expert::KIND, simple::ALWAYS_CALL, simple::RANDOM];
