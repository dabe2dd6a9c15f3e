//! The MCR table: 4 seats, 136 tiles (144 with the `flowers` option), one hand per game by
//! default or a full round of 16 (`hands = 16`: the dealer moves on every hand, the prevalent wind
//! every four). Seat 0 deals the first hand. Every wall is shuffled from the deal seed before
//! play; replacement tiles (after a kong or a flower) come from the wall's far end.
//!
//! A turn: the seat holds 3n+2 tiles and declares a self-drawn win, a concealed or added kong,
//! or discards. A discard is offered to the other seats one by one in turn order (each answers
//! pass / win / pung / kong / chow; seats with nothing to claim are not asked); then a win beats
//! pung/kong beats chow, and among several winners the first in turn order after the discarder
//! takes it (one winner). An added kong may be robbed by a seat that can win on it.
//! A win needs `min_fans` fans, flowers not counted (a flower is set aside when drawn, replaced,
//! and adds one fan to a win).
//! Payments: self-drawn, each other seat pays fans + 8; on a discard, the discarder pays fans + 8
//! and the other two pay 8. An exhausted wall is a draw: nobody pays.

use rand::seq::{IndexedRandom, SliceRandom};

use super::botzone::judge;
use super::fans::{score, FanTable, Score, WinContext, WinningHand, FAN_COUNT};
use super::shanten::{is_winning_shape, shanten};
use super::tiles::{tile_name, Counts, Meld, MeldKind, Tile, TILE_KINDS};
use crate::core::luck::{Exactness, LuckCache};
use crate::core::wire::{write_int, Texts};
use crate::core::{DealRng, Game, IllegalAction, Outcome, Played, RecordFormat, Seat};

pub use super::events::{Event, Seen, SEATS};

/// What a seat may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Discard this tile.
    Discard(Tile),
    /// Self-drawn win on the turn, or a win on the offered discard / robbed kong.
    Win,
    /// Declare a kong of four of this tile held in the hand, face down.
    ConcealedKong(Tile),
    /// Add this drawn tile to one's exposed pung of it.
    AddedKong(Tile),
    /// Let the offered discard (or kong) go.
    Pass,
    /// Claim the discard for a pung.
    Pung,
    /// An exposed kong on a discard.
    Kong,
    /// A chow whose lowest tile is given (seat on the discarder's right only).
    Chow(Tile),
}

/// An action in the notation of the protocol and the records (`discard 5m`, `chow 3p`, `pass`).
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Action::Discard(t) => write!(f, "discard {}", tile_name(t)),
            Action::Win => f.write_str("win"),
            Action::ConcealedKong(t) => write!(f, "concealed kong {}", tile_name(t)),
            Action::AddedKong(t) => write!(f, "added kong {}", tile_name(t)),
            Action::Pass => f.write_str("pass"),
            Action::Pung => f.write_str("pung"),
            Action::Kong => f.write_str("kong"),
            Action::Chow(t) => write!(f, "chow {}", tile_name(t)),
        }
    }
}

/// What the table is waiting for, as a reason says it.
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Phase::Turn { seat, drawn: Some(t), .. } => {
                write!(f, "seat {seat} is to discard or declare, having drawn {}", tile_name(t))
            }
            Phase::Turn { seat, drawn: None, .. } => write!(f, "seat {seat} is to discard after its claim"),
            Phase::Claims { from, tile, asking, .. } => {
                write!(f, "seat {asking} is asked whether it claims seat {from}'s {}", tile_name(tile))
            }
            Phase::RobKong { seat, tile, asking, .. } => {
                write!(f, "seat {asking} is asked whether it robs seat {seat}'s kong of {}", tile_name(tile))
            }
            Phase::Over => f.write_str("the hand is over"),
        }
    }
}

/// What the table is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `seat` holds 3n+2 tiles. `drawn`: the tile just drawn (None after a claim: discard only).
    Turn {
        seat: Seat,
        drawn: Option<Tile>,
        after_kong: bool,
    },
    /// `tile` discarded by `from`; `asking` = the seat whose answer is awaited.
    Claims {
        from: Seat,
        tile: Tile,
        asking: Seat,
        answers: [Action; SEATS],
        /// Which seats may win on the tile (worked out once per discard: hands do not change
        /// while the claims are collected).
        can_win: [bool; SEATS],
    },
    /// `seat` adds `tile` to its pung; `asking` may rob it.
    RobKong {
        seat: Seat,
        tile: Tile,
        asking: Seat,
        answers: [Action; SEATS],
    },
    Over,
}

#[derive(Clone, Debug)]
/// The whole game: walls, every hand, sets, discards, and the results so far.
pub struct State {
    /// One wall per hand, all fixed at the deal.
    walls: Vec<Vec<Tile>>,
    /// The wall of the hand being played.
    wall: Vec<Tile>,
    /// The hand being played, from 0.
    pub hand_no: usize,
    /// The hand's dealer (East).
    pub dealer: Seat,
    /// Flowers set aside by each seat this hand.
    pub flowers: [u8; SEATS],
    /// Per seat over the game: hands won, their fans, hands dealt in.
    pub wins: [u32; SEATS],
    /// The fans of each seat's won hands, added up.
    pub win_fans: [u32; SEATS],
    /// Hands in which each seat's discard made another seat's win.
    pub deal_ins: [u32; SEATS],
    /// Next live tile (front); replacements come from `end - 1`.
    next: usize,
    end: usize,
    /// Each seat's concealed tiles.
    pub hands: [Counts; SEATS],
    /// Each seat's declared sets, in order.
    pub melds: [Vec<Meld>; SEATS],
    /// Each seat's discards still on the table (a claimed one is taken off).
    pub discards: [Vec<Tile>; SEATS],
    /// Tiles every seat can see: discards still on the table and declared sets.
    pub seen: Counts,
    /// Whose turn it is and what is offered.
    pub phase: Phase,
    /// The winner and fans of the last hand that was won, and each fan that counted.
    pub winner: Option<Seat>,
    /// The winning hand's fans (0 while nobody has won).
    pub fans: u32,
    /// Each fan the winning hand scored.
    pub fan_table: FanTable,
    /// Points over the whole game (zero-sum).
    pub payoff: [i32; SEATS],
    /// The seat that was to draw when the live wall ran out, in the last hand that did (the rules
    /// never read it; a record says who set aside the wall's last flowers, which a state dealt
    /// into the next hand no longer shows).
    pub exhausted_by: Option<Seat>,
    /// What happened in the hand being played, in order (the state keeps where things are, this
    /// the order they came in: a claimed discard leaves the discards, a flower is only a count).
    /// Hidden tiles included; a seat reads it through [`View::history`].
    log: Vec<Event>,
}

