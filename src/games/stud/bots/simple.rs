//! Baselines: always call (never fold, never raise), and a uniformly random choice.

use rand::Rng;

use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng};

use super::super::engine::{Action, Stud, View};

pub const ALWAYS_CALL: BotKind<Stud> = BotKind {
    name: "always-call",
    about: "checks when free, calls otherwise; never folds or raises",
    params: &[],
    make: |_, _| Ok(factory(|| AlwaysCall)),
};

pub const RANDOM: BotKind<Stud> = BotKind {
    name: "random",
    about: "a uniformly random choice among fold (when facing a bet), check/call, min bet, pot bet, show hand",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot { actions: Vec::with_capacity(6) })),
};

pub struct AlwaysCall;

impl Bot<Stud> for AlwaysCall {
    fn act(&mut self, _game: &Stud, view: &View<'_>, _rng: &mut BotRng) -> Action {
        if view.to_call() == 0 {
            Action::Check
        } else {
            Action::Call
        }
    }
}

pub struct RandomBot {
    /// Reused between decisions.
    actions: Vec<Action>,
}

impl Bot<Stud> for RandomBot {
    fn act(&mut self, game: &Stud, view: &View<'_>, rng: &mut BotRng) -> Action {
        view.legal_actions(game, &mut self.actions);
        self.actions[rng.random_range(0..self.actions.len())]
    }

    /// Uniform over the last decision's actions (they are distinct).
    fn policy(&self, _game: &Stud, _view: &View<'_>, out: &mut Vec<(Action, f64)>) {
        let p = 1.0 / self.actions.len() as f64;
        out.extend(self.actions.iter().map(|&a| (a, p)));
    }
}
