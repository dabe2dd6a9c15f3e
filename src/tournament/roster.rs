//! The roster: `bots/<game>.toml` names bot variants (a kind and its parameters), e.g.
//!
//! ```toml
//! [rr-tight]
//! kind = "rr"
//! about = "folds more"
//! params = { fold_below = 1.0 }
//! ```
//!
//! The file in `./bots/` is read when it exists (so a user can edit it); otherwise the copy built
//! into the binary is used, so `arena` works from any folder.

use serde::Deserialize;
use toml::Table;

use crate::error::{Error, Result};
use crate::games::GameEntry;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RosterEntry {
    pub kind: String,
    #[serde(default)]
    pub about: String,
    #[serde(default)]
    pub params: Table,
}

/// Named variants of one game's bots, in file order.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    pub entries: Vec<(String, RosterEntry)>,
}

/// The roster files built into the binary.
fn built_in(game: &str) -> &'static str {
    match game {
        "gomoku" => include_str!("../../bots/gomoku.toml"),
        "holdem" => include_str!("../../bots/holdem.toml"),
        "zhajinhua" => include_str!("../../bots/zhajinhua.toml"),
        "stud" => include_str!("../../bots/stud.toml"),
        "mahjong" => include_str!("../../bots/mahjong.toml"),
        _ => "",
    }
}

impl Roster {
    /// `bots/<game>.toml` from the working folder, else the built-in copy.
    pub fn load(game: &str) -> Result<Roster> {
        let path = format!("bots/{game}.toml");
        match std::fs::read_to_string(&path) {
            Ok(text) => Roster::parse(&text, &path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Roster::parse(built_in(game), &path),
            Err(e) => Err(Error::io(path, e)),
        }
    }

    pub fn parse(text: &str, path: &str) -> Result<Roster> {
        let table: Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| 1 + text[..s.start].matches('\n').count()).unwrap_or(0);
            Error::input(format!("{path}:{line}: {}", crate::tournament::config::one_line(e.message())))
        })?;
        let mut entries = Vec::new();
        for (name, value) in table {
            let entry: RosterEntry = value.try_into().map_err(|e: toml::de::Error| {
                Error::input(format!("{path}: [{name}]: {}", crate::tournament::config::one_line(e.message())))
            })?;
            entries.push((name, entry));
        }
        Ok(Roster { entries })
    }

    /// Resolves a roster name or a bot kind to (kind, parameters given so far). Roster entries may
    /// build on other entries (`kind = "rr-tight"`); a cycle is an error.
    pub fn lookup(&self, game: &dyn GameEntry, name: &str) -> Result<(String, Table)> {
        let mut params = Table::new();
        let mut current = name.to_string();
        for _ in 0..=self.entries.len() {
            if let Some((_, entry)) = self.entries.iter().find(|(n, _)| *n == current) {
                // The outer entry's parameters win over the one it builds on.
                let mut merged = entry.params.clone();
                merged.extend(params);
                params = merged;
                if entry.kind == current {
                    break;
                }
                current = entry.kind.clone();
                continue;
            }
            break;
        }
        if game.bot_params(&current).is_some() {
            return Ok((current, params));
        }
        let mut known: Vec<String> = game.bots().iter().map(|b| b.name.to_string()).collect();
        known.extend(self.entries.iter().map(|(n, _)| n.clone()));
        Err(Error::input(format!("unknown bot `{name}` for {} (known: {})", game.name(), known.join(", "))))
    }
}
