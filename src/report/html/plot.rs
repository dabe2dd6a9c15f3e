//! The report's plots as SVG: plotters draws the axes, grid and labels; the data and the legend
//! are written here, so each mark carries a class (`data`, `legend`, `clip`) a browser test can
//! find, the legend sits in a row of its own above the plotting area (it never covers a point),
//! and series differ in colour (Okabe–Ito, safe for colour-blind readers) and in dash and marker
//! shape (for print). Every plot has a `<title>` and `<desc>`, scales to the page's width through
//! its viewBox, and comes with its numbers as a table ([`super::data`]).

use std::fmt::Write;

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::data;
use super::escape;
use super::scale::{self, Bins};
use crate::error::{Error, Result};

/// Every plot's width in the viewBox: wide enough that at a 1,280-pixel page the 13-pixel labels
/// show at about their size.
const WIDTH: u32 = 1000;
/// A line or bar plot's height below its legend.
const HEIGHT: u32 = 380;
const FONT: &str = "sans-serif";
/// The legend's text size and row height.
const KEY_FONT: u32 = 14;
const KEY_ROW: u32 = 24;
/// Okabe–Ito's palette without its yellow (too pale on white), in the order series take it.
const PALETTE: [&str; 7] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"];
/// Dash patterns, the second cue: series i takes `DASHES[i % 4]` (and marker shape i % 4).
const DASHES: [&str; 4] = ["", "9 4", "3 3", "10 3 3 3"];
/// Reference lines (zero, SPRT bounds): grey, dashed.
const LEVEL: &str = "#555555";
const GRID: RGBColor = RGBColor(225, 225, 225);

/// A plot ready for the page: its SVG, its numbers as an HTML table, and what the reader should
/// know about how it was drawn (points clipped, rows left out).
pub struct Figure {
    pub svg: String,
    pub data: String,
    pub note: String,
}

pub(super) fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::input(format!("drawing a plot: {e}"))
}

fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Series `i`'s marker centred at (x, y), in its colour.
fn marker(i: usize, x: i32, y: i32, class: &str) -> String {
    let c = colour(i);
    match i % 4 {
        0 => format!("<circle class=\"{class}\" cx=\"{x}\" cy=\"{y}\" r=\"4.5\" fill=\"{c}\"/>"),
        1 => format!(
            "<path class=\"{class}\" d=\"M{x},{} L{},{} L{},{} Z\" fill=\"{c}\"/>",
            y - 6,
            x + 6,
            y + 4,
            x - 6,
            y + 4
        ),
        2 => format!("<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"8\" height=\"8\" fill=\"{c}\"/>", x - 4, y - 4),
        _ => format!(
            "<path class=\"{class}\" d=\"M{x},{} L{},{y} L{x},{} L{},{y} Z\" fill=\"{c}\"/>",
            y - 6,
            x + 6,
            y + 6,
            x - 6
        ),
    }
}

fn dash(i: usize) -> String {
    match DASHES[i % DASHES.len()] {
        "" => String::new(),
        d => format!(" stroke-dasharray=\"{d}\""),
    }
}

/// One entry of a legend.
enum Key {
    /// Series `i`: its colour, dash and marker.
    Series(usize, String),
    /// A reference line.
    Level(String),
}

impl Key {
    fn label(&self) -> &str {
        match self {
            Key::Series(_, l) | Key::Level(l) => l,
        }
    }

    /// The entry's width in pixels: its sample line, its text (at an average glyph width), a gap.
    fn width(&self) -> u32 {
        40 + self.label().chars().count() as u32 * KEY_FONT * 6 / 10 + 24
    }
}

/// Each key's row and x within a legend `WIDTH` wide, and how many rows that takes.
fn key_layout(keys: &[Key]) -> (Vec<(u32, u32)>, u32) {
    let (mut row, mut x, mut at) = (0, 12, Vec::new());
    for k in keys {
        if x > 12 && x + k.width() > WIDTH - 12 {
            row += 1;
            x = 12;
        }
        at.push((row, x));
        x += k.width();
    }
    (at, if keys.is_empty() { 0 } else { row + 1 })
}

