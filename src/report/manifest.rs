//! run.json: what a run folder holds and whether it is whole. Written when the run starts and
//! rewritten (atomically) when it ends, so a reader can tell a complete run from one that is
//! still running, was killed or stopped early.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::core::schedule::Shard;
use crate::error::{Error, Result};
use crate::registry::Program;
use crate::report::Records;

/// The manifest's file name in a run folder.
pub const MANIFEST: &str = "run.json";
/// The run's resolved config in its folder (written by the run, read back by resume, merge,
/// the report and `arena stats`).
pub const CONFIG: &str = "config.toml";

/// Refuses `dir` as a run folder unless it is a folder holding a run (its run.json or its
/// config.toml) and the files of `needs`, in the one wording every command that reads a run folder
/// uses: `no run folder at DIR (no such folder)`, `... (it holds no run: no run.json)`.
pub fn check_run_folder(dir: &Path, needs: &[&str]) -> Result<()> {
    let refuse = |why: &str| Err(Error::input(format!("no run folder at {} ({why})", dir.display())));
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return refuse("no such folder"),
        Err(e) => return Err(Error::bad_path(dir, e)),
        Ok(m) if !m.is_dir() => return refuse("a file, not a folder"),
        Ok(_) => {}
    }
    let missing = |file: &str| !dir.join(file).exists();
    match [MANIFEST, CONFIG].into_iter().all(missing) {
        true => refuse(&format!("it holds no run: no {MANIFEST}")),
        false => match needs.iter().find(|f| missing(f)) {
            Some(file) => refuse(&format!("it holds no run: no {file}")),
            None => Ok(()),
        },
    }
}

/// The git commit the tool was built from (`unknown` outside a git checkout).
pub const COMMIT: &str = match option_env!("ARENA_GIT_COMMIT") {
    Some(commit) => commit,
    None => "unknown",
};

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    /// Started and not ended: still running, or killed (kill -9, power loss).
    Running,
    /// Every scheduled game played.
    Complete,
    /// Stopped by Ctrl-C or a signal; what finished is kept.
    Interrupted,
    /// The SPRT decided before the schedule was done.
    SprtStopped,
    /// Stopped by an error (a file that could not be written).
    Failed,
}

impl RunStatus {
    /// The status as run.json writes it (`complete`, `sprt-stopped`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::SprtStopped => "sprt-stopped",
            RunStatus::Failed => "failed",
        }
    }

    /// True when the run has ended with nothing left to play.
    pub fn is_whole(self) -> bool {
        matches!(self, RunStatus::Complete | RunStatus::SprtStopped)
    }
}

/// The contents of run.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The program that wrote the run (`bot-arena`).
    pub tool: String,
    /// Its version.
    pub version: String,
    /// The commit it was built from (`unknown` outside a git checkout).
    pub commit: String,
    /// The command line that started the run.
    pub command: Vec<String>,
    /// `config_hash` of the folder's config.toml.
    pub config_hash: String,
    /// UTC, RFC 3339.
    pub started: String,
    /// When the run ended (UTC, RFC 3339); `None` while it runs or after it was killed.
    pub ended: Option<String>,
    /// When `arena resume` continued the run (UTC), oldest first.
    #[serde(default)]
    pub resumed: Vec<String>,
    /// The games of this folder's share (its shard's, or the whole schedule's).
    pub games_planned: u64,
    /// Games played so far.
    pub games_played: u64,
    /// Whether the run is whole, stopped or still running.
    pub status: RunStatus,
    /// Why the run failed (status `failed`): its error line, such as a file that could not be
    /// written or a bot that could not run. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Which share of the games the folder holds (`arena run --shard K/N`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// How the games are kept (`--records`): absent for games.csv.
    #[serde(default, skip_serializing_if = "Records::is_csv")]
    pub records: Records,
    /// What the programs behind the bots said they are, by bot name: a Gomocup engine's answer
    /// to ABOUT (`name="Rapfi", version="…"`). Absent when no bot is such a program.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub engines: BTreeMap<String, String>,
    /// The plugin binary that ran the arena (`Arena::named`): its name and version, beside
    /// `tool` and `version`, the library's. Absent for `arena` itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<Program>,
    /// The bots whose games depend on the machine and its load, by bot name, with why (a
    /// program outside the process; a time limit, under which a loss on time depends on the
    /// load): such a run is not reproduced byte for byte. Absent when there is none: the games
    /// are then the same bytes on any machine, at any load, on any number of threads.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub clocks: BTreeMap<String, String>,
}

