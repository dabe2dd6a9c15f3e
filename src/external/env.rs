//! A game played one action at a time by a caller outside the tournament: the environment of
//! Python's `bot_arena.Game` (and its PettingZoo adapter), for any registered game. What a seat
//! sees is the protocol's `act` message (docs/book/src/protocol.md) and an action is its text, so
//! an environment, an in-process bot and a program over the protocol see the same fields.

use std::sync::Arc;

use serde_json::Value;

use crate::core::wire::Texts;
use crate::core::{GameDef, GameEnd, GameSeeds, Outcome, Seat, Status};
use crate::external::protocol::{judge_answer, message};

/// One game in play, erased ([`crate::registry::GameEntry::env`]).
pub trait GameEnv: Send {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// Deals a new game from `seeds` (the deal a run's game with these seeds is dealt).
    fn reset(&mut self, seeds: &GameSeeds);
    /// The seat to act; `None` once the game is over.
    fn to_act(&self) -> Option<Seat>;
    /// What `seat` sees, as the protocol's `act` message: `{"type": "act", "view": ..., "legal":
    /// [...]}`, the legal actions listed only when it is the seat's turn (empty otherwise).
    fn observation(&self, seat: Seat) -> Value;
    /// The legal actions of the seat to act, as texts (empty once the game is over).
    fn legal(&self) -> Vec<String>;
    /// Plays `action` (a text in the game's notation) for the seat to act; refused with the
    /// reason (and the legal list) the protocol would give, leaving the game as it was.
    fn step(&mut self, action: &str) -> Result<(), String>;
    /// Every seat's payoff and place once the game is over.
    fn outcome(&self) -> Option<(Vec<f64>, Vec<u32>)>;
    /// The protocol's `game_over` message once the game is over (payoffs, places, what the rules
    /// reveal).
    fn game_over(&self) -> Option<Value>;
    /// Everything chance decided at the deal, hidden cards included (records.jsonl's `deal`).
    fn deal(&self) -> Value;
    /// An independent copy of the game in its present state.
    fn boxed_clone(&self) -> Box<dyn GameEnv>;
}

/// A game of type `G` in play.
pub(crate) struct Env<G: GameDef> {
    game: Arc<G>,
    state: G::State,
    dealt: G::State,
}

impl<G: GameDef> Env<G> {
    /// Game `game`, dealt from `seeds`.
    pub(crate) fn new(game: G, seeds: &GameSeeds) -> Env<G> {
        let state = game.deal_numbered(seeds.deal_index, &mut seeds.deal_rng());
        Env { game: Arc::new(game), dealt: state.clone(), state }
    }
}

impl<G: GameDef> GameEnv for Env<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn reset(&mut self, seeds: &GameSeeds) {
        self.state = self.game.deal_numbered(seeds.deal_index, &mut seeds.deal_rng());
        self.dealt = self.state.clone();
    }
    fn to_act(&self) -> Option<Seat> {
        self.game.to_act(&self.state)
    }
    fn observation(&self, seat: Seat) -> Value {
        let view = self.game.view(&self.state, seat);
        let mut legal = Texts::default();
        if self.to_act() == Some(seat) {
            self.game.write_legal(&view, &mut legal);
        }
        serde_json::to_value(message::Act { view: self.game.view_json(&view), legal: &legal }).expect("views serialise")
    }
    fn legal(&self) -> Vec<String> {
        match self.to_act() {
            Some(seat) => self.game.legal_texts(&self.game.view(&self.state, seat)),
            None => Vec::new(),
        }
    }
    fn step(&mut self, action: &str) -> Result<(), String> {
        let seat = self.to_act().ok_or_else(|| format!("the game is over: no seat is to act (`{action}`)"))?;
        let action = {
            let view = self.game.view(&self.state, seat);
            let mut legal = Texts::default();
            self.game.write_legal(&view, &mut legal);
            judge_answer(&*self.game, &view, &legal, action, None, &mut Vec::new()).map_err(|f| f.to_string())?
        };
        self.game.apply(&mut self.state, &action).map_err(|e| format!("illegal action: {e}"))
    }
    fn outcome(&self) -> Option<(Vec<f64>, Vec<u32>)> {
        if self.to_act().is_some() {
            return None;
        }
        let Outcome { payoff, place } = self.game.outcome(&self.state);
        Some((payoff.to_vec(), place.to_vec()))
    }
    fn game_over(&self) -> Option<Value> {
        if self.to_act().is_some() {
            return None;
        }
        let outcome = self.game.outcome(&self.state);
        let end = GameEnd { outcome: &outcome, status: &Status::Ok };
        Some(serde_json::to_value(message::game_over(&*self.game, &self.state, &end)).expect("messages serialise"))
    }
    fn deal(&self) -> Value {
        serde_json::to_value(self.game.deal_json(&self.dealt)).expect("deals serialise")
    }
    fn boxed_clone(&self) -> Box<dyn GameEnv> {
        Box::new(Env { game: Arc::clone(&self.game), state: self.state.clone(), dealt: self.dealt.clone() })
    }
}
