//! From a config to records on disk: [`config`] (TOML, roster, validation), [`schedule`]
//! (pairings, seat rotation, paired replays), [`runner`] (parallel, ordered, interruptible).

pub mod bench;
pub mod config;
pub mod execute;
pub mod limits;
pub mod roster;
pub mod runner;
pub mod schedule;
