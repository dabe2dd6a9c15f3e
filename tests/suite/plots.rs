//! report.html's plots read at a glance (issue 36): in headless Chromium (when installed:
//! `scripts/chromium-check.sh`), no legend covers a plotted point or line and every plot fills its
//! column's width; and a running mean's y range fits its settled part, with what falls outside
//! marked and counted.
//!
//! The browser test renders a copy of the page with [`CHECK`] added at its end: the script
//! measures, in the laid-out page, every legend (`.legend`) against every mark of data (`.data`,
//! `.clip`), lines segment by segment (a line's bounding box is most of its plot), and writes what
//! it found into the DOM, which `--dump-dom` hands back.

use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::{arena, write};
use crate::report::{chromium, dump_dom, run_with_report, HOLDEM_SPRT, MAHJONG_FIELD};

/// The in-page check: for each plot (named by the heading before it), its legends, its marks of
/// data, every legend-mark overlap in screen pixels, and its width against its column's.
const CHECK: &str = r#"<script>
(() => {
  // Does segment p-q pass through the inside of box b (Liang-Barsky)?
  const crosses = (p, q, b) => {
    let t0 = 0, t1 = 1;
    const dx = q.x - p.x, dy = q.y - p.y;
    for (const [d, e] of [[-dx, p.x - b.left], [dx, b.right - p.x], [-dy, p.y - b.top], [dy, b.bottom - p.y]]) {
      if (d === 0) { if (e <= 0) return false; continue; }
      const t = e / d;
      if (d < 0) { if (t > t1) return false; t0 = Math.max(t0, t); }
      else { if (t < t0) return false; t1 = Math.min(t1, t); }
    }
    return t0 <= t1;
  };
  const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  // A line's points on the screen, or null for a mark measured by its box.
  const points = el => {
    const m = el.getScreenCTM();
    const at = (x, y) => new DOMPoint(x, y).matrixTransform(m);
    let pts = null;
    if (el.points) pts = Array.from(el.points, p => at(p.x, p.y));
    else if (el.tagName === 'line') pts = [at(el.x1.baseVal.value, el.y1.baseVal.value), at(el.x2.baseVal.value, el.y2.baseVal.value)];
    if (pts && el.tagName === 'polygon' && pts.length > 2) pts.push(pts[0]);
    if (pts && pts.length === 1) pts.push(pts[0]);
    return pts;
  };
  const plots = [];
  for (const svg of document.querySelectorAll('section.run svg')) {
    if (svg.closest('.viewer')) continue;
    const heading = svg.previousElementSibling;
    const name = heading && heading.tagName === 'H3' ? heading.textContent : '?';
    const legends = Array.from(svg.querySelectorAll('.legend'), l => l.getBoundingClientRect());
    const marks = Array.from(svg.querySelectorAll('.data, .clip'));
    const hits = [];
    for (const el of marks) {
      const pts = points(el);
      legends.forEach((box, k) => {
        if (pts) {
          for (let i = 0; i + 1 < pts.length; i++) {
            if (crosses(pts[i], pts[i + 1], box)) {
              hits.push(`legend ${k} covers the ${el.tagName}'s segment (${pts[i].x.toFixed(0)},${pts[i].y.toFixed(0)})-(${pts[i + 1].x.toFixed(0)},${pts[i + 1].y.toFixed(0)})`);
              break;
            }
          }
        } else {
          const r = el.getBoundingClientRect();
          if (overlaps(r, box)) hits.push(`legend ${k} covers a ${el.tagName} at (${r.left.toFixed(0)},${r.top.toFixed(0)})`);
        }
      });
    }
    const column = svg.parentElement.getBoundingClientRect().width;
    plots.push({ name, legends: legends.length, marks: marks.length, hits, width: svg.getBoundingClientRect().width, column });
  }
  const out = document.createElement('pre');
  out.id = 'plot-check';
  out.textContent = JSON.stringify(plots);
  document.body.appendChild(out);
})();
</script>
"#;

