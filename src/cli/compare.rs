//! `arena compare GAME BASELINE CANDIDATE`: the commonest question in one command. Plays the two
//! bots on paired deals until a sequential test decides whether CANDIDATE is stronger than
//! BASELINE (or the cap is reached), and says so in a sentence. It is an `arena run` with its
//! settings chosen: the run folder, its files and `arena resume` are those of any run.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::cli::out::Printer;
use crate::cli::run::{bot_entry, finish, flags_config, parse_seconds, parse_sprt, progress_mode, Seating};
use crate::cli::signals;
use crate::config::Overrides;
use crate::core::luck::Estimator;
use crate::core::Leads;
use crate::error::Result;
use crate::registry::Arena;
use crate::report::Records;
use crate::stats::sprt::SprtGiven;
use crate::tournament::launch::{Existing, Launch};
use crate::tournament::runner::RunOptions;

/// Games played at most when `--max-games` is not given.
pub const MAX_GAMES: i64 = 20_000;

#[derive(Args, Debug)]
#[command(after_help = "The test, unless --sprt says otherwise: H0 no difference against H1 the game's clear\n\
edge, which `arena list GAME` shows on its `verdicts:` line (hold'em cash: 100 bb/100; stud 5\n\
and zhajinhua 1 chips/hand; mahjong 2 points/hand; gomoku 20 Elo on games won). Error rates\n\
5% each.\n\n\
Examples:\n  arena compare holdem rr rr-tight\n  arena compare gomoku random weights --max-games 2000\n  \
arena compare holdem rr 'mine=external:python3 bots/examples/holdem_random.py' --sprt payoff0=0,payoff1=50")]
pub struct CompareArgs {
    /// The game (see `arena list`).
    game: String,
    /// The bot to beat: a roster name or kind (`rr`), or a program, NAME=KIND:COMMAND.
    baseline: String,
    /// The bot on trial, written as BASELINE is: the test asks whether it is the stronger.
    candidate: String,
    /// Games played at most: the run stops here if the test has not decided.
    #[arg(long, default_value_t = MAX_GAMES, value_name = "N", allow_negative_numbers = true)]
    max_games: i64,
    /// The test's bounds instead of the default, as `arena run --sprt` takes them:
    /// `payoff0=0,payoff1=50` (in the game's verdict unit) or `elo0=0,elo1=10`; alpha=, beta=.
    #[arg(long, value_name = "KEY=VALUE,...", value_parser = parse_sprt)]
    sprt: Option<SprtGiven>,
    /// How the payoffs are estimated (as `arena run --estimator`): the test then judges the
    /// payoffs with the luck taken out.
    #[arg(long, value_enum)]
    estimator: Option<Estimator>,
    /// Master seed, 0 to 2^63-1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(..=i64::MAX as u64))]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, value_parser = crate::cli::parse_threads)]
    threads: Option<usize>,
    /// Output folder (default: results/compare-GAME-CANDIDATE-vs-BASELINE).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Overwrite an earlier comparison's folder.
    #[arg(long)]
    force: bool,
    /// No progress and no table: only the verdict and the output folder.
    #[arg(long, short)]
    quiet: bool,
    /// Seconds between progress lines when stderr is not a terminal (0: none).
    #[arg(long, default_value = "10", value_name = "SECONDS", value_parser = parse_seconds)]
    progress_every: f64,
    /// Print the verdicts as one JSON document on stdout (the text goes to stderr).
    #[arg(long)]
    json: bool,
}

pub fn compare(arena: &Arena, args: &CompareArgs) -> Result<i32> {
    let entry = arena.find(&args.game)?;
    let (_, base) = bot_entry(&args.baseline)?;
    let (_, candidate) = bot_entry(&args.candidate)?;
    // The candidate first: a run's SPRT tests its first bot against the second. A game of more
    // than two seats seats the two in turn (mahjong: two seats each), rotated by the paired deals.
    let seats = (*entry.seats().start()).max(2);
    let bots: Vec<String> = (0..seats).map(|s| [&args.candidate, &args.baseline][s % 2].clone()).collect();
    let name = format!("compare-{}-{candidate}-vs-{base}", entry.name());
    let seating = Seating { bots: &bots, seats: Some(seats as i64), paired: true, name: Some(name.clone()) };
    // The default test needs the game's headline, which the config knows once it is read.
    let mut overrides = Overrides {
        games: Some(args.max_games),
        seed: Some(args.seed),
        estimator: args.estimator,
        sprt: None,
        tc: None,
    };
    let headline = flags_config(arena, &args.game, &seating, &overrides)?.headline;
    overrides.sprt = Some(args.sprt.clone().unwrap_or_else(|| default_test(headline.leads, headline.edge)));
    let cfg = flags_config(arena, &args.game, &seating, &overrides)?;
    let out = args.out.clone().unwrap_or_else(|| Path::new("results").join(&name));
    let opts = RunOptions {
        threads: crate::cli::threads(args.threads),
        progress: progress_mode(args.quiet, args.progress_every),
        history: false,
        stop: signals::install(),
        records: Records::Csv,
        flush_every: Duration::from_secs(5),
        cores: Vec::new(),
        luck: Estimator::Plain,
    };
    let existing = if args.force { Existing::Replace } else { Existing::Refuse };
    let launch = Launch::new_run(arena, cfg, None, &out, existing, opts.clone())?;
    let printer = Printer::new(args.json);
    let (code, verdicts) = finish(launch, &printer, &opts, args.quiet, None, |_| Ok(()))?;
    if let (true, Some(v)) = (args.quiet, verdicts) {
        // Quiet still answers the question asked.
        if let Some(m) = v.matches.first() {
            printer.line(crate::report::verdict::sentence(m, v.headline));
        }
    }
    Ok(code)
}

/// The test `arena compare` runs when not told: no difference against the game's clear edge.
fn default_test(leads: Leads, edge: f64) -> SprtGiven {
    match leads {
        Leads::Payoff => SprtGiven { payoff0: Some(0.0), payoff1: Some(edge), ..SprtGiven::default() },
        Leads::Elo => {
            SprtGiven { elo0: Some(0.0), elo1: Some(edge), model: Some("logistic".into()), ..SprtGiven::default() }
        }
    }
}
