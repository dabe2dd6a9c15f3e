//! The league's database: one SQLite file that several `arena league add` at once may write (CI
//! jobs finishing together). It is opened in WAL mode (readers never wait for a writer) with a
//! busy timeout, and every write is one immediate transaction: a second writer waits for the
//! first instead of failing. The schema's version is SQLite's `user_version`; a file of an older
//! version is brought up to date by the migrations in order, one of a newer version is refused.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::{Error, Result};

/// How long a writer waits for another one before it gives up: a million-game import takes
/// seconds, and eight CI jobs may queue behind each other.
const BUSY: Duration = Duration::from_secs(600);

/// The schema, one step a version: `MIGRATIONS[k]` takes a file from version k to k + 1. A new
/// version appends a step; a step is never changed once released.
const MIGRATIONS: &[&str] = &[
    // 1: runs, the bots' versions, every game's seats, and each folder added.
    "CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,        -- the config's hash and the bots' versions
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        seed INTEGER NOT NULL,
        config_hash TEXT NOT NULL,
        tool_commit TEXT NOT NULL,
        started TEXT NOT NULL
    );
    CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,           -- a label, or the tool's commit and the parameters' hash
        kind TEXT NOT NULL,
        params TEXT NOT NULL,            -- JSON
        first_started TEXT NOT NULL,     -- the earliest run it played in: orders the versions
        UNIQUE (game, name, version)
    );
    CREATE TABLE results (
        run INTEGER NOT NULL REFERENCES runs(id),
        pairing INTEGER NOT NULL,
        game INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        bot INTEGER NOT NULL REFERENCES bots(id),
        payoff REAL NOT NULL,
        place INTEGER NOT NULL,
        PRIMARY KEY (run, pairing, game, seat)
    ) WITHOUT ROWID;
    CREATE TABLE imports (
        id INTEGER PRIMARY KEY,
        run INTEGER NOT NULL REFERENCES runs(id),
        folder TEXT NOT NULL,
        shard TEXT,
        games_read INTEGER NOT NULL,
        games_new INTEGER NOT NULL,
        added TEXT NOT NULL
    );",
];

/// The schema version this build writes.
pub(crate) const SCHEMA: u32 = MIGRATIONS.len() as u32;

/// An open league file.
pub(crate) struct League {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
}

impl League {
    /// Opens the league at `path`, creating it when `create` (for `add`); a missing file is
    /// refused otherwise. The schema is brought up to date.
    pub(crate) fn open(path: &Path, create: bool) -> Result<League> {
        if !create && !path.is_file() {
            return Err(Error::input(format!(
                "no league at {} (`arena league add {} RUN...` makes one)",
                path.display(),
                path.display()
            )));
        }
        let conn = Connection::open(path).map_err(|e| sql(path, e))?;
        let mut league = League { conn, path: path.to_path_buf() };
        league.conn.busy_timeout(BUSY).map_err(|e| sql(path, e))?;
        // WAL: readers see the last commit while a writer writes; one writer at a time.
        let mode: String =
            league.conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0)).map_err(|e| sql(path, e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(Error::input(format!("{}: the league needs WAL mode, SQLite gave {mode}", path.display())));
        }
        league.conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON").map_err(|e| sql(path, e))?;
        league.migrate()?;
        Ok(league)
    }

    /// Applies the migrations the file lacks, in one immediate transaction (two processes opening
    /// a new file at once: the second finds it done).
    fn migrate(&mut self) -> Result<()> {
        let path = self.path.clone();
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(|e| sql(&path, e))?;
        let version: u32 = tx.query_row("PRAGMA user_version", [], |row| row.get(0)).map_err(|e| sql(&path, e))?;
        if version > SCHEMA {
            return Err(Error::input(format!(
                "{}: a league of schema {version}, written by a newer arena (this one reads up to {SCHEMA})",
                path.display()
            )));
        }
        for (k, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(step).map_err(|e| sql(&path, e))?;
            tx.pragma_update(None, "user_version", k as u32 + 1).map_err(|e| sql(&path, e))?;
        }
        tx.commit().map_err(|e| sql(&path, e))
    }
}

/// A database error as the one line of a bad input: the file and SQLite's reason (`file is not a
/// database`).
pub(crate) fn sql(path: &Path, e: rusqlite::Error) -> Error {
    Error::input(format!("{}: {e}", path.display()))
}
