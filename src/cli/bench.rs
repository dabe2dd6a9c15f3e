use std::time::Duration;

use clap::Args;

use crate::cli::out::say;
use crate::cli::EXIT_OK;
use crate::core::bench::BenchOptions;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::tournament;

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  arena bench\n  arena bench gomoku\n  arena bench holdem.eval7")]
pub struct BenchArgs {
    /// Run only the benchmarks whose name contains this (e.g. `gomoku`).
    filter: Option<String>,
    /// Threads for the measures of parallel throughput (default: all cores).
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Seconds each measure runs for.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
}

pub fn bench(arena: &Arena, args: &BenchArgs) -> Result<i32> {
    if !(args.seconds > 0.0 && args.seconds < 3600.0) {
        return Err(Error::input(format!("--seconds must be between 0 and 3600, not {}", args.seconds)));
    }
    let opts =
        BenchOptions { threads: crate::cli::threads(args.threads), budget: Duration::from_secs_f64(args.seconds) };
    let filter = args.filter.as_deref().unwrap_or("");
    let all = || {
        arena.benches().into_iter().chain(tournament::bench::benches()).chain(tournament::bench::external::benches())
    };
    let chosen: Vec<_> = all().filter(|b| b.name.contains(filter)).collect();
    if chosen.is_empty() {
        let names: Vec<&str> = all().map(|b| b.name).collect();
        return Err(Error::input(format!("no benchmark matches `{filter}` (have: {})", names.join(", "))));
    }
    for bench in chosen {
        for m in (bench.run)(&opts) {
            say!("{} {} {}", m.name, fmt_value(m.value), m.unit);
        }
    }
    Ok(EXIT_OK)
}

/// Four significant figures, without exponent.
fn fmt_value(v: f64) -> String {
    let digits = if v.abs() >= 1000.0 {
        1
    } else if v.abs() >= 1.0 {
        3
    } else {
        6
    };
    format!("{v:.digits$}")
}
