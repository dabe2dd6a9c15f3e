//! Five-card stud on the wire (docs/book/src/protocol.md): the seat's view as JSON, actions as `fold`,
//! `check`, `call`, `bet N` (N = this seat's whole bet on the street) and `showhand` (梭哈: as
//! much as the shortest stack in the hand allows), cards as `Ah`, `Td`.
//!
//! In a record (records.jsonl) the deal is `{"ante", "stacks", "first", "cards"}`: the ante, each
//! seat's chips before it, the seat that acts first on 2nd street, and each seat's five cards in
//! the order dealt (hole card first). Each later street is one chance event, `street 3: Ah - 7c`:
//! the street (cards a seat then holds) and the face-up card each seat got, in seat order, `-`
//! for a seat that had folded.

use std::fmt::Display;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::json_out::{push_word_number, Array, Cards, Object, With};
use crate::core::readable::Screen;
use crate::core::wire::{number, show, texts, words, Bounds, List, Text, Texts, Told};
use crate::core::{Game, IllegalAction, Wire};

use super::engine::{Acted, Action, State, Stud, View, STREETS};
use super::eval::value;
use super::table;

impl Wire for Stud {
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a {
        ViewJson { game: self, v: view }
    }

    fn write_legal(&self, v: &View<'_>, out: &mut Texts) {
        let mut actions = Vec::with_capacity(6);
        v.legal_actions(self, &mut actions);
        for action in &actions {
            out.push(self.action_text(action));
        }
    }

    /// Any bet between the minimum and the most the hand allows is legal, not only those
    /// `legal` lists: the engine's own check.
    fn judge(&self, view: &View<'_>, action: &Action) -> Result<(), IllegalAction> {
        view.judge(self, *action)
    }

    fn action_text(&self, action: &Action) -> impl Display {
        show(move |f| match action {
            Action::Fold => f.write_str("fold"),
            Action::Check => f.write_str("check"),
            Action::Call => f.write_str("call"),
            Action::Bet(to) => write!(f, "bet {to}"),
            Action::ShowHand => f.write_str("showhand"),
        })
    }

    /// [`Wire::action_text`] written by hand (every action of every hand's record).
    fn write_action(&self, action: &Action, out: &mut Vec<u8>) {
        match *action {
            Action::Fold => out.extend_from_slice(b"\"fold\""),
            Action::Check => out.extend_from_slice(b"\"check\""),
            Action::Call => out.extend_from_slice(b"\"call\""),
            Action::Bet(to) => push_word_number(out, b"bet ", to),
            Action::ShowHand => out.extend_from_slice(b"\"showhand\""),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        match words(text).as_slice() {
            [w] if w == "fold" => Ok(Action::Fold),
            [w] if w == "check" => Ok(Action::Check),
            [w] if w == "call" => Ok(Action::Call),
            [w] if w == "showhand" => Ok(Action::ShowHand),
            [w, n] if w == "bet" => Ok(Action::Bet(number(n, "a number of chips")?)),
            _ => Err(format!("`{text}` is not a stud action (fold, check, call, bet N, showhand)")),
        }
    }

    /// The table drawn: stacks, bets, every seat's face-up cards, the hole card (table.rs).
    fn view_text(&self, v: &View<'_>, screen: &Screen<'_>) -> String {
        table::draw(self, v, screen)
    }

    /// Every action in words and each street's cards as they are dealt (table.rs).
    fn narrate(&self, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        table::narrate(self, v, screen, told, out)
    }

    /// The hands shown down by name and who took the pot (table.rs).
    fn end_text(&self, s: &State, screen: &Screen<'_>) -> String {
        table::ending(s, screen)
    }

    /// At a showdown (more than one seat in at the end), each seat's five cards, the hole card
    /// first, and its category; `null` for the seats that folded, and for all when no showdown.
    fn reveal(&self, s: &State) -> impl Serialize {
        let in_hand = (0..s.seats()).filter(|&seat| s.in_hand(seat)).count();
        let showdown = s.is_over() && in_hand > 1;
        let shown = (0..s.seats()).map(move |seat| {
            (showdown && s.in_hand(seat))
                .then(|| Shown { cards: texts(s.dealt(seat)), category: value(s.hand(seat)).category().name() })
        });
        Reveal { shown: List(shown) }
    }

    /// All five cards of every seat are fixed at the deal (one shuffle, dealt round by round), so
    /// the deal holds them all; the streets' chance events then say when each face-up card showed.
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        let seats = 0..s.seats();
        Deal {
            ante: self.ante,
            // The ante is already in the pot at the deal: a seat's chips are what it had before.
            stacks: List(seats.clone().map(|x| s.stack(x) + s.committed(x))),
            first: self.to_act(s),
            cards: List(seats.map(|x| texts(s.dealt(x)))),
        }
    }

