//! The report's plots, drawn by plotters into SVG strings: plain, labelled axes with units, a zero
//! line where zero is a reference, greys that stay apart in print, and markers that tell series apart
//! without colour.

use plotters::coord::ranged1d::SegmentedCoord;
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};

/// Every plot's size in pixels.
const SIZE: (u32, u32) = (720, 340);
const FONT: &str = "sans-serif";
/// Series greys, darkest first: four that stay apart in greyscale.
const GREYS: [RGBColor; 4] =
    [RGBColor(0, 0, 0), RGBColor(110, 110, 110), RGBColor(60, 60, 60), RGBColor(160, 160, 160)];
const ZERO: RGBColor = RGBColor(90, 90, 90);

fn grey(i: usize) -> RGBColor {
    GREYS[i % GREYS.len()]
}

pub(super) fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::input(format!("drawing a plot: {e}"))
}

/// Draws with `draw` on a fresh white SVG canvas of the plots' width and returns the SVG text.
fn svg(height: u32, draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>) -> Result<String> {
    canvas((SIZE.0, height), draw)
}

/// Draws with `draw` on a fresh white SVG canvas of `size` pixels and returns the SVG text.
pub(super) fn canvas(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>,
) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        draw(&root)?;
        root.present().map_err(plot_error)?;
    }
    Ok(out)
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

/// One row of a forest plot: a label, an estimate and its 95% interval.
pub struct Estimate {
    pub label: String,
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// A forest plot: each estimate a dot with its interval as a horizontal bar, one row each, and a
/// vertical reference line at `reference` (zero for payoffs, a half for shares).
pub fn forest(rows: &[Estimate], x_desc: &str, reference: f64) -> Result<String> {
    let n = rows.len() as i32;
    let height = 90 + 34 * rows.len() as u32;
    let (x0, x1) = padded(rows.iter().flat_map(|r| [r.lo, r.hi, r.mean]), &[reference]);
    let label_width = rows.iter().map(|r| r.label.chars().count()).max().unwrap_or(4).clamp(4, 40) as u32 * 8 + 16;
    svg(height, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x0..x1, -1..n)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .y_labels((n + 2) as usize)
            .y_label_formatter(&|y| {
                // Rows top down in the order given.
                usize::try_from(n - 1 - *y).ok().and_then(|i| rows.get(i)).map_or(String::new(), |r| r.label.clone())
            })
            .x_desc(x_desc)
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(reference, -1), (reference, n)], ZERO.stroke_width(1))))
            .map_err(plot_error)?;
        for (i, r) in rows.iter().enumerate() {
            let y = n - 1 - i as i32;
            if r.lo.is_finite() && r.hi.is_finite() {
                chart
                    .draw_series(std::iter::once(ErrorBar::new_horizontal(
                        y,
                        r.lo,
                        r.mean,
                        r.hi,
                        BLACK.stroke_width(2),
                        10,
                    )))
                    .map_err(plot_error)?;
            }
            if r.mean.is_finite() {
                chart.draw_series(std::iter::once(Circle::new((r.mean, y), 5, BLACK.filled()))).map_err(plot_error)?;
            }
        }
        Ok(())
    })
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

/// A line plot over `x_desc`, with bands, horizontal reference lines and a legend.
pub fn lines(lines: &[Line], levels: &[Level], x_desc: &str, y_desc: &str) -> Result<String> {
    let xs = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
    let x_max = xs.fold(1.0_f64, f64::max);
    let ys = lines.iter().flat_map(|l| l.points.iter().map(|p| p.1).chain(l.band.iter().flat_map(|b| [b.1, b.2])));
    let must: Vec<f64> = levels.iter().map(|l| l.y).collect();
    let (y0, y1) = padded(ys, &must);
    svg(SIZE.1, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..x_max, y0..y1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(plot_error)?;
        for (i, l) in lines.iter().enumerate() {
            if l.band.len() >= 2 {
                let upper = l.band.iter().map(|b| (b.0, b.2));
                let lower = l.band.iter().rev().map(|b| (b.0, b.1));
                let shade = grey(i).mix(0.18);
                chart
                    .draw_series(std::iter::once(Polygon::new(upper.chain(lower).collect::<Vec<_>>(), shade.filled())))
                    .map_err(plot_error)?;
            }
        }
        for level in levels {
            let style = ShapeStyle { color: ZERO.to_rgba(), filled: false, stroke_width: 1 };
            chart
                .draw_series(DashedLineSeries::new([(0.0, level.y), (x_max, level.y)], 6, 4, style))
                .map_err(plot_error)?
                .label(level.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        for (i, l) in lines.iter().enumerate() {
            let style = grey(i).stroke_width(2);
            chart.draw_series(LineSeries::new(l.points.iter().copied(), style)).map_err(plot_error)?;
            // A few markers, a different shape per line, tell the lines apart in greyscale.
            let every = (l.points.len() / 10).max(1);
            let marks: Vec<(f64, f64)> = l.points.iter().copied().step_by(every).collect();
            let line = move || PathElement::new(vec![(-10, 0), (10, 0)], style);
            let fill = grey(i).filled();
            let drawn = match i % 3 {
                0 => chart
                    .draw_series(marks.iter().map(|&p| Circle::new(p, 4, fill)))
                    .map(|s| s.legend(move |at| EmptyElement::at(at) + line() + Circle::new((0, 0), 4, fill))),
                1 => chart
                    .draw_series(marks.iter().map(|&p| TriangleMarker::new(p, 6, fill)))
                    .map(|s| s.legend(move |at| EmptyElement::at(at) + line() + TriangleMarker::new((0, 0), 6, fill))),
                _ => chart
                    .draw_series(marks.iter().map(|&p| Cross::new(p, 5, style)))
                    .map(|s| s.legend(move |at| EmptyElement::at(at) + line() + Cross::new((0, 0), 5, style))),
            };
            drawn.map_err(plot_error)?.label(l.label.clone());
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .label_font((FONT, 13))
            .draw()
            .map_err(plot_error)?;
        Ok(())
    })
}

/// A chart of one column per category (x: `labels`, in order; y: `y0..y1`) with its mesh drawn,
/// on `root`: the bar chart's, and the gate history's (a commit a column; an empty label, no label).
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
        .bold_line_style(RGBColor(225, 225, 225))
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

/// A bar chart: one bar per category, `y_desc` up the side, with a zero line.
pub fn bars(categories: &[String], values: &[f64], x_desc: &str, y_desc: &str) -> Result<String> {
    let k = categories.len() as u32;
    let (y0, y1) = padded(values.iter().copied(), &[0.0]);
    svg(SIZE.1, |root| {
        let mut chart = by_category(root, categories, (y0, y1), (x_desc, y_desc))?;
        let bars = Histogram::vertical(&chart)
            .style(GREYS[1].filled())
            .margin(6)
            .data(values.iter().enumerate().map(|(i, &v)| (i as u32, v)));
        chart.draw_series(bars).map_err(plot_error)?;
        let zero = [(SegmentValue::Exact(0), 0.0), (SegmentValue::Exact(k), 0.0)];
        chart.draw_series(std::iter::once(PathElement::new(zero, ZERO.stroke_width(1)))).map_err(plot_error)?;
        Ok(())
    })
}