impl State {
    /// A table with `walls` and nothing dealt, no hand under way (`Game::deal` deals the first).
    fn blank(walls: Vec<Vec<Tile>>) -> State {
        State {
            walls,
            wall: Vec::new(),
            hand_no: 0,
            dealer: 0,
            flowers: [0; SEATS],
            wins: [0; SEATS],
            win_fans: [0; SEATS],
            deal_ins: [0; SEATS],
            next: 0,
            end: 0,
            hands: [[0; TILE_KINDS]; SEATS],
            melds: Default::default(),
            discards: Default::default(),
            seen: [0; TILE_KINDS],
            phase: Phase::Over,
            winner: None,
            fans: 0,
            fan_table: FanTable([0; FAN_COUNT]),
            payoff: [0; SEATS],
            exhausted_by: None,
            log: Vec::new(),
        }
    }

    /// The events of the hand being played, hidden tiles included (for the host: records and
    /// translators that tell each seat its share; a seat reads [`View::history`]).
    pub fn events(&self) -> &[Event] {
        &self.log
    }

    /// The wall of hand `hand` (from 0) in draw order: the live end first, replacements from the
    /// far end. A flower is `FLOWER`.
    pub fn wall_of(&self, hand: usize) -> &[Tile] {
        &self.walls[hand]
    }

    /// The tiles taken so far from the wall of the hand being played: its front ones are
    /// `wall[..front]`, those taken from the far end `wall[back..]`.
    pub fn taken(&self) -> (usize, usize) {
        (self.next, self.end)
    }

    /// Swaps two places of the wall being played (tests: another order of the tiles).
    #[cfg(test)]
    pub(super) fn swap_in_wall(&mut self, a: usize, b: usize) {
        self.wall.swap(a, b);
    }
}

/// How a win would come, beyond the hand: the winning tile, self-drawn or not, on a kong
/// (replacement or robbed), and the copies of the tile in sight elsewhere (the discards and
/// declared sets, a discarded winning tile itself not counted).
#[derive(Clone, Copy, Debug)]
pub(super) struct WinOn {
    pub tile: Tile,
    pub self_drawn: bool,
    pub kong: bool,
    pub elsewhere: u8,
}

/// A flower in the wall (not a tile kind).
pub const FLOWER: Tile = TILE_KINDS as Tile;

/// The table options.
#[derive(Clone, Debug)]
pub struct Mahjong {
    /// The fans a hand needs to win (8 in Chinese Official rules).
    pub min_fans: u32,
    /// Whether flowers are in the wall (each drawn one is set aside and replaced).
    pub flowers: bool,
    /// Hands per game: 1 or 16.
    pub hands: usize,
    /// What a seat that forfeits pays each other seat.
    pub fault_pays: i32,
}

/// What one seat sees. Declared sets are read through [`View::own_melds`] and
/// [`View::exposed_melds`]: another seat's concealed kong is face down, so its tile is not shown.
pub struct View<'a> {
    /// The seat this view is for.
    pub seat: Seat,
    /// The seat's concealed tiles.
    pub hand: &'a Counts,
    melds: &'a [Vec<Meld>; SEATS],
    /// Every seat's discards still on the table.
    pub discards: &'a [Vec<Tile>; SEATS],
    /// Tiles every seat can see: discards on the table and exposed sets.
    pub seen: &'a Counts,
    /// What the seat is asked: to play its turn, or to answer an offered tile.
    pub phase: PhaseView,
    /// Tiles left in the live wall.
    pub wall_left: usize,
    /// The hand's number in the game (from 0), its dealer, and the flowers each seat has set
    /// aside this hand: what every seat sees at the table (the winds follow from the first two).
    pub hand_no: usize,
    /// The hand's dealer (East).
    pub dealer: Seat,
    /// The flowers each seat has set aside this hand.
    pub flowers: [u8; SEATS],
    /// The seat's legal actions now.
    pub legal: Vec<Action>,
    log: &'a [Event],
}

impl View<'_> {
    /// What happened this hand, in order, as this seat saw it.
    pub fn history(&self) -> impl Iterator<Item = Seen<'_>> + '_ {
        self.log.iter().map(|e| e.seen_by(self.seat))
    }

    /// This seat's declared sets, concealed kongs included.
    pub fn own_melds(&self) -> &[Meld] {
        &self.melds[self.seat]
    }

    /// How many sets `seat` has declared (a concealed kong counts: it is on the table, face down).
    pub fn declared(&self, seat: Seat) -> usize {
        self.melds[seat].len()
    }

    /// The sets of `seat` whose tiles this seat may see: all of its own, another seat's without
    /// its concealed kongs.
    pub fn exposed_melds(&self, seat: Seat) -> impl Iterator<Item = &Meld> + Clone {
        let own = seat == self.seat;
        self.melds[seat].iter().filter(move |m| own || m.kind != MeldKind::ConcealedKong)
    }
}

/// The phase without the other seats' pending answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseView {
    Turn { drawn: Option<Tile> },
    Claim { from: Seat, tile: Tile },
    RobKong { from: Seat, tile: Tile },
}

fn next_seat(s: Seat, k: usize) -> Seat {
    (s + k) % SEATS
}

