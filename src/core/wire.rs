//! How a game crosses a process boundary: its views as JSON objects and its actions as short texts
//! in the game's own notation (`fold`, `raise 300`, `7,7`, `discard 5m`), the same text a person
//! would type. Bots outside the process (docs/book/src/protocol.md) see a game only through this encoding,
//! so it must hold exactly what the game's `View` exposes: nothing another seat keeps hidden.
//!
//! A decision is written thousands of times a second, so nothing here builds a JSON tree or a
//! string per field: a game's view is a struct of its `wire.rs` that borrows from the `View` and
//! is serialised straight into the bytes that go to the pipe; lists are written from iterators
//! ([`List`]), cards and moves through their `Display` ([`Text`]), and the legal actions into one
//! reused buffer ([`Texts`]).

use std::fmt::{self, Display, Write as _};

use serde::{Serialize, Serializer};

use crate::core::game::{Game, IllegalAction, Seat};
use crate::core::readable::Screen;

/// A game's wire encoding. Every registered game has one (`GameDef: Wire`), so every game can be
/// played by outside bots; each game implements it in its own `wire.rs`.
pub trait Wire: Game {
    /// The view as a JSON object: everything the `View` exposes and nothing more, in the order
    /// docs/book/src/protocol.md shows. Cards, tiles and moves are written in the notation the project
    /// prints elsewhere (games.csv, advisers).
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a;

    /// Appends the legal actions of the seat viewing, as action texts, in the order
    /// `Game::legal_actions` would give them. A continuous size (a hold'em raise, a stud bet)
    /// appears as the ends of its range; the view says which amounts in between are legal.
    fn write_legal(&self, view: &Self::View<'_>, out: &mut Texts);

    /// An action as text: `parse_action` reads it back to the same action.
    fn action_text(&self, action: &Self::Action) -> impl Display;

    /// Appends [`Wire::action_text`] to `out` as a JSON string (a record's action). The default
    /// goes through `Display`; a game whose games are short writes it by hand (its tests hold the
    /// two to the same bytes).
    fn write_action(&self, action: &Self::Action, out: &mut Vec<u8>) {
        crate::core::json_out::push_display(out, self.action_text(action));
    }

    /// Reads an action text (surrounding spaces and letter case do not matter). Whether the action
    /// is legal now is for `Game::apply` to say; the error here says what the notation is.
    fn parse_action(&self, text: &str) -> Result<Self::Action, String>;

    /// What the rules reveal once the game is over (the cards shown at a showdown, the winner), as
    /// a JSON object.
    fn reveal(&self, state: &Self::State) -> impl Serialize;

    /// Everything chance decided when `state` was dealt, hidden cards and the wall included, as a
    /// JSON object: a game's record (records.jsonl, docs/book/src/records.md) starts with it. Written after
    /// the game, so nothing in it is hidden from anyone who reads the record.
    fn deal_json<'a>(&'a self, state: &'a Self::State) -> impl Serialize + 'a;

    /// Appends [`Wire::deal_json`]'s JSON to `out`, the bytes `serde_json::to_writer` writes for
    /// it: what a record starts with. The default goes through serde; a game whose games are
    /// short writes it with [`json_out`](crate::core::json_out), where serde would cost a record
    /// as much as playing the game (its tests hold the two to the same bytes).
    fn write_deal(&self, state: &Self::State, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.deal_json(state)).expect("a deal serialises");
    }

