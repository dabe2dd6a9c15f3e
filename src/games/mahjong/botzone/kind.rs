//! The `botzone` bot kind: a bot written for Botzone's Chinese-Standard-Mahjong seated at our
//! table. bot-arena is Botzone here: it tells the seat what happened as the judge's requests
//! (`history::requests`), runs the bot as the platform does, and reads its responses back into
//! our actions.
//!
//! A turn, as on Botzone: the bot is started, given the whole history (simple or JSON
//! interaction, `io`) with the `data` and `globaldata` it saved, its stdin closed, and its output
//! read until it exits. A bot declared `keep_running` (as Botzone's local emulator declares one)
//! keeps its stdin open, and when it ends its output with `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` it
//! is kept: later turns send it the new request alone, until it exits without the line (then the
//! next turn starts it afresh) or the hand ends (then it is killed).
//!
//! Botzone asks all four players every turn; our engine asks a seat only when it has something to
//! decide. So when the seat is asked, it is first sent each request since its last decision (the
//! turns whose only answer is `PASS`: others' draws and discards it cannot claim, its own discard
//! coming back), then the request of the decision. An answer other than `PASS` to one of those is
//! a fault (a `HU` a false win); requests after the seat's last decision in the hand are not sent.
//!
//! `PENG T` and `CHI M T` carry the discard that follows the set, which our engine asks for as a
//! decision of its own: the kind plays it without a turn of the bot's.
//!
//! A fault (Botzone's "invalid response", a false win, a time-out, a crash) forfeits the game;
//! with the `botzone` table a forfeit is scored as the judge scores it (−30 for the bot, +10 to
//! each other player).

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::super::engine::{Action, PhaseView, State, View};
use super::super::Mahjong;
use super::history::{botzone_id, Teller};
use super::text::{Answer, History, Request, Response, KEEP_RUNNING};
use crate::core::{Bot, BotFactory, BotKind, BotRng, Fault, FaultKind, GameEnd, GameStart, Limits, ParamSpec, Params};
use crate::error::{Error, Result};
use crate::external::process::{LineError, Log, OwnClock, Process, MAX_LINE};
use crate::external::protocol::command;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("command", "[]", "the bot and its arguments, e.g. [\"./sample\"] or [\"python3\", \"bot.py\"]").command(),
    ParamSpec::new("io", "\"json\"", "Botzone's interaction: \"json\" (one JSON line a turn) or \"simple\" (lines)"),
    ParamSpec::new(
        "keep_running",
        "false",
        "the bot may keep running (Botzone's keep-running bots): its stdin stays open after a turn's input, and a bot that prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< gets later requests alone; false: stdin is closed after the input, as a bot that reads to the end of its input needs",
    ),
    ParamSpec::new(
        "turn_ms",
        "1000",
        "milliseconds for one turn, process start included (Botzone: 1000 for C++, 6000 for Python); over it the bot forfeits",
    )
    .range(1.0, Limits::MAX_MS),
    ParamSpec::new(
        "globaldata",
        "\"game\"",
        "how long `globaldata` is kept: \"game\" (each game starts without it: deterministic) or \"run\" (across games in the order they end, as Botzone keeps it: not deterministic on several threads)",
    ),
    ParamSpec::new(
        "memory_mb",
        "0",
        "on Linux, the bound on the bot's address space in MiB (RLIMIT_AS; 0: none). Botzone's is 256 MB of memory, which an address space exceeds",
    )
    .range(0.0, 1_048_576.0),
];

/// The `botzone` bot kind.
pub const KIND: BotKind<Mahjong> = BotKind {
    name: "botzone",
    about: "a Botzone Chinese-Standard-Mahjong bot, run as Botzone runs it (a process a turn, or kept running)",
    params: PARAMS,
    make,
};

/// What every bot made from one config entry shares.
struct Program {
    command: Vec<String>,
    json: bool,
    keep_running: bool,
    turn: Duration,
    memory: Option<u64>,
    /// `globaldata` kept across games (`globaldata = "run"`).
    global: Option<Mutex<String>>,
    log: OnceLock<Option<Arc<Log>>>,
}

