//! The contract every registered game is held to, checked on random legal games (after
//! OpenSpiel's shared basic tests). A game gets all of it by being registered:
//! [`GameEntry::conformance`](crate::registry::GameEntry::conformance) runs [`check`] on the game's default
//! table and on one table for every other choice of each option (`format = "sng"`, `deck =
//! "short"`, `flowers = true`), at every seat count.
//!
//! In every state of a game in progress:
//! - the seat to act has a legal action, every legal action is accepted and reads back from its
//!   wire text, and every legal text on the wire is read and accepted;
//! - an action the rules refuse leaves the state as it was (every seat's view, the seat to act
//!   and the legal actions), and the view's judge ([`Wire::judge`](crate::core::Wire::judge))
//!   refuses exactly what the rules refuse;
//! - a seat that forfeits comes out worst (last place alone, the lowest payoff), payoffs summing to
//!   zero;
//! - the chips or tiles the game counts ([`GameDef::conserved`]) are as many as at the deal;
//! - no seat's view on the wire, nor what a person in the seat is shown (the table drawn and the
//!   story told: [`Wire::view_text`](crate::core::Wire::view_text),
//!   [`Wire::narrate`](crate::core::Wire::narrate)), changes when the cards or tiles it cannot see
//!   are dealt anew ([`GameDef::redeal_hidden`]), while some other seat's view does (so the redeal
//!   changed something).
//!
//! At the end, payoffs sum to zero (in a game that says it is zero-sum, `GameDef::ZERO_SUM`) and places follow the
//! payoffs, and the game's end is told ([`Wire::end_text`](crate::core::Wire::end_text)); and the
//! same seeds give the same record, twice over.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use super::readable::Screen;
use super::GameDef;
use crate::core::{play_game, Bot, BotRng, DealRng, GameRecord, GameSeeds, Outcome, Seat};

/// What a run of [`check`] looked at, for the caller to see that it was not vacuous.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Games played to their end.
    pub games: u64,
    /// States of games in progress.
    pub states: u64,
    /// Actions the rules refused (each checked to leave the state as it was).
    pub refused: u64,
    /// Views compared with the hidden cards or tiles dealt anew.
    pub redealt: u64,
    /// Redeals that changed what another seat sees (so they did change something).
    pub redeals_seen: u64,
}

impl std::ops::AddAssign for Checked {
    fn add_assign(&mut self, o: Checked) {
        self.games += o.games;
        self.states += o.states;
        self.refused += o.refused;
        self.redealt += o.redealt;
        self.redeals_seen += o.redeals_seen;
    }
}

/// More moves than any game of the registry can last: a game still going is stuck.
const MAX_MOVES: u32 = 1_000_000;
/// Actions seen legal somewhere, tried again elsewhere (where most are refused).
const POOL: usize = 64;
/// Refused-action tries in each state.
const TRIES: usize = 4;

macro_rules! ensure {
    ($cond:expr, $($why:tt)+) => {
        if !$cond {
            return Err(format!($($why)+));
        }
    };
}

/// Plays `games` random legal games of `game` from `seed` and checks the contract in every
/// state; the error names the game, the move and what broke.
pub fn check<G: GameDef>(game: &G, games: u64, seed: u64) -> Result<Checked, String> {
    let mut checked = Checked::default();
    let mut pool: Vec<G::Action> = Vec::new();
    for g in 0..games {
        let seeds = GameSeeds::derive(seed, 0, g, 1);
        let mut rng = DealRng::seed_from_u64(seeds.bots);
        play_one(game, &seeds, &mut rng, &mut pool, &mut checked).map_err(|e| format!("game {g}: {e}"))?;
        checked.games += 1;
    }
    ensure!(
        checked.redealt == 0 || checked.redeals_seen > 0,
        "no redeal of hidden cards changed what another seat sees: {checked:?}"
    );
    for g in 0..games.min(4) {
        same_seed_same_record(game, &GameSeeds::derive(seed, 1, g, 1)).map_err(|e| format!("game {g}: {e}"))?;
    }
    Ok(checked)
}

