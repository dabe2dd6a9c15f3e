//! Programs the host talks to one line at a time: started in a process group of their own, tied
//! to the host's life, read and written with deadlines, their stderr kept in a capped log, pooled
//! between games. This file knows nothing of what the lines say: the JSON protocol is in
//! `protocol.rs`, and other line protocols (Gomocup's) can be built on the same pieces.
//!
//! No child outlives the run, nor what it starts:
//! - a [`Process`] is killed (its whole process group) and reaped when it is dropped, and a
//!   [`Pool`] ends its idle processes when it is dropped, at the end of the run;
//! - children sit in their own process group, so a Ctrl-C at the terminal reaches only the host,
//!   which finishes the games under way and then ends them itself;
//! - on Linux, every child is started with `PR_SET_PDEATHSIG = SIGKILL` from one spawner thread
//!   that lives as long as the host: if the host dies in any way (even `kill -9`), the kernel
//!   kills the children;
//! - the kernel does not kill the children's own children: a guard (a small `sh`
//!   script, started once) keeps the list of the process groups still running and kills them
//!   when the host is gone, however it ended;
//! - a process that leaves its bot's process group (`setsid`, a daemon's double fork) escapes the
//!   group's kill and the guard. On Linux the host is a child subreaper (`PR_SET_CHILD_SUBREAPER`,
//!   set before the first child starts): such a process, once orphaned (its parent died with the
//!   bot's group, or was a daemon's short-lived first child), becomes the host's child instead of
//!   init's, and every time a bot process ends the host kills and reaps its children that it did
//!   not start (bots, the guard) and that are not in its own process group ([`sweep`]). So an
//!   escaped process lives at most until the next bot process ends, the last at the end of the
//!   run; a bot's helpers must stay in its process group (or die with it);
//! - a bot's stderr goes to its log through a thread that reads the pipe until it closes, and an
//!   escaped process may hold it open: the thread stops [`DRAIN_AFTER_END`] after its program
//!   ended whatever the pipe does, so no thread or descriptor outlives a bot for longer (they
//!   once piled up until every later start failed for want of descriptors).
//!
//! Not covered: when the host is killed outright (`kill -9`) or exits while bots run, the escaped
//! processes of the bots still running are not the host's children yet; they go to init and live
//! on (the bots and their process groups are ended, as above).

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest line a program may write; a longer one (or that much output without a newline)
/// is a fault.
pub const MAX_LINE: usize = 1 << 20;

/// How much of a bot's stderr its log keeps, in bytes.
pub const LOG_CAP: u64 = 10 << 20;

/// Why a read on a program's own clock stopped ([`Process::read_line_charged`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    Line(LineError),
    /// Its peak resident memory (bytes) went over the bound.
    Memory(u64),
}

/// How often a read looks at a bounded program's memory while it thinks.
pub const MEMORY_LOOK: Duration = Duration::from_millis(50);

/// How long the program `pid` has waited for a core, in all: the kernel's run-queue delay (the
/// second number of /proc/PID/schedstat) of its main thread and of the main thread of every
/// process it started that still runs (a `python3` that is a shell script starting the real
/// one; an engine's helpers); zero where the system does not say. The time a program is charged
/// leaves this out: on a loaded machine it is the host's doing, not the program's. Two programs
/// waiting at once count twice, so a program of several processes may be charged less.
pub fn waited_for_a_core(pid: u32) -> Duration {
    fn delay(pid: &str, depth: u32) -> u64 {
        let own = std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
            .ok()
            .and_then(|text| text.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0);
        let children = match depth {
            0 => String::new(), // deep enough: a chain of wrappers ends well before
            _ => std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default(),
        };
        own + children.split_whitespace().map(|child| delay(child, depth - 1)).sum::<u64>()
    }
    Duration::from_nanos(delay(&pid.to_string(), 4))
}

/// A budget of a program's own time for one answer: the time since the request was written,
/// less what the program's processes waited for a core meanwhile ([`waited_for_a_core`]) and
/// what the host's thread that reads the answer waited for one (once the answer is written, the
/// host's lateness in reading it is not the program's), so that a busy machine does not make a
/// bot late. Whatever the charge, the host stops waiting at three times the budget plus 5 s
/// after the request (a machine that loaded measures no bot). Without a budget the clock only
/// measures. Read on the thread that started it (the host's wait is that thread's).
#[derive(Clone, Debug)]
pub struct OwnClock {
    pid: u32,
    sent: Instant,
    /// What the program's processes and the reading thread had waited for a core at `sent`.
    waited_before: Duration,
    thread_waited_before: Duration,
    /// The most the program's processes were seen to wait: once the process has ended and been
    /// reaped, /proc no longer says, and what it waited before stays its due.
    waited_seen: std::cell::Cell<Duration>,
    budget: Option<Duration>,
}

/// How long the calling thread has waited for a core, in all (/proc/thread-self/schedstat);
/// zero where the system does not say.
fn this_thread_waited() -> Duration {
    let waited = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    Duration::from_nanos(waited)
}

impl OwnClock {
    /// The clock of process `pid` from `sent`, with `budget` of its own time (`None`: unbounded).
    pub fn start(pid: u32, sent: Instant, budget: Option<Duration>) -> OwnClock {
        let waited_before = waited_for_a_core(pid);
        let waited_seen = std::cell::Cell::new(waited_before);
        OwnClock { pid, sent, waited_before, thread_waited_before: this_thread_waited(), waited_seen, budget }
    }

    /// The program's own time from `sent` to `now`.
    pub fn charged(&self, now: Instant) -> Duration {
        let seen = self.waited_seen.get().max(waited_for_a_core(self.pid));
        self.waited_seen.set(seen);
        let host = this_thread_waited().saturating_sub(self.thread_waited_before);
        now.saturating_duration_since(self.sent).saturating_sub(seen - self.waited_before + host)
    }

