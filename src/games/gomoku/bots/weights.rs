//! The document's AI ("weights"): every empty cell gets an attack score (the lines through it
//! the bot can still win, weighted by the bot's stones in them) and a defence score (the same
//! for the opponent). Play the best attack, unless the best defence is higher. Under renju, black
//! passes over its forbidden points.

use rand::Rng;

use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::{Error, Result};
use crate::games::{factory, BotKind};

use super::super::{Gomoku, Move, State};
use super::tally::{Tally, Weights};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new(
        "own",
        "[1, 2, 8, 32, 128]",
        "W_own: attack weight of a line the bot can still win, by its 0..4 stones in it",
    )
    .range(-MAX_WEIGHT, MAX_WEIGHT),
    ParamSpec::new(
        "opp",
        "[1, 5, 10, 30, 120]",
        "W_opp: defence weight of a line the opponent can still win, by its 0..4 stones in it",
    )
    .range(-MAX_WEIGHT, MAX_WEIGHT),
];

/// Largest weight, either sign: sums over every line of a 25×25 board stay far inside i32.
pub const MAX_WEIGHT: f64 = 10_000.0;

pub const KIND: BotKind<Gomoku> = BotKind {
    name: "weights",
    about: "the document's AI: best attack score per cell, or best defence if higher",
    params: PARAMS,
    make: |p, _| {
        let w = weights(p, "bot weights")?;
        Ok(factory(move || WeightsBot::new(w)))
    },
};

/// Reads a five-entry weight table (0..4 stones; each within ±[`MAX_WEIGHT`], checked by its
/// spec); 5 stones (an overline) never scores an empty cell.
pub fn table(p: &Params, name: &str, owner: &str) -> Result<[i32; 6]> {
    let v = p.i64s(name);
    if v.len() != 5 {
        return Err(Error::Param {
            key: name.to_string(),
            message: format!("parameter `{name}` of {owner} must list 5 weights (for 0..4 stones), not {v:?}"),
        });
    }
    Ok([v[0] as i32, v[1] as i32, v[2] as i32, v[3] as i32, v[4] as i32, 0])
}

fn weights(p: &Params, owner: &str) -> Result<Weights> {
    Ok(Weights { own: table(p, "own", owner)?, opp: table(p, "opp", owner)?, value: [0; 6] })
}

pub struct WeightsBot {
    /// Built on the first look at a game (the board size and rule come with it).
    tally: Option<Tally>,
    w: Weights,
    /// Cells sharing the best attack and the best defence (buffers reused from move to move).
    attack_ties: Vec<usize>,
    defence_ties: Vec<usize>,
}

impl WeightsBot {
    pub fn new(w: Weights) -> WeightsBot {
        WeightsBot { tally: None, w, attack_ties: Vec::new(), defence_ties: Vec::new() }
    }
}

/// The best score found so far (the best attack, or the best defence), with the cells sharing it.
struct Best<'a> {
    top: (i32, i32),
    ties: &'a mut Vec<usize>,
}

impl Best<'_> {
    fn new(ties: &mut Vec<usize>) -> Best<'_> {
        ties.clear();
        Best { top: (i32::MIN, i32::MIN), ties }
    }

    /// `score`: the score that ranks, then the one that breaks ties.
    fn offer(&mut self, score: (i32, i32), cell: usize) {
        if score > self.top {
            self.top = score;
            self.ties.clear();
        }
        if score == self.top {
            self.ties.push(cell);
        }
    }
}

impl Bot<Gomoku> for WeightsBot {
    fn act(&mut self, game: &Gomoku, s: &&State, rng: &mut BotRng) -> Move {
        let w = self.w;
        let tally = self.tally.get_or_insert_with(|| Tally::new(s.size, game.rule, w));
        tally.catch_up(s);
        let (me, them) = (s.to_move(), 1 - s.to_move());
        let mut attack = Best::new(&mut self.attack_ties);
        let mut defence = Best::new(&mut self.defence_ties);
        // One pass over the empty cells: attack = my own-weighted sum, defence = the opponent's
        // opp-weighted sum.
        let (own, opp) = (tally.own_scores(me), tally.opp_scores(them));
        // Renju: black skips its forbidden points (judged only where black stones crowd).
        let bound = me == 0 && game.rule.binds_black();
        for &cell in tally.empties() {
            let cell = cell as usize;
            if bound && tally.forbidden(me, cell) {
                continue;
            }
            let (a, d) = (own[cell], opp[cell]);
            attack.offer((a, d), cell);
            defence.offer((d, a), cell);
        }
        let best = if defence.top.0 > attack.top.0 { defence } else { attack };
        // Every empty cell forbidden (renju, a nearly full board): any move loses.
        let cell = match best.ties.len() {
            0 => tally.empties()[0] as usize,
            n => best.ties[rng.random_range(0..n)],
        };
        Move { x: (cell % s.size) as u8, y: (cell / s.size) as u8 }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::Game;
    use crate::games::gomoku::Rule;

    /// The document's rule has no "win first": a bot that can make five still blocks when the
    /// opponent's best cell scores higher. Black to move has an open four on row 3 (five at 0,3 or
    /// 5,3: attack about 190), and white two fours through 12,10 (defence about 330), so the
    /// document's bot blocks at 12,10 and passes up its win in one.
    #[test]
    fn passes_up_a_win_in_one_when_the_defence_scores_higher() {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let mut s = game.deal(&mut BotRng::seed_from_u64(0));
        let black = [(1, 3), (2, 3), (3, 3), (4, 3), (0, 14), (14, 14), (14, 0), (7, 14)];
        let white = [(8, 10), (9, 10), (10, 10), (11, 10), (12, 6), (12, 7), (12, 8), (12, 9)];
        for (b, w) in black.iter().zip(&white) {
            for &(x, y) in [b, w] {
                game.apply(&mut s, &Move { x, y }).unwrap();
            }
        }
        let params = Params::new(PARAMS, &toml::Table::new(), "test").unwrap();
        let mut bot = WeightsBot::new(weights(&params, "test").unwrap());
        let m = bot.act(&game, &&s, &mut BotRng::seed_from_u64(1));
        assert_eq!((m.x, m.y), (12, 10));
        // With the defence weights scaled down, the same position is won at once.
        let mut w = weights(&params, "test").unwrap();
        w.opp = w.opp.map(|v| v / 4);
        let m = WeightsBot::new(w).act(&game, &&s, &mut BotRng::seed_from_u64(1));
        assert!([(0, 3), (5, 3)].contains(&(m.x, m.y)), "{m:?}");
    }
}
