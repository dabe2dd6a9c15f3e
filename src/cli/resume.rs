use std::path::PathBuf;

use clap::Args;

use crate::cli::out::Printer;
use crate::cli::report::Live;
use crate::cli::{run, signals};
use crate::error::Result;
use crate::registry::Arena;
use crate::report::Records;
use crate::tournament::launch::Launch;
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
    /// Also write report.html into the run folder: while the run plays (a page that reloads
    /// itself) and, final, at the end.
    #[arg(long)]
    report: bool,
    /// With --report: seconds between writes of the page while the run plays; 0 writes it at the end only.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = run::parse_seconds, requires = "report")]
    report_every: f64,
}

pub fn resume(arena: &Arena, args: &ResumeArgs) -> Result<i32> {
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: run::progress_mode(args.quiet, args.progress_every),
        history: false,
        stop: signals::install(),
        // Kept as the run kept them (run.json says how).
        records: Records::Csv,
        flush_every: std::time::Duration::from_secs_f64(args.flush_every),
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    // Every refusal before the header: a refused resume prints its one line only.
    let launch = Launch::resume(arena, &args.dir, opts.clone(), args.games)?;
    let live = args.report.then_some(Live { arena, dir: &args.dir, every: args.report_every });
    // A report.html already there (a killed `--report` run's live page, which reloads itself)
    // is written final too: a resumed run never leaves a page that says it is still playing.
    let report = args.report || args.dir.join(crate::report::html::REPORT).is_file();
    let (code, _) = run::finish(launch, &Printer::new(args.json), &opts, args.quiet, live, |dir| match report {
        true => super::report::write_for(arena, dir),
        false => Ok(()),
    })?;
    Ok(code)
}
