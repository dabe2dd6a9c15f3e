//! Gomoku on the wire (docs/book/src/protocol.md): the board as JSON, a move as `x,y` (Gomocup's notation
//! and games.csv's `move_list`: from 0, x the column, y the row).

use std::fmt::Display;
use std::sync::LazyLock;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::core::readable::Screen;
use crate::core::wire::{show, List, Texts, Told};
use crate::core::{Game, IllegalAction, Wire};

use super::engine::{Gomoku, Move, State};
use super::MAX_SIZE;

/// A cell as a character of a board row: `.` empty, `x` black (seat 0), `o` white (seat 1).
const CELLS: [u8; 3] = [b'.', b'x', b'o'];

/// Each seat's colour as a person reads it.
const COLOURS: [&str; 2] = ["black (x)", "white (o)"];

/// A move's text: `x,y`.
fn move_text(m: Move) -> impl Display {
    show(move |f| write!(f, "{},{}", m.x, m.y))
}

/// The text of the move at cell `(x, y)` of any board, written once: a view lists up to 225 of
/// them, and the legal moves as many.
fn cell_text(x: usize, y: usize) -> &'static str {
    static TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
        let cell = |i: usize| Move { x: (i % MAX_SIZE) as u8, y: (i / MAX_SIZE) as u8 };
        (0..MAX_SIZE * MAX_SIZE).map(|i| move_text(cell(i)).to_string()).collect()
    });
    &TEXTS[y * MAX_SIZE + x]
}

impl Wire for Gomoku {
    /// The whole position (gomoku hides nothing): size, the stones in order (the opening's
    /// first), the rows, and whose move it is.
    fn view_json<'a, 'v>(&'a self, s: &'a Self::View<'v>) -> impl Serialize + 'a {
        ViewJson { s }
    }

    /// Every empty cell, row by row.
    fn write_legal(&self, s: &&State, out: &mut Texts) {
        if s.is_over() {
            return;
        }
        let n = s.size;
        for i in (0..n * n).filter(|&i| s.board[i] == 0) {
            out.push_str(cell_text(i % n, i / n));
        }
    }

    fn action_text(&self, m: &Move) -> impl Display {
        move_text(*m)
    }

    fn parse_action(&self, text: &str) -> Result<Move, String> {
        let bad = || format!("`{text}` is not a gomoku move (x,y from 0, e.g. 7,7)");
        let (x, y) = text.split_once(',').ok_or_else(bad)?;
        let coordinate = |c: &str| c.trim().parse::<u8>().map_err(|_| bad());
        Ok(Move { x: coordinate(x)?, y: coordinate(y)? })
    }

    /// Gomoku hides nothing, so the view is the whole state: the rules themselves judge (and say
    /// whether a cell is taken or off the board).
    fn judge(&self, s: &&State, action: &Move) -> Result<(), IllegalAction> {
        self.apply(&mut (*s).clone(), action)
    }

    /// The board drawn with its coordinates, the last stone in brackets, and whose move it is.
    fn view_text(&self, s: &&State, _screen: &Screen<'_>) -> String {
        let colour = COLOURS[s.to_move()];
        let last = s.moves.last().map_or("none".to_string(), |m| move_text(*m).to_string());
        format!("{}you play {colour}; last move: {last}; a move is x,y (column, row)\n", picture(s))
    }

    /// The opening's stones at first, then every stone as it is played (`told`: the stones told).
    fn narrate(&self, s: &&State, _screen: &Screen<'_>, told: &mut u64, out: &mut Vec<Told>) {
        let from = *told as usize;
        if from == 0 && s.opening > 0 {
            let stones = s.moves[..s.opening].iter().map(|m| move_text(*m));
            out.push(Told::table(format!("the opening: {}", crate::core::wire::spaced(stones))));
        }
        for (i, m) in s.moves.iter().enumerate().skip(from.max(s.opening)) {
            out.push(Told::by(i % 2, format!("plays {}", move_text(*m))));
        }
        *told = s.moves.len() as u64;
    }

    /// The last board, and who won and how (a five, or black's forbidden move under renju), or
    /// that the board filled up. A game that ended by a forfeit says nothing more here: the
    /// forfeit and whom it credited are the host's to say.
    fn end_text(&self, s: &State, screen: &Screen<'_>) -> String {
        let mut text = picture(s);
        match (s.winner, s.foul) {
            (Some(w), Some(foul)) => text.push_str(&format!(
                "{} wins: black's last stone made a forbidden {} (renju)\n",
                screen.who(w),
                foul.name()
            )),
            (Some(w), None) => text.push_str(&format!("{} wins: five in a row for {}\n", screen.who(w), COLOURS[w])),
            (None, _) if s.is_over() => text.push_str("a draw: the board is full\n"),
            (None, _) => {}
        }
        text
    }

    /// The board's size, the rule and the opening's stones (black's first, then in turn): a
    /// gomoku game has no other chance.
    fn deal_json<'a>(&'a self, s: &'a State) -> impl Serialize + 'a {
        Deal {
            size: s.size,
            rule: self.rule.name(),
            opening: List(s.moves[..s.opening].iter().map(|m| crate::core::wire::Text(move_text(*m)))),
        }
    }

    fn reveal(&self, s: &State) -> impl Serialize {
        Reveal { winner: s.winner }
    }
}

#[derive(serde::Serialize)]
struct Deal<O> {
    size: usize,
    rule: &'static str,
    opening: O,
}

/// The view on the wire, field by field as docs/book/src/protocol.md lists them.
struct ViewJson<'a> {
    s: &'a State,
}

