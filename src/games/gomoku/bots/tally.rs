//! The document's bookkeeping, kept incrementally: stones per side in every line ("win
//! combination") and, per cell, the weighted sums over the lines through it that each side can
//! still win. A stone changes only the (at most 20) lines through its cell, and under the rules
//! that look past a row's ends the (at most 8) lines it is an end of.
//!
//! A line is winnable for a side while the other side has no stone in it, and:
//! - where the side needs exactly five (standard; renju for black), no stone of the side lies
//!   just past either end (filling the line would make six or more: an overline, no win);
//! - under caro, the other side's stones do not lie just past both ends (a five blocked at both
//!   ends does not win).
//!
//! Freestyle looks at no end: there the bookkeeping is the document's.

use std::sync::OnceLock;

use super::super::engine::{lines, makes_five};
use super::super::{renju, Rule, State};

/// The lines of one board size and, for every cell, the lines through it (flat arrays).
pub struct LineTable {
    /// The five cells of each line.
    pub cells: Vec<[u16; 5]>,
    /// `through[start[c]..start[c + 1]]`: the lines through cell `c`.
    start: Vec<u32>,
    through: Vec<u16>,
    /// The cells just past each end of each line, in its direction (`None` off the board).
    pub ends: Vec<[Option<u16>; 2]>,
    /// `flanked[flank_start[c]..flank_start[c + 1]]`: the lines that cell `c` is an end of.
    flank_start: Vec<u32>,
    flanked: Vec<u16>,
}

impl LineTable {
    fn new(size: usize) -> LineTable {
        let cells = lines(size);
        let mut per_cell: Vec<Vec<u16>> = vec![Vec::new(); size * size];
        for (l, line) in cells.iter().enumerate() {
            for &c in line {
                per_cell[c as usize].push(l as u16);
            }
        }
        let flat = |per_cell: Vec<Vec<u16>>| {
            let (mut start, mut flat) = (vec![0u32], Vec::new());
            for list in per_cell {
                flat.extend(list);
                start.push(flat.len() as u32);
            }
            (start, flat)
        };
        let n = size as isize;
        let ends: Vec<[Option<u16>; 2]> = cells
            .iter()
            .map(|line| {
                let (a, b) = (line[0] as isize, line[1] as isize);
                let (ax, ay, bx, by) = (a % n, a / n, b % n, b / n);
                let (dx, dy) = (bx - ax, by - ay);
                let cell =
                    |x: isize, y: isize| ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (y * n + x) as u16);
                [cell(ax - dx, ay - dy), cell(ax + 5 * dx, ay + 5 * dy)]
            })
            .collect();
        let mut per_flank: Vec<Vec<u16>> = vec![Vec::new(); size * size];
        for (l, pair) in ends.iter().enumerate() {
            for &c in pair.iter().flatten() {
                per_flank[c as usize].push(l as u16);
            }
        }
        let (start, through) = flat(per_cell);
        let (flank_start, flanked) = flat(per_flank);
        LineTable { cells, start, through, ends, flank_start, flanked }
    }

    /// Built once per board size.
    pub fn get(size: usize) -> &'static LineTable {
        static TABLES: [OnceLock<LineTable>; 26] = [const { OnceLock::new() }; 26];
        TABLES[size].get_or_init(|| LineTable::new(size))
    }

    pub fn through(&self, cell: usize) -> &[u16] {
        &self.through[self.start[cell] as usize..self.start[cell + 1] as usize]
    }

    /// The lines that `cell` is just past an end of.
    pub fn flanked_by(&self, cell: usize) -> &[u16] {
        &self.flanked[self.flank_start[cell] as usize..self.flank_start[cell + 1] as usize]
    }
}

/// What a line winnable for a side is worth, by the side's stones in it (0..=5; 5 is only reached
/// by overlines under the standard rule and touches no empty cell).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Added to the cells of the line for the side's own attack (the document's W_own).
    pub own: [i32; 6],
    /// Added to the cells of the line for the other side's defence (the document's W_opp).
    pub opp: [i32; 6],
    /// Added to the side's position value (used by the search's evaluation; zeros if unused).
    pub value: [i32; 6],
}

