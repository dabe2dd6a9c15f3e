//! The JSON line protocol (docs/book/src/protocol.md) and the `external` bot kind that speaks it: every
//! game gets it, through its [`Wire`] encoding.
//!
//! Host to bot, one JSON object a line: `hello` once per process (answered by `ready`), then per
//! game `new_game`, `act` (answered by `{"action": ...}`) for every decision, `game_over`, and
//! `quit` when the run ends. A bot whose `ready` says `"policy": true` may also be asked `policy`
//! at any view (answered by `{"policy": {action: probability, ...}}`): local best response asks
//! a copy of the bot so ([`Bot::policy_at`]). A process is reused across games (`restart = "crash"`, the default)
//! or started afresh for every one (`restart = "game"`); after a fault it is killed, and the next
//! game starts a new one.

use std::marker::PhantomData;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use std::borrow::Cow;

use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::core::wire::Texts;
use crate::core::{ms, MAX_REASON_CHARS};
use crate::core::{Bot, BotRng, Fault, FaultKind, GameEnd, GameStart, Limits, ParamSpec, Params, Seat, Status};
use crate::core::{BotFactory, BotKind, GameDef};
use crate::error::{Error, Result};
use crate::external::process::{Cut, LineError, Log, OwnClock, Pool, Process, MAX_LINE};

/// The protocol's version, sent in `hello`. It changes only when a change breaks bots written
/// for the previous one; new fields do not (both sides ignore fields they do not know).
pub const PROTOCOL: u32 = 1;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("command", "[]", "the program and its arguments, e.g. [\"python3\", \"bots/examples/holdem_random.py\"]").command(),
    ParamSpec::new("move_ms", "5000", "longest decision in milliseconds (the host's clock, reply included); over it the bot forfeits")
        .range(1.0, Limits::MAX_MS),
    ParamSpec::new("game_ms", "0", "milliseconds of decisions in one game; over it the bot forfeits (0: no limit)")
        .range(0.0, Limits::MAX_MS),
    ParamSpec::new(
        "start_ms",
        "5000",
        "milliseconds of its own time a new process has to answer `hello` (time it waits for a core is not counted); silent past it, the bot forfeits with `stall`",
    )
    .range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "memory_mb",
        "0",
        "MiB of peak resident memory; over it the bot forfeits with `memory` (looked at every 50 ms while it thinks and after each answer; 0: no limit)",
    )
    .range(0.0, 1_048_576.0),
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
        about: "a program outside bot-arena, spoken to over stdin/stdout in JSON lines (docs/book/src/protocol.md)",
        params: PARAMS,
        make: make::<G>,
    }
}

/// What every bot made from one config entry shares: the program, its settings, and the pool of
/// its idle processes. Dropping it (at the end of the run) ends them.
struct Program {
    command: Vec<String>,
    /// Every parameter, for `hello`.
    params: toml::Table,
    start_limit: Duration,
    /// The longest answer to a `policy` request (`move_ms`; a request is no decision of a game,
    /// so the game's clock does not count it).
    move_limit: Duration,
    /// Whether the program's `ready` said it answers `policy` (its last process's did).
    says_policy: AtomicBool,
    /// The bound on a process's peak resident memory, in bytes (`memory_mb`).
    memory: Option<u64>,
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
        params: p.table().clone(),
        start_limit: Duration::from_millis(start_ms),
        move_limit: Duration::from_millis(p.i64("move_ms") as u64),
        says_policy: AtomicBool::new(false),
        memory: Some((p.i64("memory_mb") as u64) << 20).filter(|&bytes| bytes > 0),
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
    let path = find_program(program).ok_or_else(|| {
        let whence = match program.contains('/') {
            // What a relative path in a config became (params::resolve_paths) is shown whole.
            true => " (a relative path starts from the folder of the config or roster that names it)",
            false => " on PATH",
        };
        Error::input(format!("bot kind {kind}: cannot find the program `{program}`{whence}"))
    })?;
    let mode = std::fs::metadata(&path).map(|m| m.permissions().mode()).unwrap_or(0);
    if mode & 0o111 == 0 {
        return Err(Error::input(format!(
            "bot kind {kind}: `{}` is not executable (chmod +x, or name its interpreter first: [\"python3\", \"{program}\"])",
            path.display()
        )));
    }
    Ok(())
}

