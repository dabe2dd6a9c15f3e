//! Playing one game: tell every bot the game starts, ask the seat to act for its action (timed by
//! the host), apply it, repeat, tell every bot how it ended. A bot that panics, fails, runs out of
//! time or answers an illegal action forfeits and the record says why. A panic of the game's own
//! code (dealing, applying, scoring) ends the game with no result: [`Status::Error`].

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

use crate::core::clock::Clock;
use crate::core::game::{Bot, Fault, FaultKind, Game, GameEnd, GameStart, Played, RunFolder, Seat};
use crate::core::luck::{centred_starts, Estimator, Luck};
use crate::core::params::{ParamSpec, Params};
use crate::core::record::GameLog;
use crate::core::seeds::GameSeeds;
use crate::core::wire::{Texts, Wire};

/// One seat's result.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatResult {
    /// What the seat won (negative: lost), in the game's payoff units.
    pub payoff: f64,
    /// 1 for the best result; seats that did equally well share a place.
    pub place: u32,
    /// The payoff with the luck taken out, when the run asks for it ([`Keep::luck`]) and the
    /// game has a value function (core/luck.rs).
    pub adjusted: Option<Adjusted>,
    /// The seat's starting strength minus the table's mean, when the run regresses on it
    /// ([`Estimator::starts`]) and the game declares one.
    pub start: Option<f64>,
    /// The seat's AIVAT terms by component, when the payoff is adjusted (empty otherwise): what
    /// the run's fit weighs (core/luck.rs).
    pub terms: crate::core::luck::Terms,
}

/// A seat's payoff adjusted for luck (core/luck.rs): unbiased estimates of the same mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjusted {
    /// Replaced by its expectation over the cards still to come once no decision was left.
    pub allin: f64,
    /// With AIVAT's corrections at every chance event and known policy.
    pub aivat: f64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// How a game ended.
pub enum Status {
    /// By the rules.
    Ok,
    /// `seat`'s bot panicked, failed, ran out of time or answered an illegal action.
    Forfeit {
        /// The seat that forfeited.
        seat: Seat,
        /// Why: its kind and the reason, for games.csv.
        reason: Fault,
    },
    /// The game's own code panicked (a bug of the engine, not of a bot): the game has no result
    /// and counts for nobody. The string is the panic's message.
    Error(String),
}

/// One value per seat, inline for tables of up to four seats (most games): a record's results
/// then sit in the record itself, which a run's writer reads game after game.
pub type PerSeat<T> = smallvec::SmallVec<[T; 4]>;

/// `f(seat)` for each of `seats` seats. Pushed one by one: `SmallVec`'s `collect` costs about a
/// hundred instructions for two seats, and a fast game builds several such lists.
#[inline]
pub fn per_seat<T>(seats: usize, mut f: impl FnMut(usize) -> T) -> PerSeat<T> {
    let mut out = PerSeat::new();
    for seat in 0..seats {
        out.push(f(seat));
    }
    out
}

/// Everything a finished game reports.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The seed of the game's streams, so that the game can be played again.
    pub seed: u64,
    /// Actions applied.
    pub moves: u32,
    /// How the game ended.
    pub status: Status,
    /// Indexed by seat.
    pub seats: PerSeat<SeatResult>,
    /// The values of the game's own columns, seat after seat, in one buffer (no string per
    /// value: a record is written thousands of times a second). [`GameRecord::extra`] gives a
    /// seat's.
    pub columns: Texts,
    /// The game record in its community's format, when asked for.
    pub history: Option<String>,
    /// The move-by-move record (records.jsonl), when asked for ([`Keep::moves`]); its event count
    /// is a forfeit's place in the record.
    pub log: GameLog,
    /// Every decision's time as the host measured it, in play order: (seat, time). Not part of
    /// the game's result: it differs from one run to the next.
    pub times: Vec<(Seat, Duration)>,
    /// What each seat had left on its clock when the game ended (a seat under `tc`): a machine
    /// measure, like `times`.
    pub clocks: PerSeat<Option<Duration>>,
    /// The most memory each seat's program held, in bytes (a bot outside the process): a
    /// machine measure, like `times`.
    pub memory: PerSeat<Option<u64>>,
}

impl GameRecord {
    /// An empty record with room for a usual game (a gomoku move list grows it once), to be
    /// filled by [`play_game_into`].
    pub fn new() -> GameRecord {
        GameRecord {
            seed: 0,
            moves: 0,
            status: Status::Ok,
            seats: PerSeat::new(),
            columns: Texts::with_capacity(256, 16),
            history: None,
            log: GameLog::default(),
            times: Vec::with_capacity(64),
            clocks: PerSeat::new(),
            memory: PerSeat::new(),
        }
    }

    /// Empties the record for game `seed`, keeping its buffers.
    fn clear(&mut self, seed: u64) {
        self.seed = seed;
        self.moves = 0;
        self.status = Status::Ok;
        self.seats.clear();
        self.columns.clear();
        self.history = None;
        self.log.clear();
        self.times.clear();
        self.clocks.clear();
        self.memory.clear();
    }

