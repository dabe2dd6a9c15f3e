//! The patent's opponent model (document 004, after step S16): Monte Carlo hands for the three
//! other seats, turned into the copies each kind has in their hands (g_i), which tiles each seat
//! keeps rather than discards, a discard danger table, and how likely each seat is to be ready.
//!
//! One sample, for each other seat in turn order (the patent's players 1, 2, 3):
//! 1. a shanten drawn from the shanten-by-turn distribution ([`super::turns`]) for this turn and
//!    the seat's declared sets;
//! 2. a count of sets n3 and partial sets n2 with `8 − 2·n3 − n2 = shanten` (the patent's formula
//!    (1) is an image missing from the text; this is the standard shanten of sets and partial
//!    sets), n3 at least the declared sets, n3 + n2 ≤ 5, and the tiles fitting in the seat's
//!    concealed hand; one of the possible pairs uniformly;
//! 3. the concealed sets and then the partial sets, each drawn in proportion to its allocation
//!    degree from the tiles this seat cannot see (shared by the three seats, so a tile given to
//!    one is gone for the next). Degrees (formulas (2)-(5)): how many such combinations the
//!    unseen copies still make — ⌊n/3⌋ for a pung, min(n_a, n_b, n_c) for a chow, ⌊n/2⌋ for a
//!    pair, min(n_a, n_b) for a two-sided, edge or gapped partial — plus the patent's biases:
//!    a suited pung no chow can pass through any more (`alloc_pung_no_chow`), a pung of 1, 2, 8,
//!    9 or an honour (`alloc_edge_pung`), a chow of 3..7 tiles (`alloc_central_chow`); a pair or
//!    partial whose effective tile the seat has discarded gets degree 0 (it is not kept for a tile
//!    that was thrown away). With five blocks, one of the partial sets is a pair (the head).
//!
//! The tiles left unallocated count as the wall (the patent: "unallocated tiles are set as wall
//! tiles"). Averaged over the samples: `held` = g_i, `wants` = the share of samples in which a
//! kind is an effective tile of a seat's partial sets (it would not discard it), `danger` = the
//! patent's discard danger table (for each kind, Σ over seats of `danger_decay`^shanten when the
//! kind is one of the seat's waits), `ready` = the share of samples in which a seat is ready.

use rand::Rng;

use super::turns::{turn_of, Distribution};
use super::Position;
use crate::core::BotRng;
use crate::games::mahjong::tiles::{kinds_in, Counts, TILE_KINDS};

/// The model's constants (every one a parameter of `pruned`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelConfig {
    pub samples: usize,
    pub alloc_pung_no_chow: f64,
    pub alloc_edge_pung: f64,
    pub alloc_central_chow: f64,
    pub danger_decay: f64,
}

/// What the Monte Carlo hands say, averaged over the samples. Opponents are indexed by how many
/// seats after us they sit: 0 = the next seat (right), 1 = across, 2 = the seat before us (left:
/// the only one whose discards we may chow).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// g_i: copies of each kind predicted in the other seats' sets and partial sets.
    pub held: [f64; TILE_KINDS],
    /// Per opponent: the share of samples in which the kind is an effective tile of its partial sets.
    pub wants: [[f64; TILE_KINDS]; 3],
    /// The discard danger table.
    pub danger: [f64; TILE_KINDS],
    /// Per opponent: the share of samples in which it is ready.
    pub ready: [f64; 3],
}

impl Model {
    pub const LEFT: usize = 2;

    /// The threat: the highest chance that one opponent is ready.
    pub fn threat(&self) -> f64 {
        self.ready.iter().copied().fold(0.0, f64::max)
    }
}

/// A block the model can give an opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combo {
    Pung(u8),
    Chow(u8),
    Pair(u8),
    /// Two suited tiles `low` and `low + gap` (gap 1: two-sided or edge; gap 2: gapped).
    Partial {
        low: u8,
        gap: u8,
    },
}

impl Combo {
    fn tiles(self) -> ([u8; 3], usize) {
        match self {
            Combo::Pung(t) => ([t, t, t], 3),
            Combo::Chow(t) => ([t, t + 1, t + 2], 3),
            Combo::Pair(t) => ([t, t, 0], 2),
            Combo::Partial { low, gap } => ([low, low + gap, 0], 2),
        }
    }

