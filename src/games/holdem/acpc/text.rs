//! The ACPC protocol's text (version 2.0.0), both ways: a hand of ours written as the
//! `MATCHSTATE` lines a seat's agent reads, and a `MATCHSTATE` (or a dealer log's `STATE`) read
//! back into a hand of ours.
//!
//! A state is `<position>:<hand>:<betting>:<cards>`:
//! - positions count from the first to post a blind: heads-up (ACPC's "reverse blinds") position
//!   0 is the big blind and 1 the button's small blind; with more seats 0 is the small blind, 1
//!   the big blind, and the button is last. Our seat 0 is the button, so position = seat - 1
//!   round the table;
//! - betting: the rounds' actions, `/` between rounds: `f`, `c` (check or call) and `r<total>`,
//!   where the total is every chip the seat has put in this hand, blinds included (our
//!   `RaiseTo` counts the round's bet only);
//! - cards: each position's hole cards, `|` between positions (a seat sees its own, and at a
//!   showdown those of every seat still in), then `/` and the board cards of each round dealt.

use std::fmt::Write as _;

use crate::cards::{Card, CardSet};
use crate::core::{Game, Seat};

use super::super::engine::{Action, Chips, Event, Holdem, State, MAX_SEATS};

/// The line an agent sends first.
pub const VERSION: &str = "VERSION:2.0.0";

/// An action as ACPC writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Fold,
    /// A check or a call.
    Call,
    /// A raise (or bet) to this many chips put in the hand in all.
    Raise(Chips),
}

impl Move {
    /// `f`, `c` or `r<total>`, and the other letters the ACPC dealer takes from an agent (`F`;
    /// `C`, `k`, `K` for a call; `R`, `b`, `B` for a raise). A limit game's `r` without a size is
    /// not a no-limit action.
    pub fn parse(text: &str) -> Option<Move> {
        match text.as_bytes().first()? {
            b'f' | b'F' if text.len() == 1 => Some(Move::Fold),
            b'c' | b'C' | b'k' | b'K' if text.len() == 1 => Some(Move::Call),
            b'r' | b'R' | b'b' | b'B' if text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit()) => {
                text[1..].parse().ok().map(Move::Raise)
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Move::Fold => f.write_str("f"),
            Move::Call => f.write_str("c"),
            Move::Raise(total) => write!(f, "r{total}"),
        }
    }
}

/// The ACPC position of our `seat` at a table of `seats`.
pub fn position(seat: Seat, seats: usize) -> usize {
    (seat + seats - 1) % seats
}

/// Our seat at ACPC `position`.
pub fn seat_at(position: usize, seats: usize) -> Seat {
    (position + 1) % seats
}

/// Chips each seat has put in the hand so far, as ACPC counts raises: walked along the hand's
/// events from the blinds.
struct Spent {
    spent: [Chips; MAX_SEATS],
    /// What each seat had put in when the round began (our `RaiseTo` counts from here).
    base: [Chips; MAX_SEATS],
    /// The most any seat has put in.
    most: Chips,
    start: [Chips; MAX_SEATS],
}

impl Spent {
    fn new(s: &State) -> Spent {
        let mut spent = [0; MAX_SEATS];
        for (seat, chips) in spent.iter_mut().enumerate().take(s.n) {
            if s.live & (1 << seat) != 0 {
                *chips = s.blinds.ante.min(s.start[seat]);
            }
        }
        let (sb, bb) = s.blind_seats();
        spent[sb] += s.blinds.small.min(s.start[sb] - spent[sb]);
        spent[bb] += s.blinds.big.min(s.start[bb] - spent[bb]);
        let most = spent.iter().copied().max().unwrap_or(0);
        Spent { spent, base: [0; MAX_SEATS], most, start: s.start }
    }

    /// `seat`'s action as ACPC writes it, and what it puts in.
    fn act(&mut self, seat: usize, action: Action) -> Move {
        match action {
            Action::Fold => Move::Fold,
            Action::CheckCall => {
                self.spent[seat] = self.most.min(self.start[seat]);
                Move::Call
            }
            Action::RaiseTo(to) => {
                self.spent[seat] = self.base[seat] + to;
                self.most = self.most.max(self.spent[seat]);
                Move::Raise(self.spent[seat])
            }
        }
    }

