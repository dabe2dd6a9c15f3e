//! Paths toward the shapes that are not four sets and a pair (the patent: "the search tree is
//! expanded in different directions by hand pattern"): seven pairs, thirteen orphans, honours and
//! knitted tiles. Each path is the tiles of the hand it keeps and the tiles it still needs (one
//! copy each unless said); the rest of the hand is its discards. The knitted straight with a set
//! and a pair goes through the standard arrangements instead (see `pruned`), with the straight's
//! tiles set aside.
//!
//! Needed tiles here all have the role [`Role::Other`]: a seven-pairs or knitted hand cannot
//! claim a tile with a pung or a chow.

use super::odds::{Role, TileOdds};
use crate::games::mahjong::shanten::KNITTED;
use crate::games::mahjong::tiles::{Counts, Tile, TILE_KINDS};

/// A path's needed tiles (at most 14).
pub type Needs = Vec<(Tile, Role)>;

const ORPHANS: [Tile; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// One shape's path expansion, its paths reported to a callback (a table of them is kept).
pub type Expand = fn(&mut Paths<'_, &mut dyn FnMut(&Counts, &Needs)>);

/// Calls `f(keep, needs)` for each path, stopping after `max_paths`.
pub struct Paths<'a, F: FnMut(&Counts, &Needs)> {
    pub hand: &'a Counts,
    pub odds: &'a TileOdds,
    pub max_paths: usize,
    pub f: F,
}

impl<F: FnMut(&Counts, &Needs)> Paths<'_, F> {
    /// Seven pairs: the pairs held (four of a kind = two) stay; enough single tiles, the likeliest
    /// to pair first, get their second copy.
    pub fn seven_pairs(&mut self) {
        let h = self.hand;
        let mut keep = [0u8; TILE_KINDS];
        let mut pairs = 0;
        let mut singles: Vec<usize> = Vec::new();
        for k in 0..TILE_KINDS {
            keep[k] = h[k] / 2 * 2;
            pairs += h[k] / 2;
            if h[k] % 2 == 1 {
                singles.push(k);
            }
        }
        let need = 7usize.saturating_sub(pairs as usize);
        if need == 0 || need > singles.len() {
            return;
        }
        singles.sort_by(|&a, &b| {
            self.odds.p(b, 1, Role::Other).total_cmp(&self.odds.p(a, 1, Role::Other)).then(a.cmp(&b))
        });
        let mut budget = self.max_paths;
        let mut chosen = Vec::with_capacity(need);
        self.choose_singles(&singles, 0, need, &mut chosen, &mut keep, &mut budget);
    }

    fn choose_singles(
        &mut self,
        singles: &[usize],
        from: usize,
        need: usize,
        chosen: &mut Vec<usize>,
        keep: &mut Counts,
        budget: &mut usize,
    ) {
        if *budget == 0 {
            return;
        }
        if chosen.len() == need {
            *budget -= 1;
            let needs: Needs = chosen.iter().map(|&k| (k as Tile, Role::Other)).collect();
            (self.f)(keep, &needs);
            return;
        }
        for i in from..singles.len() {
            if singles.len() - i < need - chosen.len() {
                break;
            }
            let k = singles[i];
            keep[k] += 1;
            chosen.push(k);
            self.choose_singles(singles, i + 1, need, chosen, keep, budget);
            chosen.pop();
            keep[k] -= 1;
        }
    }

    /// Thirteen orphans: one of each terminal and honour, one of them twice (one path per choice
    /// of the doubled kind).
    pub fn thirteen_orphans(&mut self) {
        let h = self.hand;
        for (i, &pair) in ORPHANS.iter().enumerate() {
            if i >= self.max_paths {
                break;
            }
            let mut keep = [0u8; TILE_KINDS];
            let mut needs = Needs::new();
            for &o in &ORPHANS {
                let want = if o == pair { 2 } else { 1 };
                let k = o as usize;
                keep[k] = h[k].min(want);
                for _ in keep[k]..want {
                    needs.push((o, Role::Other));
                }
            }
            (self.f)(&keep, &needs);
        }
    }

    /// Honours and knitted tiles: 14 different tiles among one knitted straight's nine and the
    /// seven honours; for the straights holding the most of them, every choice of the two kinds
    /// left out that needs the fewest tiles.
    pub fn honours_and_knitted(&mut self) {
        let h = self.hand;
        let allowed = |k: &[Tile; 9]| -> Vec<Tile> { k.iter().copied().chain(27..TILE_KINDS as Tile).collect() };
        let held = |a: &[Tile]| a.iter().filter(|&&t| h[t as usize] > 0).count();
        let best = KNITTED.iter().map(|k| held(&allowed(k))).max().unwrap_or(0);
        let mut budget = self.max_paths;
        for k in KNITTED.iter() {
            let a = allowed(k);
            if held(&a) < best {
                continue;
            }
            // Leave out two kinds, unheld ones first when there are two.
            let unheld = a.iter().filter(|&&t| h[t as usize] == 0).count();
            for x in 0..a.len() {
                for y in x + 1..a.len() {
                    let out = [a[x], a[y]];
                    let out_unheld = out.iter().filter(|&&t| h[t as usize] == 0).count();
                    if out_unheld < unheld.min(2) || budget == 0 {
                        continue;
                    }
                    budget -= 1;
                    let mut keep = [0u8; TILE_KINDS];
                    let mut needs = Needs::new();
                    for &t in a.iter().filter(|t| !out.contains(t)) {
                        if h[t as usize] > 0 {
                            keep[t as usize] = 1;
                        } else {
                            needs.push((t, Role::Other));
                        }
                    }
                    (self.f)(&keep, &needs);
                }
            }
        }
    }
}