impl Serialize for ViewJson<'_> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let s = self.s;
        let mut o = ser.serialize_struct("view", 6)?;
        o.serialize_field("size", &s.size)?;
        o.serialize_field("to_move", &s.to_move())?;
        o.serialize_field("opening", &s.opening)?;
        o.serialize_field("moves", &List(s.moves.iter().map(|m| cell_text(m.x.into(), m.y.into()))))?;
        o.serialize_field("board", &List(s.board.chunks(s.size).map(Row)))?;
        o.serialize_field("winner", &s.winner)?;
        o.end()
    }
}

/// The board with the columns (x) numbered across the top and the rows (y) down the side, the
/// last stone in brackets.
pub fn picture(s: &State) -> String {
    let n = s.size;
    let last = s.moves.last().map(|m| usize::from(m.y) * n + usize::from(m.x));
    let mut out: String = "   ".to_string();
    out.extend((0..n).map(|x| format!("{x:>3}")));
    out.push('\n');
    for y in 0..n {
        out.push_str(&format!("{y:>3}"));
        // Three characters a cell, ` ` ` ` stone; the last stone's brackets take the spaces.
        for x in 0..n {
            let i = y * n + x;
            out.push(if x > 0 && last == Some(i - 1) { ']' } else { ' ' });
            out.push(if last == Some(i) { '[' } else { ' ' });
            out.push(CELLS[s.board[i] as usize] as char);
        }
        if last == Some(y * n + n - 1) {
            out.push(']');
        }
        out.push('\n');
    }
    out
}

/// A board row, written as a string of one character a cell.
struct Row<'a>(&'a [u8]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut row = [0u8; MAX_SIZE];
        for (char, &cell) in row.iter_mut().zip(self.0) {
            *char = CELLS[cell as usize];
        }
        s.serialize_str(std::str::from_utf8(&row[..self.0.len()]).expect("ASCII"))
    }
}

#[derive(serde::Serialize)]
struct Reveal {
    winner: Option<crate::core::Seat>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::checked_legal_texts;
    use crate::core::wire::json;
    use crate::core::{DealRng, Game};
    use crate::games::gomoku::Rule;
    use rand::SeedableRng;

    #[test]
    fn moves_read_back_and_the_board_matches_the_stones() {
        let game = Gomoku::new(9, Rule::Freestyle, 3);
        let s = game.deal(&mut DealRng::seed_from_u64(2));
        let legal = checked_legal_texts(&game, &s, &&s);
        assert_eq!(legal.len(), 81 - 3);
        let view = json(game.view_json(&&s));
        for (i, text) in view["moves"].as_array().unwrap().iter().enumerate() {
            let m = game.parse_action(text.as_str().unwrap()).unwrap();
            let row = view["board"][m.y as usize].as_str().unwrap();
            assert_eq!(row.as_bytes()[m.x as usize], if i % 2 == 0 { b'x' } else { b'o' });
        }
        assert_eq!(view["to_move"], 1);
        assert_eq!(game.parse_action(" 10 , 3").unwrap(), Move { x: 10, y: 3 });
        assert!(game.parse_action("10").unwrap_err().contains("not a gomoku move"));
        assert!(game.parse_action("a,b").is_err());
    }
}
