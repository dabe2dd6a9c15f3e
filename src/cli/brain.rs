//! `arena brain GAME`: one of a game's bots as an engine of its community's protocol on stdin and
//! stdout (gomoku: Gomocup, the protocol in `games::gomoku::brain`), as the registry offers it.
//! Run under a name starting with the protocol's program prefix (a link or a copy of the binary;
//! Gomocup's is `pbrain-`), `arena` is that engine with no arguments, as managers expect:
//! `pbrain-arena` seats the default bot, `pbrain-arena-<bot>` the bot named after the dash.

use std::ffi::OsString;

use clap::Args;

use crate::cli::EXIT_OK;
use crate::error::{Error, Result};
use crate::registry::Arena;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena brain gomoku --bot weights\n  arena brain gomoku --bot search --param depth=4 --param width=12\n  ln -s \"$(command -v arena)\" pbrain-arena-weights   # a Gomocup engine named pbrain-*"
)]
pub struct BrainArgs {
    /// The game: one with an engine protocol (gomoku: Gomocup).
    game: String,
    /// The bot: a roster name or bot kind (see `arena list GAME`); default: the protocol's own
    /// (gomoku: search).
    #[arg(long)]
    bot: Option<String>,
    /// A bot parameter, `name=value` with a TOML value (`depth=4`, `own=[1,4,16,64,256]`);
    /// repeat for each.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Seed of the bot's random stream (gomoku: INFO seed overrides it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// The command line, rewritten to `arena brain GAME --bot B ...` when the program runs under a
/// name a game's engine protocol gives its engines (`pbrain-arena-weights` seats `weights`).
pub fn command_line(arena: &Arena, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    // The file name, with either kind of path separator and without `.exe`.
    let program = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = file.strip_suffix(".exe").or_else(|| file.strip_suffix(".EXE")).unwrap_or(file);
    let engines = arena.games().filter_map(|g| g.engine().map(|e| (g.name(), e)));
    for (game, engine) in engines {
        let Some(name) = stem.strip_prefix(engine.program_prefix) else { continue };
        let bot = name.strip_prefix("arena-").unwrap_or(engine.default_bot).to_string();
        let rest = args.split_off(1);
        return ["arena", "brain", game, "--bot", &bot].into_iter().map(OsString::from).chain(rest).collect();
    }
    args
}

pub fn brain(arena: &Arena, args: &BrainArgs) -> Result<i32> {
    let game = arena.find(&args.game)?;
    let Some(engine) = game.engine() else {
        let with: Vec<String> = arena
            .games()
            .filter_map(|g| g.engine().map(|e| format!("{} has one ({})", g.name(), e.protocol)))
            .collect();
        let with = if with.is_empty() { "no game has one".to_string() } else { format!("only {}", with.join(", ")) };
        return Err(Error::input(format!("no engine protocol for {}: {with}", game.name())));
    };
    let bot = args.bot.as_deref().unwrap_or(engine.default_bot);
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    game.serve_engine(bot, &args.params, args.seed, &mut stdin.lock(), &mut stdout.lock())?;
    Ok(EXIT_OK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(args: &[&str]) -> Vec<String> {
        command_line(&Arena::standard(), args.iter().map(OsString::from))
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn a_pbrain_name_starts_the_engine() {
        assert_eq!(line(&["/x/pbrain-arena"]), ["arena", "brain", "gomoku", "--bot", "search"]);
        assert_eq!(line(&["C:\\gomocup\\pbrain-arena-weights.exe"])[3..], ["--bot", "weights"]);
        assert_eq!(line(&["./pbrain-arena-search-deep", "--seed", "3"])[4..], ["search-deep", "--seed", "3"]);
        assert_eq!(line(&["arena", "list"]), ["arena", "list"]);
    }
}