impl Mahjong {
    /// One hand, no flowers.
    pub fn new(min_fans: u32) -> Mahjong {
        Mahjong { min_fans, flowers: false, hands: 1, fault_pays: 96 }
    }

    pub(super) fn live_left(s: &State) -> usize {
        s.end - s.next
    }

    /// Fans of `seat` winning on `tile` (already counted in its hand when self-drawn).
    fn win_fans(&self, s: &State, seat: Seat, tile: Tile, self_drawn: bool, kong: bool) -> Option<u32> {
        self.win_score(s, seat, tile, self_drawn, kong).map(|sc| sc.total)
    }

    /// The fans of [`Mahjong::win_fans`], each with its count, when the hand may win.
    pub(super) fn win_score(&self, s: &State, seat: Seat, tile: Tile, self_drawn: bool, kong: bool) -> Option<Score> {
        let mut concealed = s.hands[seat];
        if self_drawn {
            concealed[tile as usize] -= 1;
        }
        // Copies visible elsewhere (discards, every declared set), not counting a discarded
        // winning tile itself: three means this is the last one.
        let elsewhere = s.seen[tile as usize] - (!self_drawn && !kong) as u8;
        self.win_score_with(s, seat, &concealed, WinOn { tile, self_drawn, kong, elsewhere })
    }

    /// [`Mahjong::win_score`] of `seat` standing with `concealed` (the winning tile left out)
    /// instead of its hand in `s`, winning `on` as given: the value function (luck.rs) asks it of
    /// hands a draw may make and of discards not yet made.
    pub(super) fn win_score_with(&self, s: &State, seat: Seat, concealed: &Counts, on: WinOn) -> Option<Score> {
        let WinOn { tile, self_drawn, kong, elsewhere } = on;
        let concealed = *concealed;
        let mut with = concealed;
        with[tile as usize] += 1;
        // Quick reject before the full calculator: not a standard hand nor a special shape.
        if !is_winning_shape(&with, s.melds[seat].len()) {
            return None;
        }
        let ctx = WinContext {
            self_drawn,
            fourth_tile: elsewhere == 3,
            kong_related: kong,
            last_wall_tile: Self::live_left(s) == 0,
            flowers: s.flowers[seat],
            seat_wind: ((seat + SEATS - s.dealer) % SEATS) as u8,
            prevalent_wind: (s.hand_no / SEATS % SEATS) as u8,
        };
        let h = WinningHand { melds: &s.melds[seat], concealed: &concealed, win_tile: tile };
        let sc = score(&h, &ctx)?;
        (sc.total - s.flowers[seat] as u32 >= self.min_fans).then_some(sc)
    }

    /// The actions `seat` may take now (empty when it is not asked).
    pub fn legal_for(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        match &s.phase {
            Phase::Turn { seat, drawn, after_kong } => {
                let seat = *seat;
                let hand = &s.hands[seat];
                if let Some(t) = drawn {
                    if self.win_fans(s, seat, *t, true, *after_kong).is_some() {
                        out.push(Action::Win);
                    }
                    if Self::live_left(s) > 0 {
                        for (k, &n) in hand.iter().enumerate() {
                            if n == 4 {
                                out.push(Action::ConcealedKong(k as Tile));
                            }
                        }
                        for m in &s.melds[seat] {
                            if m.kind == MeldKind::Pung && hand[m.tile as usize] > 0 {
                                out.push(Action::AddedKong(m.tile));
                            }
                        }
                    }
                }
                for (k, &n) in hand.iter().enumerate() {
                    if n > 0 {
                        out.push(Action::Discard(k as Tile));
                    }
                }
            }
            Phase::Claims { from, tile, asking, can_win, .. } => {
                out.push(Action::Pass);
                self.claims(s, *from, *tile, *asking, can_win[*asking], out);
            }
            Phase::RobKong { tile, asking, .. } => {
                out.push(Action::Pass);
                if self.win_fans(s, *asking, *tile, false, true).is_some() {
                    out.push(Action::Win);
                }
            }
            Phase::Over => {}
        }
    }

    /// Whether `a` is among [`Mahjong::legal_for`]'s actions. Discards and passes, most of all
    /// actions, are checked directly (no list, no win test).
    fn is_legal(&self, s: &State, a: &Action) -> bool {
        match (&s.phase, a) {
            (Phase::Turn { seat, .. }, Action::Discard(t)) => s.hands[*seat].get(*t as usize).is_some_and(|&n| n > 0),
            (Phase::Claims { .. } | Phase::RobKong { .. }, Action::Pass) => true,
            _ => {
                let mut legal = Vec::new();
                self.legal_for(s, &mut legal);
                legal.contains(a)
            }
        }
    }

    /// Appends the claims `seat` may make on `tile` discarded by `from` (besides passing).
    fn claims(&self, s: &State, from: Seat, tile: Tile, seat: Seat, can_win: bool, out: &mut Vec<Action>) {
        let h = &s.hands[seat];
        let t = tile as usize;
        if can_win {
            out.push(Action::Win);
        }
        if Self::live_left(s) > 0 {
            if h[t] >= 2 {
                out.push(Action::Pung);
            }
            if h[t] == 3 {
                out.push(Action::Kong);
            }
            if seat == next_seat(from, 1) && t < 27 {
                let r = t % 9;
                for low in r.saturating_sub(2)..=r.min(6) {
                    let base = t - r + low;
                    let ok = (base..base + 3).all(|x| x == t || h[x] > 0);
                    if ok {
                        out.push(Action::Chow(base as Tile));
                    }
                }
            }
        }
    }

    /// The next seat after `after` (in turn order, before returning to `stop`) that has a claim.
    fn next_asked(&self, s: &State, from: Seat, tile: Tile, after: Seat, can_win: &[bool; SEATS]) -> Option<Seat> {
        // Stays empty (no allocation) until some seat has a claim.
        let mut claims = Vec::new();
        let mut seat = next_seat(after, 1);
        while seat != from {
            self.claims(s, from, tile, seat, can_win[seat], &mut claims);
            if !claims.is_empty() {
                return Some(seat);
            }
            seat = next_seat(seat, 1);
        }
        None
    }

