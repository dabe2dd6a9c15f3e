//! The numbers each plot draws, as a folded table under it: what a screen reader reads and what
//! a reader copies, where the SVG is only shapes. Long series are thinned to [`MAX_ROWS`] rows,
//! evenly spread and always keeping the last, and the table says so.

use std::fmt::Write;

use super::plot::{Estimate, Line, Series};
use super::scale::tidy;
use crate::report::export::table_markup;

/// Rows a table holds at most.
const MAX_ROWS: usize = 50;

/// Numbers in a table: four decimals, no trailing noise.
fn cell(x: f64) -> String {
    if x.is_finite() {
        tidy((x * 1e4).round() / 1e4)
    } else {
        "-".into()
    }
}

/// A folded table with header `head` and `rows`, and a line under it when rows were left out.
fn table(head: &[String], rows: &[Vec<String>], thinned: Option<usize>) -> String {
    let mut out = String::from("<details class=\"numbers\"><summary>Data</summary>\n");
    out.push_str(&table_markup(head, rows));
    if let Some(all) = thinned {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} of the plot's {all} points, evenly spread, the last among them.</p>",
            rows.len()
        );
    }
    out.push_str("</details>\n");
    out
}

/// Indices of `n` rows thinned to [`MAX_ROWS`], evenly spread, first and last kept.
fn thin(n: usize) -> Vec<usize> {
    if n <= MAX_ROWS {
        return (0..n).collect();
    }
    let mut at: Vec<usize> = (0..MAX_ROWS).map(|k| k * (n - 1) / (MAX_ROWS - 1)).collect();
    at.dedup();
    at
}

/// A forest plot's rows: label, estimate, interval.
pub fn estimates(rows: &[Estimate]) -> String {
    let head = ["".into(), "estimate".into(), "95% low".into(), "95% high".into()];
    let rows: Vec<Vec<String>> =
        rows.iter().map(|r| vec![r.label.clone(), cell(r.mean), cell(r.lo), cell(r.hi)]).collect();
    table(&head, &rows, None)
}

/// An interval plot's points: series, category, estimate, interval.
pub fn series(series: &[Series], x_desc: &str) -> String {
    let head = ["".into(), x_desc.to_string(), "estimate".into(), "95% low".into(), "95% high".into()];
    let rows: Vec<Vec<String>> = series
        .iter()
        .flat_map(|s| {
            s.points.iter().map(|p| vec![s.label.clone(), p.label.clone(), cell(p.mean), cell(p.lo), cell(p.hi)])
        })
        .collect();
    table(&head, &rows, None)
}

/// A line plot's values at each x any line has, with each band's ends.
pub fn lines(lines: &[Line], x_desc: &str) -> String {
    let mut xs: Vec<f64> = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let mut head = vec![x_desc.to_string()];
    for l in lines {
        head.push(l.label.clone());
        if !l.band.is_empty() {
            head.push(format!("{} 95% low", l.label));
            head.push(format!("{} 95% high", l.label));
        }
    }
    let kept = thin(xs.len());
    let rows: Vec<Vec<String>> = kept
        .iter()
        .map(|&k| {
            let x = xs[k];
            let mut row = vec![tidy(x)];
            for l in lines {
                row.push(l.points.iter().find(|p| p.0 == x).map_or("-".into(), |p| cell(p.1)));
                if !l.band.is_empty() {
                    let band = l.band.iter().find(|b| b.0 == x);
                    row.push(band.map_or("-".into(), |b| cell(b.1)));
                    row.push(band.map_or("-".into(), |b| cell(b.2)));
                }
            }
            row
        })
        .collect();
    table(&head, &rows, (kept.len() < xs.len()).then_some(xs.len()))
}

/// A bar chart's or histogram's bars: category (or bin) and height.
pub fn bars(rows: &[(String, f64)], x_desc: &str, y_desc: &str) -> String {
    let head = [x_desc.to_string(), y_desc.to_string()];
    let rows: Vec<Vec<String>> = rows.iter().map(|(c, v)| vec![c.clone(), cell(*v)]).collect();
    table(&head, &rows, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_series_are_thinned_to_fifty_rows_keeping_the_ends() {
        let at = thin(400);
        assert_eq!(at.len(), MAX_ROWS);
        assert_eq!((at[0], at[MAX_ROWS - 1]), (0, 399));
        assert_eq!(thin(7), (0..7).collect::<Vec<_>>());
        let points: Vec<(f64, f64)> = (1..=400).map(|g| (f64::from(g), 1.0 / f64::from(g))).collect();
        let html = lines(&[Line { label: "a".into(), points, band: Vec::new() }], "games");
        assert_eq!(html.matches("<tr>").count(), MAX_ROWS + 1);
        assert!(html.contains("50 of the plot's 400 points"));
        assert!(html.contains("<td class=\"l\">400</td><td>0.0025</td>"));
    }
}
