//! `arena brain GAME`: one of a game's bots as an engine of its community's protocol on stdin and
//! stdout (gomoku: Gomocup, the protocol in `games::gomoku::brain`; hold'em: ACPC's, in
//! `games::holdem::acpc::agent`; mahjong: Botzone's, in `games::mahjong::botzone::brain`), as the
//! registry offers it.
//! Run under a name starting with the protocol's program prefix (a link or a copy of the binary;
//! Gomocup's is `pbrain-`), `arena` is that engine with no arguments, as managers expect:
//! `pbrain-arena` seats the default bot, `pbrain-arena-<bot>` the bot named after the dash.
//! Gomocup's file-name suffixes (`_64`, `_32`, `_15`, `_renju`, `_caro`, `_freestyle`, `_standard`,
//! in any combination, e.g. `pbrain-arena-weights_64_renju.exe`) mark the build and the rule an
//! engine is entered for; they are not part of the bot's name and are dropped when choosing it.

use std::ffi::OsString;

use clap::Args;

use crate::cli::EXIT_OK;
use crate::core::roster::{self, BotCatalog};
use crate::error::{Error, Result};
use crate::registry::{Arena, Open};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena brain gomoku --bot weights\n  arena brain mahjong --botzone --bot pruned   # a Botzone bot (JSON or simple input, keep-running)\n  arena brain gomoku --bot search --param depth=4 --param width=12\n  ln -s \"$(command -v arena)\" pbrain-arena-weights   # a Gomocup engine named pbrain-*"
)]
pub struct BrainArgs {
    /// The game: one with an engine protocol (gomoku: Gomocup; holdem: ACPC, as `arena
    /// acpc-agent` speaks it over TCP; mahjong: Botzone's Chinese-Standard-Mahjong).
    game: String,
    /// The bot: a roster name or bot kind (see `arena list GAME`); default: the protocol's own
    /// (gomoku: search; holdem: rr).
    #[arg(long)]
    bot: Option<String>,
    /// A bot parameter, `name=value` with a TOML value (`depth=4`, `own=[1,4,16,64,256]`);
    /// repeat for each.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Seed of the bot's random stream (gomoku: INFO seed overrides it).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Speak Botzone's protocol (a Botzone bot, as Botzone runs it: mahjong's engine protocol);
    /// refused for a game whose protocol is another.
    #[arg(long)]
    botzone: bool,
}

/// The command line, rewritten to `arena brain GAME --bot B ...` when the program runs under a
/// name a game's engine protocol gives its engines (`pbrain-arena-weights` seats `weights`).
/// Started so, the program is under a real manager whose time limits bind: a bot that can search
/// on a clock is told to keep it (`--param clock=true`, before any parameter given); elsewhere
/// bots keep to their budgets, the same moves at any load.
pub fn command_line(arena: &Arena, args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    // The file name, with either kind of path separator and without `.exe`.
    let program = args.first().and_then(|a| a.to_str()).unwrap_or("");
    let file = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let stem = file.strip_suffix(".exe").or_else(|| file.strip_suffix(".EXE")).unwrap_or(file);
    let stem = without_tags(stem);
    for game in arena.games() {
        let Some(engine) = game.engine() else { continue };
        let Some(name) = engine.program_prefix.and_then(|prefix| stem.strip_prefix(prefix)) else { continue };
        let bot = name.strip_prefix("arena-").unwrap_or(engine.default_bot).to_string();
        let clock = roster::bot_from_args(game, &bot, &[])
            .ok()
            .and_then(|(kind, _)| game.kind_params(&kind))
            .is_some_and(|specs| specs.iter().any(|p| p.name == "clock"));
        let keep_clock = if clock { &["--param", "clock=true"][..] } else { &[] };
        let rest = args.split_off(1);
        let head = ["arena", "brain", game.name(), "--bot", &bot].into_iter().chain(keep_clock.iter().copied());
        return head.map(OsString::from).chain(rest).collect();
    }
    args
}

/// Gomocup's tags at the end of an engine's file name: the build (`_64`, `_32`) and the board or
/// rule it is entered for (`_15`, `_20`, `_renju`, `_caro`, ...).
const TAGS: &[&str] = &["64", "32", "15", "20", "renju", "caro", "freestyle", "standard"];

/// `name` without its trailing Gomocup tags (`pbrain-arena-weights_64_renju` → `pbrain-arena-weights`).
fn without_tags(mut name: &str) -> &str {
    while let Some((head, tag)) = name.rsplit_once('_') {
        if !TAGS.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            break;
        }
        name = head;
    }
    name
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
    if args.botzone && engine.protocol != "Botzone" {
        let (game, protocol) = (game.name(), engine.protocol);
        return Err(Error::input(format!(
            "--botzone: {game} speaks {protocol}, not Botzone's protocol (mahjong does)"
        )));
    }
    let bot = args.bot.as_deref().unwrap_or(engine.default_bot);
    let open: Open<'_> = Box::new(|| Ok((Box::new(std::io::stdin().lock()), Box::new(std::io::stdout().lock()))));
    game.serve_engine(bot, &args.params, &[], args.seed, open)?;
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
        assert_eq!(
            line(&["/x/pbrain-arena"]),
            ["arena", "brain", "gomoku", "--bot", "search", "--param", "clock=true"]
        );
        assert_eq!(line(&["C:\\gomocup\\pbrain-arena-weights.exe"])[3..], ["--bot", "weights"]);
        assert_eq!(
            line(&["./pbrain-arena-search-deep", "--seed", "3"])[4..],
            ["search-deep", "--param", "clock=true", "--seed", "3"]
        );
        // A bot with no clock to keep is given none.
        assert_eq!(line(&["pbrain-arena-weights"]), ["arena", "brain", "gomoku", "--bot", "weights"]);
        assert_eq!(line(&["arena", "list"]), ["arena", "list"]);
    }

    #[test]
    fn gomocup_suffixes_are_not_part_of_the_bots_name() {
        assert_eq!(line(&["/x/pbrain-arena-weights_64"])[3..], ["--bot", "weights"]);
        assert_eq!(line(&["pbrain-arena_64.exe"])[3..], ["--bot", "search", "--param", "clock=true"]);
        assert_eq!(line(&["pbrain-arena-search_15"])[3..], ["--bot", "search", "--param", "clock=true"]);
        assert_eq!(line(&["pbrain-arena-weights_64_renju.exe"])[3..], ["--bot", "weights"]);
        assert_eq!(line(&["pbrain-arena-search-deep_RENJU"])[3..], ["--bot", "search-deep", "--param", "clock=true"]);
        // Anything else after an underscore stays in the name (and is an unknown bot if wrong).
        assert_eq!(line(&["pbrain-arena-my_bot"])[3..], ["--bot", "my_bot"]);
    }
}
