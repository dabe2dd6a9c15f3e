//! bot-arena: deterministic, parallel tournaments between game-playing bots, with verdicts a
//! person can act on.
//!
//! The `arena` command line is one use of this library (`src/main.rs` is
//! `cli::main(Arena::standard())`); the same pieces run a tournament from your own code, add a
//! bot to a game the arena knows, or add a game of your own.
//!
//! # Where things are
//!
//! - [`Arena`] ([`registry`]): the games and their bot kinds. [`Arena::standard`] knows hold'em,
//!   five-card stud, zhajinhua, gomoku and Chinese Official mahjong; [`Arena::bot`] adds a bot
//!   kind to one of them, [`Arena::game`] adds a game.
//! - [`core`]: what a game and a bot are, whatever the game: the [`core::Game`] and
//!   [`core::Bot`] traits, [`core::GameDef`] (what a game declares to the registry), seeds,
//!   parameters, playing one game ([`core::play_game`]).
//! - [`config`]: a config file (TOML) or command-line flags checked into a [`config::RunConfig`].
//! - [`tournament`]: a config played into a run folder
//!   ([`tournament::launch::Launch`]), on any number of threads, with the same files for the same
//!   seed whatever that number.
//! - [`report`]: what a run came to ([`report::Verdicts`]: every bot's summary, the matches,
//!   the rating list) and the files it writes.
//! - [`stats`]: the statistics behind the verdicts (intervals, Elo, SPRT, rating lists), pure
//!   functions of their counts.
//! - [`games`]: the five games, one module each; [`cards`]: the cards the poker games share.
//! - [`cli`]: the command line, for a plugin that wants `arena`'s commands around its own bots.
//!
//! ARCHITECTURE.md, beside the sources, says which module may use which.
//!
//! # A tournament from code
//!
//! A config is TOML text, as `arena run` reads it from a file; the run plays into a folder and
//! hands back its verdicts.
//!
//! ```
//! use bot_arena::config::{Overrides, RunConfig, Source};
//! use bot_arena::tournament::launch::{Existing, Finished, Launch};
//! use bot_arena::tournament::runner::RunOptions;
//! use bot_arena::Arena;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let arena = Arena::standard();
//! let text = r#"
//!     game = "gomoku"
//!     games = 8
//!     seed = 1
//!     bots = ["weights", "random"]
//!     [table]
//!     size = 9
//! "#;
//! let cfg = RunConfig::parse(&arena, &Source::file("from-code.toml", text), "from-code", &Overrides::default())?;
//! let dir = std::env::temp_dir().join(format!("bot-arena-doc-run-{}", std::process::id()));
//! // `Existing::Replace` clears a folder left by an earlier run; `Refuse` would keep it.
//! let launch = Launch::new_run(&arena, cfg, None, &dir, Existing::Replace, RunOptions::new(2))?;
//! let Finished::Played { report, .. } = launch.play()? else {
//!     unreachable!("a new run has games to play")
//! };
//! for bot in &report.verdicts.bots {
//!     println!("{}: {} wins, {} draws, {} losses in {} games", bot.bot, bot.wins, bot.draws, bot.losses, bot.games);
//! }
//! // Both bots played every game, and the same numbers are in the folder's summary.csv.
//! assert!(report.verdicts.bots.iter().all(|bot| bot.games == 8));
//! let summary = std::fs::read_to_string(dir.join("summary.csv"))?;
//! assert_eq!(summary.lines().count(), 3, "a header and one row a bot");
//! std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! # A new bot for a game the arena knows
//!
//! A bot implements [`core::Bot`] for the game's type; a [`core::BotKind`] names it and says
//! how it is made from its parameters; [`Arena::bot`] adds the kind, and configs can then seat it
//! by name, beside the game's own bots.
//!
//! ```
//! use bot_arena::config::{Overrides, RunConfig, Source};
//! use bot_arena::core::{factory, Bot, BotKind, BotRng};
//! use bot_arena::games::gomoku::{Gomoku, Move, State};
//! use bot_arena::tournament::launch::{Existing, Finished, Launch};
//! use bot_arena::tournament::runner::RunOptions;
//! use bot_arena::Arena;
//!
//! /// Plays the first empty cell, row by row: a bot any real one should beat.
//! struct FirstEmpty;
//!
//! impl Bot<Gomoku> for FirstEmpty {
//!     // Gomoku's view is the board itself (`&State`): the game hides nothing.
//!     fn act(&mut self, _game: &Gomoku, state: &&State, _rng: &mut BotRng) -> Move {
//!         let i = state.board.iter().position(|&cell| cell == 0).expect("a game not over has an empty cell");
//!         Move { x: (i % state.size) as u8, y: (i / state.size) as u8 }
//!     }
//! }
//!
//! const FIRST_EMPTY: BotKind<Gomoku> = BotKind {
//!     name: "first-empty",
//!     about: "the first empty cell, row by row",
//!     params: &[],
//!     make: |_params, _game| Ok(factory(|| FirstEmpty)),
//! };
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let arena = Arena::standard().bot(FIRST_EMPTY);
//! let text = r#"
//!     game = "gomoku"
//!     games = 6
//!     bots = ["first-empty", "weights"]
//!     [table]
//!     size = 9
//! "#;
//! let cfg = RunConfig::parse(&arena, &Source::file("new-bot.toml", text), "new-bot", &Overrides::default())?;
//! let dir = std::env::temp_dir().join(format!("bot-arena-doc-bot-{}", std::process::id()));
//! let launch = Launch::new_run(&arena, cfg, None, &dir, Existing::Replace, RunOptions::new(1))?;
//! let Finished::Played { report, .. } = launch.play()? else {
//!     unreachable!("a new run has games to play")
//! };
//! let first_empty = &report.verdicts.bots[0];
//! assert_eq!((first_empty.bot.as_str(), first_empty.games), ("first-empty", 6));
//! assert!(first_empty.wins < 6, "the line-weighing bot takes at least one game off it");
//! std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! A game of your own implements [`core::Game`] (the rules), [`core::Wire`] (its views and
//! actions as text, for bots outside the process) and [`core::GameDef`] (what it declares to the
//! registry), then plugs in with [`Arena::game`]: see [`core::GameDef`]'s example, and
//! examples/kuhn_poker.rs for a whole one.

#![warn(missing_docs)]

pub mod cards;
pub mod cli;
pub mod config;
pub mod core;
pub mod error;
pub(crate) mod external;
pub mod games;
pub(crate) mod human;
pub(crate) mod league;
pub mod registry;
pub mod report;
pub mod stats;
pub mod tournament;

pub use registry::Arena;
