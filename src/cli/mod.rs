//! The command line: one file per subcommand. Every error becomes one line on stderr and exit
//! code 2 (bad input or usage); a failed gate exits 1; a run with engine errors 3; a file that
//! could not be written 4; a bot that could not run 5 (the end of its log follows); an interrupted
//! run 128 + the signal (130 for Ctrl-C, 143 for SIGTERM); a command whose stdout was closed by
//! its reader (`arena list | head -1`) ends quietly with 141, as if SIGPIPE had ended it (out.rs:
//! SIGPIPE itself stays ignored, so that a bot that closes its pipe cannot end the host).
//!
//! The commands see the games only through the [`Arena`] they are given, so a crate that adds
//! its own bots or games gets the whole command line with them ([`main`]).

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::cli::out::{note, say};
use crate::error::{Error, Result};
use crate::registry::Arena;

mod acpc_agent;
mod bench;
mod brain;
mod check_bot;
mod compare;
mod exploit;
mod gate;
mod import;
mod json;
mod league;
mod list;
mod merge;
mod out;
mod play;
mod replay;
mod report;
mod resume;
mod run;
mod signals;
mod stats;
mod status;

/// Deterministic, parallel tournaments between game-playing bots, with statistics you can trust.
///
/// Games: holdem, stud, zhajinhua, gomoku, mahjong. `arena list` shows the games, their table options, their bots and every
/// parameter. Same seed, same results, on any number of threads.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a tournament from a config file, or from --game and --bot flags.
    Run(run::RunArgs),
    /// Is CANDIDATE stronger than BASELINE? Paired deals until a sequential test decides.
    Compare(compare::CompareArgs),
    /// How much can a heads-up hold'em bot be beaten? Local best response's winnings, a lower bound.
    Exploit(exploit::ExploitArgs),
    /// Continue a run that was interrupted, killed or stopped by an error, from its folder.
    Resume(resume::ResumeArgs),
    /// Merge the folders of a run's shards (`arena run --shard K/N`) into one run folder.
    Merge(merge::MergeArgs),
    /// Turn another program's game logs (an ACPC dealer's log) into a run folder.
    Import(import::ImportArgs),
    /// Runs kept together in one SQLite league: add them, rate every version of every bot over
    /// all of them, export the games for Ordo and BayesElo.
    League(league::LeagueArgs),
    /// List games, table options, bots and their parameters (with defaults and meaning).
    List(list::ListArgs),
    /// Measure throughput: one line per measure, `name value unit`.
    Bench(bench::BenchArgs),
    /// The documents' advisers: what a hand is worth and what to do with it.
    // One subcommand per game that has an adviser, added from the arena by `command`.
    #[command(subcommand_required = true, arg_required_else_help = true)]
    Advise,
    /// Check bot strength against named expectations; exit 1 when one fails (for CI).
    Gate(gate::GateArgs),
    /// Where runs stand: games on disk, state, rate, last write; for shards, the whole and its ETA.
    Status(status::StatusArgs),
    /// Elo, nElo, LOS and SPRT from match counts or from a run folder.
    Stats(stats::StatsCmd),
    /// Play against bots yourself, at the terminal; the record is kept like a run's.
    Play(play::PlayArgs),
    /// Show a recorded game step by step, or check every record against the rules (--check).
    Replay(replay::ReplayArgs),
    /// Write report.html for run folders: plots, tables, and games step by step (a small inline
    /// script) when the run kept its moves.
    Report(report::ReportArgs),
    /// A gomoku bot as a Gomocup (Piskvork protocol) engine on stdin/stdout, a hold'em bot as an
    /// ACPC agent.
    Brain(brain::BrainArgs),
    /// A hold'em bot as an ACPC poker agent, connected to an ACPC dealer at HOST PORT.
    AcpcAgent(acpc_agent::AcpcAgentArgs),
    /// Check a protocol bot before a tournament: scripted games, one pass/FAIL line per check.
    CheckBot(check_bot::CheckBotArgs),
    /// A random-legal bot speaking the external protocol on stdin/stdout (docs/book/src/protocol.md).
    #[command(hide = true)]
    ProtocolBot,
}

/// Exit codes.
pub const EXIT_OK: i32 = 0;
/// A gate failed (a bot got weaker) or a comparison did not go the asked way.
pub const EXIT_FAIL: i32 = 1;
/// Bad input: the one `error: ...` line of the command line, config or bot.
pub const EXIT_USAGE: i32 = 2;
/// The run completed, but some games ended in a panic of the game's own code (an engine bug).
pub const EXIT_ENGINE_ERRORS: i32 = 3;
/// A file could not be written or read for a reason of the system's, not of what the user asked
/// (a full disk, a folder that became read-only, a vanished network filesystem): what was done is
/// kept and, for a run, `arena resume` continues it once the cause is fixed.
pub const EXIT_IO: i32 = 4;
/// A bot outside the process could not run: its first games all failed at its start (its program
/// could not be started, ended, or never answered its greeting; tournament/start_watch.rs). The
/// run stopped; the error line names the bot and the reason, the end of its log follows.
pub const EXIT_BOT: i32 = 5;

