//! Hold'em on the wire (docs/book/src/protocol.md): the seat's view as JSON, actions as `fold`, `check`,
//! `call` and `raise N` (N = this seat's whole bet in the betting round), cards as `Ah`, `Td`.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::json_out::{push_word_number, Array, Cards, Object, With};
use crate::core::readable::Screen;
use crate::core::wire::{number, show, texts, words, Bounds, List, Text, Texts, Told};
use crate::core::{IllegalAction, Seat, Wire};

use super::engine::{Action, Event, Holdem, State, View};
use super::table;
use crate::cards::Card;

impl Wire for Holdem {
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a {
        ViewJson { game: self, v: view }
    }

    /// Fold (only when something is owed), check or call, and the smallest and largest raise.
    fn write_legal(&self, v: &View<'_>, out: &mut Texts) {
        if v.to_call() > 0 {
            out.push("fold");
            out.push("call");
        } else {
            out.push("check");
        }
        if let Some((min, max)) = v.raise_bounds() {
            out.push(format_args!("raise {min}"));
            if max > min {
                out.push(format_args!("raise {max}"));
            }
        }
    }

    /// Any raise between the ends `legal` lists is legal: the engine's own check.
    fn judge(&self, view: &View<'_>, action: &Action) -> Result<(), IllegalAction> {
        view.judge(self, action)
    }

    /// A check and a call are one action (the engine's `CheckCall`); it is written `call`.
    fn action_text(&self, action: &Action) -> impl std::fmt::Display {
        show(move |f| match action {
            Action::Fold => f.write_str("fold"),
            Action::CheckCall => f.write_str("call"),
            Action::RaiseTo(to) => write!(f, "raise {to}"),
        })
    }

    /// [`Wire::action_text`] written by hand (every action of every hand's record).
    fn write_action(&self, action: &Action, out: &mut Vec<u8>) {
        match *action {
            Action::Fold => out.extend_from_slice(b"\"fold\""),
            Action::CheckCall => out.extend_from_slice(b"\"call\""),
            Action::RaiseTo(to) => push_word_number(out, b"raise ", to),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        match words(text).as_slice() {
            [w] if w == "fold" => Ok(Action::Fold),
            [w] if w == "check" || w == "call" => Ok(Action::CheckCall),
            [w, n] if w == "raise" => Ok(Action::RaiseTo(number(n, "a number of chips")?)),
            _ => Err(format!("`{text}` is not a hold'em action (fold, check, call, raise N)")),
        }
    }

    /// The first hand as dealt: the button, the stacks and blinds it starts with, every seat's
    /// hole cards and the whole board to come.
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        Deal {
            hand: s.hand_no,
            button: s.button,
            blinds: s.blinds,
            stacks: &s.start[..s.n],
            hole: List((0..s.n).map(move |seat| (s.live & (1 << seat) != 0).then(|| texts(&s.hole[seat])))),
            board: texts(&s.board),
        }
    }

    /// [`Wire::deal_json`] written by hand: a hand's record costs about as much as the hand.
    fn write_deal(&self, s: &State, out: &mut Vec<u8>) {
        Object::new(out)
            .field("hand", &s.hand_no)
            .field("button", &s.button)
            .field(
                "blinds",
                &With(|out: &mut Vec<u8>| {
                    let b = s.blinds;
                    Object::new(out).field("small", &b.small).field("big", &b.big).field("ante", &b.ante).end()
                }),
            )
            .field("stacks", &s.start[..s.n])
            .field("hole", &Array((0..s.n).map(|seat| (s.live & (1 << seat) != 0).then_some(Cards(s.hole[seat])))))
            .field("board", &Cards(s.board))
            .end();
    }

    /// [`Wire::reveal`] written by hand, as [`Wire::write_deal`] is.
    fn write_reveal(&self, s: &State, out: &mut Vec<u8>) {
        Object::new(out)
            .field("board", &Cards(s.visible_board()))
            .field("shown", &Array((0..s.n).map(|seat| (s.showdown & (1 << seat) != 0).then_some(Cards(s.hole[seat])))))
            .end();
    }

