//! `pruned`: the patent's method, steps 1-6 of the rules file.
//!
//! 1. Enumerate the arrangements of the standing tiles into blocks: pung, chow, pair, two-sided,
//!    gapped, edge, isolated tile; an arrangement's weight is the sum of its blocks' weights.
//! 2. Drop arrangements whose shanten (from their blocks) is more than `shanten_slack` above the
//!    hand's standard shanten.
//! 3. Keep the `keep` highest-weight arrangements.
//! 4. For each, the paths to a complete hand: a head (a pair, or an isolated tile that gets its
//!    second copy) and enough blocks completed to make the sets, each by the effective tiles it
//!    lacks (a two-sided wait gives two paths); the tiles of the other blocks are the path's
//!    discards. At most `max_paths` paths per arrangement.
//! 5. A path's value E = P(win) × score: P = the product over the needed kinds of the
//!    hypergeometric chance of drawing at least the copies needed in the draws left, from the
//!    unseen tiles (copies left = 4 − seen − held); zero when more tiles are needed than draws are
//!    left. Score = the fans of the finished hand (fan calculator, self-drawn); a finished hand
//!    below the minimum is not a win and scores only `below_min` × its fans (so shapes that may
//!    still grow fans are not all worth zero).
//! 6. A discard's value is the sum of E over the paths that discard it; the highest is played (no
//!    path: the greedy discard). Claims compare the best path value before and after (kongs when
//!    not lower). Fold: when the shanten is above what the draws left allow, or an opponent with
//!    `threat_melds` declared sets is judged ready and our shanten is at least `fold_shanten`,
//!    discard the least dangerous tile (0 when the threatening seats discarded it themselves,
//!    else by kind: honour by its live copies, terminal, simple).

use super::{after_claim, hand_fans, pack, KeySet, Position};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::error::Result;
use crate::games::mahjong::bots::best_discard;
use crate::games::mahjong::engine::{Action, Mahjong, PhaseView, View};
use crate::games::mahjong::shanten::{shanten, shanten_standard};
use crate::games::mahjong::tiles::{is_honor, Counts, Meld, MeldKind, Tile, KINDS};
use crate::games::{factory, BotKind};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("w_pung", "25.0", "arrangement weight of a pung"),
    ParamSpec::new("w_chow", "10.0", "arrangement weight of a chow"),
    ParamSpec::new("w_pair", "6.0", "arrangement weight of a pair"),
    ParamSpec::new("w_two_sided", "4.0", "arrangement weight of a two-sided partial (e.g. 45)"),
    ParamSpec::new("w_gapped", "3.0", "arrangement weight of a gapped partial (e.g. 46)"),
    ParamSpec::new("w_edge", "2.0", "arrangement weight of an edge partial (12 or 89)"),
    ParamSpec::new("w_isolated", "0.0", "arrangement weight of an isolated suited tile"),
    ParamSpec::new("w_isolated_honour", "0.0", "arrangement weight of an isolated honour"),
    ParamSpec::new("shanten_slack", "1", "keep arrangements at most this far above the hand's shanten"),
    ParamSpec::new("keep", "6", "arrangements kept (highest weight)"),
    ParamSpec::new("max_paths", "48", "paths expanded per arrangement"),
    ParamSpec::new("below_min", "0.1", "score factor of a finished hand below the fan minimum"),
    ParamSpec::new("claim_margin", "1.0", "claim a chow/pung when the value after > value before × this"),
    ParamSpec::new("fold", "true", "fold to the least dangerous tile when hopeless"),
    ParamSpec::new("threat_melds", "3", "an opponent with this many declared sets is judged ready"),
    ParamSpec::new("fold_shanten", "2", "fold against a ready opponent from this shanten up"),
    ParamSpec::new("danger_honour", "1.0", "danger of an honour, × live copies / 3"),
    ParamSpec::new("danger_terminal", "2.0", "danger of a 1 or 9"),
    ParamSpec::new("danger_simple", "4.0", "danger of a 2..8"),
];

pub const KIND: BotKind<Mahjong> = BotKind {
    name: "pruned",
    about: "the patent's search: weighted arrangements, effective-tile paths valued P(win) x fans, folding",
    params: PARAMS,
    make: |p, _| {
        let cfg = Config::from_params(p)?;
        Ok(factory(move || Pruned::new(cfg)))
    },
};

