//! "search": the document's weights used to pick candidates for a small alpha-beta search.
//!
//! - Candidates: the `width` empty cells with the highest attack + defence (the weights bot's
//!   two scores), best first. The default attack weights (`own`) are bolder than the document's:
//!   against the defensive weights bot, searching its own threats first wins far more games
//!   (200 games, opening 4: 140 wins / 55 draws / 5 losses, against 63 / 136 / 1 with the
//!   document's weights).
//! - A side that can complete five does so; a side facing a five-to-be must block it (two such
//!   cells: lost). A forced block does not use up depth.
//! - At the horizon (`depth` plies) the side to move may stop and take the evaluation, or play
//!   on with moves that make a four (threat extension), so four-sequences are read to the end.
//!   Extensions stop `extend` plies past `depth`.
//! - Evaluation: Σ over the lines the side to move can still win of value[its stones], minus the
//!   same for the opponent.
//! - Renju: black's forbidden points are never candidates, and a five-to-be that black could
//!   only block on one is a loss.
//! - Deterministic: the same position gets the same move (equal candidates: the first found).
//! - A budget, not a clock: a move searches at most `nodes` positions, so it is the same move on
//!   any machine at any load. Within the budget (nearly every move: the default is far above
//!   what depth 3 over 8 cells takes) it plays the move of the fixed-depth search; over it, the
//!   move of the deepest shallower search that fits the budget.
//! - On a clock only when asked (`clock = true`; [`Bot::think_until`], given only by `arena
//!   brain`: the manager's turn time): the search deepens one ply at a time up to `depth` and
//!   also stops at the deadline (checked every [`CHECK_EVERY`] positions), playing the best move
//!   of the deepest search it completed (of the one it stopped, if none). Its moves then depend
//!   on the machine's load.

use std::time::Instant;

use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::{Error, Result};

use super::super::{Gomoku, Move, State};
use super::tally::{Tally, Weights};
use super::weights::{table, MAX_WEIGHT};

/// Widest candidate list (fixed arrays on the stack, no allocation per node).
const MAX_WIDTH: usize = 32;
/// Most positions a search may span, width^depth: 8 plies of 8 cells, or 4 of 32 (a few seconds a
/// move at most; 6 plies of 32 cells took over a minute for one move, so a game would not end).
pub const MAX_TREE: u64 = 1 << 24;
/// A win at ply p scores WIN - p: sooner wins are better, later losses less bad.
const WIN: i32 = 1 << 28;
/// On a clock, positions searched between two looks at it (a look costs more than a position).
pub const CHECK_EVERY: u64 = 256;

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("depth", "3", "plies searched over the candidate cells before the evaluation").range(1.0, 8.0),
    ParamSpec::new("width", "8", "candidate cells per position: the highest attack + defence")
        .range(1.0, MAX_WIDTH as f64),
    ParamSpec::new("extend", "8", "extra plies for forced blocks and fours past the depth").range(0.0, 30.0),
    ParamSpec::new(
        "own",
        "[1, 4, 16, 64, 256]",
        "attack weights that rank the candidates (bolder than the weights bot's)",
    )
    .range(-MAX_WEIGHT, MAX_WEIGHT),
    ParamSpec::new("opp", "[1, 5, 10, 30, 120]", "defence weights that rank the candidates (as the weights bot)")
        .range(-MAX_WEIGHT, MAX_WEIGHT),
    ParamSpec::new("nodes", "1000000", "positions a move may search (the budget: the same move on any machine)")
        .range(1.0, 1e12),
    ParamSpec::new(
        "clock",
        "false",
        "arena brain: also stop at the manager's turn time (moves then depend on the machine's load)",
    ),
    ParamSpec::new(
        "value",
        "[0, 1, 4, 16, 64]",
        "evaluation: worth of a line a side can still win, by its 0..4 stones (own lines minus the opponent's)",
    )
    .range(-MAX_WEIGHT, MAX_WEIGHT),
];

pub const KIND: BotKind<Gomoku> = BotKind {
    name: "search",
    about: "alpha-beta over the weights bot's best cells, with win/block checks and four extensions",
    params: PARAMS,
    make: |p, _| {
        let cfg = Config::from_params(p)?;
        Ok(factory(move || SearchBot { cfg, tally: None, deadline: None }))
    },
};