    /// [`Wire::deal_json`] written by hand: a hand's record costs about as much as the hand.
    fn write_deal(&self, s: &State, out: &mut Vec<u8>) {
        let seats = 0..s.seats();
        Object::new(out)
            .field("ante", &self.ante)
            .field("stacks", &Array(seats.clone().map(|x| s.stack(x) + s.committed(x))))
            .field("first", &self.to_act(s))
            .field("cards", &Array(seats.map(|x| Cards(s.dealt(x)))))
            .end();
    }

    /// [`Wire::reveal`] written by hand, as [`Wire::write_deal`] is.
    fn write_reveal(&self, s: &State, out: &mut Vec<u8>) {
        let in_hand = (0..s.seats()).filter(|&seat| s.in_hand(seat)).count();
        let showdown = s.is_over() && in_hand > 1;
        let shown = (0..s.seats()).map(|seat| {
            (showdown && s.in_hand(seat)).then_some(With(move |out: &mut Vec<u8>| {
                let category = value(s.hand(seat)).category().name();
                Object::new(out).field("cards", &Cards(s.dealt(seat))).field("category", category).end()
            }))
        });
        Object::new(out).field("shown", &Array(shown)).end();
    }

    /// `seen` counts the face-up cards a seat still in has been dealt. One action may deal several
    /// streets (when the shortest stack goes all in, the rest are dealt with no betting), so each
    /// street from `seen` on gets its own event.
    fn chance(&self, s: &State, seen: &mut u64, out: &mut Texts) {
        // A seat in the hand shows street + 1 cards while betting, all four after the last round;
        // a hand that ended on folds dealt no more.
        let showing = s.street().min(STREETS - 1) + 1;
        for k in *seen as usize..showing {
            out.push_with(|text| {
                text.push_str("street ");
                // Streets 3 to 5: one digit.
                text.push(char::from(b'0' + (k + 2) as u8));
                text.push(':');
                for x in 0..s.seats() {
                    text.push(' ');
                    // A seat that folded before this street got no card: `up` stops at its fold.
                    match s.up(x).get(k) {
                        Some(card) => text.push_str(card.text()),
                        None => text.push('-'),
                    }
                }
            });
        }
        *seen = showing as u64;
    }

    /// [`Wire::chance`]'s streets written straight as a record's events (`,"street 3: Ah Kd"`):
    /// card texts need no escape.
    fn write_chance(&self, s: &State, seen: &mut u64, _scratch: &mut Texts, out: &mut Vec<u8>) -> u32 {
        let showing = s.street().min(STREETS - 1) + 1;
        let from = *seen as usize;
        for k in from..showing {
            out.extend_from_slice(b",\"street ");
            out.push(b'0' + (k + 2) as u8);
            out.push(b':');
            for x in 0..s.seats() {
                out.push(b' ');
                match s.up(x).get(k) {
                    Some(card) => out.extend_from_slice(card.text().as_bytes()),
                    None => out.push(b'-'),
                }
            }
            out.push(b'"');
        }
        *seen = showing as u64;
        showing.saturating_sub(from) as u32
    }
}

#[derive(serde::Serialize)]
struct Deal<St, C> {
    ante: u32,
    stacks: St,
    first: Option<crate::core::Seat>,
    cards: C,
}

/// The view on the wire, field by field as docs/book/src/protocol.md lists them.
struct ViewJson<'a, 'v> {
    game: &'a Stud,
    v: &'a View<'v>,
}