    /// When the budget runs out, seen at `now`: if the program waits no more for a core. A wait
    /// must look again when it comes (`None`: no budget, no end).
    pub fn deadline(&self, now: Instant) -> Option<Instant> {
        let budget = self.budget?;
        let hard = self.sent + budget * 3 + Duration::from_secs(5);
        Some((now + budget.saturating_sub(self.charged(now))).min(hard))
    }

    /// Whether the budget is spent at `now` (or the host's own limit passed).
    pub fn spent(&self, now: Instant) -> bool {
        self.deadline(now).is_some_and(|deadline| deadline <= now)
    }
}

/// The peak resident memory of process `pid` in bytes (`VmHWM` of /proc/PID/status).
pub fn peak_resident(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line["VmHWM:".len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib << 10)
}

/// Why a line could not be read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The deadline passed first.
    Timeout,
    /// The program closed its output (it exited, most likely): a read found no writer.
    Closed,
    /// The program closed its input (it exited, or closed its stdin): a write found no reader.
    /// SIGPIPE is ignored in the host, so the write fails with `EPIPE` instead of ending it.
    InputClosed,
    /// More than [`MAX_LINE`] bytes without a newline.
    TooLong,
}

/// A bot's stderr, shared by all its processes and capped at [`LOG_CAP`] bytes. Each line is
/// written whole, prefixed with the process id, so the lines of several processes interleave
/// cleanly.
pub struct Log {
    file: Mutex<(File, u64)>,
}

impl Log {
    /// Creates (or truncates) the log file, and its folder.
    pub fn create(path: &Path) -> io::Result<Arc<Log>> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Arc::new(Log { file: Mutex::new((File::create(path)?, 0)) }))
    }

    /// Appends one line (without its newline) from process `pid`, while the cap allows.
    pub fn line(&self, pid: u32, line: &[u8]) {
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (file, written) = &mut *guard;
        if *written >= LOG_CAP {
            return;
        }
        let mut text = format!("[{pid}] ").into_bytes();
        text.extend_from_slice(line);
        text.push(b'\n');
        *written += text.len() as u64;
        if *written >= LOG_CAP {
            text.extend_from_slice(format!("[log cut at {LOG_CAP} bytes]\n").as_bytes());
        }
        // A log that cannot be written must not stop the tournament.
        let _ = file.write_all(&text);
    }

    /// Copies `stderr` (non-blocking) into the log line by line until the pipe closes, or, once
    /// `ended` is set, until [`DRAIN_AFTER_END`] has passed and the pipe holds nothing more: a
    /// process that left the program's group may hold the pipe open for ever (and keep writing:
    /// past the stop, at most [`MAX_AFTER_END`] bytes more are read).
    fn drain(self: Arc<Log>, pid: u32, mut stderr: impl Read + AsRawFd, ended: &AtomicBool) {
        let mut pending = Vec::new();
        let mut chunk = [0u8; 8192];
        let mut stop_at: Option<Instant> = None;
        let mut past_stop = 0;
        loop {
            if stop_at.is_none() && ended.load(Ordering::Acquire) {
                stop_at = Some(Instant::now() + DRAIN_AFTER_END);
            }
            // Past the stop, what the pipe holds is still read (on a busy machine this thread may
            // come to it late, and the program's last words are in it), but nothing is waited for.
            let stopping = stop_at.is_some_and(|at| Instant::now() >= at);
            let n = match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock && stopping => break,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    // Quiet: sleep until there is something, the next look at `ended`, or the stop.
                    let tick = Instant::now() + DRAIN_TICK;
                    let _ = wait(stderr.as_raw_fd(), libc::POLLIN, Some(stop_at.map_or(tick, |at| at.min(tick))));
                    continue;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if stopping {
                past_stop += n;
                if past_stop > MAX_AFTER_END {
                    break;
                }
            }
            pending.extend_from_slice(&chunk[..n]);
            let mut start = 0;
            while let Some(i) = pending[start..].iter().position(|&b| b == b'\n') {
                self.line(pid, &pending[start..start + i]);
                start += i + 1;
            }
            pending.drain(..start);
            if pending.len() > 4096 {
                self.line(pid, &pending);
                pending.clear();
            }
        }
        if !pending.is_empty() {
            self.line(pid, &pending);
        }
    }
}

/// How long a stderr drain goes on reading after its program ended: what the dying process group
/// wrote last. Then it closes the pipe, even if a process outside the group still holds it.
pub const DRAIN_AFTER_END: Duration = Duration::from_millis(100);

/// The most a drain reads past its stop: as much as a pipe holds at most by default
/// (`/proc/sys/fs/pipe-max-size`), so a writer outside the program's group cannot keep it.
const MAX_AFTER_END: usize = 1 << 20;

/// How often a drain whose pipe is quiet looks whether its program has ended.
const DRAIN_TICK: Duration = Duration::from_millis(50);

/// The thread copying a program's stderr to its log, and the flag that tells it the program ended.
struct Drain {
    thread: JoinHandle<()>,
    ended: Arc<AtomicBool>,
}

impl Drain {
    /// A thread copying `pipe` (`name`: stderr or stdout) of program `pid` into `log`.
    fn start(log: &Arc<Log>, pid: u32, pipe: impl Read + AsRawFd + Send + 'static, name: &str) -> io::Result<Drain> {
        set_nonblocking(pipe.as_raw_fd())?;
        let (log, ended) = (Arc::clone(log), Arc::new(AtomicBool::new(false)));
        let flag = Arc::clone(&ended);
        let thread =
            std::thread::Builder::new().name(format!("bot-{name}-{pid}")).spawn(move || log.drain(pid, pipe, &flag))?;
        Ok(Drain { thread, ended })
    }
}

