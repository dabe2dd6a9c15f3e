//! `report.html`: one self-contained page (inline SVG drawn by plotters, a little CSS, nothing
//! fetched; a small inline script only for the game viewer, the page reads without it) for one run folder or several side by side. Every section is computed from the
//! folder's files with the code the run itself uses ([`RunTally`](crate::report::RunTally),
//! [`GamesFile`](crate::report::GamesFile)), so the page and the CSVs agree.
//!
//! - [`run`]: a folder read back and replayed in game order;
//! - [`plot`]: the plots (forest, lines with bands, bars, histograms);
//! - [`scale`]: round steps, bin edges and short numbers for the plots;
//! - [`data`]: each plot's numbers as a folded table under it;
//! - [`sections`]: the page's sections for one run;
//! - [`games`]: what each game's players look at, from its own columns of games.csv;
//! - [`viewer`]: a few games step by step, when the run kept its moves;
//! - [`history`] and [`trend`]: the gate's history, a page of its own (`arena report --history`).

mod data;
mod games;
pub mod history;
mod plot;
mod run;
mod scale;
mod sections;
mod trend;
pub mod viewer;

use std::fmt::Write;
use std::path::Path;

use crate::error::Result;
use crate::registry::Arena;

pub use plot::{intervals, Estimate, Series};
pub use run::RunData;

/// The page's file name in a run folder.
pub const REPORT: &str = "report.html";

/// The page's style: plain, print-friendly, runs side by side when there are several (the
/// league's page wears it too).
pub const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#111;background:#fff}\
h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #999}h3{font-size:1em;margin-bottom:.3em}\
.runs{display:flex;gap:2em;align-items:flex-start;overflow-x:auto}.run{flex:1 1 0;min-width:740px}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}\
th{background:#eee}td.l,th.l{text-align:left}pre{background:#f4f4f4;padding:.5em;overflow-x:auto;font-size:.85em}\
p.note{color:#444;font-size:.9em;max-width:720px}svg{display:block;max-width:100%;height:auto}\
svg.plot{width:100%}p.live{background:#fff4d6;border:1px solid #e69f00;padding:.4em .6em;max-width:720px}details.numbers{margin:.2em 0 1em}details.numbers summary{color:#444;font-size:.9em}";

/// Escapes text for HTML (element content and quoted attribute values): the one markup
/// escaper, in its HTML form.
pub fn escape(text: &str) -> String {
    crate::report::export::escape(text, crate::report::export::Markup::Html)
}

/// A titled plot, the notes under it (the section's, then the plot's own on how it was drawn),
/// and its numbers.
pub fn figure_of(title: &str, figure: &plot::Figure, note: &str) -> String {
    let mut notes = String::new();
    for n in [note, figure.note.as_str()].iter().filter(|n| !n.is_empty()) {
        notes.push_str(&format!("<p class=\"note\">{}</p>\n", escape(n)));
    }
    format!("<h3>{}</h3>\n{}\n{notes}{}", escape(title), figure.svg, figure.data)
}

/// The run folders `dirs`, each read and tallied.
pub fn read(arena: &Arena, dirs: &[&Path]) -> Result<Vec<RunData>> {
    dirs.iter().map(|d| RunData::read(arena, d)).collect()
}

/// The page for `runs`, side by side.
pub fn page(runs: &[RunData]) -> Result<String> {
    page_with(runs, None)
}

/// The page of a run still playing (`arena run --report`): [`page`] with a line saying how far
/// the run has got, and an instruction to the browser to load it again in `reload` seconds.
/// The run's end writes [`page`] over it, which stops the reloading.
pub fn live_page(run: &RunData, reload: u64) -> Result<String> {
    page_with(std::slice::from_ref(run), Some(reload))
}

/// The games `run` is to play in all (its shard's, when it is one) and has played so far.
fn progress(run: &RunData) -> (u64, u64) {
    let planned = run.manifest.as_ref().map_or_else(|| run.schedule.total(), |m| m.games_planned);
    (run.played(), planned)
}

fn page_with(runs: &[RunData], live: Option<u64>) -> Result<String> {
    let title = runs.iter().map(|r| r.cfg.name.as_str()).collect::<Vec<_>>().join(" | ");
    let viewing = runs.iter().any(|r| !r.viewer.games.is_empty());
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n{}<title>{} - bot-arena report</title>\n\
         <style>{STYLE}{}</style>\n</head>\n<body>\n<h1>bot-arena report: {}</h1>\n",
        live.map_or(String::new(), |s| format!("<meta http-equiv=\"refresh\" content=\"{s}\">\n")),
        escape(&title),
        if viewing { viewer::STYLE } else { "" },
        escape(&title)
    );
    if let (Some(reload), [run]) = (live, runs) {
        let (played, planned) = progress(run);
        let _ = writeln!(
            page,
            "<p class=\"live\" id=\"live\">Live: <span id=\"played\">{played}</span> of {planned} games played when this \
             page was written. It is written again as the run goes on and reloads itself every {reload} s until \
             the run ends.</p>"
        );
    }
    page.push_str("<div class=\"runs\">\n");
    let mut first = 0;
    for run in runs {
        page.push_str("<section class=\"run\">\n");
        page.push_str(&sections::run(run)?);
        page.push_str(&viewer::section(run, first));
        first += run.viewer.games.len();
        page.push_str("</section>\n");
    }
    page.push_str("</div>\n");
    if viewing {
        // The one script of the page, last, so the games it reads are already there.
        let _ = write!(page, "<script>\n{}</script>\n", viewer::SCRIPT);
    }
    page.push_str("</body>\n</html>\n");
    Ok(page)
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_what_html_reads_as_markup() {
        assert_eq!(escape(r#"<b>"a" & 'b'</b>"#), "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;");
        assert_eq!(escape("plain 中文"), "plain 中文");
    }
}
