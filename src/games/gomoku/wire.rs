//! Gomoku on the wire (docs/protocol.md): the board as JSON, a move as `x,y` (Gomocup's notation
//! and games.csv's `move_list`: from 0, x the column, y the row).

use serde_json::{json, Value};

use crate::core::Wire;

use super::board::{Gomoku, Move, State};

/// A cell as a character of a board row: `.` empty, `x` black (seat 0), `o` white (seat 1).
const CELLS: [char; 3] = ['.', 'x', 'o'];

impl Wire for Gomoku {
    /// The whole position (gomoku hides nothing): size, the stones in order (the opening's
    /// first), the rows, and whose move it is.
    fn view_json(&self, s: &&State) -> Value {
        let rows: Vec<String> =
            s.board.chunks(s.size).map(|row| row.iter().map(|&c| CELLS[c as usize]).collect()).collect();
        json!({
            "size": s.size,
            "to_move": s.to_move(),
            "opening": s.opening,
            "moves": Value::from(s.moves.iter().map(|m| self.action_text(m)).collect::<Vec<_>>()),
            "board": Value::from(rows),
            "winner": s.winner,
        })
    }

    /// Every empty cell, row by row.
    fn legal_texts(&self, s: &&State) -> Vec<String> {
        if s.is_over() {
            return Vec::new();
        }
        let n = s.size;
        (0..n * n).filter(|&i| s.board[i] == 0).map(|i| format!("{},{}", i % n, i / n)).collect()
    }

    fn action_text(&self, m: &Move) -> String {
        format!("{},{}", m.x, m.y)
    }

    fn parse_action(&self, text: &str) -> Result<Move, String> {
        let bad = || format!("`{text}` is not a gomoku move (x,y from 0, e.g. 7,7)");
        let (x, y) = text.split_once(',').ok_or_else(bad)?;
        let coordinate = |c: &str| c.trim().parse::<u8>().map_err(|_| bad());
        Ok(Move { x: coordinate(x)?, y: coordinate(y)? })
    }

    fn reveal(&self, s: &State) -> Value {
        json!({ "winner": s.winner })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::checked_legal_texts;
    use crate::core::{DealRng, Game};
    use crate::games::gomoku::Rule;
    use rand::SeedableRng;

    #[test]
    fn moves_read_back_and_the_board_matches_the_stones() {
        let game = Gomoku::new(9, Rule::Freestyle, 3);
        let s = game.deal(&mut DealRng::seed_from_u64(2));
        let legal = checked_legal_texts(&game, &s, &&s);
        assert_eq!(legal.len(), 81 - 3);
        let view = game.view_json(&&s);
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