    fn next_robber(&self, s: &State, seat: Seat, tile: Tile, after: Seat) -> Option<Seat> {
        let mut k = next_seat(after, 1);
        while k != seat {
            if self.win_fans(s, k, tile, false, true).is_some() {
                return Some(k);
            }
            k = next_seat(k, 1);
        }
        None
    }

    /// Takes a tile from the front (or the far end), setting flowers aside and replacing them.
    /// `None` when the live wall is empty.
    fn take(s: &mut State, seat: Seat, mut from_end: bool) -> Option<Tile> {
        loop {
            if Self::live_left(s) == 0 {
                return None;
            }
            let at = if from_end {
                s.end -= 1;
                s.end
            } else {
                s.next += 1;
                s.next - 1
            };
            let t = s.wall[at];
            if t != FLOWER {
                return Some(t);
            }
            s.flowers[seat] += 1;
            let flower = s.wall[..=at].iter().filter(|&&x| x == FLOWER).count() as u8;
            s.log.push(Event::Flower { seat, flower });
            from_end = true;
        }
    }

    fn draw(&self, s: &mut State, seat: Seat, replacement: bool) {
        match Self::take(s, seat, replacement) {
            Some(t) => {
                s.hands[seat][t as usize] += 1;
                s.log.push(Event::Draw { seat, tile: t });
                s.phase = Phase::Turn { seat, drawn: Some(t), after_kong: replacement };
            }
            // Exhausted wall: a draw, nobody pays.
            None => {
                s.exhausted_by = Some(seat);
                self.end_hand(s)
            }
        }
    }

    /// Deals hand `s.hand_no` from its wall; the dealer draws first.
    fn start_hand(&self, s: &mut State) {
        s.wall = s.walls[s.hand_no].clone();
        s.next = 0;
        s.end = s.wall.len();
        s.dealer = s.hand_no % SEATS;
        s.hands = [[0; TILE_KINDS]; SEATS];
        s.melds = Default::default();
        s.discards = Default::default();
        s.seen = [0; TILE_KINDS];
        s.flowers = [0; SEATS];
        s.log.clear();
        let mut hands = [[0; 13]; SEATS];
        for k in 0..SEATS {
            let seat = next_seat(s.dealer, k);
            for slot in hands[seat].iter_mut() {
                let t = Self::take(s, seat, false).expect("a wall holds four hands");
                s.hands[seat][t as usize] += 1;
                *slot = t;
            }
        }
        // The flowers of the deal go with it, not as events of their own.
        let mut flowers: [Vec<u8>; SEATS] = Default::default();
        for e in s.log.drain(..) {
            if let Event::Flower { seat, flower } = e {
                flowers[seat].push(flower);
            }
        }
        s.log.push(Event::Deal { hands, flowers });
        self.draw(s, s.dealer, false);
    }

    fn end_hand(&self, s: &mut State) {
        if s.hand_no + 1 < self.hands {
            s.hand_no += 1;
            self.start_hand(s);
        } else {
            s.phase = Phase::Over;
        }
    }

    fn settle(&self, s: &mut State, winner: Seat, score: Score, payer: Option<Seat>) {
        let fans = score.total;
        let f = fans as i32;
        for k in 0..SEATS {
            if k == winner {
                continue;
            }
            let pay = match payer {
                None => f + 8,
                Some(p) if p == k => f + 8,
                Some(_) => 8,
            };
            s.payoff[k] -= pay;
            s.payoff[winner] += pay;
        }
        if let Some(p) = payer {
            s.deal_ins[p] += 1;
        }
        s.log.push(Event::Win { seat: winner });
        s.wins[winner] += 1;
        s.win_fans[winner] += fans;
        s.winner = Some(winner);
        s.fans = fans;
        s.fan_table = score.table;
        self.end_hand(s);
    }

    /// All answers to a discard are in: apply the strongest claim or move on.
    fn resolve_claims(&self, s: &mut State, from: Seat, tile: Tile, answers: [Action; SEATS]) {
        let order = [1, 2, 3].map(|k| next_seat(from, k));
        if let Some(&w) = order.iter().find(|&&k| answers[k] == Action::Win) {
            let fans = self.win_score(s, w, tile, false, false).expect("checked when claimed");
            s.discards[from].pop();
            s.hands[w][tile as usize] += 1;
            self.settle(s, w, fans, Some(from));
            return;
        }
        // The claimed tile leaves the discards for the set; the other tiles come from the hand.
        let take = |s: &mut State, seat: Seat, meld: Meld| {
            s.discards[from].pop();
            for x in meld.from_hand(tile) {
                s.hands[seat][x as usize] -= 1;
                s.seen[x as usize] += 1;
            }
            s.melds[seat].push(meld);
        };
        if let Some(&k) = order.iter().find(|&&k| matches!(answers[k], Action::Pung | Action::Kong)) {
            let kong = answers[k] == Action::Kong;
            let kind = if kong { MeldKind::Kong } else { MeldKind::Pung };
            take(s, k, Meld { kind, tile });
            s.log.push(if kong { Event::Kong { seat: k, tile } } else { Event::Pung { seat: k, tile } });
            if kong {
                self.draw(s, k, true);
            } else {
                s.phase = Phase::Turn { seat: k, drawn: None, after_kong: false };
            }
            return;
        }
        let right = order[0];
        if let Action::Chow(low) = answers[right] {
            take(s, right, Meld { kind: MeldKind::Chow, tile: low });
            s.log.push(Event::Chow { seat: right, low });
            s.phase = Phase::Turn { seat: right, drawn: None, after_kong: false };
            return;
        }
        self.draw(s, next_seat(from, 1), false);
    }
}