    /// Effective tiles of a partial set, as a kind mask.
    fn waits(self) -> u64 {
        match self {
            Combo::Pair(t) => 1 << t,
            Combo::Partial { low, gap: 2 } => 1 << (low + 1),
            Combo::Partial { low, .. } => {
                let r = low % 9;
                let below = if r > 0 { 1u64 << (low - 1) } else { 0 };
                let above = if r < 7 { 1u64 << (low + 2) } else { 0 };
                below | above
            }
            Combo::Pung(_) | Combo::Chow(_) => 0,
        }
    }
}

/// Every set, every partial set (pairs first) and every pair, in kind order.
const SETS: [Combo; 55] = combos(false);
const PARTIALS: [Combo; 79] = combos(true);
const PAIRS: &[Combo] = PARTIALS.split_at(34).0;

const fn combos<const N: usize>(partial: bool) -> [Combo; N] {
    let mut out = [Combo::Pair(0); N];
    let mut i = 0;
    let mut t = 0u8;
    while t < TILE_KINDS as u8 {
        out[i] = if partial { Combo::Pair(t) } else { Combo::Pung(t) };
        i += 1;
        t += 1;
    }
    // Chows or two-sided/edge partial sets, then (partial only) gapped ones.
    let mut pass = 0;
    while pass < 1 + partial as usize {
        let mut t = 0u8;
        while t < 27 {
            let r = t % 9;
            let ok = if partial && pass == 0 { r <= 7 } else { r <= 6 };
            if ok {
                out[i] = match (partial, pass) {
                    (false, _) => Combo::Chow(t),
                    (true, 0) => Combo::Partial { low: t, gap: 1 },
                    _ => Combo::Partial { low: t, gap: 2 },
                };
                i += 1;
            }
            t += 1;
        }
        pass += 1;
    }
    out
}

fn is_edge(t: u8) -> bool {
    t >= 27 || matches!(t % 9, 0 | 1 | 7 | 8)
}

/// Chows through suited `t` that the pool can still make (each needing one `t`).
fn chows_through(t: u8, pool: &Counts) -> u32 {
    if t >= 27 {
        return 0;
    }
    let r = t % 9;
    (r.saturating_sub(2)..=r.min(6))
        .map(|start| {
            let low = t - r + start;
            (low..low + 3).filter(|&x| x != t).map(|x| pool[x as usize] as u32).min().unwrap_or(0)
        })
        .sum()
}

impl ModelConfig {
    /// The allocation degree of `c` for a seat whose discards are `discarded` (a kind mask).
    fn degree(&self, c: Combo, pool: &Counts, discarded: u64) -> f64 {
        let n = |t: u8| pool[t as usize] as u32;
        let (base, bias) = match c {
            Combo::Pung(t) => {
                let mut bias = 0.0;
                if t < 27 && chows_through(t, pool) == 0 {
                    bias += self.alloc_pung_no_chow;
                }
                if is_edge(t) {
                    bias += self.alloc_edge_pung;
                }
                (n(t) / 3, bias)
            }
            Combo::Chow(t) => {
                let central = (2..=4).contains(&(t % 9));
                (n(t).min(n(t + 1)).min(n(t + 2)), if central { self.alloc_central_chow } else { 0.0 })
            }
            Combo::Pair(t) => (n(t) / 2, 0.0),
            Combo::Partial { low, gap } => (n(low).min(n(low + gap)), 0.0),
        };
        if base == 0 || c.waits() & discarded != 0 {
            return 0.0;
        }
        base as f64 + bias
    }
}

