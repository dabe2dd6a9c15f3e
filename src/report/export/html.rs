//! HTML: the tables of report.html ([`html_table`], which the report's sections use too) and,
//! as an export, each table under its name in a plain page.

use std::fmt::Write;

use super::markup::{escape, Markup};
use super::{cell, Exporter, Rows};
use crate::error::Result;

pub struct Html;

impl Exporter for Html {
    fn serialize(&self, tables: &[Rows]) -> Result<Vec<u8>> {
        let mut out = String::from(
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>arena tables</title></head><body>\n",
        );
        for t in tables {
            let rows = t.rows.iter().map(|row| t.columns.iter().map(|c| cell(row.get(c))).collect()).collect();
            out.push_str(&html_table(&t.name, &t.columns, rows, ""));
        }
        out.push_str("</body></html>\n");
        Ok(out.into_bytes())
    }
}

/// A table with a title, a header row and rows of cells (the first column left-aligned, every
/// text escaped), and a note under it when there is one.
pub fn html_table<S: AsRef<str>>(title: &str, head: &[S], rows: Vec<Vec<String>>, note: &str) -> String {
    let esc = |text: &str| escape(text, Markup::Html);
    let mut out = format!("<h3>{}</h3>\n{}", esc(title), table_markup(head, &rows));
    if !note.is_empty() {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(note));
    }
    out
}

/// The `<table>` of a header row and rows of cells: the first column left-aligned, every text
/// escaped.
pub fn table_markup<S: AsRef<str>>(head: &[S], rows: &[Vec<String>]) -> String {
    let esc = |text: &str| escape(text, Markup::Html);
    let mut out = String::from("<table>\n<tr>");
    for (i, h) in head.iter().enumerate() {
        let _ = write!(out, "<th{}>{}</th>", if i == 0 { " class=\"l\"" } else { "" }, esc(h.as_ref()));
    }
    out.push_str("</tr>\n");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let _ = write!(out, "<td{}>{}</td>", if i == 0 { " class=\"l\"" } else { "" }, esc(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::export::{Figure, TestRow as Row};

    #[test]
    fn cells_are_escaped_and_figures_fixed() {
        let rows = [Row { bot: "<a & 'b'>".into(), score: Figure(0.5) }];
        let page = String::from_utf8(Html.serialize(&[Rows::of("summary", &rows)]).unwrap()).unwrap();
        assert!(page.contains(
            "<h3>summary</h3>\n<table>\n<tr><th class=\"l\">bot</th><th>score</th></tr>\n\
             <tr><td class=\"l\">&lt;a &amp; &#39;b&#39;&gt;</td><td>0.500000</td></tr>\n</table>\n"
        ));
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    }
}