/// The plots that show several series or reference lines, and so have a legend.
const WITH_LEGEND: [&str; 2] = ["Running mean payoff, 95% band", "SPRT log-likelihood ratio"];

/// What [`CHECK`] found in `dir`'s report.html, rendered 1,280 pixels wide.
fn measured(chromium: &Path, tmp: &Path, dir: &Path, name: &str) -> Vec<Value> {
    measured_page(chromium, tmp, &dir.join("report.html"), name)
}

/// What [`CHECK`] found in the page at `path` (report.html, the league's page), rendered 1,280
/// pixels wide.
pub(crate) fn measured_page(chromium: &Path, tmp: &Path, path: &Path, name: &str) -> Vec<Value> {
    let page = std::fs::read_to_string(path).unwrap();
    let checked = path.with_extension("checked.html");
    std::fs::write(&checked, page.replace("</body>", &format!("{CHECK}</body>"))).unwrap();
    let url = format!("file://{}", checked.display());
    let dom = dump_dom(chromium, &tmp.join(format!("profile-{name}-plots")), &["--window-size=1280,2400"], &url);
    let text = String::from_utf8_lossy(&dom.stdout);
    let start = text.find("<pre id=\"plot-check\">").unwrap_or_else(|| panic!("{name}: the check did not run"));
    let json = &text[start + "<pre id=\"plot-check\">".len()..];
    let json = &json[..json.find("</pre>").unwrap()];
    let json = json.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    serde_json::from_str::<Value>(&json).unwrap().as_array().unwrap().clone()
}

/// An SPRT that decides at the top right of its plot (where a legend in the corner sits), a
/// mahjong field of three bots, and the issue's hold'em SPRT (rr-tight against rr, decided in
/// some 4,500 hands): no legend covers a mark, every plot with several series has a legend, every
/// plot fills its column.
#[test]
fn no_legend_covers_data_and_plots_fill_the_page_in_headless_chromium() {
    let Some(chromium) = chromium() else {
        eprintln!("skipped: no Chromium (install it with scripts/chromium-check.sh, or set CHROMIUM)");
        return;
    };
    let tmp = TempDir::new().unwrap();
    let rr_tight = shipped_sprt();
    for (name, config) in
        [("holdem-sprt", HOLDEM_SPRT), ("mahjong-field", MAHJONG_FIELD), ("rr-tight", rr_tight.as_str())]
    {
        let dir = run_with_report(tmp.path(), name, config);
        let plots = measured(&chromium, tmp.path(), &dir, name);
        assert!(plots.len() >= 5, "{name}: only {} plots", plots.len());
        let names: Vec<&str> = plots.iter().map(|p| p["name"].as_str().unwrap()).collect();
        for with_legend in WITH_LEGEND.iter().filter(|w| name != "mahjong-field" || !w.starts_with("SPRT")) {
            let plot = plots
                .iter()
                .find(|p| p["name"] == *with_legend)
                .unwrap_or_else(|| panic!("{name}: no plot {with_legend} in {names:?}"));
            assert!(plot["legends"].as_u64() > Some(0), "{name}: no legend marked in {with_legend}");
        }
        // Every plot's problems at once, so a failure shows all of them.
        let mut problems = Vec::new();
        for plot in &plots {
            let plot_name = plot["name"].as_str().unwrap();
            if plot["marks"].as_u64() == Some(0) {
                problems.push(format!("{plot_name}: no data marked"));
            }
            for hit in plot["hits"].as_array().unwrap() {
                problems.push(format!("{plot_name}: {}", hit.as_str().unwrap()));
            }
            let (width, column) = (plot["width"].as_f64().unwrap(), plot["column"].as_f64().unwrap());
            if width < 0.95 * column {
                problems.push(format!("{plot_name}: {width:.0} pixels wide in a {column:.0}-pixel column"));
            }
        }
        assert!(problems.is_empty(), "{name}: {} problems:\n{}", problems.len(), problems.join("\n"));
        eprintln!("{name}: {} plots, no legend over data", plots.len());
    }
}

