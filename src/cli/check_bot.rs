//! `arena check-bot GAME -- COMMAND...`: a compliance run of a bot that speaks a protocol (JSON
//! lines, Gomocup, ACPC, Botzone), before it enters a tournament (the checks are
//! `external::check`'s and `external::check_kind`'s, reached through the registry). One line
//! per check, then how many passed; exit 0 when all did, 1 when one failed.

use clap::Args;

use crate::cli::out::say;
use crate::cli::{EXIT_FAIL, EXIT_OK};
use crate::error::{Error, Result};
use crate::registry::{Arena, CheckLimits};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena check-bot holdem -- python3 bots/examples/holdem_random.py\n  arena check-bot gomoku --move-ms 1000 -- ./my_bot --level 3\n  arena check-bot gomoku --kind gomocup -- ./pbrain-rapfi\n  arena check-bot holdem --kind acpc --table preset=acpc -- ./example_player {game}\n  arena check-bot mahjong --kind botzone -- python3 bots/examples/botzone_mahjong.py"
)]
pub struct CheckBotArgs {
    /// The game the bot plays (see `arena list`).
    game: String,
    /// The protocol the bot speaks: `jsonl`, the `external` kind's (docs/book/src/protocol.md);
    /// `gomocup`, a gomoku engine's; `acpc`, a hold'em ACPC agent's; `botzone`, a Botzone mahjong
    /// bot's; or any other bot kind of the game that runs a program (`arena list GAME`).
    #[arg(long, default_value = "jsonl")]
    kind: String,
    /// A table option over the game's default table, `name=value` (`preset=acpc`, `seats` aside:
    /// the check plays the game's fewest seats); repeat for each.
    #[arg(long = "table", value_name = "NAME=VALUE")]
    table: Vec<String>,
    /// A parameter of the bot kind, `name=value` with a TOML value (`io="simple"` for a Botzone
    /// bot); repeat for each. The time and memory limits are set from the options below.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Milliseconds the bot has to answer `hello`, of its own time.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    start_ms: u64,
    /// Milliseconds the bot has for one decision, of its own time.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    move_ms: u64,
    /// The most resident memory the bot may hold, in MiB (0: no bound).
    #[arg(long, default_value_t = 0)]
    memory_mb: u64,
    /// The bot's program and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Runs the checks, printing each as it is decided, then the count.
pub fn check_bot(arena: &Arena, args: &CheckBotArgs) -> Result<i32> {
    let game = arena.find(&args.game)?;
    if args.command[0].is_empty() {
        return Err(Error::input("check-bot: the command after `--` is empty"));
    }
    let limits = CheckLimits { start_ms: args.start_ms, move_ms: args.move_ms, memory_mb: args.memory_mb };
    let checks = game.check_bot(&args.kind, &args.command, &args.table, &args.params, limits, &mut |check| {
        say!("{}", check.line())
    })?;
    let passed = crate::external::check::passed(&checks);
    say!("{passed} of {} checks passed", checks.len());
    Ok(if passed == checks.len() { EXIT_OK } else { EXIT_FAIL })
}
