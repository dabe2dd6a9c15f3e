use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::out::Printer;
use crate::cli::{json, EXIT_OK};
use crate::config::{Overrides, RunConfig};
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::verdict;
use crate::report::{GamesFile, Manifest, MatchRow, Records, RunStatus, RunTally, SprtResult, Tail};
use crate::stats::calc::{self, Counts, StatsArgs};
use crate::stats::sprt::SprtPlace;
use crate::stats::Sprt;

#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  arena stats --penta 12,60,140,75,13 --elo0 0 --elo1 5\n  arena stats --tri 96,111,136\n  arena stats --run results/quickstart --elo0 0 --elo1 10 --model logistic\n  arena stats --run results/holdem-rr-tight-sprt --payoff0 0 --payoff1 200"
)]
pub struct StatsCmd {
    #[command(flatten)]
    calc: StatsArgs,
    /// Read the counts of every two bots that shared a table from a run folder (its games.csv and
    /// config.toml) instead of --penta/--tri.
    #[arg(long, conflicts_with_all = ["penta", "tri"])]
    run: Option<PathBuf>,
    /// Print the figures as one JSON document on stdout instead of the text.
    #[arg(long)]
    json: bool,
}

/// The SPRT's columns of match.csv, as JSON.
fn sprt_json(sprt: &Sprt, llr: f64) -> serde_json::Value {
    let (lower, upper) = sprt.bounds();
    serde_json::json!({
        "h0": json::num(sprt.h0),
        "h1": json::num(sprt.h1),
        "alpha": json::num(sprt.alpha),
        "beta": json::num(sprt.beta),
        "model": sprt.model.to_string(),
        "unit": sprt.unit.name,
        "llr": json::num(llr),
        "lower": json::num(lower),
        "upper": json::num(upper),
        "decision": sprt.decision(llr).to_string(),
    })
}

/// `arena stats --penta/--tri --json`: the counts, the estimate and the SPRT (`null` without).
fn counts_json(args: &StatsArgs) -> Result<serde_json::Value> {
    let counts = calc::parse_counts(args)?;
    let sprt = calc::parse_sprt(args, calc::COUNTS)?;
    let (given, e) = match counts {
        Counts::Penta(p) => {
            let [ll, ld, wl_dd, wd, ww] = p.0;
            (serde_json::json!({ "ll": ll, "ld": ld, "wl_dd": wl_dd, "wd": wd, "ww": ww }), p.estimate())
        }
        Counts::Tri(t) => (serde_json::json!({ "losses": t.losses, "draws": t.draws, "wins": t.wins }), t.estimate()),
    };
    let elo = e.elo_interval();
    Ok(serde_json::json!({
        "counts": given,
        "observations": e.n,
        "games": e.games,
        "score": json::num(e.score),
        "score_lo": json::num(e.score_ci.lo),
        "score_hi": json::num(e.score_ci.hi),
        "elo": json::num(e.elo),
        "elo_err": json::num(e.elo_err),
        "elo_lo": json::num(elo.lo),
        "elo_hi": json::num(elo.hi),
        "nelo": json::num(e.nelo),
        "nelo_err": json::num(e.nelo_err),
        "los": json::num(e.los),
        "sprt": sprt.map_or(serde_json::Value::Null, |s| sprt_json(&s, counts.llr(&s))),
    }))
}

