//! Hold'em in the Annual Computer Poker Competition's protocol (the ACPC server's protocol.md,
//! version 2.0.0), both ways; docs/acpc.md is the user's guide.
//!
//! - [`text`]: `MATCHSTATE` lines written from our hands and read back into them.
//! - [`log`]: the dealer's log read into hands of ours (`arena import acpc`).

pub mod log;
pub mod text;
