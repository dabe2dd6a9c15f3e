//! Output files: `games.csv` (one row per seat per game, streamed in game order) and
//! `summary.csv` (one row per bot), plus the terminal table.

mod games;
mod matches;
mod summary;

pub use games::GamesWriter;
pub use matches::{MatchRow, MatchTally, SprtResult};
pub use summary::{BotSummary, Tally};

/// Formats a derived statistic for CSV: fixed six decimals (stable across platforms), `inf`
/// and `-inf` for infinities, empty for undefined.
pub fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.6}")
    }
}
