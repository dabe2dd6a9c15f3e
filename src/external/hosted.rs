//! Bots hosted in this process by a program that embeds bot-arena (Python's `bot_arena` package):
//! a bot written in another language, called in the host's own threads rather than over a pipe.
//! It is told the protocol's messages (docs/book/src/protocol.md: `new_game`, `act`,
//! `game_over`) as JSON values and answers `act` with an action text, as a program would; its
//! answer is judged by the protocol's own code, so an in-process bot and the same bot over the
//! protocol play the same games.
//!
//! The embedding program registers each bot under a name ([`host`]) before the run; a config then
//! seats it as a bot of the hosted kind ([`kind`], added to every game by
//! [`crate::Arena::hosting`]) whose parameter `object` names it. Bot kinds are made from their
//! parameters alone, so the names live in one table of the process.
//!
//! A decision with a time limit is asked on the run's own thread when the player can stop its call
//! at the deadline itself ([`Player::act_until`]: Python's raises an exception inside the call
//! from a watchdog thread), and otherwise, or when the bot's `isolate` parameter asks, on a
//! worker thread that the host gives up on at the deadline, so that a bot that never returns
//! loses on time without holding the run (`before_deadline`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, PoisonError};
use std::time::Instant;

use rand::RngCore;

use crate::core::wire::Texts;
use crate::core::Params;
use crate::core::{Bot, BotFactory, BotKind, BotRng, Fault, FaultKind, GameDef, GameEnd, GameStart, Limits, ParamSpec};
use crate::error::Result;
use crate::external::process::SPIN;
use crate::external::protocol::{judge_answer, message};

/// A bot's answer to `act`: the action's text and, optionally, the probabilities it drew it from
/// (action text → probability), as the protocol's answer gives them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The action, in the game's notation (one of the `legal` texts, or a size inside a range).
    pub action: String,
    /// The policy the action was drawn from, if the bot says.
    pub policy: Option<BTreeMap<String, f64>>,
}

/// Why a hosted bot gave no answer: the reason its seat forfeits with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The bot's code failed (a Python exception): the reason is its last line
    /// (`ValueError: no such card`). The seat forfeits with a `crash`.
    Failed(String),
    /// The bot answered something that is not an answer (not a text, a dict without an
    /// `action`): the seat forfeits with a protocol fault.
    Malformed(String),
    /// The call was stopped at its deadline ([`Player::act_until`]): the seat forfeits on time,
    /// the host's clock naming the limit.
    Late,
}

/// One game's player of a hosted bot: told the protocol's messages in order, each as the JSON
/// text of one line of the protocol (without its line break). Text, not a tree: the embedding
/// language's own JSON reader (Python's, in C) makes its values faster than a tree could be
/// converted.
pub trait Player: Send {
    /// `new_game` (seat, game index, seed). A failure forfeits the game before its first move.
    fn new_game(&mut self, message: &str) -> std::result::Result<(), Refusal>;
    /// `act` (the view and the legal actions): the answer.
    fn act(&mut self, message: &str) -> std::result::Result<Answer, Refusal>;
    /// `act` with a deadline, asked on the calling thread, for a player that can stop its own
    /// call at the deadline: the answer, or [`Refusal::Late`] when the call was stopped. `None`
    /// (the default): the player cannot stop its call, so the host asks [`Player::act`] on a
    /// worker thread and stops waiting at the deadline, at the cost of a hand-off between
    /// threads a decision.
    fn act_until(&mut self, message: &str, deadline: Instant) -> Option<std::result::Result<Answer, Refusal>> {
        let _ = (message, deadline);
        None
    }
    /// `game_over` (payoffs, places, a forfeit, what the rules reveal); its failures are ignored,
    /// as a program's are.
    fn game_over(&mut self, message: &str);
}

/// A bot the embedding program hosts: it makes the player of each game (a fresh object, or the
/// same one told every game).
pub trait Host: Send + Sync {
    /// The player of one game.
    fn player(&self) -> std::result::Result<Box<dyn Player>, Refusal>;
}

/// The hosted bots of this process, by name.
static HOSTS: Mutex<BTreeMap<String, Arc<dyn Host>>> = Mutex::new(BTreeMap::new());

fn hosts() -> std::sync::MutexGuard<'static, BTreeMap<String, Arc<dyn Host>>> {
    HOSTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers `host` under `name` (replacing one of that name) for configs to seat.
pub fn host(name: &str, host: Arc<dyn Host>) {
    hosts().insert(name.to_string(), host);
}

