//! The board, the rules and the game record.

use rand::Rng;

use crate::core::{DealRng, Game, IllegalAction, Outcome, Seat};
use crate::error::Result;

/// Win condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
}

/// A move, as the Gomocup protocol writes it: `x,y` from 0, x = column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub x: u8,
    pub y: u8,
}

/// The table: board size, rule and opening length.
#[derive(Clone, Debug)]
pub struct Gomoku {
    pub size: usize,
    pub rule: Rule,
    /// Stones placed at random (alternating colours, near the centre) before the bots play.
    pub opening: usize,
}

/// Seat 0 plays black and moves first.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Row-major cells: 0 empty, 1 black (seat 0), 2 white (seat 1).
    pub board: Vec<u8>,
    pub size: usize,
    /// Every stone in order, the opening first.
    pub moves: Vec<Move>,
    /// How many of `moves` are the opening.
    pub opening: usize,
    pub winner: Option<Seat>,
}

impl State {
    pub fn to_move(&self) -> Seat {
        self.moves.len() % 2
    }
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.moves.len() == self.board.len()
    }
    pub fn cell(&self, x: usize, y: usize) -> u8 {
        self.board[y * self.size + x]
    }
    /// The last stone played, if any.
    pub fn last(&self) -> Option<Move> {
        self.moves.last().copied()
    }
}

const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The "win combinations": every 5 consecutive cells in a row, column or diagonal, as row-major
/// cell indices. There are 2·n·(n−4) + 2·(n−4)² of them (572 on 15×15, 1020 on 19×19).
pub fn lines(size: usize) -> Vec<[u16; 5]> {
    let n = size as isize;
    let mut out = Vec::with_capacity(2 * size * size.saturating_sub(4) + 2 * size.saturating_sub(4).pow(2));
    for y in 0..n {
        for x in 0..n {
            for (dx, dy) in DIRECTIONS {
                let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                if (0..n).contains(&ex) && (0..n).contains(&ey) {
                    out.push(std::array::from_fn(|k| ((y + k as isize * dy) * n + x + k as isize * dx) as u16));
                }
            }
        }
    }
    out
}

/// Whether a stone of `colour` at (x, y) (already there or about to be) makes a winning row under
/// `rule`: five or more for freestyle, exactly five for standard.
pub fn makes_five(board: &[u8], size: usize, x: usize, y: usize, colour: u8, rule: Rule) -> bool {
    let n = size as isize;
    let same =
        |cx: isize, cy: isize| (0..n).contains(&cx) && (0..n).contains(&cy) && board[(cy * n + cx) as usize] == colour;
    DIRECTIONS.iter().any(|&(dx, dy)| {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x as isize + sign * dx, y as isize + sign * dy);
            while same(cx, cy) {
                len += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        match rule {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
        }
    })
}

impl Gomoku {
    pub fn new(size: usize, rule: Rule, opening: usize) -> Gomoku {
        Gomoku { size, rule, opening }
    }

    /// Whether the stone just placed at (x, y) wins under the table's rule.
    fn wins(&self, s: &State, x: usize, y: usize) -> bool {
        makes_five(&s.board, self.size, x, y, s.cell(x, y), self.rule)
    }

    fn place(&self, s: &mut State, m: Move) {
        let (x, y) = (m.x as usize, m.y as usize);
        s.board[y * self.size + x] = 1 + s.to_move() as u8;
        let mover = s.to_move();
        s.moves.push(m);
        if self.wins(s, x, y) {
            s.winner = Some(mover);
        }
    }

    /// The opening: `opening` stones on distinct cells of the central 5x5 (smaller boards: all of
    /// it), alternating colours from black. Redrawn until no one has already won.
    fn opening_moves(&self, rng: &mut DealRng) -> Vec<Move> {
        let n = self.size;
        let (lo, hi) = if n > 5 { (n / 2 - 2, n / 2 + 2) } else { (0, n - 1) };
        let mut cells: Vec<Move> =
            (lo..=hi).flat_map(|y| (lo..=hi).map(move |x| Move { x: x as u8, y: y as u8 })).collect();
        let k = self.opening.min(cells.len());
        for i in 0..k {
            let j = rng.random_range(i..cells.len());
            cells.swap(i, j);
        }
        cells.truncate(k);
        cells
    }
}

impl Game for Gomoku {
    type State = State;
    type Action = Move;
    type View<'a> = &'a State;

    fn seats(&self) -> usize {
        2
    }

