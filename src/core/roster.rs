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
//! A relative path in a roster entry (a `command`'s script) starts from `bots/`, the roster's
//! folder, built in or not.

use serde::Deserialize;
use toml::Table;

use crate::core::suggest::known_names;
use crate::core::{limits, resolve_paths, BotChoice, BotKind, GameDef, ParamSpec, Params};
use crate::error::{one_line, shown, Error, Result};

/// What a roster is checked against: a game's name, its built-in roster text and its bot kinds.
/// The registry's entries are catalogs (with every kind added to the game); so is a game alone
/// ([`OwnKinds`]: its own kinds), for its adviser.
pub trait BotCatalog {
    /// The game's registered name, for messages.
    fn game_name(&self) -> &'static str;
    /// The game's built-in roster (`bots/<game>.toml`'s text).
    fn roster_text(&self) -> &'static str;
    /// The parameter specs of a bot kind, if the game has it.
    fn kind_params(&self, kind: &str) -> Option<&'static [ParamSpec]>;
    /// The game's bot kinds, for "did you mean".
    fn kind_names(&self) -> Vec<&'static str>;
}

/// A game's own bot kinds and roster, as its [`GameDef`] declares them, and any kind added to
/// them ([`OwnKinds::and`]: hold'em's LBR takes a program as its opponent).
pub struct OwnKinds<G: GameDef> {
    kinds: Vec<BotKind<G>>,
}

impl<G: GameDef> OwnKinds<G> {
    /// The catalog of `G`'s own kinds.
    pub fn new() -> Self {
        OwnKinds { kinds: G::bot_kinds() }
    }

    /// This catalog with `kind` added.
    pub fn and(mut self, kind: BotKind<G>) -> Self {
        self.kinds.push(kind);
        self
    }

    /// The kind named `name`, if the catalog has it.
    pub fn kind(&self, name: &str) -> Option<&BotKind<G>> {
        self.kinds.iter().find(|k| k.name == name)
    }
}

impl<G: GameDef> Default for OwnKinds<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: GameDef> BotCatalog for OwnKinds<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }
    fn roster_text(&self) -> &'static str {
        G::ROSTER
    }
    fn kind_params(&self, kind: &str) -> Option<&'static [ParamSpec]> {
        self.kind(kind).map(|k| k.params)
    }
    fn kind_names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name).collect()
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
/// One named bot of a roster: a kind and the parameters it sets.
pub struct RosterEntry {
    /// The bot kind it is.
    pub kind: String,
    #[serde(default)]
    /// One line on the variant, for `arena list`.
    pub about: String,
    #[serde(default)]
    /// The parameters it sets; the kind's defaults hold for the rest.
    pub params: Table,
    /// Where the entry is written (`bots/gomoku.toml:12`), for errors about its parameters.
    #[serde(skip)]
    pub place: String,
}

/// A roster name or bot kind resolved: the kind, the parameters the roster gives it, and for each
/// of those the place it was written.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The bot kind the name came to.
    pub kind: String,
    /// Its parameters, the variant's with the given ones over them.
    pub params: Table,
    /// Where each parameter's value came from (parameter, source), for messages.
    pub places: Vec<(String, String)>,
}

impl Resolved {
    /// Where parameter `key` was set, if a roster entry set it.
    pub fn place_of(&self, key: &str) -> Option<&str> {
        self.places.iter().find(|(k, _)| k == key).map(|(_, place)| place.as_str())
    }
}

/// Named variants of one game's bots, in file order.
#[derive(Clone, Debug, Default)]
pub struct Roster {
    /// The variants by name, in the file's order.
    pub entries: Vec<(String, RosterEntry)>,
    /// The folder the entries' relative paths start from ([`Roster::load`]: `bots/` of the
    /// working folder, built in or not); none, and they stay as written.
    pub dir: Option<std::path::PathBuf>,
}

/// The folder of the rosters, in the working folder.
pub const ROSTER_DIR: &str = "bots";

impl Roster {
    /// The game's built-in roster, with `bots/<game>.toml` from the working folder on top when it
    /// exists: its entries are added, and replace built-in ones of the same name. Relative paths
    /// in either start from `bots/`: the built-in roster is that file's text, and means the same.
    pub fn load(game: &(impl BotCatalog + ?Sized)) -> Result<Roster> {
        let path = format!("{ROSTER_DIR}/{}.toml", game.game_name());
        let mut roster = Roster::parse(game.roster_text(), &format!("{path} (built in)"))?;
        let local = std::path::Path::new(&path);
        if local.exists() {
            roster.extend(Roster::parse(&limits::read_text(local)?, &path)?);
        }
        roster.dir = Some(std::path::PathBuf::from(ROSTER_DIR));
        roster.check(game)?;
        Ok(roster)
    }