    /// The board as it is turned (`flop Ah Kd 2c`, `turn 7s`, `river 9h`), and in a sit-and-go
    /// each new hand as it is dealt (`hand 2: Ah Kd, -, Qc Jc; board 2s 8h Jd 6h Qc`: every live
    /// seat's hole cards, `-` for a seat out, and the board to come). `seen`: the hand number
    /// times 256 plus the board cards turned in it.
    fn chance(&self, s: &State, seen: &mut u64, out: &mut Texts) {
        // Most actions deal nothing: asked after every action a record writes, this answers so
        // at once.
        if *seen == (u64::from(s.hand_no) << 8) | s.dealt as u64 {
            return;
        }
        let (mut hand, mut turned) = ((*seen >> 8) as u32, (*seen & 0xff) as usize);
        // A sit-and-go deals the next hand in the action that ends one, and a hand whose seats
        // are all in from the blinds ends with no action at all: every hand since is written.
        while hand < s.hand_no {
            if let Some(past) = s.past.get(hand as usize) {
                let shown = past.events.iter().filter_map(|e| match e {
                    Event::Street(street) => Some(2 + *street as usize),
                    _ => None,
                });
                write_streets(&past.board, turned, shown.max().unwrap_or(0), out);
            }
            hand += 1;
            turned = 0;
            let (hole, board, live) = match s.past.get(hand as usize) {
                Some(past) => (&past.hole, &past.board, past.live),
                None => (&s.hole, &s.board, s.live),
            };
            out.push(show(move |f| {
                write!(f, "hand {hand}: ")?;
                for (seat, [a, b]) in hole.iter().enumerate().take(s.n) {
                    let sep = if seat == 0 { "" } else { ", " };
                    match live & (1 << seat) != 0 {
                        true => write!(f, "{sep}{a} {b}")?,
                        false => write!(f, "{sep}-")?,
                    }
                }
                write!(f, "; board {}", crate::core::wire::spaced(board))
            }));
        }
        write_streets(&s.board, turned, s.dealt, out);
        *seen = (u64::from(hand) << 8) | s.dealt as u64;
    }

    /// [`Wire::chance`]'s board written straight as a record's events (`,"flop Ah Kd 2c"`) within
    /// a hand; a sit-and-go's next hand goes through `chance` (once a hand, not worth a copy).
    fn write_chance(&self, s: &State, seen: &mut u64, scratch: &mut Texts, out: &mut Vec<u8>) -> u32 {
        let (hand, turned) = ((*seen >> 8) as u32, (*seen & 0xff) as usize);
        if hand != s.hand_no {
            return crate::core::wire::write_chance_texts(self, s, seen, scratch, out);
        }
        let mut count = 0;
        let mut street = |name: &str, cards: &[Card]| {
            out.extend_from_slice(b",\"");
            out.extend_from_slice(name.as_bytes());
            for card in cards {
                out.push(b' ');
                out.extend_from_slice(card.text().as_bytes());
            }
            out.push(b'"');
            count += 1;
        };
        if turned < 3 && s.dealt >= 3 {
            street("flop", &s.board[..3]);
        }
        if turned < 4 && s.dealt >= 4 {
            street("turn", &s.board[3..4]);
        }
        if turned < 5 && s.dealt >= 5 {
            street("river", &s.board[4..5]);
        }
        *seen = (u64::from(hand) << 8) | s.dealt as u64;
        count
    }

    /// The table drawn: seats, stacks, bets, the cards this seat sees, the board (table.rs).
    fn view_text(&self, v: &View<'_>, screen: &Screen<'_>) -> String {
        table::draw(self, v, screen)
    }

    /// Every action in words, a check told from a call by following the betting (table.rs).
    fn narrate(&self, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        table::narrate(self, v, screen, told, out)
    }

    /// The last hand's board, the hands shown down by name, who took the pot (table.rs).
    fn end_text(&self, s: &State, screen: &Screen<'_>) -> String {
        table::ending(self, s, screen)
    }

    /// The board and the hole cards of the seats at the last hand's showdown (`null` for the
    /// others: a folded hand is not shown).
    fn reveal(&self, s: &State) -> impl Serialize {
        let shown_at = move |seat: Seat| s.showdown & (1 << seat) != 0;
        Reveal {
            board: texts(s.visible_board()),
            shown: List((0..s.n).map(move |seat| shown_at(seat).then(|| texts(&s.hole[seat])))),
        }
    }
}

/// The view on the wire, field by field as docs/book/src/protocol.md lists them.
struct ViewJson<'a, 'v> {
    game: &'a Holdem,
    v: &'a View<'v>,
}

impl Serialize for ViewJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.v;
        let seats = 0..v.seats();
        let mut o = s.serialize_struct("view", 16)?;
        o.serialize_field("seat", &v.seat())?;
        o.serialize_field("seats", &v.seats())?;
        o.serialize_field("hand", &v.hand_no())?;
        o.serialize_field("button", &v.button())?;
        o.serialize_field("blinds", &v.blinds())?;
        o.serialize_field("hole", &texts(&v.hole()))?;
        o.serialize_field("board", &texts(v.board()))?;
        o.serialize_field("street", &v.street())?;
        o.serialize_field("pot", &v.pot())?;
        o.serialize_field("current_bet", &v.current_bet())?;
        o.serialize_field("to_call", &v.to_call())?;
        o.serialize_field("stacks", &List(seats.clone().map(|s| v.stack(s))))?;
        o.serialize_field("bets", &List(seats.clone().map(|s| v.bet(s))))?;
        o.serialize_field("in", &List(seats.map(|s| v.is_in(s))))?;
        o.serialize_field("raise", &v.raise_bounds().map(|(min, max)| Bounds { min, max }))?;
        o.serialize_field("history", &List(v.history().iter().map(|event| self.event(event))))?;
        o.end()
    }
}

