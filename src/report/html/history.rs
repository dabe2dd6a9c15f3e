//! The gate's history as one page (`arena report --history FILE`): for every criterion of every
//! expectation (a series: the rows of one expectation and criterion, in the file's order), its
//! plot over commits ([`super::trend`]), the first commit of a change the intervals resolve
//! ([`crate::stats::change`]), the failures, and the numbers as a table.

use std::fmt::Write;

use super::trend::{self, Point, CHANGE, FAIL, PASS};
use super::{escape, STYLE};
use crate::error::Result;
use crate::report::history::{HistoryRow, Outcome};
use crate::report::num;
use crate::stats::change::{changes, Change, Direction, WINDOW};
use crate::stats::Interval;

/// The page's own style beside the report's: plots as wide as the page, failures in their colour.
const HISTORY_STYLE: &str = "section.series svg{width:100%;max-width:none}\
tr.fail td{color:#b34700;font-weight:bold}p.change{font-size:1.05em}.legend span{margin-right:1.2em}";

/// One expectation's criterion over the history: its rows in file order.
struct Series<'a> {
    expectation: &'a str,
    criterion: &'a str,
    rows: Vec<&'a HistoryRow>,
}

/// The rows grouped by (expectation, criterion), in order of first appearance.
fn series(rows: &[HistoryRow]) -> Vec<Series<'_>> {
    let mut out: Vec<Series> = Vec::new();
    for row in rows {
        match out.iter_mut().find(|s| s.expectation == row.expectation && s.criterion == row.criterion) {
            Some(s) => s.rows.push(row),
            None => out.push(Series { expectation: &row.expectation, criterion: &row.criterion, rows: vec![row] }),
        }
    }
    out
}

/// The page for the history `rows`, read from the file shown as `name`.
pub fn page(name: &str, rows: &[HistoryRow]) -> Result<String> {
    let all = series(rows);
    let mut commits: Vec<&str> = rows.iter().map(|r| r.commit.as_str()).collect();
    commits.dedup();
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} - bot-arena gate history</title>\n\
         <style>{STYLE}{HISTORY_STYLE}</style>\n</head>\n<body>\n<h1>bot-arena gate history: {}</h1>\n",
        escape(name),
        escape(name)
    );
    let _ = writeln!(
        page,
        "<p>{} rows: {} criteria over {} commits{}.</p>",
        rows.len(),
        all.len(),
        commits.len(),
        match (rows.first(), rows.last()) {
            (Some(a), Some(b)) => format!(", {} to {}", escape(&a.date), escape(&b.date)),
            _ => String::new(),
        }
    );
    let _ = writeln!(
        page,
        "<p class=\"note\">The first commit of a change the intervals resolve: a commit whose 95% interval and those of \
         the {} commits after it all lie on one side (entirely below, or entirely above) of the intervals of the {WINDOW} \
         commits before it. A single noisy commit is never named, and a change is named once {WINDOW} commits confirm it.</p>",
        WINDOW - 1
    );
    for s in &all {
        page.push_str(&section(s)?);
    }
    page.push_str("</body>\n</html>\n");
    Ok(page)
}

/// One series' section: heading, what changed, legend, plot, failures, table.
fn section(s: &Series) -> Result<String> {
    let last = s.rows.last().expect("a series has a row");
    let intervals: Vec<Interval> = s.rows.iter().map(|r| Interval { lo: r.lo, hi: r.hi }).collect();
    let found = changes(&intervals, WINDOW);
    let mut out = String::from("<section class=\"series\">\n");
    let _ = writeln!(out, "<h2>{}: {}</h2>", escape(s.expectation), escape(s.criterion));
    let _ = writeln!(
        out,
        "<p class=\"note\">{} of {}, at each of {} rows: the estimate and its 95% interval; the dashed line is the bound \
         it had to reach (for an SPRT, the LLR's upper bound).</p>",
        escape(&last.model),
        escape(&last.bot),
        s.rows.len()
    );
    out.push_str(&change_text(s, &found));
    let _ = writeln!(
        out,
        "<p class=\"legend\"><span><b style=\"color:{}\">&#9679;</b> pass</span><span><b style=\"color:{}\">&#9650;</b> \
         fail</span><span>&#8211; &#8211; bound</span><span><b style=\"color:{}\">&#9478;</b> first commit of a change</span></p>",
        trend::css(PASS),
        trend::css(FAIL),
        trend::css(CHANGE)
    );
    let points: Vec<Point> = s
        .rows
        .iter()
        .map(|r| Point {
            commit: &r.commit,
            estimate: r.estimate,
            lo: r.lo,
            hi: r.hi,
            bound: r.bound,
            pass: r.verdict == Outcome::Pass,
        })
        .collect();
    let at: Vec<usize> = found.iter().map(|c| c.at).collect();
    out.push_str(&trend::trend(&points, &at, &last.model)?);
    out.push('\n');
    let failed: Vec<String> = s
        .rows
        .iter()
        .filter(|r| r.verdict == Outcome::Fail)
        .map(|r| format!("<code>{}</code>", escape(&r.commit)))
        .collect();
    let _ = writeln!(
        out,
        "<p class=\"fails\">Failures ({}): {}</p>",
        failed.len(),
        if failed.is_empty() { "none".to_string() } else { failed.join(", ") }
    );
    out.push_str(&table(s));
    out.push_str("</section>\n");
    Ok(out)
}

