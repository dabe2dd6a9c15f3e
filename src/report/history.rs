//! The history of the gate's verdicts (`arena gate --history FILE`): one row per criterion of
//! every expectation, appended run after run, read back by `arena report --history FILE`. The
//! file is CSV (`.csv`, a header first) or JSON lines (`.jsonl`), chosen by its name; rows are
//! only ever appended, never rewritten, so the file can live in a CI cache for years.
//!
//! Appending takes an exclusive `flock` on the file itself and writes every row of one gate in a
//! single `write`: two gates appending at once (two CI jobs sharing a cache) never interleave
//! partial rows, and a new or empty CSV file gets its header exactly once.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::path::Path;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::core::limits::BoundedLines;
use crate::error::{one_line, shown, Error, Result};

/// The columns of a CSV history, in order: its header.
pub const COLUMNS: [&str; 13] = [
    "commit",
    "date",
    "expectation",
    "criterion",
    "model",
    "bot",
    "seed",
    "games",
    "estimate",
    "lo",
    "hi",
    "bound",
    "verdict",
];

/// How a history file is written, from its name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One CSV row a criterion (`.csv`).
    Csv,
    /// One JSON object a line (`.jsonl`).
    JsonLines,
}

impl Format {
    /// The format `path` names by its extension: `.csv` or `.jsonl`; anything else is refused.
    pub fn of(path: &Path) -> Result<Format> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Ok(Format::Csv),
            Some("jsonl") => Ok(Format::JsonLines),
            _ => Err(Error::input(format!(
                "{}: a history file's name ends in .csv or .jsonl (its format)",
                path.display()
            ))),
        }
    }
}

/// A criterion's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The criterion held.
    Pass,
    /// The criterion did not hold: the bot got weaker.
    Fail,
}

/// One criterion of one expectation at one commit: what the gate judged, with enough to redraw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryRow {
    /// The commit judged (`--commit`, `$ARENA_COMMIT`, `git rev-parse --short HEAD`, `unknown`).
    pub commit: String,
    /// When (`--date`, `$ARENA_DATE`, else now in UTC, RFC 3339).
    pub date: String,
    /// The expectation's name in the gate file.
    pub expectation: String,
    /// The gate file's key: `win_rate_lo`, `payoff_lo`, `elo_lo`, `payoff_diff_lo`, `sprt`,
    /// `baseline`.
    pub criterion: String,
    /// What the estimate is: `win rate`, `payoff bb/100` (payoffs in the game's verdict unit),
    /// `elo (pentanomial)`, `payoff diff bb/100 (aivat)`, `sprt logistic [0, 40] Elo` (an LLR),
    /// `score`.
    pub model: String,
    /// The bot judged.
    pub bot: String,
    /// The run's master seed and the games it played.
    pub seed: u64,
    /// Games the run played.
    pub games: u64,
    /// The estimate and its 95% interval (`lo == hi == estimate` for an SPRT's LLR and a
    /// baseline's score, which have none). Infinite ends are written `inf`/`-inf`.
    #[serde(serialize_with = "number", deserialize_with = "read_number")]
    pub estimate: f64,
    #[serde(serialize_with = "number", deserialize_with = "read_number")]
    /// The 95% interval's lower end.
    pub lo: f64,
    #[serde(serialize_with = "number", deserialize_with = "read_number")]
    /// The 95% interval's upper end.
    pub hi: f64,
    /// The bound the judged figure had to reach (for an SPRT, the LLR's upper bound).
    #[serde(serialize_with = "number", deserialize_with = "read_number")]
    pub bound: f64,
    /// Whether the criterion held.
    pub verdict: Outcome,
}

/// A number as the run's files write it: finite as itself, infinities as `inf`/`-inf`, NaN empty
/// (JSON: null), the only forms both CSV and JSON read back.
fn number<S: Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    crate::report::export::Figure(*x).serialize(s)
}

/// The inverse of [`number`]: a number, `inf`/`-inf`, or empty/null (NaN).
fn read_number<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    struct Number;
    impl Visitor<'_> for Number {
        type Value = f64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number, inf or -inf")
        }
        fn visit_f64<E: de::Error>(self, x: f64) -> std::result::Result<f64, E> {
            Ok(x)
        }
        fn visit_i64<E: de::Error>(self, x: i64) -> std::result::Result<f64, E> {
            Ok(x as f64)
        }
        fn visit_u64<E: de::Error>(self, x: u64) -> std::result::Result<f64, E> {
            Ok(x as f64)
        }
        fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<f64, E> {
            parse_number(s).ok_or_else(|| E::invalid_value(de::Unexpected::Str(s), &self))
        }
        fn visit_none<E: de::Error>(self) -> std::result::Result<f64, E> {
            Ok(f64::NAN)
        }
        fn visit_unit<E: de::Error>(self) -> std::result::Result<f64, E> {
            Ok(f64::NAN)
        }
    }
    d.deserialize_any(Number)
}

/// A number as [`number`] writes it in CSV: empty for NaN, `inf`/`-inf`, or a finite number.
fn parse_number(s: &str) -> Option<f64> {
    match s {
        "" => Some(f64::NAN),
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        _ => s.parse().ok().filter(|x: &f64| x.is_finite()),
    }
}

