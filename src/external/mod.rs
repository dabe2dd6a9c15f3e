//! Bots outside bot-arena: programs spoken to over stdin/stdout, and bots of an embedding program.
//!
//! - [`process`]: starting programs, line I/O with deadlines, capped logs, pools, and making sure
//!   no child outlives the run; it knows no protocol.
//! - [`protocol`]: the JSON line protocol of docs/book/src/protocol.md and the `external` bot kind every
//!   game gets through its [`crate::core::Wire`] encoding.
//! - [`check`]: `arena check-bot`, a compliance run of a JSON lines bot.
//! - [`check_kind`]: `arena check-bot --kind KIND`, the compliance run of a bot of any kind that
//!   runs a program (ACPC agents, Botzone bots), made through the kind.
//! - [`reference`]: `arena protocol-bot`, a random-legal bot speaking the protocol.
//! - [`hosted`]: bots hosted in this process by a program that embeds the library (Python),
//!   told the protocol's messages as JSON values.
//! - [`env`]: a game played one action at a time by such a program, its views as the protocol's.
//! - [`socket`]: line I/O with deadlines over a loopback TCP connection, for programs that speak
//!   their protocol over a socket (ACPC poker agents).

pub mod check;
pub mod check_kind;
#[cfg(test)]
mod doc_examples;
pub mod env;
pub mod examples;
pub mod hosted;
pub mod process;
pub mod protocol;
pub mod reference;
pub mod socket;

pub use protocol::kind;
