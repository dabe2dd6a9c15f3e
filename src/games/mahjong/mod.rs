//! Mahjong, Chinese Official rules (MCR, 国标麻将): rules per ../shared/rules/mahjong.md.
//!
//! - [`tiles`]: tile kinds, counts, melds and the notation of the reference vectors;
//! - [`fans`]: the fan calculator (all 81 fans plus "Concealed Kong and Melded Kong"), checked
//!   hand by hand against `pymahjonggb` 1.4.0 (tests/data/mcr_fans_sample.jsonl);
//! - [`shanten`]: table-driven shanten over every winning shape, and effective tiles;
//! - [`engine`]: the four-seat table (one hand), [`bots`]: `random` and `greedy`;
//! - [`advise`]: `arena advise mahjong`.

pub mod advise;
pub mod bots;
pub mod engine;
pub mod fans;
pub mod shanten;
pub mod tiles;

mod bench;

pub use bench::benches;
pub use engine::Mahjong;
