use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::out::{note, say};
use crate::cli::EXIT_OK;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::export::Export;
use crate::report::html::{self, REPORT};
use crate::report::{write_atomic, write_output};
use crate::tournament::replay;

#[derive(Args, Debug)]
#[command(
    group(clap::ArgGroup::new("input").required(true).args(["dirs", "history"])),
    after_help = "Examples:\n  arena report results/gomoku\n  arena report results/stud --game 3 --game 7\n  arena report results/gomoku results/gomoku-renju --out compare.html\n  arena report results/gomoku --export jsonl:gomoku.jsonl\n  arena report --history gate-history.csv --out public/index.html"
)]
pub struct ReportArgs {
    /// Run folders (each with config.toml and games.csv); several are shown side by side.
    dirs: Vec<PathBuf>,
    /// Instead of run folders: the gate's history file (`arena gate --history FILE`), drawn as
    /// one page: every expectation's estimate over commits, its failures, where it changed.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["export", "game"])]
    history: Option<PathBuf>,
    /// Where to write the page (default: report.html in the one folder given, needed with several;
    /// with --history, history.html beside the file).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the run's tables (summary, match, ratings, as the page computes them from
    /// games.csv) to FILE in FORMAT: csv, json, jsonl or html. Repeatable; one run folder only.
    #[arg(long, value_name = "FORMAT:FILE")]
    export: Vec<Export>,
    /// Also show game N step by step (games.csv's `game`, within --pairing), beside the games the
    /// page picks itself. Repeatable; the run must have kept its moves (`--records moves`).
    #[arg(long, value_name = "N")]
    game: Vec<u64>,
    /// The pairing of the games --game names (games.csv's `pairing`).
    #[arg(long, value_name = "P", default_value_t = 0, requires = "game")]
    pairing: usize,
}

/// `arena report DIR...`: writes the page and prints where it is.
pub fn report(arena: &Arena, args: &ReportArgs) -> Result<i32> {
    if let Some(file) = &args.history {
        return history(file, args.out.as_deref());
    }
    let out = match (&args.out, args.dirs.as_slice()) {
        (Some(out), _) => out.clone(),
        (None, [dir]) => dir.join(REPORT),
        (None, _) => return Err(Error::input("several run folders: say where the page goes with --out FILE")),
    };
    let dirs: Vec<&Path> = args.dirs.iter().map(PathBuf::as_path).collect();
    let exports = match dirs.as_slice() {
        [_] => args.export.as_slice(),
        _ if args.export.is_empty() => &[],
        _ => return Err(Error::input("--export writes one run's tables: give one run folder")),
    };
    super::run::check_exports(exports)?;
    let asked: Vec<(usize, u64)> = args.game.iter().map(|&game| (args.pairing, game)).collect();
    let runs = read_with_viewer(arena, &dirs, &asked)?;
    write_output(&out, html::page(&runs)?.as_bytes())?;
    say!("report: {}", out.display());
    for run in &runs {
        super::run::export(exports, &run.verdicts)?;
    }
    Ok(EXIT_OK)
}

/// `arena report --history FILE`: the history's page, written to `out` (default: history.html
/// beside the file).
fn history(file: &Path, out: Option<&Path>) -> Result<i32> {
    let rows = crate::report::history::read(file)?;
    let out = out.map_or_else(|| file.with_file_name(HISTORY_PAGE), Path::to_path_buf);
    write_output(&out, html::history::page(&file.display().to_string(), &rows)?.as_bytes())?;
    say!("report: {}", out.display());
    Ok(EXIT_OK)
}

/// The history page's default name, beside the history file.
const HISTORY_PAGE: &str = "history.html";

/// Writes `dir`'s report.html at the end of `arena run --report` or `arena gate --report`, and
/// says where it is on stderr (stdout may hold a JSON document).
pub(crate) fn write_for(arena: &Arena, dir: &Path) -> Result<()> {
    let out = dir.join(REPORT);
    let runs = read_with_viewer(arena, &[dir], &[])?;
    write_atomic(&out, html::page(&runs)?.as_bytes())?;
    note!("report: {}", out.display());
    Ok(())
}

/// The run folders read for the page, each with the games it shows step by step (when the run
/// kept its moves): the report layer reads games.csv, the tournament layer replays records.
fn read_with_viewer(arena: &Arena, dirs: &[&Path], asked: &[(usize, u64)]) -> Result<Vec<html::RunData>> {
    let mut runs = html::read(arena, dirs)?;
    for run in &mut runs {
        replay::add_viewer(arena, run, asked)?;
    }
    Ok(runs)
}

/// How often `arena run --report` and `arena resume --report` write the page while the run
/// plays.
#[derive(Clone, Copy)]
pub(crate) struct Live<'a> {
    pub arena: &'a Arena,
    pub dir: &'a Path,
    /// Seconds between writes (at least; see [`while_playing`]); zero writes only at the end.
    pub every: f64,
}

/// A live page's writes take at most this share of the time: a run of millions of games takes a
/// while to read back, and the page is written again only after ten times that.
const LIVE_SHARE: u32 = 10;

/// Runs `play`, writing `live.dir`'s report.html every `live.every` seconds (or ten times as long
/// as the last write took, if more) until it returns: the page so far, which reloads itself in
/// the browser. A write that fails (the folder not ready yet, a record being written) is skipped:
/// the next one, or the final page, takes its place.
pub(crate) fn while_playing<T>(live: Live<'_>, play: impl FnOnce() -> T) -> T {
    if live.every <= 0.0 {
        return play();
    }
    let done = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    let every = std::time::Duration::from_secs_f64(live.every);
    let reload = live.every.ceil().max(1.0) as u64;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let (lock, wake) = &done;
            let mut wait = every;
            loop {
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) =
                    wake.wait_timeout_while(guard, wait, |ended| !*ended).unwrap_or_else(|e| e.into_inner());
                if *guard {
                    return;
                }
                drop(guard);
                let began = std::time::Instant::now();
                let _ = write_live(live.arena, live.dir, reload);
                wait = every.max(began.elapsed() * LIVE_SHARE);
            }
        });
        let out = play();
        *done.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        done.1.notify_all();
        out
    })
}

/// Writes the live page of the run playing in `dir`.
fn write_live(arena: &Arena, dir: &Path, reload: u64) -> Result<()> {
    let run = html::RunData::read(arena, dir)?;
    write_atomic(&dir.join(REPORT), html::live_page(&run, reload)?.as_bytes())
}