#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub depth: usize,
    pub width: usize,
    pub extend: usize,
    pub weights: Weights,
    /// Positions a move may search.
    pub nodes: u64,
    /// Whether [`Bot::think_until`]'s deadline is kept.
    pub clock: bool,
}

impl Config {
    pub fn from_params(p: &Params) -> Result<Config> {
        let owner = "bot search";
        let (depth, width) = (p.i64("depth") as u32, p.i64("width") as u64);
        if width.saturating_pow(depth) > MAX_TREE {
            return Err(Error::input(format!(
                "{owner}: width^depth = {width}^{depth} is more than {MAX_TREE} positions a move: lower `depth` or `width`"
            )));
        }
        Ok(Config {
            depth: depth as usize,
            width: width as usize,
            extend: p.i64("extend") as usize,
            nodes: p.i64("nodes") as u64,
            clock: p.bool("clock"),
            weights: Weights {
                own: table(p, "own", owner)?,
                opp: table(p, "opp", owner)?,
                value: table(p, "value", owner)?,
            },
        })
    }
}

pub struct SearchBot {
    cfg: Config,
    tally: Option<Tally>,
    /// The clock of the next decision ([`Bot::think_until`]); `None`: search to `depth`.
    deadline: Option<Instant>,
}

impl Bot<Gomoku> for SearchBot {
    fn act(&mut self, game: &Gomoku, s: &&State, _rng: &mut BotRng) -> Move {
        let w = self.cfg.weights;
        let tally = self.tally.get_or_insert_with(|| Tally::new(s.size, game.rule, w));
        tally.catch_up(s);
        let deadline = self.deadline.take().filter(|_| self.cfg.clock);
        let cfg = self.cfg;
        // One search to `depth` within `budget`: its move, whether it was stopped, its positions.
        let mut search = |depth: usize, budget: u64| {
            let mut search = Search {
                t: &mut *tally,
                cfg,
                max_ply: depth + cfg.extend,
                best: None,
                deadline,
                budget,
                nodes: 0,
                stopped: false,
            };
            search.negamax(s.to_move(), depth, 0, -WIN - 1, WIN + 1);
            (search.best, search.stopped, search.nodes)
        };
        // Without a clock, one search to `depth`, and only when it is over the budget the
        // shallower ones; on a clock, every depth up to it in turn, sharing the budget.
        let (full, deeper) = match deadline {
            None => match search(cfg.depth, cfg.nodes) {
                (best, false, _) => (best, 0),
                (partial, true, _) => (partial, cfg.depth - 1),
            },
            Some(_) => (None, cfg.depth),
        };
        let (mut best, mut left) = (None, cfg.nodes);
        for depth in 1..=deeper {
            let (found, stopped, nodes) = search(depth, left);
            if stopped {
                best = best.or(found);
                break;
            }
            (best, left) = (found, left - nodes);
        }
        let best = match (deadline, deeper) {
            (None, 0) => full,
            (None, _) => best.or(full),
            (Some(_), _) => best,
        };
        // No best move: every empty cell is forbidden (renju), and any move loses.
        let cell = best.unwrap_or_else(|| tally.empties()[0] as usize);
        Move { x: (cell % s.size) as u8, y: (cell / s.size) as u8 }
    }

    fn think_until(&mut self, deadline: Instant) {
        self.deadline = Some(deadline);
    }
}

