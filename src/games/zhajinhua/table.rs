//! The zhajinhua table as a person at it sees it (`arena play`): every seat's stack, what it has
//! put in, whether it has looked at its cards or is out, your cards once you have looked, the
//! stake and what a call costs you ([`draw`]); every action in words as it happens, a compare
//! with its loser ([`narrate`]); the hands shown down with their categories and who took the pot
//! ([`ending`]). Read from a seat's view (its history) or, at the end, from what the rules reveal.

use crate::core::readable::{columns, count, Screen};
use crate::core::wire::{spaced, Told};

use super::engine::{Event, State, View, Zhajinhua};
use super::eval::{describe, evaluate};

/// The table as seat `v.seat` sees it, laid out for `screen`.
pub fn draw(game: &Zhajinhua, v: &View<'_>, screen: &Screen<'_>) -> String {
    let p = v.public;
    let me = v.seat;
    let mut text = format!(
        "round {}, stake {}, pot {} chips (ante {}; a seat that has looked pays {} times the stake)\n",
        p.round, p.stake, p.pot, game.ante, game.seen_multiplier
    );
    let rows: Vec<[String; 6]> = (0..p.seats)
        .map(|seat| {
            let cards = match (p.in_hand[seat], seat == me, v.cards) {
                (false, _, _) => "out".to_string(),
                (true, true, Some(cards)) => spaced(cards).to_string(),
                (true, _, _) => "?? ?? ??".to_string(),
            };
            let all_in = p.in_hand[seat] && p.stack[seat] == 0;
            [
                format!("seat {seat}"),
                screen.label(seat, me),
                format!("stack {}", p.stack[seat]),
                format!("in the pot {}", p.put_in[seat]),
                if p.seen[seat] { "looked" } else { "blind" }.to_string(),
                if all_in { format!("{cards}  all-in") } else { cards },
            ]
        })
        .collect();
    text.push_str(&columns(&rows));
    match v.cards {
        Some(cards) => text.push_str(&format!("your cards: {}, {}\n", spaced(cards), describe(evaluate(cards)))),
        None if p.in_hand[me] => {
            text.push_str("your cards: not looked at yet (`look` shows them; then you pay as seen)\n")
        }
        None => {}
    }
    if p.to_act == Some(me) {
        let price = game.call_price(p, me).min(p.stack[me]);
        let compare = match p.round >= game.compare_from_round {
            true => "a compare costs as much".to_string(),
            false => format!("compares are allowed from round {}", game.compare_from_round),
        };
        text.push_str(&format!("to call: {}; {compare}\n", count(price, "chip")));
    }
    text
}

/// What happened since `told` (the history's entries told): every action in words.
pub fn narrate(v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
    let events = &v.public.events;
    for event in events.iter().skip(*told as usize) {
        out.push(match *event {
            Event::Look { seat } => Told::by(seat, "looks at their cards"),
            Event::Fold { seat } => Told::by(seat, "folds"),
            Event::Call { seat, paid } => Told::by(seat, format!("calls, paying {paid}")),
            Event::Raise { seat, stake, paid } => Told::by(seat, format!("raises the stake to {stake}, paying {paid}")),
            // Told as the table's: the loser may be the person, who is told even of their own compare.
            Event::Compare { seat, target, paid, loser } => Told::table(format!(
                "{} compares hands with {} (paying {paid}): {} loses and is out",
                screen.who(seat),
                screen.who(target),
                screen.who(loser)
            )),
        });
    }
    *told = events.len() as u64;
}

/// The end of the hand: at a showdown every hand in it with its category; then who took the pot.
pub fn ending(s: &State, screen: &Screen<'_>) -> String {
    let p = &s.public;
    let mut text = String::new();
    if p.to_act.is_some() {
        return text; // a forfeit: the hand was not played out
    }
    let in_hand: Vec<usize> = (0..p.seats).filter(|&x| p.in_hand[x]).collect();
    if s.showdown {
        text.push_str("showdown:\n");
        let rows: Vec<[String; 3]> =
            in_hand.iter().map(|&x| [screen.who(x), spaced(s.hands[x]).to_string(), describe(s.values[x])]).collect();
        text.push_str(&columns(&rows));
    }
    let takers: Vec<(usize, i64)> = (0..p.seats).filter(|&x| s.payout[x] > 0).map(|x| (x, s.payout[x])).collect();
    let why = if s.showdown { "" } else { " (everyone else is out)" };
    match takers.as_slice() {
        [(x, _)] => text.push_str(&format!("the pot of {} chips goes to {}{why}\n", p.pot, screen.who(*x))),
        _ => {
            let shares: Vec<String> = takers.iter().map(|&(x, won)| format!("{} {won}", screen.who(x))).collect();
            text.push_str(&format!("the pot of {} chips is shared: {}\n", p.pot, shares.join(", ")));
        }
    }
    text
}
