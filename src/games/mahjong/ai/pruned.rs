//! `pruned`: the patent's method (document 004), steps 1-6 of the rules file, and its opponent
//! model behind `opponent_model`.
//!
//! The opponent model and the special shapes are off by default because they measured weaker:
//! in `configs/mahjong-pruned-variants.toml` (2,000 paired games) `pruned-patent` (both on)
//! scores 2.65 points a hand less than `pruned` [0.71, 4.60] (the README's mahjong section).
//! `pruned-patent` is the document's bot in full.
//!
//! 1. Enumerate the arrangements of the standing tiles into blocks: pung, chow, pair, two-sided,
//!    gapped, edge, isolated tile; an arrangement's weight is the sum of its blocks' weights.
//! 2. Drop arrangements whose shanten (from their blocks) is more than `shanten_slack` above the
//!    hand's standard shanten.
//! 3. Keep the `keep` highest-weight arrangements (`keep = 1`: the patent's single best one).
//! 4. For each, the paths to a complete hand: a head (a pair, or an isolated tile that gets its
//!    second copy) and enough blocks completed to make the sets, each by the effective tiles it
//!    lacks (a two-sided wait gives two paths); the tiles of the other blocks are the path's
//!    discards. At most `max_paths` paths per arrangement. With `shapes`, the search also expands
//!    toward the other winning shapes when their shanten is at most `shape_slack` above the
//!    hand's: seven pairs, thirteen orphans, honours and knitted tiles ([`super::shapes`]), and a
//!    knitted straight with a set and a pair (the straight's tiles set aside, its missing tiles
//!    needed, the rest arranged as above into one set and a pair).
//! 5. A path's value E = P(win) × score: P = the product over the needed kinds of the chance of
//!    getting the copies needed ([`super::odds`]: hypergeometric own draws without the model;
//!    with it, copies left n_i = 4 − t_i − a·g_i and claims weighted by the patent's bias); zero
//!    when more tiles are needed than draws are left. Score = the fans of the finished hand (fan
//!    calculator, self-drawn); a finished hand below the minimum is not a win and scores only
//!    `below_min` × its fans (so shapes that may still grow fans are not all worth zero).
//! 6. A discard's value is the sum of E over the paths that discard it; the highest is played (no
//!    path: the greedy discard). Claims compare the best path value before and after (kongs when
//!    not lower). Fold: with the model ([`super::opponents`]), when the shanten is above what the
//!    draws left allow, or the effective tiles are hard to get (the best path's P(win) is below
//!    `fold_p_win`) while the model gives some opponent at least `fold_threat` to be ready, discard the
//!    tile of lowest danger in the model's danger table. Without the model (the default), an
//!    opponent with `threat_melds` declared sets is judged ready, and the danger is 0 for a tile
//!    the threatening seats discarded themselves, else by kind: honour by its live copies,
//!    terminal, simple.

use super::odds::{OddsConfig, Role, TileOdds};
use super::opponents::{self, Model, ModelConfig};
use super::shapes::{self, Paths};
#[cfg(test)]
use super::turns;
use super::turns::Distribution;
use super::{after_claim, hand_fans, pack, KeySet, Position};
use crate::core::{factory, BotKind};
use crate::core::{Bot, BotRng, ParamSpec, Params};
use crate::games::mahjong::bots::best_discard;
use crate::games::mahjong::engine::{Action, Mahjong, PhaseView, View};
use crate::games::mahjong::shanten::{
    shanten, shanten_honors_knitted, shanten_seven_pairs, shanten_standard, shanten_thirteen_orphans, standard_distance,
};
use crate::games::mahjong::tiles::{is_honor, Counts, Meld, MeldKind, Tile, TILE_KINDS};