/// The legend as one group in the band above the plotting area.
fn legend(keys: &[Key]) -> String {
    let (at, _) = key_layout(keys);
    let mut out = String::from("<g class=\"legend\">\n");
    for (k, &(row, x)) in keys.iter().zip(&at) {
        let y = 8 + row * KEY_ROW + KEY_ROW / 2;
        match k {
            Key::Series(i, _) => {
                let _ = writeln!(
                    out,
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>{}",
                    x + 32,
                    colour(*i),
                    dash(*i),
                    marker(*i, x as i32 + 16, y as i32, "key")
                );
            }
            Key::Level(_) => {
                let _ = writeln!(
                    out,
                    "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"{LEVEL}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>",
                    x + 32
                );
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{y}\" dy=\"0.35em\" font-family=\"{FONT}\" font-size=\"{KEY_FONT}\">{}</text>",
            x + 40,
            escape(k.label())
        );
    }
    out.push_str("</g>\n");
    out
}

/// Draws with `draw` below a legend of `keys` and returns the SVG: plotters' axes, then the marks
/// `draw` returns, then the legend; titled `title`, described by `desc`, sized by its viewBox.
fn svg(
    title: &str,
    desc: &str,
    height: u32,
    keys: &[Key],
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<String>,
) -> Result<String> {
    let (_, rows) = key_layout(keys);
    let top = if rows == 0 { 0 } else { rows * KEY_ROW + 12 };
    let total = height + top;
    let (out, marks) = canvas((WIDTH, total), |root| draw(&root.split_vertically(top).1))?;
    // plotters opens with a fixed width and height; the page's style sizes the plot instead.
    let open_end = out.find('>').ok_or_else(|| plot_error("no svg element"))?;
    let body = out[open_end + 1..].trim_end().strip_suffix("</svg>").ok_or_else(|| plot_error("no </svg>"))?;
    Ok(format!(
        "<svg class=\"plot\" viewBox=\"0 0 {WIDTH} {total}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n\
         <title>{}</title>\n<desc>{}</desc>{body}{marks}{}</svg>",
        escape(title),
        escape(desc),
        legend(keys)
    ))
}

/// Draws with `draw` on a white canvas of `size` pixels: plotters' SVG as it is, and what `draw`
/// returned (the report's plots add their own marks; the history page's plot sizes the SVG by
/// its own style).
pub(super) fn canvas<T>(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<T>,
) -> Result<(String, T)> {
    let mut out = String::new();
    let drawn;
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        drawn = draw(&root)?;
        root.present().map_err(plot_error)?;
    }
    Ok((out, drawn))
}

/// A chart whose x axis is `labels`, one category each, over `y0..y1`, with the shared mesh.
pub(super) fn by_category<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    labels: &[String],
    (y0, y1): (f64, f64),
    (x_desc, y_desc): (&str, &str),
) -> Result<ChartContext<'a, SVGBackend<'b>, Cartesian2d<SegmentedCoord<RangedCoordu32>, RangedCoordf64>>> {
    let k = labels.len() as u32;
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d((0..k).into_segmented(), y0..y1)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(GRID)
        .x_labels(labels.len())
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .draw()
        .map_err(plot_error)?;
    Ok(chart)
}

/// A range around `values` with a little room, always holding `must` (zero, a bound).
pub(super) fn padded(values: impl Iterator<Item = f64>, must: &[f64]) -> (f64, f64) {
    let (lo, hi) = values
        .chain(must.iter().copied())
        .filter(|x| x.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if !lo.is_finite() {
        return (-1.0, 1.0);
    }
    let room = ((hi - lo) * 0.08).max(1e-9);
    (lo - room, hi + room)
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The mesh every plot shares: light grid, large labels.
fn mesh<'a, 'b, 'c>(chart: &'c mut Chart<'a, 'b>) -> MeshStyle<'a, 'c, RangedCoordf64, RangedCoordf64, SVGBackend<'b>> {
    let mut m = chart.configure_mesh();
    m.light_line_style(WHITE).bold_line_style(GRID).label_style((FONT, 15)).axis_desc_style((FONT, 15));
    m
}