    /// Appends [`Wire::reveal`]'s JSON to `out`, as [`Wire::write_deal`] does the deal's: what a
    /// record ends with.
    fn write_reveal(&self, state: &Self::State, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.reveal(state)).expect("a reveal serialises");
    }

    /// Appends, as texts in the game's notation, the chance events the rules revealed in `state`
    /// since `seen` (a count each game keeps its own way: board cards turned, tiles drawn, hands
    /// dealt) and moves `seen` on. A record calls it once after the deal (what it appends then is
    /// the deal's, already in [`Wire::deal_json`], and is dropped) and after every action. A game
    /// whose chance is all in its deal appends nothing.
    fn chance(&self, state: &Self::State, seen: &mut u64, out: &mut Texts) {
        let _ = (state, seen, out);
    }

    /// Writes the chance events [`Wire::chance`] appends as a record's events: each as `,` and
    /// a JSON string (never a record's first event), moving `seen` on; returns how many. By
    /// default through `chance` into `scratch`; a game whose record pays for the copy writes them
    /// straight (the same bytes: `replay` meets them with `chance`'s texts, and the games' tests
    /// compare the two at every step).
    fn write_chance(&self, state: &Self::State, seen: &mut u64, scratch: &mut Texts, out: &mut Vec<u8>) -> u32 {
        write_chance_texts(self, state, seen, scratch, out)
    }

    /// Whether the rules accept `action` from the seat viewing, now, and if not why: judged from
    /// the view alone, so a player who typed an action can be told before it is played
    /// (`arena play`). The default reads the legal texts; a game whose sizes are a range (listed
    /// by their ends) judges with its own rules. The conformance check holds it to `Game::apply`.
    fn judge(&self, view: &Self::View<'_>, action: &Self::Action) -> Result<(), IllegalAction> {
        let text = self.action_text(action).to_string();
        let same = |legal: &str| self.parse_action(legal).is_ok_and(|a| self.action_text(&a).to_string() == text);
        match self.legal_texts(view).iter().any(|legal| same(legal)) {
            true => Ok(()),
            false => Err(IllegalAction(format!("`{text}` is not one of the legal actions"))),
        }
    }

    /// The view as a person reads it (`arena play`, `arena replay --game`), laid out for
    /// `screen` (the players' names, the terminal's width): by default one line per field of
    /// [`Wire::view_json`]; a game with a table or a board to draw draws it, from the view alone.
    fn view_text(&self, view: &Self::View<'_>, screen: &Screen<'_>) -> String {
        let _ = screen;
        let json = serde_json::to_value(self.view_json(view)).expect("wire values serialise");
        crate::core::readable::fields(&json)
    }

    /// Appends, in words, what happened at the table that the seat viewing has not been told yet
    /// (`told`, a count each game keeps its own way, starts at 0 and is moved on): every seat's
    /// action as the rules took it (`checks`, `raises to 600`, `discards 5m`) and what the table
    /// showed (`flop: Ah Kd 2c`), from the view alone; `screen` names the players a text names. `arena play` tells a person the other
    /// seats' actions with it before asking them, and the rest at the end of the game, from the
    /// last state's view. The default tells nothing (the view says what there is to know).
    fn narrate(&self, view: &Self::View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        let _ = (view, screen, told, out);
    }

    /// The end of the game as a person reads it, laid out for `screen`: what the rules reveal
    /// (the hands shown down and what they make, who won what, and why). By default one line per
    /// field of [`Wire::reveal`].
    fn end_text(&self, state: &Self::State, screen: &Screen<'_>) -> String {
        let _ = screen;
        let json = serde_json::to_value(self.reveal(state)).expect("wire values serialise");
        crate::core::readable::fields(&json)
    }

    /// The legal actions as owned texts (tests, tools; the protocol reuses one [`Texts`]).
    fn legal_texts(&self, view: &Self::View<'_>) -> Vec<String> {
        let mut texts = Texts::default();
        self.write_legal(view, &mut texts);
        texts.iter().map(str::to_string).collect()
    }
}

/// One thing that happened at the table, told in words ([`Wire::narrate`]): what `seat` did, in
/// the third person (`checks`, `bets 200`, `discards 5m`), or, with no seat, what the table
/// showed (`flop: Ah Kd 2c`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    /// The seat it is told to (`None`: every seat).
    pub seat: Option<Seat>,
    /// What happened, in words.
    pub text: String,
}

impl Told {
    /// What `seat` did.
    pub fn by(seat: Seat, text: impl Into<String>) -> Told {
        Told { seat: Some(seat), text: text.into() }
    }

    /// What the table showed.
    pub fn table(text: impl Into<String>) -> Told {
        Told { seat: None, text: text.into() }
    }
}

/// Short texts kept end to end in one buffer: a decision's legal actions, written move after
/// move without allocating once the buffer has grown. Serialised as a JSON array of strings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    text: String,
    ends: Vec<usize>,
}