    /// The values of the game's own columns for `seat`.
    pub fn extra(&self, seat: Seat) -> impl Iterator<Item = &str> + Clone + '_ {
        let columns = self.seat_columns(seat);
        self.columns.iter().skip(columns.start).take(columns.len())
    }

    /// [`GameRecord::extra`] as bytes (for writing them out).
    pub fn extra_bytes(&self, seat: Seat) -> impl Iterator<Item = &[u8]> + '_ {
        self.columns.bytes_of(self.seat_columns(seat))
    }

    /// Which of `columns` are seat `seat`'s: each seat has the same number, seat after seat.
    fn seat_columns(&self, seat: Seat) -> std::ops::Range<usize> {
        let per_seat = self.columns.len() / self.seats.len().max(1);
        seat * per_seat..(seat + 1) * per_seat
    }
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new()
    }
}

/// What a record keeps besides the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// The game's own games.csv columns (a run that keeps no games file needs none).
    pub columns: bool,
    /// The game record in its community's format (`--hand-history`).
    pub history: bool,
    /// The move-by-move record (`--records moves`).
    pub moves: bool,
    /// How the run takes luck out: the adjusted payoffs (a game with a value function) or the
    /// starting strengths (a game that declares them) it needs kept.
    pub luck: Estimator,
}

impl Keep {
    /// The result alone.
    pub const RESULT: Keep = Keep { columns: false, history: false, moves: false, luck: Estimator::Plain };
    /// The result and the games.csv columns.
    pub const COLUMNS: Keep = Keep { columns: true, history: false, moves: false, luck: Estimator::Plain };
}

/// A bot's time limits, judged by the host's clock for every kind of bot: a decision over
/// `move_ms`, decisions adding up to more than `game_ms` in one game, or a clock (`tc`) run out
/// forfeit the game with [`FaultKind::Time`]; `margin_ms` is the overrun tolerated past any of them.
/// A bot outside the process is charged its own time ([`Bot::measured`]), not the host's waiting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most one decision may take, in milliseconds (`None`: no limit).
    pub move_ms: Option<u64>,
    /// The most a seat's decisions may take together in one game, in milliseconds.
    pub game_ms: Option<u64>,
    /// The game's clock: a base time and an increment after every move.
    pub tc: Option<TimeControl>,
    /// How far past a limit a decision may run and still count (its time is still charged).
    pub margin_ms: u64,
}

/// A time control as engine testers give one (`10+0.1`): `base` for the game, and `increment`
/// added to the clock after every move the bot makes in time (Fischer's clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time on the clock when the game starts.
    pub base: Duration,
    /// The time added to the clock after each move made in time.
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `10+0.1` (seconds for the game, `+` seconds a move; `10` alone: no increment), to the
    /// millisecond. `Err` says what is wrong, in words for a config's error line.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let wrong =
            || format!("must be a time control like \"10+0.1\" (seconds a game + seconds a move), not {text:?}");
        let (base, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let seconds = |t: &str| -> Option<Duration> {
            let t = t.trim();
            // Digits and one point only: no sign, exponent or `inf` slips through `f64`'s parser.
            let plain =
                !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.') && t.matches('.').count() <= 1;
            let s: f64 = t.parse().ok().filter(|_| plain)?;
            (s * 1000.0 <= Limits::MAX_MS).then(|| Duration::from_millis((s * 1000.0).round() as u64))
        };
        let (base, increment) = (seconds(base).ok_or_else(wrong)?, seconds(increment).ok_or_else(wrong)?);
        if base.is_zero() {
            return Err(format!("must give the game some time: {text:?} starts the clock at 0 s"));
        }
        Ok(TimeControl { base, increment })
    }

    /// As a config gives it: `10+0.1`.
    pub fn text(&self) -> String {
        format!("{}+{}", self.base.as_secs_f64(), self.increment.as_secs_f64())
    }
}

/// Checks a `tc` parameter's text (empty: no clock).
fn tc_form(text: &str) -> Result<(), String> {
    match text.is_empty() {
        true => Ok(()),
        false => TimeControl::parse(text).map(|_| ()),
    }
}

