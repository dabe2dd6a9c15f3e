//! Mahjong on the wire (docs/book/src/protocol.md): the seat's view as JSON, tiles as `1m`..`9m`,
//! `1s`..`9s`, `1p`..`9p`, `E S W N`, `C F P`, sets as `[1m2m3m]` or `(EEEE)` (a concealed kong),
//! actions as `discard 5m`, `win`, `concealed kong 5m`, `added kong 5m`, `pass`, `pung`, `kong`
//! and `chow 3m` (the lowest tile of the chow).
//!
//! In a record (records.jsonl), a flower is `H` (花; flowers never reach the wire otherwise). The
//! deal is the first hand's table: `hand_no`, `hands_per_game`, `dealer`, the winds, the `wall`
//! in draw order (every tile, flowers included: the deal and the draws take from its front, a
//! kong's or a flower's replacement from its far end), the `hands` as dealt (13 tiles a seat,
//! flowers set aside and replaced; the dealer's 14th is its first draw, `drawn`) and the
//! `flowers` each seat set aside. The chance events, one per tile taken from the wall in play:
//! - `draw 2 5m`: seat 2 draws 5m from the front of the wall (`draw 2 H`: a flower, set aside);
//! - `replace 2 7s`: seat 2 takes a replacement from the far end (after a kong or a flower);
//! - `exhausted 2` (`exhausted 2 H H`): seat 2 was to draw and the live wall was empty (or held only
//!   flowers, which it set aside): the hand is a draw;
//! - `hand 1 dealer 1 wall 5m E ...`: in a game of several hands, the next hand (from 0) and its
//!   wall in draw order; it is dealt from the wall as the first was (13 tiles a seat from the
//!   dealer round, flowers replaced, the dealer's first draw), the winds follow from the hand and
//!   the dealer.

use std::fmt::{Display, Write as _};

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::json_out::{Array, Json, Object};
use crate::core::readable::Screen;
use crate::core::wire::{show, texts, write_int, List, Text, Texts, Told};
use crate::core::Wire;

use super::engine::{Action, Mahjong, Phase, PhaseView, State, View, FLOWER, SEATS};
use super::table;
use super::tiles::{parse_tile, tile_name, Counts, Meld, Tile, HONOR_LETTERS, SUIT_LETTERS};

/// The tiles of `counts`, each as often as it is held, in tile order.
fn tiles(counts: &Counts) -> impl Serialize + '_ {
    let held = counts.iter().enumerate().flat_map(|(t, &n)| std::iter::repeat_n(t as Tile, n as usize));
    texts(held.map(tile_name))
}

/// A tile of a wall as a record writes it, flowers as `H`, straight into `text` (a hand's record
/// writes some four hundred).
fn push_tile(text: &mut String, t: Tile) {
    let (first, second) = tile_chars(t);
    text.push(first);
    text.extend(second);
}

/// A tile's letters (a flower's `H`) appended as they are.
fn push_tile_bytes(out: &mut Vec<u8>, t: Tile) {
    let (first, second) = tile_chars(t);
    out.push(first as u8);
    if let Some(second) = second {
        out.push(second as u8);
    }
}

/// A tile as a JSON string (`"5m"`, `"E"`, a flower `"H"`), written by hand.
#[derive(Clone, Copy)]
struct TileJson(Tile);

impl Json for TileJson {
    fn json(&self, out: &mut Vec<u8>) {
        out.push(b'"');
        push_tile_bytes(out, self.0);
        out.push(b'"');
    }
}

/// The tiles of `counts` as [`tiles`] writes them, by hand.
fn held_tiles(counts: &Counts) -> Array<impl Iterator<Item = TileJson> + Clone + '_> {
    let held = counts.iter().enumerate().flat_map(|(t, &n)| std::iter::repeat_n(t as Tile, n as usize));
    Array(held.map(TileJson))
}

/// A wall's tile as a JSON string.
fn wall_tile(t: Tile) -> Text<impl Display> {
    Text(show(move |f| {
        let (first, second) = tile_chars(t);
        f.write_char(first)?;
        second.map_or(Ok(()), |c| f.write_char(c))
    }))
}

