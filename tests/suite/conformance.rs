//! Every game of the registry held to the one contract (`bot_arena::core::conformance`): a game
//! gets these checks by being registered in `Arena::standard`.

use bot_arena::Arena;

#[test]
fn every_registered_game_keeps_the_contract() {
    for game in Arena::standard().games() {
        let checked = game.conformance(10, 1).unwrap_or_else(|e| panic!("{e}"));
        eprintln!("{}: {checked:?}", game.name());
        assert!(checked.states > 0 && checked.refused > 0, "{}: nothing checked: {checked:?}", game.name());
    }
}
