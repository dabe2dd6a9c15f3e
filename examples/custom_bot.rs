//! A bot defined outside the library, run through the standard command line.
//!
//! ```sh
//! cargo run --release --example custom_bot -- run examples/custom_bot.toml
//! cargo run --release --example custom_bot -- gate examples/custom_bot_gate.toml
//! cargo run --release --example custom_bot -- list gomoku        # `nearest` is listed
//! ```
//!
//! `nearest` plays the empty cell closest to the last stone (ties: the lowest row, then column),
//! or the centre on an empty board. Everything else is the library's own: configs, the gate,
//! summaries, time limits (`params = { move_ms = 5 }`), and rosters: a `bots/gomoku.toml` in the
//! working folder may name variants of it (`[nearest-5ms]`, `kind = "nearest"`, `params = ...`).

use bot_arena::core::{factory, BotKind};
use bot_arena::core::{Bot, BotRng, ParamSpec};
use bot_arena::games::gomoku::{Gomoku, Move, State};
use bot_arena::Arena;

struct Nearest;

impl Bot<Gomoku> for Nearest {
    fn act(&mut self, _game: &Gomoku, state: &&State, _rng: &mut BotRng) -> Move {
        let n = state.size;
        let (cx, cy) = state.last().map_or((n / 2, n / 2), |m| (m.x as usize, m.y as usize));
        let distance = |i: usize| (i % n).abs_diff(cx).max((i / n).abs_diff(cy));
        let best = (0..n * n).filter(|&i| state.board[i] == 0).min_by_key(|&i| (distance(i), i));
        let i = best.expect("the game is not over, so a cell is empty");
        Move { x: (i % n) as u8, y: (i / n) as u8 }
    }
}

const NO_PARAMS: &[ParamSpec] = &[];

fn nearest() -> BotKind<Gomoku> {
    BotKind {
        name: "nearest",
        about: "the empty cell nearest the last stone (an example bot from outside the library)",
        params: NO_PARAMS,
        make: |_, _| Ok(factory(|| Nearest)),
    }
}

fn main() {
    // run.json names the program that ran: a plugin crate of its own passes
    // env!("CARGO_PKG_NAME") and env!("CARGO_PKG_VERSION"); an example shares the library's
    // package, so it names itself.
    bot_arena::cli::main(Arena::standard().bot(nearest()).named("custom_bot", env!("CARGO_PKG_VERSION")))
}
