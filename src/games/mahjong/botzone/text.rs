//! Botzone's Chinese Standard Mahjong protocol as text, both ways: tiles, the judge's requests,
//! a bot's responses, the two input formats a bot reads on one turn (simple lines and JSON) and
//! the output it prints back, keep-running included. No process is started here; the types are
//! what a later bot kind (a Botzone bot at our table) and an agent (our bots on Botzone) share.
//!
//! Why a text layer of its own: a Botzone bot reads only these strings, and the judge punishes a
//! malformed or out-of-place answer with −30, so every string is parsed into a type that says
//! exactly what it is (never a panic: a bot's output is arbitrary bytes), and written back to the
//! letter (`Display`), so that what we send is what Botzone sends.
//!
//! Tiles: Botzone's `W` (characters) is our `m`, `B` (dots) our `p`, `T` (bamboo) our `s`, `F1..F4`
//! the winds East South West North, `J1..J3` the dragons red, green, white (our `C F P`), and
//! `H1..H8` the eight flowers, which our engine does not tell apart (one [`FLOWER`] kind): a flower
//! is named by its number here.
//!
//! [`FLOWER`]: super::super::engine::FLOWER

use std::fmt;

use serde_json::Value;

#[cfg(test)]
use super::super::tiles::TILE_KINDS;
use super::super::tiles::{is_honor, rank, suit, Tile};

/// The line that ends a keep-running bot's output for a turn.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// Botzone's players (ids 0..4, id = seat wind, 0 = East = the dealer).
pub const PLAYERS: usize = 4;

/// Flowers in a wall that has them.
pub const FLOWERS: u8 = 8;

/// What a Botzone tile code names: one of our 34 kinds, or flower `1..=8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    Tile(Tile),
    Flower(u8),
}

/// Botzone's code of one of our kinds (`W5`, `T1`, `F3`, `J2`).
pub fn tile_code(t: Tile) -> String {
    let (letter, number) = match suit(t) {
        0 => ('W', rank(t)),
        1 => ('T', rank(t)),
        2 => ('B', rank(t)),
        _ if t < 31 => ('F', t - 26),
        _ => ('J', t - 30),
    };
    format!("{letter}{number}")
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Piece::Tile(t) => f.write_str(&tile_code(t)),
            Piece::Flower(n) => write!(f, "H{n}"),
        }
    }
}

impl Piece {
    /// Reads a code (`W1`..`W9`, `B1`..`B9`, `T1`..`T9`, `F1`..`F4`, `J1`..`J3`, `H1`..`H8`).
    pub fn parse(code: &str) -> Result<Piece, String> {
        let bad = || format!("`{}` is not a Botzone tile (W1-9, B1-9, T1-9, F1-4, J1-3, H1-8)", code.escape_debug());
        let mut chars = code.chars();
        let (Some(letter), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        let n = digit.to_digit(10).filter(|&n| n >= 1).ok_or_else(bad)? as u8;
        let (base, most) = match letter {
            'W' => (0, 9),
            'T' => (9, 9),
            'B' => (18, 9),
            'F' => (27, 4),
            'J' => (31, 3),
            'H' if n <= FLOWERS => return Ok(Piece::Flower(n)),
            _ => return Err(bad()),
        };
        if n > most {
            return Err(bad());
        }
        Ok(Piece::Tile(base + n - 1))
    }
}

/// Reads a code that must be a tile, not a flower.
pub fn parse_tile(code: &str) -> Result<Tile, String> {
    match Piece::parse(code)? {
        Piece::Tile(t) => Ok(t),
        Piece::Flower(_) => Err(format!("`{code}` is a flower where a tile is needed")),
    }
}

fn parse_flower(code: &str) -> Result<u8, String> {
    match Piece::parse(code)? {
        Piece::Flower(n) => Ok(n),
        Piece::Tile(_) => Err(format!("`{code}` is not a flower (H1-H8)")),
    }
}

/// Reads a player id `0..4`.
fn parse_player(word: &str) -> Result<u8, String> {
    match word {
        "0" | "1" | "2" | "3" => Ok(word.as_bytes()[0] - b'0'),
        _ => Err(format!("`{}` is not a player id (0-3)", word.escape_debug())),
    }
}

/// What another player (or this bot, as everyone sees it) did: the tail of a `3 p ...` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// `DRAW`: the player drew (the tile is not shown).
    Draw,
    /// `BUHUA Hn`: the player drew flower `n`, set it aside, and draws again.
    Flower(u8),
    /// `PLAY T`: a discard.
    Play(Tile),
    /// `PENG T`: a pung of the last discard, then `T` discarded.
    Peng(Tile),
    /// `CHI M T`: a chow whose middle tile is `mid` from the last discard, then `tile` discarded.
    Chi { mid: Tile, tile: Tile },
    /// `GANG`: a kong, concealed (after its own draw) or on the last discard; it draws again.
    Gang,
    /// `BUGANG T`: a tile added to a pung; it may be robbed.
    BuGang(Tile),
}

