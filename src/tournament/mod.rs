//! Running: from a checked config ([`crate::config`]) and its plan ([`crate::core::schedule`]) to
//! a finished run folder: [`runner`] (parallel, ordered, interruptible), [`run`] (a new run, and playing any run
//! into its folder, SPRT stopping), `resume` (resume and --games), `gate` (a gate file loaded and judged), `folder` (the run folder and its lock), `merge` (shards into
//! one run), `import` (another program's games placed in a schedule and written as a run), `replay` (records played back), [`progress`] (what a run shows on stderr while it plays), `start_watch` (bots that cannot run: a run stops), `status`, [`bench`].

pub(crate) mod bench;
pub(crate) mod folder;
pub(crate) mod gate;
pub(crate) mod import;
pub mod launch;
pub(crate) mod merge;
pub mod progress;
pub(crate) mod replay;
pub(crate) mod resume;
pub mod run;
pub mod runner;
pub(crate) mod start_watch;
pub(crate) mod status;
