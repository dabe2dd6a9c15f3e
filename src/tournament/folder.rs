//! A run folder as something one process writes at a time: the files a run writes there (what
//! `--force` may remove), and the lock a writer holds for as long as it writes.
//!
//! **The lock.** `run`, `resume`, `merge --out`, `play` and the gate's runs hold an advisory lock
//! (`flock`) on `arena.lock` in the folder from before they look at it until they are done; a
//! second process is refused with the holder's pid and host. The kernel releases the lock when its
//! holder dies however it dies, so a lock left by a killed process is simply taken over; the file
//! itself is removed when the holder is done. On a shared filesystem the lock holds across
//! machines where the filesystem passes `flock` on to its server (NFSv4, Lustre and GPFS with
//! their default or `flock` mount options; NFSv3 needs a running lock manager, `lockd`); where
//! locks are not supported, a live holder on this host is still found from the pid in the file.
//!
//! **The reserve.** The lock file is also 64 KiB of disk reserved for the end of the run: when a
//! write fails because the disk is full, the reserve is given back, so that run.json can still be
//! rewritten to say `failed` and how many games are on disk.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::report::html::REPORT;
use crate::report::{Records, TimeTally, Verdicts, MANIFEST, TEMP_SUFFIX};

/// The lock file's name in a run folder.
pub const LOCK: &str = "arena.lock";

/// The folder of hand histories (`--hand-history`).
pub const HISTORY: &str = "history";
/// The folder of outside bots' stderr logs.
pub const LOGS: &str = "logs";
/// The folder of the folders outside engines may write in (a Gomocup engine's `INFO folder`):
/// what they hold is the engines', so `--force` removes it whole.
pub const ENGINES: &str = "engines";
/// The run's resolved config.
pub(crate) use crate::report::CONFIG;

/// The files a run writes in its folder: `--force` removes these (and their temporary files) and
/// nothing else. Made of the names their writers use (the manifest's, the config's, the verdicts'
/// [`Verdicts::FILES`], timing.csv's, the report's, the lock's and every [`Records`] kind's games
/// and records files), not written out again here, so a file renamed or added by its writer is what `--force`
/// knows.
fn run_files() -> impl Iterator<Item = &'static str> {
    let own = [MANIFEST, CONFIG, TimeTally::FILE, REPORT, LOCK];
    own.into_iter().chain(Verdicts::FILES).chain(Records::ALL.iter().flat_map(|r| r.files()))
}
/// The folders a run writes (of plain files only).
const DIRS: &[&str] = &[HISTORY, LOGS];

/// Bytes the lock file holds back for the end of a run on a full disk: run.json and its
/// temporary file are a few KiB; filesystems allocate in blocks of 4 KiB and more.
const RESERVE: u64 = 64 << 10;

/// True for the files a run writes (and their temporary files), and its folders of plain files.
fn written_by_a_run(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let base = name.strip_suffix(TEMP_SUFFIX).unwrap_or(&name);
    if path.is_dir() {
        if name == ENGINES {
            return true;
        }
        return DIRS.contains(&name.as_ref())
            && path.read_dir().is_ok_and(|d| d.flatten().all(|e| e.file_type().is_ok_and(|t| t.is_file())));
    }
    path.symlink_metadata().is_ok_and(|m| m.is_file()) && run_files().any(|f| f == base)
}

/// Who holds a run folder: written into the lock file by its holder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    /// When the holder took the folder, in seconds since 1970 (UTC).
    pub since: u64,
    /// The games the folder's games file held then (for the rate `arena status` shows).
    pub games: u64,
}

impl Holder {
    fn now(games: u64) -> Holder {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Holder { pid: std::process::id(), host: hostname(), since, games }
    }
}

