//! Our bots as Botzone bots (`arena brain mahjong --botzone --bot pruned`): mahjong's engine
//! protocol. The program reads one turn's input as Botzone gives it (the JSON line, or the simple
//! interaction's lines, told apart by the first character), follows the table through the
//! requests, answers the last one in the same format, then prints
//! `>>>BOTZONE_REQUEST_KEEP_RUNNING<<<` and waits for the next request: kept running, it answers
//! one request a line; run afresh every turn (its input closed), it exits.
//!
//! The requests tell a seat everything it sees, so the table is rebuilt from them
//! (`Mahjong::rebuild`: the seat's hand, every declared set and discard, the flowers, the tiles
//! left) and the bot asked on its view, as at our own table. Turns with nothing to decide (the
//! deal, others' draws, a discard it cannot claim) are answered `PASS` without asking it. A pung
//! or chow is answered with the discard the bot then chooses (`PENG T`, `CHI M T`).
//!
//! The table is the `botzone` preset unless `--table` says otherwise; the tiles left in the wall
//! are counted from 144 with flowers (136 without), as the judge's wall is given.

use std::io::{self, BufRead, Write};

use rand::SeedableRng;
use serde_json::Value;

use super::super::engine::{Action, Asked, Known, Mahjong, SEATS};
use super::super::tiles::{Meld, MeldKind, Tile};
use super::text::{read_keep_running_input, Happening, Request, Response, KEEP_RUNNING};
use crate::core::{Bot, BotRng, Engine, EngineBot, EngineNames, Game, GameDef};

/// Botzone's protocol as the registry offers it.
pub fn engine() -> Engine<Mahjong> {
    Engine {
        names: EngineNames { protocol: "Botzone", program_prefix: None, default_bot: "pruned" },
        table: Some("botzone"),
        check: |bot| {
            let game = Mahjong::from_options(&bot.table, SEATS)?;
            (bot.kind.make)(&bot.params, &game).map(drop)
        },
        serve,
    }
}

fn invalid(why: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_string())
}

/// The table as this player has been told it so far.
struct Table {
    known: Known,
    /// The tiles of the whole wall, flowers included.
    tiles: usize,
    /// The tiles each player has taken from its quarter of the judge's wall.
    taken_by: [usize; SEATS],
    /// The last discard (player, tile): what a claim takes.
    last_discard: Option<(usize, Tile)>,
    /// Who drew last, while nothing else happened since (flowers aside): a kong by that player
    /// is concealed, any other kong is on the last discard.
    drawer: Option<usize>,
    /// A kong of this player's was just declared: its next draw is the replacement.
    after_kong: bool,
    /// This player's draw now is a kong's replacement.
    kong_draw: bool,
    /// This player's last response (a concealed kong's tile is named only there).
    last_response: Option<Response>,
}

impl Table {
    fn new(tiles: usize) -> Table {
        let known = Known::new(0, 0, 0);
        Table {
            known,
            tiles,
            taken_by: [0; SEATS],
            last_discard: None,
            drawer: None,
            after_kong: false,
            kong_draw: false,
            last_response: None,
        }
    }

    fn me(&self) -> usize {
        self.known.seat
    }

    fn draw(&mut self, seat: usize) {
        self.known.held[seat] += 1;
        self.take(seat);
    }

    /// A tile taken by `seat` from its quarter.
    fn take(&mut self, seat: usize) {
        self.taken_by[seat] += 1;
    }

    /// The tiles left in the wall, all quarters together.
    fn wall_left(&self) -> usize {
        self.tiles.saturating_sub(self.taken_by.iter().sum())
    }

    /// Whether player `p`'s quarter of the judge's wall is empty.
    fn quarter_empty(&self, p: usize) -> bool {
        self.taken_by[p % SEATS] >= self.tiles / SEATS
    }

    fn take_from_hand(&mut self, seat: usize, tiles: impl IntoIterator<Item = Tile>) -> io::Result<()> {
        for t in tiles {
            self.known.held[seat] = self.known.held[seat].saturating_sub(1);
            if seat == self.me() {
                let n = &mut self.known.hand[t as usize];
                *n =
                    n.checked_sub(1).ok_or_else(|| invalid(format!("no {} in the hand", super::text::tile_code(t))))?;
            }
        }
        Ok(())
    }