    fn deal(&self, rng: &mut DealRng) -> State {
        loop {
            let mut s = State {
                board: vec![0; self.size * self.size],
                size: self.size,
                moves: Vec::with_capacity(self.size * self.size),
                opening: 0,
                winner: None,
            };
            for m in self.opening_moves(rng) {
                self.place(&mut s, m);
            }
            s.opening = s.moves.len();
            if s.winner.is_none() {
                return s;
            }
        }
    }

    fn to_act(&self, s: &State) -> Option<Seat> {
        (!s.is_over()).then(|| s.to_move())
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Move>) {
        out.clear();
        if s.is_over() {
            return;
        }
        for (i, &c) in s.board.iter().enumerate() {
            if c == 0 {
                out.push(Move { x: (i % self.size) as u8, y: (i / self.size) as u8 });
            }
        }
    }

    fn view<'a>(&self, s: &'a State, _seat: Seat) -> &'a State {
        s
    }

    fn apply(&self, s: &mut State, m: &Move) -> Result<(), IllegalAction> {
        let (x, y) = (m.x as usize, m.y as usize);
        if x >= self.size || y >= self.size {
            return Err(IllegalAction(format!("{},{} is off the {n}x{n} board", m.x, m.y, n = self.size)));
        }
        if s.cell(x, y) != 0 {
            return Err(IllegalAction(format!("{},{} is taken", m.x, m.y)));
        }
        if s.is_over() {
            return Err(IllegalAction("the game is over".into()));
        }
        self.place(s, *m);
        Ok(())
    }

    fn outcome(&self, s: &State) -> Outcome {
        match s.winner {
            Some(w) => Outcome::from_payoffs((0..2).map(|seat| if seat == w { 1.0 } else { -1.0 }).collect()),
            None => Outcome::from_payoffs(vec![0.0, 0.0]),
        }
    }

    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }).collect())
    }

    fn columns(&self) -> &'static [&'static str] {
        &["colour", "move_list"]
    }

    /// `colour`: black or white; `move_list`: every stone as Gomocup `x,y` pairs separated by
    /// spaces, the opening included (its length is the game's `opening` option).
    fn record(&self, s: &State, seat: Seat, out: &mut Vec<String>) {
        out.push(if seat == 0 { "black" } else { "white" }.to_string());
        // Written digit by digit: this runs for every game of a tournament.
        let mut list = String::with_capacity(s.moves.len() * 6);
        for (i, m) in s.moves.iter().enumerate() {
            if i > 0 {
                list.push(' ');
            }
            push_number(&mut list, m.x);
            list.push(',');
            push_number(&mut list, m.y);
        }
        out.push(list);
    }
}

