//! `arena check-bot --kind KIND`: the compliance run of a bot of any kind that runs a program
//! (the `acpc` and `botzone` kinds, or a game's own), made through the kind itself: the host
//! makes the bot as a run would, from the kind's parameters and the program's command, and plays
//! it [`GAMES`] games of the real game, in the first seat and the last, against a fixed stream
//! of the host's actions. What the kind reports as a fault (a line it cannot read, an action the
//! rules refuse, silence past the time, memory over its bound) fails the check of that step, with
//! the kind's own words and the line the program sent.
//!
//! So a protocol bot-arena speaks through a bot kind gets its check with no code of its own; the
//! JSON lines and Gomocup checks (check.rs, gomoku's `gomocup_check`) are written out by hand
//! because they also test what no run asks (quitting, RESTART, a BOARD).

use std::time::{Duration, Instant};

use super::check::{decision_kind, host_action, Check, CheckLimits, GAMES};
use crate::core::wire::Texts;
use crate::core::{BotFactory, Entrant, Fault, FaultKind, GameDef, GameEnd, GameSeeds, GameStart, Limits, Params};
use crate::core::{Seat, Status};

/// How a game of the check ended for the bot.
enum Played {
    /// It was asked at least once (`true`) or never (`false`), and every answer was legal.
    Clean(bool),
    /// It answered an action the rules refuse: the game was forfeited, as in a run.
    Forfeit,
    /// It could not go on (no answer, a line it cannot read, a crash): nothing more is asked.
    Broken,
}

/// The checks of one run, reported as they are decided.
struct Checks<'a> {
    list: Vec<Check>,
    report: &'a mut dyn FnMut(&Check),
}

impl Checks<'_> {
    fn decide(&mut self, name: String, failure: Option<String>) {
        let check = Check { name, failure };
        (self.report)(&check);
        self.list.push(check);
    }
}

/// The decisions met so far, by kind, in the order first met, with the first failure of each.
#[derive(Default)]
struct Decisions(Vec<(String, Option<String>)>);

impl Decisions {
    fn note(&mut self, kind: String, failure: Option<String>) {
        match self.0.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, first)) => {
                if first.is_none() {
                    *first = failure;
                }
            }
            None => self.0.push((kind, failure)),
        }
    }
}

/// Checks the bot `factory` makes (a kind's, its parameters set from `limits`) on `game` with
/// `table` at `seats` seats; each check goes to `report` as it is decided.
pub fn check_kind<G: GameDef>(
    game: &G,
    table: &Params,
    seats: usize,
    factory: &BotFactory<G>,
    limits: CheckLimits,
    report: &mut dyn FnMut(&Check),
) -> Vec<Check> {
    let mut checks = Checks { list: Vec::new(), report };
    let entrants: Vec<Entrant> = (0..seats)
        .map(|seat| Entrant { name: if seat == 0 { "checked" } else { "host" }.to_string(), limits: Limits::default() })
        .collect();
    let mut bot = factory();
    let mut decisions = Decisions::default();
    let mut reported = 0;
    let mut draw = 1u64;
    let mut broken = false;
    let mut later_game = None;
    let start_name = format!("start: the bot is ready for its first game within {} ms", limits.start_ms);
    for index in 0..GAMES {
        let seat: Seat = if index % 2 == 0 { 0 } else { seats - 1 };
        // The checked bot is named in its seat, the host's seats after it.
        let mut order: Vec<&Entrant> = entrants[1..].iter().collect();
        order.insert(seat, &entrants[0]);
        let start = GameStart { seat, game: index, name: "checked", players: &order, table, run: None };
        let seeds = GameSeeds::derive(1, 0, index, 1);
        let mut rng = seeds.bot_rng(seat);
        let started = bot.start(game, &start, &mut rng);
        if index == 0 {
            checks.decide(start_name.clone(), started.as_ref().err().map(Fault::to_string));
        }
        let played = match started {
            Err(_) => Played::Broken,
            Ok(()) => {
                let mut state = game.deal(&mut seeds.deal_rng());
                let (played, status) =
                    play(game, &mut *bot, &mut state, seat, &mut rng, &mut draw, limits, &mut decisions);
                let outcome = match &status {
                    Status::Forfeit { seat, .. } => game.forfeit(&state, *seat),
                    _ => game.outcome(&state),
                };
                bot.finish(game, &state, &GameEnd { outcome: &outcome, status: &status });
                played
            }
        };
        for (kind, failure) in &decisions.0[reported..] {
            checks.decide(format!("act ({kind}): a legal answer within {} ms", limits.move_ms), failure.clone());
        }
        reported = decisions.0.len();
        let answered = match played {
            Played::Clean(answered) => answered,
            Played::Forfeit => true,
            Played::Broken => {
                broken = true;
                false
            }
        };
        if index >= 1 {
            later_game = Some(later_game.unwrap_or(false) || answered);
        }
        if broken {
            break;
        }
    }
    let later_name = "game over, then a new game: the bot answers in a later game".to_string();
    let failure = match later_game {
        Some(true) => None,
        Some(false) if !broken => Some("no later game asked the bot anything".to_string()),
        _ => Some("not reached: the bot failed an earlier check and was stopped".to_string()),
    };
    checks.decide(later_name, failure);
    // The bot is dropped here: the kind ends its program as at the end of a run.
    drop(bot);
    checks.list
}

/// Plays one game with the checked bot in `seat` and the host's stream in the others; notes each
/// decision of the bot's under its kind. Returns how it went and the game's status.
#[allow(clippy::too_many_arguments)]
fn play<G: GameDef>(
    game: &G,
    bot: &mut dyn crate::core::Bot<G>,
    state: &mut G::State,
    seat: Seat,
    rng: &mut crate::core::BotRng,
    draw: &mut u64,
    limits: CheckLimits,
    decisions: &mut Decisions,
) -> (Played, Status) {
    let mut answered = false;
    let mut legal = Texts::default();
    while let Some(to_act) = game.to_act(state) {
        if to_act != seat {
            let action = host_action(game, state, to_act, draw);
            game.apply(state, &action).expect("a legal action applies");
            continue;
        }
        let view = game.view(state, seat);
        legal.clear();
        game.write_legal(&view, &mut legal);
        let kind = decision_kind(&legal);
        let deadline = Instant::now() + Duration::from_millis(limits.move_ms);
        let asked = bot.try_act(game, &view, rng, Some(deadline));
        drop(view);
        let fault = match asked {
            Ok(action) => match game.apply(state, &action) {
                Ok(()) => {
                    answered = true;
                    decisions.note(kind, None);
                    continue;
                }
                Err(illegal) => Fault::new(FaultKind::Illegal, illegal.to_string()),
            },
            Err(fault) => fault,
        };
        decisions.note(kind, Some(fault.to_string()));
        let played = match fault.kind {
            FaultKind::Illegal => Played::Forfeit,
            _ => Played::Broken,
        };
        return (played, Status::Forfeit { seat, reason: fault });
    }
    (Played::Clean(answered), Status::Ok)
}
