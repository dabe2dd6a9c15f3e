//! games.csv: the writer that streams it and the reader that reads it back (for resume and
//! `arena stats --run`), side by side so the two agree on every column.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};

use crate::core::luck::{Terms, LUCK_COLUMNS, START_COLUMN};
use crate::core::schedule::{Job, Lineup};
use crate::core::wire::Texts;
use crate::core::{Adjusted, Fault, FaultKind, GameRecord, PerSeat, SeatResult, Status};
use crate::error::{Error, Result};

/// The fixed columns of games.csv; the game's own columns follow.
pub const GAME_COLUMNS: &[&str] = &["pairing", "game", "seed", "seat", "bot", "payoff", "place", "moves", "status"];

/// The `status` of a seat that did not forfeit, in a game someone else forfeited.
const OPPONENT_FORFEIT: &str = "opponent forfeit";
/// The `status` of the seat that forfeited starts with this; the reason follows.
const FORFEIT: &str = "forfeit: ";
/// The `status` of every seat of a game whose own code panicked starts with this; the message
/// follows. Such a game has no payoff and no place.
const ERROR: &str = "error: ";

/// How a run keeps its games (`arena run --records`): games.csv, the same compressed as
/// games.csv.gz (which pandas and R read as they are), either with the move-by-move record of every
/// game beside it (records.jsonl, records.jsonl.gz: docs/book/src/records.md), or no per-game file at all
/// (the summary, match and rating files and run.json are written either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Records {
    #[default]
    /// games.csv (the default).
    Csv,
    /// games.csv.gz.
    Gz,
    /// games.csv and records.jsonl.
    Moves,
    /// games.csv.gz and records.jsonl.gz.
    MovesGz,
    /// No per-game file.
    None,
}

impl Records {
    /// Every choice, in `--records`' order.
    pub const ALL: [Records; 5] = [Records::Csv, Records::Gz, Records::Moves, Records::MovesGz, Records::None];

    /// The games file of the run folder `dir`: an error when the run keeps none.
    pub fn path_in(self, dir: &Path) -> Result<PathBuf> {
        self.file().map(|file| dir.join(file)).ok_or_else(|| {
            Error::input(format!(
                "{}: the run kept no games (--records none), so it cannot be resumed, merged or read game by game; \
                 its summary.csv and match.csv hold its results",
                dir.display()
            ))
        })
    }

    /// The file of the games in a run folder, `None` when the run keeps none.
    pub fn file(self) -> Option<&'static str> {
        match self {
            Records::Csv | Records::Moves => Some("games.csv"),
            Records::Gz | Records::MovesGz => Some("games.csv.gz"),
            Records::None => None,
        }
    }

    /// The file of the move-by-move records, `None` when the run keeps none.
    pub fn moves_file(self) -> Option<&'static str> {
        match self {
            Records::Moves => Some(crate::report::records::FILE),
            Records::MovesGz => Some(crate::report::records::FILE_GZ),
            _ => None,
        }
    }

    /// Whether the run's files are compressed (and so written anew, not continued, on resume).
    pub fn gz(self) -> bool {
        matches!(self, Records::Gz | Records::MovesGz)
    }

    /// Every file this way of keeping games writes.
    pub fn files(self) -> impl Iterator<Item = &'static str> {
        self.file().into_iter().chain(self.moves_file())
    }

    /// The name `--records` takes.
    pub fn name(self) -> &'static str {
        match self {
            Records::Csv => "csv",
            Records::Gz => "gz",
            Records::Moves => "moves",
            Records::MovesGz => "moves-gz",
            Records::None => "none",
        }
    }

    /// Whether the games go to a plain games.csv (the only file a run can append to in place).
    pub fn is_csv(&self) -> bool {
        *self == Records::Csv
    }
}

/// Where games.csv's bytes go: the file, or a gzip stream into it.
enum Sink {
    Plain(BufWriter<File>),
    /// The rows are gathered before they are compressed: the compressor pays per write.
    Gz(BufWriter<GzEncoder<BufWriter<File>>>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Plain(w) => w.write(buf),
            Sink::Gz(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Plain(w) => w.flush(),
            Sink::Gz(w) => w.flush(),
        }
    }
}

