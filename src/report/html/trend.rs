//! The history page's plot: one criterion's estimate and 95% interval at each commit, in the
//! history file's order, with the bound it had to reach, failures marked apart from passes by
//! shape and by colour (Okabe–Ito, safe for colour-blind readers), and the first commit of each
//! change the intervals resolve as a vertical line. Drawn on the report's canvas
//! ([`super::plot`]); the page scales it to its width (the SVG keeps its viewBox).

use plotters::prelude::*;

use super::plot::{by_category, canvas, padded, plot_error};
use crate::error::Result;

/// The plot's size in pixels before the page scales it: wide enough for a commit label each.
const SIZE: (u32, u32) = (1000, 380);

/// Okabe–Ito: blue for a pass, vermillion for a fail, orange for a change, black for the bound.
pub const PASS: RGBColor = RGBColor(0, 114, 178);
pub const FAIL: RGBColor = RGBColor(213, 94, 0);
pub const CHANGE: RGBColor = RGBColor(230, 159, 0);
const BOUND: RGBColor = RGBColor(0, 0, 0);

/// The same colours as CSS, for the page's legend.
pub fn css(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// One commit's point: its label, estimate, interval, bound and verdict.
pub struct Point<'a> {
    pub commit: &'a str,
    pub estimate: f64,
    pub lo: f64,
    pub hi: f64,
    pub bound: f64,
    pub pass: bool,
}

/// Room for one commit label, in pixels: 10 characters of the labels' font.
const LABEL_WIDTH: usize = 80;

/// The commits' labels, cut to 10 characters (a full hash is longer than the room), every
/// k-th one only, from the first, when a label a commit would run into its neighbours (the table
/// under the plot names them all).
fn labels(points: &[Point]) -> Vec<String> {
    let every = (points.len() * LABEL_WIDTH).div_ceil(SIZE.0 as usize - 100).max(1);
    let label =
        |(i, p): (usize, &Point)| if i % every == 0 { p.commit.chars().take(10).collect() } else { String::new() };
    points.iter().enumerate().map(label).collect()
}

/// The plot of `points` (x: their order, labelled by commit), with a vertical line before each
/// commit of `changes` (indices into `points`); `y_desc` names the estimate.
pub fn trend(points: &[Point], changes: &[usize], y_desc: &str) -> Result<String> {
    let (y0, y1) = padded(
        points.iter().flat_map(|p| [p.lo, p.hi, p.estimate]),
        &points.iter().map(|p| p.bound).collect::<Vec<_>>(),
    );
    // An infinite end of an interval (an Elo at a score of 0 or 1) runs to the plot's edge.
    let clamp = |y: f64| y.clamp(y0, y1);
    canvas(SIZE, |root| {
        let axes = ("commit (in the history's order)", y_desc);
        let mut chart = by_category(root, &labels(points), (y0, y1), axes)?;
        // The bound, a step at each commit (a gate file may move it), dashed.
        let steps: Vec<(SegmentValue<u32>, f64)> = points
            .iter()
            .enumerate()
            .flat_map(|(i, p)| [(SegmentValue::Exact(i as u32), p.bound), (SegmentValue::Exact(i as u32 + 1), p.bound)])
            .filter(|(_, b)| b.is_finite())
            .collect();
        let bound = ShapeStyle { color: BOUND.to_rgba(), filled: false, stroke_width: 1 };
        chart.draw_series(DashedLineSeries::new(steps, 6, 4, bound)).map_err(plot_error)?;
        for &c in changes {
            let x = || SegmentValue::Exact(c as u32);
            let style = ShapeStyle { color: CHANGE.to_rgba(), filled: false, stroke_width: 3 };
            chart.draw_series(DashedLineSeries::new([(x(), y0), (x(), y1)], 8, 4, style)).map_err(plot_error)?;
        }
        for (i, p) in points.iter().enumerate() {
            let x = || SegmentValue::CenterOf(i as u32);
            let colour = if p.pass { PASS } else { FAIL };
            if !(p.lo.is_nan() || p.hi.is_nan()) {
                // The interval as a plain bar (plotters' ErrorBar adds a circle of its own): the
                // markers below are then one a commit, a circle or a triangle.
                let bar = PathElement::new(vec![(x(), clamp(p.lo)), (x(), clamp(p.hi))], colour.stroke_width(2));
                chart.draw_series(std::iter::once(bar)).map_err(plot_error)?;
            }
            if p.estimate.is_finite() {
                let at = (x(), p.estimate);
                // A different shape as well as a different colour: a fail reads in greyscale too.
                if p.pass {
                    chart.draw_series(std::iter::once(Circle::new(at, 5, colour.filled()))).map_err(plot_error)?;
                } else {
                    chart
                        .draw_series(std::iter::once(TriangleMarker::new(at, 8, colour.filled())))
                        .map_err(plot_error)?;
                }
            }
        }
        Ok(())
    })
    .map(|(svg, ())| svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_are_labelled_as_often_as_they_fit() {
        let ids: Vec<String> = (0..30).map(|i| format!("{i:040x}")).collect();
        let point = |id: &'static str| Point { commit: id, estimate: 0.0, lo: 0.0, hi: 0.0, bound: 0.0, pass: true };
        let few: Vec<Point> = ["a", "b", "c"].into_iter().map(point).collect();
        assert_eq!(labels(&few), ["a", "b", "c"]);
        let many: Vec<Point> = ids.iter().map(|id| Point { commit: id, ..point("") }).collect();
        let shown: Vec<String> = labels(&many).into_iter().filter(|l| !l.is_empty()).collect();
        assert_eq!(shown.len(), 10, "every third of 30: {shown:?}");
        assert!(shown.iter().all(|l| l.len() == 10), "{shown:?}");
    }
}
