//! The registry: which games there are and what each brings (options, bot kinds, roster,
//! benchmarks, adviser). It is one value, an [`Arena`], built at start-up: the standard one holds
//! the project's five games ([`Arena::standard`]), and a crate that depends on bot-arena can add
//! its own bot kinds or games before handing it to the command line:
//!
//! ```no_run
//! # use bot_arena::Arena;
//! # fn my_gomoku_kind() -> bot_arena::games::BotKind<bot_arena::games::gomoku::Gomoku> { unimplemented!() }
//! fn main() {
//!     Arena::standard().bot(my_gomoku_kind()).main()
//! }
//! ```
//!
//! The tournament sees a game only through [`GameEntry`] (name, options, bots) and [`Table`]
//! (play one game with a given seating): everything generic over `G: Game` stays behind those two
//! object-safe traits, so the runner is not monomorphised per game and a game's hot loop is not
//! behind a virtual call.

use std::any::Any;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;

use crate::bench::Bench;
use crate::core::{
    per_seat, play_game_into, Bot, DealRng, Entrant, Game, GameRecord, GameSeeds, Headline, Keep, Limits, ParamSpec,
    Params, PerSeat, RunFolder, Seat, Seating, Wire,
};
use crate::error::{Error, Result};
use crate::games::conformance::Checked;

/// Builds a fresh bot for each game (bots keep per-game state; parameters are parsed once).
pub type BotFactory<G> = Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>;

/// Wraps a bot constructor as a factory: `factory(move || MyBot::new(cfg.clone()))`.
pub fn factory<G: Game, B: Bot<G> + 'static>(make: impl Fn() -> B + Send + Sync + 'static) -> BotFactory<G> {
    Arc::new(move || Box::new(make()) as Box<dyn Bot<G>>)
}

/// One kind of bot of a game, with its documented parameters.
pub struct BotKind<G: Game> {
    pub name: &'static str,
    pub about: &'static str,
    pub params: &'static [ParamSpec],
    /// Checks the parameters against the table and returns the factory.
    pub make: fn(&Params, &G) -> Result<BotFactory<G>>,
}

impl<G: Game> Clone for BotKind<G> {
    fn clone(&self) -> Self {
        BotKind { name: self.name, about: self.about, params: self.params, make: self.make }
    }
}

/// An adviser's answer: the text a person reads, and the same figures as one JSON document
/// (`arena advise GAME ... --json`). Both are written from the same values, so they agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub text: String,
    pub json: serde_json::Value,
}

/// Answers an adviser's parsed arguments.
type AdviseFn = dyn Fn(&clap::ArgMatches) -> Result<Advice> + Send + Sync;

/// A game's command-line adviser (`arena advise GAME ...`): its arguments as a clap type and the
/// function that answers them. Every adviser takes `--json`.
pub struct Adviser {
    about: &'static str,
    args: fn(clap::Command) -> clap::Command,
    run: Box<AdviseFn>,
}

impl Adviser {
    /// An adviser whose arguments are the clap type `A`.
    pub fn new<A: clap::Args + clap::FromArgMatches + 'static>(
        about: &'static str,
        run: fn(&A) -> Result<Advice>,
    ) -> Adviser {
        Adviser {
            about,
            args: A::augment_args,
            run: Box::new(move |matches| {
                let args = A::from_arg_matches(matches).map_err(|e| Error::input(e.to_string()))?;
                run(&args)
            }),
        }
    }

    /// The `arena advise NAME` subcommand.
    pub fn command(&self, name: &'static str) -> clap::Command {
        let json = clap::Arg::new("json")
            .long("json")
            .action(clap::ArgAction::SetTrue)
            .help("Print the answer as one JSON document (the same figures, unrounded)");
        (self.args)(clap::Command::new(name).about(self.about)).arg(json)
    }

    /// Answers parsed arguments of [`Adviser::command`]: the text, or the JSON with `--json`.
    pub fn run(&self, matches: &clap::ArgMatches) -> Result<String> {
        let advice = (self.run)(matches)?;
        Ok(match matches.get_flag("json") {
            true => serde_json::to_string_pretty(&advice.json).expect("JSON values serialise"),
            false => advice.text,
        })
    }
}

