//! Tiles, counts and melds, and the notation of the reference vectors:
//! `1m`..`9m` characters, `1s`..`9s` bamboo, `1p`..`9p` dots, `E S W N` winds, `C F P` dragons
//! (red, green, white); `[...]` a melded set, `(...)` a concealed kong, `|` before the winning tile.
//!
//! Kind indices follow the reference calculator's order (characters, bamboo, dots, winds, dragons)
//! so that "the first decomposition found" means the same thing here as there.

use std::fmt;

use crate::error::{shown, Error, Result};

/// A tile kind, `0..34`: 0-8 = 1m-9m, 9-17 = 1s-9s, 18-26 = 1p-9p, 27-30 = E S W N, 31-33 = C F P.
pub type Tile = u8;

/// How many kinds of tile there are (flowers not counted).
pub const TILE_KINDS: usize = 34;
/// The East wind's kind; the winds follow in order E S W N.
pub const EAST: Tile = 27;
/// The red dragon's kind; the dragons follow in order C F P.
pub const RED: Tile = 31;

/// Suit letters in kind order.
pub const SUIT_LETTERS: [char; 3] = ['m', 's', 'p'];
/// Honor letters in kind order: the winds E S W N, then the dragons C F P.
pub const HONOR_LETTERS: [char; 7] = ['E', 'S', 'W', 'N', 'C', 'F', 'P'];

/// Copies per kind (a hand, a wall, the seen tiles).
pub type Counts = [u8; TILE_KINDS];

/// The kinds in a mask of kinds (bit `k` for kind `k`), lowest first.
pub fn kinds_in(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            k
        })
    })
}

/// Whether `t` is a wind or a dragon.
pub fn is_honor(t: Tile) -> bool {
    t >= 27
}

/// 0 = characters, 1 = bamboo, 2 = dots, 3 = honors.
pub fn suit(t: Tile) -> u8 {
    if t >= 27 {
        3
    } else {
        t / 9
    }
}

/// 1..=9 for suited tiles.
pub fn rank(t: Tile) -> u8 {
    t % 9 + 1
}

/// The tile as written: `5m`, `9p`, `E`.
pub fn tile_name(t: Tile) -> String {
    if is_honor(t) {
        HONOR_LETTERS[(t - 27) as usize].to_string()
    } else {
        format!("{}{}", rank(t), SUIT_LETTERS[suit(t) as usize])
    }
}

/// Parses one tile (`5p`, `E`).
pub fn parse_tile(s: &str) -> Result<Tile> {
    let mut tiles = Vec::new();
    parse_run(s, &mut tiles)?;
    match tiles.as_slice() {
        [t] => Ok(*t),
        _ => {
            Err(Error::input(format!("{} is not one tile (expected 1m..9m, 1s..9s, 1p..9p, E S W N C F P)", shown(s))))
        }
    }
}

/// Parses a run of tiles written without spaces (`4m4m4m`, `EEE`, `1m2m3m`).
fn parse_run(s: &str, out: &mut Vec<Tile>) -> Result<()> {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(h) = HONOR_LETTERS.iter().position(|&l| l == c) {
            out.push(27 + h as u8);
            i += 1;
        } else if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
            let letter = chars.get(i + 1).copied();
            let Some(su) = letter.and_then(|l| SUIT_LETTERS.iter().position(|&x| x == l)) else {
                return Err(Error::input(format!("bad tile in {}: a rank must be followed by m, s or p", shown(s))));
            };
            out.push(su as u8 * 9 + d as u8 - 1);
            i += 2;
        } else {
            return Err(Error::input(format!(
                "bad tile {} in {} (expected 1m..9m, 1s..9s, 1p..9p, E S W N C F P)",
                shown(&c.to_string()),
                shown(s)
            )));
        }
    }
    Ok(())
}

/// What a declared set is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// Three suited tiles in a row.
    Chow,
    /// Three of a kind.
    Pung,
    /// A melded (exposed or added) kong.
    Kong,
    /// A kong made from the hand, face down.
    ConcealedKong,
}

/// A declared set: its kind and its lowest tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meld {
    /// Which set it is.
    pub kind: MeldKind,
    /// Its lowest tile (for a chow, the first of the run).
    pub tile: Tile,
}

