//! The registry: which games there are and what each brings (options, bot kinds, roster,
//! benchmarks, adviser). It is one value, an [`Arena`], built at start-up: the standard one holds
//! the project's five games ([`Arena::standard`]), and a crate that depends on bot-arena can add
//! its own bot kinds or games before handing it to the command line:
//!
//! ```no_run
//! # use bot_arena::Arena;
//! # fn my_gomoku_kind() -> bot_arena::core::BotKind<bot_arena::games::gomoku::Gomoku> { unimplemented!() }
//! fn main() {
//!     bot_arena::cli::main(Arena::standard().bot(my_gomoku_kind()))
//! }
//! ```
//!
//! The tournament sees a game only through [`GameEntry`] (name, options, bots) and [`Venue`]
//! (play one game with a given seating): everything generic over `G: Game` stays behind those two
//! object-safe traits, so the runner is not monomorphised per game and a game's hot loop is not
//! behind a virtual call.

use std::any::Any;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::Arc;

use crate::core::bench::Bench;
use crate::core::conformance::Checked;
use crate::core::limits::BoundedLines;
use crate::core::record::{self, Divergence, Ending, Event, Frame};
use crate::core::roster::{self, BotCatalog};
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::suggest::known_names;
use crate::core::{
    per_seat, play_game_into, Adviser, Bot, BotChoice, BotFactory, BotKind, EngineBot, EngineNames, Entrant, GameDef,
    GameRecord, GameSeeds, Headline, ImportFile, Imported, ImportedGame, Keep, Limits, ParamSpec, Params, PerSeat,
    Played, RecordFormat, RunFolder, Seating, TablePreset,
};
use crate::error::{Error, Result};
/// The checks of `arena check-bot` ([`GameEntry::check_bot`]).
pub use crate::external::check::{Check, CheckLimits};
/// A game played one action at a time ([`GameEntry::env`]).
pub use crate::external::env::GameEnv;
/// Bots hosted by a program that embeds the library ([`Arena::hosting`]).
pub use crate::external::hosted::{host, unhost, Answer, Host, Player, Refusal};
use crate::games::{gomoku, holdem, mahjong, stud, zhajinhua};

/// Opens an engine session's input and output (stdin and stdout, or a connection to a dealer),
/// called once the bot is known to be playable.
pub type Open<'a> = Box<dyn FnOnce() -> Result<(Box<dyn BufRead + 'a>, Box<dyn Write + 'a>)> + 'a>;

/// A venue: a game with its table options and bots fixed, where one game is played for a lineup.
pub trait Venue: Send + Sync {
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// The game's own columns in games.csv.
    fn columns(&self) -> &'static [&'static str];
    /// Whether the game has a value function, so that its payoffs can be adjusted for luck
    /// ([`crate::core::Game::adjusts`]).
    fn adjusts(&self) -> bool;
    /// Whether the game declares a starting strength to regress on
    /// ([`crate::core::Game::has_covariate`]).
    fn has_covariate(&self) -> bool;
    /// The file extension of the game's records (`--hand-history`), if it has such records.
    fn history_extension(&self) -> Option<&'static str>;
    /// What a verdict leads with ([`GameDef::headline`]).
    fn headline(&self) -> Headline;
    /// What one game's payoff is counted in ([`GameDef::payoff_label`]).
    fn payoff_label(&self) -> &'static str;
    /// The game's own section of report.html ([`GameDef::report`]); empty when it has none.
    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock>;
    /// Plays game `game` of a pairing; `lineup[seat]` is the index of the bot in that seat.
    /// `history`: also produce the game record in its community's format.
    fn play(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, history: bool) -> GameRecord {
        let mut record = GameRecord::new();
        self.play_into(
            lineup,
            game,
            seeds,
            Keep { columns: true, history, moves: false, luck: crate::core::luck::Estimator::Plain },
            &mut record,
        );
        record
    }
    /// [`Venue::play`] into a record whose buffers are reused, keeping what `keep` says.
    fn play_into(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, keep: Keep, record: &mut GameRecord);
    /// What the programs behind the bots said they are (a Gomocup engine's ABOUT), by bot name.
    fn engines(&self) -> BTreeMap<String, String>;
    /// The game's own record file formats ([`Game::record_formats`](crate::core::Game::record_formats)).
    fn record_formats(&self) -> &'static [RecordFormat];
    /// A record's events played back from the deal `seeds` give ([`record::replay`]) and the game
    /// written in `format` ([`Game::write_record`](crate::core::Game::write_record)); `None` for a format the game does not have.
    fn export(
        &self,
        format: &str,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
        played: &Played<'_>,
    ) -> std::result::Result<Option<String>, Divergence>;
    /// Plays a record's events back from the deal `seeds` give and scores them
    /// ([`record::rescore`]).
    fn rescore(
        &self,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
    ) -> std::result::Result<GameRecord, Divergence>;
    /// Every step of a record as each seat saw it ([`record::frames`]).
    fn frames(
        &self,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
    ) -> std::result::Result<Vec<Frame>, Divergence>;
}