/// Black is side 0, white side 1 (the seats).
pub struct Tally {
    size: usize,
    rule: Rule,
    table: &'static LineTable,
    w: Weights,
    /// 0 empty, 1 black, 2 white, as in [`State::board`].
    pub board: Vec<u8>,
    /// The empty cells (in no particular order) and each cell's position in that list, so a
    /// stone is taken out in O(1) and a take-back restores the exact order.
    empty: Vec<u16>,
    slot: Vec<u16>,
    /// Stones applied from the game's move list.
    seen: usize,
    /// Stones of each side in each line.
    count: [Vec<u8>; 2],
    /// Whether the rule looks past the lines' ends (for either side).
    ends_matter: bool,
    /// Per cell, over the lines through it still winnable for the side: Σ own[stones].
    own: [Vec<i32>; 2],
    /// Per cell, over the lines through it still winnable for the side: Σ opp[stones].
    opp: [Vec<i32>; 2],
    /// Per cell, lines through it winnable for the side with 4 stones (the cell completes five).
    to_five: [Vec<u8>; 2],
    /// Per cell, lines through it winnable for the side with 3 stones (the cell makes a four).
    to_four: [Vec<u8>; 2],
    /// Σ value[stones] over the lines still winnable for the side.
    value: [i32; 2],
}

impl Tally {
    pub fn new(size: usize, rule: Rule, w: Weights) -> Tally {
        let mut t = Tally {
            size,
            rule,
            table: LineTable::get(size),
            w,
            board: Vec::new(),
            empty: Vec::new(),
            slot: Vec::new(),
            seen: 0,
            count: Default::default(),
            ends_matter: rule != Rule::Freestyle,
            own: Default::default(),
            opp: Default::default(),
            to_five: Default::default(),
            to_four: Default::default(),
            value: [0; 2],
        };
        t.reset();
        t
    }

    /// The empty board: every line is winnable for both sides with 0 stones.
    fn reset(&mut self) {
        let (cells, lines) = (self.size * self.size, self.table.cells.len());
        self.board = vec![0; cells];
        self.empty = (0..cells as u16).collect();
        self.slot = (0..cells as u16).collect();
        self.seen = 0;
        for side in 0..2 {
            self.count[side] = vec![0; lines];
            self.own[side] = (0..cells).map(|c| self.table.through(c).len() as i32 * self.w.own[0]).collect();
            self.opp[side] = (0..cells).map(|c| self.table.through(c).len() as i32 * self.w.opp[0]).collect();
            self.to_five[side] = vec![0; cells];
            self.to_four[side] = vec![0; cells];
            self.value[side] = lines as i32 * self.w.value[0];
        }
    }

    /// Applies the stones played since the last look (all of them in a new game).
    pub fn catch_up(&mut self, s: &State) {
        let stale = s.size != self.size || s.moves.len() < self.seen || {
            // The game we followed must be this one.
            self.seen > 0 && {
                let m = s.moves[self.seen - 1];
                self.board[m.y as usize * self.size + m.x as usize] != 1 + ((self.seen - 1) % 2) as u8
            }
        };
        if stale {
            *self = Tally::new(s.size, self.rule, self.w);
        }
        for i in self.seen..s.moves.len() {
            let m = s.moves[i];
            self.put(m.y as usize * self.size + m.x as usize, i % 2);
        }
        self.seen = s.moves.len();
    }

    /// The empty cells, in an order fixed by the stones played.
    pub fn empties(&self) -> &[u16] {
        &self.empty
    }

    /// The side's own score of `cell` (its attack).
    #[inline]
    pub fn own(&self, side: usize, cell: usize) -> i32 {
        self.own[side][cell]
    }

    /// The side's opp-weighted score of `cell` (the other side's defence there).
    #[inline]
    pub fn opp(&self, side: usize, cell: usize) -> i32 {
        self.opp[side][cell]
    }

