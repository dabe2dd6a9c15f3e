//! A hand of ours told as Botzone's judge tells it: the requests one seat would have been sent up
//! to now.
//!
//! Botzone's requests are the order things happened in, which the engine keeps as its hand's
//! [`Event`]s (a seat reads them through `View::history`, hidden tiles hidden): [`requests`] tells
//! them as one seat's requests.
//!
//! The tests hold the engine's log to an independent one: `HandLog` (test code) is filled beside
//! the engine from the states before and after every action (where things are, read from the
//! wall and how far it is taken), and must come to the same events, hand after hand.
//!
//! Seats and winds: Botzone's player id is the seat wind, 0 = East = the dealer, and turns go
//! 0→1→2→3; ours go seat → seat + 1 from the dealer, so id = (seat − dealer) mod 4. `quan`, the
//! prevalent wind, is ours: hand_no / 4 mod 4 (East for the first four hands).
//!
//! Flowers: ours are one kind, Botzone's are H1..H8; the k-th flower of a hand's wall (in the
//! wall's stored order) is named `Hk`, so every flower has one name for the whole hand.

#[cfg(test)]
use super::super::engine::{Action, Phase, State, FLOWER};
use super::super::events::{Event, Seen, SEATS};
#[cfg(test)]
use super::super::tiles::{MeldKind, Tile, TILE_KINDS};
use super::text::{Happening, Request};
use crate::core::Seat;

/// Botzone's id of our `seat` when `dealer` deals.
pub fn botzone_id(seat: Seat, dealer: Seat) -> u8 {
    ((seat + SEATS - dealer) % SEATS) as u8
}

/// Botzone's `quan` (prevalent wind) of our hand `hand_no`.
pub fn quan(hand_no: usize) -> u8 {
    (hand_no / SEATS % SEATS) as u8
}

/// The requests Botzone's judge would have sent our seat `me` in hand `hand_no` (dealt by
/// `dealer`), from what it saw happen (see [`Teller`]).
#[cfg(test)]
pub fn requests<'a>(seen: impl IntoIterator<Item = Seen<'a>>, me: Seat, dealer: Seat, hand_no: usize) -> Vec<Request> {
    let mut out = Vec::new();
    Teller::new(me, dealer, hand_no).tell(seen, &mut out);
    out
}

/// Tells one seat's hand as Botzone's requests as it goes: its id and the prevalent wind, the
/// deal, then every event (a pung or chow goes out with the discard that follows it, as one
/// request; a kong's tile is hidden; a win ends the requests). Each call reads only the events
/// after those it has read, so a seat asked again and again costs what happened since.
#[derive(Clone, Debug)]
pub struct Teller {
    me: Seat,
    dealer: Seat,
    quan: u8,
    /// Events read so far; `None` before the first call (the `0 id quan` request not yet told).
    read: Option<usize>,
    /// A pung or chow waiting for the discard it is told with.
    pending: Option<Event>,
    won: bool,
}

impl Teller {
    pub fn new(me: Seat, dealer: Seat, hand_no: usize) -> Teller {
        Teller { me, dealer, quan: quan(hand_no), read: None, pending: None, won: false }
    }

