//! The registry: the one place that lists the games. The tournament sees a game only through
//! [`GameEntry`] (name, options, bots) and [`Table`] (play one game with a given seating).
//!
//! A game plugs in by implementing [`GameDef`] (its name, options and bot kinds) on its
//! [`Game`] type and adding one line to [`GAMES`].

use std::marker::PhantomData;
use std::ops::RangeInclusive;
use std::sync::Arc;

use crate::core::{play_game, Bot, Game, GameRecord, GameSeeds, ParamSpec, Params};
use crate::error::{Error, Result};

pub mod gomoku;
pub mod holdem;
pub mod mahjong;
pub mod stud;
pub mod zhajinhua;

/// Every benchmark of `arena bench`, in the order printed.
pub fn benches() -> Vec<crate::bench::Bench> {
    let mut all = Vec::new();
    all.extend(gomoku::benches());
    all.extend(holdem::benches());
    all.extend(zhajinhua::benches());
    all.extend(mahjong::benches());
    all.extend(stud::benches());
    all
}

/// Builds a fresh bot for each game (bots keep per-game state; parameters are parsed once).
pub type BotFactory<G> = Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>;

/// One kind of bot of a game, with its documented parameters.
pub struct BotKind<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    pub params: &'static [ParamSpec],
    /// Checks the parameters against the table and returns the factory.
    pub make: fn(&Params, &G) -> Result<BotFactory<G>>,
}

/// What a game tells the registry about itself.
pub trait GameDef: Game {
    const NAME: &'static str;
    const ABOUT: &'static str;
    /// Seat counts the game supports.
    const SEATS: RangeInclusive<usize>;
    /// Table options (`[table]` in a config).
    const OPTIONS: &'static [ParamSpec];
    /// Builds the game from its checked options and the chosen seat count.
    fn from_options(options: &Params, seats: usize) -> Result<Self>;
    fn bot_kinds() -> &'static [BotKind<Self>];
}

/// A bot chosen for a table: a kind of the game and its checked parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct BotChoice {
    pub kind: String,
    pub params: Params,
}

/// A game with its options and bots fixed: plays one game for a seating.
pub trait Table: Send + Sync {
    fn seats(&self) -> usize;
    /// The game's own columns in games.csv.
    fn columns(&self) -> &'static [&'static str];
    /// The file extension of the game's records (`--hand-history`).
    fn history_extension(&self) -> &'static str;
    /// Plays one game; `lineup[seat]` is the index of the bot in that seat.
    /// `history`: also produce the game record in its community's format.
    fn play(&self, lineup: &[usize], seeds: &GameSeeds, history: bool) -> GameRecord;
}

/// Bot kinds as `arena list` shows them.
pub struct BotListing {
    pub name: &'static str,
    pub about: &'static str,
    pub params: &'static [ParamSpec],
}

/// A game as the tournament sees it.
pub trait GameEntry: Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    fn seats(&self) -> RangeInclusive<usize>;
    fn options(&self) -> &'static [ParamSpec];
    fn bots(&self) -> Vec<BotListing>;
    /// The parameter specs of a bot kind, if the game has it.
    fn bot_params(&self, kind: &str) -> Option<&'static [ParamSpec]>;
    /// A table with `bots` available to seat; `options` already checked against [`Self::options`].
    fn table(&self, options: &Params, seats: usize, bots: &[BotChoice]) -> Result<Arc<dyn Table>>;
}

struct Registered<G>(PhantomData<fn() -> G>);

struct Match<G: Game> {
    game: G,
    bots: Vec<BotFactory<G>>,
}

impl<G: Game> Table for Match<G> {
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn columns(&self) -> &'static [&'static str] {
        self.game.columns()
    }
    fn history_extension(&self) -> &'static str {
        self.game.history_extension()
    }
    fn play(&self, lineup: &[usize], seeds: &GameSeeds, history: bool) -> GameRecord {
        let mut bots: Vec<Box<dyn Bot<G>>> = lineup.iter().map(|&b| (self.bots[b])()).collect();
        play_game(&self.game, &mut bots, seeds, history)
    }
}

impl<G: GameDef> GameEntry for Registered<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn about(&self) -> &'static str {
        G::ABOUT
    }
    fn seats(&self) -> RangeInclusive<usize> {
        G::SEATS
    }
    fn options(&self) -> &'static [ParamSpec] {
        G::OPTIONS
    }
    fn bots(&self) -> Vec<BotListing> {
        G::bot_kinds().iter().map(|k| BotListing { name: k.name, about: k.about, params: k.params }).collect()
    }
    fn bot_params(&self, kind: &str) -> Option<&'static [ParamSpec]> {
        G::bot_kinds().iter().find(|k| k.name == kind).map(|k| k.params)
    }
    fn table(&self, options: &Params, seats: usize, bots: &[BotChoice]) -> Result<Arc<dyn Table>> {
        let game = G::from_options(options, seats)?;
        let bots = bots
            .iter()
            .map(|choice| {
                let kind = G::bot_kinds()
                    .iter()
                    .find(|k| k.name == choice.kind)
                    .ok_or_else(|| Error::input(format!("game {} has no bot `{}`", G::NAME, choice.kind)))?;
                (kind.make)(&choice.params, &game)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Arc::new(Match { game, bots }))
    }
}

/// Every game, in the order `arena list` shows them.
pub static GAMES: &[&dyn GameEntry] = &[
    &Registered::<holdem::Holdem>(PhantomData),
    &Registered::<stud::Stud>(PhantomData),
    &Registered::<zhajinhua::Zhajinhua>(PhantomData),
    &Registered::<gomoku::Gomoku>(PhantomData),
    &Registered::<mahjong::Mahjong>(PhantomData),
];

/// The game called `name`.
pub fn find(name: &str) -> Result<&'static dyn GameEntry> {
    GAMES.iter().copied().find(|g| g.name() == name).ok_or_else(|| {
        let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
        Error::input(format!("unknown game `{name}` (known: {})", known.join(", ")))
    })
}

/// Wraps a bot constructor as a factory: `factory(move || MyBot::new(cfg.clone()))`.
pub fn factory<G: Game, B: Bot<G> + 'static>(make: impl Fn() -> B + Send + Sync + 'static) -> BotFactory<G> {
    Arc::new(move || Box::new(make()) as Box<dyn Bot<G>>)
}
