//! The JSON line protocol (docs/protocol.md) and the `external` bot kind that speaks it: every
//! game gets it, through its [`Wire`] encoding.
//!
//! Host to bot, one JSON object a line: `hello` once per process (answered by `ready`), then per
//! game `new_game`, `act` (answered by `{"action": ...}`) for every decision, `game_over`, and
//! `quit` when the run ends. A process is reused across games (`restart = "crash"`, the default)
//! or started afresh for every one (`restart = "game"`); after a fault it is killed, and the next
//! game starts a new one.

use std::marker::PhantomData;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rand::RngCore;
use serde::Deserialize;
use serde_json::Value;

use crate::core::{Bot, BotRng, Fault, FaultKind, GameEnd, GameStart, Limits, ParamSpec, Params, Seat, Status};
use crate::error::{Error, Result};
use crate::external::process::{LineError, Log, Pool, Process, MAX_LINE};
use crate::games::{BotFactory, BotKind, GameDef};

/// The protocol's version, sent in `hello`. It changes only when a change breaks bots written
/// for the previous one; new fields do not (both sides ignore fields they do not know).
pub const PROTOCOL: u32 = 1;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("command", "[]", "the program and its arguments, e.g. [\"python3\", \"bots/examples/holdem_random.py\"]"),
    ParamSpec::new("move_ms", "5000", "longest decision in milliseconds (the host's clock, reply included); over it the bot forfeits")
        .range(1.0, Limits::MAX_MS),
    ParamSpec::new("game_ms", "0", "milliseconds of decisions in one game; over it the bot forfeits (0: no limit)")
        .range(0.0, Limits::MAX_MS),
    ParamSpec::new("start_ms", "5000", "milliseconds a new process has to answer `hello`").range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "restart",
        "\"crash\"",
        "\"crash\": one process serves game after game and is restarted after a fault; \"game\": a fresh process for every game",
    )
    .choices(&["crash", "game"]),
    ParamSpec::new("config", "{}", "a table handed to the bot in `hello` (its own settings)"),
];

/// The `external` bot kind of game `G`.
pub fn kind<G: GameDef>() -> BotKind<G> {
    BotKind {
        name: "external",
        about: "a program outside bot-arena, spoken to over stdin/stdout in JSON lines (docs/protocol.md)",
        params: PARAMS,
        make: make::<G>,
    }
}

/// What every bot made from one config entry shares: the program, its settings, and the pool of
/// its idle processes. Dropping it (at the end of the run) ends them.
struct Program {
    command: Vec<String>,
    /// Every parameter, for `hello`.
    params: Value,
    start_limit: Duration,
    fresh_each_game: bool,
    pool: Pool,
    /// The stderr log, opened by the first process (it needs the run folder and the bot's name,
    /// which the host gives at the start of a game).
    log: OnceLock<Option<Arc<Log>>>,
}

fn make<G: GameDef>(p: &Params, _game: &G) -> Result<BotFactory<G>> {
    let command = command(p, "external", "[\"python3\", \"mybot.py\"]")?;
    let start_ms = p.i64("start_ms") as u64;
    let fresh_each_game = p.str("restart") == "game";
    let program = Arc::new(Program {
        command,
        params: serde_json::to_value(p.table()).expect("TOML values are JSON values"),
        start_limit: Duration::from_millis(start_ms),
        fresh_each_game,
        pool: Pool::new(message::QUIT.as_bytes().to_vec()),
        log: OnceLock::new(),
    });
    Ok(Arc::new(move || Box::new(External::<G>::new(Arc::clone(&program))) as Box<dyn Bot<G>>))
}

/// Where `program` would be run from: itself when it names a path, else the first match on PATH.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
}

