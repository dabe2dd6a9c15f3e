//! Zhajinhua on the wire (docs/protocol.md): the seat's view as JSON (its cards only once it has
//! looked), actions as `look`, `fold`, `call`, `raise N` (N = a rung of the stake ladder) and
//! `compare S` (S = the seat asked), cards as `As`, `Td`.

use std::fmt::Display;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::wire::{number, show, texts, words, List, Text, Texts};
use crate::core::{Seat, Wire};

use super::engine::{Action, Event, Public, State, View, Zhajinhua};
use super::eval::Category;

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

    /// At a showdown, the cards and category of every seat still in; `null` for the others.
    fn reveal(&self, s: &State) -> impl Serialize {
        let shown = (0..s.public.seats).map(move |seat| {
            (s.showdown && s.public.in_hand[seat])
                .then(|| Shown { cards: texts(&s.hands[seat]), category: Category::of(s.values[seat]).name() })
        });
        Reveal { shown: List(shown) }
    }
}

/// The view on the wire, field by field as docs/protocol.md lists them.
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
    use crate::core::wire::checked_legal_texts;
    use crate::core::wire::json;
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
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
            }
            let shown = json(game.reveal(&s))["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            assert_eq!(shown > 0, s.showdown);
        }
    }
}
