//! Smart Game Format (SGF, FF[4]) for gomoku: GM[4] is "Gomoku + Renju" in SGF's game numbers.
//!
//! One game is one game tree, `(;root;B[..];W[..]...)`; a pairing's games written one after the
//! other make an SGF collection, which is how `arena replay --export sgf` writes them. Points are
//! two letters, column then row, `a` the first from the top-left (the Gomocup `x,y` from 0 of
//! the records, x the column, y the row from the top).
//!
//! The opening's stones are written as moves, not as AB/AW setup: they alternate colours from
//! black exactly as moves do, Piskvork's .psq and Gomocup's judge list them as moves too, and a
//! reader then finds black and white alternating from the first node without a PL[] to say who
//! plays after a setup. The root's GC[] says how many of the moves are the opening.

use std::fmt::Write;

use crate::core::{FaultKind, Played, Seat};

/// What a game's root says besides the moves.
pub struct Game<'a> {
    pub size: usize,
    /// The rule's name (RU[]): freestyle, standard, renju or caro.
    pub rule: &'a str,
    /// The seat the rules made the winner (`None`: a draw, or a forfeit decided it).
    pub winner: Option<Seat>,
}

/// One game tree: `stones` in play order (x, y from 0), the first `opening` of them the opening.
pub fn write(game: &Game<'_>, stones: &[(u8, u8)], opening: usize, played: &Played<'_>) -> String {
    let mut out = String::with_capacity(128 + stones.len() * 6);
    let _ = write!(out, "(;FF[4]GM[4]CA[UTF-8]AP[bot-arena:{}]SZ[{}]", env!("CARGO_PKG_VERSION"), game.size);
    let _ = write!(out, "RU[{}]", escape(game.rule));
    for (property, seat) in [("PB", 0), ("PW", 1)] {
        if let Some(name) = played.names.get(seat) {
            let _ = write!(out, "{property}[{}]", escape(name));
        }
    }
    let _ = write!(out, "RE[{}]", result(game.winner, played.forfeit));
    if opening > 0 {
        let _ = write!(out, "GC[moves 1-{opening} are the opening, placed before the bots played]");
    }
    out.push('\n');
    for (i, &(x, y)) in stones.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let _ = write!(out, ";{colour}[{}{}]", letter(x), letter(y));
    }
    out.push_str(")\n");
    out
}

/// RE[]: `B+`/`W+` a win by the rules, `B+T`/`W+T` the other side's timeout, `B+F`/`W+F` any
/// other forfeit, `0` a draw (SGF's own result values).
fn result(winner: Option<Seat>, forfeit: Option<(Seat, FaultKind)>) -> String {
    let colour = |seat: Seat| if seat == 0 { 'B' } else { 'W' };
    match (forfeit, winner) {
        (Some((loser, FaultKind::Time)), _) => format!("{}+T", colour(1 - loser)),
        (Some((loser, _)), _) => format!("{}+F", colour(1 - loser)),
        (None, Some(seat)) => format!("{}+", colour(seat)),
        (None, None) => "0".to_string(),
    }
}

/// SGF's coordinate letters: a..z then A..Z (boards up to 52).
fn letter(i: u8) -> char {
    if i < 26 {
        char::from(b'a' + i)
    } else {
        char::from(b'A' + (i - 26))
    }
}

/// SimpleText: `]` and `\` are escaped with `\`; a line break is a space there anyway.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The expected texts follow FF[4]: GM[4], SZ, PB/PW, RE's `B+`/`W+T`/`0`, points as column
    // letter then row letter from the top-left, `]` and `\` escaped in SimpleText.
    #[test]
    fn a_short_won_game_with_an_opening() {
        let stones = [(7, 7), (8, 7), (7, 8), (8, 8), (7, 9), (9, 9), (7, 10), (0, 14), (7, 11)];
        let played = Played { names: &["search", "weights"], ..Played::default() };
        let game = Game { size: 15, rule: "freestyle", winner: Some(0) };
        let expected = format!(
            "(;FF[4]GM[4]CA[UTF-8]AP[bot-arena:{}]SZ[15]RU[freestyle]PB[search]PW[weights]RE[B+]\
             GC[moves 1-2 are the opening, placed before the bots played]\n\
             ;B[hh];W[ih];B[hi];W[ii];B[hj];W[jj];B[hk];W[ao];B[hl])\n",
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(write(&game, &stones, 2, &played), expected);
    }

    #[test]
    fn forfeits_draws_and_names_that_need_escaping() {
        let played = Played { names: &["a]b", "c\\d"], forfeit: Some((0, FaultKind::Time)) };
        let game = Game { size: 20, rule: "renju", winner: None };
        let text = write(&game, &[(19, 0)], 0, &played);
        assert!(text.ends_with("SZ[20]RU[renju]PB[a\\]b]PW[c\\\\d]RE[W+T]\n;B[ta])\n"), "{text}");
        let crash = Played { forfeit: Some((1, FaultKind::Crash)), ..Played::default() };
        assert!(write(&game, &[], 0, &crash).ends_with("RE[B+F]\n)\n"));
        assert!(write(&game, &[], 0, &Played::default()).ends_with("RE[0]\n)\n"));
    }
}