/// Draws one of `candidates` in proportion to its degree and takes its tiles from the pool;
/// `None` when no candidate has a positive degree.
fn allocate(
    cfg: &ModelConfig,
    candidates: &[Combo],
    pool: &mut Counts,
    discarded: u64,
    rng: &mut BotRng,
) -> Option<Combo> {
    let mut degrees = [0.0f64; PARTIALS.len()];
    let mut total = 0.0;
    for (d, &c) in degrees.iter_mut().zip(candidates) {
        *d = cfg.degree(c, pool, discarded);
        total += *d;
    }
    if total <= 0.0 {
        return None;
    }
    let mut u = rng.random::<f64>() * total;
    // The last candidate with a positive degree, should rounding leave `u` past every one.
    let mut chosen = None;
    for (&d, &c) in degrees.iter().zip(candidates) {
        if d > 0.0 {
            chosen = Some(c);
            if u < d {
                break;
            }
            u -= d;
        }
    }
    let c = chosen?;
    let (tiles, len) = c.tiles();
    for &t in &tiles[..len] {
        pool[t as usize] -= 1;
    }
    Some(c)
}

/// The (sets, partial sets) counts a hand of `shanten` can have with `declared` sets: the
/// feasible one drawn uniformly, or for an impossible shanten the feasible one nearest to it.
fn block_counts(shanten: usize, declared: usize, rng: &mut BotRng) -> (usize, usize) {
    let concealed = 13 - 3 * declared;
    let mut options = [(0usize, 0usize, 0usize); 5];
    let mut len = 0;
    let mut nearest = (usize::MAX, (declared, 0));
    for n3 in declared..=4 {
        for n2 in 0..=(5 - n3) {
            if 3 * (n3 - declared) + 2 * n2 > concealed {
                continue;
            }
            let s = 8 - 2 * n3 - n2;
            if s == shanten {
                options[len] = (n3, n2, s);
                len += 1;
            }
            let gap = s.abs_diff(shanten);
            if gap < nearest.0 {
                nearest = (gap, (n3, n2));
            }
        }
    }
    if len == 0 {
        return nearest.1;
    }
    let (n3, n2, _) = options[rng.random_range(0..len)];
    (n3, n2)
}

/// Samples the three other seats' hands `cfg.samples` times.
pub fn sample(p: &Position, cfg: &ModelConfig, dist: &Distribution, rng: &mut BotRng) -> Model {
    let unseen = p.unseen();
    let turn = turn_of(p.wall_left);
    let mut m =
        Model { held: [0.0; TILE_KINDS], wants: [[0.0; TILE_KINDS]; 3], danger: [0.0; TILE_KINDS], ready: [0.0; 3] };
    let seats: [usize; 3] = std::array::from_fn(|i| (p.seat + 1 + i) % 4);
    let discarded: [u64; 3] = seats.map(|s| p.discards[s].iter().fold(0u64, |m, &t| m | 1 << t));
    let w = 1.0 / cfg.samples.max(1) as f64;
    for _ in 0..cfg.samples {
        let mut pool = unseen;
        for (i, &seat) in seats.iter().enumerate() {
            let declared = p.declared[seat].min(4);
            let shanten = dist.sample(turn, declared, rng);
            let (n3, n2) = block_counts(shanten, declared, rng);
            let before = pool;
            for _ in declared..n3 {
                if allocate(cfg, &SETS, &mut pool, 0, rng).is_none() {
                    break;
                }
            }
            let mut wants = 0u64;
            for j in 0..n2 {
                let head = j == 0 && n3 + n2 == 5;
                let got = if head {
                    allocate(cfg, PAIRS, &mut pool, discarded[i], rng)
                } else {
                    allocate(cfg, &PARTIALS, &mut pool, discarded[i], rng)
                };
                match got {
                    Some(c) => wants |= c.waits(),
                    None => break,
                }
            }
            for k in 0..TILE_KINDS {
                m.held[k] += (before[k] - pool[k]) as f64 * w;
            }
            let weight = cfg.danger_decay.powi(shanten as i32);
            for k in kinds_in(wants) {
                m.wants[i][k] += w;
                m.danger[k] += weight * w;
            }
            if shanten == 0 {
                m.ready[i] += w;
            }
        }
    }
    m
}

