//! Zhajinhua on the wire (docs/book/src/protocol.md): the seat's view as JSON (its cards only once it has
//! looked), actions as `look`, `fold`, `call`, `raise N` (N = a rung of the stake ladder) and
//! `compare S` (S = the seat asked), cards as `As`, `Td`.
//!
//! In a record (records.jsonl) the deal is `{"ante", "stacks", "stakes", "first", "cards"}`: the
//! ante, each seat's chips before it, the stake ladder, the seat that acts first and each seat's
//! three cards. All the cards are dealt at once and nothing else is left to chance (a compare is
//! decided by the cards dealt), so a record has no chance events.

use std::fmt::Display;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::json_out::{push_word_number, Array, Cards, Object, With};
use crate::core::readable::Screen;
use crate::core::wire::{number, show, texts, words, List, Text, Texts, Told};
use crate::core::{Game, Seat, Wire};

use super::engine::{Action, Event, Public, State, View, Zhajinhua};
use super::eval::Category;
use super::table;

impl Wire for Zhajinhua {
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a {
        ViewJson { game: self, v: view }
    }

    fn write_legal(&self, v: &View<'_>, out: &mut Texts) {
        let mut actions = Vec::with_capacity(16);
        self.legal(v.public, &mut actions);
        for action in &actions {
            out.push(self.action_text(action));
        }
    }

    fn action_text(&self, action: &Action) -> impl Display {
        show(move |f| match action {
            Action::Look => f.write_str("look"),
            Action::Fold => f.write_str("fold"),
            Action::Call => f.write_str("call"),
            Action::Raise(to) => write!(f, "raise {to}"),
            Action::Compare(seat) => write!(f, "compare {seat}"),
        })
    }

    /// [`Wire::action_text`] written by hand (every action of every hand's record).
    fn write_action(&self, action: &Action, out: &mut Vec<u8>) {
        match *action {
            Action::Look => out.extend_from_slice(b"\"look\""),
            Action::Fold => out.extend_from_slice(b"\"fold\""),
            Action::Call => out.extend_from_slice(b"\"call\""),
            Action::Raise(to) => push_word_number(out, b"raise ", to),
            Action::Compare(seat) => push_word_number(out, b"compare ", seat),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        match words(text).as_slice() {
            [w] if w == "look" => Ok(Action::Look),
            [w] if w == "fold" => Ok(Action::Fold),
            [w] if w == "call" => Ok(Action::Call),
            [w, n] if w == "raise" => Ok(Action::Raise(number(n, "a stake")?)),
            [w, n] if w == "compare" => Ok(Action::Compare(number(n, "a seat")?)),
            _ => Err(format!("`{text}` is not a zhajinhua action (look, fold, call, raise N, compare SEAT)")),
        }
    }

    /// The table drawn: stacks, what each seat put in, who looked, your cards (table.rs).
    fn view_text(&self, v: &View<'_>, screen: &Screen<'_>) -> String {
        table::draw(self, v, screen)
    }

    /// Every action in words, a compare with its loser (table.rs).
    fn narrate(&self, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        table::narrate(v, screen, told, out)
    }

    /// The hands shown down with their categories, and who took the pot (table.rs).
    fn end_text(&self, s: &State, screen: &Screen<'_>) -> String {
        table::ending(s, screen)
    }

    /// At a showdown, the cards and category of every seat still in; `null` for the others.
    fn reveal(&self, s: &State) -> impl Serialize {
        let shown = (0..s.public.seats).map(move |seat| {
            (s.showdown && s.public.in_hand[seat])
                .then(|| Shown { cards: texts(&s.hands[seat]), category: Category::of(s.values[seat]).name() })
        });
        Reveal { shown: List(shown) }
    }

    /// [`Wire::deal_json`] written by hand: a hand's record costs about as much as the hand.
    fn write_deal(&self, s: &State, out: &mut Vec<u8>) {
        let p = &s.public;
        Object::new(out)
            .field("ante", &self.ante)
            .field("stacks", &Array((0..p.seats).map(|x| p.stack[x] + p.put_in[x])))
            .field("stakes", &self.stakes)
            .field("first", &self.to_act(s))
            .field("cards", &Array(s.hands[..p.seats].iter().map(Cards)))
            .end();
    }

    /// [`Wire::reveal`] written by hand, as [`Wire::write_deal`] is.
    fn write_reveal(&self, s: &State, out: &mut Vec<u8>) {
        let shown = (0..s.public.seats).map(|seat| {
            (s.showdown && s.public.in_hand[seat]).then_some(With(move |out: &mut Vec<u8>| {
                let category = Category::of(s.values[seat]).name();
                Object::new(out).field("cards", &Cards(s.hands[seat])).field("category", category).end()
            }))
        });
        Object::new(out).field("shown", &Array(shown)).end();
    }

    /// The whole deal: every seat's three cards (seen or not), and the table the betting starts
    /// from. `chance` keeps its default (nothing after the deal is left to chance).
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        let p = &s.public;
        Deal {
            ante: self.ante,
            // The ante is already in the pot at the deal: a seat's chips are what it had before.
            stacks: List((0..p.seats).map(|x| p.stack[x] + p.put_in[x])),
            stakes: &self.stakes,
            first: self.to_act(s),
            cards: List(s.hands[..p.seats].iter().map(texts)),
        }
    }
}

