//! What each game's players look at: the blocks the game computes from its own columns of
//! games.csv (each game's `report.rs`), as HTML. This file knows no game.

use super::figure_of;
use super::plot;
use super::run::RunData;
use crate::core::section::{PlayedGame, ReportBlock};
use crate::error::Result;
use crate::report::export::{escape, html_table as table, Markup};

/// The game's section, or nothing for a game without one.
pub fn section(run: &RunData) -> Result<String> {
    let games: Vec<PlayedGame> =
        run.games.iter().map(|g| PlayedGame { lineup: &g.lineup, record: &g.record, columns: &run.columns }).collect();
    let mut out = String::new();
    for block in run.table.report(&games, &run.names) {
        match block {
            ReportBlock::Heading(text) => out.push_str(&format!("<h2>{}</h2>\n", escape(&text, Markup::HtmlText))),
            ReportBlock::Table { title, headers, rows, note } => out.push_str(&table(&title, &headers, rows, &note)),
            ReportBlock::Bars { title, labels, counts, x_label, y_label, note } => {
                out.push_str(&figure_of(&title, &plot::bars(&title, &labels, &counts, &x_label, &y_label)?, &note))
            }
        }
    }
    Ok(out)
}
