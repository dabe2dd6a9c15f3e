//! Card strings in every notation: cards or a one-line refusal, never a panic.
#![no_main]

use bot_arena::cards::{parse_cards, parse_cards_or_hidden};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Err(e) = parse_cards(text) {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
    if let Ok(cards) = parse_cards_or_hidden(text) {
        // What was read is written back in the one notation, and reads the same.
        let known: Vec<_> = cards.into_iter().flatten().collect();
        let written: Vec<String> = known.iter().map(|c| c.to_string()).collect();
        assert_eq!(parse_cards(&written.join(" ")).unwrap(), known);
    }
});