#[derive(serde::Serialize)]
struct Deal<'a, St, C> {
    ante: i64,
    stacks: St,
    stakes: &'a [i64],
    first: Option<Seat>,
    cards: C,
}

/// The view on the wire, field by field as docs/book/src/protocol.md lists them.
struct ViewJson<'a, 'v> {
    game: &'a Zhajinhua,
    v: &'a View<'v>,
}

impl Serialize for ViewJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let View { seat, public, cards: own } = self.v;
        let Public { seats, pot, stack, put_in, in_hand, seen, stake, round, to_act, events } = public;
        let n = *seats;
        let mut o = s.serialize_struct("view", 12)?;
        o.serialize_field("seat", seat)?;
        o.serialize_field("seats", seats)?;
        o.serialize_field("cards", &own.map(texts))?;
        o.serialize_field("pot", pot)?;
        o.serialize_field("stacks", &stack[..n])?;
        o.serialize_field("put_in", &put_in[..n])?;
        o.serialize_field("in", &in_hand[..n])?;
        o.serialize_field("seen", &seen[..n])?;
        o.serialize_field("stake", stake)?;
        o.serialize_field("round", round)?;
        o.serialize_field("to_act", to_act)?;
        o.serialize_field("history", &List(events.iter().map(|event| self.event(event))))?;
        o.end()
    }
}

impl ViewJson<'_, '_> {
    /// An event as the action that made it, with what it cost and, for a compare, who lost.
    fn event(&self, event: &Event) -> EventJson<Text<impl Display + '_>> {
        let (seat, action, paid, loser) = match *event {
            Event::Look { seat } => (seat, Action::Look, None, None),
            Event::Fold { seat } => (seat, Action::Fold, None, None),
            Event::Call { seat, paid } => (seat, Action::Call, Some(paid), None),
            Event::Raise { seat, stake, paid } => (seat, Action::Raise(stake), Some(paid), None),
            Event::Compare { seat, target, paid, loser } => (seat, Action::Compare(target), Some(paid), Some(loser)),
        };
        let game = self.game;
        EventJson { seat, action: Text(show(move |f| game.action_text(&action).fmt(f))), paid, loser }
    }
}