/// Candidate cells, best first.
struct Candidates {
    cells: [(i32, u16); MAX_WIDTH],
    len: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates { cells: [(0, 0); MAX_WIDTH], len: 0 }
    }

    /// Whether [`Candidates::offer`] would keep `score`.
    #[inline]
    fn takes(&self, score: i32, width: usize) -> bool {
        self.len < width || self.cells[width - 1].0 < score
    }

    /// Keeps the `width` highest scores (earlier cells first among equals).
    #[inline]
    fn offer(&mut self, score: i32, cell: usize, width: usize) {
        if !self.takes(score, width) {
            return;
        }
        let mut i = self.len.min(width - 1);
        while i > 0 && self.cells[i - 1].0 < score {
            self.cells[i] = self.cells[i - 1];
            i -= 1;
        }
        self.cells[i] = (score, cell as u16);
        self.len = (self.len + 1).min(width);
    }

    /// Keeps the first `width` cells that pass `allowed`, in order.
    fn keep(&mut self, width: usize, mut allowed: impl FnMut(usize) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if kept == width {
                break;
            }
            if allowed(self.cells[i].1 as usize) {
                self.cells[kept] = self.cells[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells[..self.len].iter().map(|&(_, c)| c as usize)
    }
}

struct Search<'a> {
    t: &'a mut Tally,
    cfg: Config,
    /// No extension goes past this ply.
    max_ply: usize,
    /// The move chosen at the root.
    best: Option<usize>,
    /// When to stop (`None`: never).
    deadline: Option<Instant>,
    /// Positions it may search.
    budget: u64,
    /// Positions searched.
    nodes: u64,
    /// The budget or the deadline ran out: every value since is meaningless, and the root keeps
    /// its best.
    stopped: bool,
}

