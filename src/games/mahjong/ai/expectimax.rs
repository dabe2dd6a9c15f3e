//! `expectimax`: the full tree the patent compares against. Discard nodes try every distinct tile
//! held (max); draw nodes try every kind still unseen, weighted by its copies left (expectation);
//! `depth` draw/discard cycles. A drawn tile that completes a hand with at least the minimum fans
//! is a win worth `fans + win_bonus`; a leaf that is not a win is worth
//! `ready_value × decay^shanten` (shanten of the 14 tiles, a complete hand below the minimum
//! counting as ready).
//!
//! Copies left at a node = 4 − seen at the root − held at the node: the tree's own discards count
//! as unseen again. That keeps a node's value a function of its hand and depth, so the memo (on
//! the packed counts) is exact for the model, and nothing is pruned. The last draw layer is one
//! `shanten_each` call (the shanten after every possible draw at once); fans are computed only
//! for draws that complete the hand.
//!
//! Claims compare the value with the claim (the discard node after it) against without (the draw
//! node of the hand as it is); kongs are made when they do not lower the value. Wins are always
//! taken when legal.

use super::{after_claim, pack, self_drawn_fans, Memo, Position};
use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::games::mahjong::engine::{Action, Mahjong, PhaseView, View};
use crate::games::mahjong::shanten::{shanten, shanten_each};
use crate::games::mahjong::tiles::{Counts, Meld, MeldKind, Tile, TILE_KINDS};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("depth", "2", "draw/discard cycles searched (capped by the draws left)").range(1.0, 4.0),
    ParamSpec::new("win_bonus", "8.0", "value of a win = fans + win_bonus (each payer pays fans + 8)")
        .range(0.0, 1000.0),
    ParamSpec::new("ready_value", "4.0", "value of a leaf at shanten 0 (ready) that is not a win").range(0.0, 1000.0),
    ParamSpec::new("decay", "0.3", "leaf value factor per shanten step: ready_value × decay^shanten").range(0.0, 1.0),
];

pub const KIND: BotKind<Mahjong> = BotKind {
    name: "expectimax",
    about: "expectimax over every discard and every unseen draw, depth cycles, fan-scored wins",
    params: PARAMS,
    make: |p, _| {
        let cfg = Config::from_params(p);
        Ok(factory(move || Expectimax::new(cfg)))
    },
};

#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub depth: u32,
    pub win_bonus: f64,
    pub ready_value: f64,
    pub decay: f64,
}

impl Config {
    /// The config of checked parameters (their ranges are in [`PARAMS`]).
    pub fn from_params(p: &Params) -> Config {
        Config {
            depth: p.i64("depth") as u32,
            win_bonus: p.f64("win_bonus"),
            ready_value: p.f64("ready_value"),
            decay: p.f64("decay"),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config { depth: 2, win_bonus: 8.0, ready_value: 4.0, decay: 0.3 }
    }
}

pub struct Expectimax {
    pub cfg: Config,
    memo: Memo,
}

/// One search: the fixed parts of the position and the memo.
pub struct Search<'a> {
    pub cfg: &'a Config,
    pub melds: &'a [Meld],
    pub seen: &'a Counts,
    pub seat: usize,
    pub min_fans: u32,
    pub memo: &'a mut Memo,
}

const DRAW_NODE: u128 = 1 << 127;

impl Search<'_> {
    fn declared(&self) -> usize {
        self.melds.len()
    }

    fn copies_left(&self, h: &Counts, k: usize) -> u32 {
        4u32.saturating_sub(self.seen[k] as u32 + h[k] as u32)
    }

    fn estimate(&self, shanten: i8) -> f64 {
        self.cfg.ready_value * self.cfg.decay.powi(shanten.max(0) as i32)
    }

    /// A 3n+1 hand about to draw, with `d ≥ 1` draws to go.
    pub fn draw_node(&mut self, h: &mut Counts, d: u32) -> f64 {
        let key = pack(h) | (d as u128) << 110 | DRAW_NODE;
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let after = shanten_each(h, self.declared(), true);
        let (mut sum, mut total) = (0.0, 0u32);
        for k in 0..TILE_KINDS {
            let n = self.copies_left(h, k);
            if n == 0 {
                continue;
            }
            total += n;
            let v = if after[k] == -1 {
                match self_drawn_fans(self.melds, h, k as Tile, self.seat, self.min_fans) {
                    Some(f) => f as f64 + self.cfg.win_bonus,
                    None => self.next(h, k, d, 0),
                }
            } else {
                self.next(h, k, d, after[k])
            };
            sum += n as f64 * v;
        }
        let v = if total == 0 { self.estimate(shanten(h, self.declared())) } else { sum / total as f64 };
        self.memo.insert(key, v);
        v
    }

    /// After drawing `k` (not a win): the leaf estimate, or the discard node below.
    fn next(&mut self, h: &mut Counts, k: usize, d: u32, shanten_after: i8) -> f64 {
        if d == 1 {
            return self.estimate(shanten_after);
        }
        h[k] += 1;
        let v = self.discard_node(h, d - 1).0;
        h[k] -= 1;
        v
    }

    /// A 3n+2 hand choosing its discard, `d ≥ 1` draws to go after it: (value, best tile).
    pub fn discard_node(&mut self, h: &mut Counts, d: u32) -> (f64, Tile) {
        let mut best = (f64::NEG_INFINITY, 0);
        for t in 0..TILE_KINDS {
            if h[t] == 0 {
                continue;
            }
            h[t] -= 1;
            let v = self.draw_node(h, d);
            h[t] += 1;
            if v > best.0 {
                best = (v, t as Tile);
            }
        }
        best
    }
}

