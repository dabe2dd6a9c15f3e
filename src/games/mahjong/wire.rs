//! Mahjong on the wire (docs/protocol.md): the seat's view as JSON, tiles as `1m`..`9m`,
//! `1s`..`9s`, `1p`..`9p`, `E S W N`, `C F P`, sets as `[1m2m3m]` or `(EEEE)` (a concealed kong),
//! actions as `discard 5m`, `win`, `concealed kong 5m`, `added kong 5m`, `pass`, `pung`, `kong`
//! and `chow 3m` (the lowest tile of the chow).

use std::fmt::Display;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::wire::{show, texts, List, Text, Texts};
use crate::core::Wire;

use super::engine::{Action, Mahjong, PhaseView, State, View};
use super::tiles::{parse_tile, tile_name, Counts, Meld, Tile, HONOR_LETTERS};

/// The tiles of `counts`, each as often as it is held, in tile order.
fn tiles(counts: &Counts) -> impl Serialize + '_ {
    let held = counts.iter().enumerate().flat_map(|(t, &n)| std::iter::repeat_n(t as Tile, n as usize));
    texts(held.map(tile_name))
}

/// Another seat's concealed kong: the set is on the table, its tiles face down.
const FACE_DOWN_KONG: &str = "(????)";

impl Wire for Mahjong {
    fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl Serialize + 'a {
        ViewJson(view)
    }

    fn write_legal(&self, v: &View<'_>, out: &mut Texts) {
        for action in &v.legal {
            out.push(self.action_text(action));
        }
    }

    fn action_text(&self, action: &Action) -> impl Display {
        show(move |f| match *action {
            Action::Discard(t) => write!(f, "discard {}", tile_name(t)),
            Action::Win => f.write_str("win"),
            Action::ConcealedKong(t) => write!(f, "concealed kong {}", tile_name(t)),
            Action::AddedKong(t) => write!(f, "added kong {}", tile_name(t)),
            Action::Pass => f.write_str("pass"),
            Action::Pung => f.write_str("pung"),
            Action::Kong => f.write_str("kong"),
            Action::Chow(t) => write!(f, "chow {}", tile_name(t)),
        })
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        // Case never matters in an action (docs/protocol.md): `5M` is `5m`, `e` is `E` (a tile of
        // one letter is an honor, of two a rank and a suit, so no spelling is ambiguous).
        let tile = |w: &str| {
            let w = if w.len() == 1 { w.to_ascii_uppercase() } else { w.to_ascii_lowercase() };
            parse_tile(&w).map_err(|e| e.to_string())
        };
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

    /// The winner of the last hand won and its fans; in a one-hand game, also the winner's
    /// standing tiles and sets.
    fn reveal(&self, s: &State) -> impl Serialize {
        let shown = s.winner.filter(|_| self.hands == 1);
        Reveal {
            winner: s.winner,
            fans: s.winner.map(|_| s.fans),
            hand: shown.map(|w| tiles(&s.hands[w])),
            melds: shown.map(|w| texts(&s.melds[w])),
        }
    }
}

/// The view on the wire, field by field as docs/protocol.md lists them, the phase's last.
struct ViewJson<'a, 'v>(&'a View<'v>);

impl Serialize for ViewJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        let View { seat, hand, discards, seen, phase, wall_left, hand_no, dealer, flowers, legal: _, .. } = v;
        // Every seat's sets: those this seat may see, then the others face down.
        let melds = (0..discards.len()).map(|seat| {
            let face_down = v.declared(seat) - v.exposed_melds(seat).count();
            let sets = v.exposed_melds(seat).map(Some).chain(std::iter::repeat_n(None, face_down));
            List(sets.map(|set: Option<&Meld>| {
                Text(show(move |f| match set {
                    Some(set) => set.fmt(f),
                    None => f.write_str(FACE_DOWN_KONG),
                }))
            }))
        });
        let mut o = s.serialize_struct("view", 14)?;
        o.serialize_field("seat", seat)?;
        o.serialize_field("hand", &tiles(hand))?;
        o.serialize_field("melds", &List(melds))?;
        o.serialize_field("discards", &List(discards.iter().map(|d| texts(d.iter().map(|&t| tile_name(t))))))?;
        o.serialize_field("seen", &tiles(seen))?;
        o.serialize_field("wall_left", wall_left)?;
        // Which hand of the game this is and the winds it is played in (a full round, `hands =
        // 16`, moves the dealer every hand), and the flowers set aside (the `flowers` option).
        let wind = |k: usize| Text(HONOR_LETTERS[k % 4]);
        o.serialize_field("hand_no", hand_no)?;
        o.serialize_field("dealer", dealer)?;
        o.serialize_field("seat_wind", &wind(seat + 4 - dealer))?;
        o.serialize_field("prevalent_wind", &wind(hand_no / 4))?;
        o.serialize_field("flowers", flowers)?;
        match *phase {
            PhaseView::Turn { drawn } => {
                o.serialize_field("phase", "turn")?;
                o.serialize_field("drawn", &drawn.map(tile_name))?;
            }
            PhaseView::Claim { from, tile } => {
                o.serialize_field("phase", "claim")?;
                o.serialize_field("from", &from)?;
                o.serialize_field("tile", &tile_name(tile))?;
            }
            PhaseView::RobKong { from, tile } => {
                o.serialize_field("phase", "rob_kong")?;
                o.serialize_field("from", &from)?;
                o.serialize_field("tile", &tile_name(tile))?;
            }
        }
        o.end()
    }
}

#[derive(serde::Serialize)]
struct Reveal<H, M> {
    winner: Option<crate::core::Seat>,
    fans: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hand: Option<H>,
    #[serde(skip_serializing_if = "Option::is_none")]
    melds: Option<M>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::checked_legal_texts;
    use crate::core::wire::json;
    use crate::core::{DealRng, Game};
    use rand::{Rng, SeedableRng};
    use serde_json::json;

    /// The wire says what the view says: another seat's concealed kong is face down.
    #[test]
    fn another_seats_concealed_kong_is_face_down_on_the_wire() {
        use super::super::tiles::MeldKind;
        let game = Mahjong::new(8);
        let mut s = game.deal(&mut DealRng::seed_from_u64(1));
        s.melds[2].push(Meld { kind: MeldKind::ConcealedKong, tile: 5 });
        s.melds[2].push(Meld { kind: MeldKind::Pung, tile: 30 });
        assert_eq!(json(game.view_json(&game.view(&s, 2)))["melds"][2], json!(["(6m6m6m6m)", "[NNN]"]));
        assert_eq!(json(game.view_json(&game.view(&s, 0)))["melds"][2], json!(["[NNN]", "(????)"]));
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
                let view = json(game.view_json(&v));
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
            let reveal = json(game.reveal(&s));
            assert_eq!(reveal["winner"].is_null(), s.winner.is_none());
        }
        for kind in ["discard", "win", "pass", "pung", "chow"] {
            assert!(kinds.contains(kind), "{kind} never legal in {kinds:?}");
        }
        assert_eq!(game.parse_action("Concealed Kong E").unwrap(), Action::ConcealedKong(27));
        assert!(game.parse_action("discard 5x").unwrap_err().contains("bad tile"));
    }
}
