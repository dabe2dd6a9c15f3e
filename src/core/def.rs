//! What a game declares about itself ([`GameDef`]): its name, seats, options, bot kinds, roster,
//! benchmarks and adviser, all in the game's own `mod.rs`; and the bots a table is given
//! ([`BotKind`], [`BotFactory`], [`BotChoice`]). The registry (`crate::registry`) erases these
//! into the object-safe entries the tournament and the command line see.

use std::ops::RangeInclusive;
use std::sync::Arc;

use crate::core::bench::Bench;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::core::{Bot, DealRng, Game, Headline, Limits, ParamSpec, Params, Seat, Wire};
use crate::error::{Error, Result};

/// Builds a fresh bot for each game (bots keep per-game state; parameters are parsed once).
pub type BotFactory<G> = Arc<dyn Fn() -> Box<dyn Bot<G>> + Send + Sync>;

/// Wraps a bot constructor as a factory: `factory(move || MyBot::new(cfg.clone()))`.
pub fn factory<G: Game, B: Bot<G> + 'static>(make: impl Fn() -> B + Send + Sync + 'static) -> BotFactory<G> {
    Arc::new(move || Box::new(make()) as Box<dyn Bot<G>>)
}

/// One kind of bot of a game, with its documented parameters.
pub struct BotKind<G: Game> {
    /// The name a config's `kind` takes (`rr`, `search`).
    pub name: &'static str,
    /// One line on what the bot does, for `arena list`.
    pub about: &'static str,
    /// The parameters it takes, with defaults and help: checked before it is made.
    pub params: &'static [ParamSpec],
    /// Checks the parameters against the table and returns the factory.
    pub make: fn(&Params, &G) -> Result<BotFactory<G>>,
}

impl<G: Game> Clone for BotKind<G> {
    fn clone(&self) -> Self {
        BotKind { name: self.name, about: self.about, params: self.params, make: self.make }
    }
}

/// An adviser's answer erased: the text a person reads, and the same figures as one JSON document
/// (`arena advise GAME ... --json`). Both come from one value of the adviser's own type (its
/// `Display` and its `Serialize`), so they agree.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// The advice for a person, in sentences.
    pub text: String,
    /// The same advice as one JSON document.
    pub json: serde_json::Value,
}

