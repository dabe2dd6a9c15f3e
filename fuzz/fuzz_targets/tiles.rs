//! Mahjong hands and tiles: a hand or a one-line refusal, never a panic.
#![no_main]

use bot_arena::games::mahjong::tiles::{parse_tile, Hand};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = Hand::parse(text) {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    let _ = parse_tile(text);
});
