use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::core::params::Params;
use crate::core::play::{per_seat, Entrant, PerSeat, Status};
use crate::core::seeds::{BotRng, DealRng};
use crate::core::wire::Texts;

/// A seat at the table, `0..game.seats()`. Seat 0 is the first to act in the deal's order
/// (black in gomoku, the dealer in mahjong, the button in hold'em).
pub type Seat = usize;

/// How a finished game ended for every seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// What each seat won (positive) or lost (negative), in the game's unit
    /// (big blinds, chips, points; +1/0/-1 for win/draw/loss games).
    pub payoff: PerSeat<f64>,
    /// 1 = first; seats that tie share a place.
    pub place: PerSeat<u32>,
}

impl Outcome {
    /// Places from payoffs (one per seat): the highest payoff is place 1, equal payoffs share a
    /// place.
    pub fn from_payoffs(payoffs: impl IntoIterator<Item = f64>) -> Outcome {
        let mut payoff = PerSeat::new();
        for p in payoffs {
            payoff.push(p);
        }
        let p = &payoff[..];
        let place = per_seat(p.len(), |seat| 1 + p.iter().filter(|&&q| q > p[seat]).count() as u32);
        Outcome { payoff, place }
    }
}

pub use crate::stats::Unit;

/// The payoff unit of the games whose payoff is a game's result (gomoku: +1 a win, -1 a loss; a
/// sit-and-go: +1 first to -1 last).
pub const POINTS_A_GAME: Unit = Unit::new("points/game", 1.0);

/// What the verdict on two bots leads with, stated by each game, and the unit of its payoffs. A
/// game of who wins is judged by Elo; a game of how much (chips, points) by the payoff difference,
/// since there the bot that wins more hands can be the one that loses more chips: its Elo, score
/// and LOS on games won are shown, labelled so, but never as the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Headline {
    /// Whether the verdict leads with Elo or with the payoff.
    pub leads: Leads,
    /// The unit a payoff verdict is counted in (bb/100, chips/hand, points/hand, points/game).
    pub unit: Unit,
    /// What one game is called in a sentence: `hand`, `game`, `round`.
    pub game: &'static str,
    /// The difference `arena compare` looks for when not told: its SPRT's H1 (H0 is no
    /// difference), in the unit (Elo on games won for a game judged by Elo). A clear edge at
    /// the game's stakes, so that a comparison of bots that differ decides in thousands of games.
    pub edge: f64,
}

/// The figure a verdict is given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leads {
    /// Wins, draws and losses: Elo, with its interval and LOS.
    Elo,
    /// The mean payoff difference, in the game's [`Unit`].
    Payoff,
}

impl Headline {
    /// A game judged by Elo, whose payoffs count in `unit`.
    pub const fn elo(unit: Unit) -> Headline {
        Headline { leads: Leads::Elo, unit, game: "game", edge: 20.0 }
    }

    /// A game judged by its payoff in `unit`.
    pub const fn payoff(unit: Unit) -> Headline {
        Headline { leads: Leads::Payoff, unit, game: "game", edge: 1.0 }
    }

    /// The same, with one game called `game` (`hand`).
    pub const fn called(self, game: &'static str) -> Headline {
        Headline { game, ..self }
    }

    /// The same, with `arena compare`'s default H1 at `edge`.
    pub const fn edge(self, edge: f64) -> Headline {
        Headline { edge, ..self }
    }

    /// Whether the verdict leads with Elo on games won (a game of who wins).
    pub fn is_elo(self) -> bool {
        self.leads == Leads::Elo
    }

    /// `n` games as a sentence counts them: `hand`, `hands`.
    pub fn games(self, n: u64) -> String {
        match n {
            1 => self.game.to_string(),
            _ => format!("{}s", self.game),
        }
    }
}

