//! The board, the rules and the game record.

use std::sync::Arc;

use rand::Rng;

use super::geometry::DIRECTIONS;
use super::openings::Book;
use super::renju::{self, Foul};
use crate::core::wire::{write_int, Texts};
use crate::core::{DealRng, Game, IllegalAction, Outcome, Played, RecordFormat, Seat};
use crate::error::Result;

/// Win condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; six or more does not.
    Standard,
    /// Black wins by exactly five and may not play a forbidden point (overline, double four,
    /// double three: see `renju`); a forbidden move loses. White wins by five or more.
    Renju,
    /// Caro (Gomocup's rule 8): five or more in a row wins unless the row is blocked at both ends
    /// by the opponent's stones (the board's edge is not a block).
    Caro,
}

impl Rule {
    /// Whether `colour` (1 black, 2 white) needs exactly five: six or more does not win.
    pub fn exact_five(self, colour: u8) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => colour == 1,
            Rule::Caro => false,
        }
    }

    /// Whether a row of the colour's stones blocked at both ends by the other's does not win.
    pub fn blocked_fives_lose(self) -> bool {
        self == Rule::Caro
    }

    /// Whether black's moves are judged for forbidden points.
    pub fn binds_black(self) -> bool {
        self == Rule::Renju
    }

    /// The rule's name in configs.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }
}

/// A move, as the Gomocup protocol writes it: `x,y` from 0, x = column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The column, from 0 at the left.
    pub x: u8,
    /// The row, from 0 at the top.
    pub y: u8,
}

/// The table: board size, rule and openings.
#[derive(Clone, Debug)]
pub struct Gomoku {
    /// The board's side, in cells (15 or 20 usually).
    pub size: usize,
    /// Which fives win, and black's forbidden moves under renju.
    pub rule: Rule,
    /// Stones placed at random (alternating colours, near the centre) before the bots play.
    pub opening: usize,
    /// Openings played in turn instead (deal k plays opening k modulo their number).
    pub book: Option<Arc<Book>>,
}

/// Seat 0 plays black and moves first.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Row-major cells: 0 empty, 1 black (seat 0), 2 white (seat 1).
    pub board: Vec<u8>,
    /// The board's side, in cells.
    pub size: usize,
    /// Every stone in order, the opening first.
    pub moves: Vec<Move>,
    /// How many of `moves` are the opening.
    pub opening: usize,
    /// The seat that made five (or won by black's foul), `None` while playing or on a full board.
    pub winner: Option<Seat>,
    /// Renju: black's last move was forbidden, and lost.
    pub foul: Option<Foul>,
}

impl State {
    /// The empty board.
    pub fn new(size: usize) -> State {
        State {
            board: vec![0; size * size],
            size,
            moves: Vec::with_capacity(size * size),
            opening: 0,
            winner: None,
            foul: None,
        }
    }

    /// The seat whose stone comes next: 0 (black) after an even number of stones.
    pub fn to_move(&self) -> Seat {
        self.moves.len() % 2
    }
    /// Whether someone has won or the board is full.
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.moves.len() == self.board.len()
    }
    /// What is at column `x`, row `y`: 0 empty, 1 black, 2 white.
    pub fn cell(&self, x: usize, y: usize) -> u8 {
        self.board[y * self.size + x]
    }
    /// The last stone played, if any.
    pub fn last(&self) -> Option<Move> {
        self.moves.last().copied()
    }
}

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
/// `rule`: five or more, or exactly five where the rule asks for it ([`Rule::exact_five`]), and
/// under caro not blocked at both ends by the other colour ([`Rule::blocked_fives_lose`]).
pub fn makes_five(board: &[u8], size: usize, x: usize, y: usize, colour: u8, rule: Rule) -> bool {
    let n = size as isize;
    let at =
        |cx: isize, cy: isize| ((0..n).contains(&cx) && (0..n).contains(&cy)).then(|| board[(cy * n + cx) as usize]);
    let other = 3 - colour;
    DIRECTIONS.iter().any(|&(dx, dy)| {
        let mut len = 1;
        let mut blocked = 0;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x as isize + sign * dx, y as isize + sign * dy);
            while at(cx, cy) == Some(colour) {
                len += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
            blocked += (at(cx, cy) == Some(other)) as u32;
        }
        let long_enough = if rule.exact_five(colour) { len == 5 } else { len >= 5 };
        long_enough && !(rule.blocked_fives_lose() && blocked == 2)
    })
}

