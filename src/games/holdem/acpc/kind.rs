//! The `acpc` bot kind: an ACPC poker agent at our table, bot-arena its dealer. The agent
//! connects over TCP to a port on 127.0.0.1, sends `VERSION:2.0.0`, and is sent a `MATCHSTATE`
//! line at every change of the hand (before each action, and the hand's end); when it is to act it
//! answers the state it was sent followed by `:` and its action. Lines starting with `#` or `;` are
//! comments both ways.
//!
//! As the ACPC server's `play_match.pl` does, the kind starts the agent itself: its `command`
//! with the host and a port appended, one port and one connection for each process; or, without
//! a command, it waits on `port` for agents the user starts. An agent serves hand after hand on
//! its connection (one connection per seat per worker thread), and is given back to the pool
//! between hands; its processes end with the run.
//!
//! Unlike the official dealer, which turns an invalid action into a call and skips a line it cannot
//! read, the kind forfeits the hand of an agent that answers a state it was not asked, writes a line
//! it cannot read, names an action our rules refuse, or is late: the reason quotes its line.
//! docs/book/src/acpc.md lists the differences.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::super::engine::{Action, Chips, Format, Holdem, State, View};
use super::text::{self, Move, VERSION};
use crate::core::{Bot, BotFactory, BotKind, BotRng, Fault, FaultKind, GameEnd, GameStart, Limits, ParamSpec, Params};
use crate::core::{Seat, Status};
use crate::error::{Error, Result};
use crate::external::process::{LineError, Log, Output, OwnClock, Process, MAX_LINE, MEMORY_LOOK};
use crate::external::protocol::{command, over_memory};
use crate::external::socket::{Accept, Listener, Socket};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "command",
        "[]",
        "the agent and its arguments; the host and port to connect to are appended, as the ACPC server's play_match.pl starts agents; `{game}` in it becomes the path of an ACPC game definition file of the table, e.g. [\"./example_player\", \"{game}\"]. Empty: agents you start connect to `port`",
    )
    .command(),
    ParamSpec::new(
        "port",
        "0",
        "without a command: the port on 127.0.0.1 your agents connect to (0: a free port, printed when the first hand waits for an agent)",
    )
    .range(0.0, 65535.0),
    ParamSpec::new(
        "move_ms",
        "5000",
        "longest decision in milliseconds; over it the agent forfeits. An agent the kind starts is charged its own time (what it waits for a core on a busy machine is not counted); one you start is timed on the host's clock",
    )
    .range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "memory_mb",
        "0",
        "the most resident memory, in MiB, an agent the kind starts may hold (0: no bound); over it the agent forfeits with `memory`",
    )
    .range(0.0, 1_048_576.0),
    ParamSpec::new("game_ms", "0", "milliseconds of decisions in one hand; over it the agent forfeits (0: no limit)")
        .range(0.0, Limits::MAX_MS),
    ParamSpec::new("start_ms", "5000", "milliseconds an agent has to connect and send its VERSION line")
        .range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "restart",
        "\"match\"",
        "\"match\": one agent plays hand after hand on its connection, as in an ACPC match (a new one after a fault); \"hand\": a fresh agent every hand, for agents whose play depends on what they saw before (then a run's results do not depend on which worker's agent played a hand)",
    )
    .choices(&["match", "hand"]),
];

/// The `acpc` bot kind.
pub const KIND: BotKind<Holdem> = BotKind {
    name: "acpc",
    about: "an ACPC poker agent (the Annual Computer Poker Competition's protocol 2.0.0), dealt to over TCP",
    params: PARAMS,
    make,
};

/// What every bot made from one config entry shares: how agents are started or met, the pool of
/// idle ones, and the log.
struct Agents {
    /// Empty: agents connect to `listener` by themselves.
    command: Vec<String>,
    /// The bound on a started agent's peak resident memory, in bytes (`memory_mb`).
    memory: Option<u64>,
    port: u16,
    start_limit: Duration,
    /// A fresh agent every hand (`restart = "hand"`).
    fresh_each_hand: bool,
    /// The table's ACPC game definition, written where `{game}` points at the first start.
    definition: String,
    seats: usize,
    /// The shared port of user-started agents, bound at the first hand.
    listener: OnceLock<std::result::Result<Listener, String>>,
    idle: Mutex<Vec<Agent>>,
    log: OnceLock<Option<Arc<Log>>>,
    /// Where the game definition was written (`{game}`), once it was.
    game_file: OnceLock<std::result::Result<PathBuf, String>>,
}