/// Removes the bot registered under `name`.
pub fn unhost(name: &str) {
    hosts().remove(name);
}

const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "object",
        "\"\"",
        "the name the embedding program registered the bot under (Python: a key of bot_arena.run's `bots`; \"\": the bot's own name)",
    ),
    ParamSpec::new(
        "move_ms",
        "5000",
        "longest decision in milliseconds (the host's clock); over it the bot forfeits (0: no limit)",
    )
    .range(0.0, Limits::MAX_MS),
    ParamSpec::new(
        "isolate",
        "false",
        "each decision on a thread of its own: a bot blocked in C code (a sleep, a lock, an extension) forfeits at its deadline too; costs a hand-off between threads a decision",
    ),
];

/// The hosted bot kind of game `G`, named `name` (Python's package calls it `python`).
pub fn kind<G: GameDef>(name: &'static str, about: &'static str) -> BotKind<G> {
    BotKind { name, about, params: PARAMS, make: make::<G> }
}

fn make<G: GameDef>(p: &Params, _game: &G) -> Result<BotFactory<G>> {
    let name: Arc<str> = Arc::from(p.str("object"));
    let isolate = p.bool("isolate");
    Ok(Arc::new(move || Box::new(Hosted::<G>::new(Arc::clone(&name), isolate)) as Box<dyn Bot<G>>))
}

/// The bot registered under `name`, looked up as a game starts: a folder's bots are made to read
/// it back (`arena report`) when no program hosts them. A bot nobody registered never answers,
/// so a run stops at its start (tournament/start_watch.rs) rather than forfeit every game.
fn lookup(name: &str) -> std::result::Result<Arc<dyn Host>, Fault> {
    let hosts = hosts();
    hosts.get(name).cloned().ok_or_else(|| {
        let known: Vec<&str> = hosts.keys().map(String::as_str).collect();
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        let reason = format!(
            "no hosted bot named {} (registered: {known}); a Python bot is seated by bot_arena.run(..., bots={{NAME: bot}})",
            crate::error::shown(name)
        );
        Fault::new(FaultKind::Crash, reason).at_start()
    })
}

// ---------------------------------------------------------------- calls past their deadline

/// A decision with a deadline that the player cannot stop itself (or of a bot with `isolate`) is
/// asked on a worker thread, so that the host stops waiting at the deadline even when the bot's
/// call never returns (a Python bot blocked in C code: a thread in the middle of foreign code
/// cannot be stopped from outside). The worker is then abandoned to the
/// call; it comes back to the pool if the call ever returns. Both sides poll for [`SPIN`] before
/// they sleep, as a program's pipe is read (external/process.rs): a decision's hand-off then
/// costs no wake-up of an idle core when the answer or the next question comes at once.
type Job = Box<dyn FnOnce() + Send>;

/// Idle workers, each a sender of jobs to its thread.
static IDLE: Mutex<Vec<mpsc::Sender<Job>>> = Mutex::new(Vec::new());

/// Runs `job` on an idle worker, or on a new one when none is idle.
fn on_worker(job: Job) {
    let idle = IDLE.lock().unwrap_or_else(PoisonError::into_inner).pop();
    let worker = idle.unwrap_or_else(|| {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let back = jobs.clone();
        std::thread::Builder::new()
            .name("hosted bot".to_string())
            .spawn(move || {
                // The worker holds a sender of its own, so it waits for jobs for the life of the process.
                while let Some(job) = next_job(&inbox) {
                    job();
                    IDLE.lock().unwrap_or_else(PoisonError::into_inner).push(back.clone());
                }
            })
            .expect("a thread for a hosted bot's calls");
        jobs
    });
    worker.send(job).expect("a worker waits for jobs for the life of the process");
}

/// The next job, polled for [`SPIN`] before the worker sleeps.
fn next_job(inbox: &mpsc::Receiver<Job>) -> Option<Job> {
    let spin_until = Instant::now() + SPIN;
    while Instant::now() < spin_until {
        match inbox.try_recv() {
            Ok(job) => return Some(job),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
            Err(mpsc::TryRecvError::Disconnected) => return None,
        }
    }
    inbox.recv().ok()
}

/// What a call handed to a worker came to.
enum Call<T> {
    Waiting,
    Returned(T),
    /// The host stopped waiting at the deadline.
    Abandoned,
}

/// Bots with a call that passed its deadline and has not returned yet, by name: how many such
/// calls and the game of the first. While one runs, the bot is not asked again (its seats forfeit
/// at once), so that a bot that never returns costs one stuck thread per game in flight, not one
/// per game of the run.
static STUCK: Mutex<BTreeMap<String, (u32, u64)>> = Mutex::new(BTreeMap::new());

