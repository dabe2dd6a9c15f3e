//! `arena bench`: throughput measures, one line each, `name value unit`. Each game lists its own
//! benchmarks ([`crate::games::benches`]); they run on the calling thread (one core) unless they
//! say otherwise.

use std::time::{Duration, Instant};

/// One printed figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub name: String,
    pub value: f64,
    pub unit: &'static str,
}

/// A benchmark: a name (matched by the FILTER of `arena bench`) and the code that measures.
/// One benchmark may report several measures (e.g. median and 99th percentile).
pub struct Bench {
    pub name: &'static str,
    pub run: fn(&BenchOptions) -> Vec<Measure>,
}

/// Knobs every benchmark receives.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Threads for the benchmarks that measure parallel throughput.
    pub threads: usize,
    /// Rough wall time each measure should take.
    pub budget: Duration,
}

/// Runs `step` (which does `per_call` units of work) repeatedly for about `budget` and returns
/// units per second. `step` must return something derived from its work so it is not optimised away.
pub fn throughput<T>(budget: Duration, per_call: u64, mut step: impl FnMut() -> T) -> f64 {
    std::hint::black_box(step()); // warm up (tables, caches)
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < budget || calls == 0 {
        std::hint::black_box(step());
        calls += 1;
    }
    (calls * per_call) as f64 / start.elapsed().as_secs_f64()
}
