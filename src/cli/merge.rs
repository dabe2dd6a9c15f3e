use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::{run, signals};
use crate::error::Result;
use crate::games::Arena;
use crate::report::Records;
use crate::tournament::execute::prepare_dir;
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
    /// How the merged run keeps its games: csv, gz or none (as `arena run --records`); the
    /// shards may keep theirs either way but none.
    #[arg(long, value_enum, default_value_t = Records::Csv)]
    records: Records,
}

pub fn merge(arena: &Arena, args: &MergeArgs) -> Result<i32> {
    let shards = Shards::open(arena, &args.shards)?;
    let cfg = shards.config();
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&cfg.name));
    // Every refusal (an unfinished shard, a folder taken) before the header: one line and nothing else.
    let merge = shards.read(arena)?;
    prepare_dir(&out, args.force)?;
    if !args.quiet {
        println!("{}", run::header(cfg, &cfg.schedule()?, None));
    }
    let opts = RunOptions {
        threads: 1,
        progress: run::progress_mode(args.quiet, 10.0),
        history: false,
        stop: signals::install(),
        records: args.records,
    };
    let report = merge.write(arena, &out, &opts)?;
    Ok(run::show(cfg, &report, &opts, &out, args.quiet, false))
}