fn stuck() -> std::sync::MutexGuard<'static, BTreeMap<String, (u32, u64)>> {
    STUCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `call` run on a worker until `deadline`: its value, or `None` when the deadline passed first
/// (the bot named `name` is then stuck in it, in game `game`, until it returns).
fn before_deadline<T: Send + 'static>(
    name: &Arc<str>,
    game: u64,
    deadline: Instant,
    call: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let slot = Arc::new((Mutex::new(Call::Waiting), Condvar::new(), AtomicBool::new(false)));
    let answer = Arc::clone(&slot);
    // The name goes with the call for the unmarking, shared: nothing is copied per decision.
    let owner = Arc::clone(name);
    on_worker(Box::new(move || {
        let value = call();
        let (state, ready, returned) = &*answer;
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        returned.store(true, Ordering::Release);
        if matches!(*state, Call::Abandoned) {
            let mut stuck = stuck();
            if let Some((calls, _)) = stuck.get_mut(&*owner) {
                *calls -= 1;
                if *calls == 0 {
                    stuck.remove(&*owner);
                }
            }
        } else {
            *state = Call::Returned(value);
            ready.notify_one();
        }
    }));
    let (state, ready, returned) = &*slot;
    let spin_until = deadline.min(Instant::now() + SPIN);
    while !returned.load(Ordering::Acquire) && Instant::now() < spin_until {
        std::thread::yield_now();
    }
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        match std::mem::replace(&mut *state, Call::Waiting) {
            Call::Returned(value) => return Some(value),
            Call::Waiting | Call::Abandoned => {}
        }
        let now = Instant::now();
        if now >= deadline {
            // Marked under the slot's lock: the call, when it returns, sees the mark and unmarks.
            *state = Call::Abandoned;
            stuck().entry(name.to_string()).or_insert((0, game)).0 += 1;
            return None;
        }
        state = ready.wait_timeout(state, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
    }
}

/// The forfeit of a bot whose call of an earlier decision is still running past its deadline,
/// named by the limit that call passed (the move's, else the game's, else the clock's), as the
/// host's clock names a decision's timeout (core/play.rs).
fn still_running(name: &str, limits: &Limits) -> Option<Fault> {
    let (calls, game) = *stuck().get(name)?;
    let limit = match (limits.move_ms, limits.game_ms, limits.tc) {
        (Some(ms), _, _) => format!("timeout {ms} ms"),
        (None, Some(ms), _) => format!("timeout {ms} ms per game"),
        (None, None, Some(tc)) => format!("time: under {}", tc.text()),
        (None, None, None) => "time".to_string(),
    };
    let more = match calls {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(Fault::new(
        FaultKind::Time,
        format!("{limit}: not asked, its call of game {game}{more} has not returned since its deadline"),
    ))
}

// ---------------------------------------------------------------- the bot

/// One seat's hosted bot for one game.
struct Hosted<G: GameDef> {
    /// The name the bot is registered under.
    name: Arc<str>,
    /// The game's index in its pairing, named by a forfeit of a call that never returned.
    game: u64,
    player: Option<Box<dyn Player>>,
    /// Whether a decision with a deadline is always asked on a worker thread (`isolate`).
    isolate: bool,
    /// The legal actions of the decision being asked, reused from move to move.
    legal: Texts,
    /// The message being told, reused from message to message.
    text: String,
    policy: Vec<(G::Action, f64)>,
}

impl<G: GameDef> Hosted<G> {
    fn new(name: Arc<str>, isolate: bool) -> Hosted<G> {
        Hosted {
            name,
            game: 0,
            player: None,
            isolate,
            legal: Texts::default(),
            text: String::new(),
            policy: Vec::new(),
        }
    }
}

/// The fault a refusal forfeits with.
fn fault(refusal: Refusal) -> Fault {
    match refusal {
        Refusal::Failed(reason) => Fault::new(FaultKind::Crash, reason),
        Refusal::Malformed(reason) => Fault::new(FaultKind::Protocol, format!("bad answer to act: {reason}")),
        Refusal::Late => timeout(),
    }
}

/// A decision not answered by its deadline: the host's clock names the limit (core/play.rs judges
/// the time taken); this reason is the fallback.
fn timeout() -> Fault {
    Fault::new(FaultKind::Time, "timeout: no answer in time")
}

/// Writes `message` as JSON into `text`, replacing what was there.
fn encode<'t>(text: &'t mut String, message: &impl serde::Serialize) -> &'t str {
    let mut bytes = std::mem::take(text).into_bytes();
    bytes.clear();
    serde_json::to_writer(&mut bytes, message).expect("messages serialise");
    *text = String::from_utf8(bytes).expect("JSON is UTF-8");
    text
}

