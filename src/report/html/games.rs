//! What each game's players look at, from the game's own columns of games.csv: gomoku's wins by
//! colour and game lengths; hold'em's bb/100 by seat and showdown rate; mahjong's win, deal-in and
//! self-draw rates and the fans of wins; stud's fold streets; zhajinhua's looked, folded and
//! showdown rates.

use std::collections::BTreeMap;

use super::figure_of;
use super::plot;
use super::run::RunData;
use crate::error::Result;
use crate::report::export::html_table as table;

/// The game's section, or nothing for a game without one.
pub fn section(run: &RunData) -> Result<String> {
    match run.cfg.game {
        "gomoku" => gomoku(run),
        "holdem" => Ok(holdem(run)),
        "mahjong" => mahjong(run),
        "stud" => Ok(stud(run)),
        "zhajinhua" => Ok(zhajinhua(run)),
        _ => Ok(String::new()),
    }
}

/// Each (bot, seat) of every game, with the seat's own columns.
fn seats(run: &RunData) -> impl Iterator<Item = (usize, usize, &crate::core::SeatResult, &crate::report::GameRow)> {
    run.games
        .iter()
        .flat_map(|g| g.lineup.iter().enumerate().map(move |(seat, &bot)| (bot, seat, &g.record.seats[seat], g)))
}

/// The text of column `name` of a seat of a game ("" when the game has no such column).
fn field<'a>(run: &RunData, game: &'a crate::report::GameRow, seat: usize, name: &str) -> &'a str {
    run.column(name).and_then(|i| game.record.extra(seat).nth(i)).unwrap_or("")
}

fn number(text: &str) -> f64 {
    text.parse().unwrap_or(0.0)
}

fn rate(part: f64, whole: f64) -> String {
    if whole > 0.0 {
        format!("{:.3}", part / whole)
    } else {
        "-".into()
    }
}