/// Writes games.csv, one row per seat per game, in the order games are given.
pub struct GamesWriter {
    out: Sink,
    path: PathBuf,
    /// Where [`GamesWriter::write`] formats a game's rows.
    rows: Vec<u8>,
}

impl GamesWriter {
    /// A new games file with its header; `gz`: compressed (games.csv.gz).
    pub fn create(path: &Path, extra: &[&str], gz: bool) -> Result<GamesWriter> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        let mut w = GamesWriter::over(file, path, gz);
        let mut header = Vec::new();
        GAME_COLUMNS.iter().chain(extra).for_each(|name| push_field(&mut header, name.as_bytes()));
        end_row(&mut header);
        w.write_rows(&header)?;
        Ok(w)
    }

    /// Continues games.csv after its first `keep` bytes (the rest is cut off); with nothing to
    /// keep, starts it anew. (A compressed file is not continued: resume writes it anew.)
    pub fn append(path: &Path, extra: &[&str], keep: u64) -> Result<GamesWriter> {
        if keep == 0 {
            return GamesWriter::create(path, extra, false);
        }
        let io = |e| Error::io(path, e);
        let mut file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(keep).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(GamesWriter::over(file, path, false))
    }

    /// A new file of lines with no header (records.jsonl); `gz`: compressed.
    pub fn create_lines(path: &Path, gz: bool) -> Result<GamesWriter> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        Ok(GamesWriter::over(file, path, gz))
    }

    /// Continues a file of lines after its first `keep` bytes (the rest is cut off), creating it
    /// when it is missing.
    pub fn append_lines(path: &Path, keep: u64) -> Result<GamesWriter> {
        let io = |e| Error::io(path, e);
        let mut file = OpenOptions::new().write(true).create(true).truncate(false).open(path).map_err(io)?;
        file.set_len(keep).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(GamesWriter::over(file, path, false))
    }

    fn over(file: File, path: &Path, gz: bool) -> GamesWriter {
        let file = BufWriter::with_capacity(1 << 16, file);
        let out = match gz {
            true => Sink::Gz(BufWriter::with_capacity(1 << 16, GzEncoder::new(file, Compression::fast()))),
            false => Sink::Plain(file),
        };
        GamesWriter { out, path: path.to_path_buf(), rows: Vec::new() }
    }

    /// Writes the rows of one game in `format`; `job.lineup[seat]` seats the bots.
    pub fn write(&mut self, job: &Job, format: &RowFormat, record: &GameRecord) -> Result<()> {
        let mut rows = std::mem::take(&mut self.rows);
        rows.clear();
        format.rows(job, record, &mut rows);
        let written = self.write_rows(&rows);
        self.rows = rows;
        written
    }

    /// Writes rows [`RowFormat::rows`] made (a run's workers format each game as it is played, so
    /// that writing is copying bytes in order).
    pub fn write_rows(&mut self, rows: &[u8]) -> Result<()> {
        self.out.write_all(rows).map_err(|e| Error::io(&self.path, e))
    }

    /// The file written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes out the rows written so far (whole games, as they were given) and syncs them to the
    /// disk; a compressed stream is flushed so that everything so far decompresses.
    pub fn flush(&mut self) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        self.out.flush().map_err(io)?;
        let file = match &self.out {
            Sink::Plain(file) => file.get_ref(),
            Sink::Gz(rows) => rows.get_ref().get_ref().get_ref(),
        };
        file.sync_data().map_err(io)
    }

    /// Writes out everything written so far, syncs it to the disk and closes the file (a
    /// compressed one with its trailer).
    pub fn finish(self) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        let file = match self.out {
            Sink::Plain(file) => file,
            Sink::Gz(rows) => rows.into_inner().map_err(|e| io(e.into_error()))?.finish().map_err(io)?,
        };
        file.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)
    }
}

/// How a run's games become games.csv rows (see [`RowFormat::rows`]): the bots' names are escaped
/// once, not at every row.
#[derive(Clone, Debug)]
pub struct RowFormat {
    /// Each bot's name as a field, with its comma.
    names: Vec<Vec<u8>>,
}

