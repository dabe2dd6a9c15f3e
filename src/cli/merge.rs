use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::out::{say, Printer};
use crate::cli::{run, signals};
use crate::config::{Overrides, RunConfig};
use crate::error::Result;
use crate::registry::Arena;
use crate::report::{config_hash, Records};
use crate::tournament::folder::{self, FolderLock};
use crate::tournament::launch::header;
use crate::tournament::merge::Shards;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena merge results/quickstart-shard-*-of-4\n  arena merge shards/1 shards/2 shards/3 --out results/quickstart --force"
)]
pub struct MergeArgs {
    /// The shards' folders (`arena run --shard K/N`), every shard of one run once, in any order.
    #[arg(required = true, value_name = "DIR")]
    shards: Vec<PathBuf>,
    /// The merged run's folder (default: results/<config name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite an existing run folder (as `arena run --force`).
    #[arg(long)]
    force: bool,
    /// No summary table; only the output folder is printed.
    #[arg(long, short)]
    quiet: bool,
    /// The config the shards were run from: a shard of another config (left by an earlier run
    /// into the same folders) is named and refused. Without it, the shards must agree.
    #[arg(long, value_name = "CONFIG")]
    config: Option<PathBuf>,
    /// How the merged run keeps its games: csv, gz or none (as `arena run --records`); the
    /// shards may keep theirs either way but none.
    #[arg(long, value_enum, default_value_t = Records::Csv)]
    records: Records,
}

pub fn merge(arena: &Arena, args: &MergeArgs) -> Result<i32> {
    let expected = match &args.config {
        Some(path) => Some(config_hash(&RunConfig::load(arena, path, &Overrides::default())?.to_toml())),
        None => None,
    };
    let shards = Shards::open(arena, &args.shards, expected.as_deref())?;
    let cfg = shards.config();
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&cfg.name));
    // Every refusal (an unfinished shard, a folder taken) before the header: one line and nothing else.
    // The folder is held from before the shards are judged; a refusal leaves it as it was.
    let lock = FolderLock::create(&out)?;
    let merge = shards.read(arena, args.records)?;
    folder::ready(&lock, &out, args.force)?;
    if !args.quiet {
        say!("{}", header(cfg, &cfg.schedule()?, None));
    }
    let opts = RunOptions {
        threads: 1,
        progress: run::progress_mode(args.quiet, 10.0),
        history: false,
        stop: signals::install(),
        records: args.records,
        flush_every: crate::tournament::runner::FLUSH_EVERY,
        cores: Vec::new(),
        luck: crate::core::luck::Estimator::Plain,
    };
    let report = merge.write(arena, &out, lock, &opts)?;
    Ok(run::show(cfg, &report, &opts, &out, args.quiet, &Printer::new(false)))
}
