//! The roster: `bots/<game>.toml` names bot variants (a kind and its parameters), e.g.
//!
//! ```toml
//! [rr-tight]
//! kind = "rr"
//! about = "folds more"
//! params = { fold_below = 1.0 }
//! ```
//!
//! Each game's roster is built into the binary (its `GameDef::ROSTER`), so `arena` works from any
//! folder; a `bots/<game>.toml` in the working folder adds variants and replaces same-named ones.

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

impl Roster {
    /// The game's built-in roster, with `bots/<game>.toml` from the working folder on top when it
    /// exists: its entries are added, and replace built-in ones of the same name.
    pub fn load(game: &dyn GameEntry) -> Result<Roster> {
        let path = format!("bots/{}.toml", game.name());
        let mut roster = Roster::parse(game.roster(), &format!("{path} (built in)"))?;
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                roster.extend(Roster::parse(&text, &path)?);
                Ok(roster)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(roster),
            Err(e) => Err(Error::io(path, e)),
        }
    }

    /// Adds `other`'s entries; an entry of the same name replaces the one here.
    pub fn extend(&mut self, other: Roster) {
        for (name, entry) in other.entries {
            match self.entries.iter_mut().find(|(n, _)| *n == name) {
                Some(slot) => slot.1 = entry,
                None => self.entries.push((name, entry)),
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_roster_adds_entries_and_replaces_same_names() {
        let mut roster = Roster::parse("[a]\nkind = \"x\"\n[b]\nkind = \"y\"\n", "built-in").unwrap();
        roster.extend(Roster::parse("[b]\nkind = \"z\"\n[c]\nkind = \"x\"\n", "local").unwrap());
        let kinds: Vec<(&str, &str)> = roster.entries.iter().map(|(n, e)| (n.as_str(), e.kind.as_str())).collect();
        assert_eq!(kinds, vec![("a", "x"), ("b", "z"), ("c", "x")]);
    }
}