impl Texts {
    /// Room for `texts` texts of `bytes` bytes in all, so that writing them does not grow it.
    pub fn with_capacity(bytes: usize, texts: usize) -> Texts {
        Texts { text: String::with_capacity(bytes), ends: Vec::with_capacity(texts) }
    }

    /// Empties the list, keeping its memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Appends one text, written through its `Display`.
    pub fn push(&mut self, text: impl Display) {
        write!(self.text, "{text}").expect("writing to a String cannot fail");
        self.ends.push(self.text.len());
    }

    /// Appends one text written straight into the buffer by `write` (a record's values are
    /// written for every seat of every game: no formatting machinery on that path).
    pub fn push_with(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.text);
        self.ends.push(self.text.len());
    }

    /// Appends a whole number.
    pub fn push_int(&mut self, n: impl itoa::Integer) {
        self.push_with(|text| write_int(text, n));
    }

    /// Appends one text as it is (quicker than [`Texts::push`] for a ready-made `&str`).
    pub fn push_str(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len());
    }

    /// How many texts the list holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The bytes of all the texts together.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    /// Whether the list holds no text.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Text `i`, if there are that many.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        Some(&self.text[if i == 0 { 0 } else { self.ends[i - 1] }..end])
    }

    /// The texts in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.text[start..end])
    }

    /// Texts `range` as bytes, one after another (no UTF-8 boundary checks: for writing them out).
    pub fn bytes_of(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = &[u8]> + '_ {
        let text = self.text.as_bytes();
        range.map(move |i| &text[if i == 0 { 0 } else { self.ends[i - 1] }..self.ends[i]])
    }
}

impl Serialize for Texts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// A value written as a JSON string through its `Display` (a card, a move, an action text),
/// without building a `String`.
#[derive(Clone, Copy, Debug)]
pub struct Text<T>(pub T);

impl<T: Display> Serialize for Text<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A JSON array of what an iterator gives, written as it goes, without building a `Vec`. The
/// iterator is cloned to be walked, so serialising twice gives the same array.
#[derive(Clone, Copy, Debug)]
pub struct List<I>(pub I);

impl<I> Serialize for List<I>
where
    I: Iterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// The ends of a range of amounts (a hold'em raise, a stud bet): `{"min": .., "max": ..}`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Bounds<T> {
    /// The least value allowed.
    pub min: T,
    /// The greatest value allowed.
    pub max: T,
}

/// A JSON array of the items' texts: cards (`["Ah", "Td"]`), tiles, moves.
pub fn texts<T: Display>(
    items: impl IntoIterator<Item = T, IntoIter: Clone>,
) -> List<impl Iterator<Item = Text<T>> + Clone> {
    List(items.into_iter().map(Text))
}

/// Text written by a closure: an action's text in a game's notation, without building a `String`.
pub fn show(write: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result) -> impl Display {
    Show(write)
}

struct Show<F>(F);

impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> Display for Show<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)(f)
    }
}

/// Writes a whole number's digits (without the formatting machinery of `write!`).
pub fn write_int(out: &mut String, n: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// The items' texts separated by spaces (`Ah Td 2c`), written as they go.
pub fn spaced<T: Display>(items: impl IntoIterator<Item = T, IntoIter: Clone>) -> impl Display {
    let items = items.into_iter();
    show(move |f| {
        for (i, item) in items.clone().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    })
}

/// Splits an action text into its lowercase words.
pub fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_ascii_lowercase).collect()
}

/// Reads a whole number of chips (or a seat, a stake) from an action text.
pub fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, String> {
    word.parse().map_err(|_| format!("`{word}` is not {what}"))
}

/// For the games' tests: what `value` (a view, a reveal) looks like as JSON.
#[cfg(test)]
pub fn json(value: impl Serialize) -> serde_json::Value {
    serde_json::to_value(value).expect("wire values serialise")
}