/// The drains of ended programs that were still reading when their program was killed (their
/// thread not yet run on a busy machine, or the pipe held by a stranger). Each stops on its own
/// within [`DRAIN_AFTER_END`] and a tick; [`settle_logs`] waits for them, so that the logs are
/// whole when the run ends.
static LINGERING: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Waits for the drains of ended programs to write what they read (a pool does as it ends).
pub fn settle_logs() {
    let threads = std::mem::take(&mut *LINGERING.lock().unwrap_or_else(|e| e.into_inner()));
    for thread in threads {
        let _ = thread.join();
    }
}

/// Reads lines from a non-blocking pipe or socket without copying them: bytes are kept from
/// `start` to `end` of `buf`, and a line is handed out as a slice of it.
pub(crate) struct LineReader {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl LineReader {
    pub(crate) fn new() -> LineReader {
        LineReader { buf: vec![0; 64 << 10], start: 0, end: 0 }
    }

    pub(crate) fn read_line(
        &mut self,
        pipe: &mut (impl Read + AsRawFd),
        deadline: Option<Instant>,
    ) -> Result<&[u8], LineError> {
        let end = self.fill(pipe, deadline)?;
        Ok(self.take(end))
    }

    /// The line ending at `newline` (found by [`LineReader::fill`]), without its `\r`.
    fn take(&mut self, newline: usize) -> &[u8] {
        let line = self.start..newline;
        self.start = newline + 1;
        let line = &self.buf[line];
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Reads until a whole line is held; `Ok`: where its newline is. A timeout keeps what was
    /// read, so that the next call goes on with it.
    fn fill(&mut self, pipe: &mut (impl Read + AsRawFd), deadline: Option<Instant>) -> Result<usize, LineError> {
        let mut scanned = self.start;
        loop {
            if let Some(i) = self.buf[scanned..self.end].iter().position(|&b| b == b'\n') {
                return Ok(scanned + i);
            }
            if self.end - self.start > MAX_LINE {
                return Err(LineError::TooLong);
            }
            if self.end == self.buf.len() {
                // Make room: move what is kept to the front, or grow the buffer.
                if self.start > 0 {
                    self.buf.copy_within(self.start..self.end, 0);
                    self.end -= self.start;
                } else {
                    self.buf.resize(self.buf.len() * 2, 0);
                }
                self.start = 0;
            }
            scanned = self.end;
            match read_spinning(pipe, &mut self.buf[self.end..], deadline)? {
                0 => return Err(LineError::Closed),
                n => self.end += n,
            }
        }
    }
}

impl LineReader {
    pub(crate) fn unasked(&mut self, pipe: &mut impl Read) -> Option<&[u8]> {
        if self.start == self.end {
            (self.start, self.end) = (0, 0);
            loop {
                match pipe.read(&mut self.buf) {
                    Ok(n) => self.end = n, // 0: closed, which the next write or read reports
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => {} // nothing there (or a broken pipe, reported likewise)
                }
                break;
            }
        }
        let pending = &self.buf[self.start..self.end];
        let line = pending.split(|&b| b == b'\n').next().unwrap_or(pending);
        (!pending.is_empty()).then_some(line)
    }
}

/// How long a reader polls a pipe before it sleeps on it. A thread asleep on a pipe is woken by
/// the other side's write only once the scheduler has brought its core back from idle: 50-150 µs
/// a wake-up on the 2-core development VM when it is otherwise idle (a `cat` round trip took
/// 110-160 µs there, 2 µs with both sides polling). An answer that comes within this window is
/// read without that wake-up; a slower one costs at most this much CPU time.
pub const SPIN: Duration = Duration::from_micros(100);

/// Reads what `pipe` (non-blocking) holds into `buf`, polling for up to [`SPIN`] and then
/// sleeping until it is readable or `deadline` passes. `Ok(0)`: the other end is closed.
pub fn read_spinning(
    pipe: &mut (impl Read + AsRawFd),
    buf: &mut [u8],
    deadline: Option<Instant>,
) -> Result<usize, LineError> {
    let began = Instant::now();
    let spin_until = deadline.map_or(began + SPIN, |d| d.min(began + SPIN));
    let mut spinning = true;
    loop {
        match pipe.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if spinning && Instant::now() < spin_until {
                    // Not `yield_now`: a thread that yields on a busy machine waits a whole slice
                    // for its core back, and the own clock ([`OwnClock`]) takes the reading
                    // thread's waits off the program's time as the host's lateness, though the
                    // program was still thinking: a sleeper of 100 ms was charged 95.
                    std::hint::spin_loop();
                } else {
                    spinning = false;
                    wait(pipe.as_raw_fd(), libc::POLLIN, deadline)?;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(LineError::Closed),
        }
    }
}

/// Waits until `fd` is ready for `events` or `deadline` passes (what is ready at the deadline
/// still counts).
pub(crate) fn wait(fd: i32, events: libc::c_short, deadline: Option<Instant>) -> Result<(), LineError> {
    loop {
        let (timeout_ms, last) = match deadline {
            None => (-1, false),
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                // Rounded up, so the wait never ends before the deadline.
                (left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32, left.is_zero())
            }
        };
        let mut pfd = libc::pollfd { fd, events, revents: 0 };
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut pfd, 1, timeout_ms) };
        match ready {
            1.. => return Ok(()), // readable, writable, or closed (the read or write says which)
            0 if last => return Err(LineError::Timeout),
            0 => {} // timed out: the loop checks the deadline
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => return Err(LineError::Closed),
        }
    }
}

/// Writes `bytes` to a non-blocking pipe or socket before `deadline`.
pub(crate) fn write_all(
    out: &mut (impl Write + AsRawFd),
    bytes: &[u8],
    deadline: Option<Instant>,
) -> Result<(), LineError> {
    let mut written = 0;
    while written < bytes.len() {
        match out.write(&bytes[written..]) {
            Ok(0) => return Err(LineError::InputClosed),
            Ok(n) => written += n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait(out.as_raw_fd(), libc::POLLOUT, deadline)?,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(LineError::InputClosed),
        }
    }
    Ok(())
}

