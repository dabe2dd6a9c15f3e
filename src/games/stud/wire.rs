//! Five-card stud on the wire (docs/protocol.md): the seat's view as JSON, actions as `fold`,
//! `check`, `call`, `bet N` (N = this seat's whole bet on the street) and `showhand` (梭哈: as
//! much as the shortest stack in the hand allows), cards as `Ah`, `Td`.

use serde_json::{json, Value};

use crate::core::wire::{number, words};
use crate::core::Wire;

use super::engine::{Action, State, Stud, View};
use super::eval::value;

fn cards(cards: &[crate::cards::Card]) -> Value {
    cards.iter().map(|c| c.to_string()).collect()
}

impl Wire for Stud {
    fn view_json(&self, v: &View<'_>) -> Value {
        let seats = 0..v.seats();
        json!({
            "seat": v.seat(),
            "seats": v.seats(),
            "street": v.street(),
            "hole": v.hole().to_string(),
            "up": seats.clone().map(|s| cards(v.up(s))).collect::<Vec<_>>(),
            "in": seats.clone().map(|s| v.in_hand(s)).collect::<Vec<_>>(),
            "stacks": seats.clone().map(|s| v.stack(s)).collect::<Vec<_>>(),
            "committed": seats.map(|s| v.committed(s)).collect::<Vec<_>>(),
            "pot": v.pot(),
            "current_bet": v.current_bet(),
            "to_call": v.to_call(),
            "my_bet": v.my_bet(),
            "bet": v.max_bet_to().map(|max| json!({ "min": v.min_bet_to(self), "max": max })),
        })
    }

    /// Fold and call when facing a bet, else check; then bets of the minimum and the pot, and the
    /// show hand, when a bet is allowed.
    fn legal_texts(&self, v: &View<'_>) -> Vec<String> {
        let mut actions = Vec::with_capacity(6);
        v.legal_actions(self, &mut actions);
        actions.iter().map(|a| self.action_text(a)).collect()
    }

    fn action_text(&self, action: &Action) -> String {
        match action {
            Action::Fold => "fold".into(),
            Action::Check => "check".into(),
            Action::Call => "call".into(),
            Action::Bet(to) => format!("bet {to}"),
            Action::ShowHand => "showhand".into(),
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

    /// At a showdown, every seat still in shows all five cards (hole card first) and its
    /// category; the others are `null`.
    fn reveal(&self, s: &State) -> Value {
        let in_hand = (0..s.seats()).filter(|&seat| s.in_hand(seat)).count();
        let showdown = s.is_over() && in_hand > 1;
        let shown: Vec<Value> = (0..s.seats())
            .map(|seat| {
                if showdown && s.in_hand(seat) {
                    json!({ "cards": cards(&s.dealt(seat)), "category": value(s.hand(seat)).category().name() })
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
        let game = Stud::new(3, 1, 100, crate::cards::CardSet::FULL);
        let mut rng = DealRng::seed_from_u64(5);
        let mut showdowns = 0;
        for seed in 0..300 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                let legal = checked_legal_texts(&game, &s, &v);
                let view = game.view_json(&v);
                assert_eq!(view["hole"], v.hole().to_string());
                let pick = game.parse_action(&legal[rng.random_range(0..legal.len())]).unwrap();
                game.apply(&mut s, &pick).unwrap();
            }
            let shown = game.reveal(&s)["shown"].as_array().unwrap().iter().filter(|v| !v.is_null()).count();
            showdowns += (shown > 1) as u32;
            assert!(shown != 1, "one seat alone shows nothing");
        }
        assert!(showdowns > 10);
    }
}