/// An entry of the history: `{"seat": 0, "action": "call", "paid": 1}`.
#[derive(serde::Serialize)]
struct EventJson<A> {
    seat: Seat,
    action: A,
    #[serde(skip_serializing_if = "Option::is_none")]
    paid: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loser: Option<Seat>,
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
        assert_action_written_as_serde_writes, assert_written_as_serde_writes, checked_legal_texts,
    };
    use crate::core::{DealRng, Game};
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_legal_action_reads_back_and_is_accepted() {
        let game = Zhajinhua::with_seats(4);
        let mut rng = DealRng::seed_from_u64(7);
        for seed in 0..300 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                let legal = checked_legal_texts(&game, &s, &v);
                let view = json(game.view_json(&v));
                assert_eq!(view["cards"].is_null(), !s.public.seen[seat], "cards only once looked");
                for text in &legal {
                    assert_action_written_as_serde_writes(&game, &game.parse_action(text).unwrap());
                }
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
            }
            let shown = json(game.reveal(&s))["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            assert_eq!(shown > 0, s.showdown);
        }
    }

    use crate::core::record::{replay, Ending, Event};
    use crate::core::{play_kept, GameDef, GameRecord, GameSeeds, Keep, Params, Status};

    /// One game played by the game's bots, `lineup` naming a kind per seat, its record kept.
    fn recorded(game: &Zhajinhua, lineup: &[&str], seeds: &GameSeeds) -> GameRecord {
        let mut bots: Vec<_> = lineup
            .iter()
            .map(|name| {
                let kind = Zhajinhua::bot_kinds().into_iter().find(|k| k.name == *name).unwrap();
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

    fn tables() -> Vec<Zhajinhua> {
        let mut rich = Zhajinhua::with_seats(6);
        (rich.ante, rich.stack, rich.stakes, rich.special_235) = (2, 500, vec![2, 4, 8, 20, 50], true);
        vec![Zhajinhua::with_seats(2), Zhajinhua::with_seats(3), rich]
    }

    const LINEUP: [&str; 4] = ["ev", "random", "always-call", "threshold"];

    /// Every record plays back to the same bytes; it has actions only (no chance events), and its
    /// deal gives the cards the showdown shows.
    #[test]
    fn records_play_back_and_hold_only_actions() {
        let mut showdowns = 0;
        for game in tables() {
            for g in 0..100 {
                let seeds = GameSeeds::derive(3, 0, g, 1);
                let lineup: Vec<&str> = (0..game.seats).map(|x| LINEUP[(x + g as usize) % 4]).collect();
                let record = recorded(&game, &lineup, &seeds);
                let (value, events) = (record.log.to_json(), record.log.read_events());
                assert!(events.iter().all(|e| matches!(e, Event::Action(..))), "{events:?}");
                let back = replay(&game, &seeds, &events, Ending::Over).unwrap_or_else(|d| panic!("{d:?}"));
                assert_written_as_serde_writes(&game, &back.state);
                assert_eq!(String::from_utf8_lossy(&back.log.body), String::from_utf8_lossy(&record.log.body));
                for (x, shown) in value["end"]["shown"].as_array().unwrap().iter().enumerate() {
                    if !shown.is_null() {
                        assert_eq!(shown["cards"], value["deal"]["cards"][x]);
                        showdowns += 1;
                    }
                }
            }
        }
        assert!(showdowns > 50, "{showdowns}");
    }

    #[test]
    fn the_deal_holds_every_seats_cards_and_the_table() {
        for game in tables() {
            for seed in 0..50 {
                let s = game.deal(&mut DealRng::seed_from_u64(seed));
                assert_written_as_serde_writes(&game, &s);
                let deal = json(game.deal_json(&s));
                assert_eq!(deal["ante"], game.ante);
                assert_eq!(deal["stacks"], serde_json::json!(vec![game.stack; game.seats]));
                assert_eq!(deal["stakes"], serde_json::json!(game.stakes));
                assert_eq!(deal["first"], 0);
                let mut all = std::collections::BTreeSet::new();
                assert_eq!(deal["cards"].as_array().unwrap().len(), game.seats);
                for x in 0..game.seats {
                    let cards: Vec<String> = s.hands[x].iter().map(|c| c.to_string()).collect();
                    assert_eq!(deal["cards"][x], serde_json::json!(cards));
                    all.extend(s.hands[x]);
                }
                assert_eq!(all.len(), 3 * game.seats, "distinct cards");
            }
        }
    }

    /// A changed action is refused or plays back to another record.
    #[test]
    fn a_changed_action_is_caught() {
        let game = Zhajinhua::with_seats(3);
        let mut refused = 0;
        for g in 0..100 {
            let seeds = GameSeeds::derive(9, 0, g, 1);
            let record = recorded(&game, &["always-call", "ev", "random"], &seeds);
            let events = record.log.read_events();
            let Event::Action(seat, action) = &events[0] else { unreachable!("actions only") };
            // The first seat folds at once (or, had it folded, calls): the seats after it either
            // act where the rules do not let them or play to another end.
            let other = if action == "fold" { "call" } else { "fold" };
            let mut changed = events.clone();
            changed[0] = Event::Action(*seat, other.into());
            let back = replay(&game, &seeds, &changed, Ending::Over).map(|r| r.log.body);
            assert!(back.as_ref().is_err() || back.as_ref().unwrap() != &record.log.body);
            refused += back.is_err() as u32;
        }
        assert!(refused > 50, "{refused}");
    }
}
