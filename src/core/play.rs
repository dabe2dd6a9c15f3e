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
    Forfeit { seat: Seat, reason: String },
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