    /// Appends to `out` the requests of the events of `seen` (the whole hand so far, as the seat
    /// sees it) after those already told.
    pub fn tell<'a>(&mut self, seen: impl IntoIterator<Item = Seen<'a>>, out: &mut Vec<Request>) {
        let id = |k: Seat| botzone_id(k, self.dealer);
        let skip = match self.read {
            Some(read) => read,
            None => {
                out.push(Request::Init { id: id(self.me), quan: self.quan });
                0
            }
        };
        let mut read = skip;
        for seen in seen.into_iter().skip(skip) {
            read += 1;
            if self.won {
                continue;
            }
            let (k, what) = match seen {
                Seen::Deal { hand, flowers } => {
                    let mut by_id: [Vec<u8>; SEATS] = Default::default();
                    for (k, list) in flowers.iter().enumerate() {
                        by_id[id(k) as usize] = list.clone();
                    }
                    out.push(Request::Deal { hand: *hand, flowers: by_id });
                    continue;
                }
                Seen::Draw { tile: Some(tile), .. } => {
                    out.push(Request::Draw(tile));
                    continue;
                }
                Seen::Draw { seat: k, tile: None } => (k, Happening::Draw),
                Seen::ConcealedKong { seat: k, .. } => (k, Happening::Gang),
                Seen::Public(event) => match *event {
                    Event::Flower { seat: k, flower } => (k, Happening::Flower(flower)),
                    Event::Discard { seat: k, tile } => match self.pending.take() {
                        Some(Event::Pung { .. }) => (k, Happening::Peng(tile)),
                        Some(Event::Chow { low, .. }) => (k, Happening::Chi { mid: low + 1, tile }),
                        _ => (k, Happening::Play(tile)),
                    },
                    Event::Pung { .. } | Event::Chow { .. } => {
                        self.pending = Some(event.clone());
                        continue;
                    }
                    Event::Kong { seat: k, .. } | Event::ConcealedKong { seat: k, .. } => (k, Happening::Gang),
                    Event::AddedKong { seat: k, tile } => (k, Happening::BuGang(tile)),
                    Event::Win { .. } => {
                        self.won = true;
                        continue;
                    }
                    Event::Deal { .. } | Event::Draw { .. } => unreachable!("seen as Seen::Deal and Seen::Draw"),
                },
            };
            out.push(Request::Player { id: id(k), what });
        }
        self.read = Some(read);
    }
}

#[cfg(test)]
/// How far a hand's wall is taken: from the front `..next`, from the far end `end..`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    next: usize,
    end: usize,
}

#[cfg(test)]
/// One hand's events, filled beside the engine from the states alone (the tests' oracle).
#[derive(Clone, Debug)]
pub struct HandLog {
    pub hand_no: usize,
    pub dealer: Seat,
    pub events: Vec<Event>,
    wall: Vec<Tile>,
    /// The flower number of each wall position (0 where there is no flower).
    flower_no: Vec<u8>,
    cursor: Cursor,
    over: bool,
}

#[cfg(test)]
impl HandLog {
    /// The log of the hand `s` has just dealt (a state as `Game::deal` returns it, or as `apply`
    /// leaves it when it starts the next hand): the deal and the dealer's first draw, read from
    /// the hand's wall in the order the engine takes it (13 tiles a seat from the front, from the
    /// dealer on, a flower replaced from the far end) and checked against the state.
    pub fn start(s: &State) -> Result<HandLog, String> {
        let wall = s.wall_of(s.hand_no).to_vec();
        let mut seen = 0;
        let flower_no = wall
            .iter()
            .map(|&t| {
                seen += (t == FLOWER) as u8;
                if t == FLOWER {
                    seen
                } else {
                    0
                }
            })
            .collect();
        let mut log = HandLog {
            hand_no: s.hand_no,
            dealer: s.dealer,
            events: Vec::new(),
            wall,
            flower_no,
            cursor: Cursor { next: 0, end: s.wall_of(s.hand_no).len() },
            over: false,
        };
        let mut hands = [[0; 13]; SEATS];
        let mut flowers: [Vec<u8>; SEATS] = Default::default();
        for k in 0..SEATS {
            let seat = (s.dealer + k) % SEATS;
            for slot in hands[seat].iter_mut() {
                let (tile, set_aside) = log.take(false);
                flowers[seat].extend(set_aside);
                *slot = tile.ok_or("a wall too short for the deal")?;
            }
        }
        log.events.push(Event::Deal { hands, flowers });
        let (tile, set_aside) = log.take(false);
        let dealer = s.dealer;
        log.events.extend(set_aside.into_iter().map(|flower| Event::Flower { seat: dealer, flower }));
        let tile = tile.ok_or("a wall too short for the first draw")?;
        log.events.push(Event::Draw { seat: dealer, tile });
        let mut held = [[0u8; TILE_KINDS]; SEATS];
        for (seat, hand) in hands.iter().enumerate() {
            hand.iter().for_each(|&t| held[seat][t as usize] += 1);
        }
        held[dealer][tile as usize] += 1;
        let (next, end) = s.taken();
        let drew = matches!(s.phase, Phase::Turn { seat, drawn: Some(t), .. } if seat == dealer && t == tile);
        if held != s.hands || (Cursor { next, end }) != log.cursor || !drew {
            return Err("the state is not a hand just dealt from its wall".into());
        }
        Ok(log)
    }

