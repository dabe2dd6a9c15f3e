//! `arena check-bot`: a compliance run of a program that speaks the JSON line protocol
//! (docs/book/src/protocol.md) before it enters a tournament. The program is greeted, plays two
//! games of the real game (dealt, judged and ended by the host's own code: the messages are
//! those the `external` kind writes), is told to quit, and must exit. Each step is a [`Check`]
//! that passes or fails with the exact line the program sent, or that it sent none in time.

use std::time::{Duration, Instant};

use crate::core::wire::Texts;
use crate::core::{Fault, FaultKind, GameDef, GameEnd, GameSeeds, Params, Seat, Status};
use crate::error::{Error, Result};
use crate::external::process::{Cut, LineError, OwnClock, Process};
use crate::external::protocol::{message, read_answer_with_policy};

/// How long a program has to exit once told to quit, its stdin still open (the host of a run
/// kills it 200 ms after `quit`; the check allows for a slow interpreter's exit).
const QUIT_GRACE: Duration = Duration::from_millis(1000);

/// The games a check plays: the program sits in the first seat, then in the last, and again
/// (more games meet more kinds of decision).
pub(super) const GAMES: u64 = 4;

/// The limits a checked program is held to.
#[derive(Clone, Copy, Debug)]
pub struct CheckLimits {
    /// The time it has to answer `hello`, in its own time (ms).
    pub start_ms: u64,
    /// The time it has for one decision, in its own time (ms).
    pub move_ms: u64,
    /// The most resident memory it may hold (MiB); 0: no bound.
    pub memory_mb: u64,
}

/// One check: its name, and why it failed (`None`: it passed).
#[derive(Clone, Debug)]
pub struct Check {
    /// What was checked, as a person reads it.
    pub name: String,
    /// Why it failed, with the line the program sent; `None` when it passed.
    pub failure: Option<String>,
}

impl Check {
    /// The check as the command prints it: `pass  <check>` or `FAIL  <check>: <why>`.
    pub fn line(&self) -> String {
        match &self.failure {
            None => format!("pass  {}", self.name),
            Some(why) => format!("FAIL  {}: {why}", self.name),
        }
    }
}

/// A line the program sent, shown whole up to 200 bytes.
fn quoted(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(200)]);
    let more = if line.len() > 200 { " …" } else { "" };
    format!("the bot sent `{text}`{more}")
}

/// Why a read found no line: the program's silence or end, in words (`limit`: the time limit in
/// ms, or for memory the bound in MiB).
fn silence(process: &mut Process, cut: Cut, limit: u64) -> String {
    match cut {
        Cut::Line(LineError::Timeout) => format!("the bot sent nothing within {limit} ms (killed)"),
        Cut::Line(LineError::TooLong) => "the bot sent a line longer than 1 MiB".to_string(),
        Cut::Line(closed) => {
            let rest = process.rest();
            let reason = process.end_reason(Duration::from_millis(200), closed);
            match rest.is_empty() {
                true => format!("the bot sent nothing: it {reason}"),
                false => format!("{} without a newline, then {reason}", quoted(&rest)),
            }
        }
        Cut::Memory(peak) => format!("the bot held {} MiB, over the {limit} MiB allowed (killed)", peak >> 20),
    }
}

/// The words of a decision's legal actions (`fold, call, raise`), its kind for the checks: the
/// first word of each legal action, those that are words, in order and once; `move` when none is
/// (gomoku's `7,7`).
pub(super) fn decision_kind(legal: &Texts) -> String {
    let mut words: Vec<&str> = Vec::new();
    for text in legal.iter() {
        let word = text.split_whitespace().next().unwrap_or("");
        if !word.is_empty() && word.chars().all(char::is_alphabetic) && !words.contains(&word) {
            words.push(word);
        }
    }
    match words.is_empty() {
        true => "move".to_string(),
        false => words.join(", "),
    }
}

/// An action for a seat the host plays, from a fixed stream (`draw`): two times in three `check`
/// or `call` when legal (so that the program meets decisions with nothing to call and hands go
/// on), else any legal action but `fold` (so that it meets bets and raises, and a game does not
/// end before it is asked).
pub(super) fn host_action<G: GameDef>(game: &G, state: &G::State, seat: Seat, draw: &mut u64) -> G::Action {
    let legal = game.legal_texts(&game.view(state, seat));
    *draw = draw.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let passive = legal.iter().find(|l| *l == "check" || *l == "call");
    let text = match passive {
        Some(text) if !(*draw >> 60).is_multiple_of(3) => text,
        _ => {
            let open: Vec<&String> = legal.iter().filter(|l| *l != "fold").collect();
            let from = if open.is_empty() { legal.iter().collect() } else { open };
            from[(*draw >> 33) as usize % from.len()]
        }
    };
    game.parse_action(text).expect("a legal text parses")
}

