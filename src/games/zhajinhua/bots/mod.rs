//! Zhajinhua bots: the series' EV AI (`ev`, `ev-adaptive`) and the baselines.

mod baseline;
mod belief;
mod ev;

pub use baseline::{AlwaysCall, RandomBot, Threshold};
pub use ev::{EvBot, EvConfig};

use crate::games::BotKind;

use super::Zhajinhua;

pub static KINDS: &[BotKind<Zhajinhua>] =
    &[ev::EV, ev::EV_ADAPTIVE, baseline::ALWAYS_CALL, baseline::RANDOM, baseline::THRESHOLD];
