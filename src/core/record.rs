//! A game's move-by-move record (records.jsonl; docs/book/src/records.md): the deal with every hidden card,
//! tile and the wall, then every event in order (a seat's action as the protocol writes it, a
//! chance event as the rules reveal it), then what the rules showed at the end. [`GameLog`] writes
//! it while the game is played; [`replay`] plays a record back through the rules, so that a run
//! can be checked after the fact (`arena replay --check`).
//!
//! An event is a JSON array `[seat, "action"]` or a JSON string (a chance event): the record of a
//! mahjong hand holds some three hundred of them, so they are kept short.

use serde::Serialize;

use crate::core::game::{Game, Seat};
use crate::core::seeds::GameSeeds;
use crate::core::wire::{Texts, Wire};

/// The record of the game being played, its bytes reused from game to game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLog {
    /// `"deal":{…},"events":[…],"end":{…}`: the middle of a records.jsonl line (the run's writer
    /// puts the game's place and result around it).
    pub body: Vec<u8>,
    /// Events written so far.
    pub events: u32,
    /// The game's own count of chance revealed ([`Wire::chance`]).
    seen: u64,
    /// Room for the chance texts of a game that writes them through [`Wire::chance`].
    chance: Texts,
}

impl GameLog {
    /// Empties the log for the next game, keeping its memory.
    pub fn clear(&mut self) {
        self.body.clear();
        self.events = 0;
        self.seen = 0;
        self.chance.clear();
    }

    /// Starts the record of the game just dealt in `state`.
    pub fn begin<G: Wire>(&mut self, game: &G, state: &G::State) {
        self.clear();
        self.body.extend_from_slice(b"\"deal\":");
        game.write_deal(state, &mut self.body);
        self.body.extend_from_slice(b",\"events\":[");
        game.chance(state, &mut self.seen, &mut self.chance);
        self.chance.clear();
    }

    /// `seat` played `action`, and the rules have applied it to `state`.
    pub fn action<G: Wire>(&mut self, game: &G, seat: Seat, action: &G::Action, state: &G::State) {
        self.separate();
        match u8::try_from(seat) {
            // Every table has fewer than ten seats: one digit, no formatting.
            Ok(digit @ 0..=9) => self.body.extend_from_slice(&[b'[', b'0' + digit, b',']),
            _ => {
                self.body.push(b'[');
                self.body.extend_from_slice(itoa::Buffer::new().format(seat).as_bytes());
                self.body.push(b',');
            }
        }
        game.write_action(action, &mut self.body);
        self.body.push(b']');
        self.events += 1;
        // After the action just written: never the first event.
        self.events += game.write_chance(state, &mut self.seen, &mut self.chance, &mut self.body);
    }

    /// The record as one JSON object (`deal`, `events` and, once ended, `end`).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::from_slice(&[b"{", &self.body[..], b"}"].concat()).expect("a game log is JSON")
    }

    /// The events written, read back.
    pub fn read_events(&self) -> Vec<Event> {
        serde_json::from_value(self.to_json()["events"].take()).expect("a game log's events read back")
    }

    /// The game is over (or forfeited) in `state`: closes the events and writes what the rules
    /// reveal.
    pub fn end<G: Wire>(&mut self, game: &G, state: &G::State) {
        self.body.extend_from_slice(b"],\"end\":");
        game.write_reveal(state, &mut self.body);
    }

    fn separate(&mut self) {
        if self.events > 0 {
            self.body.push(b',');
        }
    }
}

/// One event of a record as it is read back.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum Event {
    /// `[seat, "action"]`.
    Action(Seat, String),
    /// A chance event, in the game's notation.
    Chance(String),
}

/// How a recorded game ended, as far as playing it back can check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to its end.
    Over,
    /// `seat` forfeited after the events (a fault the rules cannot see again: a timeout, a crash;
    /// an illegal action is one the record does not hold).
    Forfeit(Seat),
}

/// A record played back: the state it reaches and the record the rules write for it.
pub struct Replayed<G: Game> {
    /// The state the replayed moves led to.
    pub state: G::State,
    /// The log the replay wrote again, to compare with the one read.
    pub log: GameLog,
    /// Actions applied.
    pub moves: u32,
}

/// Where a record and the rules part ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The event (counted from 1), or 0 for the deal and the ending.
    pub event: usize,
    /// What differed, in words.
    pub what: String,
}

/// Plays `events` back from the deal `seeds` give, through the rules: every action must be the
/// seat to act's and legal, and every chance event the one the rules reveal; at the end the game
/// must be over (or, with [`Ending::Forfeit`], waiting for the seat that forfeited, or not begun:
/// a bot may fail when it is told the game starts). The record
/// the rules write on the way ([`GameLog`]) is returned to be compared with the one read.
pub fn replay<G: Wire>(
    game: &G,
    seeds: &GameSeeds,
    events: &[Event],
    ending: Ending,
) -> Result<Replayed<G>, Divergence> {
    replay_steps(game, seeds, events, ending, |_, _| {})
}

