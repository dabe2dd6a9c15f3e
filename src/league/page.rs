//! `arena league report`: the league as one self-contained page, in the run report's style and
//! with its plots (`report::html`): for each game, each bot's ratings across its versions, the
//! table `arena league table` prints, each version against the one before, the crosstable, and
//! whether the field is transitive (with α-Rank when it is not).

use std::fmt::Write;

use crate::error::Result;
use crate::league::rate::{Evidence, Table, ALPHA, POPULATION};
use crate::report::export::table_markup;
use crate::report::html::{escape, figure_of, intervals, Estimate, Series, STYLE};
use crate::stats::plackett_luce;
use crate::stats::Unit;

/// The page's own style beside the report's: a game a section down the page, tables that scroll
/// on a narrow screen.
const LEAGUE_STYLE: &str = "section.game{margin-bottom:2.5em}section.game svg{width:100%;max-width:none}\
.wide{overflow-x:auto}ul.steps li{margin:.2em 0}";

/// One game of the league, rated.
pub(crate) struct Rated<'a> {
    pub(crate) game: &'a str,
    /// The unit of the game's payoffs, and whether its verdicts lead with Elo.
    pub(crate) unit: Unit,
    pub(crate) elo_leads: bool,
    pub(crate) evidence: &'a Evidence,
    pub(crate) table: &'a Table,
}

/// The page for `games` of the league shown as `name`.
pub(crate) fn page(name: &str, games: &[Rated]) -> Result<String> {
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} - bot-arena league</title>\n\
         <style>{STYLE}{LEAGUE_STYLE}</style>\n</head>\n<body>\n<h1>bot-arena league: {}</h1>\n",
        escape(name),
        escape(name)
    );
    let names: Vec<&str> = games.iter().map(|g| g.game).collect();
    let _ = writeln!(
        page,
        "<p>{} {}: {}. Every version of every bot is rated over all the games the league keeps; the figures are \
         those of <code>arena league table</code>.</p>",
        games.len(),
        if games.len() == 1 { "game" } else { "games" },
        escape(&names.join(", "))
    );
    for rated in games {
        page.push_str(&section(rated)?);
    }
    page.push_str("</body>\n</html>\n");
    Ok(page)
}

/// One game's section.
fn section(g: &Rated) -> Result<String> {
    let (ev, table) = (g.evidence, g.table);
    let mut out = format!("<section class=\"run game\" id=\"{}\">\n<h2>{}</h2>\n", escape(g.game), escape(g.game));
    let _ = writeln!(
        out,
        "<p>{}.</p>\n<p class=\"note\">{}.</p>",
        escape(&table.summary(ev, g.game)),
        escape(&table.method(g.unit))
    );

    out.push_str("<h3>Table</h3>\n<div class=\"wide\">\n");
    let mut head = vec!["rank".to_string(), "bot".into(), "Elo [95% CI]".into()];
    if table.field.is_some() {
        head.push(format!("{} [95% CI]", plackett_luce::NAME));
    }
    head.extend([format!("{} [95% CI]", g.unit), "pairs".into(), "score".into()]);
    let rows: Vec<Vec<String>> = table
        .rows(ev, g.unit)
        .into_iter()
        .map(|r| {
            let mut row = vec![r.rank.to_string(), r.label, r.elo];
            row.extend(r.field);
            row.extend([r.payoff, r.pairs.to_string(), r.score]);
            row
        })
        .collect();
    out.push_str(&table_markup(&head, &rows));
    out.push_str("</div>\n");

    out.push_str("<h3>Each version against the one before</h3>\n");
    let steps = table.steps(ev, g.unit, g.elo_leads);
    if steps.is_empty() {
        out.push_str("<p>No bot has a second version yet.</p>\n");
    } else {
        out.push_str("<ul class=\"steps\">\n");
        for step in steps {
            let _ = writeln!(out, "<li>{}.</li>", escape(&step));
        }
        out.push_str("</ul>\n");
    }

    // Each bot a series, its versions in order, in both figures.
    let by_bot = |figure: &dyn Fn(usize) -> (f64, f64, f64)| -> Vec<Series> {
        let mut series: Vec<Series> = Vec::new();
        for (k, v) in ev.versions.iter().enumerate() {
            let (mean, lo, hi) = figure(k);
            let point = Estimate { label: v.version.clone(), mean, lo, hi };
            match series.last_mut() {
                Some(s) if s.label == v.name => s.points.push(point),
                _ => series.push(Series { label: v.name.clone(), points: vec![point] }),
            }
        }
        series
    };
    let elo = by_bot(&|k| table.elo_of(k));
    let payoff = by_bot(&|k| {
        let r = table.payoff.ratings[k];
        (g.unit.of(r.value), g.unit.of(r.lo), g.unit.of(r.hi))
    });
    let unit = g.unit.to_string();
    let mut plots = vec![("Elo", elo, "Elo"), ("Payoff", payoff, unit.as_str())];
    // The figure the game's verdicts lead with first, the field's rating last.
    if !g.elo_leads {
        plots.swap(0, 1);
    }
    if let Some(list) = &table.field {
        let level = table.level;
        let field = by_bot(&|k| {
            let r = list.ratings[k];
            (r.value + level, r.lo + level, r.hi + level)
        });
        plots.push((plackett_luce::NAME, field, "Elo (Plackett-Luce)"));
    }
    for (what, series, y) in &plots {
        let figure = intervals(&format!("{what} of each version"), series, "versions", y, 0.0)?;
        out.push_str(&figure_of(
            &format!("{what} of each bot across its versions, 95% intervals"),
            &figure,
            "Each bot's versions left to right in the order they first played; the dashed line is the field's mean (or the anchor).",
        ));
    }

    out.push_str(&crosstable(ev));

    out.push_str("<h3>Is the field transitive?</h3>\n");
    let (said, shares) = table.transitivity(ev);
    let _ = writeln!(out, "<p class=\"transitive\">{}.</p>", escape(&capitalised(&said)));
    if let Some(shares) = shares {
        let _ = writeln!(
            out,
            "<p class=\"note\">α-Rank (α {ALPHA}, population {POPULATION}): each version's share of the long run of a \
             population in which a version that scores better against the one in place takes over.</p>"
        );
        let rows: Vec<Vec<String>> =
            shares.iter().map(|&(k, m)| vec![ev.versions[k].label(), format!("{:.1}%", 100.0 * m)]).collect();
        out.push_str(&table_markup(&["version", "α-Rank share"], &rows));
    }
    out.push_str("</section>\n");
    Ok(out)
}

/// The crosstable: each row's score against each column (points over pairs of seats, a draw
/// half) and how many pairs it rests on.
fn crosstable(ev: &Evidence) -> String {
    let n = ev.versions.len();
    let mut head = vec!["row against column".to_string()];
    head.extend(ev.versions.iter().map(|v| v.label()));
    let rows: Vec<Vec<String>> = (0..n)
        .map(|a| {
            let mut row = vec![ev.versions[a].label()];
            row.extend((0..n).map(|b| {
                let (points, games) = ev.cross[a * n + b];
                if a == b || games == 0 {
                    "-".to_string()
                } else {
                    format!("{:.1}% of {games}", 100.0 * points / games as f64)
                }
            }));
            row
        })
        .collect();
    format!(
        "<h3>Crosstable</h3>\n<p class=\"note\">The row's score against the column: its share of the points over the pairs of \
         seats the two held at one table (a win 1, a draw 1/2), and how many pairs that is.</p>\n<div class=\"wide\">\n{}</div>\n",
        table_markup(&head, &rows)
    )
}

/// `text` with its first letter upper case, as a sentence starts.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