impl Gomoku {
    /// A `size` board under `rule`, with `opening` random stones before the bots play and no
    /// openings book.
    pub fn new(size: usize, rule: Rule, opening: usize) -> Gomoku {
        Gomoku { size, rule, opening, book: None }
    }

    /// Places the stone of the side to move on the empty cell `m` and judges it: five wins; under
    /// renju a forbidden black move loses (the five is looked for first: it wins even where the
    /// move also makes a forbidden shape).
    fn place(&self, s: &mut State, m: Move) {
        let (x, y) = (m.x as usize, m.y as usize);
        let (cell, mover) = (y * self.size + x, s.to_move());
        let colour = 1 + mover as u8;
        if makes_five(&s.board, self.size, x, y, colour, self.rule) {
            s.winner = Some(mover);
        } else if colour == 1 && self.rule.binds_black() {
            s.foul = renju::foul(&s.board, self.size, cell);
            if s.foul.is_some() {
                s.winner = Some(1);
            }
        }
        s.board[cell] = colour;
        s.moves.push(m);
    }

    /// The game after `stones` (black first, colours alternating), or why they cannot open one:
    /// a stone off the board or on a taken cell (its index and the reason), a stone that ends the
    /// game, or no empty cell left.
    pub fn start(&self, stones: &[Move]) -> Result<State, (usize, String)> {
        let mut s = State::new(self.size);
        for (i, &m) in stones.iter().enumerate() {
            let (x, y) = (m.x as usize, m.y as usize);
            if x >= self.size || y >= self.size {
                return Err((i, format!("{},{} is off the {n}x{n} board", m.x, m.y, n = self.size)));
            }
            if s.cell(x, y) != 0 {
                return Err((i, format!("{},{} is taken", m.x, m.y)));
            }
            self.place(&mut s, m);
            if let Some(w) = s.winner {
                let how = match s.foul {
                    Some(foul) => format!("black plays a forbidden point ({})", foul.name()),
                    None => format!("{} makes five", if w == 0 { "black" } else { "white" }),
                };
                return Err((i, format!("{},{} ends the game: {how}", m.x, m.y)));
            }
        }
        if s.is_over() {
            return Err((stones.len().saturating_sub(1), "no empty cell is left".into()));
        }
        s.opening = stones.len();
        Ok(s)
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
        self.deal_numbered(0, rng)
    }

    /// With a book, deal k plays opening k (modulo their number; checked when the book was
    /// read); else `opening` random stones, redrawn until they leave the game open.
    fn deal_numbered(&self, index: u64, rng: &mut DealRng) -> State {
        if let Some(book) = &self.book {
            let stones = &book.openings[(index % book.openings.len() as u64) as usize];
            return self.start(stones).expect("book openings are checked when read");
        }
        loop {
            if let Ok(s) = self.start(&self.opening_moves(rng)) {
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
            Some(w) => Outcome::from_payoffs((0..2).map(|seat| if seat == w { 1.0 } else { -1.0 })),
            None => Outcome::from_payoffs([0.0, 0.0]),
        }
    }

    fn forfeit(&self, _s: &State, seat: Seat) -> Outcome {
        Outcome::from_payoffs((0..2).map(|s| if s == seat { -1.0 } else { 1.0 }))
    }

    /// Piskvork's .psq first (one file a game, what `--hand-history` writes), then SGF (a
    /// pairing's games as one collection).
    fn record_formats(&self) -> &'static [RecordFormat] {
        &[
            RecordFormat { name: "psq", extension: "psq", per_pairing: false },
            RecordFormat { name: "sgf", extension: "sgf", per_pairing: true },
        ]
    }

    fn write_record(&self, format: &str, s: &State, played: &Played<'_>) -> Option<String> {
        let stones: Vec<(u8, u8)> = s.moves.iter().map(|m| (m.x, m.y)).collect();
        match format {
            "psq" => Some(super::psq::write(self.size, &stones, played)),
            "sgf" => {
                let game = super::sgf::Game { size: self.size, rule: self.rule.name(), winner: s.winner };
                Some(super::sgf::write(&game, &stones, s.opening, played))
            }
            _ => None,
        }
    }

