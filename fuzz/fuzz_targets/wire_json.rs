//! An external bot's answer line (`{"action": "..."}`): every registered game reads the action or
//! refuses it, never a panic.
#![no_main]

use std::sync::OnceLock;

use bot_arena::Arena;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    let arena = ARENA.get_or_init(Arena::standard);
    let Ok(answer) = serde_json::from_str::<serde_json::Value>(line) else { return };
    let Some(action) = answer.get("action").and_then(|a| a.as_str()) else { return };
    for game in arena.games() {
        let _ = game.parse_action(action);
    }
});