pub fn stats(arena: &Arena, args: &StatsCmd) -> Result<i32> {
    let printer = Printer::new(args.json);
    let Some(dir) = &args.run else {
        // Both are made before either prints: a refusal is one line and nothing else.
        let (text, doc) = (calc::run(&args.calc)?, counts_json(&args.calc)?);
        printer.line(text.trim_end());
        printer.document(&doc);
        return Ok(EXIT_OK);
    };
    let (cfg, rows, wholeness) = matches_of_run(arena, dir)?;
    // Refusals come before any output: one line on stderr and nothing else.
    if rows.is_empty() {
        return Err(Error::input(format!("{}: no table of two or more bots to compare", dir.display())));
    }
    let place = SprtPlace { payoff: Some(cfg.headline.unit), seats: cfg.seats, flags: true };
    let sprt = calc::parse_sprt(&args.calc, place)?;
    // How whole the folder is comes first, so a partial run is never read as a whole one.
    printer.line(&wholeness);
    // With a test asked for, each row carries it as a run's would: its columns and its sentence.
    let mut rows = rows;
    if let Some(s) = &sprt {
        for row in &mut rows {
            let llr = row.llr(s);
            row.sprt = Some(SprtResult { sprt: *s, llr, decision: s.decision(llr) });
        }
    }
    // match.csv's rows, their columns named in the game's unit.
    let matches = MatchRow::rows(&rows, cfg.headline).values();
    for row in rows {
        printer.line(format!("{} vs {}", row.bot_a, row.bot_b));
        printer.line(format!("verdict   {}", verdict::sentence(&row, cfg.headline)));
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
        if !cfg.headline.is_elo() {
            // In a chip or point game the counts below are of games won: not the verdict above.
            printer.line(format!("{} won, not the verdict:", cfg.headline.games(2)));
        }
        printer.line(calc::report_estimate(head, &row.elo, llr.as_ref()).trim_end());
        // The payoff difference as the run's verdict shows it: in the game's unit (bb/100 for
        // hold'em cash, the unit payoff bounds are given in), else a game.
        let d = &row.payoff_diff;
        let unit = cfg.headline.unit;
        let p = verdict::decimals([(unit.of(d.lo), unit.of(d.hi))]);
        let difference = format!("{:+.p$} [{:+.p$}, {:+.p$}] {unit}", unit.of(d.mean), unit.of(d.lo), unit.of(d.hi));
        // No variance (every deal the same difference): the ratio is undefined, as `arena run` says.
        let ratio = if row.variance_ratio.is_nan() { "n/a".to_string() } else { format!("{:.2}", row.variance_ratio) };
        printer.line(format!("payoff    difference {difference}, over {} deals, variance ratio {ratio}\n", row.deals));
    }
    printer.document(&serde_json::json!({ "run": dir.display().to_string(), "matches": matches }));
    Ok(EXIT_OK)
}

/// Rebuilds the match rows of a run folder from its games.csv; also its config and one
/// line on how whole the folder is (run.json's status and counts, and a cut games.csv).
fn matches_of_run(arena: &Arena, dir: &Path) -> Result<(RunConfig, Vec<MatchRow>, String)> {
    crate::report::check_run_folder(dir, &[crate::report::CONFIG])?;
    let cfg = RunConfig::load(arena, &dir.join(crate::report::CONFIG), &Overrides::default())?;
    let schedule = cfg.schedule()?;
    let names: Vec<String> = cfg.bots.iter().map(|b| b.name.clone()).collect();
    let extra = cfg.columns(&*arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, None)?);
    let manifest = Manifest::read(dir).ok();
    let records = manifest.as_ref().map_or(Records::Csv, |m| m.records);
    let file = GamesFile::read(&records.path_in(dir)?, &names, cfg.seats, &extra)?;
    let planned = manifest.as_ref().map_or(schedule.total(), |m| m.games_planned);
    let whole = wholeness(manifest.as_ref(), &file, planned);
    let mut tally = RunTally::estimating(&schedule, names, cfg.estimator);
    for g in &file.games {
        if g.pairing >= schedule.pairings.len() {
            return Err(Error::input(format!("{}: no pairing {} in this run", dir.display(), g.pairing)));
        }
        tally.add(g.pairing, g.game, &g.lineup, &g.record);
    }
    let matches = tally.finish(None, cfg.anchor, cfg.headline).matches;
    Ok((cfg, matches, whole))
}

/// One line: whether the folder holds a whole run, and what was read.
fn wholeness(manifest: Option<&Manifest>, file: &GamesFile, planned: u64) -> String {
    let read = file.games.len();
    let tail = match file.tail {
        Tail::Clean => String::new(),
        Tail::CutRow { .. } => "; games.csv ends in a row cut short (dropped)".into(),
        Tail::PartGame { rows } => format!("; games.csv ends in a game with only {rows} seats written (dropped)"),
    };
    let run = match manifest.and_then(|m| m.shard) {
        Some(shard) => format!("run: shard {shard} (`arena merge` its shards for the run's verdicts),"),
        None => "run:".to_string(),
    };
    let status = match manifest {
        None => format!("{run} no run.json, so whether the run finished is unknown; {read} of {planned} games read"),
        Some(m) if m.status.is_whole() && m.games_played == read as u64 && file.tail == Tail::Clean => {
            format!("{run} {}, {read} of {planned} games", m.status.as_str())
        }
        Some(m) if m.status == RunStatus::Running => format!(
            "{run} partial (status running: still running, or killed), {read} of {planned} games read; `arena resume` continues it"
        ),
        Some(m) => format!(
            "{run} partial (status {}, {} games played by run.json), {read} of {planned} games read; `arena resume` continues it",
            m.status.as_str(),
            m.games_played
        ),
    };
    status + &tail
}