/// A table as one seat knows it: what another program's messages tell (Botzone's requests), from
/// which [`Mahjong::rebuild`] makes a state whose view for that seat is what the seat would see.
#[derive(Clone, Debug)]
pub struct Known {
    pub seat: Seat,
    pub dealer: Seat,
    pub hand_no: usize,
    pub hand: Counts,
    /// Every seat's declared sets; another seat's concealed kong with any tile (its view hides it).
    pub melds: [Vec<Meld>; SEATS],
    pub discards: [Vec<Tile>; SEATS],
    pub flowers: [u8; SEATS],
    /// How many concealed tiles each seat holds.
    pub held: [usize; SEATS],
    pub wall_left: usize,
}

impl Known {
    /// Nothing known yet but who `seat` is and which hand is played.
    pub fn new(seat: Seat, dealer: Seat, hand_no: usize) -> Known {
        Known {
            seat,
            dealer,
            hand_no,
            hand: [0; TILE_KINDS],
            melds: Default::default(),
            discards: Default::default(),
            flowers: [0; SEATS],
            held: [0; SEATS],
            wall_left: 0,
        }
    }
}

/// What the rebuilt table waits for from the seat that knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Its turn: `drawn` the tile just drawn (`None` after its own pung or chow).
    Turn { drawn: Option<Tile>, after_kong: bool },
    /// Whether it claims `from`'s discard `tile`.
    Claim { from: Seat, tile: Tile },
    /// Whether it robs `from`'s added kong of `tile`.
    RobKong { from: Seat, tile: Tile },
}

impl Mahjong {
    /// A state matching what `known` says, asking its seat `asked`: the other seats' concealed
    /// tiles and the live wall are made of the tiles the seat cannot see (in kind order: their
    /// place is unknown, and the seat's view does not show them).
    pub fn rebuild(&self, known: &Known, asked: Asked) -> State {
        let me = known.seat;
        let mut seen: Counts = [0; TILE_KINDS];
        for k in 0..SEATS {
            known.discards[k].iter().for_each(|&t| seen[t as usize] += 1);
            for m in known.melds[k].iter().filter(|m| m.kind != MeldKind::ConcealedKong) {
                m.tiles().for_each(|t| seen[t as usize] += 1);
            }
        }
        // The tiles this seat cannot see, in kind order: the others' hands first, then the wall.
        let mut unseen = (0..TILE_KINDS).flat_map(|t| {
            let own_kongs =
                known.melds[me].iter().filter(|m| m.kind == MeldKind::ConcealedKong && m.tile as usize == t).count();
            let n = 4u8.saturating_sub(seen[t] + known.hand[t] + 4 * own_kongs as u8);
            std::iter::repeat_n(t as Tile, n as usize)
        });
        let mut hands = [[0; TILE_KINDS]; SEATS];
        hands[me] = known.hand;
        for k in (0..SEATS).filter(|&k| k != me) {
            for t in unseen.by_ref().take(known.held[k]) {
                hands[k][t as usize] += 1;
            }
        }
        let wall: Vec<Tile> = unseen.take(known.wall_left).collect();
        let mut s = State {
            end: wall.len(),
            wall,
            hand_no: known.hand_no,
            dealer: known.dealer,
            flowers: known.flowers,
            hands,
            melds: known.melds.clone(),
            discards: known.discards.clone(),
            seen,
            ..State::blank(Vec::new())
        };
        s.phase = match asked {
            Asked::Turn { drawn, after_kong } => Phase::Turn { seat: me, drawn, after_kong },
            Asked::Claim { from, tile } => {
                let mut can_win = [false; SEATS];
                can_win[me] = self.win_fans(&s, me, tile, false, false).is_some();
                Phase::Claims { from, tile, asking: me, answers: [Action::Pass; SEATS], can_win }
            }
            Asked::RobKong { from, tile } => {
                Phase::RobKong { seat: from, tile, asking: me, answers: [Action::Pass; SEATS] }
            }
        };
        s
    }
}

impl Mahjong {
    /// [`GameDef::redeal_hidden`](crate::core::GameDef::redeal_hidden): the other seats'
    /// concealed tiles (their hands, the tile just drawn, their concealed kongs) and the live wall,
    /// dealt anew from the tiles `seat` cannot see. Flowers stay where they are.
    pub fn redeal_hidden(&self, s: &State, seat: Seat, rng: &mut DealRng) -> Option<State> {
        let mut s = s.clone();
        let others: Vec<Seat> = (0..SEATS).filter(|&k| k != seat).collect();
        let mut unseen: Counts = [0; TILE_KINDS];
        for &k in &others {
            (0..TILE_KINDS).for_each(|t| unseen[t] += s.hands[k][t]);
        }
        s.wall[s.next..s.end].iter().filter(|&&t| t != FLOWER).for_each(|&t| unseen[t as usize] += 1);
        // A concealed kong may become any kind of which all four tiles are unseen.
        for &k in &others {
            for meld in s.melds[k].iter_mut().filter(|m| m.kind == MeldKind::ConcealedKong) {
                let free: Vec<Tile> = (0..TILE_KINDS as Tile).filter(|&t| unseen[t as usize] == 4).collect();
                if let Some(&t) = free.choose(rng) {
                    unseen[t as usize] = 0;
                    unseen[meld.tile as usize] = 4;
                    meld.tile = t;
                }
            }
        }
        let mut pool: Vec<Tile> =
            (0..TILE_KINDS).flat_map(|t| std::iter::repeat_n(t as Tile, unseen[t] as usize)).collect();
        pool.shuffle(rng);
        let mut pool = pool.into_iter();
        for &k in &others {
            let held: u8 = s.hands[k].iter().sum();
            s.hands[k] = [0; TILE_KINDS];
            for _ in 0..held {
                s.hands[k][pool.next()? as usize] += 1;
            }
        }
        let (next, end) = (s.next, s.end);
        for t in s.wall[next..end].iter_mut().filter(|t| **t != FLOWER) {
            *t = pool.next()?;
        }
        if let Phase::Turn { seat: k, drawn: Some(drawn), .. } = &mut s.phase {
            if *k != seat {
                let held: Vec<Tile> = (0..TILE_KINDS as Tile).filter(|&t| s.hands[*k][t as usize] > 0).collect();
                *drawn = *held.choose(rng)?;
            }
        }
        Some(s)
    }