/// Appends `v` (below 100: coordinates are below 25) in decimal.
fn push_number(out: &mut String, v: u8) {
    if v >= 10 {
        out.push(char::from(b'0' + v / 10));
    }
    out.push(char::from(b'0' + v % 10));
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;
    use rand::SeedableRng;

    use super::*;

    fn at(x: u8, y: u8) -> Move {
        Move { x, y }
    }

    fn empty_game(size: usize, rule: Rule) -> (Gomoku, State) {
        let game = Gomoku::new(size, rule, 0);
        let state = game.deal(&mut DealRng::seed_from_u64(0));
        (game, state)
    }

    /// Plays `black` and `white` alternately (black first; `white` may be one shorter).
    fn play(game: &Gomoku, s: &mut State, black: &[Move], white: &[Move]) {
        for (i, b) in black.iter().enumerate() {
            game.apply(s, b).unwrap();
            if let Some(w) = white.get(i) {
                game.apply(s, w).unwrap();
            }
        }
    }

    /// Every 5-cell segment found by walking all 8 directions from every cell, as a set of cells:
    /// each line is found twice (once from each end), the set keeps one.
    fn brute_force_lines(n: usize) -> BTreeSet<Vec<usize>> {
        let mut set = BTreeSet::new();
        for y in 0..n as isize {
            for x in 0..n as isize {
                for dy in -1..=1isize {
                    for dx in -1..=1isize {
                        if (dx, dy) == (0, 0) {
                            continue;
                        }
                        let cells: Vec<(isize, isize)> = (0..5).map(|k| (x + k * dx, y + k * dy)).collect();
                        if cells.iter().all(|&(cx, cy)| cx >= 0 && cy >= 0 && cx < n as isize && cy < n as isize) {
                            let mut idx: Vec<usize> =
                                cells.iter().map(|&(cx, cy)| (cy as usize) * n + cx as usize).collect();
                            idx.sort();
                            set.insert(idx);
                        }
                    }
                }
            }
        }
        set
    }

    #[test]
    fn line_count_matches_the_formula_and_a_brute_force_enumeration() {
        assert_eq!(lines(15).len(), 572);
        assert_eq!(lines(19).len(), 1020);
        for n in 5..=25 {
            let ours = lines(n);
            assert_eq!(ours.len(), 2 * n * (n - 4) + 2 * (n - 4) * (n - 4), "size {n}");
            let ours: BTreeSet<Vec<usize>> = ours
                .iter()
                .map(|l| {
                    let mut v: Vec<usize> = l.iter().map(|&c| c as usize).collect();
                    v.sort();
                    v
                })
                .collect();
            assert_eq!(ours.len(), 2 * n * (n - 4) + 2 * (n - 4) * (n - 4), "duplicates on size {n}");
            assert_eq!(ours, brute_force_lines(n), "size {n}");
        }
    }

    #[test]
    fn five_wins_under_both_rules() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let (game, mut s) = empty_game(15, rule);
            let black: Vec<Move> = (3..8).map(|x| at(x, 7)).collect();
            let white: Vec<Move> = (3..7).map(|x| at(x, 9)).collect();
            play(&game, &mut s, &black[..4], &white);
            assert_eq!(s.winner, None);
            game.apply(&mut s, &black[4]).unwrap();
            assert_eq!(s.winner, Some(0), "{rule:?}");
            assert!(s.is_over());
            assert_eq!(game.to_act(&s), None);
            assert_eq!(game.outcome(&s).payoff, vec![1.0, -1.0]);
        }
    }

    #[test]
    fn six_wins_only_in_freestyle() {
        // Black's sixth stone fills the gap of a diagonal 3 + 2 and makes six in a row; white's
        // stones are spread out (gaps between them) so white never threatens.
        let white: Vec<Move> = (0..8).map(|k| at(2 * k, 14)).chain((0..2).map(|k| at(2 * k, 10))).collect();
        let diagonal: Vec<Move> = [2, 3, 4, 6, 7, 5].iter().map(|&k| at(k, k)).collect();
        for (rule, winner) in [(Rule::Freestyle, Some(0)), (Rule::Standard, None)] {
            let (game, mut s) = empty_game(15, rule);
            play(&game, &mut s, &diagonal, &white[..5]);
            assert_eq!(s.winner, winner, "{rule:?}");
            assert_eq!(s.is_over(), winner.is_some());
        }
        // Under the standard rule the game goes on after the six, and exactly five still wins.
        let (game, mut s) = empty_game(15, Rule::Standard);
        let row: Vec<Move> = (0..5).map(|x| at(x, 12)).collect();
        let black: Vec<Move> = diagonal.iter().chain(&row).copied().collect();
        play(&game, &mut s, &black[..10], &white);
        assert_eq!(s.winner, None);
        game.apply(&mut s, &black[10]).unwrap();
        assert_eq!(s.winner, Some(0), "exactly five wins");
    }

    #[test]
    fn full_board_without_five_is_a_draw() {
        // B B W W B / W W B B W / ...: 13 black, 12 white, no five in any row, column or diagonal.
        let (game, mut s) = empty_game(5, Rule::Freestyle);
        let colour = |x: u8, y: u8| if ((x / 2) + y).is_multiple_of(2) { 1 } else { 2 };
        let cells =
            |c: u8| -> Vec<Move> { (0..25).map(|i| at(i % 5, i / 5)).filter(|m| colour(m.x, m.y) == c).collect() };
        let (black, white) = (cells(1), cells(2));
        assert_eq!((black.len(), white.len()), (13, 12));
        play(&game, &mut s, &black, &white);
        assert!(s.is_over());
        assert_eq!(s.winner, None);
        assert_eq!(game.to_act(&s), None);
        assert_eq!(game.outcome(&s).payoff, vec![0.0, 0.0]);
        assert!(game.apply(&mut s.clone(), &at(0, 0)).is_err());
    }

    #[test]
    fn illegal_moves_are_rejected_without_change() {
        let (game, mut s) = empty_game(9, Rule::Freestyle);
        game.apply(&mut s, &at(4, 4)).unwrap();
        for bad in [at(4, 4), at(9, 0), at(0, 9), at(255, 255)] {
            let before = s.clone();
            assert!(game.apply(&mut s, &bad).is_err(), "{bad:?}");
            assert_eq!(s, before);
        }
        // After a win, nothing more is accepted.
        for x in 0..4 {
            play(&game, &mut s, &[at(x, 1)], &[at(x, 3)]); // white, then black
        }
        game.apply(&mut s, &at(4, 1)).unwrap();
        assert_eq!(s.winner, Some(1));
        let before = s.clone();
        assert!(game.apply(&mut s, &at(8, 8)).is_err());
        assert_eq!(s, before);
    }

    #[test]
    fn the_record_lists_the_moves_as_gomocup_pairs() {
        let (game, mut s) = empty_game(15, Rule::Freestyle);
        play(&game, &mut s, &[at(7, 7), at(14, 10)], &[at(0, 12)]);
        let mut out = Vec::new();
        game.record(&s, 1, &mut out);
        assert_eq!(out, vec!["white".to_string(), "7,7 0,12 14,10".to_string()]);
    }

    #[test]
    fn the_opening_is_fixed_by_the_deal_seed() {
        for (size, opening) in [(15, 4), (19, 2), (5, 6)] {
            let game = Gomoku::new(size, Rule::Freestyle, opening);
            let deal = |seed: u64| game.deal(&mut DealRng::seed_from_u64(seed));
            let a = deal(7);
            assert_eq!(a, deal(7));
            assert_eq!((a.moves.len(), a.opening), (opening, opening));
            assert_eq!(a.winner, None);
            let lo = if size > 5 { size / 2 - 2 } else { 0 };
            assert!(a
                .moves
                .iter()
                .all(|m| (lo..lo + 5).contains(&(m.x as usize)) && (lo..lo + 5).contains(&(m.y as usize))));
            for (i, m) in a.moves.iter().enumerate() {
                assert_eq!(a.cell(m.x as usize, m.y as usize), 1 + (i % 2) as u8);
            }
            assert!((0..20).any(|seed| deal(seed).moves != a.moves), "openings vary with the seed");
        }
    }

    /// Independent of the engine: scans every run of `colour` from its first stone.
    fn has_win(s: &State, colour: u8, rule: Rule) -> bool {
        let n = s.size as isize;
        let c = |x: isize, y: isize| {
            if x < 0 || y < 0 || x >= n || y >= n {
                0
            } else {
                s.board[(y * n + x) as usize]
            }
        };
        (0..n).any(|y| {
            (0..n).any(|x| {
                DIRECTIONS.iter().any(|&(dx, dy)| {
                    if c(x, y) != colour || c(x - dx, y - dy) == colour {
                        return false;
                    }
                    let len = (0..).take_while(|&k| c(x + k * dx, y + k * dy) == colour).count();
                    if rule == Rule::Freestyle {
                        len >= 5
                    } else {
                        len == 5
                    }
                })
            })
        })
    }

    proptest! {
        #[test]
        fn random_legal_games_follow_the_rules(
            size in 5usize..10,
            standard in any::<bool>(),
            opening in 0usize..5,
            seed in any::<u64>(),
            picks in proptest::collection::vec(any::<u32>(), 100),
        ) {
            let rule = if standard { Rule::Standard } else { Rule::Freestyle };
            let game = Gomoku::new(size, rule, opening);
            let mut s = game.deal(&mut DealRng::seed_from_u64(seed));
            let mut legal = Vec::new();
            let mut turn = 0;
            while let Some(seat) = game.to_act(&s) {
                prop_assert_eq!(seat, s.moves.len() % 2);
                game.legal_actions(&s, &mut legal);
                prop_assert_eq!(legal.len(), size * size - s.moves.len());
                let m = legal[picks[turn % picks.len()] as usize % legal.len()];
                turn += 1;
                game.apply(&mut s, &m).unwrap();
                let colour = s.cell(m.x as usize, m.y as usize);
                prop_assert_eq!(colour, 1 + seat as u8, "stones alternate");
                let won = has_win(&s, colour, rule);
                prop_assert_eq!(s.winner == Some(seat), won);
                prop_assert!(!has_win(&s, 3 - colour, rule), "only the last mover can have a five");
                prop_assert_eq!(s.is_over(), won || s.moves.len() == size * size);
            }
            game.legal_actions(&s, &mut legal);
            prop_assert!(legal.is_empty());
            let payoff = game.outcome(&s).payoff;
            prop_assert_eq!(payoff[0] + payoff[1], 0.0);
        }
    }
}