/// configs/holdem-rr-tight-sprt.toml with its cap cut to 20,000 hands (the test decides long
/// before).
fn shipped_sprt() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/holdem-rr-tight-sprt.toml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("games = 100000"), "the shipped config's cap changed");
    text.replace("games = 100000", "games = 20000")
}

/// The running mean of the issue's hold'em SPRT swings by tens of big blinds over its first hands
/// and settles within about one: the plot's y range fits the settled part (its desc says the
/// range), the swings past it are marked at the edge and counted under the plot, and the per-deal
/// histogram of a non-paired run has round bin edges.
#[test]
fn a_running_mean_is_fitted_to_where_it_settles() {
    let tmp = TempDir::new().unwrap();
    let dir = run_with_report(tmp.path(), "rr-tight", &shipped_sprt());
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let at = page.find("<h3>Running mean payoff, 95% band</h3>").unwrap();
    let plot = &page[at..at + page[at..].find("</svg>").unwrap()];
    let desc = &plot[plot.find("<desc>").unwrap()..plot.find("</desc>").unwrap()];
    let range = &desc[desc.find("y from ").unwrap() + 7..];
    let (lo, hi) = range.split_once(" to ").unwrap();
    let (lo, hi): (f64, f64) =
        (lo.parse().unwrap(), hi.split(' ').next().unwrap().trim_end_matches('.').parse().unwrap());
    // In bb/100, the hold'em verdict's unit (12 big blinds a hand is 1,200 bb/100).
    assert!(lo < 0.0 && hi > 0.0 && hi - lo < 1200.0, "y from {lo} to {hi}: {desc}");
    assert!(plot.contains("class=\"clip\""), "no point past the range is marked");
    assert!(page[at..].contains("earlier points lie outside it"), "the clipped points are not counted");
    // A data table under each plot, the long series thinned.
    assert!(page[at..].contains("<summary>Data</summary>") && page[at..].contains("50 of the plot's"));
    // The same page, byte for byte, when the folder is read again.
    let again = tmp.path().join("again.html");
    let report = arena().arg("report").arg(&dir).arg("--out").arg(&again).output().unwrap();
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
    assert!(std::fs::read_to_string(&again).unwrap() == page, "the page changed when the folder was read again");

    // A heads-up run without pairs: the per-deal payoffs take round bins (1, 2, 2.5 or 5 times a
    // power of ten, edges multiples of it).
    let config = write(
        tmp.path(),
        "unpaired.toml",
        "name = \"unpaired\"\ngame = \"holdem\"\ngames = 300\nseed = 4\nbots = [\"rr\", \"random\"]\n\
         [table]\nformat = \"cash\"\nstack = 100\n",
    );
    let out = tmp.path().join("unpaired");
    let run = arena().args(["run", "-q", "--report", "--out"]).arg(&out).arg(&config).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let at = page.find("<h3>Per-deal payoff: rr</h3>").expect("a per-deal histogram");
    let section = &page[at..at + page[at..].find("</details>").unwrap()];
    let desc = &section[section.find("<desc>").unwrap() + 6..section.find("</desc>").unwrap()];
    let width: f64 = desc[desc.find("bins of ").expect(desc) + 8..].split(' ').next().unwrap().parse().unwrap();
    let mantissa = width / 10f64.powf(width.log10().floor());
    assert!([1.0, 2.0, 2.5, 5.0].iter().any(|m| (m - mantissa).abs() < 1e-9), "bin width {width}");
    let edges: Vec<f64> = section
        .match_indices("<td class=\"l\">[")
        .map(|(i, _)| section[i + 15..].split(',').next().unwrap().parse().unwrap())
        .collect();
    assert!(edges.len() >= 5, "{edges:?}");
    for e in &edges {
        assert!(((e / width).round() * width - e).abs() < 1e-9, "edge {e} is not a multiple of {width}");
    }
}
