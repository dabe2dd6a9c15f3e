//! The shanten-by-turn distribution the opponent model draws from (the patent's α: "the share of
//! that shanten in this turn's distribution, from statistics of this kind of mahjong").
//!
//! Measured from the project's own games: four `pruned` bots (no opponent model), 4,000 hands, seed 1; after
//! every discard, the discarder's shanten (all shapes, 13 tiles) is counted by the turn and the
//! number of sets it has declared. Regenerate `shanten_by_turn.csv` with
//!
//! ```text
//! cargo test --release -- --ignored regenerate_shanten_by_turn --nocapture
//! ```
//!
//! The file: `turn,declared,s0,...,s8`, one row per turn (0..=21) and declared-set count (0..=4),
//! the number of discards seen at each shanten. A turn is four tiles from the live wall:
//! `(84 − wall_left) / 4` (84 = the tiles left after the deal, without flowers).

use std::sync::OnceLock;

use crate::core::BotRng;

use rand::Rng;

/// Hands played by the committed measurement.
#[cfg(test)]
pub const MEASURED_HANDS: u64 = 4000;

pub const TURNS: usize = 22;
pub const DECLARED: usize = 5;
/// Shanten 0..=8 (a 13-tile hand is never complete; 8 is the standard shape's worst).
pub const SHANTENS: usize = 9;

/// Counts of discards by turn, declared sets and shanten.
pub type Counts = [[[u32; SHANTENS]; DECLARED]; TURNS];

/// The turn of a position from the tiles left in the live wall.
pub fn turn_of(wall_left: usize) -> usize {
    ((84usize.saturating_sub(wall_left)) / 4).min(TURNS - 1)
}

/// The highest shanten a hand with `declared` sets can have (8 − 2 × declared).
pub fn max_shanten(declared: usize) -> usize {
    8 - 2 * declared.min(4)
}

/// P(shanten | turn, declared) as cumulative sums, ready to sample.
pub struct Distribution {
    cumulative: [[[f64; SHANTENS]; DECLARED]; TURNS],
}

/// Weight added to every possible shanten of a cell, so rare cells (four declared sets, turn 0)
/// still give a distribution over what is possible.
const PRIOR: f64 = 0.5;

impl Distribution {
    pub fn from_counts(counts: &Counts) -> Distribution {
        let mut cumulative = [[[0.0; SHANTENS]; DECLARED]; TURNS];
        for t in 0..TURNS {
            for d in 0..DECLARED {
                let w: Vec<f64> = (0..SHANTENS)
                    .map(|s| if s <= max_shanten(d) { counts[t][d][s] as f64 + PRIOR } else { 0.0 })
                    .collect();
                let total: f64 = w.iter().sum();
                let mut acc = 0.0;
                for s in 0..SHANTENS {
                    acc += w[s] / total;
                    cumulative[t][d][s] = acc;
                }
            }
        }
        Distribution { cumulative }
    }

    /// The committed measurement.
    pub fn measured() -> &'static Distribution {
        static DIST: OnceLock<Distribution> = OnceLock::new();
        DIST.get_or_init(|| {
            let counts = parse(include_str!("shanten_by_turn.csv")).expect("shanten_by_turn.csv is well formed");
            Distribution::from_counts(&counts)
        })
    }

    /// P(shanten = s) at `turn` for a seat with `declared` sets.
    #[cfg(test)]
    pub fn p(&self, turn: usize, declared: usize, s: usize) -> f64 {
        let c = &self.cumulative[turn.min(TURNS - 1)][declared.min(DECLARED - 1)];
        c[s] - if s == 0 { 0.0 } else { c[s - 1] }
    }

    pub fn sample(&self, turn: usize, declared: usize, rng: &mut BotRng) -> usize {
        let c = &self.cumulative[turn.min(TURNS - 1)][declared.min(DECLARED - 1)];
        let u: f64 = rng.random();
        c.iter().position(|&x| u < x).unwrap_or(max_shanten(declared))
    }
}

/// Reads the CSV (header line, then `turn,declared,s0..s8` rows).
pub fn parse(text: &str) -> Result<Counts, String> {
    let mut counts = [[[0u32; SHANTENS]; DECLARED]; TURNS];
    for (i, line) in text.lines().enumerate().skip(1) {
        let fields: Vec<u32> = line
            .split(',')
            .map(|f| f.trim().parse::<u32>().map_err(|e| format!("line {}: {e}", i + 1)))
            .collect::<Result<_, _>>()?;
        let [t, d, ref s @ ..] = fields[..] else { return Err(format!("line {}: too few fields", i + 1)) };
        if t as usize >= TURNS || d as usize >= DECLARED || s.len() != SHANTENS {
            return Err(format!("line {}: turn, declared or shanten count out of range", i + 1));
        }
        counts[t as usize][d as usize].copy_from_slice(s);
    }
    Ok(counts)
}

#[cfg(test)]
pub fn to_csv(counts: &Counts) -> String {
    let mut out = String::from("turn,declared");
    for s in 0..SHANTENS {
        out += &format!(",s{s}");
    }
    out.push('\n');
    for (t, row) in counts.iter().enumerate() {
        for (d, cells) in row.iter().enumerate() {
            let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
            out += &format!("{t},{d},{}\n", cells.join(","));
        }
    }
    out
}
