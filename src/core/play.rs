//! Playing one game: ask the seat to act for its action, apply it, repeat; a bot that panics or
//! answers an illegal action forfeits and the record says why.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::core::game::{Bot, Game, Seat};
use crate::core::seeds::GameSeeds;

/// One seat's result.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    pub payoff: f64,
    pub place: u32,
    /// Values of the game's own columns.
    pub extra: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// `seat`'s bot panicked or answered an illegal action.
    Forfeit {
        seat: Seat,
        reason: String,
    },
}

/// Everything a finished game reports.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub seed: u64,
    /// Actions applied.
    pub moves: u32,
    pub status: Status,
    /// Indexed by seat.
    pub seats: Vec<SeatResult>,
    /// The game record in its community's format, when asked for.
    pub history: Option<String>,
}

thread_local! {
    /// Set while a bot runs: its panic message goes to the record, not to stderr.
    static BOT_PANIC: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps bot panics quiet and hands their message to the record.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_bot = BOT_PANIC.with(|slot| {
                let mut slot = slot.borrow_mut();
                match slot.as_mut() {
                    Some(message) => {
                        let payload = info.payload();
                        let text = payload
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| payload.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "panic".to_string());
                        *message = Some(text);
                        true
                    }
                    None => false,
                }
            });
            if !in_bot {
                default(info);
            }
        }));
    });
}

/// Runs `f` as bot code: a panic becomes `Err(message)`.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    BOT_PANIC.with(|slot| *slot.borrow_mut() = Some(None));
    let result = catch_unwind(AssertUnwindSafe(f));
    let message = BOT_PANIC.with(|slot| slot.borrow_mut().take()).flatten();
    result.map_err(|_| message.unwrap_or_else(|| "panic".to_string()))
}

/// Plays one game. `bots[seat]` plays `seat`. `history`: also write the game record.
pub fn play_game<G: Game>(game: &G, bots: &mut [Box<dyn Bot<G>>], seeds: &GameSeeds, history: bool) -> GameRecord {
    install_panic_hook();
    assert_eq!(bots.len(), game.seats(), "one bot per seat");
    let mut state = game.deal(&mut seeds.deal_rng());
    let mut rngs: Vec<_> = (0..bots.len()).map(|seat| seeds.bot_rng(seat)).collect();
    let mut moves = 0u32;
    let mut status = Status::Ok;
    while let Some(seat) = game.to_act(&state) {
        let asked = guarded(|| {
            let view = game.view(&state, seat);
            bots[seat].act(game, &view, &mut rngs[seat])
        });
        let reason = match asked {
            Ok(action) => match game.apply(&mut state, &action) {
                Ok(()) => {
                    moves += 1;
                    continue;
                }
                Err(illegal) => format!("illegal action {action:?}: {illegal}"),
            },
            Err(message) => format!("panic: {message}"),
        };
        status = Status::Forfeit { seat, reason };
        break;
    }
    let outcome = match &status {
        Status::Ok => game.outcome(&state),
        Status::Forfeit { seat, .. } => game.forfeit(&state, *seat),
    };
    let seats = (0..game.seats())
        .map(|seat| {
            let mut extra = Vec::with_capacity(game.columns().len());
            game.record(&state, seat, &mut extra);
            SeatResult { payoff: outcome.payoff[seat], place: outcome.place[seat], extra }
        })
        .collect();
    let history = if history { game.history(&state) } else { None };
    GameRecord { seed: seeds.deal, moves, status, seats, history }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{BotRng, DealRng, IllegalAction, Outcome};
    use rand::Rng;

    /// Two seats take turns saying a number; seat 0 must say an even number, seat 1 an odd one;
    /// after four numbers the larger sum wins. The deal picks a bonus for seat 1.
    struct Count;

    struct CountState {
        said: Vec<u32>,
        bonus: u32,
    }

    impl Game for Count {
        type State = CountState;
        type Action = u32;
        type View<'a> = &'a CountState;
        fn seats(&self) -> usize {
            2
        }
        fn deal(&self, rng: &mut DealRng) -> CountState {
            CountState { said: vec![], bonus: rng.random_range(0..3) }
        }
        fn to_act(&self, s: &CountState) -> Option<Seat> {
            (s.said.len() < 4).then_some(s.said.len() % 2)
        }
        fn legal_actions(&self, s: &CountState, out: &mut Vec<u32>) {
            out.extend((0..10).filter(|n| n % 2 == (s.said.len() % 2) as u32));
        }
        fn view<'a>(&self, s: &'a CountState, _seat: Seat) -> &'a CountState {
            s
        }
        fn apply(&self, s: &mut CountState, a: &u32) -> Result<(), IllegalAction> {
            if a % 2 != (s.said.len() % 2) as u32 {
                return Err(IllegalAction(format!("{a} has the wrong parity")));
            }
            s.said.push(*a);
            Ok(())
        }
        fn outcome(&self, s: &CountState) -> Outcome {
            let sum = |seat: usize| s.said.iter().skip(seat).step_by(2).sum::<u32>() as f64;
            let (a, b) = (sum(0), sum(1) + s.bonus as f64);
            Outcome::from_payoffs(vec![(a - b).signum(), (b - a).signum()])
        }
        fn forfeit(&self, _s: &CountState, seat: Seat) -> Outcome {
            Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }).collect())
        }
    }

    enum Behaviour {
        Legal,
        Panics,
        Cheats,
    }

    struct Player(Behaviour);

    impl Bot<Count> for Player {
        fn act(&mut self, _g: &Count, s: &&CountState, rng: &mut BotRng) -> u32 {
            let parity = (s.said.len() % 2) as u32;
            match self.0 {
                Behaviour::Legal => 2 * rng.random_range(0..5) + parity,
                Behaviour::Panics => panic!("bot bug"),
                Behaviour::Cheats => 1 - parity,
            }
        }
    }

    fn play(a: Behaviour, b: Behaviour, seed: u64) -> GameRecord {
        let mut bots: Vec<Box<dyn Bot<Count>>> = vec![Box::new(Player(a)), Box::new(Player(b))];
        play_game(&Count, &mut bots, &GameSeeds::derive(seed, 0, 0, 1), false)
    }

    #[test]
    fn a_panicking_bot_forfeits_and_the_record_says_why() {
        let r = play(Behaviour::Legal, Behaviour::Panics, 1);
        assert_eq!(r.status, Status::Forfeit { seat: 1, reason: "panic: bot bug".into() });
        assert_eq!((r.seats[0].place, r.seats[1].place), (1, 2));
        assert_eq!(r.moves, 1);
    }

    #[test]
    fn an_illegal_action_forfeits() {
        let r = play(Behaviour::Cheats, Behaviour::Legal, 1);
        match &r.status {
            Status::Forfeit { seat: 0, reason } => {
                assert!(reason.contains("wrong parity"), "{reason}")
            }
            other => panic!("expected a forfeit, got {other:?}"),
        }
        assert_eq!(r.seats[0].payoff, -1.0);
        assert_eq!(r.moves, 0);
    }

    #[test]
    fn legal_games_finish_and_are_reproducible() {
        let a = play(Behaviour::Legal, Behaviour::Legal, 5);
        assert_eq!(a.status, Status::Ok);
        assert_eq!(a.moves, 4);
        assert_eq!(a, play(Behaviour::Legal, Behaviour::Legal, 5));
        // Payoffs of a two-seat zero-sum game cancel.
        assert_eq!(a.seats[0].payoff + a.seats[1].payoff, 0.0);
    }
}
