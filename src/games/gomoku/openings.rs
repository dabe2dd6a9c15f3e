//! Openings files in Piskvork's format, as Gomocup tournaments use them.
//!
//! One opening a line: comma-separated integers in pairs, each pair the `x,y` offset of a stone
//! from the centre of the board (`size / 2`, `size / 2`), black first and colours alternating:
//!
//! ```text
//! 0,0, 1,0, 1,3
//! 0,0, 1,1, -1,3
//! ```
//!
//! Spaces and tabs may surround the numbers; empty lines are skipped; anything else is an error
//! naming the file and line. The stones are placed without rotation or mirroring.

use std::path::Path;

use super::{Gomoku, Move};
use crate::error::{Error, Result};

/// An opening as written: its line in the file and the stones' offsets from the centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offsets {
    /// The opening's line in the file, for errors.
    pub line: usize,
    /// Each stone's (x, y) offset from the centre, in the order played.
    pub stones: Vec<(i32, i32)>,
}

/// Reads the openings of a file's text; an error is `(line, message)`.
pub fn parse(text: &str) -> Result<Vec<Offsets>, (usize, String)> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let numbers = raw
            .split(',')
            .map(|field| {
                let field = field.trim();
                field.parse::<i32>().map_err(|_| {
                    if field.is_empty() {
                        (line, "a number is missing between commas".to_string())
                    } else {
                        (line, format!("`{field}` is not a whole number"))
                    }
                })
            })
            .collect::<Result<Vec<i32>, _>>()?;
        if numbers.len() % 2 == 1 {
            return Err((line, format!("{} numbers: the offsets come in x,y pairs", numbers.len())));
        }
        let stones = numbers.chunks(2).map(|p| (p[0], p[1])).collect();
        openings.push(Offsets { line, stones });
    }
    Ok(openings)
}

/// The openings of a file, placed on a table's board and checked against its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// The file, as given.
    pub path: String,
    /// Every opening's stones on the board, black first.
    pub openings: Vec<Vec<Move>>,
}

impl Book {
    /// Reads `path` for `game`. Every error is one line, `path:line: message`.
    pub fn load(path: &Path, game: &Gomoku) -> Result<Book> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::bad_path(path, e))?;
        Book::from_text(&path.display().to_string(), &text, game)
    }

    /// [`Book::load`] from the file's text.
    pub fn from_text(path: &str, text: &str, game: &Gomoku) -> Result<Book> {
        let at = |line: usize, msg: String| Error::input(format!("{path}:{line}: {msg}"));
        let offsets = parse(text).map_err(|(line, msg)| at(line, msg))?;
        if offsets.is_empty() {
            return Err(Error::input(format!("{path}: no openings in the file")));
        }
        let centre = (game.size / 2) as i32;
        let mut openings = Vec::with_capacity(offsets.len());
        for opening in offsets {
            let mut stones = Vec::with_capacity(opening.stones.len());
            for &(dx, dy) in &opening.stones {
                let (x, y) = (centre + dx, centre + dy);
                if !(0..game.size as i32).contains(&x) || !(0..game.size as i32).contains(&y) {
                    let n = game.size;
                    return Err(at(
                        opening.line,
                        format!("{dx},{dy} is off the {n}x{n} board (centre {centre},{centre})"),
                    ));
                }
                stones.push(Move { x: x as u8, y: y as u8 });
            }
            game.start(&stones).map_err(|(i, msg)| {
                let (dx, dy) = opening.stones[i];
                at(opening.line, format!("stone {} ({dx},{dy}): {msg}", i + 1))
            })?;
            openings.push(stones);
        }
        Ok(Book { path: path.to_string(), openings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::Rule;

    fn book(text: &str, rule: Rule) -> Result<Book> {
        Book::from_text("book.txt", text, &Gomoku::new(15, rule, 0))
    }

    fn error(text: &str, rule: Rule) -> String {
        book(text, rule).unwrap_err().to_string()
    }

    #[test]
    fn reads_piskvork_lines() {
        let text = "0,0, 1,0, 1,3\r\n\n  -1 ,\t2,0,0\n0,0\n";
        let parsed = parse(text).unwrap();
        assert_eq!(
            parsed,
            vec![
                Offsets { line: 1, stones: vec![(0, 0), (1, 0), (1, 3)] },
                Offsets { line: 3, stones: vec![(-1, 2), (0, 0)] },
                Offsets { line: 4, stones: vec![(0, 0)] },
            ]
        );
        let b = book(text, Rule::Freestyle).unwrap();
        let at = |x, y| Move { x, y };
        assert_eq!(b.openings, vec![vec![at(7, 7), at(8, 7), at(8, 10)], vec![at(6, 9), at(7, 7)], vec![at(7, 7)]]);
    }

    #[test]
    fn the_centre_is_half_the_size_rounded_down() {
        let b = Book::from_text("b", "0,0, -7,-7, 7,7\n", &Gomoku::new(15, Rule::Freestyle, 0)).unwrap();
        assert_eq!(b.openings[0], vec![Move { x: 7, y: 7 }, Move { x: 0, y: 0 }, Move { x: 14, y: 14 }]);
        let b = Book::from_text("b", "0,0, -10,-10, 9,9\n", &Gomoku::new(20, Rule::Freestyle, 0)).unwrap();
        assert_eq!(b.openings[0], vec![Move { x: 10, y: 10 }, Move { x: 0, y: 0 }, Move { x: 19, y: 19 }]);
    }

    #[test]
    fn every_error_names_the_file_and_line() {
        let cases = [
            ("0,0, 1\n", "book.txt:1: 3 numbers: the offsets come in x,y pairs"),
            ("0,0\n0,0, 1,x\n", "book.txt:2: `x` is not a whole number"),
            ("0,0,\n", "book.txt:1: a number is missing between commas"),
            ("\n0,0, 8,0\n", "book.txt:2: 8,0 is off the 15x15 board (centre 7,7)"),
            ("0,0, 1,1, 0,0\n", "book.txt:1: stone 3 (0,0): 7,7 is taken"),
            (
                "1,0, -1,5, 2,0, -2,5, 3,0, -3,5, 4,0, 0,-5, 5,0\n",
                "book.txt:1: stone 9 (5,0): 12,7 ends the game: black makes five",
            ),
            ("# a comment\n", "book.txt:1: `# a comment` is not a whole number"),
            ("\n \n", "book.txt: no openings in the file"),
        ];
        for (text, expected) in cases {
            assert_eq!(error(text, Rule::Freestyle), expected, "{text:?}");
        }
    }

    #[test]
    fn renju_openings_may_not_hold_a_forbidden_black_stone() {
        // Black's third stone at the centre would make two open threes (across and down).
        let text = "-1,0, 5,5, -2,0, -5,5, 0,-1, 5,-5, 0,-2, -5,-5, 0,0\n";
        assert_eq!(book(text, Rule::Freestyle).unwrap().openings[0].len(), 9);
        assert_eq!(
            error(text, Rule::Renju),
            "book.txt:1: stone 9 (0,0): 7,7 ends the game: black plays a forbidden point (double-three)"
        );
    }
}