impl Expectimax {
    pub fn new(cfg: Config) -> Expectimax {
        Expectimax { cfg, memo: Memo::default() }
    }

    fn depth(&self, p: &Position) -> u32 {
        self.cfg.depth.min(p.draws_left().max(1) as u32)
    }

    fn search<'a>(&'a mut self, p: &'a Position, melds: &'a [Meld], min_fans: u32) -> Search<'a> {
        Search { cfg: &self.cfg, melds, seen: &p.seen, seat: p.seat, min_fans, memo: &mut self.memo }
    }

    /// The discard of a 3n+2 hand and its value.
    pub fn choose_discard(&mut self, p: &Position, min_fans: u32) -> (Tile, f64) {
        self.memo.clear();
        let d = self.depth(p);
        let mut h = p.hand;
        let (v, t) = self.search(p, &p.melds, min_fans).discard_node(&mut h, d);
        (t, v)
    }

    /// Value of a 3n+1 hand waiting for its draw (`hand`, `melds` may differ from the position's).
    fn value_waiting(&mut self, p: &Position, hand: &Counts, melds: &[Meld], min_fans: u32) -> f64 {
        self.memo.clear();
        let d = self.depth(p);
        let mut h = *hand;
        self.search(p, melds, min_fans).draw_node(&mut h, d)
    }

    fn value_discarding(&mut self, p: &Position, hand: &Counts, melds: &[Meld], min_fans: u32) -> f64 {
        self.memo.clear();
        let d = self.depth(p);
        let mut h = *hand;
        self.search(p, melds, min_fans).discard_node(&mut h, d).0
    }

    pub fn decide(&mut self, p: &Position, phase: PhaseView, legal: &[Action], min_fans: u32) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        match phase {
            PhaseView::Turn { .. } => {
                let (t, v) = self.choose_discard(p, min_fans);
                // A kong is made when it does not lower the value (a replacement draw follows).
                for a in legal {
                    let (hand, melds) = match *a {
                        Action::ConcealedKong(k) => {
                            let mut h = p.hand;
                            h[k as usize] -= 4;
                            (h, with_meld(&p.melds, Meld { kind: MeldKind::ConcealedKong, tile: k }))
                        }
                        Action::AddedKong(k) => {
                            let mut h = p.hand;
                            h[k as usize] -= 1;
                            let mut m = p.melds.clone();
                            if let Some(x) = m.iter_mut().find(|m| m.kind == MeldKind::Pung && m.tile == k) {
                                x.kind = MeldKind::Kong;
                            }
                            (h, m)
                        }
                        _ => continue,
                    };
                    if self.value_waiting(p, &hand, &melds, min_fans) >= v {
                        return *a;
                    }
                }
                Action::Discard(t)
            }
            PhaseView::RobKong { .. } => Action::Pass,
            PhaseView::Claim { tile, .. } => {
                let without = self.value_waiting(p, &p.hand, &p.melds, min_fans);
                let mut best = (Action::Pass, without);
                for a in legal {
                    let meld = match *a {
                        Action::Pung => Meld { kind: MeldKind::Pung, tile },
                        Action::Kong => Meld { kind: MeldKind::Kong, tile },
                        Action::Chow(low) => Meld { kind: MeldKind::Chow, tile: low },
                        _ => continue,
                    };
                    let hand = after_claim(&p.hand, meld, tile);
                    let melds = with_meld(&p.melds, meld);
                    let v = if meld.kind == MeldKind::Kong {
                        self.value_waiting(p, &hand, &melds, min_fans)
                    } else {
                        self.value_discarding(p, &hand, &melds, min_fans)
                    };
                    let better = if meld.kind == MeldKind::Kong { v >= best.1 } else { v > best.1 };
                    if better {
                        best = (*a, v);
                    }
                }
                best.0
            }
        }
    }
}

fn with_meld(melds: &[Meld], m: Meld) -> Vec<Meld> {
    let mut v = melds.to_vec();
    v.push(m);
    v
}

impl Bot<Mahjong> for Expectimax {
    fn act(&mut self, game: &Mahjong, v: &View<'_>, _rng: &mut BotRng) -> Action {
        super::act(v, |p| self.decide(p, v.phase, &v.legal, game.min_fans))
    }
}