/// Block kinds, in the order of the weights table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Pung,
    Chow,
    Pair,
    TwoSided,
    Gapped,
    Edge,
    Isolated,
}

/// A block and its lowest tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: BlockKind,
    pub tile: Tile,
}

impl Block {
    fn tiles(&self) -> ([Tile; 3], usize) {
        let t = self.tile;
        match self.kind {
            BlockKind::Pung => ([t, t, t], 3),
            BlockKind::Chow => ([t, t + 1, t + 2], 3),
            BlockKind::Pair => ([t, t, 0], 2),
            BlockKind::TwoSided | BlockKind::Edge => ([t, t + 1, 0], 2),
            BlockKind::Gapped => ([t, t + 2, 0], 2),
            BlockKind::Isolated => ([t, 0, 0], 1),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Weights by [`BlockKind`] (isolated suited; the honour weight is separate).
    pub weights: [f64; 7],
    pub w_isolated_honour: f64,
    pub shanten_slack: i8,
    pub keep: usize,
    pub max_paths: usize,
    pub below_min: f64,
    pub claim_margin: f64,
    pub fold: bool,
    pub threat_melds: usize,
    pub fold_shanten: i8,
    pub danger: [f64; 3],
}

pub const MAX_KEEP: usize = 32;

impl Config {
    pub fn from_params(p: &Params) -> Result<Config> {
        let o = "bot pruned";
        Ok(Config {
            weights: ["w_pung", "w_chow", "w_pair", "w_two_sided", "w_gapped", "w_edge", "w_isolated"]
                .map(|n| p.f64(n)),
            w_isolated_honour: p.f64("w_isolated_honour"),
            shanten_slack: p.int_in("shanten_slack", 0, 8, o)? as i8,
            keep: p.int_in("keep", 1, MAX_KEEP as i64, o)? as usize,
            max_paths: p.int_in("max_paths", 1, 10_000, o)? as usize,
            below_min: p.f64("below_min"),
            claim_margin: p.f64("claim_margin"),
            fold: p.bool("fold"),
            threat_melds: p.int_in("threat_melds", 1, 4, o)? as usize,
            fold_shanten: p.int_in("fold_shanten", 0, 8, o)? as i8,
            danger: ["danger_honour", "danger_terminal", "danger_simple"].map(|n| p.f64(n)),
        })
    }
}

impl Default for Config {
    fn default() -> Self {
        let specs: toml::Table = toml::Table::new();
        Config::from_params(&Params::new(PARAMS, &specs, "bot pruned").expect("defaults")).expect("defaults")
    }
}

/// One arrangement: its blocks, weight and shanten.
#[derive(Clone, Copy, Debug)]
pub struct Arrangement {
    pub blocks: [Block; 14],
    pub len: usize,
    pub weight: f64,
    pub shanten: i8,
}

/// One path (for explanations): the tiles it needs and discards, and its value.
#[derive(Clone, Debug)]
pub struct PathInfo {
    pub needs: Vec<Tile>,
    pub discards: Vec<Tile>,
    pub p_win: f64,
    pub score: f64,
    pub value: f64,
}

/// What one analysis found.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Sum of E over the paths discarding each kind.
    pub discard_value: [f64; KINDS],
    /// The best single path value.
    pub best_path: f64,
    pub paths: usize,
}

/// The inputs an analysis needs besides the hand.
pub struct Table<'a> {
    pub melds: &'a [Meld],
    pub unseen: &'a Counts,
    pub draws_left: usize,
    pub seat: usize,
    pub min_fans: u32,
}

/// P(at least `c` of the `k` copies among `draws` tiles drawn from `n` unseen tiles).
pub fn p_at_least(c: u32, n: u32, k: u32, draws: u32) -> f64 {
    if c == 0 {
        return 1.0;
    }
    if k < c || draws < c || n == 0 {
        return 0.0;
    }
    let draws = draws.min(n);
    // 1 − Σ_{j<c} C(k,j) C(n−k, draws−j) / C(n, draws).
    let total = ln_choose(n, draws);
    let mut below = 0.0;
    for j in 0..c {
        if j > k || j > draws || draws - j > n - k {
            continue;
        }
        below += (ln_choose(k, j) + ln_choose(n - k, draws - j) - total).exp();
    }
    (1.0 - below).clamp(0.0, 1.0)
}