impl RowFormat {
    /// `names[bot]` names the bots.
    pub fn new(names: &[String]) -> RowFormat {
        let names = names
            .iter()
            .map(|name| {
                let mut field = Vec::new();
                push_field(&mut field, name.as_bytes());
                field
            })
            .collect();
        RowFormat { names }
    }

    /// Appends one game's games.csv rows to `out`: one row per seat, `job.lineup[seat]` seating
    /// the bots. Every value goes straight from its type into `out`: no string is built per
    /// field, and what every row of the game starts with (pairing, game, seed) is formatted once.
    /// The bytes are those the csv crate writes for the same fields (a test holds them to it), so
    /// files written before and after read the same.
    pub fn rows(&self, job: &Job, record: &GameRecord, out: &mut Vec<u8>) {
        let mut number = itoa::Buffer::new();
        let mut int = |out: &mut Vec<u8>, n: u64| {
            if n < 10 {
                // Seats, places and most move counts: one digit.
                out.extend_from_slice(&[b'0' + n as u8, b',']);
            } else {
                out.extend_from_slice(number.format(n).as_bytes());
                out.push(b',');
            }
        };
        out.reserve(record.seats.len() * (64 + record.columns.bytes() + record.columns.len()));
        let start = out.len();
        int(out, job.pairing as u64);
        int(out, job.game);
        int(out, record.seed);
        let common = start..out.len();
        // A game with an engine error has no result: its payoffs and places are left empty.
        let errored = matches!(record.status, Status::Error(_));
        for (seat, result) in record.seats.iter().enumerate() {
            if seat > 0 {
                out.extend_from_within(common.clone());
            }
            int(out, seat as u64);
            out.extend_from_slice(&self.names[job.lineup[seat]]);
            if errored {
                out.extend_from_slice(b",,");
            } else {
                push_payoff(out, result.payoff);
                int(out, result.place.into());
            }
            int(out, record.moves.into());
            match &record.status {
                Status::Ok => out.extend_from_slice(b"ok,"),
                Status::Forfeit { seat: s, reason } if *s == seat => {
                    push_field(out, format!("{FORFEIT}{}", reason.reason()).as_bytes())
                }
                Status::Forfeit { .. } => push_field(out, OPPONENT_FORFEIT.as_bytes()),
                Status::Error(message) => {
                    push_field(out, format!("{ERROR}{}", message.replace(['\n', '\r'], " ")).as_bytes())
                }
            }
            for value in record.extra_bytes(seat) {
                push_field(out, value);
            }
            end_row(out);
        }
    }
}

/// Appends a payoff and its comma. Rust prints the shortest text that reads back as the same
/// f64, so the reader recovers every payoff exactly and tallies rebuilt from the file are the
/// same; a whole number (every chip count) is printed as an integer, which is that same text.
pub(crate) fn push_payoff(out: &mut Vec<u8>, payoff: f64) {
    let negative_zero = payoff == 0.0 && payoff.is_sign_negative();
    // Whole: the truncated value converts back to the payoff (NaN does not).
    if payoff.abs() < 1e15 && (payoff as i64) as f64 == payoff && !negative_zero {
        out.extend_from_slice(itoa::Buffer::new().format(payoff as i64).as_bytes());
    } else {
        write!(out, "{payoff}").expect("writing to a Vec cannot fail");
    }
    out.push(b',');
}

