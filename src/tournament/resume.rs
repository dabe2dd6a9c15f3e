//! [`Resumption`] continues a run that was interrupted or killed, or extends one to more games
//! (`--games`): every game is a pure function of (config, game index), so it keeps games.csv's
//! whole observations, replays them into the tallies and plays on from there through the same
//! [`Run`] as a new run; the files come out as those of the run never interrupted (timing.csv,
//! which differs from run to run anyway, covers only the games played since).

use std::path::Path;
use std::sync::Arc;

use crate::config::{Overrides, RunConfig};
use crate::core::schedule::{Schedule, Shard};
use crate::error::{Error, Result};
use crate::registry::{Arena, Venue};
use crate::report::{config_hash, write_atomic, GameRow, GamesFile, GamesWriter, Manifest, RunStatus, RunTally};
use crate::stats::{Sprt, SprtDecision};
use crate::tournament::folder::{FolderLock, CONFIG, HISTORY};
use crate::tournament::progress::thousands;
use crate::tournament::run::{names, open_table, temp_path, Known, KnownGame, Output, Run, RunReport, Start};
use crate::tournament::runner::{Plan, RunOptions};

/// A run folder read back and checked, ready to play on ([`Resumption::play`]): the refusals of a
/// resume come from [`Resumption::open`], before anything is printed.
pub struct Resumption<'a> {
    /// The run's config (extended to the games asked for).
    pub cfg: RunConfig,
    dir: &'a Path,
    lock: FolderLock,
    opts: RunOptions,
    manifest: Manifest,
    table: Arc<dyn Venue>,
    schedule: Schedule,
    tally: RunTally,
    start: Start,
    known: Known,
    plan: Plan<'static>,
    output: Output,
    /// Where the records file broke, when it did: the games after the break are played again.
    repair: Option<String>,
}