    /// The tiles taken from the walls so far (the deals' included), over the game's hands: the
    /// chance events a state has revealed.
    pub(super) fn tiles_taken(s: &State) -> usize {
        let before: usize = s.walls.iter().take(s.hand_no).map(Vec::len).sum();
        before + s.next + (s.wall.len() - s.end)
    }

    /// The tiles of the hand being played: in hands, sets, discards, set aside as flowers and in
    /// the live wall.
    pub fn tiles_in_play(&self, s: &State) -> u64 {
        let held: u64 = (0..SEATS)
            .map(|k| {
                let hand: u64 = s.hands[k].iter().map(|&n| u64::from(n)).sum();
                let sets: usize = s.melds[k].iter().map(Meld::len).sum();
                hand + sets as u64 + s.discards[k].len() as u64 + u64::from(s.flowers[k])
            })
            .sum();
        held + Self::live_left(s) as u64
    }
}

impl Game for Mahjong {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;

    fn seats(&self) -> usize {
        SEATS
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        let mut tiles: Vec<Tile> = (0..TILE_KINDS as u8).flat_map(|t| [t; 4]).collect();
        if self.flowers {
            tiles.extend([FLOWER; 8]);
        }
        let walls = (0..self.hands)
            .map(|_| {
                tiles.shuffle(rng);
                tiles.clone()
            })
            .collect();
        let mut s = State::blank(walls);
        self.start_hand(&mut s);
        s
    }

    fn has_covariate(&self) -> bool {
        true
    }

    /// One hand without flowers: every step then draws at most one tile (luck.rs).
    fn adjusts(&self) -> bool {
        self.tiles_adjust()
    }

    /// The tiles taken from the walls so far, the deal's included.
    fn revealed(&self, s: &State) -> usize {
        Mahjong::tiles_taken(s)
    }

    fn value(&self, s: &State, known: usize, _exactness: Exactness, _cache: &mut LuckCache, out: &mut [f64]) {
        self.tiles_value(s, known, out)
    }

    /// Each seat's starting strength: minus the shanten of the 13 tiles it is dealt, summed over
    /// the game's hands. A wall is shuffled before it is dealt, so any 13 tiles are as likely at
    /// any seat.
    fn covariate(&self, s: &State, out: &mut [f64]) {
        out.fill(0.0);
        let mut t = s.clone();
        for hand in 0..self.hands {
            t.hand_no = hand;
            self.start_hand(&mut t);
            let Some(Event::Deal { hands, .. }) = t.log.first() else { continue };
            for (x, tiles) in out.iter_mut().zip(hands) {
                let mut counts = [0; TILE_KINDS];
                tiles.iter().for_each(|&tile| counts[tile as usize] += 1);
                *x -= f64::from(shanten(&counts, 0));
            }
        }
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        match &s.phase {
            Phase::Turn { seat, .. } => Some(*seat),
            Phase::Claims { asking, .. } | Phase::RobKong { asking, .. } => Some(*asking),
            Phase::Over => None,
        }
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        self.legal_for(s, out);
    }