impl Serialize for ViewJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.v;
        let seats = 0..v.seats();
        let mut o = s.serialize_struct("view", 14)?;
        o.serialize_field("seat", &v.seat())?;
        o.serialize_field("seats", &v.seats())?;
        o.serialize_field("street", &v.street())?;
        o.serialize_field("hole", &crate::core::wire::Text(v.hole()))?;
        o.serialize_field("up", &List(seats.clone().map(|s| texts(v.up(s)))))?;
        o.serialize_field("in", &List(seats.clone().map(|s| v.in_hand(s))))?;
        o.serialize_field("stacks", &List(seats.clone().map(|s| v.stack(s))))?;
        o.serialize_field("committed", &List(seats.map(|s| v.committed(s))))?;
        o.serialize_field("pot", &v.pot())?;
        o.serialize_field("current_bet", &v.current_bet())?;
        o.serialize_field("to_call", &v.to_call())?;
        o.serialize_field("my_bet", &v.my_bet())?;
        o.serialize_field("bet", &v.min_bet_to(self.game).zip(v.max_bet_to()).map(|(min, max)| Bounds { min, max }))?;
        let game = self.game;
        let acted = |&Acted { street, seat, action }: &Acted| ActedJson {
            street,
            seat,
            action: Text(show(move |f| game.action_text(&action).fmt(f))),
        };
        o.serialize_field("history", &List(v.history().iter().map(acted)))?;
        o.end()
    }
}

/// An entry of the hand's history: `{"street": 0, "seat": 1, "action": "bet 2"}`.
#[derive(serde::Serialize)]
struct ActedJson<A> {
    street: u8,
    seat: u8,
    action: A,
}

#[derive(serde::Serialize)]
struct Shown<C> {
    cards: C,
    category: &'static str,
}

