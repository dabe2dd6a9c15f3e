//! The `gomocup` bot kind: any Gomocup ("Piskvork") engine, a `pbrain-*` program, seated at a
//! gomoku table. This is the manager's half of the protocol whose engine half is `brain.rs`; the
//! process life cycle (process groups, deadlines, the stderr log, the pool, no survivors) is
//! `external::process`, shared with the `external` kind.
//!
//! What an engine hears in a game (one command a line):
//!
//! ```text
//! START 15                 a new process (RECTSTART 15,15 with rectstart = true)  → OK
//! ABOUT                    a new process: the answer goes to the bot's log       → name="…", version="…"
//! RESTART                  a process kept from the previous game                 → OK (else: a new process every game)
//! INFO timeout_turn 1000   then timeout_match, max_memory (bytes), game_type 1, rule, the `info` table's keys,
//! INFO folder …            and a folder the engine may write in: <run folder>/engines/<bot> (unless `info` sets one)
//! INFO time_left 2147483647
//! BEGIN                    its first move on an empty board                      → x,y
//! BOARD … DONE             its first move with stones on the board (an opening)  → x,y
//! TURN x,y                 the opponent's move                                   → x,y
//! END                      when the run ends, or when the process is not kept
//! ```
//!
//! Lines the engine writes that are not the answer awaited (`MESSAGE`, `DEBUG`, `SUGGEST`, or any
//! line that does not start with a digit) go to the bot's log and are never read as moves. The
//! engine forfeits the game when it answers `ERROR` or `UNKNOWN`, writes a line starting with a
//! digit that is not `x,y`, plays an occupied cell or off the board (the host's rules refuse it),
//! answers later than its time plus `tolerance_ms`, or exits.
//!
//! Lines end in CR LF, as Piskvork and GomocupJudge send them. On Linux the engine's address
//! space is bounded to `memory_mb` + `headroom_mb` (`RLIMIT_AS`, set before the program runs),
//! as GomocupJudge bounds an engine's memory: an allocation past it fails in the engine. The
//! headroom is there because an address space counts what is reserved, not only what is used
//! (glibc reserves 64 MiB for each thread's malloc arena, a thread's stack is 8 MiB).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::{Gomoku, Move, Rule, State};
use crate::core::{Bot, BotRng, Fault, FaultKind, GameEnd, GameStart, Limits, ParamSpec, Params, Seat, Status};
use crate::core::{BotFactory, BotKind};
use crate::error::{Error, Result};
use crate::external::process::{Cut, LineError, Log, OwnClock, Pool, Process, MAX_LINE};
use crate::external::protocol::{command, over_memory};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("command", "[]", "the engine and its arguments, e.g. [\"./pbrain-rapfi\"]").command(),
    ParamSpec::new(
        "turn_ms",
        "1000",
        "INFO timeout_turn: milliseconds for one move (0, \"as fast as possible\", only beside a max_node or max_depth in `info`: some engines read 0 as no limit)",
    )
    .range(0.0, Limits::MAX_MS),
    ParamSpec::new(
        "match_ms",
        "0",
        "INFO timeout_match: milliseconds for all the engine's moves in one game (0: no limit); INFO time_left goes before every move",
    )
    .range(0.0, Limits::MAX_MS),
    ParamSpec::new(
        "tolerance_ms",
        "1000",
        "how long past its time (turn_ms, or what is left of match_ms) a move may come before the engine forfeits",
    )
    .range(0.0, Limits::MAX_MS),
    ParamSpec::new(
        "memory_mb",
        "350",
        "INFO max_memory, in MiB (sent in bytes; 0: no limit); on Linux the engine's address space is also bounded, to memory_mb + headroom_mb (RLIMIT_AS)",
    )
    .range(0.0, 1_048_576.0),
    ParamSpec::new(
        "headroom_mb",
        "1024",
        "MiB of address space beyond memory_mb the engine may map (thread stacks, malloc arenas and the program itself count in an address space, reserved or not)",
    )
    .range(0.0, 1_048_576.0),
    ParamSpec::new("start_ms", "5000", "milliseconds a process has to answer START, RESTART or ABOUT")
        .range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "gap_ms",
        "5",
        "a pause after the engine's answer before the next command, not charged to its clock (some engines drop a command that comes within about a millisecond of their answer)",
    )
    .range(0.0, 1000.0),
    ParamSpec::new("rectstart", "false", "open the board with RECTSTART n,n instead of START n"),
    ParamSpec::new(
        "info",
        "{}",
        "more INFO keys sent at the start of every game, e.g. { thread_num = 1, max_node = 20000 } (numbers or strings)",
    )
    .paths_in(&["folder"]),
];

