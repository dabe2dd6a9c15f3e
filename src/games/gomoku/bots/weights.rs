//! The document's AI ("weights"): every empty cell gets an attack score (the lines through it
//! the bot can still win, weighted by the bot's stones in them) and a defence score (the same
//! for the opponent). Play the best attack, unless the best defence is higher. Under renju, black
//! passes over its forbidden points. [`cell_scores`] and [`best_cells`] are what the bot plays by,
//! and what `arena advise gomoku` shows.

use rand::Rng;

use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::{Error, Result};

use super::super::{Gomoku, Move, Rule, State};
pub use super::tally::Weights;
use super::tally::{LineTable, Tally};

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

/// The bot's weights from its checked parameters (`own`, `opp`).
pub fn weights(p: &Params, owner: &str) -> Result<Weights> {
    Ok(Weights { own: table(p, "own", owner)?, opp: table(p, "opp", owner)?, value: [0; 6] })
}

/// An empty cell the side to move may play, scored as the document scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellScore {
    /// Row-major index.
    pub cell: usize,
    /// Σ W_own[the mover's stones] over the lines through the cell the mover can still win.
    pub attack: i32,
    /// Σ W_opp[the opponent's stones] over the lines through the cell the opponent can still win.
    pub defence: i32,
}

impl CellScore {
    /// The document's choice as one order, highest first. The rule: "the best attack, unless the
    /// best defence is higher; ties by the other score". A cell ranks by its larger score, attack
    /// before defence when they are equal, then by its smaller score. Equivalent: if the best
    /// defence D beats the best attack A, the cells whose larger score is D are exactly those with
    /// defence D, ranked by attack; otherwise the cells with attack A come first (a cell with
    /// defence A but less attack follows them), ranked by defence. Checked against the rule
    /// written out in the tests.
    pub fn rank(&self) -> (i32, bool, i32) {
        (self.attack.max(self.defence), self.attack >= self.defence, self.attack.min(self.defence))
    }
}

/// Every empty cell the side to move may play (under renju black skips its forbidden points),
/// with its attack and defence, in the tally's order of empty cells: the order the bot draws its
/// ties from.
fn scores(tally: &Tally, me: usize) -> impl Iterator<Item = CellScore> + '_ {
    let (own, opp) = (tally.own_scores(me), tally.opp_scores(1 - me));
    tally
        .empties()
        .iter()
        .map(|&cell| cell as usize)
        .filter(move |&cell| !tally.forbidden(me, cell))
        .map(move |cell| CellScore { cell, attack: own[cell], defence: opp[cell] })
}

/// What the bot with weights `w` computes on `s` (not over): every cell the side to move may
/// play with its scores, in the order the bot draws ties from. `arena advise gomoku` shows it.
pub fn cell_scores(game: &Gomoku, s: &State, w: Weights) -> Vec<CellScore> {
    let mut tally = Tally::new(s.size, game.rule, w);
    tally.catch_up(s);
    scores(&tally, s.to_move()).collect()
}

/// The cells of `scores` the bot chooses among (at random): those of the highest
/// [`CellScore::rank`], in the order given.
pub fn best_cells(scores: impl IntoIterator<Item = CellScore>, ties: &mut Vec<usize>) {
    ties.clear();
    let mut top = None;
    for c in scores {
        let rank = Some(c.rank());
        if rank > top {
            top = rank;
            ties.clear();
        }
        if rank == top {
            ties.push(c.cell);
        }
    }
}