/// This machine's name (empty when it has none).
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
    if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The lock on a run folder, held until dropped (see the module's documentation).
#[derive(Debug)]
pub struct FolderLock {
    file: File,
    /// The lock file.
    path: PathBuf,
    /// The folder, when taking the lock made it: removed again with the lock if left empty, so a
    /// refusal leaves no trace.
    made: Option<PathBuf>,
}

impl FolderLock {
    /// Takes the lock of `dir`, making the folder if it is missing (see [`FolderLock::acquire`]).
    pub fn create(dir: &Path) -> Result<FolderLock> {
        let made = !dir.exists();
        // A folder that cannot be made is the path's fault (under a file, say): bad input.
        std::fs::create_dir_all(dir).map_err(|e| Error::bad_path(dir, e))?;
        match FolderLock::acquire(dir) {
            Ok(mut lock) => {
                lock.made = made.then(|| dir.to_path_buf());
                Ok(lock)
            }
            Err(e) => {
                if made {
                    let _ = std::fs::remove_dir(dir);
                }
                Err(e)
            }
        }
    }

    /// Takes the lock of `dir`, an existing folder; refused, naming the holder, when another
    /// process holds it.
    pub fn acquire(dir: &Path) -> Result<FolderLock> {
        if !dir.is_dir() {
            return Err(Error::input(format!("{}: no such folder", dir.display())));
        }
        let path = dir.join(LOCK);
        // A refusal is tried again a few times: `arena status` holds the lock shared for a moment.
        let mut tries = 0;
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io(&path, e))?;
            match try_flock(&file, libc::LOCK_EX) {
                Ok(true) => {}
                Ok(false) if tries < 5 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    continue;
                }
                Ok(false) => return Err(in_use(dir, read_holder(&path))),
                // No locks on this filesystem: a live holder on this host is still found.
                Err(_) => {
                    if let Some(holder) = read_holder(&path).filter(alive_here) {
                        return Err(in_use(dir, Some(holder)));
                    }
                }
            }
            // The holder before us may have removed the file between our open and our lock: then
            // we hold a lock on a file nobody else will open, and try again.
            let same = std::fs::metadata(&path)
                .ok()
                .zip(file.metadata().ok())
                .is_some_and(|(on_disk, ours)| (on_disk.dev(), on_disk.ino()) == (ours.dev(), ours.ino()));
            if same {
                let mut lock = FolderLock { file, path, made: None };
                lock.write_holder(&Holder::now(0))?;
                return Ok(lock);
            }
        }
    }

    /// Records in the lock file how many games the folder held when its holder took it.
    pub fn set_games(&mut self, games: u64) -> Result<()> {
        let mut holder = read_holder(&self.path).unwrap_or_else(|| Holder::now(games));
        holder.games = games;
        self.write_holder(&holder)
    }

    fn write_holder(&mut self, holder: &Holder) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        let mut line = serde_json::to_string(holder).expect("a holder serialises");
        line.push('\n');
        self.file.set_len(0).map_err(io)?;
        self.file.seek(SeekFrom::Start(0)).map_err(io)?;
        self.file.write_all(line.as_bytes()).map_err(io)?;
        // The reserve: blocks allocated now, so they are there to give back when the disk fills.
        // Where the filesystem cannot preallocate, there is no reserve, and nothing else changes.
        // SAFETY: posix_fallocate on a descriptor we own.
        unsafe {
            libc::posix_fallocate(self.file.as_raw_fd(), 0, RESERVE as libc::off_t);
        }
        Ok(())
    }

    /// Gives the reserved disk space back (the lock itself is kept): for the last writes of a run
    /// that stopped on a full disk.
    pub fn release_reserve(&mut self) {
        let len = read_holder_line(&self.path).map_or(0, |l| l.len() as u64 + 1);
        let _ = self.file.set_len(len);
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked: a process waiting to open it finds it gone and makes anew.
        let _ = std::fs::remove_file(&self.path);
        if let Some(dir) = &self.made {
            let _ = std::fs::remove_dir(dir); // only if empty
        }
    }
}

/// `flock(op | LOCK_NB)`: `Ok(false)` when another process holds the lock, `Err` when the
/// filesystem has no locks.
fn try_flock(file: &File, op: libc::c_int) -> std::io::Result<bool> {
    loop {
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), op | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

/// Whether `holder` is a process alive on this host.
fn alive_here(holder: &Holder) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    holder.host == hostname() && unsafe { libc::kill(holder.pid as libc::pid_t, 0) } == 0
}

fn in_use(dir: &Path, holder: Option<Holder>) -> Error {
    let by = match holder {
        Some(h) => {
            format!("arena (pid {} on host {}) is writing it", h.pid, if h.host.is_empty() { "?" } else { &h.host })
        }
        None => "another arena process is writing it".to_string(),
    };
    Error::input(format!(
        "{} is in use: {by}; wait for it to end, or choose another --out ({LOCK} holds the lock)",
        dir.display()
    ))
}

fn read_holder_line(path: &Path) -> Option<String> {
    let mut text = Vec::new();
    File::open(path).ok()?.take(4096).read_to_end(&mut text).ok()?;
    let end = text.iter().position(|&b| b == b'\n')?;
    String::from_utf8(text[..end].to_vec()).ok()
}

fn read_holder(path: &Path) -> Option<Holder> {
    serde_json::from_str(&read_holder_line(path)?).ok()
}

/// Who is writing `dir` now, if anyone: the holder of its lock (`None` when nobody holds it).
pub fn holder(dir: &Path) -> Option<Holder> {
    let path = dir.join(LOCK);
    let file = File::open(&path).ok()?;
    match try_flock(&file, libc::LOCK_SH) {
        // Nobody holds it: the file is a killed holder's.
        Ok(true) => None,
        Ok(false) => read_holder(&path),
        Err(_) => read_holder(&path).filter(alive_here),
    }
}

/// Locks `dir` for a new run and readies it (see [`ready`]).
pub fn prepare(dir: &Path, force: bool) -> Result<FolderLock> {
    let lock = FolderLock::create(dir)?;
    ready(&lock, dir, force)?;
    Ok(lock)
}

