use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use serde::Serialize;

use crate::cli::out::{note, Printer};
use crate::cli::report::Live;
use crate::cli::{json, signals, EXIT_ENGINE_ERRORS, EXIT_OK};
use crate::config::{Overrides, RunConfig, Source};
use crate::core::luck::Estimator;
use crate::core::schedule::Shard;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::export::{Export, ExportFormat};
use crate::report::verdict::thousands;
use crate::report::{BotSummary, Records, Verdicts};
use crate::stats::sprt::SprtGiven;
use crate::tournament::launch::{nothing_to_resume, Existing, Finished, Launch};
use crate::tournament::progress::ProgressMode;
use crate::tournament::run::RunReport;
use crate::tournament::runner::RunOptions;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena run configs/quickstart.toml\n  arena run configs/quickstart.toml --games 200 --seed 7 --threads 2\n  arena run --game gomoku --bot weights --bot random --games 1000 --paired\n  arena run --game holdem --bot 'mine=external:python3 bots/examples/holdem_random.py' --bot rr\n  arena run configs/quickstart.toml --shard 2/4 --out results/quickstart-2   (then `arena merge`)"
)]
pub struct RunArgs {
    /// Tournament config (TOML). Without one, give --game and --bot. Relative paths in it (a
    /// bot's command, an openings file) start from its folder, whatever the working folder.
    config: Option<PathBuf>,
    /// Game to play when no config is given (see `arena list`).
    #[arg(long, conflicts_with = "config")]
    game: Option<String>,
    /// A bot when no config is given; repeat for each bot: a roster name or kind (`rr`), or a
    /// program as a bot, NAME=KIND:COMMAND (`mine=external:python3 mybot.py`: the bot `mine` of
    /// kind `external` runs that command, split at spaces, its relative paths from the working
    /// folder; other parameters need a config file).
    #[arg(long = "bot", conflicts_with = "config")]
    bots: Vec<String>,
    /// Replay every deal with the bots rotated through the seats (no config only).
    #[arg(long, conflicts_with = "config")]
    paired: bool,
    /// Seats at the table (no config only; default: the number of bots).
    #[arg(long, conflicts_with = "config")]
    seats: Option<i64>,
    /// How the payoff verdicts are estimated (overrides the config's `estimator`): plain,
    /// duplicate (paired deals), or with the luck taken out for hold'em cash, stud, zhajinhua and
    /// mahjong (one hand, no flowers): all-in (a payoff no decision could change any more replaced
    /// by its expectation) or aivat (corrections at every card or tile dealt and every decision of
    /// a bot with known probabilities).
    /// The payoff SPRT then tests the adjusted payoff; the plain figures stay beside it.
    #[arg(long, value_enum)]
    estimator: Option<Estimator>,
    /// Stop as soon as a sequential test decides (two bots; replaces the config's [sprt]): its
    /// bounds as KEY=VALUE pairs, `payoff0=0,payoff1=1` (the payoff test, in the game's verdict
    /// unit, e.g. bb/100) or `elo0=0,elo1=5` (Elo on games won; model=logistic or normalized),
    /// and optionally alpha=, beta= (default 0.05 each).
    #[arg(long, value_name = "KEY=VALUE,...", value_parser = parse_sprt)]
    sprt: Option<SprtGiven>,
    /// A clock for every bot that sets no `tc` of its own, as engine testers give it: `10+0.1`
    /// is 10 s a game plus 0.1 s after every move; a bot that runs out loses the game on time
    /// (`time`). A program outside is charged its own time (docs/book/src/protocol.md).
    #[arg(long, value_name = "BASE+INC", value_parser = parse_tc)]
    tc: Option<String>,
    /// Pin worker k to the k-th core this process may use (round again past the last), and the
    /// bots each worker starts to its core with it, so that bots do not move between cores or
    /// crowd one (Linux: sched_setaffinity); refused in one line where the system cannot.
    #[arg(long)]
    affinity: bool,
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
    /// Overwrite an existing run folder: the files a run writes are removed first; files of other
    /// names (a README, notes) are kept, and never stop a run.
    #[arg(long)]
    force: bool,
    /// Play only shard K of N (1-based) of the run's games, to merge later with `arena merge`:
    /// whole deals, dealt out in turn. `auto` takes K from a Slurm job array
    /// (SLURM_ARRAY_TASK_ID) or a Kubernetes indexed Job (JOB_COMPLETION_INDEX), and N from
    /// Slurm or from `auto/N`. Default folder: results/<name>-shard-K-of-N.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Also write every game's record in its community's format into <out>/history/
    /// (hold'em: PHH hand histories that PokerKit replays; gomoku: Piskvork .psq files). Refused
    /// for a game without such a format. `arena replay RUN --export FORMAT` writes them (and
    /// gomoku's SGF) later from --records moves.
    #[arg(long)]
    hand_history: bool,
    /// No progress bar, no summary table; only the output folder is printed.
    #[arg(long, short)]
    quiet: bool,
    /// Seconds between progress lines when stderr is not a terminal (0: none).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    progress_every: f64,
    /// Print the verdicts as one JSON document on stdout (the text goes to stderr).
    #[arg(long)]
    json: bool,
    /// Also write report.html (plots and tables) into the output folder: while the run plays
    /// (a page that reloads itself, see --report-every) and, final, at the end.
    #[arg(long)]
    report: bool,
    /// With --report: seconds between writes of the page while the run plays (longer when the
    /// run is large enough that reading it back takes a tenth of that); 0 writes it at the end only.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = parse_seconds, requires = "report")]
    report_every: f64,
    /// Also write the run's tables (summary, match, ratings) to FILE in FORMAT: csv, json, jsonl
    /// (JSON lines: one row an object a line, led by its table's name) or html. Repeatable.
    #[arg(long, value_name = "FORMAT:FILE")]
    export: Vec<Export>,
    /// Seconds between writes of finished games to the disk (0: after every game): a run killed
    /// outright (SIGKILL, out of memory, a lost node) loses at most this much finished play.
    #[arg(long, default_value = "5", value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) flush_every: f64,
    /// Continue the run in the output folder if it is this config's (the same resolved config and
    /// shard), as `arena resume` does; start it if the folder holds no run. A folder holding another
    /// config's run is refused (--force starts afresh). For job schedulers that rerun a task.
    #[arg(long, conflicts_with = "force")]
    resume: bool,
    /// How to keep the games: `csv` (games.csv), `gz` (games.csv.gz, compressed; pandas and R
    /// read it as it is) or `none` (no per-game file: summary, match and ratings only; such a
    /// run cannot be resumed or merged).
    #[arg(long, value_enum, default_value_t = Records::Csv)]
    records: Records,
}