/// An action the rules do not allow here. The string says why, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction(pub String);

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The rules of one game with its table options fixed.
///
/// All chance is fixed in [`Game::deal`]: the deck, the wall or the opening are drawn from the deal
/// stream before anyone acts, so the same seed gives every seat the same cards whatever the bots do.
/// That is what makes paired (seat-rotated) replays possible. Simultaneous choices (mahjong claims
/// on a discard) are asked seat by seat through [`Game::to_act`]; a view never shows another seat's
/// pending answer.
///
/// # Example
///
/// One pile of stones; the seat to move takes one or two; whoever takes the last stone wins. The
/// rules are [`Game`]; [`Wire`](crate::core::Wire) writes views and actions as text, which
/// [`play_game`](crate::core::play_game) needs so that a record can be kept.
///
/// ```
/// use std::fmt::Display;
///
/// use bot_arena::core::wire::Texts;
/// use bot_arena::core::{play_game, Bot, BotRng, DealRng, Game, GameSeeds, IllegalAction, Outcome, Seat, Wire};
/// use serde::Serialize;
///
/// struct Nim {
///     stones: u32,
/// }
///
/// #[derive(Clone, Debug)]
/// struct Pile {
///     left: u32,
///     to_move: Seat,
///     winner: Option<Seat>,
/// }
///
/// impl Game for Nim {
///     type State = Pile;
///     /// Stones taken.
///     type Action = u32;
///     /// Nothing is hidden: every seat sees the pile.
///     type View<'a> = &'a Pile;
///
///     fn seats(&self) -> usize {
///         2
///     }
///     fn deal(&self, _rng: &mut DealRng) -> Pile {
///         Pile { left: self.stones, to_move: 0, winner: None }
///     }
///     fn to_act(&self, pile: &Pile) -> Option<Seat> {
///         pile.winner.is_none().then_some(pile.to_move)
///     }
///     fn legal_actions(&self, pile: &Pile, out: &mut Vec<u32>) {
///         out.clear(); // `out` holds the last call's list: it is reused
///         out.extend((1..=2).filter(|&take| take <= pile.left));
///     }
///     fn view<'a>(&self, pile: &'a Pile, _seat: Seat) -> &'a Pile {
///         pile
///     }
///     fn apply(&self, pile: &mut Pile, take: &u32) -> Result<(), IllegalAction> {
///         if !(1..=2).contains(take) || *take > pile.left {
///             return Err(IllegalAction(format!("cannot take {take} of {} stones", pile.left)));
///         }
///         pile.left -= take;
///         match pile.left {
///             0 => pile.winner = Some(pile.to_move),
///             _ => pile.to_move = 1 - pile.to_move,
///         }
///         Ok(())
///     }
///     fn outcome(&self, pile: &Pile) -> Outcome {
///         let winner = pile.winner.expect("asked once the game is over");
///         Outcome::from_payoffs((0..2).map(|seat| if seat == winner { 1.0 } else { -1.0 }))
///     }
///     fn forfeit(&self, _pile: &Pile, seat: Seat) -> Outcome {
///         Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }))
///     }
/// }
///
/// impl Wire for Nim {
///     fn view_json<'a, 'v>(&'a self, pile: &'a Self::View<'v>) -> impl Serialize + 'a {
///         serde_json::json!({ "left": pile.left })
///     }
///     fn write_legal(&self, pile: &Self::View<'_>, out: &mut Texts) {
///         (1..=pile.left.min(2)).for_each(|take| out.push(take));
///     }
///     fn action_text(&self, take: &u32) -> impl Display {
///         *take
///     }
///     fn parse_action(&self, text: &str) -> Result<u32, String> {
///         text.trim().parse().map_err(|_| format!("`{text}` is not a number of stones"))
///     }
///     fn reveal(&self, _pile: &Pile) -> impl Serialize {}
///     fn deal_json<'a>(&'a self, pile: &'a Pile) -> impl Serialize + 'a {
///         pile.left
///     }
/// }
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
/// // Ten stones: the first to move wins by leaving nine, then six, then three.
/// let nim = Nim { stones: 10 };
/// let mut bots: Vec<Box<dyn Bot<Nim>>> = vec![Box::new(Perfect), Box::new(One)];
/// let record = play_game(&nim, &mut bots, &GameSeeds::derive(1, 0, 0, 1), false);
/// assert_eq!((record.seats[0].place, record.seats[0].payoff), (1, 1.0));
/// assert_eq!((record.seats[1].place, record.seats[1].payoff), (2, -1.0));
/// ```
pub trait Game: Send + Sync + Sized + 'static {
    /// Everything, including hidden cards and the wall. Cloned to look ahead (search bots, the
    /// conformance check's trials of actions).
    type State: Send + Clone;
    /// One move of a seat. Compared with `==` to find it in the legal list, and cloned into the
    /// record.
    type Action: Clone + Debug + Send + PartialEq;
    /// What one seat may see. Bots get nothing else.
    type View<'a>;

    /// Number of seats at this table.
    fn seats(&self) -> usize;
    /// A new game, all chance drawn from `rng`.
    fn deal(&self, rng: &mut DealRng) -> Self::State;
    /// Deal number `index` of a pairing (every replay of a deal has the same number). Games whose
    /// chance is all in `rng` keep this default; a game that plays a list of starting positions in
    /// turn (gomoku's openings file) picks one by `index`.
    fn deal_numbered(&self, index: u64, rng: &mut DealRng) -> Self::State {
        let _ = index;
        self.deal(rng)
    }
    /// The seat that must act now; `None` once the game is over.
    fn to_act(&self, state: &Self::State) -> Option<Seat>;
    /// The legal actions of the seat to act, into `out` (cleared first: the caller reuses it, so
    /// that no list is allocated a move). Games with continuous choices (bet sizes) list a
    /// representative set; `apply` is the judge of legality.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);
    /// What `seat` may see.
    fn view<'a>(&self, state: &'a Self::State, seat: Seat) -> Self::View<'a>;
    /// Play `action` for the seat to act. Must leave `state` unchanged on error.
    fn apply(&self, state: &mut Self::State, action: &Self::Action) -> Result<(), IllegalAction>;
    /// The result of a finished game.
    fn outcome(&self, state: &Self::State) -> Outcome;
    /// The result when `seat` forfeits (its bot panicked or answered an illegal action) in `state`.
    /// The forfeiting seat must come out worst.
    fn forfeit(&self, state: &Self::State, seat: Seat) -> Outcome;

    /// Whether the game declares a starting strength ([`Game::covariate`]), so that a run can
    /// regress its payoffs on it (`estimator = "covariates"`: core/luck.rs).
    fn has_covariate(&self) -> bool {
        false
    }
    /// Into `out`, each seat's starting strength: a number that the seat's own holding at the
    /// deal (its hole cards, its first tiles) decides, larger for a better start, on any scale.
    /// The deal must hand the seats their holdings exchangeably (any holding as likely at any
    /// seat), so that a seat's strength minus the table's mean has mean zero exactly: that is
    /// what keeps the regression on it unbiased.
    fn covariate(&self, _state: &Self::State, _out: &mut [f64]) {}

    /// Whether the game has a value function ([`Game::value`]), so that a run can take the luck
    /// out of its payoffs (`estimator = "aivat"` or `"all-in"`: core/luck.rs).
    fn adjusts(&self) -> bool {
        false
    }
    /// How many chance events (cards dealt after the deal's start: a board card, a next card)
    /// `state` has revealed. Every state that follows reveals at least as many.
    fn revealed(&self, _state: &Self::State) -> usize {
        0
    }
    /// The value function of a game that [`Game::adjusts`]: into `out`, each seat's expected
    /// payoff at `state` if nobody bet again (the game checked down to its end), averaged over
    /// the chance events after the first `known` (at most [`Game::revealed`]`(state)`; those
    /// after `known` are treated as not yet fallen). At the end of a game with every chance
    /// known it is the outcome's payoff. `cache` keeps completions between calls of one game
    /// and holds its luck stream, for sampling when `exactness` allows it.
    fn value(
        &self,
        _state: &Self::State,
        _known: usize,
        _exactness: crate::core::luck::Exactness,
        _cache: &mut crate::core::luck::LuckCache,
        out: &mut [f64],
    ) {
        out.fill(0.0);
    }
    /// The cells the terms of the luck correction are counted in, apart (core/luck.rs): the
    /// run weighs each cell's terms by a coefficient fitted on the deals before, so that the
    /// betting still to come can scale a street's swing. One cell by default.
    fn luck_cells(&self) -> usize {
        1
    }
    /// The cell (below [`Game::luck_cells`]) of a term at `state`: the state a decision was
    /// made in, or the one whose chance is about to be revealed. It must follow from the
    /// betting alone (the street, the pot), never from a card not yet revealed: a coefficient
    /// then multiplies a term whose mean is zero given its cell, and the mean stays exact.
    fn luck_cell(&self, _state: &Self::State) -> usize {
        0
    }
    /// A second value function beside [`Game::value`], of the same arguments: each seat's
    /// expected payoff if every chip that can still go in went in (every seat still in all-in
    /// as far as the shortest stack goes) and the game were shown down. Its terms are counted
    /// in cells of their own; false (and `out` untouched) when the game has none.
    fn stake_value(
        &self,
        _state: &Self::State,
        _known: usize,
        _exactness: crate::core::luck::Exactness,
        _cache: &mut crate::core::luck::LuckCache,
        _out: &mut [f64],
    ) -> bool {
        false
    }

    /// Names of the game-specific columns of games.csv.
    fn columns(&self) -> &'static [&'static str] {
        &[]
    }
    /// The values of [`Game::columns`] for one seat of a finished (or forfeited) game.
    /// Written into one buffer for the whole record (push each value in turn, through its
    /// `Display`): no string is built per value.
    fn record(&self, _state: &Self::State, _seat: Seat, _out: &mut Texts) {}
    /// The file formats of the game's own community that a finished game can be written in
    /// ([`Game::write_record`]): `--hand-history` writes the first one as the game is played,
    /// `arena replay --export NAME` any of them from a run's records. Empty when the game has none.
    fn record_formats(&self) -> &'static [RecordFormat] {
        &[]
    }
    /// The game `state` (finished, or stopped by a forfeit) in the format named `format` (one of
    /// [`Game::record_formats`]); `None` for a format the game does not have.
    fn write_record(&self, _format: &str, _state: &Self::State, _played: &Played<'_>) -> Option<String> {
        None
    }
    /// The whole game in its community's record format (PHH for poker, Piskvork's psq for gomoku),
    /// when asked for with `--hand-history`: the first of [`Game::record_formats`].
    fn history(&self, state: &Self::State, played: &Played<'_>) -> Option<String> {
        self.write_record(self.record_formats().first()?.name, state, played)
    }
    /// The file extension of [`Game::history`] records (`phh` for one poker hand); `None` when
    /// the game has no such format (then `--hand-history` is refused).
    fn history_extension(&self) -> Option<&'static str> {
        self.record_formats().first().map(|f| f.extension)
    }
}