/// The messages the host sends, one JSON object a line (docs/book/src/protocol.md shows one of each).
/// Each is a struct that borrows what it says and is serialised straight into the line that goes
/// to the pipe.
pub mod message {
    use serde::Serialize;

    use crate::core::wire::{Text, Texts};
    use crate::core::{Fault, GameEnd, Params, Seat, Status, Wire};

    /// The first message to a new process.
    #[derive(Serialize)]
    #[serde(tag = "type", rename = "hello")]
    pub struct Hello<'a> {
        protocol: u32,
        game: &'a str,
        options: &'a toml::Table,
        seats: usize,
        name: &'a str,
        params: &'a toml::Table,
    }

    pub fn hello<'a>(
        game: &'a str,
        options: &'a Params,
        seats: usize,
        name: &'a str,
        params: &'a toml::Table,
    ) -> Hello<'a> {
        Hello { protocol: super::PROTOCOL, game, options: options.table(), seats, name, params }
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename = "new_game")]
    pub struct NewGame {
        pub seat: Seat,
        pub game: u64,
        pub seed: u64,
    }

    /// A decision: the seat's view and its legal actions (written by `Wire::write_legal`).
    #[derive(Serialize)]
    #[serde(tag = "type", rename = "act")]
    pub struct Act<'a, V> {
        /// `Wire::view_json`.
        pub view: V,
        pub legal: &'a Texts,
    }

    /// A question without a decision: the probabilities the bot would act with at this view
    /// (any seat's, any hand it could hold there), answered by `{"policy": {action: p, ...}}`.
    #[derive(Serialize)]
    #[serde(tag = "type", rename = "policy")]
    pub struct Policy<'a, V> {
        /// `Wire::view_json`.
        pub view: V,
        pub legal: &'a Texts,
    }

    #[derive(Serialize)]
    #[serde(tag = "type", rename = "game_over")]
    pub struct GameOver<'a, R> {
        payoffs: &'a [f64],
        places: &'a [u32],
        forfeit: Option<Forfeit<'a>>,
        reveal: R,
    }

    #[derive(Serialize)]
    struct Forfeit<'a> {
        seat: Seat,
        reason: Text<&'a Fault>,
    }

    pub fn game_over<'a, G: Wire>(
        game: &'a G,
        state: &'a G::State,
        end: &GameEnd<'a>,
    ) -> GameOver<'a, impl Serialize + 'a> {
        let forfeit = match end.status {
            Status::Forfeit { seat, reason } => Some(Forfeit { seat: *seat, reason: Text(reason) }),
            Status::Ok | Status::Error(_) => None,
        };
        GameOver { payoffs: &end.outcome.payoff, places: &end.outcome.place, forfeit, reveal: game.reveal(state) }
    }

    pub const QUIT: &str = "{\"type\":\"quit\"}\n";
}

/// A bot's answer to `act`: other fields are ignored. The text is borrowed from the line read
/// (copied only if it holds escapes).
#[derive(Deserialize)]
struct Reply<'a> {
    #[serde(borrow)]
    action: Cow<'a, str>,
    /// Optional: the probabilities the bot drew its action from, action text → probability
    /// (docs/book/src/luck-method.md): a run that takes the luck out of its payoffs uses them.
    #[serde(default)]
    policy: Option<std::collections::BTreeMap<String, f64>>,
}

/// A bot's answer to `hello`.
#[derive(Deserialize)]
struct Ready<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    /// Whether the bot answers `policy` requests (absent: it does not).
    #[serde(default)]
    policy: bool,
}

/// A bot's answer to `policy`: action text → probability, or `null` (it cannot say here; a
/// missing `policy` reads the same).
#[derive(Deserialize)]
struct PolicyReply {
    policy: Option<std::collections::BTreeMap<String, f64>>,
}

/// How far from one a policy's probabilities may sum.
pub(crate) const POLICY_SUM_TOLERANCE: f64 = 1e-6;

/// The policy a line answering `policy` gives, into `out`, or the fault it is: every action legal
/// at `view` (`legal` is what the request listed), every probability finite and not negative,
/// their sum one within [`POLICY_SUM_TOLERANCE`].
pub(crate) fn read_policy<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    line: &[u8],
    out: &mut Vec<(G::Action, f64)>,
) -> Result<(), Fault> {
    let reply: PolicyReply = parse(line, "answer to policy")?;
    let given = reply.policy.ok_or_else(|| {
        Fault::new(FaultKind::Protocol, "answered `policy` without a policy (null or none): it cannot say it here")
    })?;
    judge_policy(game, view, legal, &given, out)
}

