//! `arena status`: where runs stand, read from their folders alone (run.json, the games file, the
//! lock), so it works on a run still being written by another process, on another machine's
//! shards on a shared filesystem, and on a run that was killed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::report::{count_games, Manifest, MANIFEST};
use crate::tournament::folder::{self, CONFIG};
use crate::tournament::progress::{duration_text, rate_text, thousands};

/// Where one run folder stands.
#[derive(Clone, Debug, Serialize)]
pub struct FolderStatus {
    pub dir: PathBuf,
    /// `running`, a finished state of run.json (`complete`, `sprt-stopped`, `interrupted`,
    /// `failed`), `killed` (run.json says running but no process holds the folder), `missing` (no
    /// folder yet: a shard not started) or `no-run` (a folder without run.json).
    pub state: String,
    /// Whole games in the games file (what a kill would leave); `None` without a games file.
    pub games_on_disk: Option<u64>,
    /// The games of the folder's share of the run.
    pub games_planned: Option<u64>,
    /// Games a second since the process writing the folder took it (a running run only).
    pub rate: Option<f64>,
    /// When the games file (or run.json) was last written, in seconds since 1970.
    pub last_write: Option<u64>,
    /// The process writing the folder.
    pub pid: Option<u32>,
    pub host: Option<String>,
}

/// Where a set of folders (the shards of a run, as a rule) stands together.
#[derive(Clone, Debug, Serialize)]
pub struct Overall {
    pub folders: usize,
    /// Folders whose run has ended with nothing left to play (complete or sprt-stopped).
    pub done: usize,
    pub games_on_disk: u64,
    pub games_planned: u64,
    /// The sum of the running folders' rates.
    pub rate: Option<f64>,
    /// Seconds until the planned games are on disk at that rate.
    pub eta: Option<f64>,
}

fn seconds_since_1970(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Reads where the run in `dir` stands.
pub fn folder(dir: &Path) -> FolderStatus {
    let mut status = FolderStatus {
        dir: dir.to_path_buf(),
        state: String::new(),
        games_on_disk: None,
        games_planned: None,
        rate: None,
        last_write: None,
        pid: None,
        host: None,
    };
    if !dir.is_dir() {
        status.state = "missing".into();
        return status;
    }
    let Ok(manifest) = Manifest::read(dir) else {
        status.state = "no-run".into();
        return status;
    };
    status.games_planned = Some(manifest.games_planned);
    let games_file = manifest.records.file().map(|f| dir.join(f));
    let seats = seats(dir);
    status.games_on_disk = games_file.as_deref().zip(seats).and_then(|(path, seats)| count_games(path, seats).ok());
    let written = games_file.as_deref().filter(|p| p.exists()).unwrap_or(&dir.join(MANIFEST)).to_path_buf();
    status.last_write = std::fs::metadata(written).and_then(|m| m.modified()).ok().map(seconds_since_1970);
    let holder = folder::holder(dir);
    status.state = match (&holder, manifest.status.as_str()) {
        (Some(_), _) => "running".into(),
        (None, "running") => "killed".into(),
        (None, state) => state.into(),
    };
    if let Some(h) = holder {
        let elapsed = seconds_since_1970(SystemTime::now()).saturating_sub(h.since);
        if let (Some(on_disk), true) = (status.games_on_disk, elapsed > 0) {
            status.rate = Some(on_disk.saturating_sub(h.games) as f64 / elapsed as f64);
        }
        status.pid = Some(h.pid);
        status.host = Some(h.host);
    }
    // A run that ended has every game on disk that it will have; one without a games file counts
    // what run.json says.
    if status.games_on_disk.is_none() && status.state != "running" {
        status.games_on_disk = Some(manifest.games_played);
    }
    status
}

/// The seats of the run in `dir`, from its resolved config.
fn seats(dir: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(dir.join(CONFIG)).ok()?;
    let config: toml::Table = text.parse().ok()?;
    config.get("seats")?.as_integer().and_then(|s| usize::try_from(s).ok())
}

/// Where `folders` stand together.
pub fn overall(folders: &[FolderStatus]) -> Overall {
    let on_disk = folders.iter().filter_map(|f| f.games_on_disk).sum();
    let planned: u64 = folders.iter().filter_map(|f| f.games_planned).sum();
    let rates: Vec<f64> = folders.iter().filter_map(|f| f.rate).collect();
    let rate = (!rates.is_empty()).then(|| rates.iter().sum::<f64>());
    let all_known = folders.iter().all(|f| f.games_planned.is_some());
    let eta = rate.filter(|&r| r > 0.0 && all_known).map(|r| planned.saturating_sub(on_disk) as f64 / r);
    Overall {
        folders: folders.len(),
        done: folders.iter().filter(|f| matches!(f.state.as_str(), "complete" | "sprt-stopped")).count(),
        games_on_disk: on_disk,
        games_planned: planned,
        rate,
        eta,
    }
}

impl FolderStatus {
    /// One line: `results/x: 620 of 1,000 games on disk, running (pid 41 on node7), 205 games/s,
    /// last write 2s ago`.
    pub fn line(&self, now: u64) -> String {
        let mut line = format!("{}: ", self.dir.display());
        match (self.games_on_disk, self.games_planned) {
            (Some(on), Some(planned)) => {
                line.push_str(&format!("{} of {} games on disk, ", thousands(on), thousands(planned)))
            }
            (None, Some(planned)) => line.push_str(&format!("{} games planned, ", thousands(planned))),
            _ => {}
        }
        line.push_str(match self.state.as_str() {
            "missing" => "not started (no folder)",
            "no-run" => "no run here (no run.json)",
            "killed" => "killed (run.json says running, but no process holds the folder; `arena resume` continues it)",
            state => state,
        });
        if let (Some(pid), Some(host)) = (self.pid, &self.host) {
            line.push_str(&format!(" (pid {pid} on {host})"));
        }
        if let Some(rate) = self.rate {
            line.push_str(&format!(", {} games/s", rate_text(rate)));
        }
        if let Some(at) = self.last_write {
            line.push_str(&format!(", last write {} ago", duration_text(Duration::from_secs(now.saturating_sub(at)))));
        }
        line
    }
}

impl Overall {
    /// `all: 3 of 4 done, 3,620 of 4,000 games on disk, 410 games/s, ETA 1s`.
    pub fn line(&self) -> String {
        let mut line = format!(
            "all: {} of {} done, {} of {} games on disk",
            self.done,
            self.folders,
            thousands(self.games_on_disk),
            thousands(self.games_planned)
        );
        if let Some(rate) = self.rate {
            line.push_str(&format!(", {} games/s", rate_text(rate)));
        }
        if let Some(eta) = self.eta {
            line.push_str(&format!(", ETA {}", duration_text(Duration::from_secs_f64(eta))));
        }
        line
    }
}

/// Now, in seconds since 1970.
pub fn now() -> u64 {
    seconds_since_1970(SystemTime::now())
}