/// A file format of a game's community that the arena writes finished games in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordFormat {
    /// The name `arena replay --export` takes (`psq`, `sgf`, `phh`).
    pub name: &'static str,
    /// The file name's extension, without the dot (`sgf`).
    pub extension: &'static str,
    /// Whether a pairing's games go into one file, one after another (an SGF collection holds
    /// many games); otherwise each game is a file of its own.
    pub per_pairing: bool,
}

/// What a game record says besides the state: who sat where and how the game stopped. A writer
/// takes what it knows and leaves out the rest.
#[derive(Clone, Copy, Debug, Default)]
pub struct Played<'a> {
    /// The bots' names by seat; empty when not known.
    pub names: &'a [&'a str],
    /// The seat that forfeited, and why; `None` when the rules ended the game. (No move times:
    /// a record file is the same bytes for the same seeds, whether written live or exported.)
    pub forfeit: Option<(Seat, FaultKind)>,
}

/// What kind of fault lost a bot its game: the terminal counts forfeits by kind, games.csv's
/// reason starts with words that name it (`fault_kind` in report/games.rs reads it back), and
/// records.jsonl names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// Past a time limit of a decision: its clock (`tc`), a move (`move_ms`) or a game (`game_ms`).
    Time,
    /// Silent where no thought was asked for: no answer to the greeting of a new process within
    /// its start limit, or a program that stopped reading what the host writes.
    Stall,
    /// The bot's process exited, was killed, or could not be started.
    Crash,
    /// The bot's process went over its `memory_mb`.
    Memory,
    /// An answer that breaks the protocol: not JSON, too long, not an action.
    Protocol,
    /// An action the rules do not allow.
    Illegal,
    /// A built-in bot panicked.
    Panic,
}

