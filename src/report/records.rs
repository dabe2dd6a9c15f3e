//! records.jsonl: every game's move-by-move record, one JSON object a line in game order beside
//! games.csv (`arena run --records moves`; docs/book/src/records.md). The game writes the middle
//! of the line while it plays ([`GameLog`](crate::core::record::GameLog)); this module puts the
//! game's place and result around it and
//! reads the lines back.
//!
//! ```text
//! {"v":1,"pairing":0,"game":0,"seats":["rr","call"],"deal":{…},"events":[[0,"raise 300"],"flop Ah Kd 2c",…],
//!  "end":{…},"status":"ok","payoffs":[100,-100],"places":[1,2]}
//! ```

use std::path::Path;

use serde::Deserialize;

use crate::core::json_out::Json;
use crate::core::record::{Ending, Event};
use crate::core::schedule::Job;
use crate::core::{GameRecord, Status};
use crate::error::{Error, Result};
use crate::report::games::{push_payoff, read_text_checked};

/// The records file of a run folder.
pub const FILE: &str = "records.jsonl";
/// The same, compressed (`--records moves-gz`).
pub const FILE_GZ: &str = "records.jsonl.gz";
/// The format's version: the `v` every line starts with. A reader refuses a version it does not
/// know.
pub const VERSION: u32 = 1;

/// How a run's games become records.jsonl lines ([`LineFormat::line`]): the bots' names are
/// escaped as JSON strings once, not at every game (as games.csv's `RowFormat` does).
#[derive(Clone, Debug)]
pub struct LineFormat {
    names: Vec<Vec<u8>>,
}

impl LineFormat {
    /// `names[bot]` names the bots.
    pub fn new(names: &[String]) -> LineFormat {
        LineFormat { names: names.iter().map(|name| serde_json::to_vec(name).expect("a name serialises")).collect() }
    }

    /// Appends game `job`'s records.jsonl line (newline included) to `out`; `job.lineup[seat]`
    /// seats the bots.
    pub fn line(&self, job: &Job, record: &GameRecord, out: &mut Vec<u8>) {
        write_line(out, job, &self.names, record);
    }
}

fn write_line(out: &mut Vec<u8>, job: &Job, names: &[Vec<u8>], record: &GameRecord) {
    // The version's digit written with the keys around it, in one copy.
    const _: () = assert!(VERSION == 1, "the line's start writes version 1");
    out.extend_from_slice(b"{\"v\":1,\"pairing\":");
    job.pairing.json(out);
    out.extend_from_slice(b",\"game\":");
    job.game.json(out);
    out.extend_from_slice(b",\"seats\":[");
    for (seat, &bot) in job.lineup.iter().enumerate() {
        if seat > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&names[bot]);
    }
    out.extend_from_slice(b"],");
    if record.log.body.is_empty() {
        // The game's own code failed before its record was whole.
        out.extend_from_slice(b"\"deal\":null,\"events\":[],\"end\":null");
    } else {
        out.extend_from_slice(&record.log.body);
    }
    out.extend_from_slice(b",\"status\":");
    match &record.status {
        Status::Ok => out.extend_from_slice(b"\"ok\""),
        Status::Forfeit { seat, reason } => {
            let forfeit =
                ForfeitOut { seat: *seat, at: record.log.events, kind: reason.kind.name(), reason: reason.reason() };
            serde_json::to_writer(&mut *out, &StatusOut::Forfeit(forfeit)).expect("a status serialises");
        }
        Status::Error(message) => {
            serde_json::to_writer(&mut *out, &StatusOut::Error(message)).expect("a status serialises")
        }
    }
    out.extend_from_slice(b",\"payoffs\":[");
    for (seat, result) in record.seats.iter().enumerate() {
        if seat > 0 {
            out.push(b',');
        }
        push_payoff(out, result.payoff);
        out.pop(); // its comma
    }
    out.extend_from_slice(b"],\"places\":[");
    for (seat, result) in record.seats.iter().enumerate() {
        if seat > 0 {
            out.push(b',');
        }
        result.place.json(out);
    }
    out.extend_from_slice(b"]}\n");
}

#[derive(serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum StatusOut<'a> {
    Forfeit(ForfeitOut<'a>),
    Error(&'a str),
}

#[derive(serde::Serialize)]
struct ForfeitOut<'a> {
    seat: usize,
    /// The events before the fault: the forfeit came at event `at + 1`.
    at: u32,
    kind: &'a str,
    reason: &'a str,
}

