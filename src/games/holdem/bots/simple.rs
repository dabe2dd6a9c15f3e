//! Baselines: always check/call, always raise (the minimum), always all-in, and uniformly random
//! over the legal kinds of action (fold when something is owed, check/call, raise).

use rand::Rng;

use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng};

use super::super::{Action, Holdem, View};

pub const ALWAYS_CALL: BotKind<Holdem> = BotKind {
    name: "always-call",
    about: "checks or calls every bet",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysCall)),
};

pub const ALWAYS_RAISE: BotKind<Holdem> = BotKind {
    name: "always-raise",
    about: "raises the minimum whenever raising is allowed, else calls",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysRaise)),
};

pub const ALL_IN: BotKind<Holdem> = BotKind {
    name: "all-in",
    about: "puts every chip in at its first chance, then calls",
    params: &[],
    make: |_, _| Ok(factory(|| AllIn)),
};

pub const RANDOM: BotKind<Holdem> = BotKind {
    name: "random",
    about: "a uniformly random legal kind of action (fold only when something is owed); raises to a uniform amount",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot)),
};

pub struct AlwaysCall;
pub struct AlwaysRaise;
pub struct AllIn;
pub struct RandomBot;

impl Bot<Holdem> for AlwaysCall {
    fn act(&mut self, _: &Holdem, _: &View<'_>, _: &mut BotRng) -> Action {
        Action::CheckCall
    }
}

impl Bot<Holdem> for AlwaysRaise {
    fn act(&mut self, _: &Holdem, v: &View<'_>, _: &mut BotRng) -> Action {
        v.raise_bounds().map_or(Action::CheckCall, |(min, _)| Action::RaiseTo(min))
    }
}

impl Bot<Holdem> for AllIn {
    fn act(&mut self, _: &Holdem, v: &View<'_>, _: &mut BotRng) -> Action {
        v.raise_bounds().map_or(Action::CheckCall, |(_, max)| Action::RaiseTo(max))
    }
}

impl Bot<Holdem> for RandomBot {
    fn act(&mut self, _: &Holdem, v: &View<'_>, rng: &mut BotRng) -> Action {
        let can_fold = v.to_call() > 0;
        let raise = v.raise_bounds();
        let kinds = 1 + can_fold as u32 + raise.is_some() as u32;
        let mut k = rng.random_range(0..kinds);
        if !can_fold {
            k += 1;
        }
        match (k, raise) {
            (0, _) => Action::Fold,
            (2, Some((min, max))) => Action::RaiseTo(rng.random_range(min..=max)),
            _ => Action::CheckCall,
        }
    }
}