/// The policy `given` (action text → probability) judged at `view`, into `out`; see [`read_policy`].
pub(crate) fn judge_policy<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    given: &std::collections::BTreeMap<String, f64>,
    out: &mut Vec<(G::Action, f64)>,
) -> Result<(), Fault> {
    let bad = |why: String| Fault::new(FaultKind::Protocol, format!("bad policy: {why}"));
    let start = out.len();
    let mut read = || {
        let mut sum = 0.0;
        for (text, &p) in given {
            let sent = text.trim();
            let action = legal_action(game, view, legal, sent, " in policy")?;
            if !(0.0..=1.0).contains(&p) {
                return Err(bad(format!("`{sent}` has probability {p}, not a number from 0 to 1")));
            }
            sum += p;
            out.push((action, p));
        }
        match (sum - 1.0).abs() <= POLICY_SUM_TOLERANCE {
            true => Ok(()),
            false => Err(bad(format!("the probabilities sum to {sum}, not 1"))),
        }
    };
    let judged = read();
    if judged.is_err() {
        out.truncate(start);
    }
    judged
}

/// Parses a line the bot wrote as `T`; the fault says what was expected and shows the line.
fn parse<'l, T: Deserialize<'l>>(line: &'l [u8], what: &str) -> Result<T, Fault> {
    serde_json::from_slice(line).map_err(|e| {
        // A message of the bot's own (`{"type": "ready"}` where an answer to act was due) is a
        // line written out of turn that the host read only now: named as such, not as a missing field.
        if what == "answer to act" {
            if let Ok(serde_json::Value::Object(m)) = serde_json::from_slice(line) {
                if let (Some(serde_json::Value::String(_)), None) = (m.get("type"), m.get("action")) {
                    return unasked(line, "act");
                }
            }
        }
        Fault::new(FaultKind::Protocol, format!("bad {what}: {e} in `{}`", shown(line)))
    })
}

/// The first 80 bytes of a line a bot wrote, for a reason.
fn shown(line: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(&line[..line.len().min(80)])
}

/// The fault of a line the bot wrote when nothing was asked, found before the host's `before`.
fn unasked(line: &[u8], before: &str) -> Fault {
    Fault::new(FaultKind::Protocol, format!("unsolicited line `{}` written before {before}", shown(line)))
}

/// The fault of an action the rules refuse: `why`, then the legal actions, as many as the reason
/// has room for (a reason is cut at [`MAX_REASON_CHARS`]; the list is the host's own, so it is
/// cut between actions and says how many there are).
fn illegal(why: String, legal: &Texts) -> Fault {
    let room = MAX_REASON_CHARS - " … (999 in all)".len();
    let mut reason = why;
    if reason.chars().count() > room {
        return Fault::new(FaultKind::Illegal, reason); // the bot's text fills it: cut as it is
    }
    reason.push_str("; legal: ");
    for (i, text) in legal.iter().enumerate() {
        if reason.chars().count() + text.len() + 2 > room {
            reason.push_str(&format!("… ({} in all)", legal.len()));
            break;
        }
        if i > 0 {
            reason.push_str(", ");
        }
        reason.push_str(text);
    }
    Fault::new(FaultKind::Illegal, reason)
}

/// The action a line answering `act` names, or the fault it is: `legal` is what the `act` listed.
/// The action is judged here, from the view, so that the reason quotes the bot's own text and the
/// legal list (the engine would name its Rust values); a text the list holds needs no judging.
#[cfg(test)]
pub(crate) fn read_answer<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    line: &[u8],
) -> Result<G::Action, Fault> {
    read_answer_with_policy(game, view, legal, line, &mut Vec::new())
}

/// [`read_answer`], the answer's `policy` (when it gives one whose every action parses) into
/// `policy`. A policy that does not parse is dropped, never a fault: the decision then counts as
/// one of unknown probabilities (the luck adjustment checks the rest: legal, summing to one).
pub(crate) fn read_answer_with_policy<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    line: &[u8],
    policy: &mut Vec<(G::Action, f64)>,
) -> Result<G::Action, Fault> {
    let reply: Reply = parse(line, "answer to act")?;
    judge_answer(game, view, legal, &reply.action, reply.policy.as_ref(), policy)
}