impl Advice {
    /// The text and the JSON of one answer.
    pub fn of<T: serde::Serialize + std::fmt::Display>(answer: &T) -> Advice {
        let json = serde_json::to_value(answer).expect("an adviser's answer serialises");
        Advice { text: answer.to_string(), json }
    }
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
    /// An adviser whose arguments are the clap type `A` and whose answer, of type `T`, is printed
    /// as its `Display` text or, with `--json`, as its `Serialize` form.
    pub fn new<A, T>(about: &'static str, run: fn(&A) -> Result<T>) -> Adviser
    where
        A: clap::Args + clap::FromArgMatches + 'static,
        T: serde::Serialize + std::fmt::Display + 'static,
    {
        Adviser {
            about,
            args: A::augment_args,
            run: Box::new(move |matches| {
                let args = A::from_arg_matches(matches).map_err(|e| Error::input(e.to_string()))?;
                run(&args).map(|answer| Advice::of(&answer))
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

/// A named set of table options ([`GameDef::TABLES`]).
#[derive(Clone, Copy, Debug)]
pub struct TablePreset {
    /// The name `--table` and a config's `table = "..."` take.
    pub name: &'static str,
    /// One line on what table it is, for `arena list`.
    pub about: &'static str,
    /// The options it sets, as a config's `[table]` would (TOML); the rest keep their defaults.
    pub options: &'static str,
}

/// A bot of a game ready to be seated by an engine protocol: the name it gives itself, its kind,
/// its checked parameters, and the table it plays when the protocol does not say (the engine's
/// preset with `--table` options over it).
pub struct EngineBot<G: Game> {
    /// The name the bot gives itself to the manager.
    pub name: String,
    /// The kind of bot that plays.
    pub kind: BotKind<G>,
    /// Its parameters, checked.
    pub params: Params,
    /// The table options it plays when the protocol does not say.
    pub table: Params,
}

impl TablePreset {
    /// `given` (a config's `[table]`, or options from the command line) with the preset its
    /// `preset` key names (or `default`, when it names none) expanded under it: the options
    /// given win over the preset's. `game` names the game in the error.
    pub fn expand(presets: &[TablePreset], game: &str, given: &mut toml::Table, default: Option<&str>) -> Result<()> {
        let name = match given.remove("preset") {
            Some(toml::Value::String(name)) => name,
            Some(other) => return Err(Error::input(format!("[table] preset must be a name, not {other}"))),
            None => match default {
                Some(name) => name.to_string(),
                None => return Ok(()),
            },
        };
        let preset = presets.iter().find(|p| p.name == name).ok_or_else(|| {
            let known: Vec<&str> = presets.iter().map(|p| p.name).collect();
            let known = match known.is_empty() {
                true => "it has none".to_string(),
                false => crate::core::suggest::known_names(&name, &known),
            };
            Error::input(format!("{game} has no table preset `{name}` ({known})"))
        })?;
        let mut options: toml::Table = toml::from_str(preset.options).expect("a preset's options are TOML");
        options.extend(std::mem::take(given));
        *given = options;
        Ok(())
    }
}

impl<G: GameDef> EngineBot<G> {
    /// A bot on the game's default table.
    pub fn new(name: String, kind: BotKind<G>, params: Params) -> EngineBot<G> {
        let table = Params::new(G::OPTIONS, &toml::Table::new(), "the table").expect("the default table is valid");
        EngineBot { name, kind, params, table }
    }
}

/// Serves an engine session: the bot, its seed, the manager's input and the output to it.
pub type ServeFn<G> = fn(EngineBot<G>, u64, &mut dyn std::io::BufRead, &mut dyn std::io::Write) -> std::io::Result<()>;

/// What the command line shows of an engine protocol, whatever the game.
#[derive(Clone, Copy, Debug)]
pub struct EngineNames {
    /// The protocol's name, for `--help` and errors.
    pub protocol: &'static str,
    /// The program names the community's managers run: under `<prefix>arena` the program is this
    /// engine with `default_bot`, under `<prefix>arena-<bot>` with `<bot>` (Gomocup: `pbrain-`);
    /// `None` when the community's programs are started by a command line of their own (ACPC's).
    pub program_prefix: Option<&'static str>,
    /// The bot kind played under `<prefix>arena`, with no bot named.
    pub default_bot: &'static str,
}

/// A game's engine protocol (`arena brain GAME`): one of its bots plays for a manager over stdin
/// and stdout in the protocol of the game's community (gomoku: Gomocup's).
pub struct Engine<G: Game> {
    /// What the command line shows of the protocol.
    pub names: EngineNames,
    /// The [`GameDef::TABLES`] preset played when the protocol does not say what the table is
    /// (ACPC's states do not show the blinds or stacks); `None`: the game's defaults.
    pub table: Option<&'static str>,
    /// Builds the bot once, so that a bad value is an error before a manager starts a game.
    pub check: fn(&EngineBot<G>) -> Result<()>,
    /// Serves one session with the bot and the seed of its random stream, until the input ends.
    pub serve: ServeFn<G>,
}

/// A position a game shows its protocol messages for (docs/book/src/protocol.md): the table options (TOML),
/// the seats, and the actions played from the deal of seed 1.
#[derive(Clone, Copy, Debug)]
pub struct ProtocolExample {
    /// The table options (TOML, as a config's `[table]`).
    pub options: &'static str,
    /// Seats at the table.
    pub seats: usize,
    /// The actions played from the deal of seed 1, in the game's text, seat by seat as asked.
    pub script: &'static [&'static str],
}

/// What a game tells the registry about itself, all in the game's own `mod.rs`. Its [`Wire`]
/// encoding (in its own `wire.rs`) lets bots outside the process play it: every game gets the
/// `external` bot kind, and `human` for a person at the terminal.
///
/// # Example
///
/// The one-pile game of [`Game`]'s example (its rules hidden here), declared to the registry with
/// a table option and two bot kinds, held to the contract every game is held to, and played in a
/// tournament like any other game.
///
/// ```
/// use std::fmt::Display;
/// use std::ops::RangeInclusive;
///
/// use bot_arena::config::{Overrides, RunConfig, Source};
/// use bot_arena::core::wire::Texts;
/// use bot_arena::core::{factory, Bot, BotKind, BotRng, DealRng, Game, GameDef, Headline, IllegalAction, Outcome};
/// use bot_arena::core::{ParamSpec, Params, Seat, Wire, POINTS_A_GAME};
/// use bot_arena::tournament::launch::{Existing, Finished, Launch};
/// use bot_arena::tournament::runner::RunOptions;
/// use bot_arena::Arena;
/// use serde::Serialize;
///
/// # struct Nim {
/// #     stones: u32,
/// # }
/// #
/// # #[derive(Clone, Debug)]
/// # struct Pile {
/// #     left: u32,
/// #     to_move: Seat,
/// #     winner: Option<Seat>,
/// # }
/// #
/// # impl Game for Nim {
/// #     type State = Pile;
/// #     /// Stones taken.
/// #     type Action = u32;
/// #     /// Nothing is hidden: every seat sees the pile.
/// #     type View<'a> = &'a Pile;
/// #
/// #     fn seats(&self) -> usize {
/// #         2
/// #     }
/// #     fn deal(&self, _rng: &mut DealRng) -> Pile {
/// #         Pile { left: self.stones, to_move: 0, winner: None }
/// #     }
/// #     fn to_act(&self, pile: &Pile) -> Option<Seat> {
/// #         pile.winner.is_none().then_some(pile.to_move)
/// #     }
/// #     fn legal_actions(&self, pile: &Pile, out: &mut Vec<u32>) {
/// #         out.clear(); // `out` holds the last call's list: it is reused
/// #         out.extend((1..=2).filter(|&take| take <= pile.left));
/// #     }
/// #     fn view<'a>(&self, pile: &'a Pile, _seat: Seat) -> &'a Pile {
/// #         pile
/// #     }
/// #     fn apply(&self, pile: &mut Pile, take: &u32) -> Result<(), IllegalAction> {
/// #         if !(1..=2).contains(take) || *take > pile.left {
/// #             return Err(IllegalAction(format!("cannot take {take} of {} stones", pile.left)));
/// #         }
/// #         pile.left -= take;
/// #         match pile.left {
/// #             0 => pile.winner = Some(pile.to_move),
/// #             _ => pile.to_move = 1 - pile.to_move,
/// #         }
/// #         Ok(())
/// #     }
/// #     fn outcome(&self, pile: &Pile) -> Outcome {
/// #         let winner = pile.winner.expect("asked once the game is over");
/// #         Outcome::from_payoffs((0..2).map(|seat| if seat == winner { 1.0 } else { -1.0 }))
/// #     }
/// #     fn forfeit(&self, _pile: &Pile, seat: Seat) -> Outcome {
/// #         Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }))
/// #     }
/// # }
/// #
/// # impl Wire for Nim {
/// #     fn view_json<'a, 'v>(&'a self, pile: &'a Self::View<'v>) -> impl Serialize + 'a {
/// #         serde_json::json!({ "left": pile.left })
/// #     }
/// #     fn write_legal(&self, pile: &Self::View<'_>, out: &mut Texts) {
/// #         (1..=pile.left.min(2)).for_each(|take| out.push(take));
/// #     }
/// #     fn action_text(&self, take: &u32) -> impl Display {
/// #         *take
/// #     }
/// #     fn parse_action(&self, text: &str) -> Result<u32, String> {
/// #         text.trim().parse().map_err(|_| format!("`{text}` is not a number of stones"))
/// #     }
/// #     fn reveal(&self, _pile: &Pile) -> impl Serialize {}
/// #     fn deal_json<'a>(&'a self, pile: &'a Pile) -> impl Serialize + 'a {
/// #         pile.left
/// #     }
/// # }
///
/// /// Leaves the other seat a multiple of three when it can: the winning play.
/// struct Perfect;
/// impl Bot<Nim> for Perfect {
///     fn act(&mut self, _game: &Nim, pile: &&Pile, _rng: &mut BotRng) -> u32 {
///         if pile.left % 3 == 0 { 1 } else { pile.left % 3 }
///     }
/// }
///
/// /// Always takes one stone.
/// struct One;
/// impl Bot<Nim> for One {
///     fn act(&mut self, _game: &Nim, _pile: &&Pile, _rng: &mut BotRng) -> u32 {
///         1
///     }
/// }
///
/// impl GameDef for Nim {
///     const NAME: &'static str = "nim";
///     const ABOUT: &'static str = "one pile of stones; take one or two; the last stone wins";
///     const SEATS: RangeInclusive<usize> = 2..=2;
///     const OPTIONS: &'static [ParamSpec] =
///         &[ParamSpec::new("stones", "10", "stones in the pile at the start").range(1.0, 1000.0)];
///
///     fn from_options(options: &Params, _seats: usize) -> bot_arena::error::Result<Nim> {
///         Ok(Nim { stones: options.i64("stones") as u32 })
///     }
///     fn headline(&self) -> Headline {
///         // Who wins is the result: verdicts in Elo, payoffs +1 a win and -1 a loss.
///         Headline::elo(POINTS_A_GAME)
///     }
///     fn bot_kinds() -> Vec<BotKind<Nim>> {
///         vec![
///             BotKind { name: "perfect", about: "leaves a multiple of three", params: &[], make: |_, _| Ok(factory(|| Perfect)) },
///             BotKind { name: "one", about: "always takes one stone", params: &[], make: |_, _| Ok(factory(|| One)) },
///         ]
///     }
///     fn redeal_hidden(&self, _pile: &Pile, _seat: Seat, _rng: &mut DealRng) -> Option<Pile> {
///         None // nothing is hidden
///     }
///     fn conserved(&self, _pile: &Pile) -> Option<u64> {
///         None // no chips or tiles
///     }
/// }
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let arena = Arena::standard().game::<Nim>();
/// // Legal actions read back from their text, refusals that change nothing, forfeits worst,
/// // zero-sum payoffs, same seed same game: on every table the options allow.
/// let checked = arena.find("nim")?.conformance(20, 1)?;
/// assert!(checked.games > 0);
///
/// let text = r#"
///     game = "nim"
///     games = 10
///     bots = ["perfect", "one"]
///     [table]
///     stones = 10
/// "#;
/// let cfg = RunConfig::parse(&arena, &Source::file("nim.toml", text), "nim", &Overrides::default())?;
/// let dir = std::env::temp_dir().join(format!("bot-arena-doc-nim-{}", std::process::id()));
/// let launch = Launch::new_run(&arena, cfg, None, &dir, Existing::Replace, RunOptions::new(1))?;
/// let Finished::Played { report, .. } = launch.play()? else {
///     unreachable!("a new run has games to play")
/// };
/// // From ten stones the perfect player wins from either seat.
/// assert_eq!(report.verdicts.bots[0].wins, 10);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok(())
/// # }
/// ```
pub trait GameDef: Wire {
    /// The name configs and commands use for the game (`holdem`); unique in an [`crate::Arena`].
    const NAME: &'static str;
    /// One line on what the game is, for `arena list`.
    const ABOUT: &'static str;
    /// Seat counts the game supports.
    const SEATS: RangeInclusive<usize>;
    /// Table options (`[table]` in a config).
    const OPTIONS: &'static [ParamSpec];
    /// Named sets of table options (`preset = "name"` in a config's `[table]`): the tables the
    /// game's community plays, such as hold'em's ACPC tables.
    const TABLES: &'static [TablePreset] = &[];
    /// Named variants of the bots, as the text of a roster file (`bots/<game>.toml`), built into
    /// the binary; a `bots/<game>.toml` in the working folder adds to and overrides it.
    const ROSTER: &'static str = "";
    /// The two bots `arena bench runner.end_to_end` seats (cheap ones, so that what the harness
    /// adds to a game shows); empty: the game is not benched end to end.
    const BENCH_LINEUP: &'static [&'static str] = &[];
    /// The position whose `act` and `game_over` messages docs/book/src/protocol.md shows (the test of the
    /// document holds each to what the host writes); `None`: the document shows none.
    const PROTOCOL_EXAMPLE: Option<ProtocolExample> = None;
    /// Whether the payoffs of every game sum to zero (the conformance check holds the game to it).
    const ZERO_SUM: bool = true;
    /// Builds the game from its checked options and the chosen seat count.
    fn from_options(options: &Params, seats: usize) -> Result<Self>;
    /// What a verdict on this table leads with (it may depend on the options: hold'em cash is
    /// judged in bb/100, a sit-and-go by Elo).
    fn headline(&self) -> Headline;
    /// What one game's payoff is counted in, for the report's axes ("big blinds", "chips"); it
    /// may depend on the options.
    fn payoff_label(&self) -> &'static str {
        "payoff units"
    }
    /// One game's payoff in words for a person (`arena play`'s last screen), its unit named:
    /// by default the payoff with its sign and [`GameDef::payoff_label`] (`+24 points`); a game
    /// whose payoff is counted in something else than its table's own unit says both (hold'em:
    /// `+390 chips (+3.9 big blinds)`).
    fn payoff_text(&self, payoff: f64) -> String {
        crate::core::readable::signed_units(payoff, self.payoff_label())
    }
    /// The game's own section of report.html (in its own `report.rs`), from a run's games and
    /// its bots' names; empty (the default): the game has none.
    fn report(&self, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
        let _ = (games, names);
        Vec::new()
    }
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
    /// `arena brain NAME`, when the game has an engine protocol.
    fn engine() -> Option<Engine<Self>> {
        None
    }
    /// `state`, a game in progress, with every card or tile `seat` cannot see dealt anew from
    /// those it cannot see (the other seats' hidden cards, the rest of the deck or wall); what
    /// `seat` sees stays as it is. `None` when the game hides nothing. The conformance check
    /// ([`crate::core::conformance`]) asks that `seat`'s view of both states be the same: a view that
    /// changes shows something it should not.
    fn redeal_hidden(&self, state: &Self::State, seat: Seat, rng: &mut DealRng) -> Option<Self::State>;
    /// The chips or tiles the rules only move about (chips behind and in the pot; tiles in hands,
    /// sets, discards and the wall), counted: the conformance check asks that the count never
    /// changes within a game. `None` when the game has nothing of the kind.
    fn conserved(&self, state: &Self::State) -> Option<u64>;
    /// The formats of other programs' game logs the game reads (`arena import FORMAT FILE...`);
    /// empty (the default): none.
    fn importers() -> Vec<Importer<Self>> {
        Vec::new()
    }
}

/// A file given to an importer: its name (for errors) and its text.
#[derive(Clone, Debug)]
pub struct ImportFile {
    /// The file's name as given, for errors.
    pub name: String,
    /// Its whole text.
    pub text: String,
}

/// A reader of another program's game logs ([`GameDef::importers`]).
pub struct Importer<G: Game> {
    /// The name `arena import` takes (`acpc`).
    pub format: &'static str,
    /// One line on the format, for `arena import --help`.
    pub about: &'static str,
    /// The bot kind a player of these games is (hold'em's ACPC logs: `acpc`, the agent that
    /// played): the imported run's config.toml names each player with it.
    pub player_kind: &'static str,
    /// Reads the files, in the order given (a duplicate match is two logs), into games of ours;
    /// an error names the file and line.
    pub read: fn(&[ImportFile]) -> Result<Imported<G>>,
}

/// Games played elsewhere, read into the game's own terms.
pub struct Imported<G: Game> {
    /// The table options, as a config's `[table]` gives them.
    pub options: toml::Table,
    /// Seats at the table of the imported games.
    pub seats: usize,
    /// The players, in the order the run lists them.
    pub players: Vec<String>,
    /// The seed the log names (the run's `seed`).
    pub seed: u64,
    /// What the logs say of themselves that the command should print (the source's own totals).
    pub notes: Vec<String>,
    /// The games in the order read.
    pub games: Vec<ImportedGame<G>>,
}

/// One game played elsewhere: the deal, the actions and who sat where.
pub struct ImportedGame<G: Game> {
    /// The state right after the deal.
    pub dealt: G::State,
    /// The actions played, in order.
    pub actions: Vec<G::Action>,
    /// The player (an index into [`Imported::players`]) in each seat.
    pub players: Vec<usize>,
    /// The deal's key: games with one key were dealt the same cards (a duplicate match).
    pub deal: u64,
    /// Where the game was read from (`file:line`), for errors.
    pub place: String,
}

/// A bot chosen for a table: its name in the run, a kind of the game and its checked parameters
/// (its own and [`Limits::SPECS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BotChoice {
    /// The bot's name in the run (a roster variant's name, or the kind's).
    pub name: String,
    /// One of the game's bot kinds ([`BotKind::name`]).
    pub kind: String,
    /// Its parameters, checked against the kind's and the time limits' specs.
    pub params: Params,
}

impl BotChoice {
    /// What makes this bot's games depend on the machine they run on, in words; `None` when
    /// nothing does (then its games are the same bytes anywhere, at any load). A bot of a kind
    /// that runs a program (a `command` parameter) is the program's to answer, in its time; a
    /// time limit makes a loss on time depend on the machine's load.
    pub fn on_the_clock(&self) -> Option<String> {
        let mut why = Vec::new();
        if self.params.table().contains_key("command") {
            why.push("a program outside the process".to_string());
        }
        let limits = Limits::from_params(&self.params);
        let mut set = Vec::new();
        if let Some(tc) = limits.tc {
            set.push(format!("tc = {}", tc.text()));
        }
        if let Some(ms) = limits.move_ms {
            set.push(format!("move_ms = {ms}"));
        }
        if let Some(ms) = limits.game_ms {
            set.push(format!("game_ms = {ms}"));
        }
        if !set.is_empty() {
            why.push(format!("time limits ({}): a loss on time depends on the load", set.join(", ")));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// The parameter specs of a kind: its own, then the [`Limits::SPECS`] it does not declare.
    pub fn specs(kind: &[ParamSpec]) -> Vec<ParamSpec> {
        let general = Limits::SPECS.iter().filter(|g| kind.iter().all(|k| k.name != g.name));
        kind.iter().chain(general).copied().collect()
    }
}
