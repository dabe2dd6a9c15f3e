//! Baselines: always check/call, always fold when something is owed, always raise (the minimum),
//! always all-in, and uniformly random over the legal kinds of action (fold when something is
//! owed, check/call, raise). Each says its policy exactly ([`Bot::policy_at`]).

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

pub const ALWAYS_FOLD: BotKind<Holdem> = BotKind {
    name: "always-fold",
    about: "folds whenever something is owed, else checks (the oracle of `arena exploit`: it loses its blinds)",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysFold)),
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
pub struct AlwaysFold;
pub struct AlwaysRaise;
pub struct AllIn;
pub struct RandomBot;

/// A bot that plays one action for sure says so: its policy is that action with probability one.
fn certain(game: &Holdem, bot: &mut impl Bot<Holdem>, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
    // None of these bots draws from its stream, so any stream will do.
    let action = bot.act(game, v, &mut <BotRng as rand::SeedableRng>::seed_from_u64(0));
    out.push((action, 1.0));
    true
}

impl Bot<Holdem> for AlwaysCall {
    fn act(&mut self, _: &Holdem, _: &View<'_>, _: &mut BotRng) -> Action {
        Action::CheckCall
    }
    fn policy_at(&mut self, game: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        certain(game, self, v, out)
    }
}

impl Bot<Holdem> for AlwaysFold {
    fn act(&mut self, _: &Holdem, v: &View<'_>, _: &mut BotRng) -> Action {
        if v.to_call() > 0 {
            Action::Fold
        } else {
            Action::CheckCall
        }
    }
    fn policy_at(&mut self, game: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        certain(game, self, v, out)
    }
}

impl Bot<Holdem> for AlwaysRaise {
    fn act(&mut self, _: &Holdem, v: &View<'_>, _: &mut BotRng) -> Action {
        v.raise_bounds().map_or(Action::CheckCall, |(min, _)| Action::RaiseTo(min))
    }
    fn policy_at(&mut self, game: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        certain(game, self, v, out)
    }
}

impl Bot<Holdem> for AllIn {
    fn act(&mut self, _: &Holdem, v: &View<'_>, _: &mut BotRng) -> Action {
        v.raise_bounds().map_or(Action::CheckCall, |(_, max)| Action::RaiseTo(max))
    }
    fn policy_at(&mut self, game: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        certain(game, self, v, out)
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

    /// Each legal kind with the same chance; a raise's amount uniform over the legal range, so
    /// every amount is listed with its share.
    fn policy_at(&mut self, _: &Holdem, v: &View<'_>, out: &mut Vec<(Action, f64)>) -> bool {
        let can_fold = v.to_call() > 0;
        let raise = v.raise_bounds();
        let kind = 1.0 / (1 + can_fold as u32 + raise.is_some() as u32) as f64;
        if can_fold {
            out.push((Action::Fold, kind));
        }
        out.push((Action::CheckCall, kind));
        if let Some((min, max)) = raise {
            let each = kind / f64::from(max - min + 1);
            out.extend((min..=max).map(|to| (Action::RaiseTo(to), each)));
        }
        true
    }
}