/// A bot kind as `arena list` shows it.
pub struct BotListing {
    /// The kind's name, as a config's `kind` takes it.
    pub name: &'static str,
    /// One line on what the bot does.
    pub about: &'static str,
    /// Its parameters, with defaults and help.
    pub params: &'static [ParamSpec],
}

/// A game as the tournament sees it.
pub trait GameEntry: Send + Sync {
    /// The game's name, as configs and commands take it.
    fn name(&self) -> &'static str;
    /// One line on what the game is.
    fn about(&self) -> &'static str;
    /// The seat counts the game supports.
    fn seats(&self) -> RangeInclusive<usize>;
    /// The table options, with defaults and help.
    fn options(&self) -> &'static [ParamSpec];
    /// Every bot kind: the game's own, `external`, `human`, then any a plugin added.
    fn bots(&self) -> Vec<BotListing>;
    /// The parameter specs of a bot kind, if the game has it.
    fn bot_params(&self, kind: &str) -> Option<&'static [ParamSpec]>;
    /// The built-in roster text (`bots/<game>.toml`).
    fn roster(&self) -> &'static str;
    /// The game's micro-benchmarks for `arena bench`.
    fn benches(&self) -> Vec<Bench>;
    /// The `act` and `game_over` messages of the game's documented position
    /// ([`GameDef::PROTOCOL_EXAMPLE`]), by name, as the host writes them.
    fn protocol_examples(&self) -> Option<[(String, String); 2]>;
    /// Reads `text` as an action of the game on its default table at its fewest seats, or says
    /// why not (for the fuzz target of the protocol's answers: never a panic).
    fn parse_action(&self, text: &str) -> std::result::Result<(), String>;
    /// The bots `arena bench runner.end_to_end` seats ([`GameDef::BENCH_LINEUP`]).
    fn bench_lineup(&self) -> &'static [&'static str];
    /// The game's adviser (`arena advise`), if it has one.
    fn adviser(&self) -> Option<Adviser>;
    /// The game's engine protocol (`arena brain NAME`), if it has one.
    fn engine(&self) -> Option<EngineNames>;
    /// Serves one engine session with `bot` (a kind or roster name, with `--param` overrides) on
    /// the input and output `open` gives until the input ends; a manager that stops reading ends
    /// it quietly. The bot and table are checked before `open` is called (no connection is made
    /// for a bot that cannot play), and the input's lines are bounded (`BoundedLines`).
    fn serve_engine(&self, bot: &str, params: &[String], table: &[String], seed: u64, open: Open<'_>) -> Result<()>;
    /// The game's named tables ([`GameDef::TABLES`]).
    fn tables(&self) -> &'static [TablePreset];
    /// A table with `bots` available to seat; `options` already checked against [`Self::options`].
    /// `run_dir`: the run folder, where bots may keep logs (`None`: nothing is written).
    fn venue(
        &self,
        options: &Params,
        seats: usize,
        bots: &[BotChoice],
        run_dir: Option<&Path>,
    ) -> Result<Arc<dyn Venue>>;
    /// The formats of other programs' logs the game reads (`arena import`), with what each is.
    fn importers(&self) -> Vec<(&'static str, &'static str)>;
    /// Reads `files` with the game's importer of `format` ([`GameDef::importers`]) and plays each
    /// game's actions through the rules from its deal: its [`GameRecord`] (result, columns, the
    /// move record, the game in its first record format) as a game played here would have it.
    fn import(&self, format: &str, files: &[ImportFile]) -> Result<ImportedRun>;
    /// The game on a table of `options` (checked against [`Self::options`]) at `seats` seats,
    /// dealt from `seeds`, for a caller to play one action at a time (Python's `bot_arena.Game`).
    fn env(&self, options: &Params, seats: usize, seeds: &GameSeeds) -> Result<Box<dyn GameEnv>>;
    /// Adds the hosted bot kind ([`Arena::hosting`]) under `name`.
    fn add_hosted(&mut self, name: &'static str, about: &'static str);
    /// For [`Arena::bot`] and [`Arena::kinds`]: the concrete entry behind the trait.
    fn as_any(&self) -> &dyn Any;
    /// The concrete entry behind the trait, for changing it ([`Arena::bot`]).
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Checks the game's contract ([`crate::core::conformance`]) on `games` random games from `seed` at
    /// every seat count, on the default table and on one table for each other choice of each
    /// option; the error names the table.
    fn conformance(&self, games: u64, seed: u64) -> std::result::Result<Checked, String>;
    /// `arena check-bot`: the compliance run of a bot on this game speaking protocol `kind`
    /// (`jsonl`: external/check.rs; `gomocup`, gomoku's engines:
    /// `games::gomoku::gomocup_check`; any other kind of the game that runs a program, through
    /// the kind: external/check_kind.rs), on the table `table` sets (`name=value` options over
    /// the default) with the kind's parameters `params` (`name=value`); each check goes to
    /// `report` as it is decided.
    fn check_bot(
        &self,
        kind: &str,
        command: &[String],
        table: &[String],
        params: &[String],
        limits: CheckLimits,
        report: &mut dyn FnMut(&Check),
    ) -> Result<Vec<Check>>;
}

