//! The command line: one file per subcommand. Every error becomes one line on stderr and exit
//! code 2 (bad input or usage); a failed gate exits 1; an interrupted run 130.

use clap::{Parser, Subcommand};

mod advise;
mod bench;
mod gate;
mod list;
mod run;
mod stats;

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
    /// List games, table options, bots and their parameters (with defaults and meaning).
    List(list::ListArgs),
    /// Measure throughput: one line per measure, `name value unit`.
    Bench(bench::BenchArgs),
    /// The documents' advisers: what a hand is worth and what to do with it.
    #[command(subcommand)]
    Advise(advise::AdviseCmd),
    /// Check bot strength against named expectations; exit 1 when one fails (for CI).
    Gate(gate::GateArgs),
    /// Elo, nElo, LOS and SPRT from match counts or from a run folder.
    Stats(stats::StatsCmd),
}

/// Exit codes.
pub const EXIT_OK: i32 = 0;
pub const EXIT_FAIL: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_INTERRUPTED: i32 = 130;

/// Parses the command line, runs the command, returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Run(args) => run::run(args),
        Command::List(args) => list::list(args),
        Command::Bench(args) => bench::bench(args),
        Command::Stats(args) => stats::stats(args),
        Command::Gate(args) => gate::gate(args),
        Command::Advise(cmd) => advise::advise(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