impl<'a> Resumption<'a> {
    /// Reads and checks the run in `dir` (see the module's documentation), after extending it to
    /// `games` games per pairing when that is given.
    pub fn open(
        arena: &Arena,
        dir: &'a Path,
        lock: FolderLock,
        opts: &RunOptions,
        games: Option<u64>,
    ) -> Result<Resumption<'a>> {
        let mut manifest = Manifest::read(dir)?;
        let config_path = dir.join(CONFIG);
        let config = crate::core::limits::read_text(&config_path)?;
        if config_hash(&config) != manifest.config_hash {
            return Err(Error::input(format!(
                "{}: config.toml no longer matches the run's manifest (hash {}, run.json says {}); refusing to resume",
                dir.display(),
                config_hash(&config),
                manifest.config_hash
            )));
        }
        let records = manifest.records;
        // Before extending: a run that kept no games is refused with its config.toml untouched.
        let games_path = records.path_in(dir)?;
        let mut cfg = RunConfig::load(arena, &config_path, &Overrides::default())?;
        if let Some(games) = games {
            cfg = extend(arena, dir, &cfg, &mut manifest, games)?;
        }
        let opts = RunOptions { history: dir.join(HISTORY).is_dir(), records, ..opts.clone() };
        let table = open_table(arena, &cfg, opts.history, dir)?;
        let schedule = cfg.schedule()?;
        let share = manifest.share();
        let names = names(&cfg);
        let moves_path = records.moves_file().map(|file| dir.join(file));
        // New files a kill left half-written: the old ones are whole, and read instead.
        for path in std::iter::once(&games_path).chain(&moves_path) {
            let _ = std::fs::remove_file(temp_path(path));
        }
        let (file, kept) = read_share(&games_path, &schedule, share, &names, cfg.seats, &cfg.columns(&*table))?;
        let read = moves_path.as_deref().map(crate::report::records::read_checked).transpose()?;
        let (lines, repair) = read.map_or((None, None), |(lines, broken)| (Some(lines), broken));
        let kept = with_lines(kept, lines.as_deref(), schedule.replays);
        // The games kept that are the share's first ones, with no gap before them.
        let prefix = kept.iter().enumerate().take_while(|(p, g)| share.game(&schedule, *p as u64) == g.index).count();
        // records.jsonl continued in place holds those games first, line for line.
        let lines_in_place = lines.as_ref().is_none_or(|lines| {
            kept.iter().zip(lines).all(|(g, l)| (l.pairing, l.game) == (g.row.pairing, g.row.game))
        });
        let mut tally = RunTally::estimating(&schedule, names, cfg.estimator);
        // A compressed file cannot be cut and continued: it is written anew, as after a gap.
        let (start, known, output) = if prefix == kept.len() && !records.gz() && lines_in_place {
            // Only whole observations from the start: keep them in place and append after them (up
            // to where the SPRT decides, if it does in them).
            let sprt = cfg.sprt.as_ref().filter(|_| share.count == 1);
            let (fed, decided) = feed(&mut tally, sprt, kept.iter().map(|g| &g.row));
            let games = GamesWriter::append(&games_path, &cfg.columns(&*table), file.end_of(fed))?;
            let moves = match (&moves_path, &lines) {
                (Some(path), Some(lines)) => {
                    let keep = fed.checked_sub(1).map_or(0, |last| lines[last].end);
                    Some(GamesWriter::append_lines(path, keep)?)
                }
                _ => None,
            };
            (Start::Resumed { games: fed as u64, decided }, Known::new(), Output::direct(Some(games), moves))
        } else {
            // Games kept after a gap (a run extended to more games per table, or a dropped deal):
            // games.csv is written anew, its kept games copied in order, and renamed over the old
            // one at the end, so a kill meanwhile leaves the old file to resume from.
            (Start::Fresh, kept.into_iter().collect(), Output::fresh(dir, &cfg.columns(&*table), records)?)
        };
        let done = match start {
            Start::Resumed { games, .. } => games,
            Start::Fresh => 0,
        };
        let plan = {
            let copied: std::collections::HashSet<u64> = known.iter().map(|g| g.index).collect();
            let count = share.games(&schedule) - done - copied.len() as u64;
            let games = share.games_from(&schedule, done).filter(move |i| !copied.contains(i));
            Plan { games: Box::new(games), count, done: done + known.len() as u64 }
        };
        Ok(Resumption { cfg, dir, lock, opts, manifest, table, schedule, tally, start, known, plan, output, repair })
    }

    /// The run's schedule (of the extended config), for its header: built once, here.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The run folder.
    pub fn dir(&self) -> &Path {
        self.dir
    }

    /// Where the run picks up, in a line: `resumed DIR with 1,234 of 2,000 games played (766 to
    /// play)`, or why none is left to play.
    pub fn resumed(&self) -> String {
        let (done, count) = (self.plan.done, self.plan.count);
        let left = match (self.start, count) {
            (Start::Resumed { decided: true, .. }, _) => "the SPRT decided in them: none to play".to_string(),
            (_, 0) => "none left to play: the run's files are written".to_string(),
            (_, n) => format!("{} to play", thousands(n)),
        };
        let repair = match &self.repair {
            Some(broken) => format!("\n{broken}: the games after the break are played again"),
            None => String::new(),
        };
        format!(
            "resumed {} with {} of {} games played ({left}){repair}",
            self.dir.display(),
            thousands(done),
            thousands(done + count)
        )
    }

    /// Plays the rest of the run; also returns its config.
    pub fn play(self) -> Result<(RunConfig, RunReport)> {
        let Resumption {
            cfg,
            dir,
            mut lock,
            opts,
            mut manifest,
            table,
            schedule,
            tally,
            start,
            known,
            plan,
            output,
            ..
        } = self;
        lock.set_games(plan.done)?;
        manifest.resumed.push(crate::report::now());
        manifest.status = RunStatus::Running;
        manifest.error = None;
        manifest.ended = None;
        manifest.write(dir)?;
        let run = Run { cfg: &cfg, table, schedule, dir, opts: &opts, manifest, lock, timed: true };
        let report = run.play(tally, start, known, plan, output)?;
        Ok((cfg, report))
    }
}

/// `arena resume DIR --games N`: rewrites the folder's config.toml and run.json for `games` games
/// per pairing. Every game is a pure function of (config, pairing, game index), none of which
/// depends on the number of games, so the games already played are the first ones of the
/// longer run, and resuming plays the rest.
fn extend(arena: &Arena, dir: &Path, cfg: &RunConfig, manifest: &mut Manifest, games: u64) -> Result<RunConfig> {
    if let Some(shard) = manifest.shard {
        return Err(Error::input(format!(
            "{}: shard {shard} cannot be extended (its share of a longer run is other games); merge the shards, then extend the merged run",
            dir.display()
        )));
    }
    let overrides = Overrides { games: Some(i64::try_from(games).unwrap_or(i64::MAX)), ..Overrides::default() };
    let longer = RunConfig::load(arena, &dir.join(CONFIG), &overrides)?;
    if longer.schedule()?.games < cfg.schedule()?.games {
        return Err(Error::input(format!(
            "{}: the run has {} games per pairing; --games {games} would drop some (a run can only be extended)",
            dir.display(),
            cfg.games
        )));
    }
    let config = longer.to_toml();
    manifest.config_hash = config_hash(&config);
    manifest.games_planned = longer.schedule()?.total();
    // The manifest first: killed between the two writes, the folder is refused with a clear
    // message rather than resumed as the shorter run.
    manifest.write(dir)?;
    write_atomic(&dir.join(CONFIG), config.as_bytes())?;
    Ok(longer)
}

