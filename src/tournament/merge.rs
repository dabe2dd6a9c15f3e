//! `arena merge`: the folders of a run's shards (`arena run --shard K/N`) into one run folder
//! whose files are those of the run played on one machine.
//!
//! The shards must come from one build and one config and be every shard of it once. Their games
//! are put back in tournament order and go through the same tallies as a run's, so games.csv,
//! summary.csv, match.csv and ratings.csv come out byte for byte as one machine writes them. An
//! SPRT is evaluated over the merged order and the run truncated where it decides, as one machine
//! would have stopped there; so shards of an SPRT run may be merged before they are all finished,
//! as soon as the games every shard has played reach the decision.

use std::path::{Path, PathBuf};

use crate::config::{Overrides, RunConfig};
use crate::core::limits::read_text;
use crate::core::schedule::{Schedule, Shard};
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::Records;
use crate::report::{config_hash, Manifest, RunTally};
use crate::tournament::folder::{FolderLock, HISTORY};
use crate::tournament::progress::thousands;
use crate::tournament::resume::{feed, read_share, with_lines};
use crate::tournament::run::{begin, names, open_table, Known, KnownGame, Output, Run, RunReport, Start};
use crate::tournament::runner::{Plan, RunOptions};

/// Refuses shards of another config than `expected` (a config hash), or, without one, than most
/// of the shards: a shard folder left by an earlier run of an edited config (a Slurm array
/// resubmitted into the same folders, say) must not be merged as this run's.
fn stale_shards(shards: &[ShardDir], expected: Option<&str>) -> Result<()> {
    let hashes: Vec<&str> = shards.iter().map(|s| s.manifest.config_hash.as_str()).collect();
    let most = |h: &&str| hashes.iter().filter(|x| *x == h).count();
    let Some(config) = expected.or_else(|| hashes.iter().copied().max_by_key(|h| (most(h), std::cmp::Reverse(*h))))
    else {
        return Ok(());
    };
    let stale: Vec<String> = shards
        .iter()
        .filter(|s| s.manifest.config_hash != config)
        .map(|s| format!("{} (shard {}, {})", s.dir.display(), s.shard, s.manifest.config_hash))
        .collect();
    if stale.is_empty() {
        return Ok(());
    }
    let against = if expected.is_some() { "the config given" } else { "the other shards" };
    Err(Error::input(format!(
        "stale shard{}: {} {} of another config than {against} ({config}); rerun {} from the config (`arena run CONFIG --shard K/N --force --out DIR`)",
        if stale.len() == 1 { "" } else { "s" },
        stale.join(", "),
        if stale.len() == 1 { "is" } else { "are" },
        if stale.len() == 1 { "it" } else { "them" },
    )))
}

/// One shard's folder, read and checked.
struct ShardDir {
    dir: PathBuf,
    manifest: Manifest,
    shard: Shard,
}

/// A full set of shards of one run, checked against each other (no game read yet).
pub struct Shards {
    dirs: Vec<ShardDir>,
    /// The config.toml they share.
    config: String,
    cfg: RunConfig,
}

