//! `timing.csv`: how long each bot took per decision, as the host's clock measured it (a program
//! outside: its own time, from its request written to its answer read, less the time it waited
//! for a core), its time losses, what its clock had left, and its programs' peak memory. The one
//! output that differs from run to run (it measures the machine, not the games).

use std::path::Path;
use std::time::Duration;

use crate::core::{FaultKind, GameRecord, Seat, Status};
use crate::error::Result;
use serde::Serialize;

use crate::report::export::{Csv, Exporter, Figure, Rows};
use crate::report::write_atomic;

/// One row of timing.csv as written: the columns are its fields, in order; times in
/// milliseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TimingRow {
    pub bot: String,
    pub moves: u64,
    pub mean_ms: Figure,
    pub median_ms: Figure,
    pub p90_ms: Figure,
    pub p99_ms: Figure,
    pub max_ms: Figure,
    /// Games lost on time (a forfeit of kind `time`).
    pub time_losses: u64,
    /// The least any game left on its clock (under `tc`; empty without one).
    pub clock_left_min_ms: Figure,
    /// The most resident memory any of its programs held (a bot outside the process; empty for the others).
    pub peak_memory_mib: Figure,
}

/// Sub-buckets per power of two: quantiles are within 1/64 (1.6%) of the true value.
const SUB: u32 = 32;
/// Values below this many nanoseconds have a bucket each.
const EXACT: u64 = 2 * SUB as u64;
const BUCKETS: usize = EXACT as usize + (64 - 6) * SUB as usize;

/// One bot's decision times: count, sum and maximum exactly, quantiles from a histogram with
/// buckets 1/32 of a power of two wide (HdrHistogram's idea, in a few lines). Every figure is a
/// sum or a maximum, so tallies kept apart (one per worker thread) merge into the same figures.
#[derive(Clone, Debug, Default)]
pub struct TimeTally {
    moves: u64,
    total_ns: u128,
    max_ns: u64,
    /// Empty until the first time is added (a worker's tally of a bot it never saw costs nothing).
    buckets: Vec<u64>,
    time_losses: u64,
    /// The least left on a clock at a game's end, and the most memory, when measured.
    clock_left_min: Option<Duration>,
    peak_memory: Option<u64>,
}

fn bucket(ns: u64) -> usize {
    if ns < EXACT {
        return ns as usize;
    }
    let top = 63 - ns.leading_zeros(); // >= 6
    let sub = (ns >> (top - SUB.trailing_zeros())) as u32 & (SUB - 1);
    EXACT as usize + ((top - 6) * SUB + sub) as usize
}

/// The middle of bucket `b`'s range of nanoseconds.
fn bucket_value(b: usize) -> f64 {
    if b < EXACT as usize {
        return b as f64;
    }
    let i = (b - EXACT as usize) as u32;
    let top = 6 + i / SUB;
    let width = 1u64 << (top - SUB.trailing_zeros());
    let low = (1u64 << top) + (i % SUB) as u64 * width;
    low as f64 + width as f64 / 2.0
}

impl TimeTally {
    /// The file of a run's decision times in its folder.
    pub const FILE: &'static str = "timing.csv";

    /// Counts one decision that took `took`.
    pub fn add(&mut self, took: Duration) {
        let ns = took.as_secs().saturating_mul(1_000_000_000).saturating_add(took.subsec_nanos().into());
        self.moves += 1;
        self.total_ns += ns as u128;
        self.max_ns = self.max_ns.max(ns);
        self.buckets_mut()[bucket(ns)] += 1;
    }

    /// Adds what `record` measured of `seat` besides its decision times: a loss on time, its
    /// clock at the end, its program's peak memory.
    pub fn add_seat(&mut self, record: &GameRecord, seat: Seat) {
        if matches!(&record.status, Status::Forfeit { seat: s, reason } if *s == seat && reason.kind == FaultKind::Time)
        {
            self.time_losses += 1;
        }
        if let Some(&Some(left)) = record.clocks.get(seat) {
            self.clock_left_min = Some(self.clock_left_min.map_or(left, |m| m.min(left)));
        }
        if let Some(&Some(bytes)) = record.memory.get(seat) {
            self.peak_memory = Some(self.peak_memory.map_or(bytes, |m| m.max(bytes)));
        }
    }

