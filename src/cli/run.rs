use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::cli::{signals, EXIT_ENGINE_ERRORS, EXIT_OK};
use crate::error::{Error, Result};
use crate::games::Arena;
use crate::report::{BotSummary, CiUnit};
use crate::tournament::config::{Overrides, RunConfig, Source};
use crate::tournament::execute::{execute, prepare_dir, RunReport};
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena run configs/quickstart.toml\n  arena run configs/quickstart.toml --games 200 --seed 7 --threads 2\n  arena run --game gomoku --bot weights --bot random --games 1000 --paired"
)]
pub struct RunArgs {
    /// Tournament config (TOML). Without one, give --game and --bot.
    config: Option<PathBuf>,
    /// Game to play when no config is given (see `arena list`).
    #[arg(long, conflicts_with = "config")]
    game: Option<String>,
    /// A bot (roster name or kind) when no config is given; repeat for each bot.
    #[arg(long = "bot", conflicts_with = "config")]
    bots: Vec<String>,
    /// Replay every deal with the bots rotated through the seats (no config only).
    #[arg(long, conflicts_with = "config")]
    paired: bool,
    /// Seats at the table (no config only; default: the number of bots).
    #[arg(long, conflicts_with = "config")]
    seats: Option<i64>,
    /// Games per pairing (overrides the config; default 100).
    #[arg(long, allow_negative_numbers = true)]
    games: Option<i64>,
    /// Master seed, 0 to 2^63-1 (overrides the config).
    #[arg(long, value_parser = clap::value_parser!(u64).range(..=i64::MAX as u64))]
    seed: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Output folder (default: results/<config name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite an existing run folder (its run's files are removed first; a folder holding
    /// other files is refused).
    #[arg(long)]
    force: bool,
    /// Also write every game's record in its community's format into <out>/history/
    /// (hold'em: PHH hand histories that PokerKit replays).
    #[arg(long)]
    hand_history: bool,
    /// No progress bar, no summary table; only the output folder is printed.
    #[arg(long, short)]
    quiet: bool,
}

impl RunArgs {
    fn config(&self, arena: &Arena) -> Result<RunConfig> {
        let overrides = Overrides { games: self.games, seed: self.seed };
        if let Some(path) = &self.config {
            return RunConfig::load(arena, path, &overrides);
        }
        let game = self.game.as_deref().ok_or_else(|| {
            Error::input("give a config file, or --game and at least one --bot (see `arena run --help`)")
        })?;
        if self.bots.is_empty() {
            return Err(Error::input("give at least one --bot (see `arena list` for the bots)"));
        }
        // The flags are written as a config and parsed like one, so both paths check the same way.
        let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
        let bots: Vec<String> = self.bots.iter().map(|b| quote(b)).collect();
        let mut text = format!("game = {}\npaired = {}\nbots = [{}]\n", quote(game), self.paired, bots.join(", "));
        if let Some(seats) = self.seats {
            text.push_str(&format!("seats = {seats}\n"));
        }
        let name = format!("{game}-{}", self.bots.join("-vs-"));
        RunConfig::parse(arena, &Source::command_line(&text), &name, &overrides)
    }
}

pub fn run(arena: &Arena, args: &RunArgs) -> Result<i32> {
    let cfg = args.config(arena)?;
    if cfg.bots.len() == 1 && cfg.seats > 1 && !args.quiet {
        eprintln!("note: one bot, so it plays itself in all {} seats", cfg.seats);
    }
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&cfg.name));
    prepare_dir(&out, args.force)?;
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: !args.quiet && std::io::stderr().is_terminal(),
        history: args.hand_history,
        stop: signals::install(),
    };
    let report = execute(arena, &cfg, &opts, &out)?;
    Ok(show(&cfg, &report, &opts, &out, args.quiet))
}

/// Prints what a run came to (with `quiet`, only where its files are); returns the exit code.
pub(crate) fn show(cfg: &RunConfig, report: &RunReport, opts: &RunOptions, out: &Path, quiet: bool) -> i32 {
    let (end, schedule) = (&report.end, &report.schedule);
    if !quiet {
        let pairings = schedule.pairings.len();
        let by_deal = report.verdicts.bots.iter().any(|b| b.ci_unit == CiUnit::Deal);
        println!(
            "{}: {} games of {} ({}{}, seed {}){}{}",
            cfg.name,
            end.played,
            cfg.game,
            cfg.shape.name(),
            if pairings == 1 { String::new() } else { format!(", {pairings} pairings") },
            cfg.seed,
            if cfg.paired { ", paired" } else { "" },
            if by_deal { "; 95% intervals over deals" } else { "" }
        );
        print!("{}", BotSummary::table(&report.verdicts.bots));
        print!("{}", BotSummary::forfeit_lines(&report.verdicts.bots));
        print!("{}", report.verdicts.describe());
    }
    if end.stopped_by_sink {
        println!("SPRT decided after {} of {} games", end.played, schedule.total());
    }
    if end.interrupted {
        eprintln!(
            "interrupted after {} of {} games; what finished is kept (`arena resume {}` plays on)",
            end.played,
            schedule.total(),
            out.display()
        );
    }
    if report.engine_errors > 0 {
        eprintln!(
            "the run completed with engine errors: {} games ended in a panic of the game's own code (status `error:` in games.csv) and count for nobody",
            report.engine_errors
        );
    }
    println!("results: {}", out.display());
    match (end.interrupted, report.engine_errors) {
        (true, _) => signals::exit_code(&opts.stop),
        (false, 0) => EXIT_OK,
        (false, _) => EXIT_ENGINE_ERRORS,
    }
}