/// `--sprt KEY=VALUE,...`.
pub(crate) fn parse_sprt(s: &str) -> std::result::Result<SprtGiven, String> {
    SprtGiven::parse_pairs(s).map_err(|e| e.to_string().trim_start_matches("--sprt: ").to_string())
}

/// `--affinity`: the cores the workers are pinned to, checked by pinning this thread to the
/// first (worker 0 is this thread); refused in one line where the system cannot pin.
fn affinity() -> Result<Vec<usize>> {
    let refused = |why: String| Error::input(format!("--affinity: {why}"));
    let cores = crate::tournament::runner::usable_cores().map_err(refused)?;
    let first = *cores.first().ok_or_else(|| refused("this process may run on no core".to_string()))?;
    crate::tournament::runner::pin_to(first).map_err(refused)?;
    Ok(cores)
}

/// `--tc`: a time control as a config's `tc` takes it.
pub(crate) fn parse_tc(s: &str) -> std::result::Result<String, String> {
    crate::core::TimeControl::parse(s).map(|_| s.trim().to_string())
}

/// `--progress-every`: 0 (none) to a day.
pub(crate) fn parse_seconds(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=86_400.0).contains(&x) => Ok(x),
        _ => Err("must be a number of seconds from 0 to 86400".to_string()),
    }
}

/// How a run shows its progress: a bar when stderr is a terminal, else a line every
/// `every_seconds` (none at 0); nothing when `quiet`.
pub(crate) fn progress_mode(quiet: bool, every_seconds: f64) -> ProgressMode {
    if quiet {
        ProgressMode::Off
    } else if std::io::stderr().is_terminal() {
        ProgressMode::Bar
    } else if every_seconds > 0.0 {
        ProgressMode::Lines(Duration::from_secs_f64(every_seconds))
    } else {
        ProgressMode::Off
    }
}

impl RunArgs {
    fn config(&self, arena: &Arena) -> Result<RunConfig> {
        let overrides = Overrides {
            games: self.games,
            seed: self.seed,
            estimator: self.estimator,
            sprt: self.sprt.clone(),
            tc: self.tc.clone(),
        };
        if let Some(path) = &self.config {
            return RunConfig::load(arena, path, &overrides);
        }
        let game = self.game.as_deref().ok_or_else(|| {
            Error::input("give a config file, or --game and at least one --bot (see `arena run --help`)")
        })?;
        let seating = Seating { bots: &self.bots, seats: self.seats, paired: self.paired, name: None };
        flags_config(arena, game, &seating, &overrides)
    }
}

