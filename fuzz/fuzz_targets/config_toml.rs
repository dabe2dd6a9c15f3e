//! A config's text through the whole of its resolution (games, bots, rosters, table options,
//! limits): a config or a one-line refusal, never a panic.
#![no_main]

use std::sync::OnceLock;

use bot_arena::config::{Overrides, RunConfig, Source};
use bot_arena::Arena;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    let Ok(text) = std::str::from_utf8(data) else { return };
    let arena = ARENA.get_or_init(Arena::standard);
    if let Err(e) = RunConfig::parse(arena, &Source::file("c.toml", text), "c", &Overrides::default()) {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
});
