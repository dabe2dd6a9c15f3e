//! The hold'em table as a person at it sees it (`arena play`): the seats with their stacks and
//! bets, the button and the blinds, the cards a seat may see and the board ([`draw`]); every action
//! in words as it happens, `checks`, `calls 200`, `raises to 600, all-in` ([`narrate`]); and the
//! end of the hand, the hands shown down by name and who took the pot ([`ending`]). All of it is
//! read from a seat's view or from what the rules reveal at the end: nothing a seat may not see.
//!
//! A check and a call are one action on the wire (`call`); which of the two it was, and how much
//! a call or a raise put in, comes from following the hand's betting from its blinds
//! ([`Betting`]), as a person at the table would.

use crate::cards::naming::hand_name;
use crate::cards::Card;
use crate::core::readable::{columns, count, Screen};
use crate::core::wire::{spaced, Told};

use super::engine::{blind_seats, Action, Blinds, Chips, Event, Format, HandRecord, Holdem, State, View};
use super::eval::{category, eval};

/// The betting rounds' names, by street.
const STREETS: [&str; 4] = ["pre-flop", "flop", "turn", "river"];

/// A hand as the table saw it: its seats, button, blinds, starting stacks, actions and board
/// (read only as far as the actions turned it). The hand under way, or a finished one of a
/// sit-and-go.
struct Hand<'a> {
    n: usize,
    live: u16,
    button: usize,
    blinds: Blinds,
    start: &'a [Chips],
    events: &'a [Event],
    board: &'a [Card; 5],
    hole: &'a [[Card; 2]],
    /// The stacks once the hand was settled (only read when it was).
    end: &'a [Chips],
    showdown: u16,
}

