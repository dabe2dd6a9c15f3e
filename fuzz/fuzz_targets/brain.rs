//! A Gomocup session on the brain's stdin: answers, never a panic.
#![no_main]

use std::sync::OnceLock;

use bot_arena::core::Params;
use bot_arena::games::gomoku::brain::{Brain, BrainBot};
use bot_arena::games::gomoku::Gomoku;
use bot_arena::Arena;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    let arena = ARENA.get_or_init(Arena::standard);
    let kind = arena.kinds::<Gomoku>().unwrap().iter().find(|k| k.name == "weights").unwrap().clone();
    let params = Params::new(kind.params, &Default::default(), "weights").unwrap();
    let mut brain = Brain::new(BrainBot { name: "weights".into(), kind, params }, 1);
    let mut output = Vec::new();
    brain.serve(data, &mut output).unwrap();
});
