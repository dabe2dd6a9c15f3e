//! Renju's forbidden points (禁手): the moves black may not make.
//!
//! Black, and black alone, may not make
//! - an **overline**: six or more black stones in a row;
//! - a **double four**: two or more fours at once (a *four* is a line where one more black stone
//!   makes exactly five; two fours may lie in one line, as in `X.XXX.X` after the middle stone);
//! - a **double three**: two or more threes at once, in different lines. A *three* is a line that
//!   one more black stone turns into a *straight four* (four in a row, both ends empty, either end
//!   making exactly five), **where that stone is not itself forbidden**. The definition is
//!   recursive: whether the stone that would make the straight four is forbidden depends on the
//!   threes it would make, and so on (each level adds a stone, so the recursion ends).
//!
//! A move that makes exactly five wins even if it also makes one of these shapes. A line holding a
//! four is not also counted as a three; a four and two threes (4-3-3) is still a double three.

use super::geometry::DIRECTIONS;

/// Why a black move is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two fours made at once.
    DoubleFour,
    /// Two open threes made at once.
    DoubleThree,
}

impl Foul {
    /// The foul in words, for the record and the status line.
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double-four",
            Foul::DoubleThree => "double-three",
        }
    }
}

const BLACK: u8 = 1;

/// A square board of `n` × `n` cells (0 empty, 1 black, 2 white). The judging functions put trial
/// stones on a scratch copy and always take them back.
struct Board<'a> {
    cells: &'a mut [u8],
    n: isize,
}

/// The cell `k` steps from `cell` along `d` on an `n` × `n` board, if it is on the board.
#[inline]
fn step(n: isize, cell: usize, (dx, dy): (isize, isize), k: isize) -> Option<usize> {
    let x = (cell as isize % n) + k * dx;
    let y = (cell as isize / n) + k * dy;
    ((0..n).contains(&x) && (0..n).contains(&y)).then_some((y * n + x) as usize)
}

/// A cheap necessary condition: a foul needs black stones near `cell` in at least two lines, or
/// four in one (a double four in one line, an overline), counting only stones that a white stone
/// or the edge does not cut off. Most cells fail it.
fn may_be_foul(cells: &[u8], n: isize, cell: usize) -> bool {
    let mut busy_lines = 0;
    for d in DIRECTIONS {
        let mut near = 0;
        for sign in [-1, 1] {
            for k in 1..=4 {
                match step(n, cell, d, sign * k).map(|c| cells[c]) {
                    Some(BLACK) => near += 1,
                    Some(0) => {}
                    _ => break,
                }
            }
        }
        if near >= 4 {
            return true;
        }
        busy_lines += (near >= 2) as u32;
    }
    busy_lines >= 2
}