/// A horizontal or vertical reference line from `a` to `b`, in data coordinates.
fn level_line(chart: &Chart, a: (f64, f64), b: (f64, f64)) -> String {
    let (p, q) = (chart.backend_coord(&a), chart.backend_coord(&b));
    format!(
        "<line class=\"data level\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{LEVEL}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
        p.0, p.1, q.0, q.1
    )
}

/// One row of a forest plot: a label, an estimate and its 95% interval.
pub struct Estimate {
    pub label: String,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// A forest plot: each estimate a dot with its interval as a horizontal bar, one row each, and a
/// vertical reference line at `reference` (zero for payoffs, a half for shares).
pub fn forest(title: &str, rows: &[Estimate], x_desc: &str, reference: f64) -> Result<Figure> {
    let n = rows.len();
    let height = 90 + 40 * n as u32;
    let (x0, x1) = padded(rows.iter().flat_map(|r| [r.lo, r.hi, r.mean]), &[reference]);
    let label_width = rows.iter().map(|r| r.label.chars().count()).max().unwrap_or(4).clamp(4, 40) as u32 * 9 + 20;
    let desc = format!(
        "{x_desc}: one row per estimate, a dot at the mean and a bar over its 95% interval; reference line at {}.",
        scale::tidy(reference)
    );
    let svg = svg(title, &desc, height, &[], |root| {
        // Row i (top down) is at y = n - i - 0.5.
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x0..x1, 0.0..n as f64)
            .map_err(plot_error)?;
        mesh(&mut chart)
            .disable_y_mesh()
            .y_labels(0)
            .x_label_formatter(&|x| scale::tidy(*x))
            .x_desc(x_desc)
            .draw()
            .map_err(plot_error)?;
        let mut marks = level_line(&chart, (reference, 0.0), (reference, n as f64));
        for (i, r) in rows.iter().enumerate() {
            let y = (n - i) as f64 - 0.5;
            let (lx, ly) = chart.backend_coord(&(x0, y));
            let _ = writeln!(
                marks,
                "<text x=\"{}\" y=\"{ly}\" dy=\"0.35em\" text-anchor=\"end\" font-family=\"{FONT}\" font-size=\"15\">{}</text>",
                lx - 8,
                escape(&r.label)
            );
            if r.lo.is_finite() && r.hi.is_finite() {
                let (a, b) = (chart.backend_coord(&(r.lo, y)), chart.backend_coord(&(r.hi, y)));
                let _ = writeln!(
                    marks,
                    "<path class=\"data\" d=\"M{},{} L{},{} M{},{} L{},{} M{},{} L{},{}\" stroke=\"{}\" stroke-width=\"2.5\" fill=\"none\"/>",
                    a.0, a.1, b.0, b.1, a.0, a.1 - 7, a.0, a.1 + 7, b.0, b.1 - 7, b.0, b.1 + 7,
                    colour(0)
                );
            }
            if r.mean.is_finite() {
                let (x, y) = chart.backend_coord(&(r.mean, y));
                marks.push_str(&marker(0, x, y, "data"));
                marks.push('\n');
            }
        }
        Ok(marks)
    })?;
    Ok(Figure { svg, data: data::estimates(rows), note: String::new() })
}

/// One series of an interval plot: its label (in the legend) and its estimates, each labelled
/// on the x axis by its category.
pub struct Series {
    pub label: String,
    pub points: Vec<Estimate>,
}

