//! The game-agnostic heart: the [`Game`] and [`Bot`] traits, seeds, parameters, and playing one game.

mod game;
pub mod params;
mod play;
pub mod seeds;

pub use game::{Bot, Game, Headline, IllegalAction, Outcome, Seat};
pub use params::{ParamSpec, Params};
pub use play::{play_game, GameRecord, SeatResult, Status};
pub use seeds::{BotRng, DealRng, GameSeeds};
