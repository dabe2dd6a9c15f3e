//! Botzone's Chinese Standard Mahjong (the judge of `ailab-pku/Chinese-Standard-Mahjong` and
//! Botzone's bot I/O) both ways; docs/book/src/botzone.md is the user's guide.
//!
//! - [`text`]: tile codes, the judge's requests and a bot's responses, which answers the judge
//!   takes to which request, the simple and JSON inputs of a turn, a bot's output read back,
//!   keep-running;
//! - [`history`]: a hand of ours as the requests one seat is sent (from the engine's events as the
//!   seat sees them; our seats and winds as Botzone's ids and `quan`);
//! - [`kind`]: the `botzone` bot kind, a Botzone bot at our table;
//! - [`brain`]: our bots as Botzone bots (mahjong's engine protocol, `arena brain mahjong`);
//! - [`judge`]: a hand of ours as the judge's input (the `botzone` record format).

pub mod brain;
pub mod history;
pub mod judge;
pub mod kind;
pub mod text;