impl Board<'_> {
    #[inline]
    fn black_at(&self, cell: usize, d: (isize, isize), k: isize) -> bool {
        step(self.n, cell, d, k).is_some_and(|c| self.cells[c] == BLACK)
    }

    #[inline]
    fn empty_at(&self, cell: usize, d: (isize, isize), k: isize) -> Option<usize> {
        step(self.n, cell, d, k).filter(|&c| self.cells[c] == 0)
    }

    /// The black run through `cell` (which holds black) along `d`, as offsets `lo..=hi` from it.
    fn run(&self, cell: usize, d: (isize, isize)) -> (isize, isize) {
        let mut lo = 0;
        while self.black_at(cell, d, lo - 1) {
            lo -= 1;
        }
        let mut hi = 0;
        while self.black_at(cell, d, hi + 1) {
            hi += 1;
        }
        (lo, hi)
    }

    /// Whether black may not play the empty `cell`, and why.
    fn foul(&mut self, cell: usize) -> Option<Foul> {
        debug_assert_eq!(self.cells[cell], 0);
        if !may_be_foul(self.cells, self.n, cell) {
            return None;
        }
        self.cells[cell] = BLACK;
        let foul = self.judge(cell);
        self.cells[cell] = 0;
        foul
    }

    /// Judges the black stone just put on `cell`.
    fn judge(&mut self, cell: usize) -> Option<Foul> {
        let mut overline = false;
        for d in DIRECTIONS {
            let (lo, hi) = self.run(cell, d);
            match hi - lo + 1 {
                5 => return None, // five wins, whatever else the move makes
                6.. => overline = true,
                _ => {}
            }
        }
        if overline {
            return Some(Foul::Overline);
        }
        let fours = DIRECTIONS.map(|d| self.fours(cell, d));
        if fours.iter().sum::<u32>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        // The lines that hold a three shape: cells that would make a straight four through
        // `cell`. Fewer than two such lines: no double three, and no need to recurse.
        let mut points = [[0usize; 6]; 4];
        let mut counts = [0usize; 4];
        for (i, d) in DIRECTIONS.iter().enumerate() {
            if fours[i] == 0 {
                counts[i] = self.straight_four_points(cell, *d, &mut points[i]);
            }
        }
        if counts.iter().filter(|&&c| c > 0).count() < 2 {
            return None;
        }
        // A three is real when one of its points is not itself forbidden (the recursion).
        let mut threes = 0;
        for (points, &count) in points.iter().zip(&counts) {
            if points[..count].iter().any(|&q| self.foul(q).is_none()) {
                threes += 1;
                if threes == 2 {
                    return Some(Foul::DoubleThree);
                }
            }
        }
        None
    }

    /// The fours through the black stone on `cell` along `d`: sets of four black stones, `cell`
    /// among them, that one more stone turns into exactly five. Counted by their stones, so the
    /// two ends of a straight four are one four, while `X.XXX.X` (middle stone on `cell`) is two.
    fn fours(&mut self, cell: usize, d: (isize, isize)) -> u32 {
        let mut found: [u16; 2] = [0; 2];
        let mut count = 0;
        for k in (-4..=4).filter(|&k| k != 0) {
            let Some(p) = self.empty_at(cell, d, k) else { continue };
            self.cells[p] = BLACK;
            let (lo, hi) = self.run(p, d);
            self.cells[p] = 0;
            // The run through p, as offsets from `cell`.
            let (a, b) = (k + lo, k + hi);
            if b - a + 1 != 5 || a > 0 || b < 0 {
                continue;
            }
            // The four's stones, as a mask of offsets -4..=4 from `cell`.
            let stones = (a..=b).filter(|&j| j != k).fold(0u16, |m, j| m | 1 << (j + 4));
            if !found[..count].contains(&stones) {
                if count == 2 {
                    break;
                }
                found[count] = stones;
                count += 1;
            }
        }
        count as u32
    }

    /// The empty cells along `d` that would turn the line through the black stone on `cell` into
    /// a straight four through `cell` (written to `out`; returns how many). The line holds a real
    /// three when one of them is not itself forbidden.
    fn straight_four_points(&mut self, cell: usize, d: (isize, isize), out: &mut [usize; 6]) -> usize {
        let mut count = 0;
        for k in (-3..=3).filter(|&k| k != 0) {
            let Some(q) = self.empty_at(cell, d, k) else { continue };
            self.cells[q] = BLACK;
            if self.straight_four(cell, d, k) {
                out[count] = q;
                count += 1;
            }
            self.cells[q] = 0;
        }
        count
    }

    /// Whether the black run through `cell` along `d` is a straight four that holds the stone at
    /// offset `k`: exactly four stones, both ends empty, and each end makes exactly five (the cell
    /// past it is not black).
    fn straight_four(&self, cell: usize, d: (isize, isize), k: isize) -> bool {
        let (lo, hi) = self.run(cell, d);
        hi - lo + 1 == 4
            && (lo..=hi).contains(&k)
            && self.empty_at(cell, d, lo - 1).is_some()
            && self.empty_at(cell, d, hi + 1).is_some()
            && !self.black_at(cell, d, lo - 2)
            && !self.black_at(cell, d, hi + 2)
    }
}

/// Whether black may not play the empty `cell` of the `n` × `n` board, and why.
pub fn foul(cells: &[u8], n: usize, cell: usize) -> Option<Foul> {
    let n = n as isize;
    if !may_be_foul(cells, n, cell) {
        return None;
    }
    let mut scratch = cells.to_vec();
    Board { cells: &mut scratch, n }.foul(cell)
}