/// A request of Botzone's judge to one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `0 id quan`: the player's id (its seat wind) and the prevalent wind.
    Init { id: u8, quan: u8 },
    /// `1 h0 h1 h2 h3 <13 tiles> <flowers of player 0> ... <flowers of player 3>`.
    Deal { hand: [Tile; 13], flowers: [Vec<u8>; PLAYERS] },
    /// `2 T`: this player drew `T`.
    Draw(Tile),
    /// `3 p ...`: what player `p` did.
    Player { id: u8, what: Happening },
}

impl fmt::Display for Happening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Happening::Draw => f.write_str("DRAW"),
            Happening::Flower(n) => write!(f, "BUHUA {}", Piece::Flower(*n)),
            Happening::Play(t) => write!(f, "PLAY {}", tile_code(*t)),
            Happening::Peng(t) => write!(f, "PENG {}", tile_code(*t)),
            Happening::Chi { mid, tile } => write!(f, "CHI {} {}", tile_code(*mid), tile_code(*tile)),
            Happening::Gang => f.write_str("GANG"),
            Happening::BuGang(t) => write!(f, "BUGANG {}", tile_code(*t)),
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Init { id, quan } => write!(f, "0 {id} {quan}"),
            Request::Deal { hand, flowers } => {
                f.write_str("1")?;
                for list in flowers {
                    write!(f, " {}", list.len())?;
                }
                for &t in hand {
                    write!(f, " {}", tile_code(t))?;
                }
                for &n in flowers.iter().flatten() {
                    write!(f, " {}", Piece::Flower(n))?;
                }
                Ok(())
            }
            Request::Draw(t) => write!(f, "2 {}", tile_code(*t)),
            Request::Player { id, what } => write!(f, "3 {id} {what}"),
        }
    }
}

/// Requires exactly `n` words.
fn arity(words: &[&str], n: usize, what: &str) -> Result<(), String> {
    if words.len() == n {
        Ok(())
    } else {
        Err(format!("{what} has {} words where it takes {n}", words.len()))
    }
}

impl Request {
    /// Reads one request line (words separated by single spaces or any white space).
    pub fn parse(line: &str) -> Result<Request, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("0") => {
                arity(&words, 3, "request 0")?;
                Ok(Request::Init { id: parse_player(words[1])?, quan: parse_player(words[2])? })
            }
            Some("1") => Self::parse_deal(&words[1..]),
            Some("2") => {
                arity(&words, 2, "request 2")?;
                Ok(Request::Draw(parse_tile(words[1])?))
            }
            Some("3") => {
                if words.len() < 3 {
                    return Err("request 3 needs a player and what it did".into());
                }
                let id = parse_player(words[1])?;
                Ok(Request::Player { id, what: Self::parse_happening(&words[2..])? })
            }
            Some(other) => Err(format!("`{}` is not a request type (0-3)", other.escape_debug())),
            None => Err("an empty request".into()),
        }
    }

    fn parse_deal(words: &[&str]) -> Result<Request, String> {
        if words.len() < 4 + 13 {
            return Err(format!("request 1 needs 4 flower counts and 13 tiles, not {} words", words.len()));
        }
        let mut counts = [0usize; PLAYERS];
        for (c, w) in counts.iter_mut().zip(words) {
            *c = w.parse::<u8>().map_err(|_| format!("`{}` is not a flower count", w.escape_debug()))? as usize;
        }
        let total: usize = counts.iter().sum();
        if words.len() != 4 + 13 + total {
            return Err(format!("request 1 lists {} flowers where its counts say {total}", words.len() - 17));
        }
        let mut hand = [0; 13];
        for (t, w) in hand.iter_mut().zip(&words[4..17]) {
            *t = parse_tile(w)?;
        }
        let mut rest = words[17..].iter();
        let mut flowers: [Vec<u8>; PLAYERS] = Default::default();
        for (list, &c) in flowers.iter_mut().zip(&counts) {
            for w in rest.by_ref().take(c) {
                list.push(parse_flower(w)?);
            }
        }
        Ok(Request::Deal { hand, flowers })
    }

    fn parse_happening(words: &[&str]) -> Result<Happening, String> {
        let verb = words[0];
        let n = match verb {
            "DRAW" | "GANG" => 1,
            "BUHUA" | "PLAY" | "PENG" | "BUGANG" => 2,
            "CHI" => 3,
            _ => {
                return Err(format!("`{}` is not an event (DRAW BUHUA PLAY PENG CHI GANG BUGANG)", verb.escape_debug()))
            }
        };
        arity(words, n, verb)?;
        Ok(match verb {
            "DRAW" => Happening::Draw,
            "GANG" => Happening::Gang,
            "BUHUA" => Happening::Flower(parse_flower(words[1])?),
            "PLAY" => Happening::Play(parse_tile(words[1])?),
            "PENG" => Happening::Peng(parse_tile(words[1])?),
            "BUGANG" => Happening::BuGang(parse_tile(words[1])?),
            _ => Happening::Chi { mid: parse_chow_middle(words[1])?, tile: parse_tile(words[2])? },
        })
    }
}

