//! The library's error type. The CLI prints one line and exits with code 2 for every variant.

use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    /// Bad user input: a config, a name, a parameter, a card string, a command-line value.
    Input(String),
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
            Error::Input(msg) => f.write_str(msg),
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
