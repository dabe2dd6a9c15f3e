//! `arena play GAME --bot BOT`: a person plays against bots at the terminal. It is an ordinary
//! run (one table, the person a `human` bot in their seat, one thread), so the record is kept
//! like any run's: games.csv, run.json, PHH hand histories for hold'em.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use crate::cli::out::say;
use crate::cli::EXIT_OK;
use crate::config::{Overrides, RunConfig, Source};
use crate::core::readable::wrap;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::{BotSummary, Records};
use crate::tournament::folder;
use crate::tournament::progress::ProgressMode;
use crate::tournament::run::execute;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Type an action as the legal list writes it (`raise 300`, `7,7`, `discard 5m`) or its number; `?` lists every legal action; end of input (Ctrl-D) forfeits.\n\nExamples:\n  arena play gomoku --bot weights\n  arena play holdem --bot rr-tight --seat 1 --seed 7\n  arena play mahjong --bot greedy --bot pruned --games 2"
)]
pub struct PlayArgs {
    /// The game (see `arena list`).
    game: String,
    /// A bot to play against: a roster name or kind. Repeat to seat different bots; they fill
    /// the other seats in turn.
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Your seat, from 0 (in gomoku seat 0 plays black and moves first).
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// Seats at the table (default: the fewest the game has).
    #[arg(long)]
    seats: Option<usize>,
    /// Seed of the deals (default: from the clock; printed, so a game can be played again).
    #[arg(long, value_parser = clap::value_parser!(u64).range(..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Games to play.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    games: u64,
    /// Where the record goes (default: results/play-<game>-<seed>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite an existing folder.
    #[arg(long)]
    force: bool,
}

/// The config of the game: the person in their seat, the bots in the others, as a config file
/// would say it (so it is checked like one).
fn config(arena: &Arena, args: &PlayArgs, seed: u64) -> Result<RunConfig> {
    let game = arena.find(&args.game)?;
    let seats = args.seats.unwrap_or(*game.seats().start());
    if !game.seats().contains(&seats) {
        let (min, max) = (*game.seats().start(), *game.seats().end());
        return Err(Error::input(format!("{} is played by {min} to {max} seats, not {seats}", game.name())));
    }
    if args.seat >= seats {
        return Err(Error::input(format!(
            "--seat {} is not a seat: the table has seats 0 to {}",
            args.seat,
            seats - 1
        )));
    }
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let mut others = args.bots.iter().cycle();
    let lineup: Vec<String> = (0..seats)
        .map(|seat| match seat == args.seat {
            true => "{ name = \"you\", kind = \"human\" }".to_string(),
            false => quote(others.next().expect("at least one bot")),
        })
        .collect();
    let text = format!("game = {}\nseats = {seats}\nbots = [{}]\n", quote(game.name()), lineup.join(", "));
    let name = format!("play-{}-{seed}", game.name());
    RunConfig::parse(
        arena,
        &Source::command_line(&text),
        &name,
        &Overrides { games: Some(args.games as i64), seed: Some(seed), ..Overrides::default() },
    )
}

/// A seed from the clock, within the range a config takes.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (now.as_nanos() as u64) & (i64::MAX as u64)
}

pub fn play(arena: &Arena, args: &PlayArgs) -> Result<i32> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let cfg = config(arena, args, seed)?;
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&cfg.name));
    let lock = folder::prepare(&out, args.force)?;
    let head = format!(
        "{} against {}, seed {seed} (`--seed {seed}` deals the same again); `?` for help",
        cfg.game,
        args.bots.join(", ")
    );
    // Laid out to the terminal's width, as everything the person is shown is.
    say!("{}", wrap("", head.split(' '), " ", 2, crate::human::terminal_width()).trim_end());
    // The record in the game's community format too, when it has one (PHH for hold'em).
    let history = arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, None)?.history_extension().is_some();
    // One thread: one game at a time at the terminal. No signal handlers: Ctrl-C ends the
    // program at once, as a person expects while it waits for their typing.
    let opts = RunOptions {
        threads: 1,
        progress: ProgressMode::Off,
        history,
        stop: Arc::default(),
        records: Records::Csv,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    let report = execute(arena, &cfg, cfg.schedule()?, &opts, &out, lock, None)?;
    if report.end.played > 1 {
        say!("\n{}", BotSummary::table(&report.verdicts.bots, report.verdicts.headline).trim_end());
    }
    say!("\nrecord: {}", out.display());
    Ok(EXIT_OK)
}