pub const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("w_pung", "25.0", "arrangement weight of a pung").range(0.0, 1000.0),
    ParamSpec::new("w_chow", "10.0", "arrangement weight of a chow").range(0.0, 1000.0),
    ParamSpec::new("w_pair", "6.0", "arrangement weight of a pair").range(0.0, 1000.0),
    ParamSpec::new("w_two_sided", "4.0", "arrangement weight of a two-sided partial (e.g. 45)").range(0.0, 1000.0),
    ParamSpec::new("w_gapped", "3.0", "arrangement weight of a gapped partial (e.g. 46)").range(0.0, 1000.0),
    ParamSpec::new("w_edge", "2.0", "arrangement weight of an edge partial (12 or 89)").range(0.0, 1000.0),
    ParamSpec::new("w_isolated", "0.0", "arrangement weight of an isolated suited tile").range(0.0, 1000.0),
    ParamSpec::new("w_isolated_honour", "0.0", "arrangement weight of an isolated honour").range(0.0, 1000.0),
    ParamSpec::new("shanten_slack", "1", "keep arrangements at most this far above the hand's shanten").range(0.0, 8.0),
    ParamSpec::new("keep", "6", "arrangements kept (highest weight); 1 = the patent's single best")
        .range(1.0, MAX_KEEP as f64),
    ParamSpec::new("max_paths", "48", "paths expanded per arrangement (and per special shape)").range(1.0, 10_000.0),
    ParamSpec::new("below_min", "0.1", "score factor of a finished hand below the fan minimum").range(0.0, 1.0),
    ParamSpec::new("claim_margin", "1.0", "claim a chow/pung when the value after > value before × this")
        .range(0.0, 100.0),
    ParamSpec::new("shapes", "false", "also expand paths toward seven pairs, thirteen orphans and knitted shapes"),
    ParamSpec::new("shape_slack", "1", "expand a special shape when its shanten is at most this above the hand's")
        .range(0.0, 8.0),
    ParamSpec::new("opponent_model", "false", "the patent's Monte Carlo opponent model (true: pruned-patent)"),
    ParamSpec::new("samples", "32", "opponent model: Monte Carlo hands of the three other seats per decision")
        .range(1.0, 10_000.0),
    ParamSpec::new(
        "accuracy",
        "0.75",
        "opponent model: a_i, weight of the predicted copies g_i in n_i = 4 - t_i - a_i g_i",
    )
    .range(0.0, 1.0),
    ParamSpec::new("bias_partial", "1.0", "claims: weight of another seat's discard for a partial set's wait (chow)")
        .range(0.0, 100.0),
    ParamSpec::new("bias_pair", "5.0", "claims: weight of another seat's discard for a pair's wait (pung)")
        .range(0.0, 100.0),
    ParamSpec::new(
        "claims_when_claiming",
        "false",
        "at a claim decision, also count later claims (else own draws only)",
    ),
    ParamSpec::new(
        "alloc_pung_no_chow",
        "1.0",
        "opponent model: degree bias of a suited pung no chow can pass through",
    )
    .range(0.0, 100.0),
    ParamSpec::new("alloc_edge_pung", "1.0", "opponent model: degree bias of a pung of 1, 2, 8, 9 or an honour")
        .range(0.0, 100.0),
    ParamSpec::new("alloc_central_chow", "1.0", "opponent model: degree bias of a chow of 3..7").range(0.0, 100.0),
    ParamSpec::new("danger_decay", "0.25", "opponent model: danger of a wait × this per shanten of its seat")
        .range(0.0, 1.0),
    ParamSpec::new(
        "safety_margin",
        "0.0",
        "with the model: discard the least dangerous tile worth at least (1 - this) x the best",
    )
    .range(0.0, 1.0),
    ParamSpec::new("fold", "true", "fold to the least dangerous tile when hopeless"),
    ParamSpec::new(
        "threat_from_model",
        "true",
        "with the model: fold by the model's P(win) and threat (false: by declared sets)",
    ),
    ParamSpec::new("fold_p_win", "0.05", "with the model: the effective tiles are hard to get below this P(win)")
        .range(0.0, 1.0),
    ParamSpec::new(
        "fold_threat",
        "0.5",
        "with the model: fold on hard tiles when an opponent is ready with this chance",
    )
    .range(0.0, 1.0),
    ParamSpec::new("threat_melds", "3", "without the model: an opponent with this many declared sets is judged ready")
        .range(1.0, 4.0),
    ParamSpec::new("fold_shanten", "2", "without the model: fold against a ready opponent from this shanten up")
        .range(0.0, 8.0),
    ParamSpec::new("danger_honour", "1.0", "without the model: danger of an honour, x live copies / 3")
        .range(0.0, 100.0),
    ParamSpec::new("danger_terminal", "2.0", "without the model: danger of a 1 or 9").range(0.0, 100.0),
    ParamSpec::new("danger_simple", "4.0", "without the model: danger of a 2..8").range(0.0, 100.0),
];

