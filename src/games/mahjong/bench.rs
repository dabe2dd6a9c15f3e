//! `arena bench mahjong`: fan calculations and shanten per second on one core.
use crate::bench::Bench;

pub fn benches() -> Vec<Bench> {
    Vec::new()
}