/// Kinds as a mask, for tests and explanations.
#[cfg(test)]
pub fn mask(tiles: &[crate::games::mahjong::tiles::Tile]) -> u64 {
    tiles.iter().fold(0, |m, &t| m | 1 << t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_of_partial_sets() {
        assert_eq!(Combo::Pair(5).waits(), mask(&[5]));
        assert_eq!(Combo::Partial { low: 3, gap: 1 }.waits(), mask(&[2, 5]), "45m waits 36m");
        assert_eq!(Combo::Partial { low: 0, gap: 1 }.waits(), mask(&[2]), "12m waits 3m");
        assert_eq!(Combo::Partial { low: 7, gap: 1 }.waits(), mask(&[6]), "89m waits 7m");
        assert_eq!(Combo::Partial { low: 9, gap: 2 }.waits(), mask(&[10]), "13s waits 2s");
    }

    #[test]
    fn the_combination_lists_hold_each_combination_once() {
        let chows = SETS.iter().filter(|c| matches!(c, Combo::Chow(_))).count();
        assert_eq!((SETS.len(), chows), (55, 21));
        let gapped = PARTIALS.iter().filter(|c| matches!(c, Combo::Partial { gap: 2, .. })).count();
        assert_eq!((PARTIALS.len(), gapped), (34 + 24 + 21, 21));
        assert!(PAIRS.iter().enumerate().all(|(i, &c)| c == Combo::Pair(i as u8)));
        for list in [&SETS[..], &PARTIALS[..]] {
            for (i, a) in list.iter().enumerate() {
                assert!(!list[i + 1..].contains(a), "{a:?} twice");
                let (tiles, n) = a.tiles();
                // Every tile is a kind, and a run stays in its suit.
                assert!(tiles[..n]
                    .iter()
                    .all(|&t| (t as usize) < TILE_KINDS && t / 9 == tiles[0] / 9 || t == tiles[0]));
            }
        }
    }

    #[test]
    fn degrees_follow_the_formulas_and_biases() {
        let cfg = ModelConfig {
            samples: 1,
            alloc_pung_no_chow: 10.0,
            alloc_edge_pung: 100.0,
            alloc_central_chow: 1000.0,
            danger_decay: 0.5,
        };
        let mut pool = [4u8; TILE_KINDS];
        // 5m: 4 copies → ⌊4/3⌋ = 1, chows through it possible, not an edge tile.
        assert_eq!(cfg.degree(Combo::Pung(4), &pool, 0), 1.0);
        // 1m: an edge tile.
        assert_eq!(cfg.degree(Combo::Pung(0), &pool, 0), 101.0);
        // 4m5m6m: central; 1m2m3m is not.
        assert_eq!(cfg.degree(Combo::Chow(3), &pool, 0), 1004.0);
        assert_eq!(cfg.degree(Combo::Chow(0), &pool, 0), 4.0);
        // With every 4m and 6m gone, no chow passes through 5m: the no-chow bias.
        pool[3] = 0;
        pool[5] = 0;
        assert_eq!(cfg.degree(Combo::Pung(4), &pool, 0), 11.0);
        assert_eq!(cfg.degree(Combo::Chow(3), &pool, 0), 0.0, "an impossible chow");
        // Pairs and partial sets: min of the copies, 0 when the seat discarded their wait.
        pool[7] = 3;
        assert_eq!(cfg.degree(Combo::Pair(7), &pool, 0), 1.0);
        assert_eq!(cfg.degree(Combo::Pair(7), &pool, mask(&[7])), 0.0);
        assert_eq!(cfg.degree(Combo::Partial { low: 7, gap: 1 }, &pool, 0), 3.0);
        assert_eq!(cfg.degree(Combo::Partial { low: 7, gap: 1 }, &pool, mask(&[6])), 0.0);
        // Honours: no chow bias (the patent's case is suited), the edge bias applies.
        assert_eq!(cfg.degree(Combo::Pung(30), &pool, 0), 101.0);
    }

    #[test]
    fn block_counts_meet_the_shanten_formula() {
        let mut rng = <BotRng as rand::SeedableRng>::seed_from_u64(3);
        for declared in 0..=4 {
            for s in 0..=8usize {
                for _ in 0..20 {
                    let (n3, n2) = block_counts(s, declared, &mut rng);
                    assert!(n3 >= declared && n3 + n2 <= 5 && 3 * (n3 - declared) + 2 * n2 <= 13 - 3 * declared);
                    if s <= 8 - 2 * declared {
                        assert_eq!(8 - 2 * n3 - n2, s, "declared {declared}");
                    }
                }
            }
        }
    }
}