impl ViewJson<'_, '_> {
    fn event<'e>(&'e self, event: &'e Event) -> EventJson<Text<impl std::fmt::Display + 'e>> {
        match *event {
            Event::Act { seat, ref action } => EventJson::Act { seat, action: Text(self.game.action_text(action)) },
            Event::Street(street) => EventJson::Street { street },
        }
    }
}

/// An entry of the hand's history: `{"seat": 0, "action": "call"}` or `{"street": 1}`.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum EventJson<A> {
    Act { seat: u8, action: A },
    Street { street: u8 },
}

/// The streets of `board` turned after its first `from` cards, up to `to` cards.
fn write_streets(board: &[Card; 5], from: usize, to: usize, out: &mut Texts) {
    // Written piece by piece, not through `format_args!`: a record writes them every hand.
    if from < 3 && to >= 3 {
        out.push_with(|text| {
            text.push_str("flop ");
            crate::cards::write_spaced(board[..3].iter().copied(), text);
        });
    }
    if from < 4 && to >= 4 {
        out.push_with(|text| {
            text.push_str("turn ");
            text.push_str(board[3].text());
        });
    }
    if from < 5 && to >= 5 {
        out.push_with(|text| {
            text.push_str("river ");
            text.push_str(board[4].text());
        });
    }
}

#[derive(serde::Serialize)]
struct Deal<'a, H, B> {
    hand: u32,
    button: Seat,
    blinds: super::state::Blinds,
    stacks: &'a [super::state::Chips],
    hole: H,
    board: B,
}

#[derive(serde::Serialize)]
struct Reveal<B, S> {
    board: B,
    shown: S,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::{
        assert_action_written_as_serde_writes, assert_chance_written_as_texts, assert_written_as_serde_writes, json,
    };
    use crate::core::{Bot, DealRng, Game};
    use crate::games::holdem::bots;
    use rand::SeedableRng;
    use serde_json::json;

    #[test]
    fn every_legal_action_reads_back_and_is_accepted() {
        let game = Holdem::new(3, 50, 100, 1000);
        let mut rng = crate::core::BotRng::seed_from_u64(3);
        let mut bot = bots::random();
        for seed in 0..200 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                for text in game.legal_texts(&v) {
                    let action = game.parse_action(&text).unwrap();
                    assert_action_written_as_serde_writes(&game, &action);
                    assert_eq!(game.parse_action(&game.action_text(&action).to_string()).unwrap(), action);
                    let mut probe = s.clone();
                    assert!(game.apply(&mut probe, &action).is_ok(), "{text} refused");
                }
                let view = json(game.view_json(&v));
                assert_eq!(view["to_call"], v.to_call());
                assert_eq!(view["hole"].as_array().unwrap().len(), 2);
                let a = bot.act(&game, &v, &mut rng);
                game.apply(&mut s, &a).unwrap();
                assert_written_as_serde_writes(&game, &s);
            }
        }
    }

    /// The deal, the chance events and the end a record writes by hand are the bytes serde
    /// writes of the rules' own texts, in cash games and sit-and-gos (seats out, hands after the
    /// first), from the deal to the end.
    #[test]
    fn the_deal_and_the_end_are_written_as_serde_writes_them() {
        let mut rng = crate::core::BotRng::seed_from_u64(4);
        let mut bot = bots::random();
        let mut sng = Holdem::new(4, 10, 20, 200);
        sng.format = super::super::state::Format::Sng;
        let mut hands = 0;
        for game in [Holdem::new(2, 50, 100, 1000), Holdem::new(6, 50, 100, 10_000), sng] {
            for seed in 0..100 {
                let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
                assert_written_as_serde_writes(&game, &s);
                let mut seen = 0;
                assert_chance_written_as_texts(&game, &s, &mut seen);
                while let Some(seat) = game.to_act(&s) {
                    let a = bot.act(&game, &game.view(&s, seat), &mut rng);
                    game.apply(&mut s, &a).unwrap();
                    assert_written_as_serde_writes(&game, &s);
                    assert_chance_written_as_texts(&game, &s, &mut seen);
                }
                hands += s.hand_no;
            }
        }
        assert!(hands > 100, "sit-and-gos played hands after the first: {hands}");
    }

    #[test]
    fn texts_and_errors() {
        let game = Holdem::new(2, 50, 100, 1000);
        assert_eq!(game.parse_action(" Raise 300 ").unwrap(), Action::RaiseTo(300));
        assert_eq!(game.parse_action("check").unwrap(), Action::CheckCall);
        assert!(game.parse_action("raise").unwrap_err().contains("not a hold'em action"));
        assert!(game.parse_action("raise lots").unwrap_err().contains("`lots` is not a number of chips"));
        let s = game.deal(&mut DealRng::seed_from_u64(1));
        let v = game.view(&s, 0);
        // Heads-up, the button posts the small blind and acts first: 50 to call.
        assert_eq!(game.legal_texts(&v), ["fold", "call", "raise 200", "raise 1000"]);
        let json = json(game.view_json(&v));
        assert_eq!(json["raise"], json!({ "min": 200, "max": 1000 }));
        assert_eq!(json["board"], json!([]));
    }
}
