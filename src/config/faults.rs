//! Every error of a config, found in one pass and told together in line order, so that a file with
//! three typos is fixed in one go rather than in three runs.

use std::fmt::Display;
use std::ops::Range;

use super::Source;
use crate::error::{Error, Result};

/// The errors found so far in one config, each with the line it sorts by.
pub(crate) struct Faults<'s, 'a> {
    src: &'s Source<'a>,
    found: Vec<(usize, Error)>,
}

impl<'s, 'a> Faults<'s, 'a> {
    pub(crate) fn new(src: &'s Source<'a>) -> Self {
        Faults { src, found: Vec::new() }
    }

    /// An error at `span` of the config's text (`file:line: message`).
    pub(crate) fn at(&mut self, span: &Range<usize>, msg: impl Display) {
        self.found.push((self.line(span), self.src.error_at(span, msg)));
    }

    /// An error that names its own place, or has none in this text (a roster file's line, a
    /// flag's value): told as it is, among those of `span`'s line (first, with no span).
    pub(crate) fn told(&mut self, span: Option<&Range<usize>>, e: Error) {
        self.found.push((span.map_or(0, |s| self.line(s)), e));
    }

    /// An error of the whole text, which no line is at fault for (`file: message`).
    pub(crate) fn whole(&mut self, msg: impl Display) {
        let e = match self.src.flags {
            true => Error::input(msg.to_string()),
            false => Error::input(format!("{}: {msg}", self.src.path)),
        };
        self.found.push((0, e));
    }

    /// `result`'s value, or `None` with its error kept, at `span`.
    pub(crate) fn check<T>(&mut self, span: &Range<usize>, result: Result<T>) -> Option<T> {
        result.map_err(|e| self.at(span, e)).ok()
    }

    fn line(&self, span: &Range<usize>) -> usize {
        if self.src.flags {
            0
        } else {
            self.src.line_of(span)
        }
    }

    /// `value` when nothing was found; else the one error as it is, or several as one
    /// [`Error::Several`] that lists them in line order (those of one line in the order found).
    pub(crate) fn finish<T>(self, value: Option<T>) -> Result<T> {
        let mut found = self.found;
        found.sort_by_key(|(line, _)| *line);
        let mut errors: Vec<Error> = found.into_iter().map(|(_, e)| e).collect();
        match (errors.len(), value) {
            (0, Some(value)) => Ok(value),
            (0, None) => Err(Error::input(format!("{}: the config could not be read", self.src.path))),
            (1, _) => Err(errors.remove(0)),
            (_, _) => {
                let what = if self.src.flags { "the command line".to_string() } else { self.src.path.to_string() };
                Err(Error::Several { what, errors })
            }
        }
    }
}