impl Meld {
    /// The tiles of the set.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> {
        let (t, kind) = (self.tile, self.kind);
        (0..self.len()).map(move |i| if kind == MeldKind::Chow { t + i as u8 } else { t })
    }

    /// The tiles of a set made on the discard `claimed` that come from the claimer's hand: the
    /// set's tiles with one `claimed` left out.
    pub fn from_hand(&self, claimed: Tile) -> impl Iterator<Item = Tile> {
        let mut left_out = false;
        self.tiles().filter(move |&t| {
            let skip = t == claimed && !left_out;
            left_out |= skip;
            !skip
        })
    }

    /// How many tiles the set holds: 3, or 4 for a kong.
    pub fn len(&self) -> usize {
        match self.kind {
            MeldKind::Chow | MeldKind::Pung => 3,
            MeldKind::Kong | MeldKind::ConcealedKong => 4,
        }
    }

    /// Never true: a set always holds tiles (the pair of [`Meld::len`] clippy asks for).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Builds the set from its tiles, checking the shape.
    pub fn from_tiles(tiles: &[Tile], concealed: bool) -> Result<Meld> {
        let mut ts = tiles.to_vec();
        ts.sort_unstable();
        let names = || ts.iter().map(|&t| tile_name(t)).collect::<Vec<_>>().join("");
        let same = ts.iter().all(|&t| t == ts[0]);
        let kind = match (ts.len(), same, concealed) {
            (4, true, true) => MeldKind::ConcealedKong,
            (4, true, false) => MeldKind::Kong,
            (3, true, false) => MeldKind::Pung,
            (3, false, false)
                if !is_honor(ts[0]) && ts[1] == ts[0] + 1 && ts[2] == ts[0] + 2 && suit(ts[0]) == suit(ts[2]) =>
            {
                MeldKind::Chow
            }
            (_, _, true) => return Err(Error::input(format!("`({})` is not a concealed kong", names()))),
            _ => return Err(Error::input(format!("`[{}]` is not a chow, pung or kong", names()))),
        };
        Ok(Meld { kind, tile: ts[0] })
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (open, close) = if self.kind == MeldKind::ConcealedKong { ('(', ')') } else { ('[', ']') };
        write!(f, "{open}")?;
        for t in self.tiles() {
            write!(f, "{}", tile_name(t))?;
        }
        write!(f, "{close}")
    }
}

/// A hand as written: declared sets, standing tiles and (optionally) the winning tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The declared sets, in the order declared.
    pub melds: Vec<Meld>,
    /// Standing tiles, without the winning tile.
    pub concealed: Counts,
    /// The tile the hand won on, when the hand is a win.
    pub win_tile: Option<Tile>,
}

impl Hand {
    /// Number of standing tiles including the winning tile.
    pub fn standing_len(&self) -> usize {
        self.concealed.iter().map(|&c| c as usize).sum::<usize>() + self.win_tile.is_some() as usize
    }

    /// Standing tiles including the winning tile.
    pub fn standing_with_win(&self) -> Counts {
        let mut c = self.concealed;
        if let Some(w) = self.win_tile {
            c[w as usize] += 1;
        }
        c
    }

    /// Every tile of the hand (melds, standing, winning tile).
    pub fn all_tiles(&self) -> Counts {
        let mut c = self.standing_with_win();
        for m in &self.melds {
            for t in m.tiles() {
                c[t as usize] += 1;
            }
        }
        c
    }

    /// Parses the compact notation, e.g. `[4m5m6m] (EEEE) 1p 2p 3p 7s 7s | 7s`.
    /// Checks tile names, set shapes, at most 4 copies of a kind, at most 4 sets and a size that can
    /// be a hand (3n+1 or 3n+2 tiles counting every set as 3; with `|`, exactly a winning size).
    pub fn parse(s: &str) -> Result<Hand> {
        let mut melds = Vec::new();
        let mut concealed = [0u8; TILE_KINDS];
        let mut win_tile = None;
        let mut after_bar = false;
        let mut rest = s.trim();
        while !rest.is_empty() {
            let c = rest.chars().next().unwrap();
            if c == '[' || c == '(' {
                let close = if c == '[' { ']' } else { ')' };
                let end = rest.find(close).ok_or_else(|| Error::input(format!("unclosed `{c}` in {}", shown(s))))?;
                let mut tiles = Vec::new();
                parse_run(&rest[1..end].replace([' ', ','], ""), &mut tiles)?;
                if after_bar {
                    return Err(Error::input(format!("a set after `|` in {}", shown(s))));
                }
                melds.push(Meld::from_tiles(&tiles, c == '(')?);
                rest = rest[end + 1..].trim_start();
            } else if c == '|' {
                if after_bar {
                    return Err(Error::input(format!("two `|` in {}", shown(s))));
                }
                after_bar = true;
                rest = rest[1..].trim_start();
            } else {
                let end = rest.find(|ch: char| ch.is_whitespace() || "[(|".contains(ch)).unwrap_or(rest.len());
                let mut tiles = Vec::new();
                parse_run(&rest[..end], &mut tiles)?;
                for t in tiles {
                    if after_bar {
                        if win_tile.is_some() {
                            return Err(Error::input(format!("more than one tile after `|` in {}", shown(s))));
                        }
                        win_tile = Some(t);
                    } else if concealed[t as usize] == 4 {
                        return Err(Error::input(format!("more than 4 copies of {} in {}", tile_name(t), shown(s))));
                    } else {
                        concealed[t as usize] += 1;
                    }
                }
                rest = rest[end..].trim_start();
            }
        }
        if after_bar && win_tile.is_none() {
            return Err(Error::input(format!("no winning tile after `|` in {}", shown(s))));
        }
        let hand = Hand { melds, concealed, win_tile };
        hand.validate()?;
        Ok(hand)
    }