#[derive(serde::Serialize)]
struct Reveal<S> {
    shown: S,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::json;
    use crate::core::wire::{
        assert_action_written_as_serde_writes, assert_chance_written_as_texts, assert_written_as_serde_writes,
        checked_legal_texts,
    };
    use crate::core::{DealRng, Game};
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_legal_action_reads_back_and_is_accepted() {
        let game = Stud::new(3, 1, 100, crate::cards::CardSet::FULL);
        let mut rng = DealRng::seed_from_u64(5);
        let mut showdowns = 0;
        for seed in 0..300 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            let mut seen = 0;
            assert_chance_written_as_texts(&game, &s, &mut seen);
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                let legal = checked_legal_texts(&game, &s, &v);
                let view = json(game.view_json(&v));
                assert_eq!(view["hole"], v.hole().to_string());
                for text in &legal {
                    assert_action_written_as_serde_writes(&game, &game.parse_action(text).unwrap());
                }
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
                // The streets a record writes by hand are the rules' own texts.
                assert_chance_written_as_texts(&game, &s, &mut seen);
            }
            let shown = json(game.reveal(&s))["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            showdowns += (shown > 1) as u32;
            assert!(shown != 1, "one seat alone shows nothing");
        }
        assert!(showdowns > 10);
    }

    use crate::core::record::{replay, Ending, Event};
    use crate::core::{play_kept, GameDef, GameRecord, GameSeeds, Keep, Params, Status};

    /// One game played by the game's bots, `lineup` naming a kind per seat, its record kept.
    fn recorded(game: &Stud, lineup: &[&str], seeds: &GameSeeds) -> GameRecord {
        let mut bots: Vec<_> = lineup
            .iter()
            .map(|name| {
                let kind = Stud::bot_kinds().into_iter().find(|k| k.name == *name).unwrap();
                let params = Params::new(kind.params, &toml::Table::new(), name).unwrap();
                (kind.make)(&params, game).unwrap()()
            })
            .collect();
        let record = play_kept(
            game,
            &mut bots,
            seeds,
            Keep { columns: true, history: false, moves: true, luck: crate::core::luck::Estimator::Plain },
        );
        assert_eq!(record.status, Status::Ok);
        record
    }

    fn tables() -> Vec<Stud> {
        let short = super::super::engine::short_deck();
        vec![
            Stud::new(2, 1, 100, crate::cards::CardSet::FULL),
            Stud::new(3, 5, 40, crate::cards::CardSet::FULL),
            Stud::new(5, 1, 100, short),
            Stud::new(4, 2, 300, crate::cards::CardSet::FULL),
        ]
    }

    const LINEUP: [&str; 5] = ["expert", "random", "always-call", "expert", "random"];

    /// Every record plays back to the same bytes, and holds one chance event per street dealt
    /// after the 2nd, one card (or `-`) per seat, the cards the deal gave.
    #[test]
    fn records_play_back_with_one_event_per_street() {
        let mut streets = [0; 4];
        for game in tables() {
            for g in 0..100 {
                let seeds = GameSeeds::derive(11, 0, g, 1);
                let lineup: Vec<&str> = (0..game.seats).map(|x| LINEUP[(x + g as usize) % 5]).collect();
                let record = recorded(&game, &lineup, &seeds);
                let (value, events) = (record.log.to_json(), record.log.read_events());
                let back = replay(&game, &seeds, &events, Ending::Over).unwrap_or_else(|d| panic!("{d:?}"));
                assert_written_as_serde_writes(&game, &back.state);
                assert_eq!(String::from_utf8_lossy(&back.log.body), String::from_utf8_lossy(&record.log.body));
                let s = &back.state;
                let chance: Vec<&String> =
                    events.iter().filter_map(|e| if let Event::Chance(t) = e { Some(t) } else { None }).collect();
                let last = s.street().min(STREETS - 1);
                streets[last] += 1;
                assert_eq!(chance.len(), last, "streets 3 to {} dealt: {chance:?}", last + 2);
                for (k, text) in chance.iter().enumerate() {
                    let (head, cards) = text.split_once(": ").unwrap();
                    assert_eq!(head, format!("street {}", k + 3));
                    let cards: Vec<&str> = cards.split(' ').collect();
                    assert_eq!(cards.len(), game.seats);
                    for (x, card) in cards.iter().enumerate() {
                        let dealt = value["deal"]["cards"][x][k + 2].as_str().unwrap();
                        // Only a seat that folded misses a card, and it misses every later one.
                        match s.up(x).get(k + 1) {
                            Some(_) => assert_eq!(*card, dealt),
                            None => assert!(*card == "-" && !s.in_hand(x), "{text}"),
                        }
                    }
                }
            }
        }
        // Hands ended on every street, and some went to the end.
        assert!(streets.iter().all(|&n| n > 0), "{streets:?}");
    }

    #[test]
    fn the_deal_holds_every_card_the_state_deals() {
        for game in tables() {
            for seed in 0..50 {
                let s = game.deal(&mut DealRng::seed_from_u64(seed));
                assert_written_as_serde_writes(&game, &s);
                let deal = json(game.deal_json(&s));
                assert_eq!(deal["ante"], game.ante);
                assert_eq!(deal["stacks"], serde_json::json!(vec![game.stack; game.seats]));
                assert_eq!(deal["first"], game.to_act(&s).unwrap());
                let mut all = std::collections::BTreeSet::new();
                for x in 0..game.seats {
                    let cards = deal["cards"][x].as_array().unwrap();
                    assert_eq!(cards.len(), 5);
                    assert_eq!(cards[0], s.hole(x).to_string(), "the hole card first");
                    assert_eq!(cards[1], s.up(x)[0].to_string());
                    for (c, d) in cards.iter().zip(s.dealt(x)) {
                        assert_eq!(c.as_str().unwrap(), d.to_string());
                        assert!(game.deck.contains(d));
                        all.insert(d);
                    }
                }
                assert_eq!(all.len(), 5 * game.seats, "distinct cards");
            }
        }
    }

    /// A record whose actions or cards were changed does not play back to the same record.
    #[test]
    fn a_changed_record_is_caught() {
        let game = Stud::new(3, 1, 100, crate::cards::CardSet::FULL);
        let mut caught = 0;
        for g in 0..100 {
            let seeds = GameSeeds::derive(5, 0, g, 1);
            let record = recorded(&game, &["always-call", "expert", "always-call"], &seeds);
            let events = record.log.read_events();
            // A seat that stayed in folds instead: the later streets show `-` for it (or it
            // acts again), which the record does not say.
            let Some(at) = events.iter().position(|e| matches!(e, Event::Action(_, a) if a == "call" || a == "check"))
            else {
                continue;
            };
            let mut changed = events.clone();
            let Event::Action(seat, _) = &events[at] else { unreachable!() };
            changed[at] = Event::Action(*seat, "fold".into());
            let ok = replay(&game, &seeds, &changed, Ending::Over).map(|r| r.log.body);
            assert!(ok.is_err() || ok.as_ref().unwrap() != &record.log.body);
            caught += ok.is_err() as u32;
            // A street's cards changed.
            if let Some(k) = events.iter().position(|e| matches!(e, Event::Chance(_))) {
                let mut changed = events.clone();
                let Event::Chance(text) = &events[k] else { unreachable!() };
                changed[k] = Event::Chance(text.replacen(':', ": 2c", 1));
                assert!(replay(&game, &seeds, &changed, Ending::Over).is_err());
                changed.remove(k);
                assert!(replay(&game, &seeds, &changed, Ending::Over).is_err(), "a street left out");
            }
        }
        assert!(caught > 50, "{caught}");
    }
}