impl Limits {
    /// The parameters every bot kind takes besides its own (a kind may declare them itself to
    /// give them other defaults).
    pub const SPECS: &'static [ParamSpec] = &[
        ParamSpec::new("move_ms", "0", "longest decision in milliseconds; over it the bot forfeits (0: no limit)")
            .range(0.0, Limits::MAX_MS),
        ParamSpec::new("game_ms", "0", "milliseconds of decisions in one game; over it the bot forfeits (0: no limit)")
            .range(0.0, Limits::MAX_MS),
        ParamSpec::new(
            "tc",
            "\"\"",
            "a clock per game as engine testers give it: \"10+0.1\" is 10 s plus 0.1 s after every move; run out, the bot forfeits with `time` (\"\": none)",
        )
        .form(tc_form),
        ParamSpec::new("margin_ms", "0", "milliseconds a decision may run past `tc` or `move_ms` and still count (its time is still taken from the clock)")
            .range(0.0, Limits::MAX_MS),
    ];
    /// The longest limit that may be set: a day (longer is a typo, and would overflow no clock).
    pub const MAX_MS: f64 = 86_400_000.0;

    /// The limits set in `params` (absent or 0: none).
    pub fn from_params(params: &Params) -> Limits {
        let ms = |name: &str| params.table().get(name).and_then(|v| v.as_integer()).filter(|&v| v > 0);
        let tc = params.table().get("tc").and_then(|v| v.as_str()).and_then(|t| TimeControl::parse(t).ok());
        Limits {
            move_ms: ms("move_ms").map(|v| v as u64),
            game_ms: ms("game_ms").map(|v| v as u64),
            tc,
            margin_ms: ms("margin_ms").unwrap_or(0) as u64,
        }
    }

    /// When a decision that begins at `now()` must be over, the seat having used `used` so far.
    /// `now` is asked only when there is a limit (turning the clock's reading into an `Instant`
    /// costs a fast game more than the rest of its harness per decision).
    pub fn deadline(&self, now: impl FnOnce() -> Instant, used: Duration) -> Option<Instant> {
        self.deadline_on_clock(now, used, None)
    }

    /// [`Limits::deadline`] with `left` on the seat's clock (under `tc`); the margin is added.
    pub fn deadline_on_clock(
        &self,
        now: impl FnOnce() -> Instant,
        used: Duration,
        left: Option<Duration>,
    ) -> Option<Instant> {
        self.allowed(used, left).map(|d| now() + d)
    }

    /// How long the next decision may take: the least of its move limit, the rest of its game
    /// limit and its clock (margins included); `None` without a limit.
    pub fn allowed(&self, used: Duration, left: Option<Duration>) -> Option<Duration> {
        let per_move = self.move_ms.map(Duration::from_millis);
        let rest_of_game = self.game_ms.map(|ms| Duration::from_millis(ms).saturating_sub(used));
        let margin = Duration::from_millis(self.margin_ms);
        [per_move.map(|d| d + margin), rest_of_game, left.map(|d| d + margin)].into_iter().flatten().min()
    }

    /// The fault of a decision that took `took`, the seat having used `used` in the game with it;
    /// `answered`: whether an answer came at all (a bot outside the process is given up on at
    /// its deadline). The reason says by how much the limit was passed, which a bot's author
    /// needs to tell a hung bot from one a little slow.
    pub fn judge(&self, took: Duration, used: Duration, answered: bool) -> Option<Fault> {
        self.judge_on_clock(took, used, None, answered)
    }

    /// [`Limits::judge`] with `left` on the seat's clock before the decision (under `tc`).
    pub fn judge_on_clock(
        &self,
        took: Duration,
        used: Duration,
        left: Option<Duration>,
        answered: bool,
    ) -> Option<Fault> {
        let how = |limit: Duration, spent: Duration, what: &str| match answered {
            true => format!("answered after {}{what}", ms(spent)),
            false => format!("no answer (waited {}{what})", ms(spent.max(limit))),
        };
        let margin = Duration::from_millis(self.margin_ms);
        // A bot that gave up unanswered at its limit reached it: the limit itself is over.
        let over = |took: Duration, limit: Duration| took > limit || (!answered && took >= limit);
        if let Some(limit) = self.move_ms.filter(|&ms| over(took, Duration::from_millis(ms) + margin)) {
            let how = how(Duration::from_millis(limit), took, "");
            return Some(Fault::new(FaultKind::Time, format!("timeout {limit} ms: {how}")));
        }
        if let (Some(tc), Some(left)) = (self.tc, left.filter(|&left| over(took, left + margin))) {
            let how = how(left + margin, took, "");
            let margin = match self.margin_ms {
                0 => String::new(),
                m => format!(" and a margin of {m} ms"),
            };
            return Some(Fault::new(
                FaultKind::Time,
                format!("time: lost on time under {}: {how} with {} left on its clock{margin}", tc.text(), ms(left)),
            ));
        }
        let limit = self.game_ms.filter(|&ms| over(used, Duration::from_millis(ms)))?;
        let how = how(Duration::from_millis(limit), used, " in the game");
        Some(Fault::new(FaultKind::Time, format!("timeout {limit} ms per game: {how}")))
    }

    /// The seat's clock after a decision in time that took `took` with `left` on it: the time
    /// taken (never below zero, when the margin was used), then the increment.
    pub fn after_move(&self, left: Duration, took: Duration) -> Duration {
        let increment = self.tc.map_or(Duration::ZERO, |tc| tc.increment);
        left.saturating_sub(took) + increment
    }
}

/// A duration as a reason shows it: milliseconds, to a tenth (`1003.4 ms`), so that a limit
/// passed by less than one still shows as passed.
pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// A bot at the table as the host knows it: its name in the run and its time limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entrant {
    /// The bot's name in the run.
    pub name: String,
    /// Its time limits.
    pub limits: Limits,
}

