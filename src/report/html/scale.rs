//! Round numbers for the plots: steps of 1, 2, 2.5 or 5 times a power of ten, the bins of a
//! histogram on such a step, and numbers written as short as they are exact (-20, 2.5, 0.05), so a
//! reader sees the edges, not the arithmetic that found them.

/// The multiples of a power of ten a step may be.
const ROUND: [f64; 4] = [1.0, 2.0, 2.5, 5.0];

/// The smallest round step (1, 2, 2.5 or 5 times a power of ten) at least `span / count`.
pub fn step(span: f64, count: usize) -> f64 {
    let raw = span / count.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let mut power = 10f64.powi(raw.log10().floor() as i32);
    loop {
        for m in ROUND {
            // A relative slack, so a span that is already a round step keeps it.
            if m * power >= raw * (1.0 - 1e-9) {
                return m * power;
            }
        }
        power *= 10.0;
    }
}

/// `x` with no trailing zeros and no floating-point noise: 6 significant decimals at most.
pub fn tidy(x: f64) -> String {
    let text = format!("{x:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" => "0".into(),
        t => t.into(),
    }
}

/// A histogram's bins: `count` bins of `width` from `start`, each holding the values from its
/// lower edge up to (not including) the next.
#[derive(Debug, PartialEq)]
pub struct Bins {
    pub start: f64,
    pub width: f64,
    pub counts: Vec<usize>,
}

impl Bins {
    /// At most `max` bins of a round width, their edges multiples of it, covering `values`.
    pub fn round(values: &[f64], max: usize) -> Bins {
        let finite = values.iter().copied().filter(|v| v.is_finite());
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if !lo.is_finite() {
            return Bins { start: 0.0, width: 1.0, counts: Vec::new() };
        }
        let mut width = step(hi - lo, max);
        loop {
            let start = (lo / width).floor() * width;
            // The top value opens a bin of its own when it falls on an edge.
            let count = ((hi - start) / width).floor() as usize + 1;
            if count <= max {
                let mut counts = vec![0; count];
                for v in values.iter().filter(|v| v.is_finite()) {
                    counts[(((v - start) / width).floor() as usize).min(count - 1)] += 1;
                }
                return Bins { start, width, counts };
            }
            width = step(width * 1.01, 1);
        }
    }

    /// The bins' edges, lowest first: one more than there are bins.
    pub fn edges(&self) -> Vec<f64> {
        (0..=self.counts.len()).map(|i| self.start + i as f64 * self.width).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(step(43.5, 15), 5.0);
        assert_eq!(step(10.0, 10), 1.0);
        assert_eq!(step(0.9, 4), 0.25);
        assert_eq!(step(0.011, 10), 0.002);
        assert_eq!(step(0.0, 10), 1.0);
    }

    #[test]
    fn numbers_are_written_short() {
        assert_eq!(tidy(-20.0), "-20");
        assert_eq!(tidy(0.1 + 0.2), "0.3");
        assert_eq!(tidy(2.5), "2.5");
        assert_eq!(tidy(-0.0000001), "0");
    }

    #[test]
    fn bins_have_round_edges_and_hold_every_value() {
        // The case: per-deal payoffs from about -24 to +20.
        let values = [-24.0, -21.775, -17.3, 0.0, 3.2, 19.9, 20.0];
        let bins = Bins::round(&values, 15);
        assert_eq!((bins.start, bins.width), (-25.0, 5.0));
        assert_eq!(bins.edges().iter().map(|e| tidy(*e)).collect::<Vec<_>>()[..3], ["-25", "-20", "-15"]);
        assert_eq!(bins.counts.iter().sum::<usize>(), values.len());
        assert!(bins.counts.len() <= 15);
        // 20 is a lower edge: it is in the last bin, [20, 25).
        assert_eq!(*bins.counts.last().unwrap(), 1);
        // Edges are multiples of the width.
        for e in bins.edges() {
            assert_eq!((e / bins.width).fract(), 0.0, "edge {e}");
        }
    }

    #[test]
    fn many_close_values_still_fit_the_bins_asked_for() {
        let values: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.0137 - 3.0).collect();
        let bins = Bins::round(&values, 12);
        assert!(bins.counts.len() <= 12 && bins.counts.len() >= 6, "{bins:?}");
        assert_eq!(bins.counts.iter().sum::<usize>(), 1000);
    }
}