    /// The histogram, made at the first time added.
    fn buckets_mut(&mut self) -> &mut [u64] {
        if self.buckets.is_empty() {
            self.buckets = vec![0; BUCKETS];
        }
        &mut self.buckets
    }

    /// Adds every time of `other`.
    pub fn merge(&mut self, other: &TimeTally) {
        self.time_losses += other.time_losses;
        if let Some(left) = other.clock_left_min {
            self.clock_left_min = Some(self.clock_left_min.map_or(left, |m| m.min(left)));
        }
        if let Some(bytes) = other.peak_memory {
            self.peak_memory = Some(self.peak_memory.map_or(bytes, |m| m.max(bytes)));
        }
        if other.buckets.is_empty() {
            return;
        }
        self.moves += other.moves;
        self.total_ns += other.total_ns;
        self.max_ns = self.max_ns.max(other.max_ns);
        self.buckets_mut().iter_mut().zip(&other.buckets).for_each(|(a, b)| *a += b);
    }

    /// Decisions counted.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The `q` quantile (0 < q <= 1) in nanoseconds: the value of the ⌈q·n⌉-th smallest time.
    pub fn quantile_ns(&self, q: f64) -> f64 {
        if self.moves == 0 {
            return f64::NAN;
        }
        let rank = ((q * self.moves as f64).ceil() as u64).clamp(1, self.moves);
        let mut seen = 0;
        for (b, &count) in self.buckets.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return bucket_value(b).min(self.max_ns as f64);
            }
        }
        self.max_ns as f64
    }

    fn row(&self, bot: &str) -> TimingRow {
        let ms = |ns: f64| Figure(ns / 1e6);
        let mean = if self.moves == 0 { f64::NAN } else { self.total_ns as f64 / self.moves as f64 };
        TimingRow {
            bot: bot.to_string(),
            moves: self.moves,
            mean_ms: ms(mean),
            median_ms: ms(self.quantile_ns(0.5)),
            p90_ms: ms(self.quantile_ns(0.9)),
            p99_ms: ms(self.quantile_ns(0.99)),
            max_ms: ms(if self.moves == 0 { f64::NAN } else { self.max_ns as f64 }),
            time_losses: self.time_losses,
            // To a tenth: the clock's millisecond, and memory as a person reads it.
            clock_left_min_ms: Figure(self.clock_left_min.map_or(f64::NAN, |d| (d.as_secs_f64() * 1e4).round() / 10.0)),
            peak_memory_mib: Figure(self.peak_memory.map_or(f64::NAN, |b| (b as f64 / 104_857.6).round() / 10.0)),
        }
    }

    /// Whether the bot is one a person watches the time and memory of: a program outside the
    /// process (its memory measured) or a bot on a clock. Built-in bots without a clock are left
    /// out of the summary's lines and the report's table, which then stay the same bytes from
    /// run to run (timing.csv keeps every bot).
    pub fn watched(&self) -> bool {
        self.peak_memory.is_some() || self.clock_left_min.is_some() || self.time_losses > 0
    }

    /// The bot's time and memory in one line for the terminal: `time: NAME 120 decisions,
    /// median 3.1 ms, p90 4.0 ms, p99 6.0 ms, max 12.0 ms; 0 games lost on time; peak memory
    /// 9.8 MiB` (the clock's least left, under a time control).
    pub fn line(&self, bot: &str) -> String {
        let row = self.row(bot);
        // Two decimals under 10 ms: a program outside answers in tenths of a millisecond.
        let ms = |f: Figure| match f.0 {
            v if v.is_nan() => "-".to_string(),
            v if v < 10.0 => format!("{v:.2} ms"),
            v => format!("{v:.1} ms"),
        };
        let mut line = format!(
            "time: {bot} {} decisions, median {}, p90 {}, p99 {}, max {}; {} {} lost on time",
            self.moves,
            ms(row.median_ms),
            ms(row.p90_ms),
            ms(row.p99_ms),
            ms(row.max_ms),
            self.time_losses,
            if self.time_losses == 1 { "game" } else { "games" }
        );
        if !row.clock_left_min_ms.0.is_nan() {
            line.push_str(&format!("; least left on its clock {}", ms(row.clock_left_min_ms)));
        }
        if !row.peak_memory_mib.0.is_nan() {
            line.push_str(&format!("; peak memory {:.1} MiB", row.peak_memory_mib.0));
        }
        line
    }

    /// timing.csv's header and the rows of the bots [`TimeTally::watched`] picks, read back from
    /// the run folder `dir` (the report draws them); nothing when the file is missing or no bot
    /// is watched.
    pub fn read_watched(dir: &Path) -> Vec<Vec<String>> {
        let Ok(text) = std::fs::read_to_string(dir.join(TimeTally::FILE)) else { return Vec::new() };
        let mut rows = csv::Reader::from_reader(text.as_bytes());
        let Ok(header) = rows.headers().map(|h| h.iter().map(str::to_string).collect::<Vec<_>>()) else {
            return Vec::new();
        };
        let column = |name: &str| header.iter().position(|h| h == name);
        let (Some(losses), Some(left), Some(memory)) =
            (column("time_losses"), column("clock_left_min_ms"), column("peak_memory_mib"))
        else {
            return Vec::new();
        };
        // `watched`, on the row as written: a loss on time, a clock, a measured memory.
        let watched: Vec<Vec<String>> = rows
            .records()
            .map_while(|r| r.ok())
            .map(|r| r.iter().map(str::to_string).collect::<Vec<_>>())
            .filter(|r| r.len() == header.len() && (r[losses] != "0" || !r[left].is_empty() || !r[memory].is_empty()))
            .collect();
        match watched.is_empty() {
            true => Vec::new(),
            false => std::iter::once(header).chain(watched).collect(),
        }
    }

    /// The table of timing.csv: one row per bot, in the config's order.
    pub fn rows(tallies: &[TimeTally], names: &[String]) -> Rows {
        Rows::of("timing", &tallies.iter().zip(names).map(|(t, name)| t.row(name)).collect::<Vec<_>>())
    }

    /// Writes timing.csv.
    pub fn write_csv(tallies: &[TimeTally], names: &[String], path: &Path) -> Result<()> {
        write_atomic(path, &Csv.serialize(&[TimeTally::rows(tallies, names)])?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn buckets_cover_every_value_in_order() {
        let mut last = 0;
        for ns in (0..5000u64).chain([1 << 20, (1 << 20) + 1, u64::MAX / 3, u64::MAX]) {
            let b = bucket(ns);
            assert!(b >= last && b < BUCKETS, "{ns}");
            last = b;
        }
    }

    proptest! {
        /// Quantiles are within 1/64 of the exact ones, mean and max exact.
        #[test]
        fn quantiles_are_within_the_resolution(times in prop::collection::vec(0u64..10_000_000_000, 1..400)) {
            let mut tally = TimeTally::default();
            for &t in &times {
                tally.add(Duration::from_nanos(t));
            }
            let mut sorted = times.clone();
            sorted.sort_unstable();
            for q in [0.5, 0.99, 1.0] {
                let rank = ((q * sorted.len() as f64).ceil() as usize).max(1);
                let exact = sorted[rank - 1] as f64;
                let got = tally.quantile_ns(q);
                prop_assert!((got - exact).abs() <= exact / 64.0 + 1.0, "q {} exact {} got {}", q, exact, got);
            }
            prop_assert_eq!(tally.max_ns, *sorted.last().unwrap());
            prop_assert_eq!(tally.total_ns, times.iter().map(|&t| t as u128).sum::<u128>());
        }

        /// Tallies kept apart and merged give the figures of one tally of every time.
        #[test]
        fn merged_tallies_equal_one(times in prop::collection::vec((0u64..10_000_000_000, 0usize..3), 0..300)) {
            let mut one = TimeTally::default();
            let mut parts = vec![TimeTally::default(); 3];
            for &(t, part) in &times {
                one.add(Duration::from_nanos(t));
                parts[part].add(Duration::from_nanos(t));
            }
            let mut merged = TimeTally::default();
            parts.iter().for_each(|p| merged.merge(p));
            // As written (a bot without moves has NaN figures, which equal nothing).
            let written = |t: &TimeTally| serde_json::to_value(t.row("bot")).unwrap();
            prop_assert_eq!(written(&merged), written(&one));
            prop_assert_eq!(merged.moves, times.len() as u64);
        }
    }
}