/// The `gomocup` bot kind.
pub const KIND: BotKind<Gomoku> = BotKind {
    name: "gomocup",
    about: "a Gomocup engine (pbrain-*), spoken to in the Piskvork protocol over stdin/stdout",
    params: PARAMS,
    make,
};

/// INFO keys the kind sends itself, and what sets each.
const OWN_KEYS: &[(&str, &str)] = &[
    ("timeout_turn", "turn_ms"),
    ("timeout_match", "match_ms"),
    ("time_left", "match_ms"),
    ("max_memory", "memory_mb"),
    ("game_type", "the kind (1: an engine opponent)"),
    ("rule", "[table] rule"),
];

/// `info` keys that bound a search without a clock: beside one, `turn_ms` may be 0.
const SEARCH_LIMITS: &[&str] = &["max_node", "max_depth"];

/// `time_left` when the match has no time limit (as Piskvork and c-gomoku-cli send it).
const UNLIMITED: u64 = i32::MAX as u64;

/// The Gomocup `INFO rule` value of a rule: 0 five or more, 1 exactly five, 4 renju, 8 caro.
fn rule_code(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
        Rule::Caro => 8,
    }
}

/// What every bot made from one config entry shares: the engine's command line and settings, the
/// pool of its idle processes (dropping it at the end of the run ends them) and its log.
struct Engine {
    command: Vec<String>,
    turn_ms: u64,
    match_ms: u64,
    tolerance: Duration,
    start_limit: Duration,
    gap: Duration,
    /// `START 15` or `RECTSTART 15,15`.
    open: String,
    /// The INFO lines of every game's start (`time_left` and `folder` aside).
    info: String,
    /// Whether the `info` table names the engine's folder (else the host gives it one).
    own_folder: bool,
    /// The bound on the process's address space, in bytes (`None`: unbounded).
    memory: Option<u64>,
    /// The bound on its peak resident memory, in bytes (`memory_mb`; `None`: unbounded): over it
    /// the engine forfeits with `memory`, as an outside bot of any kind does.
    resident: Option<u64>,
    pool: Pool,
    /// False once the engine refused RESTART: then every game starts a new process.
    restarts: AtomicBool,
    /// The log, opened by the first process (the host names the run folder at a game's start).
    log: OnceLock<Option<Arc<Log>>>,
}