impl FaultKind {
    /// Every kind, in the order of [`crate::report::BotSummary::faults`].
    pub const ALL: [FaultKind; 7] = [
        FaultKind::Time,
        FaultKind::Stall,
        FaultKind::Crash,
        FaultKind::Memory,
        FaultKind::Protocol,
        FaultKind::Illegal,
        FaultKind::Panic,
    ];

    /// The kind as games.csv's status names it (`illegal`, `time`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Time => "time",
            FaultKind::Stall => "stall",
            FaultKind::Crash => "crash",
            FaultKind::Memory => "memory",
            FaultKind::Protocol => "protocol",
            FaultKind::Illegal => "illegal",
            FaultKind::Panic => "panic",
        }
    }

    /// The kind a record names: its [`FaultKind::name`], or `timeout`, which records written
    /// before time losses were called `time` hold.
    pub fn named(name: &str) -> Option<FaultKind> {
        match name {
            "timeout" => Some(FaultKind::Time),
            _ => FaultKind::ALL.iter().copied().find(|k| k.name() == name),
        }
    }
}

/// Why a bot forfeits: its kind and the reason games.csv shows (`timeout 1000 ms`,
/// `exited with code 1`, `illegal action Fold: ...`).
///
/// A reason often quotes the bot (the illegal action it sent, the line it wrote), and it goes
/// into games.csv, into `game_over` to every other bot at the table and onto the terminal, once
/// a game: so it is cut at [`MAX_REASON_CHARS`] when it is made, the one way to make a fault (a
/// bot answering every move with a 1 MB action otherwise writes a megabyte a game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong, which decides the forfeit's column.
    pub kind: FaultKind,
    reason: String,
    /// The bot's program never answered (see [`Fault::at_start`]).
    at_start: bool,
    /// The seat whose bot the fault is, when not the one that met it ([`Fault::of_seat`]).
    seat: Option<Seat>,
}