fn play_one<G: GameDef>(
    game: &G,
    seeds: &GameSeeds,
    rng: &mut DealRng,
    pool: &mut Vec<G::Action>,
    checked: &mut Checked,
) -> Result<(), String> {
    let mut state = game.deal(&mut seeds.deal_rng());
    let conserved = game.conserved(&state);
    let mut legal = Vec::new();
    for moves in 0.. {
        let at = |what: String| format!("move {moves}: {what}");
        let Some(seat) = game.to_act(&state) else { break };
        ensure!(moves < MAX_MOVES, "no end after {MAX_MOVES} moves");
        ensure!(seat < game.seats(), "{}", at(format!("seat {seat} to act at a table of {}", game.seats())));
        checked.states += 1;
        ensure!(
            game.conserved(&state) == conserved,
            "{}",
            at(format!("{:?} counted, {conserved:?} dealt", game.conserved(&state)))
        );

        game.legal_actions(&state, &mut legal);
        ensure!(!legal.is_empty(), "{}", at(format!("seat {seat} has no legal action")));
        let view = game.view(&state, seat);
        for action in &legal {
            ensure!(game.apply(&mut state.clone(), action).is_ok(), "{}", at(format!("legal {action:?} refused")));
            ensure!(game.judge(&view, action).is_ok(), "{}", at(format!("legal {action:?} judged illegal")));
            let text = game.action_text(action).to_string();
            let back = game.parse_action(&text).map(|a| format!("{a:?}"));
            ensure!(
                back == Ok(format!("{action:?}")),
                "{}",
                at(format!("{action:?} is written {text:?}, read back as {back:?}"))
            );
        }
        let texts = game.legal_texts(&game.view(&state, seat));
        ensure!(!texts.is_empty(), "{}", at("no legal text on the wire".into()));
        for text in &texts {
            let action = game.parse_action(text).map_err(|e| at(format!("legal text {text:?} unread: {e}")))?;
            ensure!(game.apply(&mut state.clone(), &action).is_ok(), "{}", at(format!("legal text {text:?} refused")));
        }

        let before = fingerprint(game, &state);
        for _ in 0..TRIES.min(pool.len()) {
            let action = pool.choose(rng).expect("not empty");
            let mut tried = state.clone();
            let applied = game.apply(&mut tried, action);
            ensure!(
                applied.is_ok() == game.judge(&view, action).is_ok(),
                "{}",
                at(format!("{action:?}: the rules say {applied:?}, the view's judge the opposite"))
            );
            if let Err(why) = applied {
                checked.refused += 1;
                ensure!(
                    fingerprint(game, &tried) == before,
                    "{}",
                    at(format!("refused {action:?} ({why}) changed the state"))
                );
            }
        }

        for loser in 0..game.seats() {
            worst(&game.forfeit(&state, loser), loser, game.seats(), G::ZERO_SUM)
                .map_err(|e| at(format!("forfeit: {e}")))?;
        }

        for viewer in 0..game.seats() {
            let Some(redealt) = game.redeal_hidden(&state, viewer, rng) else { continue };
            checked.redealt += 1;
            ensure!(
                game.conserved(&redealt) == conserved,
                "{}",
                at(format!("the redeal for seat {viewer} changed the count"))
            );
            let shown = |s: &G::State| {
                let view = game.view(s, viewer);
                (view_text(game, &view), game.legal_texts(&view), seen_by_a_person(game, &view))
            };
            ensure!(
                shown(&redealt) == shown(&state),
                "{}",
                at(format!(
                    "seat {viewer}'s view changes with cards it cannot see: {} vs {}",
                    shown(&state).0,
                    shown(&redealt).0
                ))
            );
            let other_sees = |s: &G::State| {
                (0..game.seats())
                    .filter(|&o| o != viewer)
                    .map(|o| view_text(game, &game.view(s, o)))
                    .collect::<Vec<_>>()
            };
            checked.redeals_seen += u64::from(other_sees(&redealt) != other_sees(&state));
        }

        drop(view);
        let action = legal.choose(rng).expect("not empty").clone();
        if pool.len() < POOL {
            pool.push(action.clone());
        } else {
            pool[rng.random_range(0..POOL)] = action.clone();
        }
        game.apply(&mut state, &action).map_err(|e| at(format!("{action:?} refused: {e}")))?;
    }
    ensure!(
        game.conserved(&state) == conserved,
        "at the end: {:?} counted, {conserved:?} dealt",
        game.conserved(&state)
    );
    let outcome = game.outcome(&state);
    zero_sum(&outcome, game.seats(), G::ZERO_SUM)?;
    // The end as a person is shown it, and the rest of the story, are told without a fault.
    for seat in 0..game.seats() {
        seen_by_a_person(game, &game.view(&state, seat));
    }
    ensure!(!game.end_text(&state, &Screen::PLAIN).is_empty(), "the end of the game tells nothing");
    for (seat, &place) in outcome.place.iter().enumerate() {
        let better = outcome.payoff.iter().filter(|&&p| p > outcome.payoff[seat]).count() as u32;
        ensure!(place == 1 + better, "seat {seat} is placed {place} with payoffs {:?}", outcome.payoff);
    }
    Ok(())
}