    /// Builds a hand from the vectors' JSON fields.
    pub fn from_parts(melds: Vec<Meld>, concealed: &[Tile], win_tile: Option<Tile>) -> Result<Hand> {
        let mut c = [0u8; TILE_KINDS];
        for &t in concealed {
            if c[t as usize] == 4 {
                return Err(Error::input(format!("more than 4 copies of {}", tile_name(t))));
            }
            c[t as usize] += 1;
        }
        let hand = Hand { melds, concealed: c, win_tile };
        hand.validate()?;
        Ok(hand)
    }

    fn validate(&self) -> Result<()> {
        if self.melds.len() > 4 {
            return Err(Error::input("a hand has at most 4 declared sets"));
        }
        let all = self.all_tiles();
        if let Some(t) = (0..TILE_KINDS).find(|&t| all[t] > 4) {
            return Err(Error::input(format!("{} copies of {} (at most 4)", all[t], tile_name(t as Tile))));
        }
        let size = self.standing_len() + 3 * self.melds.len();
        let ok = if self.win_tile.is_some() { size == 14 } else { size == 13 || size == 14 };
        if !ok {
            return Err(Error::input(format!(
                "{size} tiles (sets counted as 3): a hand has 13, or 14 with the winning tile"
            )));
        }
        Ok(())
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.melds.iter().map(|m| m.to_string()).collect();
        // Printed as the vectors write hands: characters, dots, bamboo, honors.
        for t in (0..9).chain(18..27).chain(9..18).chain(27..TILE_KINDS) {
            for _ in 0..self.concealed[t] {
                parts.push(tile_name(t as Tile));
            }
        }
        if let Some(w) = self.win_tile {
            parts.push("|".into());
            parts.push(tile_name(w));
        }
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_name_round_trips() {
        for t in 0..TILE_KINDS as Tile {
            assert_eq!(parse_tile(&tile_name(t)).unwrap(), t);
        }
        assert_eq!(tile_name(0), "1m");
        assert_eq!(tile_name(9), "1s");
        assert_eq!(tile_name(18), "1p");
        assert_eq!(tile_name(EAST), "E");
        assert_eq!(tile_name(33), "P");
    }

    #[test]
    fn parses_the_vectors_notation() {
        let h = Hand::parse("[4m4m4m4m] [5p5p5p5p] 7m 7m 7m 8p 8p 8p 9p | 7p").unwrap();
        assert_eq!(h.melds.len(), 2);
        assert_eq!(h.melds[0], Meld { kind: MeldKind::Kong, tile: 3 });
        assert_eq!(h.win_tile, Some(parse_tile("7p").unwrap()));
        assert_eq!(h.to_string(), "[4m4m4m4m] [5p5p5p5p] 7m 7m 7m 8p 8p 8p 9p | 7p");
        let h = Hand::parse("(EEEE) [5s6s7s] 1p 2p 3p C C C F | F").unwrap();
        assert_eq!(h.melds[0].kind, MeldKind::ConcealedKong);
        assert_eq!(h.melds[1].kind, MeldKind::Chow);
        assert_eq!(h.to_string(), "(EEEE) [5s6s7s] 1p 2p 3p C C C F | F");
        // 13 tiles without a winning tile.
        assert!(Hand::parse("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C").is_ok());
    }

    #[test]
    fn rejects_bad_strings() {
        for bad in [
            "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C X | C",   // unknown tile
            "0m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C",   // rank 0
            "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C C", // two winning tiles
            "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C |",       // no winning tile
            "[1m2m4m] 4p 5p 6p 7s 8s 9s E E C C | C",   // not a set
            "[1m2m3m 4p 5p 6p 7s 8s 9s E E C C | C",    // unclosed
            "1m 1m 1m 1m 1m 6p 7s 8s 9s E E C C | C",   // five copies
            "1m 2m 3m | C",                             // too few tiles
            "(1m1m1m) 4p 5p 6p 7s 8s 9s E E C C | C",   // concealed pung is not a declared set
            "[8m9m1s] 4p 5p 6p 7s 8s 9s E E C C | C",   // a chow across suits
        ] {
            let e = Hand::parse(bad);
            assert!(e.is_err(), "{bad} should be rejected");
        }
    }
}