/// The action an answer to `act` names (`sent`, with the `policy` it gave), or the fault it is,
/// whoever answered: a program over a pipe ([`read_answer_with_policy`]) or a bot in this process
/// (external/hosted.rs). `legal` is what the `act` listed; the answer's policy goes into `policy`.
pub(crate) fn judge_answer<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    sent: &str,
    given: Option<&std::collections::BTreeMap<String, f64>>,
    policy: &mut Vec<(G::Action, f64)>,
) -> Result<G::Action, Fault> {
    let action = legal_action(game, view, legal, sent.trim(), "")?;
    policy.clear();
    if let Some(given) = given {
        for (text, &p) in given {
            match game.parse_action(text.trim()) {
                Ok(a) => policy.push((a, p)),
                Err(_) => {
                    policy.clear();
                    break;
                }
            }
        }
    }
    Ok(action)
}

/// The action `sent` names, if it is legal at `view`: one of the `legal` texts the request
/// listed, or another spelling of a legal action (the rules judge it); else the fault, its reason
/// saying where the text was (`whence`: "" for an answer's action, " in policy").
fn legal_action<G: GameDef>(
    game: &G,
    view: &G::View<'_>,
    legal: &Texts,
    sent: &str,
    whence: &str,
) -> Result<G::Action, Fault> {
    let action = game.parse_action(sent).map_err(|e| illegal(format!("illegal action{whence}: {e}"), legal))?;
    if !legal.iter().any(|l| l.eq_ignore_ascii_case(sent)) {
        game.judge(view, &action).map_err(|e| illegal(format!("illegal action `{sent}`{whence}: {e}"), legal))?;
    }
    Ok(action)
}

/// The fault of a process that did not answer `hello` within `limit` of its own time, the host
/// having waited `waited`: a stall (nothing to think about was asked).
pub(crate) fn start_timeout(limit: Duration, waited: Duration) -> Fault {
    let limit = limit.as_millis();
    Fault::new(
        FaultKind::Stall,
        format!("stall at start: no answer to hello in {limit} ms of its own time (waited {})", ms(waited)),
    )
}

/// The fault of a program whose peak resident memory (`peak` bytes) went over `limit` bytes.
pub(crate) fn over_memory(peak: u64, limit: u64) -> Fault {
    let mib = |bytes: u64| bytes as f64 / (1u64 << 20) as f64;
    Fault::new(FaultKind::Memory, format!("memory: peak {:.1} MiB over memory_mb {:.0} MiB", mib(peak), mib(limit)))
}

/// The fault of a program that stopped reading what the host writes.
pub(crate) fn stopped_reading() -> Fault {
    Fault::new(FaultKind::Stall, "stall: stopped reading its input (the host could not write its request in time)")
}

/// Writes `message` into `out` as one line, replacing what was there.
fn encode(out: &mut Vec<u8>, message: &impl Serialize) {
    out.clear();
    serde_json::to_writer(&mut *out, message).expect("messages serialise");
    out.push(b'\n');
}

/// One seat's external bot for one game: a process taken from the pool (or started) at the
/// start, given back (or ended) at the finish.
pub struct External<G: GameDef> {
    program: Arc<Program>,
    process: Option<Process>,
    seat: Seat,
    /// The line being written, reused from message to message.
    out: Vec<u8>,
    /// The legal actions of the decision being asked, reused from move to move.
    legal: Texts,
    /// The probabilities the last answer said its action was drawn from (empty: not said).
    policy: Vec<(G::Action, f64)>,
    /// Why the last `policy` request failed ([`Bot::policy_fault`]).
    policy_fault: Option<Fault>,
    /// The time the last decision was charged to the program ([`Bot::measured`]); `None` after a
    /// timeout, which the host's clock names.
    measured: Option<Duration>,
    /// The most memory its processes held (bytes), over the games this seat played.
    peak: Option<u64>,
    game: PhantomData<fn() -> G>,
}

fn timeout() -> Fault {
    // The host's clock names the limit that was passed (play.rs); this is the fallback.
    Fault::new(FaultKind::Time, "timeout: no answer in time")
}

impl<G: GameDef> External<G> {
    fn new(program: Arc<Program>) -> External<G> {
        let (out, legal) = (Vec::with_capacity(4096), Texts::default());
        External {
            program,
            process: None,
            seat: 0,
            out,
            legal,
            policy: Vec::new(),
            policy_fault: None,
            measured: None,
            peak: None,
            game: PhantomData,
        }
    }