    /// Checks every entry, used or not, so that a misspelt variant is found when its file is read
    /// rather than when a run first names it: its kind (through the entries it builds on) is a bot
    /// kind of `game`, and its parameters are that kind's, of the right types and within range.
    /// An error names the entry's file and line (or the line of the entry that set the parameter).
    pub fn check(&self, game: &(impl BotCatalog + ?Sized)) -> Result<()> {
        for (name, entry) in &self.entries {
            let at = |e: Error| Error::input(format!("{}: [{name}]: {e}", entry.place));
            // An entry named as its kind (`[weights] kind = "weights"`) sets that kind's defaults.
            if entry.kind != *name {
                self.lookup(game, &entry.kind).map_err(at)?;
            }
            let resolved = self.lookup(game, name).map_err(at)?;
            let specs = game.kind_params(&resolved.kind).expect("lookup resolved a kind of this game");
            Params::new(&BotChoice::specs(specs), &resolved.params, &format!("bot `{name}`")).map_err(|e| {
                let place = match &e {
                    Error::Param { key, .. } => resolved.place_of(key).unwrap_or(&entry.place),
                    _ => &entry.place,
                };
                Error::input(format!("{place}: {e}"))
            })?;
        }
        Ok(())
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

    /// Reads a roster file's `text`; `path` names it in errors.
    pub fn parse(text: &str, path: &str) -> Result<Roster> {
        let table: Table = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| 1 + text[..s.start].matches('\n').count()).unwrap_or(0);
            Error::input(format!("{path}:{line}: {}", one_line(e.message())))
        })?;
        let mut entries = Vec::new();
        for (name, value) in table {
            limits::check_bot_name(&name).map_err(|e| Error::input(format!("{path}: {e}")))?;
            let line = text
                .lines()
                .position(|l| l.trim() == format!("[{name}]") || l.trim_start().starts_with(&format!("{name} =")))
                .map_or(String::new(), |i| format!(":{}", i + 1));
            let mut entry: RosterEntry = value.try_into().map_err(|e: toml::de::Error| {
                Error::input(format!("{path}{line}: [{name}]: {}", one_line(e.message())))
            })?;
            entry.place = format!("{path}{line}");
            entries.push((name, entry));
        }
        Ok(Roster { entries, dir: None })
    }

    /// Where the entry `name` is written (`bots/holdem.toml (built in):3`), if the roster has one.
    pub fn place_of(&self, name: &str) -> Option<&str> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, e)| e.place.as_str())
    }

    /// Resolves a roster name or a bot kind to its kind and the parameters the roster gives it.
    /// Roster entries may build on other entries (`kind = "rr-tight"`); a cycle is an error.
    pub fn lookup(&self, game: &(impl BotCatalog + ?Sized), name: &str) -> Result<Resolved> {
        let mut resolved = Resolved { kind: name.to_string(), params: Table::new(), places: Vec::new() };
        let mut path = vec![name.to_string()];
        for _ in 0..=self.entries.len() {
            let Some((_, entry)) = self.entries.iter().find(|(n, _)| *n == resolved.kind) else { break };
            // The outer entry's parameters win over the one it builds on.
            for (key, value) in &entry.params {
                if !resolved.params.contains_key(key) {
                    resolved.params.insert(key.clone(), value.clone());
                    resolved.places.push((key.clone(), entry.place.clone()));
                }
            }
            if entry.kind == resolved.kind {
                break;
            }
            if path.contains(&entry.kind) {
                path.push(entry.kind.clone());
                return Err(Error::input(format!(
                    "roster entries build on each other in a cycle: {}",
                    path.join(" -> ")
                )));
            }
            resolved.kind = entry.kind.clone();
            path.push(entry.kind.clone());
        }
        if let Some(specs) = game.kind_params(&resolved.kind) {
            if let Some(dir) = &self.dir {
                resolve_paths(&BotChoice::specs(specs), &mut resolved.params, dir);
            }
            return Ok(resolved);
        }
        let mut known: Vec<&str> = game.kind_names();
        known.extend(self.entries.iter().map(|(n, _)| n.as_str()));
        Err(Error::input(format!(
            "unknown bot {} for {} ({})",
            shown(name),
            game.game_name(),
            known_names(name, &known)
        )))
    }
}

/// A bot named on a command line (`--bot NAME`, a kind or a roster name) with `--param
/// name=value` overrides (TOML values, else the text as a string): its kind and checked parameters.
/// `name=value` from the command line (`flag` names it in the error): the value read as TOML
/// (`depth=4`, `own=[1,2]`), or as a string when it is not TOML (`rule=renju`).
pub fn assignment(text: &str, flag: &str) -> Result<(String, toml::Value)> {
    let (name, value) =
        text.split_once('=').ok_or_else(|| Error::input(format!("{flag} {}: expected name=value", shown(text))))?;
    let value = toml::from_str::<Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    Ok((name.trim().to_string(), value))
}

/// The bot `--bot NAME --param k=v` names: a roster variant or a kind, with the overrides
/// applied; returns its name and checked parameters.
pub fn bot_from_args(game: &(impl BotCatalog + ?Sized), bot: &str, overrides: &[String]) -> Result<(String, Params)> {
    limits::check_bot_name(bot)?;
    let resolved = Roster::load(game)?.lookup(game, bot)?;
    let specs = BotChoice::specs(game.kind_params(&resolved.kind).expect("the roster resolved a kind of this game"));
    let mut given = Table::new();
    for param in overrides {
        let (name, value) = assignment(param, "--param")?;
        given.insert(name, value);
    }
    // A path on the command line starts from the working folder.
    resolve_paths(&specs, &mut given, std::path::Path::new(""));
    let mut params = resolved.params;
    params.extend(given);
    let params = Params::new(&specs, &params, &format!("bot `{bot}`"))?;
    Ok((resolved.kind, params))
}

/// A program as a bot, `NAME=KIND:COMMAND` (`mine=external:python3 mybot.py`; `NAME=` may be
/// left out: the kind names it), as (name, kind, the command split at spaces); `None` for a
/// roster name or kind (no `:`). `arena run --bot` and local best response's `opponent` read it.
pub fn program_spec(bot: &str) -> Result<Option<(String, String, Vec<String>)>> {
    let Some((head, command)) = bot.split_once(':') else { return Ok(None) };
    let (name, kind) = head.split_once('=').unwrap_or((head, head));
    let words: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    if words.is_empty() || name.trim().is_empty() || kind.trim().is_empty() {
        return Err(Error::input(format!(
            "--bot {bot}: a program as a bot is NAME=KIND:COMMAND, e.g. --bot 'mine=external:python3 mybot.py'"
        )));
    }
    Ok(Some((name.trim().to_string(), kind.trim().to_string(), words)))
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