/// The knitted straights a hand could aim at: (straight, kinds of it held).
pub fn knitted_straights(h: &Counts) -> impl Iterator<Item = (&'static [Tile; 9], usize)> + '_ {
    KNITTED.iter().map(move |k| (k, k.iter().filter(|&&t| h[t as usize] > 0).count()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mahjong::tiles::Hand;

    fn collect(text: &str, max_paths: usize, which: Expand) -> Vec<(Counts, Needs)> {
        let h = Hand::parse(text).unwrap().concealed;
        let unseen: Counts = std::array::from_fn(|k| 4 - h[k]);
        let odds = TileOdds::basic(&unseen, 15);
        let mut out = Vec::new();
        let mut f = |keep: &Counts, needs: &Needs| out.push((*keep, needs.clone()));
        let mut paths = Paths { hand: &h, odds: &odds, max_paths, f: &mut f as &mut dyn FnMut(&Counts, &Needs) };
        which(&mut paths);
        out
    }

    /// Every path keeps tiles of the hand and ends with the shape's tile count.
    fn check(paths: &[(Counts, Needs)], h: &Counts) {
        for (keep, needs) in paths {
            assert!((0..TILE_KINDS).all(|k| keep[k] <= h[k]));
            let n: usize = keep.iter().map(|&c| c as usize).sum::<usize>() + needs.len();
            assert_eq!(n, 14);
        }
    }

    #[test]
    fn seven_pairs_pairs_up_singles() {
        let text = "1m 1m 4m 4m 9s 9s E E C C 3p 5p 7p F";
        let paths = collect(text, 100, |p| p.seven_pairs());
        // Five pairs held, four singles: C(4, 2) = 6 ways to pick the two that get a partner.
        assert_eq!(paths.len(), 6);
        check(&paths, &Hand::parse(text).unwrap().concealed);
        assert!(paths.iter().all(|(_, n)| n.len() == 2));
        // A budget stops early.
        assert_eq!(collect(text, 4, |p| p.seven_pairs()).len(), 4);
    }

    #[test]
    fn thirteen_orphans_one_path_per_doubled_kind() {
        let text = "1m 9m 1s 9s 1p 9p E S W N C F 5m 5m";
        let paths = collect(text, 100, |p| p.thirteen_orphans());
        assert_eq!(paths.len(), 13);
        check(&paths, &Hand::parse(text).unwrap().concealed);
        // Missing P: each path needs it and one more copy of its doubled kind (P itself: P twice).
        for (keep, needs) in &paths {
            assert!(needs.iter().any(|&(t, _)| t == 33) && needs.len() == 2);
            assert_eq!(keep[4], 0, "5m is discarded");
        }
        assert!(paths.iter().any(|(_, n)| n.iter().all(|&(t, _)| t == 33)), "P doubled: needs P twice");
    }

    #[test]
    fn honours_and_knitted_leaves_out_two_kinds() {
        // 147m 258s 369p held but 7m 9p; six honours.
        let text = "1m 4m 2s 5s 8s 3p 6p E S W N C F 1m";
        let h = Hand::parse(text).unwrap().concealed;
        let paths = collect(text, 500, |p| p.honours_and_knitted());
        check(&paths, &h);
        // 13 allowed kinds held, 3 unheld (7m, 9p, P): leave out two of those three → 3 paths.
        assert_eq!(paths.len(), 3);
        assert!(paths.iter().all(|(_, n)| n.len() == 1));
    }
}