/// Checks that `program` can be run, so that a typo is one error at the start rather than a
/// forfeit in every game. `kind` names the bot kind in the error.
/// The `command` parameter of a process bot kind (`external`, `gomocup`): a list of strings whose
/// first names a program that exists and may be run. `example` shows a command in the error.
pub(crate) fn command(p: &Params, kind: &str, example: &str) -> Result<Vec<String>> {
    let command: Vec<String> = p.table()["command"]
        .as_array()
        .expect("declared array")
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect::<Option<_>>()
        .ok_or_else(|| Error::input(format!("parameter `command` of bot kind {kind} must be a list of strings")))?;
    let program = command.first().ok_or_else(|| {
        Error::input(format!("bot kind {kind} needs `command`, the program to run (e.g. command = {example})"))
    })?;
    check_program(kind, program)?;
    Ok(command)
}

fn check_program(kind: &str, program: &str) -> Result<()> {
    let path = find_program(program)
        .ok_or_else(|| Error::input(format!("bot kind {kind}: cannot find the program `{program}`")))?;
    let mode = std::fs::metadata(&path).map(|m| m.permissions().mode()).unwrap_or(0);
    if mode & 0o111 == 0 {
        return Err(Error::input(format!(
            "bot kind {kind}: `{}` is not executable (chmod +x, or name its interpreter first: [\"python3\", \"{program}\"])",
            path.display()
        )));
    }
    Ok(())
}

/// The messages the host sends, one JSON object a line (docs/protocol.md shows one of each).
pub mod message {
    use serde_json::{json, Value};

    use crate::core::{GameEnd, Params, Status, Wire};

    /// The first message to a new process.
    pub fn hello(game: &str, options: &Params, seats: usize, name: &str, params: &Value) -> Value {
        json!({
            "type": "hello",
            "protocol": super::PROTOCOL,
            "game": game,
            "options": serde_json::to_value(options.table()).expect("TOML values are JSON values"),
            "seats": seats,
            "name": name,
            "params": params,
        })
    }

    pub fn new_game(seat: usize, game: u64, seed: u64) -> Value {
        json!({ "type": "new_game", "seat": seat, "game": game, "seed": seed })
    }

    /// A decision: the seat's view and its legal actions.
    pub fn act<G: Wire>(game: &G, view: &G::View<'_>) -> Value {
        // `Value::from` moves the texts in (`json!` would copy them).
        json!({ "type": "act", "view": game.view_json(view), "legal": Value::from(game.legal_texts(view)) })
    }

    pub fn game_over<G: Wire>(game: &G, state: &G::State, end: &GameEnd<'_>) -> Value {
        let forfeit = match end.status {
            Status::Forfeit { seat, reason } => json!({ "seat": seat, "reason": reason.to_string() }),
            Status::Ok | Status::Error(_) => Value::Null,
        };
        json!({
            "type": "game_over",
            "payoffs": end.outcome.payoff,
            "places": end.outcome.place,
            "forfeit": forfeit,
            "reveal": game.reveal(state),
        })
    }

    pub const QUIT: &str = "{\"type\":\"quit\"}\n";
}

/// A bot's answer to `act`: other fields are ignored.
#[derive(Deserialize)]
struct Reply {
    action: String,
}

/// A bot's answer to `hello`.
#[derive(Deserialize)]
struct Ready {
    #[serde(rename = "type")]
    kind: String,
}

/// One seat's external bot for one game: a process taken from the pool (or started) at the
/// start, given back (or ended) at the finish.
pub struct External<G> {
    program: Arc<Program>,
    process: Option<Process>,
    seat: Seat,
    /// The message being written, reused from move to move.
    out: Vec<u8>,
    game: PhantomData<fn() -> G>,
}

fn timeout() -> Fault {
    // The host's clock names the limit that was passed (play.rs); this is the fallback.
    Fault::new(FaultKind::Timeout, "timeout: no answer in time")
}

impl<G: GameDef> External<G> {
    fn new(program: Arc<Program>) -> External<G> {
        External { program, process: None, seat: 0, out: Vec::with_capacity(4096), game: PhantomData }
    }

    /// The fault for a line that could not be read or written; the process is ended.
    fn broken(&mut self, error: LineError) -> Fault {
        let mut process = self.process.take().expect("a process is running");
        match error {
            LineError::Timeout => timeout(),
            LineError::TooLong => Fault::new(FaultKind::Protocol, format!("a line over {} MiB", MAX_LINE >> 20)),
            LineError::Closed => Fault::new(FaultKind::Crash, process.end_reason(Duration::from_millis(200))),
        }
        // `process` is dropped here: killed and reaped.
    }