    /// A new betting round: raises count from here.
    fn round(&mut self) {
        self.base = self.spent;
    }
}

/// Writes the `MATCHSTATE` lines `viewer` sees of hand number `hand` in `s` (a cash hand), one
/// after the deal and one after each action (with the board dealt after it), each ending in
/// CR LF, leaving out the first `skip`. Returns how many states the hand has shown so far.
pub fn write_states(s: &State, viewer: Seat, hand: u64, skip: usize, out: &mut String) -> usize {
    let mut spent = Spent::new(s);
    let mut betting = String::new();
    let mut streets = 0u8;
    let mut shown = 0;
    let mut state = |betting: &str, streets: u8, last: bool, out: &mut String| {
        if shown >= skip {
            write_state(s, viewer, hand, betting, streets, last, out);
        }
        shown += 1;
    };
    for event in &s.events {
        match *event {
            Event::Act { seat, action } => {
                state(&betting, streets, false, out);
                write!(betting, "{}", spent.act(seat as usize, action)).expect("a String takes writes");
            }
            Event::Street(street) => {
                betting.push('/');
                streets = street;
                spent.round();
            }
        }
    }
    state(&betting, streets, s.street == 4, out);
    shown
}

/// One `MATCHSTATE` line: `viewer`'s view with the board of `streets` rounds dealt (and at the
/// hand's end the hole cards shown at its showdown).
fn write_state(s: &State, viewer: Seat, hand: u64, betting: &str, streets: u8, over: bool, out: &mut String) {
    let n = s.n;
    write!(out, "MATCHSTATE:{}:{hand}:{betting}:", position(viewer, n)).expect("a String takes writes");
    for p in 0..n {
        if p > 0 {
            out.push('|');
        }
        let seat = seat_at(p, n);
        if seat == viewer || (over && s.showdown & (1 << seat) != 0) {
            s.hole[seat].iter().for_each(|c| c.write_to(out));
        }
    }
    write_board(&s.board, streets, out);
    out.push_str("\r\n");
}

/// `/flop/turn/river`, as far as `streets` rounds have dealt.
fn write_board(board: &[Card; 5], streets: u8, out: &mut String) {
    if streets == 0 {
        return;
    }
    out.push('/');
    board[..3].iter().for_each(|c| c.write_to(out));
    for card in &board[3..2 + streets as usize] {
        out.push('/');
        card.write_to(out);
    }
}

/// The table as an ACPC game definition file (the ACPC server's `.game` format), for agents that
/// read the game they play from one: `example_player holdem.game HOST PORT`. Heads-up it is the
/// server's `holdem.nolimit.2p.reverse_blinds.game` when the table is ACPC's (50/100 blinds,
/// 20,000 chips), with three seats its `holdem.nolimit.3p.game`.
pub fn game_definition(game: &Holdem) -> String {
    let n = game.seats;
    let mut blinds = vec![0; n];
    let (small, big) = if n == 2 { (1, 0) } else { (0, 1) };
    blinds[small] = game.blinds.small;
    blinds[big] = game.blinds.big;
    let list = |values: &[Chips]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" ");
    // 1-based positions: heads-up the button (position 1) opens; else the seat after the big blind.
    let first = if n == 2 { 2 } else { 3 };
    format!(
        "GAMEDEF\nnolimit\nnumPlayers = {n}\nnumRounds = 4\nstack = {}\nblind = {}\nfirstPlayer = {first} 1 1 1\n\
         numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n",
        list(&vec![game.stack; n]),
        list(&blinds),
    )
}

/// A `MATCHSTATE` (or the `<hand>:<betting>:<cards>` of a log's `STATE`) read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchState {
    /// The viewer's position (none in a log's state).
    pub position: Option<usize>,
    pub hand: u64,
    /// Each round's actions, in order.
    pub rounds: Vec<Vec<Move>>,
    /// Hole cards by position, where shown.
    pub hole: Vec<Option<[Card; 2]>>,
    /// The board cards shown, in the order dealt.
    pub board: Vec<Card>,
}