/// Appends one field and its comma, quoted (quotes doubled) when it holds a comma, a quote or a
/// line break, as the csv crate does.
fn push_field(out: &mut Vec<u8>, field: &[u8]) {
    if field.iter().any(|&b| QUOTED[b as usize]) {
        out.push(b'"');
        for &b in field {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
    } else {
        out.extend_from_slice(field);
    }
    out.push(b',');
}

/// The bytes that make a field quoted: one look-up a byte.
const QUOTED: [bool; 256] = {
    let mut quoted = [false; 256];
    quoted[b',' as usize] = true;
    quoted[b'"' as usize] = true;
    quoted[b'\n' as usize] = true;
    quoted[b'\r' as usize] = true;
    quoted
};

/// Ends a row: its last comma becomes the line's end.
fn end_row(out: &mut [u8]) {
    debug_assert_eq!(out.last(), Some(&b','));
    *out.last_mut().expect("a row has fields") = b'\n';
}

/// A games (or records) file's text: games.csv as it is; games.csv.gz decompressed, as far as it goes (a run
/// killed while writing it leaves a stream without its end: what decompresses is kept, and the
/// cut row after it is found as in a plain file). An absent file is empty.
pub fn read_text(path: &Path) -> Result<Vec<u8>> {
    read_text_checked(path).map(|(text, _)| text)
}

/// [`read_text`], and for a compressed file the error where its stream breaks (`None`: the
/// stream is whole, or the file is plain or absent): an empty file, one that is not gzip, one cut
/// short or whose trailer (the checksum and length) is missing or wrong.
pub fn read_text_checked(path: &Path) -> Result<(Vec<u8>, Option<String>)> {
    let bytes = match std::fs::read(path) {
        // Killed before the file was created: no game yet.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        read => read.map_err(|e| Error::io(path, e))?,
    };
    if !path.to_string_lossy().ends_with(".gz") {
        return Ok((bytes, None));
    }
    if bytes.is_empty() {
        return Ok((bytes, Some("the file is empty (not even a gzip header)".to_string())));
    }
    let mut text = Vec::with_capacity(bytes.len() * 8);
    // A stream that ends early is an error after what came out, which `read_to_end` keeps: its
    // last row is found cut short as in a plain file.
    let broken = flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut text).err().map(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            "the gzip stream is cut short (its end and checksum are missing)".to_string()
        }
        _ => format!("gzip: {e}"),
    });
    Ok((text, broken))
}

/// The whole games in the games file `path` of `seats`-seat games, without reading them into
/// records (a game is whole once its last seat's row is, newline included): what `arena status`
/// and the refusals count as on disk. A missing file holds none.
pub fn count_games(path: &Path, seats: usize) -> Result<u64> {
    let file = match File::open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        file => file.map_err(|e| Error::io(path, e))?,
    };
    let text: Box<dyn Read> = match path.to_string_lossy().ends_with(".gz") {
        true => Box::new(flate2::read::GzDecoder::new(std::io::BufReader::new(file))),
        false => Box::new(file),
    };
    let mut text = TextEnd { inner: text, last: None, open_quote: false };
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(&mut text);
    let last_seat = seats.saturating_sub(1).to_string();
    let (mut games, mut last_row_whole) = (0, false);
    let mut row = csv::ByteRecord::new();
    // A stream cut short (a killed run's gz, a row cut in a quote) ends the count where it breaks.
    let at_end = loop {
        match reader.read_byte_record(&mut row) {
            Ok(true) => {
                last_row_whole = row.len() >= GAME_COLUMNS.len() && row.get(3) == Some(last_seat.as_bytes());
                games += u64::from(last_row_whole);
            }
            Ok(false) => break true,
            Err(_) => break false,
        }
    };
    drop(reader);
    // At the end of the text, the last row counts only if its newline was written, outside quotes.
    if at_end && last_row_whole && (text.last != Some(b'\n') || text.open_quote) {
        games -= 1;
    }
    Ok(games)
}

/// A reader that remembers how the text it gave ends: its last byte, and whether a quoted field
/// is open (quotes come in pairs in whole rows, doubled ones included).
struct TextEnd<R> {
    inner: R,
    last: Option<u8>,
    open_quote: bool,
}

impl<R: Read> Read for TextEnd<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
            self.open_quote ^= buf[..n].iter().filter(|&&b| b == b'"').count() % 2 == 1;
        }
        Ok(n)
    }
}

/// One game read back from games.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The table the game was played at (index in schedule order).
    pub pairing: usize,
    /// The game's index within its pairing.
    pub game: u64,
    /// The bot in each seat, as indexes into the names the file was read with.
    pub lineup: Lineup,
    /// The record as the tallies need it (no hand history).
    pub record: GameRecord,
    /// The byte offset in the file just after the game's last row.
    pub end: u64,
}

/// What is left at the end of games.csv after its last whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Nothing: the file ends with a whole game.
    Clean,
    /// A row cut in the middle (the writer was killed while writing it), and `rows` whole rows
    /// of a game before it.
    /// A row cut in its middle, after `rows` whole rows of a game.
    CutRow {
        /// Whole rows of the game before the cut one.
        rows: usize,
    },
    /// `rows` whole rows of a game whose other seats were never written.
    /// A game missing some of its seats' rows.
    PartGame {
        /// The rows written.
        rows: usize,
    },
}

