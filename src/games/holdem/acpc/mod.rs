//! Hold'em in the Annual Computer Poker Competition's protocol (the ACPC server's protocol.md,
//! version 2.0.0), both ways; docs/book/src/acpc.md is the user's guide.
//!
//! - `text`: `MATCHSTATE` lines written from our hands and read back into them, the table as an
//!   ACPC game definition.
//! - `kind`: the `acpc` bot kind, an ACPC agent at our table (bot-arena deals).
//! - `agent`: our bots as ACPC agents (`arena acpc-agent`), the game's engine protocol.
//! - [`log`]: the dealer's log read into hands of ours (`arena import acpc`).

pub(crate) mod agent;
pub(crate) mod kind;
pub mod log;
pub(crate) mod text;
