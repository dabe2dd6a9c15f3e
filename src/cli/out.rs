//! What the commands print. The process keeps SIGPIPE ignored (Rust's default), so that a bot
//! that closes its input costs a forfeit and not the host (a write to its pipe fails with
//! `EPIPE` and the process layer reports it). The command line's own output then needs to end
//! quietly by itself when its reader goes away, as a Unix filter does (`arena list | head -1`):
//! `println!` would panic ("failed printing to stdout").
//!
//! - [`say!`] writes to stdout. When stdout's reader is gone, the process exits at once with
//!   [`EXIT_BROKEN_PIPE`] and prints nothing; any other failure to write (a full disk under a
//!   redirection) is one line on stderr and exit code 2, like every error.
//! - [`note!`] writes to stderr and ignores failures: diagnostics nobody reads are no reason to
//!   stop a run whose results go to files.
//!
//! Only the program's own command line ([`super::main`]) exits
//! the process. Called in a process that is not its own (`cli::execute` from a test or a plugin),
//! the commands print as `println!` and `eprintln!` do, which the test harness captures.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code when stdout's reader went away: 128 + SIGPIPE, what a shell reported when the
/// signal itself ended the command, so scripts (`set -o pipefail`) see what they always saw.
pub const EXIT_BROKEN_PIPE: i32 = 128 + libc::SIGPIPE;

/// Whether the command line runs as the program itself (and may end the process).
static PROGRAM: AtomicBool = AtomicBool::new(false);

/// The command line is the program: a closed stdout ends it (see the module's documentation).
pub fn as_program() {
    PROGRAM.store(true, Ordering::Relaxed);
}

/// Writes `args` to stdout and flushes; see the module's documentation for failures.
pub fn stdout(args: std::fmt::Arguments<'_>) {
    if !PROGRAM.load(Ordering::Relaxed) {
        print!("{args}");
        return;
    }
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(EXIT_BROKEN_PIPE);
        }
        stderr(format_args!("error: cannot write to stdout: {e}\n"));
        std::process::exit(super::EXIT_USAGE);
    }
}

/// Writes `args` to stderr; a failure is ignored.
pub fn stderr(args: std::fmt::Arguments<'_>) {
    if !PROGRAM.load(Ordering::Relaxed) {
        eprint!("{args}");
        return;
    }
    let _ = io::stderr().lock().write_fmt(args);
}

/// A session on stdin and stdout (`arena brain`, `arena protocol-bot`) whose manager stopped
/// reading is over, not failed: the process it serves is gone or has given up on it.
pub fn reader_gone_is_the_end(session: io::Result<()>) -> io::Result<()> {
    match session {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// `println!` for the command line's output: see [`stdout`].
macro_rules! say {
    () => {
        $crate::cli::out::stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` that ignores a stderr nobody reads: see [`stderr`].
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::out::stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {note, say};

/// Where a command's output goes. Its lines go to stdout; with `--json`, stdout holds one JSON
/// document alone (for machines) and the lines go to stderr (for the person watching).
#[derive(Clone, Copy, Debug)]
pub struct Printer {
    json: bool,
}

impl Printer {
    pub fn new(json: bool) -> Printer {
        Printer { json }
    }

    /// A line (or lines) of the command's text.
    pub fn line(&self, text: impl std::fmt::Display) {
        if self.json {
            note!("{text}");
        } else {
            say!("{text}");
        }
    }

    /// The command's result for machines: printed, pretty, only with `--json`.
    pub fn document(&self, doc: &impl serde::Serialize) {
        if self.json {
            say!("{}", serde_json::to_string_pretty(doc).expect("a JSON document prints"));
        }
    }
}
