//! Zhajinhua on the wire (docs/protocol.md): the seat's view as JSON (its cards only once it has
//! looked), actions as `look`, `fold`, `call`, `raise N` (N = a rung of the stake ladder) and
//! `compare S` (S = the seat asked), cards as `As`, `Td`.

use serde_json::{json, Value};

use crate::core::wire::{number, words};
use crate::core::Wire;

use super::eval::Category;
use super::table::{Action, Event, Public, State, View, Zhajinhua};

fn cards(cards: &[crate::cards::Card]) -> Value {
    cards.iter().map(|c| c.to_string()).collect()
}

impl Wire for Zhajinhua {
    fn view_json(&self, v: &View<'_>) -> Value {
        // Every field by name: a field added to the view must be added here too (or left out
        // on purpose), so the wire never says more or less than the view.
        let View { seat, public, cards: own } = v;
        let Public { seats, pot, stack, put_in, in_hand, seen, stake, round, to_act, events } = public;
        let n = *seats;
        let history: Vec<Value> = events
            .iter()
            .map(|event| match *event {
                Event::Look { seat } => json!({ "seat": seat, "action": "look" }),
                Event::Fold { seat } => json!({ "seat": seat, "action": "fold" }),
                Event::Call { seat, paid } => json!({ "seat": seat, "action": "call", "paid": paid }),
                Event::Raise { seat, stake, paid } => {
                    json!({ "seat": seat, "action": self.action_text(&Action::Raise(stake)), "paid": paid })
                }
                Event::Compare { seat, target, paid, loser } => json!({
                    "seat": seat,
                    "action": self.action_text(&Action::Compare(target)),
                    "paid": paid,
                    "loser": loser,
                }),
            })
            .collect();
        json!({
            "seat": seat,
            "seats": n,
            "cards": own.map(|c| cards(&c)),
            "pot": pot,
            "stacks": &stack[..n],
            "put_in": &put_in[..n],
            "in": &in_hand[..n],
            "seen": &seen[..n],
            "stake": stake,
            "round": round,
            "to_act": to_act,
            "history": history,
        })
    }

    fn legal_texts(&self, v: &View<'_>) -> Vec<String> {
        let mut actions = Vec::with_capacity(16);
        self.legal(v.public, &mut actions);
        actions.iter().map(|a| self.action_text(a)).collect()
    }

    fn action_text(&self, action: &Action) -> String {
        match action {
            Action::Look => "look".into(),
            Action::Fold => "fold".into(),
            Action::Call => "call".into(),
            Action::Raise(to) => format!("raise {to}"),
            Action::Compare(seat) => format!("compare {seat}"),
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

    /// At a showdown every seat still in shows its cards and category; the others (folded, lost a
    /// compare) are `null`. A hand won by the last seat standing shows nothing.
    fn reveal(&self, s: &State) -> Value {
        let n = s.public.seats;
        let shown: Vec<Value> = (0..n)
            .map(|seat| {
                if s.showdown && s.public.in_hand[seat] {
                    json!({ "cards": cards(&s.hands[seat]), "category": Category::of(s.values[seat]).name() })
                } else {
                    Value::Null
                }
            })
            .collect();
        json!({ "shown": shown })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::checked_legal_texts;
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
                let view = game.view_json(&v);
                assert_eq!(view["cards"].is_null(), !s.public.seen[seat], "cards only once looked");
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
            }
            let shown = game.reveal(&s)["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            assert_eq!(shown > 0, s.showdown);
        }
    }
}
