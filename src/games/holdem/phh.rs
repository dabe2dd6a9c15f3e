//! Hand histories in the PHH format (the "poker hand history" TOML standard that PokerKit reads).
//!
//! Conventions of the standard (phh-std, "Required fields") followed here:
//! - players `p1..pN` start left of the button: p1 = small blind, p2 = big blind, pN = button; in
//!   heads-up the button posts the small blind, so p1 (the other seat) is the big blind and
//!   `blinds_or_straddles = [sb, bb]` is applied reversed "by rule";
//! - `cbr` = bet or raise *to* a total, `cc` = check or call, `f` = fold, `d dh pN` / `d db` = dealing;
//! - at a showdown the players still in show (`pN sm cards`) starting from the last bettor or
//!   raiser of the final betting round (PokerKit's order), before any board cards still to come
//!   when the hand is all-in;
//! - antes count towards side pots (`ante_trimming_status = true`).
//!
//! A cash game writes one hand; a sit-and-go writes every hand as a `[N]` table (the `.phhs` layout).
//! The arena's seat of p1, p2, ... is the user-defined field `_arena_seats`.

use std::fmt::Write;

use super::state::{Action, Event, Format, HandRecord, Holdem, State};

pub fn write(game: &Holdem, s: &State) -> String {
    match game.format {
        Format::Cash => hand(&game.current_record(s)),
        Format::Sng => {
            let mut out = String::new();
            let mut hands: Vec<HandRecord> = s.past.clone();
            if !s.over {
                hands.push(game.current_record(s));
            }
            for (i, h) in hands.iter().enumerate() {
                let _ = writeln!(out, "[{}]\n{}", i + 1, hand(h));
            }
            out
        }
    }
}

fn list<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let v: Vec<String> = items.map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// One hand as PHH.
pub fn hand(h: &HandRecord) -> String {
    let n = h.seats as usize;
    // Players in PHH order: clockwise from the seat after the button, the button last.
    let players: Vec<usize> = (1..=n).map(|i| (h.button as usize + i) % n).filter(|&s| h.live >> s & 1 == 1).collect();
    let p = |seat: usize| players.iter().position(|&x| x == seat).unwrap() + 1;
    let count = players.len();
    let mut blinds = vec![0; count];
    if count == 2 {
        blinds[..2].copy_from_slice(&[h.blinds.small, h.blinds.big]);
    } else {
        blinds[0] = h.blinds.small;
        blinds[1] = h.blinds.big;
    }
    let mut actions: Vec<String> = Vec::with_capacity(h.events.len() + 2 * count + 4);
    for &seat in &players {
        let [a, b] = h.hole[seat];
        actions.push(format!("d dh p{} {a}{b}", p(seat)));
    }
    // The first to speak in a round without a bet or raise (PokerKit's "opener"): after the big
    // blind pre-flop (heads-up: the button), p1 after.
    let preflop_opener = if count == 2 { 2 } else { 3.min(count) };
    let mut opener = preflop_opener;
    let last_act = h.events.iter().rposition(|e| matches!(e, Event::Act { .. }));
    let showdown = |actions: &mut Vec<String>, opener: usize| {
        for i in 0..count {
            let seat = players[(opener - 1 + i) % count];
            if h.showdown >> seat & 1 == 1 {
                let [a, b] = h.hole[seat];
                actions.push(format!("p{} sm {a}{b}", p(seat)));
            }
        }
    };
    if last_act.is_none() && h.showdown != 0 {
        showdown(&mut actions, opener);
    }
    for (i, e) in h.events.iter().enumerate() {
        match *e {
            Event::Street(street) => {
                opener = 1;
                let cards = match street {
                    1 => format!("{}{}{}", h.board[0], h.board[1], h.board[2]),
                    s => h.board[1 + s as usize].to_string(),
                };
                actions.push(format!("d db {cards}"));
            }
            Event::Act { seat, action } => {
                let who = p(seat as usize);
                actions.push(match action {
                    Action::Fold => format!("p{who} f"),
                    Action::CheckCall => format!("p{who} cc"),
                    Action::RaiseTo(to) => {
                        opener = who;
                        format!("p{who} cbr {to}")
                    }
                });
            }
        }
        if Some(i) == last_act && h.showdown != 0 {
            showdown(&mut actions, opener);
        }
    }
    let quoted = list(actions.iter().map(|a| format!("'{a}'")));
    let mut out = String::new();
    let _ = writeln!(out, "variant = 'NT'");
    let _ = writeln!(out, "ante_trimming_status = true");
    let _ = writeln!(out, "antes = {}", list(players.iter().map(|_| h.blinds.ante)));
    let _ = writeln!(out, "blinds_or_straddles = {}", list(blinds.iter()));
    let _ = writeln!(out, "min_bet = {}", h.blinds.big);
    let _ = writeln!(out, "starting_stacks = {}", list(players.iter().map(|&s| h.start[s])));
    let _ = writeln!(out, "actions = {quoted}");
    let _ = writeln!(out, "finishing_stacks = {}", list(players.iter().map(|&s| h.end[s])));
    let _ = writeln!(out, "_arena_seats = {}", list(players.iter()));
    out
}
