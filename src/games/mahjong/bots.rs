//! Baselines: `random` (any legal discard, never claims except a win) and `greedy` (discards to
//! minimise shanten, ties by effective tiles still unseen; claims a set when that lowers its
//! shanten; always wins when allowed).

use rand::Rng;

use super::engine::{Action, Mahjong, PhaseView, View};
use super::shanten::{shanten, shanten_each, Around};
use super::tiles::{kinds_in, Counts, Tile, TILE_KINDS};
use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng};

pub const RANDOM: BotKind<Mahjong> = BotKind {
    name: "random",
    about: "any legal discard, uniformly; never claims except a win",
    params: &[],
    make: |_, _| Ok(factory(|| RandomBot)),
};

pub const GREEDY: BotKind<Mahjong> = BotKind {
    name: "greedy",
    about: "discards to minimise shanten (ties: most effective tiles unseen); claims when it lowers shanten",
    params: &[],
    make: |_, _| Ok(factory(|| GreedyBot)),
};

pub struct RandomBot;

impl Bot<Mahjong> for RandomBot {
    fn act(&mut self, _game: &Mahjong, v: &View<'_>, rng: &mut BotRng) -> Action {
        if v.legal.contains(&Action::Win) {
            return Action::Win;
        }
        let discards: Vec<&Action> = v.legal.iter().filter(|a| matches!(a, Action::Discard(_))).collect();
        if discards.is_empty() {
            return Action::Pass;
        }
        *discards[rng.random_range(0..discards.len())]
    }
}

pub struct GreedyBot;

/// Tiles this seat has not seen: 4 − own hand − visible elsewhere.
fn visible(v: &View<'_>) -> Counts {
    *v.seen
}

/// The discard leaving the lowest shanten, then the most unseen effective tiles (lowest kind on
/// a tie), with that shanten.
pub fn best_discard(hand: &Counts, declared: usize, seen: &Counts) -> (Tile, i8) {
    let around = Around::new(hand, declared);
    let shantens = around.each(false);
    let best = *shantens.iter().min().unwrap();
    let ties = (0..TILE_KINDS).filter(|&t| shantens[t] == best).fold(0u64, |m, t| m | 1 << t);
    let first = ties.trailing_zeros() as usize;
    if ties.count_ones() == 1 {
        return (first as Tile, best);
    }
    // Effective tiles of the hand after each tied discard `t`: draws that lower `best`, counted
    // by the copies this seat has not seen (4 − hand after the discard − seen − the discard
    // itself, i.e. 4 − hand − seen: the same for every tie). Kinds with none unseen add nothing,
    // so they are not looked at.
    let unseen = |k: usize| 4u32.saturating_sub(hand[k] as u32 + seen[k] as u32);
    let candidates = (0..TILE_KINDS).filter(|&k| unseen(k) > 0).fold(0u64, |m, k| m | 1 << k);
    // A draw that helps after some discard helps the whole hand too (a hand with more tiles is
    // never farther from complete), so only the draws that improve the whole hand are tried.
    let candidates = around.improving_draws(best, candidates);
    let improving = around.improving_after_discards(ties, best, candidates);
    let mut choice = (first, 0u32);
    for t in kinds_in(ties) {
        let n = kinds_in(improving[t]).map(unseen).sum();
        if n > choice.1 {
            choice = (t, n);
        }
    }
    (choice.0 as Tile, best)
}

/// The lowest shanten reachable by one discard.
fn min_after_discard(hand: &Counts, declared: usize) -> i8 {
    shanten_each(hand, declared, false).into_iter().min().unwrap_or(i8::MAX)
}

impl Bot<Mahjong> for GreedyBot {
    fn act(&mut self, _game: &Mahjong, v: &View<'_>, _rng: &mut BotRng) -> Action {
        if v.legal.contains(&Action::Win) {
            return Action::Win;
        }
        let declared = v.own_melds().len();
        match v.phase {
            PhaseView::Turn { .. } => Action::Discard(best_discard(v.hand, declared, &visible(v)).0),
            PhaseView::RobKong { .. } => Action::Pass,
            PhaseView::Claim { tile, .. } => {
                let now = shanten(v.hand, declared);
                let mut best = (Action::Pass, now);
                for a in &v.legal {
                    let mut h = *v.hand;
                    let t = tile as usize;
                    let after = match *a {
                        Action::Pung => {
                            h[t] -= 2;
                            min_after_discard(&h, declared + 1)
                        }
                        Action::Chow(low) => {
                            for x in (low..low + 3).filter(|&x| x != tile) {
                                h[x as usize] -= 1;
                            }
                            min_after_discard(&h, declared + 1)
                        }
                        _ => continue,
                    };
                    if after < best.1 {
                        best = (*a, after);
                    }
                }
                best.0
            }
        }
    }
}
