//! The limits every run is checked against before any game is played, so a typo or a hostile input
//! is refused in one line instead of exhausting memory, wrapping a count or writing outside the
//! results folder.

use std::io::{self, BufRead, Read};
use std::path::Path;

use crate::error::{shown, Error, Result};

/// Tables of bots (pairings) a run may have: 100 bots make 4,950 heads-up pairings.
pub const MAX_PAIRINGS: u64 = 100_000;
/// Games a run may play in all (pairings × games per pairing): far beyond any real tournament,
/// well inside the counters' range.
pub const MAX_GAMES: u64 = 1_000_000_000_000;
/// Bytes of a config, roster or gate file.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Characters of a bot name or a run name.
pub const MAX_NAME_CHARS: usize = 64;
/// Bytes of one line a peer sends (a dealer, a manager, a bot): the longest real protocol line is
/// a few KiB, so this bounds what a hostile peer can make us hold.
pub const MAX_PEER_LINE: usize = 1 << 20;

/// A peer's input whose lines are bounded: more than [`MAX_PEER_LINE`] bytes without a newline is
/// an `InvalidData` error the moment the bound is passed, so no reader of lines (`read_line`,
/// `read_until`, `lines`) built on it holds more than the bound and one buffer.
pub struct BoundedLines<R> {
    inner: R,
    /// Bytes consumed since the last newline.
    run: usize,
}

impl<R: BufRead> BoundedLines<R> {
    pub fn new(inner: R) -> BoundedLines<R> {
        BoundedLines { inner, run: 0 }
    }
}

impl<R: BufRead> Read for BoundedLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for BoundedLines<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > MAX_PEER_LINE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line over {} MiB without a newline", MAX_PEER_LINE >> 20),
            ));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        let buf = self.inner.fill_buf().map(|b| &b[..n.min(b.len())]).unwrap_or(&[]);
        self.run = match buf.iter().rposition(|&b| b == b'\n') {
            Some(at) => n - at - 1,
            None => self.run + n,
        };
        self.inner.consume(n);
    }
}

/// The number of tables of `seats` drawn from `bots` bots (one when they fit at one table), or
/// `None` when it does not fit in a u64.
pub fn pairings(bots: usize, seats: usize) -> Option<u64> {
    if bots <= seats {
        return Some(1);
    }
    // C(n, k) = prod (n - k + i) / i, exact at every step.
    let (n, k) = (bots as u128, seats.min(bots - seats) as u128);
    let mut c: u128 = 1;
    for i in 1..=k {
        c = c.checked_mul(n - k + i)? / i;
        if c > u64::MAX as u128 {
            return None;
        }
    }
    Some(c as u64)
}

/// Checks a run's size: `pairings` tables (`None`: beyond counting) of `games` games each.
pub fn check_size(pairings: Option<u64>, games: u64) -> Result<()> {
    let pairings = match pairings {
        Some(p) if p <= MAX_PAIRINGS => p,
        Some(p) => {
            return Err(Error::input(format!(
                "{p} tables of bots is more than the limit of {MAX_PAIRINGS}: use fewer bots, or more seats per table"
            )))
        }
        None => {
            return Err(Error::input(format!(
                "more tables of bots than can be counted (limit {MAX_PAIRINGS}): use fewer bots"
            )))
        }
    };
    match pairings.checked_mul(games) {
        Some(total) if total <= MAX_GAMES => Ok(()),
        total => Err(Error::input(format!(
            "{} games in all ({pairings} table{} × {games}) is more than the limit of {MAX_GAMES}",
            total.map_or_else(|| "more than 2^64".to_string(), |t| t.to_string()),
            if pairings == 1 { "" } else { "s" },
        ))),
    }
}

/// Reads a text file the user named, refusing anything that is not a regular file of at most
/// [`MAX_FILE_BYTES`] (`/dev/zero`, a folder, a 1 GB log passed by mistake).
pub fn read_text(path: &Path) -> Result<String> {
    let file = std::fs::File::open(path).map_err(|e| Error::bad_path(path, e))?;
    let meta = file.metadata().map_err(|e| Error::bad_path(path, e))?;
    if !meta.is_file() {
        return Err(Error::input(format!("{}: not a regular file", path.display())));
    }
    let mut text = String::new();
    let read = file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text);
    read.map_err(|e| Error::bad_path(path, e))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::input(format!("{}: larger than the limit of {MAX_FILE_BYTES} bytes", path.display())));
    }
    Ok(text)
}