/// Reads back `path`, the games.csv of `share` of `schedule`: the file, and its whole
/// observations (every replay of a deal) as (tournament index, game) in order. A game that is not
/// the share's, or out of order, is an error; deals missing a replay (cut by a kill) are dropped.
pub(crate) fn read_share(
    path: &Path,
    schedule: &Schedule,
    share: Shard,
    names: &[String],
    seats: usize,
    columns: &[&str],
) -> Result<(GamesFile, Vec<(u64, GameRow)>)> {
    let file = GamesFile::read(path, names, seats, columns)?;
    let mut indexes = Vec::with_capacity(file.games.len());
    for g in &file.games {
        let index = (g.pairing < schedule.pairings.len() && g.game < schedule.games)
            .then(|| schedule.index(g.pairing, g.game))
            .filter(|&i| share.holds(schedule, i) && schedule.job(i).lineup == g.lineup)
            .filter(|&i| indexes.last().is_none_or(|&last| i > last));
        let Some(index) = index else {
            return Err(Error::input(format!(
                "{}: pairing {} game {} is not this run's next game{}; refusing to read on",
                path.display(),
                g.pairing,
                g.game,
                if share.count > 1 { format!(" in shard {share}") } else { String::new() }
            )));
        };
        indexes.push(index);
    }
    let r = schedule.replays;
    let mut kept = Vec::with_capacity(file.games.len());
    let mut games = file.games.iter().zip(&indexes).peekable();
    while let Some((g, &i)) = games.next() {
        let deal: Vec<_> = std::iter::once((i, g))
            .chain(std::iter::from_fn(|| games.next_if(|(_, &j)| j / r == i / r).map(|(g, &j)| (j, g))))
            .collect();
        if deal.len() as u64 == r {
            kept.extend(deal.into_iter().map(|(i, g)| (i, g.clone())));
        }
    }
    Ok((file, kept))
}

/// The games `kept` with their records.jsonl lines from `lines` (when the run keeps them): a deal
/// some replay of which has no line is dropped whole (it is played again), as [`read_share`] drops
/// a deal cut short. Every line of a game in games.csv is normally there: the records are written
/// out first.
pub(crate) fn with_lines(
    kept: Vec<(u64, GameRow)>,
    lines: Option<&[crate::report::records::RecordLine]>,
    replays: u64,
) -> Vec<KnownGame> {
    let Some(lines) = lines else {
        return kept.into_iter().map(|(index, row)| KnownGame { index, row, line: None }).collect();
    };
    let by_game: std::collections::HashMap<(usize, u64), &str> =
        lines.iter().map(|l| ((l.pairing, l.game), l.text.as_str())).collect();
    let found: Vec<KnownGame> = kept
        .into_iter()
        .map(|(index, row)| KnownGame {
            index,
            line: by_game.get(&(row.pairing, row.game)).map(|t| t.to_string()),
            row,
        })
        .collect();
    let missing: std::collections::HashSet<u64> =
        found.iter().filter(|g| g.line.is_none()).map(|g| g.index / replays).collect();
    found.into_iter().filter(|g| !missing.contains(&(g.index / replays))).collect()
}

/// Feeds `games` to `tally` in order; with `sprt`, stops after the game where it decides. Returns
/// the games fed and whether the SPRT decided.
pub(crate) fn feed<'g>(
    tally: &mut RunTally,
    sprt: Option<&Sprt>,
    games: impl Iterator<Item = &'g GameRow>,
) -> (usize, bool) {
    let mut fed = 0;
    for g in games {
        fed += 1;
        let completed = tally.add(g.pairing, g.game, &g.lineup, &g.record);
        if completed && sprt.is_some_and(|s| s.decision(tally.llr(g.pairing, s)) != SprtDecision::Continue) {
            return (fed, true);
        }
    }
    (fed, false)
}