impl MatchState {
    /// Reads `MATCHSTATE:<position>:<hand>:<betting>:<cards>` (no line end).
    pub fn parse(line: &str) -> Result<MatchState, String> {
        let rest = line.strip_prefix("MATCHSTATE:").ok_or_else(|| format!("`{line}` is not a MATCHSTATE"))?;
        let (position, rest) = rest.split_once(':').ok_or_else(|| format!("`{line}`: no position"))?;
        let position = position.parse().map_err(|_| format!("`{line}`: position `{position}` is not a number"))?;
        let mut state = MatchState::parse_body(rest).map_err(|e| format!("`{line}`: {e}"))?;
        if position >= state.hole.len() {
            return Err(format!("`{line}`: position {position} at a table of {}", state.hole.len()));
        }
        state.position = Some(position);
        Ok(state)
    }

    /// Reads `<hand>:<betting>:<cards>`.
    pub fn parse_body(text: &str) -> Result<MatchState, String> {
        let mut fields = text.splitn(3, ':');
        let (Some(hand), Some(betting), Some(cards)) = (fields.next(), fields.next(), fields.next()) else {
            return Err("a state is <hand>:<betting>:<cards>".to_string());
        };
        let hand = hand.parse().map_err(|_| format!("hand number `{hand}` is not a number"))?;
        let mut rounds = Vec::new();
        for round in betting.split('/') {
            rounds.push(read_round(round)?);
        }
        let mut groups = cards.split('/');
        let holes = groups.next().unwrap_or("");
        let mut seen = CardSet::EMPTY;
        let mut card = |text: &str| -> Result<Card, String> {
            let c = Card::parse(text).map_err(|_| format!("`{text}` is not a card"))?;
            if seen.contains(c) {
                return Err(format!("card {c} is dealt twice"));
            }
            seen.insert(c);
            Ok(c)
        };
        let mut hole = Vec::new();
        for text in holes.split('|') {
            hole.push(match text.len() {
                0 => None,
                4 if text.is_ascii() => Some([card(&text[..2])?, card(&text[2..])?]),
                _ => return Err(format!("hole cards `{text}` are not two cards")),
            });
        }
        if hole.len() < 2 {
            return Err(format!("`{holes}` shows one position: a table has two or more"));
        }
        let mut board = Vec::new();
        for (round, group) in groups.enumerate() {
            let want = if round == 0 { 3 } else { 1 };
            if group.len() != 2 * want || !group.is_ascii() {
                return Err(format!("board `{group}` is not {want} card{}", if want == 1 { "" } else { "s" }));
            }
            for i in 0..want {
                board.push(card(&group[2 * i..2 * i + 2])?);
            }
        }
        if board.len() > 5 {
            return Err("more than five board cards".to_string());
        }
        Ok(MatchState { position: None, hand, rounds, hole, board })
    }

    /// The hand this state shows, played out through our rules on `game` (a cash table of as many
    /// seats as the state has positions): the cards shown dealt where the state shows them, the
    /// others from the rest of the deck, and every action applied. An action our rules refuse, or
    /// a round split where ours does not end one, is an error naming it.
    pub fn rebuild(&self, game: &Holdem) -> Result<State, String> {
        self.replay(game, &self.board).map(|r| r.state)
    }

