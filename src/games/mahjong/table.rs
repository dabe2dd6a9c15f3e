//! The mahjong table as a person at it sees it (`arena play`), laid out to the terminal's width
//! without breaking a tile or a set: every seat's wind and declared sets, every seat's discards,
//! your hand grouped by suit with the tile you drew, and the discard or kong you are asked about
//! ([`draw`]); every seat's discards and claims in words as they happen ([`narrate`]); the winning
//! hand with its fans, or the wall run out ([`ending`]). Read from a seat's view (its history of
//! the hand) or, at the end, from what the rules reveal.

use crate::core::readable::{count, wrap, Screen};
use crate::core::wire::Told;
use crate::core::Seat;

use super::engine::{Mahjong, Phase, PhaseView, State, View, SEATS};
use super::events::{Event, Seen};
use super::fans::Fan;
use super::tiles::{suit, tile_name, Counts, Meld, MeldKind, Tile};

/// The winds' names, East first.
const WINDS: [&str; 4] = ["East", "South", "West", "North"];

/// The tiles of `counts` as items to lay out: each as often as it is held, a space more before
/// the first of each suit, so that the suits stand apart.
fn grouped(counts: &Counts) -> Vec<String> {
    let mut items = Vec::new();
    let mut last_suit = None;
    for (t, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            let s = suit(t as Tile);
            let gap = if last_suit.is_some_and(|last| last != s) { " " } else { "" };
            items.push(format!("{gap}{}", tile_name(t as Tile)));
            last_suit = Some(s);
        }
    }
    items
}

/// The indent of a seat's continued lines: under its first item, unless the terminal is too
/// narrow for that to leave room.
fn indent(lead: &str, width: usize) -> usize {
    let lead = lead.chars().count();
    if lead * 2 <= width {
        lead
    } else {
        4
    }
}

/// The table as seat `v.seat` sees it, laid out for `screen`.
pub fn draw(game: &Mahjong, v: &View<'_>, screen: &Screen<'_>) -> String {
    let me = v.seat;
    let width = screen.width;
    let mut text = String::new();
    let round = if game.hands > 1 { format!("hand {} of {}, ", v.hand_no + 1, game.hands) } else { String::new() };
    let head = [
        format!("{round}{} round,", WINDS[v.hand_no / SEATS % SEATS]),
        format!("dealer {},", screen.who(v.dealer)),
        format!("{} left in the wall", count(v.wall_left as i64, "tile")),
    ];
    text.push_str(&wrap("", head, " ", 2, width));
    // Names padded to one width, so the seats' sets start in one column.
    let labels: Vec<String> = (0..SEATS).map(|seat| screen.label(seat, me)).collect();
    let name_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for seat in 0..SEATS {
        let wind = WINDS[(seat + SEATS - v.dealer) % SEATS];
        let flowers = match v.flowers[seat] {
            0 => String::new(),
            n => format!(" {n} flowers"),
        };
        let lead = format!("  seat {seat}  {:<name_width$}  {wind:<5}{flowers}  sets: ", labels[seat]);
        let face_down = v.declared(seat) - v.exposed_melds(seat).count();
        let mut sets: Vec<String> = v.exposed_melds(seat).map(Meld::to_string).collect();
        sets.extend(std::iter::repeat_n("(????)".to_string(), face_down));
        if sets.is_empty() {
            sets.push("-".to_string());
        }
        text.push_str(&wrap(&lead, sets, " ", indent(&lead, width), width));
    }
    text.push_str("discards (oldest first):\n");
    for seat in 0..SEATS {
        let lead = format!("  seat {seat}: ");
        let tiles: Vec<String> = match v.discards[seat].is_empty() {
            true => vec!["-".to_string()],
            false => v.discards[seat].iter().map(|&t| tile_name(t)).collect(),
        };
        text.push_str(&wrap(&lead, tiles, " ", indent(&lead, width), width));
    }
    let lead = "your hand: ";
    text.push_str(&wrap(lead, grouped(v.hand), " ", indent(lead, width), width));
    let asked = match v.phase {
        PhaseView::Turn { drawn: Some(t) } => format!("you drew {}: discard a tile, or declare", tile_name(t)),
        PhaseView::Turn { drawn: None } => "your turn: discard a tile".to_string(),
        PhaseView::Claim { from, tile } => {
            format!("{} discarded {}: claim it or pass", screen.who(from), tile_name(tile))
        }
        PhaseView::RobKong { from, tile } => {
            format!("{} adds {} to a pung: rob the kong (win) or pass", screen.who(from), tile_name(tile))
        }
    };
    if !v.legal.is_empty() {
        text.push_str(&wrap("", asked.split(' '), " ", 2, width));
    }
    text
}

