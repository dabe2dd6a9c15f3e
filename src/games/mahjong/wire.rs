//! Mahjong on the wire (docs/protocol.md): the seat's view as JSON, tiles as `1m`..`9m`,
//! `1s`..`9s`, `1p`..`9p`, `E S W N`, `C F P`, sets as `[1m2m3m]` or `(EEEE)` (a concealed kong),
//! actions as `discard 5m`, `win`, `concealed kong 5m`, `added kong 5m`, `pass`, `pung`, `kong`
//! and `chow 3m` (the lowest tile of the chow).

use serde_json::{json, Value};

use crate::core::Wire;

use super::engine::{Action, Mahjong, PhaseView, State, View};
use super::tiles::{parse_tile, tile_name, Counts, Meld, Tile};

/// The tiles of a count, each as often as it is there, in kind order.
fn tiles(counts: &Counts) -> Value {
    let names = counts.iter().enumerate().flat_map(|(t, &n)| std::iter::repeat_n(tile_name(t as Tile), n as usize));
    names.collect()
}

/// Another seat's concealed kong: declared, its tile unseen.
const FACE_DOWN_KONG: &str = "(????)";

fn sets(melds: &[Meld]) -> Value {
    melds.iter().map(|m| m.to_string()).collect()
}

impl Wire for Mahjong {
    fn view_json(&self, v: &View<'_>) -> Value {
        // Every field by name: a field added to the view must be added here too (or left out
        // on purpose), so the wire never says more or less than the view.
        // The declared sets go through the view's own accessors: another seat's concealed kong is
        // face down (`(????)`, after its other sets), as the view has it.
        let View { seat, hand, discards, seen, phase, wall_left, legal: _, .. } = v;
        let melds = (0..discards.len()).map(|s| {
            let shown: Vec<String> = v.exposed_melds(s).map(|m| m.to_string()).collect();
            let face_down = v.declared(s) - shown.len();
            Value::from(
                shown.into_iter().chain(std::iter::repeat_n(FACE_DOWN_KONG.to_string(), face_down)).collect::<Vec<_>>(),
            )
        });
        let mut out = json!({
            "seat": seat,
            "hand": tiles(hand),
            "melds": melds.collect::<Vec<_>>(),
            "discards": discards.iter().map(|d| d.iter().map(|&t| tile_name(t)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "seen": tiles(seen),
            "wall_left": wall_left,
        });
        let phase = match *phase {
            PhaseView::Turn { drawn } => json!({ "phase": "turn", "drawn": drawn.map(tile_name) }),
            PhaseView::Claim { from, tile } => json!({ "phase": "claim", "from": from, "tile": tile_name(tile) }),
            PhaseView::RobKong { from, tile } => json!({ "phase": "rob_kong", "from": from, "tile": tile_name(tile) }),
        };
        out.as_object_mut().expect("an object").extend(phase.as_object().expect("an object").clone());
        out
    }

    fn legal_texts(&self, v: &View<'_>) -> Vec<String> {
        v.legal.iter().map(|a| self.action_text(a)).collect()
    }

    fn action_text(&self, action: &Action) -> String {
        match *action {
            Action::Discard(t) => format!("discard {}", tile_name(t)),
            Action::Win => "win".into(),
            Action::ConcealedKong(t) => format!("concealed kong {}", tile_name(t)),
            Action::AddedKong(t) => format!("added kong {}", tile_name(t)),
            Action::Pass => "pass".into(),
            Action::Pung => "pung".into(),
            Action::Kong => "kong".into(),
            Action::Chow(t) => format!("chow {}", tile_name(t)),
        }
    }

    /// Tile names keep their case (`5m`, `E`); the action words may be written in any case.
    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let tile = |w: &str| parse_tile(w).map_err(|e| e.to_string());
        match (lower.iter().map(String::as_str).collect::<Vec<_>>().as_slice(), words.last()) {
            (["win"], _) => Ok(Action::Win),
            (["pass"], _) => Ok(Action::Pass),
            (["pung"], _) => Ok(Action::Pung),
            (["kong"], _) => Ok(Action::Kong),
            (["discard", _], Some(t)) => Ok(Action::Discard(tile(t)?)),
            (["chow", _], Some(t)) => Ok(Action::Chow(tile(t)?)),
            (["concealed", "kong", _], Some(t)) => Ok(Action::ConcealedKong(tile(t)?)),
            (["added", "kong", _], Some(t)) => Ok(Action::AddedKong(tile(t)?)),
            _ => Err(format!(
                "`{text}` is not a mahjong action (discard T, win, concealed kong T, added kong T, pass, pung, kong, chow T)"
            )),
        }
    }

    /// The winner of the last hand won and its fans (`null` when no hand was won); in a one-hand
    /// game also the winner's standing tiles and sets, as the winner shows them.
    fn reveal(&self, s: &State) -> Value {
        let mut out = json!({ "winner": s.winner, "fans": s.winner.map(|_| s.fans) });
        if let (Some(w), 1) = (s.winner, self.hands) {
            out["hand"] = tiles(&s.hands[w]);
            out["melds"] = sets(&s.melds[w]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::checked_legal_texts;
    use crate::core::{DealRng, Game};
    use rand::{Rng, SeedableRng};

    /// The wire says what the view says: another seat's concealed kong is face down.
    #[test]
    fn another_seats_concealed_kong_is_face_down_on_the_wire() {
        use super::super::tiles::MeldKind;
        let game = Mahjong::new(8);
        let mut s = game.deal(&mut DealRng::seed_from_u64(1));
        s.melds[2].push(Meld { kind: MeldKind::ConcealedKong, tile: 5 });
        s.melds[2].push(Meld { kind: MeldKind::Pung, tile: 30 });
        assert_eq!(game.view_json(&game.view(&s, 2))["melds"][2], json!(["(6m6m6m6m)", "[NNN]"]));
        assert_eq!(game.view_json(&game.view(&s, 0))["melds"][2], json!(["[NNN]", "(????)"]));
    }

    #[test]
    fn every_legal_action_reads_back_and_is_accepted() {
        let game = Mahjong::new(0);
        let mut rng = DealRng::seed_from_u64(9);
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            while let Some(seat) = game.to_act(&s) {
                let v = game.view(&s, seat);
                let legal = checked_legal_texts(&game, &s, &v);
                kinds.extend(legal.iter().map(|t| t.split(' ').next().unwrap().to_string()));
                let view = game.view_json(&v);
                let held = view["hand"].as_array().unwrap().len() + 3 * view["melds"][seat].as_array().unwrap().len();
                assert!(held == 13 || held == 14, "{view}");
                // Prefer claims and wins, so that every kind of action is seen.
                let pick = legal
                    .iter()
                    .find(|t| !t.starts_with("discard") && *t != "pass")
                    .filter(|_| rng.random_bool(0.8))
                    .unwrap_or(&legal[rng.random_range(0..legal.len())]);
                game.apply(&mut s, &game.parse_action(pick).unwrap()).unwrap();
            }
            let reveal = game.reveal(&s);
            assert_eq!(reveal["winner"].is_null(), s.winner.is_none());
        }
        for kind in ["discard", "win", "pass", "pung", "chow"] {
            assert!(kinds.contains(kind), "{kind} never legal in {kinds:?}");
        }
        assert_eq!(game.parse_action("Concealed Kong E").unwrap(), Action::ConcealedKong(27));
        assert!(game.parse_action("discard 5x").unwrap_err().contains("bad tile"));
    }
}