fn make(p: &Params, game: &Mahjong) -> Result<BotFactory<Mahjong>> {
    if game.hands != 1 {
        return Err(Error::input(
            "bot kind botzone: Botzone plays one hand a game; set [table] hands = 1 (or preset = \"botzone\")",
        ));
    }
    let command = command(p, "botzone", "[\"./sample\"]")?;
    let json = match p.str("io") {
        "json" => true,
        "simple" => false,
        other => {
            return Err(Error::input(format!("bot kind botzone: io must be \"json\" or \"simple\", not \"{other}\"")))
        }
    };
    let global = match p.str("globaldata") {
        "game" => None,
        "run" => Some(Mutex::new(String::new())),
        other => {
            return Err(Error::input(format!(
                "bot kind botzone: globaldata must be \"game\" or \"run\", not \"{other}\""
            )))
        }
    };
    let memory = p.i64("memory_mb") << 20;
    let program = Arc::new(Program {
        command,
        json,
        keep_running: p.bool("keep_running"),
        turn: Duration::from_millis(p.i64("turn_ms") as u64),
        memory: (memory > 0).then_some(memory as u64),
        global,
        log: OnceLock::new(),
    });
    Ok(Arc::new(move || Box::new(Botzone::new(Arc::clone(&program))) as Box<dyn Bot<Mahjong>>))
}

/// One seat's Botzone bot for one game.
pub struct Botzone {
    program: Arc<Program>,
    log: Option<Arc<Log>>,
    /// Tells the hand as the seat's requests (made at the seat's first decision).
    teller: Option<Teller>,
    /// The requests sent so far and the bot's responses to them.
    requests: Vec<Request>,
    responses: Vec<Response>,
    data: String,
    globaldata: String,
    /// The process of a bot that asked to keep running.
    kept: Option<Process>,
    /// The discard a `PENG T` or `CHI M T` named, played once the set is made.
    discard_next: Option<u8>,
    /// The bot's own time in the decision under way (its turns, each on its own clock), and
    /// in the last turn.
    decision_time: Duration,
    turn_time: Duration,
    /// The most resident memory one of its processes held, in bytes.
    peak: Option<u64>,
}

impl Botzone {
    fn new(program: Arc<Program>) -> Botzone {
        Botzone {
            program,
            log: None,
            teller: None,
            requests: Vec::new(),
            responses: Vec::new(),
            data: String::new(),
            globaldata: String::new(),
            kept: None,
            discard_next: None,
            decision_time: Duration::ZERO,
            turn_time: Duration::ZERO,
            peak: None,
        }
    }

    fn note(&self, pid: u32, text: &str) {
        if let Some(log) = &self.log {
            log.line(pid, text.as_bytes());
        }
    }

    /// One turn: `request` sent (with the history, or alone to a kept bot), the output read and
    /// checked against what the judge takes from player `me`. A bot that cannot be started, ends
    /// or stays silent at its first turn of the game never answered: that fault is marked
    /// [`Fault::at_start`].
    fn turn(&mut self, request: Request, me: u8, deadline: Option<Instant>) -> Result<Response, Fault> {
        let first = self.requests.is_empty();
        self.turn_time = Duration::ZERO;
        let answer = self.answer(request, me, deadline);
        self.decision_time += self.turn_time;
        answer.map_err(|(fault, silent)| match first && silent {
            true => fault.at_start(),
            false => fault,
        })
    }