/// The most characters a fault's reason (or another text a bot hands the host to keep, such as
/// a Gomocup engine's ABOUT) keeps; see [`bounded`].
pub const MAX_REASON_CHARS: usize = 200;

impl Fault {
    /// A fault of `kind`; a reason over [`MAX_REASON_CHARS`] characters is cut ([`bounded`]), and
    /// its control characters written as escapes (`printable`): a reason quotes a bot's text,
    /// which goes into games.csv, the summary and the terminal.
    pub fn new(kind: FaultKind, reason: impl Into<String>) -> Fault {
        Fault { kind, reason: bounded(printable(reason.into()), MAX_REASON_CHARS), at_start: false, seat: None }
    }

    /// The fault marked as the bot's in `seat`, though another seat's bot met it: local best
    /// response asks a copy of its opponent for the opponent's policy, and a wrong answer there
    /// is the opponent's fault, forfeiting the opponent's game.
    pub fn of_seat(self, seat: Seat) -> Fault {
        Fault { seat: Some(seat), ..self }
    }

    /// The seat [`Fault::of_seat`] named, if any.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// The fault marked as one of a program that never answered: it could not be started, it
    /// ended, or it stayed silent past its limit before its first answer (a spawn failure, an exit
    /// before `hello`, no `hello` in time; for a Botzone bot, its first turn of a game). A bot
    /// whose first games all end so cannot run at all, and a run stops rather than forfeit every
    /// game of it (tournament/start_watch.rs). A wrong answer is an answer: not marked.
    pub fn at_start(self) -> Fault {
        Fault { at_start: true, ..self }
    }