/// A run given by flags instead of a file: the bots as `--bot` gives them, listed in seat order.
pub(crate) struct Seating<'a> {
    pub bots: &'a [String],
    pub seats: Option<i64>,
    pub paired: bool,
    /// The run's name (default: the game and the bots, `holdem-rr-vs-rr-tight`).
    pub name: Option<String>,
}

/// The config of a run given by flags (`arena run --game ... --bot ...`, `arena compare`): written
/// as a config's text and parsed like one, so both paths check the same way.
pub(crate) fn flags_config(
    arena: &Arena,
    game: &str,
    seating: &Seating<'_>,
    overrides: &Overrides,
) -> Result<RunConfig> {
    if seating.bots.is_empty() {
        return Err(Error::input("give at least one --bot (see `arena list` for the bots)"));
    }
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let (bots, names): (Vec<String>, Vec<String>) = seating.bots.iter().map(|b| bot_entry(b)).collect::<Result<_>>()?;
    let mut text = format!("game = {}\npaired = {}\nbots = [{}]\n", quote(game), seating.paired, bots.join(", "));
    if let Some(seats) = seating.seats {
        text.push_str(&format!("seats = {seats}\n"));
    }
    let name = seating.name.clone().unwrap_or_else(|| format!("{game}-{}", names.join("-vs-")));
    RunConfig::parse(arena, &Source::command_line(&text), &name, overrides)
}

/// A `--bot` value as a config's bot entry, and the bot's name: a roster name or kind as it is
/// (`rr`), or a program as a bot, `NAME=KIND:COMMAND` (`mine=external:python3 mybot.py`), which is
/// the config's inline entry `{ name = "mine", kind = "external", params = { command = ["python3",
/// "mybot.py"] } }` (the command split at spaces; `NAME=` may be left out: the kind names it).
pub(crate) fn bot_entry(bot: &str) -> Result<(String, String)> {
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    let Some((name, kind, command)) = crate::core::roster::program_spec(bot)? else {
        return Ok((quote(bot), bot.to_string()));
    };
    let words: Vec<String> = command.iter().map(|w| quote(w)).collect();
    let entry = format!(
        "{{ name = {}, kind = {}, params = {{ command = [{}] }} }}",
        quote(&name),
        quote(&kind),
        words.join(", ")
    );
    Ok((entry, name))
}

/// Refuses, before anything is played or written, an export that cannot hold a run's tables.
pub(crate) fn check_exports(exports: &[Export]) -> Result<()> {
    // JUnit holds a gate's verdicts, not a run's tables.
    match exports.iter().any(|e| e.format == ExportFormat::JUnit) {
        true => {
            Err(Error::input("--export junit: JUnit holds a gate's verdicts (`arena gate GATE.toml --junit FILE`)"))
        }
        false => Ok(()),
    }
}

/// Writes each `--export` of the run's tables.
pub(crate) fn export(exports: &[Export], verdicts: &Verdicts) -> Result<()> {
    let tables = verdicts.tables();
    exports.iter().try_for_each(|e| e.write(&tables))
}

pub fn run(arena: &Arena, args: &RunArgs) -> Result<i32> {
    check_exports(&args.export)?;
    let cfg = args.config(arena)?;
    let shard = args.shard.as_deref().map(|spec| Shard::parse(spec, &|name| std::env::var(name).ok())).transpose()?;
    let folder = match shard {
        Some(s) => format!("{}-shard-{}-of-{}", cfg.name, s.index, s.count),
        None => cfg.name.clone(),
    };
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(folder));
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: progress_mode(args.quiet, args.progress_every),
        history: args.hand_history,
        stop: signals::install(),
        records: args.records,
        flush_every: Duration::from_secs_f64(args.flush_every),
        cores: if args.affinity { affinity()? } else { Vec::new() },
        luck: crate::core::luck::Estimator::Plain,
    };
    let existing = match (args.force, args.resume) {
        (true, _) => Existing::Replace,
        (false, true) => Existing::Continue,
        (false, false) => Existing::Refuse,
    };
    // Every refusal before anything is printed: a refused command prints its one line only.
    let launch = Launch::new_run(arena, cfg, shard, &out, existing, opts.clone())?;
    let printer = Printer::new(args.json);
    if let (Launch::New(_), Some(cfg)) = (&launch, launch.config()) {
        if cfg.bots.len() == 1 && cfg.seats > 1 && !args.quiet {
            note!("note: one bot, so it plays itself in all {} seats", cfg.seats);
        }
    }
    let live = args.report.then_some(Live { arena, dir: &out, every: args.report_every });
    let (code, verdicts) = finish(launch, &printer, &opts, args.quiet, live, |out| match args.report {
        true => super::report::write_for(arena, out),
        false => Ok(()),
    })?;
    if let Some(verdicts) = verdicts {
        export(&args.export, &verdicts)?;
    }
    Ok(code)
}