    fn view<'a>(&self, s: &'a State, seat: Seat) -> View<'a> {
        let phase = match &s.phase {
            // The tile just drawn is for the drawer's eyes only.
            Phase::Turn { seat: turn, drawn, .. } => PhaseView::Turn { drawn: drawn.filter(|_| *turn == seat) },
            Phase::Claims { from, tile, .. } => PhaseView::Claim { from: *from, tile: *tile },
            Phase::RobKong { seat, tile, .. } => PhaseView::RobKong { from: *seat, tile: *tile },
            Phase::Over => PhaseView::Turn { drawn: None },
        };
        let mut legal = Vec::new();
        if self.to_act(s) == Some(seat) {
            self.legal_for(s, &mut legal);
        }
        View {
            seat,
            hand: &s.hands[seat],
            melds: &s.melds,
            discards: &s.discards,
            seen: &s.seen,
            phase,
            wall_left: Self::live_left(s),
            hand_no: s.hand_no,
            dealer: s.dealer,
            flowers: s.flowers,
            legal,
            log: &s.log,
        }
    }

    fn apply(&self, s: &mut State, a: &Action) -> std::result::Result<(), IllegalAction> {
        if !self.is_legal(s, a) {
            return Err(IllegalAction(format!("`{a}` is not legal: {}", s.phase)));
        }
        match s.phase.clone() {
            Phase::Turn { seat, drawn, after_kong } => match *a {
                Action::Win => {
                    let t = drawn.expect("a win needs the drawn tile");
                    let fans = self.win_score(s, seat, t, true, after_kong).expect("legal");
                    self.settle(s, seat, fans, None);
                }
                Action::Discard(t) => {
                    s.hands[seat][t as usize] -= 1;
                    s.log.push(Event::Discard { seat, tile: t });
                    s.discards[seat].push(t);
                    s.seen[t as usize] += 1;
                    let can_win: [bool; SEATS] =
                        std::array::from_fn(|k| k != seat && self.win_fans(s, k, t, false, false).is_some());
                    match self.next_asked(s, seat, t, seat, &can_win) {
                        Some(k) => {
                            s.phase = Phase::Claims {
                                from: seat,
                                tile: t,
                                asking: k,
                                answers: [Action::Pass; SEATS],
                                can_win,
                            }
                        }
                        None => self.draw(s, next_seat(seat, 1), false),
                    }
                }
                Action::ConcealedKong(t) => {
                    s.log.push(Event::ConcealedKong { seat, tile: t });
                    s.hands[seat][t as usize] -= 4;
                    s.melds[seat].push(Meld { kind: MeldKind::ConcealedKong, tile: t });
                    self.draw(s, seat, true);
                }
                Action::AddedKong(t) => {
                    s.log.push(Event::AddedKong { seat, tile: t });
                    match self.next_robber(s, seat, t, seat) {
                        Some(k) => {
                            s.phase = Phase::RobKong { seat, tile: t, asking: k, answers: [Action::Pass; SEATS] }
                        }
                        None => self.finish_added_kong(s, seat, t),
                    }
                }
                _ => unreachable!("checked against the legal actions"),
            },
            Phase::Claims { from, tile, asking, mut answers, can_win } => {
                answers[asking] = *a;
                match self.next_asked(s, from, tile, asking, &can_win) {
                    Some(k) => s.phase = Phase::Claims { from, tile, asking: k, answers, can_win },
                    None => self.resolve_claims(s, from, tile, answers),
                }
            }
            Phase::RobKong { seat, tile, asking, mut answers } => {
                answers[asking] = *a;
                match self.next_robber(s, seat, tile, asking) {
                    Some(k) => s.phase = Phase::RobKong { seat, tile, asking: k, answers },
                    None => {
                        let order = [1, 2, 3].map(|k| next_seat(seat, k));
                        if let Some(&w) = order.iter().find(|&&k| answers[k] == Action::Win) {
                            let fans = self.win_score(s, w, tile, false, true).expect("checked");
                            s.hands[seat][tile as usize] -= 1;
                            s.hands[w][tile as usize] += 1;
                            self.settle(s, w, fans, Some(seat));
                        } else {
                            self.finish_added_kong(s, seat, tile);
                        }
                    }
                }
            }
            Phase::Over => unreachable!("no legal action when over"),
        }
        Ok(())
    }

    fn outcome(&self, s: &State) -> Outcome {
        Outcome::from_payoffs(s.payoff.iter().map(|&p| p as f64))
    }

    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        // The forfeiting seat pays `fault_pays` to each other seat (by default 96, the largest
        // possible self-drawn loss; Botzone's judge: 10).
        let fine = f64::from(self.fault_pays);
        let mut pay = [0.0; SEATS];
        for (k, p) in pay.iter_mut().enumerate() {
            *p = if k == seat { -3.0 * fine } else { fine };
        }
        Outcome::from_payoffs(pay)
    }

    fn columns(&self) -> &'static [&'static str] {
        &["won", "fans", "dealt_in"]
    }

    /// `botzone`: the hand as the input of Botzone's judge (one JSON line a game; see
    /// `botzone::judge`).
    fn record_formats(&self) -> &'static [RecordFormat] {
        &[RecordFormat { name: "botzone", extension: "json", per_pairing: false }]
    }

    fn write_record(&self, format: &str, s: &State, played: &Played<'_>) -> Option<String> {
        let end = match (&s.phase, s.winner, played.forfeit) {
            (Phase::Over, Some(w), None) => judge::End::Won(w),
            (Phase::Over, None, None) => judge::End::Drawn,
            _ => judge::End::Stopped,
        };
        let hand = judge::Hand {
            events: &s.log,
            dealer: s.dealer,
            hand_no: s.hand_no,
            one_hand: self.hands == 1,
            flowers: self.flowers,
            end,
            fans: s.fans,
            payoff: s.payoff,
        };
        (format == "botzone").then(|| judge::write(&hand) + "\n")
    }

    /// Hands won, their total fans (empty with no win), hands dealt in (paid for a discard).
    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push_int(s.wins[seat]);
        let (won, fans) = (s.wins[seat] > 0, s.win_fans[seat]);
        out.push_with(|text| {
            if won {
                write_int(text, fans)
            }
        });
        out.push_int(s.deal_ins[seat]);
    }
}