    /// `p`'s set (`meld` of the discarded tile) made on the last discard: the discard leaves the
    /// table, the set's other tiles `p`'s hand.
    fn claim(&mut self, p: usize, meld: impl FnOnce(Tile) -> Meld) -> io::Result<()> {
        let (from, tile) = self.last_discard.take().ok_or_else(|| invalid("a set claimed with no discard"))?;
        self.known.discards[from].pop();
        let meld = meld(tile);
        self.take_from_hand(p, meld.from_hand(tile))?;
        self.known.melds[p].push(meld);
        Ok(())
    }

    fn discard(&mut self, seat: usize, tile: Tile) -> io::Result<()> {
        self.take_from_hand(seat, [tile])?;
        self.known.discards[seat].push(tile);
        self.last_discard = Some((seat, tile));
        Ok(())
    }

    /// The tiles player `p` counts toward a hand: concealed ones, and three for each declared set
    /// (a kong's fourth tile is drawn again). 13 between turns, 14 while it is the player's turn.
    fn tiles(&self, p: usize) -> usize {
        self.known.held[p] + 3 * self.known.melds[p].len()
    }

    /// The tiles each player must count for `request` to follow what came before (the judge
    /// tells every draw and every discard, so counts never drift): `None` when any will do.
    /// The one place a history is checked, so no bot is ever asked on a table that cannot be.
    fn expected_before(&self, request: &Request) -> Option<[usize; SEATS]> {
        let turn = |p: usize| {
            let mut n = [13; SEATS];
            n[p] = 14;
            Some(n)
        };
        match request {
            Request::Init { .. } => None,
            Request::Deal { .. } => Some([0; SEATS]),
            Request::Draw(_) => Some([13; SEATS]),
            Request::Player { id, what } => match (what, *id as usize) {
                (Happening::Draw, _) => Some([13; SEATS]),
                (Happening::Flower(_), _) => None,
                (Happening::Play(_), p) => turn(p),
                (Happening::Peng(_) | Happening::Chi { .. }, _) => Some([13; SEATS]),
                (Happening::Gang, p) if self.drawer != Some(p) => Some([13; SEATS]),
                (Happening::Gang | Happening::BuGang(_), p) => turn(p),
            },
        }
    }

    /// Refuses a request that cannot follow the ones before it (e.g. a second draw of a player
    /// whose discard was never told: a 15-tile hand no bot can be asked about).
    fn check_follows(&self, request: &Request) -> io::Result<()> {
        let Some(expected) = self.expected_before(request) else { return Ok(()) };
        let me = self.me();
        let mine: usize = self.known.hand.iter().map(|&n| n as usize).sum();
        if mine != self.known.held[me] {
            return Err(invalid(format!(
                "the request `{request}` cannot follow: player {me}'s tiles were told as {} but it holds {mine}",
                self.known.held[me]
            )));
        }
        match (0..SEATS).find(|&p| self.tiles(p) != expected[p]) {
            None => Ok(()),
            Some(p) => Err(invalid(format!(
                "the request `{request}` cannot follow the ones before it: player {p} holds {} tiles (sets counted as 3), {} expected (a draw or discard was not told)",
                self.tiles(p),
                expected[p]
            ))),
        }
    }

