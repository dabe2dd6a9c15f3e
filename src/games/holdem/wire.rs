//! Hold'em on the wire (docs/protocol.md): the seat's view as JSON, actions as `fold`, `check`,
//! `call` and `raise N` (N = this seat's whole bet in the betting round), cards as `Ah`, `Td`.

use serde_json::{json, Value};

use crate::core::wire::{number, words};
use crate::core::{Seat, Wire};

use super::game::{Action, Event, Holdem, State, View};

fn cards(cards: &[crate::cards::Card]) -> Value {
    cards.iter().map(|c| c.to_string()).collect()
}

impl Wire for Holdem {
    fn view_json(&self, v: &View<'_>) -> Value {
        let seats = 0..v.seats();
        let blinds = v.blinds();
        let history: Vec<Value> = v
            .history()
            .iter()
            .map(|event| match event {
                Event::Act { seat, action } => json!({ "seat": seat, "action": self.action_text(action) }),
                Event::Street(street) => json!({ "street": street }),
            })
            .collect();
        json!({
            "seat": v.seat(),
            "seats": v.seats(),
            "hand": v.hand_no(),
            "button": v.button(),
            "blinds": { "small": blinds.small, "big": blinds.big, "ante": blinds.ante },
            "hole": cards(&v.hole()),
            "board": cards(v.board()),
            "street": v.street(),
            "pot": v.pot(),
            "current_bet": v.current_bet(),
            "to_call": v.to_call(),
            "stacks": seats.clone().map(|s| v.stack(s)).collect::<Vec<_>>(),
            "bets": seats.clone().map(|s| v.bet(s)).collect::<Vec<_>>(),
            "in": seats.map(|s| v.is_in(s)).collect::<Vec<_>>(),
            "raise": v.raise_bounds().map(|(min, max)| json!({ "min": min, "max": max })),
            "history": history,
        })
    }

    /// Fold (only when something is owed), check or call, and the smallest and largest raise.
    fn legal_texts(&self, v: &View<'_>) -> Vec<String> {
        let mut out = Vec::with_capacity(4);
        if v.to_call() > 0 {
            out.extend(["fold".to_string(), "call".to_string()]);
        } else {
            out.push("check".to_string());
        }
        if let Some((min, max)) = v.raise_bounds() {
            out.push(format!("raise {min}"));
            if max > min {
                out.push(format!("raise {max}"));
            }
        }
        out
    }

    /// A check and a call are one action (the engine's `CheckCall`); it is written `call`.
    fn action_text(&self, action: &Action) -> String {
        match action {
            Action::Fold => "fold".into(),
            Action::CheckCall => "call".into(),
            Action::RaiseTo(to) => format!("raise {to}"),
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

    /// The board and the hole cards of the seats at the last hand's showdown (`null` for the
    /// others: a folded hand is not shown).
    fn reveal(&self, s: &State) -> Value {
        let shown_at = |seat: Seat| s.showdown & (1 << seat) != 0;
        let shown: Vec<Value> =
            (0..s.n).map(|seat| if shown_at(seat) { cards(&s.hole[seat]) } else { Value::Null }).collect();
        json!({ "board": cards(s.visible_board()), "shown": shown })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Bot, DealRng, Game};
    use crate::games::holdem::bots;
    use rand::SeedableRng;

    #[test]
    fn every_legal_action_reads_back_and_is_accepted() {
        let game = Holdem::new(3, 50, 100, 1000);
        let mut rng = DealRng::seed_from_u64(3);
        let mut bot = bots::random();
        for seed in 0..200 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                for text in game.legal_texts(&v) {
                    let action = game.parse_action(&text).unwrap();
                    assert_eq!(game.parse_action(&game.action_text(&action)).unwrap(), action);
                    let mut probe = s.clone();
                    assert!(game.apply(&mut probe, &action).is_ok(), "{text} refused");
                }
                let view = game.view_json(&v);
                assert_eq!(view["to_call"], v.to_call());
                assert_eq!(view["hole"].as_array().unwrap().len(), 2);
                let a = bot.act(&game, &v, &mut rng);
                game.apply(&mut s, &a).unwrap();
            }
        }
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
        let json = game.view_json(&v);
        assert_eq!(json["raise"], json!({ "min": 200, "max": 1000 }));
        assert_eq!(json["board"], json!([]));
    }
}