impl Mahjong {
    fn finish_added_kong(&self, s: &mut State, seat: Seat, t: Tile) {
        s.hands[seat][t as usize] -= 1;
        s.seen[t as usize] += 1;
        if let Some(m) = s.melds[seat].iter_mut().find(|m| m.kind == MeldKind::Pung && m.tile == t) {
            m.kind = MeldKind::Kong;
        }
        self.draw(s, seat, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A concealed kong is face down: the seat that declared it sees its tile, the others see
    /// only that a set was declared.
    #[test]
    fn another_seats_concealed_kong_is_face_down() {
        let game = Mahjong::new(8);
        let mut s = game.deal(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1));
        s.melds[2].push(Meld { kind: MeldKind::ConcealedKong, tile: 5 });
        s.melds[2].push(Meld { kind: MeldKind::Pung, tile: 30 });
        let mine = game.view(&s, 2);
        assert_eq!(mine.exposed_melds(2).count(), 2);
        let theirs = game.view(&s, 0);
        assert_eq!(theirs.declared(2), 2);
        let shown: Vec<&Meld> = theirs.exposed_melds(2).collect();
        assert_eq!(shown, vec![&Meld { kind: MeldKind::Pung, tile: 30 }]);
    }
    use crate::core::{Bot, GameSeeds};
    use crate::games::mahjong::bots::{GreedyBot, RandomBot};
    use rand::SeedableRng;

    /// Every tile is in exactly one place, and every hand has a legal size.
    fn check_invariants(s: &State) {
        let mut count = [0u32; TILE_KINDS + 1];
        for t in &s.wall[s.next..s.end] {
            count[*t as usize] += 1;
        }
        count[TILE_KINDS] += s.flowers.iter().map(|&f| f as u32).sum::<u32>();
        for seat in 0..SEATS {
            for (c, &n) in count.iter_mut().zip(&s.hands[seat]) {
                *c += n as u32;
            }
            for m in &s.melds[seat] {
                for t in m.tiles() {
                    count[t as usize] += 1;
                }
            }
            for &t in &s.discards[seat] {
                count[t as usize] += 1;
            }
            let size: usize = s.hands[seat].iter().map(|&c| c as usize).sum::<usize>() + 3 * s.melds[seat].len();
            let turn = matches!(s.phase, Phase::Turn { seat: t, .. } if t == seat);
            let over_winner = s.phase == Phase::Over && s.winner == Some(seat);
            assert_eq!(size, if turn || over_winner { 14 } else { 13 }, "seat {seat} in {:?}", s.phase);
        }
        let flowers = if s.walls[0].len() == 144 { 8 } else { 0 };
        assert!(
            count[..TILE_KINDS].iter().all(|&c| c == 4) && count[TILE_KINDS] == flowers,
            "tiles conserved: {count:?}"
        );
    }

    fn play(game: &Mahjong, seed: u64, greedy: [bool; 4]) -> State {
        let seeds = GameSeeds::derive(seed, 0, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut rng = crate::core::BotRng::seed_from_u64(seed);
        let mut steps = 0;
        while let Some(seat) = game.to_act(&s) {
            check_invariants(&s);
            let v = game.view(&s, seat);
            assert!(!v.legal.is_empty(), "the seat to act has an action");
            let a = if greedy[seat] { GreedyBot.act(game, &v, &mut rng) } else { RandomBot.act(game, &v, &mut rng) };
            // The direct legality check answers as the list does, for every action.
            let tiles = 0..=TILE_KINDS as Tile;
            let probes =
                [Action::Win, Action::Pass, Action::Pung, Action::Kong].into_iter().chain(tiles.flat_map(|t| {
                    [Action::Discard(t), Action::ConcealedKong(t), Action::AddedKong(t), Action::Chow(t)]
                }));
            for p in probes {
                assert_eq!(game.is_legal(&s, &p), v.legal.contains(&p), "{p:?} in {:?}", s.phase);
            }
            // An illegal action is refused and leaves the state as it was.
            let before = format!("{s:?}");
            assert!(game.apply(&mut s, &Action::ConcealedKong(33)).is_err() || s.hands[seat][33] == 0);
            if format!("{s:?}") != before {
                panic!("state changed by a refused action");
            }
            game.apply(&mut s, &a).unwrap();
            steps += 1;
            assert!(steps < 20_000);
        }
        check_invariants(&s);
        s
    }

    #[test]
    fn random_and_greedy_hands_conserve_tiles_and_points() {
        let game = Mahjong::new(8);
        let mut wins = 0;
        for seed in 0..60 {
            let greedy = [seed % 2 == 0, true, seed % 3 == 0, false];
            let s = play(&game, seed, greedy);
            assert_eq!(s.payoff.iter().sum::<i32>(), 0);
            if let Some(w) = s.winner {
                wins += 1;
                assert!(s.fans >= 8);
                assert!(s.payoff[w] > 0);
            } else {
                assert!(s.payoff.iter().all(|&p| p == 0));
            }
        }
        // Without a minimum, greedy bots win most hands.
        let game = Mahjong::new(0);
        let mut free_wins = 0;
        for seed in 0..40 {
            free_wins += play(&game, seed, [true; 4]).winner.is_some() as u32;
        }
        assert!(free_wins > 20, "{free_wins} of 40");
        let _ = wins;
    }

    #[test]
    fn a_full_round_with_flowers() {
        let game = Mahjong { min_fans: 8, flowers: true, hands: 16, fault_pays: 96 };
        let mut flowers_seen = false;
        for seed in 0..4 {
            let s = play(&game, 100 + seed, [true, false, true, true]);
            assert_eq!(s.hand_no, 15, "sixteen hands played");
            assert_eq!(s.payoff.iter().sum::<i32>(), 0);
            let wins: u32 = s.wins.iter().sum();
            let deal_ins: u32 = s.deal_ins.iter().sum();
            assert!(deal_ins <= wins && wins <= 16);
            flowers_seen |= s.flowers.iter().any(|&f| f > 0);
            let mut out = Texts::default();
            game.record(&s, 0, &mut out);
            assert_eq!(out.len(), game.columns().len());
        }
        assert!(flowers_seen);
    }

    #[test]
    fn same_seed_same_wall() {
        let game = Mahjong::new(8);
        let a = play(&game, 5, [true; 4]);
        let b = play(&game, 5, [true; 4]);
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn chow_only_from_the_left_and_win_beats_pung() {
        let game = Mahjong::new(0);
        let seeds = GameSeeds::derive(1, 0, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        // Seat 0 discards 5m; seat 1 can chow, seat 2 can pung, seat 3 can win.
        s.hands = [[0; TILE_KINDS]; SEATS];
        let set = |h: &mut Counts, tiles: &[Tile]| tiles.iter().for_each(|&t| h[t as usize] += 1);
        set(&mut s.hands[0], &[4, 9, 10, 11, 12, 13, 14, 15, 16, 17, 27, 27, 27, 28]);
        set(&mut s.hands[1], &[3, 5, 18, 19, 20, 21, 22, 23, 24, 25, 26, 29, 29]);
        set(&mut s.hands[2], &[4, 4, 18, 19, 20, 21, 22, 23, 24, 25, 26, 30, 30]);
        // 123m 678m 123s 66s + 4m 6m: waits on 5m.
        set(&mut s.hands[3], &[0, 1, 2, 5, 6, 7, 9, 10, 11, 14, 14, 3, 5]);
        s.phase = Phase::Turn { seat: 0, drawn: None, after_kong: false };
        let mut legal = Vec::new();
        game.apply(&mut s, &Action::Discard(4)).unwrap();
        assert_eq!(game.to_act(&s), Some(1));
        game.legal_actions(&s, &mut legal);
        assert!(legal.contains(&Action::Chow(3)));
        game.apply(&mut s, &Action::Chow(3)).unwrap();
        assert_eq!(game.to_act(&s), Some(2));
        game.legal_actions(&s, &mut legal);
        assert!(legal.contains(&Action::Pung) && !legal.iter().any(|a| matches!(a, Action::Chow(_))));
        game.apply(&mut s, &Action::Pung).unwrap();
        assert_eq!(game.to_act(&s), Some(3));
        game.apply(&mut s, &Action::Win).unwrap();
        assert_eq!(s.winner, Some(3));
        assert_eq!(s.payoff.iter().sum::<i32>(), 0);
        assert!(s.payoff[0] < -8 && s.payoff[1] == -8 && s.payoff[2] == -8);
    }
}