/// Estimates with their 95% intervals over categories, left to right: each series' points in
/// turn and in its order (a bot's versions, oldest first), joined by a line of the series'
/// colour and dash, a bar over each interval, the categories' labels under the axis, and a
/// reference line at `reference` (zero: the field's mean). An interval's infinite end runs to
/// the plot's edge.
pub fn intervals(title: &str, series: &[Series], x_desc: &str, y_desc: &str, reference: f64) -> Result<Figure> {
    let k: usize = series.iter().map(|s| s.points.len()).sum();
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (y0, y1) = padded(all().flat_map(|p| [p.lo, p.hi, p.mean]), &[reference]);
    let keys: Vec<Key> = series.iter().enumerate().map(|(i, s)| Key::Series(i, s.label.clone())).collect();
    let names: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
    let desc = format!(
        "{y_desc} of {} in {k} {x_desc}, each a marker at the estimate and a bar over its 95% interval, a series' \
         points joined in order; y from {} to {}, reference line at {}.",
        names.join(", "),
        scale::tidy(y0),
        scale::tidy(y1),
        scale::tidy(reference)
    );
    // Labels slanted so that long ones (a commit, a release name) do not run into each other.
    let longest = all().map(|p| p.label.chars().count()).max().unwrap_or(1).clamp(4, 24) as u32;
    let svg = svg(title, &desc, HEIGHT + longest * 6, &keys, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .x_label_area_size(40 + longest * 6)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..k.max(1) as f64, y0..y1)
            .map_err(plot_error)?;
        mesh(&mut chart)
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|y| scale::tidy(*y))
            .draw()
            .map_err(plot_error)?;
        let mut marks = level_line(&chart, (0.0, reference), (k as f64, reference));
        let hold = |y: f64| if y.is_nan() { y } else { y.clamp(y0, y1) };
        let mut at = 0usize;
        for (i, s) in series.iter().enumerate() {
            let xs: Vec<f64> = (0..s.points.len()).map(|j| (at + j) as f64 + 0.5).collect();
            at += s.points.len();
            let joined: Vec<String> = s
                .points
                .iter()
                .zip(&xs)
                .filter(|(p, _)| p.mean.is_finite())
                .map(|(p, &x)| chart.backend_coord(&(x, p.mean)))
                .map(|(x, y)| format!("{x},{y}"))
                .collect();
            if joined.len() >= 2 {
                let _ = writeln!(
                    marks,
                    "<polyline class=\"data\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                    joined.join(" "),
                    colour(i),
                    dash(i)
                );
            }
            for (p, &x) in s.points.iter().zip(&xs) {
                if !(p.lo.is_nan() || p.hi.is_nan()) {
                    let (a, b) = (chart.backend_coord(&(x, hold(p.lo))), chart.backend_coord(&(x, hold(p.hi))));
                    let _ = writeln!(
                        marks,
                        "<path class=\"data\" d=\"M{},{} L{},{} M{},{} L{},{} M{},{} L{},{}\" stroke=\"{}\" stroke-width=\"2\" fill=\"none\"/>",
                        a.0, a.1, b.0, b.1, a.0 - 5, a.1, a.0 + 5, a.1, b.0 - 5, b.1, b.0 + 5, b.1,
                        colour(i)
                    );
                }
                if p.mean.is_finite() {
                    let (px, py) = chart.backend_coord(&(x, p.mean));
                    marks.push_str(&marker(i, px, py, "data"));
                    marks.push('\n');
                }
                let (lx, ly) = chart.backend_coord(&(x, y0));
                let _ = writeln!(
                    marks,
                    "<text x=\"{lx}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-35 {lx} {})\" font-family=\"{FONT}\" font-size=\"13\">{}</text>",
                    ly + 16,
                    ly + 16,
                    escape(&p.label)
                );
            }
        }
        Ok(marks)
    })?;
    // A rating at ±∞ (a version that won or lost every game) has no marker, only its bar.
    let endless = all().filter(|p| p.mean.is_infinite()).count();
    let note = match endless {
        0 => String::new(),
        k => format!(
            "{k} of the estimates {} infinite (every game won or every game lost): no marker, the bar from the bound its games allow to the plot's edge.",
            if k == 1 { "is" } else { "are" }
        ),
    };
    Ok(Figure { svg, data: data::series(series, x_desc), note })
}

/// One line of a line plot, with an optional band (its 95% interval) drawn under it.
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// (x, lo, hi), when the line has a band.
    pub band: Vec<(f64, f64, f64)>,
}