/// What the rules let anyone tell about a state: every seat's view on the wire, the seat to act
/// and its legal actions.
fn fingerprint<G: GameDef>(game: &G, state: &G::State) -> (Vec<String>, Option<Seat>, String) {
    let views = (0..game.seats()).map(|seat| view_text(game, &game.view(state, seat))).collect();
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    (views, game.to_act(state), format!("{legal:?}"))
}

/// A view as it goes on the wire.
fn view_text<G: GameDef>(game: &G, view: &G::View<'_>) -> String {
    serde_json::to_string(&game.view_json(view)).expect("a view serialises")
}

/// What a person in the view's seat is shown (`arena play`): the table drawn and the whole story
/// of the game told, which may hold no more than the view does.
fn seen_by_a_person<G: GameDef>(game: &G, view: &G::View<'_>) -> String {
    let mut told = Vec::new();
    game.narrate(view, &Screen::PLAIN, &mut 0, &mut told);
    let story: Vec<String> = told.iter().map(|t| format!("{:?}: {}", t.seat, t.text)).collect();
    format!("{}{}", game.view_text(view, &Screen::PLAIN), story.join("\n"))
}

/// One payoff and place per seat, and the payoffs summing to zero when the game says it is
/// zero-sum ([`GameDef::ZERO_SUM`]).
fn zero_sum(outcome: &Outcome, seats: usize, zero: bool) -> Result<(), String> {
    ensure!(outcome.payoff.len() == seats && outcome.place.len() == seats, "{outcome:?} for {seats} seats");
    if !zero {
        return Ok(());
    }
    let sum: f64 = outcome.payoff.iter().sum();
    let scale: f64 = outcome.payoff.iter().map(|p| p.abs()).sum::<f64>().max(1.0);
    let balanced = sum.abs() <= 1e-9 * scale;
    ensure!(balanced, "payoffs {:?} sum to {sum}", outcome.payoff);
    Ok(())
}

/// `loser` alone in last place with the lowest payoff, and the payoffs summing to zero (in a
/// zero-sum game).
fn worst(outcome: &Outcome, loser: Seat, seats: usize, zero: bool) -> Result<(), String> {
    zero_sum(outcome, seats, zero)?;
    for other in (0..seats).filter(|&o| o != loser) {
        ensure!(
            outcome.place[other] < outcome.place[loser] && outcome.payoff[other] > outcome.payoff[loser],
            "seat {loser} forfeits but seat {other} does no better: {outcome:?}"
        );
    }
    Ok(())
}

/// Plays whatever the wire lists as legal, at random: a bot that knows the game only by its wire.
struct WireRandom;

impl<G: GameDef> Bot<G> for WireRandom {
    fn act(&mut self, game: &G, view: &G::View<'_>, rng: &mut BotRng) -> G::Action {
        let texts = game.legal_texts(view);
        let text = texts.choose(rng).expect("the seat to act has a legal text");
        game.parse_action(text).expect("legal texts read back")
    }
}

fn same_seed_same_record<G: GameDef>(game: &G, seeds: &GameSeeds) -> Result<(), String> {
    let play = || {
        let mut bots: Vec<Box<dyn Bot<G>>> =
            (0..game.seats()).map(|_| Box::new(WireRandom) as Box<dyn Bot<G>>).collect();
        let record = play_game(game, &mut bots, seeds, game.history_extension().is_some());
        GameRecord { times: Vec::new(), ..record }
    };
    let first = play();
    ensure!(
        first.status == crate::core::Status::Ok,
        "a bot playing the wire's legal texts forfeits: {:?}",
        first.status
    );
    let second = play();
    ensure!(first == second, "the same seeds gave two records: {first:?} and {second:?}");
    Ok(())
}