    fn columns(&self) -> &'static [&'static str] {
        &["colour", "end", "move_list"]
    }

    /// `colour`: black or white; `end`: how the game ended: `five`, black's forbidden move under
    /// renju (`overline`, `double-four`, `double-three`), `full` (a draw), or empty when a bot
    /// forfeited; `move_list`: every stone as Gomocup `x,y` pairs separated by spaces, the
    /// opening included (its length is the game's `opening` option, or the book opening's).
    fn record(&self, s: &State, seat: Seat, out: &mut Texts) {
        out.push_str(if seat == 0 { "black" } else { "white" });
        let end = match (s.winner, s.foul) {
            (Some(_), Some(foul)) => foul.name(),
            (Some(_), None) => "five",
            (None, _) if s.is_over() => "full",
            (None, _) => "",
        };
        out.push_str(end);
        out.push_with(|text| {
            for (i, m) in s.moves.iter().enumerate() {
                if i > 0 {
                    text.push(' ');
                }
                write_int(text, m.x);
                text.push(',');
                write_int(text, m.y);
            }
        });
    }
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
            assert_eq!(game.outcome(&s).payoff[..], [1.0, -1.0]);
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
    fn caro_five_blocked_at_both_ends_does_not_win() {
        // White at 0,3 and 6,3; black fills 1,3..5,3 (white plays far away meanwhile).
        let play = |rule: Rule, white_ends: &[(u8, u8)]| {
            let (game, mut s) = empty_game(15, rule);
            let mut white: Vec<(u8, u8)> = white_ends.to_vec();
            white.extend([(14, 14), (14, 12), (12, 14), (14, 10), (10, 14)]);
            for (i, x) in (1..=5).enumerate() {
                game.apply(&mut s, &Move { x, y: 3 }).unwrap();
                if i < 4 {
                    let (wx, wy) = white[i];
                    game.apply(&mut s, &Move { x: wx, y: wy }).unwrap();
                }
            }
            s.winner
        };
        assert_eq!(play(Rule::Caro, &[(0, 3), (6, 3)]), None, "blocked at both ends");
        assert_eq!(play(Rule::Freestyle, &[(0, 3), (6, 3)]), Some(0));
        assert_eq!(play(Rule::Caro, &[(0, 3), (6, 4)]), Some(0), "blocked at one end");
        // The board's edge is not a block: 0,3..4,3 with white at 5,3 wins.
        let (game, mut s) = empty_game(15, Rule::Caro);
        for (i, x) in (0..5).enumerate() {
            game.apply(&mut s, &Move { x, y: 3 }).unwrap();
            if i < 4 {
                game.apply(&mut s, &Move { x: [5, 14, 14, 12][i], y: [3, 14, 12, 14][i] }).unwrap();
            }
        }
        assert_eq!(s.winner, Some(0));
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
        assert_eq!(game.outcome(&s).payoff[..], [0.0, 0.0]);
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
        let mut out = Texts::default();
        game.record(&s, 1, &mut out);
        assert_eq!(out.iter().collect::<Vec<_>>(), ["white", "", "7,7 0,12 14,10"]);
    }

    #[test]
    fn renju_binds_black_alone() {
        // Black's move at (5, 5) would make three across and three down, both open: a double
        // three. It loses, and the record says why.
        let (game, mut s) = empty_game(15, Rule::Renju);
        play(&game, &mut s, &[at(3, 5), at(4, 5), at(5, 3), at(5, 4)], &[at(0, 0), at(14, 0), at(0, 14), at(14, 14)]);
        let before = s.clone();
        game.apply(&mut s, &at(5, 5)).unwrap();
        assert_eq!((s.winner, s.foul), (Some(1), Some(Foul::DoubleThree)));
        assert_eq!(game.outcome(&s).payoff[..], [-1.0, 1.0]);
        let mut out = Texts::default();
        game.record(&s, 0, &mut out);
        assert_eq!(out.iter().take(2).collect::<Vec<_>>(), ["black", "double-three"]);
        // The same move under the other rules is an ordinary move.
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut free = before.clone();
            Gomoku::new(15, rule, 0).apply(&mut free, &at(5, 5)).unwrap();
            assert_eq!((free.winner, free.foul), (None, None));
        }
        // White makes the same shape freely, and wins by an overline.
        let (game, mut s) = empty_game(15, Rule::Renju);
        let white =
            [at(3, 5), at(4, 5), at(5, 3), at(5, 4), at(5, 5), at(0, 7), at(1, 7), at(2, 7), at(4, 7), at(5, 7)];
        let black = [
            at(9, 0),
            at(11, 0),
            at(13, 0),
            at(9, 2),
            at(11, 2),
            at(13, 2),
            at(9, 4),
            at(11, 4),
            at(13, 4),
            at(9, 6),
            at(11, 6),
        ];
        play(&game, &mut s, &black[..10], &white);
        assert_eq!(s.winner, None);
        game.apply(&mut s, &black[10]).unwrap();
        game.apply(&mut s, &at(3, 7)).unwrap(); // 0..=5 across: six white stones
        assert_eq!((s.winner, s.foul), (Some(1), None));
    }

    #[test]
    fn renju_black_overline_loses_and_exactly_five_wins_even_with_a_six() {
        // White's stones are spread out, two apart, so white never threatens.
        let white: Vec<Move> = (0..7).map(|k| at(2 * k, 14)).chain([at(0, 11), at(14, 11)]).collect();
        // Black 2,3,4 and 6,7 on row 7: 5 makes six across, a forbidden overline.
        let black = [at(2, 7), at(3, 7), at(4, 7), at(6, 7), at(7, 7), at(5, 7)];
        let (game, mut s) = empty_game(15, Rule::Renju);
        play(&game, &mut s, &black, &white[..5]);
        assert_eq!((s.winner, s.foul), (Some(1), Some(Foul::Overline)));
        // With four down through (5, 7) as well, the same move is also exactly five down: it wins.
        let black =
            [at(2, 7), at(3, 7), at(4, 7), at(6, 7), at(7, 7), at(5, 3), at(5, 4), at(5, 5), at(5, 6), at(5, 7)];
        let (game, mut s) = empty_game(15, Rule::Renju);
        play(&game, &mut s, &black, &white);
        assert_eq!((s.winner, s.foul), (Some(0), None));
    }

    #[test]
    fn a_book_deals_its_openings_in_turn() {
        let mut game = Gomoku::new(15, Rule::Freestyle, 0);
        let book = Book::from_text("b", "0,0\n0,0, 1,1\n0,0, 1,1, 2,2\n", &game).unwrap();
        game.book = Some(Arc::new(book));
        let mut rng = DealRng::seed_from_u64(0);
        let dealt: Vec<usize> = (0..7).map(|k| game.deal_numbered(k, &mut rng).moves.len()).collect();
        assert_eq!(dealt, [1, 2, 3, 1, 2, 3, 1]);
        let s = game.deal_numbered(2, &mut rng);
        assert_eq!((s.opening, s.to_move(), s.cell(9, 9)), (3, 1, 1));
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
                    let exact = rule == Rule::Standard || (rule == Rule::Renju && colour == 1);
                    let other = 3 - colour;
                    let after = c(x + len as isize * dx, y + len as isize * dy);
                    let blocked = c(x - dx, y - dy) == other && after == other;
                    let long = if exact { len == 5 } else { len >= 5 };
                    long && !(rule == Rule::Caro && blocked)
                })
            })
        })
    }

    proptest! {
        #[test]
        fn random_legal_games_follow_the_rules(
            size in 5usize..10,
            rule in prop_oneof![Just(Rule::Freestyle), Just(Rule::Standard), Just(Rule::Renju), Just(Rule::Caro)],
            opening in 0usize..5,
            seed in any::<u64>(),
            picks in proptest::collection::vec(any::<u32>(), 100),
        ) {
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
                let cell = m.y as usize * size + m.x as usize;
                let foul = if rule == Rule::Renju && seat == 0 { renju::foul(&s.board, size, cell) } else { None };
                game.apply(&mut s, &m).unwrap();
                let colour = s.cell(m.x as usize, m.y as usize);
                prop_assert_eq!(colour, 1 + seat as u8, "stones alternate");
                let won = has_win(&s, colour, rule);
                // A five wins; else black's forbidden move loses (renju); else play goes on.
                let winner = if won { Some(seat) } else { foul.map(|_| 1) };
                prop_assert_eq!(s.winner, winner);
                prop_assert_eq!(s.foul, if won { None } else { foul });
                prop_assert!(!has_win(&s, 3 - colour, rule), "only the last mover can have a five");
                prop_assert_eq!(s.is_over(), winner.is_some() || s.moves.len() == size * size);
            }
            game.legal_actions(&s, &mut legal);
            prop_assert!(legal.is_empty());
            let payoff = game.outcome(&s).payoff;
            prop_assert_eq!(payoff[0] + payoff[1], 0.0);
        }
    }
}
