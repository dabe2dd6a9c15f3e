//! A game's own section of the report, in game-neutral terms: the games it is computed from
//! ([`PlayedGame`]) and what it shows ([`ReportBlock`]). Each game writes its section in its own
//! `report.rs` ([`GameDef::report`](crate::core::GameDef::report)); the report turns the blocks
//! into HTML without knowing which game made them.

use crate::core::{GameRecord, SeatResult};

/// One game of a run as the report reads it back: who sat where and what happened.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a> {
    /// The bot in each seat, as indexes into the run's names.
    pub lineup: &'a [usize],
    /// The game's record, payoffs and status.
    pub record: &'a GameRecord,
    /// The game's own columns (each seat's values of them are in `record`).
    pub columns: &'a [&'a str],
}

impl<'a> PlayedGame<'a> {
    /// The text of column `name` of a seat ("" when the game has no such column).
    pub fn field(&self, seat: usize, name: &str) -> &'a str {
        let record = self.record;
        self.columns.iter().position(|c| *c == name).and_then(|i| record.extra(seat).nth(i)).unwrap_or("")
    }
}

/// One piece of a game's section, in the order shown.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportBlock {
    /// The section's heading.
    Heading(String),
    /// A titled table: the first column names the row; the note (if any) goes under it.
    Table {
        /// The line over the table.
        title: String,
        /// The column names.
        headers: Vec<String>,
        /// The rows, each as many cells as `headers`.
        rows: Vec<Vec<String>>,
        /// The line under the table (empty for none).
        note: String,
    },
    /// A titled bar chart, one bar a label.
    Bars {
        /// The line over the chart.
        title: String,
        /// Each bar's label, left to right.
        labels: Vec<String>,
        /// Each bar's height, in the unit `y_label` names.
        counts: Vec<f64>,
        /// What the labels are.
        x_label: String,
        /// What the heights count.
        y_label: String,
        /// The line under the chart (empty for none).
        note: String,
    },
}

impl ReportBlock {
    /// A heading line.
    pub fn heading(text: &str) -> ReportBlock {
        ReportBlock::Heading(text.into())
    }

    /// A table whose header row is `headers`; `note` is the line under it (empty for none).
    pub fn table<S: AsRef<str>>(title: &str, headers: &[S], rows: Vec<Vec<String>>, note: &str) -> ReportBlock {
        let headers = headers.iter().map(|h| h.as_ref().to_string()).collect();
        ReportBlock::Table { title: title.into(), headers, rows, note: note.into() }
    }

    /// Bars without a note.
    pub fn bars(title: &str, labels: Vec<String>, counts: Vec<f64>, x_label: &str, y_label: &str) -> ReportBlock {
        let (x_label, y_label) = (x_label.into(), y_label.into());
        ReportBlock::Bars { title: title.into(), labels, counts, x_label, y_label, note: String::new() }
    }
}

/// Each (bot, seat) of every game, with the seat's result and its game.
pub fn seats<'g, 'a>(
    games: &'g [PlayedGame<'a>],
) -> impl Iterator<Item = (usize, usize, &'a SeatResult, &'g PlayedGame<'a>)> + 'g {
    games
        .iter()
        .flat_map(|g| g.lineup.iter().enumerate().map(move |(seat, &bot)| (bot, seat, &g.record.seats[seat], g)))
}

/// A column's text as a number (0 when empty or not a number).
pub fn number(text: &str) -> f64 {
    text.parse().unwrap_or(0.0)
}

/// `part / whole` to three places, or "-" when there is no whole.
pub fn rate(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.3}", part / whole)
    } else {
        "-".into()
    }
}
