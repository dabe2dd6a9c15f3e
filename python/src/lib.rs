//! `bot_arena._native`: bot-arena's registry, games and tournaments for Python. The pure-Python
//! side (python/python/bot_arena/) wraps it: `Game`, `run`, the run's result, the PettingZoo and
//! RLCard adapters.
//!
//! Python bots are hosted in the process (`bot_arena::registry::Host`): each decision takes the
//! GIL, hands the bot the protocol's `act` message as a dict and judges its answer with the
//! protocol's own code. Runs play on a thread of their own with the GIL released, so Rust bots
//! and games run freely and only Python's decisions hold it, while the caller's thread looks at
//! Python's signals: Ctrl-C stops the run as the CLI's SIGINT does and raises KeyboardInterrupt.
//! A decision with a time limit is asked on the run's own thread and stopped at its deadline by
//! a watchdog thread that raises `TimeoutError` inside it (`Player::act_until`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

mod message;

use bot_arena::config::{Overrides, RunConfig, Source};
use bot_arena::core::{GameSeeds, Params};
use bot_arena::registry::{Answer, GameEnv, Host, Player, Refusal};
use bot_arena::tournament::launch::{Existing, Finished, Launch};
use bot_arena::tournament::runner::{RunOptions, Stop};
use bot_arena::Arena;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};

create_exception!(_native, ArenaError, PyException, "A refusal of bot-arena's: bad input, a run that cannot start.");
create_exception!(_native, IllegalAction, PyValueError, "An action the rules refuse in the game's present state.");

/// The bot kind Python bots are seated as.
const KIND: &str = "python";

/// The standard games, with the `python` kind added to each: built once.
fn arena() -> &'static Arena {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    ARENA.get_or_init(|| {
        Arena::standard().hosting(KIND, "a Python object handed to bot_arena.run (a callable, or an object with act)")
    })
}

fn arena_error(e: impl std::fmt::Display) -> PyErr {
    ArenaError::new_err(e.to_string())
}

// ---------------------------------------------------------------- JSON and TOML values

/// A message's JSON text as Python values (as `json.loads` makes them).
fn message(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    message::read(py, text)
}

/// A JSON value as Python's `json.loads` would make it.
fn to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any().unbind()
        }
    })
}

