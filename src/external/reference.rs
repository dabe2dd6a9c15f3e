//! `arena protocol-bot`: a random-legal bot that speaks the protocol on stdin/stdout, for any
//! game. It is the protocol's reference bot (tests, `arena bench external`) and a template: it
//! answers `hello` with `ready`, seeds itself from `new_game`, and answers every `act` with one of
//! the legal actions, drawn from its seed alone, so its games are reproducible.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::fs::FileTypeExt;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::core::seeds::splitmix64;
use crate::external::process::{read_spinning, set_nonblocking};

/// The fields of a host message this bot reads; the others (the view) are skipped. Everything is
/// borrowed from the line: the legal actions stay JSON text, and the one picked is sent back as
/// it came, so no string is unescaped or copied but the answer.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    seed: u64,
    #[serde(default, borrow)]
    legal: Vec<&'a RawValue>,
}

/// Answers the host's messages from `input` on `output` until `quit` or the end of the input.
/// One line in, at most one line out, and one write for it.
pub fn serve(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut state = 0u64;
    let (mut line, mut answer) = (Vec::new(), Vec::new());
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let message: Message =
            serde_json::from_slice(&line).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        answer.clear();
        match message.kind.as_ref() {
            "hello" => answer.extend_from_slice(b"{\"type\":\"ready\"}\n"),
            "new_game" => state = message.seed,
            "act" => {
                state = state.wrapping_add(1);
                let pick = splitmix64(state) % message.legal.len().max(1) as u64;
                let action = message.legal.get(pick as usize).map_or("\"\"", |text| text.get());
                answer.extend_from_slice(b"{\"action\":");
                answer.extend_from_slice(action.as_bytes());
                answer.extend_from_slice(b"}\n");
            }
            "quit" => return Ok(()),
            _ => {} // game_over, and messages of later versions
        }
        if !answer.is_empty() {
            output.write_all(&answer)?;
            output.flush()?;
        }
    }
}

/// `arena protocol-bot`, on the process's own stdin and stdout. When stdin is a pipe (as the
/// host starts it) it is read as the host reads the bot's answers: polled for a moment before
/// sleeping, so that the host's next line does not wait for an idle core to wake up.
pub fn main() -> io::Result<()> {
    let stdin = io::stdin().as_fd().try_clone_to_owned().map(File::from)?;
    if stdin.metadata()?.file_type().is_fifo() {
        set_nonblocking(stdin.as_raw_fd())?;
        serve(io::BufReader::new(Polled(stdin)), io::stdout().lock())
    } else {
        serve(io::stdin().lock(), io::stdout().lock())
    }
}

/// A non-blocking pipe read through [`read_spinning`].
struct Polled(File);

impl Read for Polled {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_spinning(&mut self.0, buf, None).map_err(|e| io::Error::other(format!("{e:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_hello_and_acts_from_its_seed_alone() {
        let script = concat!(
            "{\"type\":\"hello\",\"protocol\":1,\"game\":\"x\",\"unknown\":[1,2]}\n",
            "{\"type\":\"new_game\",\"seat\":0,\"game\":0,\"seed\":42}\n",
            "{\"type\":\"act\",\"view\":{},\"legal\":[\"a\",\"b\",\"c\"]}\n",
            "{\"type\":\"act\",\"view\":{},\"legal\":[\"a\",\"b\",\"c\"]}\n",
            "{\"type\":\"game_over\"}\n",
            "{\"type\":\"quit\"}\n",
            "{\"type\":\"act\",\"legal\":[\"after quit\"]}\n",
        );
        let mut out = Vec::new();
        serve(script.as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0], "{\"type\":\"ready\"}");
        let again = {
            let mut o = Vec::new();
            serve(script.as_bytes(), &mut o).unwrap();
            o
        };
        assert_eq!(out.as_bytes(), again, "the same seed, the same answers");
        for line in &lines[1..] {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(["a", "b", "c"].contains(&v["action"].as_str().unwrap()));
        }
    }
}
