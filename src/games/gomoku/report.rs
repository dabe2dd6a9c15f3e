//! Gomoku's section of report.html: wins as black and as white, how games ended, and their
//! lengths.

use std::collections::BTreeMap;

use crate::core::section::{rate, seats, PlayedGame, ReportBlock};

pub(super) fn section(games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
    // Per bot and colour: [games, wins].
    let mut by_colour = vec![[[0u64; 2]; 2]; names.len()];
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    for (bot, seat, result, g) in seats(games) {
        let colour = usize::from(g.field(seat, "colour") == "white");
        by_colour[bot][colour][0] += 1;
        let sole_first = result.place == 1 && g.record.seats.iter().filter(|s| s.place == 1).count() == 1;
        by_colour[bot][colour][1] += u64::from(sole_first);
        if seat == 0 {
            let end = g.field(seat, "end");
            *ends.entry(if end.is_empty() { "forfeit".into() } else { end.to_string() }).or_default() += 1;
        }
    }
    let rows = names
        .iter()
        .zip(&by_colour)
        .map(|(name, [black, white])| {
            vec![
                name.clone(),
                black[0].to_string(),
                rate(black[1] as f64, black[0] as f64),
                white[0].to_string(),
                rate(white[1] as f64, white[0] as f64),
            ]
        })
        .collect();
    let end_rows = ends.iter().map(|(end, n)| vec![end.clone(), n.to_string()]).collect();
    let lengths: Vec<f64> = games.iter().map(|g| f64::from(g.record.moves)).collect();
    let (labels, counts) = length_bins(&lengths);
    vec![
        ReportBlock::heading("Gomoku"),
        ReportBlock::table(
            "Wins by colour",
            &["bot", "games as black", "win rate as black", "games as white", "win rate as white"],
            rows,
            "Black moves first.",
        ),
        ReportBlock::table("How games ended", &["end", "games"], end_rows, ""),
        ReportBlock::bars(
            "Game length",
            labels,
            counts,
            "stones on the board at the end (moves, opening included)",
            "games",
        ),
    ]
}

/// Bins of whole numbers, ten moves wide (or wider for long games), labelled by their range.
fn length_bins(values: &[f64]) -> (Vec<String>, Vec<f64>) {
    let max = values.iter().copied().fold(0.0, f64::max) as u64;
    let width = (max / 9 + 1).max(10).next_multiple_of(5);
    let bins = (max / width + 1) as usize;
    let mut counts = vec![0.0; bins];
    for v in values {
        counts[(*v as u64 / width) as usize] += 1.0;
    }
    let labels = (0..bins as u64).map(|i| format!("{}-{}", i * width, (i + 1) * width - 1)).collect();
    (labels, counts)
}