    /// [`MatchState::rebuild`], keeping the state right after the deal and our actions in order
    /// (what an imported game is made of). `board`: the hand's board as far as it is known (from
    /// this state, or from another log of the same deal that went further: a duplicate match's
    /// games then share every card they show); it must begin with this state's board.
    pub fn replay(&self, game: &Holdem, board: &[Card]) -> Result<Rebuilt, String> {
        if !board.starts_with(&self.board) || board.len() > 5 {
            return Err("the board given does not begin with the state's own".to_string());
        }
        let n = self.hole.len();
        if n != game.seats {
            return Err(format!("{n} positions at a table of {} seats", game.seats));
        }
        let mut deck: [Option<Card>; 52] = [None; 52];
        for (p, hole) in self.hole.iter().enumerate() {
            if let Some([a, b]) = hole {
                let seat = seat_at(p, n);
                deck[2 * seat] = Some(*a);
                deck[2 * seat + 1] = Some(*b);
            }
        }
        for (i, c) in board.iter().enumerate() {
            deck[2 * n + i] = Some(*c);
        }
        let used: CardSet = deck.iter().flatten().copied().collect();
        let mut rest = Card::all().filter(|c| !used.contains(*c));
        let cards: [Card; 52] = std::array::from_fn(|i| deck[i].unwrap_or_else(|| rest.next().expect("52 cards")));
        let mut s = game.deal_cards(&cards, &vec![game.stack; n]);
        let dealt = s.clone();
        let mut actions = Vec::new();
        for (round, moves) in self.rounds.iter().enumerate() {
            if !s.over && round as u8 != s.street {
                return Err(format!("round {} begins where our rules are in round {}", round + 1, s.street + 1));
            }
            for (i, m) in moves.iter().enumerate() {
                let Some(seat) = game.to_act(&s) else {
                    return Err(format!("action {m} after the hand is over"));
                };
                let action = match *m {
                    Move::Fold => Action::Fold,
                    Move::Call => Action::CheckCall,
                    Move::Raise(total) => {
                        let base = s.committed[seat] - s.bet[seat];
                        match total.checked_sub(base) {
                            Some(to) => Action::RaiseTo(to),
                            None => return Err(format!("r{total} is less than position {} has in", position(seat, n))),
                        }
                    }
                };
                game.apply(&mut s, &action).map_err(|e| {
                    format!("position {}'s `{m}` (round {}, action {}): {}", position(seat, n), round + 1, i + 1, e.0)
                })?;
                actions.push(action);
            }
            let last = round + 1 == self.rounds.len();
            if !last && s.street == round as u8 && !s.over {
                return Err(format!("round {} ends where our rules do not end it", round + 1));
            }
        }
        let over = s.over;
        if !over && (s.street as usize + 1) != self.rounds.len() {
            return Err(format!("{} rounds where our rules are in round {}", self.rounds.len(), s.street + 1));
        }
        if self.board.len() != s.dealt {
            return Err(format!("{} board cards where our rules have dealt {}", self.board.len(), s.dealt));
        }
        Ok(Rebuilt { dealt, actions, state: s })
    }
}

/// A state played out through our rules ([`MatchState::replay`]).
#[derive(Clone, Debug)]
pub struct Rebuilt {
    /// The state right after the deal.
    pub dealt: State,
    /// Our actions, in order.
    pub actions: Vec<Action>,
    /// The state they reach.
    pub state: State,
}

