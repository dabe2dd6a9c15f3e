//! How a game crosses a process boundary: its views as JSON objects and its actions as short texts
//! in the game's own notation (`fold`, `raise 300`, `7,7`, `discard 5m`), the same text a person
//! would type. Bots outside the process (docs/protocol.md) see a game only through this encoding,
//! so it must hold exactly what the game's `View` exposes: nothing another seat keeps hidden.

use serde_json::Value;

use crate::core::game::Game;

/// A game's wire encoding. Every registered game has one (`GameDef: Wire`), so every game can be
/// played by outside bots; each game implements it in its own `wire.rs`.
pub trait Wire: Game {
    /// The view as a JSON object: everything the `View` exposes and nothing more. Cards, tiles and
    /// moves are written in the notation the project prints elsewhere (games.csv, advisers).
    fn view_json(&self, view: &Self::View<'_>) -> Value;

    /// The legal actions of the seat viewing, as action texts, in the order `Game::legal_actions`
    /// would give them. A continuous size (a hold'em raise, a stud bet) appears as the ends of its
    /// range; the view says which amounts in between are legal.
    fn legal_texts(&self, view: &Self::View<'_>) -> Vec<String>;

    /// An action as text. `parse_action(action_text(a)) == a` for every action.
    fn action_text(&self, action: &Self::Action) -> String;

    /// Reads an action text (surrounding spaces and letter case do not matter). Whether the action
    /// is legal now is for `Game::apply` to say; the error here says what the notation is.
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;

    /// What the rules reveal once the game is over (the cards shown at a showdown, the winner), as
    /// a JSON object.
    fn reveal(&self, state: &Self::State) -> Value;
}

/// Splits an action text into its lowercase words.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_ascii_lowercase).collect()
}

/// Reads a whole number of chips (or a seat, a stake) from an action text.
pub fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, String> {
    word.parse().map_err(|_| format!("`{word}` is not {what}"))
}

/// For the games' tests: the legal texts of `view` (a view of `state`), each checked to read back
/// to itself and to be accepted by the rules.
#[cfg(test)]
pub fn checked_legal_texts<G: Wire>(game: &G, state: &G::State, view: &G::View<'_>) -> Vec<String>
where
    G::State: Clone,
{
    let legal = game.legal_texts(view);
    for text in &legal {
        let action = game.parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&game.action_text(&action), text);
        assert!(game.apply(&mut state.clone(), &action).is_ok(), "{text} refused");
    }
    legal
}
