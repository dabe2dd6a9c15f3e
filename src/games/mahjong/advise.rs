//! `arena advise mahjong`: shanten, effective tiles and fans of one hand, or the fans of every hand
//! of a JSON-lines file in the reference vectors' format.
//!
//! ```text
//! $ arena advise mahjong --hand "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C" --seat-wind S
//! hand: 1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C
//! shanten: -1 (complete)
//! fans:
//!   Mixed Straight                        8 x1
//!   All Types                             6 x1
//!   Dragon Pung                           2 x1
//!   Concealed Hand                        2 x1
//! total: 18 (8-fan minimum met)
//!
//! $ arena advise mahjong --hand "[1m2m3m] 4p 5p 6p 7s 8s 9s E E C C"
//! hand: [1m2m3m] 4p 5p 6p 7s 8s 9s E E C C
//! shanten: 0
//! effective tiles: E x2, C x2 (4 copies unseen)
//!
//! $ arena advise mahjong --hand "1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F"
//! hand: 1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F
//! shanten: 0
//! discards (shanten after, effective tiles):
//!   F    0  E x2, C x2 (4 copies unseen)
//!   1m   1  1m x3, 4m x4, E x2, C x2 (11 copies unseen)
//!   ...
//!
//! $ arena advise mahjong --batch tests/data/mcr_fans_sample.jsonl
//! 0,15,Two Melded Kongs x1;Last Tile x1;One Voided Suit x1;No Honors x1;Flower Tiles x5
//! 1,10,Mixed Straight x1;All Chows x1
//! ...
//! ```
//! With 14 tiles that are not complete, every discard is listed with the shanten it leaves and its
//! effective tiles. `--seen` lists tiles already visible (discards, other players' sets) so the
//! unseen-copy counts are right. Context flags follow the vectors: `--self-drawn`, `--fourth-tile`
//! (Last Tile), `--kong-related` (replacement tile / robbing the kong), `--last-wall-tile`,
//! `--flowers N`, `--seat-wind`, `--prevalent-wind` (E, S, W or N).

use std::path::PathBuf;

use serde::Serialize;

use super::fans::{score, Score, WinContext, WinningHand};
use super::shanten::{effective_tiles, shanten};
use super::tiles::{parse_tile, tile_name, Counts, Hand, Meld, Tile, TILE_KINDS};
use crate::error::{Error, Result};

#[derive(clap::Args, Debug, Default)]
pub struct AdviseArgs {
    /// The hand: `1m`..`9s`, `E S W N C F P`, `[...]` declared sets, `(...)` concealed kongs,
    /// `|` before the winning tile.
    #[arg(long)]
    pub hand: Option<String>,
    /// Score every hand of a JSON-lines file (the vectors' format); prints `id,total,fans`.
    #[arg(long)]
    pub batch: Option<PathBuf>,
    /// Tiles already visible elsewhere (discards, others' sets), for the unseen counts.
    #[arg(long)]
    pub seen: Option<String>,
    /// The winning tile was drawn from the wall (not claimed from a discard)
    #[arg(long)]
    pub self_drawn: bool,
    /// The winning tile is the last copy ("Last Tile").
    #[arg(long)]
    pub fourth_tile: bool,
    /// Won on a kong's replacement tile (self-drawn) or by robbing a kong (on a discard).
    #[arg(long)]
    pub kong_related: bool,
    /// Won on the wall's last tile.
    #[arg(long)]
    pub last_wall_tile: bool,
    /// Flower tiles (1 point each, not counted toward the 8-fan minimum).
    #[arg(long, default_value_t = 0)]
    pub flowers: u8,
    /// The seat's own wind: E, S, W or N
    #[arg(long, default_value = "E")]
    pub seat_wind: String,
    /// The round's prevailing wind: E, S, W or N
    #[arg(long, default_value = "E")]
    pub prevalent_wind: String,
    /// With 14 tiles: also show the pruned search's discard, its arrangements and best paths.
    #[arg(long)]
    pub explain: bool,
    /// Live wall tiles left, for `--explain` (draws left = a quarter of it).
    #[arg(long, default_value_t = 60)]
    pub wall_left: usize,
}

/// The 8-fan minimum of MCR (flowers excluded).
const MINIMUM: u32 = 8;

/// What the adviser says: of one hand, or of every hand of a vectors file. Its text and its
/// JSON are this one value's `Display` and `Serialize`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Hand(HandAnswer),
    Batch(Vec<BatchLine>),
}