fn ln_choose(n: u32, k: u32) -> f64 {
    let k = k.min(n - k);
    (0..k).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum()
}

pub struct Pruned {
    pub cfg: Config,
    kept: Vec<Arrangement>,
    /// P(≥ c copies) by c = 1, 2 and copies left 0..=4, for the current decision.
    p_table: [[f64; 5]; 3],
    explain: Option<Vec<PathInfo>>,
    /// Paths already valued in this analysis: two arrangements can lead to the same path (same
    /// final hand, same discards), which counts once.
    done: KeySet,
}

impl Pruned {
    pub fn new(cfg: Config) -> Pruned {
        Pruned {
            cfg,
            kept: Vec::with_capacity(MAX_KEEP + 1),
            p_table: [[0.0; 5]; 3],
            explain: None,
            done: KeySet::default(),
        }
    }

    /// Records every path of the next analyses (for `advise --explain`).
    pub fn record_paths(&mut self) {
        self.explain = Some(Vec::new());
    }

    pub fn recorded_paths(&mut self) -> Vec<PathInfo> {
        self.explain.take().unwrap_or_default()
    }

    /// The shanten of the arrangements kept by the last analysis.
    pub fn kept_shantens(&self) -> Vec<i8> {
        self.kept.iter().map(|a| a.shanten).collect()
    }

    /// The kept arrangements of the last analysis.
    pub fn kept(&self) -> &[Arrangement] {
        &self.kept
    }

    fn weight(&self, b: Block) -> f64 {
        if b.kind == BlockKind::Isolated && is_honor(b.tile) {
            self.cfg.w_isolated_honour
        } else {
            self.cfg.weights[b.kind as usize]
        }
    }

    /// Steps 1-3: the kept arrangements of `h` in `self.kept`, highest weight first.
    fn arrange(&mut self, h: &Counts, declared: usize) {
        self.kept.clear();
        let limit = shanten_standard(h, declared) + self.cfg.shanten_slack;
        let mut a =
            Arrangement { blocks: [Block { kind: BlockKind::Isolated, tile: 0 }; 14], len: 0, weight: 0.0, shanten: 0 };
        let mut c = *h;
        self.enumerate(&mut c, 0, &mut a, declared, limit);
    }

    fn enumerate(&mut self, c: &mut Counts, from: usize, a: &mut Arrangement, declared: usize, limit: i8) {
        let Some(t) = (from..KINDS).find(|&k| c[k] > 0) else {
            a.shanten = arrangement_shanten(a, declared);
            if a.shanten <= limit {
                self.keep(*a);
            }
            return;
        };
        let suited = t < 27;
        let r = t % 9;
        let options: [(BlockKind, bool); 7] = [
            (BlockKind::Pung, c[t] >= 3),
            (BlockKind::Chow, suited && r <= 6 && c[t + 1] > 0 && c[t + 2] > 0),
            (BlockKind::Pair, c[t] >= 2),
            (BlockKind::TwoSided, suited && (1..=6).contains(&r) && c[t + 1] > 0),
            (BlockKind::Edge, suited && (r == 0 || r == 7) && c[t + 1] > 0),
            (BlockKind::Gapped, suited && r <= 6 && c[t + 2] > 0),
            (BlockKind::Isolated, true),
        ];
        for (kind, ok) in options {
            if !ok {
                continue;
            }
            let b = Block { kind, tile: t as Tile };
            let (tiles, n) = b.tiles();
            for &x in &tiles[..n] {
                c[x as usize] -= 1;
            }
            let w = self.weight(b);
            a.blocks[a.len] = b;
            a.len += 1;
            a.weight += w;
            self.enumerate(c, t, a, declared, limit);
            a.len -= 1;
            a.weight -= w;
            for &x in &tiles[..n] {
                c[x as usize] += 1;
            }
        }
    }

    /// Inserts into the top-`keep` list (stable: earlier arrangements win ties).
    fn keep(&mut self, a: Arrangement) {
        let pos = self.kept.iter().position(|k| a.weight > k.weight).unwrap_or(self.kept.len());
        if pos < self.cfg.keep {
            self.kept.insert(pos, a);
            self.kept.truncate(self.cfg.keep);
        }
    }

