//! Mahjong's section of report.html: hands won, dealt in and self-drawn, and the fans of wins.

use std::collections::BTreeMap;

use crate::core::section::{number, rate, PlayedGame, ReportBlock};

pub(super) fn section(games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
    // Per bot: [seat-games, won, fans, dealt in, won by self-draw].
    let mut t = vec![[0.0f64; 5]; names.len()];
    let mut fans_of_wins: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut wins, mut self_drawn) = (0.0, 0.0);
    for game in games {
        let of = |seat: usize, column: &str| number(game.field(seat, column));
        // A discard win has exactly one seat that dealt in: a win without one was self-drawn.
        let discard_win = (0..game.lineup.len()).any(|seat| of(seat, "dealt_in") == 1.0);
        for (seat, &bot) in game.lineup.iter().enumerate() {
            let (won, fans, dealt) = (of(seat, "won"), of(seat, "fans"), of(seat, "dealt_in"));
            let drew = if discard_win { 0.0 } else { won };
            let cell = &mut t[bot];
            *cell = [cell[0] + 1.0, cell[1] + won, cell[2] + fans, cell[3] + dealt, cell[4] + drew];
            if won == 1.0 {
                *fans_of_wins.entry(fans as u64).or_default() += 1;
            }
            wins += won;
            self_drawn += drew;
        }
    }
    let rows = names
        .iter()
        .zip(&t)
        .map(|(name, c)| {
            let rates = [rate(c[1], c[0]), rate(c[4], c[0]), rate(c[3], c[0]), rate(c[2], c[1])];
            [vec![name.clone(), c[0].to_string()], rates.to_vec()].concat()
        })
        .collect();
    let note = format!(
        "Rates per hand a bot played (one seat of one game). Of the {wins} hands won, {self_drawn} ({}) were self-drawn: a discard win has exactly one player who dealt in, so a win in a game where nobody dealt in was drawn by the winner.",
        rate(self_drawn, wins)
    );
    let mut out = vec![
        ReportBlock::heading("Mahjong"),
        ReportBlock::table(
            "Wins and deal-ins",
            &["bot", "hands", "win rate", "self-draw rate", "deal-in rate", "fans per win"],
            rows,
            &note,
        ),
    ];
    if !fans_of_wins.is_empty() {
        let labels: Vec<String> = fans_of_wins.keys().map(u64::to_string).collect();
        let counts: Vec<f64> = fans_of_wins.values().map(|&c| c as f64).collect();
        out.push(ReportBlock::bars("Fans of wins", labels, counts, "fans of the winning hand", "hands won"));
    }
    out
}