    /// The fault for a line that could not be read or written; the process is ended.
    fn broken(&mut self, error: LineError) -> Fault {
        let mut process = self.process.take().expect("a process is running");
        let fault = match error {
            LineError::Timeout => timeout(),
            LineError::TooLong => Fault::new(FaultKind::Protocol, format!("a line over {} MiB", MAX_LINE >> 20)),
            LineError::Closed | LineError::InputClosed => {
                Fault::new(FaultKind::Crash, process.end_reason(Duration::from_millis(200), error))
            }
        };
        process.kill();
        self.keep_peak(&mut process);
        // A program that died over its memory (its allocation refused, or killed for it) forfeits for that.
        match (fault.kind, self.program.memory, self.peak) {
            (FaultKind::Crash, Some(limit), Some(peak)) if peak > limit => over_memory(peak, limit),
            _ => fault,
        }
    }

    /// Notes `process`'s peak memory in the seat's.
    fn keep_peak(&mut self, process: &mut Process) {
        if let Some(peak) = process.peak_memory() {
            self.peak = Some(self.peak.unwrap_or(0).max(peak));
        }
    }

    /// The fault of a read on the program's clock that stopped; the process is ended.
    fn cut(&mut self, cut: Cut) -> Fault {
        match cut {
            Cut::Line(error) => self.broken(error),
            Cut::Memory(peak) => {
                let mut process = self.process.take().expect("a process is running");
                process.kill();
                self.keep_peak(&mut process);
                over_memory(peak, self.program.memory.unwrap_or(0))
            }
        }
    }

    /// Reads the answer to the request written at `sent`, on the program's own clock with
    /// `budget`, and hands it to `read`; over its memory, the program forfeits.
    fn receive_charged<T>(
        &mut self,
        sent: Instant,
        budget: Option<Duration>,
        read: impl FnOnce(&[u8]) -> Result<T, Fault>,
    ) -> Result<T, Fault> {
        let memory = self.program.memory;
        let process = self.process.as_mut().expect("a process is running");
        let clock = OwnClock::start(process.id(), sent, budget);
        let answer = match process.read_line_charged(&clock, memory) {
            Ok(line) => read(line),
            Err(cut) => {
                self.measured = None;
                return Err(self.cut(cut));
            }
        };
        self.measured = Some(process.charged());
        if let (Some(limit), Some(peak)) = (memory, process.peak_memory()) {
            if peak > limit {
                return Err(self.cut(Cut::Memory(peak)));
            }
        }
        if answer.is_err() {
            self.process = None;
        }
        answer
    }

    /// Fails, ending the process, when it wrote a line nobody asked for before the host's
    /// `before`: such a line is reported as what it is, not misread as the next answer.
    fn check_unasked(&mut self, before: &str) -> Result<(), Fault> {
        let process = self.process.as_mut().expect("a process is running");
        let fault = process.unasked().map(|line| unasked(line, before));
        match fault {
            Some(fault) => {
                self.process = None;
                Err(fault)
            }
            None => Ok(()),
        }
    }

    /// Writes `message` as one line to the process.
    fn send(&mut self, message: &impl Serialize, deadline: Option<Instant>) -> Result<(), Fault> {
        encode(&mut self.out, message);
        self.send_out(deadline)
    }

    /// Writes the line in `out` to the process: one write, whatever its length.
    fn send_out(&mut self, deadline: Option<Instant>) -> Result<(), Fault> {
        let process = self.process.as_mut().expect("a process is running");
        process.send(&self.out, deadline).map_err(|e| match e {
            LineError::Timeout => {
                self.process = None;
                stopped_reading()
            }
            e => self.broken(e),
        })
    }

    /// Asks the program its policy at `view` (a `policy` request), into `out`; a fault ends the
    /// process.
    fn ask_policy(&mut self, game: &G, view: &G::View<'_>, out: &mut Vec<(G::Action, f64)>) -> Result<(), Fault> {
        self.legal.clear();
        game.write_legal(view, &mut self.legal);
        encode(&mut self.out, &message::Policy { view: game.view_json(view), legal: &self.legal });
        self.check_unasked("policy")?;
        let limit = self.program.move_limit;
        self.send_out(Some(Instant::now() + limit))?;
        let legal = std::mem::take(&mut self.legal);
        let answer =
            self.receive_charged(Instant::now(), Some(limit), |line| read_policy(game, view, &legal, line, out));
        self.legal = legal;
        answer
    }

