//! Piskvork's saved-game format (`.psq`), the one Gomocup publishes its games in.
//!
//! The layout, as Piskvork's own `savePsq` writes it and its `openPsq` reads it back:
//!
//! ```text
//! Piskvorky 15x15, 11:11, 0      width x height, the two players' levels, who moved first
//! 8,8,0                           one line a stone in play order: x,y from 1 (x the column),
//! 9,8,0                           then the milliseconds the move took (0 here, see below)
//! black's name                    the player who moved first (the header's last number, 0, says so)
//! white's name
//! 0                               Piskvork's end code: 0 a game the rules ended, 15 a timeout,
//!                                 -2 any other error
//! ```
//!
//! The levels are written `11:11` as Gomocup's judge writes them for two engines (Piskvork reads
//! a level above 0 as "a program plays this side"). Opening stones are moves like any other, with
//! 0 ms, which is also how Gomocup's judge writes the opening it hands out. Piskvork stops reading
//! moves at the first line that is not `x,y[,t]`, so the names end the move list.

use std::fmt::Write;

use crate::core::{FaultKind, Played, Seat};

/// The game as a .psq file: a `size`×`size` board, `stones` in play order (x, y from 0), the
/// opening's first.
pub fn write(size: usize, stones: &[(u8, u8)], played: &Played<'_>) -> String {
    let mut out = String::with_capacity(32 + stones.len() * 10);
    let _ = writeln!(out, "Piskvorky {size}x{size}, 11:11, 0");
    for &(x, y) in stones {
        let _ = writeln!(out, "{},{},0", u32::from(x) + 1, u32::from(y) + 1);
    }
    for seat in 0..2 {
        out.push_str(&name_line(played, seat));
        out.push('\n');
    }
    let code = match played.forfeit {
        None => 0,
        Some((_, FaultKind::Time)) => 15,
        Some(_) => -2,
    };
    let _ = writeln!(out, "{code}");
    out
}

/// A player's line: the bot's name on one line. Piskvork takes a name line that starts like a
/// move (`3,4`) for one more move, so such a name gets a leading `_`; an unknown name is
/// `seat N`.
fn name_line(played: &Played<'_>, seat: Seat) -> String {
    let name = match played.names.get(seat) {
        Some(name) if !name.is_empty() => name.replace(['\r', '\n'], " "),
        _ => format!("seat {seat}"),
    };
    if name.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        format!("_{name}")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The expected texts follow the layout above (Piskvork's savePsq): 1-based x,y,ms lines, the
    // first mover's name first, the end code last.
    #[test]
    fn a_short_won_game() {
        let stones = [(7, 7), (8, 7), (7, 8), (8, 8), (7, 9), (9, 9)];
        let played = Played { names: &["search", "weights"], forfeit: None };
        let expected = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,0\n9,9,0\n8,10,0\n10,10,0\nsearch\nweights\n0\n";
        assert_eq!(write(15, &stones, &played), expected);
    }

    #[test]
    fn a_timeout_and_names_that_would_read_as_moves() {
        let played = Played { names: &["3,4 bot", "two\nlines"], forfeit: Some((1, FaultKind::Time)) };
        let expected = "Piskvorky 20x20, 11:11, 0\n1,1,0\n_3,4 bot\ntwo lines\n15\n";
        assert_eq!(write(20, &[(0, 0)], &played), expected);
        let crash = Played { names: &["", ""], forfeit: Some((0, FaultKind::Crash)) };
        assert_eq!(write(15, &[], &crash), "Piskvorky 15x15, 11:11, 0\nseat 0\nseat 1\n-2\n");
    }
}