/// One hand: its shanten, and what it leads to: the effective tiles of 13 tiles, the fans of a
/// win, or every discard of 14 tiles that are not one.
#[derive(Debug, Serialize)]
pub struct HandAnswer {
    game: &'static str,
    hand: String,
    shanten: i8,
    #[serde(skip_serializing_if = "Option::is_none")]
    effective_tiles: Option<Vec<Unseen>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fans: Option<Vec<FanCount>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum_met: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discards: Option<Vec<Discard>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<String>,
    /// The hand is complete (shanten -1) as it stands.
    #[serde(skip)]
    complete: bool,
}

/// A tile that would improve the hand, and its copies not yet seen.
#[derive(Debug, Serialize)]
pub struct Unseen {
    tile: String,
    unseen: u8,
}

/// One fan of a win and how many times it counts.
#[derive(Debug, Serialize)]
pub struct FanCount {
    fan: &'static str,
    points: u32,
    count: u32,
}

/// A discard of a 14-tile hand, the shanten it leaves and the tiles that then help.
#[derive(Debug, Serialize)]
pub struct Discard {
    discard: String,
    shanten_after: i8,
    effective_tiles: Vec<Unseen>,
}

/// One hand of a vectors file: its total and fans (total 0 and no fans when it is not a win).
#[derive(Debug, Serialize)]
pub struct BatchLine {
    id: String,
    total: u32,
    fans: Option<Vec<FanCount>>,
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Hand(hand) => hand.fmt(f),
            Answer::Batch(lines) => lines.iter().try_for_each(|line| match &line.fans {
                Some(fans) => {
                    let fans: Vec<String> = fans.iter().map(|c| format!("{} x{}", c.fan, c.count)).collect();
                    writeln!(f, "{},{},{}", line.id, line.total, fans.join(";"))
                }
                None => writeln!(f, "{},0,", line.id),
            }),
        }
    }
}

impl std::fmt::Display for HandAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "hand: {}", self.hand)?;
        if self.complete {
            writeln!(f, "shanten: -1 (complete)")?;
            if self.fans.is_none() && self.discards.is_none() {
                writeln!(f, "mark the winning tile with `|` to score the fans")?;
            }
        }
        if let (Some(fans), Some(total), Some(met)) = (&self.fans, self.total, self.minimum_met) {
            writeln!(f, "fans:")?;
            for c in fans {
                writeln!(f, "  {:<36} {:>2} x{}", c.fan, c.points, c.count)?;
            }
            writeln!(f, "total: {total} ({MINIMUM}-fan minimum {})", if met { "met" } else { "NOT met" })?;
        }
        // A complete hand whose marked tile scores no win is shown as any 14 tiles: by discard.
        if !self.complete || self.discards.is_some() {
            writeln!(f, "shanten: {}", self.shanten)?;
        }
        if let Some(eff) = &self.effective_tiles {
            writeln!(f, "effective tiles: {}", effective_text(eff))?;
        }
        if let Some(discards) = &self.discards {
            writeln!(f, "discards (shanten after, effective tiles):")?;
            for d in discards {
                writeln!(f, "  {:<3} {:>2}  {}", d.discard, d.shanten_after, effective_text(&d.effective_tiles))?;
            }
        }
        if let Some(explained) = &self.explain {
            writeln!(f, "explain:")?;
            explained.lines().try_for_each(|line| writeln!(f, "  {line}"))?;
        }
        Ok(())
    }
}

pub fn run(args: &AdviseArgs) -> Result<Answer> {
    match (&args.hand, &args.batch) {
        (Some(h), None) => advise_hand(h, args).map(Answer::Hand),
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| Error::bad_path(path, e))?;
            Ok(batch_answer(batch_scores(&text)?))
        }
        _ => Err(Error::input("give exactly one of --hand or --batch")),
    }
}

/// A wind letter; empty means East (the default).
fn wind(s: &str) -> Result<u8> {
    if s.is_empty() {
        return Ok(0);
    }
    ["E", "S", "W", "N"]
        .iter()
        .position(|w| w.eq_ignore_ascii_case(s))
        .map(|w| w as u8)
        .ok_or_else(|| Error::input(format!("bad wind `{s}` (expected E, S, W or N)")))
}