fn make(p: &Params, game: &Gomoku) -> Result<BotFactory<Gomoku>> {
    let command = command(p, "gomocup", "[\"./pbrain-rapfi\"]")?;
    let (turn_ms, match_ms) = (p.i64("turn_ms") as u64, p.i64("match_ms") as u64);
    let extra = p.table()["info"].as_table().expect("declared table");
    if turn_ms == 0 && !SEARCH_LIMITS.iter().any(|k| extra.contains_key(*k)) {
        return Err(Error::input(
            "bot kind gomocup: turn_ms = 0 (\"as fast as possible\") is read as \"no limit\" by some engines: \
             give a node or depth limit in `info` (max_node, max_depth) or a turn_ms above 0",
        ));
    }
    let mut info = String::new();
    let memory = p.i64("memory_mb") << 20;
    let rule = rule_code(game.rule);
    write!(
        info,
        "INFO timeout_turn {turn_ms}\nINFO timeout_match {match_ms}\nINFO max_memory {memory}\nINFO game_type 1\nINFO rule {rule}\n"
    )
    .expect("a String takes writes");
    for (key, value) in extra {
        if let Some((_, by)) = OWN_KEYS.iter().find(|(own, _)| own.eq_ignore_ascii_case(key)) {
            return Err(Error::input(format!("bot kind gomocup: INFO {key} is set by {by}, not by `info`")));
        }
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err(Error::input(format!("bot kind gomocup: `{key}` cannot be an INFO key (one word)")));
        }
        let value = match value {
            toml::Value::Integer(v) => v.to_string(),
            toml::Value::Float(v) => v.to_string(),
            toml::Value::String(v) if !v.contains(['\n', '\r']) => v.clone(),
            _ => {
                return Err(Error::input(format!("bot kind gomocup: info.{key} must be a number or a one-line string")))
            }
        };
        writeln!(info, "INFO {key} {value}").expect("a String takes writes");
    }
    let size = game.size;
    let engine = Arc::new(Engine {
        command,
        turn_ms,
        match_ms,
        tolerance: Duration::from_millis(p.i64("tolerance_ms") as u64),
        start_limit: Duration::from_millis(p.i64("start_ms") as u64),
        gap: Duration::from_millis(p.i64("gap_ms") as u64),
        open: if p.bool("rectstart") { format!("RECTSTART {size},{size}") } else { format!("START {size}") },
        info,
        own_folder: extra.keys().any(|k| k.eq_ignore_ascii_case("folder")),
        memory: (memory > 0).then(|| (memory + (p.i64("headroom_mb") << 20)) as u64),
        resident: (memory > 0).then_some(memory as u64),
        pool: Pool::new(b"END\r\n".to_vec()),
        restarts: AtomicBool::new(true),
        log: OnceLock::new(),
    });
    Ok(Arc::new(move || Box::new(Gomocup::new(Arc::clone(&engine))) as Box<dyn Bot<Gomoku>>))
}

/// `text` with its lines ended in CR LF, as Piskvork ends them (some engines expect the CR).
fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

/// A line an engine writes, as the manager reads it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// `OK`.
    Ok,
    /// `ERROR …` or `UNKNOWN …`: the engine cannot do what it was asked.
    Refused(String),
    /// `x,y`.
    Move(Move),
    /// A line starting with a digit or a sign that is not `x,y` on a board of up to 255 cells a side.
    Malformed(String),
    /// `MESSAGE`, `DEBUG` or `SUGGEST`: logged, never an answer.
    Note,
    /// Any other line: the answer to ABOUT; logged and passed over while a move or OK is awaited.
    Text,
}

impl Answer {
    pub(super) fn read(line: &str) -> Answer {
        let line = line.trim();
        let word = line.split_whitespace().next().unwrap_or("");
        if word.eq_ignore_ascii_case("OK") && word.len() == line.len() {
            return Answer::Ok;
        }
        if ["ERROR", "UNKNOWN"].iter().any(|w| word.eq_ignore_ascii_case(w)) {
            return Answer::Refused(line.to_string());
        }
        if ["MESSAGE", "DEBUG", "SUGGEST"].iter().any(|w| word.eq_ignore_ascii_case(w)) {
            return Answer::Note;
        }
        if !line.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
            return Answer::Text;
        }
        let coordinate = |c: &str| c.trim().parse::<u8>().ok().filter(|_| !c.trim().starts_with('+'));
        match line.split_once(',') {
            Some((x, y)) => match (coordinate(x), coordinate(y)) {
                (Some(x), Some(y)) => Answer::Move(Move { x, y }),
                _ => Answer::Malformed(line.to_string()),
            },
            None => Answer::Malformed(line.to_string()),
        }
    }
}