pub fn set_nonblocking(fd: i32) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Where a program's stdout goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// To the host, read line by line: the program speaks its protocol there.
    Lines,
    /// Into the program's log with its stderr (nowhere without a log): a program that speaks its
    /// protocol over a socket, whose stdout is chatter that must not fill a pipe nobody reads.
    Log,
}

/// A spawn request: the program and its arguments, whether its stderr and its stdout are piped,
/// the bound on its address space in bytes (if any), the cores of the thread that asks (a bot
/// runs where its worker runs: `--affinity`), and where to answer.
type SpawnRequest = (Vec<String>, (bool, bool), Option<u64>, Option<Cores>, mpsc::Sender<io::Result<Child>>);

/// The cores a thread may run on (Linux's `cpu_set_t`).
#[cfg(target_os = "linux")]
type Cores = libc::cpu_set_t;
#[cfg(not(target_os = "linux"))]
type Cores = ();

/// The cores the calling thread may run on.
fn callers_cores() -> Option<Cores> {
    #[cfg(target_os = "linux")]
    // SAFETY: a zeroed cpu_set_t filled by the kernel for the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0).then_some(set)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Starts children from one thread that lives as long as the host, so that `PR_SET_PDEATHSIG`
/// (which fires when the *thread* that started a child ends) means "when the host dies".
fn spawn_child(command: &[String], piped: (bool, bool), memory: Option<u64>) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnRequest>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        become_subreaper();
        let (tx, rx) = mpsc::channel::<SpawnRequest>();
        std::thread::Builder::new()
            .name("bot-spawner".into())
            .spawn(move || {
                for (command, piped, memory, cores, answer) in rx {
                    let _ = answer.send(spawn_now(&command, piped, memory, cores));
                }
            })
            .expect("a thread to start bot processes");
        Mutex::new(tx)
    });
    let (tx, rx) = mpsc::channel();
    spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((command.to_vec(), piped, memory, callers_cores(), tx))
        .expect("the spawner runs");
    rx.recv().expect("the spawner answers")
}

/// The host's children that it started itself: the bot processes not yet reaped and the guard.
/// Any other child outside the host's process group is an escaped descendant of a bot ([`sweep`]).
/// A child is added in the same hold of the lock that starts it, so a sweep never sees it
/// unlisted.
static STARTED: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn started() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    STARTED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes the host a child subreaper: a process orphaned below it (a bot's escaped descendant whose
/// parent died) becomes its child rather than init's, so that [`sweep`] can find and end it.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: a prctl that sets a flag of the calling process. Should it fail (an old kernel),
    // escaped processes go to init as before, and the drains still stop on time.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// The host's children, from the kernel's per-thread lists (a child belongs to the thread that
/// started it, an orphan to any thread of the subreaper), or from every process's parent id where
/// the kernel keeps no such list.
fn children() -> Vec<u32> {
    let mut found = Vec::new();
    let mut listed = false;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
                listed = true;
                found.extend(text.split_whitespace().filter_map(|pid| pid.parse::<u32>().ok()));
            }
        }
    }
    if !listed {
        let host = std::process::id();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            // The parent's id is the second field after the command name, which is in parentheses.
            let parent =
                stat.rsplit_once(") ").and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
            if parent == Some(host) {
                found.push(pid);
            }
        }
    }
    found
}