/// [`replay`], calling `step` with the state after the deal (`None`) and after each event (its
/// index): what the record shows at every step, met on the one pass that checks it.
fn replay_steps<G: Wire>(
    game: &G,
    seeds: &GameSeeds,
    events: &[Event],
    ending: Ending,
    mut step: impl FnMut(&G::State, Option<usize>),
) -> Result<Replayed<G>, Divergence> {
    let mut state = game.deal_numbered(seeds.deal_index, &mut seeds.deal_rng());
    let mut log = GameLog::default();
    log.begin(game, &state);
    step(&state, None);
    let mut moves = 0;
    // What the last action revealed, in the rules' own texts ([`Wire::chance`], apart from how
    // the log writes them), and how many of them the events have met.
    let (mut seen, mut revealed) = (0, Texts::default());
    game.chance(&state, &mut seen, &mut revealed);
    revealed.clear(); // the deal's, written in the deal
    let mut met = 0;
    for (i, event) in events.iter().enumerate() {
        let at = |what: String| Divergence { event: i + 1, what };
        match event {
            Event::Chance(text) => match revealed.get(met) {
                Some(rules) if rules == text => met += 1,
                Some(rules) => return Err(at(format!("chance event \"{text}\" where the rules reveal \"{rules}\""))),
                None => return Err(at(format!("chance event \"{text}\" where the rules reveal nothing"))),
            },
            Event::Action(seat, text) => {
                if let Some(rules) = revealed.get(met) {
                    return Err(at(format!("seat {seat} acts (\"{text}\") where the rules reveal \"{rules}\" first")));
                }
                match game.to_act(&state) {
                    Some(to_act) if to_act == *seat => {}
                    Some(to_act) => {
                        return Err(at(format!("seat {seat} acts (\"{text}\") but seat {to_act} is to act")));
                    }
                    None => return Err(at(format!("seat {seat} acts (\"{text}\") after the game is over"))),
                }
                let action = game.parse_action(text).map_err(|e| at(format!("seat {seat}: \"{text}\": {e}")))?;
                game.apply(&mut state, &action).map_err(|e| at(format!("seat {seat}: \"{text}\" is illegal: {e}")))?;
                moves += 1;
                // What the rules revealed with this action is to be met by the events that follow.
                log.action(game, *seat, &action, &state);
                revealed.clear();
                game.chance(&state, &mut seen, &mut revealed);
                met = 0;
            }
        }
        step(&state, Some(i));
    }
    let past = events.len() + 1;
    if let Some(rules) = revealed.get(met) {
        return Err(Divergence { event: past, what: format!("the record ends where the rules reveal \"{rules}\"") });
    }
    match (ending, game.to_act(&state)) {
        (Ending::Over, None) => {}
        (Ending::Over, Some(seat)) => {
            return Err(Divergence { event: past, what: format!("the record ends with seat {seat} to act") });
        }
        (Ending::Forfeit(seat), Some(to_act)) if to_act == seat => {}
        // A bot may fail before the first action (when it is told the game starts).
        (Ending::Forfeit(_), Some(_)) if moves == 0 => {}
        (Ending::Forfeit(seat), to_act) => {
            let now = to_act.map_or("the game is over".to_string(), |s| format!("seat {s} is to act"));
            return Err(Divergence { event: past, what: format!("seat {seat} forfeits but {now}") });
        }
    }
    log.end(game, &state);
    Ok(Replayed { state, log, moves })
}

/// A value's JSON, for comparing what a record holds with what the rules write.
pub fn json_bytes(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("wire values serialise")
}

/// A record played back ([`replay`]) and scored: the result, the games.csv columns and the move
/// record the rules write for it, in a [`GameRecord`](crate::core::GameRecord) (its status left `Ok`: the reason of a
/// forfeit is the record's, which the rules cannot see again).
pub fn rescore<G: Wire>(
    game: &G,
    seeds: &GameSeeds,
    events: &[Event],
    ending: Ending,
) -> Result<crate::core::GameRecord, Divergence> {
    let Replayed { state, log, moves } = replay(game, seeds, events, ending)?;
    let outcome = match ending {
        Ending::Over => game.outcome(&state),
        Ending::Forfeit(seat) => game.forfeit(&state, seat),
    };
    let mut record = crate::core::GameRecord::new();
    record.seed = seeds.deal;
    record.moves = moves;
    for seat in 0..game.seats() {
        game.record(&state, seat, &mut record.columns);
        record.seats.push(crate::core::SeatResult {
            payoff: outcome.payoff[seat],
            place: outcome.place[seat],
            adjusted: None,
            start: None,
            terms: Default::default(),
        });
    }
    record.log = log;
    Ok(record)
}

/// One step of a recorded game as every seat saw it: after the deal (`event` none) and after
/// each event.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// The event just played (an index into the record's events).
    pub event: Option<usize>,
    /// The seat to act next, none once the game is over.
    pub to_act: Option<Seat>,
    /// Each seat's view ([`Wire::view_json`]).
    pub views: Vec<serde_json::Value>,
    /// Each seat's view as a person reads it ([`Wire::view_text`], seats named by number, laid
    /// out for [`readable::WIDTH`](crate::core::readable::WIDTH) columns); left out of the JSON.
    #[serde(skip)]
    pub texts: Vec<String>,
}

/// Every step of a record (which must play back: see [`replay`]): the frames a viewer steps
/// through, one after the deal and one after each event (a chance event's frame shows the same
/// views as the action's before it, which already show what it revealed).
pub fn frames<G: Wire>(
    game: &G,
    seeds: &GameSeeds,
    events: &[Event],
    ending: Ending,
) -> Result<Vec<Frame>, Divergence> {
    let mut out = Vec::with_capacity(events.len() + 1);
    replay_steps(game, seeds, events, ending, |state, event| {
        let views = (0..game.seats()).map(|seat| game.view(state, seat)).collect::<Vec<_>>();
        out.push(Frame {
            event,
            to_act: game.to_act(state),
            views: views.iter().map(|v| serde_json::to_value(game.view_json(v)).expect("views serialise")).collect(),
            texts: views.iter().map(|v| game.view_text(v, &crate::core::readable::Screen::PLAIN)).collect(),
        });
    })?;
    Ok(out)
}