/// One seat's engine for one game: a process taken from the pool (or started) at the start,
/// given back (or ended) at the finish.
pub struct Gomocup {
    engine: Arc<Engine>,
    process: Option<Process>,
    log: Option<Arc<Log>>,
    seat: Seat,
    /// When the engine last answered: the next command waits for the gap after it.
    answered: Option<Instant>,
    /// How many stones the engine's board holds; `None` until it is first asked to move.
    known: Option<usize>,
    /// The engine's own time used in this game (time it waited for a core left out).
    used: Duration,
    /// Its own time for the last move, for the host's clock ([`Bot::measured`]).
    measured: Option<Duration>,
    /// The most resident memory its processes held, in bytes.
    peak: Option<u64>,
}

impl Gomocup {
    fn new(engine: Arc<Engine>) -> Gomocup {
        Gomocup {
            engine,
            process: None,
            log: None,
            seat: 0,
            answered: None,
            known: None,
            used: Duration::ZERO,
            measured: None,
            peak: None,
        }
    }

    fn process(&mut self) -> &mut Process {
        self.process.as_mut().expect("a process is running")
    }

    /// Writes a line of the engine's to the log.
    fn note(&self, text: &str) {
        if let (Some(log), Some(process)) = (&self.log, &self.process) {
            log.line(process.id(), text.as_bytes());
        }
    }

    /// Waits out the gap after the engine's last answer (not charged to it).
    fn pause(&self) {
        if let Some(answered) = self.answered {
            let until = answered + self.engine.gap;
            std::thread::sleep(until.saturating_duration_since(Instant::now()));
        }
    }

    /// The fault for a line that could not be read or written; the process is ended.
    fn broken(&mut self, error: LineError, timeout: impl FnOnce() -> String) -> Fault {
        self.cut(Cut::Line(error), timeout)
    }

    /// The fault for a read cut short (a line, or memory over its bound); the process is ended.
    fn cut(&mut self, cut: Cut, timeout: impl FnOnce() -> String) -> Fault {
        let mut process = self.process.take().expect("a process is running");
        self.peak = self.peak.max(process.peak_memory());
        let error = match cut {
            Cut::Line(error) => error,
            Cut::Memory(peak) => return over_memory(peak, self.engine.resident.unwrap_or(0)),
        };
        match error {
            LineError::Timeout => Fault::new(FaultKind::Time, timeout()),
            LineError::TooLong => Fault::new(FaultKind::Protocol, format!("a line over {} MiB", MAX_LINE >> 20)),
            LineError::Closed | LineError::InputClosed => {
                Fault::new(FaultKind::Crash, process.end_reason(Duration::from_millis(200), error))
            }
        }
        // `process` is dropped here: killed and reaped.
    }

    /// Sends `text` as [`Gomocup::send`] does, and starts the engine's own clock for the answer,
    /// with `budget`.
    fn send_timed(
        &mut self,
        text: &str,
        budget: Duration,
        timeout: impl FnOnce() -> String,
    ) -> Result<OwnClock, Fault> {
        self.pause();
        let sent = Instant::now();
        let pid = self.process().id();
        let clock = OwnClock::start(pid, sent, Some(budget));
        let deadline = clock.deadline(sent).expect("a budget");
        self.process().send(crlf(text).as_bytes(), Some(deadline)).map_err(|e| self.broken(e, timeout))?;
        Ok(clock)
    }

    /// Sends `text` (whole lines, each ending in `\n`, sent as CR LF) after the gap.
    fn send(&mut self, text: &str, deadline: Instant, timeout: impl FnOnce() -> String) -> Result<(), Fault> {
        self.pause();
        self.process().send(crlf(text).as_bytes(), Some(deadline)).map_err(|e| self.broken(e, timeout))
    }