    /// Whether the bot's program never answered ([`Fault::at_start`]).
    pub fn is_at_start(&self) -> bool {
        self.at_start
    }

    /// Why, as games.csv shows it (after `forfeit: `): at most [`MAX_REASON_CHARS`] characters.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

/// `text` with each control character (NUL, escape, a line break, ...) written as its escape
/// (`\0`, `\u{1b}`, `\n`), every other character as it is.
pub fn printable(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .map(|c| match c.is_control() {
            true => c.escape_debug().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// `text` in at most `max` characters: a longer text is cut on a character boundary and ends
/// with `… (N bytes)`, N its whole length, so a reader sees that, and how much, was left out.
/// Cutting again changes nothing (the cut text is `max` characters long).
pub fn bounded(mut text: String, max: usize) -> String {
    // Fewer bytes than `max` means fewer characters: the common case costs one comparison.
    if text.len() <= max || text.chars().count() <= max {
        return text;
    }
    let tail = format!("… ({} bytes)", text.len());
    let keep = max.saturating_sub(tail.chars().count());
    let cut = text.char_indices().nth(keep).map_or(text.len(), |(at, _)| at);
    text.truncate(cut);
    text.push_str(&tail);
    text
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// What the host tells a bot as a game starts.
#[derive(Clone, Copy, Debug)]
pub struct GameStart<'a> {
    /// The seat the bot plays this game.
    pub seat: Seat,
    /// The game's index within its pairing (games.csv's `game`).
    pub game: u64,
    /// The bot's name in the run.
    pub name: &'a str,
    /// Every seat's player, by seat (a person at the table is told whom they play).
    pub players: &'a [&'a Entrant],
    /// The table's options, as the config gave them (defaults filled in).
    pub table: &'a Params,
    /// The run folder, for the bot's logs (`None` when nothing is written, as in benchmarks).
    pub run: Option<&'a RunFolder>,
}

/// The run folder as the bots see it: where they keep their logs, and what the programs behind
/// them said they are (a Gomocup engine's ABOUT), which the run's manifest records.
#[derive(Debug)]
pub struct RunFolder {
    dir: PathBuf,
    engines: Mutex<BTreeMap<String, String>>,
}

impl RunFolder {
    /// The run folder at `dir`, no program identified yet.
    pub fn new(dir: &Path) -> RunFolder {
        RunFolder { dir: dir.to_path_buf(), engines: Mutex::default() }
    }

    /// The run folder's path.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `logs/<bot>.log`: the log of the bot named `bot` in the run (a `/` in the name cannot
    /// leave the folder).
    pub fn log_path(&self, bot: &str) -> PathBuf {
        self.dir.join("logs").join(format!("{}.log", bot.replace(['/', '\\'], "_")))
    }

    /// `engines/<bot>/`: a folder the program behind bot `bot` may write in (a Gomocup engine's
    /// `INFO folder`; `--force` removes it whole).
    pub fn engine_dir(&self, bot: &str) -> PathBuf {
        self.dir.join("engines").join(bot.replace(['/', '\\'], "_"))
    }

    /// Records what the program behind bot `bot` says it is; the first answer is kept, cut at
    /// [`MAX_REASON_CHARS`] characters (it goes into run.json).
    pub fn identify(&self, bot: &str, about: &str) {
        let mut engines = self.engines.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        engines.entry(bot.to_string()).or_insert_with(|| bounded(about.to_string(), MAX_REASON_CHARS));
    }

    /// Every bot's program as it identified itself, by bot name.
    pub fn engines(&self) -> BTreeMap<String, String> {
        self.engines.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

/// How a game ended, as the host tells every bot that played it.
#[derive(Clone, Copy, Debug)]
pub struct GameEnd<'a> {
    /// Every seat's payoff and place.
    pub outcome: &'a Outcome,
    /// Whether the game ended by the rules, by a forfeit or in an engine error.
    pub status: &'a Status,
}

/// A player. It sees only its seat's view; its randomness comes from its own stream.
///
/// Only [`Bot::act`] is required. Bots with resources outside the process (a program spoken to
/// over a pipe) use the rest: [`Bot::start`] and [`Bot::finish`] frame every game, and
/// [`Bot::try_act`] is the decision as the host asks for it, which may fail with a [`Fault`]
/// (the seat then forfeits). The host times every decision and judges the time limits itself.
///
/// # Example
///
/// A bot for hold'em, a game the arena knows, seated against another with
/// [`play_game`](crate::core::play_game). To seat it in tournaments, name it with a
/// [`BotKind`](crate::core::BotKind) and add that with [`Arena::bot`](crate::Arena::bot) (the
/// crate's documentation runs one).
///
/// ```
/// use bot_arena::core::{play_game, Bot, BotRng, GameSeeds, Status};
/// use bot_arena::games::holdem::{Action, Holdem, View};
///
/// /// Checks or calls, whatever it holds.
/// struct CallingStation;
/// impl Bot<Holdem> for CallingStation {
///     fn act(&mut self, _game: &Holdem, _view: &View<'_>, _rng: &mut BotRng) -> Action {
///         Action::CheckCall
///     }
/// }
///
/// /// Makes the smallest raise the rules allow, else checks or calls.
/// struct MinRaiser;
/// impl Bot<Holdem> for MinRaiser {
///     fn act(&mut self, _game: &Holdem, view: &View<'_>, _rng: &mut BotRng) -> Action {
///         match view.raise_bounds() {
///             Some((least, _most)) => Action::RaiseTo(least),
///             None => Action::CheckCall,
///         }
///     }
/// }
///
/// // One cash hand, two seats, blinds 50/100, 10,000 chips each.
/// let game = Holdem::new(2, 50, 100, 10_000);
/// let mut bots: Vec<Box<dyn Bot<Holdem>>> = vec![Box::new(CallingStation), Box::new(MinRaiser)];
/// let record = play_game(&game, &mut bots, &GameSeeds::derive(7, 0, 0, 1), false);
/// assert!(matches!(record.status, Status::Ok), "no bot forfeited");
/// // Payoffs are in big blinds, and what one seat wins the other loses.
/// assert_eq!(record.seats[0].payoff + record.seats[1].payoff, 0.0);
/// ```
pub trait Bot<G: Game>: Send {
    /// The seat's move in `view`, which is never over. It must be one of
    /// [`Game::legal_actions`]; anything else forfeits the game. All of the bot's randomness comes
    /// from `rng`, so that a seed replays the game exactly.
    fn act(&mut self, game: &G, view: &G::View<'_>, rng: &mut BotRng) -> G::Action;

    /// A clock for the next decision only, given by an engine protocol's session (`arena brain`:
    /// a Gomocup manager's time limits), never by a tournament, where built-in bots stay
    /// deterministic: a bot that searches may stop at `deadline` with what it has. Default: no
    /// effect.
    fn think_until(&mut self, _deadline: Instant) {}

    /// Called once before the game's first decision. A bot that draws from `rng` here changes
    /// the numbers its decisions see, so built-in bots leave it alone.
    fn start(&mut self, _game: &G, _start: &GameStart<'_>, _rng: &mut BotRng) -> Result<(), Fault> {
        Ok(())
    }

    /// The decision the host asks for. `deadline`: when the seat's time runs out (its move or
    /// game limit); a bot that waits on something outside must give up by then.
    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        rng: &mut BotRng,
        _deadline: Option<Instant>,
    ) -> Result<G::Action, Fault> {
        Ok(self.act(game, view, rng))
    }

    /// The time the last decision was the bot's own, when the bot measures it itself: a program
    /// outside the process, from the request written to the answer read, less the time its
    /// process waited for a core (external/process.rs, core/play.rs's clock judges it).
    /// `None` (the default): the host's clock measures the decision whole.
    fn measured(&self) -> Option<Duration> {
        None
    }

    /// The most memory the bot's program has held so far, in bytes (its peak resident set), for
    /// a bot that runs a program outside the process; `None` (the default) for the others.
    fn peak_memory(&self) -> Option<u64> {
        None
    }

    /// The probabilities the last [`Bot::act`] drew its action from, as (action, probability)
    /// pairs summing to one, pushed onto `out` (left empty, the default, when the bot does not
    /// know them). A run that takes the luck out of its payoffs (AIVAT) uses them: a bot's coin
    /// flips then stop counting as luck of the game.
    fn policy(&self, _game: &G, _view: &G::View<'_>, _out: &mut Vec<(G::Action, f64)>) {}

    /// The probabilities the bot would act with at `view`, asked without acting: (action,
    /// probability) pairs summing to one, pushed onto `out`. The answer is a function of the view
    /// alone (a bot that samples, as rr's Monte Carlo does, seeds itself from what the view shows),
    /// so asking twice, or for every hand the seat could hold, gives the same answer, and asking
    /// changes none of the bot's own decisions. `false`, the default: the bot cannot say, and
    /// what needs a policy (`arena exploit`, exact best responses) refuses it.
    fn policy_at(&mut self, _game: &G, _view: &G::View<'_>, _out: &mut Vec<(G::Action, f64)>) -> bool {
        false
    }

    /// Why the last [`Bot::policy_at`] said `false` when the bot had said it can (a program over
    /// the protocol whose answer to `policy` was refused, or that stopped answering), taken.
    /// `None`, the default: the bot cannot say its policy at all.
    fn policy_fault(&mut self) -> Option<Fault> {
        None
    }

    /// Called once the game is over (also after a forfeit), for every bot whose `start` succeeded.
    fn finish(&mut self, _game: &G, _state: &G::State, _end: &GameEnd<'_>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_faults_control_characters_are_written_as_escapes() {
        let fault = Fault::new(FaultKind::Protocol, "answered `fold\0\u{1b}[31m\u{7}` \u{4e2d}\n");
        assert_eq!(fault.reason(), "answered `fold\\0\\u{1b}[31m\\u{7}` \u{4e2d}\\n");
        assert!(!fault.reason().chars().any(char::is_control));
    }

    #[test]
    fn a_long_reason_is_cut_on_a_character_with_its_length() {
        assert_eq!(Fault::new(FaultKind::Crash, "exited with code 1").reason(), "exited with code 1");
        let huge = format!("illegal action: `{}` is not an action", "x".repeat(1_000_000));
        let fault = Fault::new(FaultKind::Illegal, huge.clone());
        assert_eq!(fault.reason().chars().count(), MAX_REASON_CHARS);
        assert!(fault.reason().starts_with("illegal action: `xxx"), "{fault}");
        assert!(fault.reason().ends_with("x… (1000035 bytes)"), "{fault}");
        // Cutting a cut reason changes nothing (games.csv read back and written again).
        assert_eq!(Fault::new(FaultKind::Illegal, fault.reason()), fault);
        // Two-byte characters: cut between them, never inside one.
        let wide = bounded("é".repeat(300), 50);
        assert_eq!(wide.chars().count(), 50);
        assert!(wide.starts_with("éé") && wide.ends_with("é… (600 bytes)"), "{wide}");
        // At the limit, nothing is cut.
        assert_eq!(bounded("é".repeat(50), 50), "é".repeat(50));
    }

    #[test]
    fn what_an_engine_says_it_is_is_kept_short() {
        let run = RunFolder::new(Path::new("."));
        run.identify("engine", &"name=\"x\"".repeat(100_000));
        let about = &run.engines()["engine"];
        assert_eq!(about.chars().count(), MAX_REASON_CHARS);
        assert!(about.ends_with("… (800000 bytes)"), "{about}");
    }
}