/// What a game tells the registry about itself, all in the game's own `mod.rs`. Its [`Wire`]
/// encoding (in its own `wire.rs`) lets bots outside the process play it: every game gets the
/// `external` bot kind, and `human` for a person at the terminal.
pub trait GameDef: Wire {
    const NAME: &'static str;
    const ABOUT: &'static str;
    /// Seat counts the game supports.
    const SEATS: RangeInclusive<usize>;
    /// Table options (`[table]` in a config).
    const OPTIONS: &'static [ParamSpec];
    /// Named variants of the bots, as the text of a roster file (`bots/<game>.toml`), built into
    /// the binary; a `bots/<game>.toml` in the working folder adds to and overrides it.
    const ROSTER: &'static str = "";
    /// Builds the game from its checked options and the chosen seat count.
    fn from_options(options: &Params, seats: usize) -> Result<Self>;
    /// What a verdict on this table leads with (it may depend on the options: hold'em cash is
    /// judged in bb/100, a sit-and-go by Elo).
    fn headline(&self) -> Headline;
    /// The game's own bot kinds.
    fn bot_kinds() -> Vec<BotKind<Self>>;
    /// `arena bench` measures of the game.
    fn benches() -> Vec<Bench> {
        Vec::new()
    }
    /// `arena advise NAME`, when the game has an adviser.
    fn adviser() -> Option<Adviser> {
        None
    }
    /// `state`, a game in progress, with every card or tile `seat` cannot see dealt anew from
    /// those it cannot see (the other seats' hidden cards, the rest of the deck or wall); what
    /// `seat` sees stays as it is. `None` when the game hides nothing. The conformance check
    /// ([`super::conformance`]) asks that `seat`'s view of both states be the same: a view that
    /// changes shows something it should not.
    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State>;
    /// The chips or tiles the rules only move about (chips behind and in the pot; tiles in hands,
    /// sets, discards and the wall), counted: the conformance check asks that the count never
    /// changes within a game. `None` when the game has nothing of the kind.
    fn conserved(&self, state: &Self::State) -> Option<u64>;
}

/// A bot chosen for a table: its name in the run, a kind of the game and its checked parameters
/// (its own and [`Limits::SPECS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BotChoice {
    pub name: String,
    pub kind: String,
    pub params: Params,
}

impl BotChoice {
    /// The parameter specs of a kind: its own, then the [`Limits::SPECS`] it does not declare.
    pub fn specs(kind: &[ParamSpec]) -> Vec<ParamSpec> {
        let general = Limits::SPECS.iter().filter(|g| kind.iter().all(|k| k.name != g.name));
        kind.iter().chain(general).copied().collect()
    }
}

/// A game with its options and bots fixed: plays one game for a seating.
pub trait Table: Send + Sync {
    fn seats(&self) -> usize;
    /// The game's own columns in games.csv.
    fn columns(&self) -> &'static [&'static str];
    /// The file extension of the game's records (`--hand-history`), if it has such records.
    fn history_extension(&self) -> Option<&'static str>;
    /// What a verdict leads with ([`GameDef::headline`]).
    fn headline(&self) -> Headline;
    /// Plays game `game` of a pairing; `lineup[seat]` is the index of the bot in that seat.
    /// `history`: also produce the game record in its community's format.
    fn play(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, history: bool) -> GameRecord {
        let mut record = GameRecord::new();
        self.play_into(lineup, game, seeds, Keep { columns: true, history }, &mut record);
        record
    }
    /// [`Table::play`] into a record whose buffers are reused, keeping what `keep` says.
    fn play_into(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, keep: Keep, record: &mut GameRecord);
    /// What the programs behind the bots said they are (a Gomocup engine's ABOUT), by bot name.
    fn engines(&self) -> BTreeMap<String, String>;
}

/// A bot kind as `arena list` shows it.
pub struct BotListing {
    pub name: &'static str,
    pub about: &'static str,
    pub params: &'static [ParamSpec],
}

/// A game as the tournament sees it.
pub trait GameEntry: Send + Sync {
    fn name(&self) -> &'static str;
    fn about(&self) -> &'static str;
    fn seats(&self) -> RangeInclusive<usize>;
    fn options(&self) -> &'static [ParamSpec];
    fn bots(&self) -> Vec<BotListing>;
    /// The parameter specs of a bot kind, if the game has it.
    fn bot_params(&self, kind: &str) -> Option<&'static [ParamSpec]>;
    /// The built-in roster text (`bots/<game>.toml`).
    fn roster(&self) -> &'static str;
    fn benches(&self) -> Vec<Bench>;
    fn adviser(&self) -> Option<Adviser>;
    /// A table with `bots` available to seat; `options` already checked against [`Self::options`].
    /// `run_dir`: the run folder, where bots may keep logs (`None`: nothing is written).
    fn table(
        &self,
        options: &Params,
        seats: usize,
        bots: &[BotChoice],
        run_dir: Option<&Path>,
    ) -> Result<Arc<dyn Table>>;
    /// For [`Arena::bot`] and [`Arena::kinds`]: the concrete entry behind the trait.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Checks the game's contract ([`super::conformance`]) on `games` random games from `seed` at
    /// every seat count, on the default table and on one table for each other choice of each
    /// option; the error names the table.
    fn conformance(&self, games: u64, seed: u64) -> std::result::Result<Checked, String>;
}