/// Kills and reaps the host's children that it did not start (not a bot, not the guard) and that
/// are not in the host's own process group: the escaped descendants of bots, orphaned to the host
/// as its subreaper (and the dying members of a killed bot's group, whose zombies it must reap).
/// Children in the host's group are left alone: they are a plugin's own, started as
/// `std::process::Command` starts them, and waited for by it. Killing one escaped process
/// orphans its own children to the host in turn, so this goes round until none is left (or a
/// bound is reached: the next sweep goes on).
pub fn sweep() {
    let started = started();
    // SAFETY: getpgrp cannot fail.
    let host_group = unsafe { libc::getpgrp() };
    for _round in 0..32 {
        let strangers: Vec<u32> = children()
            .into_iter()
            .filter(|pid| !started.contains(pid))
            // SAFETY: getpgid only reads; a process already gone answers -1, which is no group.
            .filter(|&pid| matches!(unsafe { libc::getpgid(pid as libc::pid_t) }, g if g > 0 && g != host_group))
            .collect();
        if strangers.is_empty() {
            return;
        }
        for &pid in &strangers {
            // SAFETY: signalling a child of ours, not yet reaped, so its id is not anyone else's.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
        // A process killed with SIGKILL is gone within moments; one stuck in the kernel (a dead
        // network mount) is left for the next sweep rather than holding up the game.
        let until = Instant::now() + Duration::from_millis(500);
        for &pid in &strangers {
            loop {
                // SAFETY: waitpid on our own child; WNOHANG never blocks.
                let reaped = unsafe { libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), libc::WNOHANG) };
                if reaped != 0 || Instant::now() >= until {
                    break;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }
}

/// The guard's program: it reads `+ GROUP` and `- GROUP` lines (a group started, a group ended)
/// until its input closes, which happens when the host exits or dies (nobody else holds the pipe),
/// then kills every group still listed. POSIX sh, so that it needs nothing but `/bin/sh`.
const GUARD: &str = r#"while read -r op g; do case $op in +) eval "g$g=1" ;; -) unset "g$g" ;; esac; done
for v in $(set); do case $v in g[0-9]*=*) v=${v#g}; kill -9 "-${v%%=*}" 2>/dev/null ;; esac; done"#;

/// Tells the guard that process group `group` started (`'+'`) or ended (`'-'`). The guard starts
/// with the first group; without `sh` there is none, and grandchildren may outlive a host that
/// is killed outright (the children themselves still cannot).
fn guard(op: char, group: u32) {
    static GUARD_INPUT: OnceLock<Mutex<Option<ChildStdin>>> = OnceLock::new();
    let input = GUARD_INPUT.get_or_init(|| {
        let mut started = started();
        let guard = Command::new("sh")
            .args(["-c", GUARD])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own group, so that a Ctrl-C at the terminal leaves it to do its job.
            .process_group(0)
            .spawn();
        if let Ok(guard) = &guard {
            started.insert(guard.id());
        }
        drop(started);
        // The guard is not waited for: it exits only after the host (then init reaps it).
        Mutex::new(guard.ok().and_then(|mut g| g.stdin.take()))
    });
    let mut input = input.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pipe) = input.as_mut() {
        // One short line is written whole (it is under PIPE_BUF); a guard that died is dropped.
        if pipe.write_all(format!("{op} {group}\n").as_bytes()).is_err() {
            *input = None;
        }
    }
}

fn spawn_now(
    command: &[String],
    (piped_stderr, piped_stdout): (bool, bool),
    memory: Option<u64>,
    cores: Option<Cores>,
) -> io::Result<Child> {
    let (program, args) = command.split_first().ok_or_else(|| io::Error::other("empty command"))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(if piped_stdout { Stdio::piped() } else { Stdio::null() })
        .stderr(if piped_stderr { Stdio::piped() } else { Stdio::null() })
        .process_group(0);
    #[cfg(target_os = "linux")]
    {
        let host = std::process::id();
        // SAFETY: only async-signal-safe calls (prctl, getppid, setrlimit, sched_setaffinity)
        // between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if let Some(set) = &cores {
                    // Where the worker that asks for it runs (a refusal leaves it where it is).
                    libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set);
                }
                if let Some(bytes) = memory {
                    // The child's address space, as GomocupJudge bounds an engine's memory: an
                    // allocation past it fails in the engine (which may then crash and forfeit).
                    let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
                    if libc::setrlimit(libc::RLIMIT_AS, &limit) == -1 {
                        return Err(io::Error::last_os_error());
                    }
                }
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(io::Error::last_os_error());
                }
                // The host may have died before the prctl: then nobody would kill us.
                if libc::getppid() as u32 != host {
                    return Err(io::Error::other("the host is gone"));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (memory, cores);
    let mut started = started();
    let child = cmd.spawn()?;
    started.insert(child.id());
    drop(started); // before the guard, which takes the lock when it starts
    guard('+', child.id());
    Ok(child)
}

/// A running program: lines in on its stdin, lines out of its stdout.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// `None` when its stdout goes to the log ([`Output::Log`]).
    stdout: Option<ChildStdout>,
    reader: LineReader,
    /// Lines that need no answer, held to go out with the next [`Process::send`].
    queued: Vec<u8>,
    /// The threads copying its stderr (and its stdout, with [`Output::Log`]) to its log.
    drains: Vec<Drain>,
    reaped: bool,
    /// The time charged to it by the last timed read, and its peak memory seen so far (bytes).
    charged: Duration,
    peak: Option<u64>,
}

impl Process {
    /// Starts `command` (program and arguments); its stderr goes to `log` (or nowhere).
    pub fn spawn(command: &[String], log: Option<&Arc<Log>>) -> io::Result<Process> {
        Process::spawn_bounded(command, log, None)
    }

    /// [`Process::spawn`], with the program's address space bounded to `memory` bytes (Linux:
    /// `RLIMIT_AS`, set in the child before it runs the program; elsewhere not bounded).
    pub fn spawn_bounded(command: &[String], log: Option<&Arc<Log>>, memory: Option<u64>) -> io::Result<Process> {
        Process::spawn_with(command, log, memory, Output::Lines)
    }