/// games.csv read back: its whole games, in file order, and what follows them.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesFile {
    /// The whole games, in file order.
    pub games: Vec<GameRow>,
    /// What follows the last whole game.
    pub tail: Tail,
    /// The byte offset just after the header.
    pub header_end: u64,
}

impl GamesFile {
    /// Reads `path`, a games.csv (or games.csv.gz) of `seats`-seat games among the bots `names`, with the game's
    /// own columns `extra`. A bad header or a bad row in the middle is an error; a last row cut
    /// short or a last game missing seats is reported in [`GamesFile::tail`].
    pub fn read(path: &Path, names: &[String], seats: usize, extra: &[&str]) -> Result<GamesFile> {
        GamesFile::parse(&read_text(path)?, path, names, seats, extra)
    }

    /// [`GamesFile::read`] of `bytes`, the text of `path` (read with `read_text`) when the
    /// caller needs the text too.
    pub fn parse(bytes: &[u8], path: &Path, names: &[String], seats: usize, extra: &[&str]) -> Result<GamesFile> {
        let bad = |what: String| Error::input(format!("{}: {what}", path.display()));
        // Every row the writer finishes ends with a newline: text after the last one is a row
        // that was being written when the run died.
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(&bytes[..whole]);
        let mut row = csv::StringRecord::new();
        let header: Vec<&str> = GAME_COLUMNS.iter().chain(extra).copied().collect();
        if !reader.read_record(&mut row).map_err(|e| bad(e.to_string()))? {
            // Killed before the header was written whole: no game yet.
            let tail = if bytes.is_empty() { Tail::Clean } else { Tail::CutRow { rows: 0 } };
            return Ok(GamesFile { games: Vec::new(), tail, header_end: 0 });
        }
        if row.iter().ne(header.iter().copied()) {
            return Err(bad(format!("the header is not this run's games.csv header ({})", header.join(","))));
        }
        let header_end = reader.position().byte();
        // A run that adjusts its payoffs for luck writes them first among the extra columns.
        let luck = if extra.starts_with(&LUCK_COLUMNS) {
            Luck::Adjusted
        } else if extra.first() == Some(&START_COLUMN) {
            Luck::Start
        } else {
            Luck::None
        };
        let mut file = GamesFile { games: Vec::new(), tail: Tail::Clean, header_end };
        let mut game: Option<GameRow> = None;
        let mut cut = whole < bytes.len();
        loop {
            let read = reader.read_record(&mut row).map_err(|e| e.to_string());
            let line = reader.position().line().saturating_sub(1);
            let added = read.and_then(|more| more.then(|| add_row(&row, names, seats, luck, &mut game)).transpose());
            match added {
                Ok(None) => break,
                Ok(Some(false)) => {}
                Ok(Some(true)) => {
                    let mut g = game.take().expect("a whole game");
                    g.end = reader.position().byte();
                    file.games.push(g);
                }
                // A bad last row is a row cut short (one with a quoted line break can end in a
                // newline); a bad row before it is a damaged file.
                Err(_) if reader.position().byte() >= whole as u64 => {
                    cut = true;
                    break;
                }
                Err(what) => return Err(bad(format!("line {line}: {what}"))),
            }
        }
        let rows = game.map_or(0, |g| g.lineup.len());
        file.tail = match (cut, rows) {
            (true, rows) => Tail::CutRow { rows },
            (false, 0) => Tail::Clean,
            (false, rows) => Tail::PartGame { rows },
        };
        Ok(file)
    }

    /// The byte offset just after the whole games kept (the header when none is).
    pub fn end_of(&self, kept: usize) -> u64 {
        kept.checked_sub(1).map_or(self.header_end, |i| self.games[i].end)
    }
}

/// What a run that takes luck out of its payoffs wrote first among the extra columns.
#[derive(Clone, Copy)]
enum Luck {
    None,
    /// The adjusted payoffs (all-in, AIVAT).
    Adjusted,
    /// The seat's starting strength (covariates).
    Start,
}

