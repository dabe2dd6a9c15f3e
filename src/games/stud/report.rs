//! Stud's section of report.html: the street each bot folded on, and how often it reached
//! showdown.

use crate::core::section::{rate, seats, PlayedGame, ReportBlock};

pub(super) fn section(games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
    // Per bot: [games, folds on 2, 3, 4, 5 cards, showdowns].
    let mut t = vec![[0u64; 6]; names.len()];
    for (bot, seat, _, g) in seats(games) {
        t[bot][0] += 1;
        if let Ok(street @ 2..=5) = g.field(seat, "fold_street").parse::<usize>() {
            t[bot][street - 1] += 1;
        }
        t[bot][5] += u64::from(!g.field(seat, "category").is_empty());
    }
    let rows = names
        .iter()
        .zip(&t)
        .map(|(name, c)| {
            let mut row = vec![name.clone(), c[0].to_string()];
            row.extend(c[1..5].iter().map(|&f| rate(f as f64, c[0] as f64)));
            row.push(rate(c[5] as f64, c[0] as f64));
            row
        })
        .collect();
    vec![
        ReportBlock::heading("Five-card stud"),
        ReportBlock::table(
            "Fold street and showdowns",
            &["bot", "games", "folded at 2 cards", "at 3", "at 4", "at 5", "showdown rate"],
            rows,
            "Shares of the bot's games: folded holding that many cards, or shown down.",
        ),
    ]
}
