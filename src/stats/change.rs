//! Where a series of interval estimates changed, as far as the intervals can tell: the history
//! page's "first commit of a change" (`arena report --history`).
//!
//! **Definition.** With a window of `w` commits (the page uses [`WINDOW`] = 3), commit `c` (its
//! index in file order) *starts a change that the intervals resolve* when the `w` commits before
//! it and the `w` commits from it on (`c` included) are *separated*: every interval of the later
//! window lies entirely below every interval of the earlier one (a drop: the highest `hi` after
//! is under the lowest `lo` before), or entirely above (a rise). Scanning in file order, each
//! change found starts a new level: the next change is looked for from `c + w` on, so that it has
//! a whole earlier window on the new level.
//!
//! Why this and not "the first failure" or "disjoint from the previous commit": one noisy commit
//! (a single fail, or a single high commit before a normal one) is never named, since the window
//! on its other side holds commits whose intervals overlap it; a change is named only once `w`
//! commits confirm it, so a change in a series' last `w - 1` commits is not named yet (it will be,
//! as commits arrive), nor one in its first `w`. For a step change with noise smaller than the
//! intervals, exactly the first commit of the new level is named: one commit earlier, the later
//! window holds a commit of the old level; one later, the earlier window holds one of the new. A
//! change that passes through values overlapping both levels is named where the separation
//! first holds, or not at all: the intervals do not resolve where it began. Intervals with an
//! undefined (NaN) end separate nothing; infinite ends are compared as they are.

use crate::stats::Interval;

/// The window the history page uses: a change is named when three commits on each side say so.
pub const WINDOW: usize = 3;

/// Which way a change went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

/// A change the intervals resolve: the index of its first commit, and which way it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub at: usize,
    pub direction: Direction,
}

/// Every change in `series` (in order) with windows of `window` commits (at least 1), as the
/// module defines it.
pub fn changes(series: &[Interval], window: usize) -> Vec<Change> {
    let w = window.max(1);
    let mut found = Vec::new();
    let mut c = w;
    while c + w <= series.len() {
        match separated(&series[c - w..c], &series[c..c + w]) {
            Some(direction) => {
                found.push(Change { at: c, direction });
                c += w;
            }
            None => c += 1,
        }
    }
    found
}

/// Whether every interval of `after` lies above (`Up`) or below (`Down`) every one of `before`.
fn separated(before: &[Interval], after: &[Interval]) -> Option<Direction> {
    if before.iter().chain(after).any(|i| i.lo.is_nan() || i.hi.is_nan()) {
        return None;
    }
    let lowest = |s: &[Interval]| s.iter().map(|i| i.lo).fold(f64::INFINITY, f64::min);
    let highest = |s: &[Interval]| s.iter().map(|i| i.hi).fold(f64::NEG_INFINITY, f64::max);
    if highest(after) < lowest(before) {
        Some(Direction::Down)
    } else if lowest(after) > highest(before) {
        Some(Direction::Up)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Intervals of half-width 1 around `means`.
    fn series(means: &[f64]) -> Vec<Interval> {
        means.iter().map(|&m| Interval { lo: m - 1.0, hi: m + 1.0 }).collect()
    }

    #[test]
    fn a_step_is_named_at_its_first_commit() {
        let means = [10.0, 10.5, 9.6, 10.2, 9.9, 10.4, 6.8, 7.3, 7.0, 6.6, 7.2];
        assert_eq!(changes(&series(&means), WINDOW), [Change { at: 6, direction: Direction::Down }]);
        let up: Vec<f64> = means.iter().map(|m| -m).collect();
        assert_eq!(changes(&series(&up), WINDOW), [Change { at: 6, direction: Direction::Up }]);
    }

    #[test]
    fn a_series_without_a_change_names_nothing() {
        // Noisy, neighbours' intervals sometimes disjoint, but never three against three.
        let means = [10.0, 11.2, 9.0, 10.1, 8.9, 11.0, 10.0, 9.2, 10.9, 10.0, 9.1, 10.3];
        assert!(changes(&series(&means), WINDOW).is_empty());
        assert!(changes(&[], WINDOW).is_empty());
    }

    #[test]
    fn a_single_noisy_fail_or_a_single_high_commit_is_not_named() {
        // One commit far below the rest: its neighbours after it overlap the ones before.
        let dip = [10.0, 10.2, 9.8, 10.1, 5.0, 10.0, 9.9, 10.2, 10.0];
        assert!(changes(&series(&dip), WINDOW).is_empty());
        // One commit far above, then the usual level: "disjoint from the previous" would name
        // the commit after it; the window before still holds the usual level.
        let spike = [10.0, 10.2, 9.8, 15.0, 10.1, 10.0, 9.9, 10.2];
        assert!(changes(&series(&spike), WINDOW).is_empty());
    }

    #[test]
    fn a_change_is_named_only_once_a_whole_window_confirms_it() {
        let late = [10.0, 10.1, 9.9, 10.0, 10.2, 6.0, 6.1];
        assert!(changes(&series(&late), WINDOW).is_empty());
        let confirmed = [10.0, 10.1, 9.9, 10.0, 10.2, 6.0, 6.1, 5.9];
        assert_eq!(changes(&series(&confirmed), WINDOW), [Change { at: 5, direction: Direction::Down }]);
    }

    #[test]
    fn a_drop_and_a_recovery_are_two_changes() {
        let means = [10.0, 10.1, 9.9, 6.0, 6.2, 5.9, 6.1, 10.0, 10.2, 9.8];
        let found = changes(&series(&means), WINDOW);
        assert_eq!(found, [Change { at: 3, direction: Direction::Down }, Change { at: 7, direction: Direction::Up }]);
    }

    #[test]
    fn undefined_ends_separate_nothing_and_infinite_ones_overlap() {
        let mut s = series(&[10.0, 10.0, 10.0, 5.0, 5.0, 5.0]);
        assert_eq!(changes(&s, WINDOW).len(), 1);
        s[4].lo = f64::NAN;
        assert!(changes(&s, WINDOW).is_empty());
        s[4].lo = 4.0;
        s[1].lo = f64::NEG_INFINITY;
        assert!(changes(&s, WINDOW).is_empty());
    }
}