    /// The engine's next line that is not a MESSAGE, DEBUG or SUGGEST note (those are logged),
    /// on its own clock.
    fn answer(&mut self, clock: &OwnClock, timeout: impl Fn() -> String) -> Result<(Answer, String), Fault> {
        let resident = self.engine.resident;
        loop {
            let line = match self.process().read_line_charged(clock, resident) {
                Ok(line) => String::from_utf8_lossy(line).into_owned(),
                Err(cut) => return Err(self.cut(cut, timeout)),
            };
            self.answered = Some(Instant::now());
            let answer = Answer::read(&line);
            if answer != Answer::Note {
                return Ok((answer, line));
            }
            self.note(&format!("stdout: {line}"));
        }
    }

    /// Sends `command` and waits for `OK`; lines other than OK and a refusal are logged.
    fn expect_ok(&mut self, command: &str) -> Result<(), Fault> {
        let ms = self.engine.start_limit.as_millis();
        let timeout = || format!("timeout: no answer to {command} in {ms} ms of its own time");
        let clock = self.send_timed(&format!("{command}\n"), self.engine.start_limit, timeout)?;
        loop {
            match self.answer(&clock, timeout)? {
                (Answer::Ok, _) => return Ok(()),
                (Answer::Refused(line), _) => {
                    return Err(Fault::new(FaultKind::Protocol, format!("answered {command} with `{line}`")))
                }
                (_, line) => self.note(&format!("stdout: {line}")),
            }
        }
    }

    /// Starts a process: START (or RECTSTART), then ABOUT, whose answer goes to the log and to
    /// the run's manifest. An engine that cannot be started, ends or stays silent before it
    /// answers START never answered: its fault is marked [`Fault::at_start`].
    fn launch(&mut self, start: &GameStart<'_>) -> Result<(), Fault> {
        let engine = Arc::clone(&self.engine);
        let process = Process::spawn_bounded(&engine.command, self.log.as_ref(), engine.memory).map_err(|e| {
            Fault::new(FaultKind::Crash, format!("cannot start `{}`: {e}", engine.command.join(" "))).at_start()
        })?;
        self.process = Some(process);
        self.answered = None;
        let result = self.expect_ok(&engine.open);
        if result.is_err() {
            self.process = None;
        }
        result.map_err(|fault| match fault.kind {
            FaultKind::Time => fault.at_start(),
            FaultKind::Crash => {
                let open = engine.open.split(' ').next().unwrap_or_default();
                Fault::new(FaultKind::Crash, format!("{fault} before answering {open}")).at_start()
            }
            _ => fault,
        })?;
        let ms = engine.start_limit.as_millis();
        let timeout = || format!("timeout: no answer to ABOUT in {ms} ms of its own time");
        let clock = self.send_timed("ABOUT\n", engine.start_limit, timeout)?;
        let (_, about) = self.answer(&clock, timeout)?;
        self.note(&format!("ABOUT: {about}"));
        if let Some(run) = start.run {
            run.identify(start.name, &about);
        }
        Ok(())
    }

    /// A process from the pool, told RESTART; `None` when there is none or it refused (then the
    /// engine is known not to restart, and every later game starts a new process).
    fn restarted(&mut self) -> Option<Process> {
        if !self.engine.restarts.load(Ordering::Relaxed) {
            return None;
        }
        self.process = Some(self.engine.pool.take()?);
        // When it last answered is not known: a whole gap.
        self.answered = Some(Instant::now());
        match self.expect_ok("RESTART") {
            Ok(()) => self.process.take(),
            Err(fault) => {
                self.note(&format!("RESTART failed ({fault}): a new process for every game"));
                if fault.kind != FaultKind::Crash {
                    self.engine.restarts.store(false, Ordering::Relaxed);
                }
                self.process = None;
                None
            }
        }
    }