/// A chow's middle tile: a suited tile of rank 2 to 8.
fn parse_chow_middle(code: &str) -> Result<Tile, String> {
    let t = parse_tile(code)?;
    if is_honor(t) || !(2..=8).contains(&rank(t)) {
        return Err(format!("`{code}` cannot be the middle of a chow (a suited 2-8)"));
    }
    Ok(t)
}

/// A bot's answer to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Response {
    Pass,
    /// `PLAY T`: discard after its own draw.
    Play(Tile),
    /// `GANG T`: a concealed kong of `T` after its own draw.
    ConcealedGang(Tile),
    /// `GANG`: a kong on another player's discard.
    Gang,
    /// `BUGANG T`: add `T` to its pung after its own draw.
    BuGang(Tile),
    /// `PENG T`: pung the discard, then discard `T`.
    Peng(Tile),
    /// `CHI M T`: chow the discard with middle tile `mid`, then discard `tile`.
    Chi {
        mid: Tile,
        tile: Tile,
    },
    Hu,
}

/// What a response is, without its tiles (what [`allowed`] lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Pass,
    Play,
    ConcealedGang,
    Gang,
    BuGang,
    Peng,
    Chi,
    Hu,
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Response::Pass => f.write_str("PASS"),
            Response::Play(t) => write!(f, "PLAY {}", tile_code(t)),
            Response::ConcealedGang(t) => write!(f, "GANG {}", tile_code(t)),
            Response::Gang => f.write_str("GANG"),
            Response::BuGang(t) => write!(f, "BUGANG {}", tile_code(t)),
            Response::Peng(t) => write!(f, "PENG {}", tile_code(t)),
            Response::Chi { mid, tile } => write!(f, "CHI {} {}", tile_code(mid), tile_code(tile)),
            Response::Hu => f.write_str("HU"),
        }
    }
}

impl Response {
    /// Reads a response line. The judge splits it at every single space (two spaces make an empty
    /// word) and takes the verb and the word count as they are, so this is as strict: upper-case
    /// verbs, one space between words, the exact number of words.
    pub fn parse(line: &str) -> Result<Response, String> {
        if line.is_empty() {
            return Err("an empty response".into());
        }
        let words: Vec<&str> = line.split(' ').collect();
        if words.iter().any(|w| w.is_empty()) {
            return Err(format!("`{}` has an empty word: the judge splits at every space", line.escape_debug()));
        }
        Ok(match words.as_slice() {
            ["PASS"] => Response::Pass,
            ["HU"] => Response::Hu,
            ["GANG"] => Response::Gang,
            ["GANG", t] => Response::ConcealedGang(parse_tile(t)?),
            ["PLAY", t] => Response::Play(parse_tile(t)?),
            ["BUGANG", t] => Response::BuGang(parse_tile(t)?),
            ["PENG", t] => Response::Peng(parse_tile(t)?),
            ["CHI", m, t] => Response::Chi { mid: parse_chow_middle(m)?, tile: parse_tile(t)? },
            _ => {
                let shown: String = line.chars().take(60).collect();
                return Err(format!(
                    "`{}` is not a response (PASS, PLAY T, GANG [T], BUGANG T, PENG T, CHI M T, HU)",
                    shown.escape_debug()
                ));
            }
        })
    }

    pub fn kind(&self) -> Kind {
        match self {
            Response::Pass => Kind::Pass,
            Response::Play(_) => Kind::Play,
            Response::ConcealedGang(_) => Kind::ConcealedGang,
            Response::Gang => Kind::Gang,
            Response::BuGang(_) => Kind::BuGang,
            Response::Peng(_) => Kind::Peng,
            Response::Chi { .. } => Kind::Chi,
            Response::Hu => Kind::Hu,
        }
    }

    /// Whether the judge takes this kind of answer from player `me` to `request` (whether the
    /// tiles fit the hand is the rules' business, not the text's).
    pub fn check(&self, request: &Request, me: u8) -> Result<(), String> {
        if allowed(request, me).contains(&self.kind()) {
            Ok(())
        } else {
            Err(format!("`{self}` is not an answer player {me} may give to `{request}`"))
        }
    }
}

