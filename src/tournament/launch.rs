//! How a run starts in its folder: the one path from a config (or a folder to resume) to a
//! finished run folder. [`Launch::new_run`] and [`Launch::resume`] make every check and refusal
//! before anything is printed or played; [`Launch::header`] is the line shown before play;
//! [`Launch::play`] plays and returns what the run came to.
//!
//! `arena run` starts a new run (or, with `--resume`, continues the folder's run of the same
//! config), `arena resume` continues a folder's run; both go through here, so a run is made,
//! checked and played one way.

use std::path::{Path, PathBuf};

use crate::config::RunConfig;
use crate::core::schedule::{Schedule, Shard};
use crate::error::{Error, Result};
use crate::registry::Arena;
use crate::report::{check_run_folder, config_hash, CiUnit, Manifest, CONFIG, MANIFEST};
use crate::tournament::folder::{self, FolderLock};
use crate::tournament::resume::Resumption;
use crate::tournament::run::{check_history, execute, RunReport};
use crate::tournament::runner::RunOptions;

/// A run about to be played in its folder, every refusal made.
pub enum Launch<'a> {
    /// A new run of a config (or a shard of it) in an empty (or cleared) folder.
    New(Box<NewRun<'a>>),
    /// A folder's run continued (or extended).
    Resume {
        /// The folder's run, read and checked.
        resumption: Box<Resumption<'a>>,
        /// The shard the folder plays, `None` for the whole run.
        shard: Option<Shard>,
    },
    /// The folder's run has ended with nothing left to play.
    Ended {
        /// The run folder.
        dir: PathBuf,
        /// Its run.json.
        manifest: Box<Manifest>,
    },
}

/// A new run's pieces, held between its checks and its play.
pub struct NewRun<'a> {
    arena: &'a Arena,
    cfg: RunConfig,
    schedule: Schedule,
    shard: Option<Shard>,
    dir: &'a Path,
    lock: FolderLock,
    opts: RunOptions,
}

/// Whether `arena run` starts afresh in a folder that holds a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refused (the folder must be empty).
    Refuse,
    /// Its run's files are removed (`--force`).
    Replace,
    /// Continued if it is this config's and shard's (`--resume`).
    Continue,
}

/// What a launch came to.
pub enum Finished {
    /// The run played (all of it, or until the SPRT decided or a signal stopped it).
    Played {
        /// The config played.
        cfg: Box<RunConfig>,
        /// What the run came to: its end, status and verdicts.
        report: Box<RunReport>,
        /// The run folder, holding its files.
        dir: PathBuf,
    },
    /// Nothing was left to play.
    Ended {
        /// The run folder.
        dir: PathBuf,
        /// Its run.json, as the run left it.
        manifest: Box<Manifest>,
    },
}

impl<'a> Launch<'a> {
    /// `cfg` (or its `shard`) into `dir`, which it locks; a folder holding a run is treated as
    /// `existing` says.
    pub fn new_run(
        arena: &'a Arena,
        cfg: RunConfig,
        shard: Option<Shard>,
        dir: &'a Path,
        existing: Existing,
        opts: RunOptions,
    ) -> Result<Launch<'a>> {
        let schedule = cfg.schedule()?;
        if opts.history {
            check_history(arena, &cfg)?;
        }
        let lock = FolderLock::create(dir)?;
        if existing == Existing::Continue && dir.join(MANIFEST).exists() {
            let manifest = check_same_run(&cfg, shard, dir)?;
            if manifest.status.is_whole() {
                return Ok(Launch::Ended { dir: dir.to_path_buf(), manifest: Box::new(manifest) });
            }
            let resumption = Resumption::open(arena, dir, lock, &opts, None)?;
            return Ok(Launch::Resume { resumption: Box::new(resumption), shard });
        }
        folder::ready(&lock, dir, existing == Existing::Replace)?;
        Ok(Launch::New(Box::new(NewRun { arena, cfg, schedule, shard, dir, lock, opts })))
    }

    /// The run in `dir`, continued; with `games`, extended to that many games per pairing.
    pub fn resume(arena: &'a Arena, dir: &'a Path, opts: RunOptions, games: Option<u64>) -> Result<Launch<'a>> {
        check_run_folder(dir, &[MANIFEST, CONFIG])?;
        // Before anything is read: a run still being written is refused, naming its process.
        let lock = FolderLock::acquire(dir)?;
        let manifest = Manifest::read(dir)?;
        // A whole run whose records file is broken is not ended: resuming repairs it.
        if manifest.status.is_whole() && games.is_none() && records_break(dir, &manifest)?.is_none() {
            return Ok(Launch::Ended { dir: dir.to_path_buf(), manifest: Box::new(manifest) });
        }
        let resumption = Resumption::open(arena, dir, lock, &opts, games)?;
        Ok(Launch::Resume { resumption: Box::new(resumption), shard: manifest.shard })
    }

    /// The config to be played (`None` when nothing is left to play).
    pub fn config(&self) -> Option<&RunConfig> {
        match self {
            Launch::New(run) => Some(&run.cfg),
            Launch::Resume { resumption, .. } => Some(&resumption.cfg),
            Launch::Ended { .. } => None,
        }
    }

    /// The line shown before any game is played, and for a resumed run where it picks up (`None`
    /// when nothing is left to play).
    pub fn header(&self) -> Option<String> {
        match self {
            Launch::New(run) => Some(header(&run.cfg, &run.schedule, run.shard)),
            Launch::Resume { resumption, shard } => {
                Some(format!("{}\n{}", header(&resumption.cfg, resumption.schedule(), *shard), resumption.resumed()))
            }
            Launch::Ended { .. } => None,
        }
    }

    /// Plays the run to its end and writes its files.
    pub fn play(self) -> Result<Finished> {
        match self {
            Launch::New(run) => {
                let NewRun { arena, cfg, schedule, shard, dir, lock, opts } = *run;
                let report = execute(arena, &cfg, schedule, &opts, dir, lock, shard)?;
                Ok(Finished::Played { cfg: Box::new(cfg), report: Box::new(report), dir: dir.to_path_buf() })
            }
            Launch::Resume { resumption, .. } => {
                let dir = resumption.dir().to_path_buf();
                let (cfg, report) = resumption.play()?;
                Ok(Finished::Played { cfg: Box::new(cfg), report: Box::new(report), dir })
            }
            Launch::Ended { dir, manifest } => Ok(Finished::Ended { dir, manifest }),
        }
    }
}

