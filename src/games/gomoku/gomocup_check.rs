//! `arena check-bot gomoku --kind gomocup`: the compliance run of a Gomocup engine, the
//! manager's half of the protocol as `gomocup.rs` speaks it, step by step: START, the INFO lines,
//! BEGIN and TURN answered with legal moves, RESTART (optional: an engine that refuses it is
//! started anew), BOARD, END and the engine's exit. Each step is a [`Check`].

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::external::check::{Check, CheckLimits};
use crate::external::process::{LineError, Process};
use crate::games::gomoku::gomocup::Answer;

/// The board's size, a side.
const SIZE: u8 = 15;

/// How long an engine has to exit after END, its stdin still open.
const END_GRACE: Duration = Duration::from_millis(1000);

/// What the engine answered: OK, a move, or why the step failed (the line it sent, or none).
enum Reply {
    Ok,
    Move(u8, u8),
    Failed(String),
}

/// One engine process and the checks so far.
struct Session<'a> {
    process: Process,
    limits: CheckLimits,
    checks: Vec<Check>,
    report: &'a mut dyn FnMut(&Check),
    broken: bool,
}

impl Session<'_> {
    fn decide(&mut self, name: String, failure: Option<String>) {
        self.broken |= failure.is_some();
        let check = Check { name, failure };
        (self.report)(&check);
        self.checks.push(check);
    }

    /// Sends `lines` (each ended in CR LF) and, when `answered`, reads the answer within `limit` ms:
    /// notes (`MESSAGE`, `DEBUG`, `SUGGEST`) and other text are passed over.
    fn ask(&mut self, lines: &[String], limit: u64) -> Reply {
        let text: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
        let sent = Instant::now();
        let deadline = sent + Duration::from_millis(limit);
        if let Err(e) = self.process.send(text.as_bytes(), Some(deadline)) {
            return Reply::Failed(self.silent(e, limit));
        }
        loop {
            let line = match self.process.read_line(Some(deadline)) {
                Ok(line) => String::from_utf8_lossy(line).trim_end().to_string(),
                Err(e) => return Reply::Failed(self.silent(e, limit)),
            };
            match Answer::read(&line) {
                Answer::Ok => return Reply::Ok,
                Answer::Move(m) => return Reply::Move(m.x, m.y),
                Answer::Note | Answer::Text => continue,
                Answer::Refused(_) | Answer::Malformed(_) => {
                    return Reply::Failed(format!("the engine sent `{}`", cut(&line)))
                }
            }
        }
    }

    fn silent(&mut self, error: LineError, limit: u64) -> String {
        match error {
            LineError::Timeout => format!("the engine sent nothing within {limit} ms (killed)"),
            LineError::TooLong => "the engine sent a line longer than 1 MiB".to_string(),
            closed => {
                format!("the engine sent nothing: it {}", self.process.end_reason(Duration::from_millis(200), closed))
            }
        }
    }

    /// Asks for a move after `lines` and checks it is on the board and on no stone of `stones`.
    fn move_check(&mut self, name: String, lines: &[String], stones: &mut BTreeSet<(u8, u8)>) {
        let failure = match self.ask(lines, self.limits.move_ms) {
            Reply::Move(x, y) if x >= SIZE || y >= SIZE => {
                Some(format!("the engine sent `{x},{y}`, off the {SIZE}x{SIZE} board"))
            }
            Reply::Move(x, y) if !stones.insert((x, y)) => Some(format!("the engine sent `{x},{y}`, a cell taken")),
            Reply::Move(..) => None,
            Reply::Ok => Some("the engine sent `OK`, not a move".to_string()),
            Reply::Failed(why) => Some(why),
        };
        self.decide(name, failure);
    }

    /// START and the INFO lines of a new process (or of a restarted one: RESTART).
    fn start(&mut self, command: &str, name: String) {
        let failure = match self.ask(&[command.to_string()], self.limits.start_ms) {
            Reply::Ok => None,
            Reply::Move(x, y) => Some(format!("the engine sent `{x},{y}`, not `OK`")),
            Reply::Failed(why) => Some(why),
        };
        self.decide(name, failure);
    }
}

/// A line as shown in a failure: its first 200 characters.
fn cut(line: &str) -> String {
    line.chars().take(200).collect()
}

