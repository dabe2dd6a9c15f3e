//! The library's error type. The CLI prints one line (a line for each of [`Error::Several`]) and
//! exits with code 2 (bad input), 4 for
//! [`Error::Io`], or 5 for [`Error::BotCannotRun`] (then the end of the bot's log follows).

use std::fmt::Write;
use std::path::PathBuf;

#[derive(Debug)]
/// What went wrong, for the one `error: ...` line the command line prints.
pub enum Error {
    /// Bad user input: a config, a name, a parameter, a card string, a command-line value.
    Input(String),
    /// A table option or bot parameter at fault: the message, and the key, so that a config can
    /// point at the line that set it.
    Param {
        /// The option's or parameter's key.
        key: String,
        /// What is wrong with its value.
        message: String,
    },
    /// A file that could not be read or written for a reason of the system's (a full disk,
    /// permissions on the output, a vanished folder). A file the user named that cannot be read
    /// is [`Error::Input`] ([`Error::bad_path`]), as is an output folder that cannot be made.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Several errors of one input found in one pass (every error of a config file, in line
    /// order): `what` names the input. Shown as a line saying how many, then one line each.
    Several {
        /// The input they are of (a config file's path).
        what: String,
        /// The errors, in the input's order.
        errors: Vec<Error>,
    },
    /// A bot outside the process could not run: its first games all failed at its start
    /// (tournament/start_watch.rs). The run stopped; the CLI shows the end of the bot's log.
    BotCannotRun(Box<CannotRun>),
}

/// Why a run stopped because one of its bots could not run.
#[derive(Debug)]
pub struct CannotRun {
    /// The bot's name in the run.
    pub bot: String,
    /// The reason of its last failed start, as games.csv would show it.
    pub reason: String,
    /// The games it failed at its start; `all`: the session had no more for it (fewer than 3).
    pub games: u32,
    /// Whether those were all the games the session had for it (fewer than three).
    pub all: bool,
    /// Its program and arguments, when it has a `command`.
    pub command: Option<String>,
    /// Its stderr log in the run folder.
    pub log: PathBuf,
}

impl Error {
    /// An error of what the user wrote (exit code 2).
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
    }

    /// An error reading or writing `path` (exit code 4).
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }

    /// A path the user named that cannot be read or made (a config that is not there, an output
    /// folder under a file): bad input.
    pub fn bad_path(path: &std::path::Path, source: std::io::Error) -> Error {
        // The system's own failures stay I/O failures, whoever named the path.
        const SYSTEM: &[i32] =
            &[libc::ENOSPC, libc::EDQUOT, libc::EIO, libc::EROFS, libc::ENOMEM, libc::EMFILE, libc::ENFILE];
        if source.raw_os_error().is_some_and(|e| SYSTEM.contains(&e)) {
            return Error::io(path, source);
        }
        Error::Input(format!("{}: {source}", path.display()))
    }
}

/// The most characters an error shows: one line on any terminal, whatever paths or values it names.
const MAX_MESSAGE_CHARS: usize = 500;

impl std::fmt::Display for Error {
    /// One line whatever the message holds: control characters (a newline in a path, a terminal
    /// escape) are escaped and a message longer than `MAX_MESSAGE_CHARS` is cut. Several errors
    /// are a line saying how many, then each error's one line, indented.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Error::Input(msg) | Error::Param { message: msg, .. } => std::borrow::Cow::Borrowed(msg.as_str()),
            Error::Io { path, source } => std::borrow::Cow::Owned(format!("{}: {source}", path.display())),
            Error::Several { what, errors } => {
                one_line_of(f, &format!("{what} has {} errors:", errors.len()))?;
                return errors.iter().try_for_each(|e| write!(f, "\n  {e}"));
            }
            Error::BotCannotRun(c) => std::borrow::Cow::Owned(format!(
                "bot {} could not run: {}, at the start of {} {}, with no answer in any ({}its log: {})",
                c.bot,
                c.reason,
                c.games,
                match (c.all, c.games) {
                    (true, 1) => "game (the run had no more for it)",
                    (true, _) => "games (the run had no more for it)",
                    (false, _) => "games",
                },
                // A reason that quotes the command (`cannot start `...`: ...`) says it already.
                match &c.command {
                    Some(command) if !c.reason.contains(command.as_str()) => format!("command: {command}; "),
                    _ => String::new(),
                },
                c.log.display()
            )),
        };
        one_line_of(f, &text)
    }
}

/// `text` written on one line: control characters escaped, cut after [`MAX_MESSAGE_CHARS`].
fn one_line_of(f: &mut std::fmt::Formatter<'_>, text: &str) -> std::fmt::Result {
    for (i, c) in text.chars().enumerate() {
        if i == MAX_MESSAGE_CHARS {
            return f.write_str("…");
        }
        if c.is_control() {
            for e in c.escape_default() {
                f.write_char(e)?;
            }
        } else {
            f.write_char(c)?;
        }
    }
    Ok(())
}

impl std::error::Error for Error {}

/// The crate's result: its errors are [`Error`]s.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A value the user gave, as it may be echoed in an error: quoted, control characters escaped,
/// and cut to 40 characters (a 1 MB value or one with newlines must not flood or break the line).
pub fn shown(value: &str) -> String {
    const MAX: usize = 40;
    let mut out = String::from("`");
    for (i, c) in value.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        if c.is_control() || c == '`' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// A parser's message on one line: toml's messages may span lines ("invalid string\nexpected
/// ..."), and every error of this program is one line.
pub fn one_line(msg: &str) -> String {
    msg.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::{shown, Error};

    #[test]
    fn shown_values_are_one_short_line() {
        assert_eq!(shown("AhKd"), "`AhKd`");
        assert_eq!(shown("a\nb"), "`a\\nb`");
        let long = shown(&"x".repeat(1_000_000));
        assert!(long.len() < 50 && long.ends_with("…`"), "{long}");
    }

    #[test]
    fn an_error_is_one_line_whatever_it_names() {
        let path = std::path::PathBuf::from("a\nb\x1b[31m.toml");
        let e = Error::io(&path, std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(e.to_string(), "a\\nb\\u{1b}[31m.toml: entity not found");
        let long = Error::input("x".repeat(100_000)).to_string();
        assert_eq!(long.chars().count(), 501);
    }

    #[test]
    fn several_errors_are_a_line_each() {
        let errors = vec![Error::input("a.toml:2: one"), Error::input("a.toml:5: two\nlines")];
        let e = Error::Several { what: "a.toml".into(), errors };
        assert_eq!(e.to_string(), "a.toml has 2 errors:\n  a.toml:2: one\n  a.toml:5: two\\nlines");
    }
}