/// The CSV header line.
fn header() -> String {
    COLUMNS.join(",") + "\n"
}

/// `rows` as the bytes appended to a file of `format` (the CSV header first when `header`).
fn encode(format: Format, rows: &[HistoryRow], header_first: bool) -> Vec<u8> {
    match format {
        Format::Csv => {
            let mut out = csv::WriterBuilder::new().has_headers(header_first).from_writer(Vec::new());
            rows.iter().for_each(|r| out.serialize(r).expect("a history row serialises"));
            out.into_inner().expect("writing to memory")
        }
        Format::JsonLines => rows
            .iter()
            .flat_map(|r| {
                let mut line = serde_json::to_vec(r).expect("a history row serialises");
                line.push(b'\n');
                line
            })
            .collect(),
    }
}

/// Appends `rows` to the history file `path` (made if missing) in its format: under an
/// exclusive lock on the file, in one write; a CSV file that is new or empty gets the header,
/// one that is not must already start with it (a history of another shape is refused, not
/// appended to).
pub fn append(path: &Path, rows: &[HistoryRow]) -> Result<()> {
    let format = Format::of(path)?;
    let mut file =
        OpenOptions::new().append(true).read(true).create(true).open(path).map_err(|e| Error::bad_path(path, e))?;
    lock(&file);
    let io = |e| Error::io(path, e);
    let len = file.metadata().map_err(io)?.len();
    if format == Format::Csv && len > 0 {
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        csv_header_is_ours(path, &mut file)?;
    }
    // A file whose last line is cut (an append that crashed, an editor that drops the final
    // newline) gets its line ended first, so the new rows never glue onto it.
    let mut bytes = Vec::new();
    if len > 0 {
        let mut last = [0u8];
        file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
        file.read_exact(&mut last).map_err(io)?;
        if last[0] != b'\n' {
            bytes.push(b'\n');
        }
    }
    bytes.extend(encode(format, rows, format == Format::Csv && len == 0));
    // Append mode: the write lands at the end whatever the reads above left the offset at.
    file.write_all(&bytes).map_err(io)
}

/// Refuses, before a gate plays, a history it could not append to: a name of another format, or
/// a CSV file whose first line is not the header.
pub fn check(path: &Path) -> Result<()> {
    if Format::of(path)? == Format::Csv {
        if let Ok(mut file) = std::fs::File::open(path) {
            csv_header_is_ours(path, &mut file)?;
        }
    }
    Ok(())
}

/// Whether the CSV history `file` (at its start) is empty or starts with the header.
fn csv_header_is_ours(path: &Path, file: &mut impl Read) -> Result<()> {
    let mut first = Vec::new();
    file.take(header().len() as u64).read_to_end(&mut first).map_err(|e| Error::io(path, e))?;
    if first.is_empty() || first == header().as_bytes() {
        return Ok(());
    }
    Err(Error::input(format!("{}:1: not a history's header (expected `{}`)", path.display(), COLUMNS.join(","))))
}

/// Waits for an exclusive lock on `file`, released when it is closed: a second gate appending
/// waits its turn. Where the filesystem has no locks, goes on without one: the single append
/// that follows is still whole on a local filesystem.
fn lock(file: &std::fs::File) {
    // SAFETY: flock on a descriptor we own.
    while unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return;
        }
    }
}

/// The rows of the history file `path`, in file order; a file that does not parse is refused
/// with its name and the line at fault.
pub fn read(path: &Path) -> Result<Vec<HistoryRow>> {
    let format = Format::of(path)?;
    // Said as a missing run folder is (`check_run_folder`): what is missing, and what writes it.
    if !path.exists() {
        return Err(Error::input(format!(
            "no gate history at {} (no such file: `arena gate GATE --history FILE` writes it)",
            path.display()
        )));
    }
    // Streamed, a row at a time: a history grows by every gate, with no bound on its size.
    let file = std::fs::File::open(path).map_err(|e| Error::bad_path(path, e))?;
    if !file.metadata().map_err(|e| Error::bad_path(path, e))?.is_file() {
        return Err(Error::input(format!("{} is not a regular file", path.display())));
    }
    let mut input = BoundedLines::new(BufReader::new(file));
    let at = |line: u64, what: &str| Error::input(format!("{}:{line}: {}", path.display(), one_line(what)));
    match format {
        Format::Csv => {
            // Flexible: a row of the wrong length is this reader's error, named with its line.
            let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(input);
            let headers = reader.headers().map_err(|e| at(1, &e.to_string()))?;
            if headers.iter().ne(COLUMNS) {
                return Err(at(1, &format!("not a history's header (expected `{}`)", COLUMNS.join(","))));
            }
            reader
                .records()
                .map(|record| {
                    let line = |r: &csv::StringRecord| r.position().map_or(0, |p| p.line());
                    let record = record.map_err(|e| at(e.position().map_or(0, |p| p.line()), &e.to_string()))?;
                    from_record(&record).map_err(|why| at(line(&record), &why))
                })
                .collect()
        }
        Format::JsonLines => {
            let (mut rows, mut line, mut number) = (Vec::new(), Vec::new(), 0);
            loop {
                line.clear();
                number += 1;
                match input.read_until(b'\n', &mut line) {
                    Ok(0) => return Ok(rows),
                    Ok(_) if line.trim_ascii().is_empty() => {}
                    Ok(_) => rows.push(serde_json::from_slice(&line).map_err(|e| at(number, &e.to_string()))?),
                    Err(e) => return Err(at(number, &e.to_string())),
                }
            }
        }
    }
}