    /// The fault of a move that did not come in time.
    fn late(&self, limit: u64, of_match: bool) -> String {
        let tolerance = self.engine.tolerance.as_millis();
        match of_match {
            true => format!("timeout: no move in the {limit} ms left of timeout_match (+{tolerance} ms tolerance)"),
            false => format!("timeout: no move in timeout_turn {limit} ms (+{tolerance} ms tolerance)"),
        }
    }
}

impl Bot<Gomoku> for Gomocup {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &Gomoku, view: &&State, rng: &mut BotRng) -> Move {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &Gomoku, start: &GameStart<'_>, _rng: &mut BotRng) -> Result<(), Fault> {
        self.seat = start.seat;
        self.known = None;
        self.used = Duration::ZERO;
        self.log = self
            .engine
            .log
            // Without a log the engine still plays; its stderr and chatter are lost.
            .get_or_init(|| Log::create(&start.run?.log_path(start.name)).ok())
            .clone();
        match self.restarted() {
            Some(process) => self.process = Some(process),
            None => self.launch(start)?,
        }
        let mut info = self.engine.info.clone();
        if let (false, Some(run)) = (self.engine.own_folder, start.run) {
            let folder = run.engine_dir(start.name);
            match std::fs::create_dir_all(&folder) {
                Ok(()) => writeln!(info, "INFO folder {}", folder.display()).expect("a String takes writes"),
                Err(e) => self.note(&format!("no INFO folder: cannot create {}: {e}", folder.display())),
            }
        }
        let deadline = Instant::now() + self.engine.start_limit;
        self.send(&info, deadline, || "timeout: the engine does not read its input".to_string())
    }

    fn try_act(
        &mut self,
        _game: &Gomoku,
        view: &&State,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> Result<Move, Fault> {
        let s: &State = view;
        let engine = Arc::clone(&self.engine);
        let left = (engine.match_ms > 0).then(|| engine.match_ms.saturating_sub(self.used.as_millis() as u64));
        let mut text = format!("INFO time_left {}\n", left.unwrap_or(UNLIMITED));
        match (self.known, s.last()) {
            (None, None) => text.push_str("BEGIN\n"),
            (Some(known), Some(m)) if known + 1 == s.moves.len() => writeln!(text, "TURN {},{}", m.x, m.y).unwrap(),
            _ => {
                // Stones listed in the order played: 1 the engine's (the side to move), 2 the opponent's.
                text.push_str("BOARD\n");
                let own = s.to_move() % 2;
                for (i, m) in s.moves.iter().enumerate() {
                    writeln!(text, "{},{},{}", m.x, m.y, if i % 2 == own { 1 } else { 2 }).unwrap();
                }
                text.push_str("DONE\n");
            }
        }
        // The engine's limit: its turn, or what is left of the match if that is less.
        let (limit, of_match) = match left {
            Some(left) if engine.turn_ms == 0 || left < engine.turn_ms => (left, true),
            _ => (engine.turn_ms, false),
        };
        let late = self.late(limit, of_match);
        // The engine's own time, counted from its command written: the host's clock (the run's
        // time control) may leave it less.
        let own = Duration::from_millis(limit) + engine.tolerance;
        let budget = deadline.map_or(own, |d| own.min(d.saturating_duration_since(Instant::now())));
        self.measured = None;
        let clock = self.send_timed(&text, budget, || late.clone())?;
        let answered = loop {
            match self.answer(&clock, || late.clone()) {
                Ok((Answer::Ok | Answer::Text, line)) => self.note(&format!("stdout: {line}")),
                answered => break answered,
            }
        };
        let took = clock.charged(Instant::now());
        self.used += took;
        self.measured = Some(took);
        let (answer, _) = answered?;
        let fault = match answer {
            Answer::Move(m) => {
                self.known = Some(s.moves.len() + 1);
                return Ok(m);
            }
            Answer::Refused(line) => Fault::new(FaultKind::Protocol, format!("answered `{line}`")),
            Answer::Malformed(line) => Fault::new(FaultKind::Protocol, format!("malformed move `{line}`")),
            Answer::Ok | Answer::Text | Answer::Note => unreachable!("passed over above"),
        };
        self.process = None; // out of step with the game: end it
        Err(fault)
    }

    fn measured(&self) -> Option<Duration> {
        self.measured
    }

    fn peak_memory(&self) -> Option<u64> {
        self.peak
    }

    fn finish(&mut self, _game: &Gomoku, _state: &State, end: &GameEnd<'_>) {
        let Some(mut process) = self.process.take() else { return };
        self.peak = self.peak.max(process.peak_memory());
        if matches!(end.status, Status::Forfeit { seat, .. } if *seat == self.seat) {
            return; // a fault ends the process (dropped: killed and reaped); the next game starts another
        }
        if self.engine.restarts.load(Ordering::Relaxed) {
            self.engine.pool.put(process);
        } else {
            self.engine.pool.end(process);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_as_the_protocol_says() {
        let m = |x, y| Answer::Move(Move { x, y });
        for (line, expected) in [
            ("OK", Answer::Ok),
            ("ok\r", Answer::Ok),
            ("7,7", m(7, 7)),
            (" 10 , 3 ", m(10, 3)),
            ("ERROR board too big", Answer::Refused("ERROR board too big".into())),
            ("UNKNOWN command", Answer::Refused("UNKNOWN command".into())),
            ("MESSAGE 7,7 looks good", Answer::Note),
            ("debug depth 3", Answer::Note),
            ("SUGGEST 3,3", Answer::Note),
            ("OK then", Answer::Text),
            ("name=\"x\"", Answer::Text),
            ("7;7", Answer::Malformed("7;7".into())),
            ("7,7,1", Answer::Malformed("7,7,1".into())),
            ("-1,3", Answer::Malformed("-1,3".into())),
            ("+1,3", Answer::Malformed("+1,3".into())),
            ("300,3", Answer::Malformed("300,3".into())),
        ] {
            assert_eq!(Answer::read(line), expected, "{line:?}");
        }
    }

    fn params(given: &str) -> Result<Params> {
        Params::new(&crate::core::BotChoice::specs(PARAMS), &toml::from_str(given).unwrap(), "engine")
    }

    fn error(given: &str) -> String {
        let game = Gomoku::new(15, Rule::Renju, 0);
        match params(given).and_then(|p| make(&p, &game)) {
            Ok(_) => panic!("{given}: accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn bad_settings_are_one_error_each() {
        let cmd = "command = [\"sh\"]\n";
        assert!(error("").contains("needs `command`"));
        assert!(error("command = [\"./no/such/pbrain\"]").contains("bot kind gomocup: cannot find the program"));
        assert!(error(&format!("{cmd}turn_ms = 0")).contains("turn_ms = 0"));
        assert!(error(&format!("{cmd}turn_ms = -1")).contains("turn_ms"));
        assert!(error(&format!("{cmd}info = {{ timeout_turn = 5 }}")).contains("INFO timeout_turn is set by turn_ms"));
        assert!(error(&format!("{cmd}info = {{ rule = 1 }}")).contains("[table] rule"));
        assert!(error(&format!("{cmd}info = {{ x = [1] }}")).contains("info.x must be a number"));
        assert!(error(&format!("{cmd}info = {{ \"two words\" = 1 }}")).contains("one word"));
        assert!(error(&format!("{cmd}gap_ms = 5000")).contains("gap_ms"));
        // With a node limit, 0 is allowed; the INFO lines follow the settings.
        let game = Gomoku::new(15, Rule::Renju, 0);
        let p = params(&format!("{cmd}turn_ms = 0\nmemory_mb = 1\ninfo = {{ max_node = 20000, folder = \"/tmp\" }}"))
            .unwrap();
        assert!(make(&p, &game).is_ok());
    }
}
