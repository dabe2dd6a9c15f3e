//! Hold'em's section of report.html: each bot's bb/100 from each seat, and how often it reached
//! showdown.

use super::{Format, Holdem};
use crate::core::section::{number, rate, seats, PlayedGame, ReportBlock};

pub(super) fn section(table: &Holdem, games: &[PlayedGame], names: &[String]) -> Vec<ReportBlock> {
    let cash = table.format == Format::Cash;
    let seats_n = table.seats;
    // Per bot and seat: [payoff, hands, games, showdowns].
    let mut t = vec![vec![[0.0f64; 4]; seats_n]; names.len()];
    for (bot, seat, result, g) in seats(games) {
        let cell = &mut t[bot][seat];
        cell[0] += result.payoff;
        cell[1] += number(g.field(seat, "hands"));
        cell[2] += 1.0;
        cell[3] += number(g.field(seat, "showdown"));
    }
    let mut head: Vec<String> = vec!["bot".into()];
    let per = if cash { "bb/100" } else { "payoff per game" };
    head.extend((0..seats_n).map(|s| format!("{per}, seat {s}")));
    head.extend([format!("{per}, all"), "showdown rate".into()]);
    let rows = names
        .iter()
        .zip(&t)
        .map(|(name, by_seat)| {
            let figure = |c: [f64; 4]| {
                if cash {
                    rate(100.0 * c[0], c[1])
                } else {
                    rate(c[0], c[2])
                }
            };
            let all = by_seat.iter().fold([0.0; 4], |a, c| std::array::from_fn(|i| a[i] + c[i]));
            let mut row = vec![name.clone()];
            row.extend(by_seat.iter().map(|c| figure(*c)));
            row.extend([figure(all), rate(all[3], all[2])]);
            row
        })
        .collect();
    let note = if cash {
        "bb/100: big blinds won per 100 hands. Seat 0 posts the small blind heads-up; seats rotate by deal in paired runs. Showdown rate: games in which the bot reached the last hand's showdown."
    } else {
        "Showdown rate: games in which the bot reached the last hand's showdown."
    };
    vec![ReportBlock::heading("Hold'em"), ReportBlock::table("By seat", &head, rows, note)]
}