/// The state of one check run: the program, the checks so far, and where decisions stand.
struct Run<'a, G: GameDef> {
    game: &'a G,
    limits: CheckLimits,
    process: Process,
    /// The checks of each kind of decision, by kind, in the order first met: `None` while every
    /// answer was legal.
    decisions: Vec<(String, Option<String>)>,
    /// The first line written unasked.
    unasked: Option<String>,
    /// Draws the other seats' actions (a fixed stream: the check is the same on every run).
    draw: u64,
}

/// Why a game stopped early: the program broke (no more checks can be asked of it) or
/// answered an illegal action (the game is forfeited, as in a run, and the program plays on).
enum Stop {
    Broken,
    Forfeit,
}

impl<G: GameDef> Run<'_, G> {
    fn fail_decision(&mut self, kind: &str, why: String) {
        match self.decisions.iter_mut().find(|(k, _)| k == kind) {
            Some((_, failure)) => {
                failure.get_or_insert(why);
            }
            None => self.decisions.push((kind.to_string(), Some(why))),
        }
    }

    fn pass_decision(&mut self, kind: &str) {
        if !self.decisions.iter().any(|(k, _)| k == kind) {
            self.decisions.push((kind.to_string(), None));
        }
    }

    /// Plays game `index` with the program in `seat`; `Ok(true)` when it answered at least once.
    fn play(&mut self, index: u64, seat: Seat) -> std::result::Result<bool, Stop> {
        let seeds = GameSeeds::derive(1, 0, index, 1);
        let game = self.game;
        let mut state = game.deal(&mut seeds.deal_rng());
        let new_game = message::NewGame { seat, game: index, seed: 0x9E37_79B9_7F4A_7C15 ^ index };
        self.process.queue(line(&new_game).as_bytes());
        let mut answered = false;
        let mut legal = Texts::default();
        while let Some(to_act) = game.to_act(&state) {
            if to_act != seat {
                let action = host_action(game, &state, to_act, &mut self.draw);
                game.apply(&mut state, &action).expect("a legal action applies");
                continue;
            }
            if let Some(extra) = self.process.unasked() {
                let extra = extra.to_vec();
                self.unasked.get_or_insert_with(|| quoted(&extra));
            }
            let act = {
                let view = game.view(&state, seat);
                legal.clear();
                game.write_legal(&view, &mut legal);
                let act = line(&message::Act { view: game.view_json(&view), legal: &legal });
                act
            };
            let kind = decision_kind(&legal);
            let sent = Instant::now();
            if let Err(e) = self.process.send(act.as_bytes(), Some(sent + Duration::from_millis(self.limits.move_ms))) {
                let why = silence(&mut self.process, Cut::Line(e), self.limits.move_ms);
                self.fail_decision(&kind, why);
                return Err(Stop::Broken);
            }
            let memory = (self.limits.memory_mb > 0).then_some(self.limits.memory_mb << 20);
            let budget = Some(Duration::from_millis(self.limits.move_ms));
            let clock = OwnClock::start(self.process.id(), sent, budget);
            let answer = match self.process.read_line_charged(&clock, memory) {
                Ok(answer) => answer.to_vec(),
                Err(cut) => {
                    let limit = match cut {
                        Cut::Memory(_) => self.limits.memory_mb,
                        Cut::Line(_) => self.limits.move_ms,
                    };
                    let why = silence(&mut self.process, cut, limit);
                    self.fail_decision(&kind, why);
                    return Err(Stop::Broken);
                }
            };
            answered = true;
            let judged = read_answer_with_policy(game, &game.view(&state, seat), &legal, &answer, &mut Vec::new());
            match judged {
                Ok(action) => match game.apply(&mut state, &action) {
                    Ok(()) => self.pass_decision(&kind),
                    Err(e) => {
                        let fault = Fault::new(FaultKind::Illegal, e.to_string());
                        self.fail_decision(&kind, format!("{}: {fault}", quoted(&answer)));
                        return self.forfeit(&state, seat, fault);
                    }
                },
                Err(fault) if fault.kind == FaultKind::Illegal => {
                    self.fail_decision(&kind, format!("{}: {fault}", quoted(&answer)));
                    return self.forfeit(&state, seat, fault);
                }
                Err(fault) => {
                    self.fail_decision(&kind, format!("{}: {fault}", quoted(&answer)));
                    return Err(Stop::Broken);
                }
            }
        }
        let outcome = game.outcome(&state);
        let over = message::game_over(game, &state, &GameEnd { outcome: &outcome, status: &Status::Ok });
        self.process.queue(line(&over).as_bytes());
        Ok(answered)
    }

    /// Ends the game as a run does after an illegal answer: `seat` forfeits and is told so
    /// in `game_over`.
    fn forfeit(&mut self, state: &G::State, seat: Seat, fault: Fault) -> std::result::Result<bool, Stop> {
        let outcome = self.game.forfeit(state, seat);
        let status = Status::Forfeit { seat, reason: fault };
        let over = message::game_over(self.game, state, &GameEnd { outcome: &outcome, status: &status });
        self.process.queue(line(&over).as_bytes());
        Err(Stop::Forfeit)
    }
}

