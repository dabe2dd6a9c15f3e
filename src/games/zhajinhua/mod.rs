//! Zhajinhua (炸金花, three-card poker): rules per ../shared/rules/zhajinhua.md.
//!
//! - [`eval`]: one comparable integer per hand (the `special_235` rule on top);
//! - [`winprob`]: exact heads-up win probability (table), exact against two, Monte Carlo against k;
//! - [`table`]: the betting rules, the [`Zhajinhua`] game;
//! - [`bots`]: `ev`, `ev-adaptive`, `always-call`, `random`, `threshold`;
//! - [`advise`]: `arena advise zhajinhua`.

pub mod advise;
mod bench;
pub mod bots;
pub mod eval;
pub mod table;
pub mod winprob;

#[cfg(test)]
mod measure;

pub use table::{Action, Event, Public, State, View, Zhajinhua};

pub use bench::benches;

/// The roster of named variants (bots/zhajinhua.toml), checked by the tests below.
#[cfg(test)]
const ROSTER: &str = include_str!("../../../bots/zhajinhua.toml");

#[cfg(test)]
mod tests {
    use crate::core::Params;
    use crate::games::GameDef;

    use super::Zhajinhua;

    #[test]
    fn roster_and_configs_name_known_bots_and_valid_options() {
        let roster: toml::Table = toml::from_str(super::ROSTER).unwrap();
        for (name, v) in &roster {
            let kind = v["kind"].as_str().unwrap();
            let k = Zhajinhua::bot_kinds().iter().find(|k| k.name == kind).unwrap_or_else(|| panic!("{name}: {kind}"));
            let params = v.get("params").and_then(|p| p.as_table()).cloned().unwrap_or_default();
            Params::new(k.params, &params, name).unwrap();
        }
        for config in [
            include_str!("../../../configs/zhajinhua-3.toml"),
            include_str!("../../../configs/zhajinhua-4.toml"),
            include_str!("../../../configs/zhajinhua-6.toml"),
            include_str!("../../../configs/zhajinhua-headsup.toml"),
        ] {
            let c: toml::Table = toml::from_str(config).unwrap();
            assert_eq!(c["game"].as_str(), Some("zhajinhua"));
            let table = c.get("table").and_then(|t| t.as_table()).cloned().unwrap_or_default();
            let options = Params::new(Zhajinhua::OPTIONS, &table, "zhajinhua").unwrap();
            Zhajinhua::from_options(&options, c["seats"].as_integer().unwrap() as usize).unwrap();
            for b in c["bots"].as_array().unwrap() {
                let name = b.as_str().unwrap();
                assert!(roster.contains_key(name) || Zhajinhua::bot_kinds().iter().any(|k| k.name == name), "{name}");
            }
        }
    }
}