/// One round's actions: `f`, `c`, `r<total>` run together.
fn read_round(text: &str) -> Result<Vec<Move>, String> {
    if !text.is_ascii() {
        return Err(format!("betting `{text}` is not f, c or r<chips>"));
    }
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'r' | b'R' | b'b' | b'B' => i + 1 + bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count(),
            _ => i + 1,
        };
        let word = &text[i..end];
        moves.push(Move::parse(word).ok_or_else(|| format!("`{word}` in betting `{text}` is not f, c or r<chips>"))?);
        i = end;
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn cards(text: &str) -> [Card; 52] {
        let mut given = parse_cards(text).unwrap();
        let used: CardSet = given.iter().copied().collect();
        given.extend(Card::all().filter(|c| !used.contains(*c)));
        given.try_into().unwrap()
    }

    /// ACPC's heads-up no-limit: 50/100 blinds, 20,000 chips.
    fn heads_up() -> Holdem {
        Holdem::new(2, 50, 100, 20_000)
    }

    fn play(game: &Holdem, deck: &str, actions: &[Action]) -> State {
        let mut s = game.deal_cards(&cards(deck), &vec![game.stack; game.seats]);
        for a in actions {
            game.apply(&mut s, a).unwrap();
        }
        s
    }

    #[test]
    fn the_acpc_tables_are_written_as_the_server_defines_them() {
        let heads_up = game_definition(&Holdem::new(2, 50, 100, 20_000));
        for line in ["numPlayers = 2", "stack = 20000 20000", "blind = 100 50", "firstPlayer = 2 1 1 1"] {
            assert!(heads_up.lines().any(|l| l == line), "{line} in\n{heads_up}");
        }
        let three = game_definition(&Holdem::new(3, 50, 100, 20_000));
        for line in ["numPlayers = 3", "blind = 50 100 0", "firstPlayer = 3 1 1 1", "numBoardCards = 0 3 1 1"] {
            assert!(three.lines().any(|l| l == line), "{line} in\n{three}");
        }
    }

    #[test]
    fn positions_follow_acpc_blinds() {
        // Heads-up: our button (seat 0) posts the small blind, ACPC's position 1.
        assert_eq!((position(0, 2), position(1, 2)), (1, 0));
        // Three seats: small blind (our seat 1) is position 0, the button last.
        assert_eq!((position(1, 3), position(2, 3), position(0, 3)), (0, 1, 2));
        for n in 2..=10 {
            for seat in 0..n {
                assert_eq!(seat_at(position(seat, n), n), seat);
            }
        }
    }

    #[test]
    fn text_that_is_not_ascii_is_refused_not_a_panic() {
        // Found by fuzz_inputs: a multi-byte character where a card or an action letter goes.
        for body in ["0:\u{fffd}r16379r20000c:7d3d|2hAc", "0:cc:\u{20ac}d3d|2hAc", "0:cc:7d3d|2hAc/\u{20ac}d3"] {
            assert!(MatchState::parse_body(body).is_err(), "{body}");
        }
    }

    #[test]
    fn moves_read_and_write() {
        for text in ["f", "c", "r300", "r20000"] {
            assert_eq!(Move::parse(text).unwrap().to_string(), text);
        }
        for (text, read) in [("k", Move::Call), ("C", Move::Call), ("F", Move::Fold), ("b500", Move::Raise(500))] {
            assert_eq!(Move::parse(text), Some(read), "{text}");
        }
        for bad in ["", "x", "r", "r-3", "cc", "fold", "r3x", "kk", "r+3"] {
            assert_eq!(Move::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_hand_is_written_as_each_seat_sees_it() {
        let game = heads_up();
        // Seat 0 (button, small blind) raises to 300, seat 1 calls; flop: check, bet 600, call;
        // turn: check, check; river: check, bet 1200, fold.
        use Action::*;
        let deck = "Ah Kh 9c 9d 2s 7h Tc Jd 3c";
        let s = play(
            &game,
            deck,
            &[
                RaiseTo(300),
                CheckCall,
                CheckCall,
                RaiseTo(600),
                CheckCall,
                CheckCall,
                CheckCall,
                CheckCall,
                RaiseTo(1200),
                Fold,
            ],
        );
        let mut out = String::new();
        assert_eq!(write_states(&s, 1, 7, 0, &mut out), 11);
        let lines: Vec<&str> = out.split_terminator("\r\n").collect();
        assert_eq!(lines[0], "MATCHSTATE:0:7::9c9d|");
        assert_eq!(lines[1], "MATCHSTATE:0:7:r300:9c9d|");
        assert_eq!(lines[2], "MATCHSTATE:0:7:r300c/:9c9d|/2s7hTc");
        // Post-flop the big blind (position 0) acts first; a bet of 600 puts 900 in the hand.
        assert_eq!(lines[4], "MATCHSTATE:0:7:r300c/cr900:9c9d|/2s7hTc");
        assert_eq!(lines[5], "MATCHSTATE:0:7:r300c/cr900c/:9c9d|/2s7hTc/Jd");
        assert_eq!(lines[10], "MATCHSTATE:0:7:r300c/cr900c/cc/cr2100f:9c9d|/2s7hTc/Jd/3c");
        // The button's view, from the fourth state on.
        let mut out = String::new();
        write_states(&s, 0, 7, 9, &mut out);
        assert_eq!(out, "MATCHSTATE:1:7:r300c/cr900c/cc/cr2100:|AhKh/2s7hTc/Jd/3c\r\nMATCHSTATE:1:7:r300c/cr900c/cc/cr2100f:|AhKh/2s7hTc/Jd/3c\r\n");
    }

    #[test]
    fn a_showdown_shows_the_cards_of_the_seats_still_in() {
        let game = heads_up();
        let s = play(&game, "Ah Kh 9c 9d 2s 7h Tc Jd 3c", &[Action::RaiseTo(20_000), Action::CheckCall]);
        let mut out = String::new();
        write_states(&s, 1, 0, 2, &mut out);
        assert_eq!(out, "MATCHSTATE:0:0:r20000c///:9c9d|AhKh/2s7hTc/Jd/3c\r\n");
    }

    #[test]
    fn a_state_read_back_is_the_hand_it_shows() {
        let game = heads_up();
        use Action::*;
        let deck = "Ah Kh 9c 9d 2s 7h Tc Jd 3c";
        let actions = [
            RaiseTo(300),
            CheckCall,
            CheckCall,
            RaiseTo(600),
            CheckCall,
            CheckCall,
            CheckCall,
            RaiseTo(500),
            RaiseTo(5000),
            CheckCall,
        ];
        let s = play(&game, deck, &actions);
        let mut out = String::new();
        write_states(&s, 1, 3, 0, &mut out);
        for (k, line) in out.split_terminator("\r\n").enumerate() {
            let read = MatchState::parse(line).unwrap();
            assert_eq!(read.position, Some(0));
            let rebuilt = read.rebuild(&game).unwrap();
            assert_eq!(rebuilt.events.iter().filter(|e| matches!(e, Event::Act { .. })).count(), k, "{line}");
            let mut again = String::new();
            write_states(&rebuilt, 1, 3, k, &mut again);
            assert_eq!(again.trim_end(), line, "state {k} written again");
        }
        // The last state shows both hands: the rebuilt hand pays as ours did.
        let last = out.split_terminator("\r\n").last().unwrap();
        let rebuilt = MatchState::parse(last).unwrap().rebuild(&game).unwrap();
        assert_eq!(rebuilt.stack[..2], s.stack[..2]);
    }

    #[test]
    fn three_seats_read_as_acpc_seats_them() {
        let game = Holdem::new(3, 50, 100, 20_000);
        // Position 2 (our button, seat 0) acts first pre-flop; position 0 (small blind) after the flop.
        let state = MatchState::parse("MATCHSTATE:2:0:r300cc/c:||AhKh/2s7hTc").unwrap();
        let s = state.rebuild(&game).unwrap();
        assert_eq!(s.hole[0], [Card::parse("Ah").unwrap(), Card::parse("Kh").unwrap()]);
        assert_eq!(game.to_act(&s), Some(2), "position 1 (the big blind) acts second after the flop");
        assert_eq!(s.pot(), 900);
    }

    #[test]
    fn bad_states_are_errors_that_say_why() {
        let game = heads_up();
        let err = |line: &str| match MatchState::parse(line).and_then(|s| s.rebuild(&game)) {
            Ok(_) => panic!("{line}: accepted"),
            Err(e) => e,
        };
        assert!(err("MATCHSTATE:0:0:x:9c9d|").contains("`x` in betting"));
        assert!(err("MATCHSTATE:2:0::9c9d|").contains("position 2 at a table of 2"));
        assert!(err("MATCHSTATE:0:0::9c9c|").contains("dealt twice"));
        assert!(err("MATCHSTATE:0:0::9c9|").contains("not two cards"));
        assert!(err("MATCHSTATE:0:0:r50:9c9d|").contains("r50"), "{}", err("MATCHSTATE:0:0:r50:9c9d|"));
        assert!(err("MATCHSTATE:0:0:c/:9c9d|").contains("round 1 ends"));
        assert!(err("MATCHSTATE:0:0:ff:9c9d|").contains("after the hand is over"));
        assert!(err("STATE:0:0::").contains("not a MATCHSTATE"));
    }
}
