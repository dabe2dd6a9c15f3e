use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use clap::Args;

use crate::cli::out::say;
use crate::cli::EXIT_OK;
use crate::core::bench::BenchOptions;
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::tournament;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena bench\n  arena bench gomoku\n  arena bench holdem.eval7\n  arena bench --instructions holdem"
)]
pub struct BenchArgs {
    /// Run only the benchmarks whose name contains this (e.g. `gomoku`).
    filter: Option<String>,
    /// Threads for the measures of parallel throughput (default: all cores).
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Seconds each measure runs for.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Count instructions instead of timing: every game's `arena run` on one thread (its bench
    /// line-up), without and with `--records moves`, under valgrind's callgrind (valgrind must be
    /// on PATH). The same figure on a busy machine as on an idle one. FILTER picks games.
    #[arg(long)]
    instructions: bool,
    /// With --instructions: the games of the longer of the two runs each figure is counted
    /// from (the shorter plays a tenth of them; the difference is what the games cost, start-up
    /// left out).
    #[arg(long, default_value_t = 1000, requires = "instructions")]
    games: u64,
}

pub fn bench(arena: &Arena, args: &BenchArgs) -> Result<i32> {
    if !(args.seconds > 0.0 && args.seconds < 3600.0) {
        return Err(Error::input(format!("--seconds must be between 0 and 3600, not {}", args.seconds)));
    }
    let opts =
        BenchOptions { threads: crate::cli::threads(args.threads), budget: Duration::from_secs_f64(args.seconds) };
    let filter = args.filter.as_deref().unwrap_or("");
    if args.instructions {
        return instructions(arena, filter, args.games);
    }
    let all = || {
        arena.benches().into_iter().chain(tournament::bench::benches()).chain(tournament::bench::external::benches())
    };
    let chosen: Vec<_> = all().filter(|b| b.name.contains(filter)).collect();
    if chosen.is_empty() {
        let names: Vec<&str> = all().map(|b| b.name).collect();
        return Err(Error::input(format!("no benchmark matches `{filter}` (have: {})", names.join(", "))));
    }
    for bench in chosen {
        for m in (bench.run)(&opts) {
            say!("{} {} {}", m.name, fmt_value(m.value), m.unit);
        }
    }
    Ok(EXIT_OK)
}

/// Four significant figures, without exponent.
fn fmt_value(v: f64) -> String {
    let digits = if v.abs() >= 1000.0 {
        1
    } else if v.abs() >= 1.0 {
        3
    } else {
        6
    };
    format!("{v:.digits$}")
}

/// `arena bench --instructions`: for each game with a bench line-up whose name contains
/// `filter`, the instructions one game costs in `arena run` on one thread, with games.csv
/// (`--records csv`) and with records.jsonl too (`--records moves`), and the second as a share
/// of the first. Each figure is the difference of two runs under callgrind, `games` games and a
/// tenth of them, divided by the games between: start-up and the files written once leave no
/// trace in it.
fn instructions(arena: &Arena, filter: &str, games: u64) -> Result<i32> {
    if !(10..=100_000_000).contains(&games) {
        return Err(Error::input(format!("--games must be between 10 and 100000000, not {games}")));
    }
    if !on_path("valgrind") {
        return Err(Error::input(
            "--instructions counts with valgrind's callgrind, and valgrind is not on PATH (install valgrind)",
        ));
    }
    let all: Vec<(&str, &[&str])> =
        arena.games().filter(|g| !g.bench_lineup().is_empty()).map(|g| (g.name(), g.bench_lineup())).collect();
    let chosen: Vec<_> = all.iter().filter(|(game, _)| game.contains(filter)).collect();
    if chosen.is_empty() {
        let names: Vec<&str> = all.iter().map(|(game, _)| *game).collect();
        return Err(Error::input(format!("no game matches `{filter}` (have: {})", names.join(", "))));
    }
    let exe = std::env::current_exe().map_err(|e| Error::io("the arena binary", e))?;
    let dir = std::env::temp_dir().join(format!("arena-instructions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let counted = (|| {
        for &&(game, lineup) in &chosen {
            let mut per_game = [0.0; 2];
            for (figure, records) in per_game.iter_mut().zip(["csv", "moves"]) {
                let run = |n: u64| count(&exe, &dir, game, lineup, n, records);
                let (few, many) = (run(games / 10)?, run(games)?);
                *figure = many.saturating_sub(few) as f64 / (games - games / 10) as f64;
            }
            say!("instructions.{game}_per_game {:.0} instructions/game", per_game[0]);
            say!("instructions.{game}_moves_per_game {:.0} instructions/game", per_game[1]);
            say!("instructions.{game}_moves_vs_csv {:.1} %", 100.0 * per_game[1] / per_game[0]);
        }
        Ok(EXIT_OK)
    })();
    let _ = std::fs::remove_dir_all(&dir);
    counted
}

/// The instructions of one `arena run` of `games` games of `game` on one thread, counted by
/// callgrind (the `totals:` or `summary:` line of its output file).
fn count(exe: &Path, dir: &Path, game: &str, lineup: &[&str], games: u64, records: &str) -> Result<u64> {
    let out = dir.join(format!("{game}-{records}-{games}"));
    let file = dir.join(format!("{game}-{records}-{games}.callgrind"));
    let mut command = Command::new("valgrind");
    command.arg("--tool=callgrind").arg(format!("--callgrind-out-file={}", file.display())).arg(exe);
    command.args(["run", "--game", game, "--games", &games.to_string(), "--threads", "1", "--quiet"]);
    command.args(["--records", records]).arg("--out").arg(&out);
    for bot in lineup {
        command.args(["--bot", bot]);
    }
    let output = command.output().map_err(|e| Error::io("valgrind", e))?;
    let _ = std::fs::remove_dir_all(&out);
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let _ = std::fs::remove_file(&file);
    let total = text.lines().rev().find_map(|line| {
        let value = line.strip_prefix("totals:").or_else(|| line.strip_prefix("summary:"))?;
        value.split_whitespace().next()?.parse::<u64>().ok()
    });
    match (output.status.success(), total) {
        (true, Some(total)) => Ok(total),
        _ => {
            let said = String::from_utf8_lossy(&output.stderr);
            let last = said.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no output");
            let why = format!("callgrind could not count `arena run --game {game}` ({}): {last}", output.status);
            Err(Error::io(&file, std::io::Error::other(why)))
        }
    }
}

/// Whether `program` is a file in one of PATH's folders.
fn on_path(program: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).map(|dir: PathBuf| dir.join(program)).any(|file| file.is_file())
}