/// The kinds of answer the judge takes from player `me` to `request`: to its own draw a discard,
/// a concealed or added kong, or a win; to a discard by another (a plain one, or one after a pung
/// or chow) a pass, win, pung or kong, and a chow from the next player only; to another's added
/// kong a pass or a win (robbing it); to everything else, and to its own discard, a pass.
pub fn allowed(request: &Request, me: u8) -> &'static [Kind] {
    const PASS: &[Kind] = &[Kind::Pass];
    match request {
        Request::Draw(_) => &[Kind::Play, Kind::ConcealedGang, Kind::BuGang, Kind::Hu],
        Request::Player { id, what } if *id != me => match what {
            Happening::Play(_) | Happening::Peng(_) | Happening::Chi { .. } => {
                if (*id + 1) % PLAYERS as u8 == me {
                    &[Kind::Pass, Kind::Hu, Kind::Peng, Kind::Gang, Kind::Chi]
                } else {
                    &[Kind::Pass, Kind::Hu, Kind::Peng, Kind::Gang]
                }
            }
            Happening::BuGang(_) => &[Kind::Pass, Kind::Hu],
            Happening::Draw | Happening::Flower(_) | Happening::Gang => PASS,
        },
        _ => PASS,
    }
}

/// One bot's turn as Botzone hands it over: the requests so far (the last is the one to answer),
/// the bot's own earlier responses, and the `data` and `globaldata` it saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    requests: Vec<Request>,
    responses: Vec<Response>,
    pub data: String,
    pub globaldata: String,
}

impl History {
    /// A history needs one request more than responses.
    pub fn new(requests: Vec<Request>, responses: Vec<Response>) -> Result<History, String> {
        if requests.len() != responses.len() + 1 {
            return Err(format!(
                "{} requests and {} responses: a turn has one request more than responses",
                requests.len(),
                responses.len()
            ));
        }
        Ok(History { requests, responses, data: String::new(), globaldata: String::new() })
    }

    /// The simple interaction's input: the turn number, then requests and responses interleaved
    /// ending with the current request, then the `data` line and the `globaldata` lines. Like
    /// Botzone's local emulator, nothing follows the last request when both are empty; the data
    /// line is written (empty) when only `globaldata` is set, so the latter is not read as data.
    /// `data` must be one line.
    pub fn simple_input(&self) -> Result<String, String> {
        if self.data.contains('\n') {
            return Err("the simple interaction's data is one line; this data has a line break".into());
        }
        let mut out = format!("{}\n", self.requests.len());
        for (i, r) in self.requests.iter().enumerate() {
            out += &format!("{r}\n");
            if let Some(s) = self.responses.get(i) {
                out += &format!("{s}\n");
            }
        }
        if !self.data.is_empty() || !self.globaldata.is_empty() {
            out += &format!("{}\n", self.data);
        }
        if !self.globaldata.is_empty() {
            out += &format!("{}\n", self.globaldata.trim_end_matches('\n'));
        }
        Ok(out)
    }

    /// The JSON interaction's input: one line, `{"requests":[...],"responses":[...]}` with
    /// `data` and `globaldata` only when they are not empty, and a line break.
    pub fn json_input(&self) -> String {
        let strings = |items: Vec<String>| Value::Array(items.into_iter().map(Value::String).collect());
        let mut doc = serde_json::Map::new();
        doc.insert("requests".into(), strings(self.requests.iter().map(|r| r.to_string()).collect()));
        doc.insert("responses".into(), strings(self.responses.iter().map(|r| r.to_string()).collect()));
        for (key, value) in [("data", &self.data), ("globaldata", &self.globaldata)] {
            if !value.is_empty() {
                doc.insert(key.into(), Value::String(value.clone()));
            }
        }
        format!("{}\n", Value::Object(doc))
    }
}

/// A later turn's input to a keep-running bot: the request alone, as a line (simple) or as a JSON
/// string (JSON: what Botzone's local emulator writes, `"2 T6"` with the quotes).
pub fn keep_running_input(request: &Request, json: bool) -> String {
    if json {
        format!("{}\n", Value::String(request.to_string()))
    } else {
        format!("{request}\n")
    }
}

/// Reads a later turn's input as a keep-running bot gets it, in any of its shapes: a JSON object
/// (its last request), a JSON string, or the bare request line.
pub fn read_keep_running_input(line: &str) -> Result<Request, String> {
    let line = line.trim();
    match serde_json::from_str::<Value>(line) {
        Ok(Value::String(s)) => Request::parse(&s),
        Ok(Value::Object(o)) => match o.get("requests").and_then(Value::as_array).and_then(|r| r.last()) {
            Some(Value::String(s)) => Request::parse(s),
            _ => Err("a JSON input without a last request string".into()),
        },
        _ => Request::parse(line),
    }
}