/// A horizontal reference line (zero, an SPRT bound) with its label.
pub struct Level {
    pub label: String,
    pub y: f64,
}

/// The part of segment `a`-`b` with y in [lo, hi], when there is one.
fn clip(a: (f64, f64), b: (f64, f64), lo: f64, hi: f64) -> Option<((f64, f64), (f64, f64))> {
    let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let dy = b.1 - a.1;
    if dy == 0.0 {
        return (a.1 >= lo && a.1 <= hi).then_some((a, b));
    }
    let (t_lo, t_hi) = ((lo - a.1) / dy, (hi - a.1) / dy);
    let (t0, t1) = (t_lo.min(t_hi).max(0.0), t_lo.max(t_hi).min(1.0));
    if t0 > t1 {
        return None;
    }
    // Ends already inside stay exactly as given, so pieces join up.
    Some((if t0 == 0.0 { a } else { at(t0) }, if t1 == 1.0 { b } else { at(t1) }))
}

/// `points` cut to y in [lo, hi]: the pieces that stay inside.
fn pieces(points: &[(f64, f64)], lo: f64, hi: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    for w in points.windows(2) {
        match clip(w[0], w[1], lo, hi) {
            Some((a, b)) => {
                if current.last() != Some(&a) {
                    out.extend((current.len() >= 2).then(|| std::mem::take(&mut current)));
                    current.clear();
                    current.push(a);
                }
                current.push(b);
            }
            None => {
                out.extend((current.len() >= 2).then(|| std::mem::take(&mut current)));
                current.clear();
            }
        }
    }
    out.extend((current.len() >= 2).then_some(current));
    out
}