    /// [`Process::spawn_bounded`], with its stdout sent where `output` says.
    pub fn spawn_with(
        command: &[String],
        log: Option<&Arc<Log>>,
        memory: Option<u64>,
        output: Output,
    ) -> io::Result<Process> {
        let lines = output == Output::Lines;
        let mut child = spawn_child(command, (log.is_some(), lines || log.is_some()), memory)?;
        let pid = child.id();
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let reader = LineReader::new();
        // From here on an error drops `process`, which kills and reaps the child.
        let mut process = Process {
            child,
            stdin: Some(stdin),
            stdout: None,
            reader,
            queued: Vec::new(),
            drains: Vec::new(),
            reaped: false,
            charged: Duration::ZERO,
            peak: None,
        };
        set_nonblocking(process.stdin.as_ref().expect("just set").as_raw_fd())?;
        if let Some(log) = log {
            if let Some(pipe) = stderr {
                process.drains.push(Drain::start(log, pid, pipe, "stderr")?);
            }
        }
        match (lines, stdout) {
            (true, Some(pipe)) => {
                set_nonblocking(pipe.as_raw_fd())?;
                process.stdout = Some(pipe);
            }
            (false, Some(pipe)) => {
                let log = log.expect("stdout is piped to a log only when there is one");
                process.drains.push(Drain::start(log, pid, pipe, "stdout")?);
            }
            (_, None) => {}
        }
        Ok(process)
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Holds `bytes` (whole lines that need no answer) to go out with the next [`Process::send`],
    /// in the same write: every write wakes the program, and a line it need not answer is
    /// better read together with the next it must.
    pub fn queue(&mut self, bytes: &[u8]) {
        self.queued.extend_from_slice(bytes);
    }

    /// Writes the lines queued and then `bytes` (whole lines, newline included) before
    /// `deadline`, in one write when the pipe takes them all.
    pub fn send(&mut self, bytes: &[u8], deadline: Option<Instant>) -> Result<(), LineError> {
        if self.queued.is_empty() {
            return self.write_all(bytes, deadline);
        }
        let mut lines = std::mem::take(&mut self.queued);
        lines.extend_from_slice(bytes);
        let written = self.write_all(&lines, deadline);
        lines.clear();
        self.queued = lines; // its memory, for the next queue
        written
    }

    fn write_all(&mut self, bytes: &[u8], deadline: Option<Instant>) -> Result<(), LineError> {
        write_all(self.stdin.as_mut().ok_or(LineError::InputClosed)?, bytes, deadline)
    }

    /// What the program wrote that nobody asked for: anything already read and not handed out, or
    /// readable now (one read that does not wait), up to its first newline. Asked before every
    /// question, so that a line written out of turn is named as such rather than taken for the
    /// next answer (one non-blocking read a question).
    pub fn unasked(&mut self) -> Option<&[u8]> {
        self.reader.unasked(self.stdout.as_mut()?)
    }

    /// What the program wrote after its last newline, once its output is closed (a last line
    /// without a newline); taken, so that it is read once.
    pub fn rest(&mut self) -> Vec<u8> {
        let rest = self.reader.buf[self.reader.start..self.reader.end].to_vec();
        self.reader.start = self.reader.end;
        rest
    }

    /// The next line the program writes (without its newline), before `deadline`.
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Result<&[u8], LineError> {
        let Some(stdout) = self.stdout.as_mut() else { return Err(LineError::Closed) };
        self.reader.read_line(stdout, deadline)
    }

    /// The next line the program writes, timed on its own clock (`clock`, started when the
    /// request was written): on a busy machine the program is not charged the host's load.
    /// `memory`: a bound on its peak resident memory in bytes, looked at every 50 ms while it
    /// thinks. The time charged is kept ([`Process::charged`]), also when the read fails.
    pub fn read_line_charged(&mut self, clock: &OwnClock, memory: Option<u64>) -> Result<&[u8], Cut> {
        let Some(stdout) = self.stdout.as_mut() else { return Err(Cut::Line(LineError::Closed)) };
        let pid = self.child.id();
        let newline = loop {
            let now = Instant::now();
            let mut until = clock.deadline(now);
            if memory.is_some() {
                until = Some(until.map_or(now + MEMORY_LOOK, |u| u.min(now + MEMORY_LOOK)));
            }
            match self.reader.fill(stdout, until) {
                Ok(newline) => break newline,
                Err(LineError::Timeout) => {
                    let now = Instant::now();
                    self.charged = clock.charged(now);
                    if let Some(limit) = memory {
                        // (`peak_memory`'s work, on the fields not borrowed by the read)
                        let peak = peak_resident(pid).unwrap_or(0).max(self.peak.unwrap_or(0));
                        self.peak = Some(peak);
                        if peak > limit {
                            return Err(Cut::Memory(peak));
                        }
                    }
                    if clock.spent(now) {
                        return Err(Cut::Line(LineError::Timeout));
                    }
                }
                Err(e) => {
                    self.charged = clock.charged(Instant::now());
                    return Err(Cut::Line(e));
                }
            }
        };
        self.charged = clock.charged(Instant::now());
        Ok(self.reader.take(newline))
    }

    /// The time charged to the program by the last [`Process::read_line_charged`].
    pub fn charged(&self) -> Duration {
        self.charged
    }

    /// The most memory the program has held so far, in bytes: the peak of its resident set
    /// (`VmHWM` in /proc while it runs, `ru_maxrss` once reaped). `None` where the system does
    /// not say.
    pub fn peak_memory(&mut self) -> Option<u64> {
        if !self.reaped {
            if let Some(now) = peak_resident(self.child.id()) {
                self.peak = Some(self.peak.unwrap_or(0).max(now));
            }
        }
        self.peak
    }

    /// How the program ended (`None` while it runs), without reaping it: its process id stays
    /// reserved, so [`Process::kill`] can never signal a stranger who got the id.
    fn exit_status(&self) -> Option<String> {
        if self.reaped {
            return Some("exited".to_string());
        }
        // SAFETY: waitid with WNOWAIT on our own child fills `info` and leaves the child waitable.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            if libc::waitid(libc::P_PID, self.child.id() as libc::id_t, &mut info, flags) != 0 || info.si_pid() == 0 {
                return None;
            }
            Some(match info.si_code {
                libc::CLD_EXITED => format!("exited with code {}", info.si_status()),
                _ => format!("killed by signal {}", info.si_status()),
            })
        }
    }

    /// Whether the program is still running.
    pub fn is_running(&self) -> bool {
        self.exit_status().is_none()
    }

    /// How the program ended, once a read or a write found its pipe closed (`closed`, which
    /// names the pipe when the program still runs): waits up to `grace` for it to exit, then
    /// kills it. `exited with code 1`, `killed by signal 9`, `closed its output`, `closed its
    /// input`.
    pub fn end_reason(&mut self, grace: Duration, closed: LineError) -> String {
        let until = Instant::now() + grace;
        let reason = loop {
            match self.exit_status() {
                Some(reason) => break reason,
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
                None if closed == LineError::InputClosed => break "closed its input".to_string(),
                None => break "closed its output".to_string(),
            }
        };
        self.kill(); // its group may live on
        reason
    }

    /// Closes the program's stdin: a well-behaved program reads end of file and exits.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Kills the program's whole process group, then reaps the program, and then the escaped
    /// processes orphaned to the host ([`sweep`]). Idempotent.
    pub fn kill(&mut self) {
        if !self.reaped {
            // SAFETY: signalling the group this child leads: its id is the group's, and it cannot
            // be reused before the reaping below. The group may hold the program's own children.
            unsafe {
                libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
            }
            // Reaped with its resource use: the peak of its resident set, to its last moment.
            // SAFETY: wait4 on our own child, not yet reaped, into a zeroed rusage.
            let maxrss_kib = unsafe {
                let mut usage: libc::rusage = std::mem::zeroed();
                let mut status = 0;
                match libc::wait4(self.child.id() as libc::pid_t, &mut status, 0, &mut usage) {
                    pid if pid > 0 => Some(usage.ru_maxrss as u64),
                    _ => None,
                }
            };
            if maxrss_kib.is_none() {
                let _ = self.child.wait();
            }
            if let Some(kib) = maxrss_kib.filter(|&k| k > 0) {
                self.peak = Some(self.peak.unwrap_or(0).max(kib << 10));
            }
            self.reaped = true;
            // Reaped first: until then a sweep must not take it for a stranger.
            started().remove(&self.child.id());
            guard('-', self.child.id());
            // The program's children that left its group are orphans now (the host's, as their
            // subreaper), and so are its group's dying members.
            sweep();
        }
        self.stdin = None;
        for drain in std::mem::take(&mut self.drains) {
            // The pipe closes once the group is gone, unless a process outside it holds it: then
            // the thread stops by itself within DRAIN_AFTER_END. It is not waited for here (a
            // game would wait for it), but when the pool ends.
            drain.ended.store(true, Ordering::Release);
            let mut lingering = LINGERING.lock().unwrap_or_else(|e| e.into_inner());
            lingering.retain(|thread| !thread.is_finished());
            lingering.push(drain.thread);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Processes between games, ready to be reused. A bot takes one at the start of a game and puts
/// it back at the end, so a pool never holds more processes than there were games at once: at
/// most one per seat the bot has per worker thread.
pub struct Pool {
    idle: Mutex<Vec<Process>>,
    /// The line that asks a program to exit (the protocol's `quit`), sent when the pool ends.
    goodbye: Vec<u8>,
}

/// How long programs get to exit after the goodbye before they are killed.
const GRACE: Duration = Duration::from_millis(200);

impl Pool {
    pub fn new(goodbye: Vec<u8>) -> Pool {
        Pool { idle: Mutex::new(Vec::new()), goodbye }
    }

    /// An idle process that is still running, if any.
    pub fn take(&self) -> Option<Process> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(process) = idle.pop() {
            if process.is_running() {
                return Some(process);
            }
        }
        None
    }

    pub fn put(&self, process: Process) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(process);
    }

    /// Says goodbye to `process` and gives it [`GRACE`] to exit before killing it.
    pub fn end(&self, mut process: Process) {
        let until = Instant::now() + GRACE;
        let _ = process.send(&self.goodbye, Some(until));
        process.close_input();
        while process.is_running() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        process.kill();
    }
}