/// A bot's name, as it appears in CSV files and on the terminal: 1 to [`MAX_NAME_CHARS`] letters,
/// digits and `- _ . + #`, starting with a letter or digit (so no spreadsheet formula, no line
/// break, nothing to quote).
pub fn check_bot_name(name: &str) -> Result<()> {
    let ok_char = |c: char| c.is_alphanumeric() || "-_.+#".contains(c);
    let first_ok = name.chars().next().is_some_and(char::is_alphanumeric);
    if first_ok && name.chars().count() <= MAX_NAME_CHARS && name.chars().all(ok_char) {
        Ok(())
    } else {
        Err(Error::input(format!(
            "bad bot name {}: 1 to {MAX_NAME_CHARS} letters, digits and - _ . + #, starting with a letter or digit",
            shown(name)
        )))
    }
}

/// A run's name, which names its folder under results/: the same characters as a bot name, so it
/// can never climb out of results/ (`../x`) or be an absolute path.
pub fn check_run_name(name: &str) -> Result<()> {
    check_bot_name(name).map_err(|_| {
        Error::input(format!(
            "bad run name {}: 1 to {MAX_NAME_CHARS} letters, digits and - _ . + #, starting with a letter or digit (it names the folder results/NAME)",
            shown(name)
        ))
    })
}

/// A run name made from free text (a file name, the bots of a command line): characters a name
/// may not hold become `-`, and a long one is cut.
pub fn run_name_from(text: &str) -> String {
    let ok = |c: char| c.is_alphanumeric() || "-_.+#".contains(c);
    let name: String = text.chars().map(|c| if ok(c) { c } else { '-' }).take(MAX_NAME_CHARS).collect();
    if name.starts_with(char::is_alphanumeric) {
        name
    } else {
        format!("run{}", name.chars().take(MAX_NAME_CHARS - 3).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_line_over_the_bound_is_an_error_and_shorter_lines_pass() {
        let mut text = "short\n".repeat(3).into_bytes();
        text.extend(std::iter::repeat_n(b'x', MAX_PEER_LINE + 10));
        let mut input = BoundedLines::new(std::io::BufReader::with_capacity(4096, &text[..]));
        let mut line = String::new();
        for _ in 0..3 {
            line.clear();
            input.read_line(&mut line).unwrap();
            assert_eq!(line, "short\n");
        }
        let e = input.read_line(&mut line).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("1 MiB"), "{e}");
        // A line of exactly the bound is read.
        let mut text = vec![b'y'; MAX_PEER_LINE];
        text.push(b'\n');
        let mut input = BoundedLines::new(std::io::BufReader::new(&text[..]));
        assert_eq!(input.read_until(b'\n', &mut Vec::new()).unwrap(), MAX_PEER_LINE + 1);
    }

    #[test]
    fn pairings_are_binomials_and_overflow_is_none() {
        assert_eq!(pairings(2, 2), Some(1));
        assert_eq!(pairings(4, 2), Some(6));
        assert_eq!(pairings(40, 10), Some(847_660_528));
        assert_eq!(pairings(60, 5), Some(5_461_512));
        assert_eq!(pairings(200, 100), None);
    }

    #[test]
    fn sizes_over_the_limits_are_refused_with_the_count() {
        assert!(check_size(Some(3), 1000).is_ok());
        let e = check_size(Some(3), 6_148_914_691_236_517_206).unwrap_err().to_string();
        assert!(e.contains("more than 2^64") && e.contains("limit"), "{e}");
        let e = check_size(pairings(40, 10), 100).unwrap_err().to_string();
        assert!(e.contains("847660528 tables"), "{e}");
        assert!(check_size(None, 1).is_err());
    }

    #[test]
    fn names_that_could_escape_or_break_a_table_are_refused() {
        for good in ["rr", "rr-tight", "greedy#2", "w.1", "梭哈bot"] {
            assert!(check_bot_name(good).is_ok(), "{good}");
        }
        for bad in ["", "../x", "/abs", "a/b", "=cmd()", "-x", "a\nb", "a b", ".hidden", &"x".repeat(65)] {
            assert!(check_run_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_made_from_free_text_are_valid() {
        for text in ["my config", "../../x", "", "holdem-rr-vs-rr-tight", &"long".repeat(40), "-x"] {
            let name = run_name_from(text);
            assert!(check_run_name(&name).is_ok(), "{text:?} -> {name:?}");
        }
        assert_eq!(run_name_from("holdem-rr-vs-rr-tight"), "holdem-rr-vs-rr-tight");
    }

    #[test]
    fn only_small_regular_files_are_read() {
        assert!(read_text(Path::new("/dev/zero")).unwrap_err().to_string().contains("not a regular file"));
        assert!(read_text(Path::new("/")).is_err());
        let big = std::env::temp_dir().join(format!("bot-arena-big-{}.toml", std::process::id()));
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert!(read_text(&big).unwrap_err().to_string().contains("larger than"));
        std::fs::remove_file(&big).unwrap();
    }
}
