//! The ACPC dealer's log (`matchName.log`) read into hands of ours: `arena import acpc`.
//!
//! A log is a header (`# name/game/hands/seed <match> <game file> <hands> <seed>` and the
//! dealer's options as `#--` comments), one `STATE:<hand>:<betting>:<cards>:<chips>:<names>` line
//! a hand (every hole card by position, the board as far as the hand went, each position's
//! result in chips, the players by position), and `SCORE:<totals>:<names>` (the totals in
//! chips, in command-line order). Each hand is played out through our rules from the cards the
//! log shows; the chips our rules give must be the log's, and the log's hands must add up to its
//! SCORE line, or the import is refused naming the line. Several logs of one seed and game are one
//! duplicate match: the same hand number is the same cards by position (the dealer draws every
//! hand's cards from one stream, whoever plays), which is checked.

use std::collections::HashMap;

use crate::cards::Card;
use crate::core::{Game, ImportFile, Imported, ImportedGame, Importer};
use crate::error::{Error, Result};

use super::super::engine::Holdem;
use super::text::{position, seat_at, MatchState};

/// The ACPC dealer's chips: 20,000 a seat every hand, blinds 50 and 100.
const STACK: u32 = 20_000;
const SMALL: u32 = 50;
const BIG: u32 = 100;

/// The game files of the official server this reader knows, and their seats: both deal 20,000
/// chips with blinds 50/100 (`holdem.nolimit.2p.reverse_blinds.game`, `holdem.nolimit.3p.game`).
const GAMES: &[(&str, usize)] = &[("holdem.nolimit.2p.reverse_blinds.game", 2), ("holdem.nolimit.3p.game", 3)];

/// `arena import acpc`.
pub fn importer() -> Importer<Holdem> {
    Importer {
        format: "acpc",
        player_kind: "acpc",
        about: "ACPC dealer logs (matchName.log) of heads-up or 3-player no-limit hold'em; two logs of one seed with the players swapped are a duplicate match",
        read,
    }
}

/// One log's hand, read and played out.
struct Hand {
    hand: u64,
    key: u64,
    state: MatchState,
    /// The player (index in the run's list) at each ACPC position.
    at: Vec<usize>,
    /// The log's chips by position.
    chips: Vec<f64>,
    place: String,
}

/// A log's header: its game file, seed and match name.
struct Header {
    name: String,
    game: String,
    seats: usize,
    seed: u64,
}