/// For the games' tests: that [`Wire::write_deal`] and [`Wire::write_reveal`] write in `state`
/// the bytes serde_json writes for [`Wire::deal_json`] and [`Wire::reveal`].
#[cfg(test)]
pub fn assert_written_as_serde_writes<G: Wire>(game: &G, state: &G::State) {
    let mut deal = Vec::new();
    game.write_deal(state, &mut deal);
    assert_eq!(String::from_utf8(deal).unwrap(), serde_json::to_string(&game.deal_json(state)).unwrap());
    let mut reveal = Vec::new();
    game.write_reveal(state, &mut reveal);
    assert_eq!(String::from_utf8(reveal).unwrap(), serde_json::to_string(&game.reveal(state)).unwrap());
}

/// [`Wire::write_chance`] through [`Wire::chance`]: its texts into `scratch`, then each written as
/// `,` and a JSON string. The default, and what a game that writes its own falls back on.
pub fn write_chance_texts<G: Wire>(
    game: &G,
    state: &G::State,
    seen: &mut u64,
    scratch: &mut Texts,
    out: &mut Vec<u8>,
) -> u32 {
    scratch.clear();
    game.chance(state, seen, scratch);
    for text in scratch.bytes_of(0..scratch.len()) {
        out.push(b',');
        crate::core::json_out::push_text_bytes(out, text);
    }
    scratch.len() as u32
}

/// For the games' tests: that [`Wire::write_chance`] writes what [`Wire::chance`] appends since
/// `seen`, as `,"text"` each, and moves `seen` on alike; `seen` is moved on.
#[cfg(test)]
pub fn assert_chance_written_as_texts<G: Wire>(game: &G, state: &G::State, seen: &mut u64) {
    let (mut by_texts, mut written) = (*seen, *seen);
    let mut texts = Texts::default();
    game.chance(state, &mut by_texts, &mut texts);
    let mut out = Vec::new();
    let count = game.write_chance(state, &mut written, &mut Texts::default(), &mut out);
    let expected: String = texts.iter().map(|t| format!(",{}", serde_json::to_string(t).unwrap())).collect();
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    assert_eq!((count as usize, written), (texts.len(), by_texts));
    *seen = by_texts;
}

/// For the games' tests: that [`Wire::write_action`] writes `action`'s text as serde_json writes
/// [`Wire::action_text`]'s.
#[cfg(test)]
pub fn assert_action_written_as_serde_writes<G: Wire>(game: &G, action: &G::Action) {
    let mut out = Vec::new();
    game.write_action(action, &mut out);
    assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&game.action_text(action).to_string()).unwrap());
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
        assert_eq!(&game.action_text(&action).to_string(), text);
        assert!(game.apply(&mut state.clone(), &action).is_ok(), "{text} refused");
    }
    legal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_keep_each_text_whole_and_serialise_as_an_array() {
        let mut texts = Texts::default();
        assert_eq!(serde_json::to_string(&texts).unwrap(), "[]");
        texts.push("fold");
        texts.push(format_args!("raise {}", 300));
        texts.push_str("");
        texts.push("say \"hi\"");
        assert_eq!(texts.iter().collect::<Vec<_>>(), ["fold", "raise 300", "", "say \"hi\""]);
        assert_eq!(serde_json::to_string(&texts).unwrap(), r#"["fold","raise 300","","say \"hi\""]"#);
        texts.clear();
        texts.push("call");
        assert_eq!((texts.len(), texts.iter().collect::<Vec<_>>()), (1, vec!["call"]));
    }

    #[test]
    fn a_text_is_the_json_string_of_its_display_short_or_long_escaped_or_not() {
        for text in ["", "Ah", "say \"hi\"\\", "tab\there", &"long ".repeat(40), "終局 東"] {
            let written = serde_json::to_string(&Text(text)).unwrap();
            assert_eq!(written, serde_json::to_string(&text.to_string()).unwrap(), "{text}");
        }
    }

    #[test]
    fn lists_and_texts_write_what_a_vec_of_strings_would() {
        let moves = [(7, 7), (8, 7)];
        let list = List(moves.iter().map(|&(x, y)| Text(show(move |f| write!(f, "{x},{y}")))));
        assert_eq!(serde_json::to_string(&list).unwrap(), serde_json::to_string(&["7,7", "8,7"]).unwrap());
        // A second pass writes the same array.
        assert_eq!(serde_json::to_string(&list).unwrap(), r#"["7,7","8,7"]"#);
    }
}