fn context(args: &AdviseArgs) -> Result<WinContext> {
    Ok(WinContext {
        self_drawn: args.self_drawn,
        fourth_tile: args.fourth_tile,
        kong_related: args.kong_related,
        last_wall_tile: args.last_wall_tile,
        flowers: args.flowers,
        seat_wind: wind(&args.seat_wind)?,
        prevalent_wind: wind(&args.prevalent_wind)?,
    })
}

fn fans(s: &Score) -> Vec<FanCount> {
    s.table.fans().map(|(f, count)| FanCount { fan: f.name(), points: f.points(), count }).collect()
}

fn unseen(eff: &[(Tile, u8)]) -> Vec<Unseen> {
    eff.iter().map(|&(t, n)| Unseen { tile: tile_name(t).to_string(), unseen: n }).collect()
}

fn effective_text(eff: &[Unseen]) -> String {
    if eff.is_empty() {
        return "none".into();
    }
    let list: Vec<String> = eff.iter().map(|u| format!("{} x{}", u.tile, u.unseen)).collect();
    let total: u32 = eff.iter().map(|u| u.unseen as u32).sum();
    format!("{} ({total} copies unseen)", list.join(", "))
}

fn advise_hand(text: &str, args: &AdviseArgs) -> Result<HandAnswer> {
    let hand = Hand::parse(text)?;
    let ctx = context(args)?;
    let mut visible = [0u8; TILE_KINDS];
    if let Some(seen) = &args.seen {
        for tok in seen.split_whitespace() {
            visible[parse_tile(tok)? as usize] += 1;
        }
    }
    // Own declared sets are visible too.
    for m in &hand.melds {
        for t in m.tiles() {
            visible[t as usize] += 1;
        }
    }
    let standing = hand.standing_with_win();
    let declared = hand.melds.len();
    let s = shanten(&standing, declared);
    let mut answer = HandAnswer {
        game: "mahjong",
        hand: hand.to_string(),
        shanten: s,
        effective_tiles: None,
        fans: None,
        total: None,
        minimum_met: None,
        discards: None,
        explain: None,
        complete: false,
    };
    if hand.standing_len() + 3 * declared == 13 {
        let (s, eff) = effective_tiles(&standing, declared, &visible);
        answer.shanten = s;
        answer.effective_tiles = Some(unseen(&eff));
        return Ok(answer);
    }
    if s == -1 {
        answer.complete = true;
        let Some(win) = hand.win_tile else { return Ok(answer) };
        let wh = WinningHand { melds: &hand.melds, concealed: &hand.concealed, win_tile: win };
        if let Some(sc) = score(&wh, &ctx) {
            answer.fans = Some(fans(&sc));
            answer.total = Some(sc.total);
            answer.minimum_met = Some(sc.total - ctx.flowers as u32 >= MINIMUM);
            return Ok(answer);
        }
    }
    // 14 tiles, not a win: every distinct discard.
    // (shanten after, effective copies, discard, effective tiles)
    type Choice = (i8, u32, Tile, Vec<(Tile, u8)>);
    let mut options: Vec<Choice> = Vec::new();
    for t in 0..TILE_KINDS {
        if standing[t] == 0 {
            continue;
        }
        let mut c: Counts = standing;
        c[t] -= 1;
        // The discarded copy is visible from then on.
        let mut seen = visible;
        seen[t] += 1;
        let (after, eff) = effective_tiles(&c, declared, &seen);
        let n: u32 = eff.iter().map(|e| e.1 as u32).sum();
        options.push((after, n, t as Tile, eff));
    }
    options.sort_by_key(|o| (o.0, std::cmp::Reverse(o.1), o.2));
    answer.discards = Some(
        options
            .iter()
            .map(|(after, _, t, eff)| Discard {
                discard: tile_name(*t).to_string(),
                shanten_after: *after,
                effective_tiles: unseen(eff),
            })
            .collect(),
    );
    if args.explain {
        let seat = wind(&args.seat_wind)? as usize;
        answer.explain = Some(super::ai::explain::explain(&standing, &hand.melds, &visible, args.wall_left, seat));
    }
    Ok(answer)
}