/// What a bot printed for one turn, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub response: Response,
    pub debug: Option<String>,
    pub data: Option<String>,
    pub globaldata: Option<String>,
    /// The output ended with the keep-running line: the bot stays up for the next turn.
    pub keep_running: bool,
}

impl Answer {
    /// Reads a simple interaction's output: the response line, then optional debug, data and
    /// globaldata (the rest) lines, and the keep-running line if the bot asks for it.
    pub fn read_simple(output: &str) -> Result<Answer, String> {
        let (body, keep_running) = split_keep_running(output)?;
        let body = body.strip_suffix('\n').unwrap_or(body);
        let mut lines = body.splitn(4, '\n');
        let first = lines.next().unwrap_or("").trim_end_matches('\r');
        if first.trim().is_empty() {
            return Err("no response: the first line is empty".into());
        }
        let response = Response::parse(first)?;
        let mut part = || lines.next().map(|l| l.trim_end_matches('\r').to_string());
        Ok(Answer { response, debug: part(), data: part(), globaldata: part(), keep_running })
    }

    /// Reads a JSON interaction's output: one JSON value, compact or over several lines, either an
    /// object with `response` (and optional `debug`, `data`, `globaldata`) or a bare string taken
    /// as the response; then the keep-running line if the bot asks for it.
    pub fn read_json(output: &str) -> Result<Answer, String> {
        let (body, keep_running) = split_keep_running(output)?;
        let mut values = serde_json::Deserializer::from_str(body).into_iter::<Value>();
        let value = match values.next() {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Err(format!("the output is not JSON: {e}")),
            None => return Err("no response: the output is empty".into()),
        };
        if values.next().is_some() {
            return Err("two answers: more follows the first JSON value".into());
        }
        let text = |v: Option<&Value>, key: &str| -> Result<Option<String>, String> {
            match v {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) if key == "debug" => Ok(Some(other.to_string())),
                Some(_) => Err(format!("`{key}` is not a string")),
            }
        };
        match value {
            Value::String(s) => {
                Ok(Answer { response: Response::parse(&s)?, debug: None, data: None, globaldata: None, keep_running })
            }
            Value::Object(o) => {
                let response = match o.get("response") {
                    Some(Value::String(s)) => Response::parse(s)?,
                    Some(_) => return Err("`response` is not a string".into()),
                    None => return Err("no response: the object has no `response`".into()),
                };
                Ok(Answer {
                    response,
                    debug: text(o.get("debug"), "debug")?,
                    data: text(o.get("data"), "data")?,
                    globaldata: text(o.get("globaldata"), "globaldata")?,
                    keep_running,
                })
            }
            _ => Err("the answer is neither an object with `response` nor a string".into()),
        }
    }

    /// Reads the output and requires its response to be one the judge takes from player `me`.
    pub fn read_for(output: &str, json: bool, request: &Request, me: u8) -> Result<Answer, String> {
        let answer = if json { Answer::read_json(output)? } else { Answer::read_simple(output)? };
        answer.response.check(request, me)?;
        Ok(answer)
    }
}

/// How many bytes of `buf` hold one whole JSON value (after any leading white space), `None`
/// while it is still incomplete, an error when it cannot become JSON: how a reader of a bot's
/// pipe knows a pretty-printed answer is all there.
#[cfg(test)]
pub fn json_value_len(buf: &str) -> Option<Result<usize, String>> {
    let mut values = serde_json::Deserializer::from_str(buf).into_iter::<Value>();
    match values.next()? {
        Ok(_) => Some(Ok(values.byte_offset())),
        Err(e) if e.is_eof() => None,
        Err(e) => Some(Err(format!("the output is not JSON: {e}"))),
    }
}

/// Splits the keep-running line off the end of a turn's output: what precedes it is the answer,
/// and nothing but white space may follow it.
fn split_keep_running(output: &str) -> Result<(&str, bool), String> {
    let mut start = 0;
    for line in output.split_inclusive('\n') {
        if line.trim_end() == KEEP_RUNNING {
            let rest = &output[start + line.len()..];
            if !rest.trim().is_empty() {
                return Err("two answers: more output follows the keep-running line".into());
            }
            return Ok((&output[..start], true));
        }
        start += line.len();
    }
    Ok((output, false))
}

