use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::EXIT_OK;
use crate::core::{GameRecord, Headline, SeatResult, Status};
use crate::error::{Error, Result};
use crate::games::Arena;
use crate::report::{MatchRow, RunTally};
use crate::stats::calc::{self, Counts, StatsArgs};
use crate::stats::SprtModel;
use crate::tournament::config::{Overrides, RunConfig, COUNT_MODELS_NEED_TWO_SEATS};

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena stats --penta 12,60,140,75,13 --elo0 0 --elo1 5\n  arena stats --tri 96,111,136\n  arena stats --run results/quickstart --elo0 0 --elo1 10 --model logistic"
)]
pub struct StatsCmd {
    #[command(flatten)]
    calc: StatsArgs,
    /// Read the counts of every two bots that shared a table from a run folder (its games.csv and
    /// config.toml) instead of --penta/--tri.
    #[arg(long, conflicts_with_all = ["penta", "tri"])]
    run: Option<PathBuf>,
}

pub fn stats(arena: &Arena, args: &StatsCmd) -> Result<i32> {
    let Some(dir) = &args.run else {
        println!("{}", calc::run(&args.calc)?.trim_end());
        return Ok(EXIT_OK);
    };
    let sprt = calc::parse_any_sprt(&args.calc)?;
    let (seats, rows) = matches_of_run(arena, dir)?;
    if rows.is_empty() {
        return Err(Error::input(format!("{}: no table of two or more bots to compare", dir.display())));
    }
    if sprt.is_some_and(|s| s.model != SprtModel::Payoff) && seats > 2 {
        return Err(Error::input(COUNT_MODELS_NEED_TWO_SEATS));
    }
    for row in rows {
        println!("{} vs {}", row.bot_a, row.bot_b);
        let llr = sprt.map(|s| (s, row.llr(&s)));
        let head = match row.counts() {
            Counts::Tri(t) if t.games() != row.games => format!(
                "seats     {} comparisons in {} games: W {}, D {}, L {}; intervals over {} deals",
                t.games(),
                row.games,
                t.wins,
                t.draws,
                t.losses,
                row.elo.n
            ),
            counts => calc::report(&counts, None).lines().next().unwrap_or_default().to_string(),
        };
        println!("{}", calc::report_estimate(head, &row.elo, llr.as_ref()).trim_end());
        let d = &row.payoff_diff;
        println!(
            "payoff    {:+.4} [{:+.4}, {:+.4}] difference per game, over {} deals, variance ratio {:.2}\n",
            d.mean, d.lo, d.hi, row.deals, row.variance_ratio
        );
    }
    Ok(EXIT_OK)
}

/// Rebuilds the match rows of a run folder from its games.csv; also its seats a table.
fn matches_of_run(arena: &Arena, dir: &Path) -> Result<(usize, Vec<MatchRow>)> {
    let cfg = RunConfig::load(arena, &dir.join("config.toml"), &Overrides::default())?;
    let schedule = cfg.schedule()?;
    let names: Vec<String> = cfg.bots.iter().map(|b| b.name.clone()).collect();
    let mut tally = RunTally::new(&schedule, names.clone());
    let path = dir.join("games.csv");
    let bad = |what: String| Error::input(format!("{}: {what}", path.display()));
    let mut reader = csv::Reader::from_path(&path).map_err(|e| bad(e.to_string()))?;
    // Rows come seat by seat; a game is complete when its last seat's row is read.
    let mut seats: Vec<SeatResult> = Vec::new();
    let mut lineup: Vec<usize> = Vec::new();
    for (line, row) in reader.records().enumerate() {
        let row = row.map_err(|e| bad(e.to_string()))?;
        let field = |i: usize| row.get(i).ok_or_else(|| bad(format!("row {} is short", line + 2)));
        let number = |i: usize| field(i)?.parse::<f64>().map_err(|_| bad(format!("row {}: not a number", line + 2)));
        let bot = field(4)?;
        let index = names.iter().position(|n| n == bot).ok_or_else(|| bad(format!("unknown bot `{bot}`")))?;
        lineup.push(index);
        seats.push(SeatResult { payoff: number(5)?, place: number(6)? as u32, extra: Vec::new() });
        if seats.len() == cfg.seats {
            let pairing = number(0)? as usize;
            let game = number(1)? as u64;
            if pairing >= schedule.pairings.len() {
                return Err(bad(format!("row {}: no pairing {pairing} in this run", line + 2)));
            }
            let record = GameRecord {
                seed: 0,
                moves: 0,
                status: Status::Ok,
                seats: std::mem::take(&mut seats),
                history: None,
                times: Vec::new(),
            };
            tally.add(pairing, game, &lineup, &record);
            lineup.clear();
        }
    }
    Ok((cfg.seats, tally.finish(None, cfg.anchor, Headline::Elo).matches))
}