/// A message as one line, newline included.
fn line(message: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string(message).expect("messages serialise");
    text.push('\n');
    text
}

/// Checks the program `command` on game `G` with `table` at its fewest seats, under
/// `limits`; each check is handed to `report` as it is decided, and all are returned. An error
/// only when the program cannot be started at all (bad input).
pub fn check_jsonl<G: GameDef>(
    table: &Params,
    command: &[String],
    limits: CheckLimits,
    report: &mut dyn FnMut(&Check),
) -> Result<Vec<Check>> {
    let seats = *G::SEATS.start();
    let game = G::from_options(table, seats)?;
    let process = Process::spawn(command, None)
        .map_err(|e| Error::input(format!("cannot start `{}`: {e}", command.join(" "))))?;
    let mut checks = Vec::new();
    let mut decide = |checks: &mut Vec<Check>, name: String, failure: Option<String>| {
        let check = Check { name, failure };
        report(&check);
        checks.push(check);
    };
    let mut run = Run { game: &game, limits, process, decisions: Vec::new(), unasked: None, draw: 1 };

    // hello
    let hello_name = format!("hello: answered `{{\"type\": \"ready\"}}` within {} ms", limits.start_ms);
    let params = toml::Table::new();
    let hello = line(&message::hello(G::NAME, table, seats, "checked", &params));
    let sent = Instant::now();
    let greeted = match run.process.send(hello.as_bytes(), Some(sent + Duration::from_millis(limits.start_ms))) {
        Err(e) => Err(silence(&mut run.process, Cut::Line(e), limits.start_ms)),
        Ok(()) => match run.process.read_line_charged(
            &OwnClock::start(run.process.id(), sent, Some(Duration::from_millis(limits.start_ms))),
            None,
        ) {
            Err(cut) => Err(silence(&mut run.process, cut, limits.start_ms)),
            Ok(answer) => {
                let ready = serde_json::from_slice::<serde_json::Value>(answer)
                    .ok()
                    .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string));
                match ready.as_deref() {
                    Some("ready") => Ok(()),
                    _ => Err(format!("{}, not `{{\"type\": \"ready\"}}`", quoted(answer))),
                }
            }
        },
    };
    let mut broken = greeted.is_err();
    decide(&mut checks, hello_name, greeted.err());

    // two games: the decisions of each kind, and a second game after game_over
    let second_name = "game_over, then new_game: the bot answers in a later game".to_string();
    let mut second = None;
    let mut reported = 0;
    for index in 0..GAMES {
        if broken {
            break;
        }
        let seat = if index % 2 == 0 { 0 } else { seats - 1 };
        let played = run.play(index, seat);
        for (kind, failure) in &run.decisions[reported..] {
            let name = format!("act ({kind}): a legal answer within {} ms", limits.move_ms);
            decide(&mut checks, name, failure.clone());
        }
        reported = run.decisions.len();
        let answered = match played {
            Ok(answered) => answered,
            Err(Stop::Forfeit) => true,
            Err(Stop::Broken) => {
                broken = true;
                false
            }
        };
        if index >= 1 {
            second = Some(second.unwrap_or(false) || answered);
        }
    }
    let not_reached = || Some("not reached: the bot failed an earlier check and was stopped".to_string());
    match second {
        Some(true) => decide(&mut checks, second_name, None),
        Some(false) if !broken => {
            decide(&mut checks, second_name, Some("no later game asked the bot anything".to_string()))
        }
        _ => decide(&mut checks, second_name, not_reached()),
    }
    let unasked_name = "writes nothing unasked (after new_game and game_over)".to_string();
    match (broken, run.unasked.take()) {
        (_, Some(line)) => decide(&mut checks, unasked_name, Some(line)),
        (true, None) => decide(&mut checks, unasked_name, not_reached()),
        (false, None) => decide(&mut checks, unasked_name, None),
    }

    // quit: the program exits by itself, its stdin still open
    let quit_name = format!("quit: the bot exits within {} ms", QUIT_GRACE.as_millis());
    if broken {
        decide(&mut checks, quit_name, not_reached());
    } else {
        let _ = run.process.send(message::QUIT.as_bytes(), Some(Instant::now() + QUIT_GRACE));
        let until = Instant::now() + QUIT_GRACE;
        let mut wrote = None;
        while run.process.is_running() && Instant::now() < until {
            if let Some(extra) = run.process.unasked() {
                wrote.get_or_insert_with(|| quoted(extra));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let failure = match (run.process.is_running(), wrote) {
            (true, _) => Some(format!("still running {} ms after quit (killed)", QUIT_GRACE.as_millis())),
            (false, Some(wrote)) => Some(format!("{wrote} after quit")),
            (false, None) => None,
        };
        decide(&mut checks, quit_name, failure);
    }
    run.process.kill();
    Ok(checks)
}

/// How many of `checks` passed.
pub fn passed(checks: &[Check]) -> usize {
    checks.iter().filter(|c| c.failure.is_none()).count()
}