/// Who plays one game and what they are told: `entrants[seat]`, the game's index in its
/// pairing, the table options and the run folder.
#[derive(Clone, Copy, Debug)]
pub struct Seating<'a> {
    /// Every seat's player, by seat.
    pub entrants: &'a [&'a Entrant],
    /// The game's index within its pairing.
    pub game: u64,
    /// The table options.
    pub table: &'a Params,
    /// The run folder, `None` when nothing is written (benchmarks).
    pub run: Option<&'a RunFolder>,
}

thread_local! {
    /// How many [`caught`] regions this thread is in: while one is, a panic's message goes to
    /// [`PANIC_MESSAGE`] for the record, not to stderr. A counter, not a slot swapped at every
    /// region: a fast game enters one per decision.
    static CAUGHT_DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The message of the panic being caught (panics do not overlap: the nearest region takes it).
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps panics during play quiet and hands their message to
/// the record.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CAUGHT_DEPTH.with(Cell::get) == 0 {
                return default(info);
            }
            let payload = info.payload();
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".to_string());
            PANIC_MESSAGE.with(|slot| *slot.borrow_mut() = Some(text));
        }));
    });
}

/// Runs `f` with panics caught quietly: `Err(message)` when it panicked.
fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CAUGHT_DEPTH.with(|depth| depth.set(depth.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    CAUGHT_DEPTH.with(|depth| depth.set(depth.get() - 1));
    result.map_err(|_| PANIC_MESSAGE.with(|slot| slot.borrow_mut().take()).unwrap_or_else(|| "panic".to_string()))
}

/// Applies `action` to `state`, adding the step's luck terms when the run adjusts its payoffs.
fn apply<G: Game>(
    game: &G,
    state: &mut G::State,
    action: &G::Action,
    luck: Option<&mut Luck>,
    policy: &[(G::Action, f64)],
) -> Result<(), crate::core::IllegalAction> {
    let Some(luck) = luck else { return game.apply(state, action) };
    let before = state.clone();
    game.apply(state, action)?;
    luck.step(game, &before, action, state, policy);
    Ok(())
}

/// Runs `f` as bot code: a panic becomes a [`FaultKind::Panic`] fault.
fn guarded<T>(f: impl FnOnce() -> Result<T, Fault>) -> Result<T, Fault> {
    caught(f).unwrap_or_else(|message| Err(Fault::new(FaultKind::Panic, format!("panic: {message}"))))
}

/// Plays one game with no names, no limits and no table options to tell the bots (tests,
/// benchmarks). `bots[seat]` plays `seat`. `history`: also write the game record.
pub fn play_game<G: Wire>(game: &G, bots: &mut [Box<dyn Bot<G>>], seeds: &GameSeeds, history: bool) -> GameRecord {
    play_kept(game, bots, seeds, Keep { columns: true, history, moves: false, luck: Estimator::Plain })
}

/// [`play_game`] keeping what `keep` says (the move record, say).
pub fn play_kept<G: Wire>(game: &G, bots: &mut [Box<dyn Bot<G>>], seeds: &GameSeeds, keep: Keep) -> GameRecord {
    let entrant = Entrant::default();
    let entrants = vec![&entrant; bots.len()];
    let table = Params::default();
    let seating = Seating { entrants: &entrants, game: 0, table: &table, run: None };
    let mut record = GameRecord::new();
    play_game_into(game, bots, seeds, &seating, keep, &mut record);
    record
}

/// Plays one game. `bots[seat]` plays `seat`, as `seating.entrants[seat]`.
pub fn play_game_with<G: Wire>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    seeds: &GameSeeds,
    seating: &Seating<'_>,
    history: bool,
) -> GameRecord {
    let mut record = GameRecord::new();
    play_game_into(
        game,
        bots,
        seeds,
        seating,
        Keep { columns: true, history, moves: false, luck: Estimator::Plain },
        &mut record,
    );
    record
}

/// [`play_game_with`] writing into `record`, whose buffers are reused: a run plays millions of
/// games through a few batches of records and allocates none of them again. `keep`: what the
/// record holds besides the result.
pub fn play_game_into<G: Wire>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    seeds: &GameSeeds,
    seating: &Seating<'_>,
    keep: Keep,
    record: &mut GameRecord,
) {
    install_panic_hook();
    let seats = game.seats();
    assert!(bots.len() == seats && seating.entrants.len() == seats, "one bot per seat");
    record.clear(seeds.deal);
    if let Err(message) = caught(|| play_unguarded(game, bots, seeds, seating, keep, record)) {
        record.clear(seeds.deal);
        record.status = Status::Error(message);
        record.seats.resize(
            seats,
            SeatResult { payoff: 0.0, place: 0, adjusted: None, start: None, terms: Default::default() },
        );
        if keep.columns {
            let luck_columns = luck_columns(game, keep.luck).len();
            (0..seats * (luck_columns + game.columns().len())).for_each(|_| record.columns.push_str(""));
        }
    }
}

/// The columns `luck` adds before `game`'s own in games.csv: none when the game cannot give
/// what it needs.
fn luck_columns<G: Game>(game: &G, luck: Estimator) -> &'static [&'static str] {
    let able = (luck.adjusts() && game.adjusts()) || (luck.starts() && game.has_covariate());
    if able {
        luck.columns()
    } else {
        &[]
    }
}

