//! A hand of ours as the input of Botzone's judge (`judge/main.cpp` of
//! ailab-pku/Chinese-Standard-Mahjong): the `botzone` record format (`arena replay --export
//! botzone`). The judge, given `{"log": [...], "initdata": {...}}`, replays a whole game and says
//! what comes next; given every turn's answers it says how the game finished: the scores, and the
//! fans in its `display`. So a hand of ours is written as:
//!
//! - `initdata.walltiles`: a wall the judge deals and draws exactly our tiles from. The judge cuts
//!   the wall in four quarters, one a player (`tiles[Q·i .. Q·(i+1)]`), and player i takes every
//!   tile (its deal, its draws, flowers and their replacements) from the end of its own quarter;
//!   so player i's quarter ends with the tiles it took in our hand, last taken first, and the
//!   tiles nobody took fill the rest;
//! - `log`: every turn's four answers, read from the hand's events (the judge's own outputs in
//!   between are ignored by it and written as `{}`);
//! - `bot_arena` (which the judge does not read): our winner, fans and scores, by player id.
//!
//! Botzone's end of a hand differs from ours (a quarter, not the whole wall, runs out; claims near
//! the end are refused; "last tile" means the next player's quarter is empty), so only hands that
//! leave a tile in every quarter can be told this way: a won hand of ours in which no player took
//! a whole quarter. Any other hand is written as `{"replayable": false, "why": ...}`.

use serde_json::{json, Map, Value};

use super::super::events::{Event, SEATS};
use super::super::tiles::{Tile, TILE_KINDS};
use super::history::botzone_id;
use super::text::{tile_code, Piece};
use crate::core::Seat;

/// A finished game of ours as the judge needs it (the engine fills it in).
pub struct Hand<'a> {
    /// The last hand's events.
    pub events: &'a [Event],
    pub dealer: Seat,
    pub hand_no: usize,
    /// Whether the game is one hand (Botzone's is).
    pub one_hand: bool,
    /// Whether the wall has the 8 flowers.
    pub flowers: bool,
    pub end: End,
    /// The winner's fans, and every seat's points.
    pub fans: u32,
    pub payoff: [i32; SEATS],
}

/// How the hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Won(Seat),
    /// The wall ran out.
    Drawn,
    /// Not by the rules: a forfeit.
    Stopped,
}

/// The judge's input for a finished hand, with our results beside it (one JSON line).
pub fn write(hand: &Hand<'_>) -> String {
    match judge_input(hand) {
        Ok(doc) => doc.to_string(),
        Err(why) => json!({ "replayable": false, "why": why }).to_string(),
    }
}