impl Search<'_> {
    /// The value of the position for `side` (to move), `depth` plies of full search left.
    fn negamax(&mut self, side: usize, depth: usize, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let late = |nodes: u64, deadline: Option<Instant>| {
            deadline.is_some_and(|d| nodes.is_multiple_of(CHECK_EVERY) && Instant::now() >= d)
        };
        if self.stopped || self.nodes > self.budget || late(self.nodes, self.deadline) {
            self.stopped = true;
            return 0;
        }
        let other = 1 - side;
        let width = self.cfg.width;
        // Renju binds black: the lists are drawn wider, then cut to `width` allowed cells.
        let bound = self.t.binds(side);
        let wide = if bound { MAX_WIDTH.min(2 * width) } else { width };
        let mut threats = 0; // the opponent's winning cells
        let mut blocks = Candidates::new(); // those of them we may play
        let mut ranked = Candidates::new(); // by attack + defence
        let mut fours = Candidates::new(); // moves that make a four, by attack + defence
        let t = &*self.t;
        for &cell in t.empties() {
            let cell = cell as usize;
            if t.wins_at(side, cell) {
                if ply == 0 {
                    self.best = Some(cell);
                }
                return WIN - ply as i32;
            }
            let score = t.own(side, cell) + t.opp(other, cell);
            if t.wins_at(other, cell) {
                threats += 1;
                if !t.forbidden(side, cell) {
                    blocks.offer(score, cell, 2);
                }
            }
            ranked.offer(score, cell, wide);
            if depth == 0 && t.makes_four(side, cell) {
                fours.offer(score, cell, wide);
            }
        }
        if bound {
            // Renju: black's forbidden points leave the lists, judged best first (the judging is
            // the costly part, so only the cells that would be searched are judged).
            ranked.keep(width, |cell| !t.forbidden(side, cell));
            fours.keep(width, |cell| !t.forbidden(side, cell));
        }
        if t.empties().is_empty() {
            return 0;
        }
        if ply == 0 {
            self.best = ranked.iter().next();
        }
        // Two cells to block, or one we may not play: the opponent wins next move whatever we do.
        if threats >= 2 || threats > blocks.len {
            if ply == 0 {
                self.best = blocks.iter().next().or(self.best);
            }
            return -(WIN - ply as i32 - 1);
        }
        let stand_pat = self.t.value(side) - self.t.value(other);
        let (moves, next_depth, mut best) = if blocks.len == 1 {
            if ply >= self.max_ply {
                return stand_pat;
            }
            (&blocks, depth, -WIN - 1)
        } else if depth == 0 {
            if stand_pat >= beta || ply >= self.max_ply {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            (&fours, 0, stand_pat)
        } else {
            (&ranked, depth - 1, -WIN - 1)
        };
        for cell in moves.iter() {
            self.t.put(cell, side);
            let v = -self.negamax(other, next_depth, ply + 1, -beta, -alpha);
            self.t.take(cell, side);
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                if ply == 0 {
                    self.best = Some(cell);
                }
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::core::{Game, Params};
    use crate::games::gomoku::Rule;

    fn bot() -> SearchBot {
        let cfg = Config::from_params(&Params::new(PARAMS, &toml::Table::new(), "test").unwrap()).unwrap();
        SearchBot { cfg, tally: None, deadline: None }
    }

    fn position(black: &[(u8, u8)], white: &[(u8, u8)]) -> (Gomoku, State) {
        let game = Gomoku::new(15, Rule::Freestyle, 0);
        let mut s = game.deal(&mut crate::core::DealRng::seed_from_u64(0));
        for i in 0..black.len().max(white.len()) {
            for (stones, _) in [(black, 0), (white, 1)] {
                if let Some(&(x, y)) = stones.get(i) {
                    game.apply(&mut s, &Move { x, y }).unwrap();
                }
            }
        }
        (game, s)
    }

    fn answer(black: &[(u8, u8)], white: &[(u8, u8)]) -> (u8, u8) {
        let (game, s) = position(black, white);
        let m = bot().act(&game, &&s, &mut BotRng::seed_from_u64(1));
        (m.x, m.y)
    }

    fn bot_with(params: &str) -> SearchBot {
        let table: toml::Table = toml::from_str(params).unwrap();
        let cfg = Config::from_params(&Params::new(PARAMS, &table, "test").unwrap()).unwrap();
        SearchBot { cfg, tally: None, deadline: None }
    }

    /// The budget decides the move, never the clock: over it, the same move every time, and within
    /// it the fixed-depth move; a deadline is kept only with `clock = true`.
    #[test]
    fn the_node_budget_not_the_clock_bounds_a_move() {
        let (game, s) = position(&[(7, 7), (8, 8), (6, 8)], &[(7, 8), (9, 9), (5, 5)]);
        let play = |mut bot: SearchBot, late: bool| {
            if late {
                bot.think_until(Instant::now());
            }
            let m = bot.act(&game, &&s, &mut BotRng::seed_from_u64(1));
            assert_eq!(s.cell(m.x as usize, m.y as usize), 0, "not an empty cell");
            (m.x, m.y)
        };
        let unbounded = play(bot_with("nodes = 1_000_000_000_000"), false);
        assert_eq!(play(bot(), false), unbounded, "the default budget binds at depth 3");
        // A deadline already passed changes nothing without `clock = true`.
        assert_eq!(play(bot(), true), unbounded);
        // A budget too small for depth 3 (a third of what it takes here): the move of a shallower
        // search, the same every time.
        let mut searched = Search {
            t: &mut Tally::new(s.size, game.rule, bot().cfg.weights),
            cfg: bot().cfg,
            max_ply: 3 + 8,
            best: None,
            deadline: None,
            budget: u64::MAX,
            nodes: 0,
            stopped: false,
        };
        searched.t.catch_up(&s);
        searched.negamax(s.to_move(), 3, 0, -WIN - 1, WIN + 1);
        let budget = searched.nodes / 3;
        assert!(budget >= 10, "depth 3 takes {} positions here: too few to cut", searched.nodes);
        let small: Vec<(u8, u8)> = (0..3).map(|_| play(bot_with(&format!("nodes = {budget}")), false)).collect();
        assert!(small.iter().all(|&m| m == small[0]), "{small:?}");
    }

    #[test]
    fn completes_its_own_five_before_blocking() {
        // Black to move: both sides have four; black wins at (5, 3) rather than block (6, 9).
        let black = [(1, 3), (2, 3), (3, 3), (4, 3), (0, 0)];
        let white = [(2, 9), (3, 9), (4, 9), (5, 9), (14, 14)];
        assert_eq!(answer(&black, &white).1, 3);
        assert!([(5, 3), (0, 3)].contains(&answer(&black, &white)));
    }

    #[test]
    fn blocks_a_four() {
        // White to move, black threatens five at (5, 7).
        let black = [(1, 7), (2, 7), (3, 7), (4, 7)];
        let white = [(0, 7), (10, 12), (12, 10)];
        assert_eq!(answer(&black, &white), (5, 7));
    }

    #[test]
    fn makes_an_open_four_from_an_open_three() {
        // Black to move with an open three on row 7: extending it to an open four wins.
        let black = [(6, 7), (7, 7), (8, 7)];
        let white = [(0, 0), (14, 0), (0, 14)];
        let m = answer(&black, &white);
        assert!([(5, 7), (9, 7)].contains(&m), "{m:?}");
    }
}