    /// Steps 1-6 for a hand of 3n+2 (discard values) or 3n+1 (best path only) standing tiles.
    pub fn analyse(&mut self, h: &Counts, t: &Table) -> Analysis {
        let n: u32 = t.unseen.iter().map(|&x| x as u32).sum();
        for c in 1..=2u32 {
            for k in 0..=4u32 {
                self.p_table[c as usize][k as usize] = p_at_least(c, n, k, t.draws_left as u32);
            }
        }
        self.arrange(h, t.melds.len());
        self.done.clear();
        let mut out = Analysis { discard_value: [0.0; KINDS], best_path: 0.0, paths: 0 };
        for i in 0..self.kept.len() {
            let a = self.kept[i];
            self.paths_of(&a, h, t, &mut out);
        }
        out
    }

    /// Step 4-6 for one arrangement: head choices, then which blocks become sets.
    fn paths_of(&mut self, a: &Arrangement, h: &Counts, t: &Table, out: &mut Analysis) {
        let sets = a.blocks[..a.len].iter().filter(|b| matches!(b.kind, BlockKind::Pung | BlockKind::Chow)).count();
        let needed = (4 - t.melds.len()).saturating_sub(sets);
        let has_pair = a.blocks[..a.len].iter().any(|b| b.kind == BlockKind::Pair);
        let mut budget = self.cfg.max_paths;
        for head in 0..a.len {
            let b = a.blocks[head];
            let ok = b.kind == BlockKind::Pair || (!has_pair && b.kind == BlockKind::Isolated);
            if !ok || budget == 0 {
                continue;
            }
            let mut needs = Needs::default();
            if b.kind == BlockKind::Isolated {
                needs.push(b.tile);
            }
            let mut chosen = 1u16 << head;
            self.choose(a, h, t, needed, 0, &mut chosen, &mut needs, &mut budget, out);
        }
    }