/// Every Botzone tile code of our kinds in kind order, then the flowers.
#[cfg(test)]
pub fn all_codes() -> impl Iterator<Item = String> {
    (0..TILE_KINDS as Tile).map(tile_code).chain((1..=FLOWERS).map(|n| Piece::Flower(n).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mahjong::tiles::{parse_tile as ours, tile_name};

    /// `parse` refuses `text`, and says `why`.
    fn refused<T: std::fmt::Debug>(parse: impl Fn(&str) -> Result<T, String>, text: &str, why: &str) {
        let e = parse(text).unwrap_err();
        assert!(e.contains(why), "{text:?}: {e}");
    }

    #[test]
    fn all_42_codes_map_to_our_tiles_as_named() {
        let pairs = [
            ("W1", "1m"),
            ("W9", "9m"),
            ("B1", "1p"),
            ("B5", "5p"),
            ("B9", "9p"),
            ("T1", "1s"),
            ("T9", "9s"),
            ("F1", "E"),
            ("F2", "S"),
            ("F3", "W"),
            ("F4", "N"),
            ("J1", "C"),
            ("J2", "F"),
            ("J3", "P"),
        ];
        for (code, name) in pairs {
            assert_eq!(Piece::parse(code), Ok(Piece::Tile(ours(name).unwrap())), "{code}");
            assert_eq!(tile_code(ours(name).unwrap()), code);
        }
        let codes: Vec<String> = all_codes().collect();
        assert_eq!(codes.len(), 42);
        let mut sorted = codes.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 42, "42 distinct codes");
        for (i, code) in codes.iter().enumerate() {
            let piece = Piece::parse(code).unwrap();
            assert_eq!(piece.to_string(), *code);
            match piece {
                Piece::Tile(t) => assert_eq!(t as usize, i, "{code} is {}", tile_name(t)),
                Piece::Flower(n) => assert_eq!(n as usize, i - 33),
            }
        }
        for bad in ["W0", "W10", "F5", "J4", "H9", "H0", "w1", "X1", "W", "", "1m", "W1 ", "Ｗ1"] {
            assert!(Piece::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn requests_read_and_write_as_the_judge_sends_them() {
        for line in [
            "0 2 1",
            "1 0 0 0 0 F4 B2 F4 B7 J1 B5 F2 B8 J2 T3 T3 F1 T7",
            "1 1 0 0 2 W1 T7 W2 J1 F1 T7 B9 B7 T9 T4 T5 B6 J3 H1 H4 H7",
            "2 T6",
            "3 1 DRAW",
            "3 1 BUHUA H2",
            "3 0 PLAY J2",
            "3 2 PENG W5",
            "3 3 CHI B3 F1",
            "3 0 GANG",
            "3 2 BUGANG T9",
        ] {
            let r = Request::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(r.to_string(), line);
        }
        let Request::Deal { hand, flowers } =
            Request::parse("1 1 0 0 2 W1 T7 W2 J1 F1 T7 B9 B7 T9 T4 T5 B6 J3 H1 H4 H7").unwrap()
        else {
            panic!("a deal")
        };
        assert_eq!(hand[0], ours("1m").unwrap());
        assert_eq!(flowers, [vec![1], vec![], vec![], vec![4, 7]]);
        assert_eq!(
            Request::parse("3 3 CHI B3 F1"),
            Ok(Request::Player { id: 3, what: Happening::Chi { mid: ours("3p").unwrap(), tile: ours("E").unwrap() } })
        );
    }

    #[test]
    fn bad_requests_say_why() {
        for (line, why) in [
            ("", "empty"),
            ("4 1", "not a request type"),
            ("0 4 1", "player id"),
            ("0 1", "takes 3"),
            ("2 H1", "flower"),
            ("2 T6 T7", "takes 2"),
            ("3 1 DRAW W1", "takes 1"),
            ("3 1 BUHUA W1", "not a flower"),
            ("3 1 EAT W1", "not an event"),
            ("3 1 CHI F2 W1", "middle of a chow"),
            ("3 1 CHI W1 W1", "middle of a chow"),
            ("1 0 0 0 1 W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4", "counts say 1"),
            ("1 0 0 0 0 W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3", "13 tiles"),
            ("1 0 0 0 x W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4", "flower count"),
            ("1 0 0 0 1 W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4 T1", "not a flower"),
        ] {
            refused(Request::parse, line, why);
        }
    }

    #[test]
    fn responses_read_and_write_as_the_judge_reads_them() {
        for line in ["PASS", "PLAY T6", "GANG W1", "GANG", "BUGANG J3", "PENG F4", "CHI B2 W9", "HU"] {
            assert_eq!(Response::parse(line).unwrap().to_string(), line);
        }
        assert_eq!(Response::parse("GANG W1"), Ok(Response::ConcealedGang(0)));
        assert_eq!(Response::parse("GANG"), Ok(Response::Gang));
        for bad in [
            "",
            "pass",
            "PLAY",
            "PLAY H1",
            "PASS PASS",
            "CHI W1 W2",
            "HU W1",
            "GANG W1 W2",
            "PLAY X9",
            "PLAY  W1",
            "PASS ",
            " PASS",
            "PLAY\tW1",
        ] {
            assert!(Response::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_judge_takes_these_answers_and_no_others() {
        let req = |s: &str| Request::parse(s).unwrap();
        use Kind::*;
        assert_eq!(allowed(&req("0 1 0"), 1), &[Pass]);
        assert_eq!(allowed(&req("1 0 0 0 0 W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4"), 2), &[Pass]);
        assert_eq!(allowed(&req("2 W1"), 3), &[Play, ConcealedGang, BuGang, Hu]);
        for own in ["3 2 PLAY W1", "3 2 PENG W1", "3 2 CHI W2 W1", "3 2 BUGANG W1", "3 2 GANG", "3 2 DRAW"] {
            assert_eq!(allowed(&req(own), 2), &[Pass], "{own}");
        }
        for discard in ["3 2 PLAY W1", "3 2 PENG W1", "3 2 CHI W2 W1"] {
            assert_eq!(allowed(&req(discard), 3), &[Pass, Hu, Peng, Gang, Chi], "next player");
            assert_eq!(allowed(&req(discard), 0), &[Pass, Hu, Peng, Gang], "opposite");
            assert_eq!(allowed(&req(discard), 1), &[Pass, Hu, Peng, Gang], "the one before");
        }
        assert_eq!(allowed(&req("3 3 PLAY W1"), 0), &[Pass, Hu, Peng, Gang, Chi], "3 is before 0");
        assert_eq!(allowed(&req("3 2 BUGANG W1"), 0), &[Pass, Hu]);
        for other in ["3 2 DRAW", "3 2 BUHUA H1", "3 2 GANG"] {
            assert_eq!(allowed(&req(other), 0), &[Pass], "{other}");
        }
        assert!(Response::Hu.check(&req("3 2 PLAY W1"), 0).is_ok());
        let e = Response::Chi { mid: 1, tile: 5 }.check(&req("3 2 PLAY W1"), 0).unwrap_err();
        assert!(e.contains("not an answer"), "{e}");
        assert!(Response::Pass.check(&req("2 W1"), 0).is_err(), "a draw needs a discard");
    }

    fn history() -> History {
        let requests = ["0 2 1", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J2 J3", "2 J1"];
        let requests = requests.iter().map(|r| Request::parse(r).unwrap()).collect();
        History::new(requests, vec![Response::Pass, Response::Pass]).unwrap()
    }

    #[test]
    fn the_simple_input_interleaves_requests_and_responses() {
        let mut h = history();
        assert_eq!(
            h.simple_input().unwrap(),
            "3\n0 2 1\nPASS\n1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J2 J3\nPASS\n2 J1\n"
        );
        h.globaldata = "g1\ng2".into();
        assert!(h.simple_input().unwrap().ends_with("2 J1\n\ng1\ng2\n"), "an empty data line before globaldata");
        h.data = "saved".into();
        assert!(h.simple_input().unwrap().ends_with("2 J1\nsaved\ng1\ng2\n"));
        h.data = "two\nlines".into();
        assert!(h.simple_input().is_err());
        assert!(History::new(vec![], vec![]).is_err());
        assert!(History::new(vec![Request::Draw(0)], vec![Response::Pass]).is_err());
    }

    #[test]
    fn the_json_input_is_one_line_with_data_only_when_set() {
        let mut h = history();
        assert_eq!(
            h.json_input(),
            concat!(
                r#"{"requests":["0 2 1","1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J2 J3","2 J1"],"#,
                r#""responses":["PASS","PASS"]}"#,
                "\n"
            )
        );
        h.data = "a \"quoted\"\nline".into();
        let doc: Value = serde_json::from_str(&h.json_input()).unwrap();
        assert_eq!(doc["data"], "a \"quoted\"\nline");
        assert!(doc.get("globaldata").is_none());
        assert_eq!(h.json_input().lines().count(), 1);
    }

    #[test]
    fn keep_running_turns_get_the_request_alone() {
        let r = Request::parse("2 T6").unwrap();
        assert_eq!(keep_running_input(&r, false), "2 T6\n");
        assert_eq!(keep_running_input(&r, true), "\"2 T6\"\n");
        for shape in ["2 T6", "\"2 T6\"", r#"{"requests":["0 1 0","2 T6"],"responses":["PASS"]}"#] {
            assert_eq!(read_keep_running_input(shape), Ok(r.clone()), "{shape}");
        }
        assert!(read_keep_running_input("{\"requests\":[]}").is_err());
        assert!(read_keep_running_input("2 H1").is_err());
    }

    #[test]
    fn simple_outputs_are_read_with_their_optional_lines() {
        let a = Answer::read_simple("PLAY T9\n").unwrap();
        assert_eq!((a.response, a.debug, a.keep_running), (Response::Play(ours("9s").unwrap()), None, false));
        let a = Answer::read_simple("PASS\nthinking\nmy data\nglobal 1\nglobal 2\n").unwrap();
        assert_eq!(a.debug.as_deref(), Some("thinking"));
        assert_eq!(a.data.as_deref(), Some("my data"));
        assert_eq!(a.globaldata.as_deref(), Some("global 1\nglobal 2"));
        let a = Answer::read_simple(&format!("HU\r\n\n{KEEP_RUNNING}\n")).unwrap();
        assert_eq!((a.response, a.keep_running), (Response::Hu, true));
        assert_eq!(a.debug.as_deref(), Some(""));
        for (bad, why) in [
            ("", "no response"),
            ("\nPASS\n", "no response"),
            ("pass\n", "not a response"),
            (&format!("PASS\n{KEEP_RUNNING}\nPLAY W1\n") as &str, "two answers"),
            (&format!("{KEEP_RUNNING}\n"), "no response"),
        ] {
            refused(Answer::read_simple, bad, why);
        }
    }

    #[test]
    fn json_outputs_are_read_compact_or_pretty() {
        let pretty = "{\n\t\"response\" : \"PASS\"\n}\n";
        assert_eq!(json_value_len(&pretty[..10]), None, "incomplete");
        assert_eq!(json_value_len(pretty), Some(Ok(pretty.trim_end().len())));
        assert!(matches!(json_value_len("PASS\n"), Some(Err(_))));
        let a = Answer::read_json(pretty).unwrap();
        assert_eq!((a.response, a.keep_running), (Response::Pass, false));
        let out = format!(
            "{{\"response\":\"PENG W5\",\"debug\":{{\"n\":1}},\"data\":\"d\",\"globaldata\":\"g\"}}\n{KEEP_RUNNING}\n"
        );
        let a = Answer::read_json(&out).unwrap();
        assert_eq!(a.response, Response::Peng(4));
        assert_eq!(
            (a.debug.as_deref(), a.data.as_deref(), a.globaldata.as_deref()),
            (Some("{\"n\":1}"), Some("d"), Some("g"))
        );
        assert!(a.keep_running);
        assert_eq!(Answer::read_json("\"HU\"").unwrap().response, Response::Hu);
        for (bad, why) in [
            ("", "no response"),
            ("PASS\n", "not JSON"),
            ("{\"response\":\"PASS\"", "not JSON"),
            ("{\"debug\":\"x\"}", "no response"),
            ("{\"response\":1}", "not a string"),
            ("{\"response\":\"PASS\"}{\"response\":\"HU\"}", "two answers"),
            ("{\"response\":\"PASS\",\"data\":[1]}", "`data` is not a string"),
            ("[\"PASS\"]", "neither"),
            ("{\"response\":\"PLAY H1\"}", "flower"),
        ] {
            refused(Answer::read_json, bad, why);
        }
    }

    #[test]
    fn an_answer_out_of_place_is_refused() {
        let discard = Request::parse("3 0 PLAY W5").unwrap();
        assert!(Answer::read_for("CHI W5 T1\n", false, &discard, 1).is_ok());
        let e = Answer::read_for("CHI W5 T1\n", false, &discard, 2).unwrap_err();
        assert!(e.contains("not an answer player 2"), "{e}");
        let e = Answer::read_for("{\"response\":\"PLAY W5\"}", true, &discard, 2).unwrap_err();
        assert!(e.contains("not an answer"), "{e}");
    }

    proptest::proptest! {
        /// Arbitrary bytes are refused or read, never a panic; what reads back writes as read.
        #[test]
        fn arbitrary_text_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..80)) {
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(r) = Request::parse(&text) {
                proptest::prop_assert_eq!(Request::parse(&r.to_string()), Ok(r));
            }
            if let Ok(r) = Response::parse(&text) {
                proptest::prop_assert_eq!(Response::parse(&r.to_string()), Ok(r));
            }
            let _ = Piece::parse(&text);
            let _ = Answer::read_simple(&text);
            let _ = Answer::read_json(&text);
            let _ = json_value_len(&text);
            let _ = read_keep_running_input(&text);
        }

        /// Words of the protocol in any order: the parsers meet real tokens, not only noise.
        #[test]
        fn protocol_words_never_panic(words in proptest::collection::vec(proptest::sample::select(vec![
            "0", "1", "2", "3", "4", "13", "DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG", "BUHUA", "HU", "PASS",
            "W1", "B5", "T9", "F4", "J3", "H8", "H1", "X1",
        ]), 0..24)) {
            let line = words.join(" ");
            if let Ok(r) = Request::parse(&line) {
                proptest::prop_assert_eq!(r.to_string(), line.clone());
            }
            if let Ok(r) = Response::parse(&line) {
                proptest::prop_assert_eq!(r.to_string(), line);
            }
        }
    }
}