/// One vectors line: the fields the calculator reads (missing flags default to off / East).
fn batch_line(line: &str) -> Result<(String, Option<Score>)> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| Error::input(format!("bad JSON: {e}")))?;
    let id = match &v["id"] {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let tiles = |val: &serde_json::Value| -> Result<Vec<Tile>> {
        val.as_array()
            .ok_or_else(|| Error::input("expected a list of tiles"))?
            .iter()
            .map(|t| parse_tile(t.as_str().unwrap_or("?")))
            .collect()
    };
    let mut melds = Vec::new();
    for m in v["melds"].as_array().map(|a| a.as_slice()).unwrap_or(&[]) {
        let kind = m["type"].as_str().unwrap_or("");
        if !["chow", "pung", "kong", "concealed_kong"].contains(&kind) {
            return Err(Error::input(format!("bad meld type `{kind}`")));
        }
        melds.push(Meld::from_tiles(&tiles(&m["tiles"])?, kind == "concealed_kong")?);
    }
    let concealed = tiles(&v["concealed"])?;
    let win = parse_tile(v["win_tile"].as_str().ok_or_else(|| Error::input("no win_tile"))?)?;
    let hand = Hand::from_parts(melds, &concealed, Some(win))?;
    let flag = |k: &str| v[k].as_bool().unwrap_or(false);
    let ctx = WinContext {
        self_drawn: flag("self_drawn"),
        fourth_tile: flag("fourth_tile"),
        kong_related: flag("kong_related"),
        last_wall_tile: flag("last_wall_tile"),
        flowers: v["flowers"].as_u64().unwrap_or(0).min(8) as u8,
        seat_wind: wind(v["seat_wind"].as_str().unwrap_or("E"))?,
        prevalent_wind: wind(v["prevalent_wind"].as_str().unwrap_or("E"))?,
    };
    let wh = WinningHand { melds: &hand.melds, concealed: &hand.concealed, win_tile: win };
    Ok((id, score(&wh, &ctx)))
}

/// Every hand of a vectors file, scored (`None`: not a win), in file order.
fn batch_scores(text: &str) -> Result<Vec<(String, Option<Score>)>> {
    let lines = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty());
    lines.map(|(i, line)| batch_line(line).map_err(|e| Error::input(format!("line {}: {e}", i + 1)))).collect()
}

/// The answer for a file's scored hands, in file order.
fn batch_answer(scores: Vec<(String, Option<Score>)>) -> Answer {
    let line = |(id, s): (String, Option<Score>)| BatchLine {
        id,
        total: s.as_ref().map_or(0, |s| s.total),
        fans: s.as_ref().map(fans),
    };
    Answer::Batch(scores.into_iter().map(line).collect())
}

/// `id,total,fans` per line of a vectors file.
#[cfg(test)]
fn batch(text: &str) -> Result<String> {
    batch_scores(text).map(|scores| batch_answer(scores).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(hand: &str) -> AdviseArgs {
        AdviseArgs { hand: Some(hand.into()), seat_wind: "E".into(), prevalent_wind: "E".into(), ..Default::default() }
    }

    #[test]
    fn complete_hand_shows_fans_and_total() {
        let out = run(&args("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C")).unwrap().to_string();
        assert!(out.contains("shanten: -1 (complete)"), "{out}");
        assert!(out.contains("Dragon Pung"), "{out}");
        assert!(out.contains("total: "), "{out}");
    }

    #[test]
    fn ready_hand_shows_effective_tiles() {
        let out = run(&args("[1m2m3m] 4p 5p 6p 7s 8s 9s E E C C")).unwrap().to_string();
        assert!(out.contains("shanten: 0"), "{out}");
        assert!(out.contains("effective tiles: E x2, C x2 (4 copies unseen)"), "{out}");
    }

    #[test]
    fn fourteen_tiles_list_discards() {
        let out = run(&args("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C F")).unwrap().to_string();
        assert!(out.contains("discards"), "{out}");
        assert!(out.lines().any(|l| l.trim_start().starts_with("F ") && l.contains(" 0 ")), "{out}");
    }

    #[test]
    fn bad_input_is_an_input_error() {
        assert!(run(&args("1m 2m 3m X")).is_err());
        let mut a = args("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C C | C");
        a.seat_wind = "Q".into();
        assert!(run(&a).is_err());
        assert!(run(&AdviseArgs::default()).is_err());
        assert!(batch("{not json").is_err());
    }

    #[test]
    fn batch_reproduces_the_vectors() {
        let text = include_str!("../../../tests/data/mcr_fans_sample.jsonl");
        let out = batch(text).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 196);
        for (line, json) in lines.iter().zip(text.lines()) {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            let fans: Vec<String> = v["fans"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| format!("{} x{}", f["name_en"].as_str().unwrap(), f["count"]))
                .collect();
            let want = format!("{},{},{}", v["id"], v["total"], fans.join(";"));
            assert_eq!(*line, want);
        }
    }
}
