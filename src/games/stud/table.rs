//! The stud table as a person at it sees it (`arena play`): every seat's stack, what it has in
//! the pot and on this street, its face-up cards and (your own) hole card ([`draw`]); every
//! action in words as it happens and each street's cards as they are dealt ([`narrate`]); the
//! hands shown down by name and who took the pot ([`ending`]). Read from a seat's view (its
//! `history` says who did what: the rest of a seat's story follows from it) or, at the end, from
//! what the rules reveal.

use crate::cards::naming::hand_name;
use crate::cards::{Card, CardSet};
use crate::core::readable::{columns, count, Screen};
use crate::core::wire::{spaced, Told};
use crate::core::Seat;

use super::engine::{Acted, Action, State, Stud, View, MAX_SEATS, STREETS};
use super::eval::value;

/// A street's name by the cards each seat then holds (street 0 is the 2nd).
fn street_name(street: usize) -> String {
    format!("{}th street", street + 2).replace("2th", "2nd").replace("3th", "3rd")
}

/// The name of the hand `cards` make (one to five cards), by stud's ranking.
fn named(cards: CardSet) -> String {
    let cards_list: Vec<Card> = cards.iter().collect();
    hand_name(&cards_list, value(cards).category())
}

/// The betting followed from the history: each seat's bet on the street being played and what
/// each action cost. Every seat's chips before the ante are its stack and what it has put in (a
/// stud pot is paid out only at the end), so the view alone gives where the hand started.
struct Betting {
    /// Chips before the ante, by seat.
    start: [u32; MAX_SEATS],
    committed: [u32; MAX_SEATS],
    bet: [u32; MAX_SEATS],
    folded: [bool; MAX_SEATS],
    street: u8,
}

impl Betting {
    fn new(game: &Stud, v: &View<'_>) -> Betting {
        let mut start = [0; MAX_SEATS];
        let mut committed = [0; MAX_SEATS];
        for seat in 0..v.seats() {
            start[seat] = v.stack(seat) + v.committed(seat);
            committed[seat] = game.ante.min(start[seat]);
        }
        Betting { start, committed, bet: [0; MAX_SEATS], folded: [false; MAX_SEATS], street: 0 }
    }

    /// The most any seat may have in the pot: the shortest stack still in the hand.
    fn cap(&self, seats: usize) -> u32 {
        (0..seats).filter(|&s| !self.folded[s]).map(|s| self.start[s]).min().unwrap_or(0)
    }

    /// Plays one action and says it in words.
    fn play(&mut self, a: &Acted, seats: usize) -> String {
        if a.street != self.street {
            self.street = a.street;
            self.bet = [0; MAX_SEATS];
        }
        let seat = a.seat as usize;
        let current = self.bet[..seats].iter().copied().max().unwrap_or(0);
        let to = match a.action {
            Action::Fold => {
                self.folded[seat] = true;
                return "folds".to_string();
            }
            Action::Check => return "checks".to_string(),
            Action::Call => current,
            Action::Bet(to) => to,
            Action::ShowHand => self.cap(seats) - (self.committed[seat] - self.bet[seat]),
        };
        let paid = to - self.bet[seat];
        self.committed[seat] += paid;
        self.bet[seat] = to;
        let all_in = self.committed[seat] == self.start[seat];
        let text = match a.action {
            Action::Call => format!("calls {paid}"),
            Action::ShowHand if current == 0 => format!("shows hand: bets {to}, all the hand allows"),
            Action::ShowHand => format!("shows hand: raises to {to}, all the hand allows"),
            _ if current == 0 => format!("bets {to}"),
            _ => format!("raises to {to}"),
        };
        if all_in {
            format!("{text}, all-in")
        } else {
            text
        }
    }

    /// The street's bets after the actions played so far (zero on a street no one has acted on).
    fn street_bets(&self, street: usize) -> [u32; MAX_SEATS] {
        match usize::from(self.street) == street {
            true => self.bet,
            false => [0; MAX_SEATS],
        }
    }
}

/// The table as seat `v.seat()` sees it, laid out for `screen`.
pub fn draw(game: &Stud, v: &View<'_>, screen: &Screen<'_>) -> String {
    let me = v.seat();
    let street = v.street().min(STREETS - 1);
    let mut betting = Betting::new(game, v);
    for a in v.history() {
        betting.play(a, v.seats());
    }
    let bets = betting.street_bets(street);
    let mut text =
        format!("{} ({} cards each), pot {} chips (ante {})\n", street_name(street), street + 2, v.pot(), game.ante);
    let rows: Vec<[String; 6]> = (0..v.seats())
        .map(|seat| {
            let hole = if seat == me { v.hole().to_string() } else { "??".to_string() };
            let cards = format!("[{hole}] {}", spaced(v.up(seat)));
            let showing = match v.in_hand(seat) {
                true => named(v.up_set(seat)),
                false => "folded".to_string(),
            };
            [
                format!("seat {seat}"),
                screen.label(seat, me),
                format!("stack {}", v.stack(seat)),
                format!("in the pot {}", v.committed(seat)),
                if bets[seat] > 0 { format!("bet {}", bets[seat]) } else { String::new() },
                match v.in_hand(seat) && v.stack(seat) == 0 {
                    true => format!("{cards}  ({showing})  all-in"),
                    false => format!("{cards}  ({showing})"),
                },
            ]
        })
        .collect();
    text.push_str(&columns(&rows));
    text.push_str("[hole card] face-up cards; the best hand showing acts first\n");
    if v.in_hand(me) {
        text.push_str(&format!("your cards: {}\n", named(v.my_cards())));
    }
    if v.to_act() {
        match v.to_call() {
            0 => text.push_str("nothing to call: you may check\n"),
            owed => text.push_str(&format!("to call: {} (the bet is {})\n", count(owed, "chip"), v.current_bet())),
        }
    }
    text
}