#[cfg(test)]
mod tests {
    //! Known positions with every forbidden point marked. Most come from the test suite of the
    //! rusty_renju library (the mintaka renju engine), which marks all of black's forbidden points
    //! of each position: `3` double three, `4` double four, `6` overline. They include nested
    //! cases (a three is not real because the point that would make it a straight four is itself
    //! a double three) and recursive ones (several levels of that).

    use super::*;

    /// Parses a 15×15 diagram (top row first; `X` black, `O` white, `.` empty, a digit a
    /// forbidden point) into the board and the marked points.
    fn diagram(rows: &str) -> (Vec<u8>, Vec<(usize, Foul)>) {
        let rows: Vec<&str> = rows.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), 15);
        let mut cells = vec![0u8; 225];
        let mut marked = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let row: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(row.len(), 15, "{row:?}");
            for (x, c) in row.into_iter().enumerate() {
                let cell = y * 15 + x;
                match c {
                    'X' => cells[cell] = 1,
                    'O' => cells[cell] = 2,
                    '.' => {}
                    '3' => marked.push((cell, Foul::DoubleThree)),
                    '4' => marked.push((cell, Foul::DoubleFour)),
                    '6' => marked.push((cell, Foul::Overline)),
                    other => panic!("unknown mark {other}"),
                }
            }
        }
        (cells, marked)
    }

    /// Every empty cell judged: the forbidden ones, in cell order.
    fn all_fouls(cells: &[u8]) -> Vec<(usize, Foul)> {
        (0..225).filter(|&c| cells[c] == 0).filter_map(|c| foul(cells, 15, c).map(|f| (c, f))).collect()
    }

    fn check(rows: &str) {
        let (cells, marked) = diagram(rows);
        let show = |v: &[(usize, Foul)]| {
            v.iter().map(|&(c, f)| format!("{},{} {}", c % 15, c / 15, f.name())).collect::<Vec<_>>()
        };
        assert_eq!(show(&all_fouls(&cells)), show(&marked));
    }

    #[test]
    fn basic_overline_double_four_and_double_three() {
        check(
            "
            . . . . . . . . . . X . . . .
            . . . . 4 . . . . . X . . . .
            . . . . X . . . . . X . . . .
            . . X . X . . . . X . X X X X
            . X . . X . . . . . X . . . .
            X . . . O . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . X X 6 X X X . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . X 3 . X . .
            . X . . . . . . . . X . . . .
            . X . X . . . . . . X . . . .
            . . . X . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn double_fours_in_one_line() {
        // X.X(4)X.X, X.XX(4).X and XX.X(4).XX: two fours on one line. The last row (X.X.XX..XX.X)
        // has none: every completion there makes six.
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . X . X 4 X . X . . . .
            . . . . . . . . . . . . . . .
            . . . . O O O O O O O . . . .
            . . . . . . . . . . . . . . .
            . . . . X . X X 4 . X . . . .
            . . . . . . . . . . . . . . .
            . . . . O O O O O O O . . . .
            . . . . . . . . . . . . . . .
            . . . . X X . X 4 . X X . . .
            . . . . . . . . . . . . . . .
            . . . . O O O O O O O . . . .
            . . . . . . . . . . . . . . .
            . . X . X . X X . . X X . X .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn pseudo_double_threes_are_allowed() {
        // A three whose straight-four point is blocked, or is itself forbidden, is no three.
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . O . . . . . .
            . . . . O O X O O . . . . . .
            . . . . X 3 . X . . . . . . .
            . . . . X O . . . . . . . . .
            . . . . X X X . . . . . . . .
            . . . . X . . . . . . . . . .
            . . . . O . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . O . . . . . . .
            . . . . . O . . . . . . . . .
            . . . . . X X . . . . . . . .
            . . . . . . O X O . . . . . .
            . . . . . . O X O . . . . . .
            . . . . . . . . X X X O . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . O . . . . . . . . . .
            . . . . . X . . . . . . . . .
            . . . . . . X O O X . . . . .
            . . . . . . . X X . . . . . .
            . . . . . X . O O . . . . . .
            . . . . O X X . O X . . . . .
            . . . . . O . O . X . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . O . . . . . . . . . .
            . . . . . O . . . . . . . . .
            . . . . . X O . O X . . . . .
            . . . . . . X . X . . . . . .
            . . . . . . . X O X . . . . .
            . . . . . X O X O X O . . . .
            . . . . . X . . . O . . . . .
            . . . . . O . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn nested_double_threes() {
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . O . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . O . X . . . . . . .
            . . . . . X O X O . . . . . .
            . . . . 3 X . X . O . . . . .
            . . O X X X X O X . . . . . .
            . . . . 3 X . O . O . . . . .
            . . . . X O O . . . . . . . .
            . . . O . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . O . . O . . . . . . . .
            . . . . X . . X . O . . . . .
            . . . . O X O X X . . . . . .
            . . . . . . X X 3 . . . . . .
            . . . . . . O O X X . . . . .
            . . . . . X . . . . . . . . .
            . . . . O X . . . . . . . . .
            . . . . . O . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        // Two white stones more: blocking lines changes which threes are real, and two more points
        // become forbidden.
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . O . . O . . . . . . . .
            . . . . X . 3 X 3 O . . . . .
            . . . . O X O X X . . . . . .
            . . . . . . X X 3 . O . . . .
            . . . . . . O O X X . . . . .
            . . . . . X O . . . . . . . .
            . . . . O X . . . . . . . . .
            . . . . . O . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . X . . . O . . . . .
            . . . . . . . . . . X . . . .
            . . . . . . . 3 . . O X . . .
            . . . . . O X X X O X . . . .
            . . . . . X . 3 . . . . . . .
            . . . . . . . X 3 . . . . . .
            . . . . . . . . . X . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn multiply_nested_double_threes() {
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . . . . . . X . .
            . . . . . O . . . 3 . . O X .
            . . O X . . X O X X X O X . .
            . . . X O O . X O 3 . . . . .
            . O . . X X 3 . . X 3 . . . .
            . . . . . . X . . . X X O . .
            . . . . O . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
        // One black stone more (top right) changes which points are forbidden.
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . X . . . . . . .
            . . . . . . . . . . . . X . X
            . . . . . O . . . 3 . . O X .
            . . O X . . X O X X X O X . .
            . . . X O O . X O 3 . . . . .
            . O . 3 X X 3 . . X . . . . .
            . . . . . . X . . . X X O . .
            . . . . O . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn recursive_double_threes() {
        // Each marked point makes two threes whose straight-four points are, one level down,
        // double threes only if the next level's points are not: the recursion decides.
        check(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . O O . . . . . . .
            . . . . . 3 X X 3 . . . . . .
            . . . . O X X X X O . . . . .
            . . . . O X X X X O . . . . .
            . . . . . 3 X X 3 . . . . . .
            . . . . . . O O . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .",
        );
    }

    #[test]
    fn exactly_five_beats_every_foul() {
        let centre = 7 * 15 + 7;
        let mut cells = vec![0u8; 225];
        // Three stones above the centre and three below: the centre would make seven down.
        for y in [4, 5, 6, 8, 9, 10] {
            cells[y * 15 + 7] = 1;
        }
        assert_eq!(foul(&cells, 15, centre), Some(Foul::Overline));
        // Four across, so the centre also makes exactly five: the five wins.
        for x in [4, 5, 6, 8] {
            cells[7 * 15 + x] = 1;
        }
        assert_eq!(foul(&cells, 15, centre), None);
        // A fifth stone across turns that five into six: no five anywhere, an overline.
        cells[7 * 15 + 3] = 1;
        assert_eq!(foul(&cells, 15, centre), Some(Foul::Overline));
        // Two fours and a five (the fours down, the five across): the five wins.
        let mut cells = vec![0u8; 225];
        for (x, y) in [(4, 7), (5, 7), (6, 7), (8, 7), (7, 4), (7, 5), (7, 6), (10, 10), (9, 9)] {
            cells[y * 15 + x] = 1;
        }
        assert_eq!(foul(&cells, 15, centre), None);
        cells[7 * 15 + 4] = 0; // no five now: a four across and a four down
        assert_eq!(foul(&cells, 15, centre), Some(Foul::DoubleFour));
    }
}
