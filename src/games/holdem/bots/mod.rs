//! Hold'em bots: the source's RR mapping (`rr`), the simple baselines the source tests it against,
//! and local best response (`lbr`), which measures how much a bot that says its policy can be beaten.

pub(crate) mod lbr;
pub(crate) mod rr;
mod simple;

use crate::core::BotKind;

use super::Holdem;

pub use rr::{RrBot, RrConfig};

pub static BOT_KINDS: &[BotKind<Holdem>] = &[
    rr::KIND,
    simple::ALWAYS_CALL,
    simple::ALWAYS_FOLD,
    simple::ALWAYS_RAISE,
    simple::ALL_IN,
    simple::RANDOM,
    lbr::KIND,
    super::acpc::kind::KIND,
];

/// An always-call bot (for benches and tests).
pub fn always_call() -> simple::AlwaysCall {
    simple::AlwaysCall
}

/// A uniformly random bot (for tests).
#[cfg(test)]
pub fn random() -> simple::RandomBot {
    simple::RandomBot
}

/// An all-in bot (for tests).
#[cfg(test)]
pub fn all_in() -> simple::AllIn {
    simple::AllIn
}