impl BotCatalog for dyn GameEntry + '_ {
    fn game_name(&self) -> &'static str {
        self.name()
    }
    fn roster_text(&self) -> &'static str {
        self.roster()
    }
    fn kind_params(&self, kind: &str) -> Option<&'static [ParamSpec]> {
        self.bot_params(kind)
    }
    fn kind_names(&self) -> Vec<&'static str> {
        self.bots().iter().map(|b| b.name).collect()
    }
}

/// Games played elsewhere ([`GameEntry::import`]), erased: [`Imported`] with each game scored.
pub struct ImportedRun {
    /// The table options, as a config's `[table]` gives them.
    pub options: toml::Table,
    /// Seats at the table of the imported games.
    pub seats: usize,
    /// The players, in the order the run lists them.
    pub players: Vec<String>,
    /// The bot kind each player is ([`crate::core::Importer::player_kind`]).
    pub player_kind: &'static str,
    /// The seed the logs name (the run's `seed`).
    pub seed: u64,
    /// What the logs say of themselves, for the command to print.
    pub notes: Vec<String>,
    /// The games in the order read.
    pub games: Vec<ImportedRecord>,
}

/// One imported game, played through the rules.
pub struct ImportedRecord {
    /// Its record (its `seed` left 0: the run gives it the seed of its place).
    pub record: GameRecord,
    /// The player in each seat (indexes into [`ImportedRun::players`]).
    pub players: Vec<usize>,
    /// Games of one key were dealt the same cards.
    pub deal: u64,
    /// Where it was read (`file:line`).
    pub place: String,
}