/// A registered game: its [`GameDef`] and the bot kinds it has (its own, plus any added).
struct Registered<G: GameDef> {
    kinds: Vec<BotKind<G>>,
}

impl<G: GameDef> Registered<G> {
    fn new() -> Registered<G> {
        let mut kinds = G::bot_kinds();
        kinds.push(crate::external::kind::<G>());
        kinds.push(crate::human::kind::<G>());
        Registered { kinds }
    }

    fn kind(&self, name: &str) -> Option<&BotKind<G>> {
        self.kinds.iter().find(|k| k.name == name)
    }
}

struct Match<G: GameDef> {
    game: G,
    bots: Vec<BotFactory<G>>,
    entrants: Vec<Entrant>,
    options: Params,
    run: Option<RunFolder>,
}

impl<G: GameDef> Table for Match<G> {
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn columns(&self) -> &'static [&'static str] {
        self.game.columns()
    }
    fn history_extension(&self) -> Option<&'static str> {
        self.game.history_extension()
    }
    fn headline(&self) -> Headline {
        self.game.headline()
    }
    fn play_into(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, keep: Keep, record: &mut GameRecord) {
        let mut bots: PerSeat<Box<dyn Bot<G>>> = per_seat(lineup.len(), |seat| (self.bots[lineup[seat]])());
        let entrants = per_seat(lineup.len(), |seat| &self.entrants[lineup[seat]]);
        let seating = Seating { entrants: &entrants, game, table: &self.options, run: self.run.as_ref() };
        play_game_into(&self.game, &mut bots, seeds, &seating, keep, record)
    }
    fn engines(&self) -> BTreeMap<String, String> {
        self.run.as_ref().map(RunFolder::engines).unwrap_or_default()
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
        self.kinds.iter().map(|k| BotListing { name: k.name, about: k.about, params: k.params }).collect()
    }
    fn bot_params(&self, kind: &str) -> Option<&'static [ParamSpec]> {
        self.kind(kind).map(|k| k.params)
    }
    fn roster(&self) -> &'static str {
        G::ROSTER
    }
    fn benches(&self) -> Vec<Bench> {
        G::benches()
    }
    fn adviser(&self) -> Option<Adviser> {
        G::adviser()
    }
    fn table(
        &self,
        options: &Params,
        seats: usize,
        bots: &[BotChoice],
        run_dir: Option<&Path>,
    ) -> Result<Arc<dyn Table>> {
        let game = G::from_options(options, seats)?;
        let factories = bots
            .iter()
            .map(|choice| {
                let kind = self
                    .kind(&choice.kind)
                    .ok_or_else(|| Error::input(format!("game {} has no bot `{}`", G::NAME, choice.kind)))?;
                (kind.make)(&choice.params, &game)
            })
            .collect::<Result<Vec<_>>>()?;
        let entrants =
            bots.iter().map(|b| Entrant { name: b.name.clone(), limits: Limits::from_params(&b.params) }).collect();
        Ok(Arc::new(Match {
            game,
            bots: factories,
            entrants,
            options: options.clone(),
            run: run_dir.map(RunFolder::new),
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn conformance(&self, games: u64, seed: u64) -> std::result::Result<Checked, String> {
        let mut checked = Checked::default();
        for (label, options) in option_variants(G::OPTIONS) {
            let options = Params::new(G::OPTIONS, &options, G::NAME).map_err(|e| e.to_string())?;
            for seats in G::SEATS {
                let table = format!("{} at {seats} seats{label}", G::NAME);
                let game = G::from_options(&options, seats).map_err(|e| format!("{table}: {e}"))?;
                checked += super::conformance::check(&game, games, seed).map_err(|e| format!("{table}, {e}"))?;
            }
        }
        Ok(checked)
    }
}

/// The default options (no label), then for each option with choices or a boolean default, a
/// table with each other value of it (labelled `, format = "sng"`).
fn option_variants(specs: &[ParamSpec]) -> Vec<(String, toml::Table)> {
    let mut variants = vec![(String::new(), toml::Table::new())];
    for spec in specs {
        let values: Vec<toml::Value> = match spec.default {
            "true" | "false" => vec![toml::Value::Boolean(spec.default == "false")],
            _ => spec
                .choices
                .iter()
                .filter(|c| spec.default != format!("\"{c}\""))
                .map(|c| toml::Value::String(c.to_string()))
                .collect(),
        };
        for value in values {
            let label = format!(", {} = {value}", spec.name);
            variants.push((label, toml::Table::from_iter([(spec.name.to_string(), value)])));
        }
    }
    variants
}

/// Every game the command line knows, with their bot kinds: built once at start-up.
pub struct Arena {
    games: Vec<Box<dyn GameEntry>>,
}

impl Arena {
    /// No games at all (the standard set is [`Arena::standard`]).
    pub fn empty() -> Arena {
        Arena { games: Vec::new() }
    }

    /// Adds a game, with the bot kinds, roster, benchmarks and adviser its [`GameDef`] declares.
    ///
    /// # Panics
    /// When a game of that name is registered already (a programming error).
    pub fn game<G: GameDef>(mut self) -> Arena {
        assert!(self.games.iter().all(|g| g.name() != G::NAME), "game `{}` registered twice", G::NAME);
        self.games.push(Box::new(Registered::<G>::new()));
        self
    }

    /// Adds a bot kind to its game (registering the game first if it is not there yet). A kind
    /// with the name of an existing one replaces it.
    pub fn bot<G: GameDef>(mut self, kind: BotKind<G>) -> Arena {
        if !self.games.iter().any(|g| g.name() == G::NAME) {
            self = self.game::<G>();
        }
        let entry = self.games.iter_mut().find(|g| g.name() == G::NAME).expect("registered above");
        let registered = entry
            .as_any_mut()
            .downcast_mut::<Registered<G>>()
            .unwrap_or_else(|| panic!("game `{}` is registered with another type", G::NAME));
        registered.kinds.retain(|k| k.name != kind.name);
        registered.kinds.push(kind);
        self
    }

    /// The games, in the order they were added (the order `arena list` shows).
    pub fn games(&self) -> impl Iterator<Item = &dyn GameEntry> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// The bot kinds of game `G` (its own and any added), for a command that seats one of them
    /// itself rather than through a [`Table`] (`arena brain gomoku`); `None` when `G` is not here.
    pub fn kinds<G: GameDef>(&self) -> Option<&[BotKind<G>]> {
        let entry = self.games().find(|g| g.name() == G::NAME)?;
        entry.as_any().downcast_ref::<Registered<G>>().map(|r| r.kinds.as_slice())
    }

    /// The game called `name`.
    pub fn find(&self, name: &str) -> Result<&dyn GameEntry> {
        self.games().find(|g| g.name() == name).ok_or_else(|| {
            let known: Vec<&str> = self.games().map(|g| g.name()).collect();
            Error::input(format!("unknown game {} (known: {})", crate::error::shown(name), known.join(", ")))
        })
    }

    /// Every game's benchmarks, in game order.
    pub fn benches(&self) -> Vec<Bench> {
        self.games().flat_map(|g| g.benches()).collect()
    }

    /// Runs the command line (`std::env::args`) with these games and exits with its code.
    ///
    /// SIGPIPE stays ignored (Rust's default): with its default action, a write to the pipe of a
    /// bot that has exited or closed its input would end the whole tournament. The command line
    /// ends quietly on a closed stdout by itself (cli/out.rs).
    pub fn main(self) -> ! {
        std::process::exit(crate::cli::main_with(&self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's options and every bot's parameters have defaults inside their own ranges, and
    /// a table builds from the defaults with every bot, at every seat count.
    #[test]
    fn every_default_is_valid_and_builds() {
        let arena = Arena::standard();
        for game in arena.games() {
            let options = Params::new(game.options(), &toml::Table::new(), game.name()).unwrap();
            // Every kind but those that need a program to run (`external`, `gomocup`).
            let bots: Vec<BotChoice> = game
                .bots()
                .iter()
                .filter(|b| b.params.iter().all(|p| p.name != "command"))
                .map(|b| BotChoice {
                    name: b.name.to_string(),
                    kind: b.name.to_string(),
                    params: Params::new(&BotChoice::specs(b.params), &toml::Table::new(), b.name).unwrap(),
                })
                .collect();
            for seats in game.seats() {
                let table = game.table(&options, seats, &bots, None).unwrap_or_else(|e| panic!("{}: {e}", game.name()));
                assert_eq!(table.seats(), seats);
            }
        }
    }
}