/// The lines through `cell` that `side` can still win under `rule` (no stone of the other side,
/// and the rule's look past the ends: see [`super::tally`]), grouped by the side's stones in
/// them, most first: how the cell's attack (with `W_own`, for the mover) or defence (with
/// `W_opp`, for the opponent) is formed, term by term.
pub fn lines_through(s: &State, rule: Rule, cell: usize, side: usize) -> Vec<(usize, Vec<[u16; 5]>)> {
    let (mine, theirs) = (1 + side as u8, 2 - side as u8);
    let mut groups: Vec<(usize, Vec<[u16; 5]>)> = (0..=5).rev().map(|k| (k, Vec::new())).collect();
    let table = LineTable::get(s.size);
    for &l in table.through(cell) {
        let line = table.cells[l as usize];
        let past = table.ends[l as usize].map(|c| c.map(|c| s.board[c as usize]));
        let overline = rule.exact_five(mine) && past.contains(&Some(mine));
        let blocked = rule.blocked_fives_lose() && past == [Some(theirs); 2];
        if line.iter().all(|&c| s.board[c as usize] != theirs) && !overline && !blocked {
            let stones = line.iter().filter(|&&c| s.board[c as usize] == mine).count();
            groups[5 - stones].1.push(line);
        }
    }
    groups.retain(|(_, lines)| !lines.is_empty());
    groups
}

pub struct WeightsBot {
    /// Built on the first look at a game (the board size and rule come with it).
    tally: Option<Tally>,
    w: Weights,
    /// Cells sharing the best rank (a buffer reused from move to move).
    ties: Vec<usize>,
}

impl WeightsBot {
    pub fn new(w: Weights) -> WeightsBot {
        WeightsBot { tally: None, w, ties: Vec::new() }
    }
}

impl Bot<Gomoku> for WeightsBot {
    fn act(&mut self, game: &Gomoku, s: &&State, rng: &mut BotRng) -> Move {
        let w = self.w;
        let tally = self.tally.get_or_insert_with(|| Tally::new(s.size, game.rule, w));
        tally.catch_up(s);
        best_cells(scores(tally, s.to_move()), &mut self.ties);
        // Every empty cell forbidden (renju, a nearly full board): any move loses.
        let cell = match self.ties.len() {
            0 => tally.empties()[0] as usize,
            n => self.ties[rng.random_range(0..n)],
        };
        Move { x: (cell % s.size) as u8, y: (cell / s.size) as u8 }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::Game;

    /// The rules file's choice written out: the cells of the best attack (ties by defence), or
    /// those of the best defence (ties by attack) when it is higher, in the order given.
    fn the_rule(scores: &[CellScore]) -> Vec<usize> {
        let best = |key: fn(&CellScore) -> (i32, i32)| {
            let top = scores.iter().map(key).max().unwrap();
            let cells = scores.iter().filter(|c| key(c) == top).map(|c| c.cell).collect::<Vec<_>>();
            (top.0, cells)
        };
        let (attack, attack_cells) = best(|c| (c.attack, c.defence));
        let (defence, defence_cells) = best(|c| (c.defence, c.attack));
        if defence > attack {
            defence_cells
        } else {
            attack_cells
        }
    }

    /// [`CellScore::rank`] picks the same cells, in the same order, as the rule: on random
    /// scores from a small range (many ties, equal best attack and defence) and random weights
    /// of either sign.
    #[test]
    fn the_rank_is_the_documents_rule() {
        let mut rng = BotRng::seed_from_u64(7);
        let mut ties = Vec::new();
        for round in 0..20_000 {
            let spread = [3, 6, 40][round % 3];
            let scores: Vec<CellScore> = (0..rng.random_range(1..12))
                .map(|cell| CellScore {
                    cell,
                    attack: rng.random_range(-spread..=spread),
                    defence: rng.random_range(-spread..=spread),
                })
                .collect();
            best_cells(scores.iter().copied(), &mut ties);
            assert_eq!(ties, the_rule(&scores), "{scores:?}");
        }
    }

    /// The document's rule has no "win first": a bot that can make five still blocks when the
    /// opponent's best cell scores higher. Black to move has an open four on row 3 (five at 0,3 or
    /// 5,3: attack about 190), and white two fours through 12,10 (defence about 330), so the
    /// document's bot blocks at 12,10 and passes up its win in one.
    #[test]
    fn passes_up_a_win_in_one_when_the_defence_scores_higher() {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let mut s = game.deal(&mut crate::core::DealRng::seed_from_u64(0));
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