/// Shows a launch's header, plays it (writing its page as it goes when `live`), runs `then` on its folder and shows what it came to;
/// returns the exit code and the run's verdicts (none when nothing was left to play).
pub(crate) fn finish(
    launch: Launch<'_>,
    printer: &Printer,
    opts: &RunOptions,
    quiet: bool,
    live: Option<Live<'_>>,
    then: impl FnOnce(&Path) -> Result<()>,
) -> Result<(i32, Option<Verdicts>)> {
    if let (false, Some(header)) = (quiet, launch.header()) {
        printer.line(header);
    }
    let finished = match live {
        Some(live) if launch.config().is_some() => super::report::while_playing(live, || launch.play()),
        _ => launch.play(),
    };
    match finished? {
        Finished::Ended { dir, manifest } => {
            // A run that played its last game and was killed before its final page still needs
            // it: its live page would reload itself for ever.
            then(&dir)?;
            printer.line(nothing_to_resume(&dir, &manifest));
            printer.document(&serde_json::json!({
                "results": dir.display().to_string(),
                "status": manifest.status.as_str(),
                "games_played": manifest.games_played,
                "games_planned": manifest.games_planned,
                "ended": "nothing to resume",
            }));
            Ok((EXIT_OK, None))
        }
        Finished::Played { cfg, report, dir } => {
            then(&dir)?;
            let code = show(&cfg, &report, opts, &dir, quiet, printer);
            Ok((code, Some(report.verdicts)))
        }
    }
}

/// What a run came to, as `--json` prints it: the run, how it ended, and its verdicts (the rows
/// of summary.csv, match.csv and ratings.csv).
#[derive(Serialize)]
struct RunDocument {
    name: String,
    game: &'static str,
    seed: u64,
    schedule: &'static str,
    paired: bool,
    games_scheduled: u64,
    games_played: u64,
    ended: &'static str,
    engine_errors: u64,
    results: String,
    #[serde(flatten)]
    verdicts: serde_json::Map<String, serde_json::Value>,
}

/// Prints what a run came to (with `quiet`, only where its files are); returns the exit code.
pub(crate) fn show(
    cfg: &RunConfig,
    report: &RunReport,
    opts: &RunOptions,
    out: &Path,
    quiet: bool,
    printer: &Printer,
) -> i32 {
    let (end, schedule) = (&report.end, &report.schedule);
    if !quiet {
        printer.line(BotSummary::table(&report.verdicts.bots, report.verdicts.headline).trim_end());
        let forfeits = BotSummary::forfeit_lines(&report.verdicts.bots);
        if !forfeits.is_empty() {
            printer.line(forfeits.trim_end());
        }
        for line in &report.timing {
            printer.line(line);
        }
        let verdicts = report.verdicts.describe();
        if !verdicts.is_empty() {
            printer.line(verdicts.trim_end());
        }
    }
    if end.stopped_by_sink {
        let (played, planned) = (thousands(end.played), thousands(report.planned));
        printer.line(format!("SPRT decided after {played} of {planned} {}", cfg.headline.games(report.planned)));
    }
    if end.interrupted {
        note!(
            "interrupted after {} of {} games; what finished is kept (`arena resume {}` plays on)",
            end.played,
            report.planned,
            out.display()
        );
    }
    if report.engine_errors > 0 {
        note!(
            "the run completed with engine errors: {} games ended in a panic of the game's own code (status `error:` in games.csv) and count for nobody",
            report.engine_errors
        );
    }
    printer.line(format!("results: {}", out.display()));
    let ended = if end.interrupted {
        "interrupted"
    } else if end.stopped_by_sink {
        "sprt"
    } else {
        "complete"
    };
    printer.document(&RunDocument {
        name: cfg.name.clone(),
        game: cfg.game,
        seed: cfg.seed,
        schedule: cfg.shape.name(),
        paired: cfg.paired,
        games_scheduled: schedule.total(),
        games_played: end.played,
        ended,
        engine_errors: report.engine_errors,
        results: out.display().to_string(),
        verdicts: json::verdicts(&report.verdicts),
    });
    match (end.interrupted, report.engine_errors) {
        (true, _) => signals::exit_code(&opts.stop),
        (false, 0) => EXIT_OK,
        (false, _) => EXIT_ENGINE_ERRORS,
    }
}
