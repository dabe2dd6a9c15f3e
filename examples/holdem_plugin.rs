//! A hold'em bot defined outside the library, run through the standard command line: the plugin
//! API for a card game, beside the gomoku one of `custom_bot.rs`.
//!
//! ```sh
//! cargo run --release --example holdem_plugin -- run examples/holdem_plugin.toml
//! cargo run --release --example holdem_plugin -- list holdem        # `high-cards` is listed
//! ```
//!
//! `high-cards` raises the minimum with a pocket pair or two cards of at least `rank` (a ten by
//! default), checks when nothing is owed, calls up to one big blind, and folds to more.
//! Everything else is the library's: configs, rosters, gates, time limits, and run.json, which
//! names this program (`Arena::named`) beside the library.

use bot_arena::core::{factory, BotKind};
use bot_arena::core::{Bot, BotRng, ParamSpec};
use bot_arena::games::holdem::{Action, Holdem, View};
use bot_arena::Arena;

struct HighCards {
    /// The lowest rank (0 a deuce .. 12 an ace) both cards need for a raise.
    rank: u8,
}

impl Bot<Holdem> for HighCards {
    fn act(&mut self, _game: &Holdem, view: &View<'_>, _rng: &mut BotRng) -> Action {
        let [a, b] = view.hole();
        let strong = a.rank() == b.rank() || a.rank().min(b.rank()) >= self.rank;
        match view.raise_bounds() {
            Some((min, _)) if strong => Action::RaiseTo(min),
            _ if strong || view.to_call() <= view.blinds().big => Action::CheckCall,
            _ => Action::Fold,
        }
    }
}

const PARAMS: &[ParamSpec] =
    &[ParamSpec::new("rank", "8", "the lowest rank both cards need for a raise (0 a deuce .. 12 an ace)")
        .range(0.0, 12.0)];

fn high_cards() -> BotKind<Holdem> {
    BotKind {
        name: "high-cards",
        about:
            "raises with a pair or two high cards, calls up to a big blind (an example bot from outside the library)",
        params: PARAMS,
        make: |params, _| {
            let rank = params.i64("rank") as u8;
            Ok(factory(move || HighCards { rank }))
        },
    }
}

fn main() {
    // A plugin crate of its own passes env!("CARGO_PKG_NAME") and env!("CARGO_PKG_VERSION"); an
    // example shares the library's package, so it names itself.
    let arena = Arena::standard().bot(high_cards()).named("holdem_plugin", env!("CARGO_PKG_VERSION"));
    bot_arena::cli::main(arena)
}