impl Drop for Pool {
    /// Ends every idle process: the goodbye to all at once, then one grace period, then kill.
    fn drop(&mut self) {
        let mut idle = std::mem::take(self.idle.get_mut().unwrap_or_else(|e| e.into_inner()));
        let until = Instant::now() + GRACE;
        for process in &mut idle {
            let _ = process.send(&self.goodbye, Some(until));
            process.close_input();
        }
        while idle.iter().any(Process::is_running) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Dropping kills and reaps whatever is left; then every ended program's log is whole.
        drop(idle);
        settle_logs();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Process {
        Process::spawn(&["sh".into(), "-c".into(), script.into()], None).unwrap()
    }

    fn soon(ms: u64) -> Option<Instant> {
        Some(Instant::now() + Duration::from_millis(ms))
    }

    #[test]
    fn lines_go_both_ways() {
        let mut p = sh("while read line; do echo \"got $line\"; done");
        p.send(b"one\ntwo\n", soon(1000)).unwrap();
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"got one");
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"got two");
        p.close_input();
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
        assert_eq!(p.end_reason(Duration::from_secs(1), LineError::Closed), "exited with code 0");
    }

    #[test]
    fn an_answer_after_the_polling_window_is_still_read() {
        // The first line comes within the window or after it, depending on the machine; the
        // second comes 50 ms later, well after it: the reader must go to sleep and wake for it.
        let mut p = sh("echo soon; sleep 0.05; echo late");
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"soon");
        let began = Instant::now();
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"late");
        assert!(began.elapsed() > SPIN, "{:?}", began.elapsed());
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
    }

    #[test]
    fn queued_lines_go_out_first_with_the_next_send() {
        let mut p = sh("while read line; do echo \"got $line\"; done");
        p.queue(b"one\n");
        p.queue(b"two\n");
        assert_eq!(p.read_line(soon(100)), Err(LineError::Timeout), "nothing is written before a send");
        p.send(b"three\n", soon(1000)).unwrap();
        for line in ["got one", "got two", "got three"] {
            assert_eq!(p.read_line(soon(1000)).unwrap(), line.as_bytes());
        }
        p.send(b"four\n", soon(1000)).unwrap();
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"got four", "the queue is empty after a send");
    }

    /// Sends until the write fails, for at most a second. A child that another test forks at
    /// this moment holds a copy of every pipe end until it execs (close-on-exec), so one write
    /// may still find a reader; the next one, after the exec, does not.
    fn send_until_refused(p: &mut Process) -> Result<(), LineError> {
        let until = Instant::now() + Duration::from_secs(1);
        loop {
            match p.send(b"hello\n", soon(1000)) {
                Ok(()) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                other => return other,
            }
        }
    }

    #[test]
    fn a_program_that_closed_its_input_is_told_from_one_that_exited() {
        // A write to a pipe with no reader fails (SIGPIPE is ignored in every Rust program).
        let mut p = sh("exec 0<&-; echo closed; sleep 5");
        assert_eq!(p.read_line(soon(1000)).unwrap(), b"closed");
        assert_eq!(send_until_refused(&mut p), Err(LineError::InputClosed));
        assert_eq!(p.end_reason(Duration::from_millis(50), LineError::InputClosed), "closed its input");
        let mut p = sh("read line; exit 4");
        p.send(b"one\n", soon(1000)).unwrap();
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
        assert_eq!(send_until_refused(&mut p), Err(LineError::InputClosed));
        assert_eq!(p.end_reason(Duration::from_secs(1), LineError::InputClosed), "exited with code 4");
    }

    #[test]
    fn a_silent_program_times_out_on_time() {
        let mut p = sh("sleep 5");
        let began = Instant::now();
        assert_eq!(p.read_line(soon(100)), Err(LineError::Timeout));
        let waited = began.elapsed();
        assert!(waited >= Duration::from_millis(100) && waited < Duration::from_millis(1000), "{waited:?}");
    }

    #[test]
    fn a_line_over_the_cap_is_refused() {
        let mut p = sh("head -c 1100000 /dev/zero; sleep 5");
        assert_eq!(p.read_line(soon(5000)), Err(LineError::TooLong));
        // Just under the cap is a line.
        let mut p = sh("head -c 1000000 /dev/zero | tr '\\0' x; echo; sleep 5");
        assert_eq!(p.read_line(soon(5000)).unwrap().len(), 1_000_000);
    }

    #[test]
    fn a_program_that_does_not_read_cannot_block_the_host() {
        let mut p = sh("sleep 5");
        let big = vec![b'x'; 1 << 20];
        assert_eq!(p.send(&big, soon(100)), Err(LineError::Timeout));
    }

    #[test]
    fn exit_codes_and_signals_are_reported() {
        let mut p = sh("exit 3");
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
        assert_eq!(p.end_reason(Duration::from_secs(1), LineError::Closed), "exited with code 3");
        let mut p = sh("kill -SEGV $$");
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
        assert_eq!(p.end_reason(Duration::from_secs(1), LineError::Closed), "killed by signal 11");
    }

    #[test]
    fn stderr_goes_to_the_log_line_by_line() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("logs/bot.log");
        let log = Log::create(&path).unwrap();
        let mut p =
            Process::spawn(&["sh".into(), "-c".into(), "echo one >&2; echo two >&2".into()], Some(&log)).unwrap();
        let pid = p.id();
        assert_eq!(p.read_line(soon(1000)), Err(LineError::Closed));
        p.end_reason(Duration::from_secs(1), LineError::Closed);
        // The drain thread finishes when the pipe closes.
        let until = Instant::now() + Duration::from_secs(5);
        while std::fs::read_to_string(&path).unwrap().lines().count() < 2 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("[{pid}] one\n[{pid}] two\n"));
    }

    /// Starts a drain on a pipe whose writing end the caller holds, as a process that left the
    /// bot's group would; returns the writing end, the thread and the flag that ends the bot.
    fn drained(path: &Path) -> (std::io::PipeWriter, JoinHandle<()>, Arc<AtomicBool>) {
        let log = Log::create(path).unwrap();
        let (reader, writer) = std::io::pipe().unwrap();
        set_nonblocking(reader.as_raw_fd()).unwrap();
        let ended = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ended);
        (writer, std::thread::spawn(move || log.drain(7, reader, &flag)), ended)
    }

    /// How long `thread` takes to finish (up to 5 s).
    fn finishing(thread: &JoinHandle<()>) -> Duration {
        let began = Instant::now();
        while !thread.is_finished() && began.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(2));
        }
        began.elapsed()
    }

    #[test]
    fn the_stderr_drain_stops_soon_after_its_program_ended_though_the_pipe_stays_open() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("bot.log");
        let (mut writer, thread, ended) = drained(&path);
        writer.write_all(b"before the end\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        assert!(!thread.is_finished(), "while the program runs, the drain reads on");
        ended.store(true, Ordering::Release);
        let took = finishing(&thread);
        assert!(took < DRAIN_AFTER_END + DRAIN_TICK + Duration::from_millis(200), "stopped after {took:?}");
        assert!(took >= DRAIN_AFTER_END, "what the dying group writes is still read: stopped after {took:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[7] before the end\n");
        drop(writer);

        // A writer that never pauses cannot keep it either; what came before the end is kept
        // even when the drain comes to it only after the stop.
        let path = dir.path().join("flood.log");
        let (mut writer, thread, ended) = drained(&path);
        ended.store(true, Ordering::Release);
        writer.write_all(b"last words\n").unwrap();
        let flood = std::thread::spawn(move || while writer.write_all(&[b'x'; 4096]).is_ok() {});
        let took = finishing(&thread);
        assert!(took < Duration::from_secs(2), "stopped after {took:?}");
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("[7] last words\n"));
        flood.join().unwrap(); // its pipe broke when the drain closed it
    }

    /// Whether process `pid` exists and is not a zombie.
    fn alive(pid: &str) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // The state follows the command name, which is in parentheses.
        stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z'))
    }

    #[test]
    fn killing_ends_the_whole_group() {
        // The program starts a grandchild that would outlive it.
        let mut p = sh("sleep 30 & echo $!; wait");
        let grandchild = std::str::from_utf8(p.read_line(soon(1000)).unwrap()).unwrap().to_string();
        assert!(alive(&grandchild));
        p.kill();
        let until = Instant::now() + Duration::from_secs(5);
        while alive(&grandchild) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!alive(&grandchild), "the grandchild survived");
    }

    /// Round trips through `cat`: the cost of this module's line I/O alone.
    /// `cargo test --release -- --ignored round_trips_through_cat --nocapture`
    #[test]
    #[ignore]
    fn round_trips_through_cat() {
        let mut p = Process::spawn(&["cat".into()], None).unwrap();
        let n = 100_000;
        let began = Instant::now();
        for _ in 0..n {
            p.send(b"{\"action\":\"call\"}\n", None).unwrap();
            assert_eq!(p.read_line(None).unwrap().len(), 17);
        }
        let each = began.elapsed() / n;
        println!("{:.0} round trips/s, {each:?} each", 1.0 / each.as_secs_f64());
    }
}
