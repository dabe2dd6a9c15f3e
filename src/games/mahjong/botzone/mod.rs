//! Botzone's Chinese Standard Mahjong protocol (the judge of `ailab-pku/Chinese-Standard-Mahjong`
//! and Botzone's bot I/O); docs/botzone.md is the user's guide. Groundwork only: nothing here is
//! registered (no bot kind, no command) yet.
//!
//! - [`text`]: tile codes, the judge's requests and a bot's responses, which answers the judge
//!   takes to which request, the simple and JSON inputs of a turn, a bot's output read back,
//!   keep-running.
//! - [`history`]: a hand of ours as the requests one seat would have been sent (an event log
//!   filled beside the engine, our seats and winds as Botzone's ids and `quan`).

pub mod brain;
pub mod history;
pub mod judge;
pub mod kind;
pub mod text;
