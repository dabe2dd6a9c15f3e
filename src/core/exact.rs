//! Exact best response where a game is small enough to walk whole (Kuhn poker, Leduc hold'em):
//! how much each seat's best response wins against bots that say their policy
//! ([`Bot::policy_at`]), and NashConv, the sum over seats of what a best response gains over the
//! bots' own value. NashConv is 0 exactly at an equilibrium; half of it (two seats, zero-sum) is
//! the exploitability, what a best response wins on average over the two seats.
//!
//! The walk: for the seat responding, every deal is followed through the other seats' policies,
//! keeping each history where the seat acts with its reach (the deal's chance times the others'
//! probabilities). Histories the seat cannot tell apart share an information set, named by what
//! the seat sees: its view as the protocol writes it ([`Wire::view_json`](crate::core::Wire::view_json)), which holds exactly
//! what the seat may know. The best action at an information set is the one of highest value
//! summed over its histories by reach, the values below computed with the best actions there
//! first (perfect recall: an information set's histories all lie above the later ones).

use std::collections::HashMap;

use crate::core::{Bot, GameDef, Seat};

/// A game whose chance acts only at the deal and whose deals can be listed: the exact best
/// response walks them all.
pub trait SmallGame: GameDef {
    /// Every deal (every way chance can fall), each as likely as the others.
    fn deals(&self) -> Vec<Self::State>;
}

/// What the walk found, per seat and in all.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploitability {
    /// What a best response in each seat wins against the bots in the other seats, per game.
    pub best_response: Vec<f64>,
    /// What the bots themselves win in each seat, per game.
    pub value: Vec<f64>,
    /// Σ over seats of best response − value; 0 at an equilibrium.
    pub nash_conv: f64,
    /// Information sets the walk met, over every seat.
    pub infosets: usize,
}

/// An information set: the seat and its view as JSON.
type Key = (Seat, String);

struct Walk<'a, G: SmallGame> {
    game: &'a G,
    bots: &'a mut [Box<dyn Bot<G>>],
    /// The seat responding.
    me: Seat,
    /// Each of the seat's information sets: its histories with their reach.
    histories: HashMap<Key, Vec<(G::State, f64)>>,
    best: HashMap<Key, G::Action>,
    legal: Vec<G::Action>,
}

impl<G: SmallGame> Walk<'_, G> {
    fn key(&self, state: &G::State, seat: Seat) -> Key {
        let view = self.game.view(state, seat);
        let json = serde_json::to_string(&self.game.view_json(&view)).expect("a view is written as JSON");
        (seat, json)
    }

    fn legal(&mut self, state: &G::State) -> Vec<G::Action> {
        self.game.legal_actions(state, &mut self.legal);
        self.legal.clone()
    }

    fn child(&self, state: &G::State, action: &G::Action) -> G::State {
        let mut next = state.clone();
        self.game.apply(&mut next, action).expect("legal and policy actions are accepted");
        next
    }

    /// The policy of the bot in `seat` at `state`; `None` when it cannot say.
    fn policy(&mut self, state: &G::State, seat: Seat) -> Option<Vec<(G::Action, f64)>> {
        let mut out = Vec::new();
        let view = self.game.view(state, seat);
        self.bots[seat].policy_at(self.game, &view, &mut out).then_some(out)
    }

    /// Every history where the responding seat acts, with its reach.
    fn collect(&mut self, state: &G::State, reach: f64) -> Result<(), Seat> {
        let Some(seat) = self.game.to_act(state) else { return Ok(()) };
        if seat == self.me {
            let key = self.key(state, seat);
            self.histories.entry(key).or_default().push((state.clone(), reach));
            for action in self.legal(state) {
                self.collect(&self.child(state, &action), reach)?;
            }
        } else {
            for (action, p) in self.policy(state, seat).ok_or(seat)? {
                if p > 0.0 {
                    self.collect(&self.child(state, &action), reach * p)?;
                }
            }
        }
        Ok(())
    }

    /// The responding seat's value at `state` with its best actions.
    fn value(&mut self, state: &G::State) -> f64 {
        let Some(seat) = self.game.to_act(state) else { return self.game.outcome(state).payoff[self.me] };
        if seat == self.me {
            let action = self.best_action(state);
            self.value(&self.child(state, &action))
        } else {
            let policy = self.policy(state, seat).expect("asked in `collect`");
            policy.iter().filter(|(_, p)| *p > 0.0).map(|(a, p)| p * self.value(&self.child(state, a))).sum()
        }
    }

    /// The best action at `state`'s information set, the first of the best on ties.
    fn best_action(&mut self, state: &G::State) -> G::Action {
        let key = self.key(state, self.me);
        if let Some(action) = self.best.get(&key) {
            return action.clone();
        }
        let histories = self.histories.get(&key).cloned().unwrap_or_else(|| vec![(state.clone(), 0.0)]);
        let mut best: Option<(G::Action, f64)> = None;
        for action in self.legal(state) {
            let total: f64 = histories.iter().map(|(h, reach)| reach * self.value(&self.child(h, &action))).sum();
            if best.as_ref().is_none_or(|(_, b)| total > *b + 1e-12) {
                best = Some((action, total));
            }
        }
        let action = best.expect("a seat to act has an action").0;
        self.best.insert(key, action.clone());
        action
    }

    /// What the bots win in `seat` playing themselves.
    fn expected(&mut self, state: &G::State, seat: Seat) -> f64 {
        let Some(acting) = self.game.to_act(state) else { return self.game.outcome(state).payoff[seat] };
        let policy = self.policy(state, acting).expect("asked in `collect`");
        policy.iter().filter(|(_, p)| *p > 0.0).map(|(a, p)| p * self.expected(&self.child(state, a), seat)).sum()
    }
}

/// The exact best response of every seat against `bots` (one a seat, each saying its policy),
/// over every deal of `game`. `Err(seat)`: the bot in that seat cannot say its policy.
pub fn exploitability<G: SmallGame>(game: &G, bots: &mut [Box<dyn Bot<G>>]) -> Result<Exploitability, Seat> {
    let deals = game.deals();
    let chance = 1.0 / deals.len() as f64;
    let seats = bots.len();
    let (mut best_response, mut value, mut infosets) = (Vec::new(), Vec::new(), 0);
    for me in 0..seats {
        let mut walk =
            Walk { game, bots: &mut *bots, me, histories: HashMap::new(), best: HashMap::new(), legal: Vec::new() };
        for deal in &deals {
            walk.collect(deal, chance)?;
        }
        best_response.push(deals.iter().map(|d| chance * walk.value(d)).sum());
        value.push(deals.iter().map(|d| chance * walk.expected(d, me)).sum());
        infosets += walk.histories.len();
    }
    let nash_conv = best_response.iter().zip(&value).map(|(b, v)| b - v).sum();
    Ok(Exploitability { best_response, value, nash_conv, infosets })
}