/// What happened since `told` (the hand's number times 2^32 plus its events told): every
/// discard, claim, kong, flower and win in words. Draws are left out: every turn starts with one,
/// and another seat's tile is hidden.
pub fn narrate(v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
    let (hand, mut from) = ((*told >> 32) as usize, (*told & 0xffff_ffff) as usize);
    if hand != v.hand_no {
        out.push(Told::table(format!("hand {}: the dealer is {}", v.hand_no + 1, screen.who(v.dealer))));
        from = 0;
    }
    // The whole hand is read, so that a claim names the discard it takes, told or not.
    let mut discard = None;
    let mut count = 0;
    for (i, seen) in v.history().enumerate() {
        count = i + 1;
        let said = match seen {
            Seen::Deal { .. } | Seen::Draw { .. } => None,
            Seen::ConcealedKong { seat, tile } => Some(Told::by(
                seat,
                match tile {
                    Some(t) => format!("declares a concealed kong of {}", tile_name(t)),
                    None => "declares a concealed kong (face down)".to_string(),
                },
            )),
            Seen::Public(event) => public(event, discard, screen),
        };
        if let Seen::Public(&Event::Discard { seat, tile }) = seen {
            discard = Some((seat, tile));
        }
        if i >= from {
            out.extend(said);
        }
    }
    *told = (v.hand_no as u64) << 32 | count as u64;
}

/// A public event in words; a claim names the discard it takes (`discard`: the last one, by whom).
fn public(event: &Event, discard: Option<(Seat, Tile)>, screen: &Screen<'_>) -> Option<Told> {
    let claimed = |kind: MeldKind, tile: Tile| {
        let set = Meld { kind, tile };
        match discard {
            Some((by, t)) => format!("claims the {} discarded by {}: {set}", tile_name(t), screen.who(by)),
            None => format!("claims a discard: {set}"),
        }
    };
    Some(match *event {
        Event::Discard { seat, tile } => Told::by(seat, format!("discards {}", tile_name(tile))),
        Event::Pung { seat, tile } => Told::by(seat, claimed(MeldKind::Pung, tile)),
        Event::Chow { seat, low } => Told::by(seat, claimed(MeldKind::Chow, low)),
        Event::Kong { seat, tile } => Told::by(seat, claimed(MeldKind::Kong, tile)),
        Event::AddedKong { seat, tile } => Told::by(seat, format!("adds {} to its pung: a kong", tile_name(tile))),
        Event::Flower { seat, .. } => Told::by(seat, "sets a flower aside and draws again"),
        Event::Win { seat } => Told::by(seat, "wins the hand: mahjong!"),
        Event::Deal { .. } | Event::Draw { .. } | Event::ConcealedKong { .. } => return None,
    })
}

/// How the last hand was won, from its events: the tile before the win was drawn by the winner,
/// discarded by another seat, or added to another seat's pung (robbing the kong).
fn how_won(s: &State, winner: Seat, screen: &Screen<'_>) -> String {
    let events = s.events();
    let before = events.iter().rev().skip_while(|e| !matches!(e, Event::Win { .. })).nth(1);
    match before {
        Some(&Event::Draw { seat, tile }) if seat == winner => format!("self-drawn {}", tile_name(tile)),
        Some(&Event::Discard { seat, tile }) => format!("on {}'s discard {}", screen.who(seat), tile_name(tile)),
        Some(&Event::AddedKong { seat, tile }) => {
            format!("robbing {}'s kong of {}", screen.who(seat), tile_name(tile))
        }
        _ => "won".to_string(),
    }
}

/// The end of the game: the winning hand with its fans and how it was won, or the wall run out;
/// over several hands, each seat's wins.
pub fn ending(game: &Mahjong, s: &State, screen: &Screen<'_>) -> String {
    let width = screen.width;
    let mut text = String::new();
    if s.phase != Phase::Over {
        return text; // a forfeit: the hand was not played out
    }
    if game.hands > 1 {
        for seat in 0..SEATS {
            let line = format!(
                "{}: won {} of {} hands ({} fans in all), dealt in {}",
                screen.who(seat),
                s.wins[seat],
                game.hands,
                s.win_fans[seat],
                s.deal_ins[seat]
            );
            text.push_str(&wrap("", line.split(' '), " ", 4, width));
        }
        return text;
    }
    let Some(w) = s.winner else {
        text.push_str(&wrap("", "the wall ran out: no one won the hand (a draw)".split(' '), " ", 2, width));
        return text;
    };
    let head = format!("{} wins with {} fans, {}", screen.who(w), s.fans, how_won(s, w, screen));
    text.push_str(&wrap("", head.split(' '), " ", 2, width));
    let lead = "the hand: ";
    let mut tiles = grouped(&s.hands[w]);
    tiles.extend(s.melds[w].iter().map(|m| format!(" {m}")));
    text.push_str(&wrap(lead, tiles, " ", indent(lead, width), width));
    let fans: Vec<String> = s
        .fan_table
        .fans()
        .map(|(fan, n): (Fan, u32)| match n {
            1 => format!("{} {},", fan.name(), fan.points()),
            n => format!("{} {}x{n},", fan.name(), fan.points()),
        })
        .collect();
    let mut fans = fans;
    if let Some(last) = fans.last_mut() {
        last.pop(); // the comma after the last fan
    }
    let lead = "fans: ";
    text.push_str(&wrap(lead, fans, " ", indent(lead, width), width));
    text
}
