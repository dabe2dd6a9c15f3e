//! Baselines (rules file, "Bots"): always-call, random, threshold.

use rand::Rng;

use crate::core::{factory, BotFactory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::Result;

use super::super::engine::{Action, View, Zhajinhua};
use super::super::eval::{strength, Category};

pub const ALWAYS_CALL: BotKind<Zhajinhua> = BotKind {
    name: "always-call",
    about: "never looks, never compares, calls every time",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysCall)),
};

pub struct AlwaysCall;

impl Bot<Zhajinhua> for AlwaysCall {
    fn act(&mut self, _: &Zhajinhua, _: &View<'_>, _: &mut BotRng) -> Action {
        Action::Call
    }
}

pub const RANDOM: BotKind<Zhajinhua> = BotKind {
    name: "random",
    about: "a uniformly random legal action (look, fold, call, each raise, each compare)",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot { legal: Vec::with_capacity(16) })),
};

pub struct RandomBot {
    legal: Vec<Action>,
}

impl Bot<Zhajinhua> for RandomBot {
    fn act(&mut self, game: &Zhajinhua, view: &View<'_>, rng: &mut BotRng) -> Action {
        game.legal(view.public, &mut self.legal);
        self.legal[rng.random_range(0..self.legal.len())]
    }

    /// Uniform over the legal list of the last decision (its actions are distinct).
    fn policy(&self, _: &Zhajinhua, _: &View<'_>, out: &mut Vec<(Action, f64)>) {
        let p = 1.0 / self.legal.len() as f64;
        out.extend(self.legal.iter().map(|&a| (a, p)));
    }
}

const CATEGORIES: [&str; 6] = ["high card", "pair", "straight", "flush", "straight flush", "leopard"];

pub const THRESHOLD_PARAMS: &[ParamSpec] = &[
    ParamSpec::new("play_from", "\"pair\"", "the weakest category played; weaker hands fold after looking")
        .choices(&CATEGORIES),
    ParamSpec::new("raise_from", "\"leopard\"", "the weakest category that raises to the top stake instead of calling")
        .choices(&CATEGORIES),
];

pub const THRESHOLD: BotKind<Zhajinhua> = BotKind {
    name: "threshold",
    about: "looks at once, folds below a category (pair), calls otherwise; never compares",
    params: THRESHOLD_PARAMS,
    make: make_threshold,
};

fn category(p: &Params, name: &str) -> Result<Category> {
    let chosen = p.str(name);
    Ok(Category::ALL[CATEGORIES.iter().position(|&c| c == chosen).expect("a declared choice")])
}

fn make_threshold(p: &Params, _: &Zhajinhua) -> Result<BotFactory<Zhajinhua>> {
    let (play_from, raise_from) = (category(p, "play_from")?, category(p, "raise_from")?);
    Ok(factory(move || Threshold { play_from, raise_from }))
}

pub struct Threshold {
    play_from: Category,
    raise_from: Category,
}

impl Bot<Zhajinhua> for Threshold {
    fn act(&mut self, game: &Zhajinhua, view: &View<'_>, _: &mut BotRng) -> Action {
        let Some(cards) = view.cards else { return Action::Look };
        let cat = Category::of(strength(cards));
        let p = view.public;
        let top = *game.stakes.last().expect("a stake ladder");
        if cat < self.play_from {
            Action::Fold
        } else if cat >= self.raise_from && top > p.stake && top * game.seen_multiplier <= p.stack[view.seat] {
            Action::Raise(top)
        } else {
            Action::Call
        }
    }
}