/// A line plot over `x_desc`, with bands, horizontal reference lines and a legend above it.
///
/// The y range fits the part of the lines from `settle` (a share of the x range) on, their last
/// points, their bands there and the reference lines: a running mean swings widely over its
/// first games, and a range fitted to those hides the settled means the plot is for. Points
/// outside are cut off, marked with a triangle at the edge and counted in the figure's note.
pub fn lines(title: &str, lines: &[Line], levels: &[Level], x_desc: &str, y_desc: &str, settle: f64) -> Result<Figure> {
    let x_max = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)).fold(1.0_f64, f64::max);
    let from = x_max * settle;
    let ys = lines.iter().flat_map(|l| {
        let settled = l.points.iter().filter(|p| p.0 >= from).map(|p| p.1);
        let band = l.band.iter().filter(|b| b.0 >= from).flat_map(|b| [b.1, b.2]);
        settled.chain(band).chain(l.points.last().map(|p| p.1))
    });
    let must: Vec<f64> = levels.iter().map(|l| l.y).collect();
    let (y0, y1) = padded(ys, &must);
    let outside = |y: f64| y < y0 || y > y1;
    let clipped: usize = lines.iter().map(|l| l.points.iter().filter(|p| outside(p.1)).count()).sum();
    let mut keys: Vec<Key> = lines.iter().enumerate().map(|(i, l)| Key::Series(i, l.label.clone())).collect();
    keys.extend(levels.iter().map(|l| Key::Level(l.label.clone())));
    let names: Vec<&str> = lines.iter().map(|l| l.label.as_str()).collect();
    let mut desc = format!(
        "{y_desc} against {x_desc}, 0 to {}, for {}; y from {} to {}.",
        scale::tidy(x_max),
        names.join(", "),
        scale::tidy(y0),
        scale::tidy(y1)
    );
    if clipped > 0 {
        let _ = write!(desc, " {clipped} points lie outside and are marked at the edge.");
    }
    let svg = svg(title, &desc, HEIGHT, &keys, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(80)
            // A little room right of the last point, so its marker shows whole.
            .build_cartesian_2d(0.0..x_max * 1.015, y0..y1)
            .map_err(plot_error)?;
        mesh(&mut chart)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_label_formatter(&|x| scale::tidy(*x))
            .y_label_formatter(&|y| scale::tidy(*y))
            .draw()
            .map_err(plot_error)?;
        let px = |p: (f64, f64)| chart.backend_coord(&p);
        let mut marks = String::new();
        for (i, l) in lines.iter().enumerate() {
            if l.band.len() >= 2 {
                // The band cut at the edges: its ends held to the range.
                let hold = |y: f64| y.clamp(y0, y1);
                let upper = l.band.iter().map(|b| (b.0, hold(b.2)));
                let lower = l.band.iter().rev().map(|b| (b.0, hold(b.1)));
                let points: Vec<String> = upper.chain(lower).map(&px).map(|(x, y)| format!("{x},{y}")).collect();
                let _ = writeln!(
                    marks,
                    "<polygon class=\"data band\" points=\"{}\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"none\"/>",
                    points.join(" "),
                    colour(i)
                );
            }
        }
        for level in levels {
            marks.push_str(&level_line(&chart, (0.0, level.y), (x_max, level.y)));
        }
        for (i, l) in lines.iter().enumerate() {
            for piece in pieces(&l.points, y0, y1) {
                let points: Vec<String> = piece.iter().copied().map(&px).map(|(x, y)| format!("{x},{y}")).collect();
                let _ = writeln!(
                    marks,
                    "<polyline class=\"data\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\"{}/>",
                    points.join(" "),
                    colour(i),
                    dash(i)
                );
            }
            // A few markers per line, staggered between lines so they do not sit on each other.
            let every = (l.points.len() / 10).max(1);
            let offset = every * i / lines.len().max(1);
            // The last point too: where an SPRT decided, where a mean ended.
            let last = l.points.last().into_iter().filter(|_| !(l.points.len() - 1 - offset).is_multiple_of(every));
            for &p in l.points.iter().skip(offset).step_by(every).chain(last).filter(|p| !outside(p.1)) {
                let (x, y) = px(p);
                marks.push_str(&marker(i, x, y, "data"));
                marks.push('\n');
            }
            // One triangle at the edge for each run of points beyond it, pointing the way they went.
            let mut k = 0;
            while k < l.points.len() {
                let side = |p: &(f64, f64)| {
                    if p.1 > y1 {
                        1
                    } else if p.1 < y0 {
                        -1
                    } else {
                        0
                    }
                };
                let s = side(&l.points[k]);
                let run = l.points[k..].iter().take_while(|p| side(p) == s).count();
                if s != 0 {
                    let mid = l.points[k + run / 2].0;
                    let (x, y) = px((mid, if s > 0 { y1 } else { y0 }));
                    let tip = if s > 0 { y - 8 } else { y + 8 };
                    let _ = writeln!(
                        marks,
                        "<path class=\"clip\" d=\"M{},{y} L{x},{tip} L{},{y} Z\" fill=\"{}\"><title>{run} points {} the range</title></path>",
                        x - 6,
                        x + 6,
                        colour(i),
                        if s > 0 { "above" } else { "below" }
                    );
                }
                k += run;
            }
        }
        Ok(marks)
    })?;
    let note = if clipped > 0 {
        format!(
            "The y range fits the lines from game {} on: {clipped} earlier points lie outside it, each run of them marked by a triangle at the edge.",
            scale::tidy(from.round())
        )
    } else {
        String::new()
    };
    Ok(Figure { svg, data: data::lines(lines, x_desc), note })
}

/// A bar chart: one bar per category, `y_desc` up the side, with a zero line.
pub fn bars(title: &str, categories: &[String], values: &[f64], x_desc: &str, y_desc: &str) -> Result<Figure> {
    let k = categories.len();
    let desc = format!("{y_desc} by {x_desc}, one bar per category: {}.", categories.join(", "));
    let spans: Vec<(f64, f64)> = (0..k).map(|i| (i as f64 + 0.12, i as f64 + 0.88)).collect();
    let columns = Columns { x: (0.0, k.max(1) as f64), spans, values };
    let svg = column_plot(title, &desc, &columns, x_desc, y_desc, |chart| {
        let mut marks = String::new();
        for (i, c) in categories.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(i as f64 + 0.5, columns.y0()));
            let _ = writeln!(
                marks,
                "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-family=\"{FONT}\" font-size=\"15\">{}</text>",
                y + 22,
                escape(c)
            );
        }
        marks
    })?;
    let rows: Vec<(String, f64)> = categories.iter().cloned().zip(values.iter().copied()).collect();
    Ok(Figure { svg, data: data::bars(&rows, x_desc, y_desc), note: String::new() })
}

