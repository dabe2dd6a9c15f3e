//! `arena protocol-bot`: a random-legal bot that speaks the protocol on stdin/stdout, for any
//! game. It is the protocol's reference bot (tests, `arena bench external`) and a template: it
//! answers `hello` with `ready`, seeds itself from `new_game`, and answers every `act` with one of
//! the legal actions, drawn from its seed alone, so its games are reproducible.

use std::io::{self, BufRead, Write};

use serde::Deserialize;

use crate::core::seeds::splitmix64;

/// The fields of a host message this bot reads; the others are skipped.
#[derive(Deserialize)]
struct Message {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    legal: Vec<String>,
}

/// Answers the host's messages from `input` on `output` until `quit` or the end of the input.
pub fn serve(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut state = 0u64;
    for line in input.lines() {
        let line = line?;
        let message: Message =
            serde_json::from_str(&line).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        match message.kind.as_str() {
            "hello" => writeln!(output, "{{\"type\":\"ready\"}}")?,
            "new_game" => state = message.seed,
            "act" => {
                state = state.wrapping_add(1);
                let pick = splitmix64(state) % message.legal.len().max(1) as u64;
                let action = message.legal.get(pick as usize).map_or("", String::as_str);
                serde_json::to_writer(&mut output, &serde_json::json!({ "action": action }))?;
                output.write_all(b"\n")?;
            }
            "quit" => break,
            _ => {} // game_over, and messages of later versions
        }
        output.flush()?;
    }
    Ok(())
}

/// `arena protocol-bot`, on the process's own stdin and stdout.
pub fn main() -> io::Result<()> {
    serve(io::stdin().lock(), io::stdout().lock())
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
