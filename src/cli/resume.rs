use std::path::PathBuf;

use clap::Args;

use crate::cli::out::{note, say};
use crate::cli::{run, signals, EXIT_OK};
use crate::error::Result;
use crate::registry::Arena;
use crate::report::{Manifest, Records};
use crate::tournament::folder::FolderLock;
use crate::tournament::resume::Resumption;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena resume results/quickstart\n  arena resume results/quickstart --threads 2 --quiet\n  arena resume results/quickstart --games 2000   (extend a run to 2000 games per pairing)"
)]
pub struct ResumeArgs {
    /// The run folder (its run.json, config.toml and games.csv). Whole observations in games.csv
    /// are kept, the rest dropped, and play goes on: the files come out as those of the run
    /// never interrupted.
    dir: PathBuf,
    /// Extend the run to N games per pairing (at least its own): the files come out as those of
    /// a run of N games from the start.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// No progress bar, no summary table; only the output folder is printed.
    #[arg(long, short)]
    quiet: bool,
    /// Seconds between progress lines when stderr is not a terminal (0: none).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = run::parse_seconds)]
    progress_every: f64,
    /// Seconds between writes of finished games to the disk (0: after every game).
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = run::parse_seconds)]
    flush_every: f64,
    /// Print the verdicts as one JSON document on stdout (the text goes to stderr).
    #[arg(long)]
    json: bool,
}

pub fn resume(arena: &Arena, args: &ResumeArgs) -> Result<i32> {
    // Before anything is read: a run still being written is refused, naming its process.
    let lock = FolderLock::acquire(&args.dir)?;
    let manifest = Manifest::read(&args.dir)?;
    if manifest.status.is_whole() && args.games.is_none() {
        say!("{}", nothing_to_resume(&args.dir, &manifest));
        return Ok(EXIT_OK);
    }
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: run::progress_mode(args.quiet, args.progress_every),
        history: false,
        stop: signals::install(),
        // Kept as the run kept them (run.json says how).
        records: Records::Csv,
        flush_every: std::time::Duration::from_secs_f64(args.flush_every),
    };
    // Every refusal before the header: a refused resume prints its one line only.
    let resumption = Resumption::open(arena, &args.dir, lock, &opts, args.games)?;
    if !args.quiet {
        let header = run::header(&resumption.cfg, resumption.schedule(), manifest.shard);
        if args.json {
            note!("{header}");
        } else {
            say!("{header}");
        }
    }
    let (cfg, report) = resumption.play()?;
    Ok(run::show(&cfg, &report, &opts, &args.dir, args.quiet, args.json))
}

/// What `resume` says of a run that has ended with nothing left to play.
pub(crate) fn nothing_to_resume(dir: &std::path::Path, manifest: &Manifest) -> String {
    format!(
        "{}: {} ({} of {} games); nothing to resume",
        dir.display(),
        manifest.status.as_str(),
        manifest.games_played,
        manifest.games_planned
    )
}
