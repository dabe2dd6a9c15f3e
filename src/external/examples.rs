//! The protocol's messages for a game's documented position ([`crate::core::ProtocolExample`]):
//! what docs/book/src/protocol.md shows, made the way the host makes them, so a test can hold the document
//! to the host for every registered game.

use serde::Serialize;

use crate::core::wire::Texts;
use crate::core::{GameDef, GameEnd, Outcome, Params, Status};
use crate::external::protocol::message;

/// Game `G` at `seats` seats with the table options `options` (TOML), dealt from seed 1, after
/// the actions of `script`.
pub fn scripted<G: GameDef>(options: &str, seats: usize, script: &[&str]) -> (G, Params, G::State) {
    let options = Params::new(G::OPTIONS, &toml::from_str(options).unwrap(), G::NAME).unwrap();
    let game = G::from_options(&options, seats).unwrap();
    let mut state = game.deal(&mut crate::core::GameSeeds::derive(1, 0, 0, 1).deal_rng());
    for text in script {
        let action = game.parse_action(text).unwrap();
        game.apply(&mut state, &action).unwrap();
    }
    (game, options, state)
}

/// A message as the host writes it, without the newline.
pub fn line(message: impl Serialize) -> String {
    serde_json::to_string(&message).expect("messages serialise")
}

/// Plays on with the first of `check`, `call`, `win`, `pass` that is legal (else the first legal
/// action) and returns the `game_over` message.
fn played_out<G: GameDef>(game: &G, state: &mut G::State) -> String {
    while let Some(seat) = game.to_act(state) {
        let legal = game.legal_texts(&game.view(state, seat));
        let pick = ["check", "call", "win", "pass"].iter().find(|p| legal.iter().any(|l| l == *p));
        let text = pick.map_or(legal[0].clone(), |p| p.to_string());
        game.apply(state, &game.parse_action(&text).unwrap()).unwrap();
    }
    let outcome: Outcome = game.outcome(state);
    line(message::game_over(game, state, &GameEnd { outcome: &outcome, status: &Status::Ok }))
}

/// The `act` message of the seat to act in `state`.
pub fn act<G: GameDef>(game: &G, state: &G::State) -> String {
    let seat = game.to_act(state).unwrap();
    let view = game.view(state, seat);
    let mut legal = Texts::default();
    game.write_legal(&view, &mut legal);
    line(message::Act { view: game.view_json(&view), legal: &legal })
}

/// The `act` message of the seat to act after `script`, and the `game_over` of the game played on.
fn act_and_end<G: GameDef>(options: &str, seats: usize, script: &[&str]) -> [(String, String); 2] {
    let (game, _, mut state) = scripted::<G>(options, seats, script);
    let act = act(&game, &state);
    [(format!("{} act", G::NAME), act), (format!("{} game_over", G::NAME), played_out(&game, &mut state))]
}

/// The documented `act` and `game_over` messages of game `G`, named `"<game> act"` and
/// `"<game> game_over"`; `None` when the game documents none.
pub fn protocol_examples<G: GameDef>() -> Option<[(String, String); 2]> {
    let ex = G::PROTOCOL_EXAMPLE?;
    Some(act_and_end::<G>(ex.options, ex.seats, ex.script))
}