/// A CSV row, each cell checked for its column: the column at fault is named (serde's errors
/// from a field's own parser do not say which field).
fn from_record(r: &csv::StringRecord) -> std::result::Result<HistoryRow, String> {
    if r.len() != COLUMNS.len() {
        return Err(format!("{} fields where the header has {}", r.len(), COLUMNS.len()));
    }
    let bad = |i: usize, what: &str| format!("column `{}`: {} is not {what}", COLUMNS[i], shown(&r[i]));
    let count = |i: usize| r[i].parse::<u64>().map_err(|_| bad(i, "a count"));
    let number = |i: usize| parse_number(&r[i]).ok_or_else(|| bad(i, "a number, inf or -inf"));
    let verdict = match &r[12] {
        "pass" => Outcome::Pass,
        "fail" => Outcome::Fail,
        _ => return Err(bad(12, "pass or fail")),
    };
    Ok(HistoryRow {
        commit: r[0].to_string(),
        date: r[1].to_string(),
        expectation: r[2].to_string(),
        criterion: r[3].to_string(),
        model: r[4].to_string(),
        bot: r[5].to_string(),
        seed: count(6)?,
        games: count(7)?,
        estimate: number(8)?,
        lo: number(9)?,
        hi: number(10)?,
        bound: number(11)?,
        verdict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(commit: &str, estimate: f64, verdict: Outcome) -> HistoryRow {
        HistoryRow {
            commit: commit.into(),
            date: "2026-01-02T03:04:05Z".into(),
            expectation: "a, \"quoted\" name".into(),
            criterion: "elo_lo".into(),
            model: "elo (pentanomial)".into(),
            bot: "weights".into(),
            seed: 11,
            games: 200,
            estimate,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            bound: 100.0,
            verdict,
        }
    }

    #[test]
    fn both_formats_read_back_what_they_append_and_csv_writes_its_header_once() {
        let dir = tempfile::TempDir::new().unwrap();
        for name in ["h.csv", "h.jsonl"] {
            let path = dir.path().join(name);
            append(&path, &[row("a1", 150.5, Outcome::Pass)]).unwrap();
            append(&path, &[row("b2", 80.0, Outcome::Fail), row("b2", 90.0, Outcome::Fail)]).unwrap();
            let back = read(&path).unwrap();
            assert_eq!(back.len(), 3, "{name}");
            assert_eq!(back[0], row("a1", 150.5, Outcome::Pass), "{name}");
            assert_eq!(back[2], row("b2", 90.0, Outcome::Fail), "{name}");
            let text = std::fs::read_to_string(&path).unwrap();
            let headers = if name.ends_with("csv") { 1 } else { 0 };
            assert_eq!(text.matches("commit,date").count(), headers, "{name}");
        }
    }

    #[test]
    fn other_names_bad_headers_and_bad_rows_are_refused_with_their_line() {
        let dir = tempfile::TempDir::new().unwrap();
        let err = append(&dir.path().join("h.txt"), &[]).unwrap_err().to_string();
        assert!(err.contains("h.txt: a history file's name ends in .csv or .jsonl"), "{err}");
        let csv = dir.path().join("h.csv");
        std::fs::write(&csv, "commit,when\n").unwrap();
        assert!(read(&csv).unwrap_err().to_string().ends_with("h.csv:1: not a history's header (expected `commit,date,expectation,criterion,model,bot,seed,games,estimate,lo,hi,bound,verdict`)"));
        assert!(append(&csv, &[row("a", 1.0, Outcome::Pass)])
            .unwrap_err()
            .to_string()
            .contains("h.csv:1: not a history's header"));
        std::fs::write(&csv, header() + "c,d,e,elo_lo,m,b,1,2,3,4,5,6,pass\nc,d,e,elo_lo,m,b,1,2,x,4,5,6,pass\n")
            .unwrap();
        let err = read(&csv).unwrap_err().to_string();
        assert!(err.contains("h.csv:3: column `estimate`"), "{err}");
        std::fs::write(&csv, header() + "c,d,e,elo_lo,m,b,1,2,3,4,5,6,maybe\n").unwrap();
        assert!(read(&csv).unwrap_err().to_string().contains("h.csv:2: column `verdict`"));
        let jsonl = dir.path().join("h.jsonl");
        append(&jsonl, &[row("a", 1.0, Outcome::Pass)]).unwrap();
        std::fs::write(&jsonl, std::fs::read_to_string(&jsonl).unwrap() + "{\"commit\": 3}\n").unwrap();
        assert!(read(&jsonl).unwrap_err().to_string().contains("h.jsonl:2: "));
    }
}
