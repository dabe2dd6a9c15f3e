//! A config's TOML read key by key, so that one key's error does not hide the next: the top-level
//! keys with where each is written, and one key's value as its type or the parser's error with
//! its place. (Read whole into one struct, the parser stops at the first error.)

use std::marker::PhantomData;

use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use toml::Spanned;

/// The top-level keys of the document `text`, in order, each with where it is written.
pub(super) fn keys(text: &str) -> Result<Vec<Spanned<String>>, toml::de::Error> {
    Keys.deserialize(toml::Deserializer::new(text))
}

/// The value of the top-level `key` of the document `text` as a `T`: `None` when the key is not
/// there, the parser's error (placed at the value at fault) when the value is no `T`.
pub(super) fn field<T: DeserializeOwned>(text: &str, key: &str) -> Result<Option<T>, toml::de::Error> {
    Field::<T> { key, value: PhantomData }.deserialize(toml::Deserializer::new(text))
}

struct Keys;

impl<'de> DeserializeSeed<'de> for Keys {
    type Value = Vec<Spanned<String>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Keys {
    type Value = Vec<Spanned<String>>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a table of keys")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut keys = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            map.next_value::<IgnoredAny>()?;
            keys.push(key);
        }
        Ok(keys)
    }
}

struct Field<'k, T> {
    key: &'k str,
    value: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for Field<'_, T> {
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for Field<'_, T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a table of keys")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            match key == self.key {
                true => found = Some(map.next_value::<T>()?),
                false => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "game = \"holdem\"\ngames = \"ten\"\n[table]\nsize = 9\n[bot.rr]\nx = 1\n";

    #[test]
    fn every_top_level_key_is_found_with_its_place() {
        let keys = keys(TEXT).unwrap();
        let named: Vec<(&str, &str)> = keys.iter().map(|k| (k.get_ref().as_str(), &TEXT[k.span()])).collect();
        assert_eq!(named, [("game", "game"), ("games", "games"), ("table", "table"), ("bot", "bot")]);
    }

    #[test]
    fn one_key_is_read_whatever_the_others_hold() {
        assert_eq!(field::<String>(TEXT, "game").unwrap().as_deref(), Some("holdem"));
        assert_eq!(field::<i64>(TEXT, "seed").unwrap(), None);
        let e = field::<Spanned<i64>>(TEXT, "games").unwrap_err();
        assert!(e.message().contains("invalid type: string \"ten\""), "{}", e.message());
        assert_eq!(&TEXT[e.span().unwrap()], "\"ten\"");
        let table = field::<Spanned<toml::Table>>(TEXT, "table").unwrap().unwrap();
        assert_eq!(table.get_ref()["size"].as_integer(), Some(9));
    }
}
