//! The board, the rules and the game record.

use rand::Rng;

use crate::core::{DealRng, Game, IllegalAction, Outcome, Params, Seat};
use crate::error::{Error, Result};

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
#[derive(Clone, Debug)]
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

impl Gomoku {
    pub fn new(size: usize, rule: Rule, opening: usize) -> Gomoku {
        Gomoku {
            size,
            rule,
            opening,
        }
    }

    /// Length of the run of `colour` through (x, y) along one direction.
    fn run_length(
        &self,
        s: &State,
        x: usize,
        y: usize,
        (dx, dy): (isize, isize),
        colour: u8,
    ) -> usize {
        let n = self.size as isize;
        let mut len = 1;
        for sign in [1, -1] {
            let (mut cx, mut cy) = (x as isize + sign * dx, y as isize + sign * dy);
            while (0..n).contains(&cx)
                && (0..n).contains(&cy)
                && s.board[(cy * n + cx) as usize] == colour
            {
                len += 1;
                cx += sign * dx;
                cy += sign * dy;
            }
        }
        len
    }

    /// Whether the stone just placed at (x, y) wins under the table's rule.
    fn wins(&self, s: &State, x: usize, y: usize) -> bool {
        let colour = s.cell(x, y);
        DIRECTIONS.iter().any(|&d| {
            let len = self.run_length(s, x, y, d, colour);
            match self.rule {
                Rule::Freestyle => len >= 5,
                Rule::Standard => len == 5,
            }
        })
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
        let (lo, hi) = if n > 5 {
            (n / 2 - 2, n / 2 + 2)
        } else {
            (0, n - 1)
        };
        let mut cells: Vec<Move> = (lo..=hi)
            .flat_map(|y| {
                (lo..=hi).map(move |x| Move {
                    x: x as u8,
                    y: y as u8,
                })
            })
            .collect();
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
                out.push(Move {
                    x: (i % self.size) as u8,
                    y: (i / self.size) as u8,
                });
            }
        }
    }

    fn view<'a>(&self, s: &'a State, _seat: Seat) -> &'a State {
        s
    }

    fn apply(&self, s: &mut State, m: &Move) -> Result<(), IllegalAction> {
        let (x, y) = (m.x as usize, m.y as usize);
        if x >= self.size || y >= self.size {
            return Err(IllegalAction(format!(
                "{},{} is off the {n}x{n} board",
                m.x,
                m.y,
                n = self.size
            )));
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
            Some(w) => Outcome::from_payoffs(
                (0..2)
                    .map(|seat| if seat == w { 1.0 } else { -1.0 })
                    .collect(),
            ),
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
        let list: Vec<String> = s.moves.iter().map(|m| format!("{},{}", m.x, m.y)).collect();
        out.push(list.join(" "));
    }
}

impl crate::games::GameDef for Gomoku {
    const NAME: &'static str = "gomoku";
    const ABOUT: &'static str = "Five in a row on a square board (source: a 19x19 weight-based AI)";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const OPTIONS: &'static [crate::core::ParamSpec] = &[
        crate::core::ParamSpec::new("size", "15", "board size, 5 to 25"),
        crate::core::ParamSpec::new(
            "rule",
            "\"freestyle\"",
            "\"freestyle\": five or more in a row wins; \"standard\": exactly five",
        ),
        crate::core::ParamSpec::new(
            "opening",
            "0",
            "stones placed at random near the centre before play (paired games replay the same opening with colours swapped)",
        ),
    ];

    fn from_options(p: &Params, _seats: usize) -> Result<Gomoku> {
        let size = p.int_in("size", 5, 25, "gomoku")? as usize;
        let rule = match p.choice("rule", &["freestyle", "standard"], "gomoku")? {
            "freestyle" => Rule::Freestyle,
            _ => Rule::Standard,
        };
        let opening = p.int_in("opening", 0, 25, "gomoku")? as usize;
        if opening >= size * size {
            return Err(Error::input("gomoku: the opening must leave empty cells"));
        }
        Ok(Gomoku::new(size, rule, opening))
    }

    fn bot_kinds() -> &'static [crate::games::BotKind<Gomoku>] {
        super::bots::KINDS
    }
}
