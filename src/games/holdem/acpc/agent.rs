//! Our bots as ACPC agents (`arena acpc-agent holdem --bot rr HOST PORT`, or `arena brain holdem`
//! on stdin and stdout): the engine protocol the registry offers for hold'em. The agent sends
//! `VERSION:2.0.0`, then reads the dealer's `MATCHSTATE` lines; for each one where its position is
//! to act it rebuilds the hand through our rules, asks the bot, and answers the state followed by
//! `:` and the action (`f`, `c` or `r<total>`). States of other seats' turns and a hand's final
//! state are read and not answered, as the protocol asks.
//!
//! A state does not show the blinds or the stacks: the agent plays the table its `--table` options
//! make over the `acpc` preset (ACPC's no-limit: 50/100 blinds, 20,000 chips), at as many seats as
//! the state has positions. A state our rules cannot play on that table (another game, a raise our
//! rules refuse) ends the session with an error naming it.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use rand::SeedableRng;

use super::super::engine::{Action, Holdem};
use super::text::{seat_at, MatchState, Move, VERSION};
use crate::core::{Bot, BotRng, Engine, EngineBot, EngineNames, Game, GameDef};

/// The ACPC protocol as the registry offers it.
pub fn engine() -> Engine<Holdem> {
    Engine {
        names: EngineNames { protocol: "ACPC", program_prefix: None, default_bot: "rr" },
        table: Some("acpc"),
        check: |bot| {
            let game = Holdem::from_options(&bot.table, 2)?;
            (bot.kind.make)(&bot.params, &game).map(drop)
        },
        serve,
    }
}

/// The bot at a table of each size the dealer has shown (a session plays one, as a rule).
struct Seated {
    game: Holdem,
    bot: Box<dyn Bot<Holdem>>,
}

fn invalid(line: &str, why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("cannot play `{line}`: {why}"))
}

/// One session: states in, answers out, until the dealer closes the connection.
fn serve(bot: EngineBot<Holdem>, seed: u64, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    output.write_all(format!("{VERSION}\r\n").as_bytes())?;
    output.flush()?;
    let mut tables: BTreeMap<usize, Seated> = BTreeMap::new();
    // The bot's random stream, one per hand: the same states get the same answers.
    let mut rng: Option<(u64, BotRng)> = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let text = line.trim_end_matches(['\r', '\n']);
        if text.is_empty() || text.starts_with(['#', ';']) {
            continue;
        }
        let state = MatchState::parse(text).map_err(|e| invalid(text, e))?;
        let n = state.hole.len();
        let seated = match tables.entry(n) {
            std::collections::btree_map::Entry::Occupied(seated) => seated.into_mut(),
            std::collections::btree_map::Entry::Vacant(slot) => {
                let game = Holdem::from_options(&bot.table, n).map_err(|e| invalid(text, e.to_string()))?;
                let factory = (bot.kind.make)(&bot.params, &game).map_err(|e| invalid(text, e.to_string()))?;
                slot.insert(Seated { game, bot: factory() })
            }
        };
        let game = &seated.game;
        let s = state.rebuild(game).map_err(|e| invalid(text, e))?;
        let seat = seat_at(state.position.expect("a MATCHSTATE has a position"), n);
        if game.to_act(&s) != Some(seat) {
            continue;
        }
        let rng = match &mut rng {
            Some((hand, rng)) if *hand == state.hand => rng,
            slot => &mut slot.insert((state.hand, hand_rng(seed, state.hand))).1,
        };
        let action = seated.bot.act(game, &game.view(&s, seat), rng);
        let base = s.committed[seat] - s.bet[seat];
        let answer = match action {
            Action::Fold => Move::Fold,
            Action::CheckCall => Move::Call,
            Action::RaiseTo(to) => Move::Raise(base + to),
        };
        // One write: each write is a segment of its own on a connection without Nagle's delay.
        output.write_all(format!("{text}:{answer}\r\n").as_bytes())?;
        output.flush()?;
    }
}

/// The bot's stream for hand `hand` of a session seeded `seed`.
fn hand_rng(seed: u64, hand: u64) -> BotRng {
    BotRng::seed_from_u64(seed ^ hand.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Params;

    fn session(bot: &str, input: &str) -> io::Result<String> {
        let kind = super::super::super::bots::BOT_KINDS.iter().find(|k| k.name == bot).unwrap().clone();
        let params = Params::new(&crate::core::BotChoice::specs(kind.params), &toml::Table::new(), bot).unwrap();
        let mut options = toml::Table::new();
        crate::core::TablePreset::expand(Holdem::TABLES, "holdem", &mut options, Some("acpc")).unwrap();
        let table = Params::new(Holdem::OPTIONS, &options, "table").unwrap();
        let bot = EngineBot { name: bot.into(), kind, params, table };
        let mut out = Vec::new();
        serve(bot, 1, &mut input.as_bytes(), &mut out).map(|()| String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_agent_answers_only_its_own_turns() {
        // Heads-up, position 1 (the button) opens: it is asked twice, the big blind's turn and the
        // hand's end are read and not answered.
        let states =
            "MATCHSTATE:1:0::|AhKh\r\n# a comment\r\nMATCHSTATE:1:0:c:|AhKh\r\nMATCHSTATE:1:0:cc/:|AhKh/2s7hTc\r\n\
                      MATCHSTATE:1:0:cc/c:|AhKh/2s7hTc\r\nMATCHSTATE:1:0:cc/cc/:|AhKh/2s7hTc/Jd\r\n";
        let out = session("always-call", states).unwrap();
        assert_eq!(out, "VERSION:2.0.0\r\nMATCHSTATE:1:0::|AhKh:c\r\nMATCHSTATE:1:0:cc/c:|AhKh/2s7hTc:c\r\n");
    }

    #[test]
    fn raises_are_sent_as_the_hands_total() {
        // The big blind (position 0) opens the flop: all-in is 20,000 in the hand, 19,700 of it bet now.
        let out = session("all-in", "MATCHSTATE:0:3:r300c/:9c9d|/2s7hTc\r\n").unwrap();
        assert!(out.ends_with("MATCHSTATE:0:3:r300c/:9c9d|/2s7hTc:r20000\r\n"), "{out}");
    }

    #[test]
    fn a_state_our_rules_cannot_play_ends_the_session_naming_it() {
        let err = session("always-call", "MATCHSTATE:1:0:r50:|AhKh\r\n").unwrap_err();
        assert!(err.to_string().contains("cannot play `MATCHSTATE:1:0:r50:|AhKh`"), "{err}");
        let err = session("always-call", "MATCHSTATE:x\r\n").unwrap_err();
        assert!(err.to_string().contains("no position") || err.to_string().contains("not a number"), "{err}");
    }
}