    /// Chooses `left` more blocks (from index `i`, not the head) to complete.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        a: &Arrangement,
        h: &Counts,
        t: &Table,
        left: usize,
        i: usize,
        chosen: &mut u16,
        needs: &mut Needs,
        budget: &mut usize,
        out: &mut Analysis,
    ) {
        if *budget == 0 {
            return;
        }
        if left == 0 {
            *budget -= 1;
            self.finish(a, h, t, *chosen, needs, out);
            return;
        }
        if i >= a.len {
            return;
        }
        let b = a.blocks[i];
        let free = *chosen >> i & 1 == 0 && !matches!(b.kind, BlockKind::Pung | BlockKind::Chow);
        if free {
            let r = b.tile % 9;
            let mut alts = [[0u8; 2]; 2];
            let n_alts: usize;
            let per: usize;
            match b.kind {
                BlockKind::Pair | BlockKind::Isolated => {
                    per = if b.kind == BlockKind::Pair { 1 } else { 2 };
                    alts[0] = [b.tile, b.tile];
                    n_alts = 1;
                }
                BlockKind::TwoSided => {
                    per = 1;
                    alts[0][0] = b.tile - 1;
                    alts[1][0] = b.tile + 2;
                    n_alts = 2;
                }
                BlockKind::Edge => {
                    per = 1;
                    alts[0][0] = if r == 0 { b.tile + 2 } else { b.tile - 1 };
                    n_alts = 1;
                }
                BlockKind::Gapped => {
                    per = 1;
                    alts[0][0] = b.tile + 1;
                    n_alts = 1;
                }
                BlockKind::Pung | BlockKind::Chow => unreachable!(),
            }
            for alt in &alts[..n_alts] {
                for &x in &alt[..per] {
                    needs.push(x);
                }
                *chosen |= 1 << i;
                self.choose(a, h, t, left - 1, i + 1, chosen, needs, budget, out);
                *chosen &= !(1 << i);
                needs.len -= per;
            }
        }
        // Blocks left behind have to be discarded: skipping is allowed while enough remain.
        self.choose(a, h, t, left, i + 1, chosen, needs, budget, out);
    }

    /// Step 5-6 for one path: its value and the discards it credits.
    fn finish(&mut self, a: &Arrangement, h: &Counts, t: &Table, chosen: u16, needs: &Needs, out: &mut Analysis) {
        // The final hand: the sets, the head and the chosen blocks, plus the needed tiles.
        let mut fin = [0u8; KINDS];
        let mut useless = *h;
        for (i, b) in a.blocks[..a.len].iter().enumerate() {
            let keep = chosen >> i & 1 == 1 || matches!(b.kind, BlockKind::Pung | BlockKind::Chow);
            if keep {
                let (tiles, n) = b.tiles();
                for &x in &tiles[..n] {
                    fin[x as usize] += 1;
                    useless[x as usize] -= 1;
                }
            }
        }
        let standing: usize = h.iter().map(|&x| x as usize).sum();
        if needs.len == 0 || (standing % 3 == 2 && useless.iter().all(|&x| x == 0)) {
            return;
        }
        let mut need_count = [0u8; KINDS];
        for &x in &needs.tiles[..needs.len] {
            need_count[x as usize] += 1;
            fin[x as usize] += 1;
        }
        if fin.iter().any(|&x| x > 4) || needs.len > t.draws_left {
            return;
        }
        let mut p = 1.0;
        for k in 0..KINDS {
            let c = need_count[k] as usize;
            if c > 0 {
                p *= if c <= 2 { self.p_table[c][t.unseen[k].min(4) as usize] } else { 0.0 };
            }
        }
        if p == 0.0 || !self.done.insert((pack(&fin), pack(&useless))) {
            return;
        }
        let win = needs.tiles[needs.len - 1];
        fin[win as usize] -= 1;
        let Some(fans) = hand_fans(t.melds, &fin, win, t.seat) else { return };
        let score = if fans >= t.min_fans { fans as f64 } else { fans as f64 * self.cfg.below_min };
        let e = p * score;
        out.paths += 1;
        out.best_path = out.best_path.max(e);
        for k in 0..KINDS {
            if useless[k] > 0 {
                out.discard_value[k] += e;
            }
        }
        if let Some(rec) = &mut self.explain {
            let list = |c: &Counts| -> Vec<Tile> {
                (0..KINDS).flat_map(|k| std::iter::repeat_n(k as Tile, c[k] as usize)).collect()
            };
            rec.push(PathInfo { needs: list(&need_count), discards: list(&useless), p_win: p, score, value: e });
        }
    }

    fn table<'a>(&self, p: &'a Position, melds: &'a [Meld], unseen: &'a Counts, min_fans: u32) -> Table<'a> {
        Table { melds, unseen, draws_left: p.draws_left(), seat: p.seat, min_fans }
    }

    /// The discard of a 3n+2 hand: (tile, its value, whether it folded).
    pub fn choose_discard(&mut self, p: &Position, min_fans: u32) -> (Tile, f64, bool) {
        let unseen = p.unseen();
        let t = self.table(p, &p.melds, &unseen, min_fans);
        let a = self.analyse(&p.hand, &t);
        if self.cfg.fold && self.hopeless(p) {
            return (self.safest(p, &unseen, &a), 0.0, true);
        }
        let mut best = (0usize, 0.0f64);
        for k in 0..KINDS {
            if p.hand[k] > 0 && a.discard_value[k] > best.1 {
                best = (k, a.discard_value[k]);
            }
        }
        if best.1 > 0.0 {
            return (best.0 as Tile, best.1, false);
        }
        (best_discard(&p.hand, p.melds.len(), &p.seen).0, 0.0, false)
    }

    fn hopeless(&self, p: &Position) -> bool {
        let s = shanten(&p.hand, p.melds.len());
        let threat = (0..4).any(|k| k != p.seat && p.declared[k] >= self.cfg.threat_melds);
        s + 1 > p.draws_left() as i8 || (threat && s >= self.cfg.fold_shanten)
    }

    /// The tile with the lowest danger (ties: the higher search value).
    fn safest(&self, p: &Position, unseen: &Counts, a: &Analysis) -> Tile {
        let threats: Vec<usize> = (0..4).filter(|&k| k != p.seat && p.declared[k] >= self.cfg.threat_melds).collect();
        let against: Vec<usize> = if threats.is_empty() { (0..4).filter(|&k| k != p.seat).collect() } else { threats };
        let danger = |t: usize| -> f64 {
            let base = if t >= 27 {
                self.cfg.danger[0] * unseen[t] as f64 / 3.0
            } else if t.is_multiple_of(9) || t % 9 == 8 {
                self.cfg.danger[1]
            } else {
                self.cfg.danger[2]
            };
            against.iter().filter(|&&o| !p.discards[o].contains(&(t as Tile))).count() as f64 * base
        };
        let mut best = (usize::MAX, f64::INFINITY, f64::NEG_INFINITY);
        for t in 0..KINDS {
            if p.hand[t] == 0 {
                continue;
            }
            let (d, v) = (danger(t), a.discard_value[t]);
            if d < best.1 || (d == best.1 && v > best.2) {
                best = (t, d, v);
            }
        }
        best.0 as Tile
    }

    /// Best path value of a hand (3n+1 or 3n+2 standing tiles) with `melds`.
    fn value(&mut self, p: &Position, hand: &Counts, melds: &[Meld], unseen: &Counts, min_fans: u32) -> f64 {
        let t = self.table(p, melds, unseen, min_fans);
        self.analyse(hand, &t).best_path
    }

    pub fn decide(&mut self, p: &Position, phase: PhaseView, legal: &[Action], min_fans: u32) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let unseen = p.unseen();
        match phase {
            PhaseView::Turn { .. } => {
                let (tile, _, folded) = self.choose_discard(p, min_fans);
                if !folded {
                    let now = self.value(p, &p.hand, &p.melds, &unseen, min_fans);
                    for a in legal {
                        if let Action::ConcealedKong(k) | Action::AddedKong(k) = *a {
                            let mut h = p.hand;
                            let mut melds = p.melds.clone();
                            if let Action::ConcealedKong(_) = a {
                                h[k as usize] -= 4;
                                melds.push(Meld { kind: MeldKind::ConcealedKong, tile: k });
                            } else {
                                h[k as usize] -= 1;
                                if let Some(m) = melds.iter_mut().find(|m| m.kind == MeldKind::Pung && m.tile == k) {
                                    m.kind = MeldKind::Kong;
                                }
                            }
                            if self.value(p, &h, &melds, &unseen, min_fans) >= now {
                                return *a;
                            }
                        }
                    }
                }
                Action::Discard(tile)
            }
            PhaseView::RobKong { .. } => Action::Pass,
            PhaseView::Claim { tile, .. } => {
                if self.cfg.fold && self.hopeless(p) {
                    return Action::Pass;
                }
                let before = self.value(p, &p.hand, &p.melds, &unseen, min_fans);
                let mut best = (Action::Pass, before * self.cfg.claim_margin);
                for a in legal {
                    let meld = match *a {
                        Action::Pung => Meld { kind: MeldKind::Pung, tile },
                        Action::Kong => Meld { kind: MeldKind::Kong, tile },
                        Action::Chow(low) => Meld { kind: MeldKind::Chow, tile: low },
                        _ => continue,
                    };
                    let hand = after_claim(&p.hand, meld, tile);
                    let mut melds = p.melds.clone();
                    melds.push(meld);
                    let v = self.value(p, &hand, &melds, &unseen, min_fans);
                    let better = if meld.kind == MeldKind::Kong { v >= before && v > 0.0 } else { v > best.1 };
                    if better {
                        best = (*a, v);
                    }
                }
                best.0
            }
        }
    }
}