fn judge_input(hand: &Hand<'_>) -> Result<Value, String> {
    if !hand.one_hand {
        return Err("Botzone plays one hand a game".into());
    }
    let winner = match hand.end {
        End::Won(w) => w,
        End::Drawn => return Err("a drawn hand (the wall ran out): Botzone's quarters run out otherwise".into()),
        End::Stopped => return Err("the hand did not end by the rules (a forfeit)".into()),
    };
    let events = hand.events;
    let id = |seat: usize| botzone_id(seat, hand.dealer) as usize;
    // The tiles each player took, in order, as Botzone codes.
    let mut taken: [Vec<String>; SEATS] = Default::default();
    for e in events {
        match e {
            Event::Deal { hands, flowers } => {
                // The judge deals a player tiles until it holds 13 that are not flowers: its
                // flowers of the deal go first, or it would stop before reaching them.
                for seat in 0..SEATS {
                    taken[id(seat)].extend(flowers[seat].iter().map(|&n| Piece::Flower(n).to_string()));
                    taken[id(seat)].extend(hands[seat].iter().map(|&t| tile_code(t)));
                }
            }
            Event::Draw { seat, tile } => taken[id(*seat)].push(tile_code(*tile)),
            Event::Flower { seat, flower } => taken[id(*seat)].push(Piece::Flower(*flower).to_string()),
            _ => {}
        }
    }
    let total = TILE_KINDS * 4 + if hand.flowers { 8 } else { 0 };
    let quarter = total / SEATS;
    if let Some(p) = (0..SEATS).find(|&p| taken[p].len() >= quarter) {
        return Err(format!("player {p} took {} tiles, a whole quarter of {quarter}", taken[p].len()));
    }
    // The tiles nobody took, in kind order, then the flowers nobody drew.
    let mut left: Vec<String> = Vec::with_capacity(total);
    for t in 0..TILE_KINDS as Tile {
        let code = tile_code(t);
        let used = taken.iter().flatten().filter(|c| **c == code).count();
        left.extend(std::iter::repeat_n(code, 4 - used));
    }
    if hand.flowers {
        for n in 1..=8u8 {
            let code = Piece::Flower(n).to_string();
            if !taken.iter().flatten().any(|c| *c == code) {
                left.push(code);
            }
        }
    }
    let mut left = left.into_iter();
    let mut wall = Vec::with_capacity(total);
    for own in &taken {
        wall.extend(left.by_ref().take(quarter - own.len()));
        wall.extend(own.iter().rev().cloned());
    }
    let log = answers(events, &id)?;
    let mut scores = [0i32; SEATS];
    for seat in 0..SEATS {
        scores[id(seat)] = hand.payoff[seat];
    }
    Ok(json!({
        "initdata": { "walltiles": wall.join(" "), "quan": super::history::quan(hand.hand_no), "srand": 1 },
        "log": log,
        "bot_arena": { "winner": id(winner), "fans": hand.fans, "scores": scores },
    }))
}

/// Every turn's four answers (each player's response, `PASS` where it had nothing to say), with
/// the judge's outputs between them as `{}`.
fn answers(events: &[Event], id: &dyn Fn(usize) -> usize) -> Result<Vec<Value>, String> {
    let mut turns: Vec<[String; SEATS]> = Vec::new();
    let pass = || std::array::from_fn::<String, SEATS, _>(|_| "PASS".to_string());
    // The request of the first turn (id and wind), the deal's.
    turns.push(pass());
    turns.push(pass());
    let next = |i: usize| events.get(i + 1);
    for (i, e) in events.iter().enumerate() {
        let mut turn = pass();
        match *e {
            Event::Deal { .. } | Event::Pung { .. } | Event::Chow { .. } | Event::Win { .. } => continue,
            Event::Flower { .. } | Event::Kong { .. } | Event::ConcealedKong { .. } => {}
            Event::Draw { seat, .. } => {
                turn[id(seat)] = match next(i) {
                    Some(Event::Discard { tile, .. }) => format!("PLAY {}", tile_code(*tile)),
                    Some(Event::ConcealedKong { tile, .. }) => format!("GANG {}", tile_code(*tile)),
                    Some(Event::AddedKong { tile, .. }) => format!("BUGANG {}", tile_code(*tile)),
                    Some(Event::Win { .. }) => "HU".into(),
                    other => return Err(format!("a draw followed by {other:?}")),
                }
            }
            Event::Discard { .. } => match next(i) {
                Some(Event::Pung { seat, .. }) => turn[id(*seat)] = format!("PENG {}", discard_after(events, i + 1)?),
                Some(Event::Chow { seat, low }) => {
                    turn[id(*seat)] = format!("CHI {} {}", tile_code(low + 1), discard_after(events, i + 1)?)
                }
                Some(Event::Kong { seat, .. }) => turn[id(*seat)] = "GANG".into(),
                Some(Event::Win { seat }) => turn[id(*seat)] = "HU".into(),
                _ => {}
            },
            Event::AddedKong { .. } => {
                if let Some(Event::Win { seat }) = next(i) {
                    turn[id(*seat)] = "HU".into();
                }
            }
        }
        turns.push(turn);
    }
    let mut log = Vec::with_capacity(2 * turns.len());
    for turn in turns {
        log.push(json!({}));
        let mut answers = Map::new();
        for (p, response) in turn.into_iter().enumerate() {
            answers.insert(p.to_string(), json!({ "verdict": "OK", "response": response }));
        }
        log.push(Value::Object(answers));
    }
    Ok(log)
}