/// Adds one row to the game under way (starting one when none is); true when it completes the
/// game.
fn add_row(
    row: &csv::StringRecord,
    names: &[String],
    seats: usize,
    luck: Luck,
    game: &mut Option<GameRow>,
) -> Result<bool, String> {
    let field = |i: usize| row.get(i).unwrap_or_default();
    let int = |i: usize| field(i).parse::<u64>().map_err(|_| format!("`{}` is not a whole number", GAME_COLUMNS[i]));
    let (pairing, index, seed, seat, moves) = (int(0)? as usize, int(1)?, int(2)?, int(3)? as usize, int(7)?);
    // A game with an engine error has no result: empty payoff and place, read as zero.
    let errored = field(8).starts_with(ERROR);
    let payoff: f64 = match field(5) {
        "" if errored => 0.0,
        text => text.parse().map_err(|_| "`payoff` is not a number".to_string())?,
    };
    let place = match field(6) {
        "" if errored => 0,
        _ => u32::try_from(int(6)?).map_err(|_| "`place` is too large".to_string())?,
    };
    let moves = u32::try_from(moves).map_err(|_| "`moves` is too large".to_string())?;
    let bot = names.iter().position(|n| n == field(4)).ok_or_else(|| format!("unknown bot `{}`", field(4)))?;
    let g = game.get_or_insert_with(|| GameRow {
        pairing,
        game: index,
        lineup: Lineup::with_capacity(seats),
        record: GameRecord {
            seed,
            moves,
            status: Status::Ok,
            seats: PerSeat::with_capacity(seats),
            columns: Texts::default(),
            history: None,
            log: Default::default(),
            times: Vec::new(),
            clocks: PerSeat::new(),
            memory: PerSeat::new(),
        },
        end: 0,
    });
    if (g.pairing, g.game, g.record.seed, g.record.moves) != (pairing, index, seed, moves) {
        return Err("a game's rows do not agree on pairing, game, seed and moves".into());
    }
    if seat != g.lineup.len() {
        return Err(format!("seat {seat} out of order"));
    }
    match field(8) {
        "ok" | OPPONENT_FORFEIT => {}
        status => match (status.strip_prefix(FORFEIT), status.strip_prefix(ERROR)) {
            (Some(reason), _) => {
                g.record.status = Status::Forfeit { seat, reason: Fault::new(fault_kind(reason), reason) }
            }
            (_, Some(message)) => g.record.status = Status::Error(message.to_string()),
            _ => return Err(format!("unknown status `{status}`")),
        },
    }
    g.lineup.push(bot);
    row.iter().skip(GAME_COLUMNS.len()).for_each(|value| g.record.columns.push_str(value));
    let number = |i: usize, name: &str| {
        field(GAME_COLUMNS.len() + i).parse::<f64>().map_err(|_| format!("`{name}` is not a number"))
    };
    // An engine error's row has no result, adjusted or not, and no start.
    let (adjusted, start, terms) = match luck {
        _ if errored => (None, None, Terms::default()),
        Luck::None => (None, None, Terms::default()),
        Luck::Adjusted => (
            Some(Adjusted { allin: number(0, LUCK_COLUMNS[0])?, aivat: number(1, LUCK_COLUMNS[1])? }),
            None,
            field(GAME_COLUMNS.len() + 2).parse()?,
        ),
        Luck::Start => (None, Some(number(0, START_COLUMN)?), Terms::default()),
    };
    g.record.seats.push(SeatResult { payoff, place, adjusted, start, terms });
    Ok(g.lineup.len() == seats)
}

