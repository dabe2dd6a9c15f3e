//! Zhajinhua's section of report.html: how often each bot looked at its cards, left the hand, and
//! reached a showdown.

use crate::core::section::{number, rate, seats, PlayedGame, ReportBlock};

pub(super) fn section(games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
    // Per bot: [games, looked, folded, showdown, rounds].
    let mut t = vec![[0.0f64; 5]; names.len()];
    for (bot, seat, _, g) in seats(games) {
        let c = &mut t[bot];
        c[0] += 1.0;
        c[1] += number(g.field(seat, "looked"));
        c[2] += number(g.field(seat, "folded"));
        c[3] += number(g.field(seat, "showdown"));
        c[4] += number(g.field(seat, "rounds"));
    }
    let rows = names
        .iter()
        .zip(&t)
        .map(|(name, c)| {
            vec![name.clone(), c[0].to_string(), rate(c[1], c[0]), rate(c[2], c[0]), rate(c[3], c[0]), rate(c[4], c[0])]
        })
        .collect();
    vec![
        ReportBlock::heading("Zhajinhua"),
        ReportBlock::table(
            "Looked, folded, compared",
            &[
                "bot",
                "games",
                "looked rate",
                "left the hand (fold or lost compare)",
                "showdown rate",
                "rounds per game",
            ],
            rows,
            "Shares of the bot's games.",
        ),
    ]
}