/// A histogram of `bins` over `x_desc`, its edges labelled.
pub fn histogram(title: &str, bins: &Bins, x_desc: &str, y_desc: &str) -> Result<Figure> {
    let edges = bins.edges();
    let values: Vec<f64> = bins.counts.iter().map(|&c| c as f64).collect();
    let (first, last) = (edges[0], edges[edges.len() - 1]);
    let desc = format!(
        "{y_desc} in bins of {} from {} to {}.",
        scale::tidy(bins.width),
        scale::tidy(first),
        scale::tidy(last)
    );
    let columns =
        Columns { x: (first, last), spans: edges.windows(2).map(|w| (w[0], w[1])).collect(), values: &values };
    // Every edge labelled while they fit; every other one past 12 bins.
    let label_every = if edges.len() > 13 { 2 } else { 1 };
    let svg = column_plot(title, &desc, &columns, x_desc, y_desc, |chart| {
        let mut marks = String::new();
        for &e in edges.iter().step_by(label_every) {
            let (x, y) = chart.backend_coord(&(e, columns.y0()));
            let _ = writeln!(
                marks,
                "<line x1=\"{x}\" y1=\"{y}\" x2=\"{x}\" y2=\"{}\" stroke=\"#000\"/>\n<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-family=\"{FONT}\" font-size=\"15\">{}</text>",
                y + 6,
                y + 22,
                scale::tidy(e)
            );
        }
        marks
    })?;
    let rows: Vec<(String, f64)> = edges
        .windows(2)
        .zip(&values)
        .map(|(w, &v)| (format!("[{}, {})", scale::tidy(w[0]), scale::tidy(w[1])), v))
        .collect();
    Ok(Figure { svg, data: data::bars(&rows, x_desc, y_desc), note: String::new() })
}

/// Columns rising from zero: the x range, each column's span along it, and its height.
struct Columns<'v> {
    x: (f64, f64),
    spans: Vec<(f64, f64)>,
    values: &'v [f64],
}

impl Columns<'_> {
    /// The y range: counts start at zero with no room below it.
    fn y_range(&self) -> (f64, f64) {
        let (y0, y1) = padded(self.values.iter().copied(), &[0.0]);
        (if self.values.iter().all(|v| *v >= 0.0) { 0.0 } else { y0 }, y1)
    }

    /// The foot of the plotting area, where x labels hang.
    fn y0(&self) -> f64 {
        self.y_range().0
    }
}