impl Shards {
    /// Reads the shards' manifests and configs: one build, one config (`expected`'s hash, when
    /// given: the config the shards were run from, resolved), every shard once.
    pub fn open(arena: &Arena, dirs: &[PathBuf], expected: Option<&str>) -> Result<Shards> {
        let mut read = Vec::with_capacity(dirs.len());
        for dir in dirs {
            crate::report::check_run_folder(dir, &[crate::report::MANIFEST, crate::report::CONFIG])?;
            let manifest = Manifest::read(dir)?;
            let shard = manifest.share();
            read.push(ShardDir { dir: dir.clone(), manifest, shard });
        }
        let first = read.first().ok_or_else(|| Error::input("give the shards' folders to merge"))?;
        stale_shards(&read, expected)?;
        for other in &read[1..] {
            let (a, b) = (&first.manifest, &other.manifest);
            let (da, db) = (first.dir.display(), other.dir.display());
            if !a.same_build(b) {
                return Err(Error::input(format!(
                    "{da} and {db} come from different builds ({} {} {} and {} {} {}); merge shards of one build",
                    a.tool, a.version, a.commit, b.tool, b.version, b.commit
                )));
            }
            if first.shard.count != other.shard.count {
                return Err(Error::input(format!(
                    "{da} is shard {} but {db} is shard {}: not one split of the run",
                    first.shard, other.shard
                )));
            }
        }
        let count = first.shard.count;
        let mut by_index: Vec<Option<&ShardDir>> = vec![None; count as usize];
        for s in &read {
            if let Some(twice) = by_index[s.shard.index as usize - 1].replace(s) {
                return Err(Error::input(format!(
                    "shard {} is given twice ({} and {})",
                    s.shard,
                    twice.dir.display(),
                    s.dir.display()
                )));
            }
        }
        let missing: Vec<String> =
            (1..=count).filter(|&k| by_index[k as usize - 1].is_none()).map(|k| k.to_string()).collect();
        if !missing.is_empty() {
            return Err(Error::input(format!(
                "shard{} {} of {count} {} missing (given {} of {count} shards)",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" },
                read.len()
            )));
        }
        read.sort_by_key(|s| s.shard.index);
        let config_path = read[0].dir.join(crate::report::CONFIG);
        let config = read_text(&config_path)?;
        for s in &read {
            let text = read_text(&s.dir.join(crate::report::CONFIG))?;
            if config_hash(&text) != s.manifest.config_hash {
                return Err(Error::input(format!(
                    "{}: config.toml no longer matches the shard's manifest; refusing to merge",
                    s.dir.display()
                )));
            }
        }
        let cfg = RunConfig::load(arena, &config_path, &Overrides::default())?;
        Ok(Shards { dirs: read, config, cfg })
    }

    /// The run's config.
    pub fn config(&self) -> &RunConfig {
        &self.cfg
    }

    /// Reads every shard's games and checks that they make the run, or its first games up to where
    /// its SPRT decides: the refusals of a merge, before anything is printed or written.
    pub fn read(&self, arena: &Arena, records: Records) -> Result<Merge<'_>> {
        let cfg = &self.cfg;
        let schedule = cfg.schedule()?;
        let columns = cfg.columns(&*arena.find(cfg.game)?.venue(&cfg.table, cfg.seats, &cfg.bots, None)?);
        let names = names(cfg);
        let mut games = Vec::new();
        // Each shard's whole games on disk, for the refusal of an unfinished one.
        let mut on_disk = Vec::with_capacity(self.dirs.len());
        for s in &self.dirs {
            let path = s.manifest.records.path_in(&s.dir)?;
            let (file, kept) = read_share(&path, &schedule, s.shard, &names, cfg.seats, &columns)?;
            on_disk.push(file.games.len());
            let lines = match (records.moves_file(), s.manifest.records.moves_file()) {
                (None, _) => None,
                (Some(_), Some(file)) => Some(crate::report::records::read(&s.dir.join(file))?),
                (Some(_), None) => {
                    return Err(Error::input(format!(
                        "{}: shard {} kept no move records (--records {}); merge with --records csv or gz",
                        s.dir.display(),
                        s.shard,
                        s.manifest.records.name()
                    )))
                }
            };
            games.extend(with_lines(kept, lines.as_deref(), schedule.replays));
        }
        games.sort_unstable_by_key(|g| g.index);
        // The games every shard has played so far make a prefix of the run; it ends at the first
        // game no shard has.
        let prefix = games.iter().enumerate().take_while(|(p, g)| *p as u64 == g.index).count();
        if prefix < games.len() || (prefix as u64) < schedule.total() {
            let missing = prefix as u64;
            let k = (missing / schedule.replays % self.dirs.len() as u64) as usize;
            let owner = &self.dirs[k];
            let mut tally = RunTally::estimating(&schedule, names.clone(), cfg.estimator);
            let decided =
                cfg.sprt.as_ref().is_some_and(|s| feed(&mut tally, Some(s), games[..prefix].iter().map(|g| &g.row)).1);
            if !decided {
                let m = &owner.manifest;
                let (dir, shard) = (owner.dir.display(), owner.shard);
                return Err(Error::input(if m.status.is_whole() {
                    format!(
                        "{dir}: shard {shard} says {} but its games.csv lacks game {missing}; refusing to merge",
                        m.status.as_str()
                    )
                } else {
                    format!(
                        "{dir}: shard {shard} is unfinished (status {}, {} of {} games on disk){}; `arena resume {dir}` finishes it",
                        m.status.as_str(),
                        thousands(on_disk[k] as u64),
                        thousands(m.games_planned),
                        if cfg.sprt.is_some() { " and the SPRT has not decided in the games before it" } else { "" }
                    )
                }));
            }
            games.truncate(prefix);
        }
        Ok(Merge { shards: self, schedule, games })
    }
}