/// [`play_game_into`] where the game's own code may panic (the caller catches it).
fn play_unguarded<G: Wire>(
    game: &G,
    bots: &mut [Box<dyn Bot<G>>],
    seeds: &GameSeeds,
    seating: &Seating<'_>,
    keep: Keep,
    record: &mut GameRecord,
) {
    let seats = game.seats();
    let mut state = game.deal_numbered(seeds.deal_index, &mut seeds.deal_rng());
    if keep.moves {
        record.log.begin(game, &state);
    }
    let mut luck = (keep.luck.adjusts() && game.adjusts()).then(|| Luck::for_estimator(seats, seeds.deal, keep.luck));
    let mut starts: PerSeat<f64> = PerSeat::new();
    if keep.luck.starts() && game.has_covariate() {
        starts.resize(seats, 0.0);
        centred_starts(game, &state, &mut starts);
    }
    let mut policy = Vec::new();
    let mut rngs = per_seat(seats, |seat| seeds.bot_rng(seat));
    let rngs = &mut rngs[..];
    let mut status = Status::Ok;
    let mut started = 0;
    for (seat, bot) in bots.iter_mut().enumerate() {
        let start = GameStart {
            seat,
            game: seating.game,
            name: &seating.entrants[seat].name,
            players: seating.entrants,
            table: seating.table,
            run: seating.run,
        };
        if let Err(reason) = guarded(|| bot.start(game, &start, &mut rngs[seat])) {
            status = Status::Forfeit { seat: reason.seat().unwrap_or(seat), reason };
            break;
        }
        started += 1;
    }
    let mut moves = 0u32;
    let mut used = per_seat(seats, |_| Duration::ZERO);
    let used = &mut used[..];
    let mut left = per_seat(seats, |seat| seating.entrants[seat].limits.tc.map(|tc| tc.base));
    let left = &mut left[..];
    let times = &mut record.times;
    // One clock read a decision: a decision runs from the end of the one before (or the game's
    // start) to its answer, so it also counts the engine's turn in between (microseconds at
    // most, the same for every bot). Reading the clock twice a decision cost a sixth of a fast
    // game.
    let clock = Clock::get();
    let mut began = clock.now();
    while status == Status::Ok {
        let Some(seat) = game.to_act(&state) else { break };
        let limits = seating.entrants[seat].limits;
        let view = game.view(&state, seat);
        let deadline = limits.deadline_on_clock(|| clock.instant(began), used[seat], left[seat]);
        let asked = guarded(|| bots[seat].try_act(game, &view, &mut rngs[seat], deadline));
        let answered = clock.now();
        // A bot that measures its own time (a program outside: from its request written to its
        // answer read) is charged that, not the host's waiting around it.
        let mut took = bots[seat].measured().unwrap_or_else(|| clock.between(began, answered));
        began = answered;
        // A bot that gave up at its deadline (its own clock ran out, counted from its request
        // written, a moment after the host's) used all it was allowed.
        if matches!(&asked, Err(fault) if fault.kind == FaultKind::Time) {
            took = took.max(limits.allowed(used[seat], left[seat]).unwrap_or(Duration::ZERO));
        }
        if luck.is_some() {
            policy.clear();
            if asked.is_ok() {
                let _ = guarded(|| {
                    bots[seat].policy(game, &view, &mut policy);
                    Ok(())
                });
            }
        }
        drop(view);
        used[seat] += took;
        times.push((seat, took));
        // The host's clock decides first: an answer that came too late does not count.
        let answered = !matches!(&asked, Err(fault) if fault.kind == FaultKind::Time);
        let judged = limits.judge_on_clock(took, used[seat], left[seat], answered);
        left[seat] = left[seat].map(|on_clock| match judged {
            None => limits.after_move(on_clock, took),
            Some(_) => on_clock.saturating_sub(took), // lost on time (or another limit): what it had
        });
        let reason = match (judged, asked) {
            // The host's clock names the limit; a program that never answered stays one.
            (Some(timeout), Err(fault)) if fault.is_at_start() => timeout.at_start(),
            (Some(timeout), _) => timeout,
            (None, Err(fault)) => fault,
            (None, Ok(action)) => match apply(game, &mut state, &action, luck.as_mut(), &policy) {
                Ok(()) => {
                    moves += 1;
                    if keep.moves {
                        record.log.action(game, seat, &action, &state);
                    }
                    continue;
                }
                Err(illegal) => {
                    let text = game.action_text(&action);
                    Fault::new(FaultKind::Illegal, format!("illegal action \"{text}\": {illegal}"))
                }
            },
        };
        // A fault another seat's bot met on this one's behalf (LBR's copy of its opponent) is
        // the bot's whose it is.
        status = Status::Forfeit { seat: reason.seat().unwrap_or(seat), reason };
    }
    let outcome = match &status {
        Status::Forfeit { seat, .. } => game.forfeit(&state, *seat),
        _ => game.outcome(&state),
    };
    let end = GameEnd { outcome: &outcome, status: &status };
    // The clocks as the game left them.
    record.clocks.extend(left.iter().copied());
    for bot in &mut bots[..started] {
        // A bot that fails here has played its game; what it does next is the next game's concern.
        let _ = guarded(|| {
            bot.finish(game, &state, &end);
            Ok(())
        });
    }
    // The programs' memory, as each last saw it (a bot outside looks as it puts its program away).
    record.memory.extend(bots.iter().map(|bot| bot.peak_memory()));
    for seat in 0..seats {
        let payoff = outcome.payoff[seat];
        // A forfeited game's payoff is the forfeit's, which no value function describes: it
        // stands as it is.
        let adjusted = luck.as_ref().map(|luck| match status {
            Status::Ok => luck.adjusted(seat, payoff),
            _ => Adjusted { allin: payoff, aivat: payoff },
        });
        let start = starts.get(seat).copied();
        // A forfeited game stands as it fell: no terms.
        let terms = match (&luck, &status) {
            (Some(luck), Status::Ok) => luck.terms(seat),
            _ => Default::default(),
        };
        if keep.columns {
            if let Some(a) = adjusted {
                record.columns.push(a.allin);
                record.columns.push(a.aivat);
                record.columns.push(&terms);
            }
            if let Some(x) = start {
                record.columns.push(x);
            }
            game.record(&state, seat, &mut record.columns);
        }
        record.seats.push(SeatResult { payoff, place: outcome.place[seat], adjusted, start, terms });
    }
    record.history = if keep.history {
        let names: PerSeat<&str> = per_seat(seats, |seat| seating.entrants[seat].name.as_str());
        let forfeit = match &status {
            Status::Forfeit { seat, reason } => Some((*seat, reason.kind)),
            _ => None,
        };
        game.history(&state, &Played { names: &names, forfeit })
    } else {
        None
    };
    if keep.moves {
        record.log.end(game, &state);
    }
    record.moves = moves;
    record.status = status;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{BotRng, DealRng, Game, IllegalAction, Outcome};
    use crate::core::{Entrant, Limits, Seating};
    use rand::Rng;

    /// Two seats take turns saying a number; seat 0 must say an even number, seat 1 an odd one;
    /// after four numbers the larger sum wins. The deal picks a bonus for seat 1.
    struct Count;

    #[derive(Clone)]
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
            // An engine bug, for the test of engine errors.
            assert!(*a != 10, "the engine cannot count to ten");
            if a % 2 != (s.said.len() % 2) as u32 {
                return Err(IllegalAction(format!("{a} has the wrong parity")));
            }
            s.said.push(*a);
            Ok(())
        }
        fn outcome(&self, s: &CountState) -> Outcome {
            let sum = |seat: usize| s.said.iter().skip(seat).step_by(2).sum::<u32>() as f64;
            let (a, b) = (sum(0), sum(1) + s.bonus as f64);
            Outcome::from_payoffs([(a - b).signum(), (b - a).signum()])
        }
        fn forfeit(&self, _s: &CountState, seat: Seat) -> Outcome {
            Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }))
        }
    }

    /// The numbers as the record writes them.
    impl Wire for Count {
        fn view_json<'a, 'v>(&'a self, view: &'a Self::View<'v>) -> impl serde::Serialize + 'a {
            &view.said
        }
        fn write_legal(&self, view: &&CountState, out: &mut Texts) {
            let mut legal = Vec::new();
            self.legal_actions(view, &mut legal);
            legal.iter().for_each(|n| out.push(n));
        }
        fn action_text(&self, action: &u32) -> impl std::fmt::Display {
            *action
        }
        fn parse_action(&self, text: &str) -> Result<u32, String> {
            text.trim().parse().map_err(|_| format!("`{text}` is not a number"))
        }
        fn reveal(&self, state: &CountState) -> impl serde::Serialize {
            state.said.len()
        }
        fn deal_json<'a>(&'a self, state: &'a CountState) -> impl serde::Serialize + 'a {
            state.bonus
        }
    }

    enum Behaviour {
        Legal,
        Panics,
        Cheats,
        /// Plays legally after sleeping this many milliseconds.
        Sleeps(u64),
        /// Plays its first move at once, the others after sleeping this many milliseconds.
        SleepsAfterFirst(u64),
        /// Says 10, on which the engine panics.
        SaysTen,
    }

    struct Player(Behaviour);

    impl Bot<Count> for Player {
        fn act(&mut self, _g: &Count, s: &&CountState, rng: &mut BotRng) -> u32 {
            let parity = (s.said.len() % 2) as u32;
            match self.0 {
                Behaviour::Legal => 2 * rng.random_range(0..5) + parity,
                Behaviour::Panics => panic!("bot bug"),
                Behaviour::Cheats => 1 - parity,
                Behaviour::Sleeps(ms) => {
                    std::thread::sleep(Duration::from_millis(ms));
                    parity
                }
                Behaviour::SaysTen => 10,
                Behaviour::SleepsAfterFirst(ms) => {
                    if s.said.len() > 1 {
                        std::thread::sleep(Duration::from_millis(ms));
                    }
                    parity
                }
            }
        }
    }

    fn play(a: Behaviour, b: Behaviour, seed: u64) -> GameRecord {
        let mut bots: Vec<Box<dyn Bot<Count>>> = vec![Box::new(Player(a)), Box::new(Player(b))];
        play_game(&Count, &mut bots, &GameSeeds::derive(seed, 0, 0, 1), false)
    }

    /// Plays seat 0 `Legal` against seat 1 `b` under `limits` for seat 1.
    fn play_limited(b: Behaviour, limits: Limits) -> GameRecord {
        let mut bots: Vec<Box<dyn Bot<Count>>> = vec![Box::new(Player(Behaviour::Legal)), Box::new(Player(b))];
        let (free, limited) = (Entrant::default(), Entrant { name: "limited".into(), limits });
        let table = Params::default();
        let seating = Seating { entrants: &[&free, &limited], game: 3, table: &table, run: None };
        play_game_with(&Count, &mut bots, &GameSeeds::derive(1, 0, 3, 1), &seating, false)
    }

    #[test]
    fn a_decision_over_move_ms_forfeits_whatever_the_bot() {
        let r = play_limited(Behaviour::Sleeps(30), Limits { move_ms: Some(10), ..Limits::default() });
        // It answered, late: the reason says when.
        let Status::Forfeit { seat: 1, reason } = &r.status else { panic!("{:?}", r.status) };
        assert!(reason.reason().starts_with("timeout 10 ms: answered after "), "{reason}");
        let after: f64 =
            reason.reason()["timeout 10 ms: answered after ".len()..].trim_end_matches(" ms").parse().unwrap();
        assert!(after >= 30.0, "{reason}");
        assert_eq!(r.moves, 1);
        assert_eq!(r.times.len(), 2);
        assert!(r.times[1].0 == 1 && r.times[1].1 >= Duration::from_millis(30), "{:?}", r.times);
        // Under the limit, the same bot plays the game out.
        assert_eq!(
            play_limited(Behaviour::Sleeps(1), Limits { move_ms: Some(1000), ..Limits::default() }).status,
            Status::Ok
        );
    }

    fn clock(tc: &str, margin_ms: u64) -> Limits {
        Limits { tc: Some(TimeControl::parse(tc).unwrap()), margin_ms, ..Limits::default() }
    }

    #[test]
    fn a_clock_run_out_loses_on_time_and_an_increment_or_a_margin_saves_it() {
        // 50 ms for the game, 30 ms a move: the second move does not fit.
        let r = play_limited(Behaviour::Sleeps(30), clock("0.05", 0));
        let Status::Forfeit { seat: 1, reason } = &r.status else { panic!("{:?}", r.status) };
        assert_eq!(reason.kind, FaultKind::Time);
        assert!(reason.reason().starts_with("time: lost on time under 0.05+0: answered after "), "{reason}");
        assert!(reason.reason().ends_with(" left on its clock"), "{reason}");
        assert_eq!(r.clocks[0], None, "seat 0 has no clock");
        // With 100 ms added after every move the same bot plays on, and its clock shows it.
        let r = play_limited(Behaviour::Sleeps(30), clock("0.2+0.1", 0));
        assert_eq!(r.status, Status::Ok);
        let left = r.clocks[1].unwrap();
        assert!(left > Duration::from_millis(200) && left <= Duration::from_millis(340), "{left:?}");
        // A margin lets a decision past the clock count; the clock stops at zero.
        let r = play_limited(Behaviour::Sleeps(30), clock("0.05", 1000));
        assert_eq!(r.status, Status::Ok);
        assert_eq!(r.clocks[1], Some(Duration::ZERO));
    }

    #[test]
    fn a_time_control_is_read_as_testers_write_it() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!((tc.base, tc.increment), (Duration::from_secs(10), Duration::from_millis(100)));
        assert_eq!(tc.text(), "10+0.1");
        assert_eq!(TimeControl::parse("60").unwrap().increment, Duration::ZERO);
        for bad in ["", "+1", "10+", "-1+0", "1e3", "inf", "10+0.1+2", "0+1", "ten"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn decisions_over_game_ms_forfeit() {
        let r = play_limited(Behaviour::SleepsAfterFirst(60), Limits { game_ms: Some(50), ..Limits::default() });
        let Status::Forfeit { seat: 1, reason } = &r.status else { panic!("{:?}", r.status) };
        assert!(reason.reason().starts_with("timeout 50 ms per game: answered after "), "{reason}");
        assert!(reason.reason().ends_with(" ms in the game"), "{reason}");
        assert_eq!(r.moves, 3, "seat 1's first move fits, its second does not");
    }

    #[test]
    fn the_deadline_is_the_nearer_of_the_move_and_game_limits() {
        let now = Instant::now();
        let limits = Limits { move_ms: Some(100), game_ms: Some(250), ..Limits::default() };
        assert_eq!(limits.deadline(|| now, Duration::ZERO), Some(now + Duration::from_millis(100)));
        assert_eq!(limits.deadline(|| now, Duration::from_millis(200)), Some(now + Duration::from_millis(50)));
        assert_eq!(Limits::default().deadline(|| now, Duration::from_secs(9)), None);
    }

    /// Records what the host tells it; fails to start when asked to.
    struct Recorder {
        log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
        fail_start: bool,
    }

    impl Bot<Count> for Recorder {
        fn act(&mut self, _g: &Count, s: &&CountState, _rng: &mut BotRng) -> u32 {
            self.log.lock().unwrap().push(format!("act {}", s.said.len()));
            (s.said.len() % 2) as u32
        }
        fn start(&mut self, _g: &Count, start: &GameStart<'_>, _rng: &mut BotRng) -> Result<(), Fault> {
            self.log.lock().unwrap().push(format!("start {} {} {}", start.name, start.seat, start.game));
            if self.fail_start {
                Err(Fault::new(FaultKind::Crash, "exited with code 1"))
            } else {
                Ok(())
            }
        }
        fn finish(&mut self, _g: &Count, _s: &CountState, end: &GameEnd<'_>) {
            self.log.lock().unwrap().push(format!("finish {:?} {:?}", end.outcome.place, end.status));
        }
    }

    #[test]
    fn bots_hear_of_every_game_they_start_and_a_failed_start_forfeits() {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = |fail_start| Box::new(Recorder { log: log.clone(), fail_start }) as Box<dyn Bot<Count>>;
        let (a, b) =
            (Entrant { name: "a".into(), ..Entrant::default() }, Entrant { name: "b".into(), ..Entrant::default() });
        let table = Params::default();
        let seating = Seating { entrants: &[&a, &b], game: 7, table: &table, run: None };
        let r = play_game_with(
            &Count,
            &mut [recorder(false), recorder(false)],
            &GameSeeds::derive(1, 0, 7, 1),
            &seating,
            false,
        );
        assert_eq!(r.status, Status::Ok);
        let seen = std::mem::take(&mut *log.lock().unwrap());
        assert_eq!(seen[..6], ["start a 0 7", "start b 1 7", "act 0", "act 1", "act 2", "act 3"]);
        assert_eq!(seen[6..].len(), 2, "both hear the end: {seen:?}");
        assert!(seen[6].starts_with("finish ") && seen[6].ends_with(" Ok"));

        let r = play_game_with(
            &Count,
            &mut [recorder(false), recorder(true)],
            &GameSeeds::derive(1, 0, 7, 1),
            &seating,
            false,
        );
        let crash = Fault::new(FaultKind::Crash, "exited with code 1");
        assert_eq!(r.status, Status::Forfeit { seat: 1, reason: crash });
        assert_eq!((r.moves, r.seats[1].place), (0, 2));
        let seen = std::mem::take(&mut *log.lock().unwrap());
        // Seat 1 never started, so only seat 0 hears the end.
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert!(seen[2].starts_with("finish [1, 2] Forfeit"));
    }

    #[test]
    fn a_panicking_bot_forfeits_and_the_record_says_why() {
        let r = play(Behaviour::Legal, Behaviour::Panics, 1);
        assert_eq!(r.status, Status::Forfeit { seat: 1, reason: Fault::new(FaultKind::Panic, "panic: bot bug") });
        assert_eq!((r.seats[0].place, r.seats[1].place), (1, 2));
        assert_eq!(r.moves, 1);
    }

    #[test]
    fn an_engine_panic_ends_the_game_with_no_result_and_forfeits_nobody() {
        let r = play(Behaviour::SaysTen, Behaviour::Legal, 1);
        assert_eq!(r.status, Status::Error("the engine cannot count to ten".into()));
        assert!(r.seats.iter().all(|s| s.payoff == 0.0 && s.place == 0), "{:?}", r.seats);
        // The thread plays on: the next game is unaffected, a bot's panic is still its own.
        assert_eq!(play(Behaviour::Legal, Behaviour::Legal, 1).status, Status::Ok);
        assert_eq!(
            play(Behaviour::Panics, Behaviour::Legal, 1).status.clone(),
            Status::Forfeit { seat: 0, reason: Fault::new(FaultKind::Panic, "panic: bot bug") }
        );
    }

    #[test]
    fn an_illegal_action_forfeits() {
        let r = play(Behaviour::Cheats, Behaviour::Legal, 1);
        match &r.status {
            Status::Forfeit { seat: 0, reason } => {
                assert_eq!(reason.kind, FaultKind::Illegal);
                assert!(reason.reason().contains("wrong parity"), "{reason}")
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
        let b = play(Behaviour::Legal, Behaviour::Legal, 5);
        assert_eq!((&a.seats, &a.status, a.moves), (&b.seats, &b.status, b.moves));
        assert_eq!(a.times.iter().map(|&(seat, _)| seat).collect::<Vec<_>>(), [0, 1, 0, 1]);
        // Payoffs of a two-seat zero-sum game cancel.
        assert_eq!(a.seats[0].payoff + a.seats[1].payoff, 0.0);
    }
}