/// How many of the last lines of a bot's log follow the error of a bot that could not run.
const LOG_TAIL: usize = 5;

/// The whole command line: the derived commands, with `advise` given one subcommand per adviser
/// of the arena's games.
fn command(arena: &Arena) -> clap::Command {
    Cli::command().mut_subcommand("advise", |advise| {
        arena.games().fold(advise, |advise, game| match game.adviser() {
            Some(adviser) => advise.subcommand(adviser.command(game.name())),
            None => advise,
        })
    })
}

/// `arena advise GAME ...`: the game's adviser answers; its text goes to stdout.
fn advise(arena: &Arena, matches: &clap::ArgMatches) -> Result<i32> {
    let (name, args) = matches.subcommand().ok_or_else(|| Error::input("advise needs a game"))?;
    let adviser = arena.find(name)?.adviser().ok_or_else(|| Error::input(format!("{name} has no adviser")))?;
    say!("{}", adviser.run(args)?.trim_end());
    Ok(EXIT_OK)
}

fn dispatch(arena: &Arena, matches: &clap::ArgMatches) -> Result<i32> {
    if let Some(("advise", advise_matches)) = matches.subcommand() {
        return advise(arena, advise_matches);
    }
    let cli = Cli::from_arg_matches(matches).map_err(|e| Error::input(e.to_string()))?;
    match &cli.command {
        Command::Run(args) => run::run(arena, args),
        Command::Compare(args) => compare::compare(arena, args),
        Command::Exploit(args) => exploit::exploit(arena, args),
        Command::Resume(args) => resume::resume(arena, args),
        Command::Merge(args) => merge::merge(arena, args),
        Command::Import(args) => import::import(arena, args),
        Command::League(args) => league::league(arena, args),
        Command::List(args) => list::list(arena, args),
        Command::Bench(args) => bench::bench(arena, args),
        Command::Stats(args) => stats::stats(arena, args),
        Command::Status(args) => status::status(args),
        Command::Gate(args) => gate::gate(arena, args),
        Command::Brain(args) => brain::brain(arena, args),
        Command::AcpcAgent(args) => acpc_agent::acpc_agent(arena, args),
        Command::Report(args) => report::report(arena, args),
        Command::Replay(args) => replay::replay(arena, args),
        Command::Play(args) => play::play(arena, args),
        Command::CheckBot(args) => check_bot::check_bot(arena, args),
        Command::ProtocolBot => {
            out::reader_gone_is_the_end(crate::external::reference::main())
                .map_err(|e| Error::input(format!("protocol-bot: {e}")))?;
            Ok(EXIT_OK)
        }
        Command::Advise => unreachable!("handled above"),
    }
}

/// Every command takes negative numbers as values, so `--games -1` is refused by the value's own
/// check ("must be at least 1") rather than read as an unknown flag.
fn allow_negative_numbers(command: clap::Command) -> clap::Command {
    let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
    names.iter().fold(command.allow_negative_numbers(true), |command, name| {
        command.mut_subcommand(name, allow_negative_numbers)
    })
}

/// clap's error (several lines: the message, a tip, the usage) as one line: the message, with
/// echoed values escaped and cut, and where to look next. The message is clap's first paragraph,
/// whose indented lines belong to it: the missing arguments after "the following required
/// arguments were not provided:", the possible values after an invalid one.
fn clap_one_line(e: &clap::Error, guess: Option<String>) -> String {
    let rendered = e.render().to_string();
    let mut paragraph = rendered.lines().skip_while(|l| l.trim().is_empty()).take_while(|l| !l.trim().is_empty());
    let first = paragraph.next().unwrap_or("bad command line");
    let first = first.trim().trim_start_matches("error:").trim();
    let more: Vec<&str> = paragraph.map(str::trim).collect();
    let message = match (first.ends_with(':'), more.is_empty()) {
        (_, true) => first.to_string(),
        // A list: `provided: <GATE>, --bot <BOT>`.
        (true, false) => format!("{first} {}", more.join(", ")),
        (false, false) => format!("{first} {}", more.join(" ")),
    };
    let escaped = |c: char| if c.is_control() { c.escape_default().collect() } else { c.to_string() };
    let mut line: String = message.chars().take(200).map(escaped).collect();
    if message.chars().count() > 200 {
        line.push('…');
    }
    match guess {
        Some(guess) => format!("{line} ({guess}); try --help"),
        None => format!("{line}; try --help"),
    }
}

