//! An external bot's answer line (`{"action": "..."}`): every game reads the action or refuses
//! it, never a panic.
#![no_main]

use std::sync::OnceLock;

use bot_arena::core::{Params, Wire};
use bot_arena::games::gomoku::Gomoku;
use bot_arena::games::holdem::Holdem;
use bot_arena::games::mahjong::Mahjong;
use bot_arena::games::stud::Stud;
use bot_arena::games::zhajinhua::Zhajinhua;
use bot_arena::core::GameDef;
use libfuzzer_sys::fuzz_target;

fn game<G: GameDef>(seats: usize) -> G {
    G::from_options(&Params::new(G::OPTIONS, &Default::default(), "table").unwrap(), seats).unwrap()
}

struct Games(Holdem, Stud, Zhajinhua, Gomoku, Mahjong);

fuzz_target!(|line: &str| {
    static GAMES: OnceLock<Games> = OnceLock::new();
    let g = GAMES.get_or_init(|| Games(game(2), game(2), game(3), game(2), game(4)));
    let Ok(answer) = serde_json::from_str::<serde_json::Value>(line) else { return };
    let Some(action) = answer.get("action").and_then(|a| a.as_str()) else { return };
    let _ = g.0.parse_action(action);
    let _ = g.1.parse_action(action);
    let _ = g.2.parse_action(action);
    let _ = g.3.parse_action(action);
    let _ = g.4.parse_action(action);
});
