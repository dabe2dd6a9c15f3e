//! From a config to records on disk: [`config`] (TOML, roster, validation), [`schedule`]
//! (pairings, seat rotation, paired replays), [`runner`] (parallel, ordered, interruptible),
//! [`progress`] (what a run shows on stderr while it plays).

pub mod bench;
pub mod config;
pub mod execute;
pub mod folder;
pub mod limits;
pub mod merge;
pub mod progress;
pub mod roster;
pub mod runner;
pub mod schedule;
pub mod status;