/// The sentence naming the first commit of a change (and any later ones), or saying there is none.
fn change_text(s: &Series, found: &[Change]) -> String {
    let say = |c: &Change| {
        let way = match c.direction {
            Direction::Down => "a drop",
            Direction::Up => "a rise",
        };
        format!("<b class=\"commit\">{}</b> ({way}, row {})", escape(&s.rows[c.at].commit), c.at + 1)
    };
    match found.split_first() {
        None => format!("<p class=\"change\">No change the intervals resolve ({WINDOW} commits on each side).</p>\n"),
        Some((first, rest)) => {
            let later: Vec<String> = rest.iter().map(say).collect();
            let later = if later.is_empty() { String::new() } else { format!("; later changes: {}", later.join(", ")) };
            format!("<p class=\"change\">First commit of a change the intervals resolve: {}{later}.</p>\n", say(first))
        }
    }
}

/// The series' numbers, one row a commit.
fn table(s: &Series) -> String {
    let mut out = String::from(
        "<table>\n<tr><th class=\"l\">commit</th><th class=\"l\">date</th><th>estimate</th><th>lo</th><th>hi</th>\
         <th>bound</th><th class=\"l\">verdict</th></tr>\n",
    );
    for r in &s.rows {
        let (class, verdict) = match r.verdict {
            Outcome::Pass => ("pass", "pass"),
            Outcome::Fail => ("fail", "FAIL"),
        };
        let _ = writeln!(
            out,
            "<tr class=\"{class}\"><td class=\"l\"><code>{}</code></td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td class=\"l\">{verdict}</td></tr>",
            escape(&r.commit),
            escape(&r.date),
            num(r.estimate),
            num(r.lo),
            num(r.hi),
            num(r.bound)
        );
    }
    out.push_str("</table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(expectation: &str, commit: &str, estimate: f64, pass: bool) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: "2026-01-01T00:00:00Z".into(),
            expectation: expectation.into(),
            criterion: "elo_lo".into(),
            model: "elo (pentanomial)".into(),
            bot: "b".into(),
            seed: 1,
            games: 10,
            estimate,
            lo: estimate - 1.0,
            hi: estimate + 1.0,
            bound: 5.0,
            verdict: if pass { Outcome::Pass } else { Outcome::Fail },
        }
    }

    #[test]
    fn each_series_names_its_change_and_its_failures() {
        let mut rows = Vec::new();
        for (i, level) in [10.0, 10.0, 10.0, 10.0, 3.0, 3.0, 3.0].into_iter().enumerate() {
            rows.push(row("steady <one>", &format!("c{i}"), 10.0, true));
            rows.push(row("drops", &format!("c{i}"), level, level > 5.0));
        }
        let html = page("h.csv", &rows).unwrap();
        let sections: Vec<&str> = html.split("<section class=\"series\">").skip(1).collect();
        assert_eq!(sections.len(), 2);
        assert!(sections[0].contains("<h2>steady &lt;one&gt;: elo_lo</h2>"));
        assert!(sections[0].contains("No change the intervals resolve"));
        assert!(sections[0].contains("Failures (0): none"));
        assert!(sections[1]
            .contains("First commit of a change the intervals resolve: <b class=\"commit\">c4</b> (a drop, row 5)"));
        assert!(sections[1].contains("Failures (3): <code>c4</code>, <code>c5</code>, <code>c6</code>"));
        assert_eq!(sections[1].matches("<tr class=\"fail\">").count(), 3);
        assert_eq!(sections[1].matches("<tr class=\"pass\">").count(), 4);
    }
}