    /// Starts a process and greets it. A program that cannot be started, ends or stays silent
    /// before it answers `hello` never answered: its fault is marked [`Fault::at_start`].
    fn launch(&mut self, game: &G, start: &GameStart<'_>) -> Result<(), Fault> {
        let program = Arc::clone(&self.program);
        // Without a log the bot still plays; its stderr is lost.
        let log = program.log.get_or_init(|| Log::create(&start.run?.log_path(start.name)).ok());
        let process = Process::spawn(&program.command, log.as_ref()).map_err(|e| {
            Fault::new(FaultKind::Crash, format!("cannot start `{}`: {e}", program.command.join(" "))).at_start()
        })?;
        self.process = Some(process);
        let began = Instant::now();
        let deadline = Some(began + program.start_limit);
        let hello = message::hello(G::NAME, start.table, game.seats(), start.name, &program.params);
        let late = |fault: Fault| match fault.kind {
            FaultKind::Time | FaultKind::Stall => start_timeout(program.start_limit, began.elapsed()).at_start(),
            FaultKind::Crash => Fault::new(FaultKind::Crash, format!("{fault} before answering hello")).at_start(),
            _ => fault,
        };
        self.send(&hello, deadline).map_err(late)?;
        self.receive_charged(Instant::now(), Some(program.start_limit), |line| {
            let ready: Ready = parse(line, "answer to hello")?;
            match ready.kind.as_ref() {
                "ready" => {
                    program.says_policy.store(ready.policy, Ordering::Relaxed);
                    Ok(())
                }
                other => {
                    Err(Fault::new(FaultKind::Protocol, format!("answered hello with type `{other}`, not `ready`")))
                }
            }
        })
        .map_err(late)
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
        // `new_game` and `game_over` need no answer: each goes out with the next line that does.
        encode(&mut self.out, &message::NewGame { seat: start.seat, game: start.game, seed });
        self.process.as_mut().expect("a process is running").queue(&self.out);
        Ok(())
    }

    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> Result<G::Action, Fault> {
        self.legal.clear();
        game.write_legal(view, &mut self.legal);
        // The time the program has, counted from its request written: the host's own waiting
        // before it writes (a worker waiting for a core) is not the program's.
        let budget = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        self.measured = None;
        encode(&mut self.out, &message::Act { view: game.view_json(view), legal: &self.legal });
        self.check_unasked("act")?;
        self.send_out(deadline.map(|d| d.max(Instant::now() + Duration::from_millis(50))))?;
        let sent = Instant::now();
        let legal = std::mem::take(&mut self.legal);
        let mut policy = std::mem::take(&mut self.policy);
        let answer =
            self.receive_charged(sent, budget, |line| read_answer_with_policy(game, view, &legal, line, &mut policy));
        self.legal = legal;
        self.policy = policy;
        answer
    }

    fn policy(&self, _game: &G, _view: &G::View<'_>, out: &mut Vec<(G::Action, f64)>) {
        out.extend_from_slice(&self.policy);
    }

    /// Asked of a started bot whose program said in `ready` that it answers `policy`; a refused
    /// answer ends the process, and [`Bot::policy_fault`] says why.
    fn policy_at(&mut self, game: &G, view: &G::View<'_>, out: &mut Vec<(G::Action, f64)>) -> bool {
        if self.process.is_none() || !self.program.says_policy.load(Ordering::Relaxed) {
            return false;
        }
        match self.ask_policy(game, view, out) {
            Ok(()) => true,
            Err(fault) => {
                self.policy_fault = Some(fault);
                false
            }
        }
    }

    fn policy_fault(&mut self) -> Option<Fault> {
        self.policy_fault.take()
    }

    fn measured(&self) -> Option<Duration> {
        self.measured
    }

    fn peak_memory(&self) -> Option<u64> {
        self.peak
    }

    fn finish(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) {
        if self.process.is_none() {
            return;
        }
        if matches!(end.status, Status::Forfeit { seat, .. } if *seat == self.seat) {
            self.process = None; // a fault ends the process: the next game starts a new one
            return;
        }
        encode(&mut self.out, &message::game_over(game, state, end));
        let mut process = self.process.take().expect("still running");
        self.keep_peak(&mut process);
        // Sent with the next game's first `act`, or with `quit`.
        process.queue(&self.out);
        if self.program.fresh_each_game {
            self.program.pool.end(process);
        } else {
            self.program.pool.put(process);
        }
    }
}