impl<'a> Hand<'a> {
    fn current(s: &'a State) -> Hand<'a> {
        Hand {
            n: s.n,
            live: s.live,
            button: s.button,
            blinds: s.blinds,
            start: &s.start,
            events: &s.events,
            board: &s.board,
            hole: &s.hole,
            end: &s.stack,
            showdown: s.showdown,
        }
    }

    fn past(h: &'a HandRecord) -> Hand<'a> {
        Hand {
            n: h.seats as usize,
            live: h.live,
            button: h.button as usize,
            blinds: h.blinds,
            start: &h.start,
            events: &h.events,
            board: &h.board,
            hole: &h.hole,
            end: &h.end,
            showdown: h.showdown,
        }
    }

    fn dealt_in(&self, seat: usize) -> bool {
        self.live & (1 << seat) != 0
    }
}

/// The betting of a hand followed action by action from its antes and blinds: what each seat has
/// behind, in this round's bet and in the pot.
struct Betting {
    stack: Vec<Chips>,
    bet: Vec<Chips>,
    committed: Vec<Chips>,
    current: Chips,
}

impl Betting {
    /// The hand before its first action: antes from every seat dealt in, then the blinds (a short
    /// stack puts in what it has).
    fn posted(hand: &Hand<'_>) -> Betting {
        let n = hand.n;
        let mut b = Betting { stack: hand.start[..n].to_vec(), bet: vec![0; n], committed: vec![0; n], current: 0 };
        for seat in (0..n).filter(|&seat| hand.dealt_in(seat)) {
            let ante = hand.blinds.ante.min(b.stack[seat]);
            b.put(seat, ante, false);
        }
        if hand.live.count_ones() >= 2 {
            let (sb, bb) = blind_seats(n, hand.live, hand.button);
            b.put(sb, hand.blinds.small.min(b.stack[sb]), true);
            b.put(bb, hand.blinds.big.min(b.stack[bb]), true);
            b.current = b.bet[sb].max(b.bet[bb]);
        }
        b
    }

    fn put(&mut self, seat: usize, amount: Chips, is_bet: bool) {
        self.stack[seat] -= amount;
        self.committed[seat] += amount;
        if is_bet {
            self.bet[seat] += amount;
        }
    }

    /// Plays `event` and says it in words: a seat's action (`checks`, `calls 200`, `bets 300`,
    /// `raises to 900, all-in`, `folds`) or the street turned (`flop: Ah Kd 2c`).
    fn play(&mut self, event: &Event, board: &[Card; 5]) -> Told {
        match *event {
            Event::Street(street) => {
                self.bet.iter_mut().for_each(|b| *b = 0);
                self.current = 0;
                let cards = match street {
                    1 => &board[..3],
                    k => &board[1 + k as usize..2 + k as usize],
                };
                Told::table(format!("{}: {}", STREETS[street as usize], spaced(cards)))
            }
            Event::Act { seat, action } => {
                let seat = seat as usize;
                let text = match action {
                    Action::Fold => "folds".to_string(),
                    Action::CheckCall => {
                        let owed = (self.current - self.bet[seat]).min(self.stack[seat]);
                        self.put(seat, owed, true);
                        match owed {
                            0 => "checks".to_string(),
                            _ => format!("calls {owed}"),
                        }
                    }
                    Action::RaiseTo(to) => {
                        let text = match self.current {
                            0 => format!("bets {to}"),
                            _ => format!("raises to {to}"),
                        };
                        self.put(seat, to - self.bet[seat], true);
                        self.current = self.current.max(to);
                        text
                    }
                };
                let all_in = action != Action::Fold && self.stack[seat] == 0;
                Told::by(seat, if all_in { format!("{text}, all-in") } else { text })
            }
        }
    }
}

/// The best five of a seat's two cards and the board (three to five cards), and their name.
fn best_hand(hole: [Card; 2], board: &[Card]) -> ([Card; 5], String) {
    let cards: Vec<Card> = hole.iter().chain(board).copied().collect();
    let k = cards.len();
    // Every five of the five to seven cards, one bit a card chosen.
    let fives = (0u32..1 << k).filter(|chosen| chosen.count_ones() == 5).map(|chosen| {
        let mut five = cards.iter().enumerate().filter(|(i, _)| chosen >> i & 1 == 1).map(|(_, &c)| c);
        std::array::from_fn::<Card, 5, _>(|_| five.next().expect("five chosen"))
    });
    let five = fives.max_by_key(|five| eval(five)).expect("five cards or more");
    (five, hand_name(&five, category(eval(&five))))
}

/// The table as seat `v.seat()` sees it, laid out for `screen`.
pub fn draw(game: &Holdem, v: &View<'_>, screen: &Screen<'_>) -> String {
    let s = v.state();
    let me = v.seat();
    let blinds = v.blinds();
    let mut text = String::new();
    let hand = match game.format {
        Format::Cash => String::new(),
        Format::Sng => format!("hand {}, ", v.hand_no() + 1),
    };
    let ante = if blinds.ante > 0 { format!(", ante {}", blinds.ante) } else { String::new() };
    let street = match STREETS.get(v.street() as usize) {
        Some(street) => street,
        None => "the hand is over",
    };
    text.push_str(&format!("{hand}{street}, pot {} chips (blinds {}/{}{ante})\n", v.pot(), blinds.small, blinds.big));
    let (sb, bb) = if s.live.count_ones() >= 2 { blind_seats(s.n, s.live, s.button) } else { (usize::MAX, usize::MAX) };
    let rows: Vec<[String; 6]> = (0..v.seats())
        .map(|seat| {
            let mut role = Vec::new();
            if seat == v.button() {
                role.push("button");
            }
            if seat == sb {
                role.push("small blind");
            }
            if seat == bb {
                role.push("big blind");
            }
            let dealt = s.live & (1 << seat) != 0;
            let cards = match (dealt, v.is_in(seat), seat == me) {
                (false, _, _) => "out".to_string(),
                (true, false, _) => "folded".to_string(),
                (true, true, true) => spaced(v.hole()).to_string(),
                (true, true, false) => "?? ??".to_string(),
            };
            let all_in = dealt && v.is_in(seat) && v.stack(seat) == 0;
            let bet = v.bet(seat);
            [
                format!("seat {seat}"),
                screen.label(seat, me),
                role.join(", "),
                format!("stack {}", v.stack(seat)),
                if bet > 0 { format!("bet {bet}") } else { String::new() },
                if all_in { format!("{cards}  all-in") } else { cards },
            ]
        })
        .collect();
    text.push_str(&columns(&rows));
    let board = v.board();
    match board.is_empty() {
        true => text.push_str("board: -\n"),
        false => text.push_str(&format!("board: {}\n", spaced(board))),
    }
    if v.is_in(me) && board.len() >= 3 {
        text.push_str(&format!("your hand: {}\n", best_hand(v.hole(), board).1));
    }
    if s.to_act == me && !s.over {
        match v.to_call() {
            0 => text.push_str("nothing to call: you may check\n"),
            owed => text.push_str(&format!("to call: {} (the bet is {})\n", count(owed, "chip"), v.current_bet())),
        }
    }
    text
}

/// What happened since `told` (the hand's number times 2^32 plus its events told): the rest of the
/// hands finished since (a sit-and-go), each with its showdown and who took the pot, then this
/// hand's actions and streets.
pub fn narrate(game: &Holdem, v: &View<'_>, screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
    let s = v.state();
    let (mut hand_no, mut from) = ((*told >> 32) as u32, (*told & 0xffff_ffff) as usize);
    while hand_no < s.hand_no {
        if let Some(past) = s.past.get(hand_no as usize) {
            let hand = Hand::past(past);
            tell(&hand, from, out);
            out.extend(hand_end(&hand, screen).lines().map(Told::table));
        }
        hand_no += 1;
        from = 0;
        // The next hand, if it was dealt: finished since, or the one under way.
        let next = match s.past.get(hand_no as usize) {
            Some(h) => Some((h.button as usize, h.blinds)),
            None => (!s.over).then_some((s.button, s.blinds)),
        };
        if let Some((button, blinds)) = next {
            out.push(Told::table(format!(
                "hand {}: the button is on {}, blinds {}/{}",
                hand_no + 1,
                screen.who(button),
                blinds.small,
                blinds.big
            )));
        }
    }
    // A finished sit-and-go's last hand is among the past ones (told above).
    if !(s.over && game.format == Format::Sng) {
        tell(&Hand::current(s), from, out);
    }
    *told = u64::from(s.hand_no) << 32 | s.events.len() as u64;
}

/// The events of `hand` from the `from`th on, in words.
fn tell(hand: &Hand<'_>, from: usize, out: &mut Vec<Told>) {
    let mut betting = Betting::posted(hand);
    for (i, event) in hand.events.iter().enumerate() {
        let told = betting.play(event, hand.board);
        if i >= from {
            out.push(told);
        }
    }
}

/// How a settled hand ended: its board, the seats that showed down with their cards and the
/// hands they make, and who took the pot.
fn hand_end(hand: &Hand<'_>, screen: &Screen<'_>) -> String {
    let mut betting = Betting::posted(hand);
    let mut dealt = 0;
    for event in hand.events {
        betting.play(event, hand.board);
        if let Event::Street(street) = *event {
            dealt = 2 + usize::from(street);
        }
    }
    let mut text = String::new();
    if dealt > 0 {
        text.push_str(&format!("board: {}\n", spaced(&hand.board[..dealt])));
    }
    let shown: Vec<[String; 3]> = (0..hand.n)
        .filter(|&seat| hand.showdown & (1 << seat) != 0)
        .map(|seat| [screen.who(seat), spaced(hand.hole[seat]).to_string(), best_hand(hand.hole[seat], hand.board).1])
        .collect();
    if !shown.is_empty() {
        text.push_str("showdown:\n");
        text.push_str(&columns(&shown));
    }
    // What a seat took from the pot: its stack at the end against what it had left behind.
    let took: Vec<(usize, Chips)> =
        (0..hand.n).map(|seat| (seat, hand.end[seat] - betting.stack[seat])).filter(|&(_, took)| took > 0).collect();
    let pot: Chips = betting.committed.iter().sum();
    let why = if hand.showdown == 0 { " (everyone else folded)" } else { "" };
    match took.as_slice() {
        [(seat, _)] => text.push_str(&format!("the pot of {pot} chips goes to {}{why}\n", screen.who(*seat))),
        _ => {
            let shares: Vec<String> = took.iter().map(|&(seat, took)| format!("{} {took}", screen.who(seat))).collect();
            text.push_str(&format!("the pot of {pot} chips is shared: {}\n", shares.join(", ")));
        }
    }
    text
}

/// The end of the game: the last hand's board, its showdown and who took the pot (a hand a
/// forfeit cut short: its board so far).
pub fn ending(game: &Holdem, s: &State, screen: &Screen<'_>) -> String {
    match (game.format, s.past.last()) {
        (Format::Cash, _) if s.over => hand_end(&Hand::current(s), screen),
        (Format::Cash, _) => match s.dealt {
            0 => String::new(),
            dealt => format!("board: {}\n", spaced(&s.board[..dealt])),
        },
        (Format::Sng, Some(last)) if s.over => hand_end(&Hand::past(last), screen),
        // A sit-and-go ended by a forfeit: its last hand was not played out.
        (Format::Sng, _) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{DealRng, Game, Wire};
    use rand::SeedableRng;

    /// Every action of a hand told in words, as seat `seat` is told them.
    fn story(game: &Holdem, s: &State, seat: usize, told: &mut u64) -> Vec<String> {
        let names = ["you".to_string(), "rr".to_string()];
        let screen = Screen { names: &names, width: 80 };
        let mut out = Vec::new();
        game.narrate(&game.view(s, seat), &screen, told, &mut out);
        out.iter().map(|t| format!("{:?} {}", t.seat, t.text)).collect()
    }

    #[test]
    fn a_check_is_told_from_a_call_and_a_bet_from_a_raise_with_what_they_cost() {
        let game = Holdem::new(2, 50, 100, 1000);
        let mut s = game.deal(&mut DealRng::seed_from_u64(3));
        let mut told = 0;
        // Heads-up the button (seat 0) posts the small blind and acts first.
        for action in [Action::CheckCall, Action::CheckCall] {
            game.apply(&mut s, &action).unwrap();
        }
        let flop = format!("None flop: {}", spaced(&s.board[..3]));
        assert_eq!(story(&game, &s, 0, &mut told), ["Some(0) calls 50", "Some(1) checks", flop.as_str()]);
        // After the flop the big blind acts first: a bet, a raise, an all-in raise, a call.
        for action in [Action::RaiseTo(200), Action::RaiseTo(600), Action::RaiseTo(900), Action::CheckCall] {
            game.apply(&mut s, &action).unwrap();
        }
        let told_now = story(&game, &s, 0, &mut told);
        assert_eq!(
            told_now[..4],
            ["Some(1) bets 200", "Some(0) raises to 600", "Some(1) raises to 900, all-in", "Some(0) calls 300, all-in"]
        );
        // The rest is the board run out; nothing is told twice.
        assert!(
            told_now[4..].iter().all(|t| t.starts_with("None turn: ") || t.starts_with("None river: ")),
            "{told_now:?}"
        );
        assert!(story(&game, &s, 0, &mut told).is_empty());
        let end = game.end_text(&s, &Screen { names: &[], width: 80 });
        assert!(end.contains("showdown:\n") && end.contains("the pot of 2000 chips "), "{end}");
    }

    #[test]
    fn the_table_shows_this_seats_cards_and_hides_the_others() {
        let game = Holdem::new(3, 50, 100, 1000);
        let s = game.deal(&mut DealRng::seed_from_u64(5));
        let names = ["me".to_string(), "a".to_string(), "b".to_string()];
        let text = game.view_text(&game.view(&s, 1), &Screen { names: &names, width: 80 });
        let hole = spaced(s.hole[1]).to_string();
        assert!(text.contains(&format!("  seat 1  a (you)  small blind  stack 950   bet 50   {hole}\n")), "{text}");
        assert!(text.contains("  seat 0  me       button") && text.contains("?? ??"), "{text}");
        assert!(!text.contains(&spaced(s.hole[0]).to_string()), "another seat's cards shown:\n{text}");
        assert!(text.starts_with("pre-flop, pot 150 chips (blinds 50/100)\n"), "{text}");
    }
}