/// The tile discarded right after the set at `events[at]`.
fn discard_after(events: &[Event], at: usize) -> Result<String, String> {
    match events.get(at + 1) {
        Some(Event::Discard { tile, .. }) => Ok(tile_code(*tile)),
        other => Err(format!("a set followed by {other:?}, not its discard")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Bot, BotChoice, BotRng, Game, GameSeeds, Params, Played};
    use crate::games::mahjong::engine::{Mahjong, State};
    use crate::games::mahjong::BOT_KINDS;
    use rand::SeedableRng;

    fn bot(name: &str, game: &Mahjong) -> Box<dyn Bot<Mahjong>> {
        let kind = BOT_KINDS.iter().find(|k| k.name == name).unwrap();
        let params = Params::new(&BotChoice::specs(kind.params), &toml::Table::new(), name).unwrap();
        (kind.make)(&params, game).unwrap()()
    }

    /// The game's `botzone` record of `s`, as `arena replay --export botzone` writes it.
    fn record(game: &Mahjong, s: &State) -> String {
        game.write_record("botzone", s, &Played::default()).expect("mahjong has the botzone format")
    }

    fn botzone_table() -> Mahjong {
        Mahjong { min_fans: 8, flowers: true, hands: 1, fault_pays: 10 }
    }

    /// Plays the game of `seed` (pruned and greedy, twice each) to its end.
    fn played(game: &Mahjong, seed: u64) -> State {
        let mut bots: Vec<_> = ["pruned", "greedy", "pruned", "greedy"].iter().map(|b| bot(b, game)).collect();
        let mut s = game.deal(&mut GameSeeds::derive(seed, 0, 0, 1).deal_rng());
        let mut rng = BotRng::seed_from_u64(seed);
        while let Some(seat) = game.to_act(&s) {
            let action = bots[seat].act(game, &game.view(&s, seat), &mut rng);
            game.apply(&mut s, &action).unwrap();
        }
        s
    }

    #[test]
    fn a_won_hand_is_told_as_the_judge_deals_and_hears_it() {
        let game = botzone_table();
        let (mut won, mut refused) = (0, 0);
        for seed in 0..40 {
            let s = played(&game, seed);
            let doc: Value = serde_json::from_str(&record(&game, &s)).unwrap();
            if doc.get("replayable") == Some(&Value::Bool(false)) {
                refused += 1;
                continue;
            }
            won += 1;
            // The wall holds every tile once: 4 of each kind and the 8 flowers.
            let wall: Vec<&str> = doc["initdata"]["walltiles"].as_str().unwrap().split(' ').collect();
            assert_eq!(wall.len(), 144);
            let mut sorted = wall.clone();
            sorted.sort();
            let mut all: Vec<String> = super::super::text::all_codes()
                .flat_map(|c| {
                    let n = if c.starts_with('H') { 1 } else { 4 };
                    std::iter::repeat_n(c, n)
                })
                .collect();
            all.sort();
            assert_eq!(sorted, all.iter().map(String::as_str).collect::<Vec<_>>());
            // Each player's quarter ends with its 13 dealt tiles (flowers aside), last taken first.
            let Event::Deal { hands, .. } = &s.events()[0] else { panic!("the deal first") };
            for (seat, dealt_here) in hands.iter().enumerate() {
                let p = botzone_id(seat, s.dealer) as usize;
                let quarter = &wall[36 * p..36 * (p + 1)];
                let dealt: Vec<&str> = quarter.iter().rev().filter(|c| !c.starts_with('H')).take(13).copied().collect();
                let ours: Vec<String> = dealt_here.iter().map(|&t| tile_code(t)).collect();
                assert_eq!(dealt, ours, "seed {seed} seat {seat}");
            }
            // One answer of four players a turn, the last turn's with the win.
            let log = doc["log"].as_array().unwrap();
            assert!(log.len().is_multiple_of(2) && log.len() > 4);
            let last = log.last().unwrap().as_object().unwrap();
            let hu: Vec<&String> = last.iter().filter(|(_, a)| a["response"] == "HU").map(|(p, _)| p).collect();
            assert_eq!(hu, [&doc["bot_arena"]["winner"].to_string()], "seed {seed}");
            assert_eq!(
                doc["bot_arena"]["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).sum::<i64>(),
                0
            );
        }
        assert!(won >= 10 && refused >= 1, "{won} won hands told, {refused} refused");
    }

    /// The judge's verdict on a hand: (scores by player, fans) from its `finish` output.
    fn judged(judge: &str, input: &str) -> Result<([i64; SEATS], i64), String> {
        use std::io::Write;
        let mut child = std::process::Command::new(judge)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {judge}: {e}"))?;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let doc: Value =
            serde_json::from_slice(&out.stdout).map_err(|e| format!("the judge's output is not JSON: {e}"))?;
        if doc["command"] != "finish" {
            return Err(format!("the judge did not finish: {}", doc["display"]));
        }
        let scores = std::array::from_fn(|p| doc["content"][p.to_string()].as_i64().unwrap_or(i64::MIN));
        let fans = doc["display"]["fanCnt"].as_i64().unwrap_or(-1);
        if doc["display"]["action"] != "HU" {
            return Err(format!("the judge ended with {}: {}", doc["display"]["action"], doc["display"]));
        }
        Ok((scores, fans))
    }

    /// Our hands (pruned and greedy at Botzone's table) replayed through Botzone's judge, built by
    /// hand as docs/book/src/botzone.md says: every hand that can be told to it (a won hand in which no
    /// player took a whole quarter of the wall) gets the same winner's fans and the same scores.
    /// `MAHJONG_JUDGE`: the judge program; `MAHJONG_JUDGE_HANDS`: how many hands to replay
    /// (default 1,000).
    #[test]
    #[ignore = "needs Botzone's judge: MAHJONG_JUDGE=/path/to/judge cargo test --release --lib botzone::judge -- --ignored --nocapture"]
    fn our_hands_score_the_same_under_botzone_judge() {
        let Ok(judge) = std::env::var("MAHJONG_JUDGE") else {
            eprintln!("skipped: set MAHJONG_JUDGE to Botzone's judge program (docs/book/src/botzone.md builds it)");
            return;
        };
        let want: usize = std::env::var("MAHJONG_JUDGE_HANDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
        let game = botzone_table();
        let (mut replayed, mut played_hands, mut fans_total) = (0, 0, 0);
        let mut refused: std::collections::BTreeMap<String, usize> = Default::default();
        let mut seed = 0;
        while replayed < want {
            let s = played(&game, seed);
            seed += 1;
            played_hands += 1;
            let text = record(&game, &s);
            let doc: Value = serde_json::from_str(&text).unwrap();
            if let Some(why) = doc.get("why") {
                let why = why.as_str().unwrap();
                let why = if why.contains(" took ") { "a player took a whole quarter of the wall" } else { why };
                *refused.entry(why.to_string()).or_default() += 1;
                continue;
            }
            let (scores, fans) = judged(&judge, &text).unwrap_or_else(|e| panic!("seed {}: {e}\n{text}", seed - 1));
            let ours: Vec<i64> =
                doc["bot_arena"]["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            assert_eq!(scores.to_vec(), ours, "seed {}: scores differ\n{text}", seed - 1);
            assert_eq!(fans, doc["bot_arena"]["fans"].as_i64().unwrap(), "seed {}: fans differ\n{text}", seed - 1);
            fans_total += fans;
            replayed += 1;
        }
        println!(
            "{replayed} hands replayed through the judge, all with the same scores and fans ({fans_total} fans in all); \
             {played_hands} played, not told: {refused:?}"
        );
    }
}