    /// [`Botzone::turn`]; a fault comes with whether the bot wrote nothing at all.
    fn answer(&mut self, request: Request, me: u8, deadline: Option<Instant>) -> Result<Response, (Fault, bool)> {
        let turn_no = self.requests.len() + 1;
        // The turn's time is the bot's own (its start included), counted from here: what its
        // processes wait for a core on a busy machine is not charged. The run's clock, when
        // it has one, may leave less.
        let began = Instant::now();
        let budget = deadline.map_or(self.program.turn, |d| self.program.turn.min(d.saturating_duration_since(began)));
        let json = self.program.json;
        let (mut process, input) = match self.kept.take() {
            Some(process) => (process, super::text::keep_running_input(&request, json)),
            None => {
                let mut history =
                    History::new([&self.requests[..], std::slice::from_ref(&request)].concat(), self.responses.clone())
                        .expect("one request more than responses");
                history.data = self.data.clone();
                history.globaldata = self.globaldata.clone();
                let input = match json {
                    true => history.json_input(),
                    false => history.simple_input().map_err(|e| (Fault::new(FaultKind::Protocol, e), false))?,
                };
                let process = Process::spawn_bounded(&self.program.command, self.log.as_ref(), self.program.memory)
                    .map_err(|e| {
                        let command = self.program.command.join(" ");
                        (Fault::new(FaultKind::Crash, format!("cannot start `{command}`: {e}")), true)
                    })?;
                (process, input)
            }
        };
        let late = || {
            let ms = self.program.turn.as_millis();
            format!("timeout: no answer to `{request}` (turn {turn_no}) in {ms} ms of its own time")
        };
        // From the process started (the host's own wait to start it is not the bot's).
        let clock = OwnClock::start(process.id(), Instant::now(), Some(budget));
        if let Err(e) = process.send(input.as_bytes(), clock.deadline(Instant::now())) {
            return Err((broken(process, e, late), true));
        }
        if !self.program.keep_running {
            process.close_input();
        }
        // The output: every line until the keep-running line or the end of the output.
        let mut output = String::new();
        loop {
            let read = read_line_while_running(&mut process, &clock);
            self.turn_time = clock.charged(Instant::now());
            self.peak = self.peak.max(process.peak_memory());
            match read {
                Ok(line) => {
                    let line = String::from_utf8_lossy(&line);
                    output.push_str(&line);
                    output.push('\n');
                    if line.trim_end() == KEEP_RUNNING {
                        break;
                    }
                    if output.len() > MAX_LINE {
                        let fault = Fault::new(FaultKind::Protocol, format!("over {} MiB of output", MAX_LINE >> 20));
                        return Err((fault, false));
                    }
                }
                Err(LineError::Closed) => {
                    output.push_str(&String::from_utf8_lossy(&process.rest()));
                    if output.trim().is_empty() {
                        return Err((broken(process, LineError::Closed, late), true));
                    }
                    break;
                }
                Err(e) => {
                    let silent = output.is_empty();
                    return Err((broken(process, e, late), silent));
                }
            }
        }
        let answer = Answer::read_for(&output, json, &request, me).map_err(|why| {
            // What was answered, on one line: the response line, or the JSON with its line breaks
            // closed up.
            let body = output.replace(KEEP_RUNNING, "");
            let shown = match json {
                true => body.split_whitespace().collect::<Vec<_>>().join(" "),
                false => body.lines().next().unwrap_or_default().to_string(),
            };
            let fault =
                Fault::new(FaultKind::Protocol, format!("answered `{shown}` to `{request}` (turn {turn_no}): {why}"));
            (fault, false)
        })?;
        let pid = process.id();
        if let Some(debug) = &answer.debug {
            self.note(pid, &format!("debug (turn {turn_no}): {debug}"));
        }
        // As Botzone does: `data` is what this turn saved (nothing, if it saved nothing);
        // `globaldata` changes only when a turn sets it.
        self.data = answer.data.unwrap_or_default();
        if let Some(global) = answer.globaldata.filter(|g| !g.is_empty()) {
            if let Some(shared) = &self.program.global {
                *shared.lock().unwrap_or_else(|e| e.into_inner()) = global.clone();
            }
            self.globaldata = global;
        }
        if answer.keep_running && self.program.keep_running {
            self.kept = Some(process);
        }
        // Otherwise `process` is dropped: it has closed its output, and is killed and reaped.
        self.requests.push(request);
        self.responses.push(answer.response);
        Ok(answer.response)
    }
}

/// How often a turn's wait for output looks whether the bot itself has exited.
const EXIT_POLL: Duration = Duration::from_millis(10);