/// One line of records.jsonl as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordLine {
    /// The table of the game.
    pub pairing: usize,
    /// The game's index within its pairing.
    pub game: u64,
    /// The line, without its newline.
    pub text: String,
    /// The byte offset just after the line's newline.
    pub end: u64,
}

/// A records file read back: its whole lines in file order (a last line without its newline was
/// being written when the run died, and is left out).
pub fn read(path: &Path) -> Result<Vec<RecordLine>> {
    read_checked(path).map(|(lines, _)| lines)
}

/// [`read`], and where a compressed file's stream breaks, if it does: a sentence naming the
/// last whole game before the break (the lines are those that came out whole before it).
pub fn read_checked(path: &Path) -> Result<(Vec<RecordLine>, Option<String>)> {
    let (bytes, broken) = read_text_checked(path)?;
    let lines = lines_of(path, &bytes)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let broken = broken.map(|why| match lines.last() {
        Some(l) => format!(
            "{name} breaks after line {} (pairing {} game {}), the last whole game: {why}",
            lines.len(),
            l.pairing,
            l.game
        ),
        None => format!("{name} breaks before its first game: {why}"),
    });
    Ok((lines, broken))
}

fn lines_of(path: &Path, bytes: &[u8]) -> Result<Vec<RecordLine>> {
    let mut lines = Vec::new();
    let mut start = 0;
    while let Some(len) = bytes[start..].iter().position(|&b| b == b'\n') {
        let text = std::str::from_utf8(&bytes[start..start + len])
            .map_err(|_| Error::input(format!("{}: line {} is not UTF-8", path.display(), lines.len() + 1)))?;
        let place: Place = serde_json::from_str(text).map_err(|e| {
            Error::input(format!("{}: line {} is not a game record: {e}", path.display(), lines.len() + 1))
        })?;
        if place.v != VERSION {
            return Err(Error::input(format!(
                "{}: line {} is a version {} record; this arena reads version {VERSION}",
                path.display(),
                lines.len() + 1,
                place.v
            )));
        }
        start += len + 1;
        lines.push(RecordLine { pairing: place.pairing, game: place.game, text: text.to_string(), end: start as u64 });
    }
    Ok(lines)
}

/// The fields that place a line in its run.
#[derive(Deserialize)]
struct Place {
    v: u32,
    pairing: usize,
    game: u64,
}

/// A record's line read whole.
#[derive(Clone, Debug, Deserialize)]
pub struct Recorded {
    /// The table of the game.
    pub pairing: usize,
    /// The game's index within its pairing.
    pub game: u64,
    /// The bot in each seat, by name.
    pub seats: Vec<String>,
    /// The deal, the actions and the chance events, in order.
    pub events: Vec<Event>,
    /// How the game ended.
    pub status: StatusIn,
    /// Every seat's payoff, by seat.
    pub payoffs: Vec<f64>,
    /// Every seat's place (1 best), by seat.
    pub places: Vec<u32>,
}

/// A record's `status`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum StatusIn {
    /// `"ok"`.
    Word(String),
    /// A seat forfeited.
    Forfeit {
        /// Who forfeited, when and why.
        forfeit: ForfeitIn,
    },
    /// The game's own code panicked (an engine error).
    Error {
        /// The panic's message.
        error: String,
    },
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
/// A forfeit as a record writes it.
pub struct ForfeitIn {
    /// The seat that forfeited.
    pub seat: usize,
    /// The number of the action at which it forfeited.
    pub at: u32,
    /// The fault's kind (`illegal`, `timeout`, ...).
    pub kind: String,
    /// Why, in words.
    pub reason: String,
}

impl Recorded {
    /// Reads one line of records.jsonl; an error says why it is not a record.
    pub fn parse(text: &str) -> Result<Recorded> {
        serde_json::from_str(text).map_err(|e| Error::input(format!("not a game record: {e}")))
    }

    /// How the game ended as playing it back can check; `None` for a game whose own code failed
    /// (it has no result to check).
    pub fn ending(&self) -> Option<Ending> {
        match &self.status {
            StatusIn::Forfeit { forfeit } => Some(Ending::Forfeit(forfeit.seat)),
            StatusIn::Error { .. } => None,
            StatusIn::Word(_) => Some(Ending::Over),
        }
    }
}