    /// [`Tally::own`] of every cell.
    pub fn own_scores(&self, side: usize) -> &[i32] {
        &self.own[side]
    }

    /// [`Tally::opp`] of every cell.
    pub fn opp_scores(&self, side: usize) -> &[i32] {
        &self.opp[side]
    }

    /// Whether `side` wins by playing the empty `cell` (under the table's rule).
    #[inline]
    pub fn wins_at(&self, side: usize, cell: usize) -> bool {
        let colour = 1 + side as u8;
        self.to_five[side][cell] > 0
            && (!self.rule.exact_five(colour)
                || makes_five(&self.board, self.size, cell % self.size, cell / self.size, colour, self.rule))
    }

    /// Whether the rule restricts `side`'s moves (renju: black).
    #[inline]
    pub fn binds(&self, side: usize) -> bool {
        side == 0 && self.rule.binds_black()
    }

    /// Whether the rule forbids `side` the empty `cell` (renju: black's overlines, double fours
    /// and double threes; a five is never forbidden).
    #[inline]
    pub fn forbidden(&self, side: usize, cell: usize) -> bool {
        self.binds(side) && renju::foul(&self.board, self.size, cell).is_some()
    }

    /// Whether a stone of `side` on `cell` makes a four (a line of the side's with one cell left).
    #[inline]
    pub fn makes_four(&self, side: usize, cell: usize) -> bool {
        self.to_four[side][cell] > 0
    }

    /// The side's position value: Σ value[stones] over its winnable lines.
    #[inline]
    pub fn value(&self, side: usize) -> i32 {
        self.value[side]
    }

    /// Places a stone of `side`.
    pub fn put(&mut self, cell: usize, side: usize) {
        self.at_ends(cell, |t| t.board[cell] = 1 + side as u8);
        let at = self.slot[cell] as usize;
        let last = self.empty.pop().expect("an empty cell");
        if last as usize != cell {
            self.empty[at] = last;
            self.slot[last as usize] = at as u16;
        }
        self.shift(cell, side, true);
    }

    /// Takes back a stone of `side` (for the search).
    pub fn take(&mut self, cell: usize, side: usize) {
        self.at_ends(cell, |t| t.board[cell] = 0);
        // Undoes `put` (take-backs come in reverse order): the cell returns to its old slot.
        let at = self.slot[cell] as usize;
        if at == self.empty.len() {
            self.empty.push(cell as u16);
        } else {
            let moved = self.empty[at];
            self.slot[moved as usize] = self.empty.len() as u16;
            self.empty.push(moved);
            self.empty[at] = cell as u16;
        }
        self.shift(cell, side, false);
    }

    /// The stones of `side` in line `l` if the line is winnable for it (see the module notes).
    #[inline]
    fn winnable(&self, side: usize, l: usize) -> Option<usize> {
        if self.count[1 - side][l] != 0 {
            return None;
        }
        if self.ends_matter {
            let colour = 1 + side as u8;
            let past = self.table.ends[l].map(|c| c.map(|c| self.board[c as usize]));
            if self.rule.exact_five(colour) && past.contains(&Some(colour)) {
                return None;
            }
            if self.rule.blocked_fives_lose() && past == [Some(3 - colour); 2] {
                return None;
            }
        }
        Some(self.count[side][l] as usize)
    }

    /// Changes the board at `cell` by `change`, moving the worth of the lines it is an end of.
    fn at_ends(&mut self, cell: usize, change: impl FnOnce(&mut Tally)) {
        if !self.ends_matter {
            return change(self);
        }
        let table = self.table;
        let lines = table.flanked_by(cell);
        let mut before = [[None; 2]; 8];
        for (i, &l) in lines.iter().enumerate() {
            before[i] = [self.winnable(0, l as usize), self.winnable(1, l as usize)];
        }
        change(self);
        for (i, &l) in lines.iter().enumerate() {
            self.rewrite(l as usize, before[i]);
        }
    }