fn header(file: &ImportFile) -> Result<Header> {
    let line = file.text.lines().next().unwrap_or("");
    let at = |what: &str| Error::input(format!("{}:1: {what}", file.name));
    let rest = line
        .strip_prefix("# name/game/hands/seed ")
        .ok_or_else(|| at("not an ACPC dealer log: the first line is not `# name/game/hands/seed ...`"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let [name, game, _hands, seed] = fields[..] else {
        return Err(at("the header is `# name/game/hands/seed <match> <game file> <hands> <seed>`"));
    };
    let base = game.rsplit('/').next().unwrap_or(game);
    let seats = GAMES.iter().find(|(g, _)| *g == base).map(|(_, n)| *n).ok_or_else(|| {
        let known: Vec<&str> = GAMES.iter().map(|(g, _)| *g).collect();
        at(&format!("game file `{base}` is not one this reader knows ({})", known.join(", ")))
    })?;
    let seed = seed.parse().map_err(|_| at(&format!("seed `{seed}` is not a number")))?;
    Ok(Header { name: name.to_string(), game: base.to_string(), seats, seed })
}

/// A number of chips as the dealer prints them (`%.6f`, trailing zeros cut: `7661.5`).
fn chips(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|c| c.is_finite())
}

/// The deal's key: the same seed, game file and hand number deal the same cards.
fn deal_key(seed: u64, game: &str, hand: u64) -> u64 {
    // FNV-1a over the three.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{seed}/{game}/{hand}").bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Reads the logs (see the module's documentation).
pub fn read(files: &[ImportFile]) -> Result<Imported<Holdem>> {
    let first = files.first().ok_or_else(|| Error::input("give the dealer's log to import"))?;
    let head = header(first)?;
    let mut players: Vec<String> = Vec::new();
    let mut hands = Vec::new();
    let mut notes = Vec::new();
    for file in files {
        let h = header(file)?;
        if (h.seats, h.seed) != (head.seats, head.seed) {
            return Err(Error::input(format!(
                "{}:1: {} of seed {} beside {} ({} seed {}): one import is one match (a duplicate pair shares the seed)",
                file.name, h.game, h.seed, first.name, head.game, head.seed
            )));
        }
        let (read, score) = read_log(file, &h, &mut players)?;
        notes.push(format!(
            "{}: match {}, {} hands, seed {}; the dealer's {score}",
            file.name,
            h.name,
            read.len(),
            h.seed
        ));
        hands.extend(read);
    }
    // Every board as far as any log of its deal shows it, so a duplicate's games share it.
    let mut boards: HashMap<u64, (Vec<Card>, &Hand)> = HashMap::new();
    for hand in &hands {
        match boards.get_mut(&hand.key) {
            None => {
                boards.insert(hand.key, (hand.state.board.clone(), hand));
            }
            Some((board, seen)) => {
                let shown = &hand.state.board;
                let common = board.len().min(shown.len());
                if seen.state.hole != hand.state.hole || board[..common] != shown[..common] {
                    return Err(Error::input(format!(
                        "{}: hand {} shows other cards than {} (hand {}): not a duplicate of it",
                        hand.place, hand.hand, seen.place, seen.hand
                    )));
                }
                if shown.len() > board.len() {
                    *board = shown.clone();
                }
            }
        }
    }
    let game = Holdem::new(head.seats, SMALL, BIG, STACK);
    let mut games = Vec::with_capacity(hands.len());
    for hand in &hands {
        let board = &boards[&hand.key].0;
        let rebuilt = hand.state.replay(&game, board).map_err(|e| Error::input(format!("{}: {e}", hand.place)))?;
        let s = &rebuilt.state;
        if !s.over {
            return Err(Error::input(format!("{}: hand {} is not over under our rules", hand.place, hand.hand)));
        }
        for (p, &logged) in hand.chips.iter().enumerate() {
            let seat = seat_at(p, head.seats);
            let ours = s.stack[seat] as f64 - s.start[seat] as f64;
            // A split pot's odd chip: the dealer splits it in halves, our rules give it whole
            // to one seat (docs/book/src/acpc.md).
            let odd = logged.fract() != 0.0 && (ours - logged).abs() <= 0.5;
            if ours != logged && !odd {
                return Err(Error::input(format!(
                    "{}: hand {}: position {p} ({}) won {logged} chips in the log but {ours} under our rules",
                    hand.place, hand.hand, players[hand.at[p]]
                )));
            }
        }
        debug_assert_eq!(game.to_act(s), None);
        games.push(ImportedGame {
            dealt: rebuilt.dealt,
            actions: rebuilt.actions,
            players: (0..head.seats).map(|seat| hand.at[position(seat, head.seats)]).collect(),
            deal: hand.key,
            place: hand.place.clone(),
        });
    }
    let mut options = toml::Table::new();
    options.insert("format".into(), toml::Value::String("cash".into()));
    options.insert("small_blind".into(), toml::Value::Integer(SMALL.into()));
    options.insert("big_blind".into(), toml::Value::Integer(BIG.into()));
    options.insert("stack".into(), toml::Value::Integer((STACK / BIG).into()));
    Ok(Imported { options, seats: head.seats, players, seed: head.seed, notes, games })
}

/// One log's hands, and its SCORE line (checked against them). The players are added to
/// `players` in the first log's command-line order (its SCORE line's); a later log must have the
/// same ones.
fn read_log(file: &ImportFile, head: &Header, players: &mut Vec<String>) -> Result<(Vec<Hand>, String)> {
    let n = head.seats;
    let mut hands: Vec<Hand> = Vec::new();
    let mut lines = file.text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    // The SCORE line names the command line's order: read it first, to list the players in it.
    let last = file.text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).last();
    let Some((last_at, last_line)) = last.filter(|(_, l)| l.starts_with("SCORE:")) else {
        return Err(Error::input(format!(
            "{}:{}: the log ends without a SCORE line: the match did not finish (the dealer writes SCORE last)",
            file.name,
            last.map_or(1, |(i, _)| i + 1)
        )));
    };
    let score_at = format!("{}:{}", file.name, last_at + 1);
    let (totals, names) = last_line["SCORE:".len()..]
        .trim_end()
        .split_once(':')
        .ok_or_else(|| Error::input(format!("{score_at}: SCORE is `SCORE:<chips>|...:<name>|...`")))?;
    let names: Vec<&str> = names.split('|').collect();
    let totals: Vec<f64> = totals
        .split('|')
        .map(|t| chips(t).ok_or_else(|| Error::input(format!("{score_at}: `{t}` is not a number of chips"))))
        .collect::<Result<_>>()?;
    if names.len() != n || totals.len() != n {
        return Err(Error::input(format!("{score_at}: {n} players in a {n}-seat game, not {}", names.len())));
    }
    if players.is_empty() {
        players.extend(names.iter().map(|s| s.to_string()));
        let mut sorted = players.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() != n {
            return Err(Error::input(format!("{score_at}: two players of one name")));
        }
    } else {
        let mut a: Vec<&str> = players.iter().map(String::as_str).collect();
        let mut b = names.clone();
        a.sort();
        b.sort();
        if a != b {
            return Err(Error::input(format!(
                "{score_at}: players {} where the first log has {}: one import is one match",
                names.join(", "),
                players.join(", ")
            )));
        }
    }
    let index = |name: &str| players.iter().position(|p| p == name);
    let mut sums = vec![0.0f64; players.len()];
    for (no, line) in lines.by_ref() {
        if no == last_at + 1 {
            break;
        }
        let place = format!("{}:{no}", file.name);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(rest) = line.strip_prefix("STATE:") else {
            return Err(Error::input(format!("{place}: not a STATE line: {}", crate::error::shown(line))));
        };
        let bad = |what: String| Error::input(format!("{place}: {what}"));
        let mut tail = rest.rsplitn(3, ':');
        let (Some(who), Some(won), Some(body)) = (tail.next(), tail.next(), tail.next()) else {
            return Err(bad("a STATE line is STATE:<hand>:<betting>:<cards>:<chips>:<names>".into()));
        };
        let state = MatchState::parse_body(body).map_err(bad)?;
        if state.hole.len() != n || state.hole.iter().any(Option::is_none) {
            return Err(bad(format!("a log shows every position's hole cards, {n} of them")));
        }
        let expected = hands.len() as u64;
        if state.hand != expected {
            return Err(bad(format!("hand {} where hand {expected} comes next", state.hand)));
        }
        let who: Vec<&str> = who.split('|').collect();
        let won: Vec<f64> = won
            .split('|')
            .map(|t| chips(t).ok_or_else(|| bad(format!("`{t}` is not a number of chips"))))
            .collect::<Result<_>>()?;
        if who.len() != n || won.len() != n {
            return Err(bad(format!("{n} results and names, one a position")));
        }
        let at: Vec<usize> = who
            .iter()
            .map(|w| index(w).ok_or_else(|| bad(format!("player `{w}` is not in the SCORE line"))))
            .collect::<Result<_>>()?;
        for (p, &c) in won.iter().enumerate() {
            sums[at[p]] += c;
        }
        let hand = state.hand;
        let key = deal_key(head.seed, &head.game, hand);
        hands.push(Hand { hand, key, state, at, chips: won, place });
    }
    for (name, total) in names.iter().zip(&totals) {
        let sum = sums[index(name).expect("a SCORE name is a player")];
        // Halves add up exactly in a double.
        if sum != *total {
            return Err(Error::input(format!(
                "{score_at}: SCORE gives {name} {total} chips but the hands add up to {sum}"
            )));
        }
    }
    Ok((hands, last_line.trim_end().to_string()))
}
