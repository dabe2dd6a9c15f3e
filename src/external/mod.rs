//! Bots outside bot-arena: programs spoken to over stdin/stdout.
//!
//! - [`process`]: starting programs, line I/O with deadlines, capped logs, pools, and making sure
//!   no child outlives the run; it knows no protocol.
//! - [`protocol`]: the JSON line protocol of docs/protocol.md and the `external` bot kind every
//!   game gets through its [`crate::core::Wire`] encoding.
//! - [`reference`]: `arena protocol-bot`, a random-legal bot speaking the protocol.
//! - [`bench`]: `arena bench external`, round trips per second through the protocol.

#[cfg(test)]
mod doc_examples;
pub mod examples;
pub mod process;
pub mod protocol;
pub mod reference;

pub use protocol::{kind, External, PROTOCOL};