/// Gomoku: wins as black and as white, how games ended, and their lengths.
fn gomoku(run: &RunData) -> Result<String> {
    // Per bot and colour: [games, wins].
    let mut by_colour = vec![[[0u64; 2]; 2]; run.names.len()];
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    for (bot, seat, result, g) in seats(run) {
        let colour = usize::from(field(run, g, seat, "colour") == "white");
        by_colour[bot][colour][0] += 1;
        let sole_first = result.place == 1 && g.record.seats.iter().filter(|s| s.place == 1).count() == 1;
        by_colour[bot][colour][1] += u64::from(sole_first);
        if seat == 0 {
            let end = field(run, g, seat, "end");
            *ends.entry(if end.is_empty() { "forfeit".into() } else { end.to_string() }).or_default() += 1;
        }
    }
    let rows = run
        .names
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
    let mut out = String::from("<h2>Gomoku</h2>\n");
    out.push_str(&table(
        "Wins by colour",
        &["bot", "games as black", "win rate as black", "games as white", "win rate as white"],
        rows,
        "Black moves first.",
    ));
    let end_rows = ends.iter().map(|(end, n)| vec![end.clone(), n.to_string()]).collect();
    out.push_str(&table("How games ended", &["end", "games"], end_rows, ""));
    let lengths: Vec<f64> = run.games.iter().map(|g| f64::from(g.record.moves)).collect();
    let (labels, counts) = length_bins(&lengths);
    out.push_str(&figure_of(
        "Game length",
        &plot::bars(&labels, &counts, "stones on the board at the end (moves, opening included)", "games")?,
        "",
    ));
    Ok(out)
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

/// Hold'em: each bot's bb/100 from each seat, and how often it reached showdown.
fn holdem(run: &RunData) -> String {
    let cash = run.cfg.table.str("format") == "cash";
    let seats_n = run.cfg.seats;
    // Per bot and seat: [payoff, hands, games, showdowns].
    let mut t = vec![vec![[0.0f64; 4]; seats_n]; run.names.len()];
    for (bot, seat, result, g) in seats(run) {
        let cell = &mut t[bot][seat];
        cell[0] += result.payoff;
        cell[1] += number(field(run, g, seat, "hands"));
        cell[2] += 1.0;
        cell[3] += number(field(run, g, seat, "showdown"));
    }
    let mut head: Vec<String> = vec!["bot".into()];
    let per = if cash { "bb/100" } else { "payoff per game" };
    head.extend((0..seats_n).map(|s| format!("{per}, seat {s}")));
    head.extend([format!("{per}, all"), "showdown rate".into()]);
    let rows = run
        .names
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
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    let note = if cash {
        "bb/100: big blinds won per 100 hands. Seat 0 posts the small blind heads-up; seats rotate by deal in paired runs. Showdown rate: games in which the bot reached the last hand's showdown."
    } else {
        "Showdown rate: games in which the bot reached the last hand's showdown."
    };
    String::from("<h2>Hold'em</h2>\n") + &table("By seat", &head, rows, note)
}

/// Mahjong: hands won, dealt in and self-drawn, and the fans of wins.
fn mahjong(run: &RunData) -> Result<String> {
    // Per bot: [seat-games, won, fans, dealt in, won by self-draw].
    let mut t = vec![[0.0f64; 5]; run.names.len()];
    let mut fans_of_wins: BTreeMap<u64, u64> = BTreeMap::new();
    let (mut wins, mut self_drawn) = (0.0, 0.0);
    for game in &run.games {
        let of = |seat: usize, column: &str| number(field(run, game, seat, column));
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
    let rows = run
        .names
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
    let mut out = String::from("<h2>Mahjong</h2>\n");
    out.push_str(&table(
        "Wins and deal-ins",
        &["bot", "hands", "win rate", "self-draw rate", "deal-in rate", "fans per win"],
        rows,
        &note,
    ));
    if !fans_of_wins.is_empty() {
        let labels: Vec<String> = fans_of_wins.keys().map(u64::to_string).collect();
        let counts: Vec<f64> = fans_of_wins.values().map(|&c| c as f64).collect();
        out.push_str(&figure_of(
            "Fans of wins",
            &plot::bars(&labels, &counts, "fans of the winning hand", "hands won")?,
            "",
        ));
    }
    Ok(out)
}

/// Stud: the street each bot folded on, and how often it reached showdown.
fn stud(run: &RunData) -> String {
    // Per bot: [games, folds on 2, 3, 4, 5 cards, showdowns].
    let mut t = vec![[0u64; 6]; run.names.len()];
    for (bot, seat, _, g) in seats(run) {
        t[bot][0] += 1;
        if let Ok(street @ 2..=5) = field(run, g, seat, "fold_street").parse::<usize>() {
            t[bot][street - 1] += 1;
        }
        t[bot][5] += u64::from(!field(run, g, seat, "category").is_empty());
    }
    let rows = run
        .names
        .iter()
        .zip(&t)
        .map(|(name, c)| {
            let mut row = vec![name.clone(), c[0].to_string()];
            row.extend(c[1..5].iter().map(|&f| rate(f as f64, c[0] as f64)));
            row.push(rate(c[5] as f64, c[0] as f64));
            row
        })
        .collect();
    String::from("<h2>Five-card stud</h2>\n")
        + &table(
            "Fold street and showdowns",
            &["bot", "games", "folded at 2 cards", "at 3", "at 4", "at 5", "showdown rate"],
            rows,
            "Shares of the bot's games: folded holding that many cards, or shown down.",
        )
}

/// Zhajinhua: how often each bot looked at its cards, left the hand, and reached a showdown.
fn zhajinhua(run: &RunData) -> String {
    // Per bot: [games, looked, folded, showdown, rounds].
    let mut t = vec![[0.0f64; 5]; run.names.len()];
    for (bot, seat, _, g) in seats(run) {
        let c = &mut t[bot];
        c[0] += 1.0;
        c[1] += number(field(run, g, seat, "looked"));
        c[2] += number(field(run, g, seat, "folded"));
        c[3] += number(field(run, g, seat, "showdown"));
        c[4] += number(field(run, g, seat, "rounds"));
    }
    let rows = run
        .names
        .iter()
        .zip(&t)
        .map(|(name, c)| {
            vec![name.clone(), c[0].to_string(), rate(c[1], c[0]), rate(c[2], c[0]), rate(c[3], c[0]), rate(c[4], c[0])]
        })
        .collect();
    String::from("<h2>Zhajinhua</h2>\n")
        + &table(
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
        )
}
