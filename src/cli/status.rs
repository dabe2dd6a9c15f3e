use std::path::PathBuf;

use clap::Args;

use crate::cli::out::Printer;
use crate::cli::EXIT_OK;
use crate::error::Result;
use crate::tournament::status;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena status results/quickstart\n  arena status /shared/quickstart-shard-*-of-4 --json\n\nStates: running (pid and host of the process writing it), complete, sprt-stopped, interrupted, failed,\nkilled (run.json says running but no process holds the folder: `arena resume` continues it),\nnot started (no folder). Games on disk are the whole games in games.csv: what a kill would leave."
)]
pub struct StatusArgs {
    /// Run folders: one run, or the shards of one (`arena run --shard K/N`).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Print one JSON document (`folders`, and `all` for the folders together).
    #[arg(long)]
    json: bool,
}

/// `arena status DIR...`: one line a folder (games on disk of planned, state, rate, last write),
/// then, for several, the whole (folders done, games, rate, ETA).
pub fn status(args: &StatusArgs) -> Result<i32> {
    let folders: Vec<status::FolderStatus> = args.dirs.iter().map(|d| status::folder(d)).collect();
    let all = status::overall(&folders);
    let printer = Printer::new(args.json);
    let now = status::now();
    for f in &folders {
        printer.line(f.line(now));
    }
    if folders.len() > 1 {
        printer.line(all.line());
    }
    printer.document(&serde_json::json!({ "folders": folders, "all": all }));
    Ok(EXIT_OK)
}