/// The bot's next line before its `clock` runs out, as [`Process::read_line`]; but once the bot
/// itself has exited, its output is whole (all it wrote is in the pipe), so the pipe's end is not
/// waited for: a child it left holding the pipe open does not turn a given answer into a timeout.
fn read_line_while_running(process: &mut Process, clock: &OwnClock) -> Result<Vec<u8>, LineError> {
    loop {
        let now = Instant::now();
        let deadline = clock.deadline(now).expect("a turn has a budget");
        let step = deadline.min(now + EXIT_POLL);
        let exited = !process.is_running();
        match process.read_line(Some(if exited { Instant::now() } else { step })) {
            Ok(line) => return Ok(line.to_vec()),
            Err(LineError::Timeout) if exited => return Err(LineError::Closed),
            Err(LineError::Timeout) if !clock.spent(Instant::now()) => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The fault of a turn whose input could not be written or output read; the process is ended.
fn broken(mut process: Process, error: LineError, late: impl FnOnce() -> String) -> Fault {
    match error {
        LineError::Timeout => Fault::new(FaultKind::Time, late()),
        LineError::TooLong => Fault::new(FaultKind::Protocol, format!("a line over {} MiB", MAX_LINE >> 20)),
        LineError::Closed | LineError::InputClosed => {
            Fault::new(FaultKind::Crash, process.end_reason(Duration::from_millis(200), error))
        }
    }
}

/// Our action for a response to the request of a decision, and the discard a set's response
/// names.
fn action(response: &Response) -> (Action, Option<u8>) {
    match *response {
        Response::Pass => (Action::Pass, None),
        Response::Play(t) => (Action::Discard(t), None),
        Response::ConcealedGang(t) => (Action::ConcealedKong(t), None),
        Response::Gang => (Action::Kong, None),
        Response::BuGang(t) => (Action::AddedKong(t), None),
        Response::Peng(t) => (Action::Pung, Some(t)),
        Response::Chi { mid, tile } => (Action::Chow(mid - 1), Some(tile)),
        Response::Hu => (Action::Win, None),
    }
}

impl Bot<Mahjong> for Botzone {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &Mahjong, view: &View<'_>, rng: &mut BotRng) -> Action {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &Mahjong, start: &GameStart<'_>, _rng: &mut BotRng) -> std::result::Result<(), Fault> {
        self.log = self.program.log.get_or_init(|| Log::create(&start.run?.log_path(start.name)).ok()).clone();
        self.teller = None;
        self.requests.clear();
        self.responses.clear();
        self.data.clear();
        self.globaldata = match &self.program.global {
            Some(shared) => shared.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            None => String::new(),
        };
        self.kept = None;
        self.discard_next = None;
        Ok(())
    }

    fn try_act(
        &mut self,
        _game: &Mahjong,
        view: &View<'_>,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> std::result::Result<Action, Fault> {
        self.decision_time = Duration::ZERO;
        // The discard after the bot's pung or chow: named in its response, not a turn of its own.
        if view.phase == (PhaseView::Turn { drawn: None }) {
            let tile = self.discard_next.take().expect("a set's response names its discard");
            let discard = Action::Discard(tile);
            if view.legal.contains(&discard) {
                return Ok(discard);
            }
            let response = self.responses.last().map_or(String::new(), |r| r.to_string());
            let code = super::text::tile_code(tile);
            return Err(Fault::new(FaultKind::Illegal, format!("`{response}`: no {code} to discard after the set")));
        }
        self.discard_next = None;
        let me = botzone_id(view.seat, view.dealer);
        let mut fresh = Vec::new();
        let teller = self.teller.get_or_insert_with(|| Teller::new(view.seat, view.dealer, view.hand_no));
        teller.tell(view.history(), &mut fresh);
        let (asked, passes) = fresh.split_last().expect("a decision comes with a request");
        for request in passes.iter().cloned() {
            let shown = request.to_string();
            match self.turn(request, me, deadline)? {
                Response::Pass => {}
                Response::Hu => {
                    let why = format!("false win: `HU` to `{shown}`, with no win there");
                    return Err(Fault::new(FaultKind::Illegal, why));
                }
                other => {
                    let why = format!("`{other}` to `{shown}`: not possible there (only PASS)");
                    return Err(Fault::new(FaultKind::Illegal, why));
                }
            }
        }
        let response = self.turn(asked.clone(), me, deadline)?;
        let (action, discard) = action(&response);
        if !view.legal.contains(&action) {
            let why = match response {
                Response::Hu => format!("false win: `HU` to `{asked}`, not a winning hand of 8 fans or more"),
                _ => format!("`{response}` to `{asked}`: not possible with this hand"),
            };
            return Err(Fault::new(FaultKind::Illegal, why));
        }
        self.discard_next = discard;
        Ok(action)
    }

    fn measured(&self) -> Option<Duration> {
        Some(self.decision_time)
    }

    fn peak_memory(&self) -> Option<u64> {
        self.peak
    }

    fn finish(&mut self, _game: &Mahjong, _state: &State, _end: &GameEnd<'_>) {
        // The match is over: a kept bot is killed (dropped), as Botzone ends it.
        self.kept = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(options: &str, given: &str) -> String {
        let table: toml::Table = toml::from_str(options).unwrap();
        let game = Mahjong {
            min_fans: 8,
            flowers: true,
            hands: table.get("hands").map_or(1, |v| v.as_integer().unwrap() as usize),
            fault_pays: 96,
        };
        let p = Params::new(&crate::core::BotChoice::specs(PARAMS), &toml::from_str(given).unwrap(), "bz").unwrap();
        match make(&p, &game) {
            Ok(_) => panic!("{given}: accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn bad_settings_are_one_error_each() {
        let cmd = "command = [\"sh\"]\n";
        assert!(error("", "").contains("needs `command`"));
        assert!(error("", "command = [\"./no/such/bot\"]").contains("bot kind botzone: cannot find the program"));
        assert!(error("", &format!("{cmd}io = \"xml\"")).contains("io must be \"json\" or \"simple\""));
        assert!(error("", &format!("{cmd}globaldata = \"forever\"")).contains("globaldata must be"));
        assert!(error("hands = 16", cmd).contains("one hand a game"));
    }

    #[test]
    fn responses_become_our_actions() {
        assert_eq!(action(&Response::Chi { mid: 4, tile: 30 }), (Action::Chow(3), Some(30)));
        assert_eq!(action(&Response::Peng(7)), (Action::Pung, Some(7)));
        assert_eq!(action(&Response::Gang), (Action::Kong, None));
        assert_eq!(action(&Response::ConcealedGang(2)), (Action::ConcealedKong(2), None));
        assert_eq!(action(&Response::Hu), (Action::Win, None));
    }
}