/// Readies `dir`, which `_lock` holds, for a new run. A folder holds a run when it holds any of
/// the files a run writes: that needs `force`, which removes those files. Files of other names (a
/// README, notes, .gitignore) are no run's: they never stop a run and `--force` never removes them.
pub fn ready(_lock: &FolderLock, dir: &Path, force: bool) -> Result<()> {
    let entries: Vec<PathBuf> = dir
        .read_dir()
        .and_then(|d| d.map(|e| e.map(|e| e.path())).collect::<std::io::Result<Vec<_>>>())
        .map_err(|e| Error::io(dir, e))?
        .into_iter()
        .filter(|p| p.file_name().is_none_or(|n| n != LOCK) && written_by_a_run(p))
        .collect();
    if !entries.is_empty() && !force {
        let mut names: Vec<String> =
            entries.iter().map(|p| p.file_name().unwrap_or_default().to_string_lossy().into_owned()).collect();
        names.sort();
        let advice = if dir.join(MANIFEST).is_file() {
            "use --force to overwrite it, `arena resume` to continue it, or --out to choose another folder"
        } else {
            "use --force to clear it or --out to choose another folder"
        };
        return Err(Error::input(format!(
            "{} already holds a run ({}); {advice} (files of other names are kept)",
            dir.display(),
            names.join(", ")
        )));
    }
    for path in &entries {
        let removed = if path.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
        removed.map_err(|e| Error::io(path, e))?;
    }
    Ok(())
}

/// Removes what a run wrote in `dir` but its lock, as far as it can (after a start that failed).
pub fn clear(dir: &Path) {
    for path in dir.read_dir().into_iter().flatten().flatten().map(|e| e.path()) {
        if written_by_a_run(&path) && path.file_name().is_some_and(|n| n != LOCK) {
            let _ = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_folder_is_refused_and_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let first = FolderLock::acquire(dir.path()).unwrap();
        assert!(FolderLock::acquire(&dir.path().join("missing")).is_err(), "no folder is made");
        let refused = FolderLock::acquire(dir.path()).unwrap_err().to_string();
        assert!(refused.contains(&format!("pid {}", std::process::id())), "{refused}");
        assert_eq!(holder(dir.path()).map(|h| h.pid), Some(std::process::id()));
        drop(first);
        assert!(!dir.path().join(LOCK).exists(), "the lock file goes with its holder");
        assert_eq!(holder(dir.path()), None);
        let _again = FolderLock::acquire(dir.path()).unwrap();
    }

    #[test]
    fn a_lock_file_left_by_a_dead_holder_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        let stale = Holder { pid: u32::MAX >> 2, host: hostname(), since: 0, games: 3 };
        std::fs::write(dir.path().join(LOCK), serde_json::to_string(&stale).unwrap() + "\n").unwrap();
        assert_eq!(holder(dir.path()), None);
        let lock = FolderLock::acquire(dir.path()).unwrap();
        assert_eq!(holder(dir.path()).map(|h| h.pid), Some(std::process::id()));
        drop(lock);
    }

    #[test]
    fn the_reserve_is_given_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut lock = FolderLock::acquire(dir.path()).unwrap();
        let blocks = || std::fs::metadata(dir.path().join(LOCK)).unwrap().blocks();
        let reserved = blocks();
        assert!(reserved * 512 >= RESERVE || reserved == 0, "{reserved} blocks");
        lock.release_reserve();
        assert!(blocks() < reserved.max(1));
        assert!(holder(dir.path()).is_some(), "the holder's line stays");
    }

    #[test]
    fn force_clears_only_what_a_run_writes() {
        let dir = tempfile::tempdir().unwrap();
        for file in
            ["run.json", "games.csv.gz", "report.html", "summary.csv.tmp", "ratings.csv", "timing.csv", "config.toml"]
        {
            std::fs::write(dir.path().join(file), "x").unwrap();
        }
        std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
        let refused = prepare(dir.path(), false).unwrap_err().to_string();
        assert!(refused.contains("already holds a run (config.toml, games.csv.gz, ratings.csv"), "{refused}");
        assert!(!refused.contains("notes.txt"), "{refused}");
        drop(prepare(dir.path(), true).unwrap());
        let left: Vec<_> = dir.path().read_dir().unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["notes.txt"], "--force removed the run's files and kept the others");
    }

    #[test]
    fn a_folder_of_files_no_run_writes_holds_no_run() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["README.md", ".gitignore", "notes.txt"] {
            std::fs::write(dir.path().join(file), "mine").unwrap();
        }
        std::fs::create_dir(dir.path().join("plots")).unwrap();
        drop(prepare(dir.path(), false).unwrap());
        assert_eq!(dir.path().read_dir().unwrap().count(), 4, "nothing removed");
    }
}
