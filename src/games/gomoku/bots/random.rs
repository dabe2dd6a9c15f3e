//! Baselines: a uniformly random empty cell, or a random empty cell next to a stone (under
//! renju, black draws among the cells it may play).

use rand::Rng;

use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng};

use super::super::{renju, Gomoku, Move, State};

pub const KIND: BotKind<Gomoku> = BotKind {
    name: "random",
    about: "a uniformly random empty cell",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot { adjacent: false })),
};

pub const ADJACENT_KIND: BotKind<Gomoku> = BotKind {
    name: "random-adjacent",
    about: "a random empty cell touching a stone (the centre on an empty board)",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot { adjacent: true })),
};

pub struct RandomBot {
    adjacent: bool,
}

fn touches_stone(s: &State, x: usize, y: usize) -> bool {
    let n = s.size as isize;
    (-1..=1).any(|dy: isize| {
        (-1..=1).any(|dx: isize| {
            let (cx, cy) = (x as isize + dx, y as isize + dy);
            (dx, dy) != (0, 0) && (0..n).contains(&cx) && (0..n).contains(&cy) && s.cell(cx as usize, cy as usize) != 0
        })
    })
}

impl Bot<Gomoku> for RandomBot {
    fn act(&mut self, game: &Gomoku, s: &&State, rng: &mut BotRng) -> Move {
        let n = s.size;
        let bound = s.to_move() == 0 && game.rule.binds_black();
        let empty = |i: &usize| s.board[*i] == 0;
        let near = |i: &usize| !self.adjacent || s.moves.is_empty() || touches_stone(s, i % n, i / n);
        let allowed = |i: &usize| !bound || renju::foul(&s.board, n, *i).is_none();
        let cells: Vec<usize> = (0..n * n).filter(|i| empty(i) && near(i) && allowed(i)).collect();
        let i = match cells.len() {
            // Every empty cell forbidden (renju): any move loses.
            0 => (0..n * n).find(empty).unwrap_or(0),
            len => cells[rng.random_range(0..len)],
        };
        Move { x: (i % n) as u8, y: (i / n) as u8 }
    }
}