impl<G: GameDef> Bot<G> for Hosted<G> {
    /// Outside the host's play loop (which calls [`Bot::try_act`]) a fault panics.
    fn act(&mut self, game: &G, view: &G::View<'_>, rng: &mut BotRng) -> G::Action {
        self.try_act(game, view, rng, None).unwrap_or_else(|fault| panic!("{fault}"))
    }

    fn start(&mut self, _game: &G, start: &GameStart<'_>, rng: &mut BotRng) -> std::result::Result<(), Fault> {
        // The one number drawn, as the `external` kind draws it: the same seed a program would get.
        let seed = rng.next_u64();
        if self.name.is_empty() {
            self.name = Arc::from(start.name);
        }
        self.game = start.game;
        if let Some(forfeit) = still_running(&self.name, &start.players[start.seat].limits) {
            return Err(forfeit);
        }
        let mut player = lookup(&self.name)?.player().map_err(fault)?;
        let new_game = message::NewGame { seat: start.seat, game: start.game, seed };
        player.new_game(encode(&mut self.text, &new_game)).map_err(fault)?;
        self.player = Some(player);
        Ok(())
    }

    fn try_act(
        &mut self,
        game: &G,
        view: &G::View<'_>,
        _rng: &mut BotRng,
        deadline: Option<Instant>,
    ) -> std::result::Result<G::Action, Fault> {
        self.legal.clear();
        game.write_legal(view, &mut self.legal);
        encode(&mut self.text, &message::Act { view: game.view_json(view), legal: &self.legal });
        let mut player = self.player.take().expect("start made the player");
        // Asked here, or the deadline of a call for a worker: without a limit the host waits
        // however long it takes, and a player that stops its own call at the deadline needs none.
        let here = match deadline {
            None => Ok(player.act(&self.text)),
            Some(deadline) if self.isolate => Err(deadline),
            Some(deadline) => player.act_until(&self.text, deadline).ok_or(deadline),
        };
        let answer = match here {
            Ok(answer) => answer,
            Err(deadline) => {
                let text = std::mem::take(&mut self.text);
                let asked = before_deadline(&self.name, self.game, deadline, move || {
                    let answer = player.act(&text);
                    (player, text, answer)
                });
                // The player stays with a call that has not returned; the host's clock names the limit.
                let Some((returned, text, answer)) = asked else { return Err(timeout()) };
                (player, self.text) = (returned, text);
                answer
            }
        };
        self.player = Some(player);
        let answer = answer.map_err(fault)?;
        judge_answer(game, view, &self.legal, &answer.action, answer.policy.as_ref(), &mut self.policy)
    }

    fn policy(&self, _game: &G, _view: &G::View<'_>, out: &mut Vec<(G::Action, f64)>) {
        out.extend_from_slice(&self.policy);
    }