/// The tiles a path still needs (at most two per block, five blocks).
#[derive(Default)]
struct Needs {
    tiles: [Tile; 12],
    len: usize,
}

impl Needs {
    fn push(&mut self, t: Tile) {
        self.tiles[self.len] = t;
        self.len += 1;
    }
}

/// The shanten an arrangement stands for: sets, partial blocks (extra pairs included) up to the
/// sets still missing, and a pair for the head.
pub fn arrangement_shanten(a: &Arrangement, declared: usize) -> i8 {
    let (mut sets, mut pairs, mut partial) = (0i8, 0i8, 0i8);
    for b in &a.blocks[..a.len] {
        match b.kind {
            BlockKind::Pung | BlockKind::Chow => sets += 1,
            BlockKind::Pair => pairs += 1,
            BlockKind::TwoSided | BlockKind::Gapped | BlockKind::Edge => partial += 1,
            BlockKind::Isolated => {}
        }
    }
    let missing = (4 - declared as i8 - sets).max(0);
    let without = 2 * missing - (partial + pairs).min(missing);
    let with = if pairs > 0 { 2 * missing - (partial + pairs - 1).min(missing) - 1 } else { i8::MAX };
    without.min(with)
}

impl Bot<Mahjong> for Pruned {
    fn act(&mut self, game: &Mahjong, v: &View<'_>, _rng: &mut BotRng) -> Action {
        super::act(v, |p| self.decide(p, v.phase, &v.legal, game.min_fans))
    }
}
