//! `arena import FORMAT FILE...`: another program's game logs into a run folder.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::out::{say, Printer};
use crate::cli::{run, signals};
use crate::core::ImportFile;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::Records;
use crate::tournament::folder::{self, FolderLock};
use crate::tournament::import::{formats, Import};
use crate::tournament::launch::header;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Formats: acpc (hold'em: the ACPC dealer's matchName.log; two logs of one seed with the players swapped are one duplicate match).\n\nExamples:\n  arena import acpc ep_vs_ep.log\n  arena import acpc dupA.log dupB.log --out results/dup --force --records gz\n  arena report results/dup"
)]
pub struct ImportArgs {
    /// The log's format (`acpc`).
    #[arg(value_name = "FORMAT")]
    format: String,
    /// The logs, in order (a duplicate match: its logs, the first naming the players' order).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The run folder (default: results/<first log's name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite an existing run folder (as `arena run --force`).
    #[arg(long)]
    force: bool,
    /// No summary table; only what was read and the folder are printed.
    #[arg(long, short)]
    quiet: bool,
    /// How to keep the games: csv, gz or none (as `arena run --records`). Not moves: records.jsonl
    /// is played back from the run's seeds, which did not deal these games.
    #[arg(long, value_enum, default_value_t = Records::Csv)]
    records: Records,
    /// Leave out history/ (each game in its community's format: hold'em's PHH), written by default.
    #[arg(long)]
    no_hand_history: bool,
}

pub fn import(arena: &Arena, args: &ImportArgs) -> Result<i32> {
    if !formats(arena).iter().any(|(f, _, _)| *f == args.format) {
        let known: Vec<&str> = formats(arena).iter().map(|(f, _, _)| *f).collect();
        return Err(Error::input(format!(
            "unknown import format {} (known: {})",
            crate::error::shown(&args.format),
            known.join(", ")
        )));
    }
    if args.records.moves_file().is_some() {
        return Err(Error::input(format!(
            "--records {}: records.jsonl is played back from the run's seeds, which did not deal imported games; import with --records csv, gz or none (history/ holds each game)",
            args.records.name()
        )));
    }
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| Error::bad_path(path, e))?;
        files.push(ImportFile { name: path.display().to_string(), text });
    }
    let stem = args.files[0].file_stem().map_or("import".into(), |s| s.to_string_lossy().into_owned());
    let imported = Import::read(arena, &args.format, &files, &stem)?;
    let cfg = imported.cfg.clone();
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&cfg.name));
    let lock = FolderLock::create(&out)?;
    folder::ready(&lock, &out, args.force)?;
    let schedule = imported.schedule.clone();
    let label = arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, None)?.payoff_label();
    for note in &imported.notes {
        say!("{note}");
    }
    for (bot, (total, games)) in cfg.bots.iter().zip(&imported.totals) {
        let per100 = if *games > 0 { 100.0 * total / *games as f64 } else { 0.0 };
        say!("{}: {total:+.2} {label} over {games} games ({per100:+.2} per 100 games)", bot.name);
    }
    say!(
        "placed as {}",
        if imported.paired() {
            "a duplicate match: each deal's games are one observation"
        } else {
            "one pairing a seat order (not paired: each deal was played once)"
        }
    );
    if !args.quiet {
        say!("{}", header(&cfg, &schedule, None));
    }
    let opts = RunOptions {
        threads: 1,
        progress: run::progress_mode(true, 0.0),
        history: !args.no_hand_history,
        stop: signals::install(),
        records: args.records,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    let report = imported.write(arena, &out, lock, &opts)?;
    Ok(run::show(&cfg, &report, &opts, &out, args.quiet, &Printer::new(false)))
}