    fn finish(&mut self, game: &G, state: &G::State, end: &GameEnd<'_>) {
        // Every ending is told, a forfeit's too: unlike a program's process, the object lives on.
        if let Some(mut player) = self.player.take() {
            player.game_over(encode(&mut self.text, &message::game_over(game, state, end)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{play_game_with, Entrant, GameSeeds, Seating, Status};
    use crate::games::gomoku::{Gomoku, Rule};
    use std::time::Duration;

    /// Which way each decision of a game's players was asked: on the run's thread (`act_until`)
    /// or on a worker (`act`).
    type Ways = Arc<Mutex<Vec<&'static str>>>;

    /// A player that can stop its own calls and answers the first legal action; the decision
    /// numbered `late_at` (counting both seats') it reports stopped at its deadline.
    struct Stopping {
        ways: Ways,
        late_at: usize,
        run: std::thread::ThreadId,
    }

    fn first_legal(message: &str) -> Answer {
        let message: serde_json::Value = serde_json::from_str(message).expect("JSON");
        Answer { action: message["legal"][0].as_str().expect("a legal action").to_string(), policy: None }
    }

    impl Player for Stopping {
        fn new_game(&mut self, _message: &str) -> std::result::Result<(), Refusal> {
            Ok(())
        }

        fn act(&mut self, message: &str) -> std::result::Result<Answer, Refusal> {
            assert_ne!(std::thread::current().id(), self.run, "act with a deadline is asked on a worker");
            self.ways.lock().unwrap().push("worker");
            Ok(first_legal(message))
        }

        fn act_until(&mut self, message: &str, _deadline: Instant) -> Option<std::result::Result<Answer, Refusal>> {
            assert_eq!(std::thread::current().id(), self.run, "act_until is asked on the run's thread");
            let mut ways = self.ways.lock().unwrap();
            ways.push("here");
            Some(if ways.len() == self.late_at { Err(Refusal::Late) } else { Ok(first_legal(message)) })
        }

        fn game_over(&mut self, _message: &str) {}
    }

    struct StoppingHost(Ways, usize, std::thread::ThreadId);

    impl Host for StoppingHost {
        fn player(&self) -> std::result::Result<Box<dyn Player>, Refusal> {
            Ok(Box::new(Stopping { ways: Arc::clone(&self.0), late_at: self.1, run: self.2 }))
        }
    }

    /// A gomoku game of two seats of the hosted bot `name`, each with 5,000 ms a move: which
    /// way each decision was asked, and how the game ended.
    fn play(name: &str, isolate: bool, late_at: usize) -> (Vec<&'static str>, Status) {
        let ways = Ways::default();
        host(name, Arc::new(StoppingHost(Arc::clone(&ways), late_at, std::thread::current().id())));
        let game = Gomoku::new(9, Rule::Freestyle, 0);
        let given =
            toml::Table::from_iter([("object".to_string(), name.into()), ("isolate".to_string(), isolate.into())]);
        let factory = make(&Params::new(PARAMS, &given, "the test's bot").unwrap(), &game).unwrap();
        let mut bots = vec![factory(), factory()];
        let limited = Entrant { name: name.to_string(), limits: Limits { move_ms: Some(5000), ..Limits::default() } };
        let table = Params::default();
        let seating = Seating { entrants: &[&limited, &limited], game: 0, table: &table, run: None };
        let record = play_game_with(&game, &mut bots, &GameSeeds::derive(1, 0, 0, 1), &seating, false);
        unhost(name);
        let ways = ways.lock().unwrap().clone();
        (ways, record.status)
    }

    #[test]
    fn a_player_that_stops_its_own_calls_is_asked_on_the_runs_thread_and_a_stopped_call_loses_on_time() {
        let (ways, status) = play("stops its calls", false, 3);
        assert_eq!(ways, ["here"; 3]);
        let Status::Forfeit { seat, reason } = status else { panic!("{status:?}") };
        assert_eq!((seat, reason.kind), (0, FaultKind::Time));
        assert!(reason.reason().starts_with("timeout 5000 ms: no answer"), "{}", reason.reason());
    }

    #[test]
    fn with_isolate_every_decision_with_a_deadline_is_asked_on_a_worker() {
        let (ways, status) = play("isolated", true, 3);
        assert!(ways.len() > 3 && ways.iter().all(|&way| way == "worker"), "{ways:?}");
        assert_eq!(status, Status::Ok);
    }

    #[test]
    fn a_call_in_time_answers_on_its_worker() {
        let soon = Instant::now() + Duration::from_secs(30);
        assert_eq!(before_deadline(&Arc::from("in time"), 0, soon, || 7), Some(7));
        assert!(still_running("in time", &Limits::default()).is_none());
    }

    #[test]
    fn a_call_past_its_deadline_is_left_running_and_its_bot_not_asked_until_it_returns() {
        let (release, released) = mpsc::channel::<()>();
        let began = Instant::now();
        let deadline = began + Duration::from_millis(50);
        let asked = before_deadline(&Arc::from("never returns"), 3, deadline, move || released.recv().is_ok());
        assert_eq!(asked, None);
        assert!(began.elapsed() >= Duration::from_millis(50) && began.elapsed() < Duration::from_secs(10));
        let limits = Limits { move_ms: Some(50), ..Limits::default() };
        let forfeit = still_running("never returns", &limits).expect("the bot is stuck");
        assert_eq!(forfeit.kind, FaultKind::Time);
        assert_eq!(
            forfeit.reason(),
            "timeout 50 ms: not asked, its call of game 3 has not returned since its deadline"
        );
        // Returned at last: its answer is dropped and the bot is asked again.
        release.send(()).unwrap();
        let waited = Instant::now();
        while still_running("never returns", &limits).is_some() {
            assert!(waited.elapsed() < Duration::from_secs(10), "the call returned but the bot stays stuck");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