    /// Follows one request (refused when it cannot follow the ones before).
    fn see(&mut self, request: &Request) -> io::Result<()> {
        self.check_follows(request)?;
        let drawer = self.drawer.take();
        match request {
            Request::Init { id, quan } => {
                // Our hand `4 quan` has the prevalent wind `quan` and seat 0 dealing: seat = id.
                self.known = Known::new(*id as usize, 0, 4 * *quan as usize);
            }
            Request::Deal { hand, flowers } => {
                for &t in hand {
                    self.known.hand[t as usize] += 1;
                }
                for (k, list) in flowers.iter().enumerate() {
                    self.known.flowers[k] = list.len() as u8;
                    self.known.held[k] = 13;
                    self.taken_by[k] = 13 + list.len();
                }
            }
            Request::Draw(t) => {
                self.known.hand[*t as usize] += 1;
                self.draw(self.me());
                self.drawer = Some(self.me());
                self.kong_draw = std::mem::take(&mut self.after_kong);
            }
            Request::Player { id, what } => {
                let p = *id as usize;
                match *what {
                    Happening::Draw => {
                        self.draw(p);
                        self.drawer = Some(p);
                    }
                    Happening::Flower(_) => {
                        self.known.flowers[p] += 1;
                        self.take(p);
                        // A flower's replacement is still the same draw.
                        self.drawer = drawer;
                    }
                    Happening::Play(t) => self.discard(p, t)?,
                    Happening::Peng(t) => {
                        self.claim(p, |tile| Meld { kind: MeldKind::Pung, tile })?;
                        self.discard(p, t)?;
                    }
                    Happening::Chi { mid, tile: t } => {
                        self.claim(p, |_| Meld { kind: MeldKind::Chow, tile: mid - 1 })?;
                        self.discard(p, t)?;
                    }
                    Happening::Gang if drawer != Some(p) => {
                        self.claim(p, |tile| Meld { kind: MeldKind::Kong, tile })?;
                        self.after_kong = p == self.me();
                    }
                    Happening::Gang => {
                        // A concealed kong: this player's tile is the one its response named.
                        let tile = match self.last_response {
                            Some(Response::ConcealedGang(t)) if p == self.me() => t,
                            _ if p == self.me() => return Err(invalid("a concealed kong this bot did not declare")),
                            _ => 0,
                        };
                        match p == self.me() {
                            true => self.take_from_hand(p, [tile; 4])?,
                            false => self.known.held[p] = self.known.held[p].saturating_sub(4),
                        }
                        self.known.melds[p].push(Meld { kind: MeldKind::ConcealedKong, tile });
                        self.after_kong = p == self.me();
                    }
                    Happening::BuGang(t) => {
                        self.take_from_hand(p, [t])?;
                        if let Some(m) =
                            self.known.melds[p].iter_mut().find(|m| m.kind == MeldKind::Pung && m.tile == t)
                        {
                            m.kind = MeldKind::Kong;
                        }
                        self.after_kong = p == self.me();
                    }
                }
                if !matches!(what, Happening::Draw | Happening::Flower(_) | Happening::Gang | Happening::BuGang(_)) {
                    self.after_kong = false;
                }
            }
        }
        Ok(())
    }

    /// What the last request asks of this player (`None`: only PASS).
    fn asked(&self, request: &Request) -> Option<Asked> {
        match request {
            Request::Draw(t) => Some(Asked::Turn { drawn: Some(*t), after_kong: self.kong_draw }),
            Request::Player { id, what: Happening::Play(_) | Happening::Peng(_) | Happening::Chi { .. } }
                if *id as usize != self.me() =>
            {
                let (from, tile) = self.last_discard?;
                Some(Asked::Claim { from, tile })
            }
            Request::Player { id, what: Happening::BuGang(t) } if *id as usize != self.me() => {
                Some(Asked::RobKong { from: *id as usize, tile: *t })
            }
            _ => None,
        }
    }
}

/// The bot's answer to what the table asks: our action, and for a pung or chow the discard that
/// follows it (asked of the bot on the table after the set).
fn decide(
    game: &Mahjong,
    bot: &mut dyn Bot<Mahjong>,
    table: &Table,
    asked: Asked,
    rng: &mut BotRng,
) -> io::Result<Response> {
    let me = table.me();
    // The judge's quarters: a tile is the last when the next player to draw has an empty
    // quarter, and then no set may be claimed on a discard; a concealed or added kong needs
    // tiles in the player's own quarter and the next player's.
    let (last, refused): (bool, fn(&Action) -> bool) = match asked {
        Asked::Turn { .. } if table.quarter_empty(me) || table.quarter_empty(me + 1) => {
            (table.quarter_empty(me + 1), |a| matches!(a, Action::ConcealedKong(_) | Action::AddedKong(_)))
        }
        Asked::Claim { from, .. } if table.quarter_empty(from + 1) => {
            (true, |a| matches!(a, Action::Pung | Action::Kong | Action::Chow(_)))
        }
        _ => (false, |_| false),
    };
    let mut known = table.known.clone();
    known.wall_left = if last { 0 } else { table.wall_left() };
    let s = game.rebuild(&known, asked);
    let mut view = game.view(&s, me);
    view.legal.retain(|a| !refused(a));
    let action = bot.act(game, &view, rng);
    let after_set = |meld: Meld, rng: &mut BotRng, bot: &mut dyn Bot<Mahjong>| -> io::Result<Tile> {
        let mut known = known.clone();
        let Asked::Claim { from, tile } = asked else { unreachable!("a set is claimed on a discard") };
        known.discards[from].pop();
        for x in meld.from_hand(tile) {
            known.hand[x as usize] -= 1;
            known.held[me] -= 1;
        }
        known.melds[me].push(meld);
        let s = game.rebuild(&known, Asked::Turn { drawn: None, after_kong: false });
        match bot.act(game, &game.view(&s, me), rng) {
            Action::Discard(t) => Ok(t),
            other => Err(invalid(format!("the bot answered `{other}` where it must discard"))),
        }
    };
    Ok(match action {
        Action::Pass => Response::Pass,
        Action::Win => Response::Hu,
        Action::Discard(t) => Response::Play(t),
        Action::ConcealedKong(t) => Response::ConcealedGang(t),
        Action::AddedKong(t) => Response::BuGang(t),
        Action::Kong => Response::Gang,
        Action::Pung => {
            let Asked::Claim { tile, .. } = asked else { unreachable!("a pung is a claim") };
            Response::Peng(after_set(Meld { kind: MeldKind::Pung, tile }, rng, bot)?)
        }
        Action::Chow(low) => {
            let discard = after_set(Meld { kind: MeldKind::Chow, tile: low }, rng, bot)?;
            Response::Chi { mid: low + 1, tile: discard }
        }
    })
}