    /// [`Tally::shift`] where no rule looks past a line's ends (freestyle: the document's own
    /// bookkeeping), written out: the bots' hot path, a third faster than the general form.
    fn shift_freestyle(&mut self, cell: usize, side: usize, add: bool) {
        let other = 1 - side;
        let table = self.table;
        for &l in table.through(cell) {
            let l = l as usize;
            let before = self.count[side][l] as usize;
            let after = if add { before + 1 } else { before - 1 };
            let theirs = self.count[other][l] as usize;
            if theirs == 0 {
                // Still winnable for `side`: its weight moves from `before` stones to `after`.
                self.spread(l, side, after, 1);
                self.spread(l, side, before, -1);
            }
            if before.min(after) == 0 {
                // The line closes for the other side (first stone in) or opens again (last out).
                self.spread(l, other, theirs, if add { -1 } else { 1 });
            }
            self.count[side][l] = after as u8;
        }
    }

    /// Moves the worth of line `l` from what it was (`before`, per side) to what it is now.
    #[inline]
    fn rewrite(&mut self, l: usize, before: [Option<usize>; 2]) {
        for (side, was) in before.into_iter().enumerate() {
            let now = self.winnable(side, l);
            if now != was {
                if let Some(stones) = now {
                    self.spread(l, side, stones, 1);
                }
                if let Some(stones) = was {
                    self.spread(l, side, stones, -1);
                }
            }
        }
    }

    /// Adds (or removes) a stone of `side` in every line through `cell`.
    fn shift(&mut self, cell: usize, side: usize, add: bool) {
        if !self.ends_matter {
            return self.shift_freestyle(cell, side, add);
        }
        let table = self.table;
        for &l in table.through(cell) {
            let l = l as usize;
            let before = [self.winnable(0, l), self.winnable(1, l)];
            let count = &mut self.count[side][l];
            *count = if add { *count + 1 } else { *count - 1 };
            self.rewrite(l, before);
        }
    }