/// The one or two letters of a wall's tile: `5m`, `E`, `H` (a flower).
fn tile_chars(t: Tile) -> (char, Option<char>) {
    match t {
        FLOWER => ('H', None),
        27.. => (HONOR_LETTERS[(t - 27) as usize], None),
        _ => (char::from(b'1' + t % 9), Some(SUIT_LETTERS[(t / 9) as usize])),
    }
}

/// Where a record's chance events stand ([`Wire::chance`]'s `seen`): the hand being played, the
/// tiles taken from its wall (front and far end) and the hands won so far (a hand that ends
/// without a new win ended on an empty wall).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mark {
    hand: usize,
    front: usize,
    back: usize,
    wins: u32,
}

impl Mark {
    fn of(s: &State) -> Mark {
        let (front, back) = s.taken();
        Mark { hand: s.hand_no, front, back, wins: s.wins.iter().sum() }
    }

    /// Packed into a `seen`; bit 0 is set, so that 0 means nothing seen yet. A hand number
    /// (< 16), a wall position (<= 144) and a count of wins (<= 16) each fit in a byte.
    fn pack(self) -> u64 {
        1 | (self.hand as u64) << 8 | (self.front as u64) << 16 | (self.back as u64) << 24 | u64::from(self.wins) << 32
    }

    fn unpack(seen: u64) -> Mark {
        let byte = |k: u32| (seen >> (8 * k)) & 0xff;
        Mark { hand: byte(1) as usize, front: byte(2) as usize, back: byte(3) as usize, wins: byte(4) as u32 }
    }
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
        *action
    }

    /// [`Wire::action_text`] written by hand: a hand's record holds a hundred actions or more.
    fn write_action(&self, action: &Action, out: &mut Vec<u8>) {
        let (words, tile): (&[u8], _) = match *action {
            Action::Discard(t) => (b"discard ", Some(t)),
            Action::Win => (b"win", None),
            Action::ConcealedKong(t) => (b"concealed kong ", Some(t)),
            Action::AddedKong(t) => (b"added kong ", Some(t)),
            Action::Pass => (b"pass", None),
            Action::Pung => (b"pung", None),
            Action::Kong => (b"kong", None),
            Action::Chow(t) => (b"chow ", Some(t)),
        };
        out.push(b'"');
        out.extend_from_slice(words);
        if let Some(t) = tile {
            push_tile_bytes(out, t);
        }
        out.push(b'"');
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        // Case never matters in an action (docs/book/src/protocol.md): `5M` is `5m`, `e` is `E` (a tile of
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

    /// The table drawn to the terminal's width: seats, sets, discards, your hand (table.rs).
    fn view_text(&self, v: &View<'_>, screen: &Screen<'_>) -> String {
        table::draw(self, v, screen)
    }

    /// Every discard, claim, kong and win in words (table.rs).
    fn narrate(&self, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        table::narrate(v, screen, told, out)
    }

    /// The winning hand with its fans and how it was won, or the wall run out (table.rs).
    fn end_text(&self, s: &State, screen: &Screen<'_>) -> String {
        table::ending(self, s, screen)
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

    /// The first hand as dealt, its whole wall included (the wall of a later hand of the game is
    /// in the chance event that deals it).
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        let wind = |k: usize| Text(HONOR_LETTERS[k % 4]);
        let dealer = s.dealer;
        Deal {
            hand_no: s.hand_no,
            hands_per_game: self.hands,
            dealer,
            prevalent_wind: wind(s.hand_no / 4),
            seat_winds: List((0..SEATS).map(move |seat| wind(seat + 4 - dealer))),
            wall: List(s.wall_of(s.hand_no).iter().map(|&t| wall_tile(t))),
            hands: List(s.hands.iter().map(tiles)),
            drawn: match s.phase {
                Phase::Turn { drawn, .. } => drawn.map(tile_name),
                _ => None,
            },
            flowers: s.flowers,
        }
    }

    /// [`Wire::deal_json`] written by hand: the wall alone is some 140 tiles.
    fn write_deal(&self, s: &State, out: &mut Vec<u8>) {
        let wind = |k: usize| TileJson(27 + (k % 4) as Tile);
        let dealer = s.dealer;
        Object::new(out)
            .field("hand_no", &s.hand_no)
            .field("hands_per_game", &self.hands)
            .field("dealer", &dealer)
            .field("prevalent_wind", &wind(s.hand_no / 4))
            .field("seat_winds", &Array((0..SEATS).map(|seat| wind(seat + 4 - dealer))))
            .field("wall", &Array(s.wall_of(s.hand_no).iter().map(|&t| TileJson(t))))
            .field("hands", &Array(s.hands.iter().map(held_tiles)))
            .field(
                "drawn",
                &match s.phase {
                    Phase::Turn { drawn, .. } => drawn.map(TileJson),
                    _ => None,
                },
            )
            .field("flowers", &s.flowers)
            .end();
    }

    /// What the wall gave since `seen` (a packed `Mark`): worked out from where the wall stands
    /// now and stood then, so that the rules keep no log of their own. One action takes tiles for
    /// one seat at most (a draw, its flowers' replacements, a kong's replacement), and may end the
    /// hand and deal the next.
    fn chance(&self, s: &State, seen: &mut u64, out: &mut Texts) {
        let now = Mark::of(s);
        let first = *seen & 1 == 0;
        let was = Mark::unpack(std::mem::replace(seen, now.pack()));
        if first {
            return; // the deal: all in `deal_json`
        }
        let ended = now.hand != was.hand || s.phase == Phase::Over;
        if ended && now.wins == was.wins {
            // A draw found the live wall empty: whatever was left in it were flowers, all set aside.
            let seat = s.exhausted_by.expect("an exhausted wall names the seat to draw");
            out.push_with(|text| {
                text.push_str("exhausted ");
                write_int(text, seat);
                (was.front..was.back).for_each(|_| text.push_str(" H"));
            });
        } else if now.hand == was.hand && (now.front, now.back) != (was.front, was.back) {
            let Phase::Turn { seat, .. } = s.phase else { unreachable!("a tile taken is a tile drawn") };
            let wall = s.wall_of(now.hand);
            let mut push = |word: &str, t: Tile| {
                out.push_with(|text| {
                    text.push_str(word);
                    write_int(text, seat);
                    text.push(' ');
                    push_tile(text, t);
                })
            };
            // The front tile comes first (a flower there is replaced from the far end), then the
            // far end's from the outside in.
            wall[was.front..now.front].iter().for_each(|&t| push("draw ", t));
            wall[now.back..was.back].iter().rev().for_each(|&t| push("replace ", t));
        }
        if now.hand != was.hand {
            out.push_with(|text| {
                text.push_str("hand ");
                write_int(text, s.hand_no);
                text.push_str(" dealer ");
                write_int(text, s.dealer);
                text.push_str(" wall");
                for &t in s.wall_of(s.hand_no) {
                    text.push(' ');
                    push_tile(text, t);
                }
            });
        }
    }
}