/// One connected agent, and its process when the kind started it.
struct Agent {
    socket: Socket,
    process: Option<Process>,
    /// The last states of its last hand, which need no answer: they go out with the next hand's
    /// first states, in one write (every write wakes the agent), or before the connection closes.
    queued: String,
}

impl Agent {
    fn new(socket: Socket, process: Option<Process>) -> Agent {
        Agent { socket, process, queued: String::new() }
    }

    /// Sends what is queued, closes the connection (the agent reads end of file, as at the end
    /// of an ACPC match) and gives the process a moment to exit before it is killed.
    fn end(self) {
        end_all(std::iter::once(self));
    }

    /// Sends the queued states, if any, giving up after a moment (an agent that does not read
    /// them is ended anyway).
    fn flush(&mut self) {
        if !self.queued.is_empty() {
            let _ = self.socket.send(self.queued.as_bytes(), Some(Instant::now() + GRACE));
            self.queued.clear();
        }
    }
}

/// How long ended agents have to exit after their connection closes before they are killed.
const GRACE: Duration = Duration::from_millis(200);

/// Ends `agents` at once: what is queued sent, every connection closed, then one grace period for
/// all of them before whatever is left is killed (dropped: killed and reaped).
fn end_all(agents: impl IntoIterator<Item = Agent>) {
    let mut processes = Vec::new();
    for mut agent in agents {
        agent.flush();
        agent.socket.close();
        processes.extend(agent.process.take());
    }
    let until = Instant::now() + GRACE;
    while processes.iter().any(Process::is_running) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Drop for Agents {
    fn drop(&mut self) {
        end_all(std::mem::take(self.idle.get_mut().unwrap_or_else(|e| e.into_inner())));
    }
}

fn make(p: &Params, game: &Holdem) -> Result<BotFactory<Holdem>> {
    if game.format != Format::Cash {
        return Err(Error::input(
            "bot kind acpc: ACPC matches are hands with stacks reset each hand: use format = \"cash\"",
        ));
    }
    if game.blinds.ante > 0 {
        return Err(Error::input("bot kind acpc: an ACPC game has no antes: use ante = 0"));
    }
    let given = p.table()["command"].as_array().is_some_and(|c| !c.is_empty());
    let command = if given { command(p, "acpc", "[\"./example_player\", \"{game}\"]")? } else { Vec::new() };
    let fresh_each_hand = p.str("restart") == "hand";
    if fresh_each_hand && command.is_empty() {
        return Err(Error::input("bot kind acpc: restart = \"hand\" starts an agent every hand: give its `command`"));
    }
    let memory = p.i64("memory_mb") as u64;
    let agents = Arc::new(Agents {
        memory: (memory > 0).then_some(memory << 20),
        command,
        port: p.i64("port") as u16,
        start_limit: Duration::from_millis(p.i64("start_ms") as u64),
        fresh_each_hand,
        definition: text::game_definition(game),
        seats: game.seats,
        listener: OnceLock::new(),
        idle: Mutex::new(Vec::new()),
        log: OnceLock::new(),
        game_file: OnceLock::new(),
    });
    Ok(Arc::new(move || Box::new(Acpc::new(Arc::clone(&agents))) as Box<dyn Bot<Holdem>>))
}

/// One seat's agent for one hand.
pub struct Acpc {
    agents: Arc<Agents>,
    agent: Option<Agent>,
    seat: Seat,
    hand: u64,
    /// States of this hand sent so far.
    shown: usize,
    /// The lines being sent, reused.
    out: String,
    /// The agent's own time for its last decision, when the kind started it.
    measured: Option<Duration>,
    /// The most resident memory its processes held, in bytes.
    peak: Option<u64>,
}

impl Acpc {
    fn new(agents: Arc<Agents>) -> Acpc {
        Acpc { agents, agent: None, seat: 0, hand: 0, shown: 0, out: String::new(), measured: None, peak: None }
    }

    fn agent(&mut self) -> &mut Agent {
        self.agent.as_mut().expect("an agent is connected")
    }

    /// The fault for a line that could not be read or written; the agent is ended.
    fn broken(&mut self, error: LineError) -> Fault {
        let mut agent = self.agent.take().expect("an agent is connected");
        match error {
            LineError::Timeout => Fault::new(FaultKind::Time, "timeout: no answer in time"),
            LineError::TooLong => Fault::new(FaultKind::Protocol, format!("a line over {} MiB", MAX_LINE >> 20)),
            LineError::Closed | LineError::InputClosed => {
                let how = match agent.process.as_mut() {
                    Some(process) => process.end_reason(Duration::from_millis(200), error),
                    None => "closed".to_string(),
                };
                Fault::new(FaultKind::Crash, format!("the agent's connection ended ({how})"))
            }
        }
    }

    /// Ends the agent and fails with `fault`.
    fn fail(&mut self, fault: Fault) -> Fault {
        if let Some(agent) = self.agent.take() {
            agent.end();
        }
        fault
    }

    /// The path `{game}` stands for: the table's game definition, written once.
    fn game_file(&self, start: &GameStart<'_>) -> std::result::Result<PathBuf, String> {
        let agents = &self.agents;
        agents
            .game_file
            .get_or_init(|| {
                let dir = match start.run {
                    Some(run) => run.dir().join("acpc"),
                    None => std::env::temp_dir().join(format!("arena-acpc-{}", std::process::id())),
                };
                let path = dir.join(format!("holdem.nolimit.{}p.game", agents.seats));
                std::fs::create_dir_all(&dir)
                    .and_then(|()| std::fs::write(&path, &agents.definition))
                    .map_err(|e| format!("cannot write the game definition {}: {e}", path.display()))?;
                Ok(path)
            })
            .clone()
    }

    /// Starts the agent's program on a port of its own and takes its connection.
    fn launch(&mut self, start: &GameStart<'_>) -> Result<Agent, Fault> {
        let agents = Arc::clone(&self.agents);
        let crash = |why: String| Fault::new(FaultKind::Crash, why);
        let listener = Listener::bind(0).map_err(|e| crash(format!("cannot listen on 127.0.0.1: {e}")))?;
        let mut command = Vec::with_capacity(agents.command.len() + 2);
        for arg in &agents.command {
            match arg.contains("{game}") {
                true => {
                    command.push(arg.replace("{game}", &self.game_file(start).map_err(crash)?.display().to_string()))
                }
                false => command.push(arg.clone()),
            }
        }
        command.push("127.0.0.1".to_string());
        command.push(listener.port().to_string());
        let log = agents.log.get_or_init(|| Log::create(&start.run?.log_path(start.name)).ok());
        let mut process = Process::spawn_with(&command, log.as_ref(), None, Output::Log)
            .map_err(|e| crash(format!("cannot start `{}`: {e}", agents.command.join(" "))))?;
        // The agent's own time to connect: what it waits for a core is not counted.
        let clock = OwnClock::start(process.id(), Instant::now(), Some(agents.start_limit));
        let socket = loop {
            let deadline = clock.deadline(Instant::now()).expect("a budget");
            match listener.accept(deadline, || (!process.is_running()).then(String::new)) {
                Err(Accept::Timeout) if !clock.spent(Instant::now()) => continue,
                accepted => break accepted,
            }
        };
        let socket = match socket {
            Ok(socket) => socket,
            Err(Accept::Gone(_)) => {
                let how = process.end_reason(Duration::ZERO, LineError::Closed);
                return Err(crash(format!("the agent {how} before connecting")));
            }
            Err(Accept::Timeout) => {
                return Err(Fault::new(
                    FaultKind::Time,
                    format!(
                        "timeout: the agent did not connect to 127.0.0.1:{} in {} ms",
                        listener.port(),
                        agents.start_limit.as_millis()
                    ),
                ))
            }
            Err(Accept::Failed) => return Err(crash("the connection failed".to_string())),
        };
        Ok(Agent::new(socket, Some(process)))
    }

    /// Takes the next agent that connects to the shared port.
    fn meet(&mut self) -> Result<Agent, Fault> {
        let agents = Arc::clone(&self.agents);
        let listener = agents.listener.get_or_init(|| {
            let listener =
                Listener::bind(agents.port).map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", agents.port))?;
            eprintln!("acpc: agents connect to 127.0.0.1 port {}", listener.port());
            Ok(listener)
        });
        let listener = listener.as_ref().map_err(|e| Fault::new(FaultKind::Crash, e.clone()))?;
        let deadline = Instant::now() + agents.start_limit;
        match listener.accept(deadline, || None) {
            Ok(socket) => Ok(Agent::new(socket, None)),
            Err(_) => Err(Fault::new(
                FaultKind::Time,
                format!(
                    "timeout: no agent connected to 127.0.0.1:{} in {} ms",
                    listener.port(),
                    agents.start_limit.as_millis()
                ),
            )),
        }
    }

    /// Reads the agent's first line, which must be `VERSION:2.<minor>.<revision>`.
    fn greet(&mut self) -> Result<(), Fault> {
        let limit = self.agents.start_limit.as_millis();
        let start_limit = self.agents.start_limit;
        let agent = self.agent();
        let clock = agent.process.as_ref().map(|p| OwnClock::start(p.id(), Instant::now(), Some(start_limit)));
        let host_deadline = Instant::now() + start_limit;
        let read = loop {
            let now = Instant::now();
            let deadline = clock.as_ref().map_or(host_deadline, |c| c.deadline(now).expect("a budget"));
            match agent.socket.read_line(Some(deadline)) {
                Err(LineError::Timeout) if clock.as_ref().is_some_and(|c| !c.spent(Instant::now())) => continue,
                read => break read.map(|line| String::from_utf8_lossy(line).into_owned()),
            }
        };
        let line = match read {
            Ok(line) => line,
            Err(LineError::Timeout) => {
                let fault = Fault::new(FaultKind::Time, format!("timeout: no VERSION line in {limit} ms"));
                return Err(self.fail(fault));
            }
            Err(e) => return Err(self.broken(e)),
        };
        let version = line.trim().strip_prefix("VERSION:").map(|v| v.split('.').collect::<Vec<_>>());
        match version.as_deref() {
            Some(["2", minor, revision]) if [minor, revision].iter().all(|n| n.parse::<u32>().is_ok()) => Ok(()),
            _ => Err(self.fail(Fault::new(FaultKind::Protocol, format!("first line `{line}` is not {VERSION}")))),
        }
    }
}

/// The action an answer's text names, for the seat to act in `view`, or why it is not legal
/// (in ACPC's terms: raise sizes are what the seat has in the hand).
fn action(view: &View<'_>, game: &Holdem, m: Move) -> std::result::Result<Action, String> {
    let s: &State = view.state();
    let seat = view.seat();
    let base: Chips = s.committed[seat] - s.bet[seat];
    let action = match m {
        Move::Fold => Action::Fold,
        Move::Call => Action::CheckCall,
        Move::Raise(total) => match (total.checked_sub(base), view.raise_bounds()) {
            (_, None) => return Err("raising is not allowed here".to_string()),
            (Some(to), Some((min, max))) if (min..=max).contains(&to) => Action::RaiseTo(to),
            (_, Some((min, max))) => return Err(format!("a raise here goes to r{} .. r{}", base + min, base + max)),
        },
    };
    match action {
        Action::Fold if view.to_call() == 0 => Err("nothing to call: check (c) rather than fold".to_string()),
        _ => view.judge(game, &action).map(|()| action).map_err(|e| e.0),
    }
}

impl Bot<Holdem> for Acpc {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &Holdem, view: &View<'_>, rng: &mut BotRng) -> Action {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &Holdem, start: &GameStart<'_>, _rng: &mut BotRng) -> Result<(), Fault> {
        self.seat = start.seat;
        self.hand = start.game;
        self.shown = 0;
        let idle = self.agents.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(agent) = idle {
            self.agent = Some(agent);
            return Ok(());
        }
        // An agent that cannot be started, ends or stays silent before its VERSION line never
        // answered: its fault is marked `at_start` (a wrong VERSION line is an answer).
        let agent = match self.agents.command.is_empty() {
            true => self.meet(),
            false => self.launch(start),
        };
        self.agent = Some(agent.map_err(Fault::at_start)?);
        self.greet().map_err(|fault| match fault.kind {
            FaultKind::Time | FaultKind::Crash => fault.at_start(),
            _ => fault,
        })
    }

    fn try_act(
        &mut self,
        game: &Holdem,
        view: &View<'_>,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> Result<Action, Fault> {
        // The lines go out and the answer is read without a copy: a decision allocates nothing.
        let agent = self.agent.as_mut().expect("an agent is connected");
        self.out.clear();
        self.out.push_str(&agent.queued);
        agent.queued.clear();
        let from = self.out.len();
        self.shown = text::write_states(view.state(), self.seat, self.hand, self.shown, &mut self.out);
        // The state asked: the last line written, without its CR LF.
        let end = self.out.len() - 2;
        let asked_at = self.out[from..end].rfind("\r\n").map_or(from, |i| from + i + 2);
        if let Some(line) = agent.socket.unasked() {
            let fault = format!("wrote `{}` when not asked to act", String::from_utf8_lossy(line));
            return Err(self.fail(Fault::new(FaultKind::Protocol, fault)));
        }
        if let Err(e) = agent.socket.send(self.out.as_bytes(), deadline) {
            return Err(self.broken(e));
        }
        // An agent the kind started is timed on its own clock from here (the time it waits for a
        // core is not its own); one the user started, on the host's.
        let sent = Instant::now();
        let budget = deadline.map(|d| d.saturating_duration_since(sent));
        let clock = agent.process.as_ref().map(|p| OwnClock::start(p.id(), sent, budget));
        let memory = self.agents.memory.filter(|_| agent.process.is_some());
        self.measured = None;
        let read = loop {
            let now = Instant::now();
            let mut until = clock.as_ref().map_or(deadline, |c| c.deadline(now));
            if memory.is_some() {
                until = Some(until.map_or(now + MEMORY_LOOK, |u| u.min(now + MEMORY_LOOK)));
            }
            match agent.socket.read_line(until) {
                Ok(line) if line.is_empty() || line[0] == b'#' || line[0] == b';' => continue,
                Err(LineError::Timeout) => {
                    let now = Instant::now();
                    if let (Some(limit), Some(process)) = (memory, agent.process.as_mut()) {
                        let peak = process.peak_memory().unwrap_or(0);
                        if peak > limit {
                            self.peak = self.peak.max(Some(peak));
                            return Err(self.fail(over_memory(peak, limit)));
                        }
                    }
                    let spent = match &clock {
                        Some(clock) => clock.spent(now),
                        None => deadline.is_some_and(|d| now >= d),
                    };
                    if spent {
                        break Err(LineError::Timeout);
                    }
                }
                read => break read,
            }
        };
        self.measured = clock.map(|c| c.charged(Instant::now()));
        if let Some(process) = agent.process.as_mut() {
            self.peak = self.peak.max(process.peak_memory());
        }
        let line = match read {
            Ok(line) => String::from_utf8_lossy(line),
            Err(e) => return Err(self.broken(e)),
        };
        let asked = &self.out[asked_at..end];
        let fault = match line.strip_prefix(asked).and_then(|rest| rest.strip_prefix(':')).map(str::trim_end) {
            Some(answer) => match Move::parse(answer).map(|m| action(view, game, m)) {
                Some(Ok(action)) => return Ok(action),
                Some(Err(why)) => {
                    Fault::new(FaultKind::Illegal, format!("illegal action `{answer}`: {why}; in `{line}`"))
                }
                None => Fault::new(
                    FaultKind::Protocol,
                    format!("malformed action `{answer}` (f, c or r<chips>) in `{line}`"),
                ),
            },
            None if line.starts_with("MATCHSTATE:") => {
                Fault::new(FaultKind::Protocol, format!("answered another state: `{line}` (asked: `{asked}`)"))
            }
            None => Fault::new(FaultKind::Protocol, format!("malformed answer `{line}`")),
        };
        Err(self.fail(fault))
    }

    fn measured(&self) -> Option<Duration> {
        self.measured
    }

    fn peak_memory(&self) -> Option<u64> {
        self.peak
    }

    fn finish(&mut self, _game: &Holdem, state: &State, end: &GameEnd<'_>) {
        let Some(mut agent) = self.agent.take() else { return };
        match end.status {
            // The hand played to its end: every seat is shown the last states, as the dealer does.
            Status::Ok => {}
            Status::Forfeit { seat, .. } if *seat == self.seat => return agent.end(),
            // Cut short: the agent answered every state it was sent and waits for the next hand.
            _ if !self.agents.fresh_each_hand => {
                return self.agents.idle.lock().unwrap_or_else(|e| e.into_inner()).push(agent)
            }
            _ => return agent.end(),
        }
        // Sent with the next hand's first states, or before the connection closes.
        text::write_states(state, self.seat, self.hand, self.shown, &mut agent.queued);
        match self.agents.fresh_each_hand {
            false => self.agents.idle.lock().unwrap_or_else(|e| e.into_inner()).push(agent),
            true => agent.end(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(options: &str, given: &str) -> String {
        let table: toml::Table = toml::from_str(options).unwrap();
        let game = <Holdem as crate::core::GameDef>::from_options(
            &Params::new(<Holdem as crate::core::GameDef>::OPTIONS, &table, "table").unwrap(),
            2,
        )
        .unwrap();
        let p = Params::new(&crate::core::BotChoice::specs(PARAMS), &toml::from_str(given).unwrap(), "agent").unwrap();
        match make(&p, &game) {
            Ok(_) => panic!("{given}: accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn tables_acpc_cannot_play_are_refused() {
        assert!(error("format = \"sng\"", "").contains("format = \"cash\""));
        assert!(error("ante = 10", "").contains("no antes"));
        assert!(error("", "command = [\"./no/such/agent\"]").contains("cannot find the program"));
        assert!(error("", "restart = \"hand\"").contains("give its `command`"));
    }
}
