//! Five-card stud on the wire (docs/protocol.md): the seat's view as JSON, actions as `fold`,
//! `check`, `call`, `bet N` (N = this seat's whole bet on the street) and `showhand` (梭哈: as
//! much as the shortest stack in the hand allows), cards as `Ah`, `Td`.

use std::fmt::Display;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::wire::{number, show, texts, words, Bounds, List, Texts};
use crate::core::{IllegalAction, Wire};

use super::engine::{Action, State, Stud, View};
use super::eval::value;

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
}

/// The view on the wire, field by field as docs/protocol.md lists them.
struct ViewJson<'a, 'v> {
    game: &'a Stud,
    v: &'a View<'v>,
}

impl Serialize for ViewJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.v;
        let seats = 0..v.seats();
        let mut o = s.serialize_struct("view", 13)?;
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
        o.end()
    }
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
        let game = Stud::new(3, 1, 100, crate::cards::CardSet::FULL);
        let mut rng = DealRng::seed_from_u64(5);
        let mut showdowns = 0;
        for seed in 0..300 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                let legal = checked_legal_texts(&game, &s, &v);
                let view = json(game.view_json(&v));
                assert_eq!(view["hole"], v.hole().to_string());
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
            }
            let shown = json(game.reveal(&s))["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            showdowns += (shown > 1) as u32;
            assert!(shown != 1, "one seat alone shows nothing");
        }
        assert!(showdowns > 10);
    }
}