/// Plays an imported game's actions from its deal and scores it as [`record::rescore`] does.
fn score_imported<G: GameDef>(game: &G, played: ImportedGame<G>, players: &[String]) -> Result<ImportedRecord> {
    let ImportedGame { dealt, actions, players: seating, deal, place } = played;
    if seating.len() != game.seats() {
        return Err(Error::input(format!("{place}: {} players at a table of {}", seating.len(), game.seats())));
    }
    let mut state = dealt;
    let mut record = GameRecord::new();
    record.log.begin(game, &state);
    for action in &actions {
        let seat =
            game.to_act(&state).ok_or_else(|| Error::input(format!("{place}: an action after the game is over")))?;
        game.apply(&mut state, action).map_err(|e| {
            Error::input(format!("{place}: seat {seat}'s \"{}\" is illegal: {e}", game.action_text(action)))
        })?;
        record.moves += 1;
        record.log.action(game, seat, action, &state);
    }
    if let Some(seat) = game.to_act(&state) {
        return Err(Error::input(format!("{place}: the game stops with seat {seat} to act")));
    }
    record.log.end(game, &state);
    let outcome = game.outcome(&state);
    for seat in 0..game.seats() {
        game.record(&state, seat, &mut record.columns);
        record.seats.push(crate::core::SeatResult {
            payoff: outcome.payoff[seat],
            place: outcome.place[seat],
            adjusted: None,
            start: None,
            terms: Default::default(),
        });
    }
    let names: Vec<&str> = seating.iter().map(|&p| players[p].as_str()).collect();
    record.history = game.history(&state, &Played { names: &names, forfeit: None });
    Ok(ImportedRecord { record, players: seating, deal, place })
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

/// The table `--table NAME=VALUE` options give, over the game's defaults (or over the `preset`
/// they name, else `default_preset`), checked.
fn table_from_args<G: GameDef>(options: &[String], default_preset: Option<&str>) -> Result<Params> {
    let mut given = toml::Table::new();
    for option in options {
        let (name, value) = roster::assignment(option, "--table")?;
        given.insert(name, value);
    }
    TablePreset::expand(G::TABLES, G::NAME, &mut given, default_preset)?;
    Params::new(G::OPTIONS, &given, &format!("the {} table", G::NAME))
}

struct Seated<G: GameDef> {
    game: G,
    bots: Vec<BotFactory<G>>,
    entrants: Vec<Entrant>,
    options: Params,
    run: Option<RunFolder>,
}

impl<G: GameDef> Venue for Seated<G> {
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn columns(&self) -> &'static [&'static str] {
        self.game.columns()
    }
    fn adjusts(&self) -> bool {
        self.game.adjusts()
    }
    fn has_covariate(&self) -> bool {
        self.game.has_covariate()
    }
    fn history_extension(&self) -> Option<&'static str> {
        self.game.history_extension()
    }
    fn headline(&self) -> Headline {
        self.game.headline()
    }
    fn payoff_label(&self) -> &'static str {
        self.game.payoff_label()
    }
    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        self.game.report(games, names)
    }
    fn play_into(&self, lineup: &[usize], game: u64, seeds: &GameSeeds, keep: Keep, record: &mut GameRecord) {
        let mut bots: PerSeat<Box<dyn Bot<G>>> = per_seat(lineup.len(), |seat| (self.bots[lineup[seat]])());
        let entrants = per_seat(lineup.len(), |seat| &self.entrants[lineup[seat]]);
        let seating = Seating { entrants: &entrants, game, table: &self.options, run: self.run.as_ref() };
        play_game_into(&self.game, &mut bots, seeds, &seating, keep, record)
    }
    fn rescore(
        &self,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
    ) -> std::result::Result<GameRecord, Divergence> {
        record::rescore(&self.game, seeds, events, ending)
    }
    fn frames(
        &self,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
    ) -> std::result::Result<Vec<Frame>, Divergence> {
        record::frames(&self.game, seeds, events, ending)
    }
    fn engines(&self) -> BTreeMap<String, String> {
        self.run.as_ref().map(RunFolder::engines).unwrap_or_default()
    }
    fn record_formats(&self) -> &'static [RecordFormat] {
        self.game.record_formats()
    }
    fn export(
        &self,
        format: &str,
        seeds: &GameSeeds,
        events: &[Event],
        ending: Ending,
        played: &Played<'_>,
    ) -> std::result::Result<Option<String>, Divergence> {
        let replayed = record::replay(&self.game, seeds, events, ending)?;
        Ok(self.game.write_record(format, &replayed.state, played))
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
    fn tables(&self) -> &'static [TablePreset] {
        G::TABLES
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
    fn bench_lineup(&self) -> &'static [&'static str] {
        G::BENCH_LINEUP
    }
    fn parse_action(&self, text: &str) -> std::result::Result<(), String> {
        let options = Params::new(G::OPTIONS, &toml::Table::new(), G::NAME).map_err(|e| e.to_string())?;
        let game = G::from_options(&options, *G::SEATS.start()).map_err(|e| e.to_string())?;
        game.parse_action(text).map(drop).map_err(|e| e.to_string())
    }
    fn protocol_examples(&self) -> Option<[(String, String); 2]> {
        crate::external::examples::protocol_examples::<G>()
    }
    fn adviser(&self) -> Option<Adviser> {
        G::adviser()
    }
    fn engine(&self) -> Option<EngineNames> {
        G::engine().map(|e| e.names)
    }
    fn serve_engine(&self, bot: &str, params: &[String], table: &[String], seed: u64, open: Open<'_>) -> Result<()> {
        let engine = G::engine().ok_or_else(|| Error::input(format!("{} has no engine protocol", G::NAME)))?;
        let entry: &dyn GameEntry = self;
        let (kind, params) = roster::bot_from_args(entry, bot, params)?;
        let kind = self.kind(&kind).expect("the roster resolved a kind of this game").clone();
        let table = table_from_args::<G>(table, engine.table)?;
        let bot = EngineBot { name: bot.to_string(), kind, params, table };
        (engine.check)(&bot)?;
        let (input, mut output) = open()?;
        let mut input = BoundedLines::new(input);
        match (engine.serve)(bot, seed, &mut input, &mut *output) {
            // The manager is gone or has given up on the engine: the session is over, not failed.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(|e| Error::input(format!("{}: {e}", engine.names.protocol))),
        }
    }
    fn venue(
        &self,
        options: &Params,
        seats: usize,
        bots: &[BotChoice],
        run_dir: Option<&Path>,
    ) -> Result<Arc<dyn Venue>> {
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
        Ok(Arc::new(Seated {
            game,
            bots: factories,
            entrants,
            options: options.clone(),
            run: run_dir.map(RunFolder::new),
        }))
    }
    fn importers(&self) -> Vec<(&'static str, &'static str)> {
        G::importers().iter().map(|i| (i.format, i.about)).collect()
    }
    fn import(&self, format: &str, files: &[ImportFile]) -> Result<ImportedRun> {
        let importers = G::importers();
        let importer = importers
            .iter()
            .find(|i| i.format == format)
            .ok_or_else(|| Error::input(format!("{} imports no format {}", G::NAME, crate::error::shown(format))))?;
        let imported = (importer.read)(files)?;
        let options = Params::new(G::OPTIONS, &imported.options, G::NAME)?;
        let game = G::from_options(&options, imported.seats)?;
        let Imported { options, seats, players, seed, notes, games } = imported;
        let games = games.into_iter().map(|g| score_imported(&game, g, &players)).collect::<Result<Vec<_>>>()?;
        Ok(ImportedRun { options, seats, players, player_kind: importer.player_kind, seed, notes, games })
    }
    fn env(&self, options: &Params, seats: usize, seeds: &GameSeeds) -> Result<Box<dyn GameEnv>> {
        if !G::SEATS.contains(&seats) {
            return Err(Error::input(format!(
                "{} is played by {} to {} seats, not {seats}",
                G::NAME,
                G::SEATS.start(),
                G::SEATS.end()
            )));
        }
        let game = G::from_options(options, seats)?;
        Ok(Box::new(crate::external::env::Env::new(game, seeds)))
    }
    fn add_hosted(&mut self, name: &'static str, about: &'static str) {
        self.kinds.retain(|k| k.name != name);
        self.kinds.push(crate::external::hosted::kind::<G>(name, about));
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn check_bot(
        &self,
        kind: &str,
        command: &[String],
        table: &[String],
        params: &[String],
        limits: CheckLimits,
        report: &mut dyn FnMut(&Check),
    ) -> Result<Vec<Check>> {
        let table = table_from_args::<G>(table, None)?;
        let only_jsonl = |flag: &str| match params.is_empty() {
            true => Ok(()),
            false => Err(Error::input(format!("check-bot --param: the {flag} check has no parameters"))),
        };
        match kind {
            "jsonl" => {
                only_jsonl("jsonl")?;
                crate::external::check::check_jsonl::<G>(&table, command, limits, report)
            }
            // Gomocup is gomoku's engine protocol alone (the `gomocup` kind is gomoku's): its
            // check also asks what a run does not (RESTART, BOARD, END).
            "gomocup" if G::NAME == gomoku::Gomoku::NAME => {
                only_jsonl("gomocup")?;
                gomoku::gomocup_check::check(command, limits, report)
            }
            other => {
                let runs_a_program = |k: &&BotKind<G>| k.params.iter().any(|p| p.name == "command");
                let Some(bot_kind) = self.kind(other).filter(runs_a_program) else {
                    let mut known = vec!["jsonl"];
                    known.extend(self.kinds.iter().filter(runs_a_program).map(|k| k.name).filter(|k| *k != "external"));
                    return Err(Error::input(format!(
                        "check-bot --kind {}: {} bots do not speak it (they speak {})",
                        crate::error::shown(other),
                        G::NAME,
                        known.join(", ")
                    )));
                };
                // The check's limits, under the names the kind gives them.
                let mut given = toml::Table::new();
                let words = command.iter().map(|w| toml::Value::String(w.clone())).collect();
                given.insert("command".to_string(), toml::Value::Array(words));
                let set = [
                    ("start_ms", limits.start_ms),
                    ("move_ms", limits.move_ms),
                    ("turn_ms", limits.move_ms),
                    ("memory_mb", limits.memory_mb),
                ];
                for (name, value) in set {
                    if bot_kind.params.iter().any(|p| p.name == name) {
                        given.insert(name.to_string(), toml::Value::Integer(value as i64));
                    }
                }
                for param in params {
                    let (name, value) = roster::assignment(param, "--param")?;
                    given.insert(name, value);
                }
                let bot_params = Params::new(bot_kind.params, &given, &format!("bot kind {other}"))?;
                let seats = *G::SEATS.start();
                let game = G::from_options(&table, seats)?;
                let factory = (bot_kind.make)(&bot_params, &game)?;
                Ok(crate::external::check_kind::check_kind(&game, &table, seats, &factory, limits, report))
            }
        }
    }
    fn conformance(&self, games: u64, seed: u64) -> std::result::Result<Checked, String> {
        let mut checked = Checked::default();
        for (label, options) in option_variants(G::OPTIONS) {
            let options = Params::new(G::OPTIONS, &options, G::NAME).map_err(|e| e.to_string())?;
            for seats in G::SEATS {
                let table = format!("{} at {seats} seats{label}", G::NAME);
                let game = G::from_options(&options, seats).map_err(|e| format!("{table}: {e}"))?;
                checked += crate::core::conformance::check(&game, games, seed).map_err(|e| format!("{table}, {e}"))?;
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

impl Arena {
    /// The project's five games, in the order `arena list` shows them: the one place that lists them.
    pub fn standard() -> Arena {
        Arena::empty()
            .game::<holdem::Holdem>()
            .game::<stud::Stud>()
            .game::<zhajinhua::Zhajinhua>()
            .game::<gomoku::Gomoku>()
            .game::<mahjong::Mahjong>()
    }
}

/// Every game the command line knows, with their bot kinds: built once at start-up.
pub struct Arena {
    games: Vec<Box<dyn GameEntry>>,
    program: Option<Program>,
}

/// The program an arena runs in when it is not `arena` itself: a plugin's own name and version
/// ([`Arena::named`]), which run.json records beside the library's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Program {
    /// The program's name.
    pub name: String,
    /// The program's version.
    pub version: String,
}

impl Arena {
    /// No games at all (the standard set is [`Arena::standard`]).
    pub fn empty() -> Arena {
        Arena { games: Vec::new(), program: None }
    }

    /// Names the program this arena runs in, for run.json: a plugin passes its own
    /// `Arena::standard().named(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"))`, so that a
    /// run says which binary, with which bots, played it (the library's name and version alone
    /// would name `arena` for every plugin).
    pub fn named(mut self, name: &str, version: &str) -> Arena {
        self.program = Some(Program { name: name.to_string(), version: version.to_string() });
        self
    }

    /// The program named by [`Arena::named`] (`None` for `arena` itself).
    pub fn program(&self) -> Option<&Program> {
        self.program.as_ref()
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

    /// Adds to every game the hosted bot kind `name` ([`Host`]): bots that a program embedding
    /// the library (Python's `bot_arena`) registers with [`host`] and a config seats by that
    /// kind, naming the bot in its `object` parameter.
    pub fn hosting(mut self, name: &'static str, about: &'static str) -> Arena {
        for game in &mut self.games {
            game.add_hosted(name, about);
        }
        self
    }

    /// The games, in the order they were added (the order `arena list` shows).
    pub fn games(&self) -> impl Iterator<Item = &dyn GameEntry> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// The bot kinds of game `G` (its own and any added), for a command that seats one of them
    /// itself rather than through a [`Venue`] (`arena brain gomoku`); `None` when `G` is not here.
    pub fn kinds<G: GameDef>(&self) -> Option<&[BotKind<G>]> {
        let entry = self.games().find(|g| g.name() == G::NAME)?;
        entry.as_any().downcast_ref::<Registered<G>>().map(|r| r.kinds.as_slice())
    }

    /// The game called `name`.
    pub fn find(&self, name: &str) -> Result<&dyn GameEntry> {
        self.games().find(|g| g.name() == name).ok_or_else(|| {
            let known: Vec<&str> = self.games().map(|g| g.name()).collect();
            Error::input(format!("unknown game {} ({})", crate::error::shown(name), known_names(name, &known)))
        })
    }

    /// Every game's benchmarks, in game order.
    pub fn benches(&self) -> Vec<Bench> {
        self.games().flat_map(|g| g.benches()).collect()
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
            // Local best response answers one opponent: it is made for heads-up tables alone.
            const HEADS_UP_ONLY: &[&str] = &["lbr"];
            for seats in game.seats() {
                let fewest = seats == *game.seats().start();
                let seated: Vec<BotChoice> =
                    bots.iter().filter(|b| fewest || !HEADS_UP_ONLY.contains(&b.kind.as_str())).cloned().collect();
                let table =
                    game.venue(&options, seats, &seated, None).unwrap_or_else(|e| panic!("{}: {e}", game.name()));
                assert_eq!(table.seats(), seats);
            }
        }
    }
}
