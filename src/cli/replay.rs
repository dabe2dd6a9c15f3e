use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::out::Printer;
use crate::cli::{EXIT_FAIL, EXIT_OK};
use crate::core::record::Event;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::tournament::progress::thousands;
use crate::tournament::replay::{status_text, Checked, RunRecords};

#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  arena run configs/stud.toml --records moves --out results/stud\n  \
arena replay results/stud --check\n  arena replay results/stud --game 3\n  arena replay results/stud --game 3 --seat 1\n\n\
--check plays every record of records.jsonl back through the rules: the deal must be the one the\n\
game's seed deals, every action the seat to act's and legal, every chance event the one the rules\n\
reveal, and the record line and games.csv rows the rules write for those events must be the ones\n\
on disk, byte for byte. It names the first game that fails (and its event) and exits 1. When every\n\
event was legal, the run's own bots (those in this process) play the game again to name the event\n\
where the record parts from them; --bots has them play every game (as long as the run took).\n\n\
--export FORMAT writes every recorded game in one of the game's own file formats, played back from\n\
records.jsonl: gomoku has psq (Piskvork's saved games, one file a game: RUN/psq/<pairing>-<game>.psq)\n\
and sgf (SGF FF[4] GM[4], one collection a pairing: RUN/sgf/pairing-<P>.sgf); hold'em has phh.\n\
  arena replay results/gomoku --export sgf\n  arena replay results/gomoku --export psq --out /tmp/psq")]
pub struct ReplayArgs {
    /// A run folder whose run kept its moves (`arena run --records moves`).
    #[arg(value_name = "RUN")]
    dir: PathBuf,
    /// Play every record back through the rules and compare it with the run's files.
    #[arg(long, conflicts_with_all = ["game", "seat"])]
    check: bool,
    /// With --check: also play every game again with the run's own bots (those in this process)
    /// and require the events recorded, one for one. Catches an action changed for another legal
    /// one that leaves the result unchanged; takes as long as the run did on one thread.
    #[arg(long, requires = "check")]
    bots: bool,
    /// The game to show: its `game` number in games.csv (within --pairing).
    #[arg(long, value_name = "N", default_value_t = 0)]
    game: u64,
    /// The pairing of the game to show (games.csv's `pairing`).
    #[arg(long, value_name = "P", default_value_t = 0)]
    pairing: usize,
    /// Show the game as seat N saw it (its own cards or tiles only), not with every hand open.
    #[arg(long, value_name = "N")]
    seat: Option<usize>,
    /// Write every recorded game in the game's file format FORMAT (gomoku: psq, sgf; hold'em: phh).
    #[arg(long, value_name = "FORMAT", conflicts_with_all = ["check", "game", "seat", "pairing"])]
    export: Option<String>,
    /// The folder --export writes into (default: RUN/FORMAT).
    #[arg(long, value_name = "DIR", requires = "export")]
    out: Option<PathBuf>,
    /// Print one JSON document: the check's result, or the game's steps with every seat's view.
    #[arg(long)]
    json: bool,
    /// With --check: seconds between progress lines on stderr (0: none).
    #[arg(long, default_value = "2", value_name = "SECONDS", value_parser = super::run::parse_seconds, requires = "check")]
    progress_every: f64,
    /// No progress lines (--check): only the result is printed.
    #[arg(long, short)]
    quiet: bool,
}

pub fn replay(arena: &Arena, args: &ReplayArgs) -> Result<i32> {
    let records = RunRecords::open(arena, &args.dir)?;
    let printer = Printer::new(args.json);
    if args.check {
        // A run still being written has records that games.csv has not caught up with (or the
        // other way round): checked now, it would fail for no fault of its own.
        if let Some(h) = crate::tournament::folder::holder(&args.dir) {
            return Err(Error::input(format!(
                "{} is still being written (the run is running: arena process {} on host {}); check it once it ends (`arena status {}` shows how far it is)",
                args.dir.display(),
                h.pid,
                if h.host.is_empty() { "?" } else { &h.host },
                args.dir.display()
            )));
        }
        let every = (!args.quiet && args.progress_every > 0.0).then(|| Duration::from_secs_f64(args.progress_every));
        return check(&records, args.bots, every, &printer);
    }
    if let Some(format) = &args.export {
        let out = args.out.clone().unwrap_or_else(|| args.dir.join(format));
        let done = records.export(format, &out)?;
        let skipped = match done.skipped {
            0 => String::new(),
            n => format!(" ({} games whose own code failed have no moves and were left out)", thousands(n)),
        };
        printer.line(format!(
            "{} games written as {format} into {} file{} in {}{skipped}",
            thousands(done.games),
            done.files,
            if done.files == 1 { "" } else { "s" },
            out.display()
        ));
        printer.document(&serde_json::json!({
            "format": format, "dir": out, "games": done.games, "files": done.files, "skipped": done.skipped
        }));
        return Ok(EXIT_OK);
    }
    show(&records, args, &printer)
}

/// `--check`: every record played back; a progress line every `every` (none without).
fn check(records: &RunRecords, bots: bool, every: Option<Duration>, printer: &Printer) -> Result<i32> {
    let total = records.lines.len() as u64;
    let mut last_shown = std::time::Instant::now();
    let checked = records.check(bots, &mut |done| {
        if every.is_some_and(|every| last_shown.elapsed() >= every) {
            eprintln!("checked {} of {} games", thousands(done), thousands(total));
            last_shown = std::time::Instant::now();
        }
    })?;
    match &checked {
        Checked::Passed { games, events, engine_errors } => {
            let errors = match engine_errors {
                0 => String::new(),
                n => format!(" ({} with an engine error, which have no moves to check)", thousands(*n)),
            };
            printer.line(format!(
                "{}: {} games and {} events played back through the rules; every record matches games.csv{errors}{}",
                records_path(records),
                thousands(*games),
                thousands(*events),
                if bots { ", and the run's bots play every game as recorded" } else { "" }
            ));
            printer.document(&serde_json::json!({ "passed": true, "games": games, "events": events, "engine_errors": engine_errors }));
            Ok(EXIT_OK)
        }
        Checked::Failed(why) => {
            printer.line(format!("{}: {why}", records_path(records)));
            printer.document(&serde_json::json!({ "passed": false, "failure": why }));
            Ok(EXIT_FAIL)
        }
    }
}

fn records_path(records: &RunRecords) -> String {
    format!("{} records", records.cfg.name)
}

fn show(records: &RunRecords, args: &ReplayArgs, printer: &Printer) -> Result<i32> {
    let index = records
        .index(args.pairing, args.game)
        .ok_or_else(|| Error::input(format!("the run has no game {} in pairing {}", args.game, args.pairing)))?;
    let (job, recorded) = records.game(index)?;
    let seats = records.cfg.seats;
    if let Some(seat) = args.seat.filter(|&s| s >= seats) {
        return Err(Error::input(format!("--seat {seat}: the table has seats 0 to {}", seats - 1)));
    }
    let mut frames = records.frames(&job, &recorded)?;
    let names = records.names();
    let who = |seat: usize| format!("seat {seat} ({})", names[job.lineup[seat]]);
    let lineup: Vec<String> = (0..seats).map(who).collect();
    printer.line(format!("pairing {} game {}: {} (seed {})", job.pairing, job.game, lineup.join(", "), job.seeds.deal));
    for (step, frame) in frames.iter().enumerate().skip(1) {
        let before = &frames[step - 1];
        let i = frame.event.expect("every frame after the first follows an event");
        match &recorded.events[i] {
            Event::Action(seat, action) => {
                let viewer = args.seat.unwrap_or(*seat);
                if viewer == *seat {
                    printer.line(format!("\n— {} to act —\n{}", who(*seat), before.texts[viewer].trim_end()));
                }
                printer.line(format!("{:>4}. {}: {action}", i + 1, who(*seat)));
            }
            // What chance reveals to one seat shows in its view; with every hand open it is listed.
            Event::Chance(text) if args.seat.is_none() => printer.line(format!("{:>4}. {text}", i + 1)),
            Event::Chance(_) => {}
        }
    }
    if let (Some(seat), Some(last)) = (args.seat, frames.last()) {
        printer.line(format!("\n— at the end, {} —\n{}", who(seat), last.texts[seat].trim_end()));
    }
    let results: Vec<String> =
        (0..seats).map(|s| format!("{} {}", names[job.lineup[s]], recorded.payoffs[s])).collect();
    printer.line(format!("\nresult: {} ({})", results.join(", "), status_text(&recorded.status)));
    if let Some(seat) = args.seat {
        // As that seat saw it: the other seats' views are not its to see.
        for frame in &mut frames {
            frame
                .views
                .iter_mut()
                .enumerate()
                .filter(|(s, _)| *s != seat)
                .for_each(|(_, v)| *v = serde_json::Value::Null);
        }
    }
    printer.document(&serde_json::json!({
        "pairing": job.pairing,
        "game": job.game,
        "seats": (0..seats).map(|s| &names[job.lineup[s]]).collect::<Vec<_>>(),
        "events": recorded.events.iter().map(|e| match e {
            Event::Action(seat, action) => serde_json::json!([seat, action]),
            Event::Chance(text) => serde_json::json!(text),
        }).collect::<Vec<_>>(),
        "frames": frames,
    }));
    Ok(EXIT_OK)
}