/// The shards' games, read and checked: what [`Merge::write`] puts into the merged run's folder.
pub struct Merge<'a> {
    shards: &'a Shards,
    schedule: Schedule,
    games: Vec<KnownGame>,
}

impl Merge<'_> {
    /// Writes the merged run into `out`, which `lock` holds and [`folder::ready`](crate::tournament::folder::ready)
    /// has made ready.
    pub fn write(self, arena: &Arena, out: &Path, lock: FolderLock, opts: &RunOptions) -> Result<RunReport> {
        let Merge { shards, schedule, games } = self;
        let cfg = &shards.cfg;
        let table = open_table(arena, cfg, false, out)?;
        // The merged games are kept as the run's options say (`arena merge --records`).
        let mut manifest = Manifest::start(&shards.config, schedule.total(), None, opts.records, arena.program());
        // The run started when its first shard did.
        manifest.started = shards.dirs.iter().map(|s| s.manifest.started.clone()).min().unwrap_or(manifest.started);
        // What the engines said in every shard (one build and one config: the same programs, as a rule).
        for s in &shards.dirs {
            manifest.engines.extend(s.manifest.engines.clone());
            manifest.clocks.extend(s.manifest.clocks.clone());
        }
        let output = begin(out, &shards.config, &manifest, || Output::fresh(out, &cfg.columns(&*table), opts.records))?;
        let known: Known = games.into_iter().collect();
        let plan = Plan { games: Box::new(std::iter::empty()), count: 0, done: 0 };
        let tally = RunTally::estimating(&schedule, names(cfg), cfg.estimator);
        let run = Run { cfg, table, schedule, dir: out, opts, manifest, lock, timed: false };
        let report = run.play(tally, Start::Fresh, known, plan, output)?;
        shards.copy_histories(out, report.end.played)?;
        Ok(report)
    }
}

impl Shards {
    /// Copies the shards' hand histories of the first `played` games into `out`, when every
    /// shard wrote them.
    fn copy_histories(&self, out: &Path, played: u64) -> Result<()> {
        if !self.dirs.iter().all(|s| s.dir.join(HISTORY).is_dir()) {
            return Ok(());
        }
        let schedule = self.cfg.schedule()?;
        let history = out.join(HISTORY);
        std::fs::create_dir_all(&history).map_err(|e| Error::io(&history, e))?;
        for s in &self.dirs {
            let from = s.dir.join(HISTORY);
            for entry in from.read_dir().map_err(|e| Error::io(&from, e))? {
                let path = entry.map_err(|e| Error::io(&from, e))?.path();
                let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
                // `<pairing>-<game>.<ext>`: only the games the merged run kept.
                let index = name
                    .split_once('.')
                    .and_then(|(stem, _)| stem.split_once('-'))
                    .and_then(|(p, g)| Some(schedule.index(p.parse().ok()?, g.parse().ok()?)));
                if index.is_some_and(|i| i < played) {
                    let to = history.join(&name);
                    std::fs::copy(&path, &to).map_err(|e| Error::io(&to, e))?;
                }
            }
        }
        Ok(())
    }
}