/// The kind of a forfeit from the reason games.csv shows (games.csv has no column for it; only the
/// terminal's count of forfeits by kind uses it, never a file).
fn fault_kind(reason: &str) -> FaultKind {
    const BY_PREFIX: &[(&str, FaultKind)] = &[
        // `time …` and `timeout …` (a decision past its clock or limit), as before the kinds grew.
        ("time", FaultKind::Time),
        ("stall", FaultKind::Stall),
        ("memory", FaultKind::Memory),
        ("panic", FaultKind::Panic),
        ("illegal action", FaultKind::Illegal),
        ("bad ", FaultKind::Protocol),
        ("a line over", FaultKind::Protocol),
    ];
    BY_PREFIX.iter().find(|(prefix, _)| reason.starts_with(prefix)).map_or(FaultKind::Crash, |&(_, kind)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::GameSeeds;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::select;

    fn record(seed: u64, status: Status, payoffs: &[f64]) -> GameRecord {
        let seats = payoffs
            .iter()
            .map(|&payoff| SeatResult {
                payoff,
                place: if payoff > 0.0 { 1 } else { 2 },
                adjusted: None,
                start: None,
                terms: Default::default(),
            })
            .collect();
        let mut columns = Texts::default();
        payoffs.iter().for_each(|_| columns.push_str("x,y"));
        GameRecord { seed, moves: 7, status, seats, columns, ..GameRecord::new() }
    }

    fn job(game: u64, lineup: Vec<usize>) -> Job {
        Job { pairing: 0, game, seeds: GameSeeds::derive(1, 0, game, 1), lineup: lineup.into() }
    }

    /// The rows as the csv crate writes the same fields (how games.csv was written before rows
    /// were formatted by hand): the reference [`RowFormat::rows`] is held to.
    fn rows_by_the_csv_crate(job: &Job, names: &[String], record: &GameRecord) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let errored = matches!(record.status, Status::Error(_));
        for (seat, result) in record.seats.iter().enumerate() {
            let mut row = vec![
                job.pairing.to_string(),
                job.game.to_string(),
                record.seed.to_string(),
                seat.to_string(),
                names[job.lineup[seat]].clone(),
            ];
            match errored {
                true => row.extend([String::new(), String::new()]),
                false => row.extend([result.payoff.to_string(), result.place.to_string()]),
            }
            row.push(record.moves.to_string());
            row.push(match &record.status {
                Status::Ok => "ok".to_string(),
                Status::Forfeit { seat: s, reason } if *s == seat => format!("{FORFEIT}{}", reason.reason()),
                Status::Forfeit { .. } => OPPONENT_FORFEIT.to_string(),
                Status::Error(message) => format!("{ERROR}{}", message.replace(['\n', '\r'], " ")),
            });
            row.extend(record.extra(seat).map(str::to_string));
            w.write_record(&row).unwrap();
        }
        w.into_inner().unwrap()
    }

    proptest! {
        #[test]
        fn rows_are_the_bytes_the_csv_crate_writes(
            names in vec("[a-z,\"\n\r x-]{0,6}", 2),
            payoffs in vec(prop_oneof![
                (-100_000i64..100_000).prop_map(|c| c as f64),
                any::<f64>(),
                select(vec![0.0, -0.0, 1e15, -1e15, 1e16, 0.1 + 0.2, f64::MIN_POSITIVE]),
            ], 2..4),
            extra in vec("[a-zA-Z0-9 ,\"\r\n]{0,5}", 8),
            status in 0..4u8,
            reason in "[a-z ,\"\n]{0,12}",
            (pairing, game, seed, moves) in (0..1000usize, any::<u64>(), any::<u64>(), any::<u32>()),
        ) {
            let seats = payoffs.len();
            let status = match status {
                0 => Status::Ok,
                1 => Status::Forfeit { seat: 0, reason: Fault::new(FaultKind::Crash, reason) },
                2 => Status::Forfeit { seat: seats - 1, reason: Fault::new(FaultKind::Time, reason) },
                _ => Status::Error(reason),
            };
            let mut record = GameRecord::new();
            record.seed = seed;
            record.moves = moves;
            record.status = status;
            record.seats = payoffs.iter().enumerate().map(|(i, &payoff)| SeatResult { payoff, place: i as u32, adjusted: None, start: None, terms: Default::default() }).collect();
            (0..seats * 2).for_each(|i| record.columns.push_str(&extra[i]));
            let job = Job { pairing, game, seeds: GameSeeds::derive(1, 0, 0, 1), lineup: (0..seats).map(|s| s % 2).collect() };
            let mut ours = b"kept,".to_vec();
            RowFormat::new(&names).rows(&job, &record, &mut ours);
            let reference = rows_by_the_csv_crate(&job, &names, &record);
            prop_assert_eq!(String::from_utf8_lossy(&ours[5..]), String::from_utf8_lossy(&reference));
        }
    }

    #[test]
    fn reads_back_what_was_written_forfeits_included_and_finds_a_cut_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        let names = vec!["a".to_string(), "b".to_string()];
        let games = [
            (job(0, vec![0, 1]), record(11, Status::Ok, &[0.1 + 0.2, -(0.1 + 0.2)])),
            (
                job(1, vec![1, 0]),
                record(
                    12,
                    Status::Forfeit {
                        seat: 1,
                        reason: Fault::new(FaultKind::Illegal, "illegal action \"x\", twice\nthen"),
                    },
                    &[1.0, -1.0],
                ),
            ),
            (job(2, vec![0, 1]), {
                // An engine error: no payoff and no place (written empty, read back as zero).
                let mut r = record(13, Status::Error("index out of bounds, \"x\"".into()), &[0.0, 0.0]);
                r.seats.iter_mut().for_each(|s| s.place = 0);
                r
            }),
        ];
        let mut w = GamesWriter::create(&path, &["cards"], false).unwrap();
        for (j, r) in &games {
            w.write(j, &RowFormat::new(&names), r).unwrap();
        }
        w.finish().unwrap();
        let file = GamesFile::read(&path, &names, 2, &["cards"]).unwrap();
        assert_eq!(file.tail, Tail::Clean);
        let read: Vec<_> = file.games.iter().map(|g| (g.game, g.lineup.clone(), g.record.clone())).collect();
        let written: Vec<_> = games.iter().map(|(j, r)| (j.game, j.lineup.clone(), r.clone())).collect();
        assert_eq!(read, written);
        let whole = std::fs::read(&path).unwrap();
        assert_eq!(file.end_of(3), whole.len() as u64);

        // Every cut of the file reads as its whole games and a tail, never as an error.
        for len in file.header_end as usize..whole.len() {
            std::fs::write(&path, &whole[..len]).unwrap();
            let cut = GamesFile::read(&path, &names, 2, &["cards"]).unwrap();
            let kept = cut.games.len();
            assert_eq!(cut.games[..], file.games[..kept], "cut at {len}");
            assert!(cut.end_of(kept) <= len as u64);
            assert_eq!(cut.tail == Tail::Clean, cut.end_of(kept) == len as u64, "cut at {len}: {:?}", cut.tail);
            assert_eq!(count_games(&path, 2).unwrap(), kept as u64, "counted, cut at {len}");
        }
        std::fs::write(&path, b"pairing,game\n").unwrap();
        assert!(GamesFile::read(&path, &names, 2, &["cards"]).unwrap_err().to_string().contains("header"));

        // Compressed, the same games read back; a compressed file cut anywhere (a kill while
        // writing it) reads as its first whole games, never as an error.
        let gz = dir.path().join("games.csv.gz");
        let mut w = GamesWriter::create(&gz, &["cards"], true).unwrap();
        for (j, r) in &games {
            w.write(j, &RowFormat::new(&names), r).unwrap();
        }
        w.finish().unwrap();
        let unpacked = GamesFile::read(&gz, &names, 2, &["cards"]).unwrap();
        assert_eq!((unpacked.games, unpacked.tail), (file.games.clone(), Tail::Clean));
        let packed = std::fs::read(&gz).unwrap();
        assert!(packed.len() < whole.len());
        for len in 0..packed.len() {
            std::fs::write(&gz, &packed[..len]).unwrap();
            let cut = GamesFile::read(&gz, &names, 2, &["cards"]).unwrap_or_else(|e| panic!("cut at {len}: {e}"));
            assert_eq!(cut.games[..], file.games[..cut.games.len()], "cut at {len}");
            assert_eq!(count_games(&gz, 2).unwrap(), cut.games.len() as u64, "counted, gz cut at {len}");
        }

        // A flush puts whole games on disk, readable while the writer goes on (plain and gz).
        for path in [&path, &gz] {
            let mut w = GamesWriter::create(path, &["cards"], path == &gz).unwrap();
            for (k, (j, r)) in games.iter().enumerate() {
                w.write(j, &RowFormat::new(&names), r).unwrap();
                w.flush().unwrap();
                assert_eq!(GamesFile::read(path, &names, 2, &["cards"]).unwrap().games.len(), k + 1);
                assert_eq!(count_games(path, 2).unwrap(), k as u64 + 1);
            }
        }
    }
}