/// The first cell of a fixed walk from the centre that no stone of `stones` holds: the host's
/// move.
fn host_move(stones: &BTreeSet<(u8, u8)>) -> (u8, u8) {
    let centre = SIZE / 2;
    (0..SIZE * SIZE)
        .map(|i| ((centre + i % SIZE) % SIZE, (centre + 1 + i / SIZE) % SIZE))
        .find(|cell| !stones.contains(cell))
        .expect("the board has room")
}

/// Checks the Gomocup engine `command` under `limits`; each check goes to `report` as it is decided.
pub fn check(command: &[String], limits: CheckLimits, report: &mut dyn FnMut(&Check)) -> Result<Vec<Check>> {
    let spawn = || {
        let memory = (limits.memory_mb > 0).then_some(limits.memory_mb << 20);
        Process::spawn_bounded(command, None, memory)
            .map_err(|e| Error::input(format!("cannot start `{}`: {e}", command.join(" "))))
    };
    let mut s = Session { process: spawn()?, limits, checks: Vec::new(), report, broken: false };
    let info = [
        format!("INFO timeout_turn {}", limits.move_ms),
        "INFO timeout_match 0".to_string(),
        format!("INFO max_memory {}", limits.memory_mb << 20),
        "INFO game_type 1".to_string(),
        "INFO rule 0".to_string(),
        "INFO time_left 2147483647".to_string(),
    ];
    let steps = [
        format!("START {SIZE}: answered `OK` within {} ms", limits.start_ms),
        format!("INFO, then BEGIN: a legal move within {} ms", limits.move_ms),
        format!("TURN: a legal move within {} ms", limits.move_ms),
        "RESTART: `OK`, or refused and started anew".to_string(),
        format!("BOARD … DONE: a legal move within {} ms", limits.move_ms),
        format!("END: the engine exits within {} ms", END_GRACE.as_millis()),
    ];
    let mut stones = BTreeSet::new();
    let mut step = 0;
    let mut next = || {
        step += 1;
        steps[step - 1].clone()
    };
    s.start(&format!("START {SIZE}"), next());
    if !s.broken {
        let mut lines = info.to_vec();
        lines.push("BEGIN".to_string());
        s.move_check(next(), &lines, &mut stones);
    }
    if !s.broken {
        let (x, y) = host_move(&stones);
        stones.insert((x, y));
        s.move_check(next(), &[format!("TURN {x},{y}")], &mut stones);
    }
    if !s.broken {
        let name = next();
        let restarted = match s.ask(&["RESTART".to_string()], limits.start_ms) {
            Reply::Ok => Ok(()),
            Reply::Failed(why) if why.contains("UNKNOWN") || why.contains("ERROR") => {
                // Not every engine restarts: a manager ends it and starts a new one.
                s.process.kill();
                s.process = spawn()?;
                let mut lines = vec![format!("START {SIZE}")];
                lines.extend(info.iter().cloned());
                match s.ask(&lines, limits.start_ms) {
                    Reply::Ok => Ok(()),
                    Reply::Move(x, y) => Err(format!("started anew, the engine sent `{x},{y}` to START")),
                    Reply::Failed(why) => Err(format!("started anew: {why}")),
                }
            }
            Reply::Move(x, y) => Err(format!("the engine sent `{x},{y}`, not `OK`")),
            Reply::Failed(why) => Err(why),
        };
        s.decide(name, restarted.err());
    }
    if !s.broken {
        stones.clear();
        let mut lines = vec!["BOARD".to_string()];
        for (i, cell) in [(7, 7), (8, 7), (7, 8)].into_iter().enumerate() {
            stones.insert(cell);
            // The side to move (two stones of the other's, one of its own) owns stone 2.
            lines.push(format!("{},{},{}", cell.0, cell.1, if i == 1 { 1 } else { 2 }));
        }
        lines.push("DONE".to_string());
        s.move_check(next(), &lines, &mut stones);
    }
    if !s.broken {
        let name = next();
        let _ = s.process.send(b"END\r\n", Some(Instant::now() + END_GRACE));
        let until = Instant::now() + END_GRACE;
        while s.process.is_running() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        let failure =
            s.process.is_running().then(|| format!("still running {} ms after END (killed)", END_GRACE.as_millis()));
        s.decide(name, failure);
    }
    for name in &steps[step..] {
        let failure = Some("not reached: the engine failed an earlier check and was stopped".to_string());
        s.decide(name.clone(), failure);
    }
    s.process.kill();
    Ok(s.checks)
}