/// What a mistyped subcommand, flag or value was likely meant to be, by the one measure every
/// name is held to (`core::suggest`). clap has suggestions of its own, but prints them in a
/// paragraph of their own, which the one line of an error leaves out; and its measure is not the
/// one the games, bots and config keys are held to.
fn clap_guess(e: &clap::Error, root: &clap::Command, args: &[std::ffi::OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    // The (sub)command the error is in: the subcommands named on the line, in turn.
    let mut command = root;
    for arg in args.iter().skip(1) {
        match arg.to_str().and_then(|a| command.find_subcommand(a)) {
            Some(sub) => command = sub,
            None => continue,
        }
    }
    let (given, known): (String, Vec<String>) = match e.kind() {
        ErrorKind::InvalidSubcommand => (
            text(ContextKind::InvalidSubcommand)?,
            command.get_subcommands().filter(|c| !c.is_hide_set()).map(|c| c.get_name().to_string()).collect(),
        ),
        ErrorKind::UnknownArgument => {
            let given = text(ContextKind::InvalidArg)?;
            let flag = given.split('=').next().unwrap_or(&given).to_string();
            let longs = command.get_arguments().filter(|a| !a.is_hide_set()).filter_map(|a| a.get_long());
            (flag, longs.map(|l| format!("--{l}")).collect())
        }
        ErrorKind::InvalidValue => {
            let valid = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(values)) => values.clone(),
                _ => return None,
            };
            (text(ContextKind::InvalidValue)?, valid)
        }
        _ => return None,
    };
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    crate::core::suggest::did_you_mean(&given, &known)
}

/// `--threads`: 1 to [`MAX_THREADS_PER_CORE`] × the cores (more only adds queues and memory).
pub(crate) fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = MAX_THREADS_PER_CORE * cores;
    match s.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("must be a whole number from 1 to {max} ({MAX_THREADS_PER_CORE} per core)")),
    }
}

/// Worker threads allowed per core.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The worker threads to use: the `--threads` given, else one per core.
pub(crate) fn threads(given: Option<usize>) -> usize {
    given.unwrap_or_else(rayon::current_num_threads)
}

/// The program: runs the command line (`std::env::args`) with `arena`'s games and exits with its
/// code. `main.rs` calls it with [`Arena::standard`]; a crate that adds its own bots or games
/// calls it with its own arena.
///
/// SIGPIPE stays ignored (Rust's default): with its default action, a write to the pipe of a bot
/// that has exited or closed its input would end the whole tournament. The command line ends
/// quietly with 141 on a closed stdout by itself (out.rs).
pub fn main(arena: Arena) -> ! {
    out::as_program();
    std::process::exit(main_from(&arena, brain::command_line(&arena, std::env::args_os())))
}

/// Runs the command line `args` (the program's name first) with `arena`'s games, returns the
/// exit code; a refusal is printed as one line, `error: <why>`, with exit code 2 ([`EXIT_IO`] when
/// a file could not be read or written).
pub fn main_from<I: IntoIterator<Item = T>, T: Into<std::ffi::OsString> + Clone>(arena: &Arena, args: I) -> i32 {
    match execute(arena, args) {
        Ok(code) => code,
        Err(e) => {
            note!("error: {e}");
            match e {
                Error::Io { .. } => EXIT_IO,
                Error::BotCannotRun(cannot) => {
                    for line in log_tail(&cannot.log, LOG_TAIL) {
                        note!("  {line}");
                    }
                    EXIT_BOT
                }
                _ => EXIT_USAGE,
            }
        }
    }
}

/// The last `n` lines of the log at `path` (none when it cannot be read), each on one line of the
/// terminal: control characters escaped, cut at 300 characters.
fn log_tail(path: &std::path::Path, n: usize) -> Vec<String> {
    // A log is capped at 10 MiB; its end is what matters.
    let text = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&text[text.len().saturating_sub(64 << 10)..]).into_owned();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let shown = |line: &str| -> String {
        let mut out: String = line
            .chars()
            .take(300)
            .flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] })
            .collect();
        if line.chars().count() > 300 {
            out.push('…');
        }
        out
    };
    lines[lines.len().saturating_sub(n)..].iter().map(|l| shown(l)).collect()
}

/// Runs the command line `args` (the program's name first): the exit code, or the error that
/// refused it (exit code 2; its text is one line). [`main_from`] prints the error.
pub fn execute<I: IntoIterator<Item = T>, T: Into<std::ffi::OsString> + Clone>(arena: &Arena, args: I) -> Result<i32> {
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let root = allow_negative_numbers(command(arena));
    let matches = match root.clone().try_get_matches_from(&args) {
        Ok(matches) => matches,
        // Help and version go to stdout with exit 0.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return Ok(EXIT_OK);
        }
        // A command without its subcommand (`arena`, `arena advise`): the help on stdout, and the
        // error on stderr in one line like every other.
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            say!("{}", e.render().to_string().trim_end());
            return Err(Error::input("a command is needed (see the list above); try --help"));
        }
        Err(e) => return Err(Error::input(clap_one_line(&e, clap_guess(&e, &root, &args)))),
    };
    dispatch(arena, &matches)
}