/// What happened since `told` (the history's entries told, and from bit 32 on the streets
/// announced): every action in words, and each new street's cards before the actions on it.
pub fn narrate(game: &Stud, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
    let (from, mut announced) = ((*told & 0xffff_ffff) as usize, (*told >> 32) as usize);
    let mut betting = Betting::new(game, v);
    let mut announce = |upto: usize, out: &mut Vec<Told>| {
        while announced < upto {
            announced += 1;
            out.push(Told::table(dealt(v, screen, announced)));
        }
    };
    for (i, a) in v.history().iter().enumerate() {
        let text = betting.play(a, v.seats());
        if i >= from {
            announce(usize::from(a.street), out);
            out.push(Told::by(a.seat as usize, text));
        }
    }
    // The streets dealt since the last action (the next round's, or the rest after an all-in).
    announce(v.street().min(STREETS - 1), out);
    *told = (announced as u64) << 32 | v.history().len() as u64;
}

/// The cards street `street` dealt face up: `4th street: you Kh, expert (seat 1) 8d`.
fn dealt(v: &View<'_>, screen: &Screen<'_>, street: usize) -> String {
    let cards: Vec<String> = (0..v.seats())
        .filter_map(|seat| v.up(seat).get(street).map(|card| format!("{} {card}", screen.who(seat))))
        .collect();
    format!("{}: {}", street_name(street), cards.join(", "))
}

/// The end of the hand: at a showdown every hand in it, all five cards and what they make; then
/// who took the pot.
pub fn ending(s: &State, screen: &Screen<'_>) -> String {
    let seats = s.seats();
    let mut text = String::new();
    if !s.is_over() {
        return text; // a forfeit: the hand was not played out
    }
    let in_hand: Vec<Seat> = (0..seats).filter(|&x| s.in_hand(x)).collect();
    if in_hand.len() > 1 {
        text.push_str("showdown:\n");
        let rows: Vec<[String; 3]> =
            in_hand.iter().map(|&x| [screen.who(x), spaced(s.dealt(x)).to_string(), named(s.hand(x))]).collect();
        text.push_str(&columns(&rows));
    }
    let pot = s.pot();
    let takers: Vec<(Seat, u32)> = (0..seats).filter(|&x| s.won(x) > 0).map(|x| (x, s.won(x))).collect();
    match takers.as_slice() {
        [(x, _)] if in_hand.len() == 1 => {
            text.push_str(&format!("the pot of {pot} chips goes to {} (everyone else folded)\n", screen.who(*x)))
        }
        [(x, _)] => text.push_str(&format!("the pot of {pot} chips goes to {}\n", screen.who(*x))),
        _ => {
            let shares: Vec<String> = takers.iter().map(|&(x, won)| format!("{} {won}", screen.who(x))).collect();
            text.push_str(&format!("the pot of {pot} chips is shared: {}\n", shares.join(", ")));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::core::{DealRng, Game, Wire};
    use rand::SeedableRng;

    #[test]
    fn every_action_and_street_is_told_with_what_it_cost() {
        let game = Stud::new(2, 1, 100, CardSet::FULL);
        let mut s = game.deal(&mut DealRng::seed_from_u64(8));
        let first = game.to_act(&s).unwrap();
        for action in [Action::Check, Action::Bet(5), Action::Call] {
            game.apply(&mut s, &action).unwrap();
        }
        let opener = game.to_act(&s).unwrap();
        game.apply(&mut s, &Action::ShowHand).unwrap();
        let (mut told, mut out) = (0, Vec::new());
        game.narrate(&game.view(&s, 0), &Screen::PLAIN, &mut told, &mut out);
        let texts: Vec<String> = out.iter().map(|t| format!("{:?} {}", t.seat, t.text)).collect();
        let other = 1 - first;
        assert_eq!(
            texts[..3],
            [format!("Some({first}) checks"), format!("Some({other}) bets 5"), format!("Some({first}) calls 5")]
        );
        assert!(texts[3].starts_with("None 3rd street: seat 0 "), "{texts:?}");
        // Each seat had 99 behind the ante and has put in 5: the show hand is a bet of 94.
        assert_eq!(texts[4], format!("Some({opener}) shows hand: bets 94, all the hand allows, all-in"));
        // The view on the wire holds the same history.
        let json = crate::core::wire::json(game.view_json(&game.view(&s, 1)));
        assert_eq!(json["history"][1], serde_json::json!({"street": 0, "seat": other, "action": "bet 5"}));
        assert_eq!(json["history"].as_array().unwrap().len(), 4);
    }
}