    /// Takes a tile as the engine does: from the front (or the far end), flowers set aside and
    /// replaced from the far end. The tile (`None` when the live wall ran out) and the flowers.
    fn take(&mut self, mut from_end: bool) -> (Option<Tile>, Vec<u8>) {
        let mut set_aside = Vec::new();
        while self.cursor.next < self.cursor.end {
            let at = if from_end {
                self.cursor.end -= 1;
                self.cursor.end
            } else {
                self.cursor.next += 1;
                self.cursor.next - 1
            };
            if self.wall[at] != FLOWER {
                return (Some(self.wall[at]), set_aside);
            }
            set_aside.push(self.flower_no[at]);
            from_end = true;
        }
        (None, set_aside)
    }

    /// Whether the hand is over (won, or the wall ran out).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Adds what one action did: `seat` applied `action` to `before`, which left `after`.
    pub fn observe(&mut self, before: &State, seat: Seat, action: &Action, after: &State) -> Result<(), String> {
        if self.over {
            return Err("the hand is over: start a new log for the next one".into());
        }
        if before.hand_no != self.hand_no {
            return Err(format!("this log is of hand {}, the action of hand {}", self.hand_no, before.hand_no));
        }
        let winner = (0..SEATS).find(|&k| after.wins[k] > before.wins[k]);
        let same_hand = after.hand_no == before.hand_no && after.phase != Phase::Over;
        // What the action itself was, and whether a draw after it comes from the far end.
        let mut replacement = false;
        match (&before.phase, *action) {
            (Phase::Turn { .. }, Action::Discard(tile)) => self.events.push(Event::Discard { seat, tile }),
            (Phase::Turn { .. }, Action::ConcealedKong(tile)) => {
                replacement = true;
                self.events.push(Event::ConcealedKong { seat, tile });
            }
            (Phase::Turn { .. }, Action::AddedKong(tile)) => {
                replacement = true;
                self.events.push(Event::AddedKong { seat, tile });
            }
            (Phase::Turn { .. }, Action::Win) => {}
            (Phase::Claims { .. }, _) if !(same_hand && matches!(after.phase, Phase::Claims { .. })) => {
                // The last answer is in: a win, a set, or every seat passed.
                if winner.is_none() {
                    if let Some(event) = claimed_set(before, after) {
                        replacement = matches!(event, Event::Kong { .. });
                        self.events.push(event);
                    }
                }
            }
            (Phase::RobKong { .. }, _) => replacement = true,
            (Phase::Claims { .. }, _) => {}
            (phase, a) => return Err(format!("`{a}` does not fit the phase {phase:?}")),
        }
        if let Some(w) = winner {
            self.events.push(Event::Win { seat: w });
            self.over = true;
            return Ok(());
        }
        self.draws(after, same_hand, replacement)
    }

    /// The draw (with its flowers) the engine made after an action, if any.
    fn draws(&mut self, after: &State, same_hand: bool, replacement: bool) -> Result<(), String> {
        let cursor = self.cursor;
        let taken = if same_hand || after.hand_no == self.hand_no {
            let (next, end) = after.taken();
            (next - cursor.next) + (cursor.end - end)
        } else {
            // The next hand has begun: the wall ran out, any tiles left were flowers.
            cursor.end - cursor.next
        };
        if taken == 0 {
            self.over = !same_hand;
            return Ok(());
        }
        let (tile, set_aside) = self.take(replacement);
        let drawer = match (&after.phase, same_hand) {
            (Phase::Turn { seat, drawn: Some(t), .. }, true) if tile == Some(*t) => *seat,
            (_, false) if tile.is_none() => after.exhausted_by.ok_or("the wall ran out, but nobody was to draw")?,
            _ => return Err(format!("the engine drew {taken} tiles this log cannot explain")),
        };
        self.events.extend(set_aside.into_iter().map(|flower| Event::Flower { seat: drawer, flower }));
        if let Some(tile) = tile {
            self.events.push(Event::Draw { seat: drawer, tile });
        }
        let (next, end) = after.taken();
        if same_hand && (Cursor { next, end }) != self.cursor {
            return Err("the engine took the wall in another order than this log".into());
        }
        self.over = !same_hand;
        Ok(())
    }