/// The columns as a plot, with the x labels `labels` writes.
fn column_plot(
    title: &str,
    desc: &str,
    columns: &Columns,
    x_desc: &str,
    y_desc: &str,
    labels: impl FnOnce(&Chart) -> String,
) -> Result<String> {
    let (y0, y1) = columns.y_range();
    let (x0, x1) = columns.x;
    svg(title, desc, HEIGHT, &[], |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .x_label_area_size(52)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(plot_error)?;
        // No x labels from plotters: categories and bin edges are written where they belong.
        // Counts are whole: no more y labels than whole numbers in the range.
        let whole = columns.values.iter().all(|v| v.fract() == 0.0);
        let y_labels = if whole { (y1 - y0).floor() as usize + 1 } else { 10 };
        mesh(&mut chart)
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(y_labels.clamp(2, 10))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|y| scale::tidy(*y))
            .draw()
            .map_err(plot_error)?;
        let mut marks = String::new();
        for (&(a, b), &v) in columns.spans.iter().zip(columns.values) {
            let (p, q) = (chart.backend_coord(&(a, v.max(0.0))), chart.backend_coord(&(b, v.min(0.0))));
            let _ = writeln!(
                marks,
                "<rect class=\"data\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#fff\"/>",
                p.0,
                p.1,
                (q.0 - p.0).max(1),
                q.1 - p.1,
                colour(0)
            );
        }
        marks.push_str(&level_line(&chart, (x0, 0.0), (x1, 0.0)));
        marks.push_str(&labels(&chart));
        Ok(marks)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_at_the_range_and_pieces_join() {
        let points = [(0.0, 0.0), (1.0, 10.0), (2.0, 0.5), (3.0, 0.4), (4.0, -10.0)];
        let cut = pieces(&points, -1.0, 1.0);
        assert_eq!(cut.len(), 2, "{cut:?}");
        assert_eq!(cut[0], vec![(0.0, 0.0), (0.1, 1.0)]);
        assert_eq!(cut[1][1..3], [(2.0, 0.5), (3.0, 0.4)]);
        for p in cut.iter().flatten() {
            assert!((-1.0..=1.0).contains(&p.1), "{p:?}");
        }
    }

    #[test]
    fn a_running_mean_is_fitted_to_its_settled_part_and_the_rest_marked() {
        // Wild first games, then a mean near 1.
        let points: Vec<(f64, f64)> =
            (1..=100).map(|g| (f64::from(g), if g <= 5 { 30.0 * f64::from(g % 2 * 2) - 30.0 } else { 1.0 })).collect();
        let line = Line { label: "a".into(), points, band: Vec::new() };
        let zero = [Level { label: "zero".into(), y: 0.0 }];
        let fig = lines("t", &[line], &zero, "games", "mean", 0.1).unwrap();
        assert!(fig.note.contains("5 earlier points"), "{}", fig.note);
        assert_eq!(fig.svg.matches("class=\"clip\"").count(), 5, "runs of one point each side");
        assert!(fig.svg.contains("<title>t</title>") && fig.svg.contains("viewBox=\"0 0 1000 "));
        // The legend is in its band above the plotting area.
        let legend = &fig.svg[fig.svg.find("<g class=\"legend\">").unwrap()..];
        assert!(legend.contains(">zero</text>") && legend.contains(">a</text>"));
    }

    /// A bot's versions are joined by one line, every estimate is a marker with a bar but the one at
    /// -∞, which the note names, and every version is labelled under the axis.
    #[test]
    fn interval_plots_join_a_series_and_name_an_infinite_estimate() {
        let at = |label: &str, mean: f64| Estimate { label: label.into(), mean, lo: mean - 10.0, hi: mean + 10.0 };
        let series = [
            Series { label: "ev".into(), points: vec![at("v1", 5.0), at("v2", 20.0), at("v3<", -5.0)] },
            Series { label: "random".into(), points: vec![at("v1", f64::NEG_INFINITY)] },
        ];
        let fig = intervals("t", &series, "versions", "Elo", 0.0).unwrap();
        assert_eq!(fig.svg.matches("<polyline class=\"data\"").count(), 1, "one line, ev's");
        assert_eq!(fig.svg.matches("<circle class=\"data\"").count(), 3, "ev's three markers");
        // ev's three bars, and random's held to the plot's bottom edge.
        assert_eq!(fig.svg.matches("<path class=\"data\" d=\"M").count(), 4);
        assert!(fig.svg.contains(">v3&lt;</text>") && fig.svg.contains(">random</text>"));
        assert!(fig.note.starts_with("1 of the estimates is infinite"), "{}", fig.note);
        assert_eq!(fig.data.matches("<tr>").count(), 5);
    }

    #[test]
    fn plots_are_the_same_text_each_time() {
        let rows = [Estimate { label: "a<b".into(), mean: 0.5, lo: 0.1, hi: 0.9 }];
        let a = forest("f", &rows, "x", 0.0).unwrap();
        let b = forest("f", &rows, "x", 0.0).unwrap();
        assert_eq!(a.svg, b.svg);
        assert!(a.svg.contains("a&lt;b"));
    }
}
