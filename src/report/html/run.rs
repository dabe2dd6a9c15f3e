//! A run folder read back for the report: its config, run.json, games.csv in game order, and what
//! the run's own tallies make of them, game by game (the running payoffs, the SPRT's path).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Overrides, RunConfig};
use crate::core::schedule::Schedule;
use crate::core::Headline;
use crate::core::Status;
use crate::error::{Error, Result};
use crate::registry::{Arena, Venue};
use crate::report::{BotSummary, CiUnit, GameRow, GamesFile, Manifest, Records, RunTally, Tally, Verdicts};

/// Points kept per line: enough for a smooth plot, few enough for a small page.
const MAX_POINTS: usize = 400;

/// One run folder, read and tallied.
pub struct RunData {
    pub dir: PathBuf,
    pub config_text: String,
    pub cfg: RunConfig,
    pub manifest: Option<Manifest>,
    pub schedule: Schedule,
    pub names: Vec<String>,
    /// The game's own columns of games.csv.
    pub columns: Vec<&'static str>,
    /// What the verdicts are given in: the unit of every payoff figure and axis.
    pub headline: Headline,
    /// The table the games were played at (for the game's own section).
    pub table: Arc<dyn Venue>,
    pub games: Vec<GameRow>,
    pub verdicts: Verdicts,
    /// Each bot's summary after every `step`-th deal: (games read so far, summaries).
    pub running: Vec<(u64, Vec<BotSummary>)>,
    /// The SPRT's LLR on the first table after each sampled deal: (games read so far, LLR).
    pub llr_path: Vec<(u64, f64)>,
    /// Each bot's mean payoff per game in each deal (the observations of its interval).
    pub deal_payoffs: Vec<Vec<f64>>,
    /// timing.csv's rows of the bots a person watches the time of (outside programs, bots on a
    /// clock: `TimeTally::watched`), with its header first; empty when there are none.
    pub timing: Vec<Vec<String>>,
    /// The games shown step by step (none until the caller, which can replay records, adds
    /// them: see `tournament::replay::add_viewer`).
    pub viewer: super::viewer::Viewer,
}

impl RunData {
    /// The games played so far, as the page says it everywhere: run.json's count once the run
    /// has ended; while it plays (and after a kill), the whole games read from the folder, since
    /// run.json counts a run's games only at its end.
    pub fn played(&self) -> u64 {
        match &self.manifest {
            Some(m) if m.status != crate::report::RunStatus::Running => m.games_played,
            _ => self.games.len() as u64,
        }
    }

    /// Reads `dir` (config.toml, games.csv, run.json when there is one) and replays its games,
    /// in file order, through the tallies the run uses.
    pub fn read(arena: &Arena, dir: &Path) -> Result<RunData> {
        crate::report::check_run_folder(dir, &[crate::report::CONFIG])?;
        let config_path = dir.join(crate::report::CONFIG);
        let config_text = std::fs::read_to_string(&config_path).map_err(|e| Error::bad_path(&config_path, e))?;
        let cfg = RunConfig::load(arena, &config_path, &Overrides::default())?;
        let schedule = cfg.schedule()?;
        let names: Vec<String> = cfg.bots.iter().map(|b| b.name.clone()).collect();
        let table = arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, None)?;
        let (columns, headline) = (cfg.columns(&*table), table.headline());
        let manifest = Manifest::read(dir).ok();
        let records = manifest.as_ref().map_or(Records::Csv, |m| m.records);
        let path = records.path_in(dir)?;
        let file = GamesFile::read(&path, &names, cfg.seats, &columns)?;
        if let Some(g) = file.games.iter().find(|g| g.pairing >= schedule.pairings.len()) {
            return Err(Error::input(format!("{}: no pairing {} in this run", dir.display(), g.pairing)));
        }
        let unit = CiUnit::of(&schedule);
        let mut tally = RunTally::estimating(&schedule, names.clone(), cfg.estimator);
        let mut bots = vec![Tally::default(); names.len()];
        let mut deal_payoffs = vec![Vec::new(); names.len()];
        let mut deal_sums = vec![(0.0, 0.0); names.len()];
        let mut running = Vec::new();
        let mut llr_path = Vec::new();
        let deals = (file.games.len() as u64 / schedule.replays.max(1)).max(1);
        let step = (deals as usize).div_ceil(MAX_POINTS).max(1);
        let (mut deal, mut deals_seen, mut read) = (None, 0usize, 0u64);
        let summaries = |bots: &[Tally]| -> Vec<BotSummary> {
            bots.iter().zip(&names).map(|(t, n)| t.summary(n, unit, cfg.estimator)).collect()
        };
        for g in &file.games {
            let this = Some((g.pairing, g.game / schedule.replays));
            if this != deal && deal.is_some() {
                // The last deal is complete: the same deal clustering as the run's summary.
                bots.iter_mut().for_each(Tally::end_deal);
                close_deal(&mut deal_sums, &mut deal_payoffs);
                deals_seen += 1;
                if deals_seen % step == 0 {
                    running.push((read, summaries(&bots)));
                }
            }
            deal = this;
            read += 1;
            if matches!(g.record.status, Status::Error(_)) {
                tally.add(g.pairing, g.game, &g.lineup, &g.record);
                continue;
            }
            Tally::add_game(&mut bots, &g.lineup, &g.record);
            for (seat, &bot) in g.lineup.iter().enumerate() {
                deal_sums[bot].0 += g.record.seats[seat].payoff;
                deal_sums[bot].1 += 1.0;
            }
            let closed = tally.add(g.pairing, g.game, &g.lineup, &g.record);
            if let (true, Some(sprt)) = (closed, &cfg.sprt) {
                if g.pairing == 0 && (llr_path.len() < MAX_POINTS || read % step as u64 == 0) {
                    llr_path.push((read, tally.llr(0, sprt)));
                }
            }
        }
        bots.iter_mut().for_each(Tally::end_deal);
        close_deal(&mut deal_sums, &mut deal_payoffs);
        running.push((read, summaries(&bots)));
        if let Some(sprt) = &cfg.sprt {
            if llr_path.last().is_none_or(|&(at, _)| at != read) {
                llr_path.push((read, tally.llr(0, sprt)));
            }
        }
        let verdicts = tally.finish(cfg.sprt.as_ref(), cfg.anchor, headline);
        Ok(RunData {
            dir: dir.to_path_buf(),
            config_text,
            cfg,
            manifest,
            schedule,
            names,
            columns,
            headline,
            table,
            games: file.games,
            verdicts,
            running,
            llr_path,
            deal_payoffs,
            timing: crate::report::TimeTally::read_watched(dir),
            viewer: Default::default(),
        })
    }
}

/// Ends a deal of the per-deal payoff lists: each bot that played in it gets its mean payoff.
fn close_deal(sums: &mut [(f64, f64)], out: &mut [Vec<f64>]) {
    for (sum, list) in sums.iter_mut().zip(out) {
        let (payoff, games) = std::mem::take(sum);
        if games > 0.0 {
            list.push(payoff / games);
        }
    }
}
