use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;

use crate::cli::{run, signals, EXIT_OK};
use crate::error::Result;
use crate::games::Arena;
use crate::report::Manifest;
use crate::tournament::execute;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena resume results/quickstart\n  arena resume results/quickstart --threads 2 --quiet"
)]
pub struct ResumeArgs {
    /// The run folder (its run.json, config.toml and games.csv). Whole observations in games.csv
    /// are kept, the rest dropped, and play goes on: the files come out as those of the run
    /// never interrupted.
    dir: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// No progress bar, no summary table; only the output folder is printed.
    #[arg(long, short)]
    quiet: bool,
}

pub fn resume(arena: &Arena, args: &ResumeArgs) -> Result<i32> {
    let manifest = Manifest::read(&args.dir)?;
    if manifest.status.is_whole() {
        println!(
            "{}: {} ({} of {} games); nothing to resume",
            args.dir.display(),
            manifest.status.as_str(),
            manifest.games_played,
            manifest.games_planned
        );
        return Ok(EXIT_OK);
    }
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: !args.quiet && std::io::stderr().is_terminal(),
        history: false,
        stop: signals::install(),
    };
    let (cfg, report) = execute::resume(arena, &args.dir, &opts)?;
    Ok(run::show(&cfg, &report, &opts, &args.dir, args.quiet))
}
