//! A gate file checked by `arena gate FILE --check` (its configs and baselines loaded, nothing
//! played): exit 0 or a one-line refusal, never a panic.
#![no_main]

use std::sync::OnceLock;

use bot_arena::Arena;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    let arena = ARENA.get_or_init(Arena::standard);
    let dir = tempfile::TempDir::new().unwrap();
    let gate = dir.path().join("gate.toml");
    std::fs::write(&gate, data).unwrap();
    let args = ["arena".as_ref(), "gate".as_ref(), gate.as_os_str(), "--check".as_ref()];
    if let Err(e) = bot_arena::cli::execute(arena, args) {
        assert!(!e.to_string().contains('\n'), "{e}");
    }
});