impl Manifest {
    /// The manifest of a run starting now with the config text `config` and `planned` games.
    pub fn start(
        config: &str,
        planned: u64,
        shard: Option<Shard>,
        records: Records,
        program: Option<&Program>,
    ) -> Manifest {
        Manifest {
            tool: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: COMMIT.to_string(),
            command: std::env::args().collect(),
            config_hash: config_hash(config),
            started: now(),
            ended: None,
            resumed: Vec::new(),
            games_planned: planned,
            games_played: 0,
            status: RunStatus::Running,
            error: None,
            shard,
            records,
            engines: BTreeMap::new(),
            program: program.cloned(),
            clocks: BTreeMap::new(),
        }
    }

    /// The share of the games the folder holds (the whole run when no shard is named).
    pub fn share(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    /// True when both were written by the same build of the tool.
    pub fn same_build(&self, other: &Manifest) -> bool {
        (&self.tool, &self.version, &self.commit, &self.program)
            == (&other.tool, &other.version, &other.commit, &other.program)
    }

    /// Records the end of the run (the error line of a failed one goes in with
    /// [`Manifest::failed`]).
    pub fn end(&mut self, status: RunStatus, played: u64) {
        self.status = status;
        self.error = None;
        self.games_played = played;
        self.ended = Some(now());
    }

    /// Records that the run failed with `error` after `played` games.
    pub fn failed(&mut self, error: &crate::error::Error, played: u64) {
        self.end(RunStatus::Failed, played);
        self.error = Some(error.to_string());
    }

    /// Reads `dir`'s run.json.
    pub fn read(dir: &Path) -> Result<Manifest> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                check_run_folder(dir, &[MANIFEST])?;
                return Err(Error::input(format!(
                    "no run folder at {} (it holds no run: no {MANIFEST})",
                    dir.display()
                )));
            }
            read => read.map_err(|e| Error::io(&path, e))?,
        };
        serde_json::from_str(&text).map_err(|e| Error::input(format!("{}: {e}", path.display())))
    }

    /// Writes `dir`'s run.json atomically: a reader sees the old manifest or the new, never half.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        write_atomic(&dir.join(MANIFEST), text.as_bytes())
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it to the disk, then renames it over
/// `path` and syncs the folder: a reader sees the old file or the new, never half, even after a
/// power cut. A failed write removes its temporary file (a full disk leaves no empty `.tmp`) and
/// names `path`, not the temporary file the reader never asked for.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(TEMP_SUFFIX);
    let temp = path.with_file_name(name);
    let written = std::fs::File::create(&temp)
        .and_then(|mut file| file.write_all(bytes).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(Error::io(path, e));
    }
    // The rename is in the folder's own data; some filesystems cannot sync a folder, and the
    // file itself is safe either way.
    if let Some(dir) = path.parent().map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d }) {
        let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// [`write_atomic`] for a file the user named (`--out`): a path that cannot be made (a folder
/// that is not there, a name under a file) is bad input, exit 2; the system's own failures (a
/// full disk) stay I/O failures.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic(path, bytes).map_err(|e| match e {
        Error::Io { path, source } => Error::bad_path(&path, source),
        other => other,
    })
}

/// The suffix of [`write_atomic`]'s temporary files.
pub const TEMP_SUFFIX: &str = ".tmp";

/// A hash of a config's text (64-bit FNV-1a, in hex): tells whether config.toml changed since
/// the run started. Not cryptographic; it guards against mistakes, not against forgery.
pub fn config_hash(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("fnv1a64:{hash:016x}")
}

/// Now, in UTC, as RFC 3339 to the second.
pub fn now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (Howard Hinnant's days-to-civil algorithm).
fn rfc3339(secs: u64) -> String {
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_448_442), "2026-11-23T15:40:42Z");
        assert_eq!(rfc3339(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn the_manifest_reads_back_and_its_status_is_kebab_case() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Manifest::start("game = \"gomoku\"\n", 10, None, Records::Csv, None);
        m.end(RunStatus::SprtStopped, 4);
        m.write(dir.path()).unwrap();
        assert!(std::fs::read_to_string(dir.path().join(MANIFEST)).unwrap().contains("\"sprt-stopped\""));
        assert_eq!(Manifest::read(dir.path()).unwrap(), m);
        assert_ne!(config_hash("a"), config_hash("b"));
    }
}