/// A Python value (a number, text, bool, list or dict of them) as TOML, for table options and configs.
fn to_toml(value: &Bound<'_, PyAny>, what: &str) -> PyResult<toml::Value> {
    if value.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(toml::Value::Integer(value.extract()?));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(value.extract()?));
    }
    if let Ok(dict) = value.downcast::<PyDict>() {
        return Ok(toml::Value::Table(to_table(dict, what)?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items = value.try_iter()?.map(|item| to_toml(&item?, what)).collect::<PyResult<Vec<_>>>()?;
        return Ok(toml::Value::Array(items));
    }
    Err(ArenaError::new_err(format!("{what}: {} is not a number, text, bool, list or dict", value.repr()?)))
}

fn to_table(dict: &Bound<'_, PyDict>, what: &str) -> PyResult<toml::Table> {
    let mut table = toml::Table::new();
    for (k, v) in dict.iter() {
        let key: String = k.extract()?;
        let value = to_toml(&v, &format!("{what}.{key}"))?;
        table.insert(key, value);
    }
    Ok(table)
}

// ---------------------------------------------------------------- Python bots

/// A Python bot: a callable taking the `act` message, an object with `act` (and optionally
/// `new_game` and `game_over`), or a class, made anew for every game.
struct PyHost {
    bot: Py<PyAny>,
    /// The methods of a bot that is not a class, looked up once for the run: every game's player
    /// shares them (looking up a method a function lacks raises and catches an AttributeError,
    /// a few microseconds a game).
    shared: Option<Arc<Methods>>,
}

impl PyHost {
    fn new(bot: &Bound<'_, PyAny>) -> PyHost {
        let shared = match bot.is_instance_of::<PyType>() {
            true => None,
            // A bot without act fails as each game starts, saying why.
            false => Methods::of(bot).ok().map(Arc::new),
        };
        PyHost { bot: bot.clone().unbind(), shared }
    }
}

/// A bot object's methods.
struct Methods {
    act: Py<PyAny>,
    new_game: Option<Py<PyAny>>,
    game_over: Option<Py<PyAny>>,
}

impl Methods {
    fn of(obj: &Bound<'_, PyAny>) -> PyResult<Methods> {
        let act = match optional_method(obj, "act")? {
            Some(act) => act,
            None if obj.is_callable() => obj.clone().unbind(),
            None => {
                return Err(PyValueError::new_err(format!("{} is neither callable nor has an act method", obj.repr()?)))
            }
        };
        Ok(Methods { act, new_game: optional_method(obj, "new_game")?, game_over: optional_method(obj, "game_over")? })
    }
}

/// One game's player: the methods of the bot's object (or of the game's object of its class).
struct PyPlayer(Arc<Methods>);

/// The last line of an exception's traceback (`ValueError: no such card`).
fn last_line(py: Python<'_>, err: &PyErr) -> String {
    let shown = py.import("traceback").and_then(|tb| {
        let lines = tb.call_method1("format_exception_only", (err.get_type(py), err.value(py)))?;
        let lines: Vec<String> = lines.extract()?;
        Ok(lines.last().map(|l| l.trim().to_string()).unwrap_or_default())
    });
    shown.unwrap_or_else(|_| err.to_string())
}

fn optional_method(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<Py<PyAny>>> {
    match obj.getattr(name) {
        Ok(m) if m.is_callable() => Ok(Some(m.unbind())),
        _ => Ok(None),
    }
}

impl Host for PyHost {
    fn player(&self) -> Result<Box<dyn Player>, Refusal> {
        if let Some(shared) = &self.shared {
            return Ok(Box::new(PyPlayer(Arc::clone(shared))));
        }
        keep_thread_state();
        Python::with_gil(|py| {
            let bot = self.bot.bind(py);
            let made = || -> PyResult<Methods> {
                let obj = if bot.is_instance_of::<PyType>() { bot.call0()? } else { bot.clone() };
                Methods::of(&obj)
            };
            made()
                .map(|m| Box::new(PyPlayer(Arc::new(m))) as Box<dyn Player>)
                .map_err(|e| Refusal::Failed(last_line(py, &e)))
        })
    }
}

// ---------------------------------------------------------------- calls past their deadline

/// One thread, for the whole process, that stops a Python bot's call still running at its
/// deadline by raising `TimeoutError` inside it (`PyThreadState_SetAsyncExc`), so that a call
/// with a deadline is asked on the run's own thread rather than handed to a worker and back.
/// Python code is stopped at its next bytecode; a call blocked in C code (a sleep, a lock wait,
/// an extension) only when it comes back to Python, which is what the hosted kind's `isolate`
/// is for.
mod watchdog {
    use std::os::raw::c_long;
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
    use std::time::{Duration, Instant};

    use pyo3::prelude::*;

    /// A call under way with a deadline.
    struct Armed {
        /// The number [`arm`] gave it: a call's own, never reused.
        call: u64,
        /// The calling thread, as Python knows it (`threading.get_ident()`).
        thread: c_long,
        /// When it is stopped (next).
        deadline: Instant,
        /// Whether the exception was raised in it.
        fired: bool,
    }

    struct Watch {
        armed: Vec<Armed>,
        calls: u64,
        /// When the watchdog wakes next by itself (`None`: only when woken); an armed call due
        /// later needs no wake-up.
        wakes: Option<Instant>,
        started: bool,
    }

    static WATCH: Mutex<Watch> = Mutex::new(Watch { armed: Vec::new(), calls: 0, wakes: None, started: false });
    static WAKE: Condvar = Condvar::new();

    /// A bot that catches the exception and goes on is stopped again this often.
    const AGAIN: Duration = Duration::from_millis(100);

    fn locked() -> MutexGuard<'static, Watch> {
        WATCH.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Watches the call this thread is about to make, to be stopped at `deadline`: its number
    /// for [`disarm`]. Called with the GIL held, as [`disarm`] is: the watchdog raises only with
    /// the GIL, so it never sees a call returned but not yet disarmed.
    pub fn arm(deadline: Instant) -> u64 {
        // SAFETY: pthread_self has no preconditions; Python's thread ids are its values.
        let thread = unsafe { libc::pthread_self() } as c_long;
        let mut watch = locked();
        if !watch.started {
            watch.started = true;
            std::thread::Builder::new()
                .name("python bots' watchdog".to_string())
                .spawn(run)
                .expect("a thread for the watchdog of Python bots");
        }
        watch.calls += 1;
        let call = watch.calls;
        watch.armed.push(Armed { call, thread, deadline, fired: false });
        if watch.wakes.is_none_or(|wakes| deadline < wakes) {
            WAKE.notify_one();
        }
        call
    }

    /// The call `call` returned: whether it was stopped. An exception raised in it too late to
    /// be seen (the call returned as it was raised) is taken back, so that it does not stop
    /// whatever the thread runs next.
    pub fn disarm(_py: Python<'_>, call: u64) -> bool {
        let mut watch = locked();
        let Some(at) = watch.armed.iter().position(|armed| armed.call == call) else { return false };
        let armed = watch.armed.swap_remove(at);
        if armed.fired {
            // SAFETY: the GIL is held (`_py`); a null exception clears the thread's pending one.
            unsafe { pyo3::ffi::PyThreadState_SetAsyncExc(armed.thread, std::ptr::null_mut()) };
        }
        armed.fired
    }

    /// The watchdog: sleeps until the earliest deadline armed, then, with the GIL, raises
    /// `TimeoutError` in every call past its deadline.
    fn run() {
        loop {
            let mut watch = locked();
            loop {
                let now = Instant::now();
                let next = watch.armed.iter().map(|armed| armed.deadline).min();
                if next.is_some_and(|next| next <= now) {
                    break;
                }
                watch.wakes = next;
                watch = match next {
                    None => WAKE.wait(watch).unwrap_or_else(PoisonError::into_inner),
                    Some(next) => WAKE.wait_timeout(watch, next - now).unwrap_or_else(PoisonError::into_inner).0,
                };
            }
            // Busy: a call armed meanwhile is looked at before the watchdog sleeps again.
            watch.wakes = Some(Instant::now());
            drop(watch);
            // The GIL first, then the watch, as the calling threads take them.
            Python::with_gil(|_py| {
                let mut watch = locked();
                let now = Instant::now();
                for armed in watch.armed.iter_mut().filter(|armed| armed.deadline <= now) {
                    // SAFETY: the GIL is held; TimeoutError is a static exception type. A thread
                    // that has no state of Python's is not found, and nothing is raised.
                    unsafe { pyo3::ffi::PyThreadState_SetAsyncExc(armed.thread, pyo3::ffi::PyExc_TimeoutError) };
                    armed.fired = true;
                    armed.deadline = now + AGAIN;
                }
            });
        }
    }
}

// ---------------------------------------------------------------- threads that call Python

/// A Python thread state kept for the life of a thread of the run's that calls Python bots, the
/// GIL released between calls. Without one each decision's `with_gil` made a thread state and
/// deleted it again, and with it the state's frame stack (mapped and unmapped, its pages faulted
/// in anew): over a third of an in-process decision's time, measured with perf.
struct KeptState {
    gil: pyo3::ffi::PyGILState_STATE,
    saved: *mut pyo3::ffi::PyThreadState,
}

impl KeptState {
    /// Made on a thread that has no thread state of Python's (not Python's own threads, which
    /// keep theirs) and does not hold the GIL.
    fn new() -> Option<KeptState> {
        // SAFETY: the interpreter is running (a run was started from Python); the state made by
        // PyGILState_Ensure stays this thread's until `drop` releases it.
        unsafe {
            if pyo3::ffi::Py_IsInitialized() == 0 || !pyo3::ffi::PyGILState_GetThisThreadState().is_null() {
                return None;
            }
            let gil = pyo3::ffi::PyGILState_Ensure();
            Some(KeptState { gil, saved: pyo3::ffi::PyEval_SaveThread() })
        }
    }
}

impl Drop for KeptState {
    /// At the thread's end (the run's threads end before `run` returns, joined with the GIL
    /// released: [`interruptible`]).
    fn drop(&mut self) {
        // SAFETY: this thread's own state, saved by `new`; skipped once the interpreter is gone.
        unsafe {
            if pyo3::ffi::Py_IsInitialized() != 0 {
                pyo3::ffi::PyEval_RestoreThread(self.saved);
                pyo3::ffi::PyGILState_Release(self.gil);
            }
        }
    }
}

thread_local! {
    static KEPT: std::cell::OnceCell<Option<KeptState>> = const { std::cell::OnceCell::new() };
}

/// Keeps a thread state on this thread from its first call of a Python bot on.
fn keep_thread_state() {
    KEPT.with(|kept| {
        kept.get_or_init(KeptState::new);
    });
}

impl Player for PyPlayer {
    fn new_game(&mut self, text: &str) -> Result<(), Refusal> {
        keep_thread_state();
        let Some(new_game) = &self.0.new_game else { return Ok(()) };
        Python::with_gil(|py| {
            let message = message(py, text).map_err(|e| Refusal::Failed(last_line(py, &e)))?;
            new_game.call1(py, (message,)).map(drop).map_err(|e| Refusal::Failed(last_line(py, &e)))
        })
    }

    fn act(&mut self, text: &str) -> Result<Answer, Refusal> {
        keep_thread_state();
        Python::with_gil(|py| {
            let failed = |e: PyErr| Refusal::Failed(last_line(py, &e));
            let message = message(py, text).map_err(failed)?;
            let answer = self.0.act.call1(py, (message,)).map_err(failed)?;
            read_answer(answer.bind(py))
        })
    }

    /// Asked on the run's thread; the watchdog raises `TimeoutError` inside a call still running
    /// at its deadline.
    fn act_until(&mut self, text: &str, deadline: Instant) -> Option<Result<Answer, Refusal>> {
        keep_thread_state();
        Some(Python::with_gil(|py| {
            let failed = |e: PyErr| Refusal::Failed(last_line(py, &e));
            let message = message(py, text).map_err(failed)?;
            let call = watchdog::arm(deadline);
            let answer = self.0.act.call1(py, (message,));
            let stopped = watchdog::disarm(py, call);
            match answer {
                // Whatever the bot raised, it raised it once stopped: it gave no answer in time.
                Err(_) if stopped => Err(Refusal::Late),
                Err(e) => Err(failed(e)),
                Ok(answer) => read_answer(answer.bind(py)),
            }
        }))
    }

    fn game_over(&mut self, text: &str) {
        if let Some(game_over) = &self.0.game_over {
            Python::with_gil(|py| {
                if let Ok(message) = message(py, text) {
                    let _ = game_over.call1(py, (message,));
                }
            })
        }
    }
}

/// A bot's return value: an action text, or the protocol's answer as a dict (`{"action": ...,
/// "policy": {...}}`).
fn read_answer(answer: &Bound<'_, PyAny>) -> Result<Answer, Refusal> {
    let malformed = || {
        let shown = answer.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".to_string());
        Refusal::Malformed(format!("{} is not an action text nor a dict with \"action\"", shown_short(&shown)))
    };
    if let Ok(text) = answer.downcast::<PyString>() {
        return Ok(Answer { action: text.to_string(), policy: None });
    }
    let dict = answer.downcast::<PyDict>().map_err(|_| malformed())?;
    let action = dict.get_item("action").ok().flatten().ok_or_else(malformed)?;
    let action: String = action.extract().map_err(|_| malformed())?;
    let policy = match dict.get_item("policy").ok().flatten() {
        Some(p) if !p.is_none() => p.extract::<BTreeMap<String, f64>>().ok(),
        _ => None,
    };
    Ok(Answer { action, policy })
}

fn shown_short(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

// ---------------------------------------------------------------- games

/// One game, played one action at a time (the pure-Python `Game` wraps it).
#[pyclass(module = "bot_arena._native")]
struct NativeGame {
    // A game's state is `Send` but need not be `Sync`: the lock makes the object shareable.
    env: Mutex<Box<dyn GameEnv>>,
}

impl NativeGame {
    fn env(&self) -> std::sync::MutexGuard<'_, Box<dyn GameEnv>> {
        self.env.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[pymethods]
impl NativeGame {
    #[new]
    #[pyo3(signature = (name, seats, options, seed, pairing, game, replays))]
    fn new(
        name: &str,
        seats: Option<usize>,
        options: &Bound<'_, PyDict>,
        seed: u64,
        pairing: u64,
        game: u64,
        replays: u64,
    ) -> PyResult<NativeGame> {
        let entry = arena().find(name).map_err(arena_error)?;
        let table = to_table(options, "options")?;
        let options = Params::new(entry.options(), &table, &format!("the {name} table")).map_err(arena_error)?;
        let seats = seats.unwrap_or(*entry.seats().start());
        let seeds = GameSeeds::derive(seed, pairing, game, replays.max(1));
        let env = entry.env(&options, seats, &seeds).map_err(arena_error)?;
        Ok(NativeGame { env: Mutex::new(env) })
    }

    fn reset(&self, seed: u64, pairing: u64, game: u64, replays: u64) {
        self.env().reset(&GameSeeds::derive(seed, pairing, game, replays.max(1)));
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.env().name()
    }

    #[getter]
    fn seats(&self) -> usize {
        self.env().seats()
    }

    #[getter]
    fn to_act(&self) -> Option<usize> {
        self.env().to_act()
    }

    fn observation(&self, py: Python<'_>, seat: usize) -> PyResult<PyObject> {
        if seat >= self.env().seats() {
            return Err(PyValueError::new_err(format!("seat {seat} at a table of {} seats", self.env().seats())));
        }
        to_py(py, &self.env().observation(seat))
    }

    fn legal_actions(&self) -> Vec<String> {
        self.env().legal()
    }

    fn step(&self, action: &str) -> PyResult<()> {
        self.env().step(action).map_err(IllegalAction::new_err)
    }

    fn outcome(&self) -> Option<(Vec<f64>, Vec<u32>)> {
        self.env().outcome()
    }

    fn game_over(&self, py: Python<'_>) -> PyResult<PyObject> {
        match self.env().game_over() {
            Some(message) => to_py(py, &message),
            None => Ok(py.None()),
        }
    }

    fn deal(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &self.env().deal())
    }

    fn clone(&self) -> NativeGame {
        NativeGame { env: Mutex::new(self.env().boxed_clone()) }
    }
}

/// A table option: its name, its default (a TOML literal) and its help.
type OptionSpec = (String, String, String);

/// The registered games: name, fewest seats, most seats, table options.
#[pyfunction]
fn games() -> Vec<(String, usize, usize, Vec<OptionSpec>)> {
    arena()
        .games()
        .map(|g| {
            let options =
                g.options().iter().map(|o| (o.name.to_string(), o.default.to_string(), o.help.to_string())).collect();
            (g.name().to_string(), *g.seats().start(), *g.seats().end(), options)
        })
        .collect()
}

// ---------------------------------------------------------------- runs

/// One run at a time: the hosted bots are registered by name for the whole process.
static RUNNING: Mutex<()> = Mutex::new(());

/// Registers the Python bots for the length of a run (and removes them however it ends).
struct Hosted(Vec<String>);

impl Hosted {
    fn new(bots: &Bound<'_, PyDict>) -> PyResult<Hosted> {
        let mut names = Vec::new();
        for (name, bot) in bots.iter() {
            let name: String = name.extract()?;
            bot_arena::registry::host(&name, Arc::new(PyHost::new(&bot)));
            names.push(name);
        }
        Ok(Hosted(names))
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        for name in &self.0 {
            bot_arena::registry::unhost(name);
        }
    }
}

/// The config's `bots` with every entry that names a Python bot made a `python` bot naming its
/// object: `"mine"` becomes `{ name = "mine", kind = "python", params = { object = "mine" } }`.
fn seat_python_bots(config: &mut toml::Table, python: &[String]) {
    let Some(toml::Value::Array(bots)) = config.get_mut("bots") else { return };
    for bot in bots.iter_mut() {
        if let toml::Value::String(name) = bot {
            if python.contains(name) {
                *bot = toml::Value::Table(toml::Table::from_iter([("name".to_string(), name.as_str().into())]));
            }
        }
        let toml::Value::Table(entry) = bot else { continue };
        let Some(name) = entry.get("name").and_then(|n| n.as_str()).map(str::to_string) else { continue };
        let other_kind = entry.get("kind").is_some_and(|k| k.as_str() != Some(KIND));
        if !python.contains(&name) || other_kind {
            continue;
        }
        entry.insert("kind".to_string(), KIND.into());
        let params = entry.entry("params").or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(params) = params {
            params.entry("object").or_insert_with(|| name.as_str().into());
        }
    }
}

/// Plays a config (TOML text; `path` names where it came from, whose folder relative paths start
/// from) into `out`; returns the run's folder and how it ended.
#[pyfunction]
#[pyo3(signature = (text, path, bots, out, games=None, seed=None, threads=1, force=false, records="csv"))]
#[allow(clippy::too_many_arguments)]
fn run(
    py: Python<'_>,
    text: &str,
    path: &str,
    bots: &Bound<'_, PyDict>,
    out: PathBuf,
    games: Option<i64>,
    seed: Option<u64>,
    threads: usize,
    force: bool,
    records: &str,
) -> PyResult<(String, String, u64, u64)> {
    let _one = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    let hosted = Hosted::new(bots)?;
    let mut config: toml::Table =
        text.parse().map_err(|e: toml::de::Error| arena_error(format!("{path}: {}", e.message())))?;
    seat_python_bots(&mut config, &hosted.0);
    let text = toml::to_string(&config).map_err(arena_error)?;
    let stem = Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("run").to_string();
    let overrides = Overrides { games, seed, ..Overrides::default() };
    let cfg = RunConfig::parse(arena(), &Source::file(path, &text), &stem, &overrides).map_err(arena_error)?;
    let mut opts = RunOptions::new(threads.max(1));
    opts.records = match records {
        "csv" => bot_arena::report::Records::Csv,
        "gz" => bot_arena::report::Records::Gz,
        "moves" => bot_arena::report::Records::Moves,
        "moves-gz" => bot_arena::report::Records::MovesGz,
        "none" => bot_arena::report::Records::None,
        other => return Err(arena_error(format!("records {other:?}: one of csv, gz, moves, moves-gz, none"))),
    };
    let existing = if force { Existing::Replace } else { Existing::Refuse };
    let stop = Arc::clone(&opts.stop);
    let finished = interruptible(py, &stop, || Launch::new_run(arena(), cfg, None, &out, existing, opts)?.play());
    drop(hosted);
    ended(finished?)
}

/// How a run ended, for Python: its folder, its status, games played and planned.
fn ended(finished: bot_arena::error::Result<Finished>) -> PyResult<(String, String, u64, u64)> {
    match finished.map_err(arena_error)? {
        Finished::Played { report, dir, .. } => {
            Ok((dir.display().to_string(), report.status.as_str().to_string(), report.end.played, report.planned))
        }
        Finished::Ended { dir, manifest } => Ok((
            dir.display().to_string(),
            manifest.status.as_str().to_string(),
            manifest.games_played,
            manifest.games_planned,
        )),
    }
}

/// How often a run's caller looks at Python's signals: Ctrl-C reaches Python within this.
const SIGNAL_LOOK: Duration = Duration::from_millis(100);

/// Plays `play` on a thread of its own while this one, the GIL released, looks at Python's
/// signals every [`SIGNAL_LOOK`]: Ctrl-C (Python's KeyboardInterrupt, or whatever its handler
/// raises) asks the run to stop as the CLI's SIGINT does (the games under way end, the folder
/// is left `interrupted` and resumable; a second one abandons the games in flight), and once the
/// run has stopped the exception is raised.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &Stop,
    play: impl FnOnce() -> bot_arena::error::Result<T> + Send,
) -> PyResult<bot_arena::error::Result<T>> {
    std::thread::scope(|scope| {
        let (done, mut played) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("run".to_string())
            .spawn_scoped(scope, move || {
                let _ = done.send(play());
            })
            .map_err(|e| arena_error(format!("cannot start the run's thread: {e}")))?;
        // Joined with the GIL released: a thread that called Python bots gives its kept thread
        // state back as it ends, which takes the GIL.
        let join = move || py.allow_threads(move || drop(thread.join()));
        let mut interrupted = None;
        loop {
            // The receiver goes along and comes back: it may not be shared between threads.
            let (got, receiver) = py.allow_threads(move || (played.recv_timeout(SIGNAL_LOOK), played));
            played = receiver;
            match got {
                Ok(finished) => {
                    join();
                    return interrupted.map_or(Ok(finished), Err);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    join();
                    return Err(interrupted.unwrap_or_else(|| arena_error("the run's thread panicked")));
                }
            }
            if let Err(signal) = py.check_signals() {
                stop.request(libc::SIGINT);
                interrupted.get_or_insert(signal);
            }
        }
    })
}

/// Continues the interrupted run in `dir` (as `arena resume`), with the Python bots of `bots`
/// registered; Ctrl-C stops it as it stops [`run`].
#[pyfunction]
#[pyo3(signature = (dir, bots, threads=1, games=None))]
fn resume(
    py: Python<'_>,
    dir: PathBuf,
    bots: &Bound<'_, PyDict>,
    threads: usize,
    games: Option<u64>,
) -> PyResult<(String, String, u64, u64)> {
    let _one = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    let hosted = Hosted::new(bots)?;
    let opts = RunOptions::new(threads.max(1));
    let stop = Arc::clone(&opts.stop);
    let finished = interruptible(py, &stop, || Launch::resume(arena(), &dir, opts, games)?.play());
    drop(hosted);
    ended(finished?)
}

/// Runs an `arena` command (`["resume", "out"]`, `["report", "out"]`) in this process, with the
/// Python bots of `bots` registered: its exit code. What it prints goes to the process's stdout.
#[pyfunction]
#[pyo3(signature = (args, bots))]
fn command(py: Python<'_>, args: Vec<String>, bots: &Bound<'_, PyDict>) -> PyResult<i32> {
    let _one = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
    let hosted = Hosted::new(bots)?;
    let argv: Vec<String> = std::iter::once("arena".to_string()).chain(args).collect();
    let code = py.allow_threads(|| bot_arena::cli::main_from(arena(), argv));
    drop(hosted);
    Ok(code)
}

/// A message's JSON text as a bot is handed it (the package's tests compare it with `json.loads`).
#[pyfunction]
fn read_message(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    message(py, text)
}

/// A config given as a dict, as TOML text.
#[pyfunction]
fn toml_text(config: &Bound<'_, PyDict>) -> PyResult<String> {
    toml::to_string(&to_table(config, "config")?).map_err(arena_error)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ArenaError", m.py().get_type::<ArenaError>())?;
    m.add("IllegalAction", m.py().get_type::<IllegalAction>())?;
    m.add_class::<NativeGame>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(command, m)?)?;
    m.add_function(wrap_pyfunction!(resume, m)?)?;
    m.add_function(wrap_pyfunction!(toml_text, m)?)?;
    m.add_function(wrap_pyfunction!(read_message, m)?)?;
    Ok(())
}