    /// Writes `message` as one line to the process.
    fn send(&mut self, message: &Value, deadline: Option<Instant>) -> Result<(), Fault> {
        self.out.clear();
        serde_json::to_writer(&mut self.out, message).expect("a JSON value serialises");
        self.out.push(b'\n');
        let process = self.process.as_mut().expect("a process is running");
        process.send(&self.out, deadline).map_err(|e| self.broken(e))
    }

    /// Reads one line and parses it as `T`.
    fn receive<T: for<'de> Deserialize<'de>>(&mut self, what: &str, deadline: Option<Instant>) -> Result<T, Fault> {
        let process = self.process.as_mut().expect("a process is running");
        let parsed = match process.read_line(deadline) {
            Ok(line) => serde_json::from_slice::<T>(line).map_err(|e| {
                let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
                Fault::new(FaultKind::Protocol, format!("bad {what}: {e} in `{shown}`"))
            }),
            Err(e) => return Err(self.broken(e)),
        };
        if parsed.is_err() {
            self.process = None; // out of step with the protocol: end it
        }
        parsed
    }

    /// Starts a process and greets it.
    fn launch(&mut self, game: &G, start: &GameStart<'_>) -> Result<(), Fault> {
        let program = &self.program;
        // Without a log the bot still plays; its stderr is lost.
        let log = program.log.get_or_init(|| Log::create(&start.run?.log_path(start.name)).ok());
        let process = Process::spawn(&program.command, log.as_ref())
            .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start `{}`: {e}", program.command.join(" "))))?;
        self.process = Some(process);
        let deadline = Some(Instant::now() + program.start_limit);
        let hello = message::hello(G::NAME, start.table, game.seats(), start.name, &program.params);
        let start_ms = program.start_limit.as_millis();
        let late = |fault: Fault| match fault.kind {
            FaultKind::Timeout => Fault::new(FaultKind::Timeout, format!("timeout {start_ms} ms at start")),
            _ => fault,
        };
        self.send(&hello, deadline).map_err(late)?;
        let ready: Ready = self.receive("answer to hello", deadline).map_err(late)?;
        if ready.kind != "ready" {
            self.process = None;
            return Err(Fault::new(
                FaultKind::Protocol,
                format!("answered hello with type `{}`, not `ready`", ready.kind),
            ));
        }
        Ok(())
    }
}

impl<G: GameDef> Bot<G> for External<G> {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &G, view: &G::View<'_>, rng: &mut BotRng) -> G::Action {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, game: &G, start: &GameStart<'_>, rng: &mut BotRng) -> Result<(), Fault> {
        self.seat = start.seat;
        // The only number this bot draws from its stream: the seed it passes on.
        let seed = rng.next_u64();
        self.process = if self.program.fresh_each_game { None } else { self.program.pool.take() };
        if self.process.is_none() {
            self.launch(game, start)?;
        }
        let new_game = message::new_game(start.seat, start.game, seed);
        self.send(&new_game, Some(Instant::now() + self.program.start_limit))
    }

    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> Result<G::Action, Fault> {
        self.send(&message::act(game, view), deadline)?;
        let reply: Reply = self.receive("answer to act", deadline)?;
        game.parse_action(&reply.action).map_err(|e| {
            self.process = None; // a bot that misreads the game may be out of step: start afresh
            Fault::new(FaultKind::Illegal, format!("illegal action: {e}"))
        })
    }

    fn finish(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) {
        if self.process.is_none() {
            return;
        }
        if matches!(end.status, Status::Forfeit { seat, .. } if *seat == self.seat) {
            self.process = None; // a fault ends the process: the next game starts a new one
            return;
        }
        let game_over = message::game_over(game, state, end);
        if self.send(&game_over, Some(Instant::now() + self.program.start_limit)).is_err() {
            return;
        }
        let process = self.process.take().expect("still running");
        if self.program.fresh_each_game {
            self.program.pool.end(process);
        } else {
            self.program.pool.put(process);
        }
    }
}
