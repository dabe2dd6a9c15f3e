//! The game-agnostic heart: the [`Game`] and [`Bot`] traits, seeds, parameters, playing one game,
//! and the [`Wire`] encoding a game gives its views and actions for bots outside the process.

pub(crate) mod bench;
pub(crate) mod clock;
pub mod conformance;
mod def;
pub mod exact;
mod game;
pub mod json_out;
pub(crate) mod limits;
pub mod luck;
#[cfg(test)]
pub mod paired;
pub mod params;
mod play;
pub mod readable;
pub mod record;
pub mod roster;
pub mod schedule;
pub mod section;
pub mod seeds;
pub(crate) mod suggest;
pub mod wire;

pub use def::{
    factory, Advice, Adviser, BotChoice, BotFactory, BotKind, Engine, EngineBot, EngineNames, GameDef, ImportFile,
    Imported, ImportedGame, Importer, ProtocolExample, TablePreset,
};
pub use game::{
    bounded, Bot, Fault, FaultKind, Game, GameEnd, GameStart, Headline, IllegalAction, Leads, Outcome, Played,
    RecordFormat, RunFolder, Seat, Unit, MAX_REASON_CHARS, POINTS_A_GAME,
};
pub use params::{resolve_paths, ParamSpec, Params, PathUse};
pub use play::{
    ms, per_seat, play_game, play_game_into, play_game_with, play_kept, Adjusted, Entrant, GameRecord, Keep, Limits,
    PerSeat, SeatResult, Seating, Status, TimeControl,
};
pub use seeds::{deal_of, BotRng, DealRng, GameSeeds};
pub use wire::Wire;