/// `--resume` into a folder that holds a run: it must be this config's, and this shard.
fn check_same_run(cfg: &RunConfig, shard: Option<Shard>, dir: &Path) -> Result<Manifest> {
    let manifest = Manifest::read(dir)?;
    let hash = config_hash(&cfg.to_toml());
    if manifest.config_hash != hash {
        return Err(Error::input(format!(
            "{} holds a run of another config (hash {}, this config's is {hash}); --force replaces it, --out chooses another folder",
            dir.display(),
            manifest.config_hash
        )));
    }
    if manifest.shard != shard {
        let named = |s: Option<Shard>| s.map_or("the whole run".to_string(), |s| format!("shard {s}"));
        return Err(Error::input(format!(
            "{} holds {} of this config, not {}; --out chooses another folder",
            dir.display(),
            named(manifest.shard),
            named(shard)
        )));
    }
    Ok(manifest)
}

/// The run's first line, printed before any game is played: what will be played, how its
/// intervals count and its SPRT (an SPRT run plays at most the scheduled games; a shard plays its
/// share and never stops early, its SPRT is the merged run's).
pub fn header(cfg: &RunConfig, schedule: &Schedule, shard: Option<Shard>) -> String {
    let pairings = schedule.pairings.len();
    let games = shard.map_or(schedule.total(), |s| s.games(schedule));
    format!(
        "{}{}: {}{} games of {} ({}{}, seed {}){}{}{}",
        cfg.name,
        shard.map(|s| format!(" shard {s}")).unwrap_or_default(),
        if cfg.sprt.is_some() && shard.is_none() { "at most " } else { "" },
        games,
        cfg.game,
        cfg.shape.name(),
        if pairings == 1 { String::new() } else { format!(", {pairings} pairings") },
        cfg.seed,
        if cfg.paired { ", paired" } else { "" },
        if CiUnit::of(schedule) == CiUnit::Deal { "; 95% intervals over deals" } else { "" },
        match (&cfg.sprt, shard) {
            (Some(sprt), None) => format!("; SPRT {}", sprt.describe()),
            (Some(sprt), Some(_)) => format!("; SPRT {} over the merged shards", sprt.describe()),
            (None, _) => String::new(),
        }
    )
}

/// What `arena resume` (or `arena run --resume`) says of a run that has ended with nothing left
/// to play.
pub fn nothing_to_resume(dir: &Path, manifest: &Manifest) -> String {
    format!(
        "{}: {} ({} of {} games); nothing to resume",
        dir.display(),
        manifest.status.as_str(),
        manifest.games_played,
        manifest.games_planned
    )
}

/// Where the run's compressed records file breaks, if it does (see `records::read_checked`).
pub fn records_break(dir: &Path, manifest: &crate::report::Manifest) -> Result<Option<String>> {
    match manifest.records.moves_file() {
        Some(file) => Ok(crate::report::records::read_checked(&dir.join(file))?.1),
        None => Ok(None),
    }
}