    /// Adds (`sign` = 1) or removes (-1) the worth of line `l` with `stones` of `side`.
    fn spread(&mut self, l: usize, side: usize, stones: usize, sign: i32) {
        let (own, opp) = (sign * self.w.own[stones], sign * self.w.opp[stones]);
        let five = (stones == 4) as i32 * sign;
        let four = (stones == 3) as i32 * sign;
        self.value[side] += sign * self.w.value[stones];
        for &c in &self.table.cells[l] {
            let c = c as usize;
            self.own[side][c] += own;
            self.opp[side][c] += opp;
            self.to_five[side][c] = (self.to_five[side][c] as i32 + five) as u8;
            self.to_four[side][c] = (self.to_four[side][c] as i32 + four) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::core::Game;
    use crate::games::gomoku::{Gomoku, Move};

    const W: Weights =
        Weights { own: [1, 2, 8, 32, 128, 0], opp: [1, 5, 10, 30, 120, 0], value: [0, 1, 8, 64, 512, 0] };

    /// The document's definitions, recomputed from scratch over every line (with the rule's look
    /// past the line's ends, worked out here from coordinates).
    fn rescan(s: &State, rule: Rule) -> ([Vec<i32>; 2], [Vec<i32>; 2], [i32; 2]) {
        let n = s.size;
        let (mut own, mut opp) = ([vec![0; n * n], vec![0; n * n]], [vec![0; n * n], vec![0; n * n]]);
        let mut value = [0; 2];
        for line in lines(n) {
            let (x0, y0) = ((line[0] as usize % n) as isize, (line[0] as usize / n) as isize);
            let (dx, dy) = ((line[1] as usize % n) as isize - x0, (line[1] as usize / n) as isize - y0);
            let past = |k: isize| {
                let (x, y) = (x0 + k * dx, y0 + k * dy);
                let on = (0..n as isize).contains(&x) && (0..n as isize).contains(&y);
                on.then(|| s.board[y as usize * n + x as usize])
            };
            let (before, after) = (past(-1), past(5));
            for side in 0..2 {
                let (colour, other) = (1 + side as u8, 2 - side as u8);
                let mine = line.iter().filter(|&&c| s.board[c as usize] == colour).count();
                let theirs = line.iter().filter(|&&c| s.board[c as usize] == other).count();
                let overline = rule.exact_five(colour) && (before == Some(colour) || after == Some(colour));
                let blocked = rule == Rule::Caro && before == Some(other) && after == Some(other);
                if theirs == 0 && !overline && !blocked {
                    value[side] += W.value[mine];
                    for &c in &line {
                        own[side][c as usize] += W.own[mine];
                        opp[side][c as usize] += W.opp[mine];
                    }
                }
            }
        }
        (own, opp, value)
    }

    #[test]
    fn line_table_lists_each_cells_lines() {
        let t = LineTable::get(15);
        assert_eq!(t.cells.len(), 572);
        assert_eq!(t.through(7 * 15 + 7).len(), 20);
        assert_eq!(t.through(0).len(), 3);
        for c in 0..225 {
            for &l in t.through(c) {
                assert!(t.cells[l as usize].contains(&(c as u16)));
            }
        }
        let total: usize = (0..225).map(|c| t.through(c).len()).sum();
        assert_eq!(total, 572 * 5);
    }

    #[test]
    fn incremental_scores_match_a_rescan_through_random_games_and_takebacks() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for game_no in 0..40 {
            let size = [7, 15, 19][game_no % 3];
            let rule = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro][game_no % 4];
            let game = Gomoku::new(size, rule, 0);
            let mut s = game.deal(&mut ChaCha8Rng::seed_from_u64(game_no as u64));
            let mut tally = Tally::new(size, rule, W);
            while game.to_act(&s).is_some() {
                // Looks only now and then, so several stones are applied at once.
                if rng.random_range(0..3) == 0 {
                    tally.catch_up(&s);
                    let (own, opp, value) = rescan(&s, rule);
                    assert_eq!((tally.own.clone(), tally.opp.clone(), tally.value), (own, opp, value));
                    // A stone put and taken back leaves everything as it was.
                    let empty: Vec<usize> = (0..size * size).filter(|&c| s.board[c] == 0).collect();
                    let c = empty[rng.random_range(0..empty.len())];
                    let mut listed: Vec<usize> = tally.empties().iter().map(|&c| c as usize).collect();
                    listed.sort();
                    assert_eq!(listed, empty);
                    let before = (tally.own.clone(), tally.opp.clone(), tally.count.clone(), tally.empty.clone());
                    tally.put(c, s.to_move());
                    let mut after = s.clone();
                    after.board[c] = 1 + s.to_move() as u8;
                    assert_eq!((tally.own.clone(), tally.opp.clone(), tally.value), rescan(&after, rule), "{rule:?}");
                    tally.take(c, s.to_move());
                    tally.put(c, s.to_move());
                    tally.take(c, s.to_move());
                    assert_eq!(
                        before,
                        (tally.own.clone(), tally.opp.clone(), tally.count.clone(), tally.empty.clone())
                    );
                }
                let empty: Vec<usize> = (0..size * size).filter(|&c| s.board[c] == 0).collect();
                let c = empty[rng.random_range(0..empty.len())];
                game.apply(&mut s, &Move { x: (c % size) as u8, y: (c / size) as u8 }).unwrap();
            }
        }
    }

    #[test]
    fn a_four_shows_its_winning_cell() {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let mut s = game.deal(&mut ChaCha8Rng::seed_from_u64(0));
        for x in 0..4 {
            game.apply(&mut s, &Move { x, y: 5 }).unwrap();
            game.apply(&mut s, &Move { x, y: 9 }).unwrap();
        }
        let mut tally = Tally::new(15, Rule::Freestyle, W);
        tally.catch_up(&s);
        let wins: Vec<usize> = (0..225).filter(|&c| tally.board[c] == 0 && tally.wins_at(0, c)).collect();
        assert_eq!(wins, vec![5 * 15 + 4]);
        assert!(tally.makes_four(0, 5 * 15 + 4) && !tally.makes_four(0, 5 * 15 + 6));
    }
}
