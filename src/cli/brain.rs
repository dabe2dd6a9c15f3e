//! `arena brain gomoku`: one of the project's gomoku bots as a Gomocup engine on stdin/stdout
//! (the protocol is in `games::gomoku::brain`). Run under a name starting `pbrain-` (a link or a
//! copy of the binary), `arena` is that engine with no arguments, as Gomocup managers expect:
//! `pbrain-arena` seats the default bot, `pbrain-arena-<bot>` the bot named after the dash.

use std::ffi::OsString;

use clap::Args;

use crate::cli::{out, EXIT_OK};
use crate::error::{Error, Result};
use crate::games::gomoku::brain::{Brain, BrainBot};
use crate::games::gomoku::{Gomoku, Rule};
use crate::games::Arena;
use crate::tournament::roster;

/// The bot a bare `pbrain-arena` plays.
const DEFAULT_BOT: &str = "search";

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena brain gomoku --bot weights\n  arena brain gomoku --bot search --param depth=4 --param width=12\n  ln -s \"$(command -v arena)\" pbrain-arena-weights   # a Gomocup engine named pbrain-*"
)]
pub struct BrainArgs {
    /// The game: gomoku (the only game with an engine protocol).
    game: String,
    /// The bot: a roster name or bot kind (see `arena list gomoku`).
    #[arg(long, default_value = DEFAULT_BOT)]
    bot: String,
    /// A bot parameter, `name=value` with a TOML value (`depth=4`, `own=[1,4,16,64,256]`);
    /// repeat for each.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Seed of the bot's random stream (INFO seed overrides it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The command line, rewritten to `arena brain gomoku --bot B ...` when the program runs under a
/// `pbrain-` name (`pbrain-arena-weights` seats `weights`).
pub fn command_line(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    // The file name, with either kind of path separator and without `.exe`.
    let program = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = file.strip_suffix(".exe").or_else(|| file.strip_suffix(".EXE")).unwrap_or(file);
    let Some(name) = stem.strip_prefix("pbrain-") else { return args };
    let bot = name.strip_prefix("arena-").unwrap_or(DEFAULT_BOT).to_string();
    let rest = args.split_off(1);
    ["arena", "brain", "gomoku", "--bot", &bot].into_iter().map(OsString::from).chain(rest).collect()
}

/// The bot of `--bot` and `--param`, checked.
fn bot(arena: &Arena, args: &BrainArgs) -> Result<BrainBot> {
    let game = arena.find(&args.game)?;
    if game.name() != "gomoku" {
        return Err(Error::input(format!("no engine protocol for {}: only gomoku has one (Gomocup)", game.name())));
    }
    let (kind, params) = roster::bot_from_args(game, &args.bot, &args.params)?;
    let kinds = arena.kinds::<Gomoku>().ok_or_else(|| Error::input("gomoku is registered with another type"))?;
    let kind = kinds.iter().find(|k| k.name == kind).expect("the roster resolved a kind of this game").clone();
    // Built once here so that a bad value is an error now, not when the manager starts a game.
    (kind.make)(&params, &Gomoku::new(15, Rule::Freestyle, 0))?;
    Ok(BrainBot { name: args.bot.clone(), kind, params })
}

pub fn brain(arena: &Arena, args: &BrainArgs) -> Result<i32> {
    let mut brain = Brain::new(bot(arena, args)?, args.seed);
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let session = brain.serve(stdin.lock(), stdout.lock());
    out::reader_gone_is_the_end(session).map_err(|e| Error::input(format!("brain: {e}")))?;
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(args: &[&str]) -> Vec<String> {
        command_line(args.iter().map(OsString::from)).into_iter().map(|a| a.into_string().unwrap()).collect()
    }

    #[test]
    fn a_pbrain_name_starts_the_engine() {
        assert_eq!(line(&["/x/pbrain-arena"]), ["arena", "brain", "gomoku", "--bot", "search"]);
        assert_eq!(line(&["C:\\gomocup\\pbrain-arena-weights.exe"])[3..], ["--bot", "weights"]);
        assert_eq!(line(&["./pbrain-arena-search-deep", "--seed", "3"])[4..], ["search-deep", "--seed", "3"]);
        assert_eq!(line(&["arena", "list"]), ["arena", "list"]);
    }
}