/// The bot's stream for turn `turn`: a turn's answer depends on the seed and the history alone,
/// whether the bot runs afresh every turn or is kept.
fn turn_rng(seed: u64, turn: usize) -> BotRng {
    BotRng::seed_from_u64(seed ^ (turn as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The first turn's input: the requests and this bot's responses so far, and whether it came as
/// JSON.
type FirstInput = (Vec<Request>, Vec<Response>, bool);

fn first_input(input: &mut dyn BufRead) -> io::Result<Option<FirstInput>> {
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if !line.trim().is_empty() {
            break;
        }
    }
    let first = line.trim();
    let strings = |v: Option<&Value>, what: &str| -> io::Result<Vec<String>> {
        v.and_then(Value::as_array)
            .ok_or_else(|| invalid(format!("the JSON input has no `{what}` list")))?
            .iter()
            .map(|x| x.as_str().map(str::to_string).ok_or_else(|| invalid(format!("a `{what}` item is not a string"))))
            .collect()
    };
    let (requests, responses, json) = if first.starts_with('{') {
        let doc: Value = serde_json::from_str(first).map_err(|e| invalid(format!("the input is not JSON: {e}")))?;
        (strings(doc.get("requests"), "requests")?, strings(doc.get("responses"), "responses")?, true)
    } else {
        let n: usize = first.parse().map_err(|_| invalid(format!("`{first}` is not a turn number")))?;
        let mut lines = Vec::with_capacity(2 * n);
        for _ in 0..(2 * n).saturating_sub(1) {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                return Err(invalid(format!("the input ends before the {} lines of turn {n}", 2 * n - 1)));
            }
            lines.push(line.trim_end_matches(['\r', '\n']).to_string());
        }
        let requests = lines.iter().step_by(2).cloned().collect();
        let responses = lines.iter().skip(1).step_by(2).cloned().collect();
        (requests, responses, false)
    };
    if requests.len() != responses.len() + 1 {
        return Err(invalid("a turn's input has one request more than responses"));
    }
    let requests = requests.iter().map(|r| Request::parse(r).map_err(invalid)).collect::<io::Result<_>>()?;
    let responses = responses.iter().map(|r| Response::parse(r).map_err(invalid)).collect::<io::Result<_>>()?;
    Ok(Some((requests, responses, json)))
}

/// One session: the first turn's whole input, then (kept running) one request a line, until the
/// input ends.
fn serve(bot: EngineBot<Mahjong>, seed: u64, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
    let game = Mahjong::from_options(&bot.table, SEATS).map_err(invalid)?;
    let mut player = (bot.kind.make)(&bot.params, &game).map_err(invalid)?();
    let Some((requests, responses, json)) = first_input(input)? else { return Ok(()) };
    let mut table = Table::new(if game.flowers { 144 } else { 136 });
    let (last, earlier) = requests.split_last().expect("one request at least");
    for (request, response) in earlier.iter().zip(responses) {
        table.see(request)?;
        table.last_response = Some(response);
    }
    let mut turn = requests.len();
    let mut request = last.clone();
    loop {
        table.see(&request)?;
        let response = match table.asked(&request) {
            Some(asked) => decide(&game, player.as_mut(), &table, asked, &mut turn_rng(seed, turn))?,
            None => Response::Pass,
        };
        let text = match json {
            true => serde_json::json!({ "response": response.to_string() }).to_string(),
            false => response.to_string(),
        };
        table.last_response = Some(response);
        output.write_all(format!("{text}\n{KEEP_RUNNING}\n").as_bytes())?;
        output.flush()?;
        let mut line = String::new();
        loop {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                return Ok(());
            }
            if !line.trim().is_empty() {
                break;
            }
        }
        request = read_keep_running_input(&line).map_err(invalid)?;
        turn += 1;
    }
}