#[derive(serde::Serialize)]
struct Deal<W, SW, WL, H> {
    hand_no: usize,
    hands_per_game: usize,
    dealer: crate::core::Seat,
    prevalent_wind: W,
    seat_winds: SW,
    wall: WL,
    hands: H,
    drawn: Option<String>,
    flowers: [u8; SEATS],
}

/// The view on the wire, field by field as docs/book/src/protocol.md lists them, the phase's last.
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
    use crate::core::wire::json;
    use crate::core::wire::{
        assert_action_written_as_serde_writes, assert_written_as_serde_writes, checked_legal_texts,
    };
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
                for text in &legal {
                    assert_action_written_as_serde_writes(&game, &game.parse_action(text).unwrap());
                }
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

    use super::super::tiles::TILE_KINDS;
    use crate::core::record::{replay, Ending, Event};
    use crate::core::{play_kept, GameRecord, GameSeeds, Keep, Status};

    /// One game played by `random` and `greedy` bots (`greedy[seat]`), its record kept.
    fn recorded(game: &Mahjong, greedy: [bool; 4], seeds: &GameSeeds) -> GameRecord {
        let mut bots: Vec<Box<dyn crate::core::Bot<Mahjong>>> = greedy
            .iter()
            .map(|&g| -> Box<dyn crate::core::Bot<Mahjong>> {
                if g {
                    Box::new(super::super::bots::GreedyBot)
                } else {
                    Box::new(super::super::bots::RandomBot)
                }
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

    fn wall_text(wall: &[Tile]) -> Vec<String> {
        wall.iter().map(|&t| if t == FLOWER { "H".to_string() } else { tile_name(t) }).collect()
    }

    /// Tiles the deal takes from `wall`: 13 a seat and the dealer's first draw from the front,
    /// each flower replaced from the far end (the engine's order, written out again).
    fn deal_taken(wall: &[Tile]) -> usize {
        let (mut front, mut end) = (0, wall.len());
        for _ in 0..4 * 13 + 1 {
            let mut t = wall[front];
            front += 1;
            while t == FLOWER {
                end -= 1;
                t = wall[end];
            }
        }
        front + wall.len() - end
    }

    /// Tallies of what the records of the tests below held.
    #[derive(Default, Debug)]
    struct Seen {
        draws: u32,
        replacements: u32,
        flowers: u32,
        exhausted: u32,
        exhausted_on_flowers: u32,
        hands: u32,
    }

    /// Plays `games` games of `game`, checks each record plays back to the same bytes, and that its
    /// chance events account for every tile taken from the wall, in the right seat's hands.
    fn check_records(game: &Mahjong, games: u64, master: u64) -> Seen {
        let mut seen = Seen::default();
        for g in 0..games {
            let seeds = GameSeeds::derive(master, 0, g, 1);
            let greedy = [g % 2 == 0, true, g % 3 == 0, false];
            let record = recorded(game, greedy, &seeds);
            let (value, events) = (record.log.to_json(), record.log.read_events());
            let back = replay(game, &seeds, &events, Ending::Over).unwrap_or_else(|d| panic!("game {g}: {d:?}"));
            assert_eq!(String::from_utf8_lossy(&back.log.body), String::from_utf8_lossy(&record.log.body));
            let dealt = game.deal(&mut seeds.deal_rng());
            assert_eq!(value["deal"]["wall"], serde_json::json!(wall_text(dealt.wall_of(0))));
            assert_eq!(deal_taken(dealt.wall_of(0)), dealt.taken().0 + dealt.wall_of(0).len() - dealt.taken().1);
            // Tiles taken in play, hand by hand: all of them when the wall ran out (a hand won on
            // the last tile took them all too), and as many
            // as the state shows taken in the last hand.
            let (mut hand, mut taken, mut drawer) = (0, 0, None);
            let end_of_hand = |hand: usize, taken: usize, exhausted: bool| {
                let wall = back.state.wall_of(hand);
                let in_play = wall.len() - deal_taken(wall);
                if hand == back.state.hand_no {
                    let (front, end) = back.state.taken();
                    assert_eq!(taken, front + wall.len() - end - deal_taken(wall), "hand {hand}");
                }
                assert!(if exhausted { taken == in_play } else { taken <= in_play }, "hand {hand}: {taken}");
            };
            let mut exhausted = false;
            for event in &events {
                match event {
                    Event::Action(seat, _) => {
                        // The seat that drew a tile (not a flower) is the next to act.
                        if let Some(d) = drawer.take() {
                            assert_eq!(*seat, d, "game {g}: the drawer acts");
                        }
                    }
                    Event::Chance(text) => {
                        let words: Vec<&str> = text.split(' ').collect();
                        match words[0] {
                            "draw" | "replace" => {
                                assert_eq!(words.len(), 3, "{text}");
                                taken += 1;
                                let seat: usize = words[1].parse().unwrap();
                                if words[2] == "H" {
                                    seen.flowers += 1;
                                    drawer = None;
                                } else {
                                    parse_tile(words[2]).unwrap();
                                    drawer = Some(seat);
                                }
                                if words[0] == "draw" {
                                    seen.draws += 1;
                                } else {
                                    seen.replacements += 1;
                                }
                            }
                            "exhausted" => {
                                assert!(words[2..].iter().all(|w| *w == "H"), "{text}");
                                taken += words.len() - 2;
                                seen.exhausted += 1;
                                seen.exhausted_on_flowers += (words.len() > 2) as u32;
                                exhausted = true;
                            }
                            "hand" => {
                                end_of_hand(hand, taken, exhausted);
                                hand += 1;
                                assert_eq!(words[1].parse::<usize>().unwrap(), hand, "{text}");
                                assert_eq!((words[2], words[3]), ("dealer", &*(hand % 4).to_string()));
                                assert_eq!(words[4], "wall");
                                assert_eq!(words[5..], wall_text(back.state.wall_of(hand)), "{text}");
                                seen.hands += 1;
                                (taken, exhausted) = (0, false);
                            }
                            other => panic!("unknown chance event {other}: {text}"),
                        }
                    }
                }
            }
            end_of_hand(hand, taken, exhausted);
            assert_eq!(hand, game.hands - 1, "a hand event for every hand after the first");
        }
        seen
    }

    #[test]
    fn one_hand_records_play_back_and_account_for_every_tile_drawn() {
        let seen = check_records(&Mahjong::new(8), 150, 21);
        assert!(seen.draws > 150 * 30 && seen.exhausted > 0, "{seen:?}");
        let flowers = Mahjong { min_fans: 0, flowers: true, hands: 1, fault_pays: 96 };
        let seen = check_records(&flowers, 150, 22);
        // Each flower is replaced from the far end.
        assert!(seen.flowers > 150 && seen.replacements >= seen.flowers, "{seen:?}");
    }

    #[test]
    fn full_round_records_play_back_with_each_hands_deal() {
        let round = Mahjong { min_fans: 8, flowers: true, hands: 16, fault_pays: 96 };
        let seen = check_records(&round, 12, 23);
        assert_eq!(seen.hands, 12 * 15);
        // Some hands ran out on flowers: the seat that set them aside is named though the next
        // hand's deal has cleared the flowers.
        assert!(seen.exhausted > 0 && seen.flowers > 0 && seen.exhausted_on_flowers > 0, "{seen:?}");
        let plain = Mahjong { min_fans: 0, flowers: false, hands: 16, fault_pays: 96 };
        check_records(&plain, 6, 24);
    }

    /// The bots seldom declare a kong: seats that declare every kong they may (and otherwise play
    /// at random) show each kong's replacement draw in the record, which plays back.
    #[test]
    fn kong_replacements_are_recorded() {
        use crate::core::record::GameLog;
        let game = Mahjong { min_fans: 0, flowers: true, hands: 16, fault_pays: 96 };
        let mut rng = DealRng::seed_from_u64(3);
        let mut kongs = 0;
        for g in 0..10 {
            let seeds = GameSeeds::derive(41, 0, g, 1);
            let mut s = game.deal(&mut seeds.deal_rng());
            let mut log = GameLog::default();
            log.begin(&game, &s);
            let mut legal = Vec::new();
            while let Some(seat) = game.to_act(&s) {
                game.legal_actions(&s, &mut legal);
                let kong =
                    legal.iter().find(|a| matches!(a, Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_)));
                let a = *kong.unwrap_or(&legal[rng.random_range(0..legal.len())]);
                game.apply(&mut s, &a).unwrap();
                log.action(&game, seat, &a, &s);
                if kong.is_some() && matches!(s.phase, Phase::Turn { seat: k, .. } if k == seat) {
                    kongs += 1;
                }
            }
            log.end(&game, &s);
            let events = log.read_events();
            // After a kong (not robbed) comes a replacement for the seat that declared it.
            for (i, e) in events.iter().enumerate() {
                if let Event::Action(seat, a) = e {
                    if a.contains("kong") && !a.starts_with("added") {
                        let next = &events[i + 1];
                        assert!(
                            matches!(next, Event::Chance(t) if t.starts_with(&format!("replace {seat} "))
                                || t.starts_with("exhausted") || t.starts_with("hand")),
                            "{a} then {next:?}"
                        );
                    }
                }
            }
            let back = replay(&game, &seeds, &events, Ending::Over).unwrap();
            assert_eq!(String::from_utf8_lossy(&back.log.body), String::from_utf8_lossy(&log.body));
        }
        assert!(kongs > 20, "{kongs}");
    }

    #[test]
    fn the_deal_holds_the_wall_hands_and_winds() {
        for game in [Mahjong::new(8), Mahjong { min_fans: 8, flowers: true, hands: 16, fault_pays: 96 }] {
            for seed in 0..40 {
                let s = game.deal(&mut DealRng::seed_from_u64(seed));
                assert_written_as_serde_writes(&game, &s);
                let deal = json(game.deal_json(&s));
                assert_eq!((deal["hand_no"].clone(), deal["dealer"].clone()), (json!(0), json!(0)));
                assert_eq!(deal["hands_per_game"], game.hands);
                assert_eq!(
                    (deal["prevalent_wind"].clone(), deal["seat_winds"].clone()),
                    (json!("E"), json!(["E", "S", "W", "N"]))
                );
                // The wall: every tile four times, and the flowers.
                let wall: Vec<String> =
                    deal["wall"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
                assert_eq!(wall.len(), if game.flowers { 144 } else { 136 });
                let mut count = std::collections::BTreeMap::new();
                wall.iter().for_each(|t| *count.entry(t.clone()).or_insert(0) += 1);
                assert_eq!(count.len(), TILE_KINDS + game.flowers as usize);
                assert!(count.iter().all(|(t, &n)| n == if t == "H" { 8 } else { 4 }), "{count:?}");
                // The hands are the tiles the deal took from the wall, flowers set aside.
                let (front, back) = s.taken();
                let mut taken: Vec<String> = wall[..front].iter().chain(&wall[back..]).cloned().collect();
                let mut held: Vec<String> = Vec::new();
                for seat in 0..SEATS {
                    let hand = deal["hands"][seat].as_array().unwrap();
                    assert_eq!(hand.len(), if seat == 0 { 14 } else { 13 });
                    held.extend(hand.iter().map(|t| t.as_str().unwrap().to_string()));
                    let flowers = deal["flowers"][seat].as_u64().unwrap();
                    held.extend(std::iter::repeat_n("H".to_string(), flowers as usize));
                }
                assert!(deal["hands"][0].as_array().unwrap().contains(&deal["drawn"]));
                taken.sort();
                held.sort();
                assert_eq!(taken, held);
            }
        }
    }

    /// A record whose draws, or whose actions, were changed does not play back to itself.
    #[test]
    fn a_changed_record_is_caught() {
        let game = Mahjong { min_fans: 8, flowers: true, hands: 1, fault_pays: 96 };
        let mut refused = 0;
        for g in 0..40 {
            let seeds = GameSeeds::derive(31, 0, g, 1);
            let record = recorded(&game, [true, false, true, false], &seeds);
            let events = record.log.read_events();
            let draws: Vec<usize> = (0..events.len())
                .filter(|&i| matches!(&events[i], Event::Chance(t) if t.starts_with("draw") && !t.ends_with(" H")))
                .collect();
            // A draw of another tile, a draw by another seat, a draw left out.
            let at = draws[draws.len() / 2];
            let Event::Chance(text) = &events[at] else { unreachable!() };
            let other_tile = if text.ends_with(" E") { "S" } else { "E" };
            let seat = text.split(' ').nth(1).unwrap();
            let other_seat = (seat.parse::<usize>().unwrap() + 1) % 4;
            let tile = text.rsplit(' ').next().unwrap();
            for changed_text in [format!("draw {seat} {other_tile}"), format!("draw {other_seat} {tile}")] {
                let mut changed = events.clone();
                changed[at] = Event::Chance(changed_text);
                assert!(replay(&game, &seeds, &changed, Ending::Over).is_err());
            }
            let mut changed = events.clone();
            changed.remove(at);
            assert!(replay(&game, &seeds, &changed, Ending::Over).is_err());
            // The seat that drew discards another tile it holds.
            let Some(next) =
                (at..events.len()).find(|&i| matches!(&events[i], Event::Action(_, a) if a.starts_with("discard")))
            else {
                continue;
            };
            let Event::Action(seat, discard) = &events[next] else { unreachable!() };
            let before = replay(&game, &seeds, &events[..next], Ending::Forfeit(*seat)).unwrap();
            let held = (0..TILE_KINDS as Tile).find(|&t| {
                before.state.hands[*seat][t as usize] > 0 && format!("discard {}", tile_name(t)) != *discard
            });
            let mut changed = events.clone();
            changed[next] = Event::Action(*seat, format!("discard {}", tile_name(held.unwrap())));
            let back = replay(&game, &seeds, &changed, Ending::Over).map(|r| r.log.body);
            assert!(back.is_err() || back.as_ref().unwrap() != &record.log.body);
            refused += back.is_err() as u32;
        }
        assert!(refused > 20, "{refused}");
    }
}
