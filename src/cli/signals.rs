//! Ctrl-C, SIGTERM and SIGHUP: the first stops the run after the games under way (whole rows,
//! the summary of what was played, run.json `interrupted`); a second abandons the games in
//! flight. The exit code is 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).

use std::sync::{Arc, OnceLock};

use crate::tournament::runner::Stop;

/// The stop request the handler sets; installed once per process.
static STOP: OnceLock<Arc<Stop>> = OnceLock::new();

/// Only atomics: safe in a signal handler.
extern "C" fn on_signal(signal: libc::c_int) {
    if let Some(stop) = STOP.get() {
        stop.request(signal);
    }
}

/// The signals that stop a run.
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Installs the handlers (once) and returns the stop request they set.
pub fn install() -> Arc<Stop> {
    let mut fresh = false;
    let stop = STOP.get_or_init(|| {
        fresh = true;
        Arc::default()
    });
    if fresh {
        for signal in SIGNALS {
            // SAFETY: `on_signal` only touches atomics; the sigaction is fully initialised.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
    stop.clone()
}

/// The exit code of a run that `stop` interrupted: 128 + the signal, 130 when none is known.
pub fn exit_code(stop: &Stop) -> i32 {
    128 + stop.signal().unwrap_or(libc::SIGINT)
}
