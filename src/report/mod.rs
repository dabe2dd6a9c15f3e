//! Output files and the terminal verdicts: `games.csv` (one row per seat per game, streamed in
//! game order), `summary.csv` (one row per bot), `match.csv` (one row for every two bots that
//! shared a table), `ratings.csv` (the rating list of three or more bots), `timing.csv` (decision
//! times per bot) and `run.json` (the [`Manifest`]: whether the run is whole). `RunTally` takes the records in game order and comes
//! to the [`Verdicts`]; [`GamesFile`] reads games.csv back.

pub(crate) mod export;
mod games;
pub mod history;
pub(crate) mod html;
mod manifest;
mod matches;
mod ratings;
pub mod records;
mod run;
mod summary;
mod table;
mod timing;
pub(crate) mod verdict;

pub(crate) use games::{count_games, read_text as read_games_text};
pub use games::{GameRow, GamesFile, GamesWriter, Records, RowFormat, Tail};
pub(crate) use manifest::{
    check_run_folder, config_hash, now, write_atomic, write_output, CONFIG, MANIFEST, TEMP_SUFFIX,
};
pub use manifest::{Manifest, RunStatus};
pub use matches::{AdjustedFigures, MatchRow, SprtResult};
pub use ratings::{RatingRow, RatingTable};
pub(crate) use run::RunTally;
pub use run::Verdicts;
pub(crate) use summary::Tally;
pub use summary::{BotSummary, CiUnit};
pub(crate) use table::TableTally;
pub use timing::TimeTally;

/// Formats a derived statistic for CSV: fixed six decimals (stable across platforms), `inf`
/// and `-inf` for infinities, empty for undefined.
pub(crate) fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.6}")
    }
}
