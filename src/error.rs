//! The library's error type. The CLI prints one line and exits with code 2 for every variant.

use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    /// Bad user input: a config, a name, a parameter, a card string, a command-line value.
    Input(String),
    /// A table option or bot parameter at fault: the message, and the key, so that a config can
    /// point at the line that set it.
    Param { key: String, message: String },
    /// A file that could not be read or written.
    Io { path: PathBuf, source: std::io::Error },
}

impl Error {
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Input(msg) | Error::Param { message: msg, .. } => f.write_str(msg),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

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

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn shown_values_are_one_short_line() {
        assert_eq!(shown("AhKd"), "`AhKd`");
        assert_eq!(shown("a\nb"), "`a\\nb`");
        let long = shown(&"x".repeat(1_000_000));
        assert!(long.len() < 50 && long.ends_with("…`"), "{long}");
    }
}