    /// The requests Botzone's judge would have sent our `seat` so far (see [`requests`]).
    pub fn requests(&self, seat: Seat) -> Vec<Request> {
        requests(self.events.iter().map(|e| e.seen_by(seat)), seat, self.dealer, self.hand_no)
    }
}

#[cfg(test)]
/// The set a seat declared on the discard, read from the sets before and after.
fn claimed_set(before: &State, after: &State) -> Option<Event> {
    (0..SEATS).find_map(|k| {
        let meld = after.melds[k].get(before.melds[k].len())?;
        let tile = meld.tile;
        Some(match meld.kind {
            MeldKind::Pung => Event::Pung { seat: k, tile },
            MeldKind::Chow => Event::Chow { seat: k, low: tile },
            MeldKind::Kong | MeldKind::ConcealedKong => Event::Kong { seat: k, tile },
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Bot, BotRng, Game, GameSeeds};
    use crate::games::mahjong::bots::GreedyBot;
    use crate::games::mahjong::engine::Mahjong;
    use rand::{Rng, SeedableRng};

    /// A win when it may, else any kong, else any legal action: every kind of event shows up.
    fn wild(legal: &[Action], rng: &mut BotRng) -> Action {
        let kong = |a: &&Action| matches!(a, Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_));
        if legal.contains(&Action::Win) {
            Action::Win
        } else if let Some(a) = legal.iter().find(kong) {
            *a
        } else {
            legal[rng.random_range(0..legal.len())]
        }
    }

    /// Plays a game with `game`'s options, logging its first hand, for at most `steps` actions;
    /// `check` sees every state reached in that hand with the log so far.
    fn play(game: &Mahjong, seed: u64, steps: usize, mut check: impl FnMut(&State, &HandLog)) -> HandLog {
        let seeds = GameSeeds::derive(seed, 0, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut log = HandLog::start(&s).unwrap();
        let mut rng = BotRng::seed_from_u64(seed);
        let mut tellers: Vec<Teller> = (0..SEATS).map(|k| Teller::new(k, s.dealer, s.hand_no)).collect();
        let mut told: [Vec<Request>; SEATS] = Default::default();
        check(&s, &log);
        for step in 0..steps {
            let Some(seat) = game.to_act(&s) else { break };
            let v = game.view(&s, seat);
            let a = if (seat + step) % 3 == 0 { GreedyBot.act(game, &v, &mut rng) } else { wild(&v.legal, &mut rng) };
            let before = s.clone();
            game.apply(&mut s, &a).unwrap();
            log.observe(&before, seat, &a, &s).unwrap_or_else(|e| panic!("seed {seed} step {step}: {e}"));
            if log.is_over() {
                break;
            }
            // The engine's own log says the same, and each seat's view of it hides what it should.
            assert_eq!(s.events(), &log.events[..], "seed {seed} step {step}");
            for k in 0..SEATS {
                let v = game.view(&s, k);
                assert_eq!(requests(v.history(), k, s.dealer, s.hand_no), log.requests(k));
                // Told a step at a time, the same requests.
                tellers[k].tell(v.history(), &mut told[k]);
                assert_eq!(told[k], log.requests(k), "seed {seed} step {step}, told a step at a time");
                for seen in v.history() {
                    match seen {
                        Seen::Draw { seat, tile } | Seen::ConcealedKong { seat, tile } => {
                            assert_eq!(tile.is_some(), seat == k)
                        }
                        Seen::Public(e) => {
                            assert!(!matches!(e, Event::Deal { .. } | Event::Draw { .. } | Event::ConcealedKong { .. }))
                        }
                        Seen::Deal { hand, .. } => {
                            assert!(matches!(&s.events()[0], Event::Deal { hands, .. } if hands[k] == *hand))
                        }
                    }
                }
            }
            check(&s, &log);
        }
        log
    }

    /// Each seat's concealed tiles, followed through its requests alone as a Botzone bot would
    /// (a concealed kong's tile is the one it holds four of).
    fn hand_from_requests(requests: &[Request], me: u8) -> [u8; 34] {
        let mut hand = [0u8; 34];
        let mut last_discard = None;
        let mut last_was_own_draw = false;
        for r in requests {
            let own_draw = matches!(r, Request::Draw(_));
            match r {
                Request::Deal { hand: tiles, .. } => tiles.iter().for_each(|&t| hand[t as usize] += 1),
                Request::Draw(t) => hand[*t as usize] += 1,
                Request::Player { id, what } if *id == me => match *what {
                    Happening::Play(t) => hand[t as usize] -= 1,
                    Happening::Peng(t) => {
                        hand[last_discard.unwrap() as usize] -= 2;
                        hand[t as usize] -= 1;
                    }
                    Happening::Chi { mid, tile } => {
                        let claimed = last_discard.unwrap();
                        for x in [mid - 1, mid, mid + 1].into_iter().filter(|&x| x != claimed) {
                            hand[x as usize] -= 1;
                        }
                        hand[tile as usize] -= 1;
                    }
                    Happening::Gang if last_was_own_draw => {
                        let quad = hand.iter().position(|&n| n == 4).unwrap();
                        hand[quad] = 0;
                    }
                    Happening::Gang => hand[last_discard.unwrap() as usize] -= 3,
                    Happening::BuGang(t) => hand[t as usize] -= 1,
                    Happening::Draw | Happening::Flower(_) => {}
                },
                _ => {}
            }
            if let Request::Player {
                what: Happening::Play(t) | Happening::Peng(t) | Happening::Chi { tile: t, .. },
                ..
            } = r
            {
                last_discard = Some(*t);
            }
            if !matches!(r, Request::Player { what: Happening::Flower(_), .. }) {
                last_was_own_draw = own_draw;
            }
        }
        hand
    }

    /// The tiles a pung or chow just declared took from the hand (not the claimed discard).
    fn pending_set_tiles(events: &[Event]) -> Vec<Tile> {
        let claimed = events.iter().rev().find_map(|e| match e {
            Event::Discard { tile, .. } => Some(*tile),
            _ => None,
        });
        match (events.last(), claimed) {
            (Some(Event::Pung { tile, .. }), _) => vec![*tile, *tile],
            (Some(Event::Chow { low, .. }), Some(c)) => {
                let mut set: Vec<Tile> = (*low..*low + 3).collect();
                set.retain(|&x| x != c);
                set
            }
            _ => Vec::new(),
        }
    }

    #[test]
    fn every_seat_can_follow_its_hand_from_its_requests() {
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..80 {
            // Wins come quick without a minimum, and kongs in the longer hands with one.
            let game = Mahjong { min_fans: if seed % 2 == 0 { 0 } else { 8 }, flowers: true, hands: 1, fault_pays: 96 };
            let log = play(&game, seed, 400, |s, log| {
                for seat in 0..SEATS {
                    let me = botzone_id(seat, s.dealer);
                    let requests = log.requests(seat);
                    let mut hand = hand_from_requests(&requests, me);
                    // A seat about to discard after its pung or chow has not been told of the set
                    // yet (the judge tells it with the discard that follows).
                    if matches!(s.phase, Phase::Turn { seat: k, drawn: None, .. } if k == seat) {
                        for t in pending_set_tiles(&log.events) {
                            hand[t as usize] -= 1;
                        }
                    }
                    assert_eq!(hand, s.hands[seat], "seed {seed}, seat {seat}, after {:?}", log.events.last());
                    for r in &requests {
                        assert_eq!(Request::parse(&r.to_string()).as_ref(), Ok(r), "{r}");
                    }
                }
            });
            for e in &log.events {
                kinds.insert(format!("{e:?}").split([' ', '{']).next().unwrap().to_string());
            }
        }
        for kind in ["Deal", "Draw", "Flower", "Discard", "Pung", "Chow", "ConcealedKong", "Kong", "AddedKong", "Win"] {
            assert!(kinds.contains(kind), "no {kind} in 80 hands: {kinds:?}");
        }
    }

    #[test]
    fn the_first_requests_name_the_seat_the_winds_and_the_deal() {
        let game = Mahjong { min_fans: 8, flowers: true, hands: 1, fault_pays: 96 };
        let log = play(&game, 7, 0, |_, _| {});
        let Event::Deal { ref hands, ref flowers } = log.events[0] else { panic!("the deal first") };
        for (seat, dealt) in hands.iter().enumerate() {
            let r = log.requests(seat);
            assert_eq!(r[0].to_string(), format!("0 {seat} 0"), "seat 0 deals the first hand: id = seat");
            let Request::Deal { hand, flowers: by_id } = &r[1] else { panic!("{}", r[1]) };
            assert_eq!(hand, dealt);
            assert_eq!(by_id, flowers);
            let drawn = r[2..].iter().find(|q| !matches!(q, Request::Player { what: Happening::Flower(_), .. }));
            match drawn {
                Some(Request::Draw(_)) => assert_eq!(seat, 0, "the dealer draws first"),
                Some(q) => assert_eq!(q.to_string(), "3 0 DRAW"),
                None => panic!("no first draw"),
            }
        }
        let dealt: usize = flowers.iter().map(Vec::len).sum();
        let all: Vec<u8> = log
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Flower { flower, .. } => Some(*flower),
                _ => None,
            })
            .chain(flowers.iter().flatten().copied())
            .collect();
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "each flower named once ({dealt} in the deal)");
    }

    #[test]
    fn the_next_hand_starts_a_new_log_with_the_next_dealer() {
        let game = Mahjong { min_fans: 8, flowers: true, hands: 16, fault_pays: 96 };
        let seeds = GameSeeds::derive(3, 0, 0, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut log = HandLog::start(&s).unwrap();
        let mut rng = BotRng::seed_from_u64(3);
        while !log.is_over() {
            let seat = game.to_act(&s).unwrap();
            let a = wild(&game.view(&s, seat).legal, &mut rng);
            let before = s.clone();
            game.apply(&mut s, &a).unwrap();
            log.observe(&before, seat, &a, &s).unwrap();
        }
        assert_eq!((s.hand_no, s.dealer), (1, 1));
        assert!(log.observe(&s.clone(), 1, &Action::Pass, &s).is_err(), "a log ends with its hand");
        let next = HandLog::start(&s).unwrap();
        let r = next.requests(1);
        assert_eq!(r[0].to_string(), "0 0 0", "the dealer is East");
        assert!(matches!(r.last(), Some(Request::Draw(_))), "and draws first");
        assert_eq!(next.requests(0)[0].to_string(), "0 3 0");
    }

    #[test]
    fn ids_count_from_the_dealer_and_quan_from_the_hand() {
        assert_eq!((0..4).map(|s| botzone_id(s, 2)).collect::<Vec<_>>(), [2, 3, 0, 1]);
        assert_eq!(botzone_id(3, 3), 0);
        assert_eq!([0, 3, 4, 8, 15].map(quan), [0, 0, 1, 2, 3]);
    }

    #[test]
    fn a_pung_and_its_discard_are_one_request_and_a_kong_hides_its_tile() {
        let log = HandLog {
            hand_no: 5,
            dealer: 1,
            events: vec![
                Event::Deal {
                    hands: [[0; 13], [1; 13], [2; 13], [3; 13]],
                    flowers: [vec![1], vec![], vec![2, 5], vec![8]],
                },
                Event::Discard { seat: 1, tile: 4 },
                Event::Pung { seat: 3, tile: 4 },
                Event::Discard { seat: 3, tile: 30 },
                Event::Chow { seat: 0, low: 9 },
                Event::Discard { seat: 0, tile: 20 },
                Event::Draw { seat: 1, tile: 7 },
                Event::ConcealedKong { seat: 1, tile: 7 },
                Event::Flower { seat: 1, flower: 3 },
                Event::Draw { seat: 1, tile: 8 },
                Event::AddedKong { seat: 1, tile: 8 },
                Event::Win { seat: 2 },
                Event::Discard { seat: 2, tile: 0 },
            ],
            wall: Vec::new(),
            flower_no: Vec::new(),
            cursor: Cursor { next: 0, end: 0 },
            over: true,
        };
        let lines: Vec<String> = log.requests(2).iter().map(|r| r.to_string()).collect();
        assert_eq!(
            lines,
            [
                "0 1 1",
                "1 0 2 1 1 W3 W3 W3 W3 W3 W3 W3 W3 W3 W3 W3 W3 W3 H2 H5 H8 H1",
                "3 0 PLAY W5",
                "3 2 PENG F4",
                "3 3 CHI T2 B3",
                "3 0 DRAW",
                "3 0 GANG",
                "3 0 BUHUA H3",
                "3 0 DRAW",
                "3 0 BUGANG W9"
            ]
        );
        assert_eq!(log.requests(1)[5].to_string(), "2 W8", "the drawer sees its tile");
    }
}