pub const KIND: BotKind<Mahjong> = BotKind {
    name: "pruned",
    about:
        "the patent's search: weighted arrangements, effective-tile paths valued P(win) x fans, opponent model, folding",
    params: PARAMS,
    make: |p, _| {
        let cfg = Config::from_params(p);
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
    pub fn tiles(&self) -> ([Tile; 3], usize) {
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

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Weights by [`BlockKind`] (isolated suited; the honour weight is separate).
    pub weights: [f64; 7],
    pub w_isolated_honour: f64,
    pub shanten_slack: i8,
    pub keep: usize,
    pub max_paths: usize,
    pub below_min: f64,
    pub claim_margin: f64,
    pub shapes: bool,
    pub shape_slack: i8,
    pub opponent_model: bool,
    pub model: ModelConfig,
    pub odds: OddsConfig,
    pub claims_when_claiming: bool,
    pub safety_margin: f64,
    pub fold: bool,
    pub threat_from_model: bool,
    pub fold_p_win: f64,
    pub fold_threat: f64,
    pub threat_melds: usize,
    pub fold_shanten: i8,
    pub danger: [f64; 3],
}

pub const MAX_KEEP: usize = 32;

impl Config {
    /// The config of checked parameters (their ranges are in [`PARAMS`]).
    pub fn from_params(p: &Params) -> Config {
        Config {
            weights: ["w_pung", "w_chow", "w_pair", "w_two_sided", "w_gapped", "w_edge", "w_isolated"]
                .map(|n| p.f64(n)),
            w_isolated_honour: p.f64("w_isolated_honour"),
            shanten_slack: p.i64("shanten_slack") as i8,
            keep: p.i64("keep") as usize,
            max_paths: p.i64("max_paths") as usize,
            below_min: p.f64("below_min"),
            claim_margin: p.f64("claim_margin"),
            shapes: p.bool("shapes"),
            shape_slack: p.i64("shape_slack") as i8,
            opponent_model: p.bool("opponent_model"),
            model: ModelConfig {
                samples: p.i64("samples") as usize,
                alloc_pung_no_chow: p.f64("alloc_pung_no_chow"),
                alloc_edge_pung: p.f64("alloc_edge_pung"),
                alloc_central_chow: p.f64("alloc_central_chow"),
                danger_decay: p.f64("danger_decay"),
            },
            odds: OddsConfig {
                accuracy: p.f64("accuracy"),
                bias_partial: p.f64("bias_partial"),
                bias_pair: p.f64("bias_pair"),
            },
            claims_when_claiming: p.bool("claims_when_claiming"),
            safety_margin: p.f64("safety_margin"),
            fold: p.bool("fold"),
            threat_from_model: p.bool("threat_from_model"),
            fold_p_win: p.f64("fold_p_win"),
            fold_threat: p.f64("fold_threat"),
            threat_melds: p.i64("threat_melds") as usize,
            fold_shanten: p.i64("fold_shanten") as i8,
            danger: ["danger_honour", "danger_terminal", "danger_simple"].map(|n| p.f64(n)),
        }
    }

    /// `pruned-patent`: the search with the opponent model and the special shapes.
    pub fn patent() -> Config {
        Config { opponent_model: true, shapes: true, ..Config::default() }
    }
}

impl Default for Config {
    fn default() -> Self {
        let specs: toml::Table = toml::Table::new();
        Config::from_params(&Params::new(PARAMS, &specs, "bot pruned").expect("defaults"))
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
    pub discard_value: [f64; TILE_KINDS],
    /// The best single path value.
    pub best_path: f64,
    /// The highest P(win) of any path.
    pub best_p: f64,
    pub paths: usize,
}

/// The inputs an analysis needs besides the hand.
pub struct Table<'a> {
    pub melds: &'a [Meld],
    pub odds: &'a TileOdds,
    pub draws_left: usize,
    pub seat: usize,
    pub min_fans: u32,
}

/// Where a set of paths starts besides the arranged tiles: tiles set aside for the shape (a
/// knitted straight's), the tiles that shape still needs, and the sets it stands for.
struct Direction {
    fixed: Counts,
    needs: Needs,
    sets: usize,
}

pub struct Pruned {
    pub cfg: Config,
    kept: Vec<Arrangement>,
    explain: Option<Vec<PathInfo>>,
    /// Paths already valued in this analysis: two arrangements can lead to the same path (same
    /// final hand, same discards), which counts once.
    done: KeySet,
    /// The opponent model of the current decision.
    model: Option<Model>,
}

impl Pruned {
    pub fn new(cfg: Config) -> Pruned {
        Pruned { cfg, kept: Vec::with_capacity(MAX_KEEP + 1), explain: None, done: KeySet::default(), model: None }
    }

    /// Records every path of the next analyses (for `advise --explain`).
    pub fn record_paths(&mut self) {
        self.explain = Some(Vec::new());
    }

    pub fn recorded_paths(&mut self) -> Vec<PathInfo> {
        self.explain.take().unwrap_or_default()
    }

    /// The shanten of the arrangements kept by the last analysis of the standard shape.
    #[cfg(test)]
    pub fn kept_shantens(&self) -> Vec<i8> {
        self.kept.iter().map(|a| a.shanten).collect()
    }

    /// The kept arrangements of the last analysis of the standard shape.
    pub fn kept(&self) -> &[Arrangement] {
        &self.kept
    }

    /// Steps 1-3 alone: the kept arrangements of `h` with `declared` sets, highest weight first.
    #[cfg(test)]
    pub fn arrangements(&mut self, h: &Counts, declared: usize) -> &[Arrangement] {
        self.arrange(h, declared);
        &self.kept
    }

    /// The opponent model of the last decision (`None` without the model).
    pub fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }

    /// Samples the opponent model for `p` (when on) and returns the decision's tile odds.
    pub fn prepare(&mut self, p: &Position, rng: &mut BotRng) -> TileOdds {
        let unseen = p.unseen();
        if !self.cfg.opponent_model {
            self.model = None;
            return TileOdds::basic(&unseen, p.draws_left());
        }
        let model = opponents::sample(p, &self.cfg.model, Distribution::measured(), rng);
        let odds = TileOdds::modeled(&unseen, p.draws_left(), &model, &self.cfg.odds);
        self.model = Some(model);
        odds
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
        let Some(t) = (from..TILE_KINDS).find(|&k| c[k] > 0) else {
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
        self.done.clear();
        let mut out = Analysis { discard_value: [0.0; TILE_KINDS], best_path: 0.0, best_p: 0.0, paths: 0 };
        let standard = Direction { fixed: [0; TILE_KINDS], needs: Needs::default(), sets: t.melds.len() };
        self.arrange(h, t.melds.len());
        let kept = std::mem::take(&mut self.kept);
        for a in &kept {
            self.paths_of(a, h, h, t, &standard, &mut out);
        }
        self.kept = kept;
        if self.cfg.shapes {
            self.special_shapes(h, t, &mut out);
        }
        out
    }

    /// The other winning shapes whose shanten is within `shape_slack` of the hand's.
    fn special_shapes(&mut self, h: &Counts, t: &Table, out: &mut Analysis) {
        let declared = t.melds.len();
        let limit = shanten(h, declared) + self.cfg.shape_slack;
        if declared == 0 {
            let shapes: [(i8, shapes::Expand); 3] = [
                (shanten_seven_pairs(h), |p| p.seven_pairs()),
                (shanten_thirteen_orphans(h), |p| p.thirteen_orphans()),
                (shanten_honors_knitted(h), |p| p.honours_and_knitted()),
            ];
            for (s, expand) in shapes {
                if s > limit {
                    continue;
                }
                let mut found: Vec<(Counts, shapes::Needs)> = Vec::new();
                let mut f = |keep: &Counts, needs: &shapes::Needs| found.push((*keep, needs.clone()));
                let mut paths = Paths {
                    hand: h,
                    odds: t.odds,
                    max_paths: self.cfg.max_paths,
                    f: &mut f as &mut dyn FnMut(&Counts, &shapes::Needs),
                };
                expand(&mut paths);
                for (keep, list) in found {
                    let mut needs = Needs::default();
                    list.iter().for_each(|&(x, role)| needs.push(x, role));
                    let useless: Counts = std::array::from_fn(|k| h[k] - keep[k]);
                    let mut fin = keep;
                    self.credit(h, &mut fin, &useless, &needs, t, out);
                }
            }
        }
        if declared <= 1 {
            // A knitted straight with one set and a pair: the straight's tiles held are set aside,
            // its missing ones needed, the rest arranged into the set and the pair. The standard
            // shape's arrangements stay the ones `kept()` shows.
            let standard = std::mem::take(&mut self.kept);
            for (k, held) in shapes::knitted_straights(h) {
                let mut rest = *h;
                let mut dir = Direction { fixed: [0; TILE_KINDS], needs: Needs::default(), sets: declared + 3 };
                for &x in k {
                    if rest[x as usize] > 0 {
                        rest[x as usize] -= 1;
                        dir.fixed[x as usize] = 1;
                    } else {
                        dir.needs.push(x, Role::Other);
                    }
                }
                let s = (9 - held) as i8 + standard_distance(&rest, 1 - declared) as i8 - 1;
                if s > limit || dir.needs.len > MAX_NEEDS - 5 {
                    continue;
                }
                self.arrange(&rest, dir.sets);
                let kept = std::mem::take(&mut self.kept);
                for a in &kept {
                    self.paths_of(a, &rest, h, t, &dir, out);
                }
            }
            self.kept = standard;
        }
    }

    /// Step 4-6 for one arrangement of `h` (the tiles arranged; `whole` is the whole hand): head
    /// choices, then which blocks become sets.
    fn paths_of(
        &mut self,
        a: &Arrangement,
        h: &Counts,
        whole: &Counts,
        t: &Table,
        dir: &Direction,
        out: &mut Analysis,
    ) {
        let sets = a.blocks[..a.len].iter().filter(|b| matches!(b.kind, BlockKind::Pung | BlockKind::Chow)).count();
        let needed = 4usize.saturating_sub(dir.sets).saturating_sub(sets);
        let has_pair = a.blocks[..a.len].iter().any(|b| b.kind == BlockKind::Pair);
        let mut budget = self.cfg.max_paths;
        for head in 0..a.len {
            let b = a.blocks[head];
            let ok = b.kind == BlockKind::Pair || (!has_pair && b.kind == BlockKind::Isolated);
            if !ok || budget == 0 {
                continue;
            }
            let mut needs = dir.needs;
            if b.kind == BlockKind::Isolated {
                needs.push(b.tile, Role::Other);
            }
            let mut chosen = 1u16 << head;
            let mut walk = Walk { a, h, whole, t, dir, budget: &mut budget, out: &mut *out };
            self.choose(&mut walk, needed, 0, &mut chosen, &mut needs);
        }
    }

    /// Chooses `left` more blocks (from index `i`, not the head) to complete.
    fn choose(&mut self, w: &mut Walk, left: usize, i: usize, chosen: &mut u16, needs: &mut Needs) {
        if *w.budget == 0 {
            return;
        }
        if left == 0 {
            *w.budget -= 1;
            self.finish(w, *chosen, needs);
            return;
        }
        if i >= w.a.len {
            return;
        }
        let b = w.a.blocks[i];
        let free = *chosen >> i & 1 == 0 && !matches!(b.kind, BlockKind::Pung | BlockKind::Chow);
        if free {
            let r = b.tile % 9;
            let mut alts = [[0u8; 2]; 2];
            let n_alts: usize;
            let per: usize;
            let role = match b.kind {
                BlockKind::Pair => Role::Pair,
                BlockKind::Isolated => Role::Other,
                _ => Role::Partial,
            };
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
                if needs.len + per > MAX_NEEDS {
                    continue;
                }
                for &x in &alt[..per] {
                    needs.push(x, role);
                }
                *chosen |= 1 << i;
                self.choose(w, left - 1, i + 1, chosen, needs);
                *chosen &= !(1 << i);
                needs.len -= per;
            }
        }
        // Blocks left behind have to be discarded: skipping is allowed while enough remain.
        self.choose(w, left, i + 1, chosen, needs);
    }

    /// The final hand and discards of one path of an arrangement, then its value.
    fn finish(&mut self, w: &mut Walk, chosen: u16, needs: &Needs) {
        // The final hand: the sets, the head and the chosen blocks, plus the needed tiles.
        let mut fin = w.dir.fixed;
        let mut useless = *w.h;
        for (i, b) in w.a.blocks[..w.a.len].iter().enumerate() {
            let keep = chosen >> i & 1 == 1 || matches!(b.kind, BlockKind::Pung | BlockKind::Chow);
            if keep {
                let (tiles, n) = b.tiles();
                for &x in &tiles[..n] {
                    fin[x as usize] += 1;
                    useless[x as usize] -= 1;
                }
            }
        }
        self.credit(w.whole, &mut fin, &useless, needs, w.t, w.out);
    }

    /// Steps 5-6 for one path: `fin` the tiles kept (the needed ones are added here), `useless`
    /// the discards; its value E, credited to every kind it discards.
    fn credit(
        &mut self,
        whole: &Counts,
        fin: &mut Counts,
        useless: &Counts,
        needs: &Needs,
        t: &Table,
        out: &mut Analysis,
    ) {
        let standing: usize = whole.iter().map(|&x| x as usize).sum();
        if needs.len == 0 || (standing % 3 == 2 && useless.iter().all(|&x| x == 0)) {
            return;
        }
        let mut need_count = [0u8; TILE_KINDS];
        let mut need_role = [Role::Other; TILE_KINDS];
        for (&x, &role) in needs.tiles[..needs.len].iter().zip(&needs.roles[..needs.len]) {
            need_count[x as usize] += 1;
            need_role[x as usize] = need_role[x as usize].max(role);
            fin[x as usize] += 1;
        }
        if fin.iter().any(|&x| x > 4) || needs.len > t.draws_left {
            return;
        }
        let mut p = 1.0;
        for k in 0..TILE_KINDS {
            if need_count[k] > 0 {
                p *= t.odds.p(k, need_count[k], need_role[k]);
            }
        }
        if p == 0.0 || !self.done.insert((pack(fin), pack(useless))) {
            return;
        }
        let win = needs.tiles[needs.len - 1];
        fin[win as usize] -= 1;
        let Some(fans) = hand_fans(t.melds, fin, win, t.seat) else { return };
        let score = if fans >= t.min_fans { fans as f64 } else { fans as f64 * self.cfg.below_min };
        let e = p * score;
        out.paths += 1;
        out.best_path = out.best_path.max(e);
        out.best_p = out.best_p.max(p);
        for k in 0..TILE_KINDS {
            if useless[k] > 0 {
                out.discard_value[k] += e;
            }
        }
        if let Some(rec) = &mut self.explain {
            let list = |c: &Counts| -> Vec<Tile> {
                (0..TILE_KINDS).flat_map(|k| std::iter::repeat_n(k as Tile, c[k] as usize)).collect()
            };
            rec.push(PathInfo { needs: list(&need_count), discards: list(useless), p_win: p, score, value: e });
        }
    }

    fn table<'a>(&self, p: &Position, melds: &'a [Meld], odds: &'a TileOdds, min_fans: u32) -> Table<'a> {
        Table { melds, odds, draws_left: p.draws_left(), seat: p.seat, min_fans }
    }

    /// The discard of a 3n+2 hand: (tile, its value, whether it folded). Samples the opponent
    /// model first (when on).
    pub fn choose_discard(&mut self, p: &Position, min_fans: u32, rng: &mut BotRng) -> (Tile, f64, bool) {
        let odds = self.prepare(p, rng);
        self.discard_with(p, &odds, min_fans)
    }

    /// The discard with the decision's odds already prepared.
    pub fn discard_with(&mut self, p: &Position, odds: &TileOdds, min_fans: u32) -> (Tile, f64, bool) {
        let t = self.table(p, &p.melds, odds, min_fans);
        let a = self.analyse(&p.hand, &t);
        if self.cfg.fold && self.folds(p, &a) {
            return (self.safest(p, &a), 0.0, true);
        }
        let mut best = (0usize, 0.0f64);
        for k in 0..TILE_KINDS {
            if p.hand[k] > 0 && a.discard_value[k] > best.1 {
                best = (k, a.discard_value[k]);
            }
        }
        if best.1 <= 0.0 {
            return (best_discard(&p.hand, p.melds.len(), &p.seen).0, 0.0, false);
        }
        // Among discards worth nearly as much as the best, the least dangerous.
        if let (Some(m), true) = (&self.model, self.cfg.safety_margin > 0.0) {
            let floor = best.1 * (1.0 - self.cfg.safety_margin);
            for k in 0..TILE_KINDS {
                if p.hand[k] > 0 && a.discard_value[k] >= floor && m.danger[k] < m.danger[best.0] {
                    best = (k, a.discard_value[k]);
                }
            }
        }
        (best.0 as Tile, best.1, false)
    }

    /// Whether to fold, given the analysis of the hand as it stands.
    fn folds(&self, p: &Position, a: &Analysis) -> bool {
        let s = shanten(&p.hand, p.melds.len());
        if s + 1 > p.draws_left() as i8 {
            return true;
        }
        match &self.model {
            Some(m) if self.cfg.threat_from_model => {
                a.best_p < self.cfg.fold_p_win && m.threat() >= self.cfg.fold_threat
            }
            _ => !self.threats(p).is_empty() && s >= self.cfg.fold_shanten,
        }
    }

    /// Without the model: the opponents with `threat_melds` declared sets.
    fn threats(&self, p: &Position) -> Vec<usize> {
        (0..4).filter(|&k| k != p.seat && p.declared[k] >= self.cfg.threat_melds).collect()
    }

    /// The tile with the lowest danger: the model's danger table, else the kind heuristic
    /// (ties: the kind heuristic, then the higher search value).
    fn safest(&self, p: &Position, a: &Analysis) -> Tile {
        let unseen = p.unseen();
        let threats = self.threats(p);
        let against: Vec<usize> = if threats.is_empty() { (0..4).filter(|&k| k != p.seat).collect() } else { threats };
        let by_kind = |t: usize| -> f64 {
            let base = if t >= 27 {
                self.cfg.danger[0] * unseen[t] as f64 / 3.0
            } else if t.is_multiple_of(9) || t % 9 == 8 {
                self.cfg.danger[1]
            } else {
                self.cfg.danger[2]
            };
            against.iter().filter(|&&o| !p.discards[o].contains(&(t as Tile))).count() as f64 * base
        };
        let modeled = |t: usize| self.model.as_ref().map_or(0.0, |m| m.danger[t]);
        let mut best = (usize::MAX, (f64::INFINITY, f64::INFINITY), f64::NEG_INFINITY);
        for t in 0..TILE_KINDS {
            if p.hand[t] == 0 {
                continue;
            }
            let (d, v) = ((modeled(t), by_kind(t)), a.discard_value[t]);
            if d < best.1 || (d == best.1 && v > best.2) {
                best = (t, d, v);
            }
        }
        best.0 as Tile
    }

    /// Analysis of a hand (3n+1 or 3n+2 standing tiles) with `melds`.
    fn analysis_of(&mut self, p: &Position, hand: &Counts, melds: &[Meld], odds: &TileOdds, min_fans: u32) -> Analysis {
        let t = self.table(p, melds, odds, min_fans);
        self.analyse(hand, &t)
    }

    pub fn decide(
        &mut self,
        p: &Position,
        phase: PhaseView,
        legal: &[Action],
        min_fans: u32,
        rng: &mut BotRng,
    ) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let odds = self.prepare(p, rng);
        match phase {
            PhaseView::Turn { .. } => {
                let (tile, _, folded) = self.discard_with(p, &odds, min_fans);
                if !folded {
                    let now = self.analysis_of(p, &p.hand, &p.melds, &odds, min_fans).best_path;
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
                            if self.analysis_of(p, &h, &melds, &odds, min_fans).best_path >= now {
                                return *a;
                            }
                        }
                    }
                }
                Action::Discard(tile)
            }
            PhaseView::RobKong { .. } => Action::Pass,
            PhaseView::Claim { tile, .. } => {
                // Valuing a pass by chances of claiming later would pass the claim at hand (the
                // later claims look as good), so by default both sides count own draws only.
                let odds = match &self.model {
                    Some(m) if !self.cfg.claims_when_claiming => {
                        let own = OddsConfig { bias_partial: 0.0, bias_pair: 0.0, ..self.cfg.odds };
                        TileOdds::modeled(&p.unseen(), p.draws_left(), m, &own)
                    }
                    _ => odds,
                };
                let now = self.analysis_of(p, &p.hand, &p.melds, &odds, min_fans);
                if self.cfg.fold && self.folds(p, &now) {
                    return Action::Pass;
                }
                let before = now.best_path;
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
                    let v = self.analysis_of(p, &hand, &melds, &odds, min_fans).best_path;
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

/// The fixed parts of one arrangement's path walk.
struct Walk<'a, 'b> {
    a: &'a Arrangement,
    /// The tiles arranged (the hand less a knitted straight's tiles, or the whole hand).
    h: &'a Counts,
    whole: &'a Counts,
    t: &'a Table<'b>,
    dir: &'a Direction,
    budget: &'a mut usize,
    out: &'a mut Analysis,
}

/// Enough for a knitted straight's missing tiles and a set and a pair.
const MAX_NEEDS: usize = 16;

/// The tiles a path still needs, with what each completes.
#[derive(Clone, Copy)]
struct Needs {
    tiles: [Tile; MAX_NEEDS],
    roles: [Role; MAX_NEEDS],
    len: usize,
}

impl Default for Needs {
    fn default() -> Self {
        Needs { tiles: [0; MAX_NEEDS], roles: [Role::Other; MAX_NEEDS], len: 0 }
    }
}

impl Needs {
    fn push(&mut self, t: Tile, role: Role) {
        self.tiles[self.len] = t;
        self.roles[self.len] = role;
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
    fn act(&mut self, game: &Mahjong, v: &View<'_>, rng: &mut BotRng) -> Action {
        super::act(v, |p| self.decide(p, v.phase, &v.legal, game.min_fans, rng))
    }
}
/// Plays `hands` hands of four `pruned` bots (no opponent model) (8-fan minimum) and counts, after every
/// discard, the discarder's shanten by turn and declared sets: the measurement behind
/// [`turns::Distribution`] (here, beside the bot it plays, so that the distribution does not
/// import the bot that draws from it).
#[cfg(test)]
pub fn measure_turns(hands: u64, seed: u64) -> turns::Counts {
    use crate::core::Game;
    let game = Mahjong::new(8);
    let basic = Config { opponent_model: false, shapes: false, ..Config::default() };
    let mut counts = [[[0u32; turns::SHANTENS]; turns::DECLARED]; turns::TURNS];
    for h in 0..hands {
        let seeds = crate::core::GameSeeds::derive(seed, 0, h, 1);
        let mut s = game.deal(&mut seeds.deal_rng());
        let mut bots: Vec<Pruned> = (0..4).map(|_| Pruned::new(basic)).collect();
        let mut rngs: Vec<BotRng> = (0..4).map(|k| seeds.bot_rng(k)).collect();
        while let Some(seat) = game.to_act(&s) {
            let v = game.view(&s, seat);
            let turn = turns::turn_of(v.wall_left);
            let a = bots[seat].act(&game, &v, &mut rngs[seat]);
            game.apply(&mut s, &a).expect("pruned plays legal actions");
            if let Action::Discard(_) = a {
                let declared = s.melds[seat].len();
                let sh = shanten(&s.hands[seat], declared).clamp(0, turns::SHANTENS as i8 - 1) as usize;
                counts[turn][declared][sh] += 1;
            }
        }
    }
    counts
}
